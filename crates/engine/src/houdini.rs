//! Certification of candidate loop invariants (Houdini): the candidates
//! of one function are asserted in its certification program
//! ([`analysis::invariants::abstraction`]: on loop entry and after one
//! iteration, with the candidates assumed after the havoc at each head);
//! every candidate whose assertion the solver's model violates is dropped
//! and the rest are checked again, until none can fail. Only the
//! survivors are certified, so a mistake of the analysis costs a proof,
//! never a wrong one. A query the solver cannot decide, or a
//! certification program symex cannot run, certifies nothing.
//!
//! When some candidates compute sums or products, which the solver can
//! take long to reason about, each round has [`arithmetic_round_limit`];
//! if one runs out, Houdini starts again with the other candidates only
//! (bounds, bit tests, `x <= y`), whose queries are easy.

use crate::backend::Backend;
use crate::Config;
use analysis::absint::Tracked;
use analysis::invariants::abstraction::{candidate_message, certification_program};
use analysis::invariants::{Candidate, Invariants};
use ir::{FuncId, Program};
use crate::quantifiers::Quantifiers;
use smt::{Evaluator, SatResult, Solver, TermId, TermStore, Value};
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// The result of certification.
#[derive(Clone, Debug, Default)]
pub struct Certification {
    /// How many candidates there were.
    pub found: usize,
    /// The candidates the solver proved inductive (together).
    pub certified: Vec<Candidate>,
    /// Solver rounds, over all functions.
    pub rounds: u32,
    /// Time spent certifying (symex and solver).
    pub time: Duration,
    /// Time the abstract interpretation took (when [`certify`] ran it).
    pub analysis_time: Duration,
    /// Why a function's candidates could not be checked, if so.
    pub notes: Vec<String>,
}

/// The time a round with arithmetic candidates may take (proofs about
/// adders and multipliers can take the solver long): a quarter of the time
/// left, within these ends. Two seconds alone lost the relations of three
/// sequential counting loops (`j1 + k == i0 + i1`) on a loaded machine,
/// where they take about that.
const ARITHMETIC_ROUND_MIN: Duration = Duration::from_secs(2);
const ARITHMETIC_ROUND_MAX: Duration = Duration::from_secs(8);

/// See [`ARITHMETIC_ROUND_MIN`].
pub fn arithmetic_round_limit(deadline: Option<Instant>) -> Duration {
    match deadline {
        Some(d) => (d.saturating_duration_since(Instant::now()) / 4).clamp(ARITHMETIC_ROUND_MIN, ARITHMETIC_ROUND_MAX),
        None => ARITHMETIC_ROUND_MAX,
    }
}

/// The certified invariants of `program` (instrumented, with
/// [`analysis::invariants::intern_types`] run on it): candidates from
/// abstract interpretation at the heads of its loops, certified.
pub fn certify(program: &Program, config: &Config, deadline: Option<Instant>) -> Certification {
    let sites = analysis::invariants::loop_sites(program);
    let invariants = analysis::invariants::generate(program, &sites);
    let mut certification = certify_candidates(program, &invariants, config, deadline);
    certification.analysis_time = invariants.time;
    certification
}

/// Certifies `invariants` (candidates over `program`, the program the
/// engine verifies).
pub fn certify_candidates(program: &Program, invariants: &Invariants, config: &Config, deadline: Option<Instant>) -> Certification {
    let started = Instant::now();
    let tracked = Tracked::new(program);
    let mut by_function: BTreeMap<FuncId, Vec<usize>> = BTreeMap::new();
    for (i, c) in invariants.candidates.iter().enumerate() {
        by_function.entry(c.func).or_default().push(i);
    }
    let mut result = Certification { found: invariants.candidates.len(), ..Certification::default() };
    for (func, ids) in by_function {
        let arithmetic = ids.iter().any(|i| invariants.candidates[*i].arithmetic);
        let round_limit = arithmetic.then(|| arithmetic_round_limit(deadline));
        let mut houdini = Houdini { program, tracked: &tracked, invariants, config, deadline, round_limit, rounds: 0 };
        let name = &program.functions[func].name;
        let mut ids = ids;
        let mut outcome = houdini.run(func, ids.clone());
        if let (Err(why), true) = (&outcome, ids.iter().any(|i| invariants.candidates[*i].bound.is_some())) {
            // Quantifier instantiation may not converge: the segments cost
            // themselves, not the other candidates.
            result.notes.push(format!("{name}: array segments not certified: {why}"));
            ids.retain(|i| invariants.candidates[*i].bound.is_none());
            outcome = houdini.run(func, ids.clone());
        }
        if let (Err(why), true) = (&outcome, arithmetic) {
            result.notes.push(format!("{name}: relations not certified: {why}"));
            houdini.round_limit = None;
            let plain: Vec<usize> = ids.into_iter().filter(|i| !invariants.candidates[*i].arithmetic).collect();
            outcome = houdini.run(func, plain);
        }
        match outcome {
            Ok(alive) => result.certified.extend(alive.into_iter().map(|i| invariants.candidates[i].clone())),
            Err(why) => result.notes.push(format!("{name}: {why}")),
        }
        result.rounds += houdini.rounds;
    }
    result.time = started.elapsed();
    result
}

struct Houdini<'a> {
    program: &'a Program,
    tracked: &'a Tracked,
    invariants: &'a Invariants,
    config: &'a Config,
    deadline: Option<Instant>,
    /// The most a solver query may take.
    round_limit: Option<Duration>,
    rounds: u32,
}

impl Houdini<'_> {
    /// The candidates of `func` (ids) that survive, or why none could be
    /// checked.
    fn run(&mut self, func: FuncId, mut alive: Vec<usize>) -> Result<Vec<usize>, String> {
        while !alive.is_empty() {
            self.rounds += 1;
            let failed = self.failing(func, &alive)?;
            if failed.is_empty() {
                break;
            }
            alive.retain(|i| !failed.contains(i));
        }
        Ok(alive)
    }

    /// The alive candidates that one model violates; empty when none can
    /// be violated.
    fn failing(&mut self, func: FuncId, alive: &[usize]) -> Result<Vec<usize>, String> {
        let candidates: Vec<(usize, &Candidate)> = alive.iter().map(|i| (*i, &self.invariants.candidates[*i])).collect();
        let abstract_program = certification_program(self.program, self.tracked, func, &candidates)?;
        let options = symex::Options {
            unwinding_assertions: true,
            pointer_checks: false,
            bounds_checks: true,
            heap_at_exit: symex::HeapAtExit::Unchecked,
            deadline: self.deadline,
            ..symex::Options::default()
        };
        let mut store = TermStore::new();
        let mut execution = symex::execute(&abstract_program, &options, &mut store).map_err(|stop| stop.to_string())?;
        let mut quantifiers = (!execution.equation.quantified_vars.is_empty()).then(|| Quantifiers::new(self.deadline));
        if let Some(q) = &mut quantifiers {
            q.abstract_equation(&mut store, &mut execution.equation);
        }
        let equation = &execution.equation;
        if let Some(stop) = &execution.stopped {
            return Err(stop.to_string());
        }
        if equation.approximations_affect_true() || !equation.conditional_approximations.is_empty() {
            let what: Vec<&str> = equation.approximations.iter().chain(equation.conditional_approximations.iter().map(|(_, a)| a)).map(|a| a.what.as_str()).collect();
            return Err(format!("its certification program is approximate: {}", what.join("; ")));
        }
        let by_message: HashMap<String, usize> = alive.iter().map(|i| (candidate_message(*i), *i)).collect();
        let mut violations: Vec<(usize, TermId)> = Vec::new();
        for a in &equation.assertions {
            let Some(id) = by_message.get(&a.property.message) else { continue };
            let failed = store.not(a.condition);
            let violated = store.and2(a.guard, failed);
            if !store.is_false(violated) {
                violations.push((*id, violated));
            }
        }
        if violations.is_empty() {
            return Ok(Vec::new());
        }
        let mut solver = Backend::new(&self.config.solver)?;
        let left = self.deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let limit = match (left, self.round_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        solver.set_time_limit(limit);
        let terms: Vec<TermId> = violations.iter().map(|(_, v)| *v).collect();
        let mut query = vec![store.or(&terms)];
        query.extend(&equation.constraints);
        let result = match &mut quantifiers {
            Some(q) => {
                let all = store.and(&query);
                q.check(&mut store, &mut solver, all)
            }
            None => solver.check(&store, &query),
        };
        let violated_in = |model: &smt::Model, store: &TermStore| -> Vec<usize> {
            let mut failed: Vec<usize> = Vec::new();
            for (id, v) in &violations {
                if matches!(Evaluator::new(store, model).eval(*v), Ok(Value::Bool(true))) && !failed.contains(id) {
                    failed.push(*id);
                }
            }
            failed
        };
        match result {
            SatResult::Unsat => Ok(Vec::new()),
            SatResult::Unknown(reason) => {
                // Instantiation that does not converge still gives a model
                // of the instances so far: dropping the candidates it
                // violates costs proofs at most, and the survivors are
                // checked again.
                let unconfirmed = quantifiers.as_ref().and_then(Quantifiers::last_model).map(|m| violated_in(m, &store));
                match unconfirmed {
                    Some(failed) if !failed.is_empty() => Ok(failed),
                    _ => Err(reason),
                }
            }
            SatResult::Sat => {
                // With quantifiers, the model is the one instantiation
                // accepted, not the solver's last.
                let failed = match quantifiers.as_ref().and_then(Quantifiers::model) {
                    Some(model) => violated_in(model, &store),
                    None => {
                        let mut failed: Vec<usize> = Vec::new();
                        for (id, v) in &violations {
                            if matches!(solver.model_value(&store, *v), Ok(Value::Bool(true))) && !failed.contains(id) {
                                failed.push(*id);
                            }
                        }
                        failed
                    }
                };
                // The model violates the disjunction, so one of them.
                if failed.is_empty() {
                    return Err("the solver's model violates no candidate".into());
                }
                Ok(failed)
            }
        }
    }
}
