//! Abstract evaluation of IR expressions: the [`Value`] of an integer
//! expression in a state, and, when the expression is affine in the
//! tracked variables, its linear form, with whether that form equals the
//! machine value (`exact`: no wrap-around anywhere) or only equals it
//! modulo 2^width (`modular`: built from ring operations on variables at
//! least as wide, what the affine domain needs).

use super::frame::Frame;
use super::kind::IntKind;
use super::state::State;
use super::value::Value;
use ir::{BinOp, Expr, ExprKind, Type, UnOp};

/// Deeper expressions are not looked into (their value is the whole type).
const MAX_DEPTH: usize = 48;

/// `sum coeff * x_var + constant`.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    pub terms: Vec<(usize, i128)>,
    pub constant: i128,
    /// Equal to the expression's machine value.
    pub exact: bool,
    /// Equal to it modulo 2^width of the expression's type, in lifted values.
    pub modular: bool,
}

impl Linear {
    fn constant(c: i128) -> Linear {
        Linear { terms: vec![], constant: c, exact: true, modular: true }
    }
    fn var(v: usize) -> Linear {
        Linear { terms: vec![(v, 1)], constant: 0, exact: true, modular: true }
    }
    fn scale(mut self, k: i128) -> Option<Linear> {
        for (_, c) in &mut self.terms {
            *c = c.checked_mul(k)?;
        }
        self.constant = self.constant.checked_mul(k)?;
        self.terms.retain(|(_, c)| *c != 0);
        Some(self)
    }
    pub fn add(mut self, other: Linear) -> Option<Linear> {
        for (v, c) in other.terms {
            match self.terms.iter_mut().find(|(w, _)| *w == v) {
                Some((_, d)) => *d = d.checked_add(c)?,
                None => self.terms.push((v, c)),
            }
        }
        self.terms.retain(|(_, c)| *c != 0);
        self.constant = self.constant.checked_add(other.constant)?;
        self.exact &= other.exact;
        self.modular &= other.modular;
        Some(self)
    }
    pub fn negate(self) -> Option<Linear> {
        self.scale(-1)
    }
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }
}

/// An integer expression's abstract value and linear form.
#[derive(Clone, Debug)]
pub struct Eval {
    pub value: Value,
    pub linear: Option<Linear>,
}

pub fn kind_of(frame: &Frame, e: &Expr) -> Option<IntKind> {
    IntKind::of(&frame.program.types, e.ty)
}

/// The value of `e` (`None` when it is not an integer expression).
pub fn eval(frame: &Frame, state: &State, e: &Expr) -> Option<Eval> {
    eval_at(frame, state, e, 0)
}

fn top(kind: IntKind) -> Eval {
    Eval { value: Value::top(kind), linear: None }
}

fn eval_at(frame: &Frame, state: &State, e: &Expr, depth: usize) -> Option<Eval> {
    let kind = kind_of(frame, e)?;
    if depth > MAX_DEPTH {
        return Some(top(kind));
    }
    let sub = |x: &Expr| eval_at(frame, state, x, depth + 1);
    let result = match &e.kind {
        ExprKind::Sym(s) => match frame.index.get(s) {
            Some(v) => Eval { value: state.values[*v], linear: Some(Linear::var(*v)) },
            None => top(kind),
        },
        ExprKind::IntConst(bits) => {
            let c = kind.value_of_bits(*bits);
            Eval { value: Value::constant(c), linear: Some(Linear::constant(c)) }
        }
        ExprKind::Zero => Eval { value: Value::constant(0), linear: Some(Linear::constant(0)) },
        ExprKind::Cast(inner) => {
            let to_bool = matches!(frame.program.types.get(e.ty), Type::Bool);
            cast(kind, kind_of(frame, inner), sub(inner), to_bool)
        }
        ExprKind::Unary(op, inner) => {
            let a = sub(inner).unwrap_or_else(|| top(kind));
            let (math, linear) = match op {
                UnOp::Neg => (a.value.neg(), a.linear.and_then(Linear::negate)),
                UnOp::BitNot => (a.value.neg().sub(&Value::constant(1)), a.linear.and_then(Linear::negate).and_then(|l| l.add(Linear::constant(-1)))),
                UnOp::Not => (Value::constant(1).sub(&a.value), None),
            };
            fitted(kind, math, linear)
        }
        ExprKind::Binary(op, l, r) if op.is_comparison() => compare(frame, state, *op, l, r, depth),
        ExprKind::Binary(op, l, r) => {
            let Some((a, b)) = sub(l).zip(sub(r)) else { return Some(top(kind)) };
            binary(kind, *op, a, b)
        }
        ExprKind::Ite(_, a, b) => match sub(a).zip(sub(b)) {
            Some((a, b)) => Eval { value: a.value.join(&b.value), linear: None },
            None => top(kind),
        },
        _ => top(kind),
    };
    Some(result)
}

fn fitted(kind: IntKind, math: Value, linear: Option<Linear>) -> Eval {
    let (value, exact) = math.fit(kind);
    let linear = linear.map(|mut l| {
        l.exact &= exact;
        l
    });
    Eval { value, linear }
}

/// A conversion to `kind` from an integer of kind `source`.
fn cast(kind: IntKind, source: Option<IntKind>, inner: Option<Eval>, to_bool: bool) -> Eval {
    let (Some(a), Some(source)) = (inner, source) else { return top(kind) };
    if to_bool {
        let value = match (a.value.contains(0), a.value.as_constant()) {
            (false, _) => Value::constant(1),
            (true, Some(0)) => Value::constant(0),
            _ => Value::top(kind),
        };
        return Eval { value, linear: None };
    }
    let (value, exact) = a.value.fit(kind);
    let linear = a.linear.map(|mut l| {
        // Truncation commutes with wrap-around; extension does not.
        l.modular &= l.is_constant() || source.bits >= kind.bits;
        l.exact &= exact;
        l
    });
    Eval { value, linear }
}

fn binary(kind: IntKind, op: BinOp, a: Eval, b: Eval) -> Eval {
    let (va, vb) = (a.value, b.value);
    let scale_by = |l: Option<Linear>, k: Option<i128>| l.zip(k).and_then(|(l, k)| l.scale(k));
    let (math, linear) = match op {
        BinOp::Add => (va.add(&vb), a.linear.zip(b.linear).and_then(|(x, y)| x.add(y))),
        BinOp::Sub => (va.sub(&vb), a.linear.zip(b.linear.and_then(Linear::negate)).and_then(|(x, y)| x.add(y))),
        BinOp::Mul => {
            let linear = match (va.as_constant(), vb.as_constant()) {
                (_, Some(k)) if b.linear.as_ref().is_some_and(Linear::is_constant) => scale_by(a.linear, Some(k)),
                (Some(k), _) if a.linear.as_ref().is_some_and(Linear::is_constant) => scale_by(b.linear, Some(k)),
                _ => None,
            };
            (va.mul(&vb), linear)
        }
        BinOp::Div => (va.div(&vb), None),
        BinOp::Rem => (va.rem(&vb), None),
        BinOp::Shl => {
            let k = vb.as_constant().filter(|k| (0..kind.bits as i128).contains(k)).map(|k| 1i128 << k);
            (va.shl(&vb, kind.bits), scale_by(a.linear, k))
        }
        BinOp::Shr => (va.shr(&vb, kind.bits), None),
        BinOp::BitAnd => (va.bit_and(&vb), None),
        BinOp::BitOr => (va.bit_or_xor(&vb, true), None),
        BinOp::BitXor => (va.bit_or_xor(&vb, false), None),
        BinOp::And => (logic(va, vb, true), None),
        BinOp::Or => (logic(va, vb, false), None),
        _ => (Value::unbounded(), None),
    };
    fitted(kind, math, linear)
}

fn logic(a: Value, b: Value, is_and: bool) -> Value {
    let truth = |v: Value| if !v.contains(0) { Some(true) } else { (v.as_constant() == Some(0)).then_some(false) };
    match (truth(a), truth(b), is_and) {
        (Some(false), _, true) | (_, Some(false), true) => Value::constant(0),
        (Some(true), Some(true), true) => Value::constant(1),
        (Some(true), _, false) | (_, Some(true), false) => Value::constant(1),
        (Some(false), Some(false), false) => Value::constant(0),
        _ => Value::range(0, 1).expect("non-empty"),
    }
}

/// A comparison's value: decided when the operands' ranges decide it.
fn compare(frame: &Frame, state: &State, op: BinOp, l: &Expr, r: &Expr, depth: usize) -> Eval {
    let unknown = Eval { value: Value::range(0, 1).expect("non-empty"), linear: None };
    let Some((a, b)) = eval_at(frame, state, l, depth + 1).zip(eval_at(frame, state, r, depth + 1)) else { return unknown };
    match decide(op, &a.value, &b.value) {
        Some(truth) => Eval { value: Value::constant(truth as i128), linear: None },
        None => unknown,
    }
}

/// The truth of `a op b` when every pair of values gives the same.
pub fn decide(op: BinOp, a: &Value, b: &Value) -> Option<bool> {
    let lt_always = a.hi < b.lo;
    let ge_always = a.lo >= b.hi;
    let le_always = a.hi <= b.lo;
    let gt_always = a.lo > b.hi;
    let disjoint = a.meet(b).is_none();
    let same = a.as_constant().is_some() && a.as_constant() == b.as_constant();
    match op {
        BinOp::Lt => lt_always.then_some(true).or(ge_always.then_some(false)),
        BinOp::Le => le_always.then_some(true).or(gt_always.then_some(false)),
        BinOp::Gt => gt_always.then_some(true).or(le_always.then_some(false)),
        BinOp::Ge => ge_always.then_some(true).or(lt_always.then_some(false)),
        BinOp::Eq => same.then_some(true).or(disjoint.then_some(false)),
        BinOp::Ne => disjoint.then_some(true).or(same.then_some(false)),
        _ => None,
    }
}
