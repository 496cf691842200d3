//! Exact IEEE-754 circuits for the floating-point operators, for any
//! format `(exp, sig)` (`sig` counts the hidden bit): the encoder behind
//! the FP arm of `blast::apply`.
//!
//! Floats are words of their IEEE encoding (least significant first:
//! trailing significand, exponent, sign); rounding modes are the 3-bit
//! index into `RoundingMode::ALL`. Every arithmetic operator follows one
//! shape: unpack the operands (`unpack`: classification, normalised
//! significand, signed extended exponent), compute the exact result or an
//! exact prefix with a sticky bit, and hand it to the one rounding circuit
//! (`round`), which also produces subnormals, overflow and the packing.
//! Special operands (NaN, infinities, zeros) are selected around the
//! finite path. NaN results are the canonical NaN, as in the evaluator.
//!
//! Remainders of significands wider than x87's (the circuit is quadratic
//! in the significand for every exponent bit) and formats beyond the
//! limits below return `None` and stay on the blaster's sound
//! approximation.

mod arith;
mod compare;
mod convert;
mod rem;
mod round;
mod sqrt;
mod unpack;

#[cfg(test)]
mod tests;

use smt::{Op, Sort};

use crate::aig::{Aig, Lit};
use crate::words::{self, Word};

pub use unpack::{classify, Class};

/// Exponent constants are computed in `i128`; wider exponents (no real
/// format has them) are left to the approximation.
const MAX_EXP_BITS: u32 = 64;

/// Multiplication and division circuits are quadratic in the significand.
const MAX_SIG_BITS: u32 = 1024;

/// Integer operands and results of conversions up to this width.
const MAX_INT_BITS: usize = 1024;

/// A floating-point format with its derived constants.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Format {
    /// Exponent field width.
    pub exp: usize,
    /// Significand width including the hidden bit.
    pub sig: usize,
}

impl Format {
    /// The format of a float sort, if its circuits are within the limits.
    pub fn of(sort: Sort) -> Option<Format> {
        let (exp, sig) = sort.float_format()?;
        (exp <= MAX_EXP_BITS && sig <= MAX_SIG_BITS).then_some(Format {
            exp: exp as usize,
            sig: sig as usize,
        })
    }

    pub fn width(self) -> usize {
        self.exp + self.sig
    }

    fn bias(self) -> i128 {
        (1i128 << (self.exp - 1)) - 1
    }

    fn emax(self) -> i128 {
        self.bias()
    }

    fn emin(self) -> i128 {
        1 - self.bias()
    }

    /// Width of signed exponent words holding every unpacked exponent,
    /// from `emin - (sig - 1)` (least subnormal) to `emax`, with room for
    /// one addition or subtraction of two of them.
    fn exp_width(self) -> usize {
        self.exp.max(words::bits_for(self.sig as u128)) + 2
    }

    /// The canonical NaN: positive, quiet bit only.
    fn nan(self) -> Word {
        let quiet = self.sig - 2;
        let mut word = words::constant(0, self.width());
        word[quiet] = Lit::TRUE;
        word[self.sig - 1..self.width() - 1].fill(Lit::TRUE);
        word
    }

    fn infinity(self, sign: Lit) -> Word {
        let mut word = words::constant(0, self.width());
        word[self.sig - 1..self.width() - 1].fill(Lit::TRUE);
        word[self.width() - 1] = sign;
        word
    }

    fn zero(self, sign: Lit) -> Word {
        let mut word = words::constant(0, self.width());
        word[self.width() - 1] = sign;
        word
    }

    fn max_finite(self, sign: Lit) -> Word {
        let mut word = self.infinity(sign);
        word[..self.sig - 1].fill(Lit::TRUE);
        word[self.sig - 1] = Lit::FALSE;
        word
    }
}

/// A signed constant `value` in a word of `width` bits.
fn signed_constant(value: i128, width: usize) -> Word {
    let mut word = words::constant(value as u128, width.min(128));
    word.resize(width, Lit::constant(value < 0));
    word
}

/// Sign-extends a signed word to `width` bits (no-op when already as wide).
fn widen(word: &[Lit], width: usize) -> Word {
    words::sign_extend(word, width.saturating_sub(word.len()))
}

/// The result of an operator whose finite path computed `finite`, after
/// the special cases in priority order: NaN, then infinity, then zero.
struct Specials {
    nan: Lit,
    infinity: Lit,
    infinity_sign: Lit,
    zero: Lit,
    zero_sign: Lit,
}

impl Specials {
    fn select(&self, aig: &mut Aig, format: Format, finite: &[Lit]) -> Word {
        let zero = words::mux(aig, self.zero, &format.zero(self.zero_sign), finite);
        let infinite = words::mux(
            aig,
            self.infinity,
            &format.infinity(self.infinity_sign),
            &zero,
        );
        words::mux(aig, self.nan, &format.nan(), &infinite)
    }
}

/// The word of FP operator `op` (result sort `sort`) on argument words of
/// sorts `arg_sorts`; `None` when there is no circuit for it here.
pub fn apply(aig: &mut Aig, op: Op, sort: Sort, arg_sorts: &[Sort], args: &[Word]) -> Option<Word> {
    use Op::*;
    let float_arg = usize::from(op.takes_rounding_mode());
    let format = || arg_sorts.get(float_arg).copied().and_then(Format::of);
    let mode = op
        .takes_rounding_mode()
        .then(|| round::Mode::decode(aig, &args[0]));
    let rm = || mode.as_ref().expect("operator with a rounding mode");
    let bit = |lit: Lit| Some(vec![lit]);
    Some(match op {
        FpAbs => unpack::abs(aig, format()?, &args[0]),
        FpNeg => unpack::negate(aig, format()?, &args[0]),
        FpIsNaN => return bit(classify(aig, format()?, &args[0]).nan),
        FpIsInfinite => return bit(classify(aig, format()?, &args[0]).infinite),
        FpIsZero => return bit(classify(aig, format()?, &args[0]).zero),
        FpIsNormal => return bit(classify(aig, format()?, &args[0]).normal),
        FpIsSubnormal => return bit(classify(aig, format()?, &args[0]).subnormal),
        FpIsNegative => return bit(classify(aig, format()?, &args[0]).negative(aig)),
        FpIsPositive => return bit(classify(aig, format()?, &args[0]).positive(aig)),
        FpEq => return bit(compare::eq(aig, format()?, &args[0], &args[1])),
        FpLt => return bit(compare::lt(aig, format()?, &args[0], &args[1])),
        FpLeq => return bit(compare::le(aig, format()?, &args[0], &args[1])),
        FpGt => return bit(compare::lt(aig, format()?, &args[1], &args[0])),
        FpGeq => return bit(compare::le(aig, format()?, &args[1], &args[0])),
        FpMin => compare::min_max(aig, format()?, &args[0], &args[1], true),
        FpMax => compare::min_max(aig, format()?, &args[0], &args[1], false),
        FpAdd => arith::add(aig, format()?, rm(), &args[1], &args[2], false),
        FpSub => arith::add(aig, format()?, rm(), &args[1], &args[2], true),
        FpMul => arith::mul(aig, format()?, rm(), &args[1], &args[2]),
        FpRem if format()?.sig <= rem::MAX_SIG_BITS => {
            let nearest = round::Mode::decode(aig, &words::constant(0, 3));
            let residue = rem::Residue::for_format(format()?);
            rem::rem(aig, format()?, &nearest, residue, &args[0], &args[1])
        }
        FpFma => arith::fma(aig, format()?, rm(), &args[1], &args[2], &args[3]),
        FpDiv => arith::div(aig, format()?, rm(), &args[1], &args[2]),
        FpSqrt => sqrt::sqrt(aig, format()?, rm(), &args[1]),
        // Formats whose largest values are not integers would round past
        // them; the circuit assumes they are (as in every real format).
        FpRoundToIntegral if format()?.emax() >= format()?.sig as i128 - 1 => {
            convert::round_to_integral(aig, format()?, rm(), &args[1])
        }
        ToFp { .. } => convert::float_to_float(aig, format()?, Format::of(sort)?, rm(), &args[1]),
        ToFpFromSbv { .. } | ToFpFromUbv { .. } if args[1].len() <= MAX_INT_BITS => {
            let signed = matches!(op, ToFpFromSbv { .. });
            convert::int_to_float(aig, Format::of(sort)?, rm(), &args[1], signed)
        }
        FpToSbv(width) | FpToUbv(width) if width as usize <= MAX_INT_BITS => {
            let signed = matches!(op, FpToSbv(_));
            convert::float_to_int(aig, format()?, rm(), &args[1], width as usize, signed)
        }
        _ => return None,
    })
}
