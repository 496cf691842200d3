//! Addition (and subtraction), multiplication, fused multiply-add and
//! division: the exact
//! significand computations in front of the shared rounding circuit.

use crate::aig::{Aig, Lit};
use crate::words::{self, Word};

use super::round::{round, Mode};
use super::unpack::{unpack, Unpacked};
use super::{widen, Format, Specials};

/// Guard, round and sticky positions below the aligned significands: with
/// the sticky bit jammed into the lowest one, the rounded sum is exact
/// (a subtraction cancels at most one bit whenever the smaller operand
/// lost bits to the alignment shift).
const ADD_EXTRA_BITS: usize = 3;

/// `a + b`, or `a - b` when `subtract`.
pub fn add(
    aig: &mut Aig,
    format: Format,
    mode: &Mode,
    a: &[Lit],
    b: &[Lit],
    subtract: bool,
) -> Word {
    let mut b = b.to_vec();
    let sign_bit = format.width() - 1;
    if subtract {
        b[sign_bit] = !b[sign_bit];
    }
    let x = unpack(aig, format, a);
    let y = unpack(aig, format, &b);
    let (sx, sy) = (x.class.sign, y.class.sign);
    let opposite = aig.xor(sx, sy);

    let both_infinite = aig.and(x.class.infinite, y.class.infinite);
    let infinities_cancel = aig.and(both_infinite, opposite);
    let nan = aig.or_all([x.class.nan, y.class.nan, infinities_cancel]);
    let infinity = aig.or(x.class.infinite, y.class.infinite);
    let infinity_sign = aig.mux(x.class.infinite, sx, sy);
    let both_zero = aig.and(x.class.zero, y.class.zero);
    let both_negative = aig.and(sx, sy);
    let either_negative = aig.or(sx, sy);
    let downward_zero = aig.and(mode.toward_negative(), either_negative);
    let zero_sign = aig.or(both_negative, downward_zero);

    // One zero operand: the sum is the other operand, exactly.
    let sum = finite_sum(aig, format, mode, &x, &y, a, &b);
    let sum = words::mux(aig, x.class.zero, &b, &sum);
    let sum = words::mux(aig, y.class.zero, a, &sum);
    Specials {
        nan,
        infinity,
        infinity_sign,
        zero: both_zero,
        zero_sign,
    }
    .select(aig, format, &sum)
}

/// A finite nonzero value `(-1)^sign · significand · 2^(exponent - (n - 1))`
/// for an `n`-bit significand with its top bit set.
struct Term {
    sign: Lit,
    exponent: Word,
    significand: Word,
}

impl Term {
    fn of(x: &Unpacked) -> Term {
        Term {
            sign: x.class.sign,
            exponent: x.exponent.clone(),
            significand: x.significand.clone(),
        }
    }
}

/// The rounded sum of two finite nonzero operands (`a_bits`, `b_bits` are
/// their encodings: without the sign they are ordered like the magnitudes).
fn finite_sum(
    aig: &mut Aig,
    format: Format,
    mode: &Mode,
    x: &Unpacked,
    y: &Unpacked,
    a_bits: &[Lit],
    b_bits: &[Lit],
) -> Word {
    let magnitude = format.width() - 1;
    let swap = words::ult(aig, &a_bits[..magnitude], &b_bits[..magnitude]);
    exact_sum(aig, format, mode, swap, &Term::of(x), &Term::of(y))
}

/// The rounded sum of two terms of equal widths, `swap` telling whether
/// `y` has the larger magnitude.
fn exact_sum(aig: &mut Aig, format: Format, mode: &Mode, swap: Lit, x: &Term, y: &Term) -> Word {
    let pick = |aig: &mut Aig, first: &[Lit], second: &[Lit]| {
        (
            words::mux(aig, swap, second, first),
            words::mux(aig, swap, first, second),
        )
    };
    let (big_exponent, small_exponent) = pick(aig, &x.exponent, &y.exponent);
    let (big_significand, small_significand) = pick(aig, &x.significand, &y.significand);
    let big_sign = aig.mux(swap, y.sign, x.sign);
    let subtract = aig.xor(x.sign, y.sign);

    let extend = |significand: &[Lit]| {
        let low = words::concat(significand, &words::constant(0, ADD_EXTRA_BITS));
        words::zero_extend(&low, 1)
    };
    let big = extend(&big_significand);
    let distance = words::sub(aig, &big_exponent, &small_exponent);
    let (mut small, lost) = words::lshr_sticky(aig, &extend(&small_significand), &distance);
    small[0] = aig.or(small[0], lost);

    let total = words::add(aig, &big, &small);
    let difference = words::sub(aig, &big, &small);
    let result = words::mux(aig, subtract, &difference, &total);
    let exponent_width = big_exponent
        .len()
        .max(words::bits_for(result.len() as u128) + 1)
        + 1;
    let (normalized, leading_zeros) = words::normalize(aig, &result, exponent_width);
    // The top bit of `result` weighs 2^(big exponent + 1).
    let exponent = widen(&big_exponent, exponent_width);
    let exponent = words::add(aig, &exponent, &words::constant(1, exponent_width));
    let exponent = words::sub(aig, &exponent, &leading_zeros);

    let cancelled = words::is_zero(aig, &result);
    let sign = aig.mux(cancelled, mode.toward_negative(), big_sign);
    round(aig, format, mode, sign, &exponent, &normalized, Lit::FALSE)
}

/// `a · b`.
pub fn mul(aig: &mut Aig, format: Format, mode: &Mode, a: &[Lit], b: &[Lit]) -> Word {
    let x = unpack(aig, format, a);
    let y = unpack(aig, format, b);
    let sign = aig.xor(x.class.sign, y.class.sign);
    let infinity_times_zero = infinity_times_zero(aig, &x, &y);
    let nan = aig.or_all([x.class.nan, y.class.nan, infinity_times_zero]);
    let infinity = aig.or(x.class.infinite, y.class.infinite);
    let zero = aig.or(x.class.zero, y.class.zero);

    let product = exact_product(aig, format, &x, &y);
    let finite = round(
        aig,
        format,
        mode,
        sign,
        &product.exponent,
        &product.significand,
        Lit::FALSE,
    );
    Specials {
        nan,
        infinity,
        infinity_sign: sign,
        zero,
        zero_sign: sign,
    }
    .select(aig, format, &finite)
}

/// One factor is infinite and the other zero: the product is NaN.
fn infinity_times_zero(aig: &mut Aig, x: &Unpacked, y: &Unpacked) -> Lit {
    let left = aig.and(x.class.infinite, y.class.zero);
    let right = aig.and(x.class.zero, y.class.infinite);
    aig.or(left, right)
}

/// The exact product of two finite nonzero values (`2 sig` bits).
fn exact_product(aig: &mut Aig, format: Format, x: &Unpacked, y: &Unpacked) -> Term {
    let product = words::mul_wide(aig, &x.significand, &y.significand);
    // The product of two normalised significands has its top bit in one
    // of the two highest positions.
    let top = product[product.len() - 1];
    let shifted = words::shl_const(&product, 1);
    let significand = words::mux(aig, top, &product, &shifted);
    let width = format.exp_width() + 1;
    let exponent = words::add(aig, &widen(&x.exponent, width), &widen(&y.exponent, width));
    let mut top_word = words::constant(0, width);
    top_word[0] = top;
    let exponent = words::add(aig, &exponent, &top_word);
    let sign = aig.xor(x.class.sign, y.class.sign);
    Term {
        sign,
        exponent,
        significand,
    }
}

/// `a · b + c` rounded once.
pub fn fma(aig: &mut Aig, format: Format, mode: &Mode, a: &[Lit], b: &[Lit], c: &[Lit]) -> Word {
    let x = unpack(aig, format, a);
    let y = unpack(aig, format, b);
    let z = unpack(aig, format, c);
    let product_sign = aig.xor(x.class.sign, y.class.sign);
    let infinity_times_zero = infinity_times_zero(aig, &x, &y);
    let product_infinite = aig.or(x.class.infinite, y.class.infinite);
    let product_zero = aig.or(x.class.zero, y.class.zero);
    let opposite = aig.xor(product_sign, z.class.sign);
    let infinities_cancel = aig.and_all([product_infinite, z.class.infinite, opposite]);
    let nan = aig.or_all([
        x.class.nan,
        y.class.nan,
        z.class.nan,
        infinity_times_zero,
        infinities_cancel,
    ]);
    let infinity = aig.or(product_infinite, z.class.infinite);
    let infinity_sign = aig.mux(product_infinite, product_sign, z.class.sign);
    let both_zero = aig.and(product_zero, z.class.zero);
    let both_negative = aig.and(product_sign, z.class.sign);
    let either_negative = aig.or(product_sign, z.class.sign);
    let downward_zero = aig.and(mode.toward_negative(), either_negative);
    let zero_sign = aig.or(both_negative, downward_zero);

    let product = exact_product(aig, format, &x, &y);
    let product_only = round(
        aig,
        format,
        mode,
        product.sign,
        &product.exponent,
        &product.significand,
        Lit::FALSE,
    );
    // The addend with the product's width, ordered by (exponent, significand).
    let width = product.exponent.len();
    let addend = Term {
        sign: z.class.sign,
        exponent: widen(&z.exponent, width),
        significand: words::concat(&z.significand, &words::constant(0, format.sig)),
    };
    let exponent_less = words::slt(aig, &product.exponent, &addend.exponent);
    let exponent_equal = words::eq(aig, &product.exponent, &addend.exponent);
    let significand_less = words::ult(aig, &product.significand, &addend.significand);
    let tie_less = aig.and(exponent_equal, significand_less);
    let swap = aig.or(exponent_less, tie_less);
    let sum = exact_sum(aig, format, mode, swap, &product, &addend);

    let finite = words::mux(aig, z.class.zero, &product_only, &sum);
    let finite = words::mux(aig, product_zero, c, &finite);
    Specials {
        nan,
        infinity,
        infinity_sign,
        zero: both_zero,
        zero_sign,
    }
    .select(aig, format, &finite)
}

/// `a / b`.
pub fn div(aig: &mut Aig, format: Format, mode: &Mode, a: &[Lit], b: &[Lit]) -> Word {
    let x = unpack(aig, format, a);
    let y = unpack(aig, format, b);
    let sign = aig.xor(x.class.sign, y.class.sign);
    let zero_by_zero = aig.and(x.class.zero, y.class.zero);
    let infinity_by_infinity = aig.and(x.class.infinite, y.class.infinite);
    let nan = aig.or_all([x.class.nan, y.class.nan, zero_by_zero, infinity_by_infinity]);
    let infinity = aig.or(x.class.infinite, y.class.zero);
    let zero = aig.or(x.class.zero, y.class.infinite);

    let (quotient, inexact) = divide_significands(aig, &x.significand, &y.significand);
    // The quotient of two normalised significands lies in (1/2, 2).
    let top = quotient[quotient.len() - 1];
    let shifted = words::shl_const(&quotient, 1);
    let significand = words::mux(aig, top, &quotient, &shifted);
    let width = format.exp_width() + 1;
    let exponent = words::sub(aig, &widen(&x.exponent, width), &widen(&y.exponent, width));
    let mut below_one = words::constant(0, width);
    below_one[0] = !top;
    let exponent = words::sub(aig, &exponent, &below_one);
    let finite = round(aig, format, mode, sign, &exponent, &significand, inexact);
    Specials {
        nan,
        infinity,
        infinity_sign: sign,
        zero,
        zero_sign: sign,
    }
    .select(aig, format, &finite)
}

/// Long division of two normalised `sig`-bit significands: `sig + 2`
/// quotient bits, the top one weighing 1, and whether a remainder is left.
fn divide_significands(aig: &mut Aig, dividend: &[Lit], divisor: &[Lit]) -> (Word, Lit) {
    let sig = dividend.len();
    let divisor = words::zero_extend(divisor, 1);
    let mut remainder = words::zero_extend(dividend, 1);
    let mut quotient = vec![Lit::FALSE; sig + 2];
    for position in (0..sig + 2).rev() {
        let (difference, fits) = words::sub_with_carry(aig, &remainder, &divisor);
        quotient[position] = fits;
        let kept = words::mux(aig, fits, &difference, &remainder);
        // What is kept is below the divisor, so doubling it fits.
        remainder = words::shl_const(&kept, 1);
    }
    let inexact = !words::is_zero(aig, &remainder);
    (quotient, inexact)
}
