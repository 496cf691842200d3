//! The `ctype` family: `<ctype.h>` in the C locale on every value it
//! defines (EOF, the unsigned char values, and the negative signed char
//! values glibc's table also covers), by the functions and by the macros
//! (which index glibc's table through `__ctype_b_loc`). A case either pins
//! a few values, observing each result as it is (the class bit glibc
//! returns, not only whether it is set), or leaves the character free over
//! the whole domain against a reference written here (a range test giving
//! glibc's class bit), which the native run checks for every value first.

use super::{Case, Family, Kind, Step};
use crate::oracle::Rng;

/// Each classification: the function, its glibc class bit, and a
/// reference test of `c` in the C locale.
const CLASSES: [(&str, u32, &str); 12] = [
    ("isalnum", 0x8, "(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')"),
    ("isalpha", 0x400, "(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')"),
    ("isblank", 0x1, "c == ' ' || c == '\\t'"),
    ("iscntrl", 0x2, "(c >= 0 && c < 32) || c == 127"),
    ("isdigit", 0x800, "c >= '0' && c <= '9'"),
    ("isgraph", 0x8000, "c > 32 && c < 127"),
    ("islower", 0x200, "c >= 'a' && c <= 'z'"),
    ("isprint", 0x4000, "c >= 32 && c < 127"),
    ("ispunct", 0x4, "c > 32 && c < 127 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))"),
    ("isspace", 0x2000, "c == ' ' || (c >= '\\t' && c <= '\\r')"),
    ("isupper", 0x100, "c >= 'A' && c <= 'Z'"),
    ("isxdigit", 0x1000, "(c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')"),
];

/// The case conversions with their references.
const CONVERSIONS: [(&str, &str); 3] = [
    ("toupper", "c >= -128 && c < -1 ? c + 256 : c >= 'a' && c <= 'z' ? c - 32 : c"),
    ("tolower", "c >= -128 && c < -1 ? c + 256 : c >= 'A' && c <= 'Z' ? c + 32 : c"),
    ("isascii", "(c & ~0x7f) == 0"),
];

/// A value the functions define: EOF, boundaries, or any.
fn value(rng: &mut Rng) -> i64 {
    match rng.below(4) {
        0 => rng.pick(&[-1, -128, 0, 9, 10, 13, 31, 32, 47, 48, 57, 58, 64, 65, 90, 91, 96, 97, 122, 123, 126, 127, 128, 255]),
        _ => rng.below(384) as i64 - 128,
    }
}

pub fn case(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Ctype, Kind::Exact);
    case.include("ctype.h");
    if rng.chance(3) {
        whole_domain(rng, &mut case);
        return case;
    }
    for k in 0..1 + rng.below(4) {
        let name = format!("c{k}");
        case.pin("int", &name, &value(rng).to_string());
        let function = if rng.chance(4) { rng.pick(&CONVERSIONS).0 } else { rng.pick(&CLASSES).0 };
        case.uses(function);
        // `(f)(c)` calls the function; `f(c)` may be glibc's macro.
        let call = if rng.chance(2) {
            // gcc expands a direct call of isdigit as its built-in (1, not
            // glibc's class bit): only whether it is nonzero is the
            // library's.
            let call = format!("({function})({name})");
            if function == "isdigit" {
                format!("{call} != 0")
            } else {
                call
            }
        } else {
            if function.starts_with("is") && function != "isascii" {
                case.uses("__ctype_b_loc");
            }
            format!("{function}({name})")
        };
        case.observe(call);
    }
    case
}

/// One function against its reference for every value from -128 to 255.
fn whole_domain(rng: &mut Rng, case: &mut Case) {
    let (function, expected) = if rng.chance(4) {
        let (function, reference) = rng.pick(&CONVERSIONS);
        (function, format!("({reference})"))
    } else {
        let (function, bit, reference) = rng.pick(&CLASSES);
        (function, format!("(({reference}) ? {bit:#x} : 0)"))
    };
    case.uses(function);
    let check = format!("{function}(c) == {expected}");
    case.steps.push(Step::Native(format!("int check = 1;\n  for (int c = -128; c <= 255; c++) check &= {check};\n  oracle_contract(check);")));
    case.steps.push(Step::Task(format!(
        "int c = __VERIFIER_nondet_int();\n  __VERIFIER_assume(c >= -128 && c <= 255);\n  int check = {check};"
    )));
    case.observe("check");
}
