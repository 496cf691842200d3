//! x86 specifics: the 80-bit x87 memory encoding (explicit integer bit) of
//! `Format::X87` values, and the NaN results x86 hardware produces, which
//! the IR interpreter must reproduce when replaying on real semantics.
//!
//! Hardware NaN rules (SSE, and x87 for one NaN operand): an operation
//! whose result is invalid without a NaN operand (`0/0`, `inf-inf`,
//! `sqrt(-1)`, `0*inf`) yields the *default NaN*: sign set, quiet,
//! fraction = quiet bit only (0xFFC00000 for binary32). With NaN operands,
//! SSE returns the first NaN operand in operand order, quieted (FMA forms
//! choose by instruction encoding: out of scope of `x86_nan`). x87 with two
//! NaN operands returns the one with the larger significand, quieted, the
//! positive one on a tie (Intel SDM vol. 1 §4.8.3.5 table 4-7; the tie as
//! the hardware resolves it), and an operand in an encoding the 387 no
//! longer supports makes the default NaN whatever the other is: `x87_nan`.

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

    /// The result x87 gives for an operation whose exact result is `self`
    /// and whose operands are the 80-bit images `operands`, evaluated as a
    /// chain of two-operand instructions in operand order (glibc's `fmal`
    /// computes `x * y + z` when an operand is a NaN): see the module doc.
    /// A NaN result is carried into `self`'s format as `fstp` carries it.
    /// (The chain does not see an intermediate product's own default NaN,
    /// so `fmal(0, inf, snan)` gets the quieted `snan` where the hardware
    /// keeps the default NaN.)
    pub fn x87_nan(self, operands: &[u128]) -> Fp {
        let mut views = operands.iter().map(|&image| X87Operand::of(image));
        let first = views.next().unwrap_or(X87Operand::Number);
        let carried = match views.fold(first, X87Operand::combine) {
            X87Operand::Number => None,
            X87Operand::Invalid => Some(Fp::x86_default_nan(Format::X87)),
            X87Operand::Nan(nan) => Some(nan.quieted()),
        };
        match carried {
            Some(nan) => nan.convert_nan_payload(self.format()),
            None if self.is_nan() => Fp::x86_default_nan(self.format()),
            None => self,
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

/// What an x87 operand contributes to a NaN result.
#[derive(Copy, Clone)]
enum X87Operand {
    Number,
    /// An unnormal, pseudo-infinity or pseudo-NaN.
    Invalid,
    Nan(Fp),
}

impl X87Operand {
    fn of(image: u128) -> X87Operand {
        let exp = (image >> 64) & X87_EXP_MASK;
        if exp != 0 && image & X87_INTEGER_BIT == 0 {
            return X87Operand::Invalid;
        }
        let value = Fp::from_x87_bits(image);
        if value.is_nan() {
            X87Operand::Nan(value)
        } else {
            X87Operand::Number
        }
    }

    /// The operand one x87 instruction on `self` and `other` passes on
    /// (already quieted when it is a NaN).
    fn combine(self, other: X87Operand) -> X87Operand {
        use X87Operand::*;
        match (self, other) {
            (Invalid, _) | (_, Invalid) => Nan(Fp::x86_default_nan(Format::X87)),
            (Nan(a), Nan(b)) => Nan(larger_significand(a, b).quieted()),
            (Nan(a), Number) | (Number, Nan(a)) => Nan(a.quieted()),
            (Number, Number) => Number,
        }
    }
}

/// Of two x87 NaNs the one with the larger significand (a quiet NaN beats
/// a signaling one by its quiet bit), the positive one on a tie.
fn larger_significand(a: Fp, b: Fp) -> Fp {
    match a.fraction().cmp(&b.fraction()) {
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Equal if a.sign_bit() => b,
        std::cmp::Ordering::Equal => a,
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

    /// Results of gcc 12 `long double` code on x86-64 (x87 `fadd`,
    /// `fsub`, `fmul`, `fdiv`, glibc `fmal`, `fldl`/`fstpl`), printed from
    /// a C program building the operands through
    /// `union { long double d; struct { unsigned long m; unsigned short e; } b; }`.
    #[test]
    fn x87_nan_rules_match_gcc_programs() {
        let (qa, qb) = (0x7FFF_C000_0000_0000_0005u128, 0xFFFF_C000_0000_0000_0009u128);
        let (sa, sb) = (0x7FFF_8000_0000_0000_0005u128, 0xFFFF_8000_0000_0000_0009u128);
        let (qs, ss) = (0xFFFF_C000_0000_0000_0005u128, 0xFFFF_8000_0000_0000_0005u128);
        let qc = 0x7FFF_C000_0000_0000_0001u128;
        let (pseudo_nan, unnormal) = (0x7FFF_4000_0000_0000_0007u128, 0x3FFF_4000_0000_0000_0000u128);
        let (default, positive_default) = (0xFFFF_C000_0000_0000_0000u128, 0x7FFF_C000_0000_0000_0000u128);
        let one = 0x3FFF_8000_0000_0000_0000u128;
        let nan = Fp::nan(Format::X87);
        let x87 = |operands: &[u128]| nan.x87_nan(operands).to_x87_bits();
        // The larger significand wins whatever the order; quiet beats signaling.
        for (x, y, expected) in [(qa, qb, qb), (sa, sb, qb), (sb, qa, qa), (sa, one, qa), (one, sb, qb)] {
            assert_eq!(x87(&[x, y]), expected, "{x:#x} {y:#x}");
            assert_eq!(x87(&[y, x]), expected, "{y:#x} {x:#x}");
        }
        // Equal significands: the positive NaN.
        for (x, y) in [(qa, qs), (sa, ss), (default, positive_default)] {
            assert_eq!(x87(&[x, y]), x87(&[y, x]));
        }
        assert_eq!(x87(&[qa, qs]), qa);
        assert_eq!(x87(&[sa, ss]), qa);
        assert_eq!(x87(&[default, positive_default]), positive_default);
        // An unsupported encoding makes the default NaN, even beside a quiet NaN.
        for invalid in [pseudo_nan, unnormal] {
            assert_eq!(x87(&[invalid, qa]), default);
            assert_eq!(x87(&[qa, invalid]), default);
            assert_eq!(x87(&[invalid, one]), default);
        }
        assert_eq!(x87(&[sa]), qa);
        // fmal(x, y, z) is x * y + z on NaN operands.
        assert_eq!(x87(&[sa, qa, qb]), qb);
        assert_eq!(x87(&[sa, sb, qc]), qb);
        assert_eq!(x87(&[qc, sa, sb]), qc);
        // fstpl keeps the top payload bits; fldl of a double sNaN quiets it.
        let to_double = Fp::nan(Format::DOUBLE).x87_nan(&[sb]).to_bits();
        assert_eq!(to_double, 0xFFF8_0000_0000_0000);
        let sum = Fp::nan(Format::DOUBLE).x87_nan(&[0x7FFF_C000_0000_0009_1800, qb]).to_bits();
        assert_eq!(sum, 0x7FF8_0000_0000_0123);
        let widened = Fp::nan(Format::X87).x86_nan(&[Fp::from_bits(Format::DOUBLE, 0x7FF0_0000_0000_0123)]);
        assert_eq!(widened.to_x87_bits(), 0x7FFF_C000_0000_0009_1800);
        // Without NaN operands: the default NaN or the result itself.
        assert_eq!(x87(&[one, one]), default);
        let two = Fp::from_x87_bits(0x4000_8000_0000_0000_0000);
        assert_eq!(two.x87_nan(&[one, one]), two);
    }

    /// The host's x87 unit is the ground truth for the x87 NaN rules.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x87_nan_rules_match_the_host() {
        fn host(a: u128, b: u128, operation: &str) -> u128 {
            let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
            let mut out = [0u8; 16];
            // SAFETY: loads two 10-byte images and stores one, leaving the
            // x87 stack empty as it was.
            unsafe {
                match operation {
                    "add" => std::arch::asm!(
                        "fld tbyte ptr [{a}]", "fld tbyte ptr [{b}]", "faddp st(1), st", "fstp tbyte ptr [{out}]",
                        a = in(reg) a.as_ptr(), b = in(reg) b.as_ptr(), out = in(reg) out.as_mut_ptr(),
                        out("st(0)") _, out("st(1)") _,
                    ),
                    _ => std::arch::asm!(
                        "fld tbyte ptr [{a}]", "fld tbyte ptr [{b}]", "fdivp st(1), st", "fstp tbyte ptr [{out}]",
                        a = in(reg) a.as_ptr(), b = in(reg) b.as_ptr(), out = in(reg) out.as_mut_ptr(),
                        out("st(0)") _, out("st(1)") _,
                    ),
                }
            }
            u128::from_le_bytes(out) & ((1 << 80) - 1)
        }
        let images = [
            0x3FFF_8000_0000_0000_0000u128,
            0x0000_0000_0000_0000_0000,
            0x7FFF_8000_0000_0000_0000,
            0x7FFF_C000_0000_0000_0005,
            0xFFFF_C000_0000_0000_0005,
            0xFFFF_C000_0000_0000_0009,
            0x7FFF_8000_0000_0000_0005,
            0xFFFF_8000_0000_0000_0009,
            0xFFFF_8000_0000_0000_0005,
            0x7FFF_4000_0000_0000_0007,
            0x3FFF_4000_0000_0000_0000,
        ];
        let mode = crate::RoundingMode::NearestEven;
        for &a in &images {
            for &b in &images {
                let (x, y) = (Fp::from_x87_bits(a), Fp::from_x87_bits(b));
                assert_eq!(x.add(y, mode).x87_nan(&[a, b]).to_x87_bits(), host(a, b, "add"), "{a:#x} + {b:#x}");
                assert_eq!(x.div(y, mode).x87_nan(&[a, b]).to_x87_bits(), host(a, b, "div"), "{a:#x} / {b:#x}");
            }
        }
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
