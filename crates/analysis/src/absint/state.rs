//! The abstract state at a program point: a [`Value`] (interval and
//! congruence) per tracked variable, which locals are surely alive, an
//! [`Octagon`] over the function's octagon pack and an [`Affine`]
//! element over its affine pack. The octagon is kept closed; `reduce`
//! exchanges bounds between the intervals and the octagon.

use super::affine::Affine;
use super::frame::Frame;
use super::kind::IntKind;
use super::octagon::{OctConstraint, Octagon};
use super::value::{Value, NEG_INF, POS_INF};

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub values: Vec<Value>,
    /// Locals whose lifetime surely started (`Decl`, parameters) and did
    /// not end; globals always.
    pub alive: Vec<bool>,
    pub octagon: Octagon,
    pub affine: Affine,
}

/// The bounds of `value` worth relating in the octagon: those well inside
/// the type. A bound near the type's end comes from widening or the type
/// itself, and relations built on it are noise that costs certification.
fn moderate(value: Value, kind: IntKind) -> Value {
    let limit = 1i128 << (kind.bits.max(3) - 2);
    let lo = if value.lo > kind.min() && value.lo.abs() < limit { value.lo } else { NEG_INF };
    let hi = if value.hi < kind.max() && value.hi.abs() < limit { value.hi } else { POS_INF };
    Value { lo, hi, cong: value.cong }
}

impl State {
    /// The state on entry of the function: nothing known, parameters and
    /// globals alive.
    pub fn entry(frame: &Frame) -> State {
        let params = &frame.program.functions[frame.func].params;
        State {
            values: frame.vars.iter().map(|v| Value::top(v.kind)).collect(),
            alive: frame.vars.iter().map(|v| v.global || params.contains(&v.sym)).collect(),
            octagon: Octagon::top(frame.oct_vars.len()),
            affine: Affine::top(frame.aff_vars.len()),
        }
    }

    /// `x_v` takes a value the relational domains know nothing about
    /// beyond its bounds.
    pub fn set_value(&mut self, frame: &Frame, v: usize, value: Value) {
        self.values[v] = value;
        if let Some(k) = frame.oct_slot[v] {
            self.octagon.forget(k);
            if value != Value::top(frame.vars[v].kind) {
                self.bound_in_octagon(k, moderate(value, frame.vars[v].kind));
                if !self.octagon.close_on(&[k]) {
                    self.octagon = Octagon::top(frame.oct_vars.len());
                }
            }
        }
        if let Some(k) = frame.aff_slot[v] {
            match value.as_constant() {
                Some(c) => self.affine.assign(k, &[], c),
                None => self.affine.forget(k),
            }
        }
    }

    pub fn havoc(&mut self, frame: &Frame, v: usize) {
        self.set_value(frame, v, Value::top(frame.vars[v].kind));
    }

    fn bound_in_octagon(&mut self, k: usize, value: Value) {
        if value.hi != POS_INF {
            self.octagon.add_constraint(OctConstraint { a: k, a_positive: true, b: None, bound: value.hi });
        }
        if value.lo != NEG_INF {
            self.octagon.add_constraint(OctConstraint { a: k, a_positive: false, b: None, bound: -value.lo });
        }
    }

    /// Exchanges bounds between the intervals and the octagon (and reads
    /// constants off the affine equalities); `None` when the state is
    /// empty.
    pub fn reduce(mut self, frame: &Frame) -> Option<State> {
        if self.affine.is_bottom() {
            return None;
        }
        for (k, v) in frame.oct_vars.iter().enumerate() {
            let value = moderate(self.values[*v], frame.vars[*v].kind);
            self.bound_in_octagon(k, value);
        }
        if !self.octagon.close() {
            return None;
        }
        for (k, v) in frame.oct_vars.iter().enumerate() {
            let (lo, hi) = self.octagon.bounds(k);
            self.values[*v] = self.values[*v].meet(&Value::range(lo, hi)?)?;
        }
        Some(self)
    }

    /// The state ready for transfer functions: closed (after a widening,
    /// by [`State::reduce`]); `None` when empty.
    pub fn settled(self, frame: &Frame) -> Option<State> {
        match self.octagon.is_closed() {
            true => Some(self),
            false => self.reduce(frame),
        }
    }

    /// [`State::reduce`] after a change that touched only the variables
    /// `changed` (frame indices) on a state whose octagon was closed: their
    /// bounds go into the octagon, an incremental closure on them follows,
    /// and every pack variable's bounds come back.
    pub fn sync(mut self, frame: &Frame, changed: &[usize]) -> Option<State> {
        if self.affine.is_bottom() {
            return None;
        }
        let slots: Vec<usize> = changed.iter().filter_map(|v| frame.oct_slot[*v]).collect();
        if slots.is_empty() {
            return Some(self);
        }
        for (&k, v) in slots.iter().zip(changed.iter().filter(|v| frame.oct_slot[**v].is_some())) {
            let value = moderate(self.values[*v], frame.vars[*v].kind);
            self.bound_in_octagon(k, value);
        }
        if !self.octagon.close_on(&slots) {
            return None;
        }
        for (k, v) in frame.oct_vars.iter().enumerate() {
            let (lo, hi) = self.octagon.bounds(k);
            self.values[*v] = self.values[*v].meet(&Value::range(lo, hi)?)?;
        }
        Some(self)
    }

    /// Tightens intervals with the affine equalities: a row `x = sum + c`
    /// (unit coefficient on `x`) holds modulo 2^w for `x`'s width w; when
    /// the interval of the right side lies inside `x`'s type, `x` and it
    /// are two values of one window of 2^w that agree modulo 2^w, so equal
    /// (`x == 2*i` with `i` in `0..=1000` bounds `x` by 2000).
    pub fn tighten_by_equalities(&mut self, frame: &Frame) {
        let n = frame.aff_vars.len();
        for row in self.affine.rows().to_vec() {
            for (k, coefficient) in row[..n].iter().enumerate() {
                if coefficient.abs() != 1 {
                    continue;
                }
                let x = frame.aff_vars[k];
                // coefficient * x = c - sum_{j != k} row[j] x_j
                let mut rhs = Value::constant(row[n]);
                for (j, a) in row[..n].iter().enumerate().filter(|(j, a)| *j != k && **a != 0) {
                    rhs = rhs.sub(&self.values[frame.aff_vars[j]].mul(&Value::constant(*a)));
                }
                if *coefficient == -1 {
                    rhs = rhs.neg();
                }
                let kind = frame.vars[x].kind;
                let narrower = row[..n].iter().enumerate().any(|(j, a)| *a != 0 && frame.vars[frame.aff_vars[j]].kind.bits < kind.bits);
                if !narrower && kind.contains(rhs.lo) && kind.contains(rhs.hi) {
                    if let Some(tight) = self.values[x].meet(&Value::range(rhs.lo, rhs.hi).unwrap_or(rhs)) {
                        self.values[x] = tight;
                    }
                }
            }
        }
    }

    pub fn join(&self, other: &State) -> State {
        State {
            values: self.values.iter().zip(&other.values).map(|(a, b)| a.join(b)).collect(),
            alive: self.alive.iter().zip(&other.alive).map(|(a, b)| *a && *b).collect(),
            octagon: self.octagon.join(&other.octagon),
            affine: self.affine.join(&other.affine),
        }
    }

    /// Widening by `next` (a state that includes `self`), with the
    /// thresholds of the intervals and of the octagon while `thresholds`
    /// says so (after that, bounds that still move go straight to the
    /// type's ends, octagon entries to no bound). The result is not closed
    /// (a closed widening could climb forever); the fixpoint closes a copy
    /// before it runs a block.
    pub fn widen(&self, next: &State, frame: &Frame, thresholds: (bool, bool)) -> State {
        let (interval_thresholds, octagon_thresholds) = thresholds;
        let values = self
            .values
            .iter()
            .zip(&next.values)
            .zip(&frame.vars)
            .map(|((old, new), var)| {
                let thresholds: &[i128] = if interval_thresholds { &frame.thresholds } else { &[] };
                old.widen(new, thresholds).meet(&Value::top(var.kind)).unwrap_or(Value::top(var.kind))
            })
            .collect();
        let thresholds: &[i128] = if octagon_thresholds { &frame.oct_thresholds } else { &[] };
        let octagon = self.octagon.widen(&next.octagon, thresholds);
        State { values, alive: next.alive.clone(), octagon, affine: next.affine.clone() }
    }

    /// Whether `self` is included in `other` (the iteration is stable).
    pub fn is_subset(&self, other: &State) -> bool {
        self.values.iter().zip(&other.values).all(|(a, b)| a.is_subset(b))
            && self.alive.iter().zip(&other.alive).all(|(a, b)| *a || !*b)
            && self.octagon.is_subset(&other.octagon)
            && self.affine.is_subset(&other.affine)
    }
}
