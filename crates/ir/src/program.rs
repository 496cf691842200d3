//! The whole program: types, symbols and functions.

use crate::entity::PrimaryMap;
use crate::instr::{Instr, InstrIdx};
use crate::loc::{Loc, SourceFiles};
use crate::types::{TypeId, TypeTable};
use std::collections::HashMap;

crate::entity!(
    /// A variable, function or string-literal object.
    SymbolId,
    "sym"
);
crate::entity!(
    /// A function.
    FuncId,
    "fn"
);

/// The C data model the program was compiled for.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DataModel {
    /// int 32, long 32, pointer 32 (x86).
    ILP32,
    /// int 32, long 64, pointer 64 (x86-64).
    LP64,
}

impl DataModel {
    pub fn pointer_bits(self) -> u32 {
        match self {
            DataModel::ILP32 => 32,
            DataModel::LP64 => 64,
        }
    }
    pub fn long_bits(self) -> u32 {
        self.pointer_bits()
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SymbolKind {
    /// A variable with static storage duration (file scope, `static`
    /// locals), zero-initialised before the program's init function runs.
    Global,
    /// A local variable or parameter of a function.
    Local(FuncId),
    /// The object of a string literal (a global `char` array that the
    /// program must not write).
    StringLiteral,
    Function(FuncId),
}

#[derive(Clone, Debug)]
pub struct Symbol {
    /// Unique within the program (`main::1::x` style for locals; the C
    /// name for external globals; `file.c::x` for file-static ones).
    pub name: String,
    /// The name as written in the source, for traces.
    pub display_name: String,
    pub ty: TypeId,
    pub kind: SymbolKind,
    /// Declared `_Thread_local`/`__thread`.
    pub thread_local: bool,
    /// An object of static storage defined with a const-qualified type:
    /// modifying it after its initialization is undefined (C11 6.7.3p6).
    pub read_only: bool,
    /// The alignment in bytes the declaration asks for beyond its type's
    /// (`_Alignas`, `__attribute__((aligned))`); 0 when none.
    pub align: u64,
    /// Storage past the type's size: the elements a static initializer
    /// gives a flexible array member (gcc allocates them; `sizeof` does
    /// not count them).
    pub trailing_bytes: u64,
    pub loc: Loc,
}

/// Display names of the locals the front end makes to hold an intermediate
/// value of an expression (a call's result, a statement expression's
/// value, a conditional's result).
pub const VALUE_TEMPORARIES: [&str; 3] = ["$tmp", "$ret", "$cond"];

impl Symbol {
    /// Whether this local only holds an intermediate value: it is no C
    /// object, so a pointer kept only there does not keep memory reachable.
    pub fn is_value_temporary(&self) -> bool {
        VALUE_TEMPORARIES.contains(&self.display_name.as_str())
    }
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub symbol: SymbolId,
    /// A `Type::Function`.
    pub ty: TypeId,
    pub params: Vec<SymbolId>,
    /// `None` for a function that is declared but has no definition.
    pub body: Option<Vec<Instr>>,
    /// The argument area of a variadic function with a body: a hidden local
    /// that every frame gets on entry, holding the call's extra arguments
    /// (see [`crate::varargs`]).
    pub variadic_area: Option<SymbolId>,
    pub loc: Loc,
}

/// A C label that survives lowering, so properties can name it
/// (`--error-label L`: "label L is unreachable").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub function: FuncId,
    pub name: String,
    /// The instruction the label stands before.
    pub at: InstrIdx,
}

/// The unwinding bound that the program text gives one loop
/// (`#pragma unroll N`, `__ESBMC_unroll(N)`): it replaces `--unwind` for
/// that loop, as if `--unwindset` named it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopUnwind {
    pub function: FuncId,
    /// The loop head (`analysis::loops`): the target of all its back edges.
    pub head: InstrIdx,
    /// `None`: unwind until the loop exits (`#pragma unroll` without a
    /// count), whatever `--unwind` says.
    pub bound: Option<u64>,
}

/// A place where C leaves the order of evaluation of operands open
/// (function arguments, operands of a binary operator) and some operand
/// has side effects: the front end lowered each order it considers, one
/// after the other, and a chain of `Goto`s with a `Nondet` condition picks
/// one (see docs/decisions/front-end.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluationOrder {
    pub function: FuncId,
    /// The first instruction of the lowering: the first `Goto` of the
    /// choice, or a `Skip` when only one order was lowered.
    pub at: InstrIdx,
    /// Each ordered operand's instructions in the first order, `[start, end)`.
    pub operands: Vec<(InstrIdx, InstrIdx)>,
    /// The instructions of the other orders, `[start, end)`: the first
    /// order jumps past them.
    pub alternatives: (InstrIdx, InstrIdx),
    /// Where the last order's instructions start (they end with the
    /// alternatives), when more than one was lowered: it runs the
    /// operands in the reverse of the first order's sequence.
    pub reversed: Option<InstrIdx>,
    /// Whether the orders lowered are all that C permits; if not, the
    /// paths through `at` are an approximation for TRUE.
    pub complete: bool,
}

/// A whole linked program.
#[derive(Clone, Debug)]
pub struct Program {
    pub data_model: DataModel,
    pub files: SourceFiles,
    pub types: TypeTable,
    pub symbols: PrimaryMap<SymbolId, Symbol>,
    pub functions: PrimaryMap<FuncId, Function>,
    /// Function names to ids.
    pub function_index: HashMap<String, FuncId>,
    /// Assigns the declared initial values of globals (run before `entry`).
    pub init: Option<FuncId>,
    /// The entry function (`main` unless `--function` says otherwise).
    pub entry: Option<FuncId>,
    /// The labels of all function bodies. Passes that insert or remove
    /// instructions keep `at` up to date ([`Program::move_instructions`]).
    pub labels: Vec<Label>,
    /// Loops with their own unwinding bound; kept up to date like `labels`.
    pub loop_unwinds: Vec<LoopUnwind>,
    /// The choices of evaluation order that may matter; kept up to date
    /// like `labels`.
    pub evaluation_orders: Vec<EvaluationOrder>,
    /// Where the program first names an `_Atomic`-qualified type: the IR's
    /// types do not say which objects are atomic.
    pub atomic_qualified: Option<Loc>,
}

impl Program {
    pub fn new(data_model: DataModel) -> Program {
        Program {
            data_model,
            files: SourceFiles::default(),
            types: TypeTable::new(),
            symbols: PrimaryMap::new(),
            functions: PrimaryMap::new(),
            function_index: HashMap::new(),
            init: None,
            entry: None,
            labels: Vec::new(),
            loop_unwinds: Vec::new(),
            evaluation_orders: Vec::new(),
            atomic_qualified: None,
        }
    }

    /// The positions held outside `func`'s body (labels, loop heads)
    /// follow its instructions after a pass moved them: `new_index[i]` is
    /// the new index of old instruction `i` (and of the end of the body,
    /// for `i` the old length), as for [`crate::instr::retarget`].
    pub fn move_instructions(&mut self, func: FuncId, new_index: &[InstrIdx]) {
        for label in self.labels.iter_mut().filter(|l| l.function == func) {
            label.at = new_index[label.at.0 as usize];
        }
        for lp in self.loop_unwinds.iter_mut().filter(|l| l.function == func) {
            lp.head = new_index[lp.head.0 as usize];
        }
        for order in self.evaluation_orders.iter_mut().filter(|o| o.function == func) {
            order.at = new_index[order.at.0 as usize];
            for (start, end) in &mut order.operands {
                (*start, *end) = (new_index[start.0 as usize], new_index[end.0 as usize]);
            }
            let (start, end) = order.alternatives;
            order.alternatives = (new_index[start.0 as usize], new_index[end.0 as usize]);
            order.reversed = order.reversed.map(|start| new_index[start.0 as usize]);
        }
    }

    /// Whether the `Nondet` input taken at `loc` picks an evaluation order
    /// (no input of the program's own: harnesses and witnesses leave it out).
    pub fn is_evaluation_order_choice(&self, loc: Loc) -> bool {
        self.evaluation_orders.iter().any(|o| {
            let body = self.functions[o.function].body.as_deref().unwrap_or_default();
            body.get(o.at.0 as usize).is_some_and(|instr| instr.loc == loc)
        })
    }

    /// The unwinding bound of the loop headed at `head` in `func`: its own
    /// when the program text gives one, else `default` (`--unwind`).
    pub fn loop_bound(&self, func: FuncId, head: InstrIdx, default: Option<u64>) -> Option<u64> {
        match self.loop_unwinds.iter().find(|l| l.function == func && l.head == head) {
            Some(own) => own.bound,
            None => default,
        }
    }
    /// The bytes of a variable's object: its type's size and the storage
    /// its initializer added (`None` for an incomplete type).
    pub fn symbol_size(&self, symbol: SymbolId) -> Option<u64> {
        let sym = &self.symbols[symbol];
        Some(self.types.size_of(sym.ty, self.data_model)? + sym.trailing_bytes)
    }

    /// The symbols whose address some expression takes.
    pub fn address_taken_symbols(&self) -> std::collections::HashSet<SymbolId> {
        let mut taken = std::collections::HashSet::new();
        for instr in self.functions.values().flat_map(|f| f.body.iter().flatten()) {
            for e in instr.kind.exprs() {
                for node in e.walk() {
                    if let crate::ExprKind::AddrOf(inner) = &node.kind {
                        taken.extend(inner.lvalue_root());
                    }
                }
            }
        }
        taken
    }

    /// The function a call of `callee` calls directly: the one it names,
    /// or a body-less one whose address is converted to a type it may be
    /// called as (the front end calls through such a cast where the
    /// program declared `void f();` and a library model `void f(void)`).
    pub fn called_function(&self, callee: &crate::Expr) -> Option<FuncId> {
        let function_of = |e: &crate::Expr| match e.kind {
            crate::ExprKind::Sym(s) => match self.symbols[s].kind {
                crate::SymbolKind::Function(f) => Some(f),
                _ => None,
            },
            _ => None,
        };
        if let Some(f) = function_of(callee) {
            return Some(f);
        }
        let crate::ExprKind::Cast(inner) = &callee.kind else { return None };
        let crate::ExprKind::AddrOf(designator) = &inner.kind else { return None };
        let f = function_of(designator)?;
        let expected = self.types.pointee(callee.ty)?;
        (self.functions[f].body.is_none() && self.types.callable_as(expected, self.functions[f].ty)).then_some(f)
    }

    /// Whether the program may start a thread: a `StartThread` instruction
    /// or a call of [`crate::intrinsics::THREAD_CREATE`].
    pub fn creates_threads(&self) -> bool {
        let create = self.function(crate::intrinsics::THREAD_CREATE);
        let starts = |instr: &crate::Instr| match &instr.kind {
            crate::InstrKind::StartThread(_) => true,
            crate::InstrKind::Call { callee, .. } => {
                matches!(&callee.kind, crate::ExprKind::Sym(s) if create.is_some_and(|f| self.symbols[*s].kind == crate::SymbolKind::Function(f)))
            }
            _ => false,
        };
        self.functions.values().flat_map(|f| f.body.iter().flatten()).any(starts)
    }

    pub fn function(&self, name: &str) -> Option<FuncId> {
        self.function_index.get(name).copied()
    }

    /// Whether `func` is a hosted `main(int, char **[, char **])`, whose
    /// arguments are a command line (C11 5.1.2.2.1).
    pub fn is_hosted_main(&self, func: FuncId) -> bool {
        let function = &self.functions[func];
        let types = &self.types;
        let is_char_ptr_ptr = |ty: TypeId| {
            let inner = types.pointee(ty).and_then(|t| types.pointee(t));
            inner.is_some_and(|c| matches!(types.get(c), crate::types::Type::Int { bits: 8, .. }))
        };
        let params: Vec<TypeId> = function.params.iter().map(|p| self.symbols[*p].ty).collect();
        function.name == "main"
            && (params.len() == 2 || params.len() == 3)
            && types.is_integer(params[0])
            && params[1..].iter().all(|ty| is_char_ptr_ptr(*ty))
    }
}
