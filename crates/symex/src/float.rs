//! Floating-point operators on terms: values are kept as their IEEE bits
//! (see [`crate::repr`]) and converted to SMT floating-point terms around
//! each operation, rounded by the current value of the program's
//! rounding-mode variable (see `ir::rounding`; nearest-even without one),
//! which may be symbolic. The x87 80-bit format is not supported. A NaN produced by arithmetic gets the canonical quiet NaN
//! bits (positive sign).

use crate::exec::Symex;
use crate::{repr, Result, Stop};
use ir::{BinOp, FloatFormat, Type, TypeId};
use smt::{BvValue, Op, RoundingMode, Sort, TermId};

impl<'a> Symex<'a> {
    /// SMT `(exponent, significand)` widths of a float type.
    fn float_format(&self, ty: TypeId) -> Result<(u32, u32)> {
        match self.program.types.get(ty) {
            Type::Float(FloatFormat::X87Extended) => {
                Err(Stop::unsupported("x87 long double arithmetic", self.loc))
            }
            Type::Float(format) => Ok((format.exponent_bits(), format.significand_bits())),
            _ => unreachable!("float_format of a non-float type"),
        }
    }

    fn fp_of_bits(&mut self, bits: TermId, ty: TypeId) -> Result<TermId> {
        let (exp, sig) = self.float_format(ty)?;
        Ok(self.store.mk(Op::FpFromBits { exp, sig }, &[bits]))
    }

    fn bits_of_fp(&mut self, fp: TermId) -> TermId {
        self.store.mk(Op::FpToBits, &[fp])
    }

    /// The rounding mode the program state selects, as an SMT term.
    fn rounding_mode(&mut self) -> Result<TermId> {
        let nearest_even = self.store.rm_const(RoundingMode::Rne);
        let Some(variable) = self.rounding_variable else { return Ok(nearest_even) };
        let ty = self.program.symbols[variable].ty;
        let value = self.eval(&ir::Expr::sym(variable, ty))?;
        let Some(width) = self.store.sort(value).bv_width() else {
            return Err(Stop::unsupported("a rounding-mode variable that is not an integer", self.loc));
        };
        let mut mode = nearest_even;
        for ir_mode in ir::RoundingMode::ALL {
            let selector = self.store.bv_const(smt::BvValue::from_u128(width, ir_mode.value()));
            let selected = self.store.eq(value, selector);
            let smt_mode = self.store.rm_const(smt_rounding(ir_mode));
            mode = self.store.ite(selected, smt_mode, mode);
        }
        Ok(mode)
    }

    /// `a op b` on floats of type `ty` (bits in, bits or `Bool` out).
    pub(crate) fn float_binary(&mut self, op: BinOp, x: TermId, y: TermId, ty: TypeId) -> Result<TermId> {
        let (fx, fy) = (self.fp_of_bits(x, ty)?, self.fp_of_bits(y, ty)?);
        let rm = if op.is_comparison() { self.store.rm_const(RoundingMode::Rne) } else { self.rounding_mode()? };
        let arithmetic = |op| (op, true);
        let (smt_op, rounded) = match op {
            BinOp::Add => arithmetic(Op::FpAdd),
            BinOp::Sub => arithmetic(Op::FpSub),
            BinOp::Mul => arithmetic(Op::FpMul),
            BinOp::Div => arithmetic(Op::FpDiv),
            BinOp::Eq => (Op::FpEq, false),
            BinOp::Ne => {
                let eq = self.store.mk(Op::FpEq, &[fx, fy]);
                return Ok(self.store.not(eq));
            }
            BinOp::Lt => (Op::FpLt, false),
            BinOp::Le => (Op::FpLeq, false),
            BinOp::Gt => (Op::FpGt, false),
            BinOp::Ge => (Op::FpGeq, false),
            other => return Err(Stop::unsupported(format!("operator {other:?} on floating-point values"), self.loc)),
        };
        if rounded {
            let result = self.store.mk(smt_op, &[rm, fx, fy]);
            Ok(self.bits_of_fp(result))
        } else {
            Ok(self.store.mk(smt_op, &[fx, fy]))
        }
    }

    /// The math.h functions with an exact IEEE result (`sqrt`, `fma`,
    /// `remainder`, `fmod`, with their `f` forms) called as `func` with
    /// float bits `values`, in the current rounding mode; `None` for other
    /// functions.
    pub(crate) fn exact_math(&mut self, func: ir::FuncId, values: &[TermId]) -> Result<Option<TermId>> {
        let function = &self.program.functions[func];
        let name = function.name.as_str();
        let (base, arity) = match name.trim_end_matches('f') {
            "sqrt" => ("sqrt", 1),
            "fma" => ("fma", 3),
            "remainder" => ("remainder", 2),
            "fmod" => ("fmod", 2),
            _ => return Ok(None),
        };
        let Type::Function(sig) = self.program.types.get(function.ty) else { return Ok(None) };
        let ty = sig.ret;
        let Type::Float(format) = *self.program.types.get(ty) else { return Ok(None) };
        let fits = |v: &TermId| self.store.sort(*v).bv_width() == Some(format.storage_bits());
        if values.len() != arity || !values.iter().all(fits) {
            return Err(Stop::unsupported(format!("call of `{name}` with arguments of other types"), self.loc));
        }
        let mut operands = Vec::with_capacity(arity);
        for &value in values {
            operands.push(self.fp_of_bits(value, ty)?);
        }
        let rm = self.rounding_mode()?;
        let result = match (base, operands.as_slice()) {
            ("sqrt", &[x]) => self.store.mk(Op::FpSqrt, &[rm, x]),
            ("fma", &[x, y, z]) => self.store.mk(Op::FpFma, &[rm, x, y, z]),
            ("remainder", &[x, y]) => self.store.mk(Op::FpRem, &[x, y]),
            (_, &[x, y]) => self.fmod(rm, x, y),
            _ => unreachable!("arity checked"),
        };
        Ok(Some(self.bits_of_fp(result)))
    }

    /// `fmod(x, y)`: the IEEE remainder, moved by one exact step of `|y|`
    /// towards `x`'s sign when its sign differs (the quotient truncated
    /// instead of rounded to nearest).
    fn fmod(&mut self, rm: TermId, x: TermId, y: TermId) -> TermId {
        let r = self.store.mk(Op::FpRem, &[x, y]);
        let (r_negative, x_negative) = (self.store.mk(Op::FpIsNegative, &[r]), self.store.mk(Op::FpIsNegative, &[x]));
        let r_zero = self.store.mk(Op::FpIsZero, &[r]);
        let signs_agree = self.store.eq(r_negative, x_negative);
        let signs_differ = self.store.not(signs_agree);
        let r_nonzero = self.store.not(r_zero);
        let step_needed = self.store.and2(r_nonzero, signs_differ);
        let magnitude = self.store.mk(Op::FpAbs, &[y]);
        let negated = self.store.mk(Op::FpNeg, &[magnitude]);
        let step = self.store.ite(x_negative, negated, magnitude);
        let stepped = self.store.mk(Op::FpAdd, &[rm, r, step]);
        self.store.ite(step_needed, stepped, r)
    }

    /// `-x`: flips the sign bit (exact, NaN payloads included).
    pub(crate) fn float_negate(&mut self, x: TermId) -> TermId {
        let w = self.store.sort(x).bv_width().expect("float bits");
        let sign = self.store.bv_const(smt::BvValue::one(w).shl_by(w - 1));
        self.store.bv_xor(x, sign)
    }

    /// Conversions from or to a float type (`value` of type `from`).
    pub(crate) fn float_cast(&mut self, value: TermId, from: TypeId, to: TypeId) -> Result<TermId> {
        let types = &self.program.types;
        let (from_float, to_float) = (types.is_float(from), types.is_float(to));
        if types.is_pointer(from) || types.is_pointer(to) {
            return Err(Stop::unsupported("conversion between pointer and floating point", self.loc));
        }
        let rm = self.rounding_mode()?;
        if from_float && to_float {
            if types.get(from) == types.get(to) {
                return Ok(value);
            }
            let (exp, sig) = self.float_format(to)?;
            let fp = self.fp_of_bits(value, from)?;
            let converted = self.store.mk(Op::ToFp { exp, sig }, &[rm, fp]);
            return Ok(self.bits_of_fp(converted));
        }
        if to_float {
            let (exp, sig) = self.float_format(to)?;
            let (bits, signed) = match self.store.sort(value) {
                Sort::Bool => {
                    let one = self.store.bv_u64(1, 1);
                    let zero = self.store.bv_u64(1, 0);
                    (self.store.ite(value, one, zero), false)
                }
                _ => (value, types.is_signed(from)),
            };
            let op = if signed { Op::ToFpFromSbv { exp, sig } } else { Op::ToFpFromUbv { exp, sig } };
            let converted = self.store.mk(op, &[rm, bits]);
            return Ok(self.bits_of_fp(converted));
        }
        let fp = self.fp_of_bits(value, from)?;
        match repr::value_sort(self.program, to, self.loc)? {
            Sort::Bool => {
                let zero = self.store.mk(Op::FpIsZero, &[fp]);
                Ok(self.store.not(zero))
            }
            Sort::BitVec(w) => {
                // C truncates towards zero; out-of-range values are undefined
                // (the instrumentation's float-to-int check), here unspecified.
                let rtz = self.store.rm_const(RoundingMode::Rtz);
                let signed = self.program.types.is_signed(to);
                self.prefer_in_range(fp, from, w, signed)?;
                let op = if signed { Op::FpToSbv(w) } else { Op::FpToUbv(w) };
                Ok(self.store.mk(op, &[rtz, fp]))
            }
            other => unreachable!("conversion to sort {other:?}"),
        }
    }
}

impl Symex<'_> {
    /// Prefers counterexamples whose conversion of the float `fp` (of type
    /// `from`) to a `width`-bit integer is in range: the interpreter stops
    /// at an out-of-range one, which C leaves undefined.
    fn prefer_in_range(&mut self, fp: TermId, from: TypeId, width: u32, signed: bool) -> Result<()> {
        if width >= 128 {
            return Ok(());
        }
        let (exp, sig) = self.float_format(from)?;
        let rtz = self.store.rm_const(RoundingMode::Rtz);
        // Both bounds are powers of two (or zero), exact in every format.
        let value_bits = if signed { width - 1 } else { width };
        let low = if signed { -(1i128 << value_bits) } else { 0 };
        let low = self.store.bv_const(BvValue::from_i128(width + 1, low));
        let high = self.store.bv_const(BvValue::from_u128(width + 1, 1u128 << value_bits));
        let low = self.store.mk(Op::ToFpFromSbv { exp, sig }, &[rtz, low]);
        let high = self.store.mk(Op::ToFpFromSbv { exp, sig }, &[rtz, high]);
        let truncated = self.store.mk(Op::FpRoundToIntegral, &[rtz, fp]);
        let above_low = self.store.mk(Op::FpLeq, &[low, truncated]);
        let below_high = self.store.mk(Op::FpLt, &[truncated, high]);
        let in_range = self.store.and2(above_low, below_high);
        let replayable = self.store.implies(self.state.guard, in_range);
        self.equation.preferences.push(replayable);
        Ok(())
    }
}

fn smt_rounding(mode: ir::RoundingMode) -> RoundingMode {
    match mode {
        ir::RoundingMode::NearestEven => RoundingMode::Rne,
        ir::RoundingMode::NearestAway => RoundingMode::Rna,
        ir::RoundingMode::Upward => RoundingMode::Rtp,
        ir::RoundingMode::Downward => RoundingMode::Rtn,
        ir::RoundingMode::TowardZero => RoundingMode::Rtz,
    }
}
