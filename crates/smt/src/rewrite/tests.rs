//! Soundness of the rewriter: random terms over small sorts, built through
//! the rewriting store, must evaluate exactly like the same expression
//! evaluated directly operator by operator (no rewriting) under many random
//! assignments. Plus targeted checks that rules fire and that long chains
//! neither recurse nor grow quadratically.

use super::*;
use crate::eval::{eval, Model};
use crate::testing::{naive_eval, semantically_equal, Generator};

#[test]
fn rewritten_terms_evaluate_like_the_original_expressions() {
    let mut generator = Generator::new(7);
    for case in 0..4000 {
        if case % 200 == 0 {
            generator.pool.clear();
        }
        let sort = generator.random_sort();
        let e = generator.expr(sort, 4);
        let t = generator.build(&e);
        assert_eq!(generator.store.sort(t), sort);
        for _ in 0..12 {
            let model = generator.random_model();
            let expected = naive_eval(&e, &generator.store, &model);
            let actual = eval(&generator.store, t, &model).expect("rewritten term evaluates");
            assert!(
                semantically_equal(&expected, &actual),
                "case {case}: rewritten term {t:?} gives {actual} but the expression gives {expected}\n{}",
                crate::smtlib::to_smtlib2(&generator.store, &[], "ALL")
            );
        }
    }
}

#[test]
fn small_bit_vector_rules_hold_exhaustively_at_widths_one_to_three() {
    use Op::*;
    let ops = [
        BvAnd, BvOr, BvXor, BvAdd, BvSub, BvMul, BvUdiv, BvUrem, BvSdiv, BvSrem, BvSmod, BvShl, BvLshr, BvAshr, BvUlt,
        BvUle, BvUgt, BvUge, BvSlt, BvSle, BvSgt, BvSge, BvUaddOverflow, BvSaddOverflow, BvUsubOverflow,
        BvSsubOverflow, BvUmulOverflow, BvSmulOverflow, BvSdivOverflow, Eq,
    ];
    for w in 1..=3u32 {
        let mut store = TermStore::new();
        let x = store.var("x", Sort::BitVec(w));
        let not_x = store.bv_not(x);
        let constants: Vec<TermId> = (0..1u64 << w).map(|c| store.bv_u64(w, c)).collect();
        let operands: Vec<TermId> = [x, not_x].into_iter().chain(constants.iter().copied()).collect();
        for op in ops {
            for &a in &operands {
                for &b in &operands {
                    let t = store.mk(op, &[a, b]);
                    for xv in 0..1u64 << w {
                        let mut model = Model::new();
                        model.set(store.as_var(x).unwrap(), Value::Bv(BvValue::from_u64(w, xv)));
                        let values = [a, b].map(|arg| eval(&store, arg, &model).unwrap());
                        let expected = eval_op(op, &values, store.sorts()).unwrap();
                        assert_eq!(eval(&store, t, &model).unwrap(), expected, "{op:?} w={w} x={xv}");
                    }
                }
            }
        }
    }
}

#[test]
fn simple_rules_fire() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let p = s.var("p", Sort::Bool);
    let q = s.var("q", Sort::Bool);
    let zero = s.bv_u64(8, 0);
    let one = s.bv_u64(8, 1);
    assert_eq!(s.bv_add(x, zero), x);
    assert_eq!(s.bv_mul(x, one), x);
    assert_eq!(s.bv_mul(zero, x), zero);
    assert_eq!(s.bv_sub(x, x), zero);
    assert_eq!(s.bv_xor(x, x), zero);
    let not_x = s.bv_not(x);
    assert_eq!(s.bv_and(x, not_x), zero);
    assert_eq!(s.bv_not(not_x), x);
    let not_p = s.not(p);
    assert_eq!(s.not(not_p), p);
    let contradiction = s.and2(p, not_p);
    assert!(s.is_false(contradiction));
    let tautology = s.or2(not_p, p);
    assert!(s.is_true(tautology));
    assert_eq!(s.and(&[p, p]), p);
    let pq = s.and2(p, q);
    assert_eq!(s.and2(pq, p), pq, "flattening removes the duplicate");
    assert_eq!(s.ite(p, x, x), x);
    let t = s.true_term();
    assert_eq!(s.ite(t, x, zero), x);
    let reflexive = s.eq(x, x);
    assert!(s.is_true(reflexive));
    let two = s.bv_u64(8, 2);
    let x_plus_1 = s.bv_add(x, one);
    let x_plus_3 = s.bv_add(x_plus_1, two);
    let three = s.bv_u64(8, 3);
    assert_eq!(x_plus_3, s.bv_add(x, three), "constants combine");
    let five = s.bv_u64(8, 5);
    let eq = s.eq(x_plus_3, five);
    assert_eq!(eq, s.eq(x, two), "x + 3 = 5 solves to x = 2");
    let sum = s.bv_add(five, three);
    assert_eq!(s.as_bv_const(sum), Some(&BvValue::from_u64(8, 8)));
}

#[test]
fn extraction_rules_fire() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let y = s.var("y", Sort::BitVec(4));
    assert_eq!(s.extract(7, 0, x), x);
    let inner = s.extract(6, 1, x);
    assert_eq!(s.extract(3, 2, inner), s.extract(4, 3, x));
    let xy = s.concat(x, y);
    assert_eq!(s.extract(3, 0, xy), y);
    assert_eq!(s.extract(11, 4, xy), x);
    assert_eq!(s.extract(9, 6, xy), s.extract(5, 2, x));
    let high = s.extract(7, 4, x);
    let low = s.extract(3, 0, x);
    assert_eq!(s.concat(high, low), x);
    let wide = s.zero_extend(8, x);
    assert_eq!(s.extract(7, 0, wide), x);
    let padding = s.extract(15, 8, wide);
    assert!(s.as_bv_const(padding).is_some_and(BvValue::is_zero));
}

#[test]
fn read_over_write_and_store_rules_fire() {
    let mut s = TermStore::new();
    let sort = s.array_sort(Sort::BitVec(8), Sort::BitVec(8));
    let a = s.var("a", sort);
    let i = s.var("i", Sort::BitVec(8));
    let v = s.var("v", Sort::BitVec(8));
    let c1 = s.bv_u64(8, 1);
    let c2 = s.bv_u64(8, 2);
    let a1 = s.store(a, c1, v);
    let a2 = s.store(a1, c2, i);
    assert_eq!(s.select(a2, c1), v);
    assert_eq!(s.select(a2, c2), i);
    let c3 = s.bv_u64(8, 3);
    assert_eq!(s.select(a2, c3), s.select(a, c3));
    let symbolic_read = s.select(a2, i);
    assert_eq!(s.op(symbolic_read), Some(Op::Select), "symbolic index stays a select");
    let read = s.select(a, i);
    assert_eq!(s.store(a, i, read), a);
    let twice = s.store(a1, c1, i);
    assert_eq!(twice, s.store(a, c1, i));
    let zeros = s.const_array(sort, c3);
    assert_eq!(s.select(zeros, i), c3);
}

#[test]
fn long_chains_neither_recurse_nor_grow_quadratically() {
    let mut s = TermStore::new();
    let n = 100_000;
    // A conjunction built one step at a time stays linear in size.
    let mut guard = s.true_term();
    let before = s.len();
    for k in 0..n {
        let p = s.var(&format!("p{k}"), Sort::Bool);
        guard = s.and2(guard, p);
    }
    assert!(s.len() - before < 3 * n, "{} terms for {n} conjuncts", s.len() - before);
    assert_eq!(s.sort(guard), Sort::Bool);
    // Reads over a long store chain with constant indices.
    let sort = s.array_sort(Sort::BitVec(32), Sort::BitVec(8));
    let base = s.var("m", sort);
    let mut memory = base;
    for k in 0..n as u64 {
        let (index, value) = (s.bv_u64(32, k + 10), s.bv_u64(8, k));
        memory = s.store(memory, index, value);
    }
    let probe = s.bv_u64(32, 3);
    assert_eq!(s.select(memory, probe), s.select(base, probe));
    let hit = s.bv_u64(32, 10);
    let first_write = s.select(memory, hit);
    assert_eq!(s.as_bv_const(first_write), Some(&BvValue::from_u64(8, 0)));
    // Extraction through a deep concatenation.
    let byte = s.var("b", Sort::BitVec(8));
    let mut word = byte;
    for _ in 0..20_000 {
        let fresh = s.var("c", Sort::BitVec(8));
        word = s.concat(fresh, word);
    }
    assert_eq!(s.extract(7, 0, word), byte);
}
