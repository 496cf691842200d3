//! Which variables the abstract domains track, program-wide: scalar
//! integers (at most 64 bits, or `Bool`) whose address is never taken, so
//! nothing writes them but an assignment that names them. Globals are
//! tracked only in single-threaded programs (another thread could write
//! them between any two instructions). Also the globals each function may
//! write, itself or through its callees, for the transfer of a call.

use super::kind::IntKind;
use ir::{Expr, ExprKind, FuncId, InstrKind, Program, SymbolId, SymbolKind};
use std::collections::{HashMap, HashSet};

pub struct Tracked {
    kinds: HashMap<SymbolId, IntKind>,
    /// Tracked globals each function with a body may write (transitively).
    writes: HashMap<FuncId, HashSet<SymbolId>>,
    /// Tracked globals written by some function (what an unknown callee
    /// may write).
    all_written: HashSet<SymbolId>,
    none: HashSet<SymbolId>,
}

/// The symbol at the root of an lvalue (`a` in `a.f[i]`), unless the
/// lvalue goes through a pointer.
pub fn lvalue_root(e: &Expr) -> Option<SymbolId> {
    e.lvalue_root()
}

/// Calls `f` on every expression of an instruction.
pub fn for_each_expr(kind: &InstrKind, f: &mut impl FnMut(&Expr)) {
    match kind {
        InstrKind::Assign(l, r) => {
            f(l);
            f(r);
        }
        InstrKind::Assume(e) | InstrKind::Assert(e, _) | InstrKind::Goto { cond: e, .. } => f(e),
        InstrKind::Call { lhs, callee, args } => {
            lhs.iter().for_each(&mut *f);
            f(callee);
            args.iter().for_each(f);
        }
        InstrKind::Return(Some(e)) => f(e),
        InstrKind::QuantifierBegin { bound, .. } => f(bound),
        InstrKind::QuantifierEnd { lhs, body } => {
            f(lhs);
            f(body);
        }
        _ => {}
    }
}

impl Tracked {
    pub fn new(program: &Program) -> Tracked {
        let taken = program.address_taken_symbols();
        let threads = program.creates_threads();
        let mut kinds = HashMap::new();
        for (id, symbol) in program.symbols.iter() {
            let eligible = match symbol.kind {
                SymbolKind::Local(_) => true,
                SymbolKind::Global => !threads && !symbol.thread_local,
                SymbolKind::StringLiteral | SymbolKind::Function(_) => false,
            };
            if eligible && !taken.contains(&id) {
                if let Some(kind) = IntKind::of(&program.types, symbol.ty) {
                    kinds.insert(id, kind);
                }
            }
        }
        let mut tracked = Tracked { kinds, writes: HashMap::new(), all_written: HashSet::new(), none: HashSet::new() };
        tracked.compute_writes(program);
        tracked
    }

    pub fn kind(&self, sym: SymbolId) -> Option<IntKind> {
        self.kinds.get(&sym).copied()
    }

    fn is_tracked_global(&self, program: &Program, sym: SymbolId) -> bool {
        self.kinds.contains_key(&sym) && program.symbols[sym].kind == SymbolKind::Global
    }

    /// The direct writes and callees of each function, then the
    /// transitive closure over the call graph (an indirect call or inline
    /// assembly may write any tracked global).
    fn compute_writes(&mut self, program: &Program) {
        let mut direct: HashMap<FuncId, HashSet<SymbolId>> = HashMap::new();
        let mut callees: HashMap<FuncId, Vec<Option<FuncId>>> = HashMap::new();
        for (id, function) in program.functions.iter() {
            let Some(body) = &function.body else { continue };
            let (writes, calls) = (direct.entry(id).or_default(), callees.entry(id).or_default());
            for instr in body {
                let written = match &instr.kind {
                    InstrKind::Assign(lhs, _) | InstrKind::QuantifierEnd { lhs, .. } => Some(lhs),
                    InstrKind::Call { lhs, callee, .. } => {
                        calls.push(match &callee.kind {
                            ExprKind::Sym(s) => match program.symbols[*s].kind {
                                SymbolKind::Function(f) => Some(f),
                                _ => None,
                            },
                            _ => None,
                        });
                        lhs.as_ref()
                    }
                    InstrKind::Asm(_) => {
                        calls.push(None);
                        None
                    }
                    _ => None,
                };
                if let Some(root) = written.and_then(lvalue_root) {
                    writes.insert(root);
                }
            }
        }
        let globals: HashSet<SymbolId> = direct
            .values()
            .flatten()
            .copied()
            .filter(|s| self.is_tracked_global(program, *s))
            .collect();
        let mut writes: HashMap<FuncId, HashSet<SymbolId>> = direct
            .iter()
            .map(|(f, w)| (*f, w.iter().copied().filter(|s| globals.contains(s)).collect()))
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for (f, calls) in &callees {
                let mut add: HashSet<SymbolId> = HashSet::new();
                for callee in calls {
                    match callee {
                        Some(g) => add.extend(writes.get(g).into_iter().flatten().copied()),
                        None => add.extend(globals.iter().copied()),
                    }
                }
                let own = writes.entry(*f).or_default();
                let before = own.len();
                own.extend(add);
                changed |= own.len() != before;
            }
        }
        self.writes = writes;
        self.all_written = globals;
    }

    /// The tracked globals a call of `callee` may write.
    pub fn call_writes(&self, program: &Program, callee: &Expr) -> &HashSet<SymbolId> {
        if let ExprKind::Sym(s) = &callee.kind {
            if let SymbolKind::Function(f) = program.symbols[*s].kind {
                return self.writes.get(&f).unwrap_or(&self.none);
            }
        }
        &self.all_written
    }
}

/// Whether a call of `callee` never returns: the C library's ways to end
/// the program (symex and the interpreter end the path there too).
pub fn never_returns(program: &Program, callee: &Expr) -> bool {
    let ExprKind::Sym(s) = &callee.kind else { return false };
    let SymbolKind::Function(f) = program.symbols[*s].kind else { return false };
    let function = &program.functions[f];
    function.body.is_none() && matches!(function.name.as_str(), "abort" | "__builtin_abort" | "exit" | "_Exit" | "_exit")
}
