//! IEEE comparisons (NaN unordered, `-0 = +0`) and `fp.min`/`fp.max`.

use crate::aig::{Aig, Lit};
use crate::words::{self, Word};

use super::unpack::classify;
use super::Format;

/// `fp.eq`: neither is NaN and the encodings are equal or both are zeros.
pub fn eq(aig: &mut Aig, format: Format, a: &[Lit], b: &[Lit]) -> Lit {
    let x = classify(aig, format, a);
    let y = classify(aig, format, b);
    let same_bits = words::eq(aig, a, b);
    let both_zero = aig.and(x.zero, y.zero);
    let equal = aig.or(same_bits, both_zero);
    aig.and_all([equal, !x.nan, !y.nan])
}

/// `fp.lt`.
pub fn lt(aig: &mut Aig, format: Format, a: &[Lit], b: &[Lit]) -> Lit {
    let x = classify(aig, format, a);
    let y = classify(aig, format, b);
    let magnitude = format.width() - 1;
    let smaller = words::ult(aig, &a[..magnitude], &b[..magnitude]);
    let larger = words::ult(aig, &b[..magnitude], &a[..magnitude]);
    // Same signs: compare magnitudes (reversed for negatives); different
    // signs: the negative one is less unless both are zeros.
    let same_sign_less = aig.mux(x.sign, larger, smaller);
    let both_zero = aig.and(x.zero, y.zero);
    let sign_less = aig.and_all([x.sign, !y.sign, !both_zero]);
    let signs_differ = aig.xor(x.sign, y.sign);
    let less = aig.mux(signs_differ, sign_less, same_sign_less);
    aig.and_all([less, !x.nan, !y.nan])
}

/// `fp.leq`.
pub fn le(aig: &mut Aig, format: Format, a: &[Lit], b: &[Lit]) -> Lit {
    let less = lt(aig, format, a, b);
    let equal = eq(aig, format, a, b);
    aig.or(less, equal)
}

/// `fp.min` (or `fp.max` when `!want_min`): a NaN operand yields the other
/// (both NaN: the canonical NaN); of two zeros `min` is `-0` if either is
/// and `max` is `+0` if either is.
pub fn min_max(aig: &mut Aig, format: Format, a: &[Lit], b: &[Lit], want_min: bool) -> Word {
    let x = classify(aig, format, a);
    let y = classify(aig, format, b);
    let a_less = lt(aig, format, a, b);
    let pick_a = if want_min { a_less } else { !a_less };
    let ordered = words::mux(aig, pick_a, a, b);
    let both_zero = aig.and(x.zero, y.zero);
    let zero_sign = if want_min {
        aig.or(x.sign, y.sign)
    } else {
        aig.and(x.sign, y.sign)
    };
    let result = words::mux(aig, both_zero, &format.zero(zero_sign), &ordered);
    let result = words::mux(aig, x.nan, b, &result);
    let result = words::mux(aig, y.nan, a, &result);
    let both_nan = aig.and(x.nan, y.nan);
    words::mux(aig, both_nan, &format.nan(), &result)
}
