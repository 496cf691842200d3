//! Conversions: between float formats, from signed and unsigned
//! bit-vectors, and to them (out-of-range, NaN and infinite operands give
//! the pattern `10…0`, the documented choice of the term layer).

use crate::aig::{Aig, Lit};
use crate::words::{self, Word};

use super::round::{round, Mode};
use super::unpack::unpack;
use super::{signed_constant, widen, Format, Specials};

/// `(_ to_fp e s)` of a float: exact when widening, rounded when narrowing.
pub fn float_to_float(aig: &mut Aig, from: Format, to: Format, mode: &Mode, bits: &[Lit]) -> Word {
    let x = unpack(aig, from, bits);
    let sign = x.class.sign;
    let finite = round(aig, to, mode, sign, &x.exponent, &x.significand, Lit::FALSE);
    let specials = Specials {
        nan: x.class.nan,
        infinity: x.class.infinite,
        infinity_sign: sign,
        zero: x.class.zero,
        zero_sign: sign,
    };
    specials.select(aig, to, &finite)
}

/// `to_fp` of a signed (two's complement) or unsigned bit-vector.
pub fn int_to_float(aig: &mut Aig, to: Format, mode: &Mode, value: &[Lit], signed: bool) -> Word {
    let width = value.len();
    let sign = if signed { value[width - 1] } else { Lit::FALSE };
    let magnitude = if signed {
        words::abs(aig, value)
    } else {
        value.to_vec()
    };
    let exponent_width = words::bits_for(width as u128) + 2;
    let (significand, leading_zeros) = words::normalize(aig, &magnitude, exponent_width);
    // The top bit of the magnitude weighs 2^(width - 1); zero rounds to +0.
    let top = signed_constant(width as i128 - 1, exponent_width);
    let exponent = words::sub(aig, &top, &leading_zeros);
    round(aig, to, mode, sign, &exponent, &significand, Lit::FALSE)
}

/// `fp.to_sbv`/`fp.to_ubv` of `width` bits, rounding by `mode`.
pub fn float_to_int(
    aig: &mut Aig,
    from: Format,
    mode: &Mode,
    bits: &[Lit],
    width: usize,
    signed: bool,
) -> Word {
    let x = unpack(aig, from, bits);
    let sig = from.sig;
    let exponent_width = x
        .exponent
        .len()
        .max(words::bits_for((sig + width) as u128) + 1)
        + 1;
    let exponent = widen(&x.exponent, exponent_width);
    // |x| ≥ 2^width fits no result; below that the integer part has at most
    // `width` bits.
    let too_large = words::slt(
        aig,
        &signed_constant(width as i128 - 1, exponent_width),
        &exponent,
    );

    // The significand placed above `width` zero bits, shifted right so that
    // bit 0 weighs 1/2: then bit 0 is the guard bit and above it the integer.
    let placed = words::concat(&x.significand, &words::constant(0, width));
    let offset = signed_constant((sig + width) as i128 - 2, exponent_width);
    let distance = words::sub(aig, &offset, &exponent);
    let distance = words::mux(
        aig,
        too_large,
        &words::constant(0, exponent_width),
        &distance,
    );
    let (shifted, sticky) = words::lshr_sticky(aig, &placed, &distance);
    let (guard, integer) = (shifted[0], &shifted[1..]);
    let up = mode.rounds_up(aig, x.class.sign, integer[0], guard, sticky);
    let integer = words::zero_extend(integer, 1);
    let mut increment = words::constant(0, integer.len());
    increment[0] = up;
    let magnitude = words::add(aig, &integer, &increment);

    let limit = if signed { width - 1 } else { width };
    let beyond_limit = words::reduce_or(aig, &magnitude[limit..]);
    let is_limit = {
        let low_zero = words::is_zero(aig, &magnitude[..limit]);
        let high_zero = words::is_zero(aig, &magnitude[limit + 1..]);
        aig.and_all([magnitude[limit], low_zero, high_zero])
    };
    let magnitude_zero = words::is_zero(aig, &magnitude);
    let negative = x.class.sign;
    let out_of_range = if signed {
        // Negative values reach -2^(width-1), positive ones stop below 2^(width-1).
        let fits_negative = aig.or(!beyond_limit, is_limit);
        aig.mux(negative, !fits_negative, beyond_limit)
    } else {
        aig.mux(negative, !magnitude_zero, beyond_limit)
    };
    let low = &magnitude[..width];
    let negated = words::neg(aig, low);
    let result = words::mux(aig, negative, &negated, low);
    let invalid = aig.or_all([x.class.nan, x.class.infinite, too_large, out_of_range]);
    let mut signed_min = words::constant(0, width);
    signed_min[width - 1] = Lit::TRUE;
    words::mux(aig, invalid, &signed_min, &result)
}

/// `fp.roundToIntegral`: the integer nearest by `mode`, in the same
/// format, keeping the sign of the operand (so `-0.3` may become `-0`).
pub fn round_to_integral(aig: &mut Aig, format: Format, mode: &Mode, bits: &[Lit]) -> Word {
    let x = unpack(aig, format, bits);
    let sig = format.sig;
    let width = x.exponent.len();
    // From 2^(sig - 1) on every value is an integer already.
    let integral = words::slt(aig, &signed_constant(sig as i128 - 2, width), &x.exponent);

    // Bit 0 weighs 1/2 after the shift: the guard bit, the integer above.
    let placed = words::concat(&x.significand, &[Lit::FALSE]);
    let distance = words::sub(aig, &signed_constant(sig as i128 - 1, width), &x.exponent);
    let distance = words::mux(aig, integral, &words::constant(0, width), &distance);
    let (shifted, sticky) = words::lshr_sticky(aig, &placed, &distance);
    let (guard, integer) = (shifted[0], &shifted[1..]);
    let up = mode.rounds_up(aig, x.class.sign, integer[0], guard, sticky);
    let integer = words::zero_extend(integer, 1);
    let mut increment = words::constant(0, integer.len());
    increment[0] = up;
    let magnitude = words::add(aig, &integer, &increment);
    // The magnitude has at most `sig + 1` bits, so converting it is exact.
    let (significand, leading_zeros) = words::normalize(aig, &magnitude, width);
    let exponent = words::sub(aig, &signed_constant(sig as i128, width), &leading_zeros);
    let rounded = round(
        aig,
        format,
        mode,
        x.class.sign,
        &exponent,
        &significand,
        Lit::FALSE,
    );

    let unchanged = aig.or_all([integral, x.class.infinite, x.class.zero]);
    let result = words::mux(aig, unchanged, bits, &rounded);
    words::mux(aig, x.class.nan, &format.nan(), &result)
}
