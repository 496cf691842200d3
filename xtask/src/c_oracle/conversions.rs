//! The `convert` feature class: conversions between the integer types and
//! `float`, `double` and `long double` at their edges, checked against gcc
//! only (no second way).
//!
//! A case builds floating values from its inputs (converted, offset by an
//! edge constant, scaled by a power of two, or reinterpreted from an
//! input's bits so NaNs, infinities and subnormals occur), converts them
//! to other floating formats and back to every integer type, `_Bool`
//! included, and applies compound assignments with a floating right
//! operand to integer variables (`i += 0.5`, `b *= -0.0`). Every
//! conversion to an integer type other than `_Bool` is guarded by the
//! exact range where C defines it (the truncated value representable), so
//! no case has undefined behaviour; outside it the case takes a sentinel.
//! Floating results are folded by their bits (long double: its 80 value
//! bits), a NaN by a marker only, since C fixes neither its sign nor its
//! payload.

use super::shapes::{fold, source};
use super::types::IntTy;
use super::{Body, Input};
use crate::oracle::Rng;
use std::fmt::Write as _;

/// A floating format: its C type and significand precision in bits.
#[derive(Clone, Copy)]
struct Format {
    c_type: &'static str,
    precision: u32,
    suffix: &'static str,
}

const FORMATS: [Format; 3] = [
    Format { c_type: "float", precision: 24, suffix: "f" },
    Format { c_type: "double", precision: 53, suffix: "" },
    Format { c_type: "long double", precision: 64, suffix: "L" },
];

/// Constants near the places where conversions round, wrap or leave the
/// range of an integer type (written as hexadecimal floating constants
/// where the decimal form would itself round).
const EDGES: [&str; 24] = [
    "0.5",
    "-0.5",
    "0.49999999999999994",
    "-0.9999999",
    "1.5",
    "2.5",
    "-0.0",
    "0x1p-1074",
    "0x1p-149",
    "127.99",
    "255.5",
    "-128.75",
    "32767.5",
    "65535.75",
    "2147483647.5",
    "-2147483648.75",
    "4294967295.5",
    "0x1p63",
    "-0x1p63",
    "0x1.fffffffffffffp63",
    "0x1p64",
    "0x1.000002p24",
    "0x1.0000000000001p53",
    "1e30",
];

/// The condition under which `(ty)value` is defined for a finite or
/// infinite or NaN `value` of `format`: its truncation lies in `ty`'s range.
fn in_range(ty: IntTy, format: Format, value: &str) -> String {
    let width = ty.width();
    if ty.is_signed() {
        let high = format!("0x1p{}{}", width - 1, format.suffix);
        // Below -2^(w-1) the next value up is -2^(w-1) - 1 only when the
        // format holds it; otherwise nothing lies strictly between.
        let low = if width - 1 < format.precision {
            format!("{value} > -0x1p{}{} - 1", width - 1, format.suffix)
        } else {
            format!("{value} >= -0x1p{}{}", width - 1, format.suffix)
        };
        format!("({low} && {value} < {high})")
    } else {
        format!("({value} > -1 && {value} < 0x1p{width}{})", format.suffix)
    }
}

/// A C expression (of `unsigned long long`) identifying the value of
/// `name` of `format`: its bits, or a marker for any NaN.
fn value_bits(format: Format, name: &str, body: &mut Body, step: usize) -> String {
    let _ = writeln!(body.text, "  unsigned long long lo{step} = 0, hi{step} = 0;");
    match format.precision {
        24 => writeln!(body.text, "  memcpy(&lo{step}, &{name}, 4);"),
        53 => writeln!(body.text, "  memcpy(&lo{step}, &{name}, 8);"),
        // x87: 64 significand bits, then sign and exponent (the rest of
        // the 16 bytes is padding).
        _ => writeln!(body.text, "  memcpy(&lo{step}, &{name}, 8);\n  memcpy(&hi{step}, (char *)&{name} + 8, 2);"),
    }
    .expect("writing to a String");
    format!("{name} != {name} ? 0x7777ull : lo{step} ^ (hi{step} << 48)")
}

/// A floating value of `format` built from the inputs.
fn floating_source(rng: &mut Rng, inputs: &[Input], format: Format, body: &mut Body, step: usize) -> String {
    let edge = |rng: &mut Rng| format!("{}{}", rng.pick(&EDGES), format.suffix);
    match rng.below(5) {
        0 | 1 => {
            let (text, _, _) = source(rng, inputs);
            format!("({}){text}", format.c_type)
        }
        2 => {
            let (text, _, _) = source(rng, inputs);
            format!("({}){text} + {}", format.c_type, edge(rng))
        }
        3 => {
            let (text, _, _) = source(rng, inputs);
            format!("(({})(({text}) & 7) - 3) * {}", format.c_type, edge(rng))
        }
        _ => {
            // Reinterpreted bits: NaNs, infinities, subnormals.
            let index = rng.below(inputs.len() as u64) as usize;
            let (bits_ty, size) = if format.precision == 24 { ("unsigned int", 4) } else { ("unsigned long long", 8) };
            let shift = rng.pick(&[0u32, 0, 20, 32, 52]).min(size * 8 - 8);
            let _ = writeln!(body.text, "  {bits_ty} u{step} = ({bits_ty})in{index} << {shift};");
            let _ = writeln!(body.text, "  double raw{step} = 0; float rawf{step} = 0;");
            if size == 4 {
                let _ = writeln!(body.text, "  memcpy(&rawf{step}, &u{step}, 4);");
                format!("({})rawf{step}", format.c_type)
            } else {
                let _ = writeln!(body.text, "  memcpy(&raw{step}, &u{step}, 8);");
                format!("({})raw{step}", format.c_type)
            }
        }
    }
}

/// Float/int conversions at the edges; gcc is the only judge.
pub fn conversions(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    for step in 0..1 + rng.below(3) as usize {
        let format = rng.pick(&FORMATS);
        let value = format!("f{step}");
        let built = floating_source(rng, inputs, format, body, step);
        let _ = writeln!(body.text, "  {} {value} = {built};", format.c_type);
        match rng.below(4) {
            0 => {
                // Through another format first (rounding, overflow to inf).
                let other = rng.pick(&FORMATS);
                let _ = writeln!(body.text, "  {} g{step} = ({}){value};", other.c_type, other.c_type);
                let bits = value_bits(other, &format!("g{step}"), body, step);
                fold(&mut body.text, "r", &bits);
            }
            1 => {
                // A compound assignment with a floating right operand.
                let target = rng.pick(&IntTy::ALL);
                let op = rng.pick(&["+", "-", "*", "/"]);
                let (start, _, _) = source(rng, inputs);
                let name = format!("v{step}");
                let _ = writeln!(body.text, "  {} {name} = ({}){start};", target.c_name(), target.c_name());
                let result = format!("(({}){name} {op} {value})", format.c_type);
                let defined = if target == IntTy::Bool { "1".to_string() } else { in_range(target, format, &result) };
                // A floating division by zero is no undefined behaviour
                // under Annex F, but the checks of verifiers may treat it as one.
                let guard = if op == "/" { format!("{value} != 0 && {defined}") } else { defined };
                let _ = writeln!(body.text, "  if ({guard}) {name} {op}= {value}; else {name} = 0x5a;");
                fold(&mut body.text, "r", &name);
            }
            _ => {
                let bits = value_bits(format, &value, body, step);
                fold(&mut body.text, "r", &bits);
            }
        }
        let target = rng.pick(&IntTy::ALL);
        let guard = if target == IntTy::Bool { "1".to_string() } else { in_range(target, format, &value) };
        let _ = writeln!(body.text, "  {0} t{step} = {guard} ? ({0}){value} : ({0})0x5a;", target.c_name());
        fold(&mut body.text, "r", &format!("t{step}"));
    }
    false
}
