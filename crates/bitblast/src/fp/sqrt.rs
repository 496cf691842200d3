//! Square root: digit-by-digit integer square root of the significand
//! scaled to an even exponent, rounded by the shared circuit.

use crate::aig::{Aig, Lit};
use crate::words::{self, Word};

use super::round::{round, Mode};
use super::unpack::unpack;
use super::{Format, Specials};

/// `fp.sqrt`: NaN for NaN and for negative operands other than `-0`,
/// which (like `+0` and `+inf`) is its own root.
pub fn sqrt(aig: &mut Aig, format: Format, mode: &Mode, bits: &[Lit]) -> Word {
    let x = unpack(aig, format, bits);
    let sig = format.sig;
    let sign = x.class.sign;
    let negative_nonzero = aig.and(sign, !x.class.zero);
    let nan = aig.or(x.class.nan, negative_nonzero);

    // x = m · 2^(e - sig + 1) = M · 2^(2k) with k = floor(e / 2) and
    // M = m · 2^(e mod 2 - sig + 1) in [1, 4); the radicand is M · 2^(2 sig),
    // whose integer root (sig + 1 bits) is √M · 2^sig.
    let odd = x.exponent[0];
    let scaled = words::concat(&x.significand, &words::constant(0, sig + 1));
    let radicand = words::zero_extend(&scaled, 1);
    let doubled = words::shl_const(&radicand, 1);
    let radicand = words::mux(aig, odd, &doubled, &radicand);
    let (root, inexact) = integer_sqrt(aig, &radicand);
    let half_exponent = words::ashr_const(&x.exponent, 1);
    let finite = round(aig, format, mode, sign, &half_exponent, &root, inexact);
    let specials = Specials {
        nan,
        infinity: x.class.infinite,
        infinity_sign: sign,
        zero: x.class.zero,
        zero_sign: sign,
    };
    specials.select(aig, format, &finite)
}

/// The integer square root of an even-width word (half as many bits) and
/// whether a remainder is left, by the restoring digit-by-digit method.
fn integer_sqrt(aig: &mut Aig, radicand: &[Lit]) -> (Word, Lit) {
    let digits = radicand.len() / 2;
    let width = digits + 2;
    let mut remainder = words::constant(0, width);
    let mut root = words::constant(0, width);
    for pair in (0..digits).rev() {
        let mut shifted = words::shl_const(&remainder, 2);
        shifted[0] = radicand[2 * pair];
        shifted[1] = radicand[2 * pair + 1];
        let mut trial = words::shl_const(&root, 2);
        trial[0] = Lit::TRUE;
        let (difference, fits) = words::sub_with_carry(aig, &shifted, &trial);
        remainder = words::mux(aig, fits, &difference, &shifted);
        root = words::shl_const(&root, 1);
        root[0] = fits;
    }
    let inexact = !words::is_zero(aig, &remainder);
    (root[..digits].to_vec(), inexact)
}
