//! The program that certifies candidates (Houdini's query): for one
//! function F, a loop-free abstraction of its body over the tracked
//! variables only, where every loop head h checks the candidates on entry,
//! havocs what h's cycle may modify and assumes the candidates, and every
//! edge back into h checks them again and ends the path. No assertion of
//! it can fail exactly when the candidates are inductive together (the
//! loop-contract check of CBMC, 2LS's kIkI at k = 1).
//!
//! Soundness rests on over-approximation, not on the analysis: a read of
//! anything but a tracked variable (memory, pointers, arrays, floats,
//! untracked variables) is a nondeterministic value, so the abstract body
//! has every behaviour of the real one on the tracked variables; writes to
//! other memory are dropped (nothing reads it any more); a call writes the
//! tracked globals its callee may write and its result (nothing else can
//! reach a tracked variable: none has its address taken). The loops are
//! `crate::loops`' natural loops: only a back edge is cut (its source is
//! dominated by h, so a path reaching it passed h before, and the havoc
//! there, over h's loop body, covers everything the path changed since);
//! every other edge into h goes through the entry check. An irreducible
//! loop has no dominating head: such a function gets no certification.
//! The program's own assertions are assumed:
//! a candidate is certified under "no property failed before", which is
//! what k-induction's step assumes as well.

use super::Candidate;
use crate::absint::kind::IntKind;
use crate::absint::vars::{never_returns, Tracked};
use crate::absint::frame::back_jumps;
use crate::loops::{FunctionLoops, Loop};
use ir::{Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Loc, Program, Property, PropertyClass, SymbolId, SymbolKind, Type};
use std::collections::{BTreeMap, HashSet};

/// Deeper expressions become one nondeterministic value.
const MAX_DEPTH: usize = 64;

/// The message of a candidate's assertions in the certification program;
/// the engine maps violated assertions back to candidates by it.
pub fn candidate_message(id: usize) -> String {
    format!("invariant candidate {id}")
}

struct Abstractor<'a> {
    program: &'a Program,
    tracked: &'a Tracked,
    /// The arrays that segment candidates name: written only by name
    /// ([`super::segments::plain_arrays`]), so the abstraction keeps
    /// their element writes and reads.
    arrays: HashSet<SymbolId>,
}

impl Abstractor<'_> {
    fn is_tracked(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Sym(s) if self.tracked.kind(*s).is_some())
    }
    fn is_kept_array(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Sym(s) if self.arrays.contains(s))
    }
    fn is_int(&self, e: &Expr) -> bool {
        IntKind::of(&self.program.types, e.ty).is_some()
    }
    fn nondet(e: &Expr) -> Expr {
        Expr::new(ExprKind::Nondet, e.ty)
    }

    /// `e` (integer or `Bool`) with every read of untracked state replaced
    /// by a nondeterministic value.
    fn expr(&self, e: &Expr, depth: usize) -> Expr {
        if depth > MAX_DEPTH || !self.is_int(e) {
            return Self::nondet(e);
        }
        let sub = |x: &Expr| self.expr(x, depth + 1);
        let kind = match &e.kind {
            ExprKind::Sym(_) if self.is_tracked(e) => return e.clone(),
            ExprKind::IntConst(_) | ExprKind::Zero | ExprKind::Nondet => return e.clone(),
            ExprKind::Index(base, index) if self.is_kept_array(base) && self.is_int(index) => ExprKind::Index(base.clone(), Box::new(sub(index))),
            ExprKind::Unary(op, a) if self.is_int(a) => ExprKind::Unary(*op, Box::new(sub(a))),
            ExprKind::Binary(op, a, b) if self.is_int(a) && self.is_int(b) => {
                ExprKind::Binary(*op, Box::new(sub(a)), Box::new(sub(b)))
            }
            ExprKind::Cast(a) if self.is_int(a) => ExprKind::Cast(Box::new(sub(a))),
            ExprKind::Ite(c, a, b) if self.is_int(c) && self.is_int(a) => {
                ExprKind::Ite(Box::new(sub(c)), Box::new(sub(a)), Box::new(sub(b)))
            }
            _ => return Self::nondet(e),
        };
        Expr::new(kind, e.ty)
    }

    fn havoc(sym: SymbolId, program: &Program, loc: Loc) -> Instr {
        let ty = program.symbols[sym].ty;
        Instr::new(InstrKind::Assign(Expr::sym(sym, ty), Expr::new(ExprKind::Nondet, ty)), loc)
    }

    /// The abstract instructions of one instruction (jump targets are the
    /// original ones; the caller maps them).
    fn instr(&self, instr: &Instr, names: &HashSet<SymbolId>) -> Vec<Instr> {
        let loc = instr.loc;
        let one = |kind| vec![Instr::new(kind, loc)];
        match &instr.kind {
            InstrKind::Assign(lhs, rhs) if self.is_tracked(lhs) => one(InstrKind::Assign(lhs.clone(), self.expr(rhs, 0))),
            InstrKind::Assign(lhs @ Expr { kind: ExprKind::Index(base, index), .. }, rhs) if self.is_kept_array(base) && self.is_int(index) => {
                let element = Expr::new(ExprKind::Index(base.clone(), Box::new(self.expr(index, 0))), lhs.ty);
                one(InstrKind::Assign(element, self.expr(rhs, 0)))
            }
            InstrKind::Assign(..) => one(InstrKind::Skip),
            InstrKind::Assume(c) | InstrKind::Assert(c, _) => one(InstrKind::Assume(self.expr(c, 0))),
            InstrKind::Goto { cond, target } => one(InstrKind::Goto { cond: self.expr(cond, 0), target: *target }),
            InstrKind::Decl(s) | InstrKind::Dead(s) if self.tracked.kind(*s).is_some() || self.arrays.contains(s) => one(instr.kind.clone()),
            InstrKind::Decl(_) | InstrKind::Dead(_) => one(InstrKind::Skip),
            InstrKind::Call { callee, .. } if never_returns(self.program, callee) => {
                let f = Expr::int(0, self.bool_type(instr));
                one(InstrKind::Assume(f))
            }
            InstrKind::Call { lhs, callee, .. } => {
                let mut out: Vec<Instr> = self
                    .tracked
                    .call_writes(self.program, callee)
                    .iter()
                    .filter(|g| names.contains(g))
                    .map(|g| Self::havoc(*g, self.program, loc))
                    .collect();
                out.extend(lhs.iter().filter(|l| self.is_tracked(l)).map(|l| Instr::new(InstrKind::Assign(l.clone(), Self::nondet(l)), loc)));
                if out.is_empty() {
                    out.push(Instr::new(InstrKind::Skip, loc));
                }
                out
            }
            InstrKind::Asm(_) => names.iter().map(|s| Self::havoc(*s, self.program, loc)).collect(),
            InstrKind::Return(Some(e)) => one(InstrKind::Return(Some(Self::nondet(e)))),
            InstrKind::Return(None) => one(InstrKind::Return(None)),
            _ => one(InstrKind::Skip),
        }
    }

    /// The `Bool` type (a program with loops has conditions, so it exists).
    fn bool_type(&self, _: &Instr) -> ir::TypeId {
        self.program.types.lookup(&Type::Bool).expect("a program with jumps has the Bool type")
    }
}

/// Where a jump of the abstract body goes.
#[derive(Copy, Clone)]
enum Target {
    /// The abstract code of an original instruction (a head's prologue).
    Original(usize),
    /// The back-edge block of a head.
    Latch(usize),
}

/// The check of a candidate: a segment candidate `∀j. e` is asserted as
/// `e` for a nondeterministic `j` (it fails exactly when some `j` falsifies
/// `e`).
fn assertion(c: &Candidate, id: usize, loc: Loc) -> Vec<Instr> {
    let property = Property { class: PropertyClass::UserAssertion, message: candidate_message(id) };
    let mut out: Vec<Instr> = c.bound.iter().map(|j| Instr::new(InstrKind::Assign(bound_var(c, *j), Expr::new(ExprKind::Nondet, c_bound_ty(c))), loc)).collect();
    out.push(Instr::new(InstrKind::Assert(c.expr.clone(), property), loc));
    out
}

/// The assumption of a candidate: a segment candidate's `∀j. e` is the
/// value of a quantifier, left in `j` itself (nothing else reads it).
fn assumption(c: &Candidate, boolean: ir::TypeId, loc: Loc) -> Vec<Instr> {
    let Some(j) = c.bound else { return vec![Instr::new(InstrKind::Assume(c.expr.clone()), loc)] };
    let var = bound_var(c, j);
    let holds = Expr::binary(ir::BinOp::Ne, var.clone(), Expr::int(0, var.ty), boolean);
    vec![
        Instr::new(InstrKind::QuantifierBegin { quantifier: ir::Quantifier::Forall, bound: var.clone() }, loc),
        Instr::new(InstrKind::QuantifierEnd { lhs: var, body: c.expr.clone() }, loc),
        Instr::new(InstrKind::Assume(holds), loc),
    ]
}

/// The type of a segment candidate's bound variable, as the candidate
/// reads it.
fn c_bound_ty(c: &Candidate) -> ir::TypeId {
    c.expr.walk().find_map(|n| matches!(n.kind, ExprKind::Sym(s) if Some(s) == c.bound).then_some(n.ty)).unwrap_or(c.expr.ty)
}

fn bound_var(c: &Candidate, j: SymbolId) -> Expr {
    Expr::sym(j, c_bound_ty(c))
}

/// The abstract body of `func` with `candidates` (id, candidate) at its
/// heads; the tracked variables it names are `names`.
fn abstract_body(
    program: &Program,
    tracked: &Tracked,
    func: FuncId,
    candidates: &[(usize, &Candidate)],
    havoc_globals: bool,
) -> Result<Vec<Instr>, String> {
    let body = program.functions[func].body.as_deref().unwrap_or(&[]);
    // What a quantifier's body writes does not outlive it, so the body is
    // no straight-line code the abstraction could keep.
    if body.iter().any(|i| matches!(i.kind, InstrKind::QuantifierBegin { .. })) {
        return Err("quantifiers are not abstracted".into());
    }
    let plain = super::segments::plain_arrays(program, func, &program.address_taken_symbols());
    let arrays = candidates.iter().flat_map(|(_, c)| c.expr.walk().filter_map(|n| match n.kind {
        ExprKind::Sym(s) if plain.contains(&s) => Some(s),
        _ => None,
    }).collect::<Vec<_>>()).collect();
    let abstractor = Abstractor { program, tracked, arrays };
    let names: HashSet<SymbolId> = body
        .iter()
        .flat_map(|i| {
            let mut syms = Vec::new();
            crate::absint::vars::for_each_expr(&i.kind, &mut |e: &Expr| {
                syms.extend(e.walk().filter_map(|n| match n.kind {
                    ExprKind::Sym(s) if tracked.kind(s).is_some() => Some(s),
                    _ => None,
                }))
            });
            if let InstrKind::Decl(s) = i.kind {
                syms.push(s);
            }
            syms
        })
        .chain(candidates.iter().flat_map(|(_, c)| {
            c.expr.walk().filter_map(|n| match n.kind {
                ExprKind::Sym(s) => Some(s),
                _ => None,
            }).collect::<Vec<_>>()
        }))
        .collect();
    let loops = FunctionLoops::of_body(body);
    // An entry from an instruction no path reaches (the jump after a
    // `break`) is no entry.
    let reachable = |n: usize| loops.dominators().is_reachable(n);
    if let Some(irreducible) = loops.loops().iter().find(|l| l.entries.iter().any(|(from, _)| reachable(*from))) {
        let loc = body[irreducible.head].loc;
        return Err(format!("irreducible loop at {}:{}", program.files.name(loc.file), loc.line));
    }
    let heads: BTreeMap<usize, &Loop> = loops.loops().iter().map(|l| (l.head, l)).collect();
    let is_back_edge = |from: usize, to: usize| loops.back_edge(from, to).is_some();
    let mut out: Vec<(Instr, Option<Target>)> = Vec::new();
    let entry_loc = program.functions[func].loc;
    if havoc_globals {
        let mut globals: Vec<SymbolId> = names.iter().copied().filter(|s| program.symbols[*s].kind == SymbolKind::Global).collect();
        globals.sort_unstable();
        out.extend(globals.into_iter().map(|g| (Abstractor::havoc(g, program, entry_loc), None)));
    }
    let mut start = vec![0usize; body.len() + 1];
    for (i, instr) in body.iter().enumerate() {
        if let Some(lp) = heads.get(&i) {
            let falls_in = i > 0 && is_back_edge(i - 1, i);
            if falls_in {
                let t = abstractor.bool_type(instr);
                out.push((Instr::new(InstrKind::Goto { cond: Expr::int(1, t), target: InstrIdx(0) }, instr.loc), Some(Target::Latch(i))));
            }
            start[i] = out.len();
            let here: Vec<&(usize, &Candidate)> = candidates.iter().filter(|(_, c)| c.head.0 as usize == i).collect();
            out.extend(here.iter().flat_map(|(id, c)| assertion(c, *id, instr.loc)).map(|a| (a, None)));
            let mut modified: Vec<SymbolId> = modified_in_loop(&abstractor, body, &lp.body, &names);
            modified.sort_unstable();
            out.extend(modified.into_iter().map(|s| (Abstractor::havoc(s, program, instr.loc), None)));
            let boolean = abstractor.bool_type(instr);
            out.extend(here.iter().flat_map(|(_, c)| assumption(c, boolean, instr.loc)).map(|a| (a, None)));
        } else {
            start[i] = out.len();
        }
        for a in abstractor.instr(instr, &names) {
            let target = match &a.kind {
                InstrKind::Goto { target, .. } => {
                    let t = target.0 as usize;
                    Some(match is_back_edge(i, t) {
                        true => Target::Latch(t),
                        false => Target::Original(t),
                    })
                }
                _ => None,
            };
            out.push((a, target));
        }
    }
    start[body.len()] = out.len();
    let mut latch = BTreeMap::new();
    let ret = match program.types.get(program.functions[func].ty) {
        Type::Function(sig) if !matches!(program.types.get(sig.ret), Type::Void) => Some(Expr::new(ExprKind::Nondet, sig.ret)),
        _ => None,
    };
    for &h in heads.keys() {
        latch.insert(h, out.len());
        let loc = body[h].loc;
        out.extend(candidates.iter().filter(|(_, c)| c.head.0 as usize == h).flat_map(|(id, c)| assertion(c, *id, loc)).map(|a| (a, None)));
        let t = abstractor.bool_type(&body[h]);
        out.push((Instr::new(InstrKind::Assume(Expr::int(0, t)), loc), None));
        out.push((Instr::new(InstrKind::Return(ret.clone()), loc), None));
    }
    let abstract_body: Vec<Instr> = out
        .into_iter()
        .map(|(mut instr, target)| {
            if let (InstrKind::Goto { target: t, .. }, Some(to)) = (&mut instr.kind, target) {
                *t = InstrIdx(match to {
                    Target::Original(i) => start[i],
                    Target::Latch(h) => latch[&h],
                } as u32);
            }
            instr
        })
        .collect();
    // Every back edge went to a latch block: what is left jumps forwards.
    debug_assert!(back_jumps(&abstract_body).is_empty(), "the certification program of {} has a cycle", program.functions[func].name);
    Ok(abstract_body)
}

/// The tracked variables that instructions of the loop body may write.
fn modified_in_loop(abstractor: &Abstractor, body: &[Instr], inside: &[usize], names: &HashSet<SymbolId>) -> Vec<SymbolId> {
    let mut out = HashSet::new();
    for instr in inside.iter().filter_map(|i| body.get(*i)) {
        for a in abstractor.instr(instr, names) {
            match &a.kind {
                InstrKind::Assign(lhs, _) => {
                    out.extend(lhs.lvalue_root());
                }
                InstrKind::Decl(s) => {
                    out.insert(*s);
                }
                _ => {}
            }
        }
    }
    out.into_iter().collect()
}

/// The certification program of `func` with the given candidates (each
/// with its id): `func`'s abstraction is the entry; the initialiser is
/// abstracted the same way when `func` is the program's entry (the
/// globals start from their initial values), otherwise the tracked
/// globals start unknown.
pub fn certification_program(
    program: &Program,
    tracked: &Tracked,
    func: FuncId,
    candidates: &[(usize, &Candidate)],
) -> Result<Program, String> {
    let is_entry = program.entry == Some(func);
    let body = abstract_body(program, tracked, func, candidates, !is_entry)?;
    let init_body = match (program.init, is_entry) {
        (Some(init), true) => Some(abstract_body(program, tracked, init, &[], false)?),
        (Some(_), false) => Some(vec![Instr::new(InstrKind::Return(None), Loc::NONE)]),
        (None, _) => None,
    };
    let mut abstract_program = program.clone();
    abstract_program.functions[func].body = Some(body);
    if let (Some(init), Some(b)) = (program.init, init_body) {
        abstract_program.functions[init].body = Some(b);
    }
    abstract_program.entry = Some(func);
    abstract_program.labels.retain(|l| l.function != func && Some(l.function) != program.init);
    abstract_program.loop_unwinds.clear();
    Ok(abstract_program)
}
