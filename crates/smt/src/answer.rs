//! Reading solver answers: s-expressions and SMT-LIB value literals as z3,
//! cvc5 and bitwuzla print them in `get-value` responses.
//!
//! Parsing is iterative (explicit stacks), so a deeply nested answer cannot
//! overflow the stack; long `store` chains in array values are walked with a
//! loop. Array values given as `lambda` or `as-array` are not understood and
//! are reported as errors, never guessed.

use std::sync::Arc;

use crate::bv::BvValue;
use crate::sort::{RoundingMode, Sort, SortTable};
use crate::value::{ArrayValue, FpValue, Value};

/// An s-expression: a symbol/literal (quotes of `|…|` removed) or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SExp {
    Atom(String),
    List(Vec<SExp>),
}

/// Dropping iteratively: an answer nested 100 000 deep must not overflow
/// the stack when it goes away.
impl Drop for SExp {
    fn drop(&mut self) {
        let SExp::List(items) = self else { return };
        let mut pending = std::mem::take(items);
        while let Some(mut e) = pending.pop() {
            if let SExp::List(children) = &mut e {
                pending.append(children);
            }
        }
    }
}

impl SExp {
    /// A short rendering for error messages: at most 3 levels deep and about
    /// 80 characters, never the whole (possibly huge) expression.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        self.describe_into(3, &mut out);
        if out.chars().count() > 80 {
            out = out.chars().take(80).collect::<String>() + "…";
        }
        out
    }

    fn describe_into(&self, depth_left: u32, out: &mut String) {
        match self {
            SExp::Atom(a) => out.push_str(a),
            SExp::List(_) if depth_left == 0 => out.push('…'),
            SExp::List(items) => {
                out.push('(');
                for (i, item) in items.iter().take(8).enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    item.describe_into(depth_left - 1, out);
                }
                if items.len() > 8 {
                    out.push_str(" …");
                }
                out.push(')');
            }
        }
    }

    pub fn atom(&self) -> Option<&str> {
        match self {
            SExp::Atom(a) => Some(a),
            SExp::List(_) => None,
        }
    }

    pub fn list(&self) -> Option<&[SExp]> {
        match self {
            SExp::List(items) => Some(items),
            SExp::Atom(_) => None,
        }
    }
}

/// Splits `text` into tokens: `(`, `)`, and atoms (quoted symbols without
/// their bars, strings with their quotes).
fn tokenize(text: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' | ')' => tokens.push(c.to_string()),
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '|' => {
                let symbol: String = chars.by_ref().take_while(|&c| c != '|').collect();
                tokens.push(symbol);
            }
            '"' => {
                let mut s = String::from('"');
                loop {
                    match chars.next() {
                        None => return Err("unterminated string in solver answer".into()),
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            s.push_str("\"\"");
                        }
                        Some('"') => break,
                        Some(c) => s.push(c),
                    }
                }
                s.push('"');
                tokens.push(s);
            }
            c if c.is_whitespace() => {}
            c => {
                let mut atom = c.to_string();
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || matches!(next, '(' | ')' | '|' | '"' | ';') {
                        break;
                    }
                    atom.push(next);
                    chars.next();
                }
                tokens.push(atom);
            }
        }
    }
    Ok(tokens)
}

/// All top-level s-expressions of `text`.
pub fn parse_sexps(text: &str) -> Result<Vec<SExp>, String> {
    let mut stack: Vec<Vec<SExp>> = vec![Vec::new()];
    for token in tokenize(text)? {
        match token.as_str() {
            "(" => stack.push(Vec::new()),
            ")" => {
                let list = stack
                    .pop()
                    .filter(|_| !stack.is_empty())
                    .ok_or("unbalanced ')' in solver answer")?;
                stack
                    .last_mut()
                    .expect("outer level")
                    .push(SExp::List(list));
            }
            _ => stack.last_mut().expect("a level").push(SExp::Atom(token)),
        }
    }
    match stack.len() {
        1 => Ok(stack.pop().expect("top level")),
        _ => Err("unbalanced '(' in solver answer".into()),
    }
}

/// Bits of a `#b…`/`#x…` literal or `(_ bvN w)`, with the width they state.
fn parse_bits(e: &SExp) -> Result<BvValue, String> {
    if let Some(atom) = e.atom() {
        let (digits, radix_bits) = if let Some(d) = atom.strip_prefix("#b") {
            (d, 1)
        } else if let Some(d) = atom.strip_prefix("#x") {
            (d, 4)
        } else {
            return Err(format!("expected a bit-vector literal, got {atom}"));
        };
        let mut bits = Vec::with_capacity(digits.len() * radix_bits);
        for c in digits.chars().rev() {
            let digit = c
                .to_digit(1 << radix_bits)
                .ok_or_else(|| format!("bad digit in {atom}"))?;
            bits.extend((0..radix_bits).map(|i| digit >> i & 1 == 1));
        }
        if bits.is_empty() {
            return Err(format!("empty bit-vector literal {atom}"));
        }
        return Ok(BvValue::from_bits_lsb_first(&bits));
    }
    match e.list().unwrap_or_default() {
        [SExp::Atom(underscore), SExp::Atom(value), SExp::Atom(width)] if underscore == "_" => {
            let width: u32 = width.parse().map_err(|_| format!("bad width {width}"))?;
            let decimal = value
                .strip_prefix("bv")
                .ok_or_else(|| format!("expected (_ bvN w), got {value}"))?;
            decimal_to_bv(decimal, width)
        }
        _ => Err(format!("expected a bit-vector value, got {}", e.describe())),
    }
}

/// A decimal numeral as a `width`-bit value (must fit).
fn decimal_to_bv(decimal: &str, width: u32) -> Result<BvValue, String> {
    if width == 0 {
        return Err("bit-vector width 0".into());
    }
    let ten = BvValue::from_u64(width + 4, 10);
    let mut value = BvValue::zero(width + 4);
    for c in decimal.chars() {
        let digit = c
            .to_digit(10)
            .ok_or_else(|| format!("bad numeral {decimal}"))?;
        value = value
            .mul(&ten)
            .add(&BvValue::from_u64(width + 4, digit as u64));
        if value.significant_bits() > width {
            return Err(format!("numeral {decimal} does not fit {width} bits"));
        }
    }
    Ok(value.extract(width - 1, 0))
}

fn parse_float(e: &SExp, exp: u32, sig: u32) -> Result<FpValue, String> {
    let items = e
        .list()
        .ok_or_else(|| format!("expected a float, got {}", e.describe()))?;
    match items {
        [SExp::Atom(fp), sign, exponent, significand] if fp == "fp" => {
            let bits = parse_bits(sign)?
                .concat(&parse_bits(exponent)?)
                .concat(&parse_bits(significand)?);
            if bits.width() != exp + sig {
                return Err(format!(
                    "float literal of {} bits for format ({exp}, {sig})",
                    bits.width()
                ));
            }
            Ok(FpValue::from_bits(exp, sig, bits))
        }
        [SExp::Atom(underscore), SExp::Atom(kind), _, _] if underscore == "_" => {
            match kind.as_str() {
                "NaN" => Ok(FpValue::nan(exp, sig)),
                "+zero" => Ok(FpValue::zero(exp, sig, false)),
                "-zero" => Ok(FpValue::zero(exp, sig, true)),
                "+oo" => Ok(FpValue::infinity(exp, sig, false)),
                "-oo" => Ok(FpValue::infinity(exp, sig, true)),
                _ => Err(format!("unknown float constant {kind}")),
            }
        }
        _ => Err(format!("expected a float, got {}", e.describe())),
    }
}

fn parse_rounding_mode(e: &SExp) -> Result<RoundingMode, String> {
    let name = e
        .atom()
        .ok_or_else(|| format!("expected a rounding mode, got {}", e.describe()))?;
    Ok(match name {
        "RNE" | "roundNearestTiesToEven" => RoundingMode::Rne,
        "RNA" | "roundNearestTiesToAway" => RoundingMode::Rna,
        "RTP" | "roundTowardPositive" => RoundingMode::Rtp,
        "RTN" | "roundTowardNegative" => RoundingMode::Rtn,
        "RTZ" | "roundTowardZero" => RoundingMode::Rtz,
        _ => return Err(format!("unknown rounding mode {name}")),
    })
}

/// An array value: `((as const S) v)` under a chain of `(store a i v)`.
fn parse_array(e: &SExp, sort: Sort, sorts: &SortTable) -> Result<Value, String> {
    let (index_sort, elem_sort) = sorts.array_parts(sort).expect("array sort");
    let mut writes = Vec::new();
    let mut current = e;
    loop {
        match current.list().unwrap_or_default() {
            [SExp::Atom(store), array, index, value] if store == "store" => {
                writes.push((index, value));
                current = array;
            }
            [SExp::List(head), default] if head.first().and_then(SExp::atom) == Some("as") => {
                let default = parse_value(default, elem_sort, sorts)?;
                let mut array = ArrayValue::constant(sort, default);
                for (index, value) in writes.into_iter().rev() {
                    array = array.store(
                        parse_value(index, index_sort, sorts)?,
                        parse_value(value, elem_sort, sorts)?,
                    );
                }
                return Ok(Value::Array(Arc::new(array)));
            }
            _ => return Err(format!("unsupported: array value {}", current.describe())),
        }
    }
}

/// The value of sort `sort` written as `e`.
pub fn parse_value(e: &SExp, sort: Sort, sorts: &SortTable) -> Result<Value, String> {
    match sort {
        Sort::Bool => match e.atom() {
            Some("true") => Ok(Value::Bool(true)),
            Some("false") => Ok(Value::Bool(false)),
            _ => Err(format!("expected a Boolean, got {}", e.describe())),
        },
        Sort::BitVec(w) => {
            let bits = parse_bits(e)?;
            match bits.width() == w {
                true => Ok(Value::Bv(bits)),
                false => Err(format!("expected {w} bits, got {}", bits.width())),
            }
        }
        Sort::Float { exp, sig } => parse_float(e, exp, sig).map(Value::Fp),
        Sort::RoundingMode => parse_rounding_mode(e).map(Value::Rm),
        // Element values nest only as deep as array sorts do.
        Sort::Array(_) => parse_array(e, sort, sorts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> SExp {
        parse_sexps(text).unwrap().remove(0)
    }

    #[test]
    fn parses_nested_lists_quoted_symbols_and_comments() {
        let parsed = parse_sexps("((|a b| #b01) ; note\n (y \"s\"\"q\"))").unwrap();
        let pair = |a: &str, b: &str| SExp::List(vec![SExp::Atom(a.into()), SExp::Atom(b.into())]);
        assert_eq!(
            parsed,
            vec![SExp::List(vec![
                pair("a b", "#b01"),
                pair("y", "\"s\"\"q\"")
            ])]
        );
        assert!(parse_sexps("((a)").is_err());
        assert!(parse_sexps("a)").is_err());
        let deep = "(".repeat(100_000) + &")".repeat(100_000);
        let parsed = parse_sexps(&deep).unwrap();
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].describe(), "(((…)))");
        assert_eq!(one("(_ as-array k!0)").describe(), "(_ as-array k!0)");
    }

    #[test]
    fn parses_scalar_values() {
        let t = SortTable::default();
        assert_eq!(
            parse_value(&one("#b101"), Sort::BitVec(3), &t),
            Ok(Value::Bv(BvValue::from_u64(3, 5)))
        );
        assert_eq!(
            parse_value(&one("#xff"), Sort::BitVec(8), &t),
            Ok(Value::Bv(BvValue::from_u64(8, 255)))
        );
        assert_eq!(
            parse_value(&one("(_ bv300 9)"), Sort::BitVec(9), &t),
            Ok(Value::Bv(BvValue::from_u64(9, 300)))
        );
        assert!(parse_value(&one("(_ bv300 8)"), Sort::BitVec(8), &t).is_err());
        assert!(parse_value(&one("#b101"), Sort::BitVec(4), &t).is_err());
        let f32 = Sort::float32();
        let one_f = parse_value(&one("(fp #b0 #x7f #b00000000000000000000000)"), f32, &t).unwrap();
        assert_eq!(one_f.as_fp().unwrap().bits().to_u64(), Some(0x3f80_0000));
        let minus_inf = parse_value(&one("(_ -oo 8 24)"), f32, &t).unwrap();
        assert_eq!(
            minus_inf.as_fp().unwrap().bits().to_u64(),
            Some(0xff80_0000)
        );
        assert_eq!(
            parse_value(&one("(_ NaN 8 24)"), f32, &t),
            Ok(Value::Fp(FpValue::nan(8, 24)))
        );
        assert_eq!(
            parse_value(&one("roundTowardZero"), Sort::RoundingMode, &t),
            Ok(Value::Rm(RoundingMode::Rtz))
        );
        assert_eq!(
            parse_value(&one("true"), Sort::Bool, &t),
            Ok(Value::Bool(true))
        );
    }

    #[test]
    fn parses_array_values() {
        let mut t = SortTable::default();
        let sort = t.array(Sort::BitVec(2), Sort::BitVec(3));
        let text = "(store (store ((as const (Array (_ BitVec 2) (_ BitVec 3))) #b000) #b01 #b111) #b01 #b010)";
        let value = parse_value(&one(text), sort, &t).unwrap();
        let array = value.as_array().unwrap();
        assert_eq!(
            array.select(&Value::Bv(BvValue::from_u64(2, 1))),
            Value::Bv(BvValue::from_u64(3, 2))
        );
        assert_eq!(
            array.select(&Value::Bv(BvValue::from_u64(2, 3))),
            Value::Bv(BvValue::zero(3))
        );
        assert!(parse_value(&one("(_ as-array k!0)"), sort, &t).is_err());
    }
}
