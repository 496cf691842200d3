//! Soundness of the rewriter: random terms over small sorts, built through
//! the rewriting store, must evaluate exactly like the same expression
//! evaluated directly operator by operator (no rewriting) under many random
//! assignments. Plus targeted checks that rules fire and that long chains
//! neither recurse nor grow quadratically.

use std::rc::Rc;

use super::*;
use crate::eval::{eval, Model};
use crate::sort::RoundingMode;
use crate::testing::Rng;
use crate::value::FpValue;

/// An expression tree evaluated without any rewriting.
enum Expr {
    Var(TermId),
    Const(Value),
    App(Op, Vec<Rc<Expr>>),
}

const FP_EXP: u32 = 3;
const FP_SIG: u32 = 3;
const FP_SORT: Sort = Sort::Float { exp: FP_EXP, sig: FP_SIG };
const ARRAY_INDEX_WIDTH: u32 = 2;
const ARRAY_ELEM_WIDTH: u32 = 3;
const MAX_WIDTH: u32 = 8;

struct Generator {
    rng: Rng,
    store: TermStore,
    array_sort: Sort,
    vars: Vec<TermId>,
    /// Previously generated expressions, reused to create sharing (x - x,
    /// x & ~x, ite(c, a, a), …) that the rewriter's rules look for.
    pool: Vec<(Sort, Rc<Expr>)>,
}

impl Generator {
    fn new(seed: u64) -> Generator {
        let mut store = TermStore::new();
        let array_sort = store.array_sort(Sort::BitVec(ARRAY_INDEX_WIDTH), Sort::BitVec(ARRAY_ELEM_WIDTH));
        let mut vars = Vec::new();
        for i in 0..3 {
            vars.push(store.var(&format!("p{i}"), Sort::Bool));
        }
        for w in 1..=MAX_WIDTH {
            for i in 0..2 {
                vars.push(store.var(&format!("x{w}_{i}"), Sort::BitVec(w)));
            }
        }
        vars.push(store.var("a", array_sort));
        vars.push(store.var("f", FP_SORT));
        vars.push(store.var("g", FP_SORT));
        Generator { rng: Rng::new(seed), store, array_sort, vars, pool: Vec::new() }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    fn random_value(&mut self, sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(self.chance(50)),
            Sort::BitVec(w) => Value::Bv(BvValue::from_u128(w, self.rng.interesting_u128(w))),
            Sort::Float { exp, sig } => {
                Value::Fp(FpValue::from_bits(exp, sig, BvValue::from_u64(exp + sig, self.rng.next_u64())))
            }
            Sort::RoundingMode => Value::Rm(RoundingMode::ALL[self.rng.below(5) as usize]),
            Sort::Array(_) => {
                let elem = Sort::BitVec(ARRAY_ELEM_WIDTH);
                let mut array = crate::value::ArrayValue::constant(sort, self.random_value(elem));
                for _ in 0..self.rng.below(3) {
                    let index = self.random_value(Sort::BitVec(ARRAY_INDEX_WIDTH));
                    array = array.store(index, self.random_value(elem));
                }
                Value::Array(std::sync::Arc::new(array))
            }
        }
    }

    fn leaf(&mut self, sort: Sort) -> Rc<Expr> {
        let candidates: Vec<TermId> = self.vars.iter().copied().filter(|&v| self.store.sort(v) == sort).collect();
        if !candidates.is_empty() && (self.chance(60) || matches!(sort, Sort::Array(_))) {
            return Rc::new(Expr::Var(candidates[self.rng.below(candidates.len() as u64) as usize]));
        }
        if let Sort::Array(_) = sort {
            unreachable!("array variables exist");
        }
        Rc::new(Expr::Const(self.random_value(sort)))
    }

    fn any_width(&mut self) -> u32 {
        1 + self.rng.below(MAX_WIDTH as u64) as u32
    }

    /// A random expression of `sort` at most `depth` operators deep.
    fn expr(&mut self, sort: Sort, depth: u32) -> Rc<Expr> {
        if self.chance(25) {
            let reusable: Vec<Rc<Expr>> = self.pool.iter().filter(|(s, _)| *s == sort).map(|(_, e)| e.clone()).collect();
            if !reusable.is_empty() {
                return reusable[self.rng.below(reusable.len() as u64) as usize].clone();
            }
        }
        if depth == 0 || self.chance(20) {
            return self.leaf(sort);
        }
        let (op, arg_sorts) = match sort {
            Sort::Bool => self.bool_op(),
            Sort::BitVec(w) => self.bv_op(w),
            Sort::Array(_) => self.array_op(),
            Sort::Float { .. } => self.fp_op(),
            Sort::RoundingMode => return self.leaf(sort),
        };
        let args = arg_sorts.into_iter().map(|s| self.expr(s, depth - 1)).collect();
        let e = Rc::new(Expr::App(op, args));
        self.pool.push((sort, e.clone()));
        e
    }

    fn bool_op(&mut self) -> (Op, Vec<Sort>) {
        use Op::*;
        let w = Sort::BitVec(self.any_width());
        let b = Sort::Bool;
        match self.rng.below(12) {
            0 => (Not, vec![b]),
            1 => {
                let op = [And, Or][self.rng.below(2) as usize];
                (op, vec![b; self.rng.below(5) as usize])
            }
            2 => ([Xor, Implies][self.rng.below(2) as usize], vec![b, b]),
            3 => (Ite, vec![b, b, b]),
            4 => {
                let s = [b, w, self.array_sort, FP_SORT][self.rng.below(4) as usize];
                let op = [Eq, Distinct][self.rng.below(2) as usize];
                (op, vec![s; 2 + (op == Distinct && self.chance(50)) as usize])
            }
            5..=7 => {
                let ops = [BvUlt, BvUle, BvUgt, BvUge, BvSlt, BvSle, BvSgt, BvSge];
                (ops[self.rng.below(ops.len() as u64) as usize], vec![w, w])
            }
            8 | 9 => {
                let ops = [
                    BvUaddOverflow,
                    BvSaddOverflow,
                    BvUsubOverflow,
                    BvSsubOverflow,
                    BvUmulOverflow,
                    BvSmulOverflow,
                    BvSdivOverflow,
                ];
                (ops[self.rng.below(ops.len() as u64) as usize], vec![w, w])
            }
            10 => {
                let ops = [FpIsNaN, FpIsInfinite, FpIsZero, FpIsNormal, FpIsSubnormal, FpIsNegative, FpIsPositive];
                (ops[self.rng.below(ops.len() as u64) as usize], vec![FP_SORT])
            }
            _ => {
                let ops = [FpEq, FpLt, FpLeq, FpGt, FpGeq];
                (ops[self.rng.below(ops.len() as u64) as usize], vec![FP_SORT, FP_SORT])
            }
        }
    }

    fn bv_op(&mut self, w: u32) -> (Op, Vec<Sort>) {
        use Op::*;
        let s = Sort::BitVec(w);
        let wider = w + self.rng.below((MAX_WIDTH + 1 - w) as u64) as u32;
        match self.rng.below(12) {
            0 => ([BvNot, BvNeg][self.rng.below(2) as usize], vec![s]),
            1..=4 => {
                let ops = [
                    BvAnd, BvOr, BvXor, BvAdd, BvSub, BvMul, BvUdiv, BvUrem, BvSdiv, BvSrem, BvSmod, BvShl, BvLshr,
                    BvAshr,
                ];
                (ops[self.rng.below(ops.len() as u64) as usize], vec![s, s])
            }
            5 => (Ite, vec![Sort::Bool, s, s]),
            6 if w >= 2 => {
                let high = 1 + self.rng.below((w - 1) as u64) as u32;
                (Concat, vec![Sort::BitVec(high), Sort::BitVec(w - high)])
            }
            7 => {
                let lo = self.rng.below((wider - w + 1) as u64) as u32;
                (Extract { hi: lo + w - 1, lo }, vec![Sort::BitVec(wider)])
            }
            8 if w >= 2 => {
                let narrow = 1 + self.rng.below((w - 1) as u64) as u32;
                let op = [ZeroExtend(w - narrow), SignExtend(w - narrow)][self.rng.below(2) as usize];
                (op, vec![Sort::BitVec(narrow)])
            }
            9 => {
                let k = self.rng.below(2 * w as u64) as u32;
                ([RotateLeft(k), RotateRight(k)][self.rng.below(2) as usize], vec![s])
            }
            10 if w == ARRAY_ELEM_WIDTH => (Select, vec![self.array_sort, Sort::BitVec(ARRAY_INDEX_WIDTH)]),
            11 if w == FP_EXP + FP_SIG => (FpToBits, vec![FP_SORT]),
            _ => (BvAdd, vec![s, s]),
        }
    }

    fn array_op(&mut self) -> (Op, Vec<Sort>) {
        let (index, elem) = (Sort::BitVec(ARRAY_INDEX_WIDTH), Sort::BitVec(ARRAY_ELEM_WIDTH));
        match self.rng.below(4) {
            0 | 1 => (Op::Store, vec![self.array_sort, index, elem]),
            2 => (Op::ConstArray(self.array_sort), vec![elem]),
            _ => (Op::Ite, vec![Sort::Bool, self.array_sort, self.array_sort]),
        }
    }

    fn fp_op(&mut self) -> (Op, Vec<Sort>) {
        match self.rng.below(4) {
            0 => (Op::FpNeg, vec![FP_SORT]),
            1 => (Op::FpAbs, vec![FP_SORT]),
            2 => (Op::FpFromBits { exp: FP_EXP, sig: FP_SIG }, vec![Sort::BitVec(FP_EXP + FP_SIG)]),
            _ => (Op::Ite, vec![Sort::Bool, FP_SORT, FP_SORT]),
        }
    }

    /// Builds `e` in the store, bottom-up through the rewriting `app`.
    fn build(&mut self, e: &Expr) -> TermId {
        match e {
            Expr::Var(t) => *t,
            Expr::Const(v) => self.store.constant(v.clone()),
            Expr::App(op, args) => {
                let args: Vec<TermId> = args.iter().map(|a| self.build(a)).collect();
                self.store.app(*op, &args).expect("generator builds well-sorted terms")
            }
        }
    }

    fn random_model(&mut self) -> Model {
        let mut model = Model::new();
        for v in self.vars.clone() {
            let value = self.random_value(self.store.sort(v));
            model.set(self.store.as_var(v).unwrap(), value);
        }
        model
    }
}

/// Direct evaluation: each operator applied by `eval_op`, nothing rewritten.
fn naive_eval(e: &Expr, store: &TermStore, model: &Model) -> Value {
    match e {
        Expr::Var(t) => model.get(store.as_var(*t).unwrap()).unwrap().clone(),
        Expr::Const(v) => v.clone(),
        Expr::App(op, args) => {
            let values: Vec<Value> = args.iter().map(|a| naive_eval(a, store, model)).collect();
            eval_op(*op, &values, store.sorts()).expect("every generated operator has a semantics")
        }
    }
}

fn semantically_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => x.extensionally_equal(y, Some(1 << ARRAY_INDEX_WIDTH)),
        _ => a == b,
    }
}

#[test]
fn rewritten_terms_evaluate_like_the_original_expressions() {
    let mut generator = Generator::new(7);
    let sorts_to_try = |g: &mut Generator| match g.rng.below(6) {
        0 | 1 => Sort::Bool,
        2 => g.array_sort,
        3 => FP_SORT,
        _ => Sort::BitVec(g.any_width()),
    };
    for case in 0..4000 {
        if case % 200 == 0 {
            generator.pool.clear();
        }
        let sort = sorts_to_try(&mut generator);
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
