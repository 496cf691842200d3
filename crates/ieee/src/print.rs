//! Decimal output: the exact decimal expansion of a value, and the shortest
//! decimal that parses back to the same value (for traces), the latter as
//! `Display` in the `{:e}` style of Rust's floats (`1.5e-3`).

use crate::bignum::BigUint;
use crate::round::RoundingMode;
use crate::value::{Fp, Unpacked};
use std::fmt;

/// The exact value of a finite nonzero magnitude as decimal digits `d`
/// (no leading zeros) and a power `p`: value = d * 10^p.
fn exact_digits(sig: u128, exp: i64) -> (String, i64) {
    let sig = BigUint::from_u128(sig);
    if exp >= 0 {
        (sig.shl(exp as u64).to_decimal(), 0)
    } else {
        // sig * 2^-k = sig * 5^k * 10^-k.
        (sig.mul(&BigUint::pow(5, exp.unsigned_abs())).to_decimal(), exp)
    }
}

/// `digits` (most significant first) plus one unit in the last place,
/// and whether that carried into a new leading digit.
fn increment(digits: &str) -> (String, bool) {
    let mut bytes = digits.as_bytes().to_vec();
    for b in bytes.iter_mut().rev() {
        if *b == b'9' {
            *b = b'0';
        } else {
            *b += 1;
            return (String::from_utf8(bytes).unwrap(), false);
        }
    }
    bytes.insert(0, b'1');
    (String::from_utf8(bytes).unwrap(), true)
}

/// Scientific notation `d.ddde<exp>` without trailing fraction zeros.
fn scientific(negative: bool, digits: &str, exp10: i64) -> String {
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let sign = if negative { "-" } else { "" };
    if digits.len() == 1 {
        format!("{sign}{digits}e{exp10}")
    } else {
        format!("{sign}{}.{}e{exp10}", &digits[..1], &digits[1..])
    }
}

impl Fp {
    /// The exact decimal value in positional notation (`-0`, `inf`, `nan`
    /// for the specials); long for extreme exponents.
    pub fn to_decimal_exact(self) -> String {
        let (negative, sig, exp) = match self.unpack() {
            Unpacked::Nan => return "nan".to_string(),
            Unpacked::Infinite { negative } => return if negative { "-inf" } else { "inf" }.to_string(),
            Unpacked::Zero { negative } => return if negative { "-0" } else { "0" }.to_string(),
            Unpacked::Finite { negative, sig, exp } => (negative, sig, exp),
        };
        let (digits, power) = exact_digits(sig, exp);
        let sign = if negative { "-" } else { "" };
        let fraction_len = power.unsigned_abs() as usize;
        if power == 0 {
            return format!("{sign}{digits}");
        }
        let padded = format!("{}{digits}", "0".repeat((fraction_len + 1).saturating_sub(digits.len())));
        let (int_part, fraction) = padded.split_at(padded.len() - fraction_len);
        match fraction.trim_end_matches('0') {
            "" => format!("{sign}{int_part}"),
            fraction => format!("{sign}{int_part}.{fraction}"),
        }
    }

    /// The shortest decimal (scientific notation) that parses back to this
    /// value with round-to-nearest-even; the nearest such if several.
    fn shortest_decimal(self) -> String {
        let (negative, sig, exp) = match self.unpack() {
            Unpacked::Nan => return "NaN".to_string(),
            Unpacked::Infinite { negative } => return if negative { "-inf" } else { "inf" }.to_string(),
            Unpacked::Zero { negative } => return scientific(negative, "0", 0),
            Unpacked::Finite { negative, sig, exp } => (negative, sig, exp),
        };
        // 1 + ceil(p * log10(2)) digits always round-trip; keep two more
        // so that rounding each prefix sees its next digit.
        let needed = 1 + (self.format().sig_bits() as u64 * 30103).div_ceil(100_000);
        let head = LeadingDigits::of(sig, exp, needed + 2);
        let round_trips = |candidate: &str, exp10: i64| {
            let text = scientific(negative, candidate, exp10);
            Fp::parse(self.format(), &text, RoundingMode::NearestEven).ok() == Some(self)
        };
        let shortest_of_length = |length: usize| -> Option<String> {
            if length == head.digits.len() {
                return Some(scientific(negative, &head.digits, head.exp10));
            }
            let (prefix, rest) = head.digits.split_at(length);
            let (up, carried) = increment(prefix);
            let candidates = [(prefix.to_string(), head.exp10), (up, head.exp10 + carried as i64)];
            // The rounded-up prefix is nearer when the dropped part is at least half.
            let order = if rest.as_bytes()[0] >= b'5' { [1, 0] } else { [0, 1] };
            order.iter().map(|&i| &candidates[i]).find(|(digits, exp10)| round_trips(digits, *exp10)).map(|(digits, exp10)| scientific(negative, digits, *exp10))
        };
        // Some decimal of length n round-trips => one of length n + 1 does
        // (the same one), so the shortest length is found by bisection.
        let (mut low, mut high) = (1, if head.inexact { head.digits.len() - 1 } else { head.digits.len() });
        while low < high {
            let middle = (low + high) / 2;
            if shortest_of_length(middle).is_some() {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        shortest_of_length(low).expect("a long enough decimal always round-trips")
    }
}

/// The leading decimal digits of an exact value: `digits` (at least the
/// requested count unless the value has fewer), the power of ten of the
/// first digit, and whether nonzero digits were dropped.
struct LeadingDigits {
    digits: String,
    exp10: i64,
    inexact: bool,
}

impl LeadingDigits {
    fn of(sig: u128, exp: i64, wanted: u64) -> LeadingDigits {
        let sig = BigUint::from_u128(sig);
        let (integer, power) = if exp >= 0 { (sig.shl(exp as u64), 0) } else { (sig.mul(&BigUint::pow(5, exp.unsigned_abs())), exp) };
        // A lower bound of the digit count (0.30102999 < log10(2)).
        let at_least = (integer.bit_len() - 1) * 30_102_999 / 100_000_000 + 1;
        let dropped = at_least.saturating_sub(wanted);
        let (kept, rest) = integer.divrem(&BigUint::pow(10, dropped));
        let digits = kept.to_decimal();
        let exp10 = digits.len() as i64 - 1 + dropped as i64 + power;
        LeadingDigits { digits, exp10, inexact: !rest.is_zero() }
    }
}

impl fmt::Display for Fp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shortest_decimal())
    }
}

#[cfg(test)]
mod tests {
    use crate::format::Format;
    use crate::value::Fp;

    fn double(v: f64) -> Fp {
        Fp::from_bits(Format::DOUBLE, v.to_bits() as u128)
    }

    #[test]
    fn shortest_output_matches_the_standard_library() {
        let values = [0.1, -0.0, 1.0, 123456.0, 1e23, 5e-324, f64::MAX, f64::MIN_POSITIVE, 1.0 / 3.0, -2.5e-300, 9007199254740993.0, f64::INFINITY, f64::NAN];
        for v in values {
            assert_eq!(double(v).to_string(), format!("{v:e}"), "{v:e}");
        }
        let single = Fp::from_bits(Format::SINGLE, 0.1f32.to_bits() as u128);
        assert_eq!(single.to_string(), "1e-1");
    }

    #[test]
    fn exact_output_is_the_full_expansion() {
        assert_eq!(double(0.1).to_decimal_exact(), "0.1000000000000000055511151231257827021181583404541015625");
        assert_eq!(double(-1024.0).to_decimal_exact(), "-1024");
        assert_eq!(double(0.375).to_decimal_exact(), "0.375");
        assert_eq!(double(-0.0).to_decimal_exact(), "-0");
        assert_eq!(double(2f64.powi(70)).to_decimal_exact(), "1180591620717411303424");
        assert_eq!(double(5e-324).to_decimal_exact().len(), 1076);
    }
}
