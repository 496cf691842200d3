//! Interval facts of path conditions: loop counters leave where their
//! bounds say, disjunctions keep what every case implies, and random
//! conditions are refuted only when no assignment satisfies them.

use super::*;
use crate::testing::Rng;
use crate::{eval, BvValue, Model, Value};

fn constant(store: &mut TermStore, width: u32, value: i64) -> TermId {
    store.bv_const(BvValue::from_i128(width, value as i128))
}

/// `idx >= 0 && idx < 5 && idx + 1 < 5 && ... && idx + steps < 5`: the
/// guard of a loop `while (idx < 5) idx++;` after `steps` iterations.
fn counting_guard(store: &mut TermStore, steps: i64) -> TermId {
    let idx = store.var("idx", Sort::BitVec(32));
    let zero = constant(store, 32, 0);
    let five = constant(store, 32, 5);
    let mut conjuncts = vec![store.bv_sle(zero, idx)];
    for k in 0..=steps {
        let step = constant(store, 32, k);
        let value = store.bv_add(idx, step);
        conjuncts.push(store.bv_slt(value, five));
    }
    store.and(&conjuncts)
}

#[test]
fn a_counter_from_a_lower_bound_leaves_the_loop_after_the_last_feasible_iteration() {
    let mut store = TermStore::new();
    let feasible = counting_guard(&mut store, 4);
    assert!(!Intervals::new().refutes(&store, feasible));
    let infeasible = counting_guard(&mut store, 5);
    assert!(Intervals::new().refutes(&store, infeasible));
}

#[test]
fn a_disjunction_keeps_what_every_case_implies() {
    let mut store = TermStore::new();
    let (i, j) = (store.var("i", Sort::BitVec(16)), store.var("j", Sort::BitVec(16)));
    let (zero, two, three, seven) =
        (constant(&mut store, 16, 0), constant(&mut store, 16, 2), constant(&mut store, 16, 3), constant(&mut store, 16, 7));
    let i_in_range = [store.bv_sle(zero, i), store.bv_slt(i, three)];
    let low_j = store.bv_slt(j, two);
    let high_j = store.bv_sle(seven, j);
    let first = store.and(&[i_in_range[0], i_in_range[1], low_j]);
    let second = store.and(&[i_in_range[0], i_in_range[1], high_j]);
    let merged = store.or2(first, second);
    let i_too_big = store.bv_sle(three, i);
    let refuted = store.and2(merged, i_too_big);
    assert!(Intervals::new().refutes(&store, refuted));
    // j is either small or large: the join knows nothing about it.
    let j_middle = [store.bv_sle(two, j), store.bv_slt(j, seven)];
    let unrefuted = store.and(&[merged, j_middle[0], j_middle[1]]);
    assert!(!Intervals::new().refutes(&store, unrefuted));
}

#[test]
fn negated_and_unsigned_comparisons_and_extensions_narrow_their_operands() {
    let mut store = TermStore::new();
    let x = store.var("x", Sort::BitVec(8));
    let wide = store.sign_extend(24, x);
    let hundred = constant(&mut store, 32, 100);
    let below = store.bv_slt(wide, hundred);
    let not_below = store.not(below);
    let limit = constant(&mut store, 8, 90);
    let small = store.bv_ult(x, limit);
    let contradiction = store.and2(not_below, small);
    assert!(Intervals::new().refutes(&store, contradiction));
    // Negative x are large unsigned numbers: `x <u 90` excludes them.
    let zero = constant(&mut store, 8, 0);
    let negative = store.bv_slt(x, zero);
    let unsigned_small_negative = store.and2(negative, small);
    assert!(Intervals::new().refutes(&store, unsigned_small_negative));
}

/// A random bit-vector term of width 6 over `x` and `y`.
fn random_term(rng: &mut Rng, store: &mut TermStore, vars: [TermId; 2], depth: u32) -> TermId {
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(3) {
            0 => constant(store, 6, rng.below(64) as i64 - 32),
            i => vars[i as usize - 1],
        };
    }
    let a = random_term(rng, store, vars, depth - 1);
    let b = random_term(rng, store, vars, depth - 1);
    match rng.below(11) {
        0 | 1 => store.bv_add(a, b),
        9 => store.bv_and(a, b),
        10 => {
            let low = store.extract(3, 0, a);
            let zeros = constant(store, 2, 0);
            store.concat(zeros, low)
        }
        2 => store.bv_sub(a, b),
        3 => store.bv_neg(a),
        4 => store.bv_mul(a, b),
        5 => {
            let wide = store.sign_extend(4, a);
            store.extract(5, 0, wide)
        }
        6 => {
            let wide = store.zero_extend(3, a);
            store.extract(5, 0, wide)
        }
        7 => {
            let c = random_atom(rng, store, vars, 1);
            store.ite(c, a, b)
        }
        _ => store.app(Op::BvUrem, &[a, b]).expect("well sorted"),
    }
}

fn random_atom(rng: &mut Rng, store: &mut TermStore, vars: [TermId; 2], depth: u32) -> TermId {
    let a = random_term(rng, store, vars, depth);
    let b = random_term(rng, store, vars, depth);
    let ops = [Op::BvSlt, Op::BvSle, Op::BvSgt, Op::BvSge, Op::BvUlt, Op::BvUle, Op::BvUgt, Op::BvUge, Op::Eq];
    let atom = store.app(ops[rng.below(ops.len() as u64) as usize], &[a, b]).expect("well sorted");
    match rng.below(3) {
        0 => store.not(atom),
        _ => atom,
    }
}

fn random_condition(rng: &mut Rng, store: &mut TermStore, vars: [TermId; 2], depth: u32) -> TermId {
    if depth == 0 {
        return random_atom(rng, store, vars, 2);
    }
    let parts: Vec<TermId> = (0..2 + rng.below(3)).map(|_| random_condition(rng, store, vars, depth - 1)).collect();
    let combined = match rng.below(3) {
        0 => store.or(&parts),
        _ => store.and(&parts),
    };
    match rng.below(5) {
        0 => store.not(combined),
        _ => combined,
    }
}

#[test]
fn only_unsatisfiable_conditions_are_refuted() {
    let mut rng = Rng::new(7);
    let mut refuted = 0;
    for _ in 0..600 {
        let mut store = TermStore::new();
        let vars = [store.var("x", Sort::BitVec(6)), store.var("y", Sort::BitVec(6))];
        let condition = random_condition(&mut rng, &mut store, vars, 2);
        if !Intervals::new().refutes(&store, condition) {
            continue;
        }
        refuted += 1;
        for x in 0..64u64 {
            for y in 0..64u64 {
                let mut model = Model::new();
                for (var, value) in vars.iter().zip([x, y]) {
                    let id = store.as_var(*var).expect("a variable");
                    model.set(id, Value::Bv(BvValue::from_u64(6, value)));
                }
                let value = eval(&store, condition, &model).expect("evaluates");
                assert_eq!(value, Value::Bool(false), "refuted but satisfied by x={x} y={y}");
            }
        }
    }
    assert!(refuted > 20, "the test must exercise refutations: {refuted}");
}

#[test]
fn a_narrow_counter_promoted_to_int_wraps_back_through_its_truncation() {
    // signed char idx; while (idx < 5) ++idx; — each step is
    // sext(extract(sext(idx) + 1)).
    let mut store = TermStore::new();
    let idx = store.var("idx", Sort::BitVec(8));
    let (one, five) = (constant(&mut store, 32, 1), constant(&mut store, 32, 5));
    let mut value = store.sign_extend(24, idx);
    // Built as symex builds a guard, one conjunct at a time (the store
    // nests long conjunctions).
    let mut guard = store.true_term();
    for _ in 0..133 {
        let test = store.bv_slt(value, five);
        guard = store.and2(guard, test);
        let next = store.bv_add(value, one);
        let narrow = store.extract(7, 0, next);
        value = store.sign_extend(24, narrow);
    }
    assert!(!Intervals::new().refutes(&store, guard));
    let test = store.bv_slt(value, five);
    let infeasible = store.and2(guard, test);
    assert!(Intervals::new().refutes(&store, infeasible));
}

#[test]
fn a_loop_bounded_by_a_mask_or_its_low_bits_stops() {
    // for (k = 0; k < (n & 15); k++): the guard at k = 16 is refuted,
    // and so is it when the mask is written as zeros above four low bits.
    let mut store = TermStore::new();
    let n = store.var("n", Sort::BitVec(64));
    let fifteen = constant(&mut store, 64, 15);
    let sixteen = constant(&mut store, 64, 16);
    let masked = store.bv_and(n, fifteen);
    let guard = store.bv_ult(sixteen, masked);
    assert!(Intervals::new().refutes(&store, guard));
    let low = store.extract(3, 0, n);
    let zeros = constant(&mut store, 60, 0);
    let widened = store.concat(zeros, low);
    let guard = store.bv_ult(sixteen, widened);
    assert!(Intervals::new().refutes(&store, guard));
    let fourteen = constant(&mut store, 64, 14);
    let last_iteration = store.bv_ult(fourteen, masked);
    assert!(!Intervals::new().refutes(&store, last_iteration));
}
