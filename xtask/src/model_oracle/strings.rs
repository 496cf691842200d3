//! The `strings` family: `<string.h>` (searches, comparisons, copies,
//! tokens, duplicates, the memory functions symex models natively, the GNU
//! relatives `stpcpy`, `stpncpy`, `mempcpy`, `memccpy`, `strchrnul`,
//! `rawmemchr`), `<strings.h>` (`bzero`, `bcmp`, `bcopy`, `index`,
//! `rindex`) and
//! `strcoll` in the C locale, on small buffers of bytes from alphabets
//! that mix cases, digits, separators and bytes above 127, with embedded
//! terminators. Results are observed as they are (a search's offset or
//! -1), comparisons by their sign only, destinations by a
//! hash of all their bytes. Every call is defined: sources are strings
//! inside their buffers, counts stay within them, destinations are large
//! enough, and only `memmove` gets overlapping operands.

use super::{c_string, Case, Family, Kind};
use crate::oracle::Rng;

/// Bytes a generated string is made of.
const ALPHABETS: [&[u8]; 5] = [b"ab", b"abcd", b"aAbB", b"a1 ,.-", b"a\x80\xe9\xffZ"];

/// A string of at most `longest` bytes over one alphabet (no NUL).
pub(super) fn text(rng: &mut Rng, longest: u64) -> Vec<u8> {
    let alphabet = rng.pick(&ALPHABETS);
    (0..rng.below(longest + 1)).map(|_| alphabet[rng.below(alphabet.len() as u64) as usize]).collect()
}

/// A byte to search for or set: from the alphabets, NUL, or an `int`
/// beyond a byte (converted by the function).
fn search_value(rng: &mut Rng, haystack: &[u8]) -> String {
    match rng.below(6) {
        0 if !haystack.is_empty() => haystack[rng.below(haystack.len() as u64) as usize].to_string(),
        1 => "0".into(),
        2 => rng.pick(&["-1", "256 + 'a'", "-256 + 'b'", "0x1ff", "-128"]).to_string(),
        _ => rng.pick(&["'a'", "'b'", "'A'", "' '", "','", "0x80", "0xe9", "0xff", "'z'"]).to_string(),
    }
}

/// A buffer named `name` holding `content` and `spare` more bytes (zero,
/// or after an explicit terminator, some leftover letters).
fn declare(case: &mut Case, rng: &mut Rng, name: &str, content: &[u8], spare: u64) -> u64 {
    let size = content.len() as u64 + 1 + spare;
    let mut bytes = content.to_vec();
    bytes.push(0);
    while (bytes.len() as u64) < size {
        bytes.push(if rng.chance(2) { 0 } else { b'q' });
    }
    bytes.pop();
    case.code(format!("char {name}[{size}] = {};", c_string(&bytes)));
    if !content.is_empty() && rng.chance(3) {
        // One byte of the string comes from a pinned input.
        let at = rng.below(content.len() as u64);
        let byte = content[at as usize] as i8;
        case.pin("char", &format!("{name}_k"), &byte.to_string());
        case.code(format!("{name}[{at}] = {name}_k;"));
    }
    size
}

/// The sign of a comparison's result: all that C fixes, so all the
/// oracle compares (glibc's magnitude depends on the function and the
/// CPU's implementation, the models' is any int of the sign; see the
/// coverage list).
pub(super) fn sign(result: &str) -> String {
    format!("oracle_sign({result})")
}

/// An offset into `buffer` of a pointer `found` (NULL as -1), `found`
/// evaluated once.
fn offset(found: &str, buffer: &str) -> String {
    format!("oracle_offset({found}, {buffer}, 1)")
}

pub fn case(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Strings, Kind::Exact);
    case.include("string.h");
    // Now and then a long string.
    let longest = if rng.chance(8) { 90 } else { 12 };
    let a = text(rng, longest);
    let b = if rng.chance(3) { a.clone() } else { text(rng, 8) };
    let (spare_a, spare_b) = (rng.below(4), rng.below(4));
    let size_a = declare(&mut case, rng, "a", &a, spare_a);
    let size_b = declare(&mut case, rng, "b", &b, spare_b);
    let size_d = size_a + size_b + 2;
    case.code(format!("char d[{size_d}];"));
    case.code(format!("memset(d, 'x', sizeof d);\n  d[{}] = 0;", rng.below(3)));
    let mut d_holds_string = true;
    for _ in 0..1 + rng.below(3) {
        operation(rng, &mut case, (&a, size_a), (&b, size_b), size_d, &mut d_holds_string);
    }
    case.observe("oracle_hash(d, sizeof d)");
    case
}

fn operation(rng: &mut Rng, case: &mut Case, (a, size_a): (&[u8], u64), (b, size_b): (&[u8], u64), size_d: u64, d_holds_string: &mut bool) {
    let n_a = rng.below(size_a + 1);
    let n_both = rng.below(size_a.min(size_b) + 1);
    let c = search_value(rng, a);
    let (x, y) = if rng.chance(2) { ("a", "b") } else { ("b", "a") };
    match rng.below(25) {
        0 => {
            case.uses("strlen");
            case.observe(format!("strlen({x})"));
        }
        1 => {
            case.uses("strnlen");
            case.observe(format!("strnlen(a, {n_a})"));
        }
        2 => {
            case.uses("strcmp");
            case.observe(sign(&format!("strcmp({x}, {y})")));
        }
        3 => {
            case.uses("strncmp");
            case.observe(sign(&format!("strncmp(a, b, {})", rng.below(16))));
        }
        4 => {
            case.uses("memcmp");
            case.observe(sign(&format!("memcmp({x}, {y}, {n_both})")));
        }
        5 => {
            case.uses("strcasecmp");
            case.observe(sign(&format!("strcasecmp({x}, {y})")));
        }
        6 => {
            case.uses("strncasecmp");
            case.observe(sign(&format!("strncasecmp(a, b, {})", rng.below(16))));
        }
        7 => {
            case.uses("strchr");
            case.observe(offset(&format!("strchr(a, {c})"), "a"));
        }
        8 => {
            case.uses("strrchr");
            case.observe(offset(&format!("strrchr(a, {c})"), "a"));
        }
        9 => {
            case.uses("memchr");
            case.observe(offset(&format!("memchr(a, {c}, {n_a})"), "a"));
        }
        10 => {
            case.uses("memrchr");
            case.observe(offset(&format!("memrchr(a, {c}, {n_a})"), "a"));
        }
        11 => {
            let function = rng.pick(&["strstr", "strpbrk"]);
            case.uses(function);
            case.observe(offset(&format!("{function}({x}, {y})"), x));
        }
        12 => {
            let function = rng.pick(&["strspn", "strcspn"]);
            case.uses(function);
            case.observe(format!("{function}({x}, {y})"));
        }
        13 => {
            case.uses("strcpy");
            case.observe(offset(&format!("strcpy(d, {x})"), "d"));
            *d_holds_string = true;
        }
        14 => {
            case.uses("strncpy");
            case.observe(offset(&format!("strncpy(d, {x}, {})", rng.below(size_d + 1)), "d"));
            case.code(format!("d[{}] = 0;", size_d - 1));
            *d_holds_string = true;
        }
        15 if *d_holds_string => {
            // d holds at most size_d - 1 bytes before: keep room for the copy.
            case.code(format!("d[{}] = 0;", rng.below(size_d - size_a.max(size_b))));
            if rng.chance(2) {
                case.uses("strcat");
                case.observe(offset(&format!("strcat(d, {x})"), "d"));
            } else {
                case.uses("strncat");
                case.observe(offset(&format!("strncat(d, {x}, {})", rng.below(16)), "d"));
            }
        }
        16 => {
            let function = rng.pick(&["strdup", "strndup"]);
            case.uses(function);
            case.include("stdlib.h");
            let call = if function == "strdup" { format!("strdup({x})") } else { format!("strndup({x}, {})", rng.below(14)) };
            case.code(format!("{{ char *copy = {call};"));
            // glibc's allocation succeeds here; the model's may fail.
            case.assume("copy != 0");
            case.observe("oracle_string(copy)");
            case.code("free(copy); }");
        }
        17 => tokens(rng, case, a, b),
        18 => {
            let function = rng.pick(&["memcpy", "memset"]);
            case.uses(function);
            if function == "memcpy" {
                case.observe(offset(&format!("memcpy(d + {}, {x}, {})", rng.below(3), n_both), "d"));
            } else {
                case.observe(offset(&format!("memset(d + {}, {c}, {})", rng.below(3), rng.below(size_d - 2)), "d"));
            }
        }
        19 => {
            // Overlapping operands, in either direction.
            case.uses("memmove");
            let count = rng.below(size_d / 2 + 1);
            let (to, from) = (rng.below(size_d - count + 1), rng.below(size_d - count + 1));
            case.observe(offset(&format!("memmove(d + {to}, d + {from}, {count})"), "d"));
            *d_holds_string = false;
        }
        20 => {
            case.uses("strcoll");
            case.include("locale.h");
            case.observe(sign(&format!("strcoll({x}, {y})")));
        }
        21 => gnu_copy(rng, case, x, (n_both, size_d), &c, d_holds_string),
        22 => {
            let function = rng.pick(&["strchrnul", "index", "rindex"]);
            case.uses(function);
            case.observe(offset(&format!("{function}(a, {c})"), "a"));
        }
        23 => {
            // The byte searched for is in the buffer: a's or its terminator.
            case.uses("rawmemchr");
            let byte = if a.is_empty() || rng.chance(3) { 0 } else { a[rng.below(a.len() as u64) as usize] };
            case.observe(offset(&format!("rawmemchr(a, {byte})"), "a"));
        }
        24 => {
            case.uses("bcmp");
            case.include("strings.h");
            case.observe(format!("bcmp({x}, {y}, {n_both}) != 0"));
        }
        _ => {
            case.uses("strlen");
            case.observe(format!("strlen({y})"));
        }
    }
}

/// The GNU and BSD copies into `d` (of `size_d` bytes) from `x` (whose
/// buffer holds at least `n_both` bytes): `stpcpy`, `stpncpy`, `mempcpy`,
/// `memccpy`, `bzero`, and `bcopy` with overlapping operands.
fn gnu_copy(rng: &mut Rng, case: &mut Case, x: &str, (n_both, size_d): (u64, u64), c: &str, d_holds_string: &mut bool) {
    let function = rng.pick(&["stpcpy", "stpncpy", "mempcpy", "memccpy", "bzero", "bcopy"]);
    case.uses(function);
    match function {
        "stpcpy" => {
            case.observe(offset(&format!("stpcpy(d, {x})"), "d"));
            *d_holds_string = true;
        }
        "stpncpy" => {
            case.observe(offset(&format!("stpncpy(d, {x}, {})", rng.below(size_d + 1)), "d"));
            case.code(format!("d[{}] = 0;", size_d - 1));
            *d_holds_string = true;
        }
        "mempcpy" => case.observe(offset(&format!("mempcpy(d + {}, {x}, {n_both})", rng.below(3)), "d")),
        "memccpy" => case.observe(offset(&format!("memccpy(d + {}, {x}, {c}, {n_both})", rng.below(3)), "d")),
        "bzero" => {
            case.include("strings.h");
            case.code(format!("bzero(d + {}, {});", rng.below(3), rng.below(size_d - 2)));
        }
        _ => {
            case.include("strings.h");
            let count = rng.below(size_d / 2 + 1);
            let (to, from) = (rng.below(size_d - count + 1), rng.below(size_d - count + 1));
            case.code(format!("bcopy(d + {from}, d + {to}, {count});"));
            *d_holds_string = false;
        }
    }
}

/// `strtok` or `strtok_r` over a copy of `a` with delimiters from `b`'s
/// alphabet: each token's offset (or -1), and the buffer afterwards.
fn tokens(rng: &mut Rng, case: &mut Case, a: &[u8], b: &[u8]) {
    let reentrant = rng.chance(2);
    case.uses(if reentrant { "strtok_r" } else { "strtok" });
    let delimiters = if rng.chance(2) { b.to_vec() } else { text(rng, 3) };
    case.code(format!("{{ char t[{}] = {};\n  char *save = 0;", a.len() + 1, c_string(a)));
    for call in 0..2 + rng.below(3) {
        let first = if call == 0 { "t" } else { "0" };
        let found = if reentrant {
            format!("strtok_r({first}, {}, &save)", c_string(&delimiters))
        } else {
            format!("strtok({first}, {})", c_string(&delimiters))
        };
        case.code(format!("char *token{call} = {found};"));
        case.observe(offset(&format!("token{call}"), "t"));
    }
    case.observe("oracle_hash(t, sizeof t)");
    case.code("(void)save; }");
}
