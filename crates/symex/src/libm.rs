//! The math.h functions without an exact IEEE definition (see
//! [`ir::libm`]). A call's result is a fresh value constrained only by
//! facts every C library with an error of a few ulps satisfies: the
//! special values of C11 Annex F, NaN propagation, the range and sign of
//! the mathematical function, and that equal arguments (in one rounding
//! mode) give equal results when the library computes both. A call whose
//! arguments are constants, in rounding to nearest, also lies within
//! [`ir::libm::CONSTANT_ARGUMENT_ULPS`] of the host library's value; such a
//! call is *foldable*: a compiler may compute it instead of the library
//! (gcc does, correctly rounded, even at -O0), so it is tied to no other
//! call, and a violation is reported only if it happens whatever value
//! the facts admit there (see the engine). The interpreter answers with the host
//! library's value, so a violation that depends on the choice made here is
//! confirmed or refuted by the replay; after a refutation the engine adds
//! the same window at the refuted arguments ([`host_lemma`]) and searches
//! again.

use crate::equation::InexactCall;
use crate::exec::Symex;
use crate::Result;
use ir::libm::{host_value, Inexact, CONSTANT_ARGUMENT_ULPS};
use ir::{FloatFormat, FuncId, Type};
use smt::{BvValue, Op, RoundingMode, Sort, TermId, TermStore};

/// What the host library says about one call at given argument values,
/// for an engine whose counterexample the replay refuted: `window` (a
/// fact, by the constant-argument rule) and `exact` (the oracle's value,
/// a preference).
#[derive(Clone, Copy, Debug)]
pub struct HostLemma {
    pub window: TermId,
    pub exact: TermId,
}

/// The lemma for `call` when its arguments have the bits `args`; `None`
/// when the host library has no value for them.
pub fn host_lemma(store: &mut TermStore, call: &InexactCall, args: &[u128]) -> Option<HostLemma> {
    let (f, format) = call.function;
    let host = host_value(f, format, args)?;
    let nearest = store.rm_const(RoundingMode::Rne);
    let mut premise = vec![store.eq(call.rounding, nearest)];
    for (&term, &value) in call.args.iter().zip(args) {
        let constant = store.bv_const(BvValue::from_u128(format.storage_bits(), value));
        premise.push(store.eq(term, constant));
    }
    let premise = store.and(&premise);
    let mut facts = Facts::new(store, format, &call.args, call.result);
    let window = facts.window(host);
    let host_bits = facts.bits(host);
    let exact = facts.store.eq(call.result, host_bits);
    Some(HostLemma { window: store.implies(premise, window), exact: store.implies(premise, exact) })
}

impl Symex<'_> {
    /// The result bits of a call of `func` if it is an inexact math
    /// function (with the facts about it assumed); `None` otherwise.
    pub(crate) fn inexact_math(&mut self, func: FuncId, values: &[TermId]) -> Result<Option<TermId>> {
        let function = &self.program.functions[func];
        let Some((f, format)) = Inexact::of_name(&function.name) else { return Ok(None) };
        let Type::Function(sig) = self.program.types.get(function.ty) else { return Ok(None) };
        let width = format.storage_bits();
        let fits = |v: &TermId| self.store.sort(*v).bv_width() == Some(width);
        let returns_format = *self.program.types.get(sig.ret) == Type::Float(format);
        if !returns_format || values.len() != f.arity() || !values.iter().all(fits) {
            return Ok(None);
        }
        let rounding = self.rounding_mode()?;
        let result = self.store.var(&format!("{}#result", function.name), Sort::BitVec(width));
        let mut facts = Facts::new(self.store, format, values, result);
        facts.universal(f);
        let nearest = facts.store.rm_const(RoundingMode::Rne);
        if rounding == nearest {
            facts.near_host_value(f);
        }
        let foldable = facts.constant_arguments().is_some();
        let placeholder = facts.store.bool_const(true);
        let mut call =
            InexactCall { function: (f, format), guard: self.state.guard, rounding, args: values.to_vec(), result, foldable, facts: placeholder };
        // Only run-time calls of one library agree: a call the compiler
        // may fold need not equal the library's (nor another folded one,
        // at -O0 gcc folds `f(0.5)` but not `x = 0.5; f(x)`).
        for earlier in self.equation.inexact_calls.iter().filter(|c| c.function == call.function && !c.foldable && !foldable) {
            facts.deterministic(earlier, &call);
        }
        let all = facts.store.and(&facts.facts);
        call.facts = all;
        self.assume(all);
        self.equation.inexact_calls.push(call);
        Ok(Some(result))
    }
}

/// Facts about one call: `args` and `result` as float terms.
struct Facts<'s> {
    store: &'s mut TermStore,
    format: FloatFormat,
    arg_bits: Vec<TermId>,
    result_bits: TermId,
    args: Vec<TermId>,
    result: TermId,
    facts: Vec<TermId>,
}

impl<'s> Facts<'s> {
    fn new(store: &'s mut TermStore, format: FloatFormat, arg_bits: &[TermId], result_bits: TermId) -> Facts<'s> {
        let args = arg_bits.iter().map(|&bits| float_of_bits(store, format, bits)).collect();
        let result = float_of_bits(store, format, result_bits);
        Facts { store, format, arg_bits: arg_bits.to_vec(), result_bits, args, result, facts: Vec::new() }
    }

    fn fact(&mut self, premise: TermId, conclusion: TermId) {
        let implication = self.store.implies(premise, conclusion);
        self.facts.push(implication);
    }

    fn bits(&mut self, bits: u128) -> TermId {
        self.store.bv_const(BvValue::from_u128(self.format.storage_bits(), bits))
    }

    /// The float constant nearest to `value`.
    fn constant(&mut self, value: f64) -> TermId {
        let bits = self.bits(nearest_bits(self.format, value));
        self.as_float(bits)
    }

    /// A float constant at least `value` (`value` positive, the double
    /// nearest to a real that the constant must bound).
    fn above(&mut self, value: f64) -> TermId {
        let bits = match self.format {
            // Wider than double: the double above the real, exactly.
            FloatFormat::X87Extended => nearest_bits(self.format, value.next_up()),
            // One step above the nearest value, which may lie below the real.
            _ => nearest_bits(self.format, value) + 1,
        };
        let bits = self.bits(bits);
        self.as_float(bits)
    }

    fn as_float(&mut self, bits: TermId) -> TermId {
        float_of_bits(self.store, self.format, bits)
    }

    fn test(&mut self, op: Op, x: TermId) -> TermId {
        self.store.mk(op, &[x])
    }

    fn cmp(&mut self, op: Op, x: TermId, c: f64) -> TermId {
        let c = self.constant(c);
        self.store.mk(op, &[x, c])
    }

    fn not_nan(&mut self, x: TermId) -> TermId {
        let nan = self.test(Op::FpIsNaN, x);
        self.store.not(nan)
    }

    /// The result has exactly the bits of `value`.
    fn result_is(&mut self, value: f64) -> TermId {
        let bits = self.bits(nearest_bits(self.format, value));
        self.store.eq(self.result_bits, bits)
    }

    fn result_between(&mut self, low: TermId, high: TermId) -> TermId {
        let above = self.store.mk(Op::FpLeq, &[low, self.result]);
        let below = self.store.mk(Op::FpLeq, &[self.result, high]);
        self.store.and2(above, below)
    }

    /// A unary function's NaN, infinity and zero cases and its sign.
    fn unary_cases(&mut self, at_zero: Zero, at_infinity: Option<(f64, f64)>, keeps_sign: bool) {
        let x = self.args[0];
        let nan_in = self.test(Op::FpIsNaN, x);
        let nan_out = self.test(Op::FpIsNaN, self.result);
        self.fact(nan_in, nan_out);
        let zero_in = self.test(Op::FpIsZero, x);
        let at_zero = match at_zero {
            Zero::Same => self.store.eq(self.result_bits, self.arg_bits[0]),
            Zero::Is(value) => self.result_is(value),
            Zero::Free => self.store.true_term(),
        };
        self.fact(zero_in, at_zero);
        if let Some((plus, minus)) = at_infinity {
            for (sign, value) in [(f64::INFINITY, plus), (f64::NEG_INFINITY, minus)] {
                let is = self.cmp(Op::FpEq, x, sign);
                let conclusion = if value.is_nan() { self.test(Op::FpIsNaN, self.result) } else { self.result_is(value) };
                self.fact(is, conclusion);
            }
        }
        if keeps_sign {
            // Not "the result is >= 0": outside the domain it is NaN.
            for (sign_in, sign_out) in [(Op::FpGt, Op::FpLt), (Op::FpLt, Op::FpGt)] {
                let premise = self.cmp(sign_in, x, 0.0);
                let opposite = self.cmp(sign_out, self.result, 0.0);
                let conclusion = self.store.not(opposite);
                self.fact(premise, conclusion);
            }
        }
    }

    /// `premise(x) → low <= result <= high` (so the result is not NaN).
    fn range_when(&mut self, premise: TermId, low: TermId, high: TermId) {
        let between = self.result_between(low, high);
        self.fact(premise, between);
    }

    /// NaN outside the domain `[low, high]`.
    fn domain(&mut self, low: f64, high: f64) {
        let x = self.args[0];
        let below = self.cmp(Op::FpLt, x, low);
        let above = self.cmp(Op::FpGt, x, high);
        let outside = self.store.or2(below, above);
        let nan = self.test(Op::FpIsNaN, self.result);
        self.fact(outside, nan);
    }

    /// Every argument in `premise` not NaN → the result is not NaN.
    fn defined_when(&mut self, premise: TermId) {
        let defined = self.not_nan(self.result);
        self.fact(premise, defined);
    }

    fn universal(&mut self, f: Inexact) {
        use std::f64::consts::FRAC_PI_2;
        let inf = f64::INFINITY;
        let x = self.args[0];
        let defined = self.not_nan(x);
        let one = self.constant(1.0);
        let minus_one = self.constant(-1.0);
        let zero = self.constant(0.0);
        let plus_inf = self.constant(inf);
        let half_pi = self.above(FRAC_PI_2);
        let minus_half_pi = self.store.mk(Op::FpNeg, &[half_pi]);
        match f {
            Inexact::Exp | Inexact::Exp2 => {
                self.unary_cases(Zero::Is(1.0), Some((inf, 0.0)), false);
                self.range_when(defined, zero, plus_inf);
            }
            Inexact::Expm1 => {
                self.unary_cases(Zero::Same, Some((inf, -1.0)), true);
                self.range_when(defined, minus_one, plus_inf);
            }
            Inexact::Log | Inexact::Log2 | Inexact::Log10 | Inexact::Log1p => self.logarithm(f),
            Inexact::Sin | Inexact::Cos | Inexact::Tan => {
                let at_zero = if f == Inexact::Cos { Zero::Is(1.0) } else { Zero::Same };
                self.unary_cases(at_zero, Some((f64::NAN, f64::NAN)), false);
                let finite = self.finite(x);
                if f == Inexact::Tan {
                    self.defined_when(finite);
                } else {
                    self.range_when(finite, minus_one, one);
                }
            }
            Inexact::Asin | Inexact::Acos => self.arc_sine_or_cosine(f, minus_half_pi, half_pi),
            Inexact::Atan => {
                self.unary_cases(Zero::Same, None, true);
                self.range_when(defined, minus_half_pi, half_pi);
            }
            Inexact::Sinh | Inexact::Asinh | Inexact::Cbrt => {
                self.unary_cases(Zero::Same, Some((inf, -inf)), true);
                self.defined_when(defined);
            }
            Inexact::Cosh => {
                self.unary_cases(Zero::Is(1.0), Some((inf, inf)), false);
                self.range_when(defined, one, plus_inf);
            }
            Inexact::Tanh | Inexact::Erf => {
                self.unary_cases(Zero::Same, Some((1.0, -1.0)), true);
                self.range_when(defined, minus_one, one);
            }
            Inexact::Acosh => {
                self.unary_cases(Zero::Free, Some((inf, f64::NAN)), false);
                self.domain(1.0, inf);
                let at_one = self.cmp(Op::FpEq, x, 1.0);
                let plus_zero = self.result_is(0.0);
                self.fact(at_one, plus_zero);
                let inside = self.cmp(Op::FpGeq, x, 1.0);
                self.range_when(inside, zero, plus_inf);
            }
            Inexact::Atanh => self.atanh(),
            Inexact::Pow => self.pow(),
            Inexact::Atan2 => self.atan2(),
            Inexact::Hypot => self.hypot(),
        }
    }

    /// log, log2, log10 (pole at 0, zero at 1) and log1p (pole at -1,
    /// zero at 0).
    fn logarithm(&mut self, f: Inexact) {
        let inf = f64::INFINITY;
        let x = self.args[0];
        let pole = if f == Inexact::Log1p { -1.0 } else { 0.0 };
        let at_zero = if f == Inexact::Log1p { Zero::Same } else { Zero::Is(-inf) };
        self.unary_cases(at_zero, Some((inf, f64::NAN)), false);
        self.domain(pole, inf);
        let at_pole = self.cmp(Op::FpEq, x, pole);
        let pole_value = self.result_is(-inf);
        self.fact(at_pole, pole_value);
        // log(1) = +0 (log1p's zero is its argument's); the sign
        // follows whether x is above 1.
        let unit = pole + 1.0;
        if f != Inexact::Log1p {
            let at_unit = self.cmp(Op::FpEq, x, unit);
            let unit_value = self.result_is(0.0);
            self.fact(at_unit, unit_value);
        }
        let above = self.cmp(Op::FpGt, x, unit);
        let positive = self.cmp(Op::FpGt, self.result, 0.0);
        self.fact(above, positive);
        let (over_pole, below_unit) = (self.cmp(Op::FpGt, x, pole), self.cmp(Op::FpLt, x, unit));
        let inside = self.store.and2(over_pole, below_unit);
        let (minus_inf, zero) = (self.constant(-inf), self.constant(0.0));
        let negative_finite = self.result_between(minus_inf, zero);
        let not_infinite = self.test(Op::FpIsInfinite, self.result);
        let not_infinite = self.store.not(not_infinite);
        let finite_negative = self.store.and2(negative_finite, not_infinite);
        self.fact(inside, finite_negative);
    }

    /// asin (odd, within ±π/2) or acos (+0 at 1, within [0, π]), both
    /// defined on [-1, 1].
    fn arc_sine_or_cosine(&mut self, f: Inexact, minus_half_pi: TermId, half_pi: TermId) {
        self.domain(-1.0, 1.0);
        let inside = self.argument_within(-1.0, 1.0);
        if f == Inexact::Asin {
            self.unary_cases(Zero::Same, None, true);
            self.range_when(inside, minus_half_pi, half_pi);
        } else {
            self.unary_cases(Zero::Free, None, false);
            let at_one = self.cmp(Op::FpEq, self.args[0], 1.0);
            let plus_zero = self.result_is(0.0);
            self.fact(at_one, plus_zero);
            let zero = self.constant(0.0);
            let pi = self.above(std::f64::consts::PI);
            self.range_when(inside, zero, pi);
        }
    }

    /// atanh: odd, infinite at ±1, finite between.
    fn atanh(&mut self) {
        let x = self.args[0];
        self.unary_cases(Zero::Same, None, true);
        self.domain(-1.0, 1.0);
        for pole in [1.0, -1.0] {
            let at_pole = self.cmp(Op::FpEq, x, pole);
            let infinite = self.result_is(pole * f64::INFINITY);
            self.fact(at_pole, infinite);
        }
        let (over, under) = (self.cmp(Op::FpGt, x, -1.0), self.cmp(Op::FpLt, x, 1.0));
        let inside = self.store.and2(over, under);
        let finite = self.finite(self.result);
        self.fact(inside, finite);
    }

    fn finite(&mut self, x: TermId) -> TermId {
        let (nan, infinite) = (self.test(Op::FpIsNaN, x), self.test(Op::FpIsInfinite, x));
        let special = self.store.or2(nan, infinite);
        self.store.not(special)
    }

    /// `low <= x <= high` for the (first) argument.
    fn argument_within(&mut self, low: f64, high: f64) -> TermId {
        let x = self.args[0];
        let (above, below) = (self.cmp(Op::FpGeq, x, low), self.cmp(Op::FpLeq, x, high));
        self.store.and2(above, below)
    }

    /// pow(x, ±0) = 1 and pow(+1, y) = 1 (for a NaN too, but glibc gives
    /// NaN for a signalling one, so that case is left open); otherwise a
    /// NaN operand gives NaN; a positive base gives a result that is not
    /// negative.
    fn pow(&mut self) {
        let (x, y) = (self.args[0], self.args[1]);
        let (x_nan, y_nan) = (self.test(Op::FpIsNaN, x), self.test(Op::FpIsNaN, y));
        let zero_exponent = self.test(Op::FpIsZero, y);
        let unit_base = self.cmp(Op::FpEq, x, 1.0);
        let (x_defined, y_defined) = (self.store.not(x_nan), self.store.not(y_nan));
        let (zero_power, unit_power) = (self.store.and2(zero_exponent, x_defined), self.store.and2(unit_base, y_defined));
        let is_one = self.store.or2(zero_power, unit_power);
        let one = self.result_is(1.0);
        self.fact(is_one, one);
        let some_nan = self.store.or2(x_nan, y_nan);
        let may_be_one = self.store.or2(zero_exponent, unit_base);
        let not_one = self.store.not(may_be_one);
        let nan_case = self.store.and2(some_nan, not_one);
        let nan = self.test(Op::FpIsNaN, self.result);
        self.fact(nan_case, nan);
        let positive = self.cmp(Op::FpGt, x, 0.0);
        let y_defined = self.store.not(y_nan);
        let premise = self.store.and2(positive, y_defined);
        let (zero, inf) = (self.constant(0.0), self.constant(f64::INFINITY));
        self.range_when(premise, zero, inf);
    }

    /// atan2(y, x): NaN from a NaN; ±0 for y = ±0 and x > 0 or x = +0;
    /// always within [-π, π].
    fn atan2(&mut self) {
        let (y, x) = (self.args[0], self.args[1]);
        let (y_nan, x_nan) = (self.test(Op::FpIsNaN, y), self.test(Op::FpIsNaN, x));
        let some_nan = self.store.or2(y_nan, x_nan);
        let nan = self.test(Op::FpIsNaN, self.result);
        self.fact(some_nan, nan);
        let y_zero = self.test(Op::FpIsZero, y);
        let x_positive = self.cmp(Op::FpGt, x, 0.0);
        let plus_zero_bits = self.bits(0);
        let x_plus_zero = self.store.eq(self.arg_bits[1], plus_zero_bits);
        let x_right = self.store.or2(x_positive, x_plus_zero);
        let premise = self.store.and2(y_zero, x_right);
        let same = self.store.eq(self.result_bits, self.arg_bits[0]);
        self.fact(premise, same);
        let (y_defined, x_defined) = (self.store.not(y_nan), self.store.not(x_nan));
        let defined = self.store.and2(y_defined, x_defined);
        let pi = self.above(std::f64::consts::PI);
        let minus_pi = self.store.mk(Op::FpNeg, &[pi]);
        self.range_when(defined, minus_pi, pi);
    }

    /// hypot: +inf if an operand is infinite (with a NaN too, but glibc
    /// gives NaN for a signalling one, so that case is left open), NaN from
    /// a NaN otherwise; hypot(x, ±0) = |x| and symmetrically; never negative.
    fn hypot(&mut self) {
        let (x, y) = (self.args[0], self.args[1]);
        let (x_inf, y_inf) = (self.test(Op::FpIsInfinite, x), self.test(Op::FpIsInfinite, y));
        let some_inf = self.store.or2(x_inf, y_inf);
        let (x_nan, y_nan) = (self.test(Op::FpIsNaN, x), self.test(Op::FpIsNaN, y));
        let some_nan = self.store.or2(x_nan, y_nan);
        let no_nan = self.store.not(some_nan);
        let infinite = self.store.and2(some_inf, no_nan);
        let inf = self.result_is(f64::INFINITY);
        self.fact(infinite, inf);
        let no_inf = self.store.not(some_inf);
        let nan_case = self.store.and2(some_nan, no_inf);
        let nan = self.test(Op::FpIsNaN, self.result);
        self.fact(nan_case, nan);
        for (zero, other) in [(y, x), (x, y)] {
            let is_zero = self.test(Op::FpIsZero, zero);
            let defined = self.not_nan(other);
            let premise = self.store.and2(is_zero, defined);
            let magnitude = self.store.mk(Op::FpAbs, &[other]);
            let same = self.store.mk(Op::FpEq, &[self.result, magnitude]);
            let positive = self.test(Op::FpIsPositive, self.result);
            let conclusion = self.store.and2(same, positive);
            self.fact(premise, conclusion);
        }
        let (x_defined, y_defined) = (self.store.not(x_nan), self.store.not(y_nan));
        let defined = self.store.and2(x_defined, y_defined);
        let (zero, plus_inf) = (self.constant(0.0), self.constant(f64::INFINITY));
        self.range_when(defined, zero, plus_inf);
    }

    /// Constant arguments: the result lies within the margin of the host
    /// library's value (is NaN when that is).
    fn near_host_value(&mut self, f: Inexact) {
        let Some(host) = self.constant_arguments().and_then(|args| host_value(f, self.format, &args)) else { return };
        let window = self.window(host);
        self.facts.push(window);
    }

    /// The arguments' bits when every one is a constant.
    fn constant_arguments(&self) -> Option<Vec<u128>> {
        self.arg_bits.iter().map(|&a| self.store.as_bv_const(a).and_then(BvValue::to_u128)).collect()
    }

    /// The result lies within the margin of `host` (is NaN if that is).
    fn window(&mut self, host: u128) -> TermId {
        match ulp_window(self.format, host) {
            Some((low, high)) => {
                let (low, high) = (self.bits(low), self.bits(high));
                let (low, high) = (self.as_float(low), self.as_float(high));
                self.result_between(low, high)
            }
            None => self.test(Op::FpIsNaN, self.result),
        }
    }

    /// Equal arguments in one rounding mode give equal results.
    fn deterministic(&mut self, earlier: &InexactCall, call: &InexactCall) {
        let mut same = vec![self.store.eq(earlier.rounding, call.rounding)];
        for (&a, &b) in earlier.args.iter().zip(&call.args) {
            same.push(self.store.eq(a, b));
        }
        let premise = self.store.and(&same);
        let equal = self.store.eq(earlier.result, call.result);
        self.fact(premise, equal);
    }
}

/// What a unary function gives for a zero argument.
enum Zero {
    /// The argument itself (±0 to ±0).
    Same,
    Is(f64),
    /// Said by other facts.
    Free,
}

/// The float term of the value bits `bits` of `format` (x87: an 80-bit
/// image, decoded as symex decodes every long double).
fn float_of_bits(store: &mut TermStore, format: FloatFormat, bits: TermId) -> TermId {
    let (exp, sig) = (format.exponent_bits(), format.significand_bits());
    let ieee_bits = match format {
        FloatFormat::X87Extended => crate::float::x87_image_to_ieee(store, bits),
        _ => bits,
    };
    store.mk(Op::FpFromBits { exp, sig }, &[ieee_bits])
}

/// The bits of the `format` value nearest to `value`.
fn nearest_bits(format: FloatFormat, value: f64) -> u128 {
    match format {
        FloatFormat::Single => u128::from((value as f32).to_bits()),
        FloatFormat::X87Extended => {
            let double = ieee::Fp::from_bits(ieee::Format::DOUBLE, u128::from(value.to_bits()));
            double.convert(ieee::Format::X87, ieee::RoundingMode::NearestEven).to_x87_bits()
        }
        _ => u128::from(value.to_bits()),
    }
}

/// The lowest and highest values (as bits) within the margin of `host`
/// (bits of `format`) in the order of the reals, not beyond the
/// infinities; `None` for a NaN.
fn ulp_window(format: FloatFormat, host: u128) -> Option<(u128, u128)> {
    if format != FloatFormat::X87Extended {
        return ordered_window(format.storage_bits(), format.infinity_bits(), host);
    }
    // x87 images skip the unnormal patterns between binades: step through
    // the standard FP(15, 64) encoding instead, where the floats are
    // consecutive.
    let encoding = ieee::Fp::from_x87_bits(host).to_bits();
    let infinity = ieee::Fp::infinity(ieee::Format::X87, false).to_bits();
    let (low, high) = ordered_window(ieee::Format::X87.width(), infinity, encoding)?;
    let image = |bits| ieee::Fp::from_bits(ieee::Format::X87, bits).to_x87_bits();
    Some((image(low), image(high)))
}

/// [`ulp_window`] on a standard encoding of `width` bits.
fn ordered_window(width: u32, infinity: u128, host: u128) -> Option<(u128, u128)> {
    let sign = 1u128 << (width - 1);
    let magnitude = host & !sign;
    if magnitude > infinity {
        return None;
    }
    // Ordered keys: the zeros meet at `infinity`, -inf is 0, +inf twice `infinity`.
    let key = if host & sign != 0 { infinity - magnitude } else { infinity + magnitude };
    let bits_of = |key: u128| if key >= infinity { key - infinity } else { (infinity - key) | sign };
    let low = key.saturating_sub(CONSTANT_ARGUMENT_ULPS);
    let high = (key + CONSTANT_ARGUMENT_ULPS).min(2 * infinity);
    Some((bits_of(low), bits_of(high)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECIAL: [f64; 24] = [
        0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.5, 0.125, 10.0, 100.0, 710.0, -745.0, 1e-300, -1e-310,
        f64::MIN_POSITIVE, f64::MAX, f64::MIN, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, std::f64::consts::PI,
    ];

    /// Operand bits: the special values, then pseudo-random patterns (for
    /// long double: random doubles, and each with random low bits).
    fn operands(format: FloatFormat) -> Vec<u128> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut values: Vec<u128> = SPECIAL.iter().map(|&x| nearest_bits(format, x)).collect();
        let width = format.storage_bits().min(64);
        for _ in 0..150 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let bits = state >> (64 - width);
            // Half of them near 1 in magnitude, where most functions change.
            let near_one = if state & 1 == 0 { bits } else { bits & !(0x3u64 << (width - 3)) | (0x1u64 << (width - 3)) };
            if format == FloatFormat::X87Extended {
                let image = nearest_bits(format, f64::from_bits(near_one));
                let normal = image >> 64 & 0x7fff != 0 && image >> 64 & 0x7fff != 0x7fff;
                values.push(if normal { image | u128::from(state >> 53) } else { image });
            } else {
                values.push(u128::from(near_one));
            }
        }
        values
    }

    /// The facts of `f` hold for the host library's result on every
    /// operand tried: they are true of the replay oracle, and never empty.
    #[test]
    fn the_facts_hold_for_the_host_library() {
        for format in [FloatFormat::Single, FloatFormat::Double, FloatFormat::X87Extended] {
            let values = operands(format);
            for (f, _) in ir::libm::ALL {
                let argument_lists: Vec<Vec<u128>> = match f.arity() {
                    1 => values.iter().map(|&x| vec![x]).collect(),
                    _ => values.iter().flat_map(|&x| values.iter().step_by(7).map(move |&y| vec![x, y])).collect(),
                };
                for args in argument_lists {
                    let host = host_value(f, format, &args).expect("a host value");
                    let mut store = TermStore::new();
                    let width = format.storage_bits();
                    let arg_terms: Vec<TermId> = args.iter().map(|&a| store.bv_const(BvValue::from_u128(width, a))).collect();
                    let result = store.bv_const(BvValue::from_u128(width, host));
                    let mut facts = Facts::new(&mut store, format, &arg_terms, result);
                    facts.universal(f);
                    facts.near_host_value(f);
                    for (i, &fact) in facts.facts.iter().enumerate() {
                        assert!(facts.store.is_true(fact), "{f:?} {format:?} fact {i} fails for {args:x?} -> {host:x}");
                    }
                }
            }
        }
    }

    #[test]
    fn windows_step_through_the_ordered_floats() {
        let bits = |x: f64| u128::from(x.to_bits());
        let (low, high) = ulp_window(FloatFormat::Double, bits(1.0)).expect("finite");
        assert_eq!((low, high), (bits(1.0) - 4, bits(1.0) + 4));
        let (low, high) = ulp_window(FloatFormat::Double, bits(-0.0)).expect("zero");
        assert_eq!((low, high), (bits(-0.0) | 4, 4));
        let (_, high) = ulp_window(FloatFormat::Double, bits(f64::MAX)).expect("finite");
        assert_eq!(high, bits(f64::INFINITY));
        let (low, _) = ulp_window(FloatFormat::Double, bits(f64::NEG_INFINITY)).expect("infinite");
        assert_eq!(low, bits(f64::NEG_INFINITY));
        assert_eq!(ulp_window(FloatFormat::Double, bits(f64::NAN)), None);
        let single = u128::from(1.5f32.to_bits());
        assert_eq!(ulp_window(FloatFormat::Single, single), Some((single - 4, single + 4)));
        // Across a binade of long double: from 2 down to 2 - 4 * 2^-63.
        let two = nearest_bits(FloatFormat::X87Extended, 2.0);
        let (low, high) = ulp_window(FloatFormat::X87Extended, two).expect("finite");
        assert_eq!((low, high), (0x3FFF_FFFF_FFFF_FFFF_FFFC, two + 4));
    }
}
