//! `cargo xtask fp-oracle`: checks tarsier's floating-point semantics
//! against the machine. A seeded generator picks operand bit patterns, the
//! host C compiler computes every operation natively in one batch program
//! (`-O0 -frounding-math -ffp-contract=off`, operands read from a table at
//! run time so nothing is folded), and each case becomes two verification
//! tasks: the native result asserted (TRUE expected) and one result bit
//! flipped (FALSE expected). Any other definite answer is a soundness bug.
//!
//! The formats are float, double and x87 `long double` (`ldouble`), whose
//! operands and results are compared by their 80 value bits (the padding
//! bytes are not part of the value); only canonical x87 encodings are
//! generated. Long double converts to double.
//!
//! What a task checks about its result:
//! - a non-NaN float result: all of its bits;
//! - a NaN result: only that it is a NaN (`r != r`). C (Annex F) fixes
//!   neither the sign nor the payload of a NaN, so the host's default NaN
//!   (0xffc00000 on x86) is not something a verifier must reproduce;
//! - `fmin`/`fmax` of two zeros: only that the result is a zero, since C
//!   allows either zero to be returned;
//! - integer and comparison results: all of their bits.
//!
//! Round-to-nearest tasks do not call `fesetround`: it is the mode every C
//! program starts in, and leaving the call out keeps those cases testable
//! while a verifier still refuses rounding-mode changes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;
use xtask::oracle::{fresh_dir, report_wrong, run_native, run_tarsier, score, unknown_reasons, Rng, Score, Task};
use xtask::runner::parallel_map;

/// A binary floating-point format of C: IEEE binary32 and binary64, and
/// x87 extended precision (`long double` on x86-64: 80 bits, a 64-bit
/// significand with an explicit integer bit, stored in 16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    Float,
    Double,
    LongDouble,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::Float, Format::Double, Format::LongDouble];

    /// The name on the command line and in task file names.
    fn name(self) -> &'static str {
        match self {
            Format::Float => "float",
            Format::Double => "double",
            Format::LongDouble => "ldouble",
        }
    }

    fn c_type(self) -> &'static str {
        match self {
            Format::Float => "float",
            Format::Double => "double",
            Format::LongDouble => "long double",
        }
    }

    /// Bits of the value (x87: without the padding bytes).
    fn width(self) -> u32 {
        match self {
            Format::Float => 32,
            Format::Double => 64,
            Format::LongDouble => 80,
        }
    }

    /// Fraction bits below the integer bit (hidden or, in x87, explicit).
    fn fraction_bits(self) -> u32 {
        match self {
            Format::Float => 23,
            Format::Double => 52,
            Format::LongDouble => 63,
        }
    }

    /// Where the exponent field starts: above the fraction, and in x87
    /// above the explicit integer bit too.
    fn exponent_shift(self) -> u32 {
        match self {
            Format::LongDouble => 64,
            _ => self.fraction_bits(),
        }
    }

    fn exponent_bias(self) -> u64 {
        self.max_exponent_field() / 2
    }

    fn max_exponent_field(self) -> u64 {
        (1 << (self.width() - 1 - self.exponent_shift())) - 1
    }

    /// The suffix of the libm function for this format (`sqrtf`, `sqrt`,
    /// `sqrtl`).
    fn libm_suffix(self) -> &'static str {
        match self {
            Format::Float => "f",
            Format::Double => "",
            Format::LongDouble => "l",
        }
    }

    /// The format of [`Op::Convert`]'s result: float and double convert
    /// to each other, long double to double.
    fn other(self) -> Format {
        match self {
            Format::Float | Format::LongDouble => Format::Double,
            Format::Double => Format::Float,
        }
    }

    /// The encoding of the fields; x87's integer bit is set exactly when
    /// the exponent field is nonzero (pseudo-denormals and the other
    /// non-canonical encodings are not valid operands).
    fn pattern(self, sign: bool, exponent: u64, fraction: u64) -> u128 {
        let fraction_mask = (1u128 << self.fraction_bits()) - 1;
        let integer_bit = u128::from(self == Format::LongDouble && exponent != 0) << self.fraction_bits();
        (u128::from(sign) << (self.width() - 1)) | (u128::from(exponent) << self.exponent_shift()) | integer_bit | (u128::from(fraction) & fraction_mask)
    }

    fn exponent_field(self, bits: u128) -> u64 {
        (bits >> self.exponent_shift()) as u64 & self.max_exponent_field()
    }

    fn is_nan(self, bits: u128) -> bool {
        let fraction_mask = (1u128 << self.fraction_bits()) - 1;
        self.exponent_field(bits) == self.max_exponent_field() && bits & fraction_mask != 0
    }

    /// `bits` with a signalling NaN made quiet. C leaves what `fmin` and
    /// `fmax` do with a signalling NaN open (the host returns a NaN, the
    /// quiet-NaN rule would return the other operand), so they get only
    /// quiet ones.
    fn quieted(self, bits: u128) -> u128 {
        if self.is_nan(bits) {
            bits | 1 << (self.fraction_bits() - 1)
        } else {
            bits
        }
    }

    fn is_zero(self, bits: u128) -> bool {
        bits & !(1u128 << (self.width() - 1)) == 0
    }
}

/// An operation under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Fma,
    Sqrt,
    Fmod,
    Remainder,
    Fmin,
    Fmax,
    Rint,
    Nearbyint,
    /// To the other format (float→double or double→float).
    Convert,
    /// From `long long` to the format.
    FromInt,
    /// From the format to `int`, operands in range only.
    ToInt,
    Lt,
    Le,
    Eq,
}

impl Op {
    pub const ALL: [Op; 18] = [
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Div,
        Op::Fma,
        Op::Sqrt,
        Op::Fmod,
        Op::Remainder,
        Op::Fmin,
        Op::Fmax,
        Op::Rint,
        Op::Nearbyint,
        Op::Convert,
        Op::FromInt,
        Op::ToInt,
        Op::Lt,
        Op::Le,
        Op::Eq,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Fma => "fma",
            Op::Sqrt => "sqrt",
            Op::Fmod => "fmod",
            Op::Remainder => "remainder",
            Op::Fmin => "fmin",
            Op::Fmax => "fmax",
            Op::Rint => "rint",
            Op::Nearbyint => "nearbyint",
            Op::Convert => "convert",
            Op::FromInt => "from-int",
            Op::ToInt => "to-int",
            Op::Lt => "lt",
            Op::Le => "le",
            Op::Eq => "eq",
        }
    }

    fn arity(self) -> usize {
        match self {
            Op::Fma => 3,
            Op::Sqrt | Op::Rint | Op::Nearbyint | Op::Convert | Op::FromInt | Op::ToInt => 1,
            _ => 2,
        }
    }

    /// The C expression over the operands `x`, `y`, `z`.
    fn expression(self, format: Format) -> String {
        let libm = |name: &str, args: &str| format!("{name}{}({args})", format.libm_suffix());
        match self {
            Op::Add => "x + y".into(),
            Op::Sub => "x - y".into(),
            Op::Mul => "x * y".into(),
            Op::Div => "x / y".into(),
            Op::Fma => libm("fma", "x, y, z"),
            Op::Sqrt => libm("sqrt", "x"),
            Op::Fmod => libm("fmod", "x, y"),
            Op::Remainder => libm("remainder", "x, y"),
            Op::Fmin => libm("fmin", "x, y"),
            Op::Fmax => libm("fmax", "x, y"),
            Op::Rint => libm("rint", "x"),
            Op::Nearbyint => libm("nearbyint", "x"),
            Op::Convert => format!("({})x", format.other().c_type()),
            Op::FromInt => format!("({})x", format.c_type()),
            Op::ToInt => "(int)x".into(),
            Op::Lt => "x < y".into(),
            Op::Le => "x <= y".into(),
            Op::Eq => "x == y".into(),
        }
    }

    /// The C type of the operands.
    fn operand_type(self, format: Format) -> &'static str {
        if self == Op::FromInt {
            "long long"
        } else {
            format.c_type()
        }
    }

    fn result(self, format: Format) -> ResultKind {
        match self {
            Op::Convert => ResultKind::Float(format.other()),
            Op::ToInt => ResultKind::Int,
            Op::Lt | Op::Le | Op::Eq => ResultKind::Truth,
            _ => ResultKind::Float(format),
        }
    }
}

/// The C type of a result, which decides how its bits are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ResultKind {
    Float(Format),
    /// `int`, 32 bits.
    Int,
    /// A comparison: 0 or 1.
    Truth,
}

impl ResultKind {
    fn c_type(self) -> &'static str {
        match self {
            ResultKind::Float(f) => f.c_type(),
            ResultKind::Int | ResultKind::Truth => "int",
        }
    }

    /// Declarations of `{var}_bits` holding the bits of `var` (for long
    /// double `{var}_low` and `{var}_high`, the 80 bits without padding).
    fn read_bits(self, var: &str) -> String {
        let word = match self {
            ResultKind::Float(Format::LongDouble) => {
                return format!(
                    "  uint64_t {var}_low;\n  uint16_t {var}_high;\n  memcpy(&{var}_low, &{var}, 8);\n  memcpy(&{var}_high, (char *)&{var} + 8, 2);"
                )
            }
            ResultKind::Float(Format::Float) | ResultKind::Int | ResultKind::Truth => "uint32_t",
            ResultKind::Float(Format::Double) => "uint64_t",
        };
        format!("  {word} {var}_bits;\n  memcpy(&{var}_bits, &{var}, sizeof {var}_bits);")
    }

    /// The C condition that the bits read by [`Self::read_bits`] are `bits`.
    fn bits_equal(self, var: &str, bits: u128) -> String {
        match self {
            ResultKind::Float(Format::LongDouble) => {
                format!("{var}_low == 0x{:x}ull && {var}_high == 0x{:x}u", bits as u64, bits >> 64)
            }
            _ if self.width() > 32 => format!("{var}_bits == 0x{bits:x}ull"),
            _ => format!("{var}_bits == 0x{bits:x}u"),
        }
    }

    fn width(self) -> u32 {
        match self {
            ResultKind::Float(f) => f.width(),
            ResultKind::Int => 32,
            ResultKind::Truth => 1,
        }
    }
}

/// An IEEE rounding direction as `<fenv.h>` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mode {
    ToNearest,
    Upward,
    Downward,
    TowardZero,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::ToNearest, Mode::Upward, Mode::Downward, Mode::TowardZero];

    fn macro_name(self) -> &'static str {
        match self {
            Mode::ToNearest => "FE_TONEAREST",
            Mode::Upward => "FE_UPWARD",
            Mode::Downward => "FE_DOWNWARD",
            Mode::TowardZero => "FE_TOWARDZERO",
        }
    }

    fn short_name(self) -> &'static str {
        match self {
            Mode::ToNearest => "rne",
            Mode::Upward => "rup",
            Mode::Downward => "rdn",
            Mode::TowardZero => "rtz",
        }
    }
}

/// One operation on chosen operands; `operands` are bit patterns of the
/// format (of `long long` for [`Op::FromInt`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub op: Op,
    pub format: Format,
    pub mode: Mode,
    pub operands: Vec<u128>,
    /// Which result bit the FALSE variant flips (below the result width).
    pub flip_bit: u32,
}

/// What a task asserts about the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// All bits of the result equal these.
    Bits(u128),
    /// The result is a NaN (any sign or payload).
    IsNan,
    /// The result is a zero (either sign).
    IsZero,
}

impl Check {
    /// What the native result lets a task check (see the module comment).
    fn of_native(case: &Case, bits: u128) -> Check {
        match case.op.result(case.format) {
            ResultKind::Float(f) if f.is_nan(bits) => Check::IsNan,
            ResultKind::Float(f) if matches!(case.op, Op::Fmin | Op::Fmax) && case.operands.iter().all(|&o| f.is_zero(o)) => Check::IsZero,
            _ => Check::Bits(bits),
        }
    }

    /// The C condition on `r` (the result) and `r_bits` (its bits);
    /// `flipped` states the opposite of the truth.
    fn condition(self, case: &Case, flipped: bool) -> String {
        let kind = case.op.result(case.format);
        match self {
            Check::Bits(bits) => kind.bits_equal("r", if flipped { bits ^ (1 << case.flip_bit) } else { bits }),
            Check::IsNan if flipped => "r == r".into(),
            Check::IsNan => "r != r".into(),
            Check::IsZero if flipped => "r != 0".into(),
            Check::IsZero => "r == 0".into(),
        }
    }
}

/// The values where IEEE arithmetic has its corner cases: zeros,
/// infinities, NaNs (quiet and signalling), the subnormal and normal
/// extremes, one and its neighbours.
pub fn special_patterns(format: Format) -> Vec<u128> {
    let max_exp = format.max_exponent_field();
    let all_fraction = (1u64 << format.fraction_bits()) - 1;
    let quiet = 1u64 << (format.fraction_bits() - 1);
    let one = format.exponent_bias();
    let mut patterns = Vec::new();
    for sign in [false, true] {
        let p = |exponent, fraction| format.pattern(sign, exponent, fraction);
        patterns.extend([
            p(0, 0),
            p(max_exp, 0),
            p(max_exp, quiet),
            p(max_exp, 1),
            p(0, 1),
            p(0, all_fraction),
            p(1, 0),
            p(max_exp - 1, all_fraction),
            p(one, 0),
            p(one, 1),
            p(one - 1, all_fraction),
            p(one + 1, 0),
            p(one - 1, 0),
        ]);
    }
    patterns
}

/// A random finite or special pattern, biased towards exponents where
/// rounding is interesting: tiny (subnormal results), around one, huge
/// (overflow), or near `near_exponent` (cancellation in add/sub).
pub fn random_pattern(rng: &mut Rng, format: Format, near_exponent: Option<u64>) -> u128 {
    if rng.chance(4) {
        return rng.pick(&special_patterns(format));
    }
    let max_exp = format.max_exponent_field();
    let bias = format.exponent_bias();
    let spread = |rng: &mut Rng, centre: u64, width: u64| (centre + rng.below(2 * width + 1)).saturating_sub(width).min(max_exp - 1);
    let exponent = match (rng.below(5), near_exponent) {
        (0, _) => rng.below(3),
        (1, _) => max_exp - 1 - rng.below(3),
        (2 | 3, Some(e)) => spread(rng, e, 2 + u64::from(format.fraction_bits())),
        (2, None) => spread(rng, bias, 4),
        _ => rng.below(max_exp),
    };
    let fraction = match rng.below(3) {
        // Few significant bits: exact results and ties.
        0 => rng.next_u64() & (0b111u64 << (format.fraction_bits() - 3)),
        _ => rng.next_u64(),
    };
    format.pattern(rng.chance(2), exponent, fraction)
}

/// A finite value whose truncation fits `int` (the conversion is undefined
/// otherwise).
fn int_range_pattern(rng: &mut Rng, format: Format) -> u128 {
    let bias = format.exponent_bias();
    let exponent = match rng.below(4) {
        0 => rng.below(bias),
        _ => bias + rng.below(31),
    };
    format.pattern(rng.chance(2), exponent, rng.next_u64())
}

/// A `long long` bit pattern: extremes, values around the format's
/// precision limit (where int→float rounds), or random magnitudes.
fn integer_pattern(rng: &mut Rng, format: Format) -> u128 {
    // Every `long long` is exact in long double: its limit stays below 2^63.
    let precision = (format.fraction_bits() + 1).min(62);
    let value: i64 = match rng.below(4) {
        0 => rng.pick(&[0, 1, -1, i64::MAX, i64::MIN, i64::MIN + 1]),
        1 => (1i64 << precision) + rng.pick(&[-1, 1, 2, 3]),
        _ => {
            let magnitude = rng.next_u64() >> rng.below(64);
            if rng.chance(2) {
                (magnitude as i64).wrapping_neg()
            } else {
                magnitude as i64
            }
        }
    };
    u128::from(value as u64)
}

/// `count` cases of `op` on `format` under `mode`.
pub fn generate_cases(rng: &mut Rng, op: Op, format: Format, mode: Mode, count: usize) -> Vec<Case> {
    (0..count)
        .map(|_| {
            let operands = match op {
                Op::FromInt => vec![integer_pattern(rng, format)],
                Op::ToInt => vec![int_range_pattern(rng, format)],
                _ => {
                    let first = random_pattern(rng, format, None);
                    let exponent = format.exponent_field(first);
                    let mut operands = vec![first];
                    operands.extend((1..op.arity()).map(|_| random_pattern(rng, format, Some(exponent))));
                    operands
                }
            };
            let operands = if matches!(op, Op::Fmin | Op::Fmax) { operands.into_iter().map(|o| format.quieted(o)).collect() } else { operands };
            let flip_bit = rng.below(u64::from(op.result(format).width())) as u32;
            Case { op, format, mode, operands, flip_bit }
        })
        .collect()
}

const HEADERS: &str = "#include <fenv.h>\n#include <math.h>\n#include <stdint.h>\n#include <string.h>\n";

/// The batch program: computes every case natively and prints one line
/// `<index> <result bits in hex>` per case.
pub fn native_program(cases: &[Case]) -> String {
    let mut text = String::from(HEADERS);
    text.push_str("#include <stdio.h>\n#pragma STDC FENV_ACCESS ON\n");
    text.push_str(
        "typedef unsigned __int128 bits_t;\n\
         static float f32(bits_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }\n\
         static double f64(bits_t b) { uint64_t u = (uint64_t)b; double d; memcpy(&d, &u, 8); return d; }\n\
         static long double f80(bits_t b) { long double d = 0; memcpy(&d, &b, 10); return d; }\n\
         static bits_t b32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }\n\
         static bits_t b64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }\n\
         static bits_t b80(long double d) { bits_t u = 0; memcpy(&u, &d, 10); return u; }\n",
    );
    let combos: Vec<(Op, Format)> = distinct_combos(cases);
    text.push_str(&eval_function(&combos));
    text.push_str(&case_table(cases, &combos));
    text.push_str(
        "int main(void) {\n  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {\n\
         \x20   if (fesetround(cases[i].mode) != 0) return 2;\n\
         \x20   const bits_t a[3] = { OPERAND(0), OPERAND(1), OPERAND(2) };\n\
         \x20   bits_t bits = eval(cases[i].combo, a);\n\
         \x20   fesetround(FE_TONEAREST);\n\
         \x20   printf(\"%zu %llx%016llx\\n\", i, (unsigned long long)(bits >> 64), (unsigned long long)bits);\n  }\n  return 0;\n}\n",
    );
    text
}

/// `eval(combo, operands)`: one branch per operation and format, operands
/// and result in `volatile` variables so the compiler computes at run time.
fn eval_function(combos: &[(Op, Format)]) -> String {
    let mut text = String::from("static bits_t eval(int combo, const bits_t *a) {\n  switch (combo) {\n");
    for (index, &(op, format)) in combos.iter().enumerate() {
        let read = |i: usize| match (op, format) {
            (Op::FromInt, _) => format!("(long long)a[{i}]"),
            (_, Format::Float) => format!("f32(a[{i}])"),
            (_, Format::Double) => format!("f64(a[{i}])"),
            (_, Format::LongDouble) => format!("f80(a[{i}])"),
        };
        let ty = op.operand_type(format);
        let result = op.result(format);
        let bits = match result {
            ResultKind::Float(Format::Float) => "b32(r)",
            ResultKind::Float(Format::Double) => "b64(r)",
            ResultKind::Float(Format::LongDouble) => "b80(r)",
            ResultKind::Int | ResultKind::Truth => "(uint32_t)r",
        };
        let _ = writeln!(
            text,
            "  case {index}: {{ volatile {ty} x = {}, y = {}, z = {}; volatile {} r = {}; return {bits}; }}",
            read(0),
            read(1),
            read(2),
            result.c_type(),
            op.expression(format)
        );
    }
    text.push_str("  }\n  return 0;\n}\n");
    text
}

/// The `cases` table: operation, rounding mode and operand bits per case
/// (low and high 64 bits: C has no 128-bit constants), and `OPERAND(i)`
/// joining the halves.
fn case_table(cases: &[Case], combos: &[(Op, Format)]) -> String {
    let mut text = String::from("static const struct { int combo, mode; unsigned long long low[3], high[3]; } cases[] = {\n");
    for case in cases {
        let combo = combos.iter().position(|&c| c == (case.op, case.format)).unwrap_or_default();
        let operand = |i: usize| case.operands.get(i).copied().unwrap_or(0);
        let halves = |shift: u32| (0..3).map(|i| format!("0x{:x}ull", (operand(i) >> shift) as u64)).collect::<Vec<_>>().join(", ");
        let _ = writeln!(text, "  {{ {combo}, {}, {{ {} }}, {{ {} }} }},", case.mode.macro_name(), halves(0), halves(64));
    }
    text.push_str("};\n#define OPERAND(j) ((bits_t)cases[i].high[j] << 64 | cases[i].low[j])\n");
    text
}

fn distinct_combos(cases: &[Case]) -> Vec<(Op, Format)> {
    let mut combos: Vec<(Op, Format)> = cases.iter().map(|c| (c.op, c.format)).collect();
    combos.sort();
    combos.dedup();
    combos
}

/// Reads the batch program's output: one result per case, in order.
pub fn parse_native_output(text: &str, count: usize) -> Result<Vec<u128>, String> {
    let mut results = vec![None; count];
    for (number, line) in text.lines().enumerate() {
        let malformed = || format!("native output line {}: malformed '{line}'", number + 1);
        let (index, bits) = line.split_once(' ').ok_or_else(malformed)?;
        let index: usize = index.parse().map_err(|_| malformed())?;
        let bits = u128::from_str_radix(bits.trim(), 16).map_err(|_| malformed())?;
        *results.get_mut(index).ok_or_else(malformed)? = Some(bits);
    }
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.ok_or(format!("native output has no result for case {i}")))
        .collect()
}

/// The verification task of one case: operands pinned by their bits, the
/// operation under the case's mode, and the check (or its negation when
/// `flipped`) asserted.
pub fn task_program(case: &Case, check: Check, flipped: bool) -> String {
    let mut text = task_comment(case, check, flipped);
    text.push_str(HEADERS);
    let ty = case.op.operand_type(case.format);
    let nondet = if case.op == Op::FromInt { "longlong".to_string() } else { ty.replace(' ', "_") };
    let _ = writeln!(text, "extern {ty} __VERIFIER_nondet_{nondet}(void);");
    text.push_str("extern void __VERIFIER_assume(int);\nextern void __VERIFIER_assert(int);\n\nint main(void) {\n");
    for (operand, &bits) in ["x", "y", "z"].iter().zip(&case.operands) {
        let _ = writeln!(text, "  {ty} {operand} = __VERIFIER_nondet_{nondet}();");
        if case.op == Op::FromInt {
            let _ = writeln!(text, "  __VERIFIER_assume({operand} == {});", long_long_literal(bits as i64));
        } else {
            let kind = ResultKind::Float(case.format);
            let _ = writeln!(text, "{}\n  __VERIFIER_assume({});", kind.read_bits(operand), kind.bits_equal(operand, bits));
        }
    }
    if case.mode != Mode::ToNearest {
        let _ = writeln!(text, "  fesetround({});", case.mode.macro_name());
    }
    let result = case.op.result(case.format);
    let _ = writeln!(text, "  {} r = {};", result.c_type(), case.op.expression(case.format));
    let _ = writeln!(text, "{}", result.read_bits("r"));
    let _ = writeln!(text, "  __VERIFIER_assert({});\n  return 0;\n}}", check.condition(case, flipped));
    text
}

/// The task's opening comment: what it computes, what it checks and the
/// verdict it expects, for whoever re-runs it.
fn task_comment(case: &Case, check: Check, flipped: bool) -> String {
    let operands: Vec<String> = case.operands.iter().map(|o| format!("0x{o:x}")).collect();
    let checked = match check {
        Check::Bits(bits) if flipped => format!("the result's bits equal 0x{bits:x} with bit {} flipped", case.flip_bit),
        Check::Bits(bits) => format!("the result's bits equal the native 0x{bits:x}"),
        Check::IsNan => format!("the result is {}a NaN (C fixes no NaN sign or payload)", if flipped { "not " } else { "" }),
        Check::IsZero => format!("the result is {}a zero (C lets fmin/fmax return either zero)", if flipped { "not " } else { "" }),
    };
    let verdict = if flipped { "FALSE" } else { "TRUE" };
    format!(
        "/* fp-oracle: {} on {} under {}, operand bits {}.\n   Checks that {checked}; expected {verdict}. */\n",
        case.op.name(),
        case.format.name(),
        case.mode.macro_name(),
        operands.join(", ")
    )
}

/// `value` as a C constant of type `long long` (the most negative one has
/// no literal of its own).
fn long_long_literal(value: i64) -> String {
    if value == i64::MIN {
        format!("({}LL - 1)", i64::MIN + 1)
    } else {
        format!("{value}LL")
    }
}

/// Options of `cargo xtask fp-oracle`.
pub struct Options {
    pub cases: usize,
    pub ops: Vec<Op>,
    pub formats: Vec<Format>,
    pub modes: Vec<Mode>,
    pub seed: u64,
    pub jobs: usize,
    pub timeout: Duration,
    pub tarsier: Option<PathBuf>,
}

pub fn parse_ops(list: &str) -> Result<Vec<Op>, String> {
    parse_list(list, &Op::ALL, |op| op.name(), "operation")
}

pub fn parse_formats(list: &str) -> Result<Vec<Format>, String> {
    parse_list(list, &Format::ALL, |f| f.name(), "format")
}

pub fn parse_modes(list: &str) -> Result<Vec<Mode>, String> {
    parse_list(list, &Mode::ALL, |m| m.short_name(), "rounding mode")
}

/// A comma-separated selection from `all` by name, or `all`.
fn parse_list<T: Copy>(list: &str, all: &[T], name: fn(T) -> &'static str, what: &str) -> Result<Vec<T>, String> {
    if list == "all" {
        return Ok(all.to_vec());
    }
    list.split(',')
        .map(|word| {
            all.iter().copied().find(|&item| name(item) == word).ok_or_else(|| {
                let known: Vec<&str> = all.iter().map(|&i| name(i)).collect();
                format!("unknown {what} '{word}' (known: {}, all)", known.join(","))
            })
        })
        .collect()
}

/// Generates, computes natively, writes and runs every case; returns
/// whether every definite answer was right.
pub fn run(opts: &Options, binary: &Path, out_dir: &Path) -> Result<bool, String> {
    let mut rng = Rng::new(opts.seed);
    let mut cases = Vec::new();
    for &op in &opts.ops {
        for &format in &opts.formats {
            for &mode in &opts.modes {
                cases.extend(generate_cases(&mut rng, op, format, mode, opts.cases));
            }
        }
    }
    if cases.is_empty() {
        return Err("no case selected (--cases 0?)".into());
    }
    let native = native_results(&cases, out_dir)?;
    let tasks = write_tasks(&cases, &native, &out_dir.join("cases"))?;
    eprintln!("fp-oracle: {} cases, {} tasks, {} jobs, seed {}", cases.len(), tasks.len(), opts.jobs, opts.seed);
    let total = tasks.len();
    let outcomes = parallel_map(&tasks, opts.jobs, |task| run_tarsier(binary, &task.path, &[], opts.timeout), |done| {
        if done % 200 == 0 || done == total {
            eprintln!("  {done}/{total}");
        }
    });
    let scores: Vec<Score> = tasks.iter().zip(&outcomes).map(|(t, o)| score(o, t.expect_true)).collect();
    print!("{}", render_table(&cases, &tasks, &scores));
    print!("{}", unknown_reasons(&outcomes));
    let wrong: Vec<&Task> = tasks.iter().zip(&scores).filter(|(_, &s)| s == Score::Wrong).map(|(t, _)| t).collect();
    report_wrong(&wrong, &out_dir.join("wrong"))?;
    Ok(wrong.is_empty())
}

/// Compiles and runs the batch program once for all cases.
fn native_results(cases: &[Case], out_dir: &Path) -> Result<Vec<u128>, String> {
    let flags = ["-O0", "-frounding-math", "-ffp-contract=off", "-lm"];
    let output = run_native(&native_program(cases), out_dir, &flags, Duration::from_secs(60)).map_err(|e| format!("{e} (2: fesetround refused a mode)"))?;
    parse_native_output(&output, cases.len())
}

fn write_tasks(cases: &[Case], native: &[u128], dir: &Path) -> Result<Vec<Task>, String> {
    fresh_dir(dir)?;
    let mut tasks = Vec::new();
    for (index, (case, &bits)) in cases.iter().zip(native).enumerate() {
        let check = Check::of_native(case, bits);
        for flipped in [false, true] {
            let variant = if flipped { "flip" } else { "same" };
            let name = format!("{}-{}-{}-{index:05}-{variant}.c", case.op.name(), case.format.name(), case.mode.short_name());
            let path = dir.join(name);
            std::fs::write(&path, task_program(case, check, flipped)).map_err(|e| format!("{}: {e}", path.display()))?;
            tasks.push(Task { case: index, path, expect_true: !flipped });
        }
    }
    Ok(tasks)
}

/// The op × format × mode table with totals.
fn render_table(cases: &[Case], tasks: &[Task], scores: &[Score]) -> String {
    let mut rows: BTreeMap<(Op, Format, Mode), [usize; 5]> = BTreeMap::new();
    for (task, &score) in tasks.iter().zip(scores) {
        let case = &cases[task.case];
        rows.entry((case.op, case.format, case.mode)).or_default()[score as usize] += 1;
    }
    let mut text = format!("{:<10} {:<6} {:<4} {:>7} {:>6} {:>7} {:>7} {:>6}\n", "op", "format", "mode", "correct", "wrong", "unknown", "timeout", "error");
    let mut totals = [0usize; 5];
    for ((op, format, mode), counts) in &rows {
        let _ = writeln!(text, "{:<10} {:<6} {:<4} {:>7} {:>6} {:>7} {:>7} {:>6}", op.name(), format.name(), mode.short_name(), counts[0], counts[1], counts[2], counts[3], counts[4]);
        for (total, count) in totals.iter_mut().zip(counts) {
            *total += count;
        }
    }
    let _ = writeln!(text, "{:<21} {:>7} {:>6} {:>7} {:>7} {:>6}", "total", totals[0], totals[1], totals[2], totals[3], totals[4]);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn case(op: Op, format: Format, operands: Vec<u128>) -> Case {
        Case { op, format, mode: Mode::Upward, operands, flip_bit: 3 }
    }

    #[test]
    fn special_patterns_cover_the_corner_values() {
        let float = special_patterns(Format::Float);
        for expected in [0, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x1, 0x007f_ffff, 0x0080_0000, 0x7f7f_ffff, 0x3f80_0000, 0x3f80_0001, 0x3f7f_ffff] {
            assert!(float.contains(&expected), "missing {expected:#x}");
        }
        let double = special_patterns(Format::Double);
        assert!(double.contains(&0x3ff0_0000_0000_0000) && double.contains(&0x7ff8_0000_0000_0000));
        assert!(double.contains(&0x000f_ffff_ffff_ffff) && double.contains(&0xfff0_0000_0000_0000));
    }

    /// x87 patterns carry the explicit integer bit exactly when the
    /// exponent field is nonzero: no pseudo-denormals or unnormals.
    #[test]
    fn long_double_patterns_are_canonical_x87_encodings() {
        let specials = special_patterns(Format::LongDouble);
        for expected in [0x3fff_8000_0000_0000_0000u128, 0x7fff_8000_0000_0000_0000, 0x7fff_c000_0000_0000_0000, 0x1, 0x0001_8000_0000_0000_0000, 0x7ffe_ffff_ffff_ffff_ffff] {
            assert!(specials.contains(&expected), "missing {expected:#x}");
        }
        let mut rng = Rng::new(13);
        for op in Op::ALL {
            for c in generate_cases(&mut rng, op, Format::LongDouble, Mode::ToNearest, 100) {
                assert!(c.flip_bit < op.result(Format::LongDouble).width(), "{c:?}");
                if op == Op::FromInt {
                    continue;
                }
                for &o in &c.operands {
                    let integer_bit = o >> 63 & 1 == 1;
                    assert!(o >> 80 == 0 && integer_bit == (Format::LongDouble.exponent_field(o) != 0), "{o:#x}");
                }
            }
        }
    }

    #[test]
    fn generation_is_deterministic_and_within_width() {
        let first = generate_cases(&mut Rng::new(7), Op::Fma, Format::Float, Mode::Downward, 50);
        assert_eq!(first, generate_cases(&mut Rng::new(7), Op::Fma, Format::Float, Mode::Downward, 50));
        assert_ne!(first, generate_cases(&mut Rng::new(8), Op::Fma, Format::Float, Mode::Downward, 50));
        for c in &first {
            assert_eq!(c.operands.len(), 3);
            assert!(c.operands.iter().all(|&o| o >> 32 == 0) && c.flip_bit < 32);
        }
        let compare = generate_cases(&mut Rng::new(1), Op::Lt, Format::Double, Mode::ToNearest, 20);
        assert!(compare.iter().all(|c| c.flip_bit == 0 && c.operands.len() == 2));
    }

    #[test]
    fn fmin_and_fmax_get_only_quiet_nans() {
        let quiet = 1u128 << 51;
        for c in generate_cases(&mut Rng::new(5), Op::Fmax, Format::Double, Mode::Upward, 300) {
            assert!(c.operands.iter().all(|&o| !f64::from_bits(o as u64).is_nan() || o & quiet != 0), "{c:?}");
        }
        assert!(special_patterns(Format::Double).iter().any(|&o| f64::from_bits(o as u64).is_nan() && o & quiet == 0));
    }

    #[test]
    fn to_int_operands_are_finite_and_in_range() {
        for c in generate_cases(&mut Rng::new(3), Op::ToInt, Format::Double, Mode::TowardZero, 500) {
            let value = f64::from_bits(c.operands[0] as u64);
            assert!(value.is_finite() && value.trunc().abs() < 2147483648.0, "{value}");
        }
        for c in generate_cases(&mut Rng::new(3), Op::ToInt, Format::Float, Mode::TowardZero, 500) {
            let value = f32::from_bits(c.operands[0] as u32);
            assert!(value.is_finite() && value.trunc().abs() < 2147483648.0, "{value}");
        }
    }

    #[test]
    fn random_patterns_reach_subnormals_huge_values_and_specials() {
        let mut rng = Rng::new(11);
        let values: Vec<f64> = (0..2000).map(|_| f64::from_bits(random_pattern(&mut rng, Format::Double, None) as u64)).collect();
        assert!(values.iter().any(|v| v.is_subnormal()));
        assert!(values.iter().any(|v| v.is_finite() && v.abs() > 1e300));
        assert!(values.iter().any(|v| v.is_nan()) && values.iter().any(|v| v.is_infinite()));
    }

    #[test]
    fn checks_follow_the_native_result() {
        let add = case(Op::Add, Format::Float, vec![0x3f80_0000, 0x3f80_0000]);
        assert_eq!(Check::of_native(&add, 0x4000_0000), Check::Bits(0x4000_0000));
        assert_eq!(Check::of_native(&add, 0xffc0_0000), Check::IsNan);
        let zeros = case(Op::Fmin, Format::Double, vec![0, 0x8000_0000_0000_0000]);
        assert_eq!(Check::of_native(&zeros, 0x8000_0000_0000_0000), Check::IsZero);
        let convert = case(Op::Convert, Format::Float, vec![0x7fc0_0000]);
        assert_eq!(Check::of_native(&convert, 0x7ff8_0000_0000_0000), Check::IsNan);
        let compare = case(Op::Eq, Format::Float, vec![0x7fc0_0000, 0x7fc0_0000]);
        assert_eq!(Check::of_native(&compare, 0), Check::Bits(0));
    }

    #[test]
    fn task_text_pins_operands_and_flips_one_bit() {
        let add = case(Op::Add, Format::Float, vec![0x3f80_0000, 0x0000_0001]);
        let same = task_program(&add, Check::Bits(0x3f80_0000), false);
        assert!(same.contains("float x = __VERIFIER_nondet_float();"), "{same}");
        assert!(same.contains("__VERIFIER_assume(y_bits == 0x1u);"), "{same}");
        assert!(same.contains("fesetround(FE_UPWARD);\n  float r = x + y;"), "{same}");
        assert!(same.contains("__VERIFIER_assert(r_bits == 0x3f800000u);"), "{same}");
        assert!(same.starts_with("/* fp-oracle: add on float under FE_UPWARD, operand bits 0x3f800000, 0x1.\n"), "{same}");
        assert!(same.contains("bits equal the native 0x3f800000; expected TRUE. */"), "{same}");
        let flip = task_program(&add, Check::Bits(0x3f80_0000), true);
        assert!(flip.contains("with bit 3 flipped; expected FALSE. */"), "{flip}");
        assert!(flip.contains("__VERIFIER_assert(r_bits == 0x3f800008u);"), "{flip}");
        let nan = task_program(&add, Check::IsNan, true);
        assert!(nan.contains("__VERIFIER_assert(r == r);"), "{nan}");
        let nearest = Case { mode: Mode::ToNearest, ..add };
        assert!(!task_program(&nearest, Check::IsNan, false).contains("fesetround"));
    }

    /// Long double operands and results are read as 8 + 2 bytes, leaving
    /// the 6 padding bytes out.
    #[test]
    fn task_text_for_long_double_reads_the_80_value_bits() {
        let one = 0x3fff_8000_0000_0000_0000u128;
        let fmod = Case { flip_bit: 70, ..case(Op::Fmod, Format::LongDouble, vec![one, 0x1]) };
        let same = task_program(&fmod, Check::Bits(one), false);
        assert!(same.contains("long double x = __VERIFIER_nondet_long_double();"), "{same}");
        assert!(same.contains("uint64_t x_low;\n  uint16_t x_high;\n  memcpy(&x_low, &x, 8);\n  memcpy(&x_high, (char *)&x + 8, 2);"), "{same}");
        assert!(same.contains("__VERIFIER_assume(x_low == 0x8000000000000000ull && x_high == 0x3fffu);"), "{same}");
        assert!(same.contains("__VERIFIER_assume(y_low == 0x1ull && y_high == 0x0u);"), "{same}");
        assert!(same.contains("long double r = fmodl(x, y);"), "{same}");
        assert!(same.contains("__VERIFIER_assert(r_low == 0x8000000000000000ull && r_high == 0x3fffu);"), "{same}");
        let flip = task_program(&fmod, Check::Bits(one), true);
        assert!(flip.contains("__VERIFIER_assert(r_low == 0x8000000000000000ull && r_high == 0x3fbfu);"), "{flip}");
        let narrow = case(Op::Convert, Format::LongDouble, vec![one]);
        assert!(task_program(&narrow, Check::Bits(0), false).contains("double r = (double)x;\n  uint64_t r_bits;"));
    }

    #[test]
    fn task_text_for_conversions() {
        let from_int = case(Op::FromInt, Format::Double, vec![u128::from(u64::MAX)]);
        let text = task_program(&from_int, Check::Bits(0xbff0_0000_0000_0000), false);
        assert!(text.contains("long long x = __VERIFIER_nondet_longlong();"), "{text}");
        assert!(text.contains("__VERIFIER_assume(x == -1LL);"), "{text}");
        assert_eq!(long_long_literal(i64::MIN), "(-9223372036854775807LL - 1)");
        assert!(text.contains("double r = (double)x;") && text.contains("uint64_t r_bits;"), "{text}");
        let narrow = case(Op::Convert, Format::Double, vec![0]);
        assert!(task_program(&narrow, Check::Bits(0), false).contains("float r = (float)x;"));
        let to_int = case(Op::ToInt, Format::Float, vec![0]);
        assert!(task_program(&to_int, Check::Bits(0), false).contains("int r = (int)x;\n  uint32_t r_bits;"));
    }

    #[test]
    fn native_program_has_one_row_per_case_and_one_branch_per_operation() {
        let cases = vec![
            case(Op::Fma, Format::Float, vec![1, 2, 3]),
            case(Op::Fma, Format::Float, vec![4, 5, 6]),
            case(Op::Sqrt, Format::Double, vec![7]),
            case(Op::Remainder, Format::LongDouble, vec![0x3fff_8000_0000_0000_0001, 0x8]),
        ];
        let text = native_program(&cases);
        assert_eq!(text.matches("  case ").count(), 3, "{text}");
        assert!(text.contains("volatile float r = fmaf(x, y, z); return b32(r);"), "{text}");
        assert!(text.contains("volatile double r = sqrt(x); return b64(r);"), "{text}");
        assert!(text.contains("volatile long double r = remainderl(x, y); return b80(r);"), "{text}");
        assert!(text.contains("{ 0, FE_UPWARD, { 0x4ull, 0x5ull, 0x6ull }, { 0x0ull, 0x0ull, 0x0ull } },"), "{text}");
        assert!(text.contains("{ 1, FE_UPWARD, { 0x7ull, 0x0ull, 0x0ull }, { 0x0ull, 0x0ull, 0x0ull } },"), "{text}");
        assert!(text.contains("{ 2, FE_UPWARD, { 0x8000000000000001ull, 0x8ull, 0x0ull }, { 0x3fffull, 0x0ull, 0x0ull } },"), "{text}");
    }

    #[test]
    fn native_output_is_read_back_in_case_order() {
        assert_eq!(parse_native_output("1 ff\n0 3f800000\n", 2), Ok(vec![0x3f80_0000, 0xff]));
        assert_eq!(parse_native_output("0 3fff8000000000000001\n", 1), Ok(vec![0x3fff_8000_0000_0000_0001]));
        assert!(parse_native_output("0 12\n", 2).unwrap_err().contains("no result for case 1"));
        assert!(parse_native_output("0 zz\n", 1).unwrap_err().contains("malformed"));
        assert!(parse_native_output("5 1\n", 1).unwrap_err().contains("malformed"));
    }

    #[test]
    fn selections_parse_by_name() {
        assert_eq!(parse_ops("add,fma"), Ok(vec![Op::Add, Op::Fma]));
        assert_eq!(parse_modes("all").map(|m| m.len()), Ok(4));
        assert!(parse_formats("half").unwrap_err().contains("known: float,double"));
    }

    /// The whole native path, when a C compiler is present: 1 + 2^-24
    /// rounds down to nearest but up under FE_UPWARD.
    #[test]
    fn native_results_honour_the_rounding_mode() {
        if Command::new("gcc").arg("--version").output().is_err() {
            eprintln!("skipped: gcc not found");
            return;
        }
        let dir = std::env::temp_dir().join(format!("fp-oracle-test-{}", std::process::id()));
        let add = |mode| Case { op: Op::Add, format: Format::Float, mode, operands: vec![0x3f80_0000, 0x3380_0000], flip_bit: 0 };
        // 1 + 2^-64 in x87: the tie rounds to even, or up to 1 + 2^-63.
        let x87_one = 0x3fff_8000_0000_0000_0000u128;
        let x87_add = |mode| Case { format: Format::LongDouble, operands: vec![x87_one, 0x3fbf_8000_0000_0000_0000], ..add(mode) };
        let cases = [add(Mode::ToNearest), add(Mode::Upward), Case { op: Op::Sqrt, ..add(Mode::ToNearest) }, x87_add(Mode::ToNearest), x87_add(Mode::Upward)];
        let results = native_results(&cases, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(results, Ok(vec![0x3f80_0000, 0x3f80_0001, 0x3f80_0000, x87_one, x87_one + 1]));
    }
}
