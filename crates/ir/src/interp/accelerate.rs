//! Exact fast-forwarding of simple loops: a run whose loop counts a
//! variable up to 2^27 would take far longer than any replay budget one
//! instruction at a time, so at the target of a taken backward jump the
//! interpreter summarises the path one more iteration would take and, when
//! that path is a straight line of affine increments, jumps over every
//! iteration that provably takes the same path.
//!
//! The summary walks the instructions from the loop head with the concrete
//! state deciding each branch, keeping every value as an affine form over
//! the variables' values at the head (`c + Σ aᵢ·vᵢ`, in unbounded
//! integers). It accepts only assignments to integer variables named by
//! symbol, jumps, assertions, assumptions and skips, and only expressions
//! built from such variables, constants, `+`, `-`, `*` by a constant,
//! negation, integer casts and comparisons. The path must come back to the
//! head with every variable it assigns incremented by a constant (`v + δ`).
//! Then iteration j starts with each v at v₀ + j·δ, and every node of the
//! path is a linear function P + Q·j of j. The facts that make iteration j
//! take the same path with the same arithmetic are linear constraints on j:
//! each node's value lies in its type's range (so no operation wraps and
//! machine values are the unbounded ones), and each comparison keeps the
//! truth value it had at j = 0. Each constraint holds on an interval of j
//! starting at 0 (a linear inequality, or `≠` up to its one root), so the
//! first j that breaks one, m, is exact: iterations 0..m take the summarised
//! path, and the state after them is v₀ + m·δ. The run continues from there
//! at the head, executing iteration m normally. Nothing but the summarised
//! assignments happens in those iterations (no call, no memory access other
//! than the named variables, no input), so the jump is the same run.

use super::exec::{Flow, Machine};
use super::value::{sign_extend, Value};
use super::TraceStep;
use crate::expr::{BinOp, Expr, ExprKind, UnOp};
use crate::instr::{InstrIdx, InstrKind};
use crate::layout::low_mask;
use crate::program::{FuncId, SymbolId};
use crate::types::{Type, TypeId};
use rustc_hash::FxHashMap as HashMap;

/// Instructions one summarised iteration may take.
const PATH_LIMIT: usize = 256;

/// Summaries that failed at a head before it is no longer tried.
const FAILURES_ALLOWED: u32 = 8;

/// The fewest iterations worth a jump.
const MIN_JUMP: i128 = 4;

/// Per loop head (function, instruction): summaries that gave nothing.
#[derive(Default)]
pub(super) struct Failures(HashMap<(FuncId, usize), u32>);

/// `c + Σ coefficient·variable` over the variables' values at the head.
#[derive(Clone, Debug, PartialEq)]
struct Affine {
    constant: i128,
    terms: Vec<(SymbolId, i128)>,
}

impl Affine {
    fn constant(c: i128) -> Affine {
        Affine { constant: c, terms: Vec::new() }
    }

    fn variable(sym: SymbolId) -> Affine {
        Affine { constant: 0, terms: vec![(sym, 1)] }
    }

    fn combine(&self, other: &Affine, factor: i128) -> Option<Affine> {
        let mut terms = self.terms.clone();
        for &(sym, c) in &other.terms {
            let scaled = c.checked_mul(factor)?;
            match terms.iter_mut().find(|(s, _)| *s == sym) {
                Some((_, existing)) => *existing = existing.checked_add(scaled)?,
                None => terms.push((sym, scaled)),
            }
        }
        terms.retain(|&(_, c)| c != 0);
        let constant = self.constant.checked_add(other.constant.checked_mul(factor)?)?;
        Some(Affine { constant, terms })
    }

    fn scale(&self, factor: i128) -> Option<Affine> {
        Affine::constant(0).combine(self, factor)
    }

    fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }
}

/// What a constraint asks of its form's value at every iteration.
#[derive(Copy, Clone, Debug)]
enum Relation {
    NonNegative,
    Zero,
    NonZero,
}

/// Per variable read on the path: its value at the head, and its step
/// once the path is known.
struct Variable {
    initial: i128,
    delta: i128,
}

/// The summary of one iteration under construction.
struct Summary {
    /// Current value of every variable assigned so far.
    assigned: Vec<(SymbolId, Affine)>,
    /// The last assignment of each assigned variable: its instruction and left side.
    writes: Vec<(SymbolId, usize, Expr)>,
    variables: HashMap<SymbolId, Variable>,
    constraints: Vec<(Affine, Relation)>,
}

impl Machine<'_> {
    /// At `head`, the target of a backward jump just taken in the current
    /// frame of `func`: jumps over the iterations that take the same
    /// affine path, if there are enough of them.
    pub(super) fn fast_forward(&mut self, func: FuncId, head: usize) -> Flow<()> {
        if self.acceleration_failures.0.get(&(func, head)).copied().unwrap_or(0) >= FAILURES_ALLOWED {
            return Ok(());
        }
        let jumped = match self.summarise(func, head)? {
            Some(summary) => self.jump(func, summary)?,
            None => false,
        };
        if !jumped {
            *self.acceleration_failures.0.entry((func, head)).or_default() += 1;
        }
        Ok(())
    }

    /// The path from `head` back to it, if it is one the jump can take.
    fn summarise(&mut self, func: FuncId, head: usize) -> Flow<Option<Summary>> {
        let program = self.program;
        let body = program.functions[func].body.as_deref().unwrap_or_default();
        let mut summary = Summary { assigned: Vec::new(), writes: Vec::new(), variables: HashMap::default(), constraints: Vec::new() };
        let mut pc = head;
        for _ in 0..PATH_LIMIT {
            let Some(instr) = body.get(pc) else { return Ok(None) };
            let mut next = pc + 1;
            match &instr.kind {
                InstrKind::Assign(lhs, rhs) => {
                    let ExprKind::Sym(sym) = lhs.kind else { return Ok(None) };
                    let Some(value) = self.affine(&mut summary, rhs)? else { return Ok(None) };
                    let Some(range) = self.int_range(lhs.ty) else { return Ok(None) };
                    push_range(&mut summary, &value, range);
                    summary.assigned.retain(|(s, _)| *s != sym);
                    summary.assigned.push((sym, value));
                    summary.writes.retain(|(s, _, _)| *s != sym);
                    summary.writes.push((sym, pc, lhs.clone()));
                }
                InstrKind::Goto { cond, target } => {
                    let Some(taken) = self.decide(&mut summary, cond)? else { return Ok(None) };
                    if taken {
                        next = target.0 as usize;
                    }
                }
                InstrKind::Assert(cond, _) | InstrKind::Assume(cond) => {
                    // One that fails now is the concrete run's to report.
                    if self.decide(&mut summary, cond)? != Some(true) {
                        return Ok(None);
                    }
                }
                InstrKind::Skip => {}
                _ => return Ok(None),
            }
            if next == head {
                return Ok(self.close(summary));
            }
            pc = next;
        }
        Ok(None)
    }

    /// Checks that the path increments each variable it assigns by a
    /// constant and records the increments.
    fn close(&self, mut summary: Summary) -> Option<Summary> {
        for (sym, value) in &summary.assigned {
            let [(only, 1)] = value.terms[..] else { return None };
            if only != *sym {
                return None;
            }
            summary.variables.get_mut(sym)?.delta = value.constant;
        }
        Some(summary)
    }

    /// Jumps over the iterations that take `summary`'s path: whether it did.
    fn jump(&mut self, func: FuncId, summary: Summary) -> Flow<bool> {
        let Some(iterations) = iterations(&summary) else { return Ok(false) };
        if iterations < MIN_JUMP {
            return Ok(false);
        }
        for (sym, instr, lhs) in &summary.writes {
            let variable = &summary.variables[sym];
            let Some(value) = iterations.checked_mul(variable.delta).and_then(|d| d.checked_add(variable.initial)) else {
                return Ok(false);
            };
            let bits = value as u128 & self.int_range(lhs.ty).map_or(0, |r| low_mask(r.width));
            let place = self.place(lhs)?;
            self.store(place, lhs.ty, &Value::Scalar(bits))?;
            if self.config.record_trace {
                let loc = self.program.functions[func].body.as_deref().unwrap_or_default()[*instr].loc;
                let step = TraceStep::Assign { function: func, instr: InstrIdx(*instr as u32), loc, lhs: lhs.clone(), value: Value::Scalar(bits) };
                self.trace.push(step);
            }
        }
        Ok(true)
    }

    /// The affine form of integer expression `e`, with the constraints
    /// that keep its nodes from wrapping; `None` for any other expression.
    fn affine(&mut self, summary: &mut Summary, e: &Expr) -> Flow<Option<Affine>> {
        let Some(range) = self.int_range(e.ty) else { return Ok(None) };
        let value = match &e.kind {
            ExprKind::Sym(sym) => match summary.assigned.iter().find(|(s, _)| s == sym) {
                Some((_, value)) => value.clone(),
                None => {
                    if !summary.variables.contains_key(sym) {
                        // The concrete run reads it next with the same state; an error is its to meet.
                        let Ok(Value::Scalar(bits)) = self.eval(e) else { return Ok(None) };
                        summary.variables.insert(*sym, Variable { initial: range.value(bits), delta: 0 });
                    }
                    Affine::variable(*sym)
                }
            },
            ExprKind::IntConst(bits) => Affine::constant(range.value(*bits)),
            ExprKind::Unary(UnOp::Neg, a) => match self.affine(summary, a)? {
                Some(a) => match a.scale(-1) {
                    Some(value) => value,
                    None => return Ok(None),
                },
                None => return Ok(None),
            },
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let (Some(a), Some(b)) = (self.affine(summary, a)?, self.affine(summary, b)?) else { return Ok(None) };
                let combined = match op {
                    BinOp::Add => a.combine(&b, 1),
                    BinOp::Sub => a.combine(&b, -1),
                    _ if b.is_constant() => a.scale(b.constant),
                    _ if a.is_constant() => b.scale(a.constant),
                    _ => None,
                };
                match combined {
                    Some(value) => value,
                    None => return Ok(None),
                }
            }
            ExprKind::Cast(inner) if self.int_range(inner.ty).is_some() => match self.affine(summary, inner)? {
                Some(value) => value,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        push_range(summary, &value, range);
        Ok(Some(value))
    }

    /// The truth value of condition `e` at this iteration, with the
    /// constraints that keep it (and every comparison in it) so; `None`
    /// for a condition the summary cannot follow.
    fn decide(&mut self, summary: &mut Summary, e: &Expr) -> Flow<Option<bool>> {
        let Type::Bool = self.program.types.get(e.ty) else { return Ok(None) };
        match &e.kind {
            ExprKind::IntConst(bits) => Ok(Some(*bits != 0)),
            ExprKind::Unary(UnOp::Not, a) => Ok(self.decide(summary, a)?.map(|b| !b)),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let (Some(a), Some(b)) = (self.decide(summary, a)?, self.decide(summary, b)?) else { return Ok(None) };
                Ok(Some(if *op == BinOp::And { a && b } else { a || b }))
            }
            ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne), a, b) => {
                let (Some(a), Some(b)) = (self.affine(summary, a)?, self.affine(summary, b)?) else { return Ok(None) };
                Ok(compare(summary, *op, &a, &b))
            }
            ExprKind::Cast(inner) => match self.affine(summary, inner)? {
                Some(value) => Ok(compare(summary, BinOp::Ne, &value, &Affine::constant(0))),
                None => Ok(None),
            },
            _ => Ok(None),
        }
    }

    fn int_range(&self, ty: TypeId) -> Option<IntRange> {
        match self.program.types.get(ty) {
            Type::Int { bits, signed } if *bits <= 64 => Some(IntRange { width: *bits, signed: *signed }),
            _ => None,
        }
    }
}

/// The values of an integer type.
#[derive(Copy, Clone)]
struct IntRange {
    width: u32,
    signed: bool,
}

impl IntRange {
    fn value(self, bits: u128) -> i128 {
        match self.signed {
            true => sign_extend(bits, self.width),
            false => (bits & low_mask(self.width)) as i128,
        }
    }

    fn bounds(self) -> (i128, i128) {
        match self.signed {
            true => (-(1i128 << (self.width - 1)), (1i128 << (self.width - 1)) - 1),
            false => (0, (1i128 << self.width) - 1),
        }
    }
}

/// Constrains `value` to `range` at every iteration.
fn push_range(summary: &mut Summary, value: &Affine, range: IntRange) {
    let (low, high) = range.bounds();
    if let (Some(above), Some(below)) = (value.combine(&Affine::constant(low), -1), Affine::constant(high).combine(value, -1)) {
        summary.constraints.push((above, Relation::NonNegative));
        summary.constraints.push((below, Relation::NonNegative));
    } else {
        // Too large to reason about: a constraint no iteration satisfies.
        summary.constraints.push((Affine::constant(-1), Relation::NonNegative));
    }
}

/// The truth of `a op b` now (at the head's values), constraining it to
/// stay so; `None` when the forms are too large.
fn compare(summary: &mut Summary, op: BinOp, a: &Affine, b: &Affine) -> Option<bool> {
    let difference = a.combine(b, -1)?;
    let now = at_head(summary, &difference)?;
    let holds = match op {
        BinOp::Lt => now < 0,
        BinOp::Le => now <= 0,
        BinOp::Gt => now > 0,
        BinOp::Ge => now >= 0,
        BinOp::Eq => now == 0,
        _ => now != 0,
    };
    // a - b ≥ 0 or b - a - 1 ≥ 0, a - b = 0 or ≠ 0, whichever holds now.
    let (form, relation) = match (op, holds) {
        (BinOp::Lt, true) | (BinOp::Ge, false) => (difference.scale(-1)?.combine(&Affine::constant(1), -1)?, Relation::NonNegative),
        (BinOp::Lt, false) | (BinOp::Ge, true) => (difference, Relation::NonNegative),
        (BinOp::Gt, true) | (BinOp::Le, false) => (difference.combine(&Affine::constant(1), -1)?, Relation::NonNegative),
        (BinOp::Gt, false) | (BinOp::Le, true) => (difference.scale(-1)?, Relation::NonNegative),
        (BinOp::Eq, true) | (BinOp::Ne, false) => (difference, Relation::Zero),
        _ => (difference, Relation::NonZero),
    };
    summary.constraints.push((form, relation));
    Some(holds)
}

/// `form`'s value at the head.
fn at_head(summary: &Summary, form: &Affine) -> Option<i128> {
    form.terms.iter().try_fold(form.constant, |sum, (sym, c)| sum.checked_add(c.checked_mul(summary.variables.get(sym)?.initial)?))
}

/// `form` at iteration j as P + Q·j.
fn linear(summary: &Summary, form: &Affine) -> Option<(i128, i128)> {
    let slope = form.terms.iter().try_fold(0i128, |sum, (sym, c)| sum.checked_add(c.checked_mul(summary.variables.get(sym)?.delta)?))?;
    Some((at_head(summary, form)?, slope))
}

/// The number of iterations from the head that take the summarised path:
/// the first j at which a constraint fails (`None` if none ever does, or
/// the forms are too large).
fn iterations(summary: &Summary) -> Option<i128> {
    let mut first_failure: Option<i128> = None;
    for (form, relation) in &summary.constraints {
        let (p, q) = linear(summary, form)?;
        let fails_at = match relation {
            Relation::NonNegative if p < 0 => Some(0),
            Relation::NonNegative if q >= 0 => None,
            // p + q·j ≥ 0 while j ≤ p / -q.
            Relation::NonNegative => Some(p / -q + 1),
            Relation::Zero if p != 0 => Some(0),
            Relation::Zero => (q != 0).then_some(1),
            Relation::NonZero if p == 0 => Some(0),
            Relation::NonZero => (q != 0 && p % q == 0 && -p / q > 0).then(|| -p / q),
        };
        if let Some(j) = fails_at {
            first_failure = Some(first_failure.map_or(j, |f| f.min(j)));
        }
    }
    first_failure
}
