//! Correctly rounded conversion of decimal and hexadecimal floating-point
//! text (C literal syntax without suffix, optional sign, `inf`/`infinity`/
//! `nan`) into any format, in any rounding mode.

use crate::bignum::BigUint;
use crate::format::Format;
use crate::round::{Exact, RoundingMode};
use crate::value::Fp;
use std::fmt;

/// Why a text is not a floating-point number, with the byte offset.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseFloatError {
    pub offset: usize,
    pub message: &'static str,
}

impl fmt::Display for ParseFloatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid floating-point number at offset {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for ParseFloatError {}

/// Exponents beyond this are clamped: far past any format's range, far
/// from `i64` overflow.
const EXPONENT_CLAMP: i64 = 1 << 40;

/// A literal split into its parts: `digits` in `radix`, of which
/// `fraction_digits` follow the radix point, and the written exponent.
struct Literal {
    negative: bool,
    radix: u32,
    digits: Vec<u8>,
    fraction_digits: i64,
    exponent: i64,
}

impl Fp {
    /// Parses `text` and rounds it into `format` by `mode`.
    pub fn parse(format: Format, text: &str, mode: RoundingMode) -> Result<Fp, ParseFloatError> {
        let (negative, body) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let special = match body.to_ascii_lowercase().as_str() {
            "inf" | "infinity" => Some(Fp::infinity(format, negative)),
            "nan" => Some(if negative { -Fp::nan(format) } else { Fp::nan(format) }),
            _ => None,
        };
        if let Some(value) = special {
            return Ok(value);
        }
        let literal = split_literal(negative, body, text.len() - body.len())?;
        Ok(literal.round(format, mode))
    }
}

fn split_literal(negative: bool, body: &str, start: usize) -> Result<Literal, ParseFloatError> {
    let bytes = body.as_bytes();
    let error = |at: usize, message| ParseFloatError { offset: start + at, message };
    let hex = bytes.len() >= 2 && bytes[0] == b'0' && (bytes[1] | 0x20) == b'x';
    let radix = if hex { 16 } else { 10 };
    let mut at = if hex { 2 } else { 0 };
    let (mut digits, mut fraction_digits, mut seen_point) = (Vec::new(), 0i64, false);
    while at < bytes.len() {
        let c = bytes[at];
        if c == b'.' && !seen_point {
            seen_point = true;
        } else if let Some(d) = (c as char).to_digit(radix) {
            digits.push(d as u8);
            fraction_digits += seen_point as i64;
        } else {
            break;
        }
        at += 1;
    }
    if digits.is_empty() {
        return Err(error(at, "expected digits"));
    }
    let marker = if hex { b'p' } else { b'e' };
    let exponent = if at < bytes.len() && bytes[at] | 0x20 == marker {
        let (value, end) = parse_exponent(bytes, at + 1).ok_or_else(|| error(at + 1, "expected exponent digits"))?;
        at = end;
        value
    } else if hex {
        return Err(error(at, "hexadecimal floating constant requires a 'p' exponent"));
    } else {
        0
    };
    if at != bytes.len() {
        return Err(error(at, "unexpected character"));
    }
    Ok(Literal { negative, radix, digits, fraction_digits, exponent })
}

/// A signed decimal exponent starting at `at`, clamped; and its end.
fn parse_exponent(bytes: &[u8], mut at: usize) -> Option<(i64, usize)> {
    let negative = match bytes.get(at) {
        Some(b'-') => {
            at += 1;
            true
        }
        Some(b'+') => {
            at += 1;
            false
        }
        _ => false,
    };
    let first = at;
    let mut value = 0i64;
    while let Some(d) = bytes.get(at).and_then(|&c| (c as char).to_digit(10)) {
        value = (value * 10 + d as i64).min(EXPONENT_CLAMP);
        at += 1;
    }
    (at > first).then_some((if negative { -value } else { value }, at))
}

impl Literal {
    fn round(&self, format: Format, mode: RoundingMode) -> Fp {
        let first = self.digits.iter().position(|&d| d != 0);
        let last = self.digits.iter().rposition(|&d| d != 0);
        let (Some(first), Some(last)) = (first, last) else {
            return Fp::zero(format, self.negative);
        };
        // Value = significant * radix^scale.
        let significant = &self.digits[first..=last];
        let scale = (self.digits.len() - last - 1) as i64 - self.fraction_digits;
        let (mag, digit_count, scale) = truncated_significand(significant, self.radix, scale, format);
        if self.radix == 16 {
            let exp = self.exponent + 4 * scale;
            return Exact::new(self.negative, mag, exp.clamp(-EXPONENT_CLAMP, EXPONENT_CLAMP)).round(format, mode);
        }
        round_decimal(self.negative, mag, digit_count, self.exponent + scale, format, mode)
    }
}

/// The integer value of `significant` digits (nonzero first and last),
/// cut after the most digits any float or midpoint between floats of
/// `format` can have, with one nonzero digit standing for the dropped
/// ones. No rounding boundary lies between the two values, so every mode
/// rounds them alike, and the cost stays bounded on huge inputs.
/// Returns the integer, its digit count and the adjusted scale.
fn truncated_significand(significant: &[u8], radix: u32, scale: i64, format: Format) -> (BigUint, i64, i64) {
    let bits = format.sig_bits() as i64 + 1;
    let limit = if radix == 16 {
        bits / 4 + 3
    } else {
        // A boundary is m * 2^q with m < 2^bits and q >= emin - sig_bits:
        // at most bits * log10(2) + (sig_bits - emin) * log10(5) + 1 digits.
        let fraction_digits = format.sig_bits() as i64 - format.emin() + 1;
        (bits * 30103 + fraction_digits * 69898 + 99_999) / 100_000 + 2
    } as usize;
    let (kept, scale) = if significant.len() > limit {
        let dropped = (significant.len() - limit - 1) as i64;
        ([&significant[..limit], &[1]].concat(), scale + dropped)
    } else {
        (significant.to_vec(), scale)
    };
    (digits_value(&kept, radix), kept.len() as i64, scale)
}

/// The integer written by `digits` in `radix`, accumulated in chunks
/// that fit a limb.
fn digits_value(digits: &[u8], radix: u32) -> BigUint {
    let chunk_len = if radix == 16 { 15 } else { 19 };
    digits.chunks(chunk_len).fold(BigUint::zero(), |acc, chunk| {
        let value = chunk.iter().fold(0u64, |v, &d| v * radix as u64 + d as u64);
        acc.mul_add_small((radix as u64).pow(chunk.len() as u32), value)
    })
}

/// Rounds `mag * 10^exp10` (`mag` has `digits` decimal digits). Values
/// provably beyond the format's range skip the big powers of ten.
fn round_decimal(negative: bool, mag: BigUint, digits: i64, exp10: i64, format: Format, mode: RoundingMode) -> Fp {
    let precision = format.sig_bits() as i64;
    // ceil(bits * log10(2)) from above, using 0.30103 > log10(2).
    let decimal_digits_of = |bits: i64| (bits * 30103 + 99_999) / 100_000;
    if digits - 1 + exp10 >= decimal_digits_of(format.emax() + 1) {
        return Exact::from_u128(negative, 1, format.emax() + 1).round(format, mode);
    }
    if digits + exp10 < -decimal_digits_of(precision + 1 - format.emin()) - 1 {
        return Exact::from_u128(negative, 1, format.emin() - precision - 2).round(format, mode);
    }
    if exp10 >= 0 {
        return Exact::new(negative, mag.mul(&BigUint::pow(10, exp10 as u64)), 0).round(format, mode);
    }
    // mag / 10^k = (mag / 5^k) * 2^-k, with enough quotient bits to round.
    let divisor = BigUint::pow(5, exp10.unsigned_abs());
    let widen = (precision + 2 + divisor.bit_len() as i64 - mag.bit_len() as i64).max(0);
    let (quotient, remainder) = mag.shl(widen as u64).divrem(&divisor);
    Exact { negative, mag: quotient, exp: exp10 - widen, sticky: !remainder.is_zero() }.round(format, mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use RoundingMode::*;

    fn parse_double(text: &str) -> f64 {
        f64::from_bits(Fp::parse(Format::DOUBLE, text, NearestEven).unwrap().to_bits() as u64)
    }

    #[test]
    fn decimal_literals_match_the_standard_library() {
        for text in ["0.1", "1e23", "2.2250738585072011e-308", "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "123456789012345678901234567890",
            "9007199254740993", ".5", "5.", "-0.0", "1e-400", "1e400", "0.000001e6", "00012.3400e-2"] {
            assert_eq!(parse_double(text).to_bits(), text.parse::<f64>().unwrap().to_bits(), "{text}");
        }
    }

    #[test]
    fn hexadecimal_literals_are_exact_then_rounded() {
        assert_eq!(parse_double("0x1.8p1"), 3.0);
        assert_eq!(parse_double("0X.8P-1"), 0.25);
        assert_eq!(parse_double("0x1p-1074"), 5e-324);
        assert_eq!(parse_double("0x1p-1075"), 0.0);
        assert_eq!(parse_double("0x1.fffffffffffff8p1023"), f64::INFINITY);
        let up = Fp::parse(Format::SINGLE, "0x1.000001p0", TowardPositive).unwrap();
        assert_eq!(up.to_bits(), 0x3F80_0001);
        assert_eq!(Fp::parse(Format::SINGLE, "0x1p99999999999999999999", TowardZero).unwrap(), Fp::max_finite(Format::SINGLE, false));
    }

    #[test]
    fn directed_modes_bound_the_decimal_value() {
        let down = Fp::parse(Format::SINGLE, "0.1", TowardNegative).unwrap().to_bits();
        let up = Fp::parse(Format::SINGLE, "0.1", TowardPositive).unwrap().to_bits();
        assert_eq!((down, up), (0x3DCC_CCCC, 0x3DCC_CCCD));
        assert_eq!(Fp::parse(Format::SINGLE, "-1e-99999", TowardNegative).unwrap(), Fp::min_subnormal(Format::SINGLE, true));
        assert_eq!(Fp::parse(Format::SINGLE, "1e-99999", NearestEven).unwrap(), Fp::zero(Format::SINGLE, false));
    }

    #[test]
    fn long_inputs_keep_their_rounding() {
        // Exactly halfway between 1 and the next double, then just above.
        let halfway = "1.00000000000000011102230246251565404236316680908203125";
        assert_eq!(parse_double(halfway), 1.0);
        let above = format!("{halfway}{}1", "0".repeat(200_000));
        assert_eq!(parse_double(&above), 1.0000000000000002);
        let below = format!("1.00000000000000011102230246251565404236316680908203124{}", "9".repeat(100_000));
        assert_eq!(parse_double(&below), 1.0);
        let hex_above = format!("0x1.00000000000008{}1p0", "0".repeat(100_000));
        assert_eq!(parse_double(&hex_above), 1.0000000000000002);
        assert_eq!(parse_double(&format!("0.{}1e100000", "0".repeat(100_000))), 1e-1);
    }

    /// Random texts over the literal alphabet: an answer or an error, never a panic.
    #[test]
    fn arbitrary_text_never_panics() {
        let alphabet = b"0123456789.eEpPxX+-nafi";
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        for _ in 0..20_000 {
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let length = next() % 12;
            let text: String = (0..length).map(|_| alphabet[(next() % alphabet.len() as u64) as usize] as char).collect();
            let text = if next() % 4 == 0 { format!("0x{text}") } else { text };
            for format in [Format::HALF, Format::X87] {
                if let Ok(value) = Fp::parse(format, &text, TowardNegative) {
                    assert_eq!(value.format(), format);
                }
            }
        }
    }

    #[test]
    fn specials_and_errors() {
        assert!(Fp::parse(Format::HALF, "-INF", NearestEven).unwrap().is_infinite());
        assert!(Fp::parse(Format::HALF, "nan", NearestEven).unwrap().is_nan());
        for (text, offset) in [("", 0), ("1e", 2), ("0x1.8", 5), ("1.5f", 3), ("-.", 2), ("1..2", 2), ("0x", 2)] {
            let error = Fp::parse(Format::DOUBLE, text, NearestEven).unwrap_err();
            assert_eq!(error.offset, offset, "{text}: {error}");
        }
    }
}
