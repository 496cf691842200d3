//! Quantified terms: `Forall`/`Exists` applications binding a variable in a
//! Boolean body. The store builds them through [`TermStore::forall`] and
//! [`TermStore::exists`], which drop a binder that binds nothing; the
//! helpers here read them back, instantiate them and find the variables a
//! formula leaves free (a variable bound by a quantifier inside it is not).

use rustc_hash::FxHashMap;

use crate::op::Op;
use crate::term::{TermId, TermStore, VarId};
use crate::traverse::{post_order, substitute};

/// Which quantifier.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Quantifier {
    Forall,
    Exists,
}

/// The parts of a quantified term.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Binder {
    pub quantifier: Quantifier,
    /// The bound variable (a variable term).
    pub var: TermId,
    pub body: TermId,
}

impl TermStore {
    /// `∀ var. body`.
    ///
    /// # Panics
    /// If `var` is not a variable term or `body` is not a Boolean (a bug in
    /// the caller).
    pub fn forall(&mut self, var: TermId, body: TermId) -> TermId {
        self.quantified(Quantifier::Forall, var, body)
    }

    /// `∃ var. body`; see [`TermStore::forall`].
    pub fn exists(&mut self, var: TermId, body: TermId) -> TermId {
        self.quantified(Quantifier::Exists, var, body)
    }

    pub fn quantified(&mut self, quantifier: Quantifier, var: TermId, body: TermId) -> TermId {
        assert!(self.as_var(var).is_some(), "a quantifier binds a variable");
        // Every sort has a value, so a body without the variable decides alone.
        if !post_order(self, &[body]).contains(&var) {
            return body;
        }
        let op = match quantifier {
            Quantifier::Forall => Op::Forall,
            Quantifier::Exists => Op::Exists,
        };
        self.mk(op, &[var, body])
    }

    /// The parts of `t` when it is a quantified term.
    pub fn binder(&self, t: TermId) -> Option<Binder> {
        let quantifier = match self.op(t)? {
            Op::Forall => Quantifier::Forall,
            Op::Exists => Quantifier::Exists,
            _ => return None,
        };
        let args = self.args(t);
        Some(Binder { quantifier, var: args[0], body: args[1] })
    }
}

/// `binder`'s body with its variable replaced by `value` (same sort).
pub fn instantiate(store: &mut TermStore, binder: &Binder, value: TermId) -> TermId {
    let replacement = FxHashMap::from_iter([(binder.var, value)]);
    substitute(store, &[binder.body], &replacement)[0]
}

/// Whether a quantified term occurs in `roots`.
pub fn has_quantifier(store: &TermStore, roots: &[TermId]) -> bool {
    post_order(store, roots).into_iter().any(|t| store.binder(t).is_some())
}

/// The variables of `roots` that no quantifier inside them binds, in
/// first-visit order.
pub fn unbound_vars(store: &TermStore, roots: &[TermId]) -> Vec<VarId> {
    let order = post_order(store, roots);
    let bound: Vec<TermId> = order.iter().filter_map(|&t| store.binder(t)).map(|b| b.var).collect();
    order.into_iter().filter(|t| !bound.contains(t)).filter_map(|t| store.as_var(t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sort::Sort;

    #[test]
    fn a_binder_that_binds_nothing_is_dropped() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(8));
        let y = s.var("y", Sort::BitVec(8));
        let body = s.eq(y, y);
        let q = s.forall(x, body);
        assert!(s.is_true(q));
        let other = s.bv_ult(y, y);
        let q = s.exists(x, other);
        assert_eq!(q, other);
    }

    #[test]
    fn instantiation_replaces_only_the_bound_variable() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(8));
        let y = s.var("y", Sort::BitVec(8));
        let body = s.bv_ult(x, y);
        let q = s.forall(x, body);
        let binder = s.binder(q).expect("quantified");
        assert_eq!(binder.quantifier, Quantifier::Forall);
        let three = s.bv_u64(8, 3);
        let instance = instantiate(&mut s, &binder, three);
        assert_eq!(instance, s.bv_ult(three, y));
        assert_eq!(unbound_vars(&s, &[q]), vec![s.as_var(y).unwrap()]);
        assert!(has_quantifier(&s, &[q]) && !has_quantifier(&s, &[instance]));
    }

    #[test]
    fn nested_quantifiers_are_rebuilt_by_instantiation() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(8));
        let y = s.var("y", Sort::BitVec(8));
        let inner_body = s.eq(x, y);
        let inner = s.exists(y, inner_body);
        let outer = s.forall(x, inner);
        let binder = s.binder(outer).unwrap();
        let five = s.bv_u64(8, 5);
        let instance = instantiate(&mut s, &binder, five);
        let expected_body = s.eq(five, y);
        assert_eq!(instance, s.exists(y, expected_body));
        assert!(unbound_vars(&s, &[outer]).is_empty());
    }
}
