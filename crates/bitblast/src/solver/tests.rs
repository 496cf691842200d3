//! The bit-blasting solver checked against the term evaluator: random
//! bit-vector terms of widths 1..128 over every operator, models validated
//! by evaluation, `Unsat` answers on tiny inputs confirmed exhaustively;
//! plus arrays, incremental use, approximations and limits.

use std::collections::BTreeMap;
use std::time::Duration;

use smt::{BvValue, Op, Sort};

use super::*;
use crate::testing::Rng;

/// Builds random well-sorted terms over a few variables.
struct TermGen<'s> {
    store: &'s mut TermStore,
    rng: Rng,
    by_width: BTreeMap<u32, Vec<TermId>>,
    bools: Vec<TermId>,
    vars: Vec<TermId>,
}

const BINARY_OPS: [Op; 14] = [
    Op::BvAnd,
    Op::BvOr,
    Op::BvXor,
    Op::BvAdd,
    Op::BvSub,
    Op::BvMul,
    Op::BvUdiv,
    Op::BvUrem,
    Op::BvSdiv,
    Op::BvSrem,
    Op::BvSmod,
    Op::BvShl,
    Op::BvLshr,
    Op::BvAshr,
];

const PREDICATES: [Op; 17] = [
    Op::Eq,
    Op::Distinct,
    Op::BvUlt,
    Op::BvUle,
    Op::BvUgt,
    Op::BvUge,
    Op::BvSlt,
    Op::BvSle,
    Op::BvSgt,
    Op::BvSge,
    Op::BvUaddOverflow,
    Op::BvSaddOverflow,
    Op::BvUsubOverflow,
    Op::BvSsubOverflow,
    Op::BvUmulOverflow,
    Op::BvSmulOverflow,
    Op::BvSdivOverflow,
];

impl<'s> TermGen<'s> {
    fn new(store: &'s mut TermStore, seed: u64, var_widths: &[u32]) -> TermGen<'s> {
        let mut gen =
            TermGen { store, rng: Rng::new(seed), by_width: BTreeMap::new(), bools: Vec::new(), vars: Vec::new() };
        for (i, &w) in var_widths.iter().enumerate() {
            let var = gen.store.var(&format!("x{i}"), Sort::BitVec(w));
            gen.vars.push(var);
            gen.add(var);
        }
        gen
    }

    fn add(&mut self, t: TermId) {
        match self.store.sort(t) {
            Sort::Bool => self.bools.push(t),
            Sort::BitVec(w) => self.by_width.entry(w).or_default().push(t),
            other => panic!("unexpected sort {other:?}"),
        }
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.below(items.len())]
    }

    fn any_width(&mut self) -> u32 {
        let widths: Vec<u32> = self.by_width.keys().copied().collect();
        self.pick(&widths)
    }

    fn of_width(&mut self, w: u32) -> TermId {
        let terms = self.by_width[&w].clone();
        self.pick(&terms)
    }

    fn constant(&mut self, w: u32) -> TermId {
        let value = self.rng.edgy_value(w as usize);
        self.store.bv_const(BvValue::from_u128(w, value))
    }

    /// One new random term (it may coincide with an existing one).
    fn grow(&mut self) -> TermId {
        let w = self.any_width();
        let a = self.of_width(w);
        let b = if self.rng.below(4) == 0 { self.constant(w) } else { self.of_width(w) };
        let t = match self.rng.below(12) {
            0..=3 => {
                let op = self.pick(&BINARY_OPS);
                self.store.mk(op, &[a, b])
            }
            4 => {
                let op = self.pick(&[Op::BvNot, Op::BvNeg]);
                self.store.mk(op, &[a])
            }
            5 => {
                let amount = self.rng.below(w as usize + 2) as u32;
                let op = self.pick(&[Op::RotateLeft(amount), Op::RotateRight(amount)]);
                self.store.mk(op, &[a])
            }
            6 => {
                let lo = self.rng.below(w as usize) as u32;
                let hi = lo + self.rng.below((w - lo) as usize) as u32;
                self.store.extract(hi, lo, a)
            }
            7 => {
                let other = self.any_width();
                let c = self.of_width(other);
                if w + other <= 128 {
                    self.store.concat(a, c)
                } else {
                    self.store.bv_xor(a, b)
                }
            }
            8 => {
                let extra = self.rng.below((128 - w as usize).min(40) + 1) as u32;
                let op = self.pick(&[Op::ZeroExtend(extra), Op::SignExtend(extra)]);
                self.store.mk(op, &[a])
            }
            9 => {
                let cond = self.boolean();
                self.store.ite(cond, a, b)
            }
            _ => self.boolean(),
        };
        self.add(t);
        t
    }

    /// A random Boolean term over the existing terms.
    fn boolean(&mut self) -> TermId {
        if self.bools.len() >= 2 && self.rng.below(3) == 0 {
            let p = self.pick(&self.bools.clone());
            let q = self.pick(&self.bools.clone());
            return match self.rng.below(5) {
                0 => self.store.and2(p, q),
                1 => self.store.or2(p, q),
                2 => self.store.xor(p, q),
                3 => self.store.not(p),
                _ => {
                    let r = self.pick(&self.bools.clone());
                    self.store.ite(p, q, r)
                }
            };
        }
        let w = self.any_width();
        let a = self.of_width(w);
        let b = self.of_width(w);
        let op = self.pick(&PREDICATES);
        self.store.mk(op, &[a, b])
    }
}

fn bv_value(t: TermId, store: &TermStore, value: u128) -> Value {
    Value::Bv(BvValue::from_u128(store.sort(t).bv_width().expect("bit-vector"), value))
}

/// Every operator's circuit, checked at random inputs: each generated term
/// is defined equal to a fresh variable, the inputs are fixed by
/// assumptions, and the variable's model value must be the evaluator's
/// value of the term.
#[test]
fn random_terms_match_the_evaluator() {
    let widths = [1, 3, 8, 13, 32, 64, 100, 128];
    for round in 0..12u64 {
        let mut store = TermStore::new();
        let mut gen = TermGen::new(&mut store, round, &widths);
        let terms: Vec<TermId> = (0..60).map(|_| gen.grow()).collect();
        let vars = gen.vars.clone();
        let mut rng = Rng::new(1000 + round);
        let mut solver = BitBlastSolver::new();
        let mut defined = Vec::new();
        for &t in &terms {
            let copy = store.var("copy", store.sort(t));
            let definition = store.eq(copy, t);
            solver.assert(&store, definition);
            defined.push((t, copy));
        }
        let mut inputs = Model::new();
        let mut assumptions = Vec::new();
        for &x in &vars {
            let value = bv_value(x, &store, rng.edgy_value(store.sort(x).bv_width().unwrap() as usize));
            let constant = store.constant(value.clone());
            assumptions.push(store.eq(x, constant));
            inputs.set(store.as_var(x).unwrap(), value);
        }
        assert_eq!(solver.check(&store, &assumptions), SatResult::Sat, "round {round}");
        for (t, copy) in defined {
            let want = eval(&store, t, &inputs).unwrap();
            let got = solver.model_value(&store, copy).unwrap();
            assert_eq!(got, want, "round {round}: term {:?} = {}", store.op(t), smt::to_smtlib2(&store, &[t], "QF_BV"));
        }
    }
}

/// Satisfiability of random formulas over four input bits: models must
/// satisfy the formula, and `Unsat` must survive exhaustive enumeration.
#[test]
fn random_formulas_agree_with_exhaustive_evaluation() {
    let mut unsat_seen = 0;
    for round in 0..150u64 {
        let mut store = TermStore::new();
        let mut gen = TermGen::new(&mut store, round, &[2, 2]);
        for _ in 0..12 {
            gen.grow();
        }
        let parts: Vec<TermId> = (0..3).map(|_| gen.boolean()).collect();
        let vars = gen.vars.clone();
        let formula = store.and(&parts);
        let mut solver = BitBlastSolver::new();
        solver.assert(&store, formula);
        match solver.check(&store, &[]) {
            SatResult::Sat => {
                let model = solver.model(&store);
                assert_eq!(eval(&store, formula, &model), Ok(Value::Bool(true)), "round {round}");
            }
            SatResult::Unsat => {
                unsat_seen += 1;
                for bits in 0..16u128 {
                    let mut model = Model::new();
                    model.set(store.as_var(vars[0]).unwrap(), bv_value(vars[0], &store, bits & 3));
                    model.set(store.as_var(vars[1]).unwrap(), bv_value(vars[1], &store, bits >> 2));
                    assert_eq!(eval(&store, formula, &model), Ok(Value::Bool(false)), "round {round}, bits {bits}");
                }
            }
            SatResult::Unknown(reason) => panic!("round {round}: unknown ({reason})"),
        }
    }
    assert!(unsat_seen > 5, "the generator must produce unsatisfiable formulas too ({unsat_seen})");
}

#[test]
fn incremental_assertions_and_assumptions() {
    let mut store = TermStore::new();
    let x = store.var("x", Sort::BitVec(16));
    let y = store.var("y", Sort::BitVec(16));
    let product = store.bv_mul(x, y);
    let target = store.bv_u64(16, 391); // 17 * 23
    let is_product = store.eq(product, target);
    let one = store.bv_u64(16, 1);
    let limit = store.bv_u64(16, 256);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, is_product);
    for bound in [x, y] {
        let above_one = store.bv_ult(one, bound);
        let small = store.bv_ult(bound, limit);
        solver.assert(&store, above_one);
        solver.assert(&store, small);
    }
    assert_eq!(solver.check(&store, &[]), SatResult::Sat);
    let value_of = |solver: &mut BitBlastSolver, store: &TermStore, t| {
        solver.model_value(store, t).unwrap().as_bv().unwrap().to_u64().unwrap()
    };
    let (vx, vy) = (value_of(&mut solver, &store, x), value_of(&mut solver, &store, y));
    assert_eq!((vx * vy) % 65536, 391);

    let seventeen = store.bv_u64(16, 17);
    let x_is_17 = store.eq(x, seventeen);
    let not_17 = store.not(x_is_17);
    assert_eq!(solver.check(&store, &[x_is_17]), SatResult::Sat);
    assert_eq!(value_of(&mut solver, &store, y), 23);
    assert_eq!(solver.check(&store, &[not_17]), SatResult::Sat);
    assert_eq!(value_of(&mut solver, &store, x), 23);

    let twenty_three = store.bv_u64(16, 23);
    let x_is_23 = store.eq(x, twenty_three);
    let not_23 = store.not(x_is_23);
    assert_eq!(solver.check(&store, &[not_17, not_23]), SatResult::Unsat);
    solver.assert(&store, not_23);
    assert_eq!(solver.check(&store, &[]), SatResult::Sat, "assumptions must not persist");
    assert_eq!(value_of(&mut solver, &store, x), 17);
    solver.assert(&store, not_17);
    assert_eq!(solver.check(&store, &[]), SatResult::Unsat);
    assert!(solver.model_value(&store, x).is_err(), "no model after unsat");
}

fn array_setup(store: &mut TermStore, index_width: u32) -> (TermId, TermId, TermId, TermId) {
    let sort = store.array_sort(Sort::BitVec(index_width), Sort::BitVec(8));
    let a = store.var("a", sort);
    let i = store.var("i", Sort::BitVec(index_width));
    let j = store.var("j", Sort::BitVec(index_width));
    let v = store.var("v", Sort::BitVec(8));
    (a, i, j, v)
}

fn check_formula(store: &TermStore, formula: TermId) -> (SatResult, BitBlastSolver) {
    let mut solver = BitBlastSolver::new();
    solver.assert(store, formula);
    let result = solver.check(store, &[]);
    if result == SatResult::Sat {
        let model = solver.model(store);
        assert_eq!(eval(store, formula, &model), Ok(Value::Bool(true)), "model must satisfy the formula");
    }
    (result, solver)
}

#[test]
fn array_axioms_hold() {
    let mut store = TermStore::new();
    let (a, i, j, v) = array_setup(&mut store, 32);
    // Read over write at the written index.
    let written = store.store(a, i, v);
    let read_back = store.select(written, j);
    let same_index = store.eq(i, j);
    let differs = store.eq(read_back, v);
    let differs = store.not(differs);
    let formula = store.and(&[same_index, differs]);
    assert_eq!(check_formula(&store, formula).0, SatResult::Unsat);
    // Read over write elsewhere.
    let old = store.select(a, j);
    let changed = store.eq(read_back, old);
    let changed = store.not(changed);
    let other_index = store.not(same_index);
    let formula = store.and(&[other_index, changed]);
    assert_eq!(check_formula(&store, formula).0, SatResult::Unsat);
    // Congruence of reads of a variable.
    let at_i = store.select(a, i);
    let reads_differ = store.eq(at_i, old);
    let reads_differ = store.not(reads_differ);
    let formula = store.and(&[same_index, reads_differ]);
    assert_eq!(check_formula(&store, formula).0, SatResult::Unsat);
    // And satisfiable variants produce models the evaluator accepts.
    let formula = store.and(&[other_index, reads_differ]);
    assert_eq!(check_formula(&store, formula).0, SatResult::Sat);
}

#[test]
fn array_reads_added_between_checks_stay_consistent() {
    let mut store = TermStore::new();
    let (a, i, j, _) = array_setup(&mut store, 16);
    let (five, six) = (store.bv_u64(8, 5), store.bv_u64(8, 6));
    let at_i = store.select(a, i);
    let first = store.eq(at_i, five);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, first);
    assert_eq!(solver.check(&store, &[]), SatResult::Sat);
    // A read created after the first check must still agree with the old one.
    let at_j = store.select(a, j);
    let second = store.eq(at_j, six);
    solver.assert(&store, second);
    let same_index = store.eq(i, j);
    assert_eq!(solver.check(&store, &[same_index]), SatResult::Unsat);
    assert_eq!(solver.check(&store, &[]), SatResult::Sat);
    let model = solver.model(&store);
    let both = store.and2(first, second);
    assert_eq!(eval(&store, both, &model), Ok(Value::Bool(true)));
    assert_ne!(solver.model_value(&store, i), solver.model_value(&store, j));
}

#[test]
fn random_array_formulas_have_valid_models() {
    let mut sat_seen = 0;
    for round in 0..60u64 {
        let mut rng = Rng::new(round);
        let mut store = TermStore::new();
        let (a, i, j, v) = array_setup(&mut store, 3);
        let zero = store.bv_u64(8, 0);
        let sort = store.sort(a);
        let zeros = store.const_array(sort, zero);
        let one = store.bv_u64(3, 1);
        let two = store.bv_u64(3, 2);
        let (i_plus_1, j_plus_2, i_minus_1) = (store.bv_add(i, one), store.bv_add(j, two), store.bv_sub(i, one));
        let indices = [i, j, one, store.bv_u64(3, 6), i_plus_1, j_plus_2, i_minus_1];
        let values = [v, zero, store.bv_u64(8, 7)];
        let mut arrays = vec![a, zeros];
        for _ in 0..6 {
            let base = arrays[rng.below(arrays.len())];
            let next = if rng.below(4) == 0 {
                let other = arrays[rng.below(arrays.len())];
                let cond = store.bv_ult(i, j);
                store.ite(cond, base, other)
            } else {
                store.store(base, indices[rng.below(indices.len())], values[rng.below(3)])
            };
            arrays.push(next);
        }
        let mut facts = Vec::new();
        for _ in 0..3 {
            let left = store.select(arrays[rng.below(arrays.len())], indices[rng.below(indices.len())]);
            let right = store.select(arrays[rng.below(arrays.len())], indices[rng.below(indices.len())]);
            let equal = store.eq(left, right);
            facts.push(if rng.below(2) == 0 { equal } else { store.not(equal) });
        }
        let formula = store.and(&facts);
        if check_formula(&store, formula).0 == SatResult::Sat {
            sat_seen += 1;
        }
    }
    assert!(sat_seen > 10, "most random array formulas are satisfiable ({sat_seen})");
}

#[test]
fn same_base_addresses_compare_for_free() {
    let mut store = TermStore::new();
    let (a, p, _, v) = array_setup(&mut store, 64);
    let mut array = a;
    for k in 0..10 {
        let offset = store.bv_u64(64, k);
        let address = store.bv_add(p, offset);
        array = store.store(array, address, v);
    }
    let five = store.bv_u64(64, 5);
    let address = store.bv_add(p, five);
    let read = store.select(array, address);
    let equal = store.eq(read, v);
    let differs = store.not(equal);
    let (result, solver) = check_formula(&store, differs);
    assert_eq!(result, SatResult::Unsat);
    // The adders are built, but the answer needs none of them.
    assert!(solver.stats().cnf_clauses < 10, "offsets of one base are constants: {}", solver.stats());
}

#[test]
fn reads_at_distinct_constant_indices_cost_no_constraints() {
    let mut store = TermStore::new();
    let (a, i, _, _) = array_setup(&mut store, 64);
    let mut facts = Vec::new();
    for k in 0..200 {
        let index = store.bv_u64(64, k);
        let read = store.select(a, index);
        let value = store.bv_u64(8, k % 7);
        facts.push(store.eq(read, value));
    }
    // One symbolic read is tied to every constant one.
    let at_i = store.select(a, i);
    let nine = store.bv_u64(8, 9);
    facts.push(store.eq(at_i, nine));
    let formula = store.and(&facts);
    let (result, solver) = check_formula(&store, formula);
    assert_eq!(result, SatResult::Sat);
    let stats = solver.stats();
    assert_eq!(stats.ackermann_constraints, 200, "only the symbolic read needs constraints: {stats}");
    assert!(stats.aig_ands < 100_000, "200 constant reads stay linear: {stats}");
}

#[test]
fn wide_array_indices_stay_small() {
    let mut store = TermStore::new();
    let (a, i, j, v) = array_setup(&mut store, 64);
    let mut array = a;
    for k in 0..10 {
        let offset = store.bv_u64(64, k);
        let index = store.bv_add(i, offset);
        array = store.store(array, index, v);
    }
    let read = store.select(array, j);
    let seven = store.bv_u64(8, 7);
    let formula = store.eq(read, seven);
    let (result, solver) = check_formula(&store, formula);
    assert_eq!(result, SatResult::Sat);
    let stats = solver.stats();
    assert!(stats.aig_ands < 20_000, "10 stores over 64-bit indices: {stats}");
    assert_eq!(stats.array_reads, 1);
}

#[test]
fn float_arithmetic_is_approximated_soundly() {
    let mut store = TermStore::new();
    let x = store.var("x", Sort::Float { exp: 15, sig: 113 });
    // Binary128 remainders have no exact circuit: a NaN remainder of two
    // ordinary numbers is impossible, but only the evaluator knows.
    let one = store.fp_const(smt::FpValue::from_bits(15, 113, BvValue::from_u128(128, 0x3FFF << 112)));
    let remainder = store.mk(Op::FpRem, &[x, one]);
    let is_nan = store.mk(Op::FpIsNaN, &[remainder]);
    let x_nan = store.mk(Op::FpIsNaN, &[x]);
    let x_infinite = store.mk(Op::FpIsInfinite, &[x]);
    let x_special = store.mk(Op::Or, &[x_nan, x_infinite]);
    let x_ordinary = store.mk(Op::Not, &[x_special]);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, is_nan);
    solver.assert(&store, x_ordinary);
    match solver.check(&store, &[]) {
        SatResult::Unknown(reason) => assert!(reason.contains("floating point"), "{reason}"),
        other => panic!("an approximated model must not be reported: {other:?}"),
    }
    // A contradiction outside the float part is still found.
    let n = store.var("n", Sort::BitVec(8));
    let m = store.var("m", Sort::BitVec(8));
    let n_lt_m = store.bv_ult(n, m);
    let m_lt_n = store.bv_ult(m, n);
    solver.assert(&store, n_lt_m);
    assert_eq!(solver.check(&store, &[m_lt_n]), SatResult::Unsat);
}

#[test]
fn float_bits_round_trip_with_canonical_nan() {
    let mut store = TermStore::new();
    let bits = store.var("bits", Sort::BitVec(32));
    let float = store.mk(Op::FpFromBits { exp: 8, sig: 24 }, &[bits]);
    let back = store.mk(Op::FpToBits, &[float]);
    let payload_nan = store.bv_u64(32, 0x7f80_0001);
    let is_payload_nan = store.eq(bits, payload_nan);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, is_payload_nan);
    assert_eq!(solver.check(&store, &[]), SatResult::Sat);
    let value = solver.model_value(&store, back).unwrap();
    assert_eq!(value.as_bv().unwrap().to_u64(), Some(0x7fc0_0000));
    // The circuit agrees with the evaluator: bits differ from the result.
    let same = store.eq(back, bits);
    assert_eq!(solver.check(&store, &[same]), SatResult::Unsat);
}

/// `x * y = c` over 64 bits with a large odd `c`; also returns `x`.
fn hard_factoring(store: &mut TermStore) -> (TermId, TermId) {
    let x = store.var("x", Sort::BitVec(64));
    let y = store.var("y", Sort::BitVec(64));
    let product = store.bv_mul(x, y);
    let target = store.bv_u64(64, 0xC2A5_2E6B_A4FB_D7D5);
    (store.eq(product, target), x)
}

#[test]
fn limits_give_unknown() {
    let mut store = TermStore::new();
    let (formula, x) = hard_factoring(&mut store);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, formula);
    solver.set_limits(Limits { deadline: Some(std::time::Instant::now()), interrupt: None });
    match solver.check(&store, &[]) {
        SatResult::Unknown(reason) => assert!(reason.contains("deadline"), "{reason}"),
        other => panic!("expected unknown, got {other:?}"),
    }
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    solver.set_limits(Limits { deadline: None, interrupt: Some(flag) });
    match solver.check(&store, &[]) {
        SatResult::Unknown(reason) => assert!(reason.contains("interrupted"), "{reason}"),
        other => panic!("expected unknown, got {other:?}"),
    }
    solver.set_limits(Limits::default());
    solver.set_time_limit(Some(Duration::ZERO));
    assert!(matches!(solver.check(&store, &[]), SatResult::Unknown(_)), "a zero time limit is a passed deadline");
    // Without limits the same solver still answers: an even factor cannot
    // give an odd product.
    solver.set_time_limit(None);
    let two = store.bv_u64(64, 2);
    let x_is_two = store.eq(x, two);
    assert_eq!(solver.check(&store, &[x_is_two]), SatResult::Unsat);
}

#[test]
fn deep_terms_blast_without_recursion() {
    let mut store = TermStore::new();
    let x = store.var("x", Sort::BitVec(8));
    let one = store.bv_u64(8, 1);
    let mut t = x;
    let mut expected = 5u8;
    for _ in 0..30_000 {
        t = store.bv_add(t, one);
        t = store.bv_xor(t, x);
        expected = expected.wrapping_add(1) ^ 5;
    }
    let five = store.bv_u64(8, 5);
    let x_is_five = store.eq(x, five);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, x_is_five);
    for (value, answer) in [(expected, SatResult::Sat), (expected.wrapping_add(1), SatResult::Unsat)] {
        let constant = store.bv_u64(8, u64::from(value));
        let is_value = store.eq(t, constant);
        assert_eq!(solver.check(&store, &[is_value]), answer);
    }
}

#[test]
fn solver_can_move_between_threads() {
    fn assert_send<T: Send>() {}
    assert_send::<BitBlastSolver>();
}

#[test]
fn untranslatable_assertions_only_block_sat_answers() {
    let mut store = TermStore::new();
    let huge = store.var("huge", Sort::BitVec(1 << 26));
    let zero = store.bv_const(BvValue::zero(1 << 26));
    let huge_is_zero = store.eq(huge, zero);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, huge_is_zero);
    match solver.check(&store, &[]) {
        SatResult::Unknown(reason) => assert!(reason.contains("too large"), "{reason}"),
        other => panic!("expected unknown, got {other:?}"),
    }
    let p = store.var("p", Sort::Bool);
    let not_p = store.not(p);
    solver.assert(&store, p);
    assert_eq!(solver.check(&store, &[not_p]), SatResult::Unsat, "the rest of the formula still counts");
}

#[test]
fn blasting_stops_at_the_deadline() {
    let mut store = TermStore::new();
    let (formula, _) = hard_factoring(&mut store);
    let mut solver = BitBlastSolver::new();
    solver.set_limits(Limits { deadline: Some(std::time::Instant::now()), interrupt: None });
    solver.assert(&store, formula);
    assert_eq!(solver.stats().cnf_clauses, 1, "only the constant's unit clause");
    assert!(matches!(solver.check(&store, &[]), SatResult::Unknown(_)));
}

#[test]
fn float_indices_compare_as_values() {
    let mut store = TermStore::new();
    let sort = store.array_sort(Sort::float32(), Sort::BitVec(8));
    let a = store.var("a", sort);
    // Two different NaN bit patterns, hidden behind variables so that the
    // rewriter cannot canonicalise them.
    let mut facts = Vec::new();
    let mut indices = Vec::new();
    for (name, bits) in [("p", 0x7f80_0001), ("q", 0xffc0_1234)] {
        let pattern = store.var(name, Sort::BitVec(32));
        let value = store.bv_u64(32, bits);
        facts.push(store.eq(pattern, value));
        indices.push(store.mk(Op::FpFromBits { exp: 8, sig: 24 }, &[pattern]));
    }
    let five = store.bv_u64(8, 5);
    let written = store.store(a, indices[0], five);
    let read = store.select(written, indices[1]);
    let is_five = store.eq(read, five);
    facts.push(store.not(is_five));
    let formula = store.and(&facts);
    assert_eq!(check_formula(&store, formula).0, SatResult::Unsat, "two NaN patterns are one index");
}

#[test]
fn very_wide_multiplication_is_approximated() {
    let mut store = TermStore::new();
    let x = store.var("x", Sort::BitVec(2000));
    let y = store.var("y", Sort::BitVec(2000));
    let product = store.bv_mul(x, y);
    let seven = store.bv_u64(2000, 7);
    let formula = store.eq(product, seven);
    let (result, solver) = check_formula(&store, formula);
    match result {
        SatResult::Unknown(reason) => assert!(reason.contains("2000-bit"), "{reason}"),
        other => panic!("expected unknown, got {other:?}"),
    }
    assert_eq!(solver.stats().approximated_terms, 1);
}

/// N-ary `=` (chainable) and `distinct` (pairwise), which the rewriter
/// leaves alone: every assignment of three 2-bit variables, forced by
/// assumptions, must give the truth value computed here.
#[test]
fn n_ary_equality_and_distinct_are_exact() {
    let mut store = TermStore::new();
    let vars: Vec<TermId> = ["x", "y", "z"].iter().map(|n| store.var(n, Sort::BitVec(2))).collect();
    let all_equal = store.mk(Op::Eq, &vars);
    let all_distinct = store.mk(Op::Distinct, &vars);
    let mut solver = BitBlastSolver::new();
    for bits in 0..64u128 {
        let values: Vec<u128> = (0..3).map(|k| (bits >> (2 * k)) & 3).collect();
        let mut assumptions = Vec::new();
        for (&v, &value) in vars.iter().zip(&values) {
            let constant = store.constant(bv_value(v, &store, value));
            assumptions.push(store.eq(v, constant));
        }
        let equal = values[0] == values[1] && values[1] == values[2];
        let distinct = values[0] != values[1] && values[1] != values[2] && values[0] != values[2];
        for (predicate, truth) in [(all_equal, equal), (all_distinct, distinct)] {
            let claim = if truth { store.not(predicate) } else { predicate };
            let mut query = assumptions.clone();
            query.push(claim);
            assert_eq!(solver.check(&store, &query), SatResult::Unsat, "values {values:?}");
        }
    }
}
