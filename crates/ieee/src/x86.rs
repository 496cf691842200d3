//! x86 specifics: the 80-bit x87 memory encoding (explicit integer bit) of
//! `Format::X87` values, and the NaN results x86 hardware produces, which
//! the IR interpreter must reproduce when replaying on real semantics.
//!
//! Hardware NaN rules (SSE, and x87 for one NaN operand): an operation
//! whose result is invalid without a NaN operand (`0/0`, `inf-inf`,
//! `sqrt(-1)`, `0*inf`) yields the *default NaN*: sign set, quiet,
//! fraction = quiet bit only (0xFFC00000 for binary32). With NaN operands,
//! SSE returns the first NaN operand in operand order, quieted. (x87 with
//! two NaN operands returns the one with the larger significand; FMA forms
//! choose by instruction encoding: both are out of scope of `x86_nan`.)

use crate::format::Format;
use crate::value::Fp;

const X87_INTEGER_BIT: u128 = 1 << 63;
const X87_FRACTION_MASK: u128 = X87_INTEGER_BIT - 1;
const X87_EXP_MASK: u128 = 0x7FFF;

impl Fp {
    /// Decodes an 80-bit x87 image into a `Format::X87` value, as a 387 or
    /// later loads it: pseudo-denormals (exponent 0, integer bit 1) have the
    /// value their bits denote (the smallest normal exponent); unnormals,
    /// pseudo-infinities and pseudo-NaNs are invalid operands and become
    /// the default NaN. Bits above 80 must be zero.
    pub fn from_x87_bits(bits: u128) -> Fp {
        assert!(bits >> 80 == 0, "x87 image {bits:#x} wider than 80 bits");
        let format = Format::X87;
        let negative = bits >> 79 == 1;
        let exp = (bits >> 64) & X87_EXP_MASK;
        let integer_bit = bits & X87_INTEGER_BIT != 0;
        let fraction = bits & X87_FRACTION_MASK;
        let sign = if negative { format.sign_mask() } else { 0 };
        let encoded = match (exp, integer_bit) {
            (0, false) => fraction,
            (0, true) => 1 << 63 | fraction,
            (X87_EXP_MASK, true) => X87_EXP_MASK << 63 | fraction,
            (_, true) => exp << 63 | fraction,
            (_, false) => return Fp::x86_default_nan(format),
        };
        Fp::from_bits(format, sign | encoded)
    }

    /// The 80-bit x87 image of a `Format::X87` value (integer bit explicit).
    ///
    /// # Panics
    /// If the value is not of `Format::X87`.
    pub fn to_x87_bits(self) -> u128 {
        assert_eq!(self.format(), Format::X87, "to_x87_bits of a non-x87 value");
        let bits = self.to_bits();
        let exp = (bits >> 63) & X87_EXP_MASK;
        let integer_bit = if exp != 0 { X87_INTEGER_BIT } else { 0 };
        (bits >> 78) << 79 | exp << 64 | integer_bit | self.fraction()
    }

    /// The NaN x86 produces for an invalid operation without NaN operands.
    pub fn x86_default_nan(format: Format) -> Fp {
        -Fp::nan(format)
    }

    /// `self` with the quiet bit set, if it is a NaN.
    pub fn quieted(self) -> Fp {
        if self.is_nan() {
            Fp::from_bits(self.format(), self.to_bits() | self.format().quiet_bit())
        } else {
            self
        }
    }

    /// The result x86 SSE gives for an operation whose exact result is
    /// `self` and whose operands were `operands` (in instruction order):
    /// the first NaN operand quieted, else the default NaN if `self` is a
    /// NaN, else `self`.
    pub fn x86_nan(self, operands: &[Fp]) -> Fp {
        if let Some(first_nan) = operands.iter().find(|op| op.is_nan()) {
            return first_nan.quieted().convert_nan_payload(self.format());
        }
        if self.is_nan() {
            Fp::x86_default_nan(self.format())
        } else {
            self
        }
    }

    /// A NaN carried into `target` keeping sign and the top payload bits
    /// (what x86 format conversions do).
    fn convert_nan_payload(self, target: Format) -> Fp {
        let source = self.format();
        let shift = source.sig_bits() as i64 - target.sig_bits() as i64;
        let fraction = if shift >= 0 { self.fraction() >> shift } else { self.fraction() << -shift };
        let quiet = Fp::nan(target).to_bits() | (fraction & target.frac_mask());
        Fp::from_bits(target, quiet).copy_sign(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x87_images_round_trip_for_canonical_encodings() {
        let images = [
            0x3FFF_8000_0000_0000_0000u128, // 1.0
            0xBFFF_C000_0000_0000_0000,     // -1.5
            0x0000_0000_0000_0000_0001,     // smallest denormal
            0x0001_8000_0000_0000_0000,     // smallest normal
            0x7FFF_8000_0000_0000_0000,     // +inf
            0xFFFF_C000_0000_0000_0001,     // a negative quiet NaN
            0x8000_0000_0000_0000_0000,     // -0
        ];
        for image in images {
            assert_eq!(Fp::from_x87_bits(image).to_x87_bits(), image, "{image:#x}");
        }
        assert_eq!(Fp::from_x87_bits(0x3FFF_8000_0000_0000_0000), Fp::from_u128(Format::X87, 1, crate::RoundingMode::NearestEven));
    }

    #[test]
    fn x87_non_canonical_encodings() {
        // A pseudo-denormal denotes the smallest normal's scale.
        let pseudo = Fp::from_x87_bits(0x0000_8000_0000_0000_0000);
        assert_eq!(pseudo, Fp::min_normal(Format::X87, false));
        // Unnormals and pseudo-infinities are invalid operands.
        assert!(Fp::from_x87_bits(0x3FFF_4000_0000_0000_0000).is_nan());
        assert!(Fp::from_x87_bits(0x7FFF_0000_0000_0000_0000).is_nan());
    }

    #[test]
    fn x86_nan_rules() {
        let single = |bits: u32| Fp::from_bits(Format::SINGLE, bits as u128);
        let (one, snan, qnan) = (single(0x3F80_0000), single(0x7F80_0001), single(0xFFC0_0002));
        assert_eq!(Fp::nan(Format::SINGLE).x86_nan(&[one, one]).to_bits(), 0xFFC0_0000);
        assert_eq!(Fp::nan(Format::SINGLE).x86_nan(&[one, snan]).to_bits(), 0x7FC0_0001);
        assert_eq!(Fp::nan(Format::SINGLE).x86_nan(&[qnan, snan]).to_bits(), 0xFFC0_0002);
        assert_eq!(one.x86_nan(&[one, one]), one);
        let double_nan = Fp::nan(Format::DOUBLE).x86_nan(&[single(0x7FC0_0001)]);
        assert_eq!(double_nan.to_bits(), 0x7FF8_0000_2000_0000);
    }

    /// The host's SSE arithmetic is the ground truth for the NaN rules
    /// (subtraction and division: their operand order is not commuted).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x86_nan_rules_match_the_host() {
        use std::hint::black_box;
        let mode = crate::RoundingMode::NearestEven;
        let double = |v: f64| Fp::from_bits(Format::DOUBLE, v.to_bits() as u128);
        let values = [1.5, 0.0, -0.0, f64::INFINITY, f64::from_bits(0x7FF0_0000_0000_0123), f64::from_bits(0xFFF8_0000_0000_0456)];
        for &a in &values {
            for &b in &values {
                let (x, y) = (double(a), double(b));
                let hardware_sub = (black_box(a) - black_box(b)).to_bits() as u128;
                let hardware_div = (black_box(a) / black_box(b)).to_bits() as u128;
                assert_eq!(x.sub(y, mode).x86_nan(&[x, y]).to_bits(), hardware_sub, "{a:?} - {b:?}");
                assert_eq!(x.div(y, mode).x86_nan(&[x, y]).to_bits(), hardware_div, "{a:?} / {b:?}");
            }
            let hardware_sqrt = black_box(a).sqrt().to_bits() as u128;
            assert_eq!(double(a).sqrt(mode).x86_nan(&[double(a)]).to_bits(), hardware_sqrt, "sqrt {a:?}");
        }
        let hardware_nan = (black_box(-1.0f64)).sqrt().to_bits() as u128;
        assert_eq!(hardware_nan, Fp::x86_default_nan(Format::DOUBLE).to_bits());
    }
}
