//! A concrete interpreter of IR programs, used to replay counterexamples:
//! a FALSE verdict is reported only if the replay reaches the same violated
//! property (docs/DESIGN.md §9).
//!
//! It runs `init`, then `entry`, over a byte-addressed memory of objects
//! (see [`memory`]) with the operator semantics documented in
//! [`crate::expr`], and records a [`TraceStep`] list. A run ends with an
//! [`Outcome`]; step, memory, call-depth and expression-depth limits keep
//! every run finite, and a run executes on its own thread with a large
//! stack, so no input makes it overflow.
//!
//! Inputs: every nondeterministic value is asked from an
//! [`InputProvider`] as little-endian bytes, in execution order, so a
//! counterexample's values can be fed back ([`InputList`]). The requests,
//! which symbolic execution must reproduce to build a replayable input list:
//! - `Decl`: the variable's whole initial contents ([`InputKind::Uninitialized`];
//!   an answer to a contents request may be shorter than the object, the
//!   rest being zero, so a huge object's contents cost what is given);
//! - a `Nondet` expression, when evaluated: `Assign` evaluates its right
//!   side before its left side, operands left to right, `Ite` only the
//!   taken branch, `&&`/`||` short-circuit;
//! - a call: callee, then arguments left to right, then the result place;
//!   a body-less callee's result is [`InputKind::NondetCall`] (for
//!   `__VERIFIER_nondet_*`, `nondet_*`, `__ESBMC_nondet*`,
//!   `__CPROVER_nondet*`) or [`InputKind::ExternalCall`] (any other
//!   function, not for `void`); parameters an unprototyped call leaves out
//!   are `Uninitialized`;
//! - `malloc`/`realloc`/`alloca`: when [`Config::malloc_may_fail`], first a
//!   one-byte [`InputKind::AllocationFailure`] flag (not for `alloca`, nor
//!   for `realloc` under [`Config::realloc_never_fails`]), then
//!   the block's contents; `calloc` blocks are zero;
//! - the entry function's parameters: each one as an
//!   [`InputKind::EntryArgument`] (a pointer to data without pointers as
//!   a NULL flag, an element count and the contents, see `environment`);
//!   for `main(int argc, char **argv)` instead `argc` (1 to [`MAX_ARGC`]), then for each argument string its
//!   length (4 bytes, at most [`MAX_ARG_LEN`]) and its contents;
//! - `getenv`: a string of the environment ([`InputKind::Environment`]) as
//!   an argument string, when the model finds the variable.
//!
//! Quantifiers run their body for the values of the bound variable that
//! decide them, or ask the input provider when those it knows do not (see
//! `quantifier`); inside a body, inputs are zero.
//!
//! Functions with a body always run their body; the built-in library
//! functions (assumptions, assertions, `malloc` and friends, `mem*`,
//! `strlen`, `exit`, `abort`, bit-counting GCC built-ins, printf-style
//! output) are interpreted
//! only when the program gives no body; any other body-less function is
//! recorded in [`Run::unknown_functions`]. `reach_error` and
//! `__VERIFIER_error` are the reach-error property itself, so calling them
//! is a violation even when they have a body. Threads and inline assembly
//! are [`Outcome::Unsupported`]. Floating point is computed exactly in
//! every format by the `ieee` crate (x87 `long double` on its 80-bit image).

mod accelerate;
mod builtins;
mod contents;
mod display;
mod environment;
mod eval;
mod exec;
mod intrinsics;
mod quantifier;
pub mod memory;
mod stdio;
mod threads;
mod races;
mod deadlock;
mod unwind;
mod value;
mod wide;

pub use environment::{MAX_ARGC, MAX_ARG_LEN, MAX_ENTRY_OBJECT_BYTES};
pub use memory::{Bytes, ObjectId, ObjectKind, Pointer, UnfreedBlock};
pub use value::Value;
pub use unwind::{LoopNest, NestedLoop};
pub(crate) use value::soft_value;

use crate::instr::{InstrIdx, Property, PropertyClass};
use crate::loc::Loc;
use crate::program::{FuncId, Program, SymbolId};
use std::collections::HashMap;
use crate::types::TypeId;
use crate::Expr;
use std::fmt;

/// Resource limits and options of a run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The order in which the threads take their steps (see
    /// [`Schedule`]); `None` for a program that starts no thread.
    pub schedule: Option<std::sync::Arc<Schedule>>,
    /// Instructions executed before the run stops with [`Outcome::StepLimit`].
    pub step_limit: u64,
    /// Bytes stored for live objects (only written pages count, so an
    /// object's size alone costs nothing) before the run stops with
    /// [`Outcome::MemoryLimit`]; also the largest value read at once.
    pub memory_limit: u64,
    /// Whether `malloc`/`calloc`/`realloc` may return NULL; the input
    /// provider then decides each time ([`InputKind::AllocationFailure`]).
    pub malloc_may_fail: bool,
    /// `realloc` never returns NULL, even when other allocations may
    /// (ESBMC's `--force-realloc-success`).
    pub realloc_never_fails: bool,
    /// Whether to record assignments and inputs in the trace.
    pub record_trace: bool,
    /// Deepest expression nesting evaluated; deeper ones stop the run with
    /// [`Outcome::Unsupported`].
    pub max_expr_depth: u32,
    /// Deepest call nesting before the run stops with [`Outcome::CallDepthLimit`].
    pub max_call_depth: usize,
    /// Check unwinding assertions: a loop iterating beyond its bound (its
    /// own [`crate::LoopUnwind`], else `unwind`) or a function recursing
    /// beyond `unwind` is a violation, counted as symbolic execution
    /// counts it. Needs `loop_nests`.
    pub unwinding_assertions: bool,
    /// The loops of every function with a body, for `unwinding_assertions`
    /// (a function missing here ends the run as unsupported when its loops
    /// must be counted).
    pub loop_nests: std::sync::Arc<HashMap<FuncId, LoopNest>>,
    /// `--unwind N`.
    pub unwind: Option<u64>,
    /// The bound of the library models' loops when it differs from
    /// `unwind` (as symex's `model_loop_bound`).
    pub model_loop_bound: Option<u64>,
    /// Base addresses for objects, from a counterexample's model: the run
    /// places each object its key names there.
    pub addresses: HashMap<AddressKey, u64>,
    /// An access through a misaligned pointer is undefined behaviour (as
    /// symex's `alignment_checks`); when false it goes on byte by byte.
    pub alignment_checks: bool,
    /// A variable-length array length that is not positive, or an array
    /// too large for `size_t`, is undefined behaviour (as symex's
    /// `vla_length_checks`); when false a zero length is an empty array and
    /// the rest stops the run as unsupported.
    pub vla_length_checks: bool,
    /// Jump over the iterations of simple loops whose path and effect are
    /// known exactly (see `accelerate`): the same run, in fewer steps.
    pub accelerate_loops: bool,
    /// With a schedule: an access of memory another thread wrote in its
    /// latest step (not both in atomic sections) is a data race.
    pub data_race_checks: bool,
    /// With a schedule: where it ends, every thread that has not ended
    /// waiting on a lock or a join that still cannot go on (the main
    /// thread among them) is a deadlock.
    pub deadlock_checks: bool,
}

/// What names an object both in symbolic execution and in the interpreter,
/// so that a replay can place objects where a counterexample put them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AddressKey {
    /// A global, string literal or local variable (every instance of it).
    Symbol(SymbolId),
    /// A started thread's instance of a thread-local global: the symbol
    /// and the thread's id.
    ThreadLocal(SymbolId, u64),
    Function(FuncId),
    /// A heap or `alloca` block allocated at this location.
    Allocation(Loc),
    /// One of the entry function's argument objects, by name.
    Environment(String),
}

impl Default for Config {
    fn default() -> Config {
        Config {
            step_limit: 10_000_000,
            memory_limit: 256 << 20,
            malloc_may_fail: false,
            realloc_never_fails: false,
            record_trace: true,
            max_expr_depth: 10_000,
            max_call_depth: 100_000,
            unwinding_assertions: false,
            loop_nests: Default::default(),
            unwind: None,
            model_loop_bound: None,
            addresses: HashMap::new(),
            alignment_checks: true,
            vla_length_checks: true,
            accelerate_loops: true,
            schedule: None,
            data_race_checks: false,
            deadlock_checks: false,
        }
    }
}

/// The steps a run follows, and the thread the violation it should reach
/// belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    pub steps: Vec<ScheduledStep>,
    /// Where the steps end, this thread runs on alone to the violation: a
    /// violation after its last step that others can see (the arrival at
    /// a loop head past its bound) comes after the last step. `None` for
    /// a deadlock, which is every thread waiting where the steps end.
    pub violator: Option<u32>,
}

/// One step of a thread in a schedule: the thread (0 is the main thread,
/// then the threads in the order of [`crate::intrinsics::THREAD_CREATE`]'s
/// numbering) executes the instruction `at` says, and with it the rest of
/// an atomic section that starts there (see
/// [`crate::intrinsics::atomic_sections`]); the threads the step starts
/// get the numbers in `started`, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledStep {
    pub thread: u32,
    pub at: StepAt,
    pub started: Vec<u32>,
}

/// Where a scheduled step is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepAt {
    /// The instruction at `pc` of `function` (a counterexample's step).
    Instruction { function: FuncId, pc: u32 },
    /// The next instruction at one of these lines (a witness's step, which
    /// names only a line): the thread goes on there until the threads the
    /// step starts have started.
    Line(Vec<(crate::loc::FileId, u32)>),
}

/// Where a nondeterministic value comes from; symex tags its inputs the
/// same way, so a counterexample's values can be fed back in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A `Nondet` expression.
    Nondet,
    /// The return value of a call of a nondeterministic-value function
    /// without a body (`__VERIFIER_nondet_*`, `nondet_*`, ...).
    NondetCall(String),
    /// The return value of a call of any other function without a body: an
    /// approximation (see [`Run::unknown_functions`]).
    ExternalCall(String),
    /// The initial contents of a declared variable or heap block (named).
    Uninitialized(String),
    /// A parameter of the entry function.
    EntryArgument(String),
    /// A string of the environment (`getenv`): its length, then contents.
    Environment(String),
    /// Whether an allocation fails: any non-zero byte means it does (in
    /// symex's inputs, a `Bool`).
    AllocationFailure,
}

/// A request for the next nondeterministic value.
#[derive(Clone, Debug)]
pub struct InputRequest {
    pub kind: InputKind,
    /// The value's type; `None` for raw bytes (heap contents, the
    /// allocation-failure flag).
    pub ty: Option<TypeId>,
    /// Bytes to return: the value's little-endian representation.
    pub size: u64,
    pub function: FuncId,
    pub loc: Loc,
}

/// The source of nondeterministic values. `None` ends the run with
/// [`Outcome::InputsExhausted`]. An answer has the request's size, except
/// for object contents ([`InputKind::Uninitialized`]), where a shorter
/// answer leaves the rest of the object zero.
pub trait InputProvider {
    fn next_input(&mut self, request: &InputRequest) -> Option<Vec<u8>>;
    /// The run jumped over `count` requests of `kind` whose values no
    /// iteration read (declarations in loop iterations fast-forwarded): a
    /// provider that serves a recorded sequence passes over them, so the
    /// later requests get the values meant for them.
    fn skip_inputs(&mut self, _kind: &InputKind, _count: u128) {}
    /// Values to try first for the variable of the quantifier at `loc`
    /// (little-endian bytes), e.g. a counterexample's witnesses.
    fn quantifier_witnesses(&mut self, _loc: Loc) -> Vec<Vec<u8>> {
        Vec::new()
    }
    /// Decides the quantifier at `loc` whose body did not decide it at any
    /// of the values `tried` (a `forall` body held, an `exists` body did
    /// not): a value that decides it, or that none does. Only a provider
    /// that solves the body exactly may answer [`QuantifierDecision::NoValueDecides`];
    /// a value it offers is checked by running the body.
    fn decide_quantifier(&mut self, _loc: Loc, _tried: &[Vec<u8>]) -> QuantifierDecision {
        QuantifierDecision::Unknown
    }
}

/// An input provider's answer to [`InputProvider::decide_quantifier`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuantifierDecision {
    Unknown,
    /// The bound variable's value (little-endian bytes) that decides it.
    DecidedBy(Vec<u8>),
    /// No value decides it: a `forall` holds, an `exists` does not.
    NoValueDecides,
}

impl<F: FnMut(&InputRequest) -> Option<Vec<u8>>> InputProvider for F {
    fn next_input(&mut self, request: &InputRequest) -> Option<Vec<u8>> {
        self(request)
    }
}

/// Replays a fixed list of values in order (a counterexample's inputs).
#[derive(Clone, Debug, Default)]
pub struct InputList {
    values: std::collections::VecDeque<Vec<u8>>,
}

impl InputList {
    pub fn new(values: impl IntoIterator<Item = Vec<u8>>) -> InputList {
        InputList { values: values.into_iter().collect() }
    }
    /// Values not consumed by the run.
    pub fn remaining(&self) -> usize {
        self.values.len()
    }
}

impl InputProvider for InputList {
    fn next_input(&mut self, _request: &InputRequest) -> Option<Vec<u8>> {
        self.values.pop_front()
    }
}

/// A violated assertion.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub property: Property,
    pub loc: Loc,
    pub function: FuncId,
    pub instr: InstrIdx,
}

/// Undefined behaviour the interpreter detected.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UbKind {
    NullDereference,
    InvalidPointer,
    OutOfBounds,
    UseAfterFree,
    /// Access to a local or `alloca` object after its scope or frame ended.
    DeadObject,
    /// Use of a local variable outside its lifetime (before its `Decl` or after its `Dead`).
    OutsideLifetime,
    WriteToReadOnly,
    /// Access through a pointer not aligned for its type.
    Misaligned,
    /// Reading or writing a function as data.
    FunctionAccess,
    InvalidFree,
    DoubleFree,
    InvalidFunctionPointer,
    /// A call through a pointer whose function type does not match.
    CallTypeMismatch,
    FloatToIntOverflow,
    OverlappingCopy,
    /// A variable-length array declared with a length that is not positive.
    NonPositiveArrayLength,
    /// A variable-length array whose size does not fit in `size_t`.
    OversizedArray,
}

impl UbKind {
    /// The property class whose check reports this behaviour, if any.
    pub fn property_class(self) -> Option<PropertyClass> {
        match self {
            UbKind::NullDereference
            | UbKind::InvalidPointer
            | UbKind::OutOfBounds
            | UbKind::UseAfterFree
            | UbKind::DeadObject
            | UbKind::OutsideLifetime
            | UbKind::WriteToReadOnly
            | UbKind::Misaligned
            | UbKind::FunctionAccess
            | UbKind::InvalidFunctionPointer => Some(PropertyClass::PointerDereference),
            UbKind::InvalidFree | UbKind::DoubleFree => Some(PropertyClass::InvalidFree),
            UbKind::FloatToIntOverflow => Some(PropertyClass::FloatToInt),
            UbKind::NonPositiveArrayLength | UbKind::OversizedArray => Some(PropertyClass::ArrayBounds),
            UbKind::CallTypeMismatch | UbKind::OverlappingCopy => None,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            UbKind::NullDereference => "dereference of a null pointer",
            UbKind::InvalidPointer => "dereference of an invalid pointer",
            UbKind::OutOfBounds => "access out of the object's bounds",
            UbKind::UseAfterFree => "access to freed memory",
            UbKind::DeadObject => "access to an object whose lifetime has ended",
            UbKind::OutsideLifetime => "use of a variable outside its lifetime",
            UbKind::WriteToReadOnly => "write to a read-only object",
            UbKind::Misaligned => "access through a misaligned pointer",
            UbKind::FunctionAccess => "access to a function as data",
            UbKind::InvalidFree => "free of a pointer that is not the start of a heap block",
            UbKind::DoubleFree => "free of an already freed block",
            UbKind::InvalidFunctionPointer => "call through a pointer that points to no function",
            UbKind::CallTypeMismatch => "call of a function through a pointer of another function type",
            UbKind::FloatToIntOverflow => "float-to-integer conversion out of range",
            UbKind::OverlappingCopy => "memcpy between overlapping blocks",
            UbKind::NonPositiveArrayLength => "variable-length array of a length that is not positive",
            UbKind::OversizedArray => "variable-length array whose size does not fit in size_t",
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The entry function returned, or `exit` was called, with this code.
    Completed(i64),
    /// `abort` was called.
    Aborted,
    Violation(Violation),
    /// An assumption (`Assume` or an assume built-in) was false.
    AssumptionViolated {
        loc: Loc,
    },
    UndefinedBehaviour {
        kind: UbKind,
        loc: Loc,
        function: FuncId,
        instr: InstrIdx,
    },
    /// The program does something the interpreter does not model.
    Unsupported(String),
    /// The program used a value C leaves undefined (named), such as
    /// `__builtin_clz(0)`: no single run follows from the inputs.
    UndefinedValue(String),
    StepLimit,
    MemoryLimit,
    CallDepthLimit,
    /// The input provider had no value for a request.
    InputsExhausted {
        loc: Loc,
    },
    /// The program is malformed (e.g. ill-typed); `validate` would reject it.
    Malformed(String),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Completed(code) => write!(f, "completed with exit code {code}"),
            Outcome::Aborted => f.write_str("aborted"),
            Outcome::Violation(v) => write!(f, "violation of {}: {}", v.property.class, v.property.message),
            Outcome::AssumptionViolated { .. } => f.write_str("assumption violated"),
            Outcome::UndefinedBehaviour { kind, .. } => write!(f, "undefined behaviour: {}", kind.describe()),
            Outcome::Unsupported(reason) => write!(f, "unsupported: {reason}"),
            Outcome::UndefinedValue(what) => write!(f, "used {what}, which is undefined"),
            Outcome::StepLimit => f.write_str("step limit reached"),
            Outcome::MemoryLimit => f.write_str("memory limit reached"),
            Outcome::CallDepthLimit => f.write_str("call depth limit reached"),
            Outcome::InputsExhausted { .. } => f.write_str("no more input values"),
            Outcome::Malformed(reason) => write!(f, "malformed program: {reason}"),
        }
    }
}

impl Outcome {
    /// The outcome with its source location and function, for messages.
    pub fn describe(&self, program: &Program) -> String {
        let function_name = |f: FuncId| program.functions.get(f).map_or("?", |f| f.name.as_str());
        let at = |loc: Loc| {
            let place = program.display_loc(loc).to_string();
            if place.is_empty() {
                String::new()
            } else {
                format!(" at {place}")
            }
        };
        match self {
            Outcome::Violation(v) => format!("{self}{} in {}", at(v.loc), function_name(v.function)),
            Outcome::UndefinedBehaviour { loc, function, .. } => {
                format!("{self}{} in {}", at(*loc), function_name(*function))
            }
            Outcome::AssumptionViolated { loc } | Outcome::InputsExhausted { loc } => format!("{self}{}", at(*loc)),
            _ => self.to_string(),
        }
    }
}

/// One recorded event of a run.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceStep {
    /// A nondeterministic value taken from the input provider.
    Input {
        kind: InputKind,
        ty: Option<TypeId>,
        bytes: Vec<u8>,
        function: FuncId,
        loc: Loc,
    },
    /// An assignment (also a call's result) and the value stored.
    Assign {
        function: FuncId,
        instr: InstrIdx,
        loc: Loc,
        lhs: Expr,
        value: Value,
    },
    Call {
        caller: FuncId,
        callee: FuncId,
        loc: Loc,
    },
    Return {
        function: FuncId,
        loc: Loc,
    },
}

/// What a run produced.
#[derive(Debug)]
pub struct Run {
    pub outcome: Outcome,
    pub trace: Vec<TraceStep>,
    pub steps: u64,
    /// Name of every object (indexed by [`ObjectId`]), to describe pointers.
    pub object_names: Vec<String>,
    /// After [`Outcome::Completed`] and [`Outcome::Aborted`]: the heap
    /// blocks never freed.
    pub unfreed_heap: Vec<UnfreedBlock>,
    /// Functions without a body and without a built-in meaning that the run
    /// called, and `sscanf`, whose conversions of its known string the run
    /// takes as inputs (sorted). Their results were inputs and their other
    /// effects (writes through pointers, I/O) were not modelled, so an
    /// outcome that depends on them does not confirm a verdict.
    pub unknown_functions: Vec<String>,
    /// In a run that follows a schedule: how many times another thread
    /// took over from the running one.
    pub context_switches: u64,
}

/// Stack size of the interpreter thread: expression evaluation recurses
/// once per nesting level, bounded by [`Config::max_expr_depth`].
const STACK_BYTES: usize = 512 << 20;

/// Runs `program` from its init function, then its entry function.
pub fn run(program: &Program, config: &Config, inputs: &mut (dyn InputProvider + Send)) -> Run {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("tarsier-interp".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || exec::Machine::new(program, config, inputs).run());
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|_| crashed()),
            Err(e) => Run {
                outcome: Outcome::Unsupported(format!("cannot start the interpreter thread: {e}")),
                trace: vec![],
                steps: 0,
                object_names: vec![],
                unfreed_heap: vec![],
                unknown_functions: vec![],
                context_switches: 0,
            },
        }
    })
}

fn crashed() -> Run {
    Run {
        outcome: Outcome::Unsupported("the interpreter crashed (internal error)".into()),
        trace: vec![],
        steps: 0,
        object_names: vec![],
        unfreed_heap: vec![],
        unknown_functions: vec![],
        context_switches: 0,
    }
}
