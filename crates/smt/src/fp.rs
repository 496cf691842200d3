//! Semantics of the floating-point operators on concrete values, delegated
//! to the exact software IEEE-754 implementation of the `ieee` crate.
//!
//! Formats beyond that crate's range (more than 20 exponent bits or 128
//! bits in all) and integer operands (not results) wider than 128 bits
//! give [`EvalError::Unsupported`]. Where SMT-LIB leaves a result unspecified,
//! tarsier fixes one (the bit-blaster must produce the same):
//! - `fp.min(-0, +0)` and `fp.min(+0, -0)` are `-0`; `fp.max` of the two is `+0`;
//! - `fp.to_sbv`/`fp.to_ubv` of NaN, an infinity or a value whose rounded
//!   integer does not fit the width give the pattern `10…0` (the signed
//!   minimum: what x86 conversions produce for the signed case).

use crate::bv::BvValue;
use crate::eval::EvalError;
use crate::op::Op;
use crate::sort::RoundingMode;
use crate::value::{FpValue, Value};

fn ieee_format(exp: u32, sig: u32) -> Result<ieee::Format, EvalError> {
    ieee::Format::new(exp, sig).ok_or_else(|| {
        EvalError::Unsupported(format!(
            "floating-point format ({exp}, {sig}) in evaluation"
        ))
    })
}

fn to_ieee(v: &FpValue) -> Result<ieee::Fp, EvalError> {
    let format = ieee_format(v.exp, v.sig)?;
    Ok(ieee::Fp::from_bits(
        format,
        v.bits().to_u128().expect("format fits in 128 bits"),
    ))
}

fn from_ieee(v: ieee::Fp) -> Value {
    let format = v.format();
    let (exp, sig) = (format.exp_bits(), format.sig_bits());
    Value::Fp(FpValue::from_bits(
        exp,
        sig,
        BvValue::from_u128(exp + sig, v.to_bits()),
    ))
}

fn ieee_rounding(rm: RoundingMode) -> ieee::RoundingMode {
    match rm {
        RoundingMode::Rne => ieee::RoundingMode::NearestEven,
        RoundingMode::Rna => ieee::RoundingMode::NearestAway,
        RoundingMode::Rtp => ieee::RoundingMode::TowardPositive,
        RoundingMode::Rtn => ieee::RoundingMode::TowardNegative,
        RoundingMode::Rtz => ieee::RoundingMode::TowardZero,
    }
}

fn float(v: &Value) -> Result<ieee::Fp, EvalError> {
    to_ieee(v.as_fp().expect("sort-checked float"))
}

fn too_wide(what: &str, width: u32) -> EvalError {
    EvalError::Unsupported(format!("{what} of {width} bits in evaluation"))
}

/// The value of a floating-point operator that needs real IEEE arithmetic
/// (classification, sign operations and comparisons are in `eval.rs`).
pub(crate) fn eval_fp_arith(op: Op, args: &[&Value]) -> Result<Value, EvalError> {
    use Op::*;
    let rm = || ieee_rounding(args[0].as_rm().expect("sort-checked rounding mode"));
    Ok(match op {
        FpAdd => from_ieee(float(args[1])?.add(float(args[2])?, rm())),
        FpSub => from_ieee(float(args[1])?.sub(float(args[2])?, rm())),
        FpMul => from_ieee(float(args[1])?.mul(float(args[2])?, rm())),
        FpDiv => from_ieee(float(args[1])?.div(float(args[2])?, rm())),
        FpFma => from_ieee(float(args[1])?.fma(float(args[2])?, float(args[3])?, rm())),
        FpSqrt => from_ieee(float(args[1])?.sqrt(rm())),
        FpRoundToIntegral => from_ieee(float(args[1])?.round_to_integral(rm())),
        FpRem => from_ieee(float(args[0])?.remainder(float(args[1])?)),
        FpMin => from_ieee(float(args[0])?.min(float(args[1])?)),
        FpMax => from_ieee(float(args[0])?.max(float(args[1])?)),
        ToFp { exp, sig } => from_ieee(float(args[1])?.convert(ieee_format(exp, sig)?, rm())),
        ToFpFromSbv { exp, sig } => {
            let bv = args[1].as_bv().expect("sort-checked bit-vector");
            let value = bv
                .to_i128()
                .ok_or_else(|| too_wide("signed operand", bv.width()))?;
            from_ieee(ieee::Fp::from_i128(ieee_format(exp, sig)?, value, rm()))
        }
        ToFpFromUbv { exp, sig } => {
            let bv = args[1].as_bv().expect("sort-checked bit-vector");
            let value = bv
                .to_u128()
                .ok_or_else(|| too_wide("unsigned operand", bv.width()))?;
            from_ieee(ieee::Fp::from_u128(ieee_format(exp, sig)?, value, rm()))
        }
        FpToSbv(width) | FpToUbv(width) if width > 128 => {
            let parts = float(args[1])?.to_integer_shifted(rm());
            let signed = matches!(op, FpToSbv(_));
            let converted = parts.and_then(|(negative, magnitude, shift)| wide_integer(negative, magnitude, shift, width, signed));
            Value::Bv(converted.unwrap_or_else(|| BvValue::signed_min(width)))
        }
        FpToSbv(width) | FpToUbv(width) => {
            let x = float(args[1])?;
            let converted = match op {
                FpToSbv(_) => x.to_i128(width, rm()).map(|v| BvValue::from_i128(width, v)),
                _ => x.to_u128(width, rm()).map(|v| BvValue::from_u128(width, v)),
            };
            Value::Bv(converted.unwrap_or_else(|| BvValue::signed_min(width)))
        }
        _ => return Err(EvalError::Unsupported(format!("{op:?}"))),
    })
}

/// `±(magnitude << shift)` as a `width`-bit integer (signed or not), if it fits.
fn wide_integer(negative: bool, magnitude: u128, shift: u32, width: u32, signed: bool) -> Option<BvValue> {
    if magnitude == 0 {
        return Some(BvValue::zero(width));
    }
    let bits = 128 - magnitude.leading_zeros() + shift;
    if bits > width + 1 {
        return None;
    }
    let value = BvValue::from_u128(width + 1, magnitude).shl_by(shift);
    match signed {
        true => {
            let value = if negative { value.neg() } else { value };
            let result = value.extract(width - 1, 0);
            (result.sign_extend(1) == value).then_some(result)
        }
        false => (!negative && bits <= width).then(|| value.extract(width - 1, 0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32(x: f32) -> Value {
        Value::Fp(FpValue::from_bits(
            8,
            24,
            BvValue::from_u64(32, x.to_bits() as u64),
        ))
    }

    fn apply(op: Op, args: &[Value]) -> Result<Value, EvalError> {
        eval_fp_arith(op, &args.iter().collect::<Vec<_>>())
    }

    fn rm(mode: RoundingMode) -> Value {
        Value::Rm(mode)
    }

    #[test]
    fn arithmetic_matches_host_floats_in_nearest_even() {
        let rne = rm(RoundingMode::Rne);
        let cases = [
            (1.5f32, 2.25f32),
            (1e30, -3e-30),
            (0.1, 0.2),
            (-0.0, 0.0),
            (f32::MAX, f32::MAX),
        ];
        for (a, b) in cases {
            let args = [rne.clone(), f32(a), f32(b)];
            assert_eq!(apply(Op::FpAdd, &args), Ok(f32(a + b)), "{a} + {b}");
            assert_eq!(apply(Op::FpMul, &args), Ok(f32(a * b)), "{a} * {b}");
            assert_eq!(apply(Op::FpDiv, &args), Ok(f32(a / b)), "{a} / {b}");
        }
        assert_eq!(
            apply(Op::FpSqrt, &[rne.clone(), f32(2.0)]),
            Ok(f32(2f32.sqrt()))
        );
        assert_eq!(
            apply(Op::FpDiv, &[rne, f32(0.0), f32(0.0)]),
            Ok(f32(f32::NAN))
        );
    }

    #[test]
    fn conversions_and_unspecified_cases() {
        let rtz = rm(RoundingMode::Rtz);
        let to_int = |op: Op, x: f32| apply(op, &[rtz.clone(), f32(x)]).unwrap();
        assert_eq!(
            to_int(Op::FpToSbv(32), -2.7),
            Value::Bv(BvValue::from_i128(32, -2))
        );
        assert_eq!(
            to_int(Op::FpToUbv(8), 255.9),
            Value::Bv(BvValue::from_u64(8, 255))
        );
        assert_eq!(
            to_int(Op::FpToUbv(8), 256.0),
            Value::Bv(BvValue::signed_min(8))
        );
        assert_eq!(
            to_int(Op::FpToSbv(16), f32::NAN),
            Value::Bv(BvValue::signed_min(16))
        );
        let from = apply(
            Op::ToFpFromSbv { exp: 8, sig: 24 },
            &[
                rm(RoundingMode::Rne),
                Value::Bv(BvValue::from_i128(64, -16_777_217)),
            ],
        );
        assert_eq!(from, Ok(f32(-16_777_216.0)));
        let min = apply(Op::FpMin, &[f32(0.0), f32(-0.0)]).unwrap();
        assert_eq!(min, f32(-0.0));
        let to_double = apply(Op::ToFp { exp: 11, sig: 53 }, &[rtz, f32(0.1)]).unwrap();
        assert_eq!(
            to_double.as_fp().unwrap().bits().to_u64(),
            Some((0.1f32 as f64).to_bits())
        );
    }

    #[test]
    fn floats_convert_exactly_to_integers_wider_than_128_bits() {
        let rtz = rm(RoundingMode::Rtz);
        let to_int = |op: Op, x: f32| apply(op, &[rtz.clone(), f32(x)]).unwrap();
        let minus_three = to_int(Op::FpToSbv(1000), -3.9);
        assert_eq!(minus_three, Value::Bv(BvValue::from_i128(1000, -3)));
        // 2^127 (a float) needs 129 signed bits; -2^129 fits 130 exactly.
        let big = to_int(Op::FpToSbv(129), 2f32.powi(127));
        assert_eq!(big, Value::Bv(BvValue::one(129).shl_by(127)));
        let lowest = to_int(Op::FpToSbv(130), -(2f32.powi(129)));
        assert_eq!(lowest, Value::Bv(BvValue::signed_min(130)));
        assert_eq!(to_int(Op::FpToSbv(129), 2f32.powi(128)), Value::Bv(BvValue::signed_min(129)));
        assert_eq!(to_int(Op::FpToUbv(200), -1.0), Value::Bv(BvValue::signed_min(200)));
        assert_eq!(to_int(Op::FpToUbv(200), -0.5), Value::Bv(BvValue::zero(200)));
        assert_eq!(to_int(Op::FpToUbv(200), f32::INFINITY), Value::Bv(BvValue::signed_min(200)));
    }

    #[test]
    fn formats_beyond_the_ieee_crate_are_unsupported() {
        let huge = Value::Fp(FpValue::zero(30, 200, false));
        let args = [rm(RoundingMode::Rne), huge.clone(), huge];
        assert!(matches!(
            apply(Op::FpAdd, &args),
            Err(EvalError::Unsupported(_))
        ));
    }
}
