//! Candidate invariants over array segments. A loop whose counter `v`
//! moves by one per iteration (`v = v + 1` or `v = v - 1`, its only
//! assignment in the loop) and that writes `a[v + c] = e` has, at its
//! head, written the elements from the counter's value on entry up to its
//! value now: `∀j. v0 + c <= j < v + c → a[j] == e[v := j - c]` (counting
//! down: `v + c < j <= v0 + c`), `v0` the constant last assigned to `v`
//! before the loop. A later loop that reads the array back needs exactly
//! such a fact. The bound variable `j` is a 64-bit local of the function
//! that no instruction names ([`SEGMENT_INDEX`]): the candidate is an
//! ordinary `Bool` expression over it, which the engines read as `∀j`.
//!
//! Only local integer arrays whose every use is indexing by name (their
//! address never taken): only assignments that name them write them, and
//! the certification program follows exactly those. Values `e` are built
//! from constants, such arrays, the counter and tracked variables declared
//! outside the loop, with operations that cannot fault. These are
//! candidates only: Houdini certifies them with the others.

use super::{Candidate, LoopSite};
use crate::absint::kind::IntKind;
use crate::absint::Tracked;
use ir::{BinOp, Expr, ExprKind, FuncId, Instr, InstrKind, Program, Symbol, SymbolId, SymbolKind, Type, TypeId, UnOp};
use std::collections::{HashMap, HashSet};

/// The display name of the bound variable of segment candidates.
pub const SEGMENT_INDEX: &str = "$segment";

fn writes_element(instr: &Instr) -> bool {
    matches!(&instr.kind, InstrKind::Assign(lhs, _) if matches!(&lhs.kind, ExprKind::Index(base, _) if matches!(base.kind, ExprKind::Sym(_))))
}

/// Adds the bound variable of segment candidates to every function whose
/// body assigns an array element by index. Run it on the program before
/// the engines get it (with [`super::intern_types`]).
pub fn intern_segment_indices(program: &mut Program) {
    let long = program.types.int(64, true);
    let funcs: Vec<FuncId> = program
        .functions
        .iter()
        .filter(|(_, f)| f.body.as_ref().is_some_and(|b| b.iter().any(writes_element)))
        .map(|(id, _)| id)
        .collect();
    for func in funcs {
        if segment_index(program, func).is_some() {
            continue;
        }
        let function = &program.functions[func];
        let name = format!("{}::{SEGMENT_INDEX}", function.name);
        let loc = function.loc;
        let kind = SymbolKind::Local(func);
        let symbol = Symbol { name, display_name: SEGMENT_INDEX.into(), ty: long, kind, thread_local: false, read_only: false, align: 0, trailing_bytes: 0, loc };
        program.symbols.push(symbol);
    }
}

/// The bound variable of `func`'s segment candidates, if it has one.
pub fn segment_index(program: &Program, func: FuncId) -> Option<SymbolId> {
    program.symbols.iter().find(|(_, s)| s.kind == SymbolKind::Local(func) && s.display_name == SEGMENT_INDEX).map(|(id, _)| id)
}

/// The local integer arrays of `func` whose every use is as the base of
/// an index, and whose address is never taken.
pub fn plain_arrays(program: &Program, func: FuncId, taken: &HashSet<SymbolId>) -> HashSet<SymbolId> {
    let Some(body) = &program.functions[func].body else { return HashSet::new() };
    let mut uses: HashMap<SymbolId, (usize, usize)> = HashMap::new();
    for instr in body {
        for e in instr.kind.exprs() {
            for node in e.walk() {
                match &node.kind {
                    ExprKind::Sym(s) => uses.entry(*s).or_default().0 += 1,
                    ExprKind::Index(base, _) => {
                        if let ExprKind::Sym(s) = base.kind {
                            uses.entry(s).or_default().1 += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let int_elements = |ty: TypeId| match program.types.get(ty) {
        Type::Array(elem, _) => IntKind::of(&program.types, *elem).is_some(),
        _ => false,
    };
    uses.into_iter()
        .filter(|(s, (all, indexed))| {
            let symbol = &program.symbols[*s];
            all == indexed && symbol.kind == SymbolKind::Local(func) && !taken.contains(s) && int_elements(symbol.ty)
        })
        .map(|(s, _)| s)
        .collect()
}

/// What segment candidates are built from, for one function.
struct Context<'a> {
    program: &'a Program,
    tracked: &'a Tracked,
    arrays: HashSet<SymbolId>,
    bound: SymbolId,
    long: TypeId,
    boolean: TypeId,
}

/// A counter of a loop: its only assignment there moves it by one.
struct Counter {
    var: SymbolId,
    up: bool,
    /// Its constant value on entry.
    initial: i128,
}

/// The segment candidates at the heads of `sites` (all of `func`).
pub fn candidates(program: &Program, tracked: &Tracked, func: FuncId, sites: &[&LoopSite]) -> Vec<Candidate> {
    let (Some(bound), Some(body)) = (segment_index(program, func), program.functions[func].body.as_deref()) else { return Vec::new() };
    let (Some(long), Some(boolean)) = (program.types.lookup(&Type::Int { bits: 64, signed: true }), program.types.lookup(&Type::Bool)) else {
        return Vec::new();
    };
    let arrays = plain_arrays(program, func, &program.address_taken_symbols());
    if arrays.is_empty() {
        return Vec::new();
    }
    let cx = Context { program, tracked, arrays, bound, long, boolean };
    let mut out = Vec::new();
    for site in sites {
        let inside: Vec<&Instr> = site.body.iter().filter_map(|i| body.get(i.0 as usize)).collect();
        let loc = body.get(site.head.0 as usize).map_or(ir::Loc::NONE, |i| i.loc);
        for counter in cx.counters(body, site, &inside) {
            for instr in &inside {
                let InstrKind::Assign(lhs, rhs) = &instr.kind else { continue };
                let Some((expr, c_text)) = cx.segment(&counter, &inside, lhs, rhs) else { continue };
                if out.iter().all(|c: &Candidate| c.head != site.head || c.c_text != c_text) {
                    out.push(Candidate { func, head: site.head, expr, c_text, loc, arithmetic: false, bound: Some(bound) });
                }
            }
        }
    }
    out
}

impl Context<'_> {
    /// The counters of the loop `site` (instructions `inside`) with a
    /// constant assigned last before its head.
    fn counters(&self, body: &[Instr], site: &LoopSite, inside: &[&Instr]) -> Vec<Counter> {
        let mut assigned: HashMap<SymbolId, Vec<&Expr>> = HashMap::new();
        for instr in inside {
            if let InstrKind::Assign(lhs, rhs) = &instr.kind {
                if let Some(root) = lhs.lvalue_root() {
                    assigned.entry(root).or_default().push(rhs);
                }
            }
        }
        let mut out = Vec::new();
        for (var, rhs) in assigned {
            let (Some(kind), [rhs]) = (self.tracked.kind(var), rhs.as_slice()) else { continue };
            let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), x, one) = &rhs.kind else { continue };
            if x.kind != ExprKind::Sym(var) || one.kind != ExprKind::IntConst(1) {
                continue;
            }
            let before = body[..site.head.0 as usize].iter().rev().find_map(|i| match &i.kind {
                InstrKind::Assign(lhs, value) if lhs.kind == ExprKind::Sym(var) => Some(value),
                _ => None,
            });
            let Some(ExprKind::IntConst(bits)) = before.map(|v| &v.kind) else { continue };
            out.push(Counter { var, up: *op == BinOp::Add, initial: kind.value_of_bits(*bits) });
        }
        out.sort_by_key(|c| c.var);
        out
    }

    /// `c` when `index` is `counter + c` (or `counter - c`, `counter`).
    fn offset(&self, counter: &Counter, index: &Expr) -> Option<i128> {
        match &index.kind {
            ExprKind::Sym(s) if *s == counter.var => Some(0),
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), x, k) if x.kind == ExprKind::Sym(counter.var) => {
                let ExprKind::IntConst(bits) = k.kind else { return None };
                let c = IntKind::of(&self.program.types, k.ty)?.value_of_bits(bits);
                Some(if *op == BinOp::Add { c } else { -c })
            }
            _ => None,
        }
    }

    /// Whether `e` is a value a segment candidate may state: it cannot
    /// fault and reads only what is defined at the head.
    fn value_allowed(&self, e: &Expr, counter: &Counter, inside: &[&Instr]) -> bool {
        let declared_inside = |s: SymbolId| inside.iter().any(|i| matches!(i.kind, InstrKind::Decl(d) if d == s));
        e.walk().all(|n| match &n.kind {
            ExprKind::Sym(s) => *s == counter.var || self.arrays.contains(s) || (self.tracked.kind(*s).is_some() && !declared_inside(*s)),
            ExprKind::Index(base, _) => matches!(base.kind, ExprKind::Sym(s) if self.arrays.contains(&s)),
            ExprKind::IntConst(_) | ExprKind::Cast(_) | ExprKind::Unary(..) => true,
            ExprKind::Binary(op, ..) => !matches!(op, BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr),
            _ => false,
        })
    }

    /// The segment candidate of the write `lhs = rhs` for `counter`.
    fn segment(&self, counter: &Counter, inside: &[&Instr], lhs: &Expr, rhs: &Expr) -> Option<(Expr, String)> {
        let ExprKind::Index(base, index) = &lhs.kind else { return None };
        let ExprKind::Sym(array) = base.kind else { return None };
        if !self.arrays.contains(&array) || !self.value_allowed(rhs, counter, inside) {
            return None;
        }
        let c = self.offset(counter, index)?;
        let first = counter.initial.checked_add(c).filter(|v| i64::try_from(*v).is_ok())?;
        let constant = |v: i128| Expr::int((v as i64 as u64) as u128, self.long);
        let j = Expr::sym(self.bound, self.long);
        let counter_ty = self.program.symbols[counter.var].ty;
        let now = Expr::binary(BinOp::Add, Expr::cast(Expr::sym(counter.var, counter_ty), self.long), constant(c), self.long);
        let compare = |op, a: &Expr, b: &Expr| Expr::binary(op, a.clone(), b.clone(), self.boolean);
        let (low, high) = match counter.up {
            true => (compare(BinOp::Le, &constant(first), &j), compare(BinOp::Lt, &j, &now)),
            false => (compare(BinOp::Lt, &now, &j), compare(BinOp::Le, &j, &constant(first))),
        };
        let element = Expr::new(ExprKind::Index(base.clone(), Box::new(j.clone())), lhs.ty);
        let mut value = rhs.clone();
        let at_j = Expr::cast(Expr::binary(BinOp::Sub, j.clone(), constant(c), self.long), counter_ty);
        value.substitute_symbol(counter.var, &at_j);
        let equal = compare(BinOp::Eq, &element, &value);
        let show = |e: &Expr| self.program.display_expr(e).to_string();
        let text = format!("forall long long j: {} && {} ==> {}", show(&low), show(&high), show(&equal));
        let inside_segment = Expr::binary(BinOp::And, low, high, self.boolean);
        let outside = Expr::unary(UnOp::Not, inside_segment, self.boolean);
        let expr = Expr::binary(BinOp::Or, outside, equal, self.boolean);
        Some((expr, text.replace(SEGMENT_INDEX, "j")))
    }
}
