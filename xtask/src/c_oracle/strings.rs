//! The `string` feature class: `<string.h>` and `<stdio.h>` functions on
//! small buffers whose contents are known to the generator up to a few
//! characters (and the place of a terminator) chosen by the inputs.
//!
//! The second way ("alt") calls the generator's own loops, written as
//! helper functions in the case's prelude, on the same buffers: a length,
//! a comparison, a search, a copy. `sprintf` and `snprintf` have no such
//! loop here, so a case that uses them is checked against gcc's glibc
//! only. No case has undefined behaviour: every buffer is zero-filled
//! past its literal (so any suffix of it is a string), the destination's
//! longest possible contents are tracked so nothing overflows it, and
//! `strcat` runs only on a destination known to hold a string.

use super::shapes::fold;
use super::{Body, Input};
use crate::oracle::Rng;
use std::fmt::Write as _;

/// The second way's loops; `99` means "not found".
const HELPERS: &str = "\
static unsigned long long @_len(const char *s) { unsigned long long n = 0; while (s[n] != 0) n++; return n; }
static int @_cmp(const char *a, const char *b, size_t n) { for (size_t k = 0; k < n; k++) { unsigned char x = (unsigned char)a[k], y = (unsigned char)b[k]; if (x != y) return x < y ? -1 : 1; if (x == 0) return 0; } return 0; }
static unsigned long long @_chr(const char *s, int c) { for (unsigned long long k = 0; ; k++) { if (s[k] == (char)c) return k; if (s[k] == 0) return 99u; } }
static unsigned long long @_rchr(const char *s, int c) { unsigned long long found = 99u; for (unsigned long long k = 0; ; k++) { if (s[k] == (char)c) found = k; if (s[k] == 0) return found; } }
static unsigned long long @_str(const char *h, const char *n) { for (unsigned long long k = 0; ; k++) { size_t j = 0; while (n[j] != 0 && h[k + j] == n[j]) j++; if (n[j] == 0) return k; if (h[k] == 0) return 99u; } }
static unsigned long long @_mem(const char *s, int c, size_t n) { for (size_t k = 0; k < n; k++) if ((unsigned char)s[k] == (unsigned char)c) return k; return 99u; }
static void @_cpy(char *d, const char *s) { size_t k = 0; do d[k] = s[k]; while (s[k++] != 0); }
static void @_ncpy(char *d, const char *s, size_t n) { size_t k = 0; for (; k < n && s[k] != 0; k++) d[k] = s[k]; for (; k < n; k++) d[k] = 0; }
";

/// The size of the source buffers `s` and `t`, and the longest literal
/// put in them (so the last byte is always a terminator).
const SOURCE: u64 = 16;
const LONGEST: u64 = 12;
/// The size of the destination `d` (and of its model `e`).
const DESTINATION: u64 = 64;

/// A `printf` format, its arguments (`A` is a source string, `IN0`..
/// inputs) and the longest output it can give.
const FORMATS: [(&str, &str, u64); 7] = [
    ("%d|%s", "(int)IN0, A", 27),
    ("%u:%x", "(unsigned)IN0, (unsigned)IN1", 19),
    ("%lld%c%s", "(long long)IN0, 'a' + (int)((size_t)IN1 & 3u), A", 36),
    ("%-5s|%3d|%05u", "A, (int)(signed char)IN0, (unsigned)IN1", 38),
    ("%llx.%o", "(unsigned long long)IN0, (unsigned)IN1 & 0777u", 28),
    ("[%.3s]", "A", 5),
    ("%%%hhd", "(int)IN0", 5),
];

/// A word over `abcd` of at most [`LONGEST`] letters.
fn word(rng: &mut Rng) -> String {
    (0..rng.below(LONGEST + 1)).map(|_| (b'a' + rng.below(4) as u8) as char).collect()
}

/// An index below `bound`, constant or computed from an input.
fn index(rng: &mut Rng, inputs: &[Input], bound: u64) -> String {
    if rng.chance(3) {
        return format!("{}u", rng.below(bound));
    }
    format!("(((size_t)in{} & 15u) % {bound}u)", rng.below(inputs.len() as u64))
}

/// A string operand: a source buffer or a suffix of it.
fn operand(rng: &mut Rng, inputs: &[Input]) -> String {
    let buffer = rng.pick(&["s", "t"]);
    if rng.chance(3) {
        format!("({buffer} + {})", index(rng, inputs, SOURCE))
    } else {
        buffer.to_string()
    }
}

/// A character to search for: a letter, the terminator, one absent from
/// every buffer, or a letter chosen by an input.
fn character(rng: &mut Rng, inputs: &[Input]) -> String {
    match rng.below(4) {
        0 => format!("'{}'", (b'a' + rng.below(4) as u8) as char),
        1 => "0".into(),
        2 => "'z'".into(),
        _ => format!("'a' + (int)((size_t)in{} & 3u)", rng.below(inputs.len() as u64)),
    }
}

/// Sets up `s`, `t`, `d` and `e`, then runs a few steps (see
/// [`string_step`]); returns whether every step had a second way.
pub fn strings(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    body.top.push_str(HELPERS);
    for buffer in ["s", "t"] {
        let literal = word(rng);
        let _ = writeln!(body.text, "  char {buffer}[{SOURCE}] = \"{literal}\";");
        let length = literal.len() as u64;
        if length > 0 && !rng.chance(3) {
            let at = index(rng, inputs, length);
            let _ = writeln!(body.text, "  {buffer}[{at}] = (char)('a' + ((size_t)in{} & 3u));", rng.below(inputs.len() as u64));
        }
        if rng.chance(3) {
            let _ = writeln!(body.text, "  {buffer}[{}] = 0;", index(rng, inputs, length + 1));
        }
    }
    let _ = writeln!(body.text, "  char d[{DESTINATION}];\n  memset(d, 'z', sizeof d);");
    let _ = writeln!(body.alt, "  char e[{DESTINATION}];\n  for (size_t k = 0; k < {DESTINATION}u; k++) e[k] = 'z';");
    let mut destination = Destination { longest: None, checked_natively_only: false };
    for _ in 0..1 + rng.below(4) {
        string_step(rng, inputs, body, &mut destination);
    }
    let hash = |name: &str| format!("  {{ unsigned long long h = 0xcbf29ce484222325ull;\n  for (size_t k = 0; k < {DESTINATION}u; k++) h = (h ^ (unsigned char){name}[k]) * 0x100000001b3ull;\n");
    body.text.push_str(&hash("d"));
    body.alt.push_str(&hash("e"));
    fold_both(body, "h", "h");
    body.text.push_str("  }\n");
    body.alt.push_str("  }\n");
    if destination.checked_natively_only {
        // Its model of `d` went wrong at the formatted write: it must not
        // run, since it may read past a terminator that is not there.
        body.alt.clear();
    }
    !destination.checked_natively_only
}

/// What the generator knows of `d`.
struct Destination {
    /// The longest string it may hold, or `None` when it may hold none.
    longest: Option<u64>,
    /// Whether `sprintf` or `snprintf` wrote it (no second way).
    checked_natively_only: bool,
}

fn fold_both(body: &mut Body, text: &str, alt: &str) {
    fold(&mut body.text, "r", text);
    fold(&mut body.alt, "alt", alt);
}

/// One library call, its result folded (and `d` changed by the copying
/// ones, mirrored on `e`).
fn string_step(rng: &mut Rng, inputs: &[Input], body: &mut Body, destination: &mut Destination) {
    let (a, b) = (operand(rng, inputs), operand(rng, inputs));
    let c = character(rng, inputs);
    let n = index(rng, inputs, SOURCE + 1);
    let found = |call: &str, base: &str| format!("({call} ? (unsigned long long)((const char *){call} - {base}) : 99u)");
    match rng.below(12) {
        0 => fold_both(body, &format!("strlen({a})"), &format!("@_len({a})")),
        1 => fold_both(body, &format!("(strcmp({a}, {b}) > 0) - (strcmp({a}, {b}) < 0)"), &format!("@_cmp({a}, {b}, (size_t)-1)")),
        2 => fold_both(body, &format!("(strncmp({a}, {b}, {n}) > 0) - (strncmp({a}, {b}, {n}) < 0)"), &format!("@_cmp({a}, {b}, {n})")),
        3 => fold_both(body, &found(&format!("strchr({a}, {c})"), &a), &format!("@_chr({a}, {c})")),
        4 => fold_both(body, &found(&format!("strrchr({a}, {c})"), &a), &format!("@_rchr({a}, {c})")),
        5 => {
            let needle = if rng.chance(3) { format!("\"{}\"", &word(rng)[..]) } else { b.clone() };
            fold_both(body, &found(&format!("strstr({a}, {needle})"), &a), &format!("@_str({a}, {needle})"));
        }
        6 => {
            let buffer = rng.pick(&["s", "t"]);
            fold_both(body, &found(&format!("memchr({buffer}, {c}, {n})"), buffer), &format!("@_mem({buffer}, {c}, {n})"));
        }
        7 => {
            fold_both(body, &format!("strcpy(d, {a}) == d"), &format!("(@_cpy(e, {a}), 1)"));
            destination.longest = Some(SOURCE - 1);
        }
        8 => match destination.longest {
            Some(longest) if longest + SOURCE <= DESTINATION => {
                fold_both(body, &format!("strcat(d, {a}) == d"), &format!("(@_cpy(e + @_len(e), {a}), 1)"));
                destination.longest = Some(longest + SOURCE - 1);
            }
            _ => {
                // Without a terminator after it, `d` may hold no string.
                fold_both(body, &format!("strncpy(d, {a}, {n}) == d"), &format!("(@_ncpy(e, {a}, {n}), 1)"));
                destination.longest = None;
            }
        },
        9 => {
            fold_both(body, &format!("strncpy(d, {a}, {n}) == d"), &format!("(@_ncpy(e, {a}, {n}), 1)"));
            let _ = writeln!(body.text, "  d[{n}] = 0;");
            let _ = writeln!(body.alt, "  e[{n}] = 0;");
            destination.longest = Some(SOURCE);
        }
        10 if destination.longest.is_some() => fold_both(body, "strlen(d)", "@_len(e)"),
        _ => formatted(rng, inputs, body, destination, &a),
    }
}

/// `sprintf` or `snprintf` (of a size from 1 to 12) into `d`: the count
/// it returns is folded; `d` is hashed at the end of the case.
fn formatted(rng: &mut Rng, inputs: &[Input], body: &mut Body, destination: &mut Destination, source: &str) {
    let (format, arguments, longest) = rng.pick(&FORMATS);
    let input = |rng: &mut Rng| format!("in{}", rng.below(inputs.len() as u64));
    let arguments = arguments.replace("IN0", &input(rng)).replace("IN1", &input(rng)).replace('A', source);
    if rng.chance(2) {
        fold(&mut body.text, "r", &format!("sprintf(d, \"{format}\", {arguments})"));
        destination.longest = Some(longest);
    } else {
        let size = 1 + rng.below(12);
        fold(&mut body.text, "r", &format!("snprintf(d, {size}, \"{format}\", {arguments})"));
        destination.longest = Some(longest.min(size - 1));
    }
    destination.checked_natively_only = true;
}
