//! Test support shared by the unit tests: a small deterministic PRNG (so
//! randomized tests are reproducible without external crates) and a random
//! generator of well-sorted expressions over small sorts, with a direct
//! evaluator that applies each operator without any rewriting.

use std::rc::Rc;

use crate::bv::BvValue;
use crate::eval::{eval_op, Model};
use crate::op::Op;
use crate::sort::{RoundingMode, Sort};
use crate::term::{TermId, TermStore};
use crate::value::{FpValue, Value};

/// SplitMix64: tiny, fast, and good enough to spread test cases.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0; the bias is irrelevant for tests).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Mostly random bits, often an edge value (0, 1, all ones, signed
    /// extremes), truncated to `width`.
    pub(crate) fn interesting_u128(&mut self, width: u32) -> u128 {
        let mask = if width >= 128 {
            u128::MAX
        } else {
            (1u128 << width) - 1
        };
        let raw = match self.below(8) {
            0 => 0,
            1 => 1,
            2 => u128::MAX,
            3 => 1u128 << (width - 1),
            4 => (1u128 << (width - 1)).wrapping_sub(1),
            _ => (self.next_u64() as u128) << 64 | self.next_u64() as u128,
        };
        raw & mask
    }
}

/// An expression tree evaluated without any rewriting.
pub(crate) enum Expr {
    Var(TermId),
    Const(Value),
    App(Op, Vec<Rc<Expr>>),
}

pub(crate) const FP_EXP: u32 = 3;
pub(crate) const FP_SIG: u32 = 3;
pub(crate) const FP_SORT: Sort = Sort::Float {
    exp: FP_EXP,
    sig: FP_SIG,
};
pub(crate) const ARRAY_INDEX_WIDTH: u32 = 2;
pub(crate) const ARRAY_ELEM_WIDTH: u32 = 3;
pub(crate) const MAX_WIDTH: u32 = 8;

pub(crate) struct Generator {
    pub(crate) rng: Rng,
    pub(crate) store: TermStore,
    pub(crate) array_sort: Sort,
    pub(crate) vars: Vec<TermId>,
    /// Previously generated expressions, reused to create sharing (x - x,
    /// x & ~x, ite(c, a, a), …) that the rewriter's rules look for.
    pub(crate) pool: Vec<(Sort, Rc<Expr>)>,
    /// The widths of the bit-vector variables (ascending), which random
    /// bit-vector sorts are drawn from.
    widths: Vec<u32>,
}

impl Generator {
    pub(crate) fn new(seed: u64) -> Generator {
        Generator::with_widths(seed, &(1..=MAX_WIDTH).collect::<Vec<_>>())
    }

    /// A generator whose bit-vectors also have the widths of C's integers
    /// and their neighbours, up to 128 bits.
    pub(crate) fn wide(seed: u64) -> Generator {
        let mut widths: Vec<u32> = (1..=MAX_WIDTH).collect();
        widths.extend([16, 31, 32, 33, 63, 64, 65, 127, 128]);
        Generator::with_widths(seed, &widths)
    }

    fn with_widths(seed: u64, widths: &[u32]) -> Generator {
        let mut store = TermStore::new();
        let array_sort = store.array_sort(
            Sort::BitVec(ARRAY_INDEX_WIDTH),
            Sort::BitVec(ARRAY_ELEM_WIDTH),
        );
        let mut vars = Vec::new();
        for i in 0..3 {
            vars.push(store.var(&format!("p{i}"), Sort::Bool));
        }
        for &w in widths {
            for i in 0..2 {
                vars.push(store.var(&format!("x{w}_{i}"), Sort::BitVec(w)));
            }
        }
        vars.push(store.var("a", array_sort));
        vars.push(store.var("f", FP_SORT));
        vars.push(store.var("g", FP_SORT));
        vars.push(store.var("r", Sort::RoundingMode));
        Generator {
            rng: Rng::new(seed),
            store,
            array_sort,
            vars,
            pool: Vec::new(),
            widths: widths.to_vec(),
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    pub(crate) fn random_value(&mut self, sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(self.chance(50)),
            Sort::BitVec(w) => Value::Bv(BvValue::from_u128(w, self.rng.interesting_u128(w))),
            Sort::Float { exp, sig } => Value::Fp(FpValue::from_bits(
                exp,
                sig,
                BvValue::from_u64(exp + sig, self.rng.next_u64()),
            )),
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
        let candidates: Vec<TermId> = self
            .vars
            .iter()
            .copied()
            .filter(|&v| self.store.sort(v) == sort)
            .collect();
        if !candidates.is_empty() && (self.chance(60) || matches!(sort, Sort::Array(_))) {
            return Rc::new(Expr::Var(
                candidates[self.rng.below(candidates.len() as u64) as usize],
            ));
        }
        if let Sort::Array(_) = sort {
            unreachable!("array variables exist");
        }
        Rc::new(Expr::Const(self.random_value(sort)))
    }

    /// Bool, a bit-vector, the array sort or the float sort.
    pub(crate) fn random_sort(&mut self) -> Sort {
        match self.rng.below(6) {
            0 | 1 => Sort::Bool,
            2 => self.array_sort,
            3 => FP_SORT,
            _ => Sort::BitVec(self.any_width()),
        }
    }

    pub(crate) fn any_width(&mut self) -> u32 {
        self.widths[self.rng.below(self.widths.len() as u64) as usize]
    }

    /// A random expression of `sort` at most `depth` operators deep.
    pub(crate) fn expr(&mut self, sort: Sort, depth: u32) -> Rc<Expr> {
        if self.chance(25) {
            let reusable: Vec<Rc<Expr>> = self
                .pool
                .iter()
                .filter(|(s, _)| *s == sort)
                .map(|(_, e)| e.clone())
                .collect();
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
        let mut args: Vec<Rc<Expr>> = arg_sorts.iter().map(|&s| self.expr(s, depth - 1)).collect();
        // Operands of one shape (concat vs concat, ite vs ite, …) are what
        // many rules look for; independent random operands rarely have it.
        let last = args.len().wrapping_sub(1);
        if args.len() >= 2 && arg_sorts[last] == arg_sorts[last - 1] && self.chance(40) {
            args[last] = self.sibling(&args[last - 1]);
        }
        let e = Rc::new(Expr::App(op, args));
        self.pool.push((sort, e.clone()));
        e
    }

    /// Mostly an expression with the operator of `e` whose operands are
    /// partly those of `e` and partly fresh leaves; sometimes just a leaf.
    fn sibling(&mut self, e: &Rc<Expr>) -> Rc<Expr> {
        let Expr::App(op, args) = e.as_ref() else {
            return self.leaf(self.sort_of(e));
        };
        if self.chance(25) {
            return self.leaf(self.sort_of(e));
        }
        let args = args
            .iter()
            .map(|a| {
                if self.chance(50) {
                    a.clone()
                } else {
                    self.leaf(self.sort_of(a))
                }
            })
            .collect();
        Rc::new(Expr::App(*op, args))
    }

    pub(crate) fn sort_of(&self, e: &Expr) -> Sort {
        match e {
            Expr::Var(t) => self.store.sort(*t),
            Expr::Const(v) => v.sort(),
            Expr::App(op, args) => {
                let arg_sorts: Vec<Sort> = args.iter().map(|a| self.sort_of(a)).collect();
                crate::op::result_sort(*op, &arg_sorts, self.store.sorts())
                    .expect("generated terms are well sorted")
            }
        }
    }

    fn bool_op(&mut self) -> (Op, Vec<Sort>) {
        use Op::*;
        let w = Sort::BitVec(self.any_width());
        let b = Sort::Bool;
        match self.rng.below(14) {
            0 => (Not, vec![b]),
            1 => {
                let op = [And, Or][self.rng.below(2) as usize];
                (op, vec![b; self.rng.below(5) as usize])
            }
            2 => ([Xor, Implies][self.rng.below(2) as usize], vec![b, b]),
            3 => (Ite, vec![b, b, b]),
            4 | 12 | 13 => {
                let s = [b, w, w, self.array_sort, FP_SORT][self.rng.below(5) as usize];
                let op = [Eq, Distinct][self.rng.below(2) as usize];
                (op, vec![s; 2 + self.chance(30) as usize])
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
                let ops = [
                    FpIsNaN,
                    FpIsInfinite,
                    FpIsZero,
                    FpIsNormal,
                    FpIsSubnormal,
                    FpIsNegative,
                    FpIsPositive,
                ];
                (
                    ops[self.rng.below(ops.len() as u64) as usize],
                    vec![FP_SORT],
                )
            }
            _ => {
                let ops = [FpEq, FpLt, FpLeq, FpGt, FpGeq];
                (
                    ops[self.rng.below(ops.len() as u64) as usize],
                    vec![FP_SORT, FP_SORT],
                )
            }
        }
    }

    fn bv_op(&mut self, w: u32) -> (Op, Vec<Sort>) {
        use Op::*;
        let s = Sort::BitVec(w);
        let widest = self.widths.last().copied().unwrap_or(w).max(w);
        let wider = w + self.rng.below((widest + 1 - w) as u64) as u32;
        match self.rng.below(14) {
            0 => ([BvNot, BvNeg][self.rng.below(2) as usize], vec![s]),
            1..=4 => {
                let ops = [
                    BvAnd, BvOr, BvXor, BvAdd, BvSub, BvMul, BvUdiv, BvUrem, BvSdiv, BvSrem,
                    BvSmod, BvShl, BvLshr, BvAshr,
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
                let op =
                    [ZeroExtend(w - narrow), SignExtend(w - narrow)][self.rng.below(2) as usize];
                (op, vec![Sort::BitVec(narrow)])
            }
            9 => {
                let k = self.rng.below(2 * w as u64) as u32;
                (
                    [RotateLeft(k), RotateRight(k)][self.rng.below(2) as usize],
                    vec![s],
                )
            }
            10 if w == ARRAY_ELEM_WIDTH => (
                Select,
                vec![self.array_sort, Sort::BitVec(ARRAY_INDEX_WIDTH)],
            ),
            11 if w == FP_EXP + FP_SIG => (FpToBits, vec![FP_SORT]),
            12 | 13 => (
                [FpToSbv(w), FpToUbv(w)][self.rng.below(2) as usize],
                vec![Sort::RoundingMode, FP_SORT],
            ),
            _ => (BvAdd, vec![s, s]),
        }
    }

    fn array_op(&mut self) -> (Op, Vec<Sort>) {
        let (index, elem) = (
            Sort::BitVec(ARRAY_INDEX_WIDTH),
            Sort::BitVec(ARRAY_ELEM_WIDTH),
        );
        match self.rng.below(4) {
            0 | 1 => (Op::Store, vec![self.array_sort, index, elem]),
            2 => (Op::ConstArray(self.array_sort), vec![elem]),
            _ => (Op::Ite, vec![Sort::Bool, self.array_sort, self.array_sort]),
        }
    }

    fn fp_op(&mut self) -> (Op, Vec<Sort>) {
        use Op::*;
        let (rm, f) = (Sort::RoundingMode, FP_SORT);
        let int = Sort::BitVec(self.any_width());
        let (exp, sig) = (FP_EXP, FP_SIG);
        let choices = [
            (FpNeg, vec![f]),
            (FpAbs, vec![f]),
            (FpFromBits { exp, sig }, vec![Sort::BitVec(exp + sig)]),
            (Ite, vec![Sort::Bool, f, f]),
            (FpAdd, vec![rm, f, f]),
            (FpSub, vec![rm, f, f]),
            (FpMul, vec![rm, f, f]),
            (FpDiv, vec![rm, f, f]),
            (FpFma, vec![rm, f, f, f]),
            (FpSqrt, vec![rm, f]),
            (FpRem, vec![f, f]),
            (FpRoundToIntegral, vec![rm, f]),
            (ToFp { exp, sig }, vec![rm, f]),
            (ToFpFromSbv { exp, sig }, vec![rm, int]),
            (ToFpFromUbv { exp, sig }, vec![rm, int]),
            (FpMin, vec![f, f]),
            (FpMax, vec![f, f]),
        ];
        choices[self.rng.below(choices.len() as u64) as usize].clone()
    }

    /// Builds `e` in the store, bottom-up through the rewriting `app`.
    pub(crate) fn build(&mut self, e: &Expr) -> TermId {
        match e {
            Expr::Var(t) => *t,
            Expr::Const(v) => self.store.constant(v.clone()),
            Expr::App(op, args) => {
                let args: Vec<TermId> = args.iter().map(|a| self.build(a)).collect();
                self.store
                    .app(*op, &args)
                    .expect("generator builds well-sorted terms")
            }
        }
    }

    pub(crate) fn random_model(&mut self) -> Model {
        let mut model = Model::new();
        for v in self.vars.clone() {
            let value = self.random_value(self.store.sort(v));
            model.set(self.store.as_var(v).unwrap(), value);
        }
        model
    }
}

/// Direct evaluation: each operator applied by `eval_op`, nothing rewritten.
pub(crate) fn naive_eval(e: &Expr, store: &TermStore, model: &Model) -> Value {
    match e {
        Expr::Var(t) => model.get(store.as_var(*t).unwrap()).unwrap().clone(),
        Expr::Const(v) => v.clone(),
        Expr::App(op, args) => {
            let values: Vec<Value> = args.iter().map(|a| naive_eval(a, store, model)).collect();
            eval_op(*op, &values.iter().collect::<Vec<_>>(), store.sorts())
                .expect("every generated operator has a semantics")
        }
    }
}

pub(crate) fn semantically_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            x.extensionally_equal(y, Some(1 << ARRAY_INDEX_WIDTH))
        }
        _ => a == b,
    }
}
