//! GCC's and clang's atomic built-ins (`__sync_*`, `__atomic_*`,
//! `__c11_atomic_*`, which `<stdatomic.h>` expands to) and the
//! non-temporal accesses (`__builtin_nontemporal_load/store`), lowered to
//! plain loads and stores inside an atomic section (one step of a thread,
//! its operands' evaluation included), under sequential consistency: a
//! memory order or fence means nothing; the memory order arguments are
//! still evaluated for their side effects.
//!
//! Read-modify-write arithmetic wraps like GCC's (two's complement, no
//! signed overflow) and is done in the unsigned type of the operand. A weak
//! compare-exchange may fail spuriously: its success also takes a
//! nondeterministic choice, so a proof holds for every outcome.

use super::consteval::fold_value;
use super::ctype::{CType, FnType, IntKind, Kind};
use super::expr::{deref, Val};
use super::{Sema, R};
use crate::ast::{self, BinaryOp};
use ir::{BinOp, Expr, ExprKind, InstrKind, Loc, UnOp};
use std::rc::Rc;

/// The arithmetic of a read-modify-write built-in.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Rmw {
    Add,
    Sub,
    And,
    Or,
    Xor,
    /// `~(old & value)`.
    Nand,
}

/// Whether a compare-exchange may fail spuriously.
#[derive(Copy, Clone)]
enum Weak {
    No,
    Yes,
    /// Told by the argument at this index.
    Arg(usize),
}

/// What an atomic built-in does, with the positions of its operands.
#[derive(Copy, Clone)]
enum Atomic {
    /// `*p`; `by_ref`: stored into `*ret` (the second argument) instead.
    Load { by_ref: bool },
    /// `*p = value`; `by_ref`: the value is `*arg1`; `zero`: stores 0
    /// (`__sync_lock_release`).
    Store { by_ref: bool, zero: bool },
    /// Stores the value and returns the old one; `by_ref`: value `*arg1`,
    /// old value stored into `*arg2`.
    Exchange { by_ref: bool },
    /// `*p = *p op value`, returning the old value or (`new`) the new one.
    Fetch { op: Rmw, new: bool },
    /// `__atomic_compare_exchange(_n)(p, expected, desired, ...)`: on a
    /// match stores `desired`, else copies `*p` into `*expected`; returns
    /// whether it matched.
    CompareExchange { by_ref: bool, weak: Weak },
    /// `__sync_{bool,val}_compare_and_swap(p, old, new)`.
    SyncCompareAndSwap { returns_bool: bool },
    /// `__atomic_test_and_set(p)`: sets the byte, returns whether it was set.
    TestAndSet,
    /// `__atomic_clear(p)`: clears the byte.
    Clear,
    /// `__builtin_nontemporal_store(value, p)`.
    NontemporalStore,
    /// Fences: no effect on a sequential program.
    Fence,
}

fn rmw(word: &str) -> Option<Rmw> {
    Some(match word {
        "add" => Rmw::Add,
        "sub" => Rmw::Sub,
        "and" => Rmw::And,
        "or" => Rmw::Or,
        "xor" => Rmw::Xor,
        "nand" => Rmw::Nand,
        _ => return None,
    })
}

/// libatomic's `__atomic_is_lock_free` where gcc does not fold it.
const IS_LOCK_FREE_MODEL: &str = "__tarsier_atomic_is_lock_free";

/// The atomic built-in called `name`, if it is one.
fn atomic(name: &str) -> Option<Atomic> {
    use Atomic::*;
    Some(match name {
        "__atomic_load_n" | "__c11_atomic_load" | "__builtin_nontemporal_load" => Load { by_ref: false },
        "__atomic_load" => Load { by_ref: true },
        "__atomic_store_n" | "__c11_atomic_store" | "__c11_atomic_init" => Store { by_ref: false, zero: false },
        "__atomic_store" => Store { by_ref: true, zero: false },
        "__sync_lock_release" => Store { by_ref: false, zero: true },
        "__atomic_exchange_n" | "__c11_atomic_exchange" | "__sync_lock_test_and_set" => Exchange { by_ref: false },
        "__atomic_exchange" => Exchange { by_ref: true },
        "__atomic_compare_exchange_n" => CompareExchange { by_ref: false, weak: Weak::Arg(3) },
        "__atomic_compare_exchange" => CompareExchange { by_ref: true, weak: Weak::Arg(3) },
        "__c11_atomic_compare_exchange_strong" => CompareExchange { by_ref: false, weak: Weak::No },
        "__c11_atomic_compare_exchange_weak" => CompareExchange { by_ref: false, weak: Weak::Yes },
        "__sync_bool_compare_and_swap" => SyncCompareAndSwap { returns_bool: true },
        "__sync_val_compare_and_swap" => SyncCompareAndSwap { returns_bool: false },
        "__atomic_test_and_set" => TestAndSet,
        "__atomic_clear" => Clear,
        "__builtin_nontemporal_store" => NontemporalStore,
        "__atomic_thread_fence" | "__atomic_signal_fence" | "__sync_synchronize" | "__c11_atomic_thread_fence"
        | "__c11_atomic_signal_fence" => Fence,
        _ => {
            // `__sync_fetch_and_add`, `__sync_add_and_fetch`; `__atomic_fetch_add`, `__atomic_add_fetch`.
            let (rest, (fetch_op, op_fetch)) = match name.strip_prefix("__sync_") {
                Some(rest) => (rest, ("fetch_and_", "_and_fetch")),
                None => {
                    let rest = name.strip_prefix("__atomic_").or_else(|| name.strip_prefix("__c11_atomic_"))?;
                    (rest, ("fetch_", "_fetch"))
                }
            };
            match rest.strip_prefix(fetch_op) {
                Some(word) => Fetch { op: rmw(word)?, new: false },
                None => Fetch { op: rmw(rest.strip_suffix(op_fetch)?)?, new: true },
            }
        }
    })
}

impl<'a> Sema<'a> {
    /// Lowers `name(args)` when it is an atomic built-in; `None` for every
    /// other name.
    pub(super) fn atomic_builtin(&mut self, name: &str, args: &[ast::Expr], loc: Loc) -> R<Option<Val>> {
        if let ("__atomic_always_lock_free" | "__atomic_is_lock_free", [size, object]) = (name, args) {
            return self.lock_free(name == "__atomic_always_lock_free", size, object, loc).map(Some);
        }
        let Some(kind) = atomic(name) else { return Ok(None) };
        let needed = match kind {
            Atomic::Fence => 0,
            Atomic::Load { by_ref: false } | Atomic::TestAndSet | Atomic::Clear => 1,
            Atomic::Store { zero: true, .. } => 1,
            Atomic::CompareExchange { by_ref: _, weak: Weak::Arg(_) } => 4,
            Atomic::CompareExchange { .. } | Atomic::SyncCompareAndSwap { .. } => 3,
            Atomic::Exchange { by_ref: true } => 3,
            _ => 2,
        };
        if args.len() < needed {
            return Err(self.error(loc, format!("`{name}` takes at least {needed} argument(s)")));
        }
        self.emit(InstrKind::AtomicBegin, loc);
        let value = match kind {
            Atomic::Load { by_ref } => self.atomic_load(name, args, by_ref, loc)?,
            Atomic::Store { by_ref, zero } => self.atomic_store(name, args, by_ref, zero, loc)?,
            Atomic::Exchange { by_ref } => self.atomic_exchange(name, args, by_ref, loc)?,
            Atomic::Fetch { op, new } => self.atomic_fetch(name, args, op, new, loc)?,
            Atomic::CompareExchange { by_ref, weak } => self.compare_exchange(name, args, by_ref, weak, loc)?,
            Atomic::SyncCompareAndSwap { returns_bool } => self.compare_and_swap(name, args, returns_bool, loc)?,
            Atomic::TestAndSet | Atomic::Clear => self.test_and_set(name, args, matches!(kind, Atomic::Clear), loc)?,
            Atomic::NontemporalStore => {
                let value = self.atomic_operand(&args[0])?;
                let (place, ty) = self.atomic_object(&args[1], name, loc)?;
                self.store_value(place, value, &ty, loc)?;
                None
            }
            Atomic::Fence => None,
        };
        self.emit(InstrKind::AtomicEnd, loc);
        // The memory orders (and `__sync`'s optional variable list).
        for extra in &args[needed..] {
            self.discard(extra)?;
        }
        let value = value.unwrap_or_else(|| {
            let void = self.prog.types.void();
            Val::rv(Expr::new(ExprKind::Zero, void), CType::void())
        });
        Ok(Some(value))
    }

    /// `__atomic_always_lock_free(size, p)`, folded as gcc folds it on
    /// x86: objects of 1, 2, 4 and 8 bytes are, unless `p`'s type points to
    /// a type aligned less than `size` (gcc looks through pointer
    /// conversions to the original pointer's type; a null `p` means a
    /// typically aligned object). `__atomic_is_lock_free` is the same where
    /// that says yes; elsewhere gcc calls libatomic, whose answer depends on
    /// the address and the processor: the model `__tarsier_atomic_is_lock_free`
    /// (atomic.c) gives it.
    fn lock_free(&mut self, always: bool, size: &ast::Expr, object: &ast::Expr, loc: Loc) -> R<Val> {
        let bool_ty = CType::new(Kind::Bool);
        let p = self.rvalue(object)?;
        let null_constant = p.ty.is_integer() && fold_value(&self.prog.types, &p.e) == Some(0);
        if !(p.ty.is_pointer() || null_constant) {
            return Err(self.error(loc, "the second argument of a lock-free query must be a pointer"));
        }
        let (size_value, _) = self.scratch(|s| s.rvalue(size))?;
        let constant_size = fold_value(&self.prog.types, &size_value.e);
        if always && constant_size.is_none() {
            return Err(self.error(size.loc, "non-constant size in `__atomic_always_lock_free`"));
        }
        let folded = constant_size.map(|n| {
            let size_fits = matches!(n, 1 | 2 | 4 | 8);
            size_fits && self.static_alignment(&p.e).is_none_or(|align| align >= n as u64)
        });
        match (always, folded, constant_size) {
            (true, _, _) | (false, Some(true), _) => Ok(self.int_val(i128::from(folded == Some(true)), bool_ty)),
            (false, _, Some(n)) if n > 16 => Ok(self.int_val(0, bool_ty)),
            _ => self.call_model_is_lock_free(size, p, loc),
        }
    }

    /// The alignment gcc assumes for the object `p` points to: that of the
    /// pointed-to type of `p` before any pointer conversion (through
    /// pointer arithmetic on a converted pointer, as gcc's folding moves
    /// it); `None` for a null pointer constant, a typically aligned object.
    fn static_alignment(&self, p: &Expr) -> Option<u64> {
        let mut e = p;
        loop {
            match &e.kind {
                ExprKind::Cast(inner) if self.prog.types.pointee(inner.ty).is_some() => e = inner,
                ExprKind::Binary(BinOp::PtrAdd, base, _) if matches!(base.kind, ExprKind::Cast(_)) => e = base,
                ExprKind::Null | ExprKind::IntConst(0) => return None,
                _ => break,
            }
        }
        let pointee = self.prog.types.pointee(e.ty)?;
        Some(self.prog.types.align_of(pointee, self.prog.data_model).unwrap_or(1))
    }

    /// A call of the libatomic model with the size and the address.
    fn call_model_is_lock_free(&mut self, size: &ast::Expr, p: Val, loc: Loc) -> R<Val> {
        let size_t = self.tcx.size_t();
        let void_ptr = CType::pointer_to(CType::void());
        let bool_ty = CType::new(Kind::Bool);
        let fn_ty = CType::new(Kind::Function(Rc::new(FnType {
            ret: bool_ty.clone(),
            params: vec![size_t.clone(), void_ptr.clone()],
            variadic: false,
            unprototyped: false,
        })));
        let model = self.declare_linked(IS_LOCK_FREE_MODEL, IS_LOCK_FREE_MODEL, &fn_ty, false, loc)?;
        let size = self.rvalue(size)?;
        let args = vec![self.cast_to(size, &size_t, loc, false)?, self.cast_to(p, &void_ptr, loc, true)?];
        let result = self.fresh_local("$ret", &bool_ty, loc);
        let result = Expr::sym(result, self.prog.symbols[result].ty);
        let callee = Expr::sym(model, self.prog.symbols[model].ty);
        self.emit(InstrKind::Call { lhs: Some(result.clone()), callee, args }, loc);
        Ok(Val::rv(result, bool_ty))
    }

    /// The object `pointer` points to (its address evaluated once) and its
    /// unqualified type.
    fn atomic_object(&mut self, pointer: &ast::Expr, name: &str, loc: Loc) -> R<(Expr, CType)> {
        let p = self.rvalue(pointer)?;
        let ty = match p.ty.pointee() {
            Some(t) if !t.is_void() && !t.is_function() => t.unqualified(),
            _ => return Err(self.error(loc, format!("`{name}` needs a pointer to an object"))),
        };
        let ptr_ty = p.ty.unqualified();
        let address = self.temp(p.e, &ptr_ty, loc);
        let irty = self.ir_ty(&ty);
        Ok((deref(address, irty), ty))
    }

    /// An operand evaluated now, before the atomic access.
    fn atomic_operand(&mut self, arg: &ast::Expr) -> R<Val> {
        let v = self.rvalue(arg)?;
        let ty = v.ty.unqualified();
        let e = self.temp(v.e, &ty, arg.loc);
        Ok(Val::rv(e, ty))
    }

    /// An operand converted to the object type `ty`, held in a temporary.
    fn converted_operand(&mut self, arg: &ast::Expr, ty: &CType, loc: Loc) -> R<Expr> {
        let v = self.rvalue(arg)?;
        let e = self.cast_to(v, ty, loc, false)?;
        Ok(self.temp(e, ty, loc))
    }

    fn store_value(&mut self, place: Expr, value: Val, ty: &CType, loc: Loc) -> R<()> {
        let e = self.cast_to(value, ty, loc, false)?;
        self.emit(InstrKind::Assign(place, e), loc);
        Ok(())
    }

    /// The current value of `place`, read into a temporary.
    fn read_old(&mut self, place: &Expr, ty: &CType, loc: Loc) -> Val {
        Val::rv(self.temp(place.clone(), ty, loc), ty.clone())
    }

    fn atomic_load(&mut self, name: &str, args: &[ast::Expr], by_ref: bool, loc: Loc) -> R<Option<Val>> {
        let (place, ty) = self.atomic_object(&args[0], name, loc)?;
        if !by_ref {
            return Ok(Some(self.read_old(&place, &ty, loc)));
        }
        let (ret, _) = self.atomic_object(&args[1], name, loc)?;
        self.emit(InstrKind::Assign(ret, place), loc);
        Ok(None)
    }

    fn atomic_store(&mut self, name: &str, args: &[ast::Expr], by_ref: bool, zero: bool, loc: Loc) -> R<Option<Val>> {
        let (place, ty) = self.atomic_object(&args[0], name, loc)?;
        let value = if zero {
            self.int_val(0, CType::int())
        } else if by_ref {
            let (source, source_ty) = self.atomic_object(&args[1], name, loc)?;
            self.read_old(&source, &source_ty, loc)
        } else {
            self.atomic_operand(&args[1])?
        };
        self.store_value(place, value, &ty, loc)?;
        Ok(None)
    }

    fn atomic_exchange(&mut self, name: &str, args: &[ast::Expr], by_ref: bool, loc: Loc) -> R<Option<Val>> {
        let (place, ty) = self.atomic_object(&args[0], name, loc)?;
        let value = if by_ref {
            let (source, source_ty) = self.atomic_object(&args[1], name, loc)?;
            self.read_old(&source, &source_ty, loc)
        } else {
            self.atomic_operand(&args[1])?
        };
        let ret = if by_ref { Some(self.atomic_object(&args[2], name, loc)?.0) } else { None };
        let old = self.read_old(&place, &ty, loc);
        self.store_value(place, value, &ty, loc)?;
        match ret {
            Some(ret) => {
                self.emit(InstrKind::Assign(ret, old.e), loc);
                Ok(None)
            }
            None => Ok(Some(old)),
        }
    }

    fn atomic_fetch(&mut self, name: &str, args: &[ast::Expr], op: Rmw, new: bool, loc: Loc) -> R<Option<Val>> {
        let (place, ty) = self.atomic_object(&args[0], name, loc)?;
        let kind = match (&ty.kind, self.tcx.int_kind_of(&ty)) {
            (Kind::Int(_) | Kind::Enum(_), Some(kind)) if !ty.is_bool() => kind,
            _ => return Err(self.error(loc, format!("unsupported: `{name}` on an object that is not an integer"))),
        };
        let value = self.converted_operand(&args[1], &ty, loc)?;
        let old = self.read_old(&place, &ty, loc);
        let result = self.wrapping_rmw(op, old.clone(), Val::rv(value, ty.clone()), kind, loc)?;
        let result = self.temp(result, &ty, loc);
        self.emit(InstrKind::Assign(place, result.clone()), loc);
        Ok(Some(if new { Val::rv(result, ty) } else { old }))
    }

    /// `old op value` wrapped to `old`'s integer type (of kind `kind`).
    fn wrapping_rmw(&mut self, op: Rmw, old: Val, value: Val, kind: IntKind, loc: Loc) -> R<Expr> {
        let ty = old.ty.clone();
        let unsigned = CType::new(Kind::Int(kind.to_unsigned()));
        let a = Val::rv(self.cast_to(old, &unsigned, loc, true)?, unsigned.clone());
        let b = Val::rv(self.cast_to(value, &unsigned, loc, true)?, unsigned.clone());
        let binary = match op {
            Rmw::Add => BinaryOp::Add,
            Rmw::Sub => BinaryOp::Sub,
            Rmw::And | Rmw::Nand => BinaryOp::BitAnd,
            Rmw::Or => BinaryOp::BitOr,
            Rmw::Xor => BinaryOp::BitXor,
        };
        let mut result = self.arith(binary, a, b, loc)?;
        if op == Rmw::Nand {
            let irty = self.ir_ty(&result.ty);
            result = Val::rv(Expr::unary(UnOp::BitNot, result.e, irty), result.ty);
        }
        self.cast_to(result, &ty, loc, true)
    }

    fn compare_exchange(&mut self, name: &str, args: &[ast::Expr], by_ref: bool, weak: Weak, loc: Loc) -> R<Option<Val>> {
        let (place, ty) = self.atomic_object(&args[0], name, loc)?;
        if !ty.is_scalar() {
            return Err(self.error(loc, format!("unsupported: `{name}` on an object that is not a scalar")));
        }
        let (expected, _) = self.atomic_object(&args[1], name, loc)?;
        let desired = if by_ref {
            let (source, source_ty) = self.atomic_object(&args[2], name, loc)?;
            let v = self.read_old(&source, &source_ty, loc);
            self.cast_to(v, &ty, loc, false)?
        } else {
            self.converted_operand(&args[2], &ty, loc)?
        };
        let may_fail = match weak {
            Weak::No => None,
            Weak::Yes => Some(self.true_expr()),
            Weak::Arg(i) => {
                let w = self.cond(&args[i])?;
                match fold_value(&self.prog.types, &w) {
                    Some(0) => None,
                    _ => {
                        let bool_ty = CType::new(Kind::Bool);
                        Some(self.temp(w, &bool_ty, loc))
                    }
                }
            }
        };
        let old = self.read_old(&place, &ty, loc);
        let current = Val::rv(expected.clone(), ty.clone());
        let mut matched = self.equal(old.clone(), current, loc)?;
        if let Some(may_fail) = may_fail {
            let bool_ir = self.prog.types.bool();
            let spurious = Expr::binary(BinOp::And, may_fail, Expr::new(ExprKind::Nondet, bool_ir), bool_ir);
            let succeeds = Expr::unary(UnOp::Not, spurious, bool_ir);
            matched = Expr::binary(BinOp::And, matched, succeeds, bool_ir);
        }
        let bool_ty = CType::new(Kind::Bool);
        let ok = self.temp(matched, &bool_ty, loc);
        self.store_if(ok.clone(), place, desired, expected, old.e, loc);
        Ok(Some(Val::rv(ok, bool_ty)))
    }

    /// `if (ok) *place = desired; else *otherwise = old;`
    fn store_if(&mut self, ok: Expr, place: Expr, desired: Expr, otherwise: Expr, old: Expr, loc: Loc) {
        let failed = self.new_label();
        let done = self.new_label();
        let bool_ir = self.prog.types.bool();
        self.goto_if(Expr::unary(UnOp::Not, ok, bool_ir), failed, loc);
        self.emit(InstrKind::Assign(place, desired), loc);
        self.goto(done, loc);
        self.place_label(failed);
        self.emit(InstrKind::Assign(otherwise, old), loc);
        self.place_label(done);
    }

    fn compare_and_swap(&mut self, name: &str, args: &[ast::Expr], returns_bool: bool, loc: Loc) -> R<Option<Val>> {
        let (place, ty) = self.atomic_object(&args[0], name, loc)?;
        if !ty.is_scalar() {
            return Err(self.error(loc, format!("unsupported: `{name}` on an object that is not a scalar")));
        }
        let expected = self.converted_operand(&args[1], &ty, loc)?;
        let desired = self.converted_operand(&args[2], &ty, loc)?;
        let old = self.read_old(&place, &ty, loc);
        let matched = self.equal(old.clone(), Val::rv(expected, ty.clone()), loc)?;
        let bool_ty = CType::new(Kind::Bool);
        let ok = self.temp(matched, &bool_ty, loc);
        let stored = Expr::new(ExprKind::Ite(Box::new(ok.clone()), Box::new(desired), Box::new(old.e.clone())), old.e.ty);
        self.emit(InstrKind::Assign(place, stored), loc);
        Ok(Some(if returns_bool { Val::rv(ok, bool_ty) } else { old }))
    }

    /// `a == b` as a `Bool`.
    fn equal(&mut self, a: Val, b: Val, loc: Loc) -> R<Expr> {
        let eq = self.arith(BinaryOp::Eq, a, b, loc)?;
        self.truth(eq, loc)
    }

    /// `__atomic_test_and_set` (returns whether the byte was set) and
    /// `__atomic_clear` on the byte `p` points to.
    fn test_and_set(&mut self, name: &str, args: &[ast::Expr], clear: bool, loc: Loc) -> R<Option<Val>> {
        let p = self.rvalue(&args[0])?;
        if !p.ty.is_pointer() {
            return Err(self.error(loc, format!("`{name}` needs a pointer")));
        }
        let byte = CType::new(Kind::Int(IntKind::UChar));
        let byte_ptr = CType::pointer_to(byte.clone());
        let irty = self.ir_ty(&byte_ptr);
        let address = self.temp(Expr::cast(p.e, irty), &byte_ptr, loc);
        let byte_ir = self.ir_ty(&byte);
        let place = deref(address, byte_ir);
        let old = self.read_old(&place, &byte, loc);
        let set = Expr::int(u128::from(!clear), byte_ir);
        self.emit(InstrKind::Assign(place, set), loc);
        if clear {
            return Ok(None);
        }
        let zero = self.int_val(0, byte.clone());
        let was_set = self.arith(BinaryOp::Ne, old, zero, loc)?;
        let bool_ty = CType::new(Kind::Bool);
        let e = self.truth(was_set, loc)?;
        Ok(Some(Val::rv(e, bool_ty)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_operation() {
        assert!(matches!(atomic("__sync_fetch_and_add"), Some(Atomic::Fetch { op: Rmw::Add, new: false })));
        assert!(matches!(atomic("__sync_nand_and_fetch"), Some(Atomic::Fetch { op: Rmw::Nand, new: true })));
        assert!(matches!(atomic("__atomic_fetch_xor"), Some(Atomic::Fetch { op: Rmw::Xor, new: false })));
        assert!(matches!(atomic("__atomic_or_fetch"), Some(Atomic::Fetch { op: Rmw::Or, new: true })));
        assert!(matches!(atomic("__c11_atomic_fetch_sub"), Some(Atomic::Fetch { op: Rmw::Sub, new: false })));
        assert!(matches!(atomic("__atomic_compare_exchange"), Some(Atomic::CompareExchange { by_ref: true, .. })));
        assert!(matches!(atomic("__atomic_load"), Some(Atomic::Load { by_ref: true })));
        assert!(atomic("__atomic_fetch_mul").is_none());
        assert!(atomic("__sync_fetch_and").is_none());
        assert!(atomic("atomic_load").is_none());
    }
}
