//! Loops that change nothing: busy-waits like `while (flag == 0) {}` or
//! `do {} while (f1 && t == 1);`, whose every instruction is a jump, an
//! assumption or a no-op on conditions that read variables by name and
//! can raise no check. An iteration of such a loop that comes back to its
//! head leaves every object, every local and every input as it found
//! them: it is a stutter step. So a run that leaves the loop is the same
//! run without its earlier iterations (the last pass from the head reads
//! the same values at the same moments), and a run that never leaves it
//! reaches no state after it. Cutting every path that would return to the
//! head (each back edge `if (c) goto head` becomes `assume(!c)`) keeps
//! exactly the states the program reaches, and the loop is gone: bounded
//! exploration covers it completely, with no unwinding bound to assume. In
//! a thread the assumption stops only that thread's path (a spinning
//! thread), while the others run on (`symex::threads`).
//!
//! A loop that changes something on some paths only (Dekker's entry
//! protocol, `while (other) { if (turn != me) { mine = 0; wait; mine = 1; } }`)
//! has stutter iterations too: those that return to the head through no
//! instruction that changes anything. Taking one leaves the state as it
//! was at the head, so the run without it reaches the same states; those
//! paths are cut. A flag local, cleared at the head and set before each
//! instruction that may change something, tells them apart at the back
//! edges (`if (c) { assume(changed); goto head; }`); the loop stays, with
//! only the iterations that do something.
//!
//! The caller decides when the states are all that matters (reachability:
//! assertions and the checks outside the loop); termination, data races
//! (an earlier iteration's read can race where the last one does not),
//! deadlocks (a spinning thread is neither ended nor waiting) and
//! SV-COMP's memtrack (judged on paths that loop for ever) need the
//! iterations, and a loop the program or the user bounds keeps its
//! bound's meaning. See `docs/decisions/engines.md`.

use crate::loops::{FunctionLoops, Loop};
use ir::{BinOp, Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Program, SymbolId, UnOp};

/// Turns the back edges of every loop that changes nothing into
/// assumptions that the loop is left; returns how many loops it removed.
pub fn remove_stutter_loops(program: &mut Program) -> usize {
    let funcs: Vec<FuncId> = program.functions.keys().collect();
    let mut removed = 0;
    for func in funcs {
        let Some(body) = program.functions[func].body.take() else { continue };
        let (body, count) = without_stutter_loops(program, func, body);
        program.functions[func].body = Some(body);
        removed += count;
    }
    removed
}

/// `body` with its stutter loops' back edges made assumptions.
fn without_stutter_loops(program: &Program, func: FuncId, mut body: Vec<Instr>) -> (Vec<Instr>, usize) {
    // A quantifier's body is evaluated for every value of its variable: an
    // assumption there would be an approximation.
    if body.iter().any(|i| matches!(i.kind, InstrKind::QuantifierBegin { .. })) {
        return (body, 0);
    }
    let loops = FunctionLoops::of_body(&body);
    let stutters: Vec<&Loop> = loops.loops().iter().filter(|l| is_stutter_loop(program, func, &body, l)).collect();
    let latches: Vec<usize> = stutters.iter().flat_map(|l| l.latches()).collect();
    for latch in latches {
        let instr = &mut body[latch];
        if let InstrKind::Goto { cond, .. } = &instr.kind {
            let leaves = Expr::unary(UnOp::Not, cond.clone(), cond.ty);
            instr.kind = InstrKind::Assume(leaves);
        }
    }
    (body, stutters.len())
}

/// Whether `l` changes nothing and checks nothing, and each of its back
/// edges is a jump that can become an assumption.
fn is_stutter_loop(program: &Program, func: FuncId, body: &[Instr], l: &Loop) -> bool {
    let bounded = program.loop_unwinds.iter().any(|u| u.function == func && u.head.0 as usize == l.head);
    l.is_reducible()
        && !bounded
        && l.body.iter().all(|&node| changes_nothing(&body[node].kind))
        && l.back_edges.iter().all(|&(latch, head)| is_jump_back(&body[latch].kind, latch, head))
}

/// A jump to `head` from `latch` that does not also fall through to it.
fn is_jump_back(kind: &InstrKind, latch: usize, head: usize) -> bool {
    matches!(kind, InstrKind::Goto { target, .. } if target.0 as usize == head && latch + 1 != head)
}

/// A no-op, or a jump or an assumption whose condition only reads.
fn changes_nothing(kind: &InstrKind) -> bool {
    match kind {
        InstrKind::Skip => true,
        InstrKind::Goto { cond, .. } | InstrKind::Assume(cond) => only_reads(cond),
        _ => false,
    }
}

/// Whether evaluating `e` reads variables by name and computes, with no
/// memory access the memory checks would judge (no pointer followed, no
/// array indexed, no pointer arithmetic): symbolic execution raises no
/// check on it, and the arithmetic checks are instructions of their own
/// (then the loop has an assertion and is kept).
fn only_reads(e: &Expr) -> bool {
    e.walk().all(|node| match node.kind {
        // Pointer arithmetic only matters where a pointer is followed.
        ExprKind::Binary(BinOp::PtrAdd | BinOp::PtrDiff, ..) => false,
        _ => matches!(
            node.kind,
            ExprKind::Sym(_)
                | ExprKind::IntConst(_)
                | ExprKind::FloatConst(_)
                | ExprKind::Null
                | ExprKind::Zero
                | ExprKind::Nondet
                | ExprKind::Unary(..)
                | ExprKind::Binary(..)
                | ExprKind::Cast(_)
                | ExprKind::Ite(..)
                | ExprKind::Member(..)
        ),
    })
}

/// Cuts the stutter iterations of the loops that change something on
/// some paths only (see the module comment); returns how many loops it
/// changed. Run after [`remove_stutter_loops`], which takes the loops
/// that change nothing at all.
pub fn cut_stutter_iterations(program: &mut Program) -> usize {
    let funcs: Vec<FuncId> = program.functions.keys().collect();
    funcs.into_iter().map(|func| cut_in_function(program, func)).sum()
}

/// A loop whose stutter iterations are cut: where it starts, its back
/// edges, its nodes, and the flag that says whether an iteration changed
/// anything.
struct Cut {
    head: usize,
    latches: Vec<usize>,
    body: Vec<usize>,
    flag: SymbolId,
    changed: Expr,
}

fn cut_in_function(program: &mut Program, func: FuncId) -> usize {
    let Some(body) = program.functions[func].body.take() else { return 0 };
    let has_quantifier = body.iter().any(|i| matches!(i.kind, InstrKind::QuantifierBegin { .. }));
    let loops = FunctionLoops::of_body(&body);
    let chosen: Vec<&Loop> = match has_quantifier {
        true => Vec::new(),
        false => loops.loops().iter().filter(|l| may_stutter(program, func, &body, &loops, l)).collect(),
    };
    let bool_ty = program.types.bool();
    let cuts: Vec<Cut> = chosen
        .into_iter()
        .map(|l| {
            let name = format!("{}::$changed", program.symbols.len());
            let symbol = program.add_local(func, &name, bool_ty, body[l.head].loc);
            Cut { head: l.head, latches: l.latches().collect(), body: l.body.clone(), flag: symbol, changed: Expr::sym(symbol, bool_ty) }
        })
        .collect();
    if cuts.is_empty() {
        program.functions[func].body = Some(body);
        return 0;
    }
    let (out, new_index) = with_flags(body, &cuts, bool_ty);
    program.functions[func].body = Some(out);
    program.move_instructions(func, &new_index);
    cuts.len()
}

/// Whether `l` has a stutter iteration to cut: some path from its head
/// back to it through instructions that change nothing, while others
/// change something (a loop that changes nothing at all is
/// [`remove_stutter_loops`]'s).
fn may_stutter(program: &Program, func: FuncId, body: &[Instr], loops: &FunctionLoops, l: &Loop) -> bool {
    let bounded = program.loop_unwinds.iter().any(|u| u.function == func && u.head.0 as usize == l.head);
    if !l.is_reducible() || bounded || !l.back_edges.iter().all(|&(latch, head)| is_jump_back(&body[latch].kind, latch, head)) {
        return false;
    }
    let quiet = |node: usize| l.body.binary_search(&node).is_ok() && changes_nothing(&body[node].kind);
    let mut seen = vec![false; body.len()];
    let mut stack = vec![l.head];
    while let Some(node) = stack.pop() {
        if seen[node] || !quiet(node) {
            continue;
        }
        seen[node] = true;
        if l.latches().any(|latch| latch == node) {
            return true;
        }
        stack.extend(loops.cfg().successors(node).iter().copied().filter(|&next| next != l.head && next < body.len()));
    }
    false
}

/// `body` with the flags of `cuts`: cleared at each head, set before each
/// instruction that may change something, asked at each back edge. The
/// second result maps old instruction indices to new ones.
fn with_flags(body: Vec<Instr>, cuts: &[Cut], bool_ty: ir::TypeId) -> (Vec<Instr>, Vec<InstrIdx>) {
    let mut out = Vec::with_capacity(body.len() + 4 * cuts.len());
    let mut new_index = Vec::with_capacity(body.len() + 1);
    let flag_value = |value: u128| Expr::int(value, bool_ty);
    for (i, instr) in body.into_iter().enumerate() {
        new_index.push(InstrIdx(out.len() as u32));
        let loc = instr.loc;
        for cut in cuts.iter().filter(|c| c.head == i) {
            out.push(Instr::new(InstrKind::Decl(cut.flag), loc));
            out.push(Instr::new(InstrKind::Assign(cut.changed.clone(), flag_value(0)), loc));
        }
        if !changes_nothing(&instr.kind) {
            for cut in cuts.iter().filter(|c| c.body.binary_search(&i).is_ok()) {
                out.push(Instr::new(InstrKind::Assign(cut.changed.clone(), flag_value(1)), loc));
            }
        }
        match (cuts.iter().find(|c| c.latches.contains(&i)), instr.kind) {
            (Some(cut), InstrKind::Goto { cond, target }) => {
                // Old indices: `retarget` maps them with the others.
                let stays = Expr::unary(UnOp::Not, cond.clone(), cond.ty);
                out.push(Instr::new(InstrKind::Goto { cond: stays, target: InstrIdx(i as u32 + 1) }, loc));
                out.push(Instr::new(InstrKind::Assume(cut.changed.clone()), loc));
                out.push(Instr::new(InstrKind::Goto { cond: flag_value(1), target }, loc));
            }
            (_, kind) => out.push(Instr { kind, loc }),
        }
    }
    new_index.push(InstrIdx(out.len() as u32));
    ir::instr::retarget(&mut out, &new_index);
    (out, new_index)
}

#[cfg(test)]
mod tests;
