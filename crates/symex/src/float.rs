//! Floating-point operators on terms: values are kept as their IEEE bits
//! (see [`crate::repr`]) and converted to SMT floating-point terms around
//! each operation, rounded by the current value of the program's
//! rounding-mode variable (see `ir::rounding`; nearest-even without one),
//! which may be symbolic. A NaN result gets the bits x86 gives it: SSE's
//! for float and double (the first NaN operand quieted, else the negative
//! default NaN), x87's for `long double` operands (the larger significand
//! wins), as `ieee::Fp::x86_nan` and `ieee::Fp::x87_nan` give them to the
//! interpreter: the sign and payload of a NaN are observable through its
//! bits and `signbit`.
//!
//! x87 `long double` values are FP(15, 64) terms; their 80-bit images
//! (explicit integer bit) are decoded as a 387 or later loads them:
//! pseudo-denormals by the value their bits denote, unnormals,
//! pseudo-infinities and pseudo-NaNs as a NaN (invalid operands), exactly
//! as `ieee::Fp::from_x87_bits`, which the interpreter replays with. Results
//! are stored canonically (integer bit set exactly when the exponent is not
//! zero).

use crate::exec::Symex;
use crate::{repr, Result, Stop};
use ir::{BinOp, FloatFormat, Type, TypeId};
use smt::{BvValue, Op, RoundingMode, Sort, TermId};

impl<'a> Symex<'a> {
    fn float_format(&self, ty: TypeId) -> FloatFormat {
        match self.program.types.get(ty) {
            Type::Float(format) => *format,
            _ => unreachable!("float_format of a non-float type"),
        }
    }

    /// SMT `(exponent, significand)` widths of a float type.
    fn smt_format(&self, ty: TypeId) -> (u32, u32) {
        let format = self.float_format(ty);
        (format.exponent_bits(), format.significand_bits())
    }

    /// The float term of value bits of type `ty`.
    fn fp_of_bits(&mut self, bits: TermId, ty: TypeId) -> TermId {
        let format = self.float_format(ty);
        let (exp, sig) = (format.exponent_bits(), format.significand_bits());
        let ieee_bits = match format {
            FloatFormat::X87Extended => x87_image_to_ieee(self.store, bits),
            _ => bits,
        };
        self.store.mk(Op::FpFromBits { exp, sig }, &[ieee_bits])
    }

    /// The value bits of type `ty` of float term `fp` (of `ty`'s format).
    fn bits_of_fp(&mut self, fp: TermId, ty: TypeId) -> TermId {
        let ieee_bits = self.store.mk(Op::FpToBits, &[fp]);
        match self.float_format(ty) {
            FloatFormat::X87Extended => ieee_to_x87_image(self.store, ieee_bits),
            _ => ieee_bits,
        }
    }

    /// The value bits of type `ty` of the float term `result` of an
    /// operation on `operands` (value bits of type `operand_ty`, in
    /// instruction order), with the NaN x86 gives when `result` is one:
    /// for `long double` operands x87's (see [`Self::x87_operand_nan`]),
    /// else SSE's, the first NaN operand quieted and carried into `ty`'s
    /// format, else the default NaN (sign set, quiet bit only); as
    /// `ieee::Fp::x87_nan` and `ieee::Fp::x86_nan`.
    fn x86_result_bits(&mut self, result: TermId, ty: TypeId, operands: &[TermId], operand_ty: TypeId) -> TermId {
        let (to, from) = (self.float_format(ty), self.float_format(operand_ty));
        let nan = if from == FloatFormat::X87Extended {
            self.x87_operand_nan(operands, operand_ty, to)
        } else {
            let mut nan = self.store.bv_const(x86_default_nan(to));
            for &operand in operands.iter().rev() {
                let operand_fp = self.fp_of_bits(operand, operand_ty);
                let operand_is_nan = self.store.mk(Op::FpIsNaN, &[operand_fp]);
                let operand_ieee = self.ieee_bits(operand, operand_ty);
                let carried = carry_nan(self.store, operand_ieee, from, to);
                nan = self.store.ite(operand_is_nan, carried, nan);
            }
            nan
        };
        let result_is_nan = self.store.mk(Op::FpIsNaN, &[result]);
        let result_ieee = self.store.mk(Op::FpToBits, &[result]);
        let ieee = self.store.ite(result_is_nan, nan, result_ieee);
        match to {
            FloatFormat::X87Extended => ieee_to_x87_image(self.store, ieee),
            _ => ieee,
        }
    }

    /// The NaN x87 makes of the 80-bit `operands` (in `to`'s IEEE-style
    /// encoding), read as a chain of two-operand instructions as
    /// `ieee::Fp::x87_nan` reads them: an unsupported encoding gives the
    /// default NaN, of two NaNs the larger significand wins (the positive
    /// one on a tie), quieted; the default NaN when no operand is a NaN.
    fn x87_operand_nan(&mut self, operands: &[TermId], operand_ty: TypeId, to: FloatFormat) -> TermId {
        let x87 = FloatFormat::X87Extended;
        let none = self.store.bv_const(x86_default_nan(to));
        let Some((&first, rest)) = operands.split_first() else { return none };
        let default = self.store.bv_const(x86_default_nan(x87));
        let quiet = self.store.bv_const(BvValue::one(ieee_width(x87)).shl_by(x87.significand_bits() - 2));
        // An unsupported encoding reads as the default NaN already; it only
        // needs care beside another NaN, which would otherwise be compared.
        let first_fp = self.fp_of_bits(first, operand_ty);
        let mut is_nan = self.store.mk(Op::FpIsNaN, &[first_fp]);
        let mut unsupported = x87_unsupported_encoding(self.store, first);
        let mut nan = x87_image_to_ieee(self.store, first);
        for &image in rest {
            let next_fp = self.fp_of_bits(image, operand_ty);
            let next_is_nan = self.store.mk(Op::FpIsNaN, &[next_fp]);
            let next_unsupported = x87_unsupported_encoding(self.store, image);
            let next = x87_image_to_ieee(self.store, image);
            let both = self.store.and2(is_nan, next_is_nan);
            let larger = x87_larger_significand(self.store, nan, next);
            let only_one = self.store.ite(is_nan, nan, next);
            let chosen = self.store.ite(both, larger, only_one);
            let any_unsupported = self.store.or2(unsupported, next_unsupported);
            nan = self.store.ite(any_unsupported, default, chosen);
            nan = self.store.bv_or(nan, quiet);
            is_nan = self.store.or2(is_nan, next_is_nan);
            unsupported = self.store.false_term();
        }
        let carried = carry_nan(self.store, nan, x87, to);
        self.store.ite(is_nan, carried, none)
    }

    /// The IEEE-style encoding (x87: FP(15, 64) with a hidden integer bit)
    /// of the value bits `bits` of type `ty`.
    fn ieee_bits(&mut self, bits: TermId, ty: TypeId) -> TermId {
        match self.float_format(ty) {
            FloatFormat::X87Extended => x87_image_to_ieee(self.store, bits),
            _ => bits,
        }
    }

    /// The rounding mode the program state selects, as an SMT term.
    pub(crate) fn rounding_mode(&mut self) -> Result<TermId> {
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
        let (fx, fy) = (self.fp_of_bits(x, ty), self.fp_of_bits(y, ty));
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
            Ok(self.x86_result_bits(result, ty, &[x, y], ty))
        } else {
            Ok(self.store.mk(smt_op, &[fx, fy]))
        }
    }

    /// The math.h functions with an exact IEEE result (see
    /// `ir::intrinsics::exact_math_function`) called as `func` with float
    /// bits `values`, in the current rounding mode; `None` for other
    /// functions.
    pub(crate) fn exact_math(&mut self, func: ir::FuncId, values: &[TermId]) -> Result<Option<TermId>> {
        let function = &self.program.functions[func];
        let name = function.name.as_str();
        let Some((base, arity)) = ir::intrinsics::exact_math_function(name) else { return Ok(None) };
        let Type::Function(sig) = self.program.types.get(function.ty) else { return Ok(None) };
        let ty = sig.ret;
        let Type::Float(format) = *self.program.types.get(ty) else { return Ok(None) };
        let fits = |v: &TermId| self.store.sort(*v).bv_width() == Some(format.storage_bits());
        if values.len() != arity || !values.iter().all(fits) {
            return Err(Stop::unsupported(format!("call of `{name}` with arguments of other types"), self.loc));
        }
        let mut operands = Vec::with_capacity(arity);
        for &value in values {
            operands.push(self.fp_of_bits(value, ty));
        }
        let rm = self.rounding_mode()?;
        let result = match (base, operands.as_slice()) {
            ("sqrt", &[x]) => self.store.mk(Op::FpSqrt, &[rm, x]),
            ("fma", &[x, y, z]) => self.store.mk(Op::FpFma, &[rm, x, y, z]),
            ("remainder", &[x, y]) => self.store.mk(Op::FpRem, &[x, y]),
            (_, &[x, y]) => self.fmod(rm, x, y),
            (_, &[x]) => self.round_to_integral(base, rm, x),
            _ => unreachable!("arity checked"),
        };
        Ok(Some(self.x86_result_bits(result, ty, values, ty)))
    }

    /// `trunc`, `floor`, `ceil`, `round` (halfway cases away from zero),
    /// `rint` and `nearbyint` (in the current mode `rm`) of the float term
    /// `x`. Its NaN result gets the x86 rule like other operations: glibc
    /// quiets a NaN operand (`x + x`, `roundsd`, `frndint`).
    fn round_to_integral(&mut self, base: &str, rm: TermId, x: TermId) -> TermId {
        let mode = match ir::intrinsics::fixed_integral_rounding(base) {
            Some(fixed) => self.store.rm_const(smt_rounding(fixed)),
            None => rm,
        };
        self.store.mk(Op::FpRoundToIntegral, &[mode, x])
    }

    /// `fmod(x, y)`: `|x| mod |y|` with the sign of `x` (C17 7.12.10.1).
    /// The IEEE remainder of the magnitudes, moved up by one exact step of
    /// `|y|` when negative (the quotient truncated instead of rounded to
    /// nearest), gives the magnitude; the sign is set from `x` rather than
    /// left to the addition, so a solver sees it without the adder.
    fn fmod(&mut self, rm: TermId, x: TermId, y: TermId) -> TermId {
        let (x_magnitude, y_magnitude) = (self.store.mk(Op::FpAbs, &[x]), self.store.mk(Op::FpAbs, &[y]));
        let r = self.store.mk(Op::FpRem, &[x_magnitude, y_magnitude]);
        let r_negative = self.store.mk(Op::FpIsNegative, &[r]);
        let stepped = self.store.mk(Op::FpAdd, &[rm, r, y_magnitude]);
        let truncated = self.store.ite(r_negative, stepped, r);
        let magnitude = self.store.mk(Op::FpAbs, &[truncated]);
        let negated = self.store.mk(Op::FpNeg, &[magnitude]);
        let x_negative = self.store.mk(Op::FpIsNegative, &[x]);
        self.store.ite(x_negative, negated, magnitude)
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
            let (exp, sig) = self.smt_format(to);
            let fp = self.fp_of_bits(value, from);
            let converted = self.store.mk(Op::ToFp { exp, sig }, &[rm, fp]);
            return Ok(self.x86_result_bits(converted, to, &[value], from));
        }
        if to_float {
            let (exp, sig) = self.smt_format(to);
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
            return Ok(self.bits_of_fp(converted, to));
        }
        let fp = self.fp_of_bits(value, from);
        match repr::value_sort(self.program, to, self.loc)? {
            Sort::Bool => {
                let zero = self.store.mk(Op::FpIsZero, &[fp]);
                Ok(self.store.not(zero))
            }
            Sort::BitVec(w) => {
                // C truncates towards zero; out-of-range values are undefined
                // (the instrumentation's float-to-int check).
                let rtz = self.store.rm_const(RoundingMode::Rtz);
                let signed = self.program.types.is_signed(to);
                let op = if signed { Op::FpToSbv(w) } else { Op::FpToUbv(w) };
                let converted = self.store.mk(op, &[rtz, fp]);
                let in_range = self.converts_in_range(fp, from, w, signed);
                let replayable = self.store.implies(self.state.guard, in_range);
                self.equation.preferences.push(replayable);
                if w >= 128 {
                    return Ok(converted);
                }
                if signed && (w == 32 || w == 64) {
                    // cvttsd2si/fistp give the integer indefinite 10…0, as
                    // `FpToSbv` does.
                    return Ok(converted);
                }
                // Narrow and unsigned targets: gcc truncates a wider
                // conversion, so the value depends on the instructions
                // chosen; any value (the replay stops there as undefined).
                let unspecified = self.store.var("out_of_range_conversion", Sort::BitVec(w));
                Ok(self.store.ite(in_range, converted, unspecified))
            }
            other => unreachable!("conversion to sort {other:?}"),
        }
    }
}

impl Symex<'_> {
    /// Whether the float `fp` (of type `from`) truncated towards zero is
    /// in the range of a `width`-bit integer. Counterexamples
    /// are steered into it: the interpreter stops at an out-of-range
    /// conversion, which C leaves undefined.
    fn converts_in_range(&mut self, fp: TermId, from: TypeId, width: u32, signed: bool) -> TermId {
        let (exp, sig) = self.smt_format(from);
        let rtz = self.store.rm_const(RoundingMode::Rtz);
        // Both bounds are powers of two (or zero), exact in every format.
        let value_bits = if signed { width - 1 } else { width };
        // Two bits more than the target, so 2^width is positive as signed.
        let low = if signed { BvValue::signed_min(width).sign_extend(2) } else { BvValue::zero(width + 2) };
        let low = self.store.bv_const(low);
        let high = self.store.bv_const(BvValue::one(width + 2).shl_by(value_bits));
        let low = self.store.mk(Op::ToFpFromSbv { exp, sig }, &[rtz, low]);
        let high = self.store.mk(Op::ToFpFromSbv { exp, sig }, &[rtz, high]);
        let truncated = self.store.mk(Op::FpRoundToIntegral, &[rtz, fp]);
        let above_low = self.store.mk(Op::FpLeq, &[low, truncated]);
        let below_high = self.store.mk(Op::FpLt, &[truncated, high]);
        self.store.and2(above_low, below_high)
    }
}

/// The IEEE-style FP(15, 64) encoding (sign, exponent, 63 fraction bits) of
/// an 80-bit x87 image, decoded as `ieee::Fp::from_x87_bits` does.
pub(crate) fn x87_image_to_ieee(store: &mut smt::TermStore, image: TermId) -> TermId {
    let sign = store.extract(79, 79, image);
    let exponent = store.extract(78, 64, image);
    let integer_bit = store.extract(63, 63, image);
    let fraction = store.extract(62, 0, image);
    let zero_exponent = store.bv_u64(15, 0);
    let exponent_is_zero = store.eq(exponent, zero_exponent);
    let one_bit = store.bv_u64(1, 1);
    let integer_bit_set = store.eq(integer_bit, one_bit);
    // A pseudo-denormal has the scale of the smallest normal exponent.
    let pseudo_denormal = store.and2(exponent_is_zero, integer_bit_set);
    let smallest_exponent = store.bv_u64(15, 1);
    let ieee_exponent = store.ite(pseudo_denormal, smallest_exponent, exponent);
    let sign_and_exponent = store.concat(sign, ieee_exponent);
    let ieee = store.concat(sign_and_exponent, fraction);
    let invalid = x87_unsupported_encoding(store, image);
    let nan = store.bv_const(x86_default_nan(FloatFormat::X87Extended));
    store.ite(invalid, nan, ieee)
}

/// Whether the 80-bit x87 `image` is an unnormal, pseudo-infinity or
/// pseudo-NaN (exponent not zero, integer bit clear).
fn x87_unsupported_encoding(store: &mut smt::TermStore, image: TermId) -> TermId {
    let exponent = store.extract(78, 64, image);
    let integer_bit = store.extract(63, 63, image);
    let zero_exponent = store.bv_u64(15, 0);
    let exponent_is_zero = store.eq(exponent, zero_exponent);
    let zero_bit = store.bv_u64(1, 0);
    let integer_bit_clear = store.eq(integer_bit, zero_bit);
    let exponent_nonzero = store.not(exponent_is_zero);
    store.and2(exponent_nonzero, integer_bit_clear)
}

/// Of the two FP(15, 64) NaN encodings `a` and `b`, the one with the larger
/// significand, the positive one on a tie (the x87 rule).
fn x87_larger_significand(store: &mut smt::TermStore, a: TermId, b: TermId) -> TermId {
    let (fraction_a, fraction_b) = (store.extract(62, 0, a), store.extract(62, 0, b));
    let b_larger = store.bv_ult(fraction_a, fraction_b);
    let tie = store.eq(fraction_a, fraction_b);
    let a_sign = store.extract(78, 78, a);
    let one_bit = store.bv_u64(1, 1);
    let a_negative = store.eq(a_sign, one_bit);
    let b_wins_tie = store.and2(tie, a_negative);
    let pick_b = store.or2(b_larger, b_wins_tie);
    store.ite(pick_b, b, a)
}

/// Width of the IEEE-style encoding of `format` (x87: 79 bits, no
/// explicit integer bit).
fn ieee_width(format: FloatFormat) -> u32 {
    format.exponent_bits() + format.significand_bits()
}

/// The NaN encoding `nan` of `from` carried into `to` as x86 conversions
/// carry it: sign and the top fraction bits kept, quiet bit set.
fn carry_nan(store: &mut smt::TermStore, nan: TermId, from: FloatFormat, to: FloatFormat) -> TermId {
    let (from_fraction, to_fraction) = (from.significand_bits() - 1, to.significand_bits() - 1);
    let sign = store.extract(ieee_width(from) - 1, ieee_width(from) - 1, nan);
    let fraction = if from_fraction >= to_fraction {
        store.extract(from_fraction - 1, from_fraction - to_fraction, nan)
    } else {
        let low = store.extract(from_fraction - 1, 0, nan);
        let zeros = store.bv_u64(to_fraction - from_fraction, 0);
        store.concat(low, zeros)
    };
    let quiet = store.bv_const(BvValue::one(to_fraction).shl_by(to_fraction - 1));
    let fraction = store.bv_or(fraction, quiet);
    let exponent = store.bv_const(BvValue::ones(to.exponent_bits()));
    let head = store.concat(sign, exponent);
    store.concat(head, fraction)
}

/// The default NaN x86 produces, in the IEEE-style encoding of `format`
/// (x87: FP(15, 64)): sign set, exponent all ones, top fraction bit set.
fn x86_default_nan(format: FloatFormat) -> BvValue {
    let width = ieee_width(format);
    let fraction = format.significand_bits() - 1;
    let sign_and_exponent = BvValue::ones(1 + format.exponent_bits()).zero_extend(fraction).shl_by(fraction);
    sign_and_exponent.or(&BvValue::one(width).shl_by(fraction - 1))
}

/// The canonical 80-bit x87 image of an FP(15, 64) encoding: the integer
/// bit is set exactly when the exponent is not zero.
fn ieee_to_x87_image(store: &mut smt::TermStore, ieee: TermId) -> TermId {
    let sign_and_exponent = store.extract(78, 63, ieee);
    let exponent = store.extract(77, 63, ieee);
    let fraction = store.extract(62, 0, ieee);
    let zero_exponent = store.bv_u64(15, 0);
    let exponent_is_zero = store.eq(exponent, zero_exponent);
    let (zero_bit, one_bit) = (store.bv_u64(1, 0), store.bv_u64(1, 1));
    let integer_bit = store.ite(exponent_is_zero, zero_bit, one_bit);
    let head = store.concat(sign_and_exponent, integer_bit);
    store.concat(head, fraction)
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
