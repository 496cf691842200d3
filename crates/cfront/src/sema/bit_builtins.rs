//! GCC's type-generic bit built-ins (`__builtin_clzg`, `ctzg`,
//! `popcountg`, `parityg`, `ffsg`): the operand keeps its own unsigned
//! type (no promotion), which gives the width; `clzg` and `ctzg` take an
//! optional `int`, their result for 0 (without it, 0 is undefined, as for
//! `__builtin_clz`). They stay calls of body-less functions that symex and
//! the interpreter compute (`ir::intrinsics::generic_bit_builtin`).

use super::ctype::{CType, FnType, Kind};
use super::expr::Val;
use super::{Sema, R};
use crate::ast;
use ir::intrinsics::{generic_bit_builtin, BitOp};
use ir::{Expr, InstrKind, Loc};
use std::rc::Rc;

impl Sema<'_> {
    /// Lowers `name(args)` when it is a type-generic bit built-in; `None`
    /// for every other name.
    pub(super) fn generic_bit_call(&mut self, name: &str, args: &[ast::Expr], loc: Loc) -> R<Option<Val>> {
        let Some(op) = generic_bit_builtin(name) else { return Ok(None) };
        let takes_result_at_zero = matches!(op, BitOp::Clz | BitOp::Ctz);
        let (operand, at_zero) = match args {
            [x] => (x, None),
            [x, r] if takes_result_at_zero => (x, Some(r)),
            _ => return Err(self.error(loc, format!("wrong number of arguments to `{name}`"))),
        };
        let x = self.rvalue(operand)?;
        let unsigned = matches!(x.ty.kind, Kind::Int(k) if !k.is_signed());
        if !unsigned || x.bit_width.is_some() {
            return Err(self.error(operand.loc, format!("the operand of `{name}` must have an unsigned integer type")));
        }
        let width = self.tcx.int_kind_of(&x.ty).and_then(|k| k.bit_precise_width());
        if width.is_some_and(|w| w > 128) {
            return Err(self.error(operand.loc, format!("unsupported: `{name}` of an operand wider than 128 bits")));
        }
        let int = CType::int();
        let mut call_args = vec![x.e];
        if let Some(r) = at_zero {
            let r = self.rvalue(r)?;
            call_args.push(self.cast_to(r, &int, loc, false)?);
        }
        let fn_ty = CType::new(Kind::Function(Rc::new(FnType { ret: int.clone(), params: vec![], variadic: false, unprototyped: true })));
        let builtin = self.declare_linked(name, name, &fn_ty, false, loc)?;
        // Later calls come here again, not through the declaration.
        self.implicit_builtins.insert(builtin);
        let callee = Expr::sym(builtin, self.prog.symbols[builtin].ty);
        let result = self.fresh_local("$ret", &int, loc);
        let result = Expr::sym(result, self.prog.symbols[result].ty);
        self.emit(InstrKind::Call { lhs: Some(result.clone()), callee, args: call_args }, loc);
        Ok(Some(Val::rv(result, int)))
    }
}
