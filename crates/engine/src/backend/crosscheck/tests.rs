//! Tests of the cross-check with a stand-in external solver that
//! contradicts the bit-blaster.

use super::*;
use crate::backend::tests::scripted;
use crate::backend::{Backend, SolverChoice};
use smt::Sort;

#[test]
fn a_disagreement_is_written_and_minimised() {
    let dir = std::env::temp_dir().join(format!("tarsier-crosscheck-test-{}", std::process::id()));
    let mut store = TermStore::new();
    let x = store.var("x", Sort::BitVec(8));
    let p = store.var("p", Sort::Bool);
    let five = store.bv_u64(8, 5);
    let x_five = store.eq(x, five);
    let q = store.var("q", Sort::Bool);
    let p_or_q = store.or(&[p, q]);
    let choice = SolverChoice::CrossCheck { external: scripted("unsat", "()", 0), dir: dir.clone() };
    let mut backend = Backend::new(&choice).expect("sh starts");
    // Satisfiable, but the stand-in says unsat: the bit-blaster's answer is used.
    assert_eq!(backend.check(&store, &[x_five, p_or_q]), SatResult::Sat);
    let report = backend.crosscheck_report().expect("a cross-check reports");
    assert_eq!((report.queries, report.compared, report.disagreements.len()), (1, 1, 1));
    let disagreement = &report.disagreements[0];
    assert_eq!((&disagreement.cadical, &disagreement.external), (&SatResult::Sat, &SatResult::Unsat));
    let full = std::fs::read_to_string(disagreement.file.as_ref().unwrap()).unwrap();
    let minimised = std::fs::read_to_string(disagreement.minimised.as_ref().unwrap()).unwrap();
    assert_eq!(full.matches("(assert").count(), 2);
    // Any one conjunct disagrees alike; of the disjunction one disjunct stays.
    assert_eq!(minimised.matches("(assert").count(), 1, "{minimised}");
    assert!(!minimised.contains("(or"), "{minimised}");
    assert!(disagreement.describe().contains("cadical sat, external unsat"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn agreeing_and_undecided_queries_are_counted() {
    let mut store = TermStore::new();
    let p = store.var("p", Sort::Bool);
    let not_p = store.not(p);
    let contradiction = store.and2(p, not_p);
    let choice = SolverChoice::CrossCheck { external: scripted("unsat", "()", 0), dir: default_dir() };
    let mut backend = Backend::new(&choice).expect("sh starts");
    assert_eq!(backend.check(&store, &[contradiction]), SatResult::Unsat);
    let choice = SolverChoice::CrossCheck { external: scripted("unknown", "()", 0), dir: default_dir() };
    let mut undecided = Backend::new(&choice).expect("sh starts");
    assert_eq!(undecided.check(&store, &[p]), SatResult::Sat);
    let (agreed, open) = (backend.crosscheck_report().unwrap(), undecided.crosscheck_report().unwrap());
    assert_eq!((agreed.queries, agreed.compared, agreed.disagreements.len()), (1, 1, 0));
    assert_eq!((open.queries, open.compared, open.disagreements.len()), (1, 0, 0));
}

#[test]
fn chunks_are_deleted_while_the_predicate_holds() {
    let ids: Vec<TermId> = {
        let mut store = TermStore::new();
        (0..7).map(|i| store.var(&format!("v{i}"), Sort::Bool)).collect()
    };
    let needed = [ids[2], ids[5]];
    let kept = delete_while(ids.clone(), |c| needed.iter().all(|n| c.contains(n)));
    assert_eq!(kept, needed);
}
