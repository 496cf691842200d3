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
//! symbol, jumps, assertions, assumptions, skips, declarations and calls
//! of functions with a body made of the same (their parameters and locals
//! bound to affine forms of the arguments, their returned value assigned
//! to the call's result), and only expressions built from such variables,
//! constants, `+`, `-`, `*` by a constant, negation, integer casts and
//! comparisons. The path must come back to the head with every variable it
//! assigns incremented by a constant (`v + δ`), except those declared on
//! the path (temporaries such as a call's result), which must be assigned
//! before they are read and are declared afresh by the next iteration.
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
//! assignments happens in those iterations (no memory access other than
//! the named variables and the callees' frames, which end within the
//! iteration), so the jump is the same run, except for the uninitialised
//! values the skipped declarations would have drawn and no iteration reads:
//! the input provider is told to skip them (a replay keeps its
//! counterexample's inputs in step).

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

/// Calls on the path a summary follows into (the callees make no call).
const CALLS_LIMIT: usize = 8;

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
    /// The loop's variables declared on the path.
    declared: Vec<SymbolId>,
    /// Every declaration on the path, callees' included: the
    /// uninitialised values an iteration draws.
    drawn: Vec<SymbolId>,
    /// The callee the path is in, with its parameters' and locals' values.
    callee: Option<(FuncId, HashMap<SymbolId, Affine>)>,
    calls: usize,
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
        let mut summary = Summary {
            assigned: Vec::new(),
            writes: Vec::new(),
            variables: HashMap::default(),
            constraints: Vec::new(),
            declared: Vec::new(),
            drawn: Vec::new(),
            callee: None,
            calls: 0,
        };
        let mut pc = head;
        for _ in 0..PATH_LIMIT {
            let Some(instr) = body.get(pc) else { return Ok(None) };
            let mut next = pc + 1;
            match &instr.kind {
                InstrKind::Assign(lhs, rhs) => {
                    let Some(value) = self.affine(&mut summary, rhs)? else { return Ok(None) };
                    if !self.assign(&mut summary, lhs, value, pc) {
                        return Ok(None);
                    }
                }
                InstrKind::Decl(sym) => {
                    // A variable read at the head and declared again later
                    // would be two values under one name.
                    if summary.variables.contains_key(sym) || self.int_range(program.symbols[*sym].ty).is_none() {
                        return Ok(None);
                    }
                    summary.assigned.retain(|(s, _)| s != sym);
                    summary.writes.retain(|(s, _, _)| s != sym);
                    summary.declared.push(*sym);
                    summary.drawn.push(*sym);
                }
                InstrKind::Call { lhs, callee, args } => {
                    let Some(value) = self.inline_call(&mut summary, callee, args)? else { return Ok(None) };
                    match (lhs, value) {
                        (Some(lhs), Some(value)) => {
                            if !self.assign(&mut summary, lhs, value, pc) {
                                return Ok(None);
                            }
                        }
                        (Some(_), None) => return Ok(None),
                        (None, _) => {}
                    }
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
                // A variable that dies on the path must be one it declares.
                InstrKind::Dead(sym) if !summary.declared.contains(sym) => return Ok(None),
                InstrKind::Skip | InstrKind::Dead(_) => {}
                _ => return Ok(None),
            }
            if next == head {
                return Ok(self.close(summary));
            }
            pc = next;
        }
        Ok(None)
    }

    /// Records `lhs = value` at instruction `pc` of the loop's function:
    /// whether `lhs` is an integer variable named by symbol.
    fn assign(&self, summary: &mut Summary, lhs: &Expr, value: Affine, pc: usize) -> bool {
        let ExprKind::Sym(sym) = lhs.kind else { return false };
        let Some(range) = self.int_range(lhs.ty) else { return false };
        push_range(summary, &value, range);
        summary.assigned.retain(|(s, _)| *s != sym);
        summary.assigned.push((sym, value));
        summary.writes.retain(|(s, _, _)| *s != sym);
        summary.writes.push((sym, pc, lhs.clone()));
        true
    }

    /// Follows the call of `callee` with `args` through the callee's body:
    /// `Some(returned value)` (`None` inside for a `void` return), or
    /// `None` when the callee's path is not one the summary can take (a
    /// call, a memory access, a non-integer value, its own loop).
    fn inline_call(&mut self, summary: &mut Summary, callee: &Expr, args: &[Expr]) -> Flow<Option<Option<Affine>>> {
        let program = self.program;
        let ExprKind::Sym(symbol) = callee.kind else { return Ok(None) };
        let crate::program::SymbolKind::Function(func) = program.symbols[symbol].kind else { return Ok(None) };
        let function = &program.functions[func];
        let (Some(body), None) = (function.body.as_deref(), function.variadic_area) else { return Ok(None) };
        let caller_is_loop = self.frames.last().is_some_and(|f| f.func == func);
        // The error functions are violations whatever their body, and a
        // call past the depth limit ends the run.
        let special = super::exec::ERROR_FUNCTIONS.contains(&function.name.as_str()) || self.frames.len() >= self.config.max_call_depth;
        if summary.callee.is_some() || caller_is_loop || special || summary.calls >= CALLS_LIMIT || function.params.len() != args.len() {
            return Ok(None);
        }
        summary.calls += 1;
        let mut locals = HashMap::default();
        for (&param, arg) in function.params.iter().zip(args) {
            let Some(value) = self.affine(summary, arg)? else { return Ok(None) };
            let Some(range) = self.int_range(program.symbols[param].ty) else { return Ok(None) };
            push_range(summary, &value, range);
            locals.insert(param, value);
        }
        summary.callee = Some((func, locals));
        let returned = self.follow_callee(summary, body);
        summary.callee = None;
        returned
    }

    /// The callee's path from its entry to its return, as `inline_call`.
    fn follow_callee(&mut self, summary: &mut Summary, body: &[crate::instr::Instr]) -> Flow<Option<Option<Affine>>> {
        let mut pc = 0;
        for _ in 0..PATH_LIMIT {
            let Some(instr) = body.get(pc) else { return Ok(None) };
            let mut next = pc + 1;
            match &instr.kind {
                InstrKind::Assign(lhs, rhs) => {
                    let Some(value) = self.affine(summary, rhs)? else { return Ok(None) };
                    let ExprKind::Sym(sym) = lhs.kind else { return Ok(None) };
                    let Some(range) = self.int_range(lhs.ty) else { return Ok(None) };
                    push_range(summary, &value, range);
                    let Some((_, locals)) = summary.callee.as_mut() else { return Ok(None) };
                    if !locals.contains_key(&sym) && !self.callee_local(summary, sym) {
                        return Ok(None);
                    }
                    if let Some((_, locals)) = summary.callee.as_mut() {
                        locals.insert(sym, value);
                    }
                }
                InstrKind::Decl(sym) => {
                    if !self.callee_local(summary, *sym) {
                        return Ok(None);
                    }
                    if let Some((_, locals)) = summary.callee.as_mut() {
                        locals.remove(sym);
                    }
                    summary.drawn.push(*sym);
                }
                InstrKind::Goto { cond, target } => {
                    let Some(taken) = self.decide(summary, cond)? else { return Ok(None) };
                    if taken {
                        // A jump back would be the callee's own loop.
                        if target.0 as usize <= pc {
                            return Ok(None);
                        }
                        next = target.0 as usize;
                    }
                }
                InstrKind::Assert(cond, _) | InstrKind::Assume(cond) => {
                    if self.decide(summary, cond)? != Some(true) {
                        return Ok(None);
                    }
                }
                InstrKind::Return(None) => return Ok(Some(None)),
                InstrKind::Return(Some(e)) => return Ok(self.affine(summary, e)?.map(Some)),
                InstrKind::Skip | InstrKind::Dead(_) => {}
                _ => return Ok(None),
            }
            pc = next;
        }
        Ok(None)
    }

    /// Whether `sym` is a parameter or local of the callee being followed.
    fn callee_local(&self, summary: &Summary, sym: SymbolId) -> bool {
        let kind = &self.program.symbols[sym].kind;
        summary.callee.as_ref().is_some_and(|(func, _)| *kind == crate::program::SymbolKind::Local(*func))
    }

    /// Checks that the path increments each variable it assigns by a
    /// constant and records the increments.
    fn close(&self, mut summary: Summary) -> Option<Summary> {
        for (sym, value) in &summary.assigned {
            if summary.declared.contains(sym) {
                continue;
            }
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
        let mut values = Vec::with_capacity(summary.writes.len());
        for (sym, _, lhs) in summary.writes.iter().filter(|(sym, _, _)| !summary.declared.contains(sym)) {
            let variable = &summary.variables[sym];
            let Some(value) = iterations.checked_mul(variable.delta).and_then(|d| d.checked_add(variable.initial)) else {
                return Ok(false);
            };
            values.push(value as u128 & self.int_range(lhs.ty).map_or(0, |r| low_mask(r.width)));
        }
        for sym in &summary.drawn {
            let name = self.program.symbols[*sym].display_name.clone();
            self.inputs.skip_inputs(&super::InputKind::Uninitialized(name), iterations as u128);
        }
        let kept = summary.writes.iter().filter(|(sym, _, _)| !summary.declared.contains(sym));
        for ((_, instr, lhs), bits) in kept.zip(values) {
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
            ExprKind::Sym(sym) if self.callee_local(summary, *sym) => match summary.callee.as_ref().and_then(|(_, locals)| locals.get(sym)) {
                Some(value) => value.clone(),
                None => return Ok(None),
            },
            ExprKind::Sym(sym) => match summary.assigned.iter().find(|(s, _)| s == sym) {
                Some((_, value)) => value.clone(),
                // A temporary read before this iteration assigns it.
                None if summary.declared.contains(sym) => return Ok(None),
                None if matches!(self.program.symbols[*sym].kind, crate::program::SymbolKind::Local(f) if summary.callee.as_ref().is_some_and(|(c, _)| *c != f)) => {
                    return Ok(None)
                }
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
