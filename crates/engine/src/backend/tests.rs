//! Tests of the solver choice and of the external-solver driver, against
//! stand-in solvers written in shell (no SMT solver needs to be installed).

use super::*;
use smt::Sort;

/// A stand-in solver: answers every check with `answer` (after `delay`
/// seconds) and every get-value with `values`.
pub(super) fn scripted(answer: &str, values: &str, delay: u32) -> ExternalSolver {
    let script = format!(
        "while read -r line; do case \"$line\" in *check-sat*) sleep {delay}; echo '{answer}';; *get-value*) echo '{values}';; esac; done"
    );
    ExternalSolver { name: "stand-in".into(), program: "sh".into(), args: vec!["-c".into(), script] }
}

/// `x = 5` over an 8-bit `x`, printed as the variable `|x|`.
fn x_is_five(store: &mut TermStore) -> TermId {
    let x = store.var("x", Sort::BitVec(8));
    let five = store.bv_u64(8, 5);
    store.eq(x, five)
}

fn answer(solver: &ExternalSolver, time_limit: Duration) -> SatResult {
    let mut store = TermStore::new();
    let query = x_is_five(&mut store);
    let mut backend = Backend::new(&SolverChoice::External(solver.clone())).expect("sh starts");
    backend.set_time_limit(Some(time_limit));
    backend.check(&store, &[query])
}

#[test]
fn solver_names_give_their_commands() {
    let z3 = ExternalSolver::named("z3").unwrap();
    assert_eq!((z3.program.as_str(), z3.args.as_slice()), ("z3", &["-in".to_string(), "-smt2".to_string()][..]));
    assert_eq!(ExternalSolver::named("cvc5").unwrap().program, "cvc5");
    assert_eq!(ExternalSolver::named("bitwuzla").unwrap().program, "bitwuzla");
    let custom = ExternalSolver::named("smtlib:yices-smt2 --incremental").unwrap();
    assert_eq!((custom.program.as_str(), custom.args.as_slice()), ("yices-smt2", &["--incremental".to_string()][..]));
    assert!(ExternalSolver::named("smtlib:").unwrap_err().contains("needs a command"));
    let boolector = ExternalSolver::named("boolector").unwrap();
    assert_eq!((boolector.program.as_str(), boolector.args.as_slice()), ("boolector", &["--smt2".to_string(), "--incremental".to_string()][..]));
    assert_eq!(ExternalSolver::named("yices").unwrap().program, "yices-smt2");
    assert_eq!(ExternalSolver::named("mathsat").unwrap().program, "mathsat");
    assert!(ExternalSolver::named("minisat").unwrap_err().contains("unknown solver 'minisat'"));
}

#[test]
fn a_missing_solver_says_what_to_install() {
    let mut z3 = ExternalSolver::named("z3").unwrap();
    z3.program = "tarsier-no-such-solver".into();
    z3.name = "z3".into();
    let message = z3.check_installed().unwrap_err();
    assert!(message.contains("`tarsier-no-such-solver` is not installed") && message.contains("apt install z3"), "{message}");
    let Err(message) = Backend::new(&SolverChoice::External(z3)) else { panic!("a missing solver started") };
    assert!(message.contains("not installed"), "{message}");
    assert!(ExternalSolver::named("smtlib:sh").unwrap().check_installed().is_ok());
    assert!(ExternalSolver::named("smtlib:/nonexistent/solver").unwrap().check_installed().is_err());
}

#[test]
fn sat_needs_a_model_that_satisfies_the_query() {
    let limit = Duration::from_secs(20);
    assert_eq!(answer(&scripted("sat", "((|x| #x05))", 0), limit), SatResult::Sat);
    let wrong = answer(&scripted("sat", "((|x| #x06))", 0), limit);
    assert!(matches!(&wrong, SatResult::Unknown(reason) if reason.contains("does not satisfy")), "{wrong:?}");
    let unreadable = answer(&scripted("sat", "((|x| (_ as-array k!0)))", 0), limit);
    assert!(matches!(&unreadable, SatResult::Unknown(reason) if reason.contains("cannot be checked")), "{unreadable:?}");
}

#[test]
fn unsat_unknown_and_garbage_answers() {
    let limit = Duration::from_secs(20);
    assert_eq!(answer(&scripted("unsat", "()", 0), limit), SatResult::Unsat);
    assert!(matches!(answer(&scripted("unknown", "()", 0), limit), SatResult::Unknown(r) if r.contains("answered unknown")));
    assert!(matches!(answer(&scripted("(error \"bad\")", "()", 0), limit), SatResult::Unknown(r) if r.contains("unexpected answer")));
}

#[test]
fn a_slow_solver_is_stopped_at_the_time_limit() {
    let started = Instant::now();
    let result = answer(&scripted("sat", "((|x| #x05))", 5), Duration::from_millis(200));
    assert!(matches!(&result, SatResult::Unknown(reason) if reason.contains("time limit")), "{result:?}");
    assert!(started.elapsed() < Duration::from_secs(10), "the check waited for the solver");
}
