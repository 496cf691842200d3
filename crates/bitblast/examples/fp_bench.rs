//! Benchmark of the floating-point circuits: for each operator in binary32
//! and binary64, the query "find x (and the rounding mode) with
//! op(rm, x, c) = d", where d is the evaluator's result for a known x, so
//! the answer is always Sat; printed with AIG and CNF sizes and the time.
//! Constant operands shrink circuits (a product by a constant folds), so
//! the arithmetic rows are repeated with two free operands. The remainder
//! is also measured in x87's format FP(15, 64), with one and two free
//! operands.
//!
//! Run: `cargo run --release -p bitblast --example fp_bench`

use std::time::{Duration, Instant};

use bitblast::BitBlastSolver;
use smt::{eval, FpValue, Model, Op, RoundingMode, SatResult, Solver, Sort, TermId, TermStore, Value};

/// A float constant of `sort` with the value of `x`, rounded to nearest.
fn float_const(store: &mut TermStore, sort: Sort, x: f64) -> TermId {
    let double = store.fp_const(FpValue::from_bits(11, 53, smt::BvValue::from_u64(64, x.to_bits())));
    let (exp, sig) = sort.float_format().expect("float sort");
    let rne = store.rm_const(RoundingMode::Rne);
    let converted = store.mk(Op::ToFp { exp, sig }, &[rne, double]);
    let value = eval(store, converted, &Model::new()).expect("constant conversion");
    store.constant(value)
}

/// The operator applied to the operand `x` (built by the caller) and a
/// constant of the operand's sort.
fn apply(store: &mut TermStore, op: Op, rm: TermId, x: TermId, sort: Sort) -> TermId {
    let c = float_const(store, sort, 3.0);
    apply2(store, op, rm, x, c)
}

fn apply2(store: &mut TermStore, op: Op, rm: TermId, x: TermId, c: TermId) -> TermId {
    match op {
        Op::FpAdd | Op::FpSub | Op::FpMul | Op::FpDiv => store.mk(op, &[rm, x, c]),
        Op::FpFma => store.mk(op, &[rm, x, c, c]),
        Op::FpLt | Op::FpEq | Op::FpRem => store.mk(op, &[x, c]),
        Op::FpIsSubnormal => store.mk(op, &[x]),
        _ => store.mk(op, &[rm, x]),
    }
}

/// Builds the query, solves it and prints one table row.
fn bench(name: &str, op: Op, operand_sort: Sort, known: TermId, store: &mut TermStore, x: TermId) {
    let rm = store.var("rm", Sort::RoundingMode);
    let rne = store.rm_const(RoundingMode::Rne);
    let with_known = apply(store, op, rne, known, operand_sort);
    let applied = apply(store, op, rm, x, operand_sort);
    solve(name, store, with_known, applied);
}

/// `applied = value of with_known` (a closed term), solved and reported.
fn solve(name: &str, store: &mut TermStore, with_known: TermId, applied: TermId) {
    let target = eval(store, with_known, &Model::new()).expect("evaluator computes the target");
    let target = store.constant(target);
    let goal = store.mk(Op::Eq, &[applied, target]);
    let start = Instant::now();
    let mut solver = BitBlastSolver::new();
    solver.set_time_limit(Some(Duration::from_secs(60)));
    solver.assert(store, goal);
    let result = solver.check(store, &[]);
    let seconds = start.elapsed().as_secs_f64();
    let confirmed = matches!(result, SatResult::Sat) && solver.model_value(store, goal) == Ok(Value::Bool(true));
    let stats = solver.stats();
    println!(
        "{name:<28} {:>9} {:>9} {:>9} {:>8.3}s  {:?}{}",
        stats.aig_ands,
        stats.cnf_vars,
        stats.cnf_clauses,
        seconds,
        result,
        if confirmed { " (model checked)" } else { "" }
    );
}

fn main() {
    println!("{:<28} {:>9} {:>9} {:>9} {:>9}  answer", "query", "aig ands", "cnf vars", "clauses", "time");
    for (label, sort) in [("f32", Sort::float32()), ("f64", Sort::float64())] {
        let (exp, sig) = sort.float_format().expect("float sort");
        let other = if exp == 8 { Sort::float64() } else { Sort::float32() };
        let (other_exp, other_sig) = other.float_format().expect("float sort");
        let float_ops: [(&str, Op); 14] = [
            ("add", Op::FpAdd),
            ("sub", Op::FpSub),
            ("mul", Op::FpMul),
            ("div", Op::FpDiv),
            ("fma x*c+c", Op::FpFma),
            ("sqrt", Op::FpSqrt),
            ("roundToIntegral", Op::FpRoundToIntegral),
            ("rem", Op::FpRem),
            ("lt", Op::FpLt),
            ("eq", Op::FpEq),
            ("isSubnormal", Op::FpIsSubnormal),
            ("to_fp other format", Op::ToFp { exp: other_exp, sig: other_sig }),
            ("to_sbv 32", Op::FpToSbv(32)),
            ("to_ubv 64", Op::FpToUbv(64)),
        ];
        for (name, op) in float_ops {
            let mut store = TermStore::new();
            let x = store.var("x", sort);
            let known = float_const(&mut store, sort, 1.7);
            bench(&format!("{label} {name}"), op, sort, known, &mut store, x);
        }
        for (name, op) in &float_ops[..4] {
            let mut store = TermStore::new();
            let (x, y) = (store.var("x", sort), store.var("y", sort));
            let rm = store.var("rm", Sort::RoundingMode);
            let rne = store.rm_const(RoundingMode::Rne);
            let (a, b) = (float_const(&mut store, sort, 1.7), float_const(&mut store, sort, 3.0));
            let with_known = apply2(&mut store, *op, rne, a, b);
            let applied = apply2(&mut store, *op, rm, x, y);
            solve(&format!("{label} {name} (x, y free)"), &mut store, with_known, applied);
        }
        for (name, signed) in [("from sbv 32", true), ("from ubv 64", false)] {
            let mut store = TermStore::new();
            let (width, op) = match signed {
                true => (32, Op::ToFpFromSbv { exp, sig }),
                false => (64, Op::ToFpFromUbv { exp, sig }),
            };
            let x = store.var("n", Sort::BitVec(width));
            let known = store.bv_u64(width, 123_456_789_012_345 & ((1u64 << (width - 1)) - 1));
            bench(&format!("{label} {name}"), op, sort, known, &mut store, x);
        }
    }
    let x87 = Sort::Float { exp: 15, sig: 64 };
    for (label, sort) in [("f32", Sort::float32()), ("f64", Sort::float64()), ("x87", x87)] {
        if sort == x87 {
            let mut store = TermStore::new();
            let x = store.var("x", sort);
            let known = float_const(&mut store, sort, 1.7);
            bench("x87 rem", Op::FpRem, sort, known, &mut store, x);
        }
        let mut store = TermStore::new();
        let (x, y) = (store.var("x", sort), store.var("y", sort));
        let rne = store.rm_const(RoundingMode::Rne);
        let (a, b) = (float_const(&mut store, sort, 1e9), float_const(&mut store, sort, 3.0e-7));
        let with_known = apply2(&mut store, Op::FpRem, rne, a, b);
        let applied = apply2(&mut store, Op::FpRem, rne, x, y);
        solve(&format!("{label} rem (x, y free)"), &mut store, with_known, applied);
    }
}
