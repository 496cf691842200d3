//! The feature classes other than random expressions: bit-fields, unions
//! with `memcpy`/`memmove`/`memset`, bit builtins, overflow builtins,
//! `switch`, struct layout with pointer arithmetic, short-circuit
//! evaluation, compound literals and enums. Each returns its statements
//! and whether it also computes the result a second way (`alt`), from the
//! generator's own model of the semantics (masks and shifts on canonical
//! forms, an `if` chain for a `switch`). Classes whose result depends on
//! gcc's layout choices (or whose second way would need wider arithmetic
//! than C has) are checked against the native result only.

use super::types::{alt_convert, canonical, typed_constant, IntTy};
use super::{edge_value, Body, Input};
use crate::oracle::Rng;
use std::fmt::Write as _;

/// Declares the canonical forms `a0`, `a1`, ... for the second way.
pub(super) fn alt_inputs(inputs: &[Input], body: &mut Body) {
    for index in 0..inputs.len() {
        let _ = writeln!(body.alt, "  unsigned long long a{index} = (unsigned long long)in{index};");
    }
}

/// An input, or now and then a constant of a random type: C text, its
/// canonical form's alt text, and its type.
pub(super) fn source(rng: &mut Rng, inputs: &[Input]) -> (String, String, IntTy) {
    if rng.chance(4) {
        let ty = rng.pick(&IntTy::ALL);
        let value = edge_value(rng, ty);
        return (typed_constant(ty, value), format!("0x{value:x}ull"), ty);
    }
    let index = rng.below(inputs.len() as u64) as usize;
    (format!("in{index}"), format!("a{index}"), inputs[index].ty)
}

/// Folds a value into the result: `r = r * 1000003 + v` (unsigned, so
/// it wraps without undefined behaviour).
pub(super) fn fold(text: &mut String, target: &str, value: &str) {
    let _ = writeln!(text, "  {target} = {target} * 1000003u + (unsigned long long)({value});");
}

struct Field {
    base: IntTy,
    width: u32,
}

impl Field {
    /// The canonical value stored into the field from canonical `value`.
    fn convert(&self, value: &str) -> String {
        if self.base == IntTy::Bool {
            return format!("(unsigned long long)({value} != 0)");
        }
        let mask = if self.width == 64 { u64::MAX } else { (1u64 << self.width) - 1 };
        if self.base.is_signed() {
            let sign = 1u64 << (self.width - 1);
            format!("((({value} & 0x{mask:x}ull) ^ 0x{sign:x}ull) - 0x{sign:x}ull)")
        } else {
            format!("({value} & 0x{mask:x}ull)")
        }
    }

    /// Whether the field promotes to `int` with room for the updates of
    /// [`bit_field_update`] (no signed overflow).
    fn updatable(&self) -> bool {
        self.base == IntTy::Bool || (self.base.width() <= 32 && self.width <= 28)
    }
}

/// A struct of bit-fields (any base type, widths 1..64, unnamed and
/// zero-width ones, maybe packed). With `values`, inputs are stored into
/// fields (of a variable, or of an array element at an input-dependent
/// index), updated with `++`/`--`/compound assignment and read back,
/// mirrored by masks; otherwise bytes derived from the inputs are copied
/// into the struct and the fields read, which shows gcc's layout.
pub fn bit_fields(rng: &mut Rng, inputs: &[Input], body: &mut Body, values: bool) -> bool {
    let bases = [IntTy::Bool, IntTy::Char, IntTy::SChar, IntTy::UChar, IntTy::Short, IntTy::UShort, IntTy::Int, IntTy::UInt, IntTy::Long, IntTy::ULong, IntTy::LLong, IntTy::ULLong];
    let count = 1 + rng.below(5) as usize;
    let mut fields = Vec::new();
    let mut declaration = String::from("  struct bits {");
    for index in 0..count {
        if rng.chance(5) {
            let base = rng.pick(&[IntTy::Int, IntTy::UInt, IntTy::UChar, IntTy::ULLong]);
            let width = if rng.chance(2) { 0 } else { 1 + rng.below(u64::from(base.width())) };
            let _ = write!(declaration, " {} : {width};", base.c_name());
        }
        let base = rng.pick(&bases);
        let width = 1 + rng.below(u64::from(base.width())) as u32;
        let _ = write!(declaration, " {} f{index} : {width};", base.c_name());
        fields.push(Field { base, width });
    }
    let packed = if rng.chance(3) { " __attribute__((packed))" } else { "" };
    let _ = writeln!(declaration, " }}{packed};\n  struct bits s;\n  memset(&s, 0, sizeof s);");
    body.text.push_str(&declaration);
    if !values {
        let _ = writeln!(
            body.text,
            "  unsigned char bytes[sizeof s];\n  for (size_t i = 0; i < sizeof s; i++) bytes[i] = (unsigned char)(((unsigned long long)in0 >> (i % 8 * 8)) ^ (i * 37u) ^ (unsigned long long)in{});\n  memcpy(&s, bytes, sizeof s);",
            inputs.len() - 1
        );
        for index in 0..count {
            fold(&mut body.text, "r", &format!("s.f{index}"));
        }
        fold(&mut body.text, "r", "sizeof s");
        return false;
    }
    alt_inputs(inputs, body);
    for (index, field) in fields.iter().enumerate() {
        let (text, alt, _) = source(rng, inputs);
        let _ = writeln!(body.text, "  s.f{index} = {text};");
        let _ = writeln!(body.alt, "  unsigned long long b{index} = {};", field.convert(&alt));
    }
    for _ in 0..rng.below(5) {
        let index = rng.below(count as u64) as usize;
        if fields[index].updatable() {
            bit_field_update(rng, inputs, &fields[index], index, body);
        }
    }
    for index in 0..count {
        fold(&mut body.text, "r", &format!("s.f{index}"));
        fold(&mut body.alt, "alt", &format!("b{index}"));
    }
    // The same through an element of an array at an input-dependent index,
    // directly or through a pointer.
    let access = rng.pick(&["s.", "s.", "sp->", "array[in0 & 1]."]);
    if access != "s." {
        let declared = "  struct bits s;\n  memset(&s, 0, sizeof s);";
        let array = "  struct bits array[2], *sp = &array[in0 & 1];\n  memset(array, 0, sizeof array);";
        body.text = body.text.replace(declared, array).replace("s.f", &format!("{access}f"));
    }
    true
}

/// One update of field `index`, small enough that its promotion to `int`
/// cannot overflow.
fn bit_field_update(rng: &mut Rng, inputs: &[Input], field: &Field, index: usize, body: &mut Body) {
    let input = rng.below(inputs.len() as u64);
    let (text, alt) = match rng.below(11) {
        0 => (format!("s.f{index}++;"), format!("b{index} + 1")),
        1 => (format!("--s.f{index};"), format!("b{index} - 1")),
        2 => (format!("s.f{index} += in{input} & 0xff;"), format!("b{index} + (a{input} & 0xff)")),
        3 => (format!("s.f{index} -= 3;"), format!("b{index} - 3")),
        4 => (format!("s.f{index} *= 3;"), format!("b{index} * 3")),
        5 => (format!("s.f{index} >>= 2;"), format!("(unsigned long long)((long long)b{index} >> 2)")),
        6 => (format!("s.f{index} |= 5;"), format!("b{index} | 5")),
        7 => (format!("s.f{index} ^= in{input} & 0x7f;"), format!("b{index} ^ (a{input} & 0x7f)")),
        8 => (format!("s.f{index} /= 3;"), format!("(unsigned long long)((long long)b{index} / 3)")),
        9 => (format!("s.f{index} %= 5;"), format!("(unsigned long long)((long long)b{index} % 5)")),
        _ if !field.base.is_signed() && field.width <= 26 => (format!("s.f{index} <<= 2;"), format!("b{index} << 2")),
        _ => (format!("s.f{index}--;"), format!("b{index} - 1")),
    };
    let _ = writeln!(body.text, "  {text}");
    let _ = writeln!(body.alt, "  b{index} = {};", field.convert(&format!("({alt})")));
}

/// The members of the union: name, element type, element count.
const UNION_MEMBERS: [(&str, IntTy, u32); 9] = [
    ("q", IntTy::ULLong, 1),
    ("sq", IntTy::LLong, 1),
    ("d", IntTy::UInt, 2),
    ("sd", IntTy::Int, 2),
    ("w", IntTy::UShort, 4),
    ("sw", IntTy::Short, 4),
    ("b", IntTy::UChar, 8),
    ("sb", IntTy::SChar, 8),
    ("c", IntTy::Char, 8),
];

/// The alt statement writing the low `bytes` bytes of `value` at bit
/// `shift` (a C expression, a multiple of 8) of the union's little-endian
/// image `m`.
fn write_bytes(shift: &str, bytes: u32, value: &str) -> String {
    if bytes == 8 {
        return format!("  m = {value};\n");
    }
    let mask = (1u64 << (8 * bytes)) - 1;
    format!("  m = (m & ~(0x{mask:x}ull << {shift})) | (({value} & 0x{mask:x}ull) << {shift});\n")
}

/// An element of union member `name` (`count` elements of `width` bits):
/// its C designator and the alt expression of its bit offset. The index
/// is a constant or, now and then, computed from an input.
fn element(rng: &mut Rng, inputs: &[Input], name: &str, count: u32, width: u32) -> (String, String) {
    if count == 1 {
        return (name.to_string(), "0".into());
    }
    if rng.chance(3) {
        let input = rng.below(inputs.len() as u64);
        return (format!("{name}[in{input} & {}]", count - 1), format!("((a{input} & {}) * {width})", count - 1));
    }
    let index = rng.below(u64::from(count)) as u32;
    (format!("{name}[{index}]"), (index * width).to_string())
}

/// An 8-byte union written through members of every width (at constant
/// or input-dependent indices), `memcpy`, `memset` and (overlapping)
/// `memmove`, and read through another member or copied out with
/// `memcpy`;
/// mirrored on its little-endian image.
pub fn union_bytes(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    let members: Vec<String> = UNION_MEMBERS
        .iter()
        .map(|&(name, ty, count)| if count == 1 { format!("{} {name};", ty.c_name()) } else { format!("{} {name}[{count}];", ty.c_name()) })
        .collect();
    let _ = writeln!(body.text, "  union {{ {} }} u;\n  u.q = in0;", members.join(" "));
    alt_inputs(inputs, body);
    body.alt.push_str("  unsigned long long m = a0;\n");
    for _ in 0..1 + rng.below(4) {
        match rng.below(4) {
            0 => {
                let (name, ty, count) = rng.pick(&UNION_MEMBERS);
                let (element, shift) = element(rng, inputs, name, count, ty.width());
                let (text, alt, _) = source(rng, inputs);
                let _ = writeln!(body.text, "  u.{element} = {text};");
                body.alt.push_str(&write_bytes(&shift, ty.width() / 8, &format!("({alt})")));
            }
            1 => {
                let input = rng.below(inputs.len() as u64) as usize;
                let size = inputs[input].ty.width().div_ceil(8);
                let offset = rng.below(u64::from(9 - size)) as u32;
                let _ = writeln!(body.text, "  memcpy(&u.b[{offset}], &in{input}, sizeof in{input});");
                body.alt.push_str(&write_bytes(&(8 * offset).to_string(), size, &format!("a{input}")));
            }
            2 => {
                let offset = rng.below(8) as u32;
                let bytes = 1 + rng.below(u64::from(8 - offset)) as u32;
                let (text, alt, _) = source(rng, inputs);
                let _ = writeln!(body.text, "  memset(&u.b[{offset}], {text}, {bytes});");
                let repeated = (0..bytes).fold(0u64, |acc, i| acc | 1 << (8 * i));
                body.alt.push_str(&write_bytes(&(8 * offset).to_string(), bytes, &format!("(({alt}) & 0xff) * 0x{repeated:x}ull")));
            }
            _ => {
                let bytes = 1 + rng.below(7) as u32;
                let from = rng.below(u64::from(9 - bytes)) as u32;
                let to = rng.below(u64::from(9 - bytes)) as u32;
                let _ = writeln!(body.text, "  memmove(&u.b[{to}], &u.b[{from}], {bytes});");
                body.alt.push_str(&write_bytes(&(8 * to).to_string(), bytes, &format!("(m >> {})", 8 * from)));
            }
        }
    }
    for _ in 0..1 + rng.below(2) {
        if rng.chance(3) {
            // `memcpy` out of the union at any (unaligned) byte offset.
            let ty = rng.pick(&IntTy::ALL[1..]);
            let size = ty.width() / 8;
            let offset = rng.below(u64::from(9 - size));
            let _ = writeln!(body.text, "  {{ {} v; memcpy(&v, &u.b[{offset}], sizeof v); r = r * 1000003u + (unsigned long long)v; }}", ty.c_name());
            fold(&mut body.alt, "alt", &alt_convert(ty, &format!("(m >> {})", 8 * offset)));
            continue;
        }
        let (name, ty, count) = rng.pick(&UNION_MEMBERS);
        let (element, shift) = element(rng, inputs, name, count, ty.width());
        fold(&mut body.text, "r", &format!("u.{element}"));
        fold(&mut body.alt, "alt", &alt_convert(ty, &format!("(m >> {shift})")));
    }
    true
}

/// The alt statements setting `target` to the index of the highest set
/// bit of the nonzero `value` (a binary search with shifts).
fn highest_bit(target: &str, value: &str) -> String {
    let mut text = format!("  {{ unsigned long long v = {value}, n = 0;");
    for step in [32, 16, 8, 4, 2, 1] {
        let _ = write!(text, " if (v >> {step}) {{ n += {step}; v >>= {step}; }}");
    }
    let _ = writeln!(text, " {target} = n; }}");
    text
}

/// `__builtin_popcount`/`parity`/`clz`/`ctz`/`ffs`/`bswap` of every
/// width, mirrored with shifts and masks.
pub fn bit_builtins(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    alt_inputs(inputs, body);
    for step in 0..1 + rng.below(3) {
        let input = rng.below(inputs.len() as u64) as usize;
        let (suffix, ty) = rng.pick(&[("", IntTy::UInt), ("l", IntTy::ULong), ("ll", IntTy::ULLong)]);
        let width = ty.width();
        let x = format!("x{step}");
        let _ = writeln!(body.text, "  {} {x} = in{input};", ty.c_name());
        let y = format!("y{step}");
        let _ = writeln!(body.alt, "  unsigned long long {y} = {}, v{step} = 0;", alt_convert(ty, &format!("a{input}")));
        let result = format!("v{step}");
        let text = match rng.below(6) {
            0 | 1 => {
                let parity = rng.chance(2);
                let name = if parity { "parity" } else { "popcount" };
                let _ = writeln!(
                    body.alt,
                    "  {{ unsigned long long v = {y}; v = v - ((v >> 1) & 0x5555555555555555ull); v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull); v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full; {result} = (v * 0x0101010101010101ull) >> 56; }}"
                );
                if parity {
                    let _ = writeln!(body.alt, "  {result} &= 1;");
                }
                format!("__builtin_{name}{suffix}({x})")
            }
            2 => {
                let _ = write!(body.alt, "{}", highest_bit(&result, &y));
                let _ = writeln!(body.alt, "  {result} = {y} ? {} - {result} : {width};", width - 1);
                format!("{x} ? __builtin_clz{suffix}({x}) : {width}")
            }
            3 => {
                let _ = write!(body.alt, "{}", highest_bit(&result, &format!("({y} & (0 - {y}))")));
                let _ = writeln!(body.alt, "  {result} = {y} ? {result} : {width};");
                format!("{x} ? __builtin_ctz{suffix}({x}) : {width}")
            }
            4 => {
                let (name, signed) = if ty == IntTy::UInt { ("ffs", IntTy::Int) } else { ("ffsll", IntTy::LLong) };
                let _ = write!(body.alt, "{}", highest_bit(&result, &format!("({y} & (0 - {y}))")));
                let _ = writeln!(body.alt, "  {result} = {y} ? {result} + 1 : 0;");
                format!("__builtin_{name}(({}){x})", signed.c_name())
            }
            _ => {
                let bits = rng.pick(&[16u32, 32, 64]);
                let bytes: Vec<String> = (0..bits / 8).map(|i| format!("((({y} >> {}) & 0xff) << {})", 8 * i, bits - 8 - 8 * i)).collect();
                let _ = writeln!(body.alt, "  {result} = {};", bytes.join(" | "));
                format!("__builtin_bswap{bits}({x})")
            }
        };
        fold(&mut body.text, "r", &text);
        fold(&mut body.alt, "alt", &result);
    }
    true
}

/// `__builtin_{add,sub,mul}_overflow` on operands and results of mixed
/// types, and the typed forms (`__builtin_umulll_overflow`): the wrapped
/// result and the flag, against gcc only.
pub fn overflow_builtins(rng: &mut Rng, inputs: &mut [Input], body: &mut Body) -> bool {
    for input in inputs.iter_mut().filter(|i| i.ty == IntTy::Bool) {
        // gcc refuses `_Bool` operands of the overflow builtins.
        input.ty = IntTy::Int;
    }
    let not_bool = &IntTy::ALL[1..];
    for step in 0..1 + rng.below(3) {
        let op = rng.pick(&["add", "sub", "mul"]);
        let result = rng.pick(not_bool);
        let pick = |rng: &mut Rng| {
            let (text, _, ty) = source(rng, inputs);
            if ty == IntTy::Bool {
                format!("(int){text}")
            } else {
                text
            }
        };
        let (x, y) = (pick(rng), pick(rng));
        if rng.chance(2) {
            // The typed forms: `__builtin_saddl_overflow(long, long, long *)`.
            let (sign, suffix, result) = rng.pick(&[("s", "", IntTy::Int), ("s", "l", IntTy::Long), ("s", "ll", IntTy::LLong), ("u", "", IntTy::UInt), ("u", "l", IntTy::ULong), ("u", "ll", IntTy::ULLong)]);
            let _ = writeln!(body.text, "  {} o{step};\n  int flag{step} = __builtin_{sign}{op}{suffix}_overflow({x}, {y}, &o{step});", result.c_name());
        } else {
            let _ = writeln!(body.text, "  {} o{step};\n  int flag{step} = __builtin_{op}_overflow({x}, {y}, &o{step});", result.c_name());
        }
        fold(&mut body.text, "r", &format!("(unsigned long long)o{step} ^ ((unsigned long long)flag{step} << 40)"));
    }
    false
}

/// A case label: `default`, a range of the small selector (one value or
/// a GNU `a ... b`), or a constant of any type for the typed selector,
/// with its canonical value after conversion to the promoted selector.
#[derive(Clone, PartialEq)]
enum Label {
    Default,
    Range(i64, i64),
    Constant(String, u64),
}

/// A `switch` with fall-through and `default` anywhere, mirrored by an
/// `if` chain that runs, for each selector value, the statements from its
/// label to the next `break`. The selector is either small
/// (`(int)(in0 & 7) - 3`, labels and GNU case ranges in -3..4) or `in0`
/// itself, of any type, with labels of any type that C converts to the
/// promoted selector type (`case (unsigned char)255:` under a `long`
/// selector, `case -1:` under an `unsigned` one).
pub fn switch_fall_through(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    alt_inputs(inputs, body);
    let last = inputs.len() - 1;
    let typed = rng.chance(2);
    let selector_ty = inputs[0].ty.promoted();
    let mut free: Vec<i64> = (-3..=4).collect();
    let mut used: Vec<u64> = Vec::new();
    let mut next_label = |rng: &mut Rng| -> Option<Label> {
        if typed {
            let (text, value) = if rng.chance(2) {
                (typed_constant(inputs[0].ty, inputs[0].value), inputs[0].value)
            } else {
                let ty = rng.pick(&IntTy::ALL);
                let value = edge_value(rng, ty);
                (typed_constant(ty, value), value)
            };
            let converted = canonical(selector_ty, value);
            return (!used.contains(&converted)).then(|| {
                used.push(converted);
                Label::Constant(text, converted)
            });
        }
        if free.is_empty() {
            return None;
        }
        let start = free.remove(rng.below(free.len() as u64) as usize);
        if rng.chance(4) && free.contains(&(start + 1)) {
            free.retain(|&v| v != start + 1);
            return Some(Label::Range(start, start + 1));
        }
        Some(Label::Range(start, start))
    };
    // Arms: labels, statement, whether a `break` ends it.
    let mut arms: Vec<(Vec<Label>, String, bool)> = Vec::new();
    let mut has_default = false;
    for _ in 0..2 + rng.below(4) {
        let mut labels = Vec::new();
        for _ in 0..1 + rng.below(2) {
            if !has_default && rng.chance(5) {
                has_default = true;
                labels.push(Label::Default);
            } else if let Some(label) = next_label(rng) {
                labels.push(label);
            }
        }
        if labels.is_empty() {
            continue;
        }
        let constant = rng.next_u64() >> rng.below(64);
        let statement = match rng.below(5) {
            0 => format!("acc += 0x{constant:x}ull;"),
            1 => format!("acc ^= 0x{constant:x}ull;"),
            2 => format!("acc *= 0x{:x}ull;", constant | 1),
            3 => format!("acc = (acc << 3) | {};", constant & 7),
            _ => format!("acc -= (unsigned long long)in{};", rng.below(inputs.len() as u64)),
        };
        arms.push((labels, statement, rng.chance(2)));
    }
    let selector = if typed { "in0".to_string() } else { "(int)(in0 & 7) - 3".to_string() };
    let _ = writeln!(body.text, "  {{ unsigned long long acc = (unsigned long long)in{last};\n  switch ({selector}) {{");
    for (labels, statement, breaks) in &arms {
        for label in labels {
            let _ = match label {
                Label::Default => writeln!(body.text, "  default:"),
                Label::Range(start, end) if start == end => writeln!(body.text, "  case {start}:"),
                Label::Range(start, end) => writeln!(body.text, "  case {start} ... {end}:"),
                Label::Constant(text, _) => writeln!(body.text, "  case {text}:"),
            };
        }
        let _ = writeln!(body.text, "    {statement}{}", if *breaks { " break;" } else { "" });
    }
    body.text.push_str("  }\n  r = acc; }\n");
    let run_from = |start: usize| {
        let mut text = String::new();
        for (_, statement, breaks) in &arms[start..] {
            // The alt reads canonical forms, not the parameters.
            let _ = write!(text, " {}", statement.replace("(unsigned long long)in", "a"));
            if *breaks {
                break;
            }
        }
        text
    };
    let alt_selector = if typed { alt_convert(selector_ty, "a0") } else { "(unsigned long long)((long long)(a0 & 7) - 3)".to_string() };
    let _ = writeln!(body.alt, "  {{ unsigned long long acc = a{last};\n  unsigned long long selector = {alt_selector};");
    let mut chain = Vec::new();
    for (position, (labels, _, _)) in arms.iter().enumerate() {
        for label in labels {
            let test = match label {
                Label::Default => continue,
                Label::Range(start, end) => format!("(long long)selector >= {start} && (long long)selector <= {end}"),
                Label::Constant(_, value) => format!("selector == 0x{value:x}ull"),
            };
            chain.push(format!("if ({test}) {{{} }}", run_from(position)));
        }
    }
    let default = arms.iter().position(|(labels, _, _)| labels.contains(&Label::Default)).map(|p| format!(" {{{} }}", run_from(p)));
    let otherwise = match (chain.is_empty(), default) {
        (true, Some(default)) => default,
        (false, Some(default)) => format!(" else{default}"),
        (_, None) => String::new(),
    };
    let _ = writeln!(body.alt, "  {}{otherwise}", chain.join(" else "));
    body.alt.push_str("  alt = acc; }\n");
    true
}

/// Helper functions and a struct returned, copied and passed by value:
/// implicit conversions of arguments and return values, a callee's
/// changes to its copy not seen by the caller, struct assignment, a
/// bit-field in the copied struct; mirrored by conversions.
pub fn calls(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    alt_inputs(inputs, body);
    let (first, second) = (rng.pick(&IntTy::ALL), rng.pick(&IntTy::ALL));
    let (parameter, returned) = (rng.pick(&IntTy::ALL), rng.pick(&IntTy::ALL));
    let (t1, t2, p, ret) = (first.c_name(), second.c_name(), parameter.c_name(), returned.c_name());
    body.top = format!(
        "struct pair_@ {{ {t1} a; {t2} b[2]; unsigned c : 3; }};\n\
         static {ret} @_convert({p} x) {{ return x; }}\n\
         static struct pair_@ @_make({t1} a, {t2} b) {{ struct pair_@ p = {{ a, {{ b, ({t2})~b }}, 5 }}; return p; }}\n\
         static unsigned long long @_sum(struct pair_@ p) {{ p.c = p.c + 1; return (unsigned long long)p.a + p.b[0] + p.b[1] + p.c; }}\n"
    );
    let count = inputs.len() as u64;
    let (x, y, z) = (rng.below(count), rng.below(count), rng.below(count));
    let (replacement, replacement_alt, _) = source(rng, inputs);
    let _ = writeln!(
        body.text,
        "  struct pair_@ p = @_make(in{x}, in{y});\n  struct pair_@ q = p, *pointer = &q;\n  q.b[1] = {replacement};\n  pointer->c = 9;\n  unsigned long long sum = @_sum(q);"
    );
    for value in ["p.a", "p.b[0]", "p.b[1]", "p.c", "q.b[1]", "q.c", "sum", "(*pointer).a"] {
        fold(&mut body.text, "r", value);
    }
    fold(&mut body.text, "r", &format!("@_convert(in{z})"));
    let b = alt_convert(second, &format!("a{y}"));
    let _ = writeln!(
        body.alt,
        "  unsigned long long pa = {}, pb0 = {b}, pb1 = {}, qb1 = {};",
        alt_convert(first, &format!("a{x}")),
        alt_convert(second, &format!("(~{})", alt_convert(second.promoted(), "pb0"))),
        alt_convert(second, &format!("({replacement_alt})"))
    );
    let _ = writeln!(body.alt, "  unsigned long long sum_alt = pa + pb0 + qb1 + 2;");
    for value in ["pa", "pb0", "pb1", "5", "qb1", "1", "sum_alt", "pa"] {
        fold(&mut body.alt, "alt", value);
    }
    fold(&mut body.alt, "alt", &alt_convert(returned, &format!("({})", alt_convert(parameter, &format!("a{z}")))));
    true
}

/// A struct of scalars, arrays and nested structs (maybe packed or with
/// an aligned member): `sizeof`, `_Alignof`, `offsetof`, bytes of members
/// read through `unsigned char *`, pointer arithmetic and differences
/// within arrays, against gcc's layout.
pub fn layout(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    let count = 2 + rng.below(4) as usize;
    let mut declaration = String::from("  struct shape {");
    let mut stores = String::new();
    let mut arrays = Vec::new();
    for index in 0..count {
        let ty = rng.pick(&IntTy::ALL);
        let aligned = if rng.chance(6) { " __attribute__((aligned(8)))" } else { "" };
        let (text, _, _) = source(rng, inputs);
        match rng.below(3) {
            0 => {
                let length = 2 + rng.below(5);
                let _ = write!(declaration, " {} m{index}[{length}]{aligned};", ty.c_name());
                let _ = writeln!(stores, "  s.m{index}[{}] = {text};", rng.below(length));
                arrays.push((index, length));
            }
            1 => {
                let _ = write!(declaration, " struct {{ char c; {} x; }} m{index}{aligned};", ty.c_name());
                let _ = writeln!(stores, "  s.m{index}.x = {text};");
            }
            _ => {
                let _ = write!(declaration, " {} m{index}{aligned};", ty.c_name());
                let _ = writeln!(stores, "  s.m{index} = {text};");
            }
        }
    }
    let packed = if rng.chance(4) { " __attribute__((packed))" } else { "" };
    let _ = writeln!(declaration, " }}{packed};\n  struct shape s;\n  memset(&s, 0, sizeof s);");
    body.text.push_str(&declaration);
    body.text.push_str(&stores);
    body.text.push_str("  unsigned char *bytes = (unsigned char *)&s;\n");
    fold(&mut body.text, "r", "sizeof(struct shape)");
    fold(&mut body.text, "r", "_Alignof(struct shape)");
    for index in 0..count {
        let member = rng.below(count as u64);
        fold(&mut body.text, "r", &format!("offsetof(struct shape, m{member})"));
        fold(&mut body.text, "r", &format!("(char *)&s.m{index} - (char *)&s"));
        fold(&mut body.text, "r", &format!("bytes[offsetof(struct shape, m{index})]"));
    }
    if !packed.is_empty() {
        // A pointer to an element of a packed array may be misaligned, and
        // dereferencing it is undefined.
        arrays.clear();
    }
    for (index, length) in arrays {
        let input = rng.below(inputs.len() as u64);
        let _ = writeln!(
            body.text,
            "  {{ __typeof__(s.m{index}[0]) *p = s.m{index} + (in{input} & {mask}) % {length}, *q = &s.m{index}[{length} - 1];\n    r = r * 31u + (unsigned long long)(q - p) + (unsigned long long)p[0] + (unsigned long long)*(q - (q - p));",
            mask = 0xff
        );
        body.text.push_str("    r += (p <= q) + 2 * (p != q); }\n");
    }
    false
}

/// `&&`, `||`, `!` and `?:` whose operands record, through a counter
/// updated with the comma operator, which of them ran.
pub fn short_circuit(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    let mut atom = 0;
    let condition = logic_tree(rng, inputs, 3, &mut atom);
    let _ = writeln!(body.text, "  unsigned n = 0;\n  int c = {condition};\n  r = (unsigned long long)c * 1000003u + (unsigned long long)n;");
    false
}

fn logic_tree(rng: &mut Rng, inputs: &[Input], depth: u32, atom: &mut u32) -> String {
    if depth == 0 || rng.chance(4) {
        *atom += 1;
        let (x, _, _) = source(rng, inputs);
        let (y, _, _) = source(rng, inputs);
        let compare = rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
        return format!("(n = n * 3 + {atom}, {x} {compare} {y})");
    }
    let mut sub = || logic_tree(rng, inputs, depth - 1, atom);
    let (a, b) = (sub(), sub());
    match rng.below(4) {
        0 => format!("({a} && {b})"),
        1 => format!("({a} || {b})"),
        2 => format!("!{a}"),
        _ => {
            let c = logic_tree(rng, inputs, depth - 1, atom);
            format!("({a} ? {b} : {c})")
        }
    }
}

/// An enum with implicit and explicit (negative) values, an array and a
/// struct made by compound literals with designated initializers, read
/// back with the enum's constants.
pub fn compound_literals(rng: &mut Rng, inputs: &[Input], body: &mut Body) -> bool {
    let first = rng.below(200) as i64 - 100;
    let jump = (rng.next_u64() >> 34) as i64 - (1 << 29);
    let _ = writeln!(body.text, "  enum colour {{ RED = {first}, GREEN, BLUE = {jump}, CYAN }};");
    let (x, _, _) = source(rng, inputs);
    let (y, _, _) = source(rng, inputs);
    let (z, _, _) = source(rng, inputs);
    let element = rng.pick(&[IntTy::Int, IntTy::Short, IntTy::UChar, IntTy::LLong, IntTy::ULong]);
    let _ = writeln!(body.text, "  {0} *list = ({0}[]){{ {x}, GREEN, [3] = {y} }};", element.c_name());
    let _ = writeln!(body.text, "  struct point {{ short x; long long y; unsigned char z[3]; }} p = (struct point){{ .y = {z}, .z = {{ 1, [2] = {x} }} }};");
    let _ = writeln!(body.text, "  enum colour c = (enum colour)((in0 & 1) ? CYAN : RED);");
    for index in 0..4 {
        fold(&mut body.text, "r", &format!("list[{index}]"));
    }
    fold(&mut body.text, "r", "sizeof list[0] * 100 + sizeof(enum colour)");
    for member in ["p.x", "p.y", "p.z[0]", "p.z[1]", "p.z[2]"] {
        fold(&mut body.text, "r", member);
    }
    fold(&mut body.text, "r", "c == CYAN ? BLUE : c");
    fold(&mut body.text, "r", &format!("(unsigned long long)GREEN < {x}"));
    false
}
