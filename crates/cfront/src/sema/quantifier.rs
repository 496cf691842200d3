//! `__ESBMC_forall(&v, body)` and `__ESBMC_exists(&v, body)`: the body is
//! not evaluated where the call stands but for every value of the variable
//! `v`, so it is lowered between a `QuantifierBegin` and a `QuantifierEnd`
//! (calls, short-circuits and checks of the body included) instead of being
//! hoisted like an argument. The value is an `int`, 1 or 0.

use super::ctype::CType;
use super::expr::Val;
use super::{Sema, R};
use crate::ast::{self, ExprKind as A, UnaryOp};
use ir::{Expr, ExprKind, InstrKind, Loc, Quantifier};

/// The quantifier an intrinsic name stands for.
pub(super) fn quantifier_named(name: &str) -> Option<Quantifier> {
    [Quantifier::Forall, Quantifier::Exists].into_iter().find(|q| q.intrinsic() == name)
}

impl Sema<'_> {
    pub(super) fn quantifier(&mut self, quantifier: Quantifier, args: &[ast::Expr], loc: Loc) -> R<Val> {
        let name = quantifier.intrinsic();
        let [bound, body] = args else {
            return Err(self.error(loc, format!("`{name}` takes a variable's address and a condition")));
        };
        let bound = self.bound_variable(bound, name)?;
        let int = CType::int();
        let result = self.fresh_local("$quantifier", &int, loc);
        let result = Expr::sym(result, self.prog.symbols[result].ty);
        self.emit(InstrKind::QuantifierBegin { quantifier, bound }, loc);
        let body = self.cond(body)?;
        self.emit(InstrKind::QuantifierEnd { lhs: result.clone(), body }, loc);
        Ok(Val::rv(result, int))
    }

    /// The variable whose address `e` is (through casts). Which types it
    /// may have is for the verifier to say.
    fn bound_variable(&mut self, e: &ast::Expr, name: &str) -> R<Expr> {
        let mut inner = e;
        while let A::Cast(_, x) = &inner.kind {
            inner = x;
        }
        let A::Unary(UnaryOp::AddrOf, target) = &inner.kind else {
            return Err(self.error(e.loc, format!("unsupported: `{name}` over something other than `&variable`")));
        };
        let v = self.expr(target)?;
        if !matches!(v.e.kind, ExprKind::Sym(_)) || !v.lvalue {
            return Err(self.error(e.loc, format!("unsupported: `{name}` over something other than `&variable`")));
        }
        Ok(v.e)
    }
}
