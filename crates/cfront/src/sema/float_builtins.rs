//! GCC's type-generic floating-point built-ins, lowered to exact IR
//! expressions as GCC folds them: classification (`__builtin_isnan`,
//! `isinf`, `isinf_sign`, `isfinite`, `isnormal`, `fpclassify`, `signbit`),
//! the quiet comparisons (`__builtin_isgreater`, … `isunordered`), the
//! constants (`__builtin_inf`, `huge_val`, `nan("")`) and the sign
//! operations (`__builtin_fabs`, `__builtin_copysign`) in every float type.
//! Called undeclared, the classification and comparison macros' plain
//! names (`isnan(x)`) mean the same, as in GCC, and so do CBMC's and
//! ESBMC's classification intrinsics (`__CPROVER_isnanf`,
//! `__ESBMC_isinfd`, `__CPROVER_signld`, ...), whose operand is converted
//! to the type their suffix names (`f`, `d`, `ld`), as their prototypes
//! convert it.
//!
//! The operand keeps its own float type (no promotion to `double`, which
//! would turn a subnormal `float` into a normal `double`); an integer
//! operand is converted to `double` as GCC does. Only comparisons, sign
//! tests and sign flips are used, so the results hold in every rounding
//! mode and for every NaN payload.

use super::ctype::{CType, FloatKind, IntKind, Kind};
use super::expr::Val;
use super::types::float_format;
use super::{Sema, R};
use crate::ast;
use ir::{BinOp, Expr, ExprKind, FloatFormat, Loc, UnOp};

/// The float kind a `__builtin_<base><suffix>` constant or sign operation
/// returns: no suffix `double`, `f` `float`, `l` `long double`.
fn suffixed(name: &str, base: &str) -> Option<FloatKind> {
    match name.strip_prefix("__builtin_")?.strip_prefix(base)? {
        "" => Some(FloatKind::Double),
        "f" => Some(FloatKind::Float),
        "l" => Some(FloatKind::LongDouble),
        _ => None,
    }
}

/// The nonzero value gcc 12's `__builtin_signbit` gives on x86-64 (at
/// every optimisation level): the sign bit in place for half and single
/// precision, the low bit of `movmskpd` for a double, the x87 `fxam` C1
/// flag for a long double, bit 3 for `__float128`. C says only "nonzero";
/// a program comparing it with 1 gets these.
fn gcc_signbit_value(format: FloatFormat) -> i128 {
    match format {
        FloatFormat::Half => 0x8000,
        FloatFormat::Single => i128::from(i32::MIN),
        FloatFormat::Double => 1,
        FloatFormat::X87Extended => 0x200,
        FloatFormat::Quad => 8,
    }
}

/// A CBMC or ESBMC classification intrinsic: the GCC built-in it means
/// (`sign` is `signbit`) and the float kind its operand is converted to.
fn tool_classification(name: &str) -> Option<(&'static str, FloatKind)> {
    let rest = name.strip_prefix("__CPROVER_").or_else(|| name.strip_prefix("__ESBMC_"))?;
    ["isnan", "isinf", "isfinite", "isnormal", "signbit"].into_iter().find_map(|builtin| {
        let kind = match rest.strip_prefix(builtin.trim_end_matches("bit"))? {
            "f" => FloatKind::Float,
            "d" => FloatKind::Double,
            "ld" => FloatKind::LongDouble,
            _ => return None,
        };
        Some((builtin, kind))
    })
}

impl Sema<'_> {
    /// Lowers `name(args)` if it is one of this module's built-ins.
    pub(super) fn float_builtin(&mut self, name: &str, args: &[ast::Expr], loc: Loc) -> R<Option<Val>> {
        if let (Some((builtin, kind)), [x]) = (tool_classification(name), args) {
            let x = self.float_operand(x, Some(kind), loc)?;
            let result = match builtin {
                "isnan" => self.is_nan(&x),
                "isinf" => self.is_infinite(&x),
                "isfinite" => self.is_finite(&x),
                "isnormal" => self.is_normal(&x),
                _ => self.sign_bit(&x),
            };
            return Ok(Some(self.bool_result(result)));
        }
        if let Some(kind) = suffixed(name, "inf").or_else(|| suffixed(name, "huge_val")) {
            return Ok(Some(self.float_constant(kind, None)));
        }
        if let (Some(kind), [payload]) = (suffixed(name, "nan"), args) {
            // A payload GCC cannot fold keeps the call unmodelled.
            let ast::ExprKind::StringLit { units, .. } = &payload.kind else { return Ok(None) };
            let Some(payload) = nan_payload(units) else { return Ok(None) };
            return Ok(Some(self.float_constant(kind, Some(payload))));
        }
        if let (Some(kind), [x]) = (suffixed(name, "fabs"), args) {
            let x = self.float_operand(x, Some(kind), loc)?;
            let negative = self.sign_bit(&x);
            return Ok(Some(self.negated_if(negative, x)));
        }
        if let (Some(kind), [x, y]) = (suffixed(name, "copysign"), args) {
            let x = self.float_operand(x, Some(kind), loc)?;
            let y = self.float_operand(y, Some(kind), loc)?;
            let (sx, sy) = (self.sign_bit(&x), self.sign_bit(&y));
            let differ = self.bool_op(BinOp::Ne, sx, sy);
            return Ok(Some(self.negated_if(differ, x)));
        }
        // Undeclared, the plain names are GCC's built-ins too (`isinf` as
        // glibc's function, which returns the sign).
        let generic = match name {
            "isinf" => "isinf_sign",
            _ => name.strip_prefix("__builtin_").unwrap_or(name),
        };
        let result = match (generic, args) {
            ("isnan", [x]) => {
                let x = self.float_operand(x, None, loc)?;
                self.is_nan(&x)
            }
            ("isinf", [x]) => {
                let x = self.float_operand(x, None, loc)?;
                self.is_infinite(&x)
            }
            ("isfinite", [x]) => {
                let x = self.float_operand(x, None, loc)?;
                self.is_finite(&x)
            }
            ("isnormal", [x]) => {
                let x = self.float_operand(x, None, loc)?;
                self.is_normal(&x)
            }
            ("signbit" | "signbitf" | "signbitl", [x]) => {
                let x = self.float_operand(x, None, loc)?;
                let negative = self.sign_bit(&x);
                let value = gcc_signbit_value(self.format_of(&x));
                return Ok(Some(Val::rv(self.int_ite(negative, value, 0), CType::int())));
            }
            ("isinf_sign", [x]) => {
                let x = self.float_operand(x, None, loc)?;
                let infinite = self.is_infinite(&x);
                let negative = self.sign_bit(&x);
                let sign = self.int_ite(negative, -1, 1);
                let zero = self.int_val(0, CType::int()).e;
                let int_ty = zero.ty;
                return Ok(Some(Val::rv(Expr::new(ExprKind::Ite(Box::new(infinite), Box::new(sign), Box::new(zero)), int_ty), CType::int())));
            }
            ("fpclassify", [nan, inf, normal, subnormal, zero, x]) => {
                return self.fpclassify([nan, inf, normal, subnormal, zero], x, loc).map(Some);
            }
            ("isgreater" | "isgreaterequal" | "isless" | "islessequal" | "islessgreater" | "isunordered", [x, y]) => {
                self.quiet_comparison(generic, x, y, loc)?
            }
            _ => return Ok(None),
        };
        Ok(Some(self.bool_result(result)))
    }

    /// `cond ? -x : x` (negation flips the sign bit only).
    fn negated_if(&mut self, cond: Expr, x: Val) -> Val {
        let ty = x.e.ty;
        let flipped = Expr::unary(UnOp::Neg, x.e.clone(), ty);
        Val::rv(Expr::new(ExprKind::Ite(Box::new(cond), Box::new(flipped), Box::new(x.e)), ty), x.ty)
    }

    /// `+inf`, or with a payload the quiet NaN of `kind` carrying it.
    fn float_constant(&mut self, kind: FloatKind, nan_payload: Option<u128>) -> Val {
        let ty = CType::new(Kind::Float(kind));
        let irty = self.ir_ty(&ty);
        let format = float_format(kind);
        let bits = match nan_payload {
            Some(payload) => quiet_nan_bits(format, payload),
            None => format.infinity_bits(),
        };
        Val::rv(Expr::new(ExprKind::FloatConst(bits), irty), ty)
    }

    /// The operand of a float built-in: converted to `kind` if given, else
    /// kept in its float type (integers become `double`).
    fn float_operand(&mut self, x: &ast::Expr, kind: Option<FloatKind>, loc: Loc) -> R<Val> {
        let v = self.rvalue(x)?;
        let target = match (kind, &v.ty.kind) {
            (Some(k), _) => k,
            (None, Kind::Float(k)) => return Ok(Val::rv(v.e, CType::new(Kind::Float(*k)))),
            (None, _) if v.ty.is_arithmetic() => FloatKind::Double,
            (None, _) => return Err(self.error(x.loc, "floating-point classification of a non-arithmetic value")),
        };
        let ty = CType::new(Kind::Float(target));
        let e = self.cast_to(v, &ty, loc, true)?;
        Ok(Val::rv(e, ty))
    }

    fn format_of(&self, x: &Val) -> FloatFormat {
        match x.ty.kind {
            Kind::Float(k) => float_format(k),
            _ => unreachable!("float operand"),
        }
    }

    fn bool_op(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let bool_ty = self.prog.types.bool();
        Expr::binary(op, a, b, bool_ty)
    }

    fn float_bits_const(&self, x: &Val, bits: u128) -> Expr {
        Expr::new(ExprKind::FloatConst(bits), x.e.ty)
    }

    fn is_nan(&mut self, x: &Val) -> Expr {
        self.bool_op(BinOp::Ne, x.e.clone(), x.e.clone())
    }

    fn is_infinite(&mut self, x: &Val) -> Expr {
        let format = self.format_of(x);
        let inf = format.infinity_bits();
        let (plus, minus) = (self.float_bits_const(x, inf), self.float_bits_const(x, inf | sign_mask(format)));
        let is_plus = self.bool_op(BinOp::Eq, x.e.clone(), plus);
        let is_minus = self.bool_op(BinOp::Eq, x.e.clone(), minus);
        self.bool_op(BinOp::Or, is_plus, is_minus)
    }

    fn is_finite(&mut self, x: &Val) -> Expr {
        let not_nan = self.bool_op(BinOp::Eq, x.e.clone(), x.e.clone());
        let infinite = self.is_infinite(x);
        let bool_ty = self.prog.types.bool();
        let finite = Expr::unary(UnOp::Not, infinite, bool_ty);
        self.bool_op(BinOp::And, not_nan, finite)
    }

    /// `min_normal <= |x| <= max` (false for NaN).
    fn is_normal(&mut self, x: &Val) -> Expr {
        let format = self.format_of(x);
        let (min, max) = (min_normal_bits(format), max_finite_bits(format));
        let sign = sign_mask(format);
        let in_range = |s: &mut Self, low: u128, high: u128| {
            let (low, high) = (s.float_bits_const(x, low), s.float_bits_const(x, high));
            let above = s.bool_op(BinOp::Ge, x.e.clone(), low);
            let below = s.bool_op(BinOp::Le, x.e.clone(), high);
            s.bool_op(BinOp::And, above, below)
        };
        let positive = in_range(self, min, max);
        let negative = in_range(self, max | sign, min | sign);
        self.bool_op(BinOp::Or, positive, negative)
    }

    /// The sign bit of `x`, read from its most significant byte.
    fn sign_bit(&mut self, x: &Val) -> Expr {
        let format = self.format_of(x);
        let uchar = CType::new(Kind::Int(IntKind::UChar));
        let byte_ty = self.ir_ty(&uchar);
        let offset_ty = self.ir_ty(&CType::new(Kind::Int(IntKind::ULong)));
        let offset = Expr::int(u128::from(format.storage_bits() / 8 - 1), offset_ty);
        let top = Expr::new(ExprKind::ByteExtract { value: Box::new(x.e.clone()), offset: Box::new(offset) }, byte_ty);
        let mask = Expr::int(0x80, byte_ty);
        let bit = Expr::binary(BinOp::BitAnd, top, mask, byte_ty);
        self.bool_op(BinOp::Ne, bit, Expr::int(0, byte_ty))
    }

    fn int_ite(&mut self, cond: Expr, then: i128, otherwise: i128) -> Expr {
        let (a, b) = (self.int_val(then, CType::int()).e, self.int_val(otherwise, CType::int()).e);
        let ty = a.ty;
        Expr::new(ExprKind::Ite(Box::new(cond), Box::new(a), Box::new(b)), ty)
    }

    fn bool_result(&mut self, b: Expr) -> Val {
        let int = CType::int();
        let irty = self.ir_ty(&int);
        Val::rv(Expr::cast(b, irty), int)
    }

    /// `__builtin_fpclassify(nan, inf, normal, subnormal, zero, x)`: the
    /// argument naming the class of `x`.
    fn fpclassify(&mut self, classes: [&ast::Expr; 5], x: &ast::Expr, loc: Loc) -> R<Val> {
        let mut values = Vec::with_capacity(5);
        for class in classes {
            let v = self.rvalue(class)?;
            values.push(self.cast_to(v, &CType::int(), loc, true)?);
        }
        let x = self.float_operand(x, None, loc)?;
        let zero_const = self.float_bits_const(&x, 0);
        let tests = [self.is_nan(&x), self.is_infinite(&x), self.is_normal(&x), self.bool_op(BinOp::Eq, x.e.clone(), zero_const)];
        // Checked in the order NaN, infinite, normal, zero; otherwise subnormal.
        let [nan, inf, normal, subnormal, zero]: [Expr; 5] = values.try_into().expect("five classes");
        let int_ty = nan.ty;
        let mut result = subnormal;
        for (test, value) in tests.into_iter().zip([nan, inf, normal, zero]).rev() {
            result = Expr::new(ExprKind::Ite(Box::new(test), Box::new(value), Box::new(result)), int_ty);
        }
        Ok(Val::rv(result, CType::int()))
    }

    /// The comparison macros of C99 7.12.14, which never trap on NaN (the
    /// IR's comparisons do not trap either).
    fn quiet_comparison(&mut self, name: &str, x: &ast::Expr, y: &ast::Expr, loc: Loc) -> R<Expr> {
        let (x, y) = (self.rvalue(x)?, self.rvalue(y)?);
        let ty = match (&x.ty.kind, &y.ty.kind) {
            (Kind::Float(a), Kind::Float(b)) => CType::new(Kind::Float(if a.rank() >= b.rank() { *a } else { *b })),
            (Kind::Float(a), _) | (_, Kind::Float(a)) => CType::new(Kind::Float(*a)),
            _ => CType::new(Kind::Float(FloatKind::Double)),
        };
        let a = self.cast_to(x, &ty, loc, true)?;
        let b = self.cast_to(y, &ty, loc, true)?;
        let cmp = |s: &mut Self, op| s.bool_op(op, a.clone(), b.clone());
        Ok(match name {
            "isgreater" => cmp(self, BinOp::Gt),
            "isgreaterequal" => cmp(self, BinOp::Ge),
            "isless" => cmp(self, BinOp::Lt),
            "islessequal" => cmp(self, BinOp::Le),
            "islessgreater" => {
                let (lt, gt) = (cmp(self, BinOp::Lt), cmp(self, BinOp::Gt));
                self.bool_op(BinOp::Or, lt, gt)
            }
            _ => {
                let a_nan = self.bool_op(BinOp::Ne, a.clone(), a.clone());
                let b_nan = self.bool_op(BinOp::Ne, b.clone(), b.clone());
                self.bool_op(BinOp::Or, a_nan, b_nan)
            }
        })
    }
}

fn sign_mask(format: FloatFormat) -> u128 {
    1u128 << (format.storage_bits() - 1)
}

/// Bits of the field below the exponent (x87: including the explicit integer bit).
fn trailing_bits(format: FloatFormat) -> u32 {
    match format {
        FloatFormat::X87Extended => 64,
        _ => format.significand_bits() - 1,
    }
}

fn min_normal_bits(format: FloatFormat) -> u128 {
    let explicit_one = if format == FloatFormat::X87Extended { 1u128 << 63 } else { 0 };
    (1u128 << trailing_bits(format)) | explicit_one
}

/// Largest exponent, every bit below it set.
fn max_finite_bits(format: FloatFormat) -> u128 {
    let max_exponent = (1u128 << format.exponent_bits()) - 2;
    (max_exponent << trailing_bits(format)) | ((1u128 << trailing_bits(format)) - 1)
}

/// The quiet NaN GCC's `__builtin_nan` gives: positive, top fraction bit
/// set, the payload in the fraction bits (its higher bits dropped).
fn quiet_nan_bits(format: FloatFormat, payload: u128) -> u128 {
    let fraction = (1u128 << trailing_bits(format)) - 1;
    format.infinity_bits() | (1u128 << (format.significand_bits() - 2)) | (payload & fraction)
}

/// The payload GCC reads from `__builtin_nan`'s string (its code units,
/// possibly NUL-terminated): empty is 0, else an unsigned number in C's
/// notation (`0x` hexadecimal, a leading `0` octal, else decimal). `None`
/// for anything else, which GCC leaves to the library.
fn nan_payload(units: &[u32]) -> Option<u128> {
    let end = units.iter().position(|&u| u == 0).unwrap_or(units.len());
    let text: String = units[..end].iter().map(|&u| char::from_u32(u)).collect::<Option<_>>()?;
    let (digits, radix) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None if text.len() > 1 && text.starts_with('0') => (&text[1..], 8),
        None => (text.as_str(), 10),
    };
    if text.is_empty() {
        return Some(0);
    }
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u128::from_str_radix(digits, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(text: &str) -> Vec<u32> {
        text.chars().map(u32::from).chain([0]).collect()
    }

    #[test]
    fn nan_payloads_are_read_as_gcc_reads_them() {
        assert_eq!(nan_payload(&units("")), Some(0));
        assert_eq!(nan_payload(&[]), Some(0));
        assert_eq!(nan_payload(&units("12")), Some(12));
        assert_eq!(nan_payload(&units("0x10")), Some(16));
        assert_eq!(nan_payload(&units("010")), Some(8));
        assert_eq!(nan_payload(&units("0")), Some(0));
        assert_eq!(nan_payload(&units("abc")), None);
        assert_eq!(nan_payload(&units("0x")), None);
        assert_eq!(nan_payload(&units("09")), None);
    }

    #[test]
    fn tool_intrinsics_name_a_builtin_and_an_operand_type() {
        assert!(tool_classification("__CPROVER_isnanf") == Some(("isnan", FloatKind::Float)));
        assert!(tool_classification("__ESBMC_isinfd") == Some(("isinf", FloatKind::Double)));
        assert!(tool_classification("__CPROVER_isfiniteld") == Some(("isfinite", FloatKind::LongDouble)));
        assert!(tool_classification("__ESBMC_isnormalf") == Some(("isnormal", FloatKind::Float)));
        assert!(tool_classification("__CPROVER_signd") == Some(("signbit", FloatKind::Double)));
        for other in ["__CPROVER_isnan", "__CPROVER_signbitf", "__builtin_isnanf", "isnanf", "__CPROVER_isinfx"] {
            assert!(tool_classification(other).is_none(), "{other}");
        }
    }

    #[test]
    fn nan_bits_match_gcc() {
        assert_eq!(quiet_nan_bits(FloatFormat::Double, 0), 0x7ff8_0000_0000_0000);
        assert_eq!(quiet_nan_bits(FloatFormat::Double, 12), 0x7ff8_0000_0000_000c);
        assert_eq!(quiet_nan_bits(FloatFormat::Double, 0xf_ffff_ffff_ffff_ffff), 0x7fff_ffff_ffff_ffff);
        assert_eq!(quiet_nan_bits(FloatFormat::Single, 0x7f_ffff), 0x7fff_ffff);
    }
}
