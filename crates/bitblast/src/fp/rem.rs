//! IEEE remainder `x - n·y` (`n` the integer nearest to `x / y`, ties to
//! even), computed exactly over the whole exponent range by one of two
//! circuits for the same residue: long division (one conditional
//! subtraction per possible exponent difference, linear in `2^exp`) or
//! modular exponentiation (`2^d mod my` by square-and-multiply over the
//! bits of the exponent difference `d`, polynomial in `exp` and `sig`).
//! Each format gets the smaller one.

use crate::aig::{Aig, Lit};
use crate::words::{self, Word};

use super::round::{round, Mode};
use super::unpack::unpack;
use super::{signed_constant, widen, Format};

/// The modular-exponentiation circuit has about `exp · sig²` gates: the
/// widest significand handled is x87's (binary128 would take several
/// million gates per remainder and stays approximated).
pub const MAX_SIG_BITS: usize = 64;

/// Exponent fields up to this width use long division, whose `2^exp`
/// stages are then fewer gates than the squarings (see `docs/decisions/terms-and-solving.md`
/// for the measured sizes).
const LONG_DIVISION_MAX_EXP_BITS: usize = 5;

/// How the residue of the significands is computed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Residue {
    LongDivision,
    Modular,
}

impl Residue {
    /// The smaller circuit for `format`.
    pub fn for_format(format: Format) -> Residue {
        if format.exp <= LONG_DIVISION_MAX_EXP_BITS {
            Residue::LongDivision
        } else {
            Residue::Modular
        }
    }
}

/// `fp.rem` by the circuit `residue`; the result is exact, so any rounding
/// mode would do.
pub fn rem(aig: &mut Aig, format: Format, mode: &Mode, residue: Residue, a: &[Lit], b: &[Lit]) -> Word {
    let x = unpack(aig, format, a);
    let y = unpack(aig, format, b);
    let sig = format.sig;
    let width = format.exp_width() + 1;
    let difference = words::sub(aig, &widen(&x.exponent, width), &widen(&y.exponent, width));
    // With |x| < |y| / 2 the nearest integer is 0 and the remainder is x.
    let tiny = words::slt(aig, &difference, &signed_constant(-1, width));

    // In units of 2^(ey - sig): Y = 2·my and X = mx · 2^(d + 1), d + 1 >= 0
    // unless `tiny`; the residue X mod Y and the quotient's parity.
    let divisor = words::zero_extend(&words::concat(&y.significand, &[Lit::FALSE]), 1);
    let shifts = words::add(aig, &difference, &words::constant(1, width));
    let (remainder, odd_quotient) = match residue {
        Residue::LongDivision => long_division(aig, format, &x.significand, &divisor, &shifts),
        Residue::Modular => modular_residue(aig, format, &x.significand, &y.significand, &divisor, &shifts),
    };

    // Round the quotient to nearest, ties to even.
    let twice = words::shl_const(&words::zero_extend(&remainder, 1), 1);
    let divisor_wide = words::zero_extend(&divisor, 1);
    let above_half = words::ult(aig, &divisor_wide, &twice);
    let at_half = words::eq(aig, &divisor_wide, &twice);
    let tie_up = aig.and(at_half, odd_quotient);
    let round_up = aig.or(above_half, tie_up);
    let complement = words::sub(aig, &divisor, &remainder);
    let magnitude = words::mux(aig, round_up, &complement, &remainder);
    let sign = aig.xor(x.class.sign, round_up);

    let (significand, leading_zeros) = words::normalize(aig, &magnitude, width + 1);
    let unit = words::sub(
        aig,
        &widen(&y.exponent, width + 1),
        &signed_constant(sig as i128, width + 1),
    );
    let top = words::add(
        aig,
        &unit,
        &words::constant(magnitude.len() as u128 - 1, width + 1),
    );
    let exponent = words::sub(aig, &top, &leading_zeros);
    let exact = round(aig, format, mode, sign, &exponent, &significand, Lit::FALSE);

    let keep_x = aig.or_all([tiny, x.class.zero, y.class.infinite]);
    let result = words::mux(aig, keep_x, a, &exact);
    let nan = aig.or_all([x.class.nan, y.class.nan, x.class.infinite, y.class.zero]);
    words::mux(aig, nan, &format.nan(), &result)
}

/// `(mx · 2^shifts) mod divisor` (`sig + 2` bits) and the parity of the
/// quotient, by shifting one bit of the zero tail in per enabled stage.
fn long_division(aig: &mut Aig, format: Format, mx: &[Lit], divisor: &[Lit], shifts: &[Lit]) -> (Word, Lit) {
    let width = shifts.len();
    let mut remainder = words::zero_extend(mx, 2);
    let mut odd_quotient = Lit::FALSE;
    let stages = (format.emax() - format.emin()) as usize + format.sig;
    for stage in 1..=stages {
        let enabled = words::sle(aig, &signed_constant(stage as i128, width), shifts);
        let doubled = words::shl_const(&remainder, 1);
        let (reduced, fits) = words::sub_with_carry(aig, &doubled, divisor);
        let next = words::mux(aig, fits, &reduced, &doubled);
        remainder = words::mux(aig, enabled, &next, &remainder);
        odd_quotient = aig.mux(enabled, fits, odd_quotient);
    }
    (remainder, odd_quotient)
}

/// The same residue as [`long_division`], from `X mod 2Y`: with
/// `shifts = e`, `X = mx · 2^e` is `mx` or `2·mx` (both below `2Y = 4·my`)
/// for `e < 2`, and `4 · (mx · 2^(e - 2) mod my)` otherwise; one
/// conditional subtraction of `Y` then gives the residue mod `Y` and the
/// quotient's parity.
fn modular_residue(
    aig: &mut Aig,
    format: Format,
    mx: &[Lit],
    my: &[Lit],
    divisor: &[Lit],
    shifts: &[Lit],
) -> (Word, Lit) {
    let width = shifts.len();
    let largest = (format.emax() - format.emin()) as usize + format.sig - 2;
    let exponent_bits = words::bits_for(largest as u128);
    let reduced_shifts = words::sub(aig, shifts, &words::constant(2, width));
    let power = power_of_two_mod(aig, &reduced_shifts[..exponent_bits], my);
    let product = words::mul_wide(aig, mx, &power);
    let residue = reduce(aig, &product, my);

    let small = |aig: &mut Aig, e: u128| words::eq(aig, shifts, &words::constant(e, width));
    let (no_shift, one_shift) = (small(aig, 0), small(aig, 1));
    let quadrupled = words::shl_const(&words::zero_extend(&residue, 2), 2);
    let extended = words::zero_extend(mx, 2);
    let doubled = words::shl_const(&extended, 1);
    let after_one = words::mux(aig, one_shift, &doubled, &quadrupled);
    let twice_residue = words::mux(aig, no_shift, &extended, &after_one);
    let (reduced, odd_quotient) = words::sub_with_carry(aig, &twice_residue, divisor);
    (words::mux(aig, odd_quotient, &reduced, &twice_residue), odd_quotient)
}

/// A `sig`-bit word congruent to `2^exponent` modulo a `sig`-bit modulus
/// whose top bit is set, by square-and-multiply from the exponent's top
/// bit. The top bits worth less than `sig` give the start `2^top` directly
/// (a `sig`-bit word, not necessarily below the modulus: each reduction
/// takes any dividend whose top `sig - 1` bits are below the modulus).
fn power_of_two_mod(aig: &mut Aig, exponent: &[Lit], modulus: &[Lit]) -> Word {
    let sig = modulus.len();
    let direct_bits = (usize::BITS - 1 - sig.leading_zeros()) as usize;
    let split = exponent.len().saturating_sub(direct_bits);
    let mut power = words::shl(aig, &words::constant(1, sig), &exponent[split..]);
    for &bit in exponent[..split].iter().rev() {
        let square = words::square(aig, &power);
        let doubled = words::shl_const(&words::zero_extend(&square, 1), 1);
        let next = words::mux(aig, bit, &doubled, &words::zero_extend(&square, 1));
        power = reduce(aig, &next, modulus);
    }
    power
}

/// `value mod modulus` for a modulus of `sig` bits with its top bit set,
/// by restoring division: the top `sig - 1` bits of `value` are already
/// below the modulus, each further bit is one conditional subtraction.
fn reduce(aig: &mut Aig, value: &[Lit], modulus: &[Lit]) -> Word {
    let sig = modulus.len();
    let modulus = words::zero_extend(modulus, 1);
    let mut remainder = words::zero_extend(&value[value.len() + 1 - sig..], 1);
    for &bit in value[..value.len() + 1 - sig].iter().rev() {
        let mut trial = vec![bit];
        trial.extend_from_slice(&remainder);
        let (difference, fits) = words::sub_with_carry(aig, &trial, &modulus);
        remainder = words::mux(aig, fits, &difference[..sig], &trial[..sig]);
    }
    remainder
}
