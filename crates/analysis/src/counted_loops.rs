//! Loops that surely end, by a small syntactic proof: a counted loop. Its
//! counter is a local of the function whose address is never taken (only
//! its name reaches it); a test that every iteration passes leaves the
//! loop unless `counter < bound` (or `<=`, `>`, `>=`), the bound a
//! constant or such a local that the loop never writes; after that test,
//! every iteration steps the counter once, by a constant towards the
//! bound (`counter = counter + c`, the loop's only write of it), and the
//! test's condition bounds the counter so that the step cannot wrap
//! around. The counter then moves the same way in every iteration through
//! finitely many values of its type. Loops with inner loops, entered
//! elsewhere than at their head, or tested with `!=` are not proved; what
//! is not proved may run for ever.

use crate::loops::{FunctionLoops, Loop};
use crate::modified::ProgramEffects;
use ir::{BinOp, Expr, ExprKind, FuncId, InstrKind, Program, SymbolId, SymbolKind, UnOp};

/// Whether every loop of `f` (a function with a body) surely ends.
pub fn every_loop_ends(program: &Program, effects: &ProgramEffects, f: FuncId) -> bool {
    let body = program.functions[f].body.as_deref().unwrap_or_default();
    let has_backward_jump = body.iter().enumerate().any(|(at, instr)| matches!(instr.kind, InstrKind::Goto { target, .. } if target.0 as usize <= at));
    if !has_backward_jump {
        return true;
    }
    let loops = FunctionLoops::of_body(body);
    let counted = Counted { program, effects, function: f, loops: &loops };
    loops.loops().iter().all(|l| counted.ends(l))
}

/// One function and its loops, for the proof.
struct Counted<'a> {
    program: &'a Program,
    effects: &'a ProgramEffects,
    function: FuncId,
    loops: &'a FunctionLoops,
}

/// `counter op bound` holds while the loop goes on (`op` one of `<`,
/// `<=`, `>`, `>=`).
struct Staying<'e> {
    counter: SymbolId,
    op: BinOp,
    bound: &'e Expr,
}

impl Counted<'_> {
    fn body(&self) -> &[ir::Instr] {
        self.program.functions[self.function].body.as_deref().unwrap_or_default()
    }

    /// Whether loop `l` is a counted loop (see the module comment).
    fn ends(&self, l: &Loop) -> bool {
        if !l.children.is_empty() || !l.is_reducible() {
            return false;
        }
        let dominators = self.loops.dominators();
        let every_iteration = |node: usize| l.latches().all(|latch| dominators.dominates(node, latch));
        l.body.iter().copied().filter(|&test| every_iteration(test)).any(|test| {
            self.staying_conditions(l, test).into_iter().any(|staying| match self.only_writer(l, staying.counter) {
                Some(step) => every_iteration(step) && dominators.dominates(test, step) && self.steps_without_wrapping(l, &staying, step),
                None => false,
            })
        })
    }

    /// The conditions under which the jump at `test` stays in loop `l`,
    /// read both ways round (either side may be the counter).
    fn staying_conditions(&self, l: &Loop, test: usize) -> Vec<Staying<'_>> {
        let InstrKind::Goto { cond, target } = &self.body()[test].kind else { return Vec::new() };
        let inside = |node: usize| l.body.binary_search(&node).is_ok();
        let stays_when_true = match (inside(target.0 as usize), inside(test + 1)) {
            (true, false) => true,
            (false, true) => false,
            _ => return Vec::new(),
        };
        let (mut cond, mut holds) = (cond, stays_when_true);
        while let ExprKind::Unary(UnOp::Not, inner) = &cond.kind {
            (cond, holds) = (inner, !holds);
        }
        let ExprKind::Binary(op, lhs, rhs) = &cond.kind else { return Vec::new() };
        let Some(op) = (if holds { Some(*op) } else { negated(*op) }) else { return Vec::new() };
        let mut conditions = Vec::new();
        for (counter, bound, op) in [(lhs, rhs, Some(op)), (rhs, lhs, mirrored(op))] {
            if let (ExprKind::Sym(counter), Some(op)) = (&counter.kind, op) {
                if self.is_private_local(*counter) && counter_type(self.program, *counter) == Some(bound.ty) {
                    conditions.push(Staying { counter: *counter, op, bound });
                }
            }
        }
        conditions
    }

    /// Whether only names of this function can reach `v`.
    fn is_private_local(&self, v: SymbolId) -> bool {
        matches!(self.program.symbols[v].kind, SymbolKind::Local(f) if f == self.function) && !self.effects.escaped.contains(&v)
    }

    /// The one instruction of loop `l` that writes `v` (declarations and
    /// ends of lifetime included), when there is exactly one.
    fn only_writer(&self, l: &Loop, v: SymbolId) -> Option<usize> {
        let mut writers = l.body.iter().copied().filter(|&node| self.writes(node, v));
        let first = writers.next()?;
        writers.next().is_none().then_some(first)
    }

    fn writes(&self, node: usize, v: SymbolId) -> bool {
        let kind = &self.body()[node].kind;
        let names = |e: &Expr| matches!(e.kind, ExprKind::Sym(s) if s == v);
        match kind {
            InstrKind::Dead(s) => *s == v,
            InstrKind::QuantifierBegin { bound, .. } => names(bound),
            _ => self.effects.of_instructions(self.program, self.function, std::iter::once(node)).0.variables.contains(&v),
        }
    }

    /// Whether `step` is `counter = counter ± c`, with `c` moving the
    /// counter towards the bound, which the staying condition keeps from
    /// wrapping around, and the bound one the loop never changes.
    fn steps_without_wrapping(&self, l: &Loop, staying: &Staying, step: usize) -> bool {
        let types = &self.program.types;
        let ty = staying.bound.ty;
        let (Some((bits, signed)), Some(min), Some(max)) = (types.int_info(ty), types.int_min(ty), types.int_max(ty)) else { return false };
        if bits > 64 {
            return false;
        }
        // A constant's bits read in the counter's type (two's complement when signed).
        let shift = 128 - bits;
        let value = |bits_of: u128| if signed { ((bits_of as i128) << shift) >> shift } else { bits_of as i128 };
        let Some(delta) = self.step_of(staying.counter, step, &value) else { return false };
        let max = max as i128;
        // The bound's value, or the one of its type that allows the least.
        let bound = match &staying.bound.kind {
            ExprKind::IntConst(c) => value(*c),
            ExprKind::Sym(b) if self.is_private_local(*b) && l.body.iter().all(|&node| !self.writes(node, *b)) => match staying.op {
                BinOp::Lt | BinOp::Le => max,
                _ => min,
            },
            _ => return false,
        };
        // The counter's value at the step, at most or at least.
        match staying.op {
            BinOp::Lt => delta > 0 && bound - 1 + delta <= max,
            BinOp::Le => delta > 0 && bound + delta <= max,
            BinOp::Gt => delta < 0 && bound + 1 + delta >= min,
            BinOp::Ge => delta < 0 && bound + delta >= min,
            _ => false,
        }
    }

    /// The constant `step` adds to `counter`, when it is
    /// `counter = counter + c` or `counter = counter - c` in its type.
    fn step_of(&self, counter: SymbolId, step: usize, value: &dyn Fn(u128) -> i128) -> Option<i128> {
        let InstrKind::Assign(lhs, rhs) = &self.body()[step].kind else { return None };
        let ExprKind::Binary(op, old, c) = &rhs.kind else { return None };
        let is_counter = |e: &Expr| matches!(e.kind, ExprKind::Sym(s) if s == counter);
        let ExprKind::IntConst(c) = c.kind else { return None };
        let ty = counter_type(self.program, counter)?;
        if !is_counter(lhs) || !is_counter(old) || rhs.ty != ty || old.ty != ty {
            return None;
        }
        match op {
            BinOp::Add => Some(value(c)),
            BinOp::Sub => value(c).checked_neg(),
            _ => None,
        }
    }
}

/// The type of `v` when it is an integer.
fn counter_type(program: &Program, v: SymbolId) -> Option<ir::TypeId> {
    let ty = program.symbols[v].ty;
    program.types.is_integer(ty).then_some(ty)
}

/// The comparison that holds exactly when `op`'s does not.
fn negated(op: BinOp) -> Option<BinOp> {
    match op {
        BinOp::Lt => Some(BinOp::Ge),
        BinOp::Le => Some(BinOp::Gt),
        BinOp::Gt => Some(BinOp::Le),
        BinOp::Ge => Some(BinOp::Lt),
        _ => None,
    }
}

/// The comparison with its operands swapped.
fn mirrored(op: BinOp) -> Option<BinOp> {
    match op {
        BinOp::Lt => Some(BinOp::Gt),
        BinOp::Le => Some(BinOp::Ge),
        BinOp::Gt => Some(BinOp::Lt),
        BinOp::Ge => Some(BinOp::Le),
        _ => None,
    }
}
