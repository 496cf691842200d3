//! IEEE remainder `x - n·y` (`n` the integer nearest to `x / y`, ties to
//! even), computed exactly by long division over the whole exponent
//! range: one conditional subtraction per possible exponent difference.

use crate::aig::{Aig, Lit};
use crate::words::{self, Word};

use super::round::{round, Mode};
use super::unpack::unpack;
use super::{signed_constant, widen, Format};

/// The circuit has about `2^exp` subtraction stages: binary64 (11 bits)
/// is the widest exponent handled, wider ones stay approximated.
pub const MAX_EXP_BITS: usize = 11;

/// `fp.rem`; the result is exact, so any rounding mode would do.
pub fn rem(aig: &mut Aig, format: Format, mode: &Mode, a: &[Lit], b: &[Lit]) -> Word {
    let x = unpack(aig, format, a);
    let y = unpack(aig, format, b);
    let sig = format.sig;
    let width = format.exp_width() + 1;
    let difference = words::sub(aig, &widen(&x.exponent, width), &widen(&y.exponent, width));
    // With |x| < |y| / 2 the nearest integer is 0 and the remainder is x.
    let tiny = words::slt(aig, &difference, &signed_constant(-1, width));

    // In units of 2^(ey - sig): Y = 2·my and X = mx · 2^(d + 1); divide
    // by shifting one bit of X's zero tail in per enabled stage.
    let divisor = words::zero_extend(&words::concat(&y.significand, &[Lit::FALSE]), 1);
    let mut remainder = words::zero_extend(&x.significand, 2);
    let mut odd_quotient = Lit::FALSE;
    let stages = (format.emax() - format.emin()) as usize + sig;
    let shifts = words::add(aig, &difference, &words::constant(1, width));
    for stage in 1..=stages {
        let enabled = words::sle(aig, &signed_constant(stage as i128, width), &shifts);
        let doubled = words::shl_const(&remainder, 1);
        let (reduced, fits) = words::sub_with_carry(aig, &doubled, &divisor);
        let next = words::mux(aig, fits, &reduced, &doubled);
        remainder = words::mux(aig, enabled, &next, &remainder);
        odd_quotient = aig.mux(enabled, fits, odd_quotient);
    }

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
