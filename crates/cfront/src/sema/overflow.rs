//! Overflow-checking arithmetic built-ins, lowered exactly: GCC's
//! `__builtin_{add,sub,mul}_overflow(a, b, &r)`, their `_p` forms and the
//! typed `__builtin_{s,u}{add,sub,mul}{,l,ll}_overflow`, and ESBMC's
//! `__ESBMC_overflow_result_{plus,minus,mult,shl,unary_minus}`, which return
//! the struct that `DEFINE_ESBMC_OVERFLOW_TYPE(T)` (predefined by the
//! preprocessor driver) declares as `__ESBMC_overflow_result` with members
//! `T result` and `_Bool overflow`; and CBMC's saturating
//! `__CPROVER_saturating_plus`/`minus(a, b)`, computed in the common type
//! of their operands and clamped to its range where they overflow.
//!
//! All of them compute the mathematically exact result in a signed type wide
//! enough that it cannot wrap, store it wrapped to the result type `T`, and
//! report overflow when the wrapped value differs from the exact one (for a
//! left shift also when the count is negative or not below the promoted
//! operand's width, where the shift itself is undefined).

use super::ctype::{CType, IntKind, Kind};
use super::expr::Val;
use super::scope::Ordinary;
use super::{Sema, R};
use crate::ast;
use ir::{BinOp, Expr, ExprKind, InstrKind, Loc, UnOp};

/// The exact operation of an overflow built-in.
#[derive(Copy, Clone, PartialEq, Eq)]
enum ExactOp {
    Add,
    Sub,
    Mul,
    Shl,
    Neg,
}

/// The ESBMC result-struct name and the operation of each ESBMC built-in.
const ESBMC_RESULT_TYPE: &str = "__ESBMC_overflow_result";
const ESBMC_BUILTINS: &[(&str, ExactOp)] = &[
    ("__ESBMC_overflow_result_plus", ExactOp::Add),
    ("__ESBMC_overflow_result_minus", ExactOp::Sub),
    ("__ESBMC_overflow_result_mult", ExactOp::Mul),
    ("__ESBMC_overflow_result_shl", ExactOp::Shl),
    ("__ESBMC_overflow_result_unary_minus", ExactOp::Neg),
];

/// How a GCC overflow built-in names its operation and operand type.
struct GccForm {
    op: ExactOp,
    /// `_p`: the third argument only gives the result type.
    predicate: bool,
    /// The typed forms convert both operands to this type first.
    operand_type: Option<IntKind>,
}

fn gcc_form(name: &str) -> Option<GccForm> {
    let rest = name.strip_prefix("__builtin_")?;
    let (rest, predicate) = match rest.strip_suffix("_overflow_p") {
        Some(r) => (r, true),
        None => (rest.strip_suffix("_overflow")?, false),
    };
    let op_of = |word: &str| match word {
        "add" => Some(ExactOp::Add),
        "sub" => Some(ExactOp::Sub),
        "mul" => Some(ExactOp::Mul),
        _ => None,
    };
    if let Some(op) = op_of(rest) {
        return Some(GccForm {
            op,
            predicate,
            operand_type: None,
        });
    }
    if predicate {
        return None;
    }
    let (signed, typed) = match rest.as_bytes().first()? {
        b's' => (true, &rest[1..]),
        b'u' => (false, &rest[1..]),
        _ => return None,
    };
    let (word, size) = typed.split_at(typed.len().min(3));
    let kind = match (size, signed) {
        ("", true) => IntKind::Int,
        ("", false) => IntKind::UInt,
        ("l", true) => IntKind::Long,
        ("l", false) => IntKind::ULong,
        ("ll", true) => IntKind::LongLong,
        ("ll", false) => IntKind::ULongLong,
        _ => return None,
    };
    Some(GccForm {
        op: op_of(word)?,
        predicate,
        operand_type: Some(kind),
    })
}

impl<'a> Sema<'a> {
    /// Lowers `name(args)` when it is one of the overflow built-ins; `None`
    /// for every other name.
    pub(super) fn overflow_builtin(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        loc: Loc,
    ) -> R<Option<Val>> {
        if let Some(&(_, op)) = ESBMC_BUILTINS.iter().find(|(n, _)| *n == name) {
            return self.esbmc_overflow_result(name, op, args, loc).map(Some);
        }
        let saturating = match name {
            "__CPROVER_saturating_plus" => Some(ExactOp::Add),
            "__CPROVER_saturating_minus" => Some(ExactOp::Sub),
            _ => None,
        };
        if let Some(op) = saturating {
            return self.saturating(name, op, args, loc).map(Some);
        }
        match gcc_form(name) {
            Some(form) => self.gcc_overflow(name, form, args, loc).map(Some),
            None => Ok(None),
        }
    }

    fn esbmc_overflow_result(
        &mut self,
        name: &str,
        op: ExactOp,
        args: &[ast::Expr],
        loc: Loc,
    ) -> R<Val> {
        let arity = if op == ExactOp::Neg { 1 } else { 2 };
        if args.len() != arity {
            return Err(self.error(loc, format!("`{name}` takes {arity} argument(s)")));
        }
        let record_ty = match self.scopes.lookup(ESBMC_RESULT_TYPE) {
            Some(Ordinary::Typedef(ty)) => ty.unqualified(),
            _ => {
                let msg = format!("`{name}` needs `{ESBMC_RESULT_TYPE}`: declare it with DEFINE_ESBMC_OVERFLOW_TYPE(T)");
                return Err(self.error(loc, msg));
            }
        };
        let Kind::Record(id) = record_ty.kind else {
            return Err(self.error(loc, format!("`{ESBMC_RESULT_TYPE}` is not a struct")));
        };
        let result_ty = match self.tcx.find_field(id, "result") {
            Some(path) if self.tcx.find_field(id, "overflow").is_some() => {
                path.field.ty.unqualified()
            }
            _ => {
                return Err(self.error(
                    loc,
                    format!("`{ESBMC_RESULT_TYPE}` needs members `result` and `overflow`"),
                ))
            }
        };
        let a = self.integer_operand(&args[0], name)?;
        let b = match args.get(1) {
            Some(x) => Some(self.integer_operand(x, name)?),
            None => None,
        };
        let (result, overflow) = self.exact_arith(op, a, b, &result_ty, loc)?;
        let fields = self.tcx.records[id.0 as usize].fields.clone();
        let mut values = Vec::with_capacity(fields.len());
        for field in &fields {
            let value = match field.name.as_str() {
                "result" => result.clone(),
                "overflow" => self.cast_to(
                    Val::rv(overflow.clone(), CType::new(Kind::Bool)),
                    &field.ty,
                    loc,
                    true,
                )?,
                _ => Expr::new(ExprKind::Zero, self.ir_ty(&field.ty)),
            };
            values.push(value);
        }
        let irty = self.ir_ty(&record_ty);
        Ok(Val::rv(
            Expr::new(ExprKind::StructLit(values), irty),
            record_ty,
        ))
    }

    fn gcc_overflow(&mut self, name: &str, form: GccForm, args: &[ast::Expr], loc: Loc) -> R<Val> {
        let [a, b, target] = args else {
            return Err(self.error(loc, format!("`{name}` takes 3 arguments")));
        };
        let mut a = self.integer_operand(a, name)?;
        let mut b = self.integer_operand(b, name)?;
        if let Some(kind) = form.operand_type {
            let ty = CType::new(Kind::Int(kind));
            a = Val::rv(self.cast_to(a, &ty, loc, true)?, ty.clone());
            b = Val::rv(self.cast_to(b, &ty, loc, true)?, ty);
        }
        let bool_ty = CType::new(Kind::Bool);
        if form.predicate {
            // The third argument only names the result type; it is not evaluated.
            let (probe, _) = self.scratch(|s| s.rvalue(target))?;
            let result_ty = self.checked_result_type(probe.ty.unqualified(), name, loc)?;
            let (_, overflow) = self.exact_arith(form.op, a, Some(b), &result_ty, loc)?;
            return Ok(Val::rv(overflow, bool_ty));
        }
        let pointer = self.rvalue(target)?;
        let pointee = match pointer.ty.pointee() {
            Some(t) if !t.quals.is_const => t.clone(),
            _ => {
                return Err(self.error(
                    loc,
                    format!("the third argument of `{name}` must point to a modifiable integer"),
                ))
            }
        };
        let (result_ty, pointer) = match form.operand_type {
            // The typed forms are functions with a prototype: the result
            // has their type, whatever the argument points to (gcc converts
            // the pointer, with a warning), so `unsigned` addition into an
            // `int` object overflows only past UINT_MAX.
            Some(kind) => {
                let ty = CType::new(Kind::Int(kind));
                let pointer_ty = CType::pointer_to(ty.clone());
                let converted = self.cast_to(pointer, &pointer_ty, loc, true)?;
                (ty, Val::rv(converted, pointer_ty))
            }
            None => (self.checked_result_type(pointee.unqualified(), name, loc)?, pointer),
        };
        let (result, overflow) = self.exact_arith(form.op, a, Some(b), &result_ty, loc)?;
        // Read before the store: the result may overwrite an operand.
        let overflow = self.temp(overflow, &bool_ty, loc);
        let irty = self.ir_ty(&result_ty);
        let place = match pointer.e.kind {
            ExprKind::AddrOf(x) if x.ty == irty => *x,
            kind => Expr::new(
                ExprKind::Deref(Box::new(Expr::new(kind, pointer.e.ty))),
                irty,
            ),
        };
        self.emit(InstrKind::Assign(place, result), loc);
        Ok(Val::rv(overflow, bool_ty))
    }

    /// `a + b` or `a - b` in the common type of the operands, the type's
    /// maximum where the exact result is above its range and its minimum
    /// where it is below.
    fn saturating(&mut self, name: &str, op: ExactOp, args: &[ast::Expr], loc: Loc) -> R<Val> {
        let [a, b] = args else {
            return Err(self.error(loc, format!("`{name}` takes 2 arguments")));
        };
        let (a, b) = (self.integer_operand(a, name)?, self.integer_operand(b, name)?);
        let ty = self.common_type(&a.ty, &b.ty, loc)?;
        let a = Val::rv(self.cast_to(a, &ty, loc, true)?, ty.clone());
        let b = Val::rv(self.cast_to(b, &ty, loc, true)?, ty.clone());
        let (bits, signed) = self.int_shape(&ty);
        if bits >= 127 {
            return Err(self.error(loc, format!("unsupported: `{name}` on 128-bit integers")));
        }
        let (min, max) = match signed {
            true => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            false => (0, (1i128 << bits) - 1),
        };
        // Overflow goes above the range when b moves a up: b > 0 adding, b < 0 subtracting.
        let zero = self.int_val(0, ty.clone()).e;
        let bool_ty = self.prog.types.bool();
        let up = if op == ExactOp::Add { BinOp::Gt } else { BinOp::Lt };
        let above = Expr::binary(up, b.e.clone(), zero, bool_ty);
        let (result, overflow) = self.exact_arith(op, a, Some(b), &ty, loc)?;
        let (min, max) = (self.int_val(min, ty.clone()).e, self.int_val(max, ty.clone()).e);
        let irty = result.ty;
        let clamped = Expr::new(ExprKind::Ite(Box::new(above), Box::new(max), Box::new(min)), irty);
        Ok(Val::rv(Expr::new(ExprKind::Ite(Box::new(overflow), Box::new(clamped), Box::new(result)), irty), ty))
    }

    fn integer_operand(&mut self, e: &ast::Expr, name: &str) -> R<Val> {
        let v = self.rvalue(e)?;
        if !v.ty.is_integer() {
            return Err(self.error(e.loc, format!("the operands of `{name}` must be integers")));
        }
        Ok(self.promote(v))
    }

    fn checked_result_type(&mut self, ty: CType, name: &str, loc: Loc) -> R<CType> {
        match ty.kind {
            Kind::Int(_) | Kind::Enum(_) => Ok(ty),
            _ => Err(self.error(
                loc,
                format!("the result of `{name}` must be a (non-_Bool) integer"),
            )),
        }
    }

    /// The exact result of `op` wrapped to `to`, and whether wrapping
    /// changed it (a `Bool` expression).
    fn exact_arith(
        &mut self,
        op: ExactOp,
        a: Val,
        b: Option<Val>,
        to: &CType,
        loc: Loc,
    ) -> R<(Expr, Expr)> {
        let a_shape = self.int_shape(&a.ty);
        let b_shape = match &b {
            Some(b) => self.int_shape(&b.ty),
            None => a_shape,
        };
        let to_shape = self.int_shape(to);
        let Some((wide_bits, wide_signed)) = exact_width(op, a_shape, b_shape, to_shape) else {
            return Err(self.error(
                loc,
                "unsupported: exact overflow check of this operation on 128-bit integers",
            ));
        };
        let wide = self.prog.types.int(wide_bits, wide_signed);
        let bool_ty = self.prog.types.bool();
        let binary = |op, l: Expr, r: Expr, ty| {
            Expr::new(ExprKind::Binary(op, Box::new(l), Box::new(r)), ty)
        };
        let ea = Expr::cast(a.e, wide);
        let mut undefined = None;
        let exact = match (op, b) {
            (ExactOp::Neg, _) => Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(ea)), wide),
            (_, None) => return Err(self.error(loc, "overflow built-in without a second operand")),
            (op, Some(b)) => {
                let eb = Expr::cast(b.e, wide);
                let bin = match op {
                    ExactOp::Add => BinOp::Add,
                    ExactOp::Sub => BinOp::Sub,
                    ExactOp::Mul => BinOp::Mul,
                    _ => {
                        let count =
                            Expr::cast(eb.clone(), self.prog.types.int(b_shape.0 + 1, true));
                        let count_ty = count.ty;
                        let negative =
                            binary(BinOp::Lt, count.clone(), Expr::int(0, count_ty), bool_ty);
                        let too_far = binary(
                            BinOp::Ge,
                            count,
                            Expr::int(u128::from(a_shape.0), count_ty),
                            bool_ty,
                        );
                        undefined = Some(binary(BinOp::Or, negative, too_far, bool_ty));
                        BinOp::Shl
                    }
                };
                binary(bin, ea, eb, wide)
            }
        };
        let to_ir = self.ir_ty(to);
        let result = Expr::cast(exact.clone(), to_ir);
        let mut overflow = binary(BinOp::Ne, Expr::cast(result.clone(), wide), exact, bool_ty);
        if !wide_signed && to_shape.1 {
            // The exact value is non-negative here; a negative result wrapped.
            let negative = binary(BinOp::Lt, result.clone(), Expr::int(0, to_ir), bool_ty);
            overflow = binary(BinOp::Or, overflow, negative, bool_ty);
        }
        if let Some(undefined) = undefined {
            overflow = binary(BinOp::Or, undefined, overflow, bool_ty);
        }
        Ok((result, overflow))
    }

    /// Width and signedness of an integer type (`_Bool`: 1, unsigned).
    fn int_shape(&self, ty: &CType) -> (u32, bool) {
        match self.tcx.int_kind_of(ty) {
            Some(kind) => (self.tcx.int_bits(kind), kind.is_signed()),
            None => (1, false),
        }
    }
}

/// The integer type in which `op` on operands of the given (width,
/// signedness) shapes is exact and which holds every value of the result
/// shape: signed when one of at most 128 bits suffices, else unsigned when
/// all values are non-negative and fit 128 bits; `None` otherwise.
fn exact_width(
    op: ExactOp,
    a: (u32, bool),
    b: (u32, bool),
    to: (u32, bool),
) -> Option<(u32, bool)> {
    // Bits of a signed type holding every value of a shape.
    let holding = |(bits, signed): (u32, bool)| if signed { bits } else { bits + 1 };
    let (wa, wb) = (holding(a), holding(b));
    let signed_bits = match op {
        ExactOp::Add | ExactOp::Sub => wa.max(wb) + 1,
        // |a * b| < 2^(a.0 - 1 + b.0) when only b is unsigned (and
        // symmetrically): one bit less than the holding widths' sum, which
        // brings `long * unsigned long` within 128 bits.
        ExactOp::Mul => a.0 + b.0 + u32::from(!a.1 && !b.1),
        ExactOp::Shl => wa + a.0 - 1,
        ExactOp::Neg => wa + 1,
    }
    .max(holding(to));
    if signed_bits <= 128 {
        return Some((signed_bits, true));
    }
    let unsigned_bits = match op {
        ExactOp::Add => a.0.max(b.0) + 1,
        ExactOp::Mul => a.0 + b.0,
        ExactOp::Shl => 2 * a.0 - 1,
        ExactOp::Sub | ExactOp::Neg => return None,
    }
    .max(to.0);
    (!a.1 && !b.1 && unsigned_bits <= 128).then_some((unsigned_bits, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_widths_fit_the_ir_and_hold_every_result() {
        let (s32, u32_, s64, u64_) = ((32, true), (32, false), (64, true), (64, false));
        assert_eq!(exact_width(ExactOp::Add, s32, s32, s32), Some((33, true)));
        assert_eq!(exact_width(ExactOp::Mul, s64, s64, s64), Some((128, true)));
        assert_eq!(
            exact_width(ExactOp::Mul, s64, u64_, s64),
            Some((128, true)),
            "|a * b| < 2^127 when one operand is unsigned"
        );
        assert_eq!(exact_width(ExactOp::Mul, u32_, u32_, u32_), Some((65, true)));
        assert_eq!(exact_width(ExactOp::Mul, s32, u32_, s32), Some((64, true)));
        assert_eq!(
            exact_width(ExactOp::Mul, u64_, u64_, s64),
            Some((128, false))
        );
        assert_eq!(
            exact_width(ExactOp::Shl, u64_, s32, u32_),
            Some((128, true))
        );
        assert_eq!(exact_width(ExactOp::Sub, u64_, (128, false), u64_), None);
        assert_eq!(
            exact_width(ExactOp::Neg, (8, true), (8, true), (8, true)),
            Some((9, true))
        );
    }

    #[test]
    fn gcc_names_are_recognised_with_their_operand_types() {
        assert!(
            gcc_form("__builtin_umullll_overflow").is_none(),
            "no such builtin"
        );
        let typed = gcc_form("__builtin_umulll_overflow").unwrap();
        assert!(
            typed.op == ExactOp::Mul
                && typed.operand_type == Some(IntKind::ULongLong)
                && !typed.predicate
        );
        let p = gcc_form("__builtin_sub_overflow_p").unwrap();
        assert!(p.op == ExactOp::Sub && p.predicate && p.operand_type.is_none());
        assert!(gcc_form("__builtin_sadd_overflow_p").is_none());
        assert!(gcc_form("__builtin_add").is_none());
    }
}
