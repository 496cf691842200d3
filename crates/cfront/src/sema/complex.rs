//! Complex floating types (`_Complex float/double/long double`): a value
//! is the IR array `{real, imaginary}`. Arithmetic is lowered on the parts
//! with the textbook formulas (multiplication `(ac-bd) + (ad+bc)i`,
//! division by `c²+d²`); results that overflow or involve infinities and
//! NaNs may differ from a C library that implements Annex G's special
//! cases. Complex integer types are reported as unsupported.

use super::ctype::{CType, FloatKind, Kind};
use super::expr::Val;
use super::{Sema, R};
use crate::ast::BinaryOp;
use ir::{BinOp, Expr, ExprKind, Loc, UnOp};

impl<'a> Sema<'a> {
    /// The real or imaginary part of a complex value, as an expression.
    pub(super) fn complex_part(&mut self, v: &Val, kind: FloatKind, imaginary: bool) -> Expr {
        if let ExprKind::ArrayLit(parts) = &v.e.kind {
            if let Some(part) = parts.get(usize::from(imaginary)) {
                return part.clone();
            }
        }
        let part_ir = self.ir_ty(&CType::new(Kind::Float(kind)));
        let size_t = self.tcx.size_t();
        let index = self.int_val(i128::from(imaginary), size_t).e;
        Expr::new(ExprKind::Index(Box::new(v.e.clone()), Box::new(index)), part_ir)
    }

    /// A complex value from its parts.
    fn complex_value(&mut self, kind: FloatKind, re: Expr, im: Expr) -> Val {
        let ty = CType::new(Kind::Complex(kind));
        let irty = self.ir_ty(&ty);
        Val { e: Expr::new(ExprKind::ArrayLit(vec![re, im]), irty), ty, lvalue: false, bit_width: None }
    }

    /// A complex constant `0 + value·i` (an imaginary literal).
    pub(super) fn imaginary(&mut self, imag: Val) -> Val {
        let Kind::Float(kind) = imag.ty.kind else { return imag };
        let zero = Expr::new(ExprKind::FloatConst(0), imag.e.ty);
        self.complex_value(kind, zero, imag.e)
    }

    /// Both parts of an arithmetic value converted to the float `kind`.
    fn parts_as(&mut self, v: Val, kind: FloatKind, loc: Loc) -> R<(Expr, Expr)> {
        let part = CType::new(Kind::Float(kind));
        let part_ir = self.ir_ty(&part);
        if let Kind::Complex(from) = v.ty.kind {
            let (re, im) = (self.complex_part(&v, from, false), self.complex_part(&v, from, true));
            if from == kind {
                return Ok((re, im));
            }
            return Ok((Expr::cast(re, part_ir), Expr::cast(im, part_ir)));
        }
        let re = self.cast_to(v, &part, loc, true)?;
        Ok((re, Expr::new(ExprKind::FloatConst(0), part_ir)))
    }

    /// Converts an arithmetic value to or from a complex type.
    pub(super) fn complex_convert(&mut self, v: Val, to: &CType, loc: Loc) -> R<Expr> {
        match (&v.ty.kind, &to.kind) {
            (_, Kind::Complex(kind)) if v.ty.is_arithmetic() => {
                let kind = *kind;
                let (re, im) = self.parts_as(v, kind, loc)?;
                Ok(self.complex_value(kind, re, im).e)
            }
            (Kind::Complex(from), _) if to.is_bool() => {
                let from = *from;
                let b = self.prog.types.bool();
                let (re, im) = (self.complex_part(&v, from, false), self.complex_part(&v, from, true));
                let zero = Expr::new(ExprKind::FloatConst(0), re.ty);
                let re_set = Expr::binary(BinOp::Ne, re, zero.clone(), b);
                let im_set = Expr::binary(BinOp::Ne, im, zero, b);
                Ok(Expr::binary(BinOp::Or, re_set, im_set, b))
            }
            (Kind::Complex(from), _) if to.is_arithmetic() => {
                let from = *from;
                let re = self.complex_part(&v, from, false);
                let part = Val { e: re, ty: CType::new(Kind::Float(from)), lvalue: false, bit_width: None };
                self.cast_to(part, to, loc, true)
            }
            _ => Err(self.error(loc, "invalid conversion of a complex value")),
        }
    }

    /// `l op r` where an operand is complex; both become complex of `kind`.
    pub(super) fn complex_arith(&mut self, op: BinaryOp, l: Val, r: Val, kind: FloatKind, loc: Loc) -> R<Val> {
        let part = self.ir_ty(&CType::new(Kind::Float(kind)));
        let (a, b) = self.parts_as(l, kind, loc)?;
        let (c, d) = self.parts_as(r, kind, loc)?;
        let bin = |op, x: &Expr, y: &Expr| Expr::binary(op, x.clone(), y.clone(), part);
        let (re, im) = match op {
            BinaryOp::Add => (bin(BinOp::Add, &a, &c), bin(BinOp::Add, &b, &d)),
            BinaryOp::Sub => (bin(BinOp::Sub, &a, &c), bin(BinOp::Sub, &b, &d)),
            BinaryOp::Mul => (
                bin(BinOp::Sub, &bin(BinOp::Mul, &a, &c), &bin(BinOp::Mul, &b, &d)),
                bin(BinOp::Add, &bin(BinOp::Mul, &a, &d), &bin(BinOp::Mul, &b, &c)),
            ),
            BinaryOp::Div => {
                let den = bin(BinOp::Add, &bin(BinOp::Mul, &c, &c), &bin(BinOp::Mul, &d, &d));
                let re_num = bin(BinOp::Add, &bin(BinOp::Mul, &a, &c), &bin(BinOp::Mul, &b, &d));
                let im_num = bin(BinOp::Sub, &bin(BinOp::Mul, &b, &c), &bin(BinOp::Mul, &a, &d));
                (bin(BinOp::Div, &re_num, &den), bin(BinOp::Div, &im_num, &den))
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                let bt = self.prog.types.bool();
                let same = Expr::binary(
                    BinOp::And,
                    Expr::binary(BinOp::Eq, a, c, bt),
                    Expr::binary(BinOp::Eq, b, d, bt),
                    bt,
                );
                let result = if op == BinaryOp::Eq { same } else { Expr::unary(UnOp::Not, same, bt) };
                let int = CType::int();
                let irty = self.ir_ty(&int);
                return Ok(Val { e: Expr::cast(result, irty), ty: int, lvalue: false, bit_width: None });
            }
            _ => return Err(self.error(loc, "invalid operands to a complex operator")),
        };
        let value = self.complex_value(kind, re, im);
        let e = self.temp(value.e, &value.ty, loc);
        Ok(Val { e, ..value })
    }

    /// `-z`, `+z` and GNU `~z` (conjugate).
    pub(super) fn complex_unary(&mut self, negate_real: bool, v: Val, loc: Loc) -> R<Val> {
        let Kind::Complex(kind) = v.ty.kind else {
            return Err(self.error(loc, "internal error: complex operation on a real value"));
        };
        let part = self.ir_ty(&CType::new(Kind::Float(kind)));
        let (re, im) = (self.complex_part(&v, kind, false), self.complex_part(&v, kind, true));
        let re = if negate_real { Expr::unary(UnOp::Neg, re, part) } else { re };
        let value = self.complex_value(kind, re, Expr::unary(UnOp::Neg, im, part));
        let e = self.temp(value.e, &value.ty, loc);
        Ok(Val { e, ..value })
    }

    /// GNU `__real__ x` / `__imag__ x`: a part of a complex lvalue is an
    /// lvalue; of a real value, the value itself or zero.
    pub(super) fn real_imag(&mut self, v: Val, imaginary: bool, loc: Loc) -> R<Val> {
        match v.ty.kind {
            Kind::Complex(kind) => {
                let e = self.complex_part(&v, kind, imaginary);
                Ok(Val { e, ty: CType::new(Kind::Float(kind)).with_quals(v.ty.quals), lvalue: v.lvalue, bit_width: None })
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
