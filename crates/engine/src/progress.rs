//! What the run is doing now, for a progress display: the stage, its bound
//! or k, the size of the last formula and the solver time so far. The
//! engine publishes at a few points (a bound starts, a query is answered);
//! a display reads [`snapshot`] when it wants to redraw. One verification
//! runs per process, so the state is the process's; publishing is a short
//! lock, never on a hot path.

use std::sync::Mutex;
use std::time::Duration;

/// The state a progress display shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// `symbolic execution`, `solving`, `inductive step`, `invariants`;
    /// empty before the engine starts.
    pub stage: &'static str,
    /// The unwinding bound or k of the stage, if it has one.
    pub bound: Option<u64>,
    /// Terms of the formula of the stage.
    pub terms: usize,
    /// Clauses of the last formula solved.
    pub cnf_clauses: u64,
    /// The solver's time in the last session.
    pub solver_time: Duration,
}

static CURRENT: Mutex<Snapshot> = Mutex::new(Snapshot { stage: "", bound: None, terms: 0, cnf_clauses: 0, solver_time: Duration::ZERO });

/// The state now.
pub fn snapshot() -> Snapshot {
    CURRENT.lock().map(|s| s.clone()).unwrap_or_default()
}

/// A stage starts, at `bound` if it has one.
pub(crate) fn stage(stage: &'static str, bound: Option<u64>) {
    if let Ok(mut current) = CURRENT.lock() {
        current.stage = stage;
        current.bound = bound;
    }
}

/// The formula of the stage has `terms` terms.
pub(crate) fn formula(terms: usize) {
    if let Ok(mut current) = CURRENT.lock() {
        current.terms = terms;
    }
}

/// A query was answered: the solver's figures so far.
pub(crate) fn solved(stats: &bitblast::Stats) {
    if let Ok(mut current) = CURRENT.lock() {
        current.cnf_clauses = stats.cnf_clauses;
        current.solver_time = stats.solve_time;
    }
}
