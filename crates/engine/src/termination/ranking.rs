//! Ranking functions: a proof that every loop exits, certified by the
//! solver like loop invariants.
//!
//! Every loop of every function the entry can call gets shadow state: a
//! flag `seen`, cleared on every entry from outside the loop, and a copy of
//! each variable its ranking candidates read. The
//! loop's head block compares nothing: it copies the variables and sets
//! the flag, so at the head the copies hold the state of the previous
//! arrival in the same stay. A candidate ranking function `r` (a function
//! of the state at the head) then becomes the invariant
//! `!seen || r(v) < r(old_v)` at the head, which [`houdini`] certifies
//! together with the abstract interpreter's invariants: only the solver's
//! verdict counts, over the bit-precise semantics of every iteration.
//!
//! Why a certified candidate proves the loop exits: within one stay every
//! arrival at the head after the first compares `r` with its value at the
//! previous arrival, and `<` there is the order of a machine integer type,
//! a finite total order. A strictly decreasing sequence in a finite order
//! is finite, so no stay has infinitely many iterations. Wrap-around needs
//! no argument: `r` is whatever the wrapping arithmetic computes, and the
//! candidate holds only if that value decreases on every iteration the
//! solver can find. The lexicographic candidate
//! `r1 < r1' || (r1 == r1' && r2 < r2')` orders pairs lexicographically,
//! again a finite total order.
//!
//! A whole program terminates when every loop of every function the entry
//! (and the initialiser) can call has such a certified candidate, no
//! function it can call is recursive, and every loop is reducible: then an
//! infinite run would have a frame that never returns while all its
//! callees do, so that frame runs infinitely many of its own instructions,
//! which in a reducible graph means infinitely many iterations of one loop
//! within one stay. Calls of functions without a body are assumed to
//! return (listed as approximations), `exit` and `abort` end the run.
//!
//! The candidates come from templates, as in 2LS: for each comparison in a
//! condition that decides a jump in the loop (its guard, its `break`s), the
//! differences of its operands in both directions, computed in a type wide
//! enough that nothing wraps and in the operands' own type (which wraps as
//! the program does: `i - 20` decreases through `i--` wrapping past zero);
//! each variable the loop modifies and its negation. When no candidate of
//! a loop decreases on every iteration, those that never increase are
//! summed (each turn decreases one of them) and combined
//! lexicographically with the others.

use super::heads::{self, HeadCode};
use crate::{houdini, Config, ProvedRanking};
use analysis::absint::Tracked;
use analysis::invariants::{self, Candidate, Invariants};
use analysis::loops::{FunctionLoops, Loop};
use analysis::modified::ProgramEffects;
use ir::{BinOp, Expr, ExprKind, FuncId, InstrIdx, InstrKind, Loc, Program, SymbolId, SymbolKind, Type, TypeId, UnOp};
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

/// A candidate ranking function of one loop: its value at the head now and
/// at the previous arrival (the same expression over the shadow copies).
#[derive(Clone)]
struct Rank {
    now: Expr,
    before: Expr,
    text: String,
}

/// One loop's shadow state and candidates.
struct LoopPlan {
    func: FuncId,
    /// The loop's new head (after rebuilding).
    head: InstrIdx,
    loc: Loc,
    seen: SymbolId,
    ranks: Vec<Rank>,
}

/// How a candidate relates to its loop's ranks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Claim {
    /// Rank `i` decreases on every iteration.
    Decreases(usize),
    /// Rank `i` never increases.
    NeverIncreases(usize),
    /// The pair (ranks `i`, `j`) decreases lexicographically.
    Lexicographic(usize, usize),
}

/// The ranking functions of every loop of `program` (prepared for
/// termination), or why there is no such proof.
pub(super) fn prove(program: &Program, config: &Config, deadline: Option<Instant>) -> Result<Vec<ProvedRanking>, String> {
    let mut shadowed = program.clone();
    let mut plans = instrument(&mut shadowed)?;
    if plans.is_empty() {
        // Bounded exhaustion says it better (and at once).
        return Err("no loop needs a ranking function".into());
    }
    let sites = invariants::loop_sites(&shadowed);
    let invariants = invariants::generate(&shadowed, &sites);
    let mut claims: HashMap<(FuncId, InstrIdx, String), (usize, Claim)> = HashMap::new();
    let mut candidates = invariants.candidates.clone();
    for (p, plan) in plans.iter().enumerate() {
        for i in 0..plan.ranks.len() {
            for claim in [Claim::Decreases(i), Claim::NeverIncreases(i)] {
                candidates.push(candidate(&shadowed, plan, claim, p, &mut claims));
            }
        }
    }
    let certified = certify(&shadowed, candidates, config, deadline);
    let mut proved: Vec<Option<ProvedRanking>> = plans.iter().map(|_| None).collect();
    let mut never_increase: Vec<Vec<usize>> = plans.iter().map(|_| Vec::new()).collect();
    for (p, claim) in certified.iter().filter_map(|c| claims.get(&(c.func, c.head, c.c_text.clone()))) {
        match claim {
            Claim::Decreases(i) => {
                proved[*p].get_or_insert_with(|| ranking(program, &plans[*p], &[*i]));
            }
            Claim::NeverIncreases(i) => never_increase[*p].push(*i),
            Claim::Lexicographic(..) => {}
        }
    }
    if proved.iter().any(Option::is_none) {
        let mut candidates: Vec<Candidate> = certified.clone();
        for (p, plan) in plans.iter().enumerate().filter(|(p, _)| proved[*p].is_none()) {
            for &i in &never_increase[p] {
                for j in (0..plan.ranks.len()).filter(|j| *j != i) {
                    candidates.push(candidate(&shadowed, plan, Claim::Lexicographic(i, j), p, &mut claims));
                }
            }
        }
        for c in certify(&shadowed, candidates, config, deadline) {
            if let Some((p, Claim::Lexicographic(i, j))) = claims.get(&(c.func, c.head, c.c_text.clone())) {
                proved[*p].get_or_insert_with(|| ranking(program, &plans[*p], &[*i, *j]));
            }
        }
    }
    // Last, in a round of their own (a wide sum slows every query it
    // shares): the sums of the never-increasing ranks.
    if proved.iter().any(Option::is_none) {
        let mut candidates: Vec<Candidate> = certified.clone();
        for (p, plan) in plans.iter_mut().enumerate().filter(|(p, _)| proved[*p].is_none()) {
            if let Some(sum) = sum_of(&mut shadowed, plan, &never_increase[p]) {
                plan.ranks.push(sum);
                candidates.push(candidate(&shadowed, plan, Claim::Decreases(plan.ranks.len() - 1), p, &mut claims));
            }
        }
        for c in certify(&shadowed, candidates, config, deadline) {
            if let Some((p, Claim::Decreases(i))) = claims.get(&(c.func, c.head, c.c_text.clone())) {
                proved[*p].get_or_insert_with(|| ranking(program, &plans[*p], &[*i]));
            }
        }
    }
    match plans.iter().zip(&proved).find(|(_, r)| r.is_none()) {
        Some((plan, _)) => Err(format!("no ranking function found for the loop at {}:{}", program.files.name(plan.loc.file), plan.loc.line)),
        None => Ok(proved.into_iter().flatten().collect()),
    }
}

/// The certified ones among `candidates`. With a deadline (this phase's
/// share of the time) each query may take all of it: Houdini's round
/// limit for arithmetic, a quarter of the time left, lost every ranking
/// of a nested loop on a loaded machine. Without one, the limit stays.
fn certify(program: &Program, mut candidates: Vec<Candidate>, config: &Config, deadline: Option<Instant>) -> Vec<Candidate> {
    if deadline.is_some() {
        candidates.iter_mut().for_each(|c| c.arithmetic = false);
    }
    let invariants = Invariants { candidates, ..Invariants::default() };
    houdini::certify_candidates(program, &invariants, config, deadline).certified
}

/// The sum of `plan`'s ranks `parts` (each certified never to increase),
/// exact in 128 bits: it decreases when on every iteration one of them
/// does (`x1 + x2 + x3` when each turn decrements one of three counters).
/// One part per set of variables read (`x` and `(uint32_t)(x - 0)` move
/// together). `None` for fewer than two parts.
fn sum_of(program: &mut Program, plan: &LoopPlan, parts: &[usize]) -> Option<Rank> {
    let mut seen: Vec<BTreeSet<SymbolId>> = Vec::new();
    let parts: Vec<usize> = parts.iter().copied().filter(|&i| {
        let reads: BTreeSet<SymbolId> = plan.ranks[i].now.walk().filter_map(|n| match n.kind {
            ExprKind::Sym(s) => Some(s),
            _ => None,
        }).collect();
        let fresh = !seen.contains(&reads);
        seen.push(reads);
        fresh
    }).collect();
    if parts.len() < 2 {
        return None;
    }
    let wide = program.types.int(128, true);
    let add = |side: &dyn Fn(&Rank) -> &Expr| {
        parts.iter().map(|&i| Expr::cast(side(&plan.ranks[i]).clone(), wide)).reduce(|a, b| Expr::binary(BinOp::Add, a, b, wide))
    };
    let (now, before) = (add(&|r| &r.now)?, add(&|r| &r.before)?);
    let text = parts.iter().map(|&i| plan.ranks[i].text.as_str()).collect::<Vec<_>>().join(" + ");
    Some(Rank { now, before, text })
}

/// The report of loop `plan`'s ranking function made of `ranks`.
fn ranking(program: &Program, plan: &LoopPlan, ranks: &[usize]) -> ProvedRanking {
    ProvedRanking {
        function: program.functions[plan.func].name.clone(),
        loc: plan.loc,
        components: ranks.iter().map(|i| plan.ranks[*i].text.clone()).collect(),
    }
}

/// The invariant that states `claim` about `plan`'s ranks, registered in
/// `claims` under its head and text.
fn candidate(program: &Program, plan: &LoopPlan, claim: Claim, p: usize, claims: &mut HashMap<(FuncId, InstrIdx, String), (usize, Claim)>) -> Candidate {
    let bool_ty = program.types.lookup(&Type::Bool).expect("instrumented programs have Bool");
    let rank = |i: usize| &plan.ranks[i];
    let compare = |op: BinOp, r: &Rank| Expr::binary(op, r.now.clone(), r.before.clone(), bool_ty);
    let (claimed, text) = match claim {
        Claim::Decreases(i) => (compare(BinOp::Lt, rank(i)), format!("ranking function {} decreases", rank(i).text)),
        Claim::NeverIncreases(i) => (compare(BinOp::Le, rank(i)), format!("ranking function {} never increases", rank(i).text)),
        Claim::Lexicographic(i, j) => {
            let tie = Expr::binary(BinOp::And, compare(BinOp::Eq, rank(i)), compare(BinOp::Lt, rank(j)), bool_ty);
            let lex = Expr::binary(BinOp::Or, compare(BinOp::Lt, rank(i)), tie, bool_ty);
            (lex, format!("ranking function ({}, {}) decreases lexicographically", rank(i).text, rank(j).text))
        }
    };
    let first = Expr::unary(UnOp::Not, Expr::sym(plan.seen, bool_ty), bool_ty);
    let expr = Expr::binary(BinOp::Or, first, claimed, bool_ty);
    claims.insert((plan.func, plan.head, text.clone()), (p, claim));
    Candidate { func: plan.func, head: plan.head, expr, c_text: text, loc: plan.loc, arithmetic: true, bound: None }
}

/// Adds the shadow state to every loop of every function the program's
/// entry and initialiser can call; the loops' plans, or why not every loop
/// can have one.
fn instrument(program: &mut Program) -> Result<Vec<LoopPlan>, String> {
    let effects = ProgramEffects::of_program(program);
    let tracked = Tracked::new(program);
    let mut reachable = BTreeSet::new();
    for root in program.entry.iter().chain(program.init.iter()) {
        reachable.extend(effects.reachable_from(*root));
    }
    if let Some(f) = reachable.iter().find(|f| effects.recursive.contains(f)) {
        return Err(format!("unsupported: ranking functions for recursion ({})", program.functions[*f].name));
    }
    let mut plans = Vec::new();
    for func in reachable {
        let Some(body) = program.functions[func].body.as_ref() else { continue };
        let loops = FunctionLoops::of_body(body);
        let mut code: HashMap<usize, HeadCode> = HashMap::new();
        let mut pending: Vec<(usize, LoopPlan)> = Vec::new();
        for (id, l) in loops.iter() {
            let loc = heads::head_loc(program, func, l);
            let place = format!("{}:{}", program.files.name(loc.file), loc.line);
            if !l.is_reducible() {
                return Err(format!("the loop at {place} is irreducible"));
            }
            let modified = effects.of_loop(program, func, &loops, id).variables;
            let templates = Templates::of_loop(program, &tracked, func, l, &modified);
            if templates.ranks.is_empty() {
                return Err(format!("no ranking template for the loop at {place}"));
            }
            let (head, plan) = shadow(program, func, l, loc, templates);
            code.insert(l.head, head);
            pending.push((l.head, plan));
        }
        if code.is_empty() {
            continue;
        }
        let heads = heads::rebuild(program, func, code);
        for (old, mut plan) in pending {
            plan.head = heads[&old];
            plans.push(plan);
        }
    }
    Ok(plans)
}

/// The entry and head code of loop `l` for `templates`, and its plan (the
/// head is set once the body is rebuilt).
fn shadow(program: &mut Program, func: FuncId, l: &Loop, loc: Loc, templates: Templates) -> (HeadCode, LoopPlan) {
    let bool_ty = program.types.bool();
    let tag = format!("__tarsier_rank_{}_{}", program.functions[func].name, l.head);
    let seen = program.add_global(&format!("{tag}_seen"), bool_ty, loc);
    let mut saves = Vec::new();
    let mut copies: HashMap<SymbolId, SymbolId> = HashMap::new();
    for &v in &templates.read {
        let ty = program.symbols[v].ty;
        let name = program.symbols[v].display_name.clone();
        let copy = program.add_global(&format!("{tag}_{name}_{}", v.0), ty, loc);
        saves.push(ir::Instr::new(InstrKind::Assign(Expr::sym(copy, ty), Expr::sym(v, ty)), loc));
        copies.insert(v, copy);
    }
    saves.push(ir::Instr::new(InstrKind::Assign(Expr::sym(seen, bool_ty), Expr::int(1, bool_ty)), loc));
    let entry = vec![ir::Instr::new(InstrKind::Assign(Expr::sym(seen, bool_ty), Expr::int(0, bool_ty)), loc)];
    let ranks = templates
        .ranks
        .into_iter()
        .map(|(now, text)| {
            let mut before = now.clone();
            for (v, copy) in &copies {
                before.replace_symbol(*v, *copy);
            }
            Rank { now, before, text }
        })
        .collect();
    let code = HeadCode::new(program, func, l, entry, saves);
    (code, LoopPlan { func, head: InstrIdx(0), loc, seen, ranks })
}

/// The candidate ranking functions of one loop.
struct Templates {
    /// (expression at the head, its text), no two texts alike.
    ranks: Vec<(Expr, String)>,
    /// The variables they read (all copied at the head: a variable the
    /// loop does not modify needs no copy, but copying it takes no trust
    /// in the analysis that says so).
    read: BTreeSet<SymbolId>,
}

impl Templates {
    fn of_loop(program: &mut Program, tracked: &Tracked, func: FuncId, l: &Loop, modified: &BTreeSet<SymbolId>) -> Templates {
        let declared_inside = heads::declared_inside(program, func, l);
        let body = program.functions[func].body.as_deref().unwrap_or_default();
        // Variables declared in the loop are dead at the head.
        let usable = |s: SymbolId| {
            let own = match program.symbols[s].kind {
                SymbolKind::Global => true,
                SymbolKind::Local(f) => f == func,
                _ => false,
            };
            own && tracked.kind(s).is_some() && !declared_inside.contains(&s)
        };
        let mut atoms: Vec<(Expr, Expr)> = Vec::new();
        for &i in &l.body {
            let cond = match body.get(i).map(|instr| &instr.kind) {
                Some(InstrKind::Goto { cond, .. }) | Some(InstrKind::Assume(cond)) => cond,
                _ => continue,
            };
            for node in cond.walk() {
                if let ExprKind::Binary(op, a, b) = &node.kind {
                    let linear = |e: &Expr| is_linear(program, e, &usable);
                    let reads = |e: &Expr| e.walk().any(|n| matches!(n.kind, ExprKind::Sym(_)));
                    let fresh = !atoms.contains(&((**a).clone(), (**b).clone()));
                    if op.is_comparison() && linear(a) && linear(b) && (reads(a) || reads(b)) && fresh {
                        atoms.push(((**a).clone(), (**b).clone()));
                    }
                }
            }
        }
        let variables: Vec<SymbolId> = modified.iter().copied().filter(|v| usable(*v) && is_int(program, program.symbols[*v].ty)).collect();
        let mut templates = Templates { ranks: Vec::new(), read: BTreeSet::new() };
        for (a, b) in atoms {
            for (x, y) in [(&a, &b), (&b, &a)] {
                let exact = exact_difference(program, x, y);
                templates.add(exact, modified);
                for less in [0, 1] {
                    templates.add(wrapping_difference(program, x, y, less), modified);
                }
            }
        }
        for v in variables {
            let ty = program.symbols[v].ty;
            let var = Expr::sym(v, ty);
            let name = text(program, &var);
            templates.add((var.clone(), name.clone()), modified);
            let wide = wide_type(program, ty);
            let negated = Expr::unary(UnOp::Neg, Expr::cast(var, wide), wide);
            templates.add((negated, format!("-{name}")), modified);
        }
        templates
    }

    /// Adds a candidate unless its text is known or it reads no variable
    /// the loop modifies (it is constant in a stay: it never decreases).
    fn add(&mut self, (expr, text): (Expr, String), modified: &BTreeSet<SymbolId>) {
        let moves = expr.walk().any(|n| matches!(n.kind, ExprKind::Sym(s) if modified.contains(&s)));
        if !moves || self.ranks.iter().any(|(_, t)| *t == text) {
            return;
        }
        self.read.extend(expr.walk().filter_map(|n| match n.kind {
            ExprKind::Sym(s) => Some(s),
            _ => None,
        }));
        self.ranks.push((expr, text));
    }
}

/// Whether `ty` is an integer type (not `Bool`).
fn is_int(program: &Program, ty: TypeId) -> bool {
    matches!(program.types.get(ty), Type::Int { bits, .. } if *bits <= 64)
}

/// Whether `e` is an integer expression built from usable variables and
/// constants by sums, differences, products, negation and conversions.
fn is_linear(program: &Program, e: &Expr, usable: &impl Fn(SymbolId) -> bool) -> bool {
    e.walk().all(|n| {
        is_int(program, n.ty)
            && match &n.kind {
                ExprKind::Sym(s) => usable(*s),
                ExprKind::IntConst(_) | ExprKind::Cast(_) => true,
                ExprKind::Binary(op, ..) => matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul),
                ExprKind::Unary(op, _) => *op == UnOp::Neg,
                _ => false,
            }
    })
}

/// A signed type wide enough for the difference of two values of `ty`.
fn wide_type(program: &mut Program, ty: TypeId) -> TypeId {
    match program.types.get(ty) {
        Type::Int { bits, .. } if *bits <= 32 => program.types.int(64, true),
        _ => program.types.int(128, true),
    }
}

/// `x - y` in a wide signed type, where it is exact.
fn exact_difference(program: &mut Program, x: &Expr, y: &Expr) -> (Expr, String) {
    let (tx, ty) = (text(program, x), text(program, y));
    let w = wide_type(program, x.ty);
    let diff = Expr::binary(BinOp::Sub, Expr::cast(x.clone(), w), Expr::cast(y.clone(), w), w);
    let shown = match y.kind {
        ExprKind::IntConst(0) => tx,
        _ => format!("{tx} - {ty}"),
    };
    (diff, shown)
}

/// `x - y - less` in `x`'s own type, wrapping as C's arithmetic in that
/// type does: `(unsigned)(4 - x)` decreases through `x++` from 5 until
/// `x` wraps to 0.
fn wrapping_difference(program: &Program, x: &Expr, y: &Expr, less: u128) -> (Expr, String) {
    let t = x.ty;
    let mut diff = Expr::binary(BinOp::Sub, x.clone(), y.clone(), t);
    let mut shown = format!("{} - {}", text(program, x), text(program, y));
    if less > 0 {
        diff = Expr::binary(BinOp::Sub, diff, Expr::int(less, t), t);
        shown = format!("{shown} - {less}");
    }
    (diff, format!("({})({shown})", c_type(program, t)))
}

/// The C name of integer type `ty`.
fn c_type(program: &Program, ty: TypeId) -> String {
    match program.types.get(ty) {
        Type::Int { bits, signed: true } => format!("int{bits}_t"),
        Type::Int { bits, signed: false } => format!("uint{bits}_t"),
        _ => "?".into(),
    }
}

/// `e` (see [`is_linear`]) as C text, conversions left implicit.
fn text(program: &Program, e: &Expr) -> String {
    match &e.kind {
        ExprKind::Sym(s) => program.symbols[*s].display_name.clone(),
        ExprKind::IntConst(bits) => match program.types.get(e.ty) {
            Type::Int { bits: width, signed: true } if *width < 128 && (bits >> (width - 1)) & 1 == 1 => {
                format!("{}", (*bits as i128) - (1i128 << width))
            }
            _ => bits.to_string(),
        },
        ExprKind::Cast(inner) => text(program, inner),
        ExprKind::Unary(_, inner) => format!("-{}", text(program, inner)),
        ExprKind::Binary(op, a, b) => {
            let symbol = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                _ => "*",
            };
            format!("({} {symbol} {})", text(program, a), text(program, b))
        }
        _ => "?".into(),
    }
}
