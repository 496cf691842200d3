//! IR instructions: a function body is a `Vec<Instr>`; jumps name the index
//! of their target instruction.

use crate::expr::Expr;
use crate::loc::Loc;
use crate::program::SymbolId;

/// Index of an instruction in its function's body.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct InstrIdx(pub u32);

/// What kind of property an `Assert` checks; drives the reported result
/// (e.g. SV-COMP's `FALSE(valid-deref)`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PropertyClass {
    /// `assert`, `__VERIFIER_assert`, `__ESBMC_assert`, `__CPROVER_assert`.
    UserAssertion,
    /// A call of `reach_error`/`__VERIFIER_error`, or a `--error-label`.
    ReachError,
    ArrayBounds,
    PointerDereference,
    /// Ordering (`<`, `<=`, `>`, `>=`) or difference of pointers into
    /// different objects (C11 6.5.8p5, 6.5.6p9).
    PointerRelation,
    DivisionByZero,
    SignedOverflow,
    UnsignedOverflow,
    /// Shift by a negative amount or at least the width.
    Shift,
    /// Out-of-range float-to-integer conversion.
    FloatToInt,
    /// GCC's `__builtin_clz`/`ctz` (and `l`, `ll`, one-argument `g` forms)
    /// of 0, which GCC leaves undefined (CBMC's `bit_count` check).
    BitCount,
    NaN,
    /// Freeing a pointer that is not the start of a live heap object.
    InvalidFree,
    /// Memory unreachable at exit (valid-memtrack).
    MemoryLeak,
    /// Memory still allocated at exit (valid-memcleanup).
    MemoryCleanup,
    /// The k+1-th iteration of a loop bounded by k is reachable.
    UnwindingAssertion,
    DataRace,
    Deadlock,
    /// A loop returns to a state it had before: the run never ends.
    NonTermination,
}

/// The property an `Assert` checks: its class and a message for the user.
#[derive(Clone, PartialEq, Debug)]
pub struct Property {
    pub class: PropertyClass,
    pub message: String,
}

#[derive(Clone, PartialEq, Debug)]
pub enum InstrKind {
    /// A local variable's lifetime starts; its value is nondeterministic.
    Decl(SymbolId),
    /// A local variable's lifetime ends (end of scope).
    Dead(SymbolId),
    /// `lhs = rhs` with `lhs` an lvalue of `rhs`'s type.
    Assign(Expr, Expr),
    /// Paths where the `Bool` condition is false are discarded.
    Assume(Expr),
    Assert(Expr, Property),
    /// Jump to `target` when the `Bool` condition holds (an `IntConst(1)`
    /// `Bool` for an unconditional jump).
    Goto { cond: Expr, target: InstrIdx },
    /// A call; `callee` is a `Sym` of a function or any expression of
    /// pointer-to-function type. Arguments are already converted to the
    /// parameter types (default argument promotions for variadic ones).
    Call { lhs: Option<Expr>, callee: Expr, args: Vec<Expr> },
    /// Return from the function, with the value for non-void functions.
    Return(Option<Expr>),
    Skip,
    /// Inline assembly, kept as text; its effect is not modelled.
    Asm(String),
    /// Spawn a thread running the code at `target`; execution continues after.
    StartThread(InstrIdx),
    EndThread,
    AtomicBegin,
    AtomicEnd,
    /// Starts a quantifier (`__ESBMC_forall`, `__ESBMC_exists`): the
    /// instructions up to the matching `QuantifierEnd` of the same function
    /// compute its body with `bound` (a variable) ranging over every value
    /// of its type; what they write does not outlive the `QuantifierEnd`.
    QuantifierBegin { quantifier: Quantifier, bound: Expr },
    /// Ends the innermost quantifier: `lhs` (an integer) becomes 1 when the
    /// `Bool` `body` holds for every value (forall) or for some value
    /// (exists) of the bound variable, else 0.
    QuantifierEnd { lhs: Expr, body: Expr },
}

/// Which quantifier a `QuantifierBegin` starts.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Quantifier {
    Forall,
    Exists,
}

impl Quantifier {
    /// The intrinsic that writes it in C.
    pub fn intrinsic(self) -> &'static str {
        match self {
            Quantifier::Forall => "__ESBMC_forall",
            Quantifier::Exists => "__ESBMC_exists",
        }
    }
}

impl InstrKind {
    /// The expressions the instruction holds (evaluated, written, or a
    /// quantifier's bound variable), left to right.
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            InstrKind::Assign(lhs, rhs) => vec![lhs, rhs],
            InstrKind::Assume(cond) | InstrKind::Assert(cond, _) | InstrKind::Goto { cond, .. } => vec![cond],
            InstrKind::Call { lhs, callee, args } => lhs.iter().chain([callee]).chain(args).collect(),
            InstrKind::Return(value) => value.iter().collect(),
            InstrKind::QuantifierBegin { bound, .. } => vec![bound],
            InstrKind::QuantifierEnd { lhs, body } => vec![lhs, body],
            _ => Vec::new(),
        }
    }

    /// [`InstrKind::exprs`], for rewriting.
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            InstrKind::Assign(lhs, rhs) => vec![lhs, rhs],
            InstrKind::Assume(cond) | InstrKind::Assert(cond, _) | InstrKind::Goto { cond, .. } => vec![cond],
            InstrKind::Call { lhs, callee, args } => lhs.iter_mut().chain([callee]).chain(args.iter_mut()).collect(),
            InstrKind::Return(value) => value.iter_mut().collect(),
            InstrKind::QuantifierBegin { bound, .. } => vec![bound],
            InstrKind::QuantifierEnd { lhs, body } => vec![lhs, body],
            _ => Vec::new(),
        }
    }
}

/// An instruction with its source location.
#[derive(Clone, PartialEq, Debug)]
pub struct Instr {
    pub kind: InstrKind,
    pub loc: Loc,
}

impl Instr {
    pub fn new(kind: InstrKind, loc: Loc) -> Instr {
        Instr { kind, loc }
    }
}

/// Rewrites the jump targets of a body whose instructions moved:
/// `new_index[i]` is the new index of old instruction `i` (and of the end
/// of the body, for `i` the old length).
pub fn retarget(body: &mut [Instr], new_index: &[InstrIdx]) {
    for instr in body {
        match &mut instr.kind {
            InstrKind::Goto { target, .. } | InstrKind::StartThread(target) => {
                *target = new_index[target.0 as usize];
            }
            _ => {}
        }
    }
}
