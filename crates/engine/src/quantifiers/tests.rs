//! Tests of the instantiation loop on small quantified formulas.

use super::*;
use smt::Sort;

fn check(store: &mut TermStore, query: TermId) -> (SatResult, Option<Model>) {
    let mut quantifiers = Quantifiers::new(None);
    let abstracted = quantifiers.abstract_term(store, query);
    let result = quantifiers.check(store, &mut Backend::BitBlast(Box::new(BitBlastSolver::new())), abstracted);
    (result, quantifiers.model().cloned())
}

#[test]
fn a_valid_universal_cannot_be_refuted() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let one = s.bv_u64(8, 1);
    let next = s.bv_add(x, one);
    let differs = s.eq(next, x);
    let body = s.not(differs);
    let q = s.forall(x, body);
    let refuted = s.not(q);
    assert_eq!(check(&mut s, refuted).0, SatResult::Unsat);
}

#[test]
fn an_instance_with_a_term_refutes_a_universal_over_a_free_variable() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(32));
    let y = s.var("y", Sort::BitVec(32));
    let same = s.eq(x, y);
    let body = s.not(same);
    let q = s.forall(x, body);
    assert_eq!(check(&mut s, q).0, SatResult::Unsat);
}

#[test]
fn an_alternation_is_decided_without_enumerating_values() {
    let mut s = TermStore::new();
    let a = s.var("a", Sort::BitVec(32));
    let b = s.var("b", Sort::BitVec(32));
    let one = s.bv_u64(32, 1);
    let next = s.bv_add(a, one);
    let body = s.eq(b, next);
    let inner = s.exists(b, body);
    let outer = s.forall(a, inner);
    let refuted = s.not(outer);
    assert_eq!(check(&mut s, refuted).0, SatResult::Unsat);
}

#[test]
fn a_satisfiable_universal_gives_a_model_that_satisfies_it() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let y = s.var("y", Sort::BitVec(8));
    let body = s.bv_ule(x, y);
    let q = s.forall(x, body);
    let (result, model) = check(&mut s, q);
    assert_eq!(result, SatResult::Sat);
    let value = smt::eval(&s, y, &model.expect("a model")).unwrap();
    assert_eq!(value, smt::Value::Bv(smt::BvValue::from_u64(8, 255)));
}

#[test]
fn nested_universals_are_refuted_through_their_counterexamples() {
    // ∀a ∀b. a > b ∨ b > a is false (a = b).
    let mut s = TermStore::new();
    let a = s.var("a", Sort::BitVec(32));
    let b = s.var("b", Sort::BitVec(32));
    let gt = s.mk(smt::Op::BvSgt, &[a, b]);
    let lt = s.mk(smt::Op::BvSgt, &[b, a]);
    let body = s.or2(gt, lt);
    let inner = s.forall(b, body);
    let outer = s.forall(a, inner);
    assert_eq!(check(&mut s, outer).0, SatResult::Unsat);
    let refuted = s.not(outer);
    assert_eq!(check(&mut s, refuted).0, SatResult::Sat);
}

#[test]
fn a_quantifier_is_decided_at_the_values_a_model_gives_its_free_variables() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let y = s.var("y", Sort::BitVec(8));
    let mut model = Model::new();
    model.set(s.as_var(y).unwrap(), smt::Value::Bv(smt::BvValue::from_u64(8, 5)));
    let quantifiers = Quantifiers::new(None);
    // ∀x. x ≠ y is decided by x = y = 5.
    let same = s.eq(x, y);
    let differs = s.not(same);
    let forall = Binder { quantifier: Quantifier::Forall, var: x, body: differs };
    let found = quantifiers.deciding_value(&mut s, &model, &forall).unwrap();
    assert_eq!(found, Some(smt::Value::Bv(smt::BvValue::from_u64(8, 5))));
    // ∃x. x·x = y has no witness: 5 is not a square modulo 256.
    let square = s.mk(smt::Op::BvMul, &[x, x]);
    let root = s.eq(square, y);
    let exists = Binder { quantifier: Quantifier::Exists, var: x, body: root };
    assert_eq!(quantifiers.deciding_value(&mut s, &model, &exists).unwrap(), None);
    // With y = 4 it has one (x = 2 or another root), and the value found
    // satisfies the body.
    model.set(s.as_var(y).unwrap(), smt::Value::Bv(smt::BvValue::from_u64(8, 4)));
    let witness = quantifiers.deciding_value(&mut s, &model, &exists).unwrap().expect("4 is a square");
    let witness = s.constant(witness);
    let at_witness = instantiate(&mut s, &exists, witness);
    assert_eq!(smt::eval(&s, at_witness, &model), Ok(smt::Value::Bool(true)));
}
