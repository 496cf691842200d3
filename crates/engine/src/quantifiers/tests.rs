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

/// `∀j. a[sext j] == 0` is instantiated eagerly at the extended indices of
/// reads of `a` (through stores and choices), not at those of other
/// arrays; the answers stay exact either way.
#[test]
fn eager_instances_go_to_the_indices_of_the_arrays_a_quantifier_reads() {
    let mut s = TermStore::new();
    let sort = s.array_sort(Sort::BitVec(32), Sort::BitVec(8));
    let (a, b, c) = (s.var("a", sort), s.var("b", sort), s.var("c", sort));
    let (j, x, y, z, k) = (s.var("j", Sort::BitVec(16)), s.var("x", Sort::BitVec(16)), s.var("y", Sort::BitVec(16)), s.var("z", Sort::BitVec(16)), s.var("k", Sort::BitVec(32)));
    let zero = s.bv_u64(8, 0);
    let at_j = s.sign_extend(16, j);
    let read_j = s.select(a, at_j);
    let body = s.eq(read_j, zero);
    let all_zero = s.forall(j, body);
    let (at_x, at_y, at_z) = (s.sign_extend(16, x), s.sign_extend(16, y), s.sign_extend(16, z));
    let cond = s.var("p", Sort::Bool);
    let stored = s.store(a, k, zero);
    let chosen = s.ite(cond, stored, c);
    let (read_x, read_y, read_z) = (s.select(b, at_x), s.select(chosen, at_y), s.select(c, at_z));
    let ground = smt::post_order(&s, &[read_x, read_y, read_z]);
    let bases = ArrayBases::of(&s, &ground);
    let read = bases.read_by(&s, body);
    assert_eq!(read, Some(vec![a]));
    assert!(!bases.indexes(at_x, read.as_ref()), "b is not read by the quantifier");
    assert!(bases.indexes(at_y, read.as_ref()), "a choice of a store over a is");
    assert!(!bases.indexes(at_z, read.as_ref()), "c is not");
    // a[y] (through the store at k) non-zero contradicts the quantifier
    // unless the store is at y; b[x] non-zero does not.
    let (zero_y, zero_x, at_k) = (s.eq(read_y, zero), s.eq(read_x, zero), s.eq(at_y, k));
    let (nonzero_y, nonzero_x, not_at_k) = (s.not(zero_y), s.not(zero_x), s.not(at_k));
    let query = s.and(&[all_zero, cond, not_at_k, nonzero_y]);
    assert_eq!(check(&mut s, query).0, SatResult::Unsat);
    let query = s.and(&[all_zero, nonzero_x]);
    assert_eq!(check(&mut s, query).0, SatResult::Sat);
}
