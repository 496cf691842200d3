//! Complex types (`_Complex float/double/long double` and GCC's complex
//! integers such as `_Complex int`): a value is the IR array `{real,
//! imaginary}`. Arithmetic is lowered on the parts with the textbook
//! formulas (multiplication `(ac-bd) + (ad+bc)i`, floating division by
//! `c²+d²`); integer division is GCC's Smith's method, step by step in
//! the part type (so it divides by zero only when the divisor is zero).
//! For floating parts, results that overflow or involve infinities and
//! NaNs may differ from a C library that implements Annex G's special
//! cases.

use super::ctype::{self, ComplexElem, CType, Kind};
use super::expr::Val;
use super::{Sema, R};
use crate::ast::BinaryOp;
use ir::{BinOp, Expr, ExprKind, Loc, UnOp};

/// The constant zero of a part type.
fn zero_part(elem: ComplexElem, ty: ir::TypeId) -> Expr {
    match elem {
        ComplexElem::Float(_) => Expr::new(ExprKind::FloatConst(0), ty),
        ComplexElem::Int(_) => Expr::int(0, ty),
    }
}

impl<'a> Sema<'a> {
    /// The real or imaginary part of a complex value, as an expression.
    pub(super) fn complex_part(&mut self, v: &Val, elem: ComplexElem, imaginary: bool) -> Expr {
        if let ExprKind::ArrayLit(parts) = &v.e.kind {
            if let Some(part) = parts.get(usize::from(imaginary)) {
                return part.clone();
            }
        }
        let part_ir = self.ir_ty(&elem.part_type());
        let size_t = self.tcx.size_t();
        let index = self.int_val(i128::from(imaginary), size_t).e;
        Expr::new(ExprKind::Index(Box::new(v.e.clone()), Box::new(index)), part_ir)
    }

    /// A complex value from its parts.
    fn complex_value(&mut self, elem: ComplexElem, re: Expr, im: Expr) -> Val {
        let ty = CType::new(Kind::Complex(elem));
        let irty = self.ir_ty(&ty);
        Val { e: Expr::new(ExprKind::ArrayLit(vec![re, im]), irty), ty, lvalue: false, bit_width: None }
    }

    /// A complex constant `0 + value·i` (an imaginary literal).
    pub(super) fn imaginary(&mut self, imag: Val) -> Val {
        let Some(elem) = ComplexElem::of_real(&imag.ty.kind) else { return imag };
        let zero = zero_part(elem, imag.e.ty);
        self.complex_value(elem, zero, imag.e)
    }

    /// Both parts of an arithmetic value converted to the part type of `elem`.
    fn parts_as(&mut self, v: Val, elem: ComplexElem, loc: Loc) -> R<(Expr, Expr)> {
        let part = elem.part_type();
        let part_ir = self.ir_ty(&part);
        if let Kind::Complex(from) = v.ty.kind {
            let (re, im) = (self.complex_part(&v, from, false), self.complex_part(&v, from, true));
            if from == elem {
                return Ok((re, im));
            }
            let as_part = |s: &mut Self, e: Expr| {
                let value = Val { e, ty: from.part_type(), lvalue: false, bit_width: None };
                s.cast_to(value, &part, loc, true)
            };
            return Ok((as_part(self, re)?, as_part(self, im)?));
        }
        let re = self.cast_to(v, &part, loc, true)?;
        Ok((re, zero_part(elem, part_ir)))
    }

    /// Converts an arithmetic value to or from a complex type.
    pub(super) fn complex_convert(&mut self, v: Val, to: &CType, loc: Loc) -> R<Expr> {
        match (&v.ty.kind, &to.kind) {
            (_, Kind::Complex(elem)) if v.ty.is_arithmetic() => {
                let elem = *elem;
                let (re, im) = self.parts_as(v, elem, loc)?;
                Ok(self.complex_value(elem, re, im).e)
            }
            (Kind::Complex(from), _) if to.is_bool() => {
                let from = *from;
                let b = self.prog.types.bool();
                let (re, im) = (self.complex_part(&v, from, false), self.complex_part(&v, from, true));
                let zero = zero_part(from, re.ty);
                let re_set = Expr::binary(BinOp::Ne, re, zero.clone(), b);
                let im_set = Expr::binary(BinOp::Ne, im, zero, b);
                Ok(Expr::binary(BinOp::Or, re_set, im_set, b))
            }
            (Kind::Complex(from), _) if to.is_arithmetic() => {
                let from = *from;
                let re = self.complex_part(&v, from, false);
                let part = Val { e: re, ty: from.part_type(), lvalue: false, bit_width: None };
                self.cast_to(part, to, loc, true)
            }
            _ => Err(self.error(loc, "invalid conversion of a complex value")),
        }
    }

    /// `l op r` where an operand is complex; both become complex of `elem`.
    /// Integer parts are computed in their promoted type and the results
    /// converted back to `elem`: for `+ - *` the same as GCC's wrapping in
    /// the part type; division wraps each step (see `integer_division`).
    pub(super) fn complex_arith(&mut self, op: BinaryOp, l: Val, r: Val, elem: ComplexElem, loc: Loc) -> R<Val> {
        let (a, b) = self.parts_as(l, elem, loc)?;
        let (c, d) = self.parts_as(r, elem, loc)?;
        if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            return Ok(self.complex_equality(op == BinaryOp::Eq, (a, b), (c, d)));
        }
        let wide = match elem {
            ComplexElem::Int(k) => ComplexElem::Int(ctype::promoted_kind(Some(k), None, |k| self.tcx.int_bits(k))),
            float => float,
        };
        let widen = |s: &mut Self, e: Expr| s.convert_part(e, elem, wide, loc);
        let (a, b, c, d) = (widen(self, a)?, widen(self, b)?, widen(self, c)?, widen(self, d)?);
        let part = self.ir_ty(&wide.part_type());
        let bin = |op, x: &Expr, y: &Expr| Expr::binary(op, x.clone(), y.clone(), part);
        let (re, im) = match op {
            BinaryOp::Add => (bin(BinOp::Add, &a, &c), bin(BinOp::Add, &b, &d)),
            BinaryOp::Sub => (bin(BinOp::Sub, &a, &c), bin(BinOp::Sub, &b, &d)),
            BinaryOp::Mul => (
                bin(BinOp::Sub, &bin(BinOp::Mul, &a, &c), &bin(BinOp::Mul, &b, &d)),
                bin(BinOp::Add, &bin(BinOp::Mul, &a, &d), &bin(BinOp::Mul, &b, &c)),
            ),
            BinaryOp::Div if matches!(elem, ComplexElem::Int(_)) => self.integer_division(elem, wide, (&a, &b), (&c, &d), loc)?,
            BinaryOp::Div => {
                let den = bin(BinOp::Add, &bin(BinOp::Mul, &c, &c), &bin(BinOp::Mul, &d, &d));
                let re_num = bin(BinOp::Add, &bin(BinOp::Mul, &a, &c), &bin(BinOp::Mul, &b, &d));
                let im_num = bin(BinOp::Sub, &bin(BinOp::Mul, &b, &c), &bin(BinOp::Mul, &a, &d));
                (bin(BinOp::Div, &re_num, &den), bin(BinOp::Div, &im_num, &den))
            }
            _ => return Err(self.error(loc, "invalid operands to a complex operator")),
        };
        let (re, im) = (self.convert_part(re, wide, elem, loc)?, self.convert_part(im, wide, elem, loc)?);
        let value = self.complex_value(elem, re, im);
        let e = self.temp(value.e, &value.ty, loc);
        Ok(Val { e, ..value })
    }

    /// `(ar + ai·i) / (br + bi·i)` on integer parts, as GCC computes it
    /// (tree-complex.cc, `expand_complex_div_wide`: Smith's method, each
    /// step in the part type `elem`, wrapping): where `|br| < |bi|`,
    /// `ratio = br / bi`, `div = br·ratio + bi`, the parts
    /// `(ar·ratio + ai) / div` and `(ai·ratio - ar) / div`; otherwise
    /// `ratio = bi / br`, `div = bi·ratio + br`, the parts
    /// `(ai·ratio + ar) / div` and `(ai - ar·ratio) / div`. The operands
    /// and results are in the promoted type `wide`; only the branch taken
    /// divides (so only a zero `br` and `bi` divide by zero, not a
    /// `br² + bi²` that wraps to zero).
    fn integer_division(
        &mut self,
        elem: ComplexElem,
        wide: ComplexElem,
        (ar, ai): (&Expr, &Expr),
        (br, bi): (&Expr, &Expr),
        loc: Loc,
    ) -> R<(Expr, Expr)> {
        let part = self.ir_ty(&wide.part_type());
        let bool_ty = self.prog.types.bool();
        // One step of GCC's: computed in `wide`, wrapped to the part type.
        let step = |s: &mut Self, op, x: &Expr, y: &Expr| -> R<Expr> {
            let value = s.convert_part(Expr::binary(op, x.clone(), y.clone(), part), wide, elem, loc)?;
            s.convert_part(value, elem, wide, loc)
        };
        let (abs_br, abs_bi) = (self.part_magnitude(elem, wide, br, loc)?, self.part_magnitude(elem, wide, bi, loc)?);
        let smaller_real = Expr::binary(BinOp::Lt, abs_br, abs_bi, bool_ty);
        let ratio = step(self, BinOp::Div, br, bi)?;
        let scaled = step(self, BinOp::Mul, br, &ratio)?;
        let div = step(self, BinOp::Add, &scaled, bi)?;
        let scaled = step(self, BinOp::Mul, ar, &ratio)?;
        let tr = step(self, BinOp::Add, &scaled, ai)?;
        let scaled = step(self, BinOp::Mul, ai, &ratio)?;
        let ti = step(self, BinOp::Sub, &scaled, ar)?;
        let when_smaller = (step(self, BinOp::Div, &tr, &div)?, step(self, BinOp::Div, &ti, &div)?);
        let ratio = step(self, BinOp::Div, bi, br)?;
        let scaled = step(self, BinOp::Mul, bi, &ratio)?;
        let div = step(self, BinOp::Add, &scaled, br)?;
        let scaled = step(self, BinOp::Mul, ai, &ratio)?;
        let tr = step(self, BinOp::Add, &scaled, ar)?;
        let scaled = step(self, BinOp::Mul, ar, &ratio)?;
        let ti = step(self, BinOp::Sub, ai, &scaled)?;
        let otherwise = (step(self, BinOp::Div, &tr, &div)?, step(self, BinOp::Div, &ti, &div)?);
        let pick = |smaller: Expr, other: Expr| Expr::new(ExprKind::Ite(Box::new(smaller_real.clone()), Box::new(smaller), Box::new(other)), part);
        Ok((pick(when_smaller.0, otherwise.0), pick(when_smaller.1, otherwise.1)))
    }

    /// GCC's `ABS_EXPR` of a part `x` (in `wide`) of a signed type: in the
    /// part type, so the most negative value stays itself; negated through
    /// the unsigned type (`~x + 1`), which no overflow check flags. An
    /// unsigned part is its own magnitude.
    fn part_magnitude(&mut self, elem: ComplexElem, wide: ComplexElem, x: &Expr, loc: Loc) -> R<Expr> {
        let (ComplexElem::Int(kind), ComplexElem::Int(wide_kind)) = (elem, wide) else {
            return Err(self.error(loc, "internal error: integer complex division of floating parts"));
        };
        if !kind.is_signed() {
            return Ok(x.clone());
        }
        let part = self.ir_ty(&wide.part_type());
        let unsigned = self.ir_ty(&CType::new(Kind::Int(wide_kind.to_unsigned())));
        let bool_ty = self.prog.types.bool();
        let flipped = Expr::unary(UnOp::BitNot, Expr::cast(x.clone(), unsigned), unsigned);
        let negated = Expr::cast(Expr::binary(BinOp::Add, flipped, Expr::int(1, unsigned), unsigned), part);
        let negative = Expr::binary(BinOp::Lt, x.clone(), Expr::int(0, part), bool_ty);
        let magnitude = Expr::new(ExprKind::Ite(Box::new(negative), Box::new(negated), Box::new(x.clone())), part);
        let wrapped = self.convert_part(magnitude, wide, elem, loc)?;
        self.convert_part(wrapped, elem, wide, loc)
    }

    /// A part of type `from` converted to the part type of `to`.
    fn convert_part(&mut self, e: Expr, from: ComplexElem, to: ComplexElem, loc: Loc) -> R<Expr> {
        if from == to {
            return Ok(e);
        }
        let value = Val { e, ty: from.part_type(), lvalue: false, bit_width: None };
        self.cast_to(value, &to.part_type(), loc, true)
    }

    /// `l == r` (or `!=`) on the parts, as an `int`.
    fn complex_equality(&mut self, equal: bool, (a, b): (Expr, Expr), (c, d): (Expr, Expr)) -> Val {
        let bt = self.prog.types.bool();
        let same = Expr::binary(BinOp::And, Expr::binary(BinOp::Eq, a, c, bt), Expr::binary(BinOp::Eq, b, d, bt), bt);
        let result = if equal { same } else { Expr::unary(UnOp::Not, same, bt) };
        let int = CType::int();
        let irty = self.ir_ty(&int);
        Val { e: Expr::cast(result, irty), ty: int, lvalue: false, bit_width: None }
    }

    /// `-z`, `+z` and GNU `~z` (conjugate).
    pub(super) fn complex_unary(&mut self, negate_real: bool, v: Val, loc: Loc) -> R<Val> {
        let Kind::Complex(elem) = v.ty.kind else {
            return Err(self.error(loc, "internal error: complex operation on a real value"));
        };
        let part = self.ir_ty(&elem.part_type());
        let (re, im) = (self.complex_part(&v, elem, false), self.complex_part(&v, elem, true));
        let re = if negate_real { Expr::unary(UnOp::Neg, re, part) } else { re };
        let value = self.complex_value(elem, re, Expr::unary(UnOp::Neg, im, part));
        let e = self.temp(value.e, &value.ty, loc);
        Ok(Val { e, ..value })
    }

    /// GNU `__real__ x` / `__imag__ x`: a part of a complex lvalue is an
    /// lvalue; of a real value, the value itself or zero.
    pub(super) fn real_imag(&mut self, v: Val, imaginary: bool, loc: Loc) -> R<Val> {
        match v.ty.kind {
            Kind::Complex(elem) => {
                let e = self.complex_part(&v, elem, imaginary);
                Ok(Val { e, ty: elem.part_type().with_quals(v.ty.quals), lvalue: v.lvalue, bit_width: None })
            }
            _ if v.ty.is_arithmetic() => {
                let v = self.decay(v);
                if !imaginary {
                    return Ok(v);
                }
                let irty = self.ir_ty(&v.ty);
                let zero = if v.ty.is_real_float() { ExprKind::FloatConst(0) } else { ExprKind::IntConst(0) };
                Ok(Val { e: Expr::new(zero, irty), ..v })
            }
            _ => Err(self.error(loc, "`__real__`/`__imag__` of a non-arithmetic value")),
        }
    }
}
