//! The solver behind the engine's queries ([`SolverChoice`]): the
//! bit-blaster with CaDiCaL (the default), an external SMT-LIB2 solver
//! process (z3, cvc5, bitwuzla or any command), or both at once, compared
//! query by query (the cross-check of the bit-blaster, the rewriter and the
//! SMT-LIB2 printer).
//!
//! An external solver's `sat` is trusted only once its model satisfies the
//! query under tarsier's evaluator, as the bit-blaster's own answers are:
//! a model that does not (or cannot be read) gives `Unknown`, so a printer
//! or solver bug never becomes a counterexample. Its `unsat` is taken as
//! it is: that is what the cross-check is for.

mod crosscheck;

pub use crosscheck::{default_dir, CrossCheckReport, Disagreement};

use bitblast::BitBlastSolver;
use crosscheck::CrossCheck;
use smt::{EvalError, Evaluator, Model, ProcessSolver, SatResult, Solver, TermId, TermStore, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Which solver answers the queries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SolverChoice {
    /// Bit-blasting into CaDiCaL.
    #[default]
    Cadical,
    /// An external SMT-LIB2 solver.
    External(ExternalSolver),
    /// CaDiCaL answers; every query is also put to `external` and the
    /// answers compared; a disagreement's query is written under `dir`.
    CrossCheck { external: ExternalSolver, dir: PathBuf },
}

/// An SMT-LIB2 solver command that reads a script on standard input and
/// answers interactively.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    /// The name the user gave (`z3`, or the command of `smtlib:CMD`).
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
}

/// The SMT-LIB2 logic the queries are declared in (they mix bit-vectors,
/// arrays and floating point).
const LOGIC: &str = "ALL";

impl ExternalSolver {
    /// `z3`, `cvc5`, `bitwuzla`, or `smtlib:CMD` (a command line split at
    /// spaces, e.g. `smtlib:yices-smt2 --incremental`).
    pub fn named(name: &str) -> Result<ExternalSolver, String> {
        let (program, args): (&str, &[&str]) = match name {
            "z3" => ("z3", &["-in", "-smt2"]),
            // x87 long double is FP(15,64), which cvc5 accepts only with --fp-exp.
            "cvc5" => ("cvc5", &["--lang=smt2", "--incremental", "--fp-exp"]),
            "bitwuzla" => ("bitwuzla", &["--lang", "smt2"]),
            "boolector" => ("boolector", &["--smt2", "--incremental"]),
            "yices" => ("yices-smt2", &["--incremental"]),
            "mathsat" => ("mathsat", &[]),
            _ => {
                let Some(command) = name.strip_prefix("smtlib:") else {
                    return Err(format!(
                        "unknown solver '{name}' (choose cadical, z3, cvc5, bitwuzla, boolector, yices, mathsat or smtlib:CMD)"
                    ));
                };
                let mut words = command.split_whitespace();
                let program = words.next().ok_or("smtlib: needs a command, e.g. smtlib:z3 -in")?;
                return Ok(ExternalSolver {
                    name: program.to_string(),
                    program: program.to_string(),
                    args: words.map(str::to_string).collect(),
                });
            }
        };
        Ok(ExternalSolver {
            name: name.to_string(),
            program: program.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
        })
    }

    /// Starts the solver; a clear message when it cannot be run.
    pub(crate) fn spawn(&self) -> Result<ProcessSolver, String> {
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        ProcessSolver::spawn(&self.program, &args, LOGIC, None).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => self.not_installed(),
            _ => format!("cannot start the SMT solver `{}`: {e}", self.program),
        })
    }

    fn not_installed(&self) -> String {
        let how = match self.name.as_str() {
            "z3" => " (Debian: apt install z3; or pip install z3-solver)",
            "cvc5" => " (Debian: apt install cvc5; or the release binary from cvc5.github.io)",
            "bitwuzla" => " (build it from bitwuzla.github.io; the PyPI package has no command)",
            "boolector" => " (Debian: apt install boolector)",
            "yices" => " (the yices2 release from yices.csl.sri.com)",
            "mathsat" => " (the release from mathsat.fbk.eu)",
            _ => "",
        };
        format!("the SMT solver `{}` is not installed or not on PATH: install it{how}", self.program)
    }

    /// Whether the solver's program can be found: on `PATH`, or at the path
    /// given when it names a directory.
    pub fn check_installed(&self) -> Result<(), String> {
        let program = std::path::Path::new(&self.program);
        let found = if program.components().count() > 1 {
            program.is_file()
        } else {
            std::env::var_os("PATH")
                .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
        };
        found.then_some(()).ok_or_else(|| self.not_installed())
    }
}

/// The solver of one run, as [`SolverChoice`] asks.
pub(crate) enum Backend {
    BitBlast(Box<BitBlastSolver>),
    External(Box<External>),
    CrossCheck(Box<CrossCheck>),
}

impl Backend {
    pub(crate) fn new(choice: &SolverChoice) -> Result<Backend, String> {
        Ok(match choice {
            SolverChoice::Cadical => Backend::BitBlast(Box::new(BitBlastSolver::new())),
            SolverChoice::External(solver) => Backend::External(Box::new(External::new(solver)?)),
            SolverChoice::CrossCheck { external, dir } => {
                Backend::CrossCheck(Box::new(CrossCheck::new(external, dir.clone())?))
            }
        })
    }

    /// Makes every later check give up (`Unknown`) once `flag` is raised;
    /// an external solver process keeps only its time limit.
    pub(crate) fn set_interrupt(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        if let Backend::BitBlast(solver) = self {
            solver.set_interrupt(flag);
        }
    }

    pub(crate) fn set_time_limit(&mut self, limit: Option<Duration>) {
        match self {
            Backend::BitBlast(solver) => solver.set_time_limit(limit),
            Backend::External(solver) => solver.process.set_time_limit(limit),
            Backend::CrossCheck(check) => check.set_time_limit(limit),
        }
    }

    /// Formula size and solving time (an external solver has no formula
    /// figures: only its time is known).
    pub(crate) fn stats(&self) -> bitblast::Stats {
        match self {
            Backend::BitBlast(solver) => solver.stats(),
            Backend::External(solver) => bitblast::Stats { solve_time: solver.solve_time, ..bitblast::Stats::default() },
            Backend::CrossCheck(check) => check.primary.stats(),
        }
    }

    /// The cross-check's findings so far.
    pub(crate) fn crosscheck_report(&self) -> Option<Box<CrossCheckReport>> {
        match self {
            Backend::CrossCheck(check) => Some(Box::new(check.report.clone())),
            _ => None,
        }
    }

    fn solver(&mut self) -> &mut dyn Solver {
        match self {
            Backend::BitBlast(solver) => solver.as_mut(),
            Backend::External(solver) => solver.as_mut(),
            Backend::CrossCheck(check) => &mut check.primary,
        }
    }
}

impl Solver for Backend {
    fn assert(&mut self, store: &TermStore, t: TermId) {
        match self {
            Backend::CrossCheck(check) => check.assert(store, t),
            _ => self.solver().assert(store, t),
        }
    }

    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> SatResult {
        match self {
            Backend::CrossCheck(check) => check.check(store, assumptions),
            _ => self.solver().check(store, assumptions),
        }
    }

    fn model_value(&mut self, store: &TermStore, t: TermId) -> Result<Value, EvalError> {
        self.solver().model_value(store, t)
    }

    fn model(&mut self, store: &TermStore) -> Model {
        self.solver().model(store)
    }
}

/// An external solver process whose models are checked by the evaluator.
pub(crate) struct External {
    process: ProcessSolver,
    asserted: Vec<TermId>,
    solve_time: Duration,
}

impl External {
    fn new(solver: &ExternalSolver) -> Result<External, String> {
        Ok(External { process: solver.spawn()?, asserted: Vec::new(), solve_time: Duration::ZERO })
    }
}

impl Solver for External {
    fn assert(&mut self, store: &TermStore, t: TermId) {
        self.asserted.push(t);
        self.process.assert(store, t);
    }

    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> SatResult {
        let started = Instant::now();
        let result = self.process.check(store, assumptions);
        self.solve_time += started.elapsed();
        if result != SatResult::Sat {
            return result;
        }
        let model = self.process.model(store);
        let mut evaluator = Evaluator::new(store, &model);
        for &t in self.asserted.iter().chain(assumptions) {
            match evaluator.eval(t) {
                Ok(Value::Bool(true)) => {}
                Ok(_) => return SatResult::Unknown("the external solver's model does not satisfy the query".into()),
                Err(e) => return SatResult::Unknown(format!("the external solver's model cannot be checked: {e}")),
            }
        }
        SatResult::Sat
    }

    fn model_value(&mut self, store: &TermStore, t: TermId) -> Result<Value, EvalError> {
        self.process.model_value(store, t)
    }

    fn model(&mut self, store: &TermStore) -> Model {
        self.process.model(store)
    }
}

#[cfg(test)]
mod tests;
