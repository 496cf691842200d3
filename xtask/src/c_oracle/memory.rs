//! The memory feature classes: pointers (arithmetic within arrays, one
//! past the end, comparisons and differences within one object,
//! `uintptr_t` round trips, struct members and `offsetof`, arrays of
//! pointers, pointers to pointers, function pointer tables), object
//! representations (`memcpy` through `unsigned char` buffers, unions of
//! a pointer and an integer, `memcmp`, byte-wise hashing, `memset`,
//! overlapping `memmove`) and the heap (`malloc`, `calloc`, `realloc`,
//! `free`, linked lists, arrays of rows).
//!
//! Every case computes its result a second way ("alt") that uses no
//! pointer and no library function: the generator's model of each object
//! as an array of canonical values, indices instead of pointers, shifts
//! instead of byte copies. No case has undefined behaviour: the generator
//! knows every object's length and lifetime, reduces every index modulo
//! the length it indexes (one more where a pointer may point one past the
//! end without being dereferenced), frees every allocation, and leaves a
//! failed allocation through `exit(0)`, which no assertion follows.

use super::shapes::{alt_inputs, fold};
use super::types::{alt_convert, IntTy};
use super::{Body, Input};
use crate::oracle::Rng;
use std::fmt::Write as _;

/// The FNV-1a offset basis and prime: the byte-wise hash both ways fold.
const FNV_BASIS: &str = "0xcbf29ce484222325ull";
const FNV_PRIME: &str = "0x100000001b3ull";

/// The bytes of an object of `ty`.
fn size_of(ty: IntTy) -> u64 {
    u64::from(ty.width().max(8) / 8)
}

/// An index below `bound`: a constant, or one computed from the low bits
/// of an input (all of them in a symbolic task's 16-value window; few
/// bits keep the division cheap to encode), so that a symbolic task makes
/// it symbolic. The same C text serves both ways.
fn index(rng: &mut Rng, inputs: &[Input], bound: u64) -> String {
    if rng.chance(3) {
        return format!("{}u", rng.below(bound));
    }
    format!("(((size_t)in{} & 15u) % {bound}u)", rng.below(inputs.len() as u64))
}

/// A count from input `input`, at most `limit` (C text): the low bits of
/// the input, so that a loop it bounds has a bound the verifier sees.
fn count_at_most(input: u64, limit: &str) -> String {
    format!("(((size_t)in{input} & 15u) < ({limit}) ? ((size_t)in{input} & 15u) : ({limit}))")
}

/// An `unsigned long long` value mixed from an input (by `^` and `+`,
/// cheaper to encode than a product), as C text that serves both ways.
fn mixed(rng: &mut Rng, inputs: &[Input]) -> String {
    let input = rng.below(inputs.len() as u64);
    format!("(((unsigned long long)in{input} ^ 0x{:x}ull) + 0x{:x}ull)", rng.next_u64(), rng.next_u64() >> rng.below(64))
}

/// Stores `value` (an `unsigned long long` text) converted to `ty` into
/// `lhs`, and its canonical form into `alt_lhs`.
fn store(body: &mut Body, ty: IntTy, lhs: &str, alt_lhs: &str, value: &str) {
    let _ = writeln!(body.text, "  {lhs} = ({})({value});", ty.c_name());
    let _ = writeln!(body.alt, "  {alt_lhs} = {};", alt_convert(ty, &format!("({value})")));
}

/// Folds `text` into `r` and `alt` into `alt`.
fn fold_both(body: &mut Body, text: &str, alt: &str) {
    fold(&mut body.text, "r", text);
    fold(&mut body.alt, "alt", alt);
}

/// Declares `T arr[n]` filled from the inputs, and its model `v[n]`.
fn array(rng: &mut Rng, inputs: &[Input], body: &mut Body, ty: IntTy, length: u64) {
    alt_inputs(inputs, body);
    let _ = writeln!(body.text, "  {} arr[{length}];", ty.c_name());
    let _ = writeln!(body.alt, "  unsigned long long v[{length}];");
    for k in 0..length {
        let value = mixed(rng, inputs);
        store(body, ty, &format!("arr[{k}]"), &format!("v[{k}]"), &value);
    }
}

/// Folds every element of `arr` and of its model.
fn fold_array(body: &mut Body, length: u64) {
    for k in 0..length {
        fold_both(body, &format!("arr[{k}]"), &format!("v[{k}]"));
    }
}

/// Pointers into an array of a random type: see [`pointer_step`].
pub fn pointers(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    let ty = rng.pick(&IntTy::ALL);
    let length = 2 + rng.below(7);
    array(rng, inputs, body, ty, length);
    for step in 0..1 + rng.below(3) {
        pointer_step(rng, inputs, body, ty, length, step);
    }
    fold_array(body, length);
    true
}

/// One use of pointers into `arr` (`length` elements of `ty`), in a block
/// of its own; `step` keeps its top-level names apart.
fn pointer_step(rng: &mut Rng, inputs: &[Input], body: &mut Body, ty: IntTy, length: u64, step: u64) {
    let t = ty.c_name();
    let (i, j) = (index(rng, inputs, length), index(rng, inputs, length));
    let end = index(rng, inputs, length + 1);
    let value = mixed(rng, inputs);
    let size = size_of(ty);
    match rng.below(7) {
        0 => {
            let _ = writeln!(body.text, "  {{ {t} *p = arr + {i}, **pp = &p, ***ppp = &pp;\n  *pp = &arr[{j}];");
            let _ = writeln!(body.alt, "  {{");
            store(body, ty, "***ppp", &format!("v[{j}]"), &value);
            body.text.push_str("  ++*pp;\n");
            fold_both(body, "(unsigned long long)(p - arr)", &format!("(unsigned long long){j} + 1"));
            fold_both(body, "(unsigned long long)(*pp - &arr[0])", &format!("(unsigned long long){j} + 1"));
            fold_both(body, "p[-1]", &format!("v[{j}]"));
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        1 => {
            let _ = writeln!(body.text, "  {{ {t} *p = &arr[{i}], *q = arr + {end};");
            let _ = writeln!(body.alt, "  {{ size_t p = {i}, q = {end};");
            fold_both(body, "(unsigned long long)(q - p)", "(unsigned long long)((long long)q - (long long)p)");
            let relations = "(p < q) | (p <= q) << 1 | (p == q) << 2 | (p > q) << 3 | (p != q) << 4 | (p >= q) << 5";
            fold_both(body, relations, relations);
            fold_both(body, "(unsigned long long)(arr + sizeof arr / sizeof arr[0] - q)", &format!("(unsigned long long)({length}u - q)"));
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        2 => {
            // A walk to one past the end, forwards or backwards.
            if rng.chance(2) {
                let test = rng.pick(&["p < arr + LENGTH", "p != arr + LENGTH", "arr + LENGTH > p"]).replace("LENGTH", &length.to_string());
                let _ = writeln!(body.text, "  {{ unsigned long long s = 0; {t} *p;\n  for (p = arr + {i}; {test}; p++) s = s * 31u + (unsigned long long)*p;");
                let _ = writeln!(body.alt, "  {{ unsigned long long s = 0; size_t p;\n  for (p = {i}; p < {length}u; p++) s = s * 31u + v[p];");
            } else {
                let _ = writeln!(body.text, "  {{ unsigned long long s = 0; {t} *p;\n  for (p = arr + {length}; p != arr + {i}; ) {{ --p; s = s * 31u + (unsigned long long)*p; }}");
                let _ = writeln!(body.alt, "  {{ unsigned long long s = 0; size_t p;\n  for (p = {length}u; p != {i}; ) {{ --p; s = s * 31u + v[p]; }}");
            }
            fold_both(body, "s", "s");
            fold_both(body, "(unsigned long long)(p - arr)", "(unsigned long long)p");
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        3 => {
            let _ = writeln!(
                body.text,
                "  {{ uintptr_t u = (uintptr_t)&arr[{i}], w = (uintptr_t)(arr + {j});\n  {t} *back = ({t} *)(u + (w - u));"
            );
            let _ = writeln!(body.alt, "  {{ size_t u = {i}, w = {j};");
            fold_both(body, "*back", "v[w]");
            fold_both(body, "(unsigned long long)(w - u)", &format!("((unsigned long long)w - u) * {size}u"));
            fold_both(body, &format!("u % _Alignof({t})"), "0");
            fold_both(body, &format!("({t} *)u == &arr[{i}] && (intptr_t)w == (intptr_t)(uintptr_t)back"), "1");
            store(body, ty, &format!("*({t} *)w"), "v[w]", &value);
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        4 => struct_members(rng, inputs, body, ty, &i, step),
        5 => {
            let (k, which) = (index(rng, inputs, length), index(rng, inputs, 3));
            let _ = writeln!(body.text, "  {{ {t} *ptrs[3] = {{ &arr[{i}], arr + {j}, &{k}[arr] }};");
            let _ = writeln!(body.alt, "  {{ size_t ptrs[3] = {{ {i}, {j}, {k} }};");
            store(body, ty, &format!("*ptrs[{which}]"), &format!("v[ptrs[{which}]]"), &value);
            for n in 0..3 {
                fold_both(body, &format!("*ptrs[{n}]"), &format!("v[ptrs[{n}]]"));
            }
            fold_both(body, "(ptrs[0] == ptrs[1]) + 2 * (ptrs[2] < ptrs[0])", "(ptrs[0] == ptrs[1]) + 2 * (ptrs[2] < ptrs[0])");
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        _ => function_table(rng, inputs, body, ty, &i, step),
    }
}

/// A struct with `ty` and `unsigned short` array members, written through
/// pointers made from `offsetof` and read back through the members, a
/// `container_of` computed back from a member's address.
fn struct_members(rng: &mut Rng, inputs: &[Input], body: &mut Body, ty: IntTy, i: &str, step: u64) {
    let (t, name) = (ty.c_name(), format!("struct m{step}_@"));
    let other = rng.pick(&IntTy::ALL[1..]);
    let u = other.c_name();
    let _ = writeln!(body.top, "{name} {{ char c; {t} x; {u} y[3]; unsigned char z; }};");
    let k = index(rng, inputs, 3);
    let _ = writeln!(
        body.text,
        "  {{ {name} s, *back;\n  memset(&s, 0, sizeof s);\n  {u} *py = ({u} *)((char *)&s + offsetof({name}, y)) + {k};\n  {t} *px = &s.x;\n  *px = arr[{i}];"
    );
    let _ = writeln!(body.alt, "  {{ unsigned long long y[3] = {{ 0, 0, 0 }};");
    store(body, other, "*py", &format!("y[{k}]"), &mixed(rng, inputs));
    let _ = writeln!(body.text, "  back = ({name} *)((char *)(py - {k}) - offsetof({name}, y));");
    for n in 0..3 {
        fold_both(body, &format!("s.y[{n}]"), &format!("y[{n}]"));
    }
    fold_both(body, "back->x", &format!("v[{i}]"));
    fold_both(body, "(unsigned long long)(py - s.y)", &format!("(unsigned long long){k}"));
    fold_both(body, &format!("(size_t)((char *)py - (char *)&s) == offsetof({name}, y) + {k} * sizeof *py"), "1");
    fold_both(body, &format!("(char *)&s.z - (char *)&s.c == (ptrdiff_t)offsetof({name}, z) && back == &s"), "1");
    body.text.push_str("  }\n");
    body.alt.push_str("  }\n");
}

/// Three functions in a table, called through elements and a copy of an
/// element, and a setter called through a pointer; mirrored by `?:`.
fn function_table(rng: &mut Rng, inputs: &[Input], body: &mut Body, ty: IntTy, i: &str, step: u64) {
    let t = ty.c_name();
    let constants: Vec<(u64, u64)> = (0..3).map(|_| (rng.next_u64() | 1, rng.next_u64() >> rng.below(64))).collect();
    for (n, (times, plus)) in constants.iter().enumerate() {
        let _ = writeln!(body.top, "static unsigned long long @_f{step}_{n}(unsigned long long x) {{ return x * 0x{times:x}ull + 0x{plus:x}ull; }}");
    }
    let _ = writeln!(body.top, "static void @_set{step}({t} *p, {t} value) {{ *p = value; }}");
    let (which, other) = (index(rng, inputs, 3), index(rng, inputs, 3));
    let (x, y) = (mixed(rng, inputs), mixed(rng, inputs));
    let _ = writeln!(
        body.text,
        "  {{ unsigned long long (*table[3])(unsigned long long) = {{ @_f{step}_0, &@_f{step}_1, @_f{step}_2 }};\n  unsigned long long (*fp)(unsigned long long) = table[{which}];\n  void (*set)({t} *, {t}) = @_set{step};"
    );
    let _ = writeln!(body.alt, "  {{ size_t fp = {which}, other = {other};");
    let call = |selector: &str, argument: &str| {
        let arm = |n: usize| format!("({argument}) * 0x{:x}ull + 0x{:x}ull", constants[n].0, constants[n].1);
        format!("({selector} == 0 ? {} : {selector} == 1 ? {} : {})", arm(0), arm(1), arm(2))
    };
    fold_both(body, &format!("fp({x})"), &call("fp", &x));
    fold_both(body, &format!("(*table[{other}])({y})"), &call("other", &y));
    fold_both(body, &format!("(fp == @_f{step}_1) + 2 * (fp == table[{other}])"), "(fp == 1) + 2 * (fp == other)");
    let value = mixed(rng, inputs);
    let _ = writeln!(body.text, "  set(arr + {i}, ({t})({value}));\n  }}");
    let _ = writeln!(body.alt, "  v[{i}] = {};\n  }}", alt_convert(ty, &format!("({value})")));
}

/// The byte the buffers of [`bytes`] start with at index `k`, from input
/// `input`.
fn buffer_byte(input: u64) -> String {
    format!("(unsigned char)(((unsigned long long)in{input} >> (k % 8u * 8u)) ^ (k * 37u))")
}

/// Object representations: an array of a random type (not `_Bool`,
/// whose objects may hold only 0 and 1) and a 16-byte buffer, see
/// [`bytes_step`]; both folded at the end, the buffer by its hash.
pub fn bytes(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    let ty = rng.pick(&IntTy::ALL[1..]);
    let length = 2 + rng.below(4);
    array(rng, inputs, body, ty, length);
    let byte = buffer_byte(rng.below(inputs.len() as u64));
    let _ = writeln!(body.text, "  unsigned char buf[16];\n  for (size_t k = 0; k < sizeof buf; k++) buf[k] = {byte};");
    let _ = writeln!(body.alt, "  unsigned char bb[16];\n  for (size_t k = 0; k < 16u; k++) bb[k] = {byte};");
    for step in 0..1 + rng.below(3) {
        bytes_step(rng, inputs, body, ty, length, step);
    }
    fold_array(body, length);
    let hash = |name: &str| format!("  {{ unsigned long long h = {FNV_BASIS};\n  for (size_t k = 0; k < 16u; k++) h = (h ^ {name}[k]) * {FNV_PRIME};\n");
    let _ = write!(body.text, "{}", hash("buf"));
    let _ = write!(body.alt, "{}", hash("bb"));
    fold_both(body, "h", "h");
    body.text.push_str("  }\n");
    body.alt.push_str("  }\n");
    true
}

/// One use of object representations of `arr` (`length` elements of
/// `ty`) and `buf`.
fn bytes_step(rng: &mut Rng, inputs: &[Input], body: &mut Body, ty: IntTy, length: u64, step: u64) {
    let (t, size) = (ty.c_name(), size_of(ty));
    let (i, j) = (index(rng, inputs, length), index(rng, inputs, length));
    let input = rng.below(inputs.len() as u64);
    match rng.below(8) {
        0 => {
            // An element's bytes in a buffer, and the whole array hashed
            // through an `unsigned char` pointer.
            let k = index(rng, inputs, size);
            let _ = writeln!(body.text, "  {{ unsigned char b[sizeof({t})];\n  memcpy(b, &arr[{i}], sizeof b);\n  const unsigned char *bp = (const unsigned char *)arr;");
            let _ = writeln!(body.alt, "  {{");
            fold_both(body, &format!("b[{k}]"), &format!("(v[{i}] >> (8u * {k})) & 0xffu"));
            let _ = writeln!(body.text, "  unsigned long long h = {FNV_BASIS};\n  for (size_t k = 0; k < sizeof arr; k++) h = (h ^ bp[k]) * {FNV_PRIME};");
            let _ = writeln!(
                body.alt,
                "  unsigned long long h = {FNV_BASIS};\n  for (size_t e = 0; e < {length}u; e++) for (size_t k = 0; k < {size}u; k++) h = (h ^ ((v[e] >> (8u * k)) & 0xffu)) * {FNV_PRIME};"
            );
            fold_both(body, "h", "h");
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        1 => {
            // A value of another type read from the buffer at an offset,
            // and an element written into it.
            let other = rng.pick(&IntTy::ALL[1..]);
            let (u, other_size) = (other.c_name(), size_of(other));
            let at = index(rng, inputs, 17 - other_size);
            let to = index(rng, inputs, 17 - size);
            let _ = writeln!(body.text, "  {{ {u} y;\n  memcpy(&y, buf + {at}, sizeof y);\n  memcpy(&buf[{to}], arr + {i}, sizeof arr[0]);");
            let _ = writeln!(body.alt, "  {{ unsigned long long y = 0;\n  for (size_t k = 0; k < {other_size}u; k++) y |= (unsigned long long)bb[{at} + k] << (8u * k);");
            let _ = writeln!(body.alt, "  for (size_t k = 0; k < {size}u; k++) bb[{to} + k] = (unsigned char)(v[{i}] >> (8u * k));");
            fold_both(body, "y", &alt_convert(other, "y"));
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        2 => {
            let _ = writeln!(body.text, "  {{ {t} x;\n  memset(&x, (int)in{input}, sizeof x);");
            let _ = writeln!(body.alt, "  {{");
            fold_both(body, "x", &alt_convert(ty, &format!("(((unsigned long long)in{input} & 0xffu) * 0x0101010101010101ull)")));
            let at = index(rng, inputs, 16);
            let count = rng.below(inputs.len() as u64);
            let _ = writeln!(body.text, "  size_t o = {at}, n = {};\n  memset(buf + o, in{input}, n);\n  }}", count_at_most(count, "16u - o"));
            let _ = writeln!(body.alt, "  size_t o = {at}, n = {};\n  for (size_t k = 0; k < n; k++) bb[o + k] = (unsigned char)in{input};\n  }}", count_at_most(count, "16u - o"));
        }
        3 => {
            let (to, from) = (index(rng, inputs, 8), index(rng, inputs, 8));
            let count = rng.below(inputs.len() as u64);
            let sizes = format!("  {{ size_t d = {to}, s = {from}, n = {};\n", count_at_most(count, "16u - (d > s ? d : s)"));
            body.text.push_str(&sizes);
            body.alt.push_str(&sizes);
            body.text.push_str("  memmove(buf + d, &buf[s], n);\n  }\n");
            body.alt.push_str("  unsigned char t[16];\n  for (size_t k = 0; k < 16u; k++) t[k] = bb[k];\n  for (size_t k = 0; k < n; k++) bb[d + k] = t[s + k];\n  }\n");
            // Elements moved within the array, overlapping.
            let (to, from) = (index(rng, inputs, length), index(rng, inputs, length));
            let sizes = format!("  {{ size_t d = {to}, s = {from}, n = {};\n", count_at_most(count, &format!("{length}u - (d > s ? d : s)")));
            body.text.push_str(&sizes);
            body.alt.push_str(&sizes);
            body.text.push_str("  memmove(arr + d, arr + s, n * sizeof *arr);\n  }\n");
            let _ = writeln!(body.alt, "  unsigned long long t[{length}];\n  for (size_t k = 0; k < {length}u; k++) t[k] = v[k];\n  for (size_t k = 0; k < n; k++) v[d + k] = t[s + k];\n  }}");
        }
        4 => padding_free_memcmp(rng, inputs, body, step),
        5 => {
            // A pointer copied through bytes (by `memcpy` or a loop), and
            // a struct holding pointers copied and compared.
            let copy = if rng.chance(2) { "memcpy(&q, b, sizeof q);" } else { "for (size_t k = 0; k < sizeof q; k++) ((unsigned char *)&q)[k] = b[k];" };
            let _ = writeln!(
                body.text,
                "  {{ {t} *p = &arr[{i}], *q;\n  unsigned char b[sizeof p];\n  memcpy(b, &p, sizeof p);\n  {copy}\n  struct {{ {t} *p; long n; }} s1 = {{ q, 7 }}, s2;\n  memcpy(&s2, &s1, sizeof s1);\n  s2.p = &arr[{j}];"
            );
            let _ = writeln!(body.alt, "  {{");
            fold_both(body, "*q", &format!("v[{i}]"));
            fold_both(body, "(q == p) + 2 * (memcmp(&s1, &s2, sizeof s1) == 0)", &format!("1 + 2 * ({i} == {j})"));
            fold_both(body, "*s2.p", &format!("v[{j}]"));
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        6 => {
            let _ = writeln!(
                body.text,
                "  {{ union {{ {t} *p; uintptr_t u; unsigned char b[sizeof({t} *)]; }} un;\n  un.p = &arr[{i}];\n  un.u += ((uintptr_t){j} - (uintptr_t){i}) * sizeof({t});"
            );
            let _ = writeln!(body.alt, "  {{");
            fold_both(body, "*un.p", &format!("v[{j}]"));
            fold_both(body, &format!("un.p == arr + {j}"), "1");
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        _ => {
            // Bytes written one by one into an element.
            let value = mixed(rng, inputs);
            let _ = writeln!(
                body.text,
                "  {{ unsigned long long x = {value};\n  unsigned char *bp = (unsigned char *)&arr[{i}];\n  for (size_t k = 0; k < sizeof arr[0]; k++) bp[k] = (unsigned char)(x >> (8u * k));\n  }}"
            );
            let _ = writeln!(body.alt, "  v[{i}] = {};", alt_convert(ty, &format!("({value})")));
        }
    }
}

/// The fields of a struct without padding: name, type, offset.
const PACKED_FIELDS: [(&str, IntTy, u64); 5] = [("a", IntTy::UInt, 0), ("b", IntTy::UShort, 4), ("c[0]", IntTy::UChar, 6), ("c[1]", IntTy::UChar, 7), ("d", IntTy::ULLong, 8)];

/// Two structs without padding, one a copy of the other with maybe one
/// field changed, compared by `memcmp`; mirrored by their little-endian
/// images compared byte by byte.
fn padding_free_memcmp(rng: &mut Rng, inputs: &[Input], body: &mut Body, step: u64) {
    let name = format!("struct p{step}_@");
    let _ = writeln!(body.top, "{name} {{ unsigned int a; unsigned short b; unsigned char c[2]; unsigned long long d; }};");
    let _ = writeln!(body.text, "  {{ {name} s1, s2;");
    body.alt.push_str("  { unsigned char x[16], y[16];\n");
    for (field, ty, offset) in PACKED_FIELDS {
        let value = mixed(rng, inputs);
        let _ = writeln!(body.text, "  s1.{field} = ({})({value});", ty.c_name());
        let _ = writeln!(body.alt, "  for (size_t k = 0; k < {}u; k++) x[{offset}u + k] = (unsigned char)(({value}) >> (8u * k));", size_of(ty));
    }
    body.text.push_str("  memcpy(&s2, &s1, sizeof s1);\n");
    body.alt.push_str("  for (size_t k = 0; k < 16u; k++) y[k] = x[k];\n");
    let (field, ty, offset) = rng.pick(&PACKED_FIELDS);
    let (input, value) = (rng.below(inputs.len() as u64), mixed(rng, inputs));
    let _ = writeln!(body.text, "  if (in{input} & 1) s2.{field} = ({})({value});\n  int c = memcmp(&s1, &s2, sizeof s1);", ty.c_name());
    let _ = writeln!(
        body.alt,
        "  if (in{input} & 1) for (size_t k = 0; k < {}u; k++) y[{offset}u + k] = (unsigned char)(({value}) >> (8u * k));\n  int c = 0;\n  for (size_t k = 0; k < 16u; k++) if (x[k] != y[k]) {{ c = x[k] < y[k] ? -1 : 1; break; }}",
        size_of(ty)
    );
    fold_both(body, "(c > 0) - (c < 0)", "c");
    body.text.push_str("  }\n");
    body.alt.push_str("  }\n");
}

/// Heap objects whose elements have a random type: see [`heap_step`].
pub fn heap(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    alt_inputs(inputs, body);
    let ty = rng.pick(&IntTy::ALL);
    for step in 0..1 + rng.below(3) {
        heap_step(rng, inputs, body, ty, step);
    }
    true
}

/// One allocation and its use, freed before the block ends.
fn heap_step(rng: &mut Rng, inputs: &[Input], body: &mut Body, ty: IntTy, step: u64) {
    let t = ty.c_name();
    let (value, other) = (mixed(rng, inputs), mixed(rng, inputs));
    let times = rng.next_u64() | 1;
    let element = |base: &str| alt_convert(ty, &format!("({base} + k * 0x{times:x}ull)"));
    match rng.below(5) {
        0 => {
            // Growth by `realloc` keeps the contents.
            let (n, extra) = (index(rng, inputs, 4), index(rng, inputs, 3));
            let sizes = format!("  {{ size_t n = 1u + {n}, m = n + 1u + {extra};\n");
            body.text.push_str(&sizes);
            body.alt.push_str(&sizes);
            let _ = writeln!(
                body.text,
                "  {t} *p = malloc(n * sizeof *p), *q;\n  if (!p) exit(0);\n  for (size_t k = 0; k < n; k++) p[k] = ({t})({value} + k * 0x{times:x}ull);\n  q = realloc(p, m * sizeof *q);\n  if (!q) {{ free(p); exit(0); }}\n  for (size_t k = n; k < m; k++) q[k] = ({t})({other} ^ k);\n  unsigned long long s = 0;\n  for (size_t k = 0; k < m; k++) s = s * 31u + (unsigned long long)q[k];"
            );
            let _ = writeln!(
                body.alt,
                "  unsigned long long s = 0;\n  for (size_t k = 0; k < m; k++) s = s * 31u + (k < n ? {} : {});",
                element(&value),
                alt_convert(ty, &format!("({other} ^ k)"))
            );
            fold_both(body, "s", "s");
            fold_both(body, "q[m - 1]", &alt_convert(ty, &format!("({other} ^ (m - 1))")));
            body.text.push_str("  free(q); }\n");
            body.alt.push_str("  }\n");
        }
        1 => {
            // `calloc` zeroes; one element set at a computed index.
            let (n, input) = (index(rng, inputs, 6), rng.below(inputs.len() as u64));
            let sizes = format!("  {{ size_t n = 1u + {n}, j = ((size_t)in{input} & 15u) % n;\n");
            body.text.push_str(&sizes);
            body.alt.push_str(&sizes);
            let _ = writeln!(
                body.text,
                "  {t} *p = calloc(n, sizeof *p);\n  if (!p) exit(0);\n  p[j] = ({t})({value});\n  unsigned long long s = 0;\n  for (size_t k = 0; k < n; k++) s = s * 31u + (unsigned long long)p[k];\n  free(p);"
            );
            let _ = writeln!(body.alt, "  unsigned long long s = 0;\n  for (size_t k = 0; k < n; k++) s = s * 31u + (k == j ? {} : 0u);", alt_convert(ty, &format!("({value})")));
            fold_both(body, "s", "s");
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        2 => linked_list(rng, inputs, body, ty, step),
        3 => {
            // Shrinking by `realloc` (from `realloc(NULL, ...)`) keeps the
            // prefix; `free(NULL)` does nothing.
            let (m, input) = (index(rng, inputs, 5), rng.below(inputs.len() as u64));
            let sizes = format!("  {{ size_t m = 2u + {m}, n = 1u + {};\n", count_at_most(input, "m - 2u"));
            body.text.push_str(&sizes);
            body.alt.push_str(&sizes);
            let _ = writeln!(
                body.text,
                "  {t} *p = realloc(0, m * sizeof *p), *q;\n  if (!p) exit(0);\n  for (size_t k = 0; k < m; k++) p[k] = ({t})({value} + k * 0x{times:x}ull);\n  q = realloc(p, n * sizeof *q);\n  if (!q) {{ free(p); exit(0); }}\n  unsigned long long s = 0;\n  for (size_t k = 0; k < n; k++) s = s * 31u + (unsigned long long)q[k];\n  free(q);\n  free(0);"
            );
            let _ = writeln!(body.alt, "  unsigned long long s = 0;\n  for (size_t k = 0; k < n; k++) s = s * 31u + {};", element(&value));
            fold_both(body, "s", "s");
            body.text.push_str("  }\n");
            body.alt.push_str("  }\n");
        }
        _ => {
            // Rows allocated separately, reached through a heap array of
            // pointers.
            let (rows, columns) = (1 + rng.below(3), 1 + rng.below(3));
            let (row, column) = (index(rng, inputs, rows), index(rng, inputs, columns));
            let _ = writeln!(
                body.text,
                "  {{ {t} **rows = malloc({rows} * sizeof *rows);\n  if (!rows) exit(0);\n  for (size_t i = 0; i < {rows}u; i++) {{\n    rows[i] = malloc({columns} * sizeof **rows);\n    if (!rows[i]) exit(0);\n    for (size_t k = 0; k < {columns}u; k++) rows[i][k] = ({t})({value} + (i * 16u + k) * 0x{times:x}ull);\n  }}"
            );
            fold_both(body, &format!("rows[{row}][{column}]"), &alt_convert(ty, &format!("({value} + ({row} * 16u + {column}) * 0x{times:x}ull)")));
            fold_both(body, &format!("(unsigned long long)(&rows[{row}][{column}] - *(rows + {row}))"), &format!("(unsigned long long){column}"));
            let _ = writeln!(body.text, "  for (size_t i = 0; i < {rows}u; i++) free(rows[i]);\n  free(rows); }}");
        }
    }
}

/// A singly linked list of a few nodes pushed at the head (one maybe
/// appended at the tail), walked, reversed in place, walked again and
/// freed; mirrored by an array of its values.
fn linked_list(rng: &mut Rng, inputs: &[Input], body: &mut Body, ty: IntTy, step: u64) {
    let (t, name) = (ty.c_name(), format!("struct node{step}_@"));
    let _ = writeln!(body.top, "{name} {{ {t} v; {name} *next; }};");
    let (value, tail) = (mixed(rng, inputs), mixed(rng, inputs));
    let times = rng.next_u64() | 1;
    let length = index(rng, inputs, 5);
    let _ = writeln!(
        body.text,
        "  {{ {name} *head = 0, *prev = 0;\n  size_t length = 1u + {length};\n  for (size_t k = 0; k < length; k++) {{\n    {name} *node = malloc(sizeof *node);\n    if (!node) exit(0);\n    node->v = ({t})({value} + k * 0x{times:x}ull);\n    node->next = head;\n    head = node;\n  }}"
    );
    let _ = writeln!(
        body.alt,
        "  {{ unsigned long long items[6];\n  size_t length = 1u + {length}, count = 0;\n  for (size_t k = length; k-- > 0; ) items[count++] = {};",
        alt_convert(ty, &format!("({value} + k * 0x{times:x}ull)"))
    );
    if rng.chance(2) {
        let _ = writeln!(
            body.text,
            "  {{ {name} **link = &head;\n    while (*link) link = &(*link)->next;\n    *link = malloc(sizeof **link);\n    if (!*link) exit(0);\n    (*link)->v = ({t})({tail});\n    (*link)->next = 0; }}"
        );
        let _ = writeln!(body.alt, "  items[count++] = {};", alt_convert(ty, &format!("({tail})")));
    }
    let walk = "  { unsigned long long s = 0, n = 0;\n    for (NODE *p = head; p; p = p->next) { s = s * 31u + (unsigned long long)p->v; n++; }\n";
    let alt_walk = |order: &str| format!("  {{ unsigned long long s = 0, n = 0;\n    for (size_t k = 0; k < count; k++) {{ s = s * 31u + items[{order}]; n++; }}\n");
    body.text.push_str(&walk.replace("NODE", &name));
    body.alt.push_str(&alt_walk("k"));
    fold_both(body, "s * 7u + n", "s * 7u + n");
    body.text.push_str("  }\n  while (head) { NODE *next = head->next; head->next = prev; prev = head; head = next; }\n  head = prev;\n".replace("NODE", &name).as_str());
    body.alt.push_str("  }\n");
    body.text.push_str(&walk.replace("NODE", &name));
    body.alt.push_str(&alt_walk("count - 1u - k"));
    fold_both(body, "s * 7u + n", "s * 7u + n");
    let _ = writeln!(body.text, "  }}\n  while (head) {{ {name} *next = head->next; free(head); head = next; }}\n  }}");
    body.alt.push_str("  }\n  }\n");
}
