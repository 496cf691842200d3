//! An exact check of decimal-to-binary rounding, independent of the crate
//! (and of the reference library, whose decimal reader misrounds exactly
//! representable literals toward zero): a decimal literal is compared with
//! binary values using a tiny natural-number type written here.

use std::cmp::Ordering;

/// A natural number in base 2^32, little-endian, no high zero words.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Nat(Vec<u32>);

impl Nat {
    fn trimmed(mut words: Vec<u32>) -> Nat {
        while words.last() == Some(&0) {
            words.pop();
        }
        Nat(words)
    }

    pub fn from_u128(value: u128) -> Nat {
        Nat::trimmed((0..4).map(|i| (value >> (32 * i)) as u32).collect())
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn mul_add_small(&self, factor: u32, addend: u32) -> Nat {
        let mut carry = addend as u64;
        let mut words: Vec<u32> = self
            .0
            .iter()
            .map(|&w| {
                let t = w as u64 * factor as u64 + carry;
                carry = t >> 32;
                t as u32
            })
            .collect();
        words.push(carry as u32);
        Nat::trimmed(words)
    }

    fn mul(&self, other: &Nat) -> Nat {
        let mut words = vec![0u32; self.0.len() + other.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.0.iter().enumerate() {
                let t = a as u64 * b as u64 + words[i + j] as u64 + carry;
                words[i + j] = t as u32;
                carry = t >> 32;
            }
            words[i + other.0.len()] = carry as u32;
        }
        Nat::trimmed(words)
    }

    fn shl(&self, bits: u64) -> Nat {
        let (whole, part) = ((bits / 32) as usize, (bits % 32) as u32);
        let mut words = vec![0u32; whole];
        let mut carry = 0u32;
        for &w in &self.0 {
            words.push(if part == 0 { w } else { w << part | carry });
            carry = if part == 0 { 0 } else { w >> (32 - part) };
        }
        words.push(carry);
        Nat::trimmed(words)
    }

    pub fn pow5(mut exp: u64) -> Nat {
        let (mut result, mut square) = (Nat::from_u128(1), Nat::from_u128(5));
        while exp > 0 {
            if exp & 1 == 1 {
                result = result.mul(&square);
            }
            exp >>= 1;
            if exp > 0 {
                square = square.mul(&square);
            }
        }
        result
    }

    fn cmp(&self, other: &Nat) -> Ordering {
        self.0.len().cmp(&other.0.len()).then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

/// A decimal literal's magnitude `digits * 10^exp10` with `5^|exp10|`
/// precomputed, as the comparisons of one check all need it.
pub struct Decimal {
    pub negative: bool,
    digits: Nat,
    exp10: i64,
    pow5: Nat,
}

impl Decimal {
    /// Reads `[-]digits[.digits][e[+-]digits]`; `None` for other forms.
    pub fn parse(text: &str) -> Option<Decimal> {
        let (negative, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exp10) = match body.find(['e', 'E']) {
            Some(at) => (&body[..at], body[at + 1..].parse::<i64>().ok()?),
            None => (body, 0),
        };
        let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all: Vec<u8> = integer.bytes().chain(fraction.bytes()).collect();
        if all.is_empty() || !all.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let digits = all.iter().fold(Nat(Vec::new()), |n, &d| n.mul_add_small(10, (d - b'0') as u32));
        let exp10 = exp10 - fraction.len() as i64;
        Some(Decimal { negative, digits, exp10, pow5: Nat::pow5(exp10.unsigned_abs()) })
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_zero()
    }

    /// Compares the magnitude with `m * 2^e`.
    pub fn cmp_binary(&self, m: u128, e: i64) -> Ordering {
        // digits * 5^k * 2^k against m * 2^e, k = exp10, both sides integral.
        let (left, left_exp, right, right_exp) = if self.exp10 >= 0 {
            (self.digits.mul(&self.pow5), self.exp10, Nat::from_u128(m), e)
        } else {
            (self.digits.clone(), self.exp10, Nat::from_u128(m).mul(&self.pow5), e)
        };
        let low = left_exp.min(right_exp);
        left.shl((left_exp - low) as u64).cmp(&right.shl((right_exp - low) as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_compare_exactly_with_binary_values() {
        let d = Decimal::parse("0.375").unwrap();
        assert_eq!(d.cmp_binary(3, -3), Ordering::Equal);
        assert_eq!(d.cmp_binary(47, -7), Ordering::Greater);
        assert_eq!(Decimal::parse("1e3").unwrap().cmp_binary(1000, 0), Ordering::Equal);
        assert_eq!(Decimal::parse("-1024.5e0").unwrap().cmp_binary(2049, -1), Ordering::Equal);
        assert_eq!(Decimal::parse("102.45").unwrap().cmp_binary(2049, -5), Ordering::Greater);
        assert!(Decimal::parse("0x1p3").is_none());
    }
}
