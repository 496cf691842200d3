//! Constant evaluation of lowered integer expressions.
//!
//! Integer constant expressions (array sizes, case labels, enum values,
//! bit-field widths, `_Static_assert`) are lowered like any expression and
//! then folded here, so the typing rules exist once. Folding follows the
//! IR's exact semantics per type (wrap-around, truncation, sign extension);
//! a division by zero or any non-constant operand makes the result unknown.

use ir::{BinOp, Expr, ExprKind, FloatFormat, Type, TypeId, TypeTable, UnOp};

/// Nesting beyond this is not folded (the result is "not constant").
const MAX_DEPTH: u32 = 4096;
/// Levels [`fold_value_shallow`] looks down. Lowering folds each node as it
/// builds it, so a constant operand is already a constant and a shallow look
/// finds everything a full walk would in practice; a full walk per node
/// would make long operator chains quadratic.
const SHALLOW_DEPTH: u32 = 64;

/// Width and signedness of an integer-like IR type. Integers wider than
/// 128 bits (`_BitInt(N)`) are never folded: their values do not fit the
/// `u128` patterns folding computes with (nor `IntConst`, see `ir::ExprKind`).
fn int_shape(tt: &TypeTable, ty: TypeId) -> Option<(u32, bool)> {
    match tt.get(ty) {
        Type::Bool => Some((1, false)),
        Type::Int { bits, signed } if *bits <= 128 => Some((*bits, *signed)),
        _ => None,
    }
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// The value of `bits`-wide two's-complement pattern `v` as an `i128`.
pub fn sign_extend(v: u128, bits: u32) -> i128 {
    if bits == 0 || bits >= 128 {
        return v as i128;
    }
    let shift = 128 - bits;
    ((v << shift) as i128) >> shift
}

/// The folded value of an integer-typed expression as a signed or
/// unsigned number per its type, or `None` when it is not constant.
pub fn fold_value(tt: &TypeTable, e: &Expr) -> Option<i128> {
    fold_value_below(tt, e, 0)
}

/// [`fold_value`] looking at most [`SHALLOW_DEPTH`] levels down: the
/// opportunistic folding done while lowering (an unfolded constant is
/// still exact, only less simple).
pub fn fold_value_shallow(tt: &TypeTable, e: &Expr) -> Option<i128> {
    fold_value_below(tt, e, MAX_DEPTH - SHALLOW_DEPTH)
}

/// [`fold_value`] as if `e` were `depth` levels deep already.
fn fold_value_below(tt: &TypeTable, e: &Expr, depth: u32) -> Option<i128> {
    let (bits, signed) = int_shape(tt, e.ty)?;
    let v = fold(tt, e, depth)?;
    Some(if signed { sign_extend(v, bits) } else { v as i128 })
}

/// Folds an integer- or bool-typed expression to its bit pattern.
fn fold(tt: &TypeTable, e: &Expr, depth: u32) -> Option<u128> {
    if depth > MAX_DEPTH {
        return None;
    }
    let (bits, _) = int_shape(tt, e.ty)?;
    let v = match &e.kind {
        ExprKind::IntConst(v) => *v,
        ExprKind::Zero => 0,
        ExprKind::Cast(x) => fold_cast(tt, x, bits, depth)?,
        ExprKind::Unary(op, x) => {
            let a = fold(tt, x, depth + 1)?;
            match op {
                UnOp::Neg => a.wrapping_neg(),
                UnOp::BitNot => !a,
                UnOp::Not => u128::from(a == 0),
            }
        }
        ExprKind::Binary(op, l, r) => fold_binary(tt, *op, l, r, bits, depth)?,
        ExprKind::Ite(c, t, f) => {
            if fold(tt, c, depth + 1)? != 0 {
                fold(tt, t, depth + 1)?
            } else {
                fold(tt, f, depth + 1)?
            }
        }
        _ => return None,
    };
    Some(v & mask(bits))
}

fn fold_cast(tt: &TypeTable, x: &Expr, to_bits: u32, depth: u32) -> Option<u128> {
    if matches!(x.kind, ExprKind::Null) {
        return Some(0);
    }
    if float_format(tt, x.ty).is_some() {
        let v = fold_float(tt, x, depth + 1)?;
        if to_bits == 1 {
            return Some(u128::from(v != 0.0));
        }
        // Only values that fit are folded (others are undefined behaviour).
        let t = v.trunc();
        let limit = 2f64.powi(to_bits.min(127) as i32);
        return (t.abs() < limit).then_some(t as i128 as u128);
    }
    let (from_bits, from_signed) = int_shape(tt, x.ty)?;
    let a = fold(tt, x, depth + 1)?;
    if to_bits == 1 && matches!(tt.get(x.ty), Type::Int { .. }) {
        // Conversion to _Bool compares with zero instead of truncating.
        return Some(u128::from(a != 0));
    }
    Some(if from_signed { sign_extend(a, from_bits) as u128 } else { a })
}

/// Whether `a op b` holds for the comparison `op` (floats compare as IEEE
/// values: a NaN is unordered).
fn compares<T: PartialOrd>(op: BinOp, a: T, b: T) -> bool {
    match op {
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        _ => a >= b,
    }
}

fn fold_binary(tt: &TypeTable, op: BinOp, l: &Expr, r: &Expr, bits: u32, depth: u32) -> Option<u128> {
    if op.is_comparison() && float_format(tt, l.ty).is_some() {
        let (a, b) = (fold_float(tt, l, depth + 1)?, fold_float(tt, r, depth + 1)?);
        return Some(u128::from(compares(op, a, b)));
    }
    if op.is_comparison() && matches!(tt.get(l.ty), Type::Pointer(_)) {
        // GCC folds comparisons of integers converted to pointers
        // (`(void *)0 == (void *)(1 - 1)`), as addresses.
        let (a, b) = (fold_address(tt, l, depth + 1)?, fold_address(tt, r, depth + 1)?);
        return Some(u128::from(compares(op, a, b)));
    }
    let (lbits, lsigned) = int_shape(tt, l.ty)?;
    let a = fold(tt, l, depth + 1)?;
    if matches!(op, BinOp::And | BinOp::Or) {
        // Short-circuit so `0 && (1/0)` still folds.
        if (op == BinOp::And) == (a == 0) {
            return Some(u128::from(op == BinOp::Or));
        }
        return Some(u128::from(fold(tt, r, depth + 1)? != 0));
    }
    let b = fold(tt, r, depth + 1)?;
    let (sa, sb) = (sign_extend(a, lbits), sign_extend(b, int_shape(tt, r.ty)?.0));
    let ordering = if lsigned { sa.cmp(&sb) } else { a.cmp(&b) };
    Some(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div | BinOp::Rem => {
            if b & mask(lbits) == 0 {
                return None;
            }
            if lsigned {
                let (q, m) = (sa.wrapping_div(sb), sa.wrapping_rem(sb));
                (if op == BinOp::Div { q } else { m }) as u128
            } else if op == BinOp::Div {
                a / b
            } else {
                a % b
            }
        }
        BinOp::Shl | BinOp::Shr => {
            let amount = int_shape(tt, r.ty).map(|(w, s)| if s { sign_extend(b, w) } else { b as i128 })?;
            if amount < 0 || amount >= i128::from(bits) {
                return None;
            }
            if op == BinOp::Shl {
                a << amount
            } else if lsigned {
                (sa >> amount) as u128
            } else {
                a >> amount
            }
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::Eq => u128::from(ordering.is_eq()),
        BinOp::Ne => u128::from(ordering.is_ne()),
        BinOp::Lt => u128::from(ordering.is_lt()),
        BinOp::Le => u128::from(ordering.is_le()),
        BinOp::Gt => u128::from(ordering.is_gt()),
        BinOp::Ge => u128::from(ordering.is_ge()),
        BinOp::And | BinOp::Or | BinOp::PtrAdd | BinOp::PtrDiff => return None,
    })
}

/// The address a pointer expression holds when it is a null pointer or an
/// integer constant converted to a pointer (its value as an unsigned
/// number); `None` for the address of an object, which is no constant.
fn fold_address(tt: &TypeTable, e: &Expr, depth: u32) -> Option<u128> {
    match &e.kind {
        ExprKind::Null | ExprKind::Zero => Some(0),
        ExprKind::Cast(x) if matches!(tt.get(x.ty), Type::Pointer(_)) => fold_address(tt, x, depth + 1),
        ExprKind::Cast(x) => {
            // Only values every pointer width keeps as they are.
            let (bits, signed) = int_shape(tt, x.ty)?;
            let v = fold(tt, x, depth + 1)?;
            let value = if signed { sign_extend(v, bits) } else { v as i128 };
            (0..1 << 31).contains(&value).then_some(value as u128)
        }
        _ => None,
    }
}

/// `Single` or `Double`: the formats folded exactly with host floats.
fn float_format(tt: &TypeTable, ty: TypeId) -> Option<FloatFormat> {
    match tt.get(ty) {
        Type::Float(f @ (FloatFormat::Single | FloatFormat::Double)) => Some(*f),
        _ => None,
    }
}

/// Rounds to the format's precision (f32 arithmetic is exact through f64).
fn round_to(format: FloatFormat, v: f64) -> f64 {
    if format == FloatFormat::Single {
        f64::from(v as f32)
    } else {
        v
    }
}

/// Folds a `float`/`double` expression (arithmetic constant expressions
/// in array sizes and static assertions).
fn fold_float(tt: &TypeTable, e: &Expr, depth: u32) -> Option<f64> {
    if depth > MAX_DEPTH {
        return None;
    }
    let format = float_format(tt, e.ty)?;
    let v = match &e.kind {
        ExprKind::FloatConst(bits) => match format {
            FloatFormat::Single => f64::from(f32::from_bits(*bits as u32)),
            _ => f64::from_bits(*bits as u64),
        },
        ExprKind::Unary(UnOp::Neg, x) => -fold_float(tt, x, depth + 1)?,
        ExprKind::Cast(x) => match (int_shape(tt, x.ty), &x.kind, tt.get(x.ty)) {
            (Some((bits, signed)), _, _) => {
                let raw = fold(tt, x, depth + 1)?;
                if signed { sign_extend(raw, bits) as f64 } else { raw as f64 }
            }
            (None, ExprKind::FloatConst(bits), Type::Float(FloatFormat::X87Extended)) => exact_x87_as_f64(*bits)?,
            (None, _, _) => fold_float(tt, x, depth + 1)?,
        },
        ExprKind::Binary(op, l, r) => {
            let (a, b) = (fold_float(tt, l, depth + 1)?, fold_float(tt, r, depth + 1)?);
            let v = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => a / b,
                _ => return None,
            };
            // GCC does not fold an operation on finite operands that
            // overflows, divides by zero or is invalid: not constant.
            let exceptional = a.is_finite() && b.is_finite() && !round_to(format, v).is_finite();
            if exceptional {
                return None;
            }
            v
        }
        _ => return None,
    };
    Some(round_to(format, v))
}

/// The x87 80-bit value `bits` as an `f64`, when that is exact (the
/// `long double` literals `<float.h>` casts to `double`, `DBL_MAX`,
/// `DBL_MIN`, are); `None` when it would round, or for the encodings a 387
/// reads as NaN (unnormals, pseudo-denormals).
fn exact_x87_as_f64(bits: u128) -> Option<f64> {
    let negative = (bits >> 79) & 1 == 1;
    let exponent = ((bits >> 64) & 0x7fff) as i64;
    let significand = bits as u64;
    let magnitude = match exponent {
        0 if significand == 0 => 0.0,
        0x7fff if significand == 1 << 63 => f64::INFINITY,
        0x7fff if significand >> 63 == 1 => f64::NAN,
        0 | 0x7fff => return None,
        _ if significand >> 63 == 0 => return None,
        _ => {
            // value = significand * 2^(exponent - 16383 - 63)
            let unbiased = exponent - 16383;
            let dropped = if unbiased >= -1022 { 11 } else { 11 + (-1022 - unbiased) };
            if dropped > 63 || unbiased > 1023 || significand.trailing_zeros() < dropped as u32 {
                return None;
            }
            let stored = if unbiased >= -1022 {
                (((unbiased + 1023) as u64) << 52) | ((significand >> 11) & ((1 << 52) - 1))
            } else {
                significand >> dropped
            };
            f64::from_bits(stored)
        }
    };
    Some(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tt() -> (TypeTable, TypeId, TypeId, TypeId) {
        let mut tt = TypeTable::new();
        let int = tt.int(32, true);
        let uint = tt.int(32, false);
        let b = tt.bool();
        (tt, int, uint, b)
    }

    #[test]
    fn signed_arithmetic_wraps_and_divides_towards_zero() {
        let (tt, int, _, _) = tt();
        let e = Expr::binary(BinOp::Div, Expr::int((-7i32) as u32 as u128, int), Expr::int(2, int), int);
        assert_eq!(fold_value(&tt, &e), Some(-3));
        let e = Expr::binary(BinOp::Rem, Expr::int((-7i32) as u32 as u128, int), Expr::int(2, int), int);
        assert_eq!(fold_value(&tt, &e), Some(-1));
        let e = Expr::binary(BinOp::Add, Expr::int(0x7fff_ffff, int), Expr::int(1, int), int);
        assert_eq!(fold_value(&tt, &e), Some(i32::MIN as i128));
    }

    #[test]
    fn unsigned_comparison_and_casts() {
        let (tt, int, uint, b) = tt();
        let minus_one = Expr::cast(Expr::int(0xffff_ffff, int), uint);
        let e = Expr::binary(BinOp::Lt, Expr::int(1, uint), minus_one, b);
        assert_eq!(fold_value(&tt, &e), Some(1));
        let e = Expr::binary(BinOp::Lt, Expr::int(1, int), Expr::int(0xffff_ffff, int), b);
        assert_eq!(fold_value(&tt, &e), Some(0));
    }

    #[test]
    fn division_by_zero_and_oversized_shift_are_not_constant() {
        let (tt, int, _, _) = tt();
        let e = Expr::binary(BinOp::Div, Expr::int(1, int), Expr::int(0, int), int);
        assert_eq!(fold_value(&tt, &e), None);
        let e = Expr::binary(BinOp::Shl, Expr::int(1, int), Expr::int(32, int), int);
        assert_eq!(fold_value(&tt, &e), None);
        let e = Expr::binary(BinOp::Shr, Expr::int(0x8000_0000, int), Expr::int(31, int), int);
        assert_eq!(fold_value(&tt, &e), Some(-1));
    }

    #[test]
    fn logical_and_short_circuits() {
        let (tt, int, _, b) = tt();
        let div0 = Expr::binary(BinOp::Div, Expr::int(1, int), Expr::int(0, int), int);
        let rhs = Expr::binary(BinOp::Ne, div0, Expr::int(0, int), b);
        let e = Expr::binary(BinOp::And, Expr::int(0, b), rhs, b);
        assert_eq!(fold_value(&tt, &e), Some(0));
    }

    #[test]
    fn float_comparisons_and_conversions_fold() {
        let (mut tt, int, _, b) = tt();
        let f = tt.intern(Type::Float(FloatFormat::Single));
        let d = tt.intern(Type::Float(FloatFormat::Double));
        let third_f = Expr::new(ExprKind::FloatConst(u128::from((1.0f32 / 3.0).to_bits())), f);
        let third_d = Expr::new(ExprKind::FloatConst(u128::from((1.0f64 / 3.0).to_bits())), d);
        let widened = Expr::cast(third_f, d);
        assert_eq!(fold_value(&tt, &Expr::binary(BinOp::Eq, widened, third_d, b)), Some(0));
        let x = Expr::new(ExprKind::FloatConst(u128::from((-2.75f64).to_bits())), d);
        assert_eq!(fold_value(&tt, &Expr::cast(x, int)), Some(-2));
        let big = Expr::new(ExprKind::FloatConst(u128::from(1e20f64.to_bits())), d);
        assert_eq!(fold_value(&tt, &Expr::cast(big, int)), None);
    }

    #[test]
    fn cast_to_bool_tests_for_zero() {
        let (tt, int, _, b) = tt();
        assert_eq!(fold_value(&tt, &Expr::cast(Expr::int(256, int), b)), Some(1));
        let mut tt2 = tt.clone();
        let ch = tt2.int(8, true);
        assert_eq!(fold_value(&tt2, &Expr::cast(Expr::int(256, int), ch)), Some(0));
        assert_eq!(fold_value(&tt2, &Expr::cast(Expr::int(255, int), ch)), Some(-1));
    }

    #[test]
    fn exact_long_double_constants_convert_and_rounding_ones_do_not() {
        // x87 images of DBL_MAX, DBL_MIN, the smallest subnormal double, -0.
        let x87 = |exponent: u128, significand: u64| (exponent << 64) | u128::from(significand);
        assert_eq!(exact_x87_as_f64(x87(0x43fe, 0xffff_ffff_ffff_f800)), Some(f64::MAX));
        assert_eq!(exact_x87_as_f64(x87(0x3c01, 1 << 63)), Some(f64::MIN_POSITIVE));
        assert_eq!(exact_x87_as_f64(x87(0x3bcd, 1 << 63)), Some(f64::from_bits(1)));
        assert_eq!(exact_x87_as_f64(x87(0x8000, 0)).map(f64::to_bits), Some((-0.0f64).to_bits()));
        // One more significand bit than a double has: it would round.
        assert_eq!(exact_x87_as_f64(x87(0x3fff, (1 << 63) | (1 << 10))), None);
        // Beyond the double range, below its subnormals, an unnormal.
        assert_eq!(exact_x87_as_f64(x87(0x43ff, 1 << 63)), None);
        assert_eq!(exact_x87_as_f64(x87(0x3bcc, 1 << 63)), None);
        assert_eq!(exact_x87_as_f64(x87(0x3fff, 1 << 62)), None);
    }

    #[test]
    fn float_operations_that_overflow_or_divide_by_zero_are_not_constant() {
        let (mut tt, _, _, b) = tt();
        let d = tt.intern(Type::Float(FloatFormat::Double));
        let c = |v: f64| Expr::new(ExprKind::FloatConst(u128::from(v.to_bits())), d);
        let positive = |e: Expr| Expr::binary(BinOp::Gt, e, c(0.0), b);
        assert_eq!(fold_value(&tt, &positive(Expr::binary(BinOp::Mul, c(1e308), c(10.0), d))), None);
        assert_eq!(fold_value(&tt, &positive(Expr::binary(BinOp::Div, c(1.0), c(0.0), d))), None);
        assert_eq!(fold_value(&tt, &positive(Expr::binary(BinOp::Div, c(1.0), c(3.0), d))), Some(1));
        // An infinite operand is no exception: GCC folds `inf + 1`.
        assert_eq!(fold_value(&tt, &positive(Expr::binary(BinOp::Add, c(f64::INFINITY), c(1.0), d))), Some(1));
    }

    #[test]
    fn comparisons_of_integers_converted_to_pointers_fold() {
        let (mut tt, int, _, b) = tt();
        let void = tt.void();
        let ptr = tt.pointer_to(void);
        let null = Expr::new(ExprKind::Null, ptr);
        let zero = Expr::cast(Expr::binary(BinOp::Sub, Expr::int(1, int), Expr::int(1, int), int), ptr);
        assert_eq!(fold_value(&tt, &Expr::binary(BinOp::Eq, null.clone(), zero, b)), Some(1));
        let four = Expr::cast(Expr::int(4, int), ptr);
        assert_eq!(fold_value(&tt, &Expr::binary(BinOp::Lt, null.clone(), four, b)), Some(1));
        // A negative integer's address depends on the pointer width.
        let minus_one = Expr::cast(Expr::int(0xffff_ffff, int), ptr);
        assert_eq!(fold_value(&tt, &Expr::binary(BinOp::Ne, null, minus_one, b)), None);
    }
}
