//! printf's floating-point conversions (`f F e E g G a A`) of `double` and
//! x87 `long double` values, computed from the exact value: decimal digits
//! rounded half to even (what glibc prints in the default rounding mode),
//! hexadecimal digits laid out as glibc lays them out for each type.

use super::{pad, Field, Spec};
use crate::types::FloatFormat;

/// The text of a floating-point conversion of the float `bits` of `format`.
pub fn float_text(spec: &Spec, field: Field, format: FloatFormat, bits: u128) -> Vec<u8> {
    let value = crate::interp::soft_value(format, bits);
    let upper = spec.conversion.is_ascii_uppercase();
    let mut body: Vec<u8> = Vec::new();
    if value.sign_bit() {
        body.push(b'-');
    } else if spec.flags.plus {
        body.push(b'+');
    } else if spec.flags.space {
        body.push(b' ');
    }
    let sign_len = body.len();
    if !value.is_finite() {
        let word: &[u8] = if value.is_nan() { b"nan" } else { b"inf" };
        body.extend(word.iter().map(|c| if upper { c.to_ascii_uppercase() } else { *c }));
        return pad(field, body, None);
    }
    let precision = field.precision.map(|p| p as usize);
    let alternate = spec.flags.alternate;
    let (mut digits, zero_at) = match spec.conversion.to_ascii_lowercase() {
        // Zeros of the field go after the `0x`.
        b'a' => (hexadecimal(value.abs(), precision, alternate), sign_len + 2),
        conversion => {
            let exact = Decimal::of(value.abs());
            let precision = precision.unwrap_or(6);
            let text = match conversion {
                b'f' => exact.fixed(precision, alternate),
                b'e' => exact.scientific(precision, alternate),
                _ => exact.general(precision, alternate),
            };
            (text, sign_len)
        }
    };
    if upper {
        digits.make_ascii_uppercase();
    }
    body.extend_from_slice(&digits);
    pad(field, body, spec.flags.zero.then_some(zero_at))
}

/// A nonnegative finite value as `digits * 10^exp10` exactly (`digits`
/// decimal, no leading zeros, empty for zero).
struct Decimal {
    digits: Vec<u8>,
    exp10: i64,
}

impl Decimal {
    fn of(magnitude: ieee::Fp) -> Decimal {
        let text = magnitude.to_decimal_exact();
        let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
        let all: Vec<u8> = whole.bytes().chain(fraction.bytes()).skip_while(|&d| d == b'0').collect();
        Decimal { digits: all, exp10: -(fraction.len() as i64) }
    }

    /// The exponent of the leading digit (0 for zero).
    fn leading_exponent(&self) -> i64 {
        if self.digits.is_empty() {
            0
        } else {
            self.digits.len() as i64 - 1 + self.exp10
        }
    }

    /// The value divided by `10^unit`, rounded half to even to an integer
    /// (decimal digits, `0` for zero).
    fn rounded_to(&self, unit: i64) -> Vec<u8> {
        if self.exp10 >= unit {
            let mut n = self.digits.clone();
            n.resize(n.len() + (self.exp10 - unit) as usize, b'0');
            return if n.is_empty() { b"0".to_vec() } else { n };
        }
        let dropped = (unit - self.exp10) as usize;
        let kept_len = self.digits.len().saturating_sub(dropped);
        let (kept, rest) = self.digits.split_at(kept_len);
        // Digits below the kept ones, with the zeros the value starts with.
        let rest: Vec<u8> = std::iter::repeat_n(b'0', dropped - rest.len()).chain(rest.iter().copied()).collect();
        let last_odd = kept.last().is_some_and(|d| (d - b'0') % 2 == 1);
        let beyond_half = rest[1..].iter().any(|&d| d != b'0');
        let up = rest[0] > b'5' || (rest[0] == b'5' && (beyond_half || last_odd));
        let kept = if kept.is_empty() { b"0".to_vec() } else { kept.to_vec() };
        if up {
            increment(kept)
        } else {
            kept
        }
    }

    /// `%f`: `precision` digits after the point.
    fn fixed(&self, precision: usize, alternate: bool) -> Vec<u8> {
        let mut n = self.rounded_to(-(precision as i64));
        if n.len() <= precision {
            let zeros = precision + 1 - n.len();
            n.splice(0..0, std::iter::repeat_n(b'0', zeros));
        }
        if precision > 0 || alternate {
            n.insert(n.len() - precision, b'.');
        }
        n
    }

    /// `%e`: one digit, `precision` digits after the point, the exponent.
    fn scientific(&self, precision: usize, alternate: bool) -> Vec<u8> {
        let (n, exponent) = self.significant(precision + 1);
        let mut text = n[..1].to_vec();
        if precision > 0 || alternate {
            text.push(b'.');
        }
        text.extend_from_slice(&n[1..]);
        let sign = if exponent < 0 { '-' } else { '+' };
        text.extend(format!("e{sign}{:02}", exponent.unsigned_abs()).bytes());
        text
    }

    /// The value rounded to `count` significant digits, and the exponent
    /// of the first one.
    fn significant(&self, count: usize) -> (Vec<u8>, i64) {
        let mut exponent = self.leading_exponent();
        let mut n = self.rounded_to(exponent + 1 - count as i64);
        if n.len() > count {
            // Rounding carried into a new leading digit: the dropped digit is 0.
            exponent += 1;
            n.truncate(count);
        }
        n.resize(count, b'0');
        (n, exponent)
    }

    /// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
    fn general(&self, precision: usize, alternate: bool) -> Vec<u8> {
        let p = precision.max(1);
        let (_, x) = self.significant(p);
        let text = if x < -4 || x >= p as i64 {
            self.scientific(p - 1, alternate)
        } else {
            self.fixed((p as i64 - 1 - x) as usize, alternate)
        };
        if alternate {
            text
        } else {
            strip_fraction_zeros(text)
        }
    }
}

/// `digits` plus one, one digit longer when it carries out.
fn increment(mut digits: Vec<u8>) -> Vec<u8> {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return digits;
        }
    }
    digits.insert(0, b'1');
    digits
}

/// Removes trailing zeros of the fraction (and a bare point) before any exponent.
fn strip_fraction_zeros(s: Vec<u8>) -> Vec<u8> {
    let exponent_at = s.iter().position(|c| matches!(c, b'e' | b'E')).unwrap_or(s.len());
    let (number, exponent) = s.split_at(exponent_at);
    if !number.contains(&b'.') {
        return s;
    }
    let mut number = number.to_vec();
    while number.last() == Some(&b'0') {
        number.pop();
    }
    if number.last() == Some(&b'.') {
        number.pop();
    }
    number.extend_from_slice(exponent);
    number
}

/// `%a` of a nonnegative finite value, as glibc prints it: for x87 the
/// leading hex digit is the top four bits of the 64-bit significand
/// (`0x8p-3` is 1), for other formats the hidden bit (`0x1p+0`).
fn hexadecimal(magnitude: ieee::Fp, precision: Option<usize>, alternate: bool) -> Vec<u8> {
    let format = magnitude.format();
    let fraction_bits = format.sig_bits() - 1;
    let bits = magnitude.to_bits();
    let biased = (bits >> fraction_bits) as i64;
    let fraction = bits & ((1u128 << fraction_bits) - 1);
    let integer_bit = u128::from(biased != 0);
    let exponent = biased.max(1) - format.bias();
    // The significand as a leading digit and whole hex digits below it.
    let (mut lead, digit_count, mut tail, mut exponent) = if format.sig_bits() == 64 {
        let significand = integer_bit << 63 | fraction;
        (significand >> 60, 15, significand & ((1 << 60) - 1), exponent - 3)
    } else {
        let count = fraction_bits.div_ceil(4);
        (integer_bit, count as usize, fraction << (4 * count - fraction_bits), exponent)
    };
    if magnitude.is_zero() {
        exponent = 0;
    }
    let mut shown = digit_count;
    if let Some(p) = precision.filter(|&p| p < digit_count) {
        let dropped = 4 * (digit_count - p) as u32;
        let (kept, rest) = (tail >> dropped, tail & ((1 << dropped) - 1));
        let half = 1u128 << (dropped - 1);
        let last_odd = if p == 0 { lead & 1 == 1 } else { kept & 1 == 1 };
        let up = rest > half || (rest == half && last_odd);
        tail = kept + u128::from(up);
        if tail >> (4 * p) != 0 {
            // The carry reaches the leading digit.
            tail &= (1 << (4 * p)) - 1;
            lead += 1;
            if lead > 0xf {
                lead = 1;
                exponent += 4;
            }
        }
        shown = p;
    }
    let mut digits: Vec<u8> = (0..shown).rev().map(|i| hex_digit((tail >> (4 * i)) as u8 & 0xf)).collect();
    match precision {
        None => {
            while digits.last() == Some(&b'0') {
                digits.pop();
            }
        }
        Some(p) => digits.resize(p, b'0'),
    }
    let mut text = format!("0x{}", hex_digit(lead as u8) as char).into_bytes();
    if !digits.is_empty() || alternate {
        text.push(b'.');
    }
    text.extend_from_slice(&digits);
    text.extend(format!("p{}{}", if exponent < 0 { '-' } else { '+' }, exponent.unsigned_abs()).bytes());
    text
}

fn hex_digit(d: u8) -> u8 {
    b"0123456789abcdef"[usize::from(d)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{parse, Dialect, Piece};

    fn text(format: &str, float: FloatFormat, bits: u128) -> String {
        let spec = match parse(format.as_bytes(), Dialect::Printf).expect("parses").as_slice() {
            [Piece::Conversion(spec)] => *spec,
            other => panic!("not one conversion: {other:?}"),
        };
        String::from_utf8(float_text(&spec, Field::resolve(&spec, None, None), float, bits)).unwrap()
    }

    fn double(format: &str, value: f64) -> String {
        text(format, FloatFormat::Double, u128::from(value.to_bits()))
    }

    fn long_double(format: &str, value: &str) -> String {
        let exact = ieee::Fp::parse(ieee::Format::X87, value, ieee::RoundingMode::NearestEven).expect("a number");
        text(format, FloatFormat::X87Extended, exact.to_x87_bits())
    }

    #[test]
    fn doubles_print_like_glibc() {
        assert_eq!(double("%f", 10000.21), "10000.210000");
        assert_eq!(double("%.2f", 2.675), "2.67");
        assert_eq!(double("%.0f", 0.5), "0");
        assert_eq!(double("%.0f", 1.5), "2");
        assert_eq!(double("%#.0f", 1.0), "1.");
        assert_eq!(double("%e", 1234.5), "1.234500e+03");
        assert_eq!(double("%E", 0.0), "0.000000E+00");
        assert_eq!(double("%.0e", 9.5), "1e+01");
        assert_eq!(double("%g", 100000.0), "100000");
        assert_eq!(double("%g", 1000000.0), "1e+06");
        assert_eq!(double("%g", 0.0001), "0.0001");
        assert_eq!(double("%g", 0.00001), "1e-05");
        assert_eq!(double("%g", 0.5), "0.5");
        assert_eq!(double("%#g", 0.5), "0.500000");
        assert_eq!(double("%g", 999999.5), "1e+06");
        assert_eq!(double("%08.2f", -1.5), "-0001.50");
        assert_eq!(double("%f", -0.0), "-0.000000");
        assert_eq!(double("%5f", f64::INFINITY), "  inf");
        assert_eq!(double("%F", -f64::NAN), "-NAN");
        assert_eq!(double("%a", 1.0), "0x1p+0");
        assert_eq!(double("%a", 0.1), "0x1.999999999999ap-4");
        assert_eq!(double("%a", f64::from_bits(1)), "0x0.0000000000001p-1022");
        assert_eq!(double("%a", -0.0), "-0x0p+0");
        assert_eq!(double("%.1a", 1.96875), "0x2.0p+0");
        assert_eq!(double("%A", 255.0), "0X1.FEP+7");
        assert_eq!(double("%010a", 1.0), "0x00001p+0");
    }

    /// Rust prints the exact decimal value rounded half to even, as glibc.
    #[test]
    fn decimal_conversions_agree_with_rust_formatting() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..4000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let value = f64::from_bits(state);
            if !value.is_finite() {
                continue;
            }
            for precision in [0usize, 1, 3, 17, 30] {
                let magnitude = value.abs();
                let sign = if value.is_sign_negative() { "-" } else { "" };
                if magnitude < 1e30 {
                    assert_eq!(double(&format!("%.{precision}f"), value), format!("{sign}{magnitude:.precision$}"), "{value:e}");
                }
                let rust = format!("{magnitude:.precision$e}");
                let (mantissa, exponent) = rust.split_once('e').unwrap();
                let exponent: i64 = exponent.parse().unwrap();
                let expected = format!("{sign}{mantissa}e{}{:02}", if exponent < 0 { '-' } else { '+' }, exponent.unsigned_abs());
                assert_eq!(double(&format!("%.{precision}e"), value), expected, "{value:e}");
            }
        }
    }

    /// Texts printed by glibc 2.36 for these long doubles.
    #[test]
    fn long_doubles_print_like_glibc() {
        assert_eq!(long_double("%.20Lf", "0.1"), "0.10000000000000000000");
        assert_eq!(long_double("%.25Lg", "0.1"), "0.1000000000000000000013553");
        assert_eq!(long_double("%La", "0.1"), "0xc.ccccccccccccccdp-7");
        assert_eq!(long_double("%.3La", "0.1"), "0xc.ccdp-7");
        assert_eq!(long_double("%LA", "0.1"), "0XC.CCCCCCCCCCCCCCDP-7");
        assert_eq!(long_double("%.20Lf", "0.333333333333333333342"), "0.33333333333333333334");
        assert_eq!(long_double("%La", "-2.5"), "-0xap-2");
        assert_eq!(long_double("%.3La", "-2.5"), "-0xa.000p-2");
        assert_eq!(long_double("%Le", "1e4000"), "1.000000e+4000");
        assert_eq!(long_double("%.25Lg", "1e4000"), "9.999999999999999999965464e+3999");
        assert_eq!(long_double("%La", "1e4000"), "0xd.1ba8323fe558c61p+13284");
        assert_eq!(long_double("%La", "3.6451995318824746025e-4951"), "0x0.000000000000001p-16385");
        assert_eq!(long_double("%Lg", "3.6451995318824746025e-4951"), "3.6452e-4951");
        assert_eq!(long_double("%.3La", "1.18973149535723176502e+4932"), "0x1.000p+16384");
        assert_eq!(long_double("%.25Lg", "1.18973149535723176502e+4932"), "1.189731495357231765021264e+4932");
        assert_eq!(long_double("%La", "0"), "0x0p+0");
        assert_eq!(long_double("%.3La", "-0"), "-0x0.000p+0");
        assert_eq!(long_double("%La", "123456789.125"), "0xe.b79a2a4p+23");
        assert_eq!(long_double("%#.0Lf", "1.5"), "2.");
        assert_eq!(long_double("%.0Le", "1.5"), "2e+00");
        assert_eq!(long_double("%+12.3Le", "0.5"), "  +5.000e-01");
        assert_eq!(long_double("%La", "0.5"), "0x8p-4");
        assert_eq!(long_double("%.3La", "9.9999999"), "0xa.000p+0");
        assert_eq!(long_double("%Lf", "9.9999999"), "10.000000");
        // The nearest long double to 1e4000 lies below it: 4000 digits.
        assert_eq!(long_double("%Lf", "1e4000").len(), 4007);
    }
}
