//! The `conversions` family: `<stdlib.h>`'s numeric conversions
//! (`atoi`, `atol`, `atoll`, `strtol`, `strtoll`, `strtoul`, `strtoull`,
//! `strtoimax`, `strtoumax` in every base including invalid ones, `strtod`,
//! `strtof`, `strtold`, `atof`), the integer helpers (`abs`, `labs`,
//! `llabs`, `imaxabs`, `div`, `ldiv`, `lldiv`, `imaxdiv`), the byte order
//! and address text of `<arpa/inet.h>` (`htonl`, `htons`, `ntohl`,
//! `ntohs`, `inet_ntoa`) and the aligned allocators (`aligned_alloc`,
//! `memalign`, `valloc`, `posix_memalign`). Numbers are written with white space,
//! signs, prefixes, stray letters and digits past the base, at and beyond
//! the limits of their types; the value, the end pointer's offset and
//! `errno` are observed (a floating-point value by its bits). The `ato*`
//! functions get only values their type holds (beyond, C leaves the result
//! undefined).

use super::{c_string, Case, Family, Kind};
use crate::oracle::Rng;

/// Digits of a number in `base` (2..36), `count` of them.
fn digits(rng: &mut Rng, base: u64, count: u64) -> String {
    const ALL: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    (0..count)
        .map(|_| {
            let d = ALL[rng.below(base) as usize] as char;
            if rng.chance(4) {
                d.to_ascii_uppercase()
            } else {
                d
            }
        })
        .collect()
}

/// Text an integer conversion reads: leading space, a sign, a prefix,
/// digits (sometimes a limit of a type, or beyond it), then a stop.
fn integer_text(rng: &mut Rng, base: u64) -> String {
    let mut text = String::new();
    text.push_str(rng.pick(&["", "", " ", "\t\n ", "\x0b\x0c\r"]));
    text.push_str(rng.pick(&["", "", "-", "+", "--", "+-"]));
    let digit_base = if base == 0 { 10 } else { base };
    if rng.chance(3) && (base == 0 || base == 16) {
        text.push_str(rng.pick(&["0x", "0X", "0x", "0xg"]));
    } else if base == 0 && rng.chance(3) {
        text.push('0');
    }
    match rng.below(6) {
        0 => text.push_str(rng.pick(&[
            "2147483647",
            "2147483648",
            "4294967295",
            "4294967296",
            "9223372036854775807",
            "9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999",
            "0",
        ])),
        1 => {}
        _ => {
            let longest = if rng.chance(4) { 30 } else { 8 };
            let count = 1 + rng.below(longest);
            text.push_str(&digits(rng, digit_base, count));
        }
    }
    text.push_str(rng.pick(&["", "", "z", " 7", ".5", "9"]));
    text
}

/// Text a floating-point conversion reads: mostly decimal numbers the
/// models convert exactly, some beyond (long mantissas, large exponents,
/// hexadecimal, infinities and NaN).
fn float_text(rng: &mut Rng) -> String {
    let mut text = String::new();
    text.push_str(rng.pick(&["", "", " ", "\t"]));
    text.push_str(rng.pick(&["", "", "-", "+"]));
    match rng.below(10) {
        0 => text.push_str(rng.pick(&["inf", "INFINITY", "nan", "NaN(12)", "0x1.8p3", "0X.1P-2", "1e400", "1e-400", "."])),
        1 => {
            let count = 18 + rng.below(6);
            text.push_str(&digits(rng, 10, count));
        }
        _ => {
            let count = rng.below(7);
            text.push_str(&digits(rng, 10, count));
            if rng.chance(2) {
                text.push('.');
                let count = rng.below(5);
                text.push_str(&digits(rng, 10, count));
            }
            if rng.chance(3) {
                text.push_str(rng.pick(&["e", "E", "e+", "e-"]));
                text.push_str(&rng.below(25).to_string());
            }
        }
    }
    text.push_str(rng.pick(&["", "", "x", "e", " 1"]));
    text
}

pub fn case(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Conversions, Kind::Exact);
    case.include("stdlib.h");
    case.include("errno.h");
    case.include("string.h");
    case.code("char *end = 0;");
    for _ in 0..1 + rng.below(3) {
        case.code("errno = 0;");
        match rng.below(9) {
            0..=2 => strto_integer(rng, &mut case),
            3 => ato_integer(rng, &mut case),
            4 | 5 => strto_float(rng, &mut case),
            6 => integer_helpers(rng, &mut case),
            7 => byte_order(rng, &mut case),
            _ => aligned(rng, &mut case),
        }
        case.observe("errno");
    }
    case
}

fn strto_integer(rng: &mut Rng, case: &mut Case) {
    let function = rng.pick(&["strtol", "strtoll", "strtoul", "strtoull", "strtoimax", "strtoumax"]);
    if function.ends_with("max") {
        case.include("inttypes.h");
    }
    case.uses(function);
    let base = rng.pick(&[0, 0, 10, 10, 16, 8, 2, 36, 7, 1, 37, -1]);
    let text = integer_text(rng, base.clamp(0, 36) as u64);
    case.code(format!("{{ char s[] = {};", c_string(text.as_bytes())));
    case.pin("int", "base", &base.to_string());
    // The end pointer may be NULL.
    let end = if rng.chance(4) { "0" } else { "&end" };
    case.observe(format!("{function}(s, {end}, base)"));
    case.observe("end == 0 ? -1LL : (long long)(end - s)");
    case.code("end = 0; }");
}

/// Text whose number the `ato*` function's type holds.
fn ato_integer(rng: &mut Rng, case: &mut Case) {
    let (function, limit) = rng.pick(&[("atoi", 2147483647u64), ("atol", 9223372036854775807), ("atoll", 9223372036854775807)]);
    case.uses(function);
    let mut text;
    loop {
        text = integer_text(rng, 10);
        let start = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
        let unsigned = start.strip_prefix(['-', '+']).unwrap_or(start);
        let number: String = unsigned.chars().take_while(char::is_ascii_digit).collect();
        let value: u128 = number.trim_start_matches('0').parse().unwrap_or(0);
        if number.len() < 25 && value <= u128::from(limit) {
            break;
        }
    }
    case.observe(format!("{function}({})", c_string(text.as_bytes())));
}

fn strto_float(rng: &mut Rng, case: &mut Case) {
    let text = float_text(rng);
    let literal = c_string(text.as_bytes());
    case.code(format!("{{ char s[] = {literal};"));
    match rng.below(4) {
        0 => {
            case.uses("strtof");
            case.code("float f = strtof(s, &end); unsigned int bits; memcpy(&bits, &f, sizeof bits);");
            case.observe("bits");
        }
        1 => {
            case.uses("strtold");
            case.code("long double f = strtold(s, &end);");
            case.observe("oracle_hash(&f, 10)");
        }
        2 => {
            case.uses("atof");
            case.code("double f = atof(s); unsigned long long bits; memcpy(&bits, &f, sizeof bits); end = s;");
            case.observe("bits");
        }
        _ => {
            case.uses("strtod");
            case.code("double f = strtod(s, &end); unsigned long long bits; memcpy(&bits, &f, sizeof bits);");
            case.observe("bits");
        }
    }
    case.observe("end == 0 ? -1LL : (long long)(end - s)");
    case.code("end = 0; }");
}

/// A value of a signed type of `bits` that negating does not overflow.
fn signed_value(rng: &mut Rng, bits: u32) -> i64 {
    let max = if bits == 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 };
    match rng.below(5) {
        0 => max,
        1 => -max,
        2 => 0,
        _ => (rng.next_u64() >> (64 - bits + rng.below(u64::from(bits)) as u32)) as i64 * if rng.chance(2) { -1 } else { 1 },
    }
}

fn integer_helpers(rng: &mut Rng, case: &mut Case) {
    let (ty, bits, abs, div, suffix) = rng.pick(&[
        ("int", 32, "abs", "div", ""),
        ("long", 64, "labs", "ldiv", "L"),
        ("long long", 64, "llabs", "lldiv", "LL"),
        ("intmax_t", 64, "imaxabs", "imaxdiv", "LL"),
    ]);
    case.include("inttypes.h");
    let x = signed_value(rng, bits);
    let y = loop {
        let y = signed_value(rng, bits);
        if y != 0 {
            break y;
        }
    };
    case.code("{");
    case.pin(ty, "x", &format!("{x}{suffix}"));
    if rng.chance(2) {
        case.uses(abs);
        case.observe(format!("{abs}(x)"));
        case.code("}");
    } else {
        case.uses(div);
        case.pin(ty, "y", &format!("{y}{suffix}"));
        let result = match div {
            "div" => "div_t",
            "ldiv" => "ldiv_t",
            "imaxdiv" => "imaxdiv_t",
            _ => "lldiv_t",
        };
        case.code(format!("{{ {result} q = {div}(x, y);"));
        case.observe("q.quot");
        case.observe("q.rem");
        case.code("} }");
    }
}

/// A byte-order conversion of a pinned value, or the dotted text of an
/// address (`inet_ntoa`'s buffer, which every call overwrites).
fn byte_order(rng: &mut Rng, case: &mut Case) {
    case.include("arpa/inet.h");
    let value = rng.pick(&["0", "1", "0x1234", "0x80", "0xffff", "0x12345678", "0x7f000001", "0xffffffff", "0xc0a80a64", "0x00ff00ff"]);
    case.code("{");
    case.pin("unsigned int", "v", &format!("{value}u"));
    match rng.below(3) {
        0 => {
            let function = rng.pick(&["htonl", "ntohl"]);
            case.uses(function);
            case.observe(format!("{function}(v)"));
        }
        1 => {
            let function = rng.pick(&["htons", "ntohs"]);
            case.uses(function);
            case.observe(format!("{function}((unsigned short)v)"));
        }
        _ => {
            case.uses("inet_ntoa");
            case.code("struct in_addr address; address.s_addr = v;");
            case.observe("oracle_string(inet_ntoa(address))");
        }
    }
    case.code("}");
}

/// `aligned_alloc`, `memalign`, `valloc` or `posix_memalign` of boundary
/// alignments and sizes: whether a block comes back (glibc's allocation of
/// a small block succeeds), and `posix_memalign`'s error number. The
/// block's alignment is an address, which the oracle does not compare (see
/// the twins in `crates/tarsier/tests/library_models.rs`).
fn aligned(rng: &mut Rng, case: &mut Case) {
    let function = rng.pick(&["aligned_alloc", "aligned_alloc", "memalign", "valloc", "posix_memalign"]);
    case.uses(function);
    case.include("malloc.h");
    let alignment = rng.pick(&["0", "1", "3", "8", "16", "24", "64", "4096", "(size_t)1 << 63", "((size_t)1 << 63) + 1", "(size_t)-1"]);
    let size = rng.pick(&["0", "1", "20", "64", "100"]);
    match function {
        "valloc" => case.code(format!("{{ void *p = valloc({size});")),
        "posix_memalign" => case.code(format!("{{ void *p = 0; int error = posix_memalign(&p, {alignment}, {size});")),
        _ => case.code(format!("{{ void *p = {function}({alignment}, {size});")),
    }
    // glibc's allocation of a small block succeeds; the model's may fail.
    // An alignment of 2^63 is a valid power of two that no block can have:
    // glibc fails with ENOMEM every time, so no failure is assumed away.
    let refused = match function {
        "valloc" => "0",
        "posix_memalign" => "error == EINVAL",
        _ => "errno == EINVAL",
    };
    if function == "valloc" || alignment != "(size_t)1 << 63" {
        case.assume(format!("p != 0 || {refused}"));
    }
    if function == "posix_memalign" {
        case.observe("error");
    }
    case.observe("p != 0");
    case.code("free(p); }");
}
