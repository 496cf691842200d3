//! The reference oracle: every `ieee` operation checked against an
//! independent implementation (`rustc_apfloat`, a port of LLVM's APFloat),
//! the host FPU (binary32/64, nearest-even) and the standard library's
//! float printing; square roots (which the reference lacks) by an exact
//! bracketing in 256-bit integers, and decimal parsing by exact comparison
//! (`exact`), both written here. Shared by the `reference` test (a fixed
//! sample) and the `fp_reference` example (millions of cases).
//!
//! Differences that are not `ieee` bugs, and how they are handled:
//! - NaN results compare as "is NaN" (SMT-LIB has one NaN).
//! - `min`/`max` of `-0` and `+0`: the reference returns its first operand;
//!   `ieee` returns `-0` for min and `+0` for max (checked here instead).
//! - The reference's decimal reader misrounds exactly representable long
//!   literals toward zero (TowardZero/TowardNegative), hence `exact`.
//! - The reference panics converting to 1-bit signed integers, and its
//!   roundToIntegral and remainder fail (wrong results, assertion, endless
//!   loop) in formats with emax < sig_bits: those cases are not generated.

// Shared by a test and an example, each of which uses only part of it.
#![allow(dead_code)]

mod exact;

use ieee::{Format, Fp, RoundingMode};
use rustc_apfloat::ieee::{BFloat, Double, Half, IeeeFloat, Quad, Semantics, Single, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert, Round, Status};
use std::cmp::Ordering;

/// A reference float type paired with the `ieee` format it models.
pub trait RefFloat:
    Float
    + FloatConvert<Half>
    + FloatConvert<Single>
    + FloatConvert<Double>
    + FloatConvert<Quad>
    + FloatConvert<X87DoubleExtended>
{
    const NAME: &'static str;
    const FORMAT: Format;
    fn to_fp(self) -> Fp;
    fn from_fp(value: Fp) -> Self;
}

macro_rules! standard_ref_float {
    ($ty:ty, $name:literal, $format:expr) => {
        impl RefFloat for $ty {
            const NAME: &'static str = $name;
            const FORMAT: Format = $format;
            fn to_fp(self) -> Fp {
                Fp::from_bits(Self::FORMAT, self.to_bits())
            }
            fn from_fp(value: Fp) -> Self {
                Self::from_bits(value.to_bits())
            }
        }
    };
}

standard_ref_float!(Half, "f16", Format::HALF);
standard_ref_float!(Single, "f32", Format::SINGLE);
standard_ref_float!(Double, "f64", Format::DOUBLE);
standard_ref_float!(Quad, "f128", Format::QUAD);
standard_ref_float!(BFloat, "bf16", custom_format(8, 8));
standard_ref_float!(Fp8, "e4m4", custom_format(4, 4));
standard_ref_float!(Fp6, "e3m3", custom_format(3, 3));
standard_ref_float!(WideRange, "e17m47", custom_format(17, 47));
standard_ref_float!(WidePrecision, "e5m120", custom_format(5, 120));

const fn custom_format(exp_bits: u32, sig_bits: u32) -> Format {
    match Format::new(exp_bits, sig_bits) {
        Some(format) => format,
        None => panic!("invalid custom format"),
    }
}

/// Reference semantics for unusual widths (the reference is generic).
macro_rules! custom_semantics {
    ($semantics:ident, $ty:ident, $bits:literal, $exp_bits:literal) => {
        pub struct $semantics;
        impl Semantics for $semantics {
            const BITS: usize = $bits;
            const EXP_BITS: usize = $exp_bits;
        }
        pub type $ty = IeeeFloat<$semantics>;
    };
}

custom_semantics!(Fp8S, Fp8, 8, 4);
custom_semantics!(Fp6S, Fp6, 6, 3);
custom_semantics!(WideRangeS, WideRange, 64, 17);
custom_semantics!(WidePrecisionS, WidePrecision, 125, 5);

impl RefFloat for X87DoubleExtended {
    const NAME: &'static str = "x87";
    const FORMAT: Format = Format::X87;
    fn to_fp(self) -> Fp {
        Fp::from_x87_bits(self.to_bits())
    }
    fn from_fp(value: Fp) -> Self {
        Self::from_bits(value.to_x87_bits())
    }
}

fn reference_round(mode: RoundingMode) -> Round {
    match mode {
        RoundingMode::NearestEven => Round::NearestTiesToEven,
        RoundingMode::NearestAway => Round::NearestTiesToAway,
        RoundingMode::TowardPositive => Round::TowardPositive,
        RoundingMode::TowardNegative => Round::TowardNegative,
        RoundingMode::TowardZero => Round::TowardZero,
    }
}

/// xorshift64*: deterministic, seedable, good enough for sampling.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn next_u128(&mut self) -> u128 {
        (self.next_u64() as u128) << 64 | self.next_u64() as u128
    }

    /// Uniform in `0..bound` (bound > 0; slight bias is irrelevant here).
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

/// Operand generation for one format, biased to the interesting regions.
pub struct Gen<F: RefFloat> {
    pub rng: Rng,
    marker: std::marker::PhantomData<F>,
}

fn bits_mask(width: u32) -> u128 {
    if width == 128 {
        u128::MAX
    } else {
        (1 << width) - 1
    }
}

impl<F: RefFloat> Gen<F> {
    pub fn new(seed: u64) -> Gen<F> {
        Gen { rng: Rng::new(seed), marker: std::marker::PhantomData }
    }

    fn format(&self) -> Format {
        F::FORMAT
    }

    pub fn mode(&mut self) -> RoundingMode {
        RoundingMode::ALL[self.rng.below(5) as usize]
    }

    /// A value with the given biased exponent and a random fraction that
    /// is sometimes short (exact results and ties) or all ones.
    fn with_biased_exp(&mut self, biased: i128) -> Fp {
        let format = self.format();
        let biased = biased.clamp(0, bits_mask(format.exp_bits()) as i128) as u128;
        let frac_bits = format.sig_bits() - 1;
        let mut fraction = self.rng.next_u128() & bits_mask(frac_bits);
        match self.rng.below(4) {
            0 => fraction &= !(bits_mask(frac_bits) >> self.rng.below(frac_bits as u64 + 1)),
            1 => fraction = bits_mask(frac_bits) ^ (fraction & 0xF),
            _ => {}
        }
        let sign = (self.rng.next_u64() & 1) as u128;
        Fp::from_bits(format, sign << (format.width() - 1) | biased << frac_bits | fraction)
    }

    fn special(&mut self) -> Fp {
        let format = self.format();
        let negative = self.rng.chance(2);
        let one = Fp::from_u128(format, 1, RoundingMode::NearestEven);
        let choices = [
            Fp::zero(format, negative),
            Fp::infinity(format, negative),
            Fp::nan(format),
            Fp::from_bits(format, (Fp::infinity(format, false).to_bits()) | 1),
            Fp::min_subnormal(format, negative),
            Fp::from_bits(format, Fp::min_normal(format, false).to_bits() - 1),
            Fp::min_normal(format, negative),
            Fp::max_finite(format, negative),
            one,
            Fp::from_bits(format, one.to_bits() + 1),
            Fp::from_bits(format, one.to_bits() - 1),
            Fp::from_u128(format, 2, RoundingMode::NearestEven),
            Fp::from_u128(format, 3, RoundingMode::NearestEven),
        ];
        let value = choices[self.rng.below(choices.len() as u64) as usize];
        if negative {
            -value
        } else {
            value
        }
    }

    /// One operand.
    pub fn operand(&mut self) -> Fp {
        let format = self.format();
        let max_biased = bits_mask(format.exp_bits()) as i128;
        let bias = max_biased >> 1;
        match self.rng.below(8) {
            0 => Fp::from_bits(format, self.rng.next_u128() & bits_mask(format.width())),
            1 => self.special(),
            2 => self.with_biased_exp(0),
            3 | 4 => {
                let biased = bias + self.rng.below(11) as i128 - 5;
                self.with_biased_exp(biased)
            }
            5 => {
                let biased = max_biased - 1 - self.rng.below(4) as i128;
                self.with_biased_exp(biased)
            }
            6 => {
                let biased = 1 + self.rng.below(4) as i128;
                self.with_biased_exp(biased)
            }
            _ => {
                let biased = self.rng.below(max_biased as u64) as i128;
                self.with_biased_exp(biased)
            }
        }
    }

    /// An operand near `base`: same or nearby exponent, perturbed fraction.
    fn near(&mut self, base: Fp) -> Fp {
        let format = self.format();
        let scale = self.rng.below(24);
        let delta = self.rng.below(1 << scale) as u128;
        let bits = base.to_bits();
        let moved = if self.rng.chance(2) { bits.wrapping_add(delta) } else { bits.wrapping_sub(delta) };
        let flip = if self.rng.chance(2) { 1 << (format.width() - 1) } else { 0 };
        Fp::from_bits(format, (moved ^ flip) & bits_mask(format.width()))
    }

    pub fn pair(&mut self) -> (Fp, Fp) {
        let a = self.operand();
        let b = if self.rng.chance(4) { self.near(a) } else { self.operand() };
        if self.rng.chance(2) {
            (a, b)
        } else {
            (b, a)
        }
    }
}

/// Same result: bitwise equal, or both NaN.
fn same(got: Fp, expected: Fp) -> bool {
    got == expected || (got.is_nan() && expected.is_nan())
}

fn show(value: Fp) -> String {
    format!("{:#x} ({value})", value.to_bits())
}

type Outcome = Result<(), String>;

fn verdict(ok: bool, describe: impl FnOnce() -> String) -> Outcome {
    if ok {
        Ok(())
    } else {
        Err(describe())
    }
}

fn check_binary<F: RefFloat>(g: &mut Gen<F>, ours: fn(Fp, Fp, RoundingMode) -> Fp, theirs: fn(F, F, Round) -> F) -> Outcome {
    let (a, b) = g.pair();
    let mode = g.mode();
    let expected = theirs(F::from_fp(a), F::from_fp(b), reference_round(mode)).to_fp();
    let got = ours(a, b, mode);
    verdict(same(got, expected), || format!("{} , {} {mode:?}: got {} expected {}", show(a), show(b), show(got), show(expected)))
}

fn check_add<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    check_binary(g, Fp::add, |a, b, r| a.add_r(b, r).value)
}

fn check_sub<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    check_binary(g, Fp::sub, |a, b, r| a.sub_r(b, r).value)
}

fn check_mul<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    check_binary(g, Fp::mul, |a, b, r| a.mul_r(b, r).value)
}

fn check_div<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    check_binary(g, Fp::div, |a, b, r| a.div_r(b, r).value)
}

fn check_remainder<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    check_binary(g, |a, b, _| a.remainder(b), |a, b, _| a.ieee_rem(b).value)
}

fn check_fma<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let (a, b) = g.pair();
    let mode = g.mode();
    let round = reference_round(mode);
    // Often an addend cancelling most of the product.
    let c = if g.rng.chance(3) {
        let product = F::from_fp(a).mul_r(F::from_fp(b), round).value.to_fp();
        let cancelling = g.near(-product);
        if cancelling.sign_bit() == product.sign_bit() { -cancelling } else { cancelling }
    } else {
        g.operand()
    };
    let expected = F::from_fp(a).mul_add_r(F::from_fp(b), F::from_fp(c), round).value.to_fp();
    let got = a.fma(b, c, mode);
    verdict(same(got, expected), || format!("fma({}, {}, {}) {mode:?}: got {} expected {}", show(a), show(b), show(c), show(got), show(expected)))
}

fn check_round_to_integral<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let a = g.operand();
    let mode = g.mode();
    let expected = F::from_fp(a).round_to_integral(reference_round(mode)).value.to_fp();
    let got = a.round_to_integral(mode);
    verdict(same(got, expected), || format!("{} {mode:?}: got {} expected {}", show(a), show(got), show(expected)))
}

fn check_min_max<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let (a, b) = g.pair();
    if a.is_zero() && b.is_zero() {
        let ok = a.min(b).is_negative() == (a.sign_bit() || b.sign_bit()) && a.max(b).is_negative() == (a.sign_bit() && b.sign_bit());
        return verdict(ok, || format!("min/max of zeros {} {}", show(a), show(b)));
    }
    let (x, y) = (F::from_fp(a), F::from_fp(b));
    let (min, max) = (x.min(y).to_fp(), x.max(y).to_fp());
    verdict(same(a.min(b), min) && same(a.max(b), max), || format!("min/max {} {}: got {} {}", show(a), show(b), show(a.min(b)), show(a.max(b))))
}

fn check_compare<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let (a, b) = g.pair();
    let expected = F::from_fp(a).partial_cmp(&F::from_fp(b));
    let got = a.partial_order(b);
    let consistent = a.fp_eq(b) == (got == Some(Ordering::Equal))
        && a.fp_lt(b) == (got == Some(Ordering::Less))
        && a.fp_leq(b) == matches!(got, Some(Ordering::Less | Ordering::Equal))
        && a.fp_gt(b) == (got == Some(Ordering::Greater))
        && a.fp_geq(b) == matches!(got, Some(Ordering::Greater | Ordering::Equal));
    verdict(got == expected && consistent, || format!("compare {} {}: got {got:?} expected {expected:?}", show(a), show(b)))
}

fn check_classify<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let a = g.operand();
    let x = F::from_fp(a);
    let ours = [a.is_nan(), a.is_infinite(), a.is_zero(), a.is_normal(), a.is_subnormal(), a.is_negative(), a.is_positive()];
    let theirs = [
        x.is_nan(),
        x.is_infinite(),
        x.is_zero(),
        x.is_normal(),
        x.is_denormal(),
        !x.is_nan() && x.is_negative(),
        !x.is_nan() && !x.is_negative(),
    ];
    verdict(ours == theirs, || format!("classify {}: got {ours:?} expected {theirs:?}", show(a)))
}

/// An operand near the range of a `width`-bit integer type.
fn integer_like<F: RefFloat>(g: &mut Gen<F>, width: u32) -> Fp {
    if g.rng.chance(3) {
        return g.operand();
    }
    let magnitude = g.rng.next_u128() >> (128 - width.min(127) - g.rng.below(2) as u32).min(127);
    let value = F::from_u128_r(magnitude, Round::NearestTiesToEven).value;
    let value = if g.rng.chance(2) { -value } else { value };
    let nudges = [0.0, 0.5, 0.25, 0.75, 1.0];
    let nudge = F::from_str(&nudges[g.rng.below(5) as usize].to_string()).unwrap();
    (value + nudge).value.to_fp()
}

fn random_width(rng: &mut Rng) -> u32 {
    match rng.below(3) {
        0 => [8, 16, 32, 64, 128][rng.below(5) as usize],
        _ => 1 + rng.below(128) as u32,
    }
}

fn check_to_signed<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    // The reference cannot convert to 1-bit signed integers (it overflows a shift).
    let width = random_width(&mut g.rng).max(2);
    let a = integer_like(g, width);
    let mode = g.mode();
    let reference = F::from_fp(a).to_i128_r(width as usize, reference_round(mode), &mut false);
    let expected = (!reference.status.intersects(Status::INVALID_OP)).then_some(reference.value);
    let got = a.to_i128(width, mode);
    verdict(got == expected, || format!("to_i{width} {} {mode:?}: got {got:?} expected {expected:?}", show(a)))
}

fn check_to_unsigned<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let width = random_width(&mut g.rng);
    let a = integer_like(g, width);
    let mode = g.mode();
    let reference = F::from_fp(a).to_u128_r(width as usize, reference_round(mode), &mut false);
    let expected = (!reference.status.intersects(Status::INVALID_OP)).then_some(reference.value);
    let got = a.to_u128(width, mode);
    verdict(got == expected, || format!("to_u{width} {} {mode:?}: got {got:?} expected {expected:?}", show(a)))
}

fn check_from_integer<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let width = random_width(&mut g.rng);
    let raw = g.rng.next_u128() >> (128 - width);
    let mode = g.mode();
    let round = reference_round(mode);
    let signed = ((raw << (128 - width)) as i128) >> (128 - width);
    let (got_u, expected_u) = (Fp::from_u128(F::FORMAT, raw, mode), F::from_u128_r(raw, round).value.to_fp());
    let (got_s, expected_s) = (Fp::from_i128(F::FORMAT, signed, mode), F::from_i128_r(signed, round).value.to_fp());
    verdict(same(got_u, expected_u) && same(got_s, expected_s), || {
        format!("from {raw:#x}/{signed} {mode:?}: got {} {} expected {} {}", show(got_u), show(got_s), show(expected_u), show(expected_s))
    })
}

fn check_convert<F: RefFloat + FloatConvert<T>, T: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let a = g.operand();
    let mode = g.mode();
    let expected: T = FloatConvert::<T>::convert_r(F::from_fp(a), reference_round(mode), &mut false).value;
    let expected = expected.to_fp();
    let got = a.convert(T::FORMAT, mode);
    verdict(same(got, expected), || format!("{} -> {} {mode:?}: got {} expected {}", show(a), T::NAME, show(got), show(expected)))
}

/// Decimal text near interesting values: random digit strings across the
/// exponent range, truncated exact expansions, and exact midpoints between
/// neighbours (the ties) slightly perturbed or not.
fn decimal_text<F: RefFloat>(g: &mut Gen<F>) -> String {
    let format = F::FORMAT;
    match g.rng.below(3) {
        0 => {
            let digits: String = (0..1 + g.rng.below(40)).map(|_| char::from(b'0' + g.rng.below(10) as u8)).collect();
            let range = (format.emax() as f64 * std::f64::consts::LOG10_2) as u64 + 60;
            let exponent = g.rng.below(2 * range) as i64 - range as i64;
            format!("{}.{}e{exponent}", &digits[..1], &digits[1..])
        }
        // Midpoints are computed exactly in binary128.
        1 if format.exp_bits() <= 15 && format.sig_bits() < 113 => {
            let a = g.operand().abs();
            let next = Fp::from_bits(format, a.to_bits() + 1);
            if !a.is_finite() || !next.is_finite() {
                return "1.5".to_string();
            }
            let wide = |v: Fp| v.convert(Format::QUAD, RoundingMode::NearestEven);
            let half = Fp::parse(Format::QUAD, "0.5", RoundingMode::NearestEven).unwrap();
            let halved = |v: Fp| wide(v).mul(half, RoundingMode::NearestEven);
            let midpoint = halved(a).add(halved(next), RoundingMode::NearestEven);
            let mut text = midpoint.to_decimal_exact();
            if text.len() > 1200 {
                // The reference parser is slow on thousands of digits.
                return "2.5".to_string();
            }
            match g.rng.below(3) {
                0 => text.push_str(if text.contains('.') { "000001" } else { ".000001" }),
                1 if text.contains('.') && !text.ends_with('.') => {
                    text.pop();
                }
                _ => {}
            }
            text
        }
        _ => {
            let text = g.operand().abs().to_decimal_exact();
            if !text.starts_with(|c: char| c.is_ascii_digit()) {
                return "0.1".to_string();
            }
            let keep = (1 + g.rng.below(40) as usize).min(text.len());
            let cut = &text[..keep];
            // Keep the magnitude: pad the integer part back if truncated.
            match text.find('.') {
                Some(point) if point > keep => format!("{cut}{}", "0".repeat(point - keep)),
                None => format!("{cut}{}", "0".repeat(text.len() - keep)),
                _ => cut.trim_end_matches('.').to_string(),
            }
        }
    }
}

fn check_parse_decimal<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let text = decimal_text(g);
    let text = if g.rng.chance(2) { format!("-{text}") } else { text };
    let mode = g.mode();
    let got = Fp::parse(F::FORMAT, &text, mode).map_err(|error| format!("parse {text:?}: {error}"))?;
    let decimal = exact::Decimal::parse(&text).ok_or_else(|| format!("unexpected literal form {text:?}"))?;
    verdict(rounds_decimal_correctly(&decimal, got, mode), || format!("parse {text:?} {mode:?}: got {}", show(got)))
}

/// Whether `got` is `decimal` rounded by `mode`, decided by exact
/// comparisons with `got`'s neighbours and the midpoints between them.
fn rounds_decimal_correctly(decimal: &exact::Decimal, got: Fp, mode: RoundingMode) -> bool {
    if got.is_nan() || got.sign_bit() != decimal.negative {
        return false;
    }
    if decimal.is_zero() {
        return got.is_zero();
    }
    let format = got.format();
    let magnitude = got.abs();
    let max = Fp::max_finite(format, false);
    // Neighbours as exact binary values; above the largest finite value
    // the unbounded-exponent neighbour 2^(emax+1) stands in.
    let value_of = |v: Fp| if v.is_infinite() { (1u128, format.emax() + 1) } else { decompose(v) };
    let next = if magnitude == max || magnitude.is_infinite() { Fp::infinity(format, false) } else { Fp::from_bits(format, magnitude.to_bits() + 1) };
    let cmp = |v: Fp| {
        let (m, e) = value_of(v);
        decimal.cmp_binary(m, e)
    };
    let cmp_midpoint = |a: Fp, b: Fp| {
        let ((ma, ea), (mb, eb)) = (if a.is_zero() { (0, value_of(b).1) } else { value_of(a) }, value_of(b));
        let common = ea.min(eb);
        decimal.cmp_binary((ma << (ea - common)) + (mb << (eb - common)), common - 1)
    };
    let toward_zero = match mode {
        RoundingMode::TowardZero => Some(true),
        RoundingMode::TowardPositive => Some(decimal.negative),
        RoundingMode::TowardNegative => Some(!decimal.negative),
        _ => None,
    };
    let previous = || Fp::from_bits(format, magnitude.to_bits() - 1);
    match toward_zero {
        Some(true) => {
            !magnitude.is_infinite() && cmp(magnitude) != Ordering::Less && (magnitude == max || cmp(next) == Ordering::Less)
        }
        Some(false) => {
            !magnitude.is_zero() && (magnitude.is_infinite() || cmp(magnitude) != Ordering::Greater) && cmp(previous()) == Ordering::Greater
        }
        None => {
            if magnitude.is_infinite() {
                let threshold = cmp_midpoint(max, magnitude);
                return threshold != Ordering::Less;
            }
            let even = decompose(magnitude).0 & 1 == 0;
            let away = mode == RoundingMode::NearestAway;
            let above_low = magnitude.is_zero() || match cmp_midpoint(previous(), magnitude) {
                Ordering::Greater => true,
                Ordering::Equal => away || even,
                Ordering::Less => false,
            };
            let below_high = match cmp_midpoint(magnitude, next) {
                Ordering::Less => true,
                Ordering::Equal => !away && even,
                Ordering::Greater => false,
            };
            above_low && below_high
        }
    }
}

fn check_parse_hex<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let digits: String = (0..1 + g.rng.below(34)).map(|_| char::from_digit(g.rng.below(16) as u32, 16).unwrap()).collect();
    let point = g.rng.below(digits.len() as u64 + 1) as usize;
    let range = F::FORMAT.emax() as u64 + 200;
    let exponent = g.rng.below(2 * range) as i64 - range as i64;
    let text = format!("0x{}.{}p{exponent}", &digits[..point], &digits[point..]);
    let text = if text.starts_with("0x.") && point == digits.len() { format!("0x0{}", &text[2..]) } else { text };
    check_parse(g, &text)
}

fn check_parse<F: RefFloat>(g: &mut Gen<F>, text: &str) -> Outcome {
    let mode = g.mode();
    let expected = match F::from_str_r(text, reference_round(mode)) {
        Ok(parsed) => parsed.value.to_fp(),
        Err(error) => return Err(format!("reference rejected {text:?}: {error:?}")),
    };
    match Fp::parse(F::FORMAT, text, mode) {
        Ok(got) => verdict(same(got, expected), || format!("parse {text:?} {mode:?}: got {} expected {}", show(got), show(expected))),
        Err(error) => Err(format!("parse {text:?}: {error}")),
    }
}

/// Printing: the shortest output equals Rust's `{:e}` for f32/f64, and for
/// every format the text denotes the value (checked by the reference parser).
fn check_print<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let a = g.operand();
    let text = a.to_string();
    let std_text = match F::NAME {
        "f32" => Some(format!("{:e}", f32::from_bits(a.to_bits() as u32))),
        "f64" => Some(format!("{:e}", f64::from_bits(a.to_bits() as u64))),
        _ => None,
    };
    if let Some(std_text) = std_text {
        if text != std_text {
            return Err(format!("print {}: got {text} expected {std_text}", show(a)));
        }
    }
    if !a.is_finite() {
        return verdict(a.is_nan() == (text == "NaN"), || format!("print {}: {text}", show(a)));
    }
    let back = F::from_str_r(&text, Round::NearestTiesToEven).map(|parsed| parsed.value.to_fp());
    verdict(back == Ok(a), || format!("print {}: {text} reads back as {back:?}", show(a)))
}

/// A 256-bit unsigned integer, just enough to compare squares exactly.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct U256 {
    high: u128,
    low: u128,
}

impl U256 {
    fn square(v: u128) -> U256 {
        let (h, l) = (v >> 64, v & u64::MAX as u128);
        let (hh, hl, ll) = (h * h, h * l, l * l);
        let (low, carry1) = ll.overflowing_add(hl << 65);
        let high = hh + (hl >> 63) + carry1 as u128;
        U256 { high, low }
    }

    /// `self << shift`, or `None` if bits would be lost.
    fn shl(self, shift: u64) -> Option<U256> {
        if shift == 0 {
            return Some(self);
        }
        if shift >= 256 {
            return (self == U256 { high: 0, low: 0 }).then_some(self);
        }
        let bits = 256 - (if self.high != 0 { self.high.leading_zeros() } else { 128 + self.low.leading_zeros() }) as u64;
        if bits + shift > 256 {
            return None;
        }
        Some(if shift >= 128 {
            U256 { high: self.low << (shift - 128), low: 0 }
        } else {
            U256 { high: self.high << shift | self.low >> (128 - shift), low: self.low << shift }
        })
    }
}

/// Integer significand and exponent of a finite value's magnitude, decoded
/// here from the encoding (independently of the crate).
fn decompose(value: Fp) -> (u128, i64) {
    let format = value.format();
    let frac_bits = format.sig_bits() - 1;
    let bias = (1i64 << (format.exp_bits() - 1)) - 1;
    let biased = ((value.to_bits() >> frac_bits) & bits_mask(format.exp_bits())) as i64;
    let fraction = value.to_bits() & bits_mask(frac_bits);
    if biased == 0 {
        (fraction, 1 - bias - frac_bits as i64)
    } else {
        (fraction | 1 << frac_bits, biased - bias - frac_bits as i64)
    }
}

/// Compares `(s * 2^es)^2` with `x * 2^ex` exactly.
fn compare_square(s: u128, es: i64, x: u128, ex: i64) -> Ordering {
    let common = (2 * es).min(ex);
    let left = U256::square(s).shl((2 * es - common) as u64);
    let right = U256 { high: 0, low: x }.shl((ex - common) as u64);
    match (left, right) {
        (Some(l), Some(r)) => l.cmp(&r),
        (None, _) => Ordering::Greater,
        (_, None) => Ordering::Less,
    }
}

/// Compares the square of the midpoint of neighbours `a < b` with `x`.
fn compare_midpoint_square(a: Fp, b: Fp, x: u128, ex: i64) -> Ordering {
    if b.is_infinite() {
        return Ordering::Greater;
    }
    let ((sa, ea), (sb, eb)) = (decompose(a), decompose(b));
    let common = ea.min(eb);
    let sum = (sa << (ea - common)) + (sb << (eb - common));
    compare_square(sum, common - 1, x, ex)
}

fn check_sqrt<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let a = if g.rng.chance(2) { g.operand().abs() } else { g.operand() };
    let mode = g.mode();
    let got = a.sqrt(mode);
    let fail = || format!("sqrt {} {mode:?}: got {}", show(a), show(got));
    if a.is_nan() || (a.sign_bit() && !a.is_zero()) {
        return verdict(got.is_nan(), fail);
    }
    if a.is_zero() || a.is_infinite() {
        return verdict(got == a, fail);
    }
    if !got.is_finite() || got.sign_bit() || got.is_zero() {
        return Err(fail());
    }
    let (x, ex) = decompose(a);
    let reference = F::from_fp(got);
    let next = reference.next_up().value.to_fp();
    let previous = reference.next_down().value.to_fp();
    let (s, es) = decompose(got);
    let ok = match mode {
        // Square roots of floats are never exactly halfway between two
        // floats, so both nearest modes are checked with strict midpoints.
        RoundingMode::NearestEven | RoundingMode::NearestAway => {
            compare_midpoint_square(previous, got, x, ex) == Ordering::Less
                && compare_midpoint_square(got, next, x, ex) == Ordering::Greater
        }
        RoundingMode::TowardZero | RoundingMode::TowardNegative => {
            let (sn, en) = decompose(next);
            compare_square(s, es, x, ex) != Ordering::Greater && (next.is_infinite() || compare_square(sn, en, x, ex) == Ordering::Greater)
        }
        RoundingMode::TowardPositive => {
            let (sp, ep) = decompose(previous);
            compare_square(s, es, x, ex) != Ordering::Less && compare_square(sp, ep, x, ex) == Ordering::Less
        }
    };
    verdict(ok, fail)
}

/// x87 images, canonical or not, decode like the reference loads them.
fn check_x87_decode<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let exponent = match g.rng.below(4) {
        0 => 0,
        1 => 0x7FFF,
        _ => g.rng.below(0x8000) as u128,
    };
    let image = (g.rng.below(2) as u128) << 79 | exponent << 64 | g.rng.next_u64() as u128;
    let ours = Fp::from_x87_bits(image);
    let theirs = X87DoubleExtended::from_bits(image);
    let wide: Quad = FloatConvert::<Quad>::convert_r(theirs, Round::NearestTiesToEven, &mut false).value;
    let expected = wide.to_fp();
    let got = ours.convert(Format::QUAD, RoundingMode::NearestEven);
    let reencoded_ok = ours.is_nan() || ours.to_x87_bits() == theirs.to_bits();
    verdict(same(got, expected) && reencoded_ok, || format!("x87 image {image:#x}: got {} expected {}", show(ours), show(expected)))
}

/// The host's own arithmetic (round-to-nearest-even only) as a second
/// reference for binary32/binary64: every basic operation on one pair.
fn check_host<F: RefFloat>(g: &mut Gen<F>) -> Outcome {
    let (a, b) = g.pair();
    let c = g.operand();
    let mode = RoundingMode::NearestEven;
    let ours = [a.add(b, mode), a.sub(b, mode), a.mul(b, mode), a.div(b, mode), a.fma(b, c, mode), a.sqrt(mode)];
    let host: [u128; 6] = match F::NAME {
        "f32" => {
            let (x, y, z) = (f32::from_bits(a.to_bits() as u32), f32::from_bits(b.to_bits() as u32), f32::from_bits(c.to_bits() as u32));
            [x + y, x - y, x * y, x / y, x.mul_add(y, z), x.sqrt()].map(|v| v.to_bits() as u128)
        }
        _ => {
            let (x, y, z) = (f64::from_bits(a.to_bits() as u64), f64::from_bits(b.to_bits() as u64), f64::from_bits(c.to_bits() as u64));
            [x + y, x - y, x * y, x / y, x.mul_add(y, z), x.sqrt()].map(|v| v.to_bits() as u128)
        }
    };
    let names = ["+", "-", "*", "/", "fma", "sqrt"];
    for ((got, expected), name) in ours.iter().zip(host).zip(names) {
        let expected = Fp::from_bits(F::FORMAT, expected);
        if !same(*got, expected) {
            return Err(format!("host {name} {} {} {}: got {} expected {}", show(a), show(b), show(c), show(*got), show(expected)));
        }
    }
    let text = decimal_text(g);
    let expected = match F::NAME {
        "f32" => text.parse::<f32>().map(|v| v.to_bits() as u128),
        _ => text.parse::<f64>().map(|v| v.to_bits() as u128),
    };
    let got = Fp::parse(F::FORMAT, &text, mode).map(Fp::to_bits);
    verdict(expected.as_ref().ok() == got.as_ref().ok(), || format!("host parse {text:?}: got {got:?} expected {expected:?}"))
}

type Check<F> = fn(&mut Gen<F>) -> Outcome;

/// The checks that apply to format `F`, by operation name.
pub fn checks<F: RefFloat>() -> Vec<(&'static str, Check<F>)> {
    let mut checks: Vec<(&'static str, Check<F>)> = vec![
        ("add", check_add::<F>),
        ("sub", check_sub::<F>),
        ("mul", check_mul::<F>),
        ("div", check_div::<F>),
        ("fma", check_fma::<F>),
        ("sqrt", check_sqrt::<F>),
        ("remainder", check_remainder::<F>),
        ("roundToIntegral", check_round_to_integral::<F>),
        ("min/max", check_min_max::<F>),
        ("compare", check_compare::<F>),
        ("classify", check_classify::<F>),
        ("to_signed", check_to_signed::<F>),
        ("to_unsigned", check_to_unsigned::<F>),
        ("from_integer", check_from_integer::<F>),
        ("convert->f16", check_convert::<F, Half>),
        ("convert->f32", check_convert::<F, Single>),
        ("convert->f64", check_convert::<F, Double>),
        ("convert->f128", check_convert::<F, Quad>),
        ("convert->x87", check_convert::<F, X87DoubleExtended>),
        ("parse decimal", check_parse_decimal::<F>),
        ("parse hex", check_parse_hex::<F>),
        ("print", check_print::<F>),
    ];
    // The reference rounds to integral by adding 2^(sig_bits-1), which
    // overflows (assertion failure or endless loop in its remainder) in
    // formats whose largest values are not integral.
    if F::FORMAT.emax() < F::FORMAT.sig_bits() as i64 {
        checks.retain(|(op, _)| *op != "remainder" && *op != "roundToIntegral");
    }
    if F::NAME == "x87" {
        checks.push(("x87 decode", check_x87_decode::<F>));
    }
    if F::NAME == "f32" || F::NAME == "f64" {
        checks.push(("host (RNE)", check_host::<F>));
    }
    checks
}

/// Results of one operation on one format.
pub struct Tally {
    pub op: &'static str,
    pub format: &'static str,
    pub cases: u64,
    pub mismatches: u64,
    pub examples: Vec<String>,
    pub seconds: f64,
}

/// Runs `cases` cases of every check (those named in `only`, if given)
/// on format `F`.
pub fn run_format<F: RefFloat>(cases: u64, seed: u64, only: Option<&[String]>) -> Vec<Tally> {
    let mut tallies = Vec::new();
    for (index, (op, check)) in checks::<F>().into_iter().enumerate() {
        if only.is_some_and(|names| !names.iter().any(|n| n == op)) {
            continue;
        }
        let mut g = Gen::<F>::new(seed ^ (index as u64 + 1) << 32);
        let mut tally = Tally { op, format: F::NAME, cases, mismatches: 0, examples: Vec::new(), seconds: 0.0 };
        let start = std::time::Instant::now();
        for _ in 0..cases {
            if let Err(message) = check(&mut g) {
                tally.mismatches += 1;
                if tally.examples.len() < 5 {
                    tally.examples.push(message);
                }
            }
        }
        tally.seconds = start.elapsed().as_secs_f64();
        tallies.push(tally);
    }
    tallies
}

/// A table of tallies, one line per operation and format.
pub fn table(tallies: &[Tally]) -> String {
    let mut text = format!("{:<16} {:<6} {:>10} {:>10} {:>9}\n", "operation", "format", "cases", "mismatches", "seconds");
    for t in tallies {
        text.push_str(&format!("{:<16} {:<6} {:>10} {:>10} {:>9.2}\n", t.op, t.format, t.cases, t.mismatches, t.seconds));
        for example in &t.examples {
            text.push_str(&format!("    {example}\n"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decimal check accepts exactly one result per mode: the crate's
    /// answer passes and its neighbours fail (so the check can fail).
    #[test]
    fn decimal_check_rejects_neighbours() {
        let texts = ["0.1", "-2.5", "1e-320", "-4.9406564584124654e-324", "1.7976931348623158e308", "1e999", "0.5e-324", "3"];
        for text in texts {
            let decimal = exact::Decimal::parse(text).unwrap();
            for mode in RoundingMode::ALL {
                let got = Fp::parse(Format::DOUBLE, text, mode).unwrap();
                assert!(rounds_decimal_correctly(&decimal, got, mode), "{text} {mode:?} {got}");
                for neighbour in [got.to_bits().wrapping_add(1), got.to_bits().wrapping_sub(1)] {
                    let neighbour = Fp::from_bits(Format::DOUBLE, neighbour & bits_mask(64));
                    assert!(!rounds_decimal_correctly(&decimal, neighbour, mode), "{text} {mode:?} accepted {neighbour}");
                }
            }
        }
    }
}
