//! Exact conversion of floating literals (decimal and hexadecimal) to the
//! bit pattern of any IEEE binary format or the x87 80-bit format, rounded to
//! nearest, ties to even. The literal's value is an exact fraction of big
//! integers; dividing it out bit by bit gives the correctly rounded
//! significand for every precision, including `long double` and
//! `_Float128`, where Rust's own parsers do not help.

use ir::FloatFormat;

/// A small unsigned big integer, little-endian 32-bit limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn bit_len(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(top) => (self.0.len() as u64 - 1) * 32 + u64::from(32 - top.leading_zeros()),
        }
    }
    fn mul_add_small(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }
    fn shl(&self, bits: u64) -> Big {
        let words = (bits / 32) as usize;
        let rem = (bits % 32) as u32;
        let mut out = vec![0u32; words];
        let mut carry = 0u32;
        for &limb in &self.0 {
            if rem == 0 {
                out.push(limb);
            } else {
                out.push((limb << rem) | carry);
                carry = limb >> (32 - rem);
            }
        }
        if carry > 0 {
            out.push(carry);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        self.0.len().cmp(&other.0.len()).then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
    fn sub_assign(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let o = i64::from(*other.0.get(i).unwrap_or(&0));
            let mut v = i64::from(self.0[i]) - o - borrow;
            borrow = 0;
            if v < 0 {
                v += 1 << 32;
                borrow = 1;
            }
            self.0[i] = v as u32;
        }
        self.trim();
    }
}

/// Why a literal could not be converted.
#[derive(Debug, PartialEq, Eq)]
pub struct BadLiteral;

/// Converts literal text (without suffix, e.g. `1.5e3`, `0x1p-2`, `.5`) to
/// the bit pattern of `fmt`.
pub fn convert(text: &str, fmt: FloatFormat) -> Result<u128, BadLiteral> {
    let (num, den, exp2) = parse_fraction(text)?;
    Ok(round_fraction(num, den, exp2, fmt))
}

/// Decimal exponents beyond this make any non-zero literal overflow or
/// underflow every supported format (x87/binary128 reach about 10^±4966).
const DECIMAL_EXP_LIMIT: i64 = 6000;

/// The literal as `num / den * 2^exp2`.
fn parse_fraction(text: &str) -> Result<(Big, Big, i64), BadLiteral> {
    let lower = text.to_ascii_lowercase();
    let (hex, body) = match lower.strip_prefix("0x") {
        Some(rest) => (true, rest),
        None => (false, lower.as_str()),
    };
    let exp_char = if hex { 'p' } else { 'e' };
    let (mantissa, exp_text) = match body.split_once(exp_char) {
        Some((m, e)) => (m, Some(e)),
        None if hex => return Err(BadLiteral),
        None => (body, None),
    };
    let exponent: i64 = match exp_text {
        Some(e) => parse_exponent(e)?,
        None => 0,
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(BadLiteral);
    }
    let radix = if hex { 16 } else { 10 };
    let mut num = Big(Vec::new());
    for c in int_part.chars().chain(frac_part.chars()) {
        let d = c.to_digit(radix).ok_or(BadLiteral)?;
        num.mul_add_small(radix, d);
    }
    let frac_digits = frac_part.len() as i64;
    if hex {
        return Ok((num, Big::from_u64(1), exponent.saturating_sub(4 * frac_digits)));
    }
    let exp10 = exponent.saturating_sub(frac_digits).clamp(-DECIMAL_EXP_LIMIT, DECIMAL_EXP_LIMIT);
    let mut den = Big::from_u64(1);
    let target = if exp10 >= 0 { &mut num } else { &mut den };
    for _ in 0..exp10.unsigned_abs() {
        target.mul_add_small(10, 0);
    }
    Ok((num, den, 0))
}

fn parse_exponent(e: &str) -> Result<i64, BadLiteral> {
    let (neg, digits) = match e.as_bytes().first() {
        Some(b'-') => (true, &e[1..]),
        Some(b'+') => (false, &e[1..]),
        _ => (false, e),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(BadLiteral);
    }
    // Saturate: anything this large is an overflow or underflow anyway.
    let v = digits.parse::<i64>().unwrap_or(i64::MAX / 4).min(i64::MAX / 4);
    Ok(if neg { -v } else { v })
}

/// Rounds `num / den * 2^exp2` (non-negative) to `fmt`.
fn round_fraction(num: Big, den: Big, exp2: i64, fmt: FloatFormat) -> u128 {
    let precision = i64::from(fmt.significand_bits());
    let ebits = fmt.exponent_bits();
    let bias = (1i64 << (ebits - 1)) - 1;
    let emin = 1 - bias;
    let emax = bias;
    if num.is_zero() {
        return 0;
    }
    // Estimated exponent of the leading bit of the value.
    let lead = num.bit_len() as i64 - den.bit_len() as i64 + exp2;
    if lead > emax + 2 {
        return encode_inf(fmt);
    }
    if lead < emin - precision - 2 {
        return 0;
    }
    // Quantum (weight of the last significand bit): 2^(e - (p-1)), where e
    // is the exponent of the leading bit, clamped below at emin.
    let mut e = lead.max(emin);
    let top = 1u128 << precision;
    let hidden = 1u128 << (precision - 1);
    loop {
        let quantum = e - (precision - 1);
        let (q, round_up) = divide_scaled(&num, &den, exp2 - quantum, precision as u32 + 1);
        // The leading-bit estimate can be one off either way.
        if q >= top {
            e += 1;
            continue;
        }
        if q < hidden && e > emin {
            e -= 1;
            continue;
        }
        let mut q = q + u128::from(round_up);
        if q == top {
            q = hidden;
            e += 1;
        }
        if e > emax {
            return encode_inf(fmt);
        }
        let exponent = if q >= hidden { e } else { emin - 1 };
        return encode(fmt, exponent, q);
    }
}

/// `round_nearest_even(num / den * 2^shift)` as (truncated quotient, round
/// up?), for quotients below `2^max_bits`.
fn divide_scaled(num: &Big, den: &Big, shift: i64, max_bits: u32) -> (u128, bool) {
    let (mut rem, den) = if shift >= 0 {
        (num.shl(shift as u64), den.clone())
    } else {
        (num.clone(), den.shl(shift.unsigned_abs()))
    };
    let mut q: u128 = 0;
    for bit in (0..=max_bits).rev() {
        let d = den.shl(u64::from(bit));
        if rem.cmp(&d) != std::cmp::Ordering::Less {
            rem.sub_assign(&d);
            q |= 1u128 << bit;
        }
    }
    let twice = rem.shl(1);
    let round_up = match twice.cmp(&den) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => q & 1 == 1,
        std::cmp::Ordering::Less => false,
    };
    (q, round_up)
}

/// Packs an exponent (unbiased; `emin - 1` for subnormals) and a
/// significand (with its leading bit for normals).
fn encode(fmt: FloatFormat, e: i64, significand: u128) -> u128 {
    let p = fmt.significand_bits();
    let bias = (1i64 << (fmt.exponent_bits() - 1)) - 1;
    let biased = (e + bias) as u128;
    if fmt == FloatFormat::X87Extended {
        // x87 stores the integer bit explicitly.
        return (biased << 64) | significand;
    }
    let frac = significand & ((1u128 << (p - 1)) - 1);
    (biased << (p - 1)) | frac
}

fn encode_inf(fmt: FloatFormat) -> u128 {
    let all_ones = (1u128 << fmt.exponent_bits()) - 1;
    if fmt == FloatFormat::X87Extended {
        return (all_ones << 64) | (1u128 << 63);
    }
    all_ones << (fmt.significand_bits() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_and_float_agree_with_std_parsers() {
        let samples = [
            "0.1", "1.5", "3.141592653589793238462643", "1e308", "1.7976931348623157e308", "2.2250738585072014e-308",
            "4.9e-324", "2.4703282292062328e-324", "123456789012345678901234567890", "1e-400", "1e400", "0.0",
            "9007199254740993", ".5", "5.", "6.02214076e23", "1.00000005960464477539", "3.4028235e38", "1e-45",
        ];
        for s in samples {
            let d = convert(s, FloatFormat::Double).unwrap();
            assert_eq!(d, u128::from(s.parse::<f64>().unwrap().to_bits()), "double {s}");
            let f = convert(s, FloatFormat::Single).unwrap();
            assert_eq!(f, u128::from(s.parse::<f32>().unwrap().to_bits()), "float {s}");
        }
    }

    #[test]
    fn hex_literals_are_exact() {
        assert_eq!(convert("0x1p0", FloatFormat::Double).unwrap(), u128::from(1.0f64.to_bits()));
        assert_eq!(convert("0x1.8p1", FloatFormat::Double).unwrap(), u128::from(3.0f64.to_bits()));
        assert_eq!(convert("0x.1p4", FloatFormat::Single).unwrap(), u128::from(1.0f32.to_bits()));
        assert_eq!(convert("0x1p-1074", FloatFormat::Double).unwrap(), 1);
    }

    #[test]
    fn x87_and_quad_patterns() {
        // 1.0L: exponent 16383, explicit integer bit.
        assert_eq!(convert("1.0", FloatFormat::X87Extended).unwrap(), (16383u128 << 64) | (1u128 << 63));
        // 0.1L = 0x3FFB_CCCCCCCCCCCCCCCD.
        assert_eq!(convert("0.1", FloatFormat::X87Extended).unwrap(), (0x3FFBu128 << 64) | 0xCCCC_CCCC_CCCC_CCCD);
        // 0.1 as binary128 = 0x3FFB999999999999999999999999999A.
        assert_eq!(convert("0.1", FloatFormat::Quad).unwrap(), 0x3FFB_9999_9999_9999_9999_9999_9999_999A);
        assert_eq!(convert("1e5000", FloatFormat::X87Extended).unwrap(), (0x7FFFu128 << 64) | (1u128 << 63));
    }

    #[test]
    fn malformed_text_is_rejected() {
        assert_eq!(convert("1e", FloatFormat::Double), Err(BadLiteral));
        assert_eq!(convert("0x1.0", FloatFormat::Double), Err(BadLiteral));
        assert_eq!(convert(".", FloatFormat::Double), Err(BadLiteral));
    }
}
