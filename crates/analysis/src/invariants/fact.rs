//! The facts the analysis states at a loop head, in a structured form
//! over tracked variables, before they become IR expressions and C text:
//! bounds, congruences, octagon constraints and affine equalities.

use crate::absint::frame::Frame;
use crate::absint::kind::IntKind;
use crate::absint::octagon::OctConstraint;
use crate::absint::state::State;
use crate::absint::value::{Value, NEG_INF, POS_INF};
use ir::SymbolId;

/// A variable of a fact.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FactVar {
    pub sym: SymbolId,
    pub kind: IntKind,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Fact {
    /// `x == c`.
    Equals(FactVar, i128),
    /// `x >= c`.
    AtLeast(FactVar, i128),
    /// `x <= c`.
    AtMost(FactVar, i128),
    /// `x ≡ residue (mod modulus)`, modulus >= 2.
    Congruent(FactVar, u128, i128),
    /// `±x ± y <= bound` over mathematical integers; `native` when both
    /// have one type in which `±x ± y` cannot wrap at this head (their
    /// bounds say so), so the relation may be computed in that type.
    Octagon { a: (FactVar, bool), b: (FactVar, bool), bound: i128, native: bool },
    /// `sum coeff * x == constant` modulo 2^w, w the narrowest width of
    /// its variables.
    Affine { terms: Vec<(FactVar, i128)>, constant: i128 },
}

impl Fact {
    /// Whether its expression computes sums or products (see
    /// `build::Builder::build`): affine equalities, and octagon
    /// relations other than `x <= y` / `x < y` between variables of one
    /// type.
    pub fn is_arithmetic(&self) -> bool {
        match self {
            Fact::Affine { .. } => true,
            Fact::Octagon { a, b, bound, native } => !native && (a.1 == b.1 || a.0.kind != b.0.kind || !(*bound == 0 || *bound == -1)),
            _ => false,
        }
    }
}

/// Limits so a head with many variables costs the certification little.
const MAX_FACTS: usize = 48;

/// The facts of `state` about the variables `relevant` accepts (index
/// into `frame.vars`).
pub fn facts(frame: &Frame, state: &State, relevant: &dyn Fn(usize) -> bool) -> Vec<Fact> {
    let var = |v: usize| FactVar { sym: frame.vars[v].sym, kind: frame.vars[v].kind };
    let mut out = Vec::new();
    for v in (0..frame.vars.len()).filter(|v| relevant(*v) && usable(frame, state, *v)) {
        unary_facts(var(v), &state.values[v], &mut out);
    }
    for c in state.octagon.relations() {
        let Some((b, b_positive)) = c.b else { continue };
        let (va, vb) = (frame.oct_vars[c.a], frame.oct_vars[b]);
        if !(relevant(va) || relevant(vb)) || !usable(frame, state, va) || !usable(frame, state, vb) {
            continue;
        }
        let bits = frame.vars[va].kind.bits.min(frame.vars[vb].kind.bits);
        if implied_by_intervals(state, va, vb, c) || c.bound.abs() >= 1i128 << (bits.max(3) - 2) {
            continue;
        }
        let native = fits_in_type(frame, state, (va, c.a_positive), (vb, b_positive));
        out.push(Fact::Octagon { a: (var(va), c.a_positive), b: (var(vb), b_positive), bound: c.bound, native });
    }
    // Rows are in echelon form: a relation among usable variables may be
    // spread over rows that each name a temporary (`mid = $ret`), so the
    // others are projected out first.
    let mut affine = state.affine.clone();
    for (k, v) in frame.aff_vars.iter().enumerate() {
        if !usable(frame, state, *v) {
            affine.forget(k);
        }
    }
    for row in affine.rows() {
        let n = frame.aff_vars.len();
        let terms: Vec<(usize, i128)> =
            row[..n].iter().enumerate().filter(|(_, c)| **c != 0).map(|(k, c)| (frame.aff_vars[k], *c)).collect();
        if terms.len() < 2 || !terms.iter().any(|(v, _)| relevant(*v)) || !terms.iter().all(|(v, _)| usable(frame, state, *v)) {
            continue;
        }
        out.push(Fact::Affine { terms: terms.into_iter().map(|(v, c)| (var(v), c)).collect(), constant: row[n] });
    }
    out.truncate(MAX_FACTS);
    out
}

/// A variable a fact at this point may name: alive, and not a value
/// temporary of the front end.
pub fn usable(frame: &Frame, state: &State, v: usize) -> bool {
    state.alive[v] && !frame.program.symbols[frame.vars[v].sym].is_value_temporary()
}

fn unary_facts(x: FactVar, value: &Value, out: &mut Vec<Fact>) {
    if let Some(c) = value.as_constant() {
        out.push(Fact::Equals(x, c));
        return;
    }
    if value.lo > x.kind.min() && value.lo != NEG_INF {
        out.push(Fact::AtLeast(x, value.lo));
    }
    if value.hi < x.kind.max() && value.hi != POS_INF {
        out.push(Fact::AtMost(x, value.hi));
    }
    let m = value.cong.modulus;
    if m >= 2 && m <= x.kind.max() as u128 {
        out.push(Fact::Congruent(x, m, value.cong.residue));
    }
}

/// Whether `±x ± y` stays inside the variables' common type for every
/// value their intervals allow (the intervals are candidates too, so
/// the certification assumes them wherever it assumes the relation).
fn fits_in_type(frame: &Frame, state: &State, (a, sa): (usize, bool), (b, sb): (usize, bool)) -> bool {
    let kind = frame.vars[a].kind;
    if kind != frame.vars[b].kind || kind.bits < 32 {
        return false;
    }
    let signed = |v: usize, positive: bool| if positive { state.values[v] } else { state.values[v].neg() };
    let sum = signed(a, sa).add(&signed(b, sb));
    kind.contains(sum.lo) && kind.contains(sum.hi)
}

/// Whether the intervals alone give `±x ± y <= bound`.
fn implied_by_intervals(state: &State, va: usize, vb: usize, c: OctConstraint) -> bool {
    let Some((_, b_positive)) = c.b else { return true };
    let side = |v: usize, positive: bool| {
        let value = state.values[v];
        if positive {
            value.hi
        } else {
            value.lo.checked_neg().unwrap_or(POS_INF)
        }
    };
    let (a, b) = (side(va, c.a_positive), side(vb, b_positive));
    a != POS_INF && b != POS_INF && a.saturating_add(b) <= c.bound
}
