//! k-induction (docs/DESIGN.md §7): a base case and forward condition
//! (incremental BMC's check of one bound: a violation is a replayed FALSE,
//! no reachable unwinding assertion a proof by bounded exhaustion) and an
//! inductive step (symex in step mode, see `symex::step`: every loop entry
//! may be a long one whose modified state is havocked, whose certified
//! invariants are assumed and whose first k iterations assume the checks;
//! no violation on any path is a proof).
//!
//! First, BMC without a bound tries to unroll every loop to its end within
//! a small budget of symex steps and time (loops of fixed length are
//! decided so in one pass). Then the base cases run at bounds 1, 2, 4, ...
//! (`bmc::next_bound`) up to `max_bound`, as incremental BMC's do, so a deep violation is found
//! in few rounds, and the inductive steps at k = 1, 1 + `k_step`, ... up to
//! `max_k_step`: one after the other, a base case then a step per round,
//! or (`parallel`) each kind in its own thread, the first decisive answer
//! stopping the other. Each kind of check keeps its own session (term
//! store and solver) across its rounds. Bidirectional k-induction (bkind)
//! hands each failed step's state at its first long loop entry to the
//! base cases as a target: a base case that reaches it jumps to a bound k+1
//! deeper, where the violation is if the step's path is a real one (a FALSE
//! is still the base case's own replayed trace from the entry). The step is
//! not run when the program recurses or a loop allocates memory (the result
//! says so). Before the first step, the candidate invariants of abstract
//! interpretation are certified (`houdini::certify`, unless
//! `Config::invariants` is off); every step assumes the certified ones at
//! their loop heads, which makes properties inductive that need a fact
//! about the loop's variables (`x <= 100`) the property does not state.

use crate::bmc::{self, BoundResult, Session};
use crate::concrete;
use crate::houdini::{self, Certification};
use crate::{Config, KInductionStats, Outcome, Proof, ProofMethod, ProvedInvariant, Verdict};
use analysis::modified::ProgramEffects;
use analysis::ProgramLoops;
use ir::Program;
use smt::SatResult;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Bidirectional k-induction's targets, shared by the base cases and the
/// steps: each with the k of the step that found it.
type Targets = Arc<Mutex<Vec<(symex::Target, u64)>>>;

/// What one inductive step at some k established.
enum StepResult {
    /// No path violates a check: the program is safe.
    Proved,
    /// Some path does (maybe from a state no execution reaches); with
    /// `bidirectional`, the state at the head of its first long entry.
    NotInductive(Option<symex::Target>),
    /// The step cannot tell (the reason).
    Inconclusive(String),
}

/// The run of base cases and forward conditions.
struct BaseCases<'a> {
    program: &'a Program,
    config: &'a Config,
    session: Session,
    /// The next bound to check; `None` once `max_bound` was checked.
    bound: Option<u64>,
    /// The outcome of the last bound that was too small.
    last: Option<Outcome>,
    /// Time in all bounds, their forward conditions included.
    time: Duration,
    /// Time in the forward conditions.
    forward: Duration,
    /// Bidirectional: states from which the step at k found a violation.
    targets: Targets,
    /// Whether the concrete runs (`concrete`) were tried.
    ran_concrete: bool,
}

/// The bound from which the base cases try concrete runs (`concrete`): a
/// violation the shallower bounds missed may lie past any bound (2^27
/// iterations of a counting loop), or in loops over arrays too large for
/// the solver, where such a run gets in moments.
const CONCRETE_RUN_BOUND: u64 = 64;

/// ... or at once when the attempt to unroll every loop took this long:
/// the loops are long.
const CONCRETE_RUN_AFTER: Duration = Duration::from_secs(2);

impl BaseCases<'_> {
    /// Checks the next bound: the final outcome when it decides.
    fn next(&mut self, options: &symex::Options) -> Option<Outcome> {
        let bound = self.bound?;
        if bound >= CONCRETE_RUN_BOUND {
            if let Some(found) = self.run_concretely() {
                return Some(found);
            }
        }
        let started = Instant::now();
        let targets: Vec<(symex::Target, u64)> = self.targets.lock().map(|t| t.clone()).unwrap_or_default();
        let options = symex::Options { unwind: Some(bound), targets: targets.iter().map(|(t, _)| t.clone()).collect(), ..options.clone() };
        self.session.renew_for_bound(self.program, self.config);
        let (result, reached) = bmc::check_with_targets(self.program, self.config, &options, options.deadline, &mut self.session);
        self.time += started.elapsed();
        self.forward += result.stats().forward_time;
        // A target reached within this bound leads to a violation within k+1
        // more iterations, if its step's path is a real one.
        let jump = match reached {
            true => targets.iter().map(|&(_, k)| bound.saturating_add(k + 1)).max().unwrap_or(0),
            false => 0,
        };
        let next = bmc::next_bound(self.program, bound).max(jump).min(self.config.max_bound);
        self.bound = (bound < self.config.max_bound).then_some(next);
        match result {
            BoundResult::TooSmall((outcome, _)) => {
                self.last = Some(outcome);
                None
            }
            BoundResult::Exhausted(outcome) => {
                self.bound = None;
                self.last.is_none().then_some(outcome)
            }
            BoundResult::Done(mut outcome) => {
                if matches!(outcome.verdict, Verdict::True) {
                    let method = ProofMethod::BoundedExhaustion { bound: Some(bound) };
                    outcome.proof = Some(Box::new(Proof { method, invariants: Vec::new(), rankings: Vec::new() }));
                }
                Some(outcome)
            }
        }
    }
}

impl BaseCases<'_> {
    /// The concrete runs' violation, the first time they are asked for.
    fn run_concretely(&mut self) -> Option<Outcome> {
        if std::mem::replace(&mut self.ran_concrete, true) {
            return None;
        }
        let started = Instant::now();
        crate::progress::stage("concrete runs", None);
        let found = concrete::violation(self.program, self.config);
        self.time += started.elapsed();
        found
    }
}

/// The run of inductive steps.
struct Steps<'a> {
    program: &'a Program,
    config: &'a Config,
    session: Session,
    effects: Arc<ProgramEffects>,
    /// The next k; `None` once `max_k_step` was passed or the step cannot run.
    k: Option<u64>,
    /// The k of the last step run.
    last: Option<u64>,
    /// Why the step cannot run, if it cannot.
    blocked: Option<String>,
    time: Duration,
    /// Where bidirectional k-induction puts the step's counterexamples.
    targets: Option<Targets>,
    /// The certified invariants (once the first step asked for them).
    certification: Option<Certification>,
    /// The same by (function, loop head), as the step assumes them.
    invariants: HashMap<(ir::FuncId, usize), Vec<symex::HeadInvariant>>,
}

impl Steps<'_> {
    /// Runs the next step: the k that proved the program, if it did.
    fn next(&mut self, deadline: Option<Instant>, cancel: &Option<Arc<AtomicBool>>) -> Option<u64> {
        let k = self.k?;
        if self.certification.is_none() {
            self.certify(deadline);
        }
        let started = Instant::now();
        self.last = Some(k);
        crate::progress::stage("inductive step", Some(k));
        let result = self.check(k, deadline, cancel);
        self.time += started.elapsed();
        let next = k + self.config.k_step;
        self.k = (next <= self.config.max_k_step).then_some(next);
        match result {
            StepResult::Proved => return Some(k),
            StepResult::NotInductive(target) => {
                if let (Some(target), Some(targets)) = (target, &self.targets) {
                    if let Ok(mut targets) = targets.lock() {
                        targets.push((target, k));
                    }
                }
            }
            StepResult::Inconclusive(reason) => {
                self.k = None;
                self.blocked = Some(reason);
            }
        }
        None
    }

    /// Certifies the candidate invariants of the program (unless
    /// `Config::invariants` is off): the steps assume the certified ones
    /// at their loop heads.
    fn certify(&mut self, deadline: Option<Instant>) {
        crate::progress::stage("invariants", None);
        let certification = match self.config.invariants {
            true => houdini::certify(self.program, self.config, deadline),
            false => Certification::default(),
        };
        for c in &certification.certified {
            let invariant = symex::HeadInvariant { expr: c.expr.clone(), bound: c.bound };
            self.invariants.entry((c.func, c.head.0 as usize)).or_default().push(invariant);
        }
        self.certification = Some(certification);
    }

    /// The time the steps have taken, their invariants' certification
    /// included.
    fn spent(&self) -> Duration {
        self.time + self.certification.as_ref().map_or(Duration::ZERO, |c| c.analysis_time + c.time)
    }

    /// What the steps established, for an UNKNOWN.
    fn summary(&self) -> String {
        match (&self.blocked, self.k) {
            (Some(reason), _) => format!("no inductive step ({reason})"),
            (None, Some(k)) => format!("not inductive up to k = {}", k.saturating_sub(self.config.k_step)),
            (None, None) => format!("not inductive up to k = {}", self.config.max_k_step),
        }
    }
}

pub(crate) fn kinduction(program: &Program, config: &Config, deadline: Option<Instant>) -> Outcome {
    let mut base = match Session::new(config) {
        Ok(session) => BaseCases {
            program,
            config,
            session,
            bound: Some(1),
            last: None,
            time: Duration::ZERO,
            forward: Duration::ZERO,
            targets: Arc::default(),
            ran_concrete: false,
        },
        Err(outcome) => return *outcome,
    };
    let started = Instant::now();
    let unrolled = unroll_completely(program, config, deadline, &mut base.session);
    base.time += started.elapsed();
    if let Some(outcome) = unrolled {
        return with_proof(outcome, Some(ProofMethod::BoundedExhaustion { bound: None }), &base, None);
    }
    if base.time >= CONCRETE_RUN_AFTER {
        if let Some(outcome) = base.run_concretely() {
            return with_proof(outcome, None, &base, None);
        }
    }
    let effects = ProgramEffects::of_program(program);
    // SV-COMP's valid-memtrack holds at all times: memory lost before a
    // loop that never ends violates it, which the step cannot see (it has
    // no exit to check), so it proves nothing then.
    let blocked = match config.memory_leak_checks && !config.esbmc_memory_leak_check {
        true => Some("valid-memtrack must hold on paths that never end, which the step does not check".to_string()),
        false => why_no_step(program, &effects),
    };
    let mut steps = match Session::new(config) {
        Ok(session) => Steps {
            program,
            config,
            session,
            effects: Arc::new(effects),
            k: blocked.is_none().then_some(1),
            last: None,
            blocked,
            time: Duration::ZERO,
            targets: config.bidirectional.then(|| Arc::clone(&base.targets)),
            certification: None,
            invariants: HashMap::new(),
        },
        Err(outcome) => return *outcome,
    };
    let options = bmc::symex_options(config, None, None, true, deadline);
    let decided = match config.parallel {
        false => one_after_the_other(&mut base, &mut steps, &options, deadline),
        true => in_parallel(&mut base, &mut steps, &options, deadline),
    };
    match decided {
        Some(Decided::Base(outcome)) => {
            let method = outcome.proof.as_ref().map(|p| p.method);
            with_proof(*outcome, method, &base, Some(&steps))
        }
        Some(Decided::Step(k)) => {
            let mut outcome = base.last.take().unwrap_or_else(|| crate::unknown(""));
            outcome.verdict = Verdict::True;
            with_proof(outcome, Some(ProofMethod::KInduction { k }), &base, Some(&steps))
        }
        None => {
            let mut outcome = base.last.take().unwrap_or_else(|| crate::unknown(""));
            let bound = outcome.stats.bound.map_or(String::new(), |b| format!(" up to bound {b}"));
            let reason = format!("no violation{bound}, but loops can run longer; {}", steps.summary());
            outcome.verdict = Verdict::Unknown(reason);
            with_proof(outcome, None, &base, Some(&steps))
        }
    }
}

/// The answer that ended the search.
enum Decided {
    /// A base case or forward condition decided (FALSE, TRUE, UNKNOWN).
    Base(Box<Outcome>),
    /// The inductive step at this k proved the program.
    Step(u64),
}

/// Base cases and steps in turn, until one decides or both run out: the
/// kind that has spent less time so far goes next, so a step made slow by
/// a long loop (a library model's) does not hold back base cases that
/// would find a shallow violation quickly, nor the reverse.
fn one_after_the_other(base: &mut BaseCases, steps: &mut Steps, options: &symex::Options, deadline: Option<Instant>) -> Option<Decided> {
    while base.bound.is_some() || steps.k.is_some() {
        let base_next = base.bound.is_some() && (steps.k.is_none() || base.time <= steps.spent());
        if base_next {
            if let Some(outcome) = base.next(options) {
                return Some(Decided::Base(Box::new(outcome)));
            }
        } else if let Some(k) = steps.next(deadline, &None) {
            return Some(Decided::Step(k));
        }
    }
    None
}

/// The base cases in this thread and the steps in another; the first
/// decisive answer raises the flag that stops the other (symex and the
/// solver look at it).
fn in_parallel(base: &mut BaseCases, steps: &mut Steps, options: &symex::Options, deadline: Option<Instant>) -> Option<Decided> {
    let stop = Arc::new(AtomicBool::new(false));
    let cancel = Some(Arc::clone(&stop));
    base.session.set_interrupt(Arc::clone(&stop));
    steps.session.set_interrupt(Arc::clone(&stop));
    let options = symex::Options { cancel: cancel.clone(), ..options.clone() };
    std::thread::scope(|scope| {
        let stepper = std::thread::Builder::new().name("tarsier-step".into()).stack_size(crate::STACK_BYTES).spawn_scoped(scope, || {
            while steps.k.is_some() && !stop.load(Ordering::Relaxed) {
                if let Some(k) = steps.next(deadline, &cancel) {
                    stop.store(true, Ordering::Relaxed);
                    return Some(k);
                }
            }
            None
        });
        let mut decided = None;
        while base.bound.is_some() && !stop.load(Ordering::Relaxed) {
            if let Some(outcome) = base.next(&options) {
                if !stop.swap(true, Ordering::Relaxed) {
                    decided = Some(Decided::Base(Box::new(outcome)));
                }
                break;
            }
        }
        let proved = match stepper {
            Ok(handle) => handle.join().unwrap_or(None),
            Err(_) => None,
        };
        decided.or(proved.map(Decided::Step))
    })
}

/// `outcome` with the figures of the run and, for a TRUE, the proof
/// `method` (with the invariants the steps assumed, if a step proved it).
fn with_proof(mut outcome: Outcome, method: Option<ProofMethod>, base: &BaseCases, steps: Option<&Steps>) -> Outcome {
    let certification = steps.and_then(|s| s.certification.as_ref());
    outcome.stats.k = steps.and_then(|s| s.last);
    outcome.stats.kinduction = Some(Box::new(KInductionStats {
        base: base.time.saturating_sub(base.forward),
        forward: base.forward,
        step: steps.map_or(Duration::ZERO, |s| s.time),
        invariants: certification.map_or(Duration::ZERO, |c| c.analysis_time + c.time),
        invariants_found: certification.map_or(0, |c| c.found),
        invariants_certified: certification.map_or(0, |c| c.certified.len()),
    }));
    let Some(method) = method.filter(|_| matches!(outcome.verdict, Verdict::True)) else { return outcome };
    let invariants = match (method, certification) {
        (ProofMethod::KInduction { .. }, Some(certification)) => {
            certification.certified.iter().map(|c| proved_invariant(base.program, c)).collect()
        }
        _ => Vec::new(),
    };
    outcome.proof = Some(Box::new(Proof { method, invariants, rankings: Vec::new() }));
    outcome
}

fn proved_invariant(program: &Program, candidate: &analysis::invariants::Candidate) -> ProvedInvariant {
    let function = program.functions[candidate.func].name.clone();
    ProvedInvariant { function, loc: candidate.loc, c_text: candidate.c_text.clone(), quantified: candidate.bound.is_some() }
}

/// Instructions symex may run in [`unroll_completely`]'s attempt, and
/// for how long (writes into arrays of symbolic size can make each step
/// slow); and how long the attempt may take in all, its solver included
/// (a loop run to its end 1000 times can make a query the solver does not
/// finish, where the inductive step is one quick query).
const UNROLL_STEPS: u64 = 20_000;
const UNROLL_TIME: Duration = Duration::from_secs(2);
const UNROLL_TOTAL_TIME: Duration = Duration::from_secs(5);

/// The answer of BMC without a bound (every loop unrolled as far as it
/// runs, as symex ends loops whose exit it can see) when symex finishes
/// within [`UNROLL_STEPS`] and [`UNROLL_TIME`] and the solver decides
/// within [`UNROLL_TOTAL_TIME`]:
/// most programs whose loops run a fixed number of times are decided so
/// in one pass, as plain BMC decides them. `None` otherwise (the bounds
/// and the step take over).
///
/// A program with threads has no inductive step: only the base cases
/// could follow, and at a bound that every loop fits in they would ask
/// this same formula again, after the smaller bounds' queries, searches
/// over the interleavings that can be as hard as the whole. So once symex
/// finished, its solver has until `deadline`.
fn unroll_completely(program: &Program, config: &Config, deadline: Option<Instant>, session: &mut Session) -> Option<Outcome> {
    let started = Instant::now();
    let within = |limit: Duration| Some(deadline.map_or(started + limit, |d| d.min(started + limit)));
    let options = symex::Options { max_steps: UNROLL_STEPS, ..bmc::symex_options(config, None, None, true, within(UNROLL_TIME)) };
    let solved_by = match program.creates_threads() {
        true => deadline,
        false => within(UNROLL_TOTAL_TIME),
    };
    match bmc::check_with(program, config, &options, solved_by, session) {
        BoundResult::Done(outcome) if matches!(outcome.verdict, Verdict::True | Verdict::False(_)) => Some(outcome),
        _ => None,
    }
}

/// Why the inductive step cannot be run on `program`, if it cannot.
fn why_no_step(program: &Program, effects: &ProgramEffects) -> Option<String> {
    let entry = program.entry?;
    if program.creates_threads() {
        return Some("the program starts threads, whose interleavings the step does not havoc".to_string());
    }
    if let Some(f) = effects.recursion_from(entry) {
        return Some(format!("`{}` is recursive", program.functions[f].name));
    }
    let loops = ProgramLoops::of_program(program);
    for (func, function) in program.functions.iter() {
        let Some(forest) = loops.function(func) else { continue };
        for (id, l) in forest.iter() {
            if effects.of_loop(program, func, forest, id).allocates {
                let at = program.files.name(l.loc.file);
                return Some(format!("the loop at {at}:{} of `{}` allocates memory", l.loc.line, function.name));
            }
        }
    }
    None
}

impl Steps<'_> {
    /// The inductive step at `k`. A step that its quantified invariants
    /// (array segments) leave undecided runs again without them, and so do
    /// the later ones: they cost a proof at most, never the step.
    fn check(&mut self, k: u64, deadline: Option<Instant>, cancel: &Option<Arc<AtomicBool>>) -> StepResult {
        let result = self.check_with_invariants(k, deadline, cancel);
        let quantified = self.invariants.values().flatten().any(|i| i.bound.is_some());
        if !matches!(result, StepResult::Inconclusive(_)) || !quantified {
            return result;
        }
        for invariants in self.invariants.values_mut() {
            invariants.retain(|i| i.bound.is_none());
        }
        if let Some(certification) = &mut self.certification {
            certification.certified.retain(|c| c.bound.is_none());
        }
        self.check_with_invariants(k, deadline, cancel)
    }

    fn check_with_invariants(&mut self, k: u64, deadline: Option<Instant>, cancel: &Option<Arc<AtomicBool>>) -> StepResult {
        let step = symex::InductiveStep { k, effects: Arc::clone(&self.effects), invariants: self.invariants.clone() };
        let options = symex::Options {
            step: Some(Arc::new(step)),
            cancel: cancel.clone(),
            ..bmc::symex_options(self.config, None, None, false, deadline)
        };
        let store = &mut self.session.store;
        store.recycle_variables();
        let execution = match symex::execute(self.program, &options, store) {
            Ok(execution) => execution,
            Err(stop) => return StepResult::Inconclusive(bmc::describe_stop(self.program, &stop)),
        };
        if let Some(stop) = &execution.stopped {
            return StepResult::Inconclusive(bmc::describe_stop(self.program, stop));
        }
        let mut run = bmc::Run::new(self.program, self.config, store, execution, deadline);
        let solver = &mut self.session.solver;
        match run.any_violation(solver) {
            SatResult::Sat => StepResult::NotInductive(self.targets.is_some().then(|| run.target(solver)).flatten()),
            SatResult::Unknown(reason) => StepResult::Inconclusive(reason),
            SatResult::Unsat => match run.clean_true(solver) {
                Ok(()) => StepResult::Proved,
                Err(reason) => StepResult::Inconclusive(reason),
            },
        }
    }
}
