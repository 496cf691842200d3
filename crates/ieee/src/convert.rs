//! Conversions: between formats (rounding), from integers of any width
//! (rounding) and to integers of any width up to 128 bits (rounding by a
//! given mode; out of range or NaN is `None`, which C calls undefined and
//! SMT-LIB leaves unspecified).

use crate::arith::integral_magnitude;
use crate::format::Format;
use crate::round::{Exact, RoundingMode};
use crate::value::{Fp, Unpacked};

impl Fp {
    /// This value rounded into `target` (NaN becomes `target`'s NaN).
    pub fn convert(self, target: Format, mode: RoundingMode) -> Fp {
        match self.unpack() {
            Unpacked::Nan => Fp::nan(target),
            Unpacked::Infinite { negative } => Fp::infinity(target, negative),
            Unpacked::Zero { negative } => Fp::zero(target, negative),
            Unpacked::Finite { negative, sig, exp } => Exact::from_u128(negative, sig, exp).round(target, mode),
        }
    }

    /// A signed integer rounded into `format`.
    pub fn from_i128(format: Format, value: i128, mode: RoundingMode) -> Fp {
        Exact::from_u128(value < 0, value.unsigned_abs(), 0).round(format, mode)
    }

    /// An unsigned integer rounded into `format`.
    pub fn from_u128(format: Format, value: u128, mode: RoundingMode) -> Fp {
        Exact::from_u128(false, value, 0).round(format, mode)
    }

    /// The integral value in direction `mode` as an unsigned magnitude and
    /// sign, `None` for NaN, infinities and magnitudes of 2^128 or more.
    /// Rounded exactly, not through the format: in formats whose largest
    /// values are not integral the integer may exceed the format's range.
    fn to_integer_parts(self, mode: RoundingMode) -> Option<(bool, u128)> {
        match self.unpack() {
            Unpacked::Zero { .. } => Some((false, 0)),
            Unpacked::Finite { negative, sig, exp } if exp < 0 => Some((negative, integral_magnitude(negative, sig, exp, mode))),
            Unpacked::Finite { negative, sig, exp } => {
                let bits = 128 - sig.leading_zeros() as i64;
                (bits + exp <= 128).then(|| (negative, sig << exp))
            }
            Unpacked::Nan | Unpacked::Infinite { .. } => None,
        }
    }

    /// The integral value in direction `mode` as its sign, a magnitude and
    /// a left shift of it (the value is `magnitude << shift`), `None` for NaN
    /// and infinities: what a conversion to an integer of any width needs.
    pub fn to_integer_shifted(self, mode: RoundingMode) -> Option<(bool, u128, u32)> {
        match self.unpack() {
            Unpacked::Zero { .. } => Some((false, 0, 0)),
            Unpacked::Finite { negative, sig, exp } if exp < 0 => Some((negative, integral_magnitude(negative, sig, exp, mode), 0)),
            Unpacked::Finite { negative, sig, exp } => Some((negative, sig, u32::try_from(exp).ok()?)),
            Unpacked::Nan | Unpacked::Infinite { .. } => None,
        }
    }

    /// Rounds by `mode` to a signed `width`-bit integer (1..=128), `None`
    /// when the result does not fit.
    pub fn to_i128(self, width: u32, mode: RoundingMode) -> Option<i128> {
        assert!((1..=128).contains(&width), "integer width {width} out of range");
        let (negative, magnitude) = self.to_integer_parts(mode)?;
        let limit = 1u128 << (width - 1);
        if negative {
            (magnitude <= limit).then(|| (magnitude as i128).wrapping_neg())
        } else {
            (magnitude < limit).then_some(magnitude as i128)
        }
    }

    /// Rounds by `mode` to an unsigned `width`-bit integer (1..=128),
    /// `None` when the result does not fit (negative results included;
    /// values rounding to zero from below give 0).
    pub fn to_u128(self, width: u32, mode: RoundingMode) -> Option<u128> {
        assert!((1..=128).contains(&width), "integer width {width} out of range");
        let (negative, magnitude) = self.to_integer_parts(mode)?;
        let fits = width == 128 || magnitude >> width == 0;
        (fits && (!negative || magnitude == 0)).then_some(magnitude)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RoundingMode::*;

    #[test]
    fn integer_parts_of_large_values_are_a_shifted_magnitude() {
        let (negative, magnitude, shift) = double(-(2f64.powi(200)) * 3.0).to_integer_shifted(TowardZero).unwrap();
        assert!(negative);
        assert_eq!(u128::from(magnitude.trailing_zeros()) + u128::from(shift), 200);
        assert_eq!(magnitude >> magnitude.trailing_zeros(), 3);
        assert_eq!(double(-2.7).to_integer_shifted(TowardZero), Some((true, 2, 0)));
        assert_eq!(double(f64::NAN).to_integer_shifted(TowardZero), None);
    }

    fn double(v: f64) -> Fp {
        Fp::from_bits(Format::DOUBLE, v.to_bits() as u128)
    }

    #[test]
    fn integer_conversions_respect_width_and_mode() {
        assert_eq!(double(-2.5).to_i128(8, NearestEven), Some(-2));
        assert_eq!(double(-2.5).to_i128(8, NearestAway), Some(-3));
        assert_eq!(double(-2.5).to_i128(8, TowardZero), Some(-2));
        assert_eq!(double(-128.9).to_i128(8, TowardZero), Some(-128));
        assert_eq!(double(-128.9).to_i128(8, TowardNegative), None);
        assert_eq!(double(127.9).to_i128(8, TowardZero), Some(127));
        assert_eq!(double(127.9).to_i128(8, TowardPositive), None);
        assert_eq!(double(-0.7).to_u128(32, TowardZero), Some(0));
        assert_eq!(double(-1.0).to_u128(32, TowardZero), None);
        assert_eq!(double(4294967295.5).to_u128(32, TowardZero), Some(u32::MAX as u128));
        assert_eq!(double(4294967296.0).to_u128(32, TowardZero), None);
        assert_eq!(double(2f64.powi(127)).to_u128(128, TowardZero), Some(1 << 127));
        assert_eq!(double(-(2f64.powi(127))).to_i128(128, TowardZero), Some(i128::MIN));
        assert_eq!(double(f64::NAN).to_i128(64, TowardZero), None);
        assert_eq!(double(f64::INFINITY).to_u128(128, TowardZero), None);
    }

    #[test]
    fn integers_beyond_a_narrow_format_still_convert() {
        // In (5,120) the largest value is just below 2^16 and not integral.
        let narrow = Format::new(5, 120).unwrap();
        let largest = Fp::max_finite(narrow, false);
        assert_eq!(largest.to_u128(32, TowardPositive), Some(65536));
        assert_eq!(largest.to_u128(32, TowardZero), Some(65535));
        assert_eq!((-largest).to_i128(17, NearestEven), Some(-65536));
        assert_eq!(largest.to_i128(17, NearestEven), None);
        assert_eq!(largest.round_to_integral(TowardPositive), Fp::infinity(narrow, false));
    }

    #[test]
    fn integers_round_into_formats() {
        assert_eq!(Fp::from_u128(Format::SINGLE, u128::MAX, NearestEven).to_bits(), (u128::MAX as f32).to_bits() as u128);
        assert_eq!(Fp::from_i128(Format::DOUBLE, i128::MIN, NearestEven), double(i128::MIN as f64));
        assert_eq!(Fp::from_u128(Format::SINGLE, 16_777_217, TowardPositive).to_bits(), 16_777_218f32.to_bits() as u128);
        assert_eq!(Fp::from_u128(Format::HALF, 65520, NearestEven), Fp::infinity(Format::HALF, false));
        assert_eq!(Fp::from_i128(Format::SINGLE, 0, TowardNegative), Fp::zero(Format::SINGLE, false));
    }

    #[test]
    fn narrowing_rounds_and_widening_is_exact() {
        let third = double(1.0 / 3.0);
        assert_eq!(third.convert(Format::SINGLE, NearestEven).to_bits(), ((1.0f64 / 3.0) as f32).to_bits() as u128);
        assert_eq!(third.convert(Format::QUAD, TowardZero).convert(Format::DOUBLE, TowardZero), third);
        assert_eq!(double(1e300).convert(Format::SINGLE, TowardZero), Fp::max_finite(Format::SINGLE, false));
        assert_eq!(double(-1e-300).convert(Format::SINGLE, NearestEven), Fp::zero(Format::SINGLE, true));
    }
}
