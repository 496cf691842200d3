//! ESBMC's `__ESBMC_alloc_size[__ESBMC_POINTER_OBJECT(p)]`: the allocated
//! size of `p`'s object, a table only in ESBMC's own memory model. Read, it
//! is `__ESBMC_get_object_size(p)`; written with `n`, it is the intrinsic
//! `ir::intrinsics::ALLOC_SIZE_CLAIM(p, n)` (tarsier's objects keep their
//! size, so symex and the interpreter accept only a claim of that size).
//! A program that declares its own `__ESBMC_alloc_size` keeps it.

use super::expr::Val;
use super::{Sema, R};
use crate::ast::{self, ExprKind as A};
use ir::Loc;

const TABLE: &str = "__ESBMC_alloc_size";

impl Sema<'_> {
    /// `p` when `e` is an entry of ESBMC's allocation-size table for `p`.
    pub(super) fn alloc_size_entry<'e>(&self, e: &'e ast::Expr) -> Option<&'e ast::Expr> {
        let A::Index(table, index) = &e.kind else { return None };
        let A::Ident(name) = &table.kind else { return None };
        let A::Call(f, args) = &index.kind else { return None };
        let A::Ident(object) = &f.kind else { return None };
        let names_object = matches!(object.as_str(), "__ESBMC_POINTER_OBJECT" | "__CPROVER_POINTER_OBJECT");
        (name == TABLE && names_object && args.len() == 1 && self.scopes.lookup(TABLE).is_none()).then(|| &args[0])
    }

    /// The size of `p`'s object.
    pub(super) fn alloc_size_read(&mut self, p: &ast::Expr, loc: Loc) -> R<Val> {
        self.call_intrinsic("__ESBMC_get_object_size", vec![p.clone()], loc)
    }

    /// The claim that `p`'s object has `n` bytes; its value is `n`.
    pub(super) fn alloc_size_write(&mut self, p: &ast::Expr, n: &ast::Expr, loc: Loc) -> R<Val> {
        self.call_intrinsic(ir::intrinsics::ALLOC_SIZE_CLAIM, vec![p.clone(), n.clone()], loc)
    }

    fn call_intrinsic(&mut self, name: &str, args: Vec<ast::Expr>, loc: Loc) -> R<Val> {
        let callee = ast::Expr { kind: A::Ident(name.to_string()), loc };
        self.call(&callee, &args, loc, true)
    }
}
