//! Variadic functions: the argument area of a variadic definition and the
//! lowering of `va_start`, `va_arg`, `va_copy` and `va_end` over it.
//!
//! A `va_list` is a `void *` cursor into the argument area; the
//! representation is described in `ir::varargs`, which symex and the
//! interpreter follow when they enter a variadic function.

use super::ctype::{ArraySize, CType, FloatKind, IntKind, Kind};
use super::expr::Val;
use super::{Sema, R};
use crate::ast;
use ir::{BinOp, Expr, ExprKind, InstrKind, Loc, SymbolKind};

impl<'a> Sema<'a> {
    /// Gives the function being defined its argument area (a variadic
    /// definition only).
    pub(super) fn declare_variadic_area(&mut self, func: ir::FuncId, loc: Loc) {
        let ty = CType::array_of(CType::new(Kind::Int(IntKind::UChar)), ArraySize::Unknown);
        let irty = self.ir_ty(&ty);
        let name = format!("{}::$va_area", self.fx.name);
        let sym = self.prog.add_symbol(&name, irty, SymbolKind::Local(func), loc);
        self.prog.symbols[sym].display_name = "$va_area".into();
        self.sym_types.insert(sym, ty);
        self.prog.functions[func].variadic_area = Some(sym);
    }

    /// `__builtin_va_start`, `__builtin_va_copy` and `__builtin_va_end`;
    /// `None` for other names.
    pub(super) fn va_builtin(&mut self, name: &str, args: &[ast::Expr], loc: Loc) -> R<Option<Val>> {
        match (name, args) {
            // C23 allows `va_start(ap)` without the last parameter's name.
            ("__builtin_va_start", [list] | [list, _]) => {
                let Some(area) = self.prog.functions[self.fx.func].variadic_area else {
                    return Err(self.error(loc, "`va_start` used in a function with fixed arguments"));
                };
                let cursor = self.va_list_lvalue(list)?;
                let area_ir = self.prog.symbols[area].ty;
                let area_ptr = self.ir_ty(&CType::pointer_to(self.sym_types[&area].clone()));
                let start = Expr::new(ExprKind::AddrOf(Box::new(Expr::sym(area, area_ir))), area_ptr);
                self.emit(InstrKind::Assign(cursor.clone(), Expr::cast(start, cursor.ty)), loc);
            }
            ("__builtin_va_copy", [dest, src]) => {
                let dest = self.va_list_lvalue(dest)?;
                let src = self.rvalue(src)?;
                if !src.ty.is_pointer() {
                    return Err(self.error(loc, "`va_copy` needs a `va_list` source"));
                }
                self.emit(InstrKind::Assign(dest.clone(), Expr::cast(src.e, dest.ty)), loc);
            }
            ("__builtin_va_end", [list]) => {
                self.va_list_lvalue(list)?;
            }
            ("__builtin_va_start" | "__builtin_va_copy" | "__builtin_va_end", _) => {
                return Err(self.error(loc, format!("wrong number of arguments to `{name}`")));
            }
            _ => return Ok(None),
        }
        let void = self.prog.types.void();
        Ok(Some(Val::rv(Expr::new(ExprKind::Zero, void), CType::void())))
    }

    /// `va_arg(list, T)`: reads the slot under the cursor as a `T` and moves
    /// the cursor to the next slot.
    pub(super) fn va_arg(&mut self, list: &ast::Expr, tn: &ast::TypeName, loc: Loc) -> R<Val> {
        let ty = self.type_name(tn)?.unqualified();
        if is_changed_by_promotion(&ty) {
            // gcc compiles such a `va_arg` to a trap: the argument was promoted.
            return Err(self.error(loc, "unsupported: `va_arg` of a type that default argument promotions change"));
        }
        let irty = self.ir_ty(&ty);
        let Some(slot) = ir::varargs::slot_size(&self.prog.types, irty, self.prog.data_model) else {
            return Err(self.error(loc, "`va_arg` of a type without a size"));
        };
        let align = ir::varargs::slot_alignment(&self.prog.types, irty, self.prog.data_model).unwrap_or(1);
        let cursor = self.va_list_lvalue(list)?;
        let byte_ptr = CType::pointer_to(CType::new(Kind::Int(IntKind::UChar)));
        let byte_ptr_ir = self.ir_ty(&byte_ptr);
        let size_t = self.tcx.size_t();
        let size_ir = self.ir_ty(&size_t);
        let mut start = Expr::cast(cursor.clone(), byte_ptr_ir);
        if align > self.prog.data_model.pointer_bytes() {
            // The slot starts at the next multiple of the alignment within
            // the argument area (see `ir::varargs`): `(align - offset %
            // align) % align` bytes on from the cursor, with no arithmetic
            // that wraps (an unsigned-overflow check must stay silent).
            let offset = Expr::new(ExprKind::PointerOffset(Box::new(start.clone())), size_ir);
            let mask = || Expr::int(u128::from(align - 1), size_ir);
            let low = Expr::binary(BinOp::BitAnd, offset, mask(), size_ir);
            let gap = Expr::binary(BinOp::Sub, Expr::int(u128::from(align), size_ir), low, size_ir);
            let gap = Expr::binary(BinOp::BitAnd, gap, mask(), size_ir);
            start = Expr::binary(BinOp::PtrAdd, start, gap, byte_ptr_ir);
        }
        let at = self.temp(start, &byte_ptr, loc);
        let step = Expr::int(u128::from(slot), size_ir);
        let next = Expr::binary(BinOp::PtrAdd, at.clone(), step, byte_ptr_ir);
        self.emit(InstrKind::Assign(cursor.clone(), Expr::cast(next, cursor.ty)), loc);
        let ptr_ir = self.ir_ty(&CType::pointer_to(ty.clone()));
        let value = Expr::new(ExprKind::Deref(Box::new(Expr::cast(at, ptr_ir))), irty);
        Ok(Val::rv(value, ty))
    }

    /// The `va_list` object named by `list`, as an assignable IR place.
    fn va_list_lvalue(&mut self, list: &ast::Expr) -> R<Expr> {
        let v = self.expr(list)?;
        if !v.lvalue || !v.ty.is_pointer() {
            return Err(self.error(list.loc, "expected a `va_list` object"));
        }
        Ok(v.e)
    }
}

/// Types a variadic argument never has, since the caller promotes them.
fn is_changed_by_promotion(ty: &CType) -> bool {
    match &ty.kind {
        Kind::Bool => true,
        Kind::Float(k) => matches!(k, FloatKind::Float | FloatKind::Float16),
        Kind::Int(k) => k.rank() < IntKind::Int.rank(),
        _ => false,
    }
}
