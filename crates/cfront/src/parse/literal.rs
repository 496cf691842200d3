//! Decoding of literal tokens: integer and floating constants (bases,
//! suffixes, digit separators), character constants and string literals
//! (escapes, universal character names, prefixes, concatenation).

use crate::ast::{ExprKind, FloatSuffix, IntSuffix, StrPrefix};
use ir::Loc;

/// A preprocessing number as an integer or floating literal.
pub(super) fn number(text: &str) -> Result<ExprKind, String> {
    let cleaned;
    let text = if text.contains('\'') {
        cleaned = text.replace('\'', "");
        cleaned.as_str()
    } else {
        text
    };
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = if is_hex {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e') && !lower.starts_with("0b")
    };
    if is_float {
        float(text, is_hex)
    } else {
        integer(text)
    }
}

fn integer(text: &str) -> Result<ExprKind, String> {
    let bytes = text.as_bytes();
    let (radix, digits_start) = match bytes {
        [b'0', b'x' | b'X', ..] => (16, 2),
        [b'0', b'b' | b'B', ..] => (2, 2),
        [b'0', ..] => (8, 1),
        _ => (10, 0),
    };
    let digits_end = bytes[digits_start..]
        .iter()
        .position(|b| !b.is_ascii_hexdigit() || (radix != 16 && !b.is_ascii_digit()))
        .map_or(bytes.len(), |p| p + digits_start);
    let digits = &text[digits_start..digits_end];
    if digits.is_empty() && radix != 8 {
        return Err(format!("invalid integer constant `{text}`"));
    }
    let mut value: u128 = 0;
    for c in digits.chars() {
        let digit = c.to_digit(radix).ok_or_else(|| format!("invalid digit `{c}` in integer constant `{text}`"))?;
        value = value
            .checked_mul(radix as u128)
            .and_then(|v| v.checked_add(digit as u128))
            .ok_or_else(|| format!("integer constant `{text}` is too large"))?;
    }
    let suffix = int_suffix(&text[digits_end..]).ok_or_else(|| format!("invalid suffix on integer constant `{text}`"))?;
    Ok(ExprKind::IntLit { value, suffix, decimal: radix == 10 })
}

/// `u`, `l`, `ll` in either order and case (but not `lL`), and GNU's
/// imaginary `i`/`j` before or after.
fn int_suffix(text: &str) -> Option<IntSuffix> {
    let (rest, imaginary) = strip_imaginary(text);
    let lower = rest.to_ascii_lowercase();
    let unsigned_count = lower.matches('u').count();
    let long_part: String = rest.chars().filter(|c| !matches!(c, 'u' | 'U')).collect();
    let long = match long_part.as_str() {
        "" => 0,
        "l" | "L" => 1,
        "ll" | "LL" => 2,
        _ => return None,
    };
    let u_position_ok = !lower.contains("lul");
    (unsigned_count <= 1 && u_position_ok).then_some(IntSuffix { unsigned: unsigned_count == 1, long, imaginary })
}

fn strip_imaginary(text: &str) -> (&str, bool) {
    for marker in ['i', 'I', 'j', 'J'] {
        if let Some(rest) = text.strip_suffix(marker) {
            return (rest, true);
        }
        if let Some(rest) = text.strip_prefix(marker) {
            return (rest, true);
        }
    }
    (text, false)
}

fn float(text: &str, is_hex: bool) -> Result<ExprKind, String> {
    let bytes = text.as_bytes();
    let mut end = if is_hex { 2 } else { 0 };
    let exponent_marker = if is_hex { b'p' } else { b'e' };
    let mut seen_exponent = false;
    while end < bytes.len() {
        let b = bytes[end].to_ascii_lowercase();
        let is_mantissa_digit = if is_hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() };
        let continues = if seen_exponent { b.is_ascii_digit() } else { is_mantissa_digit || b == b'.' };
        if continues {
            end += 1;
        } else if b == exponent_marker && !seen_exponent {
            seen_exponent = true;
            end += 1;
            if matches!(bytes.get(end), Some(b'+' | b'-')) {
                end += 1;
            }
        } else {
            break;
        }
    }
    let body = &text[..end];
    let body_ok = if is_hex {
        seen_exponent && body.as_bytes().last().is_some_and(u8::is_ascii_digit)
    } else {
        body.bytes().any(|b| b.is_ascii_digit()) && (!seen_exponent || body.as_bytes().last().is_some_and(u8::is_ascii_digit))
    };
    if !body_ok {
        return Err(format!("invalid floating constant `{text}`"));
    }
    let (suffix_text, imaginary) = strip_imaginary(&text[end..]);
    let suffix = match suffix_text.to_ascii_lowercase().as_str() {
        // GNU `d`: an explicit `double`.
        "" | "d" => FloatSuffix::None,
        "f" => FloatSuffix::F,
        "l" | "w" => FloatSuffix::L,
        "q" | "f128" => FloatSuffix::F128,
        "f16" => FloatSuffix::F16,
        "f32" => FloatSuffix::F32,
        "f64" => FloatSuffix::F64,
        "f32x" => FloatSuffix::F32x,
        "f64x" => FloatSuffix::F64x,
        "df" | "dd" | "dl" => return Err(format!("unsupported: decimal floating constant `{text}`")),
        _ => return Err(format!("invalid suffix on floating constant `{text}`")),
    };
    Ok(ExprKind::FloatLit { text: body.to_string(), suffix, imaginary })
}

/// An escape sequence's value: a code unit given numerically (octal,
/// hex, simple escapes) or a universal character name's code point.
enum Escape {
    Unit(u32),
    CodePoint(u32),
}

/// Decodes the escape after a backslash.
fn escape(chars: &mut std::iter::Peekable<std::str::Chars>) -> Result<Escape, String> {
    let c = chars.next().ok_or("incomplete escape sequence")?;
    let simple = match c {
        'n' => 10,
        't' => 9,
        'r' => 13,
        'a' => 7,
        'b' => 8,
        'f' => 12,
        'v' => 11,
        'e' | 'E' => 27,
        '0'..='7' => {
            let mut value = c.to_digit(8).unwrap_or(0);
            for _ in 0..2 {
                match chars.peek().and_then(|d| d.to_digit(8)) {
                    Some(d) => {
                        value = value * 8 + d;
                        chars.next();
                    }
                    None => break,
                }
            }
            value
        }
        'x' => {
            let mut value: u32 = 0;
            let mut count = 0;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(16)) {
                value = value.checked_mul(16).and_then(|v| v.checked_add(d)).ok_or("hex escape sequence out of range")?;
                chars.next();
                count += 1;
            }
            if count == 0 {
                return Err("\\x used with no following hex digits".into());
            }
            value
        }
        'u' | 'U' => {
            let len = if c == 'u' { 4 } else { 8 };
            let mut value: u32 = 0;
            for _ in 0..len {
                let d = chars.next().and_then(|d| d.to_digit(16)).ok_or("incomplete universal character name")?;
                value = value * 16 + d;
            }
            if char::from_u32(value).is_none() {
                return Err(format!("\\{c}{value:x} is not a valid universal character"));
            }
            return Ok(Escape::CodePoint(value));
        }
        other => other as u32,
    };
    Ok(Escape::Unit(simple))
}

/// Code unit width of a prefix, in bits.
fn unit_bits(prefix: StrPrefix) -> u32 {
    match prefix {
        StrPrefix::None | StrPrefix::Utf8 => 8,
        StrPrefix::Utf16 => 16,
        StrPrefix::Utf32 | StrPrefix::Wide => 32,
    }
}

fn push_char(units: &mut Vec<u32>, c: char, prefix: StrPrefix) {
    match unit_bits(prefix) {
        8 => {
            let mut buf = [0u8; 4];
            units.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
        }
        16 => {
            let mut buf = [0u16; 2];
            units.extend(c.encode_utf16(&mut buf).iter().map(|&u| u as u32));
        }
        _ => units.push(c as u32),
    }
}

/// The code units of a quoted body (without quotes) for `prefix`.
fn decode_body(body: &str, prefix: StrPrefix) -> Result<Vec<u32>, String> {
    let mut units = Vec::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    let max_unit = match unit_bits(prefix) {
        32 => u32::MAX,
        bits => (1u32 << bits) - 1,
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            push_char(&mut units, c, prefix);
            continue;
        }
        match escape(&mut chars)? {
            Escape::Unit(value) if value > max_unit => return Err("escape sequence out of range".into()),
            Escape::Unit(value) => units.push(value),
            Escape::CodePoint(cp) => push_char(&mut units, char::from_u32(cp).unwrap_or('\u{fffd}'), prefix),
        }
    }
    Ok(units)
}

/// The text between the quotes of a literal token (after its prefix).
fn quoted_body(text: &str, quote: char) -> &str {
    let open = text.find(quote).map_or(0, |i| i + 1);
    let close = text.rfind(quote).filter(|&i| i >= open).unwrap_or(text.len());
    &text[open..close]
}

pub(super) fn char_constant(text: &str, prefix: StrPrefix) -> Result<ExprKind, String> {
    let units = decode_body(quoted_body(text, '\''), prefix)?;
    let value = match (prefix, units.as_slice()) {
        (_, []) => return Err("empty character constant".into()),
        // Plain `char` is signed on the supported targets.
        (StrPrefix::None, [unit]) => *unit as u8 as i8 as i64,
        // Multi-character constants: big-endian packing into an int.
        (StrPrefix::None, many) => many.iter().fold(0u32, |acc, &u| (acc << 8) | (u & 0xff)) as i32 as i64,
        (StrPrefix::Utf8, [unit]) => *unit as i64,
        (StrPrefix::Wide, [unit]) => *unit as i32 as i64,
        (StrPrefix::Utf16 | StrPrefix::Utf32, [unit]) => *unit as i64,
        _ => return Err("character constant does not fit in one code unit".into()),
    };
    Ok(ExprKind::CharLit { value, prefix })
}

/// Adjacent string literals concatenated into one, with the prefix of the
/// prefixed pieces (mixing different prefixes is an error).
pub(super) fn string(pieces: &[(&str, StrPrefix, Loc)]) -> Result<ExprKind, (Loc, String)> {
    let mut prefix = StrPrefix::None;
    for &(_, piece_prefix, loc) in pieces {
        if piece_prefix == StrPrefix::None || piece_prefix == prefix {
            continue;
        }
        if prefix != StrPrefix::None {
            return Err((loc, "concatenation of string literals with different prefixes".into()));
        }
        prefix = piece_prefix;
    }
    let mut units = Vec::new();
    for &(text, _, loc) in pieces {
        units.extend(decode_body(quoted_body(text, '"'), prefix).map_err(|msg| (loc, msg))?);
    }
    Ok(ExprKind::StringLit { units, prefix })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str) -> (u128, IntSuffix, bool) {
        match number(text) {
            Ok(ExprKind::IntLit { value, suffix, decimal }) => (value, suffix, decimal),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn float_parts(text: &str) -> (String, FloatSuffix, bool) {
        match number(text) {
            Ok(ExprKind::FloatLit { text, suffix, imaginary }) => (text, suffix, imaginary),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn integers_of_every_base_and_suffix() {
        assert_eq!(int("0x1F").0, 31);
        assert_eq!(int("0b101").0, 5);
        assert_eq!(int("017").0, 15);
        assert_eq!(int("0").0, 0);
        assert!(!int("017").2 && int("17").2);
        assert_eq!(int("1'000'000").0, 1_000_000);
        let s = int("10ULL").1;
        assert!(s.unsigned && s.long == 2);
        let s = int("10lu").1;
        assert!(s.unsigned && s.long == 1);
        assert!(int("3i").1.imaginary);
        assert_eq!(int("340282366920938463463374607431768211455").0, u128::MAX);
        assert!(number("340282366920938463463374607431768211456").unwrap_err().contains("too large"));
        assert!(number("10lL").is_err());
        assert!(number("08").unwrap_err().contains("invalid digit"));
        assert!(number("10uu").is_err());
        assert!(number("0x").is_err());
    }

    #[test]
    fn floats_decimal_and_hex_with_suffixes() {
        assert_eq!(float_parts("1.5e+3f"), ("1.5e+3".into(), FloatSuffix::F, false));
        assert_eq!(float_parts(".5L"), (".5".into(), FloatSuffix::L, false));
        assert_eq!(float_parts("0x1.8p-3"), ("0x1.8p-3".into(), FloatSuffix::None, false));
        assert_eq!(float_parts("1e5f128").1, FloatSuffix::F128);
        assert_eq!(float_parts("2.0f32x").1, FloatSuffix::F32x);
        assert_eq!(float_parts("1.0F16").1, FloatSuffix::F16);
        assert!(float_parts("2.5i").2);
        assert!(float_parts("2.5fj").2);
        assert!(number("0x1.8").is_err());
        assert!(number("1e").is_err());
        assert!(number("1.0df").unwrap_err().contains("unsupported"));
    }

    fn char_value(text: &str, prefix: StrPrefix) -> i64 {
        match char_constant(text, prefix) {
            Ok(ExprKind::CharLit { value, .. }) => value,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn character_constants() {
        assert_eq!(char_value("'a'", StrPrefix::None), 97);
        assert_eq!(char_value("'\\n'", StrPrefix::None), 10);
        assert_eq!(char_value("'\\377'", StrPrefix::None), -1);
        assert_eq!(char_value("'\\xff'", StrPrefix::None), -1);
        assert_eq!(char_value("'ab'", StrPrefix::None), 0x6162);
        assert_eq!(char_value("L'\\u00e9'", StrPrefix::Wide), 0xe9);
        assert_eq!(char_value("U'\\U0001F600'", StrPrefix::Utf32), 0x1F600);
        assert_eq!(char_value("'\\''", StrPrefix::None), 39);
        assert!(char_constant("''", StrPrefix::None).is_err());
        assert!(char_constant("'\\x100'", StrPrefix::None).is_err());
    }

    fn units(pieces: &[(&str, StrPrefix)]) -> (Vec<u32>, StrPrefix) {
        let pieces: Vec<_> = pieces.iter().map(|&(t, p)| (t, p, Loc::NONE)).collect();
        match string(&pieces) {
            Ok(ExprKind::StringLit { units, prefix }) => (units, prefix),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn strings_concatenate_and_encode_by_prefix() {
        assert_eq!(units(&[("\"a\\tb\"", StrPrefix::None)]).0, vec![97, 9, 98]);
        assert_eq!(units(&[("\"a\"", StrPrefix::None), ("L\"b\"", StrPrefix::Wide)]), (vec![97, 98], StrPrefix::Wide));
        assert_eq!(units(&[("\"é\"", StrPrefix::None)]).0, vec![0xc3, 0xa9]);
        assert_eq!(units(&[("u\"\\U0001F600\"", StrPrefix::Utf16)]).0, vec![0xd83d, 0xde00]);
        assert_eq!(units(&[("u8\"\\u00e9\"", StrPrefix::Utf8)]).0, vec![0xc3, 0xa9]);
        assert_eq!(units(&[("\"\\0012\"", StrPrefix::None)]).0, vec![1, 50]);
        let mixed = [("L\"a\"", StrPrefix::Wide, Loc::NONE), ("u\"b\"", StrPrefix::Utf16, Loc::NONE)];
        assert!(string(&mixed).is_err());
    }
}
