//! The configuration of one tarsier run: everything the command line says,
//! in one value. The front end reads [`Config::front`]; the verification
//! options ([`VerifyOptions`]) are what the engine work will consume.

use std::path::PathBuf;
use std::time::Duration;

/// What the run does with the program.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Action {
    /// Verify the program (the default).
    #[default]
    Verify,
    /// Preprocess, parse, type-check and lower; report diagnostics only.
    ParseOnly,
    /// Print the IR of the program.
    ShowIr,
    /// Print the candidate loop invariants of the abstract interpreter.
    ShowInvariants,
    /// Print the loops with the ids `--unwindset` names them by.
    ShowLoops,
    /// Check a violation witness (`--validate-witness FILE`) by replaying
    /// its waypoints.
    ValidateWitness,
}

/// The formats of `--witness`.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum WitnessFormat {
    /// SV-COMP's witness format 2.0 (YAML).
    #[default]
    Yaml,
    /// SV-COMP's witness format 1.0 (GraphML).
    GraphMl,
}

/// The verification strategy.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Engine {
    /// None chosen: bounded model checking with `--unwind`, k-induction
    /// without it.
    #[default]
    Bmc,
    /// BMC with the bound increased step by step.
    IncrementalBmc,
    /// k-induction.
    KInduction,
}

/// Which properties are checked. Defaults: assertions, array bounds,
/// pointer validity and division by zero on; the rest off.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Checks {
    pub assertions: bool,
    pub bounds: bool,
    pub pointer: bool,
    /// Ordering and difference of pointers into different objects, part
    /// of the pointer checks (ESBMC's `--no-pointer-relation-check`).
    pub pointer_relation: bool,
    /// C's alignment rule for accesses (C11 6.3.2.3p7; off with ESBMC's
    /// `--no-align-check`).
    pub alignment: bool,
    /// Variable-length array lengths, part of the bounds checks (C11
    /// 6.7.6.2p5; off with ESBMC's `--no-vla-size-check`).
    pub vla_length: bool,
    pub div_by_zero: bool,
    pub signed_overflow: bool,
    pub unsigned_overflow: bool,
    /// Floating-point overflow to infinity (`--float-overflow-check`).
    pub float_overflow: bool,
    /// The C library models' own assertions (off: `--no-library-assertions`).
    pub library_assertions: bool,
    /// Shift amounts out of range and negative values shifted left
    /// (`--undefined-shift-check`, and `--ub-shift-check`).
    pub shift: bool,
    /// Signed left shifts whose exact result does not fit
    /// (`--ub-shift-check`, ESBMC's, which checks them with the shift).
    pub shift_result: bool,
    /// `__builtin_clz`/`ctz` of 0 (on unless `--no-clz-zero-check`).
    pub bit_count: bool,
    pub memory_leak: bool,
    pub nan: bool,
    pub data_races: bool,
    pub deadlock: bool,
    pub termination: bool,
    /// A call of `reach_error`/`__VERIFIER_error` is a violation; off
    /// under an SV-COMP property other than unreach-call, where the call
    /// ends the program as `abort` does.
    pub reach_error: bool,
}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            assertions: true,
            bounds: true,
            pointer: true,
            pointer_relation: true,
            alignment: true,
            vla_length: true,
            div_by_zero: true,
            signed_overflow: false,
            unsigned_overflow: false,
            float_overflow: false,
            shift: false,
            shift_result: false,
            library_assertions: true,
            bit_count: true,
            memory_leak: false,
            nan: false,
            data_races: false,
            deadlock: false,
            termination: false,
            reach_error: true,
        }
    }
}

/// The options of the verification engine.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VerifyOptions {
    pub engine: Engine,
    pub checks: Checks,
    /// Loop unwinding bound; `None` unrolls until loops exit.
    pub unwind: Option<u64>,
    /// ESBMC's context bound (`--context-bound N`).
    pub context_bound: Option<u64>,
    /// When false, the unwinding bound is an assumption (a TRUE verdict is
    /// then only "no violation within the bound").
    pub unwinding_assertions: bool,
    /// The largest bound incremental BMC tries and the largest k of
    /// k-induction (`--max-k-step`); `None` leaves the engine's defaults.
    pub max_k_step: Option<u64>,
    /// How much k-induction's k grows per step (`--k-step`).
    pub k_step: u64,
    /// k-induction's base cases and steps in parallel threads
    /// (`--k-induction-parallel`).
    pub parallel: bool,
    /// Bidirectional k-induction (`--bidirectional`).
    pub bidirectional: bool,
    /// k-induction's steps assume certified loop invariants (off with
    /// `--no-invariants`).
    pub invariants: bool,
    /// The property is "this label is unreachable".
    pub error_label: Option<String>,
    /// When false, `malloc` may return NULL.
    pub force_malloc_success: bool,
    /// `realloc` never returns NULL (`--force-realloc-success`).
    pub force_realloc_success: bool,
    /// Heap memory still allocated at exit is a violation (SV-COMP
    /// valid-memcleanup; set by a property file).
    pub memory_cleanup: bool,
    pub timeout: Option<Duration>,
    pub memlimit_mb: Option<u64>,
    /// The SV-COMP property of `--property FILE.prp` (it sets the checks).
    pub property: Option<report::svcomp::Category>,
    /// A property file whose formulas tarsier has no engine for: why (the
    /// run answers UNKNOWN with it).
    pub unsupported_property: Option<String>,
    /// The property file's text, as a witness states it.
    pub specification: Option<String>,
    /// Where to write the witness of the verdict (`--witness`).
    pub witness: Option<PathBuf>,
    pub witness_format: WitnessFormat,
    /// The violation witness to check (`--validate-witness`).
    pub witness_to_validate: Option<PathBuf>,
    pub json: bool,
    /// Where to write the SARIF log (`--sarif`).
    pub sarif: Option<PathBuf>,
    /// Where to write the HTML report (`--html`).
    pub html: Option<PathBuf>,
    /// Where to write the SMT-LIB2 formula.
    pub smt_formula: Option<PathBuf>,
    /// Report every violated property, not only the first.
    pub multi_property: bool,
    /// Where to write the counterexample's executable harness (`--harness`).
    pub harness: Option<PathBuf>,
    /// Where to write the Test-Comp test suite (`--test-suite DIR`).
    pub test_suite: Option<PathBuf>,
    /// The solver that answers the queries (`--solver`).
    pub solver: engine::SolverChoice,
    /// `--crosscheck NAME`: also ask this solver every query and compare.
    pub crosscheck: Option<engine::ExternalSolver>,
    /// Where the cross-check writes the queries the solvers disagree on.
    pub crosscheck_dir: Option<PathBuf>,
    /// Per-loop bounds (`--unwindset LOOP:N`), loops named as
    /// `--show-loops` prints them.
    pub unwindset: Vec<(String, u64)>,
    /// How much is said on stderr while the run goes on (`--verbosity`):
    /// 0 nothing, 1 (the default) a progress line when stderr is a
    /// terminal.
    pub verbosity: u64,
    /// Testing: add wrong twins of the candidate invariants (negations,
    /// bounds moved inwards), which certification must reject.
    pub inject_wrong_invariants: bool,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            engine: Engine::Bmc,
            checks: Checks::default(),
            unwind: None,
            context_bound: None,
            unwinding_assertions: true,
            max_k_step: None,
            k_step: 1,
            parallel: false,
            bidirectional: false,
            invariants: true,
            error_label: None,
            force_malloc_success: false,
            force_realloc_success: false,
            memory_cleanup: false,
            timeout: None,
            memlimit_mb: None,
            property: None,
            unsupported_property: None,
            specification: None,
            witness: None,
            witness_format: WitnessFormat::Yaml,
            witness_to_validate: None,
            json: false,
            sarif: None,
            html: None,
            smt_formula: None,
            multi_property: false,
            harness: None,
            test_suite: None,
            solver: engine::SolverChoice::Cadical,
            crosscheck: None,
            crosscheck_dir: None,
            unwindset: Vec::new(),
            verbosity: 1,
            inject_wrong_invariants: false,
        }
    }
}

/// One run of tarsier.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The C files of the program (several files are one program).
    pub inputs: Vec<PathBuf>,
    pub action: Action,
    /// Preprocessor, data model and entry point.
    pub front: cfront::Options,
    pub verify: VerifyOptions,
}
