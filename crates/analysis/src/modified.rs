//! The state a loop may modify, for engines that cut a loop at its head
//! and let it start from any state it can reach there (k-induction's
//! inductive step havocs it; invariant generation forgets it).
//!
//! The answer over-approximates every write the loop's iterations can
//! make, calls included: the variables it assigns by name (locals of its
//! function; globals and `static` locals, also when a function it calls,
//! transitively, assigns them), and three facts about memory reached
//! otherwise. A write through a pointer (by the loop, a function it calls,
//! or a body-less function it passes a pointer to, like `memcpy` or a
//! program's external function) may change any object whose address
//! escapes: every variable whose address the program takes anywhere
//! ([`ProgramEffects::escaped`]), every heap, `alloca` and environment
//! object. `free` and `realloc` change which heap blocks are alive. An
//! allocation (`malloc`, `alloca`, a variable-length array declared in the
//! loop) makes objects per iteration, which a single havocked state cannot
//! stand for: engines that need the loop's states to be havocked skip such
//! loops. Calls through function pointers go to every function whose
//! address the program takes. Recursion (a cycle in that call graph) is
//! reported, not summarised.

use crate::loops::{FunctionLoops, LoopId};
use ir::{Expr, ExprKind, FuncId, InstrKind, Program, SymbolId, SymbolKind};
use std::collections::{BTreeSet, HashMap};

/// What a loop or a function may change (see the module comment).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modified {
    /// Variables assigned by name: locals of the loop's own function (for a
    /// function's summary, none) and globals, `static` locals included.
    pub variables: BTreeSet<SymbolId>,
    /// Some write goes through a pointer: every escaped object may change.
    pub through_pointers: bool,
    /// Heap blocks may be freed.
    pub frees: bool,
    /// Objects are allocated (heap, `alloca`, variable-length arrays).
    pub allocates: bool,
}

impl Modified {
    fn absorb(&mut self, other: &Modified) -> bool {
        let before = (self.variables.len(), self.through_pointers, self.frees, self.allocates);
        self.variables.extend(other.variables.iter().copied());
        self.through_pointers |= other.through_pointers;
        self.frees |= other.frees;
        self.allocates |= other.allocates;
        before != (self.variables.len(), self.through_pointers, self.frees, self.allocates)
    }
}

/// The effects of every function of a program, and the facts about it
/// that loop summaries need.
#[derive(Clone, Debug, Default)]
pub struct ProgramEffects {
    /// Per function with a body: what a call of it may change (globals and
    /// memory facts, its callees' included).
    summaries: HashMap<FuncId, Modified>,
    /// Per function with a body: the functions it may call.
    callees: HashMap<FuncId, BTreeSet<FuncId>>,
    /// Variables whose address the program takes somewhere.
    pub escaped: BTreeSet<SymbolId>,
    /// Functions whose address the program takes (the targets of calls
    /// through pointers).
    pub address_taken_functions: BTreeSet<FuncId>,
    /// Functions on a cycle of the call graph.
    pub recursive: BTreeSet<FuncId>,
}

impl ProgramEffects {
    pub fn of_program(program: &Program) -> ProgramEffects {
        let mut effects = ProgramEffects::default();
        effects.find_taken_addresses(program);
        let mut direct = HashMap::new();
        for (func, function) in program.functions.iter() {
            let Some(body) = &function.body else { continue };
            let mut own = Modified::default();
            let mut callees = BTreeSet::new();
            for instr in body {
                effects.instruction(program, &instr.kind, &mut own, &mut callees);
            }
            own.variables.retain(|&s| !matches!(program.symbols[s].kind, SymbolKind::Local(_)));
            direct.insert(func, own);
            effects.callees.insert(func, callees);
        }
        effects.summaries = direct;
        effects.close_over_calls();
        effects.find_recursion();
        effects
    }

    /// What loop `id` of `func` (whose loops are `loops`) may change.
    pub fn of_loop(&self, program: &Program, func: FuncId, loops: &FunctionLoops, id: LoopId) -> Modified {
        self.of_instructions(program, func, loops.get(id).body.iter().copied()).0
    }

    /// What the instructions at `nodes` of `func` may change, calls
    /// included, and the functions with a body they call directly.
    pub fn of_instructions(&self, program: &Program, func: FuncId, nodes: impl Iterator<Item = usize>) -> (Modified, BTreeSet<FuncId>) {
        let body = program.functions[func].body.as_deref().unwrap_or_default();
        let mut modified = Modified::default();
        let mut callees = BTreeSet::new();
        for node in nodes {
            if let Some(instr) = body.get(node) {
                self.instruction(program, &instr.kind, &mut modified, &mut callees);
            }
        }
        for callee in &callees {
            if let Some(summary) = self.summaries.get(callee) {
                modified.absorb(summary);
            }
        }
        (modified, callees)
    }

    /// What a call of `func` may change (its callees' effects included);
    /// `None` for a function without a body.
    pub fn of_function(&self, func: FuncId) -> Option<&Modified> {
        self.summaries.get(&func)
    }

    /// Whether some function reachable from `entry` (or `entry` itself)
    /// is recursive: the first such one.
    pub fn recursion_from(&self, entry: FuncId) -> Option<FuncId> {
        match self.recursive.contains(&entry) {
            true => Some(entry),
            false => self.reachable_from(entry).into_iter().find(|f| self.recursive.contains(f)),
        }
    }

    /// The functions with a body that calls from `entry` may reach,
    /// `entry` included.
    pub fn reachable_from(&self, entry: FuncId) -> BTreeSet<FuncId> {
        let mut seen = BTreeSet::from([entry]);
        let mut work = vec![entry];
        while let Some(f) = work.pop() {
            for &callee in self.callees.get(&f).into_iter().flatten() {
                if seen.insert(callee) {
                    work.push(callee);
                }
            }
        }
        seen
    }

    /// The effects of one instruction, its direct callees collected.
    fn instruction(&self, program: &Program, kind: &InstrKind, modified: &mut Modified, callees: &mut BTreeSet<FuncId>) {
        match kind {
            InstrKind::Assign(lhs, _) | InstrKind::QuantifierEnd { lhs, .. } => write(lhs, modified),
            InstrKind::Decl(symbol) => {
                modified.variables.insert(*symbol);
                if program.types.is_variably_modified(program.symbols[*symbol].ty) {
                    modified.allocates = true;
                }
            }
            InstrKind::Call { lhs, callee, args } => {
                if let Some(lhs) = lhs {
                    write(lhs, modified);
                }
                match direct_callee(program, callee) {
                    Some(f) if program.functions[f].body.is_some() => {
                        callees.insert(f);
                    }
                    Some(f) => body_less_call(program, &program.functions[f].name, args, modified),
                    None => {
                        callees.extend(self.address_taken_functions.iter().filter(|&&f| program.functions[f].body.is_some()));
                        let body_less = self.address_taken_functions.iter().filter(|&&f| program.functions[f].body.is_none());
                        for &f in body_less {
                            body_less_call(program, &program.functions[f].name, args, modified);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Fills `escaped` and `address_taken_functions` from every expression
    /// of the program.
    fn find_taken_addresses(&mut self, program: &Program) {
        for (_, function) in program.functions.iter() {
            for instr in function.body.iter().flatten() {
                for expr in instruction_exprs(&instr.kind) {
                    for node in expr.walk() {
                        if let ExprKind::AddrOf(place) = &node.kind {
                            if let Root::Variable(symbol) = root(place) {
                                match program.symbols[symbol].kind {
                                    SymbolKind::Function(f) => {
                                        self.address_taken_functions.insert(f);
                                    }
                                    _ => {
                                        self.escaped.insert(symbol);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adds every callee's summary to its callers' until nothing changes.
    fn close_over_calls(&mut self) {
        let mut changed = true;
        while changed {
            changed = false;
            for (caller, callees) in &self.callees {
                for callee in callees {
                    let Some(summary) = self.summaries.get(callee).cloned() else { continue };
                    changed |= self.summaries.get_mut(caller).expect("every function with a body").absorb(&summary);
                }
            }
        }
    }

    /// Marks the functions that can reach themselves through calls.
    fn find_recursion(&mut self) {
        for &start in self.callees.keys() {
            let mut seen = BTreeSet::new();
            let mut work: Vec<FuncId> = self.callees[&start].iter().copied().collect();
            while let Some(f) = work.pop() {
                if f == start {
                    self.recursive.insert(start);
                    break;
                }
                if seen.insert(f) {
                    work.extend(self.callees.get(&f).into_iter().flatten());
                }
            }
        }
    }
}

/// What an lvalue writes: a named variable, or memory through a pointer.
enum Root {
    Variable(SymbolId),
    Pointer,
}

fn root(place: &Expr) -> Root {
    let mut current = place;
    loop {
        match &current.kind {
            ExprKind::Sym(symbol) => return Root::Variable(*symbol),
            ExprKind::Member(inner, _) | ExprKind::Index(inner, _) => current = inner,
            _ => return Root::Pointer,
        }
    }
}

fn write(lhs: &Expr, modified: &mut Modified) {
    match root(lhs) {
        Root::Variable(symbol) => {
            modified.variables.insert(symbol);
        }
        Root::Pointer => modified.through_pointers = true,
    }
}

pub(crate) fn direct_callee(program: &Program, callee: &Expr) -> Option<FuncId> {
    match &callee.kind {
        ExprKind::Sym(symbol) => match program.symbols[*symbol].kind {
            SymbolKind::Function(f) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

/// The effects of a call of the body-less function `name`: what symex and
/// the interpreter build into them, or (any other) a write through every
/// pointer argument.
fn body_less_call(program: &Program, name: &str, args: &[Expr], modified: &mut Modified) {
    let name = name.strip_prefix("__builtin_").unwrap_or(name);
    match name {
        "malloc" | "calloc" | "alloca" => modified.allocates = true,
        _ if name == ir::intrinsics::ALIGNED_MALLOC || name == ir::intrinsics::ENVIRONMENT_STRING => modified.allocates = true,
        "free" => modified.frees = true,
        "realloc" => {
            modified.allocates = true;
            modified.frees = true;
            modified.through_pointers = true;
        }
        _ if ir::external::is_nondet_value_call(program, name, args) => {}
        // They look at pointers and objects, and write nothing.
        _ if ir::intrinsics::pointer_intrinsic(name).is_some_and(|i| i != ir::intrinsics::PointerIntrinsic::AllocSizeClaim) => {}
        _ => {
            if args.iter().any(|a| program.types.pointee(a.ty).is_some() || program.types.holds_pointer(a.ty, true)) {
                modified.through_pointers = true;
            }
        }
    }
}

fn instruction_exprs(kind: &InstrKind) -> Vec<&Expr> {
    match kind {
        InstrKind::Assign(lhs, rhs) => vec![lhs, rhs],
        InstrKind::Assume(e) | InstrKind::Assert(e, _) | InstrKind::Goto { cond: e, .. } => vec![e],
        InstrKind::Call { lhs, callee, args } => lhs.iter().chain([callee]).chain(args).collect(),
        InstrKind::Return(value) => value.iter().collect(),
        InstrKind::QuantifierBegin { bound, .. } => vec![bound],
        InstrKind::QuantifierEnd { lhs, body } => vec![lhs, body],
        _ => vec![],
    }
}
