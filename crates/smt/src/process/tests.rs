//! Tests of the external-solver back end against `z3` (skipped with a
//! message when no trusted z3 is installed, see `reference_solver`).

use super::*;
use crate::bv::BvValue;
use crate::sort::Sort;
use crate::testing::Generator;

fn z3(test: &str, time_limit: Option<Duration>) -> Option<ProcessSolver> {
    if !crate::reference_solver::trusted_z3(test) {
        return None;
    }
    Some(ProcessSolver::spawn("z3", &["-in", "-smt2"], "ALL", time_limit).expect("z3 starts"))
}

#[test]
fn finds_models_and_respects_assumptions_incrementally() {
    let Some(mut solver) = z3("finds_models_and_respects_assumptions_incrementally", Some(Duration::from_secs(20))) else {
        return;
    };
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let y = s.var("y", Sort::BitVec(8));
    let product = s.bv_mul(x, y);
    let target = s.bv_u64(8, 143);
    let one = s.bv_u64(8, 1);
    let factors = s.eq(product, target);
    let x_big = s.bv_ult(one, x);
    let y_big = s.bv_ult(one, y);
    for t in [factors, x_big, y_big] {
        solver.assert(&s, t);
    }
    assert_eq!(solver.check(&s, &[]), SatResult::Sat);
    let (xv, yv) = (
        solver.model_value(&s, x).unwrap(),
        solver.model_value(&s, y).unwrap(),
    );
    let (xv, yv) = (xv.as_bv().unwrap().clone(), yv.as_bv().unwrap().clone());
    assert_eq!(xv.mul(&yv), BvValue::from_u64(8, 143));
    assert_eq!(solver.model_value(&s, factors), Ok(Value::Bool(true)));
    // Under an assumption that excludes the found x: another answer or none.
    let found = s.bv_const(xv.clone());
    let x_found = s.eq(x, found);
    let x_differs = s.not(x_found);
    if solver.check(&s, &[x_differs]) == SatResult::Sat {
        assert_ne!(solver.model_value(&s, x).unwrap(), Value::Bv(xv.clone()));
    }
    // An even x cannot divide the odd 143 modulo 256.
    let two = s.bv_u64(8, 2);
    let x_two = s.eq(x, two);
    assert_eq!(solver.check(&s, &[x_two]), SatResult::Unsat);
    assert_eq!(
        solver.check(&s, &[]),
        SatResult::Sat,
        "assumptions do not stick"
    );
}

#[test]
fn models_round_trip_values_of_every_sort() {
    let Some(mut solver) = z3("models_round_trip_values_of_every_sort", Some(Duration::from_secs(20))) else {
        return;
    };
    let mut g = Generator::new(5);
    let model = g.random_model();
    for v in g.vars.clone() {
        let value = g
            .store
            .constant(model.get(g.store.as_var(v).unwrap()).unwrap().clone());
        let pin = g.store.eq(v, value);
        solver.assert(&g.store, pin);
    }
    assert_eq!(solver.check(&g.store, &[]), SatResult::Sat);
    let answer = solver.model(&g.store);
    for v in g.vars.clone() {
        let var = g.store.as_var(v).unwrap();
        let (want, got) = (
            model.get(var).unwrap(),
            answer.get(var).expect("solver gave a value"),
        );
        assert!(
            crate::testing::semantically_equal(want, got),
            "{}: want {want}, got {got}",
            g.store.var_name(var)
        );
    }
}

#[test]
fn satisfying_models_satisfy_random_formulas() {
    let Some(mut solver) = z3("satisfying_models_satisfy_random_formulas", Some(Duration::from_secs(20))) else {
        return;
    };
    let mut g = Generator::new(9);
    let mut answered = 0;
    for _ in 0..60 {
        let e = g.expr(Sort::Bool, 4);
        let t = g.build(&e);
        match solver.check(&g.store, &[t]) {
            SatResult::Sat => {
                assert_eq!(solver.model_value(&g.store, t), Ok(Value::Bool(true)));
                answered += 1;
            }
            SatResult::Unsat => answered += 1,
            // Giving up is no answer to judge.
            SatResult::Unknown(_) => {}
        }
    }
    eprintln!("{answered} of 60 formulas decided by z3");
    assert!(answered > 0, "z3 decided none of the formulas");
}

#[test]
fn time_limit_gives_unknown_and_the_solver_stays_unknown() {
    let Some(mut solver) = z3("time_limit_gives_unknown_and_the_solver_stays_unknown", Some(Duration::from_millis(50))) else {
        return;
    };
    let mut s = TermStore::new();
    let w = 128;
    let x = s.var("x", Sort::BitVec(w));
    let y = s.var("y", Sort::BitVec(w));
    let product = s.bv_mul(x, y);
    // (2^61 - 1) * (2^89 - 1), both prime: factoring at 128 bits is hard.
    let p = BvValue::from_u128(w, (1 << 61) - 1);
    let q = BvValue::from_u128(w, (1 << 89) - 1);
    let target = s.bv_const(p.mul(&q));
    let factors = s.eq(product, target);
    let one = s.bv_u64(w, 1);
    let x_big = s.bv_ult(one, x);
    let y_big = s.bv_ult(one, y);
    let no_overflow = s.mk(crate::op::Op::BvUmulOverflow, &[x, y]);
    let no_overflow = s.not(no_overflow);
    for t in [factors, x_big, y_big, no_overflow] {
        solver.assert(&s, t);
    }
    assert!(
        matches!(solver.check(&s, &[]), SatResult::Unknown(reason) if reason.contains("time limit"))
    );
    assert!(matches!(solver.check(&s, &[]), SatResult::Unknown(_)));
    assert_eq!(solver.model(&s).get(s.as_var(x).unwrap()), None);
}

/// A stand-in solver written in shell: answers every check with `answer`
/// and every get-value with `values`.
fn scripted(answer: &str, values: &str) -> ProcessSolver {
    let script = format!(
        "while read -r line; do case \"$line\" in *check-sat*) echo '{answer}';; *get-value*) echo '{values}';; esac; done"
    );
    ProcessSolver::spawn("sh", &["-c", &script], "ALL", Some(Duration::from_secs(20)))
        .expect("sh starts")
}

#[test]
fn unreadable_model_values_are_errors_but_the_solver_goes_on() {
    let mut s = TermStore::new();
    let sort = s.array_sort(Sort::BitVec(4), Sort::BitVec(4));
    let a = s.var("a", sort);
    let zero = s.bv_u64(4, 0);
    let read = s.select(a, zero);
    let goal = s.eq(read, zero);
    let mut solver = scripted("sat", "((|a| (_ as-array k!0)))");
    solver.assert(&s, goal);
    assert_eq!(solver.check(&s, &[]), SatResult::Sat);
    assert!(
        matches!(solver.model_value(&s, read), Err(EvalError::Unsupported(reason)) if reason.contains("as-array"))
    );
    assert_eq!(solver.check(&s, &[]), SatResult::Sat, "still usable");
}

#[test]
fn dead_or_confused_solvers_give_unknown() {
    let mut s = TermStore::new();
    let p = s.var("p", Sort::Bool);
    let mut confused = scripted("maybe", "()");
    confused.assert(&s, p);
    assert!(
        matches!(confused.check(&s, &[]), SatResult::Unknown(reason) if reason.contains("unexpected answer"))
    );
    let mut dead = ProcessSolver::spawn(
        "sh",
        &["-c", "exit 0"],
        "ALL",
        Some(Duration::from_secs(20)),
    )
    .unwrap();
    dead.assert(&s, p);
    assert!(matches!(dead.check(&s, &[]), SatResult::Unknown(_)));
    assert_eq!(dead.model(&s).get(s.as_var(p).unwrap()), None);
}
