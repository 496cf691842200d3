//! Runtime values and the integer and floating-point operator semantics of
//! [`crate::expr`]: wrapping arithmetic, total division and remainder, shifts
//! that saturate at the width, exact IEEE operations on every float format
//! (x87 `long double` on its 80-bit image).

use super::memory::{Bytes, Pointer};
use crate::expr::BinOp;
use crate::layout::low_mask;
use crate::rounding::RoundingMode;
use crate::types::FloatFormat;

/// A value of a scalar or aggregate type.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer or `Bool` (its bits, zero-extended) or a float's bit pattern.
    Scalar(u128),
    Ptr(Pointer),
    /// A struct, union or array as its bytes; also an integer wider than
    /// 128 bits (see `wide`).
    Agg(Bytes),
}

/// `value`'s low `bits` bits read as a two's-complement number.
pub fn sign_extend(value: u128, bits: u32) -> i128 {
    let shift = 128 - bits.clamp(1, 128);
    ((value << shift) as i128) >> shift
}

/// An integer operand: its bits and how to read them.
#[derive(Copy, Clone, Debug)]
pub struct IntOperand {
    pub bits: u128,
    pub width: u32,
    pub signed: bool,
}

impl IntOperand {
    /// The mathematical value (as `i128`; unsigned 128-bit values above
    /// `i128::MAX` do not occur as shift amounts that matter).
    fn value(self) -> i128 {
        if self.signed {
            sign_extend(self.bits, self.width)
        } else {
            self.bits.min(i128::MAX as u128) as i128
        }
    }
}

/// An integer binary operator on operands of type (`width`, `signed`),
/// except shifts whose right operand has its own type. `None` for
/// operators that are not integer arithmetic.
pub fn int_binary(op: BinOp, a: IntOperand, b: IntOperand) -> Option<u128> {
    let (width, signed) = (a.width, a.signed);
    let mask = low_mask(width);
    let (x, y) = (a.bits & mask, b.bits & low_mask(b.width));
    let (sx, sy) = (sign_extend(x, width), sign_extend(y, width));
    let result = match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div if y == 0 => 0,
        BinOp::Div if signed => signed_div_rem(sx, sy, width, false),
        BinOp::Div => x / y,
        BinOp::Rem if y == 0 => x,
        BinOp::Rem if signed => signed_div_rem(sx, sy, width, true),
        BinOp::Rem => x % y,
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        BinOp::Shl => match shift_amount(b, width) {
            Some(s) => x << s,
            None => 0,
        },
        BinOp::Shr => {
            let negative = signed && sx < 0;
            match shift_amount(b, width) {
                Some(s) if signed => (sx >> s) as u128,
                Some(s) => x >> s,
                None if negative => u128::MAX,
                None => 0,
            }
        }
        _ => return None,
    };
    Some(result & mask)
}

/// Signed division or remainder at `width` bits; `MIN / -1` wraps to `MIN`
/// and `MIN % -1` is 0 at every width.
fn signed_div_rem(x: i128, y: i128, width: u32, remainder: bool) -> u128 {
    if x == crate::layout::int_min(width, true) && y == -1 {
        return if remainder { 0 } else { x as u128 };
    }
    (if remainder { x % y } else { x / y }) as u128
}

/// The shift amount if it is in `0..width`.
fn shift_amount(amount: IntOperand, width: u32) -> Option<u32> {
    let value = amount.value();
    (0..i128::from(width)).contains(&value).then_some(value as u32)
}

/// An integer comparison.
pub fn int_compare(op: BinOp, a: IntOperand, b: IntOperand) -> Option<bool> {
    let ordering = if a.signed {
        sign_extend(a.bits, a.width).cmp(&sign_extend(b.bits, b.width))
    } else {
        (a.bits & low_mask(a.width)).cmp(&(b.bits & low_mask(b.width)))
    };
    compare_result(op, Some(ordering))
}

/// A comparison's truth from the operands' ordering (`None`: unordered, NaN).
pub fn compare_result(op: BinOp, ordering: Option<std::cmp::Ordering>) -> Option<bool> {
    use std::cmp::Ordering::*;
    Some(match (op, ordering) {
        (BinOp::Eq, o) => o == Some(Equal),
        (BinOp::Ne, o) => o != Some(Equal),
        (BinOp::Lt, o) => o == Some(Less),
        (BinOp::Le, o) => matches!(o, Some(Less | Equal)),
        (BinOp::Gt, o) => o == Some(Greater),
        (BinOp::Ge, o) => matches!(o, Some(Greater | Equal)),
        _ => return None,
    })
}

/// The exact software format of a float format.
fn soft_format(format: FloatFormat) -> ieee::Format {
    match format {
        FloatFormat::Half => ieee::Format::HALF,
        FloatFormat::Single => ieee::Format::SINGLE,
        FloatFormat::Double => ieee::Format::DOUBLE,
        FloatFormat::Quad => ieee::Format::QUAD,
        FloatFormat::X87Extended => ieee::Format::X87,
    }
}

/// The value of the float `bits` of `format` (x87: its 80-bit image, read
/// as a 387 loads it, so non-canonical encodings are what symex makes of
/// them too).
pub fn soft_value(format: FloatFormat, bits: u128) -> ieee::Fp {
    let bits = bits & low_mask(format.storage_bits());
    match format {
        FloatFormat::X87Extended => ieee::Fp::from_x87_bits(bits),
        _ => ieee::Fp::from_bits(soft_format(format), bits),
    }
}

/// The bits of `value` as a float of `format` (x87: its canonical image).
fn soft_bits(format: FloatFormat, value: ieee::Fp) -> u128 {
    match format {
        FloatFormat::X87Extended => value.to_x87_bits(),
        _ => value.to_bits(),
    }
}

fn soft_rounding(mode: RoundingMode) -> ieee::RoundingMode {
    match mode {
        RoundingMode::NearestEven => ieee::RoundingMode::NearestEven,
        RoundingMode::NearestAway => ieee::RoundingMode::NearestAway,
        RoundingMode::Upward => ieee::RoundingMode::TowardPositive,
        RoundingMode::Downward => ieee::RoundingMode::TowardNegative,
        RoundingMode::TowardZero => ieee::RoundingMode::TowardZero,
    }
}

/// `x op y` for a float arithmetic operator on the bits of two floats of
/// `format`, rounded by `mode`, with the NaN an x86 processor gives.
pub fn float_binary(op: BinOp, format: FloatFormat, x: u128, y: u128, mode: RoundingMode) -> Option<u128> {
    let (a, b) = (soft_value(format, x), soft_value(format, y));
    let rm = soft_rounding(mode);
    let exact = match op {
        BinOp::Add => a.add(b, rm),
        BinOp::Sub => a.sub(b, rm),
        BinOp::Mul => a.mul(b, rm),
        BinOp::Div => a.div(b, rm),
        _ => return None,
    };
    Some(soft_bits(format, hardware_nan(exact, format, &[a, b], &[x, y])))
}

/// The float `bits` of `from` converted to `to`, rounded by `mode`.
pub fn float_convert(from: FloatFormat, to: FloatFormat, bits: u128, mode: RoundingMode) -> u128 {
    let value = soft_value(from, bits);
    soft_bits(to, hardware_nan(value.convert(soft_format(to), soft_rounding(mode)), from, &[value], &[bits]))
}

/// `result` of an operation on `values` (of `format`, whose bits are
/// `operands`) with the NaN x86 gives: x87's rule for `long double`
/// operands, SSE's for the others.
fn hardware_nan(result: ieee::Fp, format: FloatFormat, values: &[ieee::Fp], operands: &[u128]) -> ieee::Fp {
    match format {
        FloatFormat::X87Extended => {
            let images: Vec<u128> = operands.iter().map(|&bits| bits & low_mask(format.storage_bits())).collect();
            result.x87_nan(&images)
        }
        _ => result.x86_nan(values),
    }
}

/// A [`crate::intrinsics::exact_math_function`] computed on operand bits of `format`;
/// `None` for other names or arities.
pub fn float_library(name: &str, format: FloatFormat, operands: &[u128], mode: RoundingMode) -> Option<u128> {
    let values: Vec<ieee::Fp> = operands.iter().map(|&bits| soft_value(format, bits)).collect();
    let rm = soft_rounding(mode);
    let (base, _) = crate::intrinsics::exact_math_function(name)?;
    let result = match (base, values.as_slice()) {
        ("sqrt", [x]) => x.sqrt(rm),
        ("fma", [x, y, z]) => x.fma(*y, *z, rm),
        ("remainder", [x, y]) => x.remainder(*y),
        ("fmod", [x, y]) => {
            // The remainder of the quotient truncated instead of rounded to
            // nearest: one exact step of |y| towards x's sign.
            let r = x.remainder(*y);
            if !r.is_nan() && !r.is_zero() && r.sign_bit() != x.sign_bit() {
                r.add(y.abs().copy_sign(*x), rm)
            } else {
                r
            }
        }
        ("rint" | "nearbyint", [x]) => x.round_to_integral(rm),
        (_, [x]) => x.round_to_integral(soft_rounding(crate::intrinsics::fixed_integral_rounding(base)?)),
        _ => return None,
    };
    Some(soft_bits(format, hardware_nan(result, format, &values, operands)))
}

/// IEEE comparison of the bits of two floats of `format`.
pub fn float_compare(op: BinOp, format: FloatFormat, x: u128, y: u128) -> Option<bool> {
    compare_result(op, soft_value(format, x).partial_order(soft_value(format, y)))
}

/// The float `bits` of `format` converted to an integer of (`width`,
/// `signed`), truncating towards zero; `None` when out of range or NaN.
pub fn float_to_int(format: FloatFormat, bits: u128, width: u32, signed: bool) -> Option<u128> {
    let value = soft_value(format, bits);
    let truncate = ieee::RoundingMode::TowardZero;
    let result = if signed { value.to_i128(width, truncate)? as u128 } else { value.to_u128(width, truncate)? };
    Some(result & low_mask(width))
}

/// The float `bits` of `format` truncated to a signed or unsigned integer
/// wider than 128 bits; `None` where it does not fit (undefined in C).
pub fn float_to_wide(format: FloatFormat, bits: u128, width: u32, signed: bool) -> Option<super::wide::Wide> {
    let (negative, magnitude, shift) = soft_value(format, bits).to_integer_shifted(ieee::RoundingMode::TowardZero)?;
    super::wide::Wide::from_integer_parts(negative, magnitude, shift, width, signed)
}

/// The integer `bits` of (`width`, `signed`) as a float of `format`, rounded by `mode`.
pub fn int_to_float(format: FloatFormat, bits: u128, width: u32, signed: bool, mode: RoundingMode) -> u128 {
    let soft = soft_format(format);
    let rm = soft_rounding(mode);
    let value = if signed {
        ieee::Fp::from_i128(soft, sign_extend(bits, width), rm)
    } else {
        ieee::Fp::from_u128(soft, bits & low_mask(width), rm)
    };
    soft_bits(format, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(bits: u128, width: u32, signed: bool) -> IntOperand {
        IntOperand { bits, width, signed }
    }
    fn i32op(v: i32) -> IntOperand {
        op(v as u32 as u128, 32, true)
    }
    fn as_i32(bits: Option<u128>) -> i32 {
        bits.unwrap() as u32 as i32
    }

    #[test]
    fn division_and_remainder_are_total() {
        assert_eq!(as_i32(int_binary(BinOp::Div, i32op(-7), i32op(2))), -3);
        assert_eq!(as_i32(int_binary(BinOp::Rem, i32op(-7), i32op(2))), -1);
        assert_eq!(as_i32(int_binary(BinOp::Div, i32op(5), i32op(0))), 0);
        assert_eq!(as_i32(int_binary(BinOp::Rem, i32op(5), i32op(0))), 5);
        assert_eq!(as_i32(int_binary(BinOp::Div, i32op(i32::MIN), i32op(-1))), i32::MIN);
        assert_eq!(as_i32(int_binary(BinOp::Rem, i32op(i32::MIN), i32op(-1))), 0);
        assert_eq!(int_binary(BinOp::Div, op(200, 8, false), op(3, 8, false)), Some(66));
    }

    #[test]
    fn arithmetic_wraps_at_the_width() {
        assert_eq!(as_i32(int_binary(BinOp::Add, i32op(i32::MAX), i32op(1))), i32::MIN);
        assert_eq!(int_binary(BinOp::Sub, op(0, 8, false), op(1, 8, false)), Some(255));
        assert_eq!(int_binary(BinOp::Mul, op(16, 8, false), op(16, 8, false)), Some(0));
    }

    #[test]
    fn shifts_saturate_at_the_width() {
        let amount = |v: i64| op(v as u64 as u128, 64, true);
        assert_eq!(as_i32(int_binary(BinOp::Shl, i32op(1), amount(31))), i32::MIN);
        assert_eq!(as_i32(int_binary(BinOp::Shl, i32op(1), amount(32))), 0);
        assert_eq!(as_i32(int_binary(BinOp::Shl, i32op(1), amount(-1))), 0);
        assert_eq!(as_i32(int_binary(BinOp::Shr, i32op(-8), amount(1))), -4);
        assert_eq!(as_i32(int_binary(BinOp::Shr, i32op(-8), amount(40))), -1);
        assert_eq!(as_i32(int_binary(BinOp::Shr, i32op(8), amount(40))), 0);
        assert_eq!(int_binary(BinOp::Shr, op(0x80, 8, false), amount(7)), Some(1));
    }

    #[test]
    fn comparisons_respect_signedness_and_nan() {
        assert_eq!(int_compare(BinOp::Lt, i32op(-1), i32op(0)), Some(true));
        assert_eq!(int_compare(BinOp::Lt, op(0xffff_ffff, 32, false), op(0, 32, false)), Some(false));
        let nan = f64::NAN.to_bits() as u128;
        assert_eq!(float_compare(BinOp::Eq, FloatFormat::Double, nan, nan), Some(false));
        assert_eq!(float_compare(BinOp::Ne, FloatFormat::Double, nan, nan), Some(true));
        let (minus_zero, zero) = ((-0f64).to_bits() as u128, 0);
        assert_eq!(float_compare(BinOp::Eq, FloatFormat::Double, minus_zero, zero), Some(true));
    }

    #[test]
    fn float_integer_conversions() {
        let to_int = |v: f64, width, signed| float_to_int(FloatFormat::Double, v.to_bits() as u128, width, signed);
        assert_eq!(to_int(-2.9, 32, true).map(|b| b as u32 as i32), Some(-2));
        assert_eq!(to_int(4294967295.0, 32, false), Some(0xffff_ffff));
        assert_eq!(to_int(4294967296.0, 32, false), None);
        assert_eq!(to_int(-1.0, 32, false), None);
        assert_eq!(to_int(-0.5, 32, false), Some(0));
        assert_eq!(to_int(i64::MAX as f64, 64, true), None);
        assert_eq!(to_int(f64::NAN, 8, true), None);
        let nearest = RoundingMode::NearestEven;
        let big = int_to_float(FloatFormat::Double, u128::from(u64::MAX), 64, false, nearest);
        assert_eq!(f64::from_bits(big as u64), 18446744073709551615.0);
        let minus_one = int_to_float(FloatFormat::Single, 0xff, 8, true, nearest);
        assert_eq!(f32::from_bits(minus_one as u32), -1.0);
        let down = int_to_float(FloatFormat::Single, (1 << 24) + 1, 32, false, RoundingMode::Upward);
        assert_eq!(f32::from_bits(down as u32), 16777218.0);
    }

    #[test]
    fn exact_library_functions() {
        let d = |v: f64| v.to_bits() as u128;
        let call = |name, args: &[f64]| {
            let bits: Vec<u128> = args.iter().map(|&v| d(v)).collect();
            f64::from_bits(float_library(name, FloatFormat::Double, &bits, RoundingMode::NearestEven).unwrap() as u64)
        };
        assert_eq!(call("sqrt", &[2.0]), 2f64.sqrt());
        assert_eq!(call("fma", &[0.1, 10.0, -1.0]), 0.1f64.mul_add(10.0, -1.0));
        assert_eq!(call("remainder", &[5.0, 3.0]), -1.0);
        assert_eq!(call("fmod", &[5.0, 3.0]), 2.0);
        assert_eq!(call("fmod", &[-5.0, 3.0]), -2.0);
        assert!(call("fmod", &[-6.0, 3.0]).is_sign_negative());
        assert!(call("fmod", &[1.0, 0.0]).is_nan());
        assert_eq!(float_library("cbrt", FloatFormat::Double, &[d(8.0)], RoundingMode::NearestEven), None);
    }

    #[test]
    fn float_arithmetic_rounds_by_the_mode_and_makes_x86_nans() {
        let one = 1f64.to_bits() as u128;
        let three = 3f64.to_bits() as u128;
        let third = |mode| f64::from_bits(float_binary(BinOp::Div, FloatFormat::Double, one, three, mode).unwrap() as u64);
        assert_eq!(third(RoundingMode::NearestEven), 1.0 / 3.0);
        assert!(third(RoundingMode::Upward) > third(RoundingMode::Downward));
        assert_eq!(third(RoundingMode::TowardZero), third(RoundingMode::Downward));
        let zero = 0f32.to_bits() as u128;
        let nan = float_binary(BinOp::Div, FloatFormat::Single, zero, zero, RoundingMode::NearestEven).unwrap();
        assert_eq!(nan as u32, 0xffc0_0000, "x86's default NaN");
        let narrowed = float_convert(FloatFormat::Double, FloatFormat::Single, third(RoundingMode::NearestEven).to_bits() as u128, RoundingMode::Upward);
        assert!(f32::from_bits(narrowed as u32) as f64 > 1.0 / 3.0);
    }

    #[test]
    fn x87_values_are_computed_exactly_on_their_80_bit_images() {
        let nearest = RoundingMode::NearestEven;
        let x87 = FloatFormat::X87Extended;
        let one = 0x3FFF_8000_0000_0000_0000u128;
        let three = int_to_float(x87, 3, 32, true, nearest);
        assert_eq!(three, 0x4000_C000_0000_0000_0000);
        // 1/3 has a 64-bit significand: 0xAAAA...AB after rounding to nearest.
        let third = float_binary(BinOp::Div, x87, one, three, nearest).unwrap();
        assert_eq!(third, 0x3FFD_AAAA_AAAA_AAAA_AAAB);
        assert_eq!(float_convert(x87, FloatFormat::Double, third, nearest), (1.0f64 / 3.0).to_bits() as u128);
        // 2^64 - 1 is exact in x87 but not in double.
        let big = int_to_float(x87, u128::from(u64::MAX), 64, false, nearest);
        assert_eq!(float_to_int(x87, big, 64, false), Some(u128::from(u64::MAX)));
        // An unnormal (exponent set, integer bit clear) is an invalid operand.
        let unnormal = 0x3FFF_4000_0000_0000_0000;
        assert_eq!(float_compare(BinOp::Eq, x87, unnormal, unnormal), Some(false));
        // A pseudo-denormal equals the smallest normal its bits denote.
        let (pseudo_denormal, min_normal) = (0x0000_8000_0000_0000_0000, 0x0001_8000_0000_0000_0000);
        assert_eq!(float_compare(BinOp::Eq, x87, pseudo_denormal, min_normal), Some(true));
    }

    #[test]
    fn long_double_nans_follow_the_x87_rule_and_the_others_sse() {
        let nearest = RoundingMode::NearestEven;
        let (small, large) = (0x7FFF_C000_0000_0000_0005u128, 0xFFFF_C000_0000_0000_0009u128);
        let x87 = FloatFormat::X87Extended;
        assert_eq!(float_binary(BinOp::Sub, x87, small, large, nearest), Some(large));
        assert_eq!(float_library("fmal", x87, &[small, small, large], nearest), Some(large));
        let (first, second) = (0x7FF8_0000_0000_0005u128, 0xFFF8_0000_0000_0009u128);
        assert_eq!(float_binary(BinOp::Sub, FloatFormat::Double, first, second, nearest), Some(first));
        // fstpl of the larger NaN keeps its top payload bits.
        let to_double = float_convert(x87, FloatFormat::Double, 0x7FFF_C000_0000_0009_1800, nearest);
        assert_eq!(to_double, 0x7FF8_0000_0000_0123);
    }
}
