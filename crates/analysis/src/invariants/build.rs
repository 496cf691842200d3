//! A [`Fact`] as an IR expression (a `Bool` over the facts' variables,
//! with the IR's wrapping arithmetic) and as the same C expression, for
//! the report and the correctness witnesses. Relations over mathematical
//! integers are computed in a type wide enough that nothing wraps;
//! affine equalities, which hold modulo 2^w, are computed in a w-bit type.

use super::fact::{Fact, FactVar};
use crate::absint::kind::IntKind;
use ir::{BinOp, Expr, ExprKind, PrimaryMap, Symbol, SymbolId, TypeId, TypeTable, UnOp};

/// The C spelling of a tracked integer type, `None` for odd widths.
fn c_type(kind: IntKind) -> Option<&'static str> {
    Some(match (kind.bits, kind.signed) {
        (1, _) => "_Bool",
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long long",
        (64, false) => "unsigned long long",
        (128, true) => "__int128",
        _ => return None,
    })
}

/// A C literal of `value` (the one value without a literal spelled as a
/// difference).
fn c_literal(value: i128) -> String {
    if value == i64::MIN as i128 {
        "(-9223372036854775807LL - 1)".to_string()
    } else if value > i64::MAX as i128 {
        format!("{value}ULL")
    } else if value > i32::MAX as i128 || value < i32::MIN as i128 {
        format!("{value}LL")
    } else {
        value.to_string()
    }
}

/// Builds the expressions of facts, interning the types they need in
/// `types` (a copy of the program's table: see [`super::generate`]).
pub struct Builder<'p> {
    pub types: TypeTable,
    pub symbols: &'p PrimaryMap<SymbolId, Symbol>,
}

struct Term {
    expr: Expr,
    text: String,
}

impl Builder<'_> {
    fn ty(&mut self, kind: IntKind) -> TypeId {
        match kind.bits {
            1 => self.types.bool(),
            bits => self.types.int(bits, kind.signed),
        }
    }
    fn bool_ty(&mut self) -> TypeId {
        self.types.bool()
    }
    fn constant(&mut self, value: i128, kind: IntKind) -> Term {
        let ty = self.ty(kind);
        let bits = (value as u128) & if kind.bits >= 128 { u128::MAX } else { (1u128 << kind.bits) - 1 };
        Term { expr: Expr::int(bits, ty), text: c_literal(value) }
    }
    fn name(&self, x: FactVar) -> String {
        self.symbols[x.sym].display_name.clone()
    }
    /// `x`, converted to `kind` when it is another type.
    fn var(&mut self, x: FactVar, kind: IntKind) -> Option<Term> {
        let sym_ty = self.symbols[x.sym].ty;
        let expr = Expr::sym(x.sym, sym_ty);
        if x.kind == kind {
            return Some(Term { expr, text: self.name(x) });
        }
        let ty = self.ty(kind);
        Some(Term { expr: Expr::cast(expr, ty), text: format!("({}){}", c_type(kind)?, self.name(x)) })
    }
    fn cmp(&mut self, op: BinOp, a: Term, b: Term) -> (Expr, String) {
        let symbol = match op {
            BinOp::Eq => "==",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Lt => "<",
            _ => "!=",
        };
        let ty = self.bool_ty();
        (Expr::binary(op, a.expr, b.expr, ty), format!("{} {symbol} {}", a.text, b.text))
    }
    fn arith(&mut self, op: BinOp, a: Term, b: Term, kind: IntKind) -> Term {
        let ty = self.ty(kind);
        let symbol = match op {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            _ => "&",
        };
        let text = match op {
            BinOp::Mul => format!("{}*{}", a.text, b.text),
            BinOp::BitAnd => format!("({} {symbol} {})", a.text, b.text),
            _ => format!("{} {symbol} {}", a.text, b.text),
        };
        Term { expr: Expr::binary(op, a.expr, b.expr, ty), text }
    }

    /// The fact as a `Bool` IR expression and as C text.
    pub fn build(&mut self, fact: &Fact) -> Option<(Expr, String)> {
        match fact {
            Fact::Equals(x, c) | Fact::AtLeast(x, c) | Fact::AtMost(x, c) => {
                let op = match fact {
                    Fact::Equals(..) => BinOp::Eq,
                    Fact::AtLeast(..) => BinOp::Ge,
                    _ => BinOp::Le,
                };
                let (v, k) = (self.var(*x, x.kind)?, self.constant(*c, x.kind));
                Some(self.cmp(op, v, k))
            }
            Fact::Congruent(x, modulus, residue) => self.congruence(*x, *modulus, *residue),
            Fact::Octagon { a, b, bound, native } => self.octagon(*a, *b, *bound, *native),
            Fact::Affine { terms, constant } => self.affine(terms, *constant),
        }
    }

    /// `x ≡ residue (mod 2^k)`: a test of the low bits (right for
    /// negative values too). Other moduli are left out: `%` by them is a
    /// divider circuit about which the solver proves things slowly (a
    /// second for `k % 3 == 0` preserved by `k += 3`, and an encoding by
    /// the multiplicative inverse is slower still), and the affine
    /// equalities state most such strides (`k == 3*i`) better.
    fn congruence(&mut self, x: FactVar, modulus: u128, residue: i128) -> Option<(Expr, String)> {
        if !modulus.is_power_of_two() {
            return None;
        }
        let m = i128::try_from(modulus).ok()?;
        let v = self.var(x, x.kind)?;
        let mask = self.constant(m - 1, x.kind);
        let low = self.arith(BinOp::BitAnd, v, mask, x.kind);
        let r = self.constant(residue, x.kind);
        Some(self.cmp(BinOp::Eq, low, r))
    }

    /// `±x ± y <= bound`: `x <= y` style when the bound is 0 or -1 and
    /// both have one type, else in a type wide enough for the sum.
    fn octagon(&mut self, a: (FactVar, bool), b: (FactVar, bool), bound: i128, native: bool) -> Option<(Expr, String)> {
        // `y - x` reads better than `-x + y`.
        let ((x, sx), (y, sy)) = if !a.1 && b.1 { (b, a) } else { (a, b) };
        if sx != sy && x.kind == y.kind && (bound == 0 || bound == -1) {
            let (small, large) = if sx { (x, y) } else { (y, x) };
            let op = if bound == 0 { BinOp::Le } else { BinOp::Lt };
            let (a, b) = (self.var(small, small.kind)?, self.var(large, large.kind)?);
            return Some(self.cmp(op, a, b));
        }
        let wide = match (native, x.kind.bits <= 32 && y.kind.bits <= 32) {
            (true, _) => x.kind,
            (false, true) => IntKind { bits: 64, signed: true },
            (false, false) => IntKind { bits: 128, signed: true },
        };
        let signed_term = |builder: &mut Self, v: FactVar, positive: bool| -> Option<Term> {
            let t = builder.var(v, wide)?;
            if positive {
                return Some(t);
            }
            let ty = builder.ty(wide);
            Some(Term { expr: Expr::unary(UnOp::Neg, t.expr, ty), text: format!("-{}", t.text) })
        };
        if !sx && !sy {
            // -x - y <= c reads better as x + y >= -c
            let (a, b) = (self.var(x, wide)?, self.var(y, wide)?);
            let sum = self.arith(BinOp::Add, a, b, wide);
            let k = self.constant(bound.checked_neg()?, wide);
            return Some(self.cmp(BinOp::Ge, sum, k));
        }
        let (a, b) = (signed_term(self, x, sx)?, signed_term(self, y, sy)?);
        let sum = match b.expr.kind {
            ExprKind::Unary(UnOp::Neg, ref inner) => {
                let inner_text = b.text.trim_start_matches('-').to_string();
                self.arith(BinOp::Sub, a, Term { expr: (**inner).clone(), text: inner_text }, wide)
            }
            _ => self.arith(BinOp::Add, a, b, wide),
        };
        let k = self.constant(bound, wide);
        Some(self.cmp(BinOp::Le, sum, k))
    }

    /// `sum a_i x_i == c` modulo 2^w: positive terms on the left, the
    /// others and the constant on the right, in the variables' common
    /// type, or the unsigned w-bit type when they differ.
    fn affine(&mut self, terms: &[(FactVar, i128)], constant: i128) -> Option<(Expr, String)> {
        let first = terms.first()?.0.kind;
        let kind = if terms.iter().all(|(v, _)| v.kind == first) {
            first
        } else {
            IntKind { bits: terms.iter().map(|(v, _)| v.kind.bits).min()?, signed: false }
        };
        c_type(kind)?;
        let side = |builder: &mut Self, positive: bool| -> Option<Option<Term>> {
            let mut acc: Option<Term> = None;
            for (v, c) in terms.iter().filter(|(_, c)| (*c > 0) == positive) {
                let var = builder.var(*v, kind)?;
                let magnitude = c.unsigned_abs() as i128;
                let term = if magnitude == 1 {
                    var
                } else {
                    let k = builder.constant(magnitude, kind);
                    builder.arith(BinOp::Mul, k, var, kind)
                };
                acc = Some(match acc {
                    Some(a) => builder.arith(BinOp::Add, a, term, kind),
                    None => term,
                });
            }
            Some(acc)
        };
        let left = side(self, true)?;
        let right = side(self, false)?;
        let (left, right) = match (left, right) {
            (Some(l), Some(r)) => (l, self.offset(r, constant, kind)),
            (Some(l), None) => (l, self.constant(constant, kind)),
            (None, Some(r)) => (r, self.constant(constant.checked_neg()?, kind)),
            (None, None) => return None,
        };
        if kind.bits < 32 {
            // C promotes narrow operands to int: wrap both sides back.
            let name = c_type(kind)?;
            let (mut l, mut r) = (left, right);
            l.text = format!("({name})({})", l.text);
            r.text = format!("({name})({})", r.text);
            return Some(self.cmp(BinOp::Eq, l, r));
        }
        Some(self.cmp(BinOp::Eq, left, right))
    }

    fn offset(&mut self, t: Term, constant: i128, kind: IntKind) -> Term {
        match constant {
            0 => t,
            c if c > 0 => {
                let k = self.constant(c, kind);
                self.arith(BinOp::Add, t, k, kind)
            }
            c => {
                let k = self.constant(c.saturating_neg(), kind);
                self.arith(BinOp::Sub, t, k, kind)
            }
        }
    }
}
