//! Symbolic execution of an IR program into an SSA equation.
//!
//! [`execute`] walks the program forward with one symbolic state (a path
//! guard plus the current value term of every memory object), merging the
//! states that meet at a jump target with `ite` on their guards, so the
//! result grows with program size times unwinding rather than with the
//! number of paths. Values are hash-consed `smt` terms; the rewriter folds
//! constants as they are built, which is the constant propagation of symex.
//!
//! The [`Equation`] it returns lists guarded assertions (user properties,
//! the memory-safety checks symex adds, unwinding assertions), the
//! assignments and nondeterministic inputs a counterexample trace needs, and
//! the approximations that make a TRUE verdict unsafe. Memory is modelled
//! as in docs/DESIGN.md §5: every object's value is one flat bit-vector of its
//! bytes, pointers are `object ++ offset` bit-vectors (see [`memory`]).

pub mod arith;
mod address;
pub mod equation;
mod environment;
mod exec;
mod float;
mod flow;
mod libm;
pub mod memory;
mod place;
mod pointer_bytes;
pub mod repr;
mod state;
mod stdio;
mod stdio_input;
mod threads;
mod kept_bytes;
mod races;
mod lifetimes;
mod early_objects;
mod deadlock;
mod step;
mod builtins;
mod block_copy;
mod bytes;
pub mod sizes;
mod intrinsics;
mod large;
mod quantifier;
mod eval;

pub use equation::{Approximation, Assertion, Equation, InexactCall, Input, InputKind, LongEntry, QuantifiedVar, ThreadStep, ThreadTime, TraceStep, UnmodelledCall};
pub use libm::{host_lemma, HostLemma};
pub use environment::EXACT_ARGC;
pub use exec::{execute, execute_hinted, Execution, ThreadSites};
pub use step::{HeadInvariant, InductiveStep, Target};
pub use memory::{ObjectId, ObjectKind, Objects, PointerLayout};

use ir::Loc;
use std::time::Instant;

/// What symex needs to know about the run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Loop and recursion bound; `None` unrolls until the guard of another
    /// iteration is false (under `max_steps` and `deadline`). A loop with
    /// its own bound in the program ([`ir::LoopUnwind`]) uses that instead.
    pub unwind: Option<u64>,
    /// The bound of the library models' loops (over a string's bytes, say),
    /// when it differs from `unwind`, which then bounds the program's loops.
    pub model_loop_bound: Option<u64>,
    /// Check the bound with an assertion (true) or assume it (false).
    pub unwinding_assertions: bool,
    /// Null, invalid, freed/dead and out-of-bounds dereference checks, and
    /// `free` checks.
    pub pointer_checks: bool,
    /// Array index checks against the declared array length.
    pub bounds_checks: bool,
    /// With `pointer_checks`: a dereference through a pointer misaligned
    /// for its type is a violation (C11 6.3.2.3p7). SV-COMP's valid-deref
    /// speaks only of memory the program may not access, so under its
    /// property the access goes on, byte by byte as x86 does it.
    pub alignment_checks: bool,
    /// A variable-length array's lengths must be positive and its size fit
    /// `size_t` (C11 6.7.6.2p5): a violation of the bounds check. When
    /// off (the bounds check off, or SV-COMP's memory safety, which is about
    /// accesses), a zero length makes an object of size zero, as gcc does,
    /// and a negative length or an oversized array, which no model follows,
    /// makes the paths through it an approximation.
    pub vla_length_checks: bool,
    /// Which ends of the program must leave the heap empty.
    pub heap_at_exit: HeapAtExit,
    /// When false, `malloc` may return NULL.
    pub force_malloc_success: bool,
    /// When true, `realloc` never returns NULL, whatever
    /// `force_malloc_success` says (ESBMC's `--force-realloc-success`).
    pub force_realloc_success: bool,
    /// Symex gives up (as [`Stop::Timeout`]) after this instant.
    pub deadline: Option<Instant>,
    /// Upper limit on executed instructions (guards against loops whose
    /// exit condition never becomes constant).
    pub max_steps: u64,
    /// Symex gives up (as [`Stop::Timeout`]) once this flag is raised
    /// (another check of a parallel run has decided).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// States to look for at loop heads (bidirectional k-induction): each
    /// arrival at a target's head in its state is recorded in
    /// [`Equation::target_hits`].
    pub targets: Vec<Target>,
    /// Build k-induction's inductive step instead of a bounded execution
    /// (see [`step`]): `unwind` and the loops' own bounds do not apply.
    pub step: Option<std::sync::Arc<InductiveStep>>,
    /// Two accesses of the same memory by different threads, one a write,
    /// that can happen one after the other are a violation (see [`races`]).
    pub data_race_checks: bool,
    /// Every thread waiting for ever on a lock or a join is a violation
    /// (see [`deadlock`]).
    pub deadlock_checks: bool,
}

impl Options {
    /// Whether the deadline passed or another check asked symex to stop.
    pub(crate) fn out_of_time(&self) -> bool {
        let cancelled = self.cancel.as_ref().is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed));
        cancelled || self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            unwind: None,
            model_loop_bound: None,
            unwinding_assertions: true,
            pointer_checks: true,
            bounds_checks: true,
            alignment_checks: true,
            vla_length_checks: true,
            heap_at_exit: HeapAtExit::Unchecked,
            force_malloc_success: false,
            force_realloc_success: false,
            deadline: None,
            max_steps: 2_000_000,
            cancel: None,
            targets: Vec::new(),
            step: None,
            data_race_checks: false,
            deadlock_checks: false,
        }
    }
}

/// Where the program's ends assert that every heap block has been freed
/// (the replay then tells lost blocks, a valid-memtrack violation, from
/// blocks still reachable).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HeapAtExit {
    Unchecked,
    /// SV-COMP's valid-memcleanup: the return of the entry function, `exit`
    /// and `_Exit`; not `abort`, which SV-COMP's tasks use to cut off paths.
    SvCompCleanup,
    /// SV-COMP's valid-memtrack (`G valid-memtrack`: memory is never lost,
    /// whether or not the program ends): where `SvCompCleanup` looks, and
    /// also at `abort` (the replay tells a block lost by then, a violation,
    /// from one still reachable, which is none) and on a path that loops
    /// forever, where memory still allocated makes the path an
    /// approximation (whether it was lost is not decided there).
    SvCompTrack,
    /// ESBMC's `--memory-leak-check`: the return of the entry function,
    /// `_Exit` and `abort` always, `exit` only once the program has
    /// registered an `atexit` handler (otherwise the system reclaims the
    /// memory, C11 7.22.4.4p4).
    Esbmc,
}

/// How the program ends on a path.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProgramEnd {
    /// The entry function returns.
    Return,
    /// `exit`, after the `atexit` handlers have run.
    Exit,
    /// `_Exit` or `_exit`.
    QuickExit,
    Abort,
}

/// Why symex stopped without an equation; every case means UNKNOWN.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// A construct the model does not cover.
    Unsupported { what: String, loc: Loc },
    Timeout,
    /// `max_steps` instructions were executed (an unbounded loop or recursion).
    StepLimit { loc: Loc },
}

impl Stop {
    pub fn unsupported(what: impl Into<String>, loc: Loc) -> Stop {
        Stop::Unsupported { what: what.into(), loc }
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Unsupported { what, .. } => write!(f, "unsupported: {what}"),
            Stop::Timeout => write!(f, "timeout"),
            Stop::StepLimit { .. } => {
                write!(f, "unwinding did not terminate within the step limit (give an unwinding bound)")
            }
        }
    }
}

pub type Result<T> = std::result::Result<T, Stop>;
