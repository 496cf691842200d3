//! Verification engines over symbolic execution: bounded model checking
//! ([`verify`] with one bound), incremental BMC (bounds 1, 2, 4, ...) and
//! k-induction (`kinduction`: base case, forward condition and inductive
//! step).
//!
//! A FALSE verdict carries a counterexample that the IR interpreter has
//! replayed to the same violated property; TRUE needs the unwinding
//! assertions to hold and no approximation that could hide a violation
//! (docs/DESIGN.md §9). Everything else is UNKNOWN with a reason.

mod backend;
mod bmc;
mod concrete;
mod counterexample;
pub mod houdini;
mod kinduction;
pub mod progress;
mod quantifiers;
mod replay;
pub mod termination;

pub use backend::{default_dir as default_crosscheck_dir, CrossCheckReport, Disagreement, ExternalSolver, SolverChoice};
pub use counterexample::{Counterexample, InputValue, TraceLine};
pub use replay::{replay_inputs, Reached};

use std::path::PathBuf;
use std::time::{Duration, Instant};
use symex::Approximation;

/// What to check and how.
#[derive(Clone, Debug)]
pub struct Config {
    /// Loop and recursion bound; `None` unrolls until loops exit.
    pub unwind: Option<u64>,
    /// When false, the bound is assumed and a clean result is only
    /// [`Verdict::BoundedTrue`].
    pub unwinding_assertions: bool,
    /// A program loop (not one of a library model) that runs past the
    /// bound is a violation of its unwinding assertion (FALSE, replayed),
    /// as CBMC and ESBMC report it; otherwise it makes the result UNKNOWN
    /// ("bound too small").
    pub unwinding_failures_are_violations: bool,
    pub pointer_checks: bool,
    pub bounds_checks: bool,
    /// As `symex::Options::alignment_checks`; the replay agrees.
    pub alignment_checks: bool,
    /// As `symex::Options::vla_length_checks`; the replay agrees.
    pub vla_length_checks: bool,
    /// Heap memory unreachable at exit is a violation (valid-memtrack).
    pub memory_leak_checks: bool,
    /// Heap memory still allocated at exit is a violation (valid-memcleanup).
    pub memory_cleanup_checks: bool,
    /// ESBMC's `--memory-leak-check` instead of the two above: heap memory
    /// still allocated where the program ends (as `symex::HeapAtExit::Esbmc`
    /// says) is a violation, reachable or not.
    pub esbmc_memory_leak_check: bool,
    /// As `symex::Options::data_race_checks`; the replay sees the race.
    pub data_race_checks: bool,
    /// As `symex::Options::deadlock_checks`; the replay sees the deadlock.
    pub deadlock_checks: bool,
    pub force_malloc_success: bool,
    /// As `symex::Options::force_realloc_success`; the replay agrees.
    pub force_realloc_success: bool,
    pub timeout: Option<Duration>,
    /// Write the verification condition in SMT-LIB2 here.
    pub smt_formula: Option<PathBuf>,
    /// How the bound is chosen: one bound, incremental BMC, k-induction.
    pub strategy: Strategy,
    /// Incremental BMC and k-induction's base case: bounds 1, 2, 4, ... up
    /// to this one, each with unwinding assertions, one solver kept across
    /// the bounds.
    pub max_bound: u64,
    /// k-induction: the inductive step's k runs 1, 1 + `k_step`, ... up to
    /// `max_k_step`.
    pub max_k_step: u64,
    pub k_step: u64,
    /// k-induction: base cases and inductive steps in two threads, the
    /// first decisive answer stopping the other.
    pub parallel: bool,
    /// Bidirectional k-induction: failed steps' states become targets of
    /// the base cases.
    pub bidirectional: bool,
    /// k-induction: the inductive step assumes the loop invariants that
    /// [`houdini::certify`] proves.
    pub invariants: bool,
    /// The solver that answers the queries.
    pub solver: SolverChoice,
    /// ESBMC's `--context-bound N`: a violation counts only when an
    /// interleaving with at most N context switches reaches it.
    pub context_bound: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            unwind: None,
            context_bound: None,
            unwinding_assertions: true,
            unwinding_failures_are_violations: false,
            pointer_checks: true,
            bounds_checks: true,
            alignment_checks: true,
            vla_length_checks: true,
            memory_leak_checks: false,
            memory_cleanup_checks: false,
            esbmc_memory_leak_check: false,
            data_race_checks: false,
            deadlock_checks: false,
            force_malloc_success: false,
            force_realloc_success: false,
            timeout: None,
            smt_formula: None,
            strategy: Strategy::Bmc,
            max_bound: 4096,
            max_k_step: 50,
            k_step: 1,
            parallel: false,
            bidirectional: false,
            invariants: true,
            solver: SolverChoice::Cadical,
        }
    }
}

/// How the engine chooses unwinding bounds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// One BMC run with `Config::unwind`.
    Bmc,
    /// Bounds 1, 2, 4, ... until a violation or a proof by exhaustion.
    IncrementalBmc,
    /// Incremental BMC's bounds as base case and forward condition, and an
    /// inductive step for k = 1, 2, ... (see `kinduction`).
    KInduction,
    /// Termination (see `termination`): lassos and bounded exhaustion
    /// over a program `termination::prepare`d for it.
    Termination,
}

/// How a TRUE verdict was proved.
#[derive(Clone, Debug)]
pub struct Proof {
    pub method: ProofMethod,
    /// k-induction: the certified invariants its inductive step assumed.
    pub invariants: Vec<ProvedInvariant>,
    /// Termination by ranking functions: one per loop.
    pub rankings: Vec<ProvedRanking>,
}

/// A loop's certified ranking function (see `termination`): a value that
/// decreases on every iteration, lexicographically when it has several
/// components.
#[derive(Clone, Debug)]
pub struct ProvedRanking {
    /// The function the loop is in.
    pub function: String,
    /// The loop head's location.
    pub loc: ir::Loc,
    /// The components as C expressions over the variables at the head,
    /// most significant first.
    pub components: Vec<String>,
}

impl ProvedRanking {
    /// "linear" or "lexicographic".
    pub fn form(&self) -> &'static str {
        match self.components.len() {
            1 => "linear",
            _ => "lexicographic",
        }
    }

    /// The function as one C-like text: `n - i`, or `(x, y)`.
    pub fn text(&self) -> String {
        match self.components.as_slice() {
            [one] => one.clone(),
            many => format!("({})", many.join(", ")),
        }
    }
}

/// A certified loop invariant, as the proof used it.
#[derive(Clone, Debug)]
pub struct ProvedInvariant {
    /// The function whose loop head it holds at.
    pub function: String,
    /// The loop head's location.
    pub loc: ir::Loc,
    /// The invariant as a C expression over the variables in scope there
    /// (a quantified one: `forall long long j: ...`, which is no C).
    pub c_text: String,
    /// Quantified over a bound variable (an array segment): no C
    /// expression states it, so no witness carries it.
    pub quantified: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofMethod {
    /// Every loop was unwound to its end: within this bound (the forward
    /// condition: no unwinding assertion can fail), or, without one, as
    /// far as each loop runs.
    BoundedExhaustion { bound: Option<u64> },
    /// The inductive step at this k has no violation.
    KInduction { k: u64 },
    /// Every loop has a certified ranking function and nothing recurses.
    RankingFunctions,
}

/// What a k-induction run spent and found, per kind of check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KInductionStats {
    /// Base cases: symbolic execution of each bound and its query for a
    /// violation (and the replay of one).
    pub base: Duration,
    /// Forward conditions: each bound's query for a failing unwinding
    /// assertion.
    pub forward: Duration,
    /// Inductive steps.
    pub step: Duration,
    /// Invariant generation and certification.
    pub invariants: Duration,
    /// Candidate invariants found, and how many of them were certified.
    pub invariants_found: usize,
    pub invariants_certified: usize,
}

/// The answer.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No violation is possible.
    True,
    /// A replayed violation.
    False(Box<Counterexample>),
    /// No violation up to the bound, which was assumed (not checked):
    /// `--unwind` when given, and the loops' own bounds
    /// ([`ir::LoopUnwind`]) in any case.
    BoundedTrue { bound: Option<u64> },
    Unknown(String),
}

/// Figures about a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub assertions: usize,
    pub instructions: u64,
    pub terms: usize,
    pub solver_calls: u32,
    /// The bound of the last BMC run (incremental BMC: the final one).
    pub bound: Option<u64>,
    /// k-induction: the k of the last inductive step run.
    pub k: Option<u64>,
    /// k-induction: time per kind of check, invariants found and certified.
    pub kinduction: Option<Box<KInductionStats>>,
    /// Time spent in symbolic execution, over all bounds.
    pub symex_time: std::time::Duration,
    /// Time spent replaying counterexamples in the interpreter, over all
    /// bounds.
    pub replay_time: std::time::Duration,
    /// Time spent asking whether an unwinding assertion can fail (the
    /// forward condition), over all bounds.
    pub forward_time: std::time::Duration,
    /// Formula size and SAT effort of the solver, which the bounds of
    /// incremental BMC share (their totals).
    pub solver: bitblast::Stats,
    /// With [`SolverChoice::CrossCheck`]: the comparison with the external solver.
    pub crosscheck: Option<Box<CrossCheckReport>>,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// Everything modelled approximately (listed in the output).
    pub approximations: Vec<Approximation>,
    pub stats: Stats,
    /// For a TRUE verdict of incremental BMC or k-induction: how it was proved.
    pub proof: Option<Box<Proof>>,
}

/// Stack of the verification thread: symex recurses once per expression
/// nesting level (bounded by symex's depth limit).
pub(crate) const STACK_BYTES: usize = 512 << 20;

/// Verifies `program` (already instrumented with its properties).
pub fn verify(program: &ir::Program, config: &Config) -> Outcome {
    let deadline = config.timeout.map(|t| Instant::now() + t);
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("tarsier-engine".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || match config.strategy {
                Strategy::Bmc => bmc::bmc(program, config, config.unwind, deadline),
                Strategy::IncrementalBmc => bmc::incremental(program, config, deadline),
                Strategy::KInduction => kinduction::kinduction(program, config, deadline),
                Strategy::Termination => termination::termination(program, config, deadline),
            });
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|_| unknown("internal error: the verification engine crashed")),
            Err(e) => unknown(&format!("cannot start the verification thread: {e}")),
        }
    })
}

/// Certifies candidate invariants of `program` (see [`houdini`]), on a
/// thread with the engine's stack.
pub fn certify_invariants(program: &ir::Program, invariants: &analysis::invariants::Invariants, config: &Config) -> houdini::Certification {
    let deadline = config.timeout.map(|t| Instant::now() + t);
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("tarsier-houdini".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || houdini::certify_candidates(program, invariants, config, deadline));
        let failed = |why: &str| houdini::Certification {
            found: invariants.candidates.len(),
            notes: vec![why.to_string()],
            ..houdini::Certification::default()
        };
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|_| failed("internal error: the certification crashed")),
            Err(e) => failed(&format!("cannot start the certification thread: {e}")),
        }
    })
}

fn unknown(reason: &str) -> Outcome {
    Outcome { verdict: Verdict::Unknown(reason.to_string()), approximations: vec![], stats: Stats::default(), proof: None }
}
