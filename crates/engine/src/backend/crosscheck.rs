//! The cross-check backend: every query goes to the bit-blaster (whose
//! answer the engine uses) and to an external SMT-LIB2 solver; when both
//! decide and they differ, the query is written as an SMT-LIB2 file and
//! minimised (conjuncts, then disjuncts of a disjunction, deleted while the
//! two still disagree) into a second file. A disagreement is a bug in the
//! bit-blaster, the rewriter, the printer or the external solver.

use super::{External, ExternalSolver};
use bitblast::BitBlastSolver;
use smt::{Op, SatResult, Solver, TermId, TermStore};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Each solver's limit per query while minimising.
const MINIMISE_QUERY_LIMIT: Duration = Duration::from_secs(10);
/// The whole minimisation of one disagreement.
const MINIMISE_BUDGET: Duration = Duration::from_secs(120);

/// What the cross-check found so far in a run.
#[derive(Clone, Debug, Default)]
pub struct CrossCheckReport {
    /// The external solver's name.
    pub solver: String,
    /// Queries put to both solvers.
    pub queries: u32,
    /// Queries both decided (sat or unsat): the compared ones.
    pub compared: u32,
    /// Time the external solver took over all queries.
    pub external_time: Duration,
    pub disagreements: Vec<Disagreement>,
}

/// Two different answers to one query.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// The query's number in the run (from 1).
    pub query: u32,
    /// The bit-blaster's answer, then the external solver's.
    pub cadical: SatResult,
    pub external: SatResult,
    /// The query as SMT-LIB2, and its minimised form (or why it was not written).
    pub file: Result<PathBuf, String>,
    pub minimised: Result<PathBuf, String>,
}

pub(crate) struct CrossCheck {
    pub(super) primary: BitBlastSolver,
    external: External,
    solver: ExternalSolver,
    dir: PathBuf,
    asserted: Vec<TermId>,
    time_limit: Option<Duration>,
    pub(super) report: CrossCheckReport,
}

impl CrossCheck {
    pub(super) fn new(solver: &ExternalSolver, dir: PathBuf) -> Result<CrossCheck, String> {
        Ok(CrossCheck {
            primary: BitBlastSolver::new(),
            external: External::new(solver)?,
            solver: solver.clone(),
            dir,
            asserted: Vec::new(),
            time_limit: None,
            report: CrossCheckReport { solver: solver.name.clone(), ..CrossCheckReport::default() },
        })
    }

    pub(super) fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
        self.primary.set_time_limit(limit);
        self.external.process.set_time_limit(limit);
    }

    pub(super) fn assert(&mut self, store: &TermStore, t: TermId) {
        self.asserted.push(t);
        self.primary.assert(store, t);
        self.external.assert(store, t);
    }

    pub(super) fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> SatResult {
        let cadical = self.primary.check(store, assumptions);
        // The external solver gets the same time as the bit-blaster had.
        self.external.process.set_time_limit(self.time_limit);
        let started = Instant::now();
        let external = self.external.check(store, assumptions);
        self.report.external_time += started.elapsed();
        self.report.queries += 1;
        if decided(&cadical) && decided(&external) {
            self.report.compared += 1;
            if cadical != external {
                self.record(store, assumptions, cadical.clone(), external);
            }
        }
        cadical
    }

    fn record(&mut self, store: &TermStore, assumptions: &[TermId], cadical: SatResult, external: SatResult) {
        let query = self.report.queries;
        let pieces: Vec<TermId> = self.asserted.iter().chain(assumptions).copied().collect();
        let file = self.write(store, &pieces, &format!("query-{query}.smt2"));
        let minimised = match file {
            Ok(_) => {
                let mut store = store.clone();
                let pieces = conjuncts(&store, &pieces);
                let pieces = self.minimise(&mut store, pieces, (&cadical, &external));
                self.write(&store, &pieces, &format!("query-{query}-min.smt2"))
            }
            Err(_) => Err("not minimised".into()),
        };
        self.report.disagreements.push(Disagreement { query, cadical, external, file, minimised });
    }

    fn write(&self, store: &TermStore, pieces: &[TermId], name: &str) -> Result<PathBuf, String> {
        let path = self.dir.join(name);
        let text = smt::to_smtlib2(store, pieces, super::LOGIC);
        std::fs::create_dir_all(&self.dir)
            .and_then(|()| std::fs::write(&path, text))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }

    /// Deletes conjuncts, then disjuncts of the disjunctions left, while the
    /// two solvers still give the `answers`; within [`MINIMISE_BUDGET`].
    fn minimise(&self, store: &mut TermStore, mut pieces: Vec<TermId>, answers: (&SatResult, &SatResult)) -> Vec<TermId> {
        let deadline = Instant::now() + MINIMISE_BUDGET;
        let still = |store: &TermStore, candidate: &[TermId]| {
            Instant::now() < deadline && self.disagree_afresh(store, candidate) == Some((answers.0.clone(), answers.1.clone()))
        };
        pieces = delete_while(pieces, |candidate| still(store, candidate));
        for i in 0..pieces.len() {
            if store.op(pieces[i]) != Some(Op::Or) {
                continue;
            }
            let disjuncts = store.args(pieces[i]).to_vec();
            let kept = delete_while(disjuncts, |candidate| {
                let mut trial = pieces.clone();
                trial[i] = store.or(candidate);
                still(store, &trial)
            });
            pieces[i] = store.or(&kept);
        }
        pieces
    }

    /// Both solvers' answers to `pieces` from scratch, when both decide.
    fn disagree_afresh(&self, store: &TermStore, pieces: &[TermId]) -> Option<(SatResult, SatResult)> {
        let mut primary = BitBlastSolver::new();
        primary.set_time_limit(Some(MINIMISE_QUERY_LIMIT));
        let cadical = primary.check(store, pieces);
        let mut external = External::new(&self.solver).ok()?;
        external.process.set_time_limit(Some(MINIMISE_QUERY_LIMIT));
        let other = external.check(store, pieces);
        (decided(&cadical) && decided(&other)).then_some((cadical, other))
    }
}

fn decided(result: &SatResult) -> bool {
    matches!(result, SatResult::Sat | SatResult::Unsat)
}

/// The conjuncts of `terms`, nested conjunctions flattened.
fn conjuncts(store: &TermStore, terms: &[TermId]) -> Vec<TermId> {
    let mut stack: Vec<TermId> = terms.iter().rev().copied().collect();
    let mut flat = Vec::new();
    while let Some(t) = stack.pop() {
        match store.op(t) {
            Some(Op::And) => stack.extend(store.args(t).iter().rev()),
            _ => flat.push(t),
        }
    }
    flat
}

/// Deletes chunks of `items` (halves first, down to single items) as long
/// as `keeps` holds for what is left.
fn delete_while(mut items: Vec<TermId>, mut keeps: impl FnMut(&[TermId]) -> bool) -> Vec<TermId> {
    let mut chunk = items.len().div_ceil(2).max(1);
    loop {
        let mut start = 0;
        while start < items.len() && items.len() > 1 {
            let end = (start + chunk).min(items.len());
            let candidate: Vec<TermId> = items[..start].iter().chain(&items[end..]).copied().collect();
            if !candidate.is_empty() && keeps(&candidate) {
                items = candidate;
            } else {
                start = end;
            }
        }
        if chunk == 1 {
            return items;
        }
        chunk = chunk.div_ceil(2);
    }
}

/// Where the cross-check writes its files when the user names no directory.
pub fn default_dir() -> PathBuf {
    std::env::temp_dir().join(format!("tarsier-crosscheck-{}", std::process::id()))
}

impl Disagreement {
    /// The bit-blaster's answer and the external solver's, as SMT-LIB words.
    pub fn answers(&self) -> (&'static str, &'static str) {
        let word = |r: &SatResult| match r {
            SatResult::Sat => "sat",
            SatResult::Unsat => "unsat",
            SatResult::Unknown(_) => "unknown",
        };
        (word(&self.cadical), word(&self.external))
    }

    /// One line for the user: the answers and the files.
    pub fn describe(&self) -> String {
        let shown = |f: &Result<PathBuf, String>| match f {
            Ok(path) => path.display().to_string(),
            Err(reason) => reason.clone(),
        };
        let (cadical, external) = self.answers();
        format!(
            "query {}: cadical {cadical}, external {external}; query {}, minimised {}",
            self.query,
            shown(&self.file),
            shown(&self.minimised)
        )
    }
}

#[cfg(test)]
mod tests;
