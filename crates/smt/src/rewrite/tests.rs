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

/// Structured operands at width `w` over `x`, `y` (width `w`) and `p`
/// (Bool): the shapes the rules look for (complements, sums with
/// constants, ite with constant branches, concatenations of slices, …).
fn structured_operands(s: &mut TermStore, w: u32, x: TermId, y: TermId, p: TermId) -> Vec<TermId> {
    let k = |s: &mut TermStore, v: u64| s.bv_u64(w, v);
    let (zero, one, two) = (k(s, 0), k(s, 1), k(s, 2));
    let ones = s.bv_const(BvValue::ones(w));
    let min = s.bv_const(BvValue::signed_min(w));
    let max = s.bv_const(BvValue::signed_max(w));
    let not_x = s.bv_not(x);
    let neg_x = s.bv_neg(x);
    let x_plus_1 = s.bv_add(x, one);
    let x_plus_y = s.bv_add(x, y);
    let ite_xy = s.ite(p, x, y);
    let ite_12 = s.ite(p, one, two);
    let ite_x0 = s.ite(p, x, zero);
    let shifted = s.mk(Op::BvShl, &[x, one]);
    let mut operands = vec![
        x, y, not_x, neg_x, x_plus_1, x_plus_y, ite_xy, ite_12, ite_x0, shifted, zero, one, two,
        ones, min, max,
    ];
    if w >= 2 {
        let (x_high, y_high) = (s.extract(w - 1, 1, x), s.extract(w - 1, 1, y));
        let (x_low, y_low) = (s.extract(0, 0, x), s.extract(0, 0, y));
        let x_narrow = s.extract(w - 2, 0, x);
        operands.extend([
            s.concat(x_high, y_low),
            s.concat(y_high, x_low),
            s.zero_extend(1, x_narrow),
            s.sign_extend(1, x_narrow),
        ]);
    }
    operands
}

#[test]
fn binary_rules_hold_exhaustively_on_structured_operands() {
    use Op::*;
    let ops = [
        BvAnd,
        BvOr,
        BvXor,
        BvAdd,
        BvSub,
        BvMul,
        BvUdiv,
        BvUrem,
        BvSdiv,
        BvSrem,
        BvSmod,
        BvShl,
        BvLshr,
        BvAshr,
        BvUlt,
        BvUle,
        BvUgt,
        BvUge,
        BvSlt,
        BvSle,
        BvSgt,
        BvSge,
        BvUaddOverflow,
        BvSaddOverflow,
        BvUsubOverflow,
        BvSsubOverflow,
        BvUmulOverflow,
        BvSmulOverflow,
        BvSdivOverflow,
        Eq,
        Distinct,
        Concat,
    ];
    for w in 1..=3u32 {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(w));
        let y = s.var("y", Sort::BitVec(w));
        let p = s.var("p", Sort::Bool);
        let operands = structured_operands(&mut s, w, x, y, p);
        let mut cases = Vec::new();
        for op in ops {
            for &a in &operands {
                for &b in &operands {
                    cases.push((op, a, b, s.mk(op, &[a, b])));
                }
            }
        }
        for assignment in 0..1u64 << (2 * w + 1) {
            let mut model = Model::new();
            model.set(
                s.as_var(x).unwrap(),
                Value::Bv(BvValue::from_u64(w, assignment)),
            );
            model.set(
                s.as_var(y).unwrap(),
                Value::Bv(BvValue::from_u64(w, assignment >> w)),
            );
            model.set(
                s.as_var(p).unwrap(),
                Value::Bool(assignment >> (2 * w) == 1),
            );
            let mut evaluator = crate::eval::Evaluator::new(&s, &model);
            for &(op, a, b, t) in &cases {
                let operands = [evaluator.eval(a).unwrap(), evaluator.eval(b).unwrap()];
                let expected = eval_op(op, &operands.each_ref(), s.sorts()).unwrap();
                assert_eq!(
                    evaluator.eval(t).unwrap(),
                    expected,
                    "{op:?}({a:?}, {b:?}) at w={w}, assignment {assignment}"
                );
            }
        }
    }
}

#[test]
fn boolean_rules_hold_exhaustively_on_structured_operands() {
    use Op::*;
    let mut s = TermStore::new();
    let [p, q, r] = ["p", "q", "r"].map(|n| s.var(n, Sort::Bool));
    let (t, f) = (s.true_term(), s.false_term());
    let not_p = s.not(p);
    let p_and_q = s.and2(p, q);
    let p_or_not_q = {
        let not_q = s.not(q);
        s.or2(p, not_q)
    };
    let ite_pqr = s.ite(p, q, r);
    let ite_not = s.ite(not_p, q, r);
    let p_xor_q = s.xor(p, q);
    let operands = [
        p, q, not_p, p_and_q, p_or_not_q, ite_pqr, ite_not, p_xor_q, t, f,
    ];
    let mut cases = Vec::new();
    for op in [And, Or, Xor, Implies, Eq, Distinct] {
        for &a in &operands {
            for &b in &operands {
                cases.push((op, vec![a, b], s.mk(op, &[a, b])));
            }
        }
    }
    for &c in &operands {
        for &a in &operands {
            for &b in &operands {
                cases.push((Ite, vec![c, a, b], s.ite(c, a, b)));
            }
        }
        cases.push((Not, vec![c], s.not(c)));
    }
    for assignment in 0..8u32 {
        let mut model = Model::new();
        for (i, v) in [p, q, r].into_iter().enumerate() {
            model.set(s.as_var(v).unwrap(), Value::Bool(assignment >> i & 1 == 1));
        }
        let mut evaluator = crate::eval::Evaluator::new(&s, &model);
        for (op, args, t) in &cases {
            let values: Vec<Value> = args.iter().map(|&a| evaluator.eval(a).unwrap()).collect();
            let expected = eval_op(*op, &values.iter().collect::<Vec<_>>(), s.sorts()).unwrap();
            assert_eq!(
                evaluator.eval(*t).unwrap(),
                expected,
                "{op:?}{args:?} under assignment {assignment}"
            );
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
    let minus_one = s.bv_const(BvValue::ones(8));
    assert_eq!(s.bv_mul(x, minus_one), s.bv_neg(x), "x * -1 is -x");
    let (minus_two, two) = (s.bv_u64(8, 0xfe), s.bv_u64(8, 2));
    let doubled = s.bv_mul(x, two);
    assert_eq!(s.bv_mul(minus_two, x), s.bv_neg(doubled), "x * -2 is -(x * 2)");
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
    let y8 = s.var("y8", Sort::BitVec(8));
    let chained = s.mk(Op::Eq, &[x, y8, x]);
    assert_eq!(chained, s.eq(x, y8), "x = y = x is x = y");
    let c = s.var("c", Sort::Bool);
    let merged = s.ite(c, one, two);
    assert_eq!(s.eq(merged, one), c);
    let not_c = s.not(c);
    assert_eq!(s.eq(two, merged), not_c);
    let never = s.eq(merged, three);
    assert!(s.is_false(never));
    let y = s.var("y", Sort::BitVec(4));
    let wide = s.zero_extend(4, y);
    let fits = s.bv_u64(8, 9);
    let nine = s.bv_u64(4, 9);
    assert_eq!(s.eq(wide, fits), s.eq(y, nine), "0000 ++ y = 9 means y = 9");
    let too_big = s.bv_u64(8, 0x19);
    let impossible = s.eq(wide, too_big);
    assert!(s.is_false(impossible));
    let sum = s.bv_add(five, three);
    assert_eq!(s.as_bv_const(sum), Some(&BvValue::from_u64(8, 8)));
}

#[test]
fn linear_sums_normalise_so_that_an_increment_compares_with_its_cores() {
    // 3 * (i + 1) == (a + 1) + (b + 2) is 3 * i == a + b: the step of the
    // invariant `3*i == a + b` is decided without the solver.
    let mut s = TermStore::new();
    let w = Sort::BitVec(32);
    let (i, a, b) = (s.var("i", w), s.var("a", w), s.var("b", w));
    let (one, two, three) = (s.bv_u64(32, 1), s.bv_u64(32, 2), s.bv_u64(32, 3));
    let i1 = s.bv_add(i, one);
    let left = s.bv_mul(three, i1);
    let (a1, b2) = (s.bv_add(a, one), s.bv_add(b, two));
    let right = s.bv_add(a1, b2);
    let stepped = s.eq(left, right);
    let i3 = s.bv_mul(i, three);
    let ab = s.bv_add(a, b);
    assert_eq!(stepped, s.eq(i3, ab));
    // merged branches: ite(c, a+1, a+2) + ite(c, b+2, b+1) is (a + b) + 3
    let c = s.var("c", Sort::Bool);
    let a2 = s.bv_add(a, two);
    let b1 = s.bv_add(b, one);
    let (ta, tb) = (s.ite(c, a1, a2), s.ite(c, b2, b1));
    let merged = s.bv_add(ta, tb);
    let ab3 = s.bv_add(ab, three);
    assert_eq!(merged, ab3);
    // by a power of two too: 2 * (i + -1) + (a + 1) == b + -1 is 2 * i + a == b
    let minus_one = s.bv_const(BvValue::ones(32));
    let i_down = s.bv_add(i, minus_one);
    let doubled = s.bv_mul(two, i_down);
    let lhs = s.bv_add(doubled, a1);
    let b_down = s.bv_add(b, minus_one);
    let stepped = s.eq(lhs, b_down);
    let twice = s.bv_mul(two, i);
    let core = s.bv_add(twice, a);
    assert_eq!(stepped, s.eq(core, b));
}

#[test]
fn operators_lift_over_choices_of_constants() {
    let mut s = TermStore::new();
    let c = s.var("c", Sort::Bool);
    let d = s.var("d", Sort::Bool);
    let x = s.var("x", Sort::BitVec(8));
    let k = |s: &mut TermStore, v: u64| s.bv_u64(8, v);
    let (one, two, three) = (k(&mut s, 1), k(&mut s, 2), k(&mut s, 3));
    let choice = s.ite(c, one, two);
    let sum = s.bv_add(choice, three);
    let (four, five) = (k(&mut s, 4), k(&mut s, 5));
    assert_eq!(sum, s.ite(c, four, five), "ite(c, 1, 2) + 3 is ite(c, 4, 5)");
    assert_eq!(s.bv_ult(choice, two), c, "ite(c, 1, 2) < 2 is c");
    let nested = s.ite(d, choice, three);
    let not_d = s.not(d);
    assert_eq!(s.eq(nested, three), not_d, "a tree of constants lifts whole");
    let wide = s.zero_extend(8, choice);
    let wide_two = s.bv_u64(16, 2);
    let not_c = s.not(c);
    assert_eq!(s.eq(wide, wide_two), not_c, "extensions of choices compare as conditions");
    let partial = s.ite(c, three, x);
    let x_is_3 = s.eq(x, three);
    assert_eq!(s.eq(partial, three), s.or2(c, x_is_3), "ite(c, 3, x) = 3 is c or x = 3");
    let x_is_1 = s.eq(x, one);
    let expected = s.and2(not_c, x_is_1);
    assert_eq!(s.eq(partial, one), expected, "ite(c, 3, x) = 1 is not c and x = 1");
    let not_bool = s.bv_add(partial, one);
    assert_eq!(s.op(not_bool), Some(Op::BvAdd), "a non-Boolean result keeps its one operator");
}

#[test]
fn powers_of_two_need_no_multiplier_or_divider() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let four = s.bv_u64(8, 4);
    for op in [Op::BvMul, Op::BvUdiv, Op::BvUrem] {
        let t = s.mk(op, &[x, four]);
        assert!(
            crate::traverse::post_order(&s, &[t]).iter().all(|&u| !matches!(s.op(u), Some(Op::BvMul | Op::BvUdiv | Op::BvUrem))),
            "{op:?} by 4 is a shift or slice"
        );
    }
    let six = s.bv_u64(8, 6);
    let by_six = s.mk(Op::BvUdiv, &[x, six]);
    assert_eq!(s.op(by_six), Some(Op::BvUdiv), "6 is no power of two");
    assert_eq!(BvValue::from_u64(8, 64).exact_log2(), Some(6));
    assert_eq!(BvValue::from_u64(8, 0).exact_log2(), None);
    assert_eq!(BvValue::from_u64(8, 12).exact_log2(), None);
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
    assert_eq!(
        s.op(symbolic_read),
        Some(Op::Select),
        "symbolic index stays a select"
    );
    let read = s.select(a, i);
    assert_eq!(s.store(a, i, read), a);
    let twice = s.store(a1, c1, i);
    assert_eq!(twice, s.store(a, c1, i));
    let zeros = s.const_array(sort, c3);
    assert_eq!(s.select(zeros, i), c3);
    let c = s.var("c", Sort::Bool);
    let merged = s.ite(c, a2, zeros);
    let read = s.select(merged, c1);
    assert_eq!(read, s.ite(c, v, c3), "reads distribute over ite of arrays");
}

#[test]
fn reads_through_merge_chains_reach_every_array_within_the_bound() {
    let mut s = TermStore::new();
    let sort = s.array_sort(Sort::BitVec(8), Sort::BitVec(8));
    let index = s.var("i", Sort::BitVec(8));
    let mut merged = s.var("base", sort);
    for k in 0..100 {
        let c = s.var("c", Sort::Bool);
        let other = s.var(&format!("a{k}"), sort);
        merged = s.ite(c, other, merged);
    }
    let read = s.select(merged, index);
    let mut t = read;
    for _ in 0..100 {
        assert_eq!(s.op(t), Some(Op::Ite));
        let then = s.args(t)[1];
        assert_eq!(s.op(then), Some(Op::Select));
        t = s.args(t)[2];
    }
    assert_eq!(s.op(t), Some(Op::Select));
    for k in 100..5_000 {
        let c = s.var("c", Sort::Bool);
        let other = s.var(&format!("a{k}"), sort);
        merged = s.ite(c, other, merged);
    }
    let read = s.select(merged, index);
    assert_eq!(s.args(read), [merged, index], "beyond the bound the read of the choice stays");
}

/// Each choice stores into the next (conditional writes merged one after
/// the other): a read at any index costs bounded work and new terms.
#[test]
fn reads_of_nested_conditional_stores_stay_bounded() {
    let mut s = TermStore::new();
    let sort = s.array_sort(Sort::BitVec(32), Sort::BitVec(8));
    let mut memory = s.var("m", sort);
    let n = 3_000u64;
    for k in 0..n {
        let c = s.var("c", Sort::Bool);
        let index = s.bv_u64(32, k);
        let old = s.select(memory, index);
        let value = s.var("v", Sort::BitVec(8));
        let value = s.ite(c, value, old);
        let written = s.store(memory, index, value);
        memory = s.ite(c, written, memory);
    }
    let before = s.len();
    for k in 0..n {
        let index = s.bv_u64(32, k);
        s.select(memory, index);
    }
    assert!(s.len() - before < 2 * (MAX_READ_PUSH_STEPS + 2) * n as usize, "{} terms for {n} reads", s.len() - before);
}

#[test]
fn reads_skip_stores_at_the_same_base_plus_other_constants() {
    let mut s = TermStore::new();
    let sort = s.array_sort(Sort::BitVec(32), Sort::BitVec(8));
    let base = s.var("m", sort);
    let p = s.var("p", Sort::BitVec(32));
    let [one, two] = [1, 2].map(|k| s.bv_u64(32, k));
    let (p1, p2) = (s.bv_add(p, one), s.bv_add(p, two));
    let v = s.var("v", Sort::BitVec(8));
    let w = s.var("w", Sort::BitVec(8));
    let memory = s.store(base, p1, v);
    let memory = s.store(memory, p2, w);
    assert_eq!(s.select(memory, p1), v);
    assert_eq!(s.select(memory, p), s.select(base, p));
    let q = s.var("q", Sort::BitVec(32));
    let unknown = s.select(memory, q);
    assert_eq!(s.args(unknown), [memory, q], "an unrelated index may be equal");
}

#[test]
fn slices_distribute_over_small_choices_of_concatenations() {
    let mut s = TermStore::new();
    let [o1, o2] = ["o1", "o2"].map(|n| s.var(n, Sort::BitVec(8)));
    let [f1, f2] = ["f1", "f2"].map(|n| s.var(n, Sort::BitVec(56)));
    let p1 = s.concat(o1, f1);
    let p2 = s.concat(o2, f2);
    let c = s.var("c", Sort::Bool);
    let pointer = s.ite(c, p1, p2);
    let object = s.extract(63, 56, pointer);
    assert_eq!(object, s.ite(c, o1, o2));
    let x = s.var("x", Sort::BitVec(64));
    let opaque = s.ite(c, x, p1);
    let slice = s.extract(63, 56, opaque);
    assert_eq!(
        s.op(slice),
        Some(Op::Extract { hi: 63, lo: 56 }),
        "variables are not sliced through ite"
    );
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
    assert!(
        s.len() - before < 3 * n,
        "{} terms for {n} conjuncts",
        s.len() - before
    );
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
