//! Bounded model checking: symex to an equation, one solver query for
//! "some property is violated", then one for "some unwinding assertion is
//! reachable", and the verdict rules of docs/DESIGN.md §9. A violation the
//! replay refutes because an inexact math function (`symex::libm`) took a
//! value the host library does not give is searched again with the host's
//! values at the refuted points (a few rounds). One that the replay refutes
//! while accesses whose check is off may leave their objects (the
//! interpreter stops there) is searched again once with all of them
//! inside; none found is UNKNOWN, never TRUE.
//!
//! The checks of one run (the bounds of incremental BMC, the repeated check
//! with the models' loop bound) share one term store and one solver (a
//! [`Session`]): each symex run recycles the earlier runs' variables, so the
//! terms it rebuilds are the same ids, and the solver blasts and encodes
//! only the new structure and keeps its learned clauses. Every query is
//! asked under assumptions and nothing is asserted for good (the solver
//! holds only definitions of terms and facts of the encoding, true whatever
//! the variables mean), so each check answers as a fresh solver would.
//! A program with threads gets a new session for each bound
//! ([`Session::renew_for_bound`]).

use crate::counterexample::Target;
use crate::quantifiers::replay_oracle::QuantifierOracle;
use crate::quantifiers::Quantifiers;
use crate::replay::Budget;
use crate::{counterexample, replay, Config, Outcome, Stats, Verdict};
use crate::backend::Backend;
use bitblast::BitBlastSolver;
use ir::{Loc, Program, PropertyClass};
use smt::{Evaluator, Model, SatResult, Solver, TermId, TermStore, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use symex::{Execution, Stop};

/// Counterexamples refuted by the replay through inexact math functions
/// that are retried with the host library's values at their points.
const MAX_HOST_REFINEMENTS: usize = 16;

/// A violation the solver found, as the replay judged it.
enum Found {
    /// FALSE, or UNKNOWN for a reason found before the replay.
    Judged(Box<Outcome>),
    /// UNKNOWN: the path goes through a call not modelled exactly.
    Untrusted(Box<Outcome>),
    /// The replay did not confirm it (the reason).
    Refuted { property: String, replay: String },
}

/// The result of one bound.
pub(crate) enum BoundResult {
    Done(Outcome),
    /// Unwinding assertions can fail: a larger bound is needed (and
    /// whether a library model's loop was cut).
    TooSmall((Outcome, bool)),
    /// Symex ran out of steps or time before the equation was complete.
    Exhausted(Outcome),
}

/// The bound of the library models' loops when the user's bound is too
/// small for them: enough for the strings and buffers of small programs.
const MODEL_LOOP_BOUND: u64 = 128;

/// The term store and solver shared by the checks of one run.
pub(crate) struct Session {
    pub store: TermStore,
    pub solver: Backend,
    /// The flag that stops the solver, kept for a renewed one.
    interrupt: Option<Arc<AtomicBool>>,
    /// What the last execution took as one thread's objects, for the
    /// next bound's first run of symex (kept for a renewed session).
    thread_sites: symex::ThreadSites,
}

impl Session {
    /// The session, or UNKNOWN when the chosen solver cannot be started.
    pub fn new(config: &Config) -> Result<Session, Box<Outcome>> {
        let solver = Backend::new(&config.solver).map_err(|reason| Box::new(crate::unknown(&reason)))?;
        Ok(Session { store: TermStore::new(), solver, interrupt: None, thread_sites: symex::ThreadSites::default() })
    }

    /// Makes every later check give up once `flag` is raised.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.solver.set_interrupt(Arc::clone(&flag));
        self.interrupt = Some(flag);
    }

    /// Before the next bound of `program`: a program with threads starts
    /// from an empty store and solver (an error to start one keeps the
    /// old). Its clocks are as wide as the bound's steps need, so the next
    /// bound's partial-order encoding is new terms and clauses whatever
    /// the earlier bounds built, and those left in the solver only slow
    /// its search down.
    pub fn renew_for_bound(&mut self, program: &Program, config: &Config) {
        if !program.creates_threads() {
            return;
        }
        if let Ok(mut fresh) = Session::new(config) {
            if let Some(flag) = self.interrupt.take() {
                fresh.set_interrupt(flag);
            }
            fresh.thread_sites = std::mem::take(&mut self.thread_sites);
            *self = fresh;
        }
    }
}

/// BMC with the user's bound. The bound is for the program's loops: when
/// it is too small and also cut a library model's loop (over a string's
/// bytes, say), the models' loops get [`MODEL_LOOP_BOUND`] and the bound
/// is checked again, as the library's code would run on.
pub(crate) fn bmc(program: &Program, config: &Config, unwind: Option<u64>, deadline: Option<Instant>) -> Outcome {
    let mut session = match Session::new(config) {
        Ok(session) => session,
        Err(outcome) => return *outcome,
    };
    let mut check = |model_loop_bound| {
        check_bound(program, config, unwind, model_loop_bound, config.unwinding_assertions, deadline, &mut session)
    };
    match check(None) {
        BoundResult::TooSmall((_, true)) if unwind.is_some_and(|k| k < MODEL_LOOP_BOUND) => check(Some(MODEL_LOOP_BOUND)).outcome(),
        result => result.outcome(),
    }
}

impl BoundResult {
    fn outcome(self) -> Outcome {
        match self {
            BoundResult::Done(outcome) | BoundResult::TooSmall((outcome, _)) | BoundResult::Exhausted(outcome) => outcome,
        }
    }

    /// The figures of the check, whatever its result.
    pub(crate) fn stats(&self) -> &Stats {
        match self {
            BoundResult::Done(outcome) | BoundResult::TooSmall((outcome, _)) | BoundResult::Exhausted(outcome) => &outcome.stats,
        }
    }
}

/// The bounds of programs with threads go up by one below this one.
const THREADS_STEP_BY_ONE_BELOW: u64 = 4;

/// The bound after `bound` in the schedule of incremental BMC and of the
/// base cases: twice `bound`, so that all bounds together cost about twice
/// the last one; but for a program with threads the small bounds go up by
/// one (1, 2, 3, 4, 8, ...): each unwinding multiplies the events of every
/// shared object, whose from-read constraints grow with the cube of their
/// number, so bound 4 can cost several times bound 3, where a violation
/// three iterations deep already is.
pub(crate) fn next_bound(program: &Program, bound: u64) -> u64 {
    match program.creates_threads() && bound < THREADS_STEP_BY_ONE_BELOW {
        true => bound + 1,
        false => bound.saturating_mul(2),
    }
}

/// Incremental BMC: bounds 1, 2, 4, ... ([`next_bound`]) up to
/// `max_bound`, with unwinding assertions, until a violation, a proof, or
/// an answer other than "bound too small". Each bound is a fresh symex;
/// the solver is kept and only blasts what the earlier bounds did not
/// build. When a bound runs out of steps or time, the answer rests on the
/// last bound checked.
pub(crate) fn incremental(program: &Program, config: &Config, deadline: Option<Instant>) -> Outcome {
    let mut last: Option<(u64, Outcome)> = None;
    let (mut symex_time, mut replay_time) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    let mut session = match Session::new(config) {
        Ok(session) => session,
        Err(outcome) => return *outcome,
    };
    let mut k = 1;
    loop {
        session.renew_for_bound(program, config);
        let mut outcome = match check_bound(program, config, Some(k), None, true, deadline, &mut session) {
            BoundResult::TooSmall((outcome, _)) => {
                symex_time += outcome.stats.symex_time;
                replay_time += outcome.stats.replay_time;
                last = Some((k, outcome));
                if k >= config.max_bound {
                    break;
                }
                k = next_bound(program, k).min(config.max_bound);
                continue;
            }
            BoundResult::Exhausted(_) if last.is_some() => break,
            result => result.outcome(),
        };
        outcome.stats.symex_time += symex_time;
        outcome.stats.replay_time += replay_time;
        return outcome;
    }
    let (bound, mut outcome) = last.expect("a bound was checked");
    outcome.stats.symex_time = symex_time;
    outcome.stats.replay_time = replay_time;
    outcome.verdict = Verdict::Unknown(format!("no violation up to bound {bound}, but loops can run longer"));
    outcome
}

fn is_memory_safety(class: PropertyClass) -> bool {
    use PropertyClass::*;
    matches!(class, PointerDereference | ArrayBounds | InvalidFree | MemoryLeak | MemoryCleanup)
}

pub(crate) fn describe_stop(program: &Program, stop: &Stop) -> String {
    match stop {
        Stop::Unsupported { loc, .. } | Stop::StepLimit { loc } if !loc.is_none() => {
            format!("{}:{}:{}: {stop}", program.files.name(loc.file), loc.line, loc.col)
        }
        _ => stop.to_string(),
    }
}

fn heap_at_exit(config: &Config) -> symex::HeapAtExit {
    if config.esbmc_memory_leak_check {
        symex::HeapAtExit::Esbmc
    } else if config.memory_leak_checks {
        symex::HeapAtExit::SvCompTrack
    } else if config.memory_cleanup_checks {
        symex::HeapAtExit::SvCompCleanup
    } else {
        symex::HeapAtExit::Unchecked
    }
}

/// The options of a symex run for `config` with these bounds.
pub(crate) fn symex_options(
    config: &Config,
    unwind: Option<u64>,
    model_loop_bound: Option<u64>,
    unwinding_assertions: bool,
    deadline: Option<Instant>,
) -> symex::Options {
    symex::Options {
        unwind,
        model_loop_bound,
        unwinding_assertions,
        pointer_checks: config.pointer_checks,
        bounds_checks: config.bounds_checks,
        alignment_checks: config.alignment_checks,
        vla_length_checks: config.vla_length_checks,
        heap_at_exit: heap_at_exit(config),
        force_malloc_success: config.force_malloc_success,
        force_realloc_success: config.force_realloc_success,
        deadline,
        data_race_checks: config.data_race_checks,
        deadlock_checks: config.deadlock_checks,
        ..symex::Options::default()
    }
}

/// BMC of `program` with `unwind` (a base case and forward condition of
/// k-induction, a bound of incremental BMC) in `session`.
pub(crate) fn check_bound(
    program: &Program,
    config: &Config,
    unwind: Option<u64>,
    model_loop_bound: Option<u64>,
    unwinding_assertions: bool,
    deadline: Option<Instant>,
    session: &mut Session,
) -> BoundResult {
    let options = symex_options(config, unwind, model_loop_bound, unwinding_assertions, deadline);
    check_with(program, config, &options, deadline, session)
}

/// BMC of `program` with symex `options` (their bounds, and symex's
/// deadline) in `session`, the queries solved by `deadline`.
pub(crate) fn check_with(
    program: &Program,
    config: &Config,
    options: &symex::Options,
    deadline: Option<Instant>,
    session: &mut Session,
) -> BoundResult {
    check_with_targets(program, config, options, deadline, session).0
}

/// [`check_with`], and whether a bound too small reached one of the
/// options' targets.
pub(crate) fn check_with_targets(
    program: &Program,
    config: &Config,
    options: &symex::Options,
    deadline: Option<Instant>,
    session: &mut Session,
) -> (BoundResult, bool) {
    let (unwind, model_loop_bound) = (options.unwind, options.model_loop_bound);
    let store = &mut session.store;
    store.recycle_variables();
    let started = Instant::now();
    crate::progress::stage("symbolic execution", unwind);
    let execution = match symex::execute_hinted(program, options, store, &mut session.thread_sites) {
        Ok(execution) => execution,
        Err(stop @ (Stop::StepLimit { .. } | Stop::Timeout)) => {
            return (BoundResult::Exhausted(crate::unknown(&describe_stop(program, &stop))), false)
        }
        Err(stop) => return (BoundResult::Done(crate::unknown(&describe_stop(program, &stop))), false),
    };
    let stats = Stats { bound: unwind, symex_time: started.elapsed(), ..Stats::default() };
    let stopped = execution.stopped.clone();
    let mut run = Run { program, config, model_loop_bound, store, execution, deadline, stats, quantifiers: None };
    crate::progress::stage("solving", unwind);
    let result = run.decide(&mut session.solver);
    let hits = run.execution.equation.target_hits.clone();
    let reached = matches!(result, BoundResult::TooSmall(_)) && !hits.is_empty() && {
        let any = run.store.or(&hits);
        run.solve(&mut session.solver, any) == SatResult::Sat
    };
    let result = match stopped {
        None => result,
        Some(stop) => violations_only(result, describe_stop(program, &stop)),
    };
    (result, reached)
}

/// The result of an execution that stopped at an unsupported construct:
/// a replayed violation before it stands, anything else is UNKNOWN for
/// `reason`.
fn violations_only(result: BoundResult, reason: String) -> BoundResult {
    match result {
        BoundResult::Done(outcome) if matches!(outcome.verdict, Verdict::False(_)) => BoundResult::Done(outcome),
        BoundResult::Done(mut outcome) => {
            outcome.verdict = Verdict::Unknown(reason);
            BoundResult::Done(outcome)
        }
        BoundResult::TooSmall((mut outcome, model_loop_cut)) => {
            outcome.verdict = Verdict::Unknown(reason);
            BoundResult::TooSmall((outcome, model_loop_cut))
        }
        exhausted @ BoundResult::Exhausted(_) => exhausted,
    }
}

pub(crate) struct Run<'a> {
    program: &'a Program,
    config: &'a Config,
    /// The library models' loop bound symex ran with (the replay counts alike).
    model_loop_bound: Option<u64>,
    store: &'a mut TermStore,
    execution: Execution,
    deadline: Option<Instant>,
    stats: Stats,
    /// Present when the equation has quantifiers: their abstraction.
    quantifiers: Option<Quantifiers>,
}

impl<'a> Run<'a> {
    /// A check of `execution` (built in `store`) without a bound.
    pub fn new(program: &'a Program, config: &'a Config, store: &'a mut TermStore, execution: Execution, deadline: Option<Instant>) -> Run<'a> {
        Run { program, config, model_loop_bound: None, store, execution, deadline, stats: Stats::default(), quantifiers: None }
    }

    /// Whether some property (no unwinding assertion) can be violated.
    pub fn any_violation(&mut self, solver: &mut Backend) -> SatResult {
        let properties = match self.execution.equation.quantified_vars.is_empty() {
            true => self.execution.equation.violations(self.store, |c| c != PropertyClass::UnwindingAssertion),
            false => self.abstract_quantifiers().0,
        };
        if properties.is_empty() {
            return SatResult::Unsat;
        }
        let query = self.store.or(&properties);
        self.solve(solver, query)
    }

    /// After [`Run::any_violation`] found one in the inductive step: the
    /// state at the head of the first long loop entry on the violating
    /// path, as the model has it (bidirectional k-induction's target).
    pub fn target(&mut self, solver: &mut Backend) -> Option<symex::Target> {
        let model = self.model(solver);
        let mut evaluator = Evaluator::new(self.store, &model);
        for entry in &self.execution.equation.long_entries {
            if !matches!(evaluator.eval(entry.long), Ok(Value::Bool(true))) || entry.havocked.is_empty() {
                continue;
            }
            let values = entry.havocked.iter().filter_map(|&(symbol, term)| Some((symbol, evaluator.eval(term).ok()?))).collect();
            return Some(symex::Target { func: entry.func, head: entry.head, values });
        }
        None
    }

    /// After no violation was found: nothing in the model keeps the answer
    /// from being TRUE (no approximation that can hide a violation), else
    /// the reason.
    pub fn clean_true(&mut self, solver: &mut Backend) -> Result<(), String> {
        if let Some(outcome) = self.conditional_approximation(solver) {
            return match outcome.verdict {
                Verdict::Unknown(reason) => Err(reason),
                _ => Err("an approximation may hide a violation".into()),
            };
        }
        let equation = &self.execution.equation;
        if equation.approximations_affect_true() {
            let what: Vec<&str> = equation.approximations.iter().filter(|a| a.affects_true).map(|a| a.what.as_str()).collect();
            return Err(format!("the model is approximate: {}", what.join("; ")));
        }
        Ok(())
    }

    fn outcome(&self, verdict: Verdict) -> Outcome {
        Outcome { verdict, approximations: self.execution.equation.approximations.clone(), stats: self.stats.clone(), proof: None }
    }

    fn decide(&mut self, solver: &mut Backend) -> BoundResult {
        let equation = &self.execution.equation;
        self.stats.assertions = equation.assertions.len();
        self.stats.instructions = equation.executed_instructions;
        let properties = equation.violations(self.store, |c| c != PropertyClass::UnwindingAssertion);
        let unwinding = equation.violations(self.store, |c| c == PropertyClass::UnwindingAssertion);
        self.stats.terms = self.store.len();
        crate::progress::formula(self.stats.terms);
        if let Err(e) = self.write_formula(&properties, &unwinding) {
            return BoundResult::Done(self.outcome(Verdict::Unknown(e)));
        }
        let (properties, unwinding) = match self.execution.equation.quantified_vars.is_empty() {
            true => (properties, unwinding),
            false => self.abstract_quantifiers(),
        };
        // A violation through a call not modelled exactly, while another
        // that avoids every such call is looked for.
        let mut untrusted: Option<Outcome> = None;
        // A violation the replay refuted while accesses whose check is off
        // may leave their objects, while another that keeps them all inside is looked for.
        let mut refuted: Option<(Found, Vec<(String, symex::HostLemma)>)> = None;
        if !properties.is_empty() {
            let mut query = self.store.or(&properties);
            let mut refinements = 0;
            loop {
                match self.solve_preferring(solver, query) {
                    SatResult::Sat => {
                        let lemmas = self.host_lemmas(solver);
                        let last = lemmas.is_empty() || refinements == MAX_HOST_REFINEMENTS;
                        let budget = if last { Budget::Full } else { Budget::Probe };
                        let found = match self.violation(solver, budget) {
                            Found::Judged(outcome) if !matches!(outcome.verdict, Verdict::Unknown(_)) => {
                                return BoundResult::Done(*outcome)
                            }
                            Found::Untrusted(outcome) if untrusted.is_none() => {
                                untrusted = Some(*outcome);
                                let avoiding = self.avoiding_untrusted_calls();
                                query = self.store.and2(query, avoiding);
                                continue;
                            }
                            other => other,
                        };
                        if last {
                            let unchecked = &self.execution.equation.unchecked_accesses;
                            if refuted.is_none() && matches!(found, Found::Refuted { .. }) && !unchecked.is_empty() {
                                let inside = self.store.and(&unchecked.clone());
                                query = self.store.and2(query, inside);
                                refuted = Some((found, lemmas));
                                continue;
                            }
                            return BoundResult::Done(self.unconfirmed(found, &lemmas));
                        }
                        refinements += 1;
                        let windows: Vec<TermId> = lemmas.iter().map(|(_, l)| l.window).collect();
                        let windows = self.store.and(&windows);
                        query = self.store.and2(query, windows);
                        self.execution.equation.preferences.extend(lemmas.iter().map(|(_, l)| l.exact));
                    }
                    SatResult::Unsat => break,
                    SatResult::Unknown(reason) => return BoundResult::Done(self.outcome(Verdict::Unknown(reason))),
                }
            }
        }
        if let Some((found, lemmas)) = refuted {
            return BoundResult::Done(self.unconfirmed(found, &lemmas));
        }
        if let Some(outcome) = untrusted {
            return self.untrusted_only(solver, unwinding, outcome);
        }
        if !unwinding.is_empty() {
            let any = self.store.or(&unwinding);
            // Preferred: the model may become a counterexample to replay.
            let started = Instant::now();
            let reachable = self.solve_preferring(solver, any);
            self.stats.forward_time += started.elapsed();
            match reachable {
                SatResult::Sat => {
                    if self.config.unwinding_failures_are_violations && self.config.strategy == crate::Strategy::Bmc {
                        if let Some(outcome) = self.unwinding_violation(solver) {
                            return BoundResult::Done(outcome);
                        }
                    }
                    let reason = match self.stats.bound {
                        Some(bound) => format!("no violation up to bound {bound}, but the bound is too small (unwinding assertion)"),
                        None => "no violation, but a loop runs past the bound the program gives it (unwinding assertion)".to_string(),
                    };
                    let model_loop_cut = self.execution.equation.model_loop_cut;
                    return BoundResult::TooSmall((self.outcome(Verdict::Unknown(reason)), model_loop_cut));
                }
                SatResult::Unsat => {}
                SatResult::Unknown(reason) => return BoundResult::Done(self.outcome(Verdict::Unknown(reason))),
            }
        }
        if let Some(outcome) = self.conditional_approximation(solver) {
            return BoundResult::Done(outcome);
        }
        let equation = &self.execution.equation;
        let verdict = if equation.approximations_affect_true() {
            let what: Vec<&str> =
                equation.approximations.iter().filter(|a| a.affects_true).map(|a| a.what.as_str()).collect();
            Verdict::Unknown(format!("no violation found, but the model is approximate: {}", what.join("; ")))
        } else if equation.bound_assumed {
            Verdict::BoundedTrue { bound: self.stats.bound }
        } else {
            Verdict::True
        };
        BoundResult::Done(self.outcome(verdict))
    }

    /// That no call not modelled exactly happens (a violation avoiding
    /// them all can be trusted once replayed).
    fn avoiding_untrusted_calls(&mut self) -> TermId {
        let calls: Vec<TermId> = self.execution.equation.unmodelled_calls.iter().filter(|c| c.layout_values.is_empty()).map(|c| c.guard).collect();
        let some = self.store.or(&calls);
        self.store.not(some)
    }

    /// The bound's result when its only violations go through calls not
    /// modelled exactly (`outcome`, UNKNOWN): a larger bound may hold one
    /// that does not, if the unwinding assertions can fail; never TRUE.
    fn untrusted_only(&mut self, solver: &mut Backend, unwinding: Vec<TermId>, outcome: Outcome) -> BoundResult {
        if unwinding.is_empty() {
            return BoundResult::Done(outcome);
        }
        let any = self.store.or(&unwinding);
        let started = Instant::now();
        let reachable = self.solve(solver, any);
        self.stats.forward_time += started.elapsed();
        match reachable {
            SatResult::Sat => BoundResult::TooSmall((outcome, self.execution.equation.model_loop_cut)),
            _ => BoundResult::Done(outcome),
        }
    }

    /// UNKNOWN when some approximation's condition can hold (after no
    /// violation was found).
    fn conditional_approximation(&mut self, solver: &mut Backend) -> Option<Outcome> {
        let approximations = self.execution.equation.conditional_approximations.clone();
        if approximations.is_empty() {
            return None;
        }
        let conditions: Vec<TermId> = approximations.iter().map(|(condition, _)| *condition).collect();
        let any = self.store.or(&conditions);
        let reason = match self.solve(solver, any) {
            SatResult::Unsat => return None,
            SatResult::Sat => {
                let mut what: Vec<&str> = Vec::new();
                for (_, a) in &approximations {
                    if !what.contains(&a.what.as_str()) {
                        what.push(&a.what);
                    }
                }
                format!("no violation found, but the model is approximate: {}", what.join("; "))
            }
            SatResult::Unknown(reason) => reason,
        };
        Some(self.outcome(Verdict::Unknown(reason)))
    }

    /// For each inexact math call on the model's path whose result differs
    /// from the host library's at the model's arguments: the host's
    /// window there (a fact) and its exact value (a preference), so that
    /// the next model agrees with the replay at these points.
    fn host_lemmas(&mut self, solver: &mut Backend) -> Vec<(String, symex::HostLemma)> {
        let model = self.model(solver);
        let mut evaluator = Evaluator::new(self.store, &model);
        let mut points = Vec::new();
        for call in &self.execution.equation.inexact_calls {
            if !matches!(evaluator.eval(call.guard), Ok(Value::Bool(true))) {
                continue;
            }
            let bits = |v: Result<Value, _>| match v {
                Ok(Value::Bv(b)) => b.to_u128(),
                _ => None,
            };
            let args: Option<Vec<u128>> = call.args.iter().map(|&a| bits(evaluator.eval(a))).collect();
            if let (Some(args), Some(result)) = (args, bits(evaluator.eval(call.result))) {
                points.push((call.clone(), args, result));
            }
        }
        let mut lemmas = Vec::new();
        for (call, args, result) in points {
            let (f, format) = call.function;
            if ir::libm::host_value(f, format, &args).is_some_and(|host| host != result) {
                lemmas.extend(symex::host_lemma(self.store, &call, &args).map(|l| (f.name_for(format), l)));
            }
        }
        lemmas
    }

    /// Replaces the equation's quantifiers by stand-ins (see `quantifiers`);
    /// returns the violation conditions of the properties and of the
    /// unwinding assertions anew.
    fn abstract_quantifiers(&mut self) -> (Vec<TermId>, Vec<TermId>) {
        let mut quantifiers = Quantifiers::new(self.deadline);
        quantifiers.abstract_equation(self.store, &mut self.execution.equation);
        self.quantifiers = Some(quantifiers);
        let equation = &self.execution.equation;
        let properties = equation.violations(self.store, |c| c != PropertyClass::UnwindingAssertion);
        let unwinding = equation.violations(self.store, |c| c == PropertyClass::UnwindingAssertion);
        (properties, unwinding)
    }

    /// The model of the last satisfiable query.
    fn model(&mut self, solver: &mut Backend) -> Model {
        match self.quantifiers.as_ref().and_then(Quantifiers::model) {
            Some(model) => model.clone(),
            None => solver.model(self.store),
        }
    }

    /// Values of the quantified variables in `model` (each variable's own
    /// and its Skolem constants'), as the replay's witnesses.
    fn witnesses(&mut self, model: &Model) -> Vec<(Loc, Vec<u8>)> {
        let Some(quantifiers) = &self.quantifiers else { return Vec::new() };
        let mut located = Vec::new();
        for var in &self.execution.equation.quantified_vars {
            located.push((var.loc, var.memory));
            for skolem in quantifiers.abstracted.iter().filter(|a| a.binder.var == var.var).map(|a| a.skolem) {
                let renaming = rustc_hash::FxHashMap::from_iter([(var.var, skolem)]);
                located.push((var.loc, smt::substitute(self.store, &[var.memory], &renaming)[0]));
            }
        }
        let mut evaluator = smt::Evaluator::new(self.store, model);
        let mut witnesses = Vec::new();
        for (loc, term) in located {
            if let Ok(value) = evaluator.eval(term) {
                witnesses.push((loc, counterexample::to_bytes(&value)));
            }
        }
        witnesses
    }

    /// Solves `query` within the equation's preferences (a counterexample
    /// the interpreter can replay) first, then without them.
    fn solve_preferring(&mut self, solver: &mut Backend, query: TermId) -> SatResult {
        let preferences = self.execution.equation.preferences.clone();
        if !preferences.is_empty() {
            let mut preferred = preferences;
            preferred.push(query);
            let within = self.store.and(&preferred);
            match self.solve(solver, within) {
                SatResult::Unsat => {}
                other => return other,
            }
        }
        self.solve(solver, query)
    }

    fn solve(&mut self, solver: &mut Backend, query: TermId) -> SatResult {
        // The session's solver may keep an earlier check's shorter limit.
        match self.deadline {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return SatResult::Unknown("timeout".into());
                }
                solver.set_time_limit(Some(left));
            }
            None => solver.set_time_limit(None),
        }
        self.stats.solver_calls += 1;
        let mut query = vec![query];
        query.extend(&self.execution.equation.constraints);
        let result = match &mut self.quantifiers {
            Some(quantifiers) => {
                let all = self.store.and(&query);
                quantifiers.check(self.store, solver, all)
            }
            None => solver.check(self.store, &query),
        };
        self.stats.solver = solver.stats();
        self.stats.crosscheck = solver.crosscheck_report();
        crate::progress::solved(&self.stats.solver);
        result
    }

    /// A replayed violation of an unwinding assertion of a program loop;
    /// `None` when the loop belongs to a library model (the user did not
    /// write it) or the replay does not confirm it.
    fn unwinding_violation(&mut self, solver: &mut Backend) -> Option<Outcome> {
        let model = self.model(solver);
        let mut cex = counterexample::build(self.program, &self.execution, self.store, &model, Target::UnwindingAssertions).ok()?;
        cex.witnesses = self.witnesses(&model);
        let in_model = self.program.files.is_library_model(cex.loc);
        if in_model || !cex.unmodelled_calls.is_empty() {
            return None;
        }
        let class = self.confirm(&cex, &model, Budget::Full).ok()?;
        cex.property.class = class;
        Some(self.outcome(Verdict::False(Box::new(cex))))
    }

    /// The counterexample in the solver's model, judged by the replay
    /// within `budget`.
    fn violation(&mut self, solver: &mut Backend, budget: Budget) -> Found {
        let model = self.model(solver);
        let mut cex = match counterexample::build(self.program, &self.execution, self.store, &model, Target::Properties) {
            Ok(cex) => cex,
            Err(reason) => return Found::Judged(Box::new(self.outcome(Verdict::Unknown(reason)))),
        };
        cex.witnesses = self.witnesses(&model);
        if let Some(call) = cex.unmodelled_calls.first() {
            let reason = format!(
                "a violation of `{}` was found on a path through `{call}`, which is not modelled exactly",
                cex.property.message
            );
            return Found::Untrusted(Box::new(self.outcome(Verdict::Unknown(reason))));
        }
        if let Some(call) = cex.layout_calls.first() {
            if !self.violated_whatever_layout(&model, &cex) {
                let reason = format!(
                    "a violation of `{}` was found on a path through `{call}`, which is not modelled exactly",
                    cex.property.message
                );
                return Found::Judged(Box::new(self.outcome(Verdict::Unknown(reason))));
            }
        }
        if self.execution.equation.unconstrained_entry_pointers && is_memory_safety(cex.property.class) {
            let reason = format!(
                "a violation of `{}` was found, but the entry function's pointer parameters are not modelled",
                cex.property.message
            );
            return Found::Judged(Box::new(self.outcome(Verdict::Unknown(reason))));
        }
        match self.confirm(&cex, &model, budget) {
            Ok(_) if !self.violated_whatever_folding(&model, &cex) => {
                let reason = format!(
                    "a violation of `{}` depends on the last bits of a math function's result at constant arguments, which a compiler may compute itself (correctly rounded) instead of the C library",
                    cex.property.message
                );
                Found::Judged(Box::new(self.outcome(Verdict::Unknown(reason))))
            }
            Ok(class) => {
                let mut cex = cex;
                cex.property.class = class;
                Found::Judged(Box::new(self.outcome(Verdict::False(Box::new(cex)))))
            }
            Err(replay) => Found::Refuted { property: cex.property.message, replay },
        }
    }

    /// The UNKNOWN outcome for a violation that was not confirmed. When the
    /// replay refuted it while the model's results of inexact math
    /// functions differ from the host library's (`lemmas`, still there
    /// after the refinements), the violation depends on those results:
    /// C libraries are allowed them, the host's is not, and this is told
    /// apart from a replay that disagrees with symex.
    fn unconfirmed(&self, found: Found, lemmas: &[(String, symex::HostLemma)]) -> Outcome {
        let (property, replay) = match found {
            Found::Judged(outcome) | Found::Untrusted(outcome) => return *outcome,
            Found::Refuted { property, replay } => (property, replay),
        };
        let reason = match lemmas.is_empty() {
            true => format!("a violation of `{property}` was found but {replay}"),
            false => {
                let mut functions: Vec<&str> = lemmas.iter().map(|(name, _)| name.as_str()).collect();
                functions.dedup();
                format!(
                    "a violation of `{property}` depends on results of `{}` that the host C library does not give; other C libraries may (within {} ulps)",
                    functions.join("`, `"),
                    ir::libm::CONSTANT_ARGUMENT_ULPS
                )
            }
        };
        self.outcome(Verdict::Unknown(reason))
    }

    /// Replays `cex`, found in `model`, with the model's quantifiers as the
    /// replay's oracle.
    fn confirm(&mut self, cex: &crate::Counterexample, model: &Model, budget: Budget) -> Result<PropertyClass, String> {
        let vars = &self.execution.equation.quantified_vars;
        let store = &mut *self.store;
        let oracle = self.quantifiers.as_ref().map(|quantifiers| QuantifierOracle { store, model, quantifiers, vars });
        let started = Instant::now();
        let judged = replay::confirm(self.program, cex, self.config, self.model_loop_bound, oracle, budget);
        self.stats.replay_time += started.elapsed();
        judged
    }

    /// Whether `cex`'s assertion is violated for every value of its layout
    /// values once every other variable keeps its value in `model`: then
    /// the violation does not rest on where objects lie.
    fn violated_whatever_layout(&mut self, model: &Model, cex: &crate::Counterexample) -> bool {
        let free = smt::free_vars(self.store, &cex.layout_values).into_iter().collect();
        self.violated_whatever(model, cex, &free, &[])
    }

    /// Whether `cex`'s assertion is violated for every result a native
    /// build may give at the inexact math calls a compiler may fold
    /// (constant arguments: gcc computes them correctly rounded, the
    /// replay takes the host library's value, and the two may differ in
    /// the last bit; where the former is not known, every result the
    /// facts admit) and for every result the facts admit at the calls
    /// whose arguments depend on those, while every other call gives the
    /// host library's result (as in the replay) and every other variable
    /// keeps its value in `model`.
    fn violated_whatever_folding(&mut self, model: &Model, cex: &crate::Counterexample) -> bool {
        let calls = self.execution.equation.inexact_calls.clone();
        let mut free = std::collections::HashSet::new();
        let mut facts = Vec::new();
        let mut hosted = model.clone();
        for call in &calls {
            if call.foldable || smt::free_vars(self.store, &call.args).iter().any(|v| free.contains(v)) {
                free.extend(smt::free_vars(self.store, &[call.result]));
                let admitted = match call.foldable {
                    true => self.native_values(call).unwrap_or(call.facts),
                    false => call.facts,
                };
                facts.push(admitted);
            } else if let (Some(var), Some(host)) = (self.store.as_var(call.result), self.host_result(&hosted, call)) {
                hosted.set(var, host);
            }
        }
        if facts.is_empty() {
            return true;
        }
        // The replayed run: the violation and the constraints hold there.
        let assertion = &self.execution.equation.assertions[cex.assertion_index];
        let failed = self.store.not(assertion.condition);
        let mut run = vec![self.store.and2(assertion.guard, failed)];
        run.extend(&self.execution.equation.constraints);
        let mut evaluator = Evaluator::new(self.store, &hosted);
        let replayed = run.iter().all(|&term| matches!(evaluator.eval(term), Ok(Value::Bool(true))));
        replayed && self.violated_whatever(&hosted, cex, &free, &facts)
    }

    /// That the result of `call` (a foldable one) is one a native build
    /// gives: the host library's or a compiler's correctly rounded one
    /// (`ir::libm::folded_values`); `None` when the latter is not known.
    fn native_values(&mut self, call: &symex::InexactCall) -> Option<TermId> {
        let args: Option<Vec<u128>> = call.args.iter().map(|&a| self.store.as_bv_const(a).and_then(smt::BvValue::to_u128)).collect();
        let args = args?;
        let (f, format) = call.function;
        let mut values = ir::libm::folded_values(f, format, &args)?;
        values.push(ir::libm::host_value(f, format, &args)?);
        let choices: Vec<TermId> = values
            .into_iter()
            .map(|bits| {
                let value = self.store.bv_const(smt::BvValue::from_u128(format.storage_bits(), bits));
                self.store.eq(call.result, value)
            })
            .collect();
        Some(self.store.or(&choices))
    }

    /// The host library's result for `call` at its arguments in `model`,
    /// when the call is on the path there in rounding to nearest.
    fn host_result(&mut self, model: &Model, call: &symex::InexactCall) -> Option<Value> {
        let nearest = self.store.rm_const(smt::RoundingMode::Rne);
        let mut evaluator = Evaluator::new(self.store, model);
        let on_path = matches!(evaluator.eval(call.guard), Ok(Value::Bool(true)));
        let in_nearest = evaluator.eval(call.rounding).ok() == evaluator.eval(nearest).ok();
        if !on_path || !in_nearest {
            return None;
        }
        let args: Option<Vec<u128>> = call
            .args
            .iter()
            .map(|&a| match evaluator.eval(a) {
                Ok(Value::Bv(b)) => b.to_u128(),
                _ => None,
            })
            .collect();
        let (f, format) = call.function;
        let host = ir::libm::host_value(f, format, &args?)?;
        Some(Value::Bv(smt::BvValue::from_u128(format.storage_bits(), host)))
    }

    /// Whether `cex`'s assertion is violated for every value of the
    /// variables `free` that satisfies `facts`, once every other variable
    /// keeps its value in `model`.
    fn violated_whatever(
        &mut self,
        model: &Model,
        cex: &crate::Counterexample,
        free: &std::collections::HashSet<smt::VarId>,
        facts: &[TermId],
    ) -> bool {
        if self.quantifiers.is_some() {
            return false;
        }
        let assertion = &self.execution.equation.assertions[cex.assertion_index];
        let (guard, condition) = (assertion.guard, assertion.condition);
        let failed = self.store.not(condition);
        let mut roots = vec![self.store.and2(guard, failed)];
        roots.extend(facts);
        roots.extend(&self.execution.equation.constraints);
        let mut values = Vec::new();
        let mut evaluator = Evaluator::new(self.store, model);
        for var in smt::free_vars(self.store, &roots).into_iter().filter(|v| !free.contains(v)) {
            let term = self.store.var_term(var);
            match evaluator.eval(term) {
                Ok(value @ (Value::Bool(_) | Value::Bv(_))) => values.push((term, value)),
                _ => return false,
            }
        }
        let mut fixed = rustc_hash::FxHashMap::default();
        for (term, value) in values {
            let constant = match value {
                Value::Bool(b) => self.store.bool_const(b),
                Value::Bv(bv) => self.store.bv_const(bv),
                _ => unreachable!("only Boolean and bit-vector values are kept"),
            };
            fixed.insert(term, constant);
        }
        let images = smt::substitute(self.store, &roots, &fixed);
        let holds = self.store.not(images[0]);
        let mut query = images[1..].to_vec();
        query.push(holds);
        let mut solver = BitBlastSolver::new();
        if let Some(deadline) = self.deadline {
            solver.set_time_limit(Some(deadline.saturating_duration_since(Instant::now())));
        }
        solver.check(self.store, &query) == SatResult::Unsat
    }

    /// `--smt-formula`: the disjunction of all violation conditions (on
    /// stdout when the path is `-`).
    fn write_formula(&mut self, properties: &[TermId], unwinding: &[TermId]) -> Result<(), String> {
        let Some(path) = &self.config.smt_formula else { return Ok(()) };
        let all: Vec<TermId> = properties.iter().chain(unwinding).copied().collect();
        let mut formula = vec![self.store.or(&all)];
        formula.extend(&self.execution.equation.constraints);
        let text = smt::to_smtlib2(self.store, &formula, "ALL");
        if path.as_os_str() == "-" {
            // `--show-vcc`: on stdout, before the result.
            use std::io::Write;
            return std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("cannot write the formula: {e}"));
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}
