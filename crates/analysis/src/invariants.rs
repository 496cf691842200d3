//! Candidate loop invariants: the abstract interpreter's ([`crate::absint`])
//! facts at each loop head, as `Bool` IR expressions over the program's
//! variables with their C text and the head's location. They are only
//! candidates: the engine certifies them with the solver (they hold when
//! the loop is entered and one iteration keeps them, assuming the others)
//! and assumes only the certified ones.
//!
//! A candidate names only tracked variables (scalar integers whose address
//! is never taken) alive at the head, so evaluating it there can never
//! fault, and it is about variables the loop modifies (the others keep
//! their values through the loop anyway).

pub mod abstraction;
mod build;
pub mod fact;
pub mod segments;

use crate::absint::{self, analyze, Frame, Tracked};
use crate::absint::vars::lvalue_root;
use crate::loops::FunctionLoops;
use build::Builder;
use fact::Fact;
use ir::{BinOp, Expr, ExprKind, FuncId, InstrIdx, InstrKind, Loc, Program};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

/// A loop for which candidates are wanted: its head (the instruction the
/// candidates hold before) and the instructions of its body.
#[derive(Clone, Debug)]
pub struct LoopSite {
    pub func: FuncId,
    pub head: InstrIdx,
    pub body: Vec<InstrIdx>,
}

/// A candidate invariant at a loop head.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub func: FuncId,
    pub head: InstrIdx,
    /// A `Bool` over program variables, side-effect free, never faulting.
    pub expr: Expr,
    /// The same as a C expression.
    pub c_text: String,
    /// The loop head's location.
    pub loc: Loc,
    /// Its expression computes sums or products (octagon relations in a
    /// wide type, affine equalities), which the solver reasons about more
    /// slowly than about comparisons and bit tests.
    pub arithmetic: bool,
    /// When set, the candidate is `∀bound. expr` (a segment candidate,
    /// see [`segments`]): `bound` is a local no instruction names.
    pub bound: Option<ir::SymbolId>,
}

/// The candidates of a program.
#[derive(Clone, Debug, Default)]
pub struct Invariants {
    pub candidates: Vec<Candidate>,
    /// Time spent analysing and building candidates.
    pub time: Duration,
    /// Functions whose analysis ran out of its budget (no candidates there).
    pub abandoned: usize,
}

impl Invariants {
    /// The candidates at `head` of `func`.
    pub fn at(&self, func: FuncId, head: InstrIdx) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(move |c| c.func == func && c.head == head)
    }
}

/// For testing the certification: `candidates` each followed by wrong
/// twins: its negation (of a segment candidate's body: `∀j. ¬e`), and for a bound `x >= c` / `x <= c` the bound
/// moved inwards by one (true only if the analysis was not tight).
pub fn with_wrong_twins(candidates: &[Candidate]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for c in candidates {
        out.push(c.clone());
        let negated = Expr::unary(ir::UnOp::Not, c.expr.clone(), c.expr.ty);
        let c_text = match c.bound {
            Some(_) => format!("{} (body negated)", c.c_text),
            None => format!("!({})", c.c_text),
        };
        out.push(Candidate { expr: negated, c_text, ..c.clone() });
        if let ExprKind::Binary(op @ (BinOp::Ge | BinOp::Le), x, k) = &c.expr.kind {
            if let (ExprKind::Sym(_), ExprKind::IntConst(bits)) = (&x.kind, &k.kind) {
                let moved = if *op == BinOp::Ge { bits.wrapping_add(1) } else { bits.wrapping_sub(1) };
                let bound = Expr::int(moved, k.ty);
                let expr = Expr::binary(*op, (**x).clone(), bound, c.expr.ty);
                let text = format!("{} (moved by one)", c.c_text);
                out.push(Candidate { expr, c_text: text, ..c.clone() });
            }
        }
    }
    out
}

/// The loops of `program` (`crate::loops`, the loops every engine
/// unwinds and havocs), library models' functions left out.
pub fn loop_sites(program: &Program) -> Vec<LoopSite> {
    let mut sites = Vec::new();
    for (func, function) in program.functions.iter() {
        let Some(body) = &function.body else { continue };
        if program.files.is_library_model(function.loc) {
            continue;
        }
        for l in FunctionLoops::of_body(body).loops() {
            let body = l.body.iter().map(|i| InstrIdx(*i as u32)).collect();
            sites.push(LoopSite { func, head: InstrIdx(l.head as u32), body });
        }
    }
    sites
}

/// The tracked variables (frame indices) the loop body may write: by
/// assignment, as a call's result, by a callee (globals), by a `Decl`.
fn modified(frame: &Frame, body: &[ir::Instr], site: &LoopSite) -> HashSet<usize> {
    let mut out = HashSet::new();
    for i in &site.body {
        let Some(instr) = body.get(i.0 as usize) else { continue };
        let written = match &instr.kind {
            InstrKind::Assign(lhs, _) | InstrKind::QuantifierEnd { lhs, .. } => lvalue_root(lhs),
            InstrKind::Decl(s) => Some(*s),
            InstrKind::Call { lhs, callee, .. } => {
                for g in frame.tracked.call_writes(frame.program, callee) {
                    out.extend(frame.index.get(g).copied());
                }
                lhs.as_ref().and_then(lvalue_root)
            }
            InstrKind::Asm(_) => return (0..frame.vars.len()).collect(),
            _ => None,
        };
        out.extend(written.and_then(|s| frame.index.get(&s).copied()));
    }
    out
}

/// The facts at each site, grouped by function (one analysis each).
fn all_facts(program: &Program, sites: &[LoopSite], abandoned: &mut usize) -> Vec<(usize, Vec<Fact>)> {
    let tracked = Tracked::new(program);
    let initial = absint::globals_at_entry(program, &tracked);
    let mut by_function: HashMap<FuncId, Vec<usize>> = HashMap::new();
    for (i, site) in sites.iter().enumerate() {
        by_function.entry(site.func).or_default().push(i);
    }
    let mut functions: Vec<(FuncId, Vec<usize>)> = by_function.into_iter().collect();
    functions.sort_unstable_by_key(|(f, _)| *f);
    let mut out = Vec::new();
    for (func, site_ids) in functions {
        let Some(body) = &program.functions[func].body else { continue };
        for (focus, nest) in nests(body.len(), sites, &site_ids) {
            let frame = Frame::new(program, &tracked, func, body, focus.as_deref());
            let entry = absint::entry_state(&frame, func, &initial);
            let Some(analysis) = analyze(&frame, body, entry) else {
                *abandoned += 1;
                break;
            };
            for i in nest {
                let site = &sites[i];
                let Some(state) = analysis.at.get(&(site.head.0 as usize)) else { continue };
                let mut state = state.clone();
                state.tighten_by_equalities(&frame);
                let state = &state;
                let changed = modified(&frame, body, site);
                let relevant = |v: usize| changed.contains(&v) && fact::usable(&frame, state, v);
                out.push((i, fact::facts(&frame, state, &relevant)));
            }
        }
    }
    out
}

/// Functions with more outermost loops than this are analysed once, with
/// packs for all their loops together.
const MAX_NESTS: usize = 6;

/// The sites of one function grouped by outermost loop nest, each with
/// the instructions of the nest as the focus of its packs: one analysis
/// per nest, so each nest's relational packs hold its own variables.
fn nests(len: usize, sites: &[LoopSite], ids: &[usize]) -> Vec<(Option<Vec<bool>>, Vec<usize>)> {
    let mut groups: Vec<(Vec<bool>, Vec<usize>)> = Vec::new();
    let mut ordered = ids.to_vec();
    ordered.sort_by_key(|i| std::cmp::Reverse(sites[*i].body.len()));
    for i in ordered {
        let body = &sites[i].body;
        match groups.iter_mut().find(|(focus, _)| body.iter().any(|b| focus.get(b.0 as usize).copied().unwrap_or(false))) {
            Some((focus, members)) => {
                body.iter().filter(|b| (b.0 as usize) < len).for_each(|b| focus[b.0 as usize] = true);
                members.push(i);
            }
            None => {
                let mut focus = vec![false; len];
                body.iter().filter(|b| (b.0 as usize) < len).for_each(|b| focus[b.0 as usize] = true);
                groups.push((focus, vec![i]));
            }
        }
    }
    if groups.len() > MAX_NESTS {
        return vec![(None, ids.to_vec())];
    }
    groups.into_iter().map(|(focus, members)| (Some(focus), members)).collect()
}

/// Interns the types candidates compute in (`Bool`, the integer types
/// of 8 to 128 bits), so that [`generate`] finds them: run it on the
/// program before the engines get it.
pub fn intern_types(program: &mut Program) {
    program.types.bool();
    for bits in [8, 16, 32, 64, 128] {
        for signed in [true, false] {
            program.types.int(bits, signed);
        }
    }
}

/// Whether every type `e` uses is one of the first `known` of the table.
fn uses_known_types(e: &Expr, known: usize) -> bool {
    e.walk().all(|n| (n.ty.0 as usize) < known)
}

/// The segment candidates ([`segments`]) at the heads of `sites`.
fn segment_candidates(program: &Program, sites: &[LoopSite]) -> Vec<Candidate> {
    let tracked = Tracked::new(program);
    let mut by_function: BTreeMap<FuncId, Vec<&LoopSite>> = BTreeMap::new();
    for site in sites {
        by_function.entry(site.func).or_default().push(site);
    }
    by_function.into_iter().flat_map(|(func, sites)| segments::candidates(program, &tracked, func, &sites)).collect()
}

/// Candidates at the heads of `sites`. A candidate that needs a type the
/// program's table lacks ([`intern_types`] adds them all) is left out.
pub fn generate(program: &Program, sites: &[LoopSite]) -> Invariants {
    let started = Instant::now();
    let mut abandoned = 0;
    let facts = all_facts(program, sites, &mut abandoned);
    let known = program.types.len();
    let mut builder = Builder { types: program.types.clone(), symbols: &program.symbols };
    let mut candidates = Vec::new();
    for (i, site_facts) in facts {
        let site = &sites[i];
        let loc = program.functions[site.func].body.as_ref().and_then(|b| b.get(site.head.0 as usize)).map_or(Loc::NONE, |instr| instr.loc);
        let mut seen = HashSet::new();
        for f in &site_facts {
            let Some((expr, c_text)) = builder.build(f) else { continue };
            if uses_known_types(&expr, known) && seen.insert(c_text.clone()) {
                let arithmetic = f.is_arithmetic();
                candidates.push(Candidate { func: site.func, head: site.head, expr, c_text, loc, arithmetic, bound: None });
            }
        }
    }
    candidates.extend(segment_candidates(program, sites));
    candidates.sort_by_key(|c| (c.func, c.head));
    Invariants { candidates, time: started.elapsed(), abandoned }
}
