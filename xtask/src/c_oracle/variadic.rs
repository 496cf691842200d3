//! The `variadic` feature class: calls of a variadic function with
//! arguments of mixed kinds (promoted integers, `double`, `long double`,
//! `__int128`, pointers, structs of one word and of 16-byte alignment),
//! read back with `va_arg` as a key string directs, directly, through a
//! `va_copy` or by a function the `va_list` is passed to. gcc is the only
//! judge (pinned tasks). Floating arguments are folded by their bits.

use super::shapes::{fold, source};
use super::{Body, Input};
use crate::oracle::Rng;
use std::fmt::Write as _;

/// The reader: one `case` per key letter, each folding its argument into
/// `r`; `@` is the case's name.
const READER: &str = "\
struct @_pair { char c; long long v; };
struct @_wide { long double x; char tag; };
static unsigned long long @_bits(const void *p, size_t n) { unsigned long long b = 0; memcpy(&b, p, n < 8 ? n : 8); return b; }
static unsigned long long @_vread(const char *k, va_list ap) {
  unsigned long long r = 0;
  for (; *k; k++) {
    unsigned long long v = 0;
    switch (*k) {
    case 'i': v = (unsigned long long)va_arg(ap, int); break;
    case 'u': v = va_arg(ap, unsigned int); break;
    case 'l': v = (unsigned long long)va_arg(ap, long long); break;
    case 'd': { double d = va_arg(ap, double); v = @_bits(&d, 8); break; }
    case 'L': { long double x = va_arg(ap, long double); v = @_bits(&x, 8) ^ (@_bits((char *)&x + 8, 2) << 48); break; }
    case 'q': { __int128 q = va_arg(ap, __int128); v = (unsigned long long)q ^ (unsigned long long)(q >> 64); break; }
    case 'p': { const unsigned char *p = va_arg(ap, const unsigned char *); v = p[0]; break; }
    case 's': { struct @_pair s = va_arg(ap, struct @_pair); v = (unsigned long long)s.c ^ (unsigned long long)s.v; break; }
    case 'w': { struct @_wide w = va_arg(ap, struct @_wide); v = @_bits(&w.x, 8) ^ (unsigned long long)w.tag; break; }
    }
    r = r * 1000003u + v;
  }
  return r;
}
static unsigned long long @_va(const char *k, ...) {
  va_list ap, copy;
  va_start(ap, k);
  va_copy(copy, ap);
  unsigned long long r = @_vread(k, ap);
  if (k[0] != 0) {
    /* The copy reads the first argument again. */
    char first[2] = { k[0], 0 };
    r ^= @_vread(first, copy) << 1;
  }
  va_end(copy);
  va_end(ap);
  return r;
}
";

/// One argument: its key letter and C text from an input's text `x`.
fn argument(rng: &mut Rng, x: &str, top: &mut String, index: usize) -> (char, String) {
    match rng.below(9) {
        0 => ('i', format!("(int)({x})")),
        1 => ('u', format!("(unsigned int)({x})")),
        2 => ('l', format!("(long long)({x})")),
        3 => ('d', format!("(double)({x}) * 0.5")),
        4 => ('L', format!("(long double)({x}) / 3")),
        5 => ('q', format!("(__int128)((unsigned __int128)({x}) << {})", rng.below(64))),
        6 => {
            let _ = writeln!(top, "static const unsigned char @_bytes{index}[1] = {{ {} }};", rng.below(256));
            ('p', format!("@_bytes{index}"))
        }
        7 => ('s', format!("(struct @_pair){{ (char)({x}), (long long)((unsigned long long)({x}) * 3u) }}")),
        _ => ('w', format!("(struct @_wide){{ (long double)({x}), (char)({x}) }}")),
    }
}

/// A variadic call of 1..7 arguments of mixed kinds.
pub fn variadic_calls(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    body.top.push_str(READER);
    for step in 0..1 + rng.below(2) {
        let count = 1 + rng.below(7) as usize;
        let mut keys = String::new();
        let mut args = Vec::new();
        for k in 0..count {
            let (x, _, _) = source(rng, inputs);
            let (key, text) = argument(rng, &x, &mut body.top, step as usize * 8 + k);
            keys.push(key);
            args.push(text);
        }
        fold(&mut body.text, "r", &format!("@_va(\"{keys}\", {})", args.join(", ")));
    }
    false
}
