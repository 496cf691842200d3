//! Classification of IEEE encodings and unpacking into sign, signed
//! exponent and normalised significand; the sign-only operations.

use crate::aig::{Aig, Lit};
use crate::words::{self, Word};

use super::{signed_constant, Format};

/// What kind of value an encoding is (exactly one of the five kinds holds).
pub struct Class {
    pub sign: Lit,
    pub nan: Lit,
    pub infinite: Lit,
    pub zero: Lit,
    pub subnormal: Lit,
    pub normal: Lit,
}

impl Class {
    pub fn negative(&self, aig: &mut Aig) -> Lit {
        aig.and(self.sign, !self.nan)
    }

    pub fn positive(&self, aig: &mut Aig) -> Lit {
        aig.and(!self.sign, !self.nan)
    }
}

/// The fields of an encoding: trailing significand, exponent, sign.
fn fields(format: Format, bits: &[Lit]) -> (&[Lit], &[Lit], Lit) {
    let (fraction, rest) = bits.split_at(format.sig - 1);
    (fraction, &rest[..format.exp], rest[format.exp])
}

pub fn classify(aig: &mut Aig, format: Format, bits: &[Lit]) -> Class {
    let (fraction, exponent, sign) = fields(format, bits);
    let exponent_ones = words::reduce_and(aig, exponent);
    let exponent_zero = words::is_zero(aig, exponent);
    let fraction_zero = words::is_zero(aig, fraction);
    let either_extreme = aig.or(exponent_ones, exponent_zero);
    Class {
        sign,
        nan: aig.and(exponent_ones, !fraction_zero),
        infinite: aig.and(exponent_ones, fraction_zero),
        zero: aig.and(exponent_zero, fraction_zero),
        subnormal: aig.and(exponent_zero, !fraction_zero),
        normal: !either_extreme,
    }
}

/// A value split for arithmetic: for finite nonzero values
/// `|x| = significand · 2^(exponent - (sig - 1))` with the significand's
/// top bit set (subnormals are normalised); zero has a zero significand.
pub struct Unpacked {
    pub class: Class,
    /// Signed, [`Format::exp_width`] bits.
    pub exponent: Word,
    /// `sig` bits.
    pub significand: Word,
}

pub fn unpack(aig: &mut Aig, format: Format, bits: &[Lit]) -> Unpacked {
    let class = classify(aig, format, bits);
    let (fraction, exponent_field, _) = fields(format, bits);
    let width = format.exp_width();
    let exponent_zero = words::is_zero(aig, exponent_field);
    let mut significand = fraction.to_vec();
    significand.push(!exponent_zero);
    let (significand, leading_zeros) = words::normalize(aig, &significand, width);
    // Subnormals have the exponent of the least normal binade.
    let mut biased = words::zero_extend(exponent_field, width - format.exp);
    biased[0] = aig.or(biased[0], exponent_zero);
    let unbiased = words::sub(aig, &biased, &signed_constant(format.bias(), width));
    let exponent = words::sub(aig, &unbiased, &leading_zeros);
    Unpacked {
        class,
        exponent,
        significand,
    }
}

/// `fp.neg`: flips the sign; NaN stays as it is.
pub fn negate(aig: &mut Aig, format: Format, bits: &[Lit]) -> Word {
    let nan = classify(aig, format, bits).nan;
    let mut word = bits.to_vec();
    let sign = format.width() - 1;
    word[sign] = aig.xor(bits[sign], !nan);
    word
}

/// `fp.abs`: clears the sign; NaN stays as it is.
pub fn abs(aig: &mut Aig, format: Format, bits: &[Lit]) -> Word {
    let nan = classify(aig, format, bits).nan;
    let mut word = bits.to_vec();
    let sign = format.width() - 1;
    word[sign] = aig.and(bits[sign], nan);
    word
}
