//! Transfer functions of IR instructions over [`State`]: assignments
//! (through the relational domains when the right side is affine),
//! conditions (`Assume`, `Assert`, the two edges of a `Goto`) refining
//! bounds, octagon constraints and congruences, lifetimes (`Decl`,
//! `Dead`), and calls, which may write the callee's globals and the left
//! side. Writes through pointers never reach a tracked variable (no
//! tracked variable has its address taken).

use super::eval::{decide, eval, kind_of, Linear};
use super::frame::Frame;
use super::octagon::OctConstraint;
use super::state::State;
use super::value::{Value, NEG_INF, POS_INF};
use super::vars::never_returns;
use ir::{BinOp, Expr, ExprKind, InstrKind, UnOp};

/// The state after `instr` on the path that continues to the next
/// instruction (for a `Goto`, the fall-through edge); `None`: no path.
pub fn step(frame: &Frame, state: State, instr: &InstrKind) -> Option<State> {
    match instr {
        InstrKind::Assign(lhs, rhs) => assign(frame, state, lhs, Some(rhs)),
        InstrKind::Assume(cond) | InstrKind::Assert(cond, _) => refine(frame, state, cond, true),
        InstrKind::Goto { cond, .. } => refine(frame, state, cond, false),
        InstrKind::Decl(s) | InstrKind::Dead(s) => {
            let mut state = state;
            if let Some(v) = frame.index.get(s).copied() {
                state.havoc(frame, v);
                state.alive[v] = matches!(instr, InstrKind::Decl(_));
            }
            Some(state)
        }
        InstrKind::Call { callee, .. } if never_returns(frame.program, callee) => None,
        InstrKind::Call { lhs, callee, .. } => {
            let mut state = state;
            for g in frame.tracked.call_writes(frame.program, callee) {
                if let Some(v) = frame.index.get(g).copied() {
                    state.havoc(frame, v);
                }
            }
            match lhs {
                Some(lhs) => assign(frame, state, lhs, None),
                None => Some(state),
            }
        }
        InstrKind::QuantifierBegin { bound: lhs, .. } | InstrKind::QuantifierEnd { lhs, .. } => assign(frame, state, lhs, None),
        InstrKind::Asm(_) => {
            let mut state = state;
            (0..frame.vars.len()).for_each(|v| state.havoc(frame, v));
            Some(state)
        }
        InstrKind::Return(_) | InstrKind::EndThread => None,
        InstrKind::Skip | InstrKind::StartThread(_) | InstrKind::AtomicBegin | InstrKind::AtomicEnd => Some(state),
    }
}

/// `lhs = rhs` (`None`: an unknown value); `None` when the relational
/// domains find the result empty.
fn assign(frame: &Frame, mut state: State, lhs: &Expr, rhs: Option<&Expr>) -> Option<State> {
    let ExprKind::Sym(sym) = &lhs.kind else { return Some(state) };
    let Some(v) = frame.index.get(sym).copied() else { return Some(state) };
    let Some(evaluated) = rhs.and_then(|r| eval(frame, &state, r)) else {
        state.havoc(frame, v);
        return Some(state);
    };
    let value = evaluated.value.meet(&Value::top(frame.vars[v].kind)).unwrap_or(Value::top(frame.vars[v].kind));
    let linear = evaluated.linear;
    let octagon_done = assign_octagon(frame, &mut state, v, value, linear.as_ref());
    let affine = linear.as_ref().filter(|l| l.modular).and_then(|l| {
        let terms: Option<Vec<(usize, i128)>> = l.terms.iter().map(|(w, c)| frame.aff_slot[*w].map(|k| (k, *c))).collect();
        Some((terms?, l.constant))
    });
    state.values[v] = value;
    match (frame.aff_slot[v], affine) {
        (Some(k), Some((terms, c))) => state.affine.assign(k, &terms, c),
        (Some(k), None) => match value.as_constant() {
            Some(c) => state.affine.assign(k, &[], c),
            None => state.affine.forget(k),
        },
        (None, _) => {}
    }
    if !octagon_done {
        if let Some(k) = frame.oct_slot[v] {
            state.octagon.forget(k);
        }
    }
    state.sync(frame, &[v])
}

/// `x_v := ±x_w + c` in the octagon when the right side is exactly that;
/// returns whether it was done (otherwise the caller forgets `x_v`).
fn assign_octagon(frame: &Frame, state: &mut State, v: usize, value: Value, linear: Option<&Linear>) -> bool {
    let Some(k) = frame.oct_slot[v] else { return false };
    let Some(l) = linear.filter(|l| l.exact) else { return false };
    match l.terms.as_slice() {
        [(w, 1)] if *w == v => state.octagon.shift(k, l.constant),
        [(w, -1)] if *w == v => {
            state.octagon.negate(k);
            state.octagon.shift(k, l.constant);
        }
        [(w, c @ (1 | -1))] => match frame.oct_slot[*w] {
            Some(src) => state.octagon.assign_var(k, src, *c == 1, l.constant),
            None => return false,
        },
        // `x = x + c*u`: a shift of x by a range (`i += j` keeps `k <= i`
        // when j >= 1 and k grows by one).
        [(w, 1), (u, c)] | [(u, c), (w, 1)] if *w == v && *u != v => {
            let Some((lo, hi)) = scaled_range(state.values[*u], *c, l.constant) else { return false };
            state.octagon.shift_by_range(k, lo, hi);
        }
        _ => {
            state.octagon.forget(k);
            if let Some(c) = value.as_constant() {
                state.octagon.add_constraint(OctConstraint { a: k, a_positive: true, b: None, bound: c });
                state.octagon.add_constraint(OctConstraint { a: k, a_positive: false, b: None, bound: -c });
            }
        }
    }
    true
}

/// The range of `c * u + constant` for `u` in `value`, when finite.
fn scaled_range(value: Value, c: i128, constant: i128) -> Option<(i128, i128)> {
    if value.lo == NEG_INF || value.hi == POS_INF {
        return None;
    }
    let (a, b) = (value.lo.checked_mul(c)?.checked_add(constant)?, value.hi.checked_mul(c)?.checked_add(constant)?);
    Some((a.min(b), a.max(b)))
}

/// The state where `cond` (a `Bool`) has truth `holds`; `None` when none.
pub fn refine(frame: &Frame, state: State, cond: &Expr, holds: bool) -> Option<State> {
    refine_at(frame, state, cond, holds, 0)
}

const MAX_REFINE_DEPTH: usize = 16;

fn refine_at(frame: &Frame, state: State, cond: &Expr, holds: bool, depth: usize) -> Option<State> {
    if depth > MAX_REFINE_DEPTH {
        return Some(state);
    }
    match &cond.kind {
        ExprKind::Unary(UnOp::Not, inner) => refine_at(frame, state, inner, !holds, depth + 1),
        ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
            // `a && b` holds, or `a || b` fails: both sides refine.
            if (*op == BinOp::And) == holds {
                let state = refine_at(frame, state, a, holds, depth + 1)?;
                refine_at(frame, state, b, holds, depth + 1)
            } else {
                let left = refine_at(frame, state.clone(), a, holds, depth + 1);
                let right = refine_at(frame, state, b, holds, depth + 1);
                match (left, right) {
                    (Some(l), Some(r)) => Some(l.join(&r)),
                    (l, r) => l.or(r),
                }
            }
        }
        // `(int)b != 0` and `(int)b == 0` for a condition `b`.
        ExprKind::Binary(op @ (BinOp::Ne | BinOp::Eq), a, zero) if matches!(zero.kind, ExprKind::IntConst(0)) && as_condition(frame, a).is_some() => {
            let b = as_condition(frame, a).expect("checked");
            refine_at(frame, state, b, holds == (*op == BinOp::Ne), depth + 1)
        }
        ExprKind::Binary(op, a, b) if op.is_comparison() => compare(frame, state, *op, a, b, holds),
        ExprKind::IntConst(bits) => (holds == (*bits != 0)).then_some(state),
        // A `Bool` variable, or an integer converted to `Bool`: `x != 0`.
        ExprKind::Sym(_) if kind_of(frame, cond).is_some() => {
            compare(frame, state, BinOp::Ne, cond, &Expr::int(0, cond.ty), holds)
        }
        ExprKind::Cast(inner) if kind_of(frame, inner).is_some() => match as_condition(frame, inner) {
            Some(b) => refine_at(frame, state, b, holds, depth + 1),
            None => compare(frame, state, BinOp::Ne, inner, &Expr::int(0, inner.ty), holds),
        },
        _ => Some(state),
    }
}

/// The `Bool` condition an integer expression converts to 0 or 1, if it
/// is one: `b`, or `(int)b`.
fn as_condition<'e>(frame: &Frame, e: &'e Expr) -> Option<&'e Expr> {
    let is_bool = |x: &Expr| matches!(frame.program.types.get(x.ty), ir::Type::Bool);
    match &e.kind {
        _ if is_bool(e) && !matches!(e.kind, ExprKind::Sym(_)) => Some(e),
        ExprKind::Cast(inner) if is_bool(inner) => Some(inner),
        _ => None,
    }
}

fn negate(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        other => other,
    }
}

/// Refines by `a op b` (or its negation when `!holds`).
fn compare(frame: &Frame, state: State, op: BinOp, a: &Expr, b: &Expr, holds: bool) -> Option<State> {
    let op = if holds { op } else { negate(op) };
    let (Some(ea), Some(eb)) = (eval(frame, &state, a), eval(frame, &state, b)) else { return Some(state) };
    if decide(op, &ea.value, &eb.value) == Some(false) {
        return None;
    }
    let (Some(la), Some(lb)) = (ea.linear.filter(|l| l.exact), eb.linear.filter(|l| l.exact)) else { return Some(state) };
    // a - b  op  0
    let Some(diff) = la.add(lb.negate()?) else { return Some(state) };
    let changed: Vec<usize> = diff.terms.iter().map(|(v, _)| *v).collect();
    let mut state = state;
    match op {
        BinOp::Le => state = at_most(frame, state, &diff, 0)?,
        BinOp::Lt => state = at_most(frame, state, &diff, -1)?,
        BinOp::Ge => state = at_most(frame, state, &diff.clone().negate()?, 0)?,
        BinOp::Gt => state = at_most(frame, state, &diff.negate()?, -1)?,
        BinOp::Eq => {
            state = at_most(frame, state, &diff, 0)?;
            state = at_most(frame, state, &diff.clone().negate()?, 0)?;
            state = equal_congruence(frame, state, &diff)?;
        }
        BinOp::Ne => state = exclude(frame, state, &diff)?,
        _ => {}
    }
    state.sync(frame, &changed)
}

/// Refines by `diff <= bound` (diff exact over the variables): interval
/// bounds for each unit-coefficient variable, and the octagon constraint
/// when `diff` has at most two variables of the pack.
fn at_most(frame: &Frame, mut state: State, diff: &Linear, bound: i128) -> Option<State> {
    let rhs = bound.checked_sub(diff.constant)?;
    // sum c_i x_i <= rhs
    for (i, (v, c)) in diff.terms.iter().enumerate() {
        if c.abs() != 1 {
            continue;
        }
        let mut others = Value::constant(0);
        for (j, (w, d)) in diff.terms.iter().enumerate() {
            if i != j {
                others = others.add(&state.values[*w].mul(&Value::constant(*d)));
            }
        }
        // c x_v <= rhs - others  ->  c x_v <= rhs - min(others)
        if others.lo == NEG_INF {
            continue;
        }
        let limit = rhs.saturating_sub(others.lo);
        let bound = if *c == 1 { Value::range(NEG_INF, limit) } else { Value::range(limit.saturating_neg(), POS_INF) };
        state.values[*v] = state.values[*v].meet(&bound?)?;
    }
    let slots: Option<Vec<(usize, i128)>> = diff.terms.iter().map(|(v, c)| frame.oct_slot[*v].map(|k| (k, *c))).collect();
    match slots.as_deref() {
        Some([(a, ca @ (1 | -1)), (b, cb @ (1 | -1))]) => {
            state.octagon.add_constraint(OctConstraint { a: *a, a_positive: *ca == 1, b: Some((*b, *cb == 1)), bound: rhs });
        }
        Some([(a, ca @ (1 | -1))]) => {
            state.octagon.add_constraint(OctConstraint { a: *a, a_positive: *ca == 1, b: None, bound: rhs });
        }
        _ => {}
    }
    Some(state)
}

/// `c * x + k == 0` for one variable: the congruence (and value) of `x`.
fn equal_congruence(_frame: &Frame, mut state: State, diff: &Linear) -> Option<State> {
    if let [(v, c)] = diff.terms.as_slice() {
        if diff.constant % c != 0 {
            return None;
        }
        let x = -diff.constant / c;
        state.values[*v] = state.values[*v].meet(&Value::constant(x))?;
    }
    Some(state)
}

/// `diff != 0` for one variable with a unit coefficient: an end of its
/// interval that equals the excluded value moves inwards.
fn exclude(_frame: &Frame, mut state: State, diff: &Linear) -> Option<State> {
    if let [(v, c @ (1 | -1))] = diff.terms.as_slice() {
        let excluded = -diff.constant * c;
        let value = state.values[*v];
        if value.lo == excluded {
            state.values[*v] = value.meet(&Value::range(excluded + 1, POS_INF)?)?;
        } else if value.hi == excluded {
            state.values[*v] = value.meet(&Value::range(NEG_INF, excluded - 1)?)?;
        }
    }
    Some(state)
}
