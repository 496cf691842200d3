//! The SSA equation symex produces: guarded assertions, and the records a
//! counterexample trace is built from.
//!
//! Assignments are not constraints here: symex substitutes each variable's
//! current value term (hash-consed, so shared), and path assumptions are
//! folded into the guards. An assertion is violated exactly when
//! `guard ∧ ¬condition` holds.

use ir::{FuncId, Loc, Property, PropertyClass, TypeId};
use smt::{TermId, TermStore};

/// One checked property instance.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// Reachability of the assertion (path condition).
    pub guard: TermId,
    pub condition: TermId,
    pub property: Property,
    pub loc: Loc,
    pub function: FuncId,
    /// Trace steps recorded before this assertion (the trace of a
    /// violation ends there).
    pub steps_before: usize,
    /// The thread and the clock of its step, when the program starts threads.
    pub when: Option<ThreadTime>,
}

/// An assignment to a program variable, for the trace.
#[derive(Clone, Debug)]
pub struct TraceStep {
    /// The thread and the clock of its step, when the program starts threads.
    pub when: Option<ThreadTime>,
    pub guard: TermId,
    pub loc: Loc,
    pub function: FuncId,
    /// The left-hand side as the user wrote it (`x`, `s.f`, `a[i]`, `*p`).
    pub lhs: String,
    pub ty: TypeId,
    pub value: TermId,
}

/// Where an input comes from: the interpreter's classification of its
/// input requests, so a replay can match them up. Symex records no
/// [`InputKind::NondetCall`]: instrumentation makes most of those calls
/// `Nondet` expressions, and the rest (which write through a pointer) are
/// the environment, [`InputKind::ExternalCall`].
pub use ir::interp::InputKind;

/// A nondeterministic input, in execution order, tagged like the
/// interpreter's input requests so a replay can feed it back.
#[derive(Clone, Debug)]
pub struct Input {
    /// The thread and the clock of its step, when the program starts threads.
    pub when: Option<ThreadTime>,
    pub guard: TermId,
    pub loc: Loc,
    /// The value's type; `None` for raw memory and allocation failures.
    pub ty: Option<TypeId>,
    /// The value (for uninitialised objects: their memory bits; for
    /// allocation failures: a `Bool`).
    pub value: TermId,
    pub kind: InputKind,
}

/// The variable a quantifier binds, for the interpreter's witnesses: a
/// counterexample's value for it (or for an instance of it) is tried first
/// when the replay evaluates the quantifier at `loc`.
#[derive(Clone, Debug)]
pub struct QuantifiedVar {
    pub var: TermId,
    /// The variable's memory bits (a term over `var`).
    pub memory: TermId,
    pub loc: Loc,
    /// Executed inside another quantifier's body (so terms over `var` may
    /// have that quantifier's variable free).
    pub nested: bool,
    /// The quantifier as executed, when its body's term does not mention
    /// `var` (the rewriter decided it for every value): the equation then
    /// holds the body itself, and no quantified term records the execution.
    pub decided_alone: Option<smt::Binder>,
}

/// Something symex did not model exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Approximation {
    pub what: String,
    pub loc: Loc,
    /// True when the approximation may hide a violation, so that "no
    /// violation found" must not be reported as TRUE.
    pub affects_true: bool,
}

/// A call of a function without a body that symex does not model: its
/// result is nondeterministic and its side effects are ignored, so a
/// violation on a path through it may not be real.
#[derive(Clone, Debug)]
pub struct UnmodelledCall {
    pub guard: TermId,
    pub name: String,
    pub loc: Loc,
    /// Assertions recorded before the call (only violations after it can
    /// depend on it).
    pub assertions_before: usize,
    /// For a call whose only unknown is where objects lie (an address
    /// printed): the fresh values that stand for what depends on it. A
    /// violation that happens whatever they are does not rest on the call.
    pub layout_values: Vec<TermId>,
}

/// A call of a math function without an exact IEEE result (see
/// `crate::libm`): its arguments' and result's float bits, and the
/// rounding mode it ran in.
#[derive(Clone, Debug)]
pub struct InexactCall {
    pub function: (ir::libm::Inexact, ir::FloatFormat),
    pub guard: TermId,
    pub rounding: TermId,
    pub args: Vec<TermId>,
    pub result: TermId,
    /// Whether every argument is a constant: a compiler may then compute
    /// the value itself (gcc correctly rounded, clang with the build
    /// host's library) instead of the C library at run time, so a native
    /// build may give any value the facts admit, not the host library's.
    pub foldable: bool,
    /// The facts assumed about the result (also part of the guards).
    pub facts: TermId,
}

#[derive(Clone, Debug, Default)]
pub struct Equation {
    pub assertions: Vec<Assertion>,
    pub steps: Vec<TraceStep>,
    pub inputs: Vec<Input>,
    pub approximations: Vec<Approximation>,
    pub unmodelled_calls: Vec<UnmodelledCall>,
    pub inexact_calls: Vec<InexactCall>,
    /// A loop or recursion bound cut paths off by assumption
    /// (`--no-unwinding-assertions`), so the result is only bounded.
    pub bound_assumed: bool,
    /// A library model's loop reached its bound (so a larger model bound
    /// may settle what this one left open).
    pub model_loop_cut: bool,
    /// A pointer parameter of the entry function was read: what it points
    /// to is not modelled, so memory-safety violations are not trusted.
    pub unconstrained_entry_pointers: bool,
    /// Conditions on the inputs under which the interpreter can replay a
    /// counterexample (its environment's limits): a solver looks for a
    /// violation that satisfies them first.
    pub preferences: Vec<TermId>,
    /// Per access whose check is off: that it stays inside its object
    /// where it happens. The interpreter stops at such an access, so a
    /// counterexample its replay refutes is looked for again under all
    /// of them (never assumed for a TRUE: the check stays off).
    pub unchecked_accesses: Vec<TermId>,
    /// Facts of every execution, conjoined with every query: where objects
    /// whose addresses are seen as integers may lie (see `crate::address`).
    pub constraints: Vec<TermId>,
    /// Approximations that only apply when their condition can hold: "no
    /// violation found" is TRUE only if none of the conditions can.
    pub conditional_approximations: Vec<(TermId, Approximation)>,
    /// The variables of the quantifiers in the terms (see [`QuantifiedVar`]).
    pub quantified_vars: Vec<QuantifiedVar>,
    /// Function and loop-bound counts, for statistics.
    pub executed_instructions: u64,
    /// In the inductive step: the long loop entries and the variables they
    /// havocked (for `--bidirectional`, see [`crate::Target`]).
    pub long_entries: Vec<LongEntry>,
    /// With targets: the conditions under which a loop head is reached in
    /// a target's state.
    pub target_hits: Vec<TermId>,
    /// The steps of the threads, in the order symex made them (see
    /// `crate::threads`): a model orders those that happen by clock.
    pub thread_steps: Vec<ThreadStep>,
}

/// A long loop entry of the inductive step: where, its Boolean, and the
/// fresh value each havocked variable got.
#[derive(Clone, Debug)]
pub struct LongEntry {
    pub func: FuncId,
    pub head: usize,
    pub long: TermId,
    pub havocked: Vec<(ir::SymbolId, TermId)>,
}

impl Equation {
    /// The violation condition of every assertion whose class `select`
    /// accepts, in program order: `guard ∧ ¬condition`.
    pub fn violations(&self, store: &mut TermStore, select: impl Fn(PropertyClass) -> bool) -> Vec<TermId> {
        let mut violations = Vec::new();
        for a in self.assertions.iter().filter(|a| select(a.property.class)) {
            let failed = store.not(a.condition);
            let violated = store.and2(a.guard, failed);
            if !store.is_false(violated) {
                violations.push(violated);
            }
        }
        violations
    }
    pub fn approximations_affect_true(&self) -> bool {
        self.approximations.iter().any(|a| a.affects_true)
    }
}

/// Which thread did something, and the clock of the step it did it in.
#[derive(Clone, Copy, Debug)]
pub struct ThreadTime {
    pub thread: u32,
    pub clock: TermId,
}

/// One step of a thread: an instruction, or a whole atomic section that
/// starts at the instruction.
#[derive(Clone, Debug)]
pub struct ThreadStep {
    pub when: ThreadTime,
    pub guard: TermId,
    pub function: FuncId,
    pub pc: u32,
    /// The threads the step started (their numbers), each with the
    /// condition under which it did.
    pub started: Vec<(u32, TermId)>,
}
