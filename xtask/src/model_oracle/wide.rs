//! The `wide` family: `<wchar.h>`'s string and memory functions on
//! wide characters (small letters, values above 16 bits and above
//! Unicode, and negative ones, which glibc's 32-bit signed wchar_t can
//! hold), `mbsinit`, and `swprintf` with the conversions the model covers
//! (and some it does not). Observations as in the `strings` family.

use super::{Case, Family, Kind};
use crate::oracle::Rng;

/// A wide string literal's elements: at most `longest`, no zero.
fn wide_text(rng: &mut Rng, longest: u64) -> Vec<i64> {
    let alphabet: &[i64] = rng.pick(&[&[97, 98][..], &[97, 98, 99, 65], &[97, 0x1F600, 0x10FFFF, 0x7fffffff], &[97, -1, -2147483648, 98]]);
    (0..rng.below(longest + 1)).map(|_| alphabet[rng.below(alphabet.len() as u64) as usize]).collect()
}

/// An array initializer for `elements` and a terminator, plus `spare`
/// zeros.
fn initializer(elements: &[i64], spare: u64) -> String {
    let mut items: Vec<String> = elements.iter().map(|e| format!("(wchar_t){e}")).collect();
    items.extend((0..=spare).map(|_| "0".to_string()));
    format!("{{{}}}", items.join(", "))
}

/// An offset into `buffer` of a pointer `found` in wide characters (NULL
/// as -1), `found` evaluated once.
fn offset(found: &str, buffer: &str) -> String {
    format!("oracle_offset({found}, {buffer}, sizeof(wchar_t))")
}

pub fn case(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Wide, Kind::Exact);
    case.include("wchar.h");
    case.include("string.h");
    let a = wide_text(rng, 8);
    let b = if rng.chance(3) { a.clone() } else { wide_text(rng, 6) };
    let (spare_a, spare_b) = (rng.below(3), rng.below(3));
    let size_a = a.len() as u64 + 1 + spare_a;
    let size_b = b.len() as u64 + 1 + spare_b;
    case.code(format!("wchar_t a[{size_a}] = {};", initializer(&a, spare_a)));
    case.code(format!("wchar_t b[{size_b}] = {};", initializer(&b, spare_b)));
    let size_d = size_a + size_b + 2;
    case.code(format!("wchar_t d[{size_d}]; wmemset(d, L'x', {size_d}); d[0] = 0;"));
    case.uses("wmemset");
    for _ in 0..1 + rng.below(3) {
        operation(rng, &mut case, (&a, size_a), size_b, size_d);
    }
    case.observe("oracle_hash(d, sizeof d)");
    case
}

fn operation(rng: &mut Rng, case: &mut Case, (a, size_a): (&[i64], u64), size_b: u64, size_d: u64) {
    let (x, y) = if rng.chance(2) { ("a", "b") } else { ("b", "a") };
    let n_both = rng.below(size_a.min(size_b) + 1);
    let c = if !a.is_empty() && rng.chance(2) { format!("(wchar_t){}", a[rng.below(a.len() as u64) as usize]) } else { rng.pick(&["0", "L'a'", "L'z'", "(wchar_t)-1"]).to_string() };
    match rng.below(14) {
        0 => {
            case.uses("wcslen");
            case.observe(format!("wcslen({x})"));
        }
        1 => {
            case.uses("wcsnlen");
            case.observe(format!("wcsnlen(a, {})", rng.below(size_a + 1)));
        }
        2 => {
            case.uses("wcscmp");
            case.observe(super::strings::sign(&format!("wcscmp({x}, {y})")));
        }
        3 => {
            case.uses("wcsncmp");
            case.observe(super::strings::sign(&format!("wcsncmp(a, b, {})", rng.below(10))));
        }
        4 => {
            case.uses("wmemcmp");
            case.observe(super::strings::sign(&format!("wmemcmp({x}, {y}, {n_both})")));
        }
        5 => {
            let function = rng.pick(&["wcschr", "wcsrchr"]);
            case.uses(function);
            case.observe(offset(&format!("{function}(a, {c})"), "a"));
        }
        6 => {
            case.uses("wmemchr");
            case.observe(offset(&format!("wmemchr(a, {c}, {})", rng.below(size_a + 1)), "a"));
        }
        7 => {
            case.uses("wcscpy");
            case.observe(offset(&format!("wcscpy(d, {x})"), "d"));
        }
        8 => {
            case.uses("wcsncpy");
            case.observe(offset(&format!("wcsncpy(d, {x}, {})", rng.below(size_d + 1)), "d"));
            case.code(format!("d[{}] = 0;", size_d - 1));
        }
        9 => {
            let function = rng.pick(&["wcscat", "wcsncat"]);
            case.uses(function);
            case.code(format!("d[{}] = 0;", rng.below(size_d - size_a.max(size_b))));
            let call = if function == "wcscat" { format!("wcscat(d, {x})") } else { format!("wcsncat(d, {x}, {})", rng.below(8)) };
            case.observe(offset(&call, "d"));
        }
        10 => {
            let function = rng.pick(&["wmemcpy", "wmemmove"]);
            case.uses(function);
            if function == "wmemcpy" {
                case.observe(offset(&format!("wmemcpy(d + 1, {x}, {n_both})"), "d"));
            } else {
                let count = rng.below(size_d / 2 + 1);
                let (to, from) = (rng.below(size_d - count + 1), rng.below(size_d - count + 1));
                case.observe(offset(&format!("wmemmove(d + {to}, d + {from}, {count})"), "d"));
            }
        }
        11 => {
            case.uses("mbsinit");
            case.code("{ mbstate_t state; memset(&state, 0, sizeof state);");
            case.observe("mbsinit(&state) != 0");
            case.observe("mbsinit(0) != 0");
            case.code("}");
        }
        _ => swprintf_call(rng, case, size_d),
    }
}

/// swprintf into `d`: the count (or -1) and, through the hash of `d`, the
/// text.
fn swprintf_call(rng: &mut Rng, case: &mut Case, size_d: u64) {
    case.uses("swprintf");
    let (format, arguments) = rng.pick(&[
        ("L\"%d|%u\"", "-17, 4000000000u"),
        ("L\"%x%X%o\"", "255u, 48879u, 8u"),
        ("L\"%ld %lu\"", "-9223372036854775807L - 1, 18446744073709551615UL"),
        ("L\"[%c%lc]\"", "'q', (wint_t)0x263A"),
        ("L\"%s/%ls\"", "\"abc\", L\"w\\x1F600\""),
        ("L\"%%%i\"", "0"),
        ("L\"%5d\"", "42"),
        ("L\"%s\"", "\"caf\\xe9\""),
    ]);
    let size = rng.pick(&[0, 1, 3, size_d]);
    case.observe(format!("swprintf(d, {size}, {format}, {arguments})"));
}
