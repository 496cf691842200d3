//! Whole-program passes after all units are lowered: retyping references
//! lowered before a later declaration completed a symbol's type (`extern
//! int a[];` then `int a[10];`, `int f();` then a prototype), and finding
//! the functions reachable from the entry and init functions (errors in
//! unreachable internal functions, e.g. header-only inline code, do not
//! reject the program).

use ir::{Expr, ExprKind, FuncId, InstrKind, Program, SymbolId, SymbolKind};
use std::collections::HashSet;

/// Functions reachable from the entry and init functions through any
/// reference (calls and addresses taken).
pub fn reachable_functions(prog: &Program) -> HashSet<FuncId> {
    let mut seen = HashSet::new();
    let mut work: Vec<FuncId> = prog.entry.iter().chain(prog.init.iter()).copied().collect();
    while let Some(f) = work.pop() {
        if !seen.insert(f) {
            continue;
        }
        let Some(body) = &prog.functions[f].body else { continue };
        for instr in body {
            for e in instr.kind.exprs() {
                for node in e.walk() {
                    if let ExprKind::Sym(s) = node.kind {
                        if let SymbolKind::Function(g) = prog.symbols[s].kind {
                            work.push(g);
                        }
                    }
                }
            }
        }
    }
    seen
}

/// Gives every reference to a symbol in `stale` the symbol's final type.
/// A function keeps the type it was referenced with: `&f` and a callee `f`
/// become `(old type *)&f`, so calls lowered against the earlier
/// declaration stay well-typed. A call whose lowered arguments already
/// have the final prototype's parameter types calls `f` directly: it means
/// the same, and a body-less function (a library model, an intrinsic such
/// as `__VERIFIER_atomic_begin` declared `void f();` by the program) is
/// only recognised when called by name.
pub fn retype_stale_references(prog: &mut Program, stale: &HashSet<SymbolId>) {
    if stale.is_empty() {
        return;
    }
    let final_types: Vec<_> = prog.symbols.values().map(|s| s.ty).collect();
    let mut retype = Retype { stale, final_types, types: std::mem::take(&mut prog.types) };
    for (_, func) in prog.functions.iter_mut() {
        let Some(body) = &mut func.body else { continue };
        for instr in body.iter_mut() {
            if let InstrKind::Call { callee, args, .. } = &mut instr.kind {
                if let Some(new_callee) = retype.stale_callee(callee, args) {
                    *callee = new_callee;
                }
            }
            for root in instr.kind.exprs_mut() {
                retype.walk(root);
            }
        }
    }
    prog.types = retype.types;
}

struct Retype<'a> {
    stale: &'a HashSet<SymbolId>,
    final_types: Vec<ir::TypeId>,
    types: ir::TypeTable,
}

impl Retype<'_> {
    fn stale_type(&self, e: &Expr) -> Option<(SymbolId, ir::TypeId)> {
        match e.kind {
            ExprKind::Sym(s) if self.stale.contains(&s) && self.final_types[s.0 as usize] != e.ty => {
                Some((s, self.final_types[s.0 as usize]))
            }
            _ => None,
        }
    }

    /// `(old *)&f` for a stale function designator `f`.
    fn stale_function(&mut self, e: &Expr) -> Option<Expr> {
        let (s, ty) = self.stale_type(e)?;
        if !matches!(self.types.get(ty), ir::Type::Function(_)) {
            return None;
        }
        let old_ptr = self.types.pointer_to(e.ty);
        let new_ptr = self.types.pointer_to(ty);
        let addr = Expr::new(ExprKind::AddrOf(Box::new(Expr::sym(s, ty))), new_ptr);
        Some(Expr::cast(addr, old_ptr))
    }

    /// The callee `f` of a call with `args` lowered against an old type of
    /// `f`: `f` itself with its final type when the arguments have exactly
    /// its parameters' types and both types return the same, else `(old
    /// *)&f`.
    fn stale_callee(&mut self, callee: &Expr, args: &[Expr]) -> Option<Expr> {
        let (s, ty) = self.stale_type(callee)?;
        let (ir::Type::Function(old), ir::Type::Function(new)) = (self.types.get(callee.ty), self.types.get(ty)) else {
            return None;
        };
        let same_call = old.ret == new.ret
            && !new.unprototyped
            && !new.variadic
            && new.params.len() == args.len()
            && new.params.iter().zip(args).all(|(&p, a)| p == a.ty);
        if same_call {
            return Some(Expr::sym(s, ty));
        }
        self.stale_function(callee)
    }

    fn walk(&mut self, root: &mut Expr) {
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            if let ExprKind::AddrOf(inner) = &e.kind {
                if let Some(cast) = self.stale_function(inner) {
                    *e = cast;
                    continue;
                }
            }
            if let Some((_, ty)) = self.stale_type(e) {
                e.ty = ty;
                continue;
            }
            stack.extend(Expr::children_mut(e));
        }
    }
}
