//! The floating-point value type `Fp` (a format plus its bit pattern),
//! special values, classification, sign operations, and the unpacked exact
//! view (`Unpacked`) the arithmetic works on.

use crate::format::Format;

/// A floating-point datum of some `Format`, stored as its IEEE encoding.
///
/// `PartialEq`/`Eq`/`Hash` are *bitwise* identity (what hash-consing needs):
/// `+0 != -0` and a NaN equals itself. IEEE equality is `Fp::fp_eq`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Fp {
    format: Format,
    bits: u128,
}

/// The exact value of an operand, decoded from its encoding.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Unpacked {
    Nan,
    Infinite { negative: bool },
    Zero { negative: bool },
    /// `(-1)^negative * sig * 2^exp`, `sig != 0`.
    Finite { negative: bool, sig: u128, exp: i64 },
}

impl Fp {
    /// The value with encoding `bits`.
    ///
    /// # Panics
    /// If `bits` has bits set above the format's width (a caller bug).
    pub fn from_bits(format: Format, bits: u128) -> Fp {
        assert!(bits & !format.width_mask() == 0, "bit pattern {bits:#x} too wide for {format:?}");
        Fp { format, bits }
    }

    /// The IEEE encoding.
    pub fn to_bits(self) -> u128 {
        self.bits
    }

    pub fn format(self) -> Format {
        self.format
    }

    pub fn zero(format: Format, negative: bool) -> Fp {
        Fp { format, bits: if negative { format.sign_mask() } else { 0 } }
    }

    pub fn infinity(format: Format, negative: bool) -> Fp {
        let magnitude = format.max_biased_exp() << format.frac_bits();
        Fp::zero(format, negative).with_magnitude(magnitude)
    }

    /// The NaN every operation returns: positive, quiet, only the quiet bit
    /// set in the fraction (0x7FC00000 for binary32). SMT-LIB has a single
    /// NaN, so any choice is sound there; the x86 hardware NaN rules are in
    /// the `x86` module.
    pub fn nan(format: Format) -> Fp {
        Fp::infinity(format, false).with_magnitude((format.max_biased_exp() << format.frac_bits()) | format.quiet_bit())
    }

    /// Largest finite value.
    pub fn max_finite(format: Format, negative: bool) -> Fp {
        let magnitude = ((format.max_biased_exp() - 1) << format.frac_bits()) | format.frac_mask();
        Fp::zero(format, negative).with_magnitude(magnitude)
    }

    /// Smallest positive normal value.
    pub fn min_normal(format: Format, negative: bool) -> Fp {
        Fp::zero(format, negative).with_magnitude(1 << format.frac_bits())
    }

    /// Smallest positive subnormal value.
    pub fn min_subnormal(format: Format, negative: bool) -> Fp {
        Fp::zero(format, negative).with_magnitude(1)
    }

    fn with_magnitude(self, magnitude: u128) -> Fp {
        Fp { format: self.format, bits: (self.bits & self.format.sign_mask()) | magnitude }
    }

    fn biased_exp(self) -> u128 {
        (self.bits >> self.format.frac_bits()) & self.format.max_biased_exp()
    }

    pub(crate) fn fraction(self) -> u128 {
        self.bits & self.format.frac_mask()
    }

    /// The sign bit (set for -0, negative values and negative NaNs).
    pub fn sign_bit(self) -> bool {
        self.bits & self.format.sign_mask() != 0
    }

    pub fn is_nan(self) -> bool {
        self.biased_exp() == self.format.max_biased_exp() && self.fraction() != 0
    }

    /// A NaN with the quiet bit clear.
    pub fn is_signaling(self) -> bool {
        self.is_nan() && self.bits & self.format.quiet_bit() == 0
    }

    pub fn is_infinite(self) -> bool {
        self.biased_exp() == self.format.max_biased_exp() && self.fraction() == 0
    }

    pub fn is_finite(self) -> bool {
        self.biased_exp() != self.format.max_biased_exp()
    }

    pub fn is_zero(self) -> bool {
        self.bits & !self.format.sign_mask() == 0
    }

    pub fn is_normal(self) -> bool {
        self.is_finite() && self.biased_exp() != 0
    }

    pub fn is_subnormal(self) -> bool {
        self.biased_exp() == 0 && self.fraction() != 0
    }

    /// SMT-LIB `fp.isNegative`: false for NaN.
    pub fn is_negative(self) -> bool {
        !self.is_nan() && self.sign_bit()
    }

    /// SMT-LIB `fp.isPositive`: false for NaN.
    pub fn is_positive(self) -> bool {
        !self.is_nan() && !self.sign_bit()
    }

    /// Sign cleared (also of NaNs, as hardware does).
    pub fn abs(self) -> Fp {
        Fp { format: self.format, bits: self.bits & !self.format.sign_mask() }
    }

    /// `self` with the sign bit of `sign`.
    pub fn copy_sign(self, sign: Fp) -> Fp {
        if self.sign_bit() == sign.sign_bit() {
            self
        } else {
            -self
        }
    }

    pub(crate) fn unpack(self) -> Unpacked {
        let negative = self.sign_bit();
        let (biased, fraction) = (self.biased_exp(), self.fraction());
        let format = self.format;
        if biased == format.max_biased_exp() {
            return if fraction == 0 { Unpacked::Infinite { negative } } else { Unpacked::Nan };
        }
        if biased == 0 && fraction == 0 {
            return Unpacked::Zero { negative };
        }
        let (sig, biased) = if biased == 0 { (fraction, 1) } else { (fraction | 1 << format.frac_bits(), biased as i64) };
        Unpacked::Finite { negative, sig, exp: biased - format.bias() - format.frac_bits() as i64 }
    }

    /// Encodes a finite value already known to be exactly representable:
    /// `sig < 2^sig_bits` at the exponent of its last place.
    pub(crate) fn pack_exact(format: Format, negative: bool, sig: u128, lsb_exp: i64) -> Fp {
        let zero = Fp::zero(format, negative);
        if sig >> format.frac_bits() == 0 {
            debug_assert!(sig == 0 || lsb_exp == format.emin() - format.frac_bits() as i64);
            return zero.with_magnitude(sig);
        }
        let biased = lsb_exp + format.frac_bits() as i64 + format.bias();
        debug_assert!(biased >= 1 && (biased as u128) < format.max_biased_exp());
        zero.with_magnitude((biased as u128) << format.frac_bits() | (sig & format.frac_mask()))
    }
}

impl std::ops::Neg for Fp {
    type Output = Fp;

    /// Sign flip (also of NaNs, as hardware does); exact, no rounding.
    fn neg(self) -> Fp {
        Fp { format: self.format, bits: self.bits ^ self.format.sign_mask() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn single(bits: u32) -> Fp {
        Fp::from_bits(Format::SINGLE, bits as u128)
    }

    #[test]
    fn special_values_have_standard_encodings() {
        assert_eq!(Fp::infinity(Format::SINGLE, true).to_bits(), 0xFF80_0000);
        assert_eq!(Fp::nan(Format::SINGLE).to_bits(), 0x7FC0_0000);
        assert_eq!(Fp::max_finite(Format::DOUBLE, false).to_bits(), f64::MAX.to_bits() as u128);
        assert_eq!(Fp::min_normal(Format::DOUBLE, false).to_bits(), f64::MIN_POSITIVE.to_bits() as u128);
        assert_eq!(Fp::zero(Format::QUAD, true).to_bits(), 1 << 127);
    }

    #[test]
    fn classification_follows_the_encoding() {
        let nan = single(0xFFC0_0001);
        assert!(nan.is_nan() && !nan.is_negative() && !nan.is_positive() && !nan.is_signaling());
        assert!(single(0x7F80_0001).is_signaling());
        assert!(single(0x0000_0001).is_subnormal() && !single(1).is_normal());
        assert!(single(0x8080_0000).is_normal() && single(0x8080_0000).is_negative());
        assert!(single(0x8000_0000).is_zero() && single(0x8000_0000).is_negative());
        assert!(single(0x7F80_0000).is_infinite() && !single(0x7F80_0000).is_finite());
    }

    #[test]
    fn unpack_gives_exact_values() {
        assert_eq!(single(0x3F80_0000).unpack(), Unpacked::Finite { negative: false, sig: 1 << 23, exp: -23 });
        assert_eq!(single(0x8000_0001).unpack(), Unpacked::Finite { negative: true, sig: 1, exp: -149 });
        assert_eq!(single(0x8000_0000).unpack(), Unpacked::Zero { negative: true });
        assert_eq!(Fp::pack_exact(Format::SINGLE, false, 1 << 23, -23), single(0x3F80_0000));
        assert_eq!(Fp::pack_exact(Format::SINGLE, true, 1, -149), single(0x8000_0001));
    }

    #[test]
    #[should_panic(expected = "too wide")]
    fn oversized_bit_patterns_are_rejected() {
        Fp::from_bits(Format::HALF, 0x1_0000);
    }
}
