//! Loops that change nothing: busy-waits like `while (flag == 0) {}` or
//! `do {} while (f1 && t == 1);`, whose every instruction is a jump (or a
//! no-op) on a condition that reads variables by name and can raise no
//! check. An iteration of such a loop that comes back to its head leaves
//! every object, every local and every input as it found them: it is a
//! stutter step. So a run that leaves the loop is the same run without its
//! earlier iterations (the last pass from the head reads the same values
//! at the same moments), and a run that never leaves it reaches no state
//! after it. Cutting every path that would return to the head (each back
//! edge `if (c) goto head` becomes `assume(!c)`) keeps exactly the states
//! the program reaches, and the loop is gone: bounded exploration covers
//! it completely, with no unwinding bound to assume. In a thread the
//! assumption stops only that thread's path (a spinning thread), while the
//! others run on (`symex::threads`).
//!
//! The caller decides when the states are all that matters (reachability:
//! assertions and the checks outside the loop); termination, data races
//! (an earlier iteration's read can race where the last one does not) and
//! deadlocks (a spinning thread is neither ended nor waiting) need the
//! iterations, and a loop the program or the user bounds keeps its bound's
//! meaning. See `docs/decisions/engines.md`.

use crate::loops::{FunctionLoops, Loop};
use ir::{BinOp, Expr, ExprKind, FuncId, Instr, InstrKind, Program, UnOp};

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

/// A no-op, or a jump whose condition only reads.
fn changes_nothing(kind: &InstrKind) -> bool {
    match kind {
        InstrKind::Skip => true,
        InstrKind::Goto { cond, .. } => only_reads(cond),
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

#[cfg(test)]
mod tests;
