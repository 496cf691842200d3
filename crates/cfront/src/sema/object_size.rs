//! GCC's `__builtin_object_size(ptr, type)`: what the front end decides
//! from the syntax of `ptr`, before the call reaches the intrinsic that
//! symex and the interpreter evaluate (`ir::intrinsics::GccObjectSize`:
//! the bytes from `ptr` to the end of its whole object).
//!
//! - GCC never evaluates `ptr`; if it has side effects the answer is GCC's
//!   "unknown": `(size_t)-1` for types 0 and 1, 0 for types 2 and 3.
//! - Types 1 and 3 measure the closest surrounding subobject: for `&v.m`,
//!   `&v.m[i]` or `v.m` (an array member) of a variable `v`, the bytes
//!   from the pointer to the end of member `m`, a constant. A member
//!   reached through a pointer (`p->m`) is not handled, since GCC's answer
//!   then depends on whether it takes a trailing array for a flexible one.

use super::consteval::fold_value;
use super::ctype::CType;
use super::expr::Val;
use super::{Sema, R};
use crate::ast::{self, ExprKind as A, UnaryOp};
use ir::Loc;

impl Sema<'_> {
    /// `__builtin_object_size(ptr, type)`: a constant where the front end
    /// knows GCC's answer, else `None` (the call is lowered as usual).
    pub(super) fn object_size_builtin(&mut self, ptr: &ast::Expr, size_type: &ast::Expr, loc: Loc) -> R<Option<Val>> {
        let t = self.const_int(size_type, "`__builtin_object_size` type")?;
        if !(0..=3).contains(&t) {
            return Err(self.error(size_type.loc, "`__builtin_object_size` type must be 0, 1, 2 or 3"));
        }
        let size_t = self.tcx.size_t();
        let (_, instrs) = self.scratch(|s| s.rvalue(ptr))?;
        if !instrs.is_empty() {
            let unknown = if t & 2 == 0 { -1 } else { 0 };
            return Ok(Some(self.int_val(unknown, size_t)));
        }
        if t & 1 == 0 {
            return Ok(None);
        }
        match self.subobject_remaining(ptr, loc)? {
            Some(bytes) => Ok(Some(self.int_val(i128::from(bytes), size_t))),
            None => Ok(None),
        }
    }

    /// The bytes from `ptr` to the end of the member it points into, when
    /// `ptr` is written as the address of (an element of) a member of a
    /// variable.
    fn subobject_remaining(&mut self, ptr: &ast::Expr, loc: Loc) -> R<Option<u64>> {
        let mut e = ptr;
        while let A::Cast(_, inner) = &e.kind {
            e = inner;
        }
        let (member, index) = match &e.kind {
            A::Unary(UnaryOp::AddrOf, lv) => match &lv.kind {
                A::Index(array, i) if matches!(array.kind, A::Member { .. }) => (&**array, Some(&**i)),
                A::Member { .. } => (&**lv, None),
                _ => return Ok(None),
            },
            A::Member { .. } => (e, None),
            _ => return Ok(None),
        };
        if !self.member_of_variable(member) {
            return Err(self.error(loc, "unsupported: `__builtin_object_size` of a member reached through a pointer"));
        }
        let (member_val, _) = self.scratch(|s| s.expr(member))?;
        let ty: CType = member_val.ty;
        if matches!(e.kind, A::Member { .. }) && ty.elem().is_none() {
            return Ok(None);
        }
        let size = self.tcx.size_of(&ty).map_err(|_| self.error(loc, "`__builtin_object_size` of a member without a size"))?;
        let Some(index) = index else { return Ok(Some(size)) };
        let (i, instrs) = self.scratch(|s| s.rvalue(index))?;
        let Some(i) = fold_value(&self.prog.types, &i.e).filter(|_| instrs.is_empty()) else {
            return Err(self.error(index.loc, "unsupported: `__builtin_object_size` of a member element at a variable index"));
        };
        let elem = ty.elem().and_then(|el| self.tcx.size_of(el).ok()).unwrap_or(0);
        let start = u64::try_from(i).ok().and_then(|i| i.checked_mul(elem));
        Ok(Some(start.map_or(0, |start| size.saturating_sub(start))))
    }

    /// Whether `e` is a chain of `.` accesses on a variable.
    fn member_of_variable(&self, mut e: &ast::Expr) -> bool {
        loop {
            match &e.kind {
                A::Ident(_) => return true,
                A::Member { base, arrow: false, .. } => e = base,
                _ => return false,
            }
        }
    }
}
