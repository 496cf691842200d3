//! Quantifiers: ESBMC's `__ESBMC_forall(&v, body)` and
//! `__ESBMC_exists(&v, body)`, and CBMC's `__CPROVER_forall { int i; body }`
//! and `__CPROVER_exists { ... }` (ACSL's `∀ int i; body` too), whose
//! variables are declared in a scope of their own that only the body sees.
//! The body is not evaluated where the quantifier stands but for every
//! value of the variable, so it is lowered between a `QuantifierBegin` and
//! a `QuantifierEnd` (calls, short-circuits and checks of the body
//! included) instead of being hoisted like an argument. Several variables
//! (`int i, j;`) nest one quantifier per variable. The value is an `int`,
//! 1 or 0 (CBMC's is a Boolean, which C reads the same way).

use super::ctype::CType;
use super::expr::Val;
use super::scope::Ordinary;
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
        self.quantified(quantifier, &[bound], body, loc)
    }

    /// CBMC's `__CPROVER_forall { bound body }` (and its kin): the
    /// variables `bound` declares range over every value of their types.
    pub(super) fn cprover_quantifier(&mut self, quantifier: Quantifier, bound: &ast::Declaration, body: &ast::Expr, loc: Loc) -> R<Val> {
        self.open_scope();
        let result = self.declare_bound_variables(quantifier, bound).and_then(|vars| self.quantified(quantifier, &vars, body, loc));
        self.close_scope(loc);
        result
    }

    /// The variables of a CBMC quantifier, declared in the current scope:
    /// plain objects without initializers, as CBMC requires.
    fn declare_bound_variables(&mut self, quantifier: Quantifier, d: &ast::Declaration) -> R<Vec<Expr>> {
        let keyword = cprover_spelling(quantifier);
        if d.declarators.is_empty() {
            return Err(self.error(d.loc, format!("`{keyword}` needs the declaration of a variable")));
        }
        if d.specs.storage.is_some() {
            return Err(self.error(d.loc, format!("the variable of `{keyword}` takes no storage class")));
        }
        if d.declarators.iter().any(|id| id.init.is_some()) {
            return Err(self.error(d.loc, format!("the variable of `{keyword}` takes no initializer")));
        }
        self.declaration(d)?;
        let mut vars = Vec::new();
        for id in &d.declarators {
            let name = id.declarator.name.as_deref().unwrap_or_default();
            let Some(Ordinary::Symbol { sym }) = self.scopes.lookup(name).cloned() else {
                return Err(self.error(d.loc, format!("the variable of `{keyword}` must be an object")));
            };
            let ty = self.prog.symbols[sym].ty;
            if !matches!(self.prog.types.get(ty), ir::Type::Bool | ir::Type::Int { .. } | ir::Type::Float(_)) {
                let what = format!("unsupported: `{keyword}` over `{name}`, which is not an integer or a floating-point variable");
                return Err(self.error(d.loc, what));
            }
            vars.push(Expr::sym(sym, ty));
        }
        Ok(vars)
    }

    /// `body` lowered inside one quantifier per variable of `bound`
    /// (outermost first). The variable that receives a quantifier's value
    /// is declared before it begins: what its body declares does not
    /// outlive it.
    fn quantified(&mut self, quantifier: Quantifier, bound: &[Expr], body: &ast::Expr, loc: Loc) -> R<Val> {
        let int = CType::int();
        let mut values = Vec::new();
        for var in bound {
            let value = self.fresh_local("$quantifier", &int, loc);
            values.push(Expr::sym(value, self.prog.symbols[value].ty));
            self.emit(InstrKind::QuantifierBegin { quantifier, bound: var.clone() }, loc);
        }
        let mut holds = self.cond(body)?;
        for value in values.iter().rev() {
            self.emit(InstrKind::QuantifierEnd { lhs: value.clone(), body: holds }, loc);
            holds = self.truth(Val::rv(value.clone(), int.clone()), loc)?;
        }
        let result = values.into_iter().next().ok_or_else(|| self.error(loc, format!("`{}` binds no variable", quantifier.intrinsic())))?;
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

/// How CBMC spells a quantifier.
fn cprover_spelling(quantifier: Quantifier) -> &'static str {
    match quantifier {
        Quantifier::Forall => "__CPROVER_forall",
        Quantifier::Exists => "__CPROVER_exists",
    }
}
