//! Integers wider than 128 bits (C23 `_BitInt(N)`, N > 128) in the
//! interpreter. Such a value is held as the bytes of its memory image
//! (`Value::Agg`, little-endian, the bits above its width zero); this module
//! gives it the semantics `value.rs` gives narrower integers: wrapping
//! arithmetic, total division and remainder, shifts that saturate at the
//! width, comparisons, and conversions between widths.

use crate::expr::BinOp;

/// Widths above this are the integers of this module.
pub const NARROW_BITS: u32 = 128;

/// A `width`-bit two's-complement pattern in 64-bit limbs, least
/// significant first, with the bits above `width` zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wide {
    limbs: Vec<u64>,
    width: u32,
}

impl Wide {
    fn zero(width: u32) -> Wide {
        Wide { limbs: vec![0; width.div_ceil(64) as usize], width }
    }

    /// The low `width` bits of the little-endian `bytes`.
    pub fn from_le_bytes(bytes: &[u8], width: u32) -> Wide {
        let mut w = Wide::zero(width);
        for (i, &b) in bytes.iter().enumerate().take(w.limbs.len() * 8) {
            w.limbs[i / 8] |= u64::from(b) << (8 * (i % 8));
        }
        w.mask();
        w
    }

    /// The `from_width`-bit pattern `bits` extended (by `signed`) or
    /// truncated to `width` bits.
    pub fn from_u128(bits: u128, from_width: u32, signed: bool, width: u32) -> Wide {
        let narrow = Wide { limbs: vec![bits as u64, (bits >> 64) as u64], width: from_width.min(NARROW_BITS) };
        narrow.masked().resize(width, signed)
    }

    /// `±(magnitude << shift)` as a `width`-bit integer (signed or not),
    /// `None` when it does not fit.
    pub fn from_integer_parts(negative: bool, magnitude: u128, shift: u32, width: u32, signed: bool) -> Option<Wide> {
        if magnitude == 0 {
            return Some(Wide::zero(width));
        }
        let bits = 128 - magnitude.leading_zeros() + shift;
        if bits > width + 1 {
            return None;
        }
        let value = Wide::from_u128(magnitude, 128, false, width + 1).shl(shift);
        if !signed {
            return (!negative && bits <= width).then(|| value.resize(width, false));
        }
        let value = if negative { value.negated() } else { value };
        let result = value.resize(width, false);
        (result.resize(width + 1, true) == value).then_some(result)
    }

    /// The first `len` bytes of the memory image.
    pub fn to_le_bytes(&self, len: usize) -> Vec<u8> {
        (0..len).map(|i| self.limbs.get(i / 8).map_or(0, |l| (l >> (8 * (i % 8))) as u8)).collect()
    }

    /// The low 128 bits.
    pub fn low_u128(&self) -> u128 {
        let limb = |i: usize| u128::from(self.limbs.get(i).copied().unwrap_or(0));
        limb(0) | limb(1) << 64
    }

    /// The value (read as signed when `signed`), saturated to `i128`.
    pub fn to_i128_saturating(&self, signed: bool) -> i128 {
        let negative = signed && self.is_negative();
        let narrow = self.resize(NARROW_BITS, signed);
        if narrow.resize(self.width, signed) != *self || !negative && narrow.is_negative() {
            return if negative { i128::MIN } else { i128::MAX };
        }
        narrow.low_u128() as i128
    }

    pub fn is_zero(&self) -> bool {
        self.limbs.iter().all(|&l| l == 0)
    }

    fn bit(&self, i: u32) -> bool {
        self.limbs[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    fn is_negative(&self) -> bool {
        self.bit(self.width - 1)
    }

    /// Clears the bits at and above the width.
    fn mask(&mut self) {
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let low = i as u32 * 64;
            if low >= self.width {
                *limb = 0;
            } else if self.width - low < 64 {
                *limb &= (1u64 << (self.width - low)) - 1;
            }
        }
    }

    fn masked(mut self) -> Wide {
        self.mask();
        self
    }

    /// This value extended (sign-extended when `signed`) or truncated to `width` bits.
    pub fn resize(&self, width: u32, signed: bool) -> Wide {
        let fill = signed && self.is_negative();
        let mut result = Wide::zero(width);
        for i in 0..width {
            let set = if i < self.width { self.bit(i) } else { fill };
            if set {
                result.limbs[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        result
    }

    fn map2(&self, other: &Wide, f: impl Fn(u64, u64) -> u64) -> Wide {
        let limbs = self.limbs.iter().zip(&other.limbs).map(|(&a, &b)| f(a, b)).collect();
        Wide { limbs, width: self.width }.masked()
    }

    /// `~self`.
    pub fn complement(&self) -> Wide {
        Wide { limbs: self.limbs.iter().map(|l| !l).collect(), width: self.width }.masked()
    }

    fn add(&self, other: &Wide) -> Wide {
        let mut carry = false;
        let limbs = self
            .limbs
            .iter()
            .zip(&other.limbs)
            .map(|(&a, &b)| {
                let (s, c1) = a.overflowing_add(b);
                let (s, c2) = s.overflowing_add(u64::from(carry));
                carry = c1 || c2;
                s
            })
            .collect();
        Wide { limbs, width: self.width }.masked()
    }

    /// `-self`, wrapping.
    pub fn negated(&self) -> Wide {
        self.complement().add(&Wide::from_u128(1, 2, false, self.width))
    }

    fn sub(&self, other: &Wide) -> Wide {
        self.add(&other.negated())
    }

    fn mul(&self, other: &Wide) -> Wide {
        let n = self.limbs.len();
        let mut limbs = vec![0u64; n];
        for i in 0..n {
            let mut carry = 0u128;
            for j in 0..n - i {
                let t = u128::from(self.limbs[i]) * u128::from(other.limbs[j]) + u128::from(limbs[i + j]) + carry;
                limbs[i + j] = t as u64;
                carry = t >> 64;
            }
        }
        Wide { limbs, width: self.width }.masked()
    }

    /// Shifted left by `amount` (< width) bits.
    fn shl(&self, amount: u32) -> Wide {
        let mut result = Wide::zero(self.width);
        for i in amount..self.width {
            if self.bit(i - amount) {
                result.limbs[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        result
    }

    /// Shifted right by `amount` (< width) bits, filling with the sign when `arithmetic`.
    fn shr(&self, amount: u32, arithmetic: bool) -> Wide {
        let fill = arithmetic && self.is_negative();
        let mut result = Wide::zero(self.width);
        for i in 0..self.width {
            let from = i + amount;
            let set = if from < self.width { self.bit(from) } else { fill };
            if set {
                result.limbs[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        result
    }

    fn ucmp(&self, other: &Wide) -> std::cmp::Ordering {
        self.limbs.iter().rev().cmp(other.limbs.iter().rev())
    }

    fn scmp(&self, other: &Wide) -> std::cmp::Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            _ => self.ucmp(other),
        }
    }

    /// Unsigned quotient and remainder by shift-and-subtract (`divisor` nonzero).
    fn udivrem(&self, divisor: &Wide) -> (Wide, Wide) {
        let mut quotient = Wide::zero(self.width);
        let mut rest = Wide::zero(self.width);
        for i in (0..self.width).rev() {
            // `rest` stays below `divisor`; when doubling it carries out of
            // the width, the true value exceeds `divisor` and the wrapped
            // difference is still exact.
            let overflow = rest.is_negative();
            rest = rest.shl(1);
            if self.bit(i) {
                rest.limbs[0] |= 1;
            }
            if overflow || rest.ucmp(divisor) != std::cmp::Ordering::Less {
                rest = rest.sub(divisor);
                quotient.limbs[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        (quotient, rest)
    }

    fn magnitude(&self, signed: bool) -> Wide {
        if signed && self.is_negative() { self.negated() } else { self.clone() }
    }

    /// C division or remainder (truncating towards zero); a zero divisor
    /// gives 0 and `x` (the IR's total semantics), `MIN / -1` wraps.
    fn div_rem(&self, divisor: &Wide, signed: bool, remainder: bool) -> Wide {
        if divisor.is_zero() {
            return if remainder { self.clone() } else { Wide::zero(self.width) };
        }
        let (q, r) = self.magnitude(signed).udivrem(&divisor.magnitude(signed));
        let negative_quotient = signed && self.is_negative() != divisor.is_negative();
        let negative_remainder = signed && self.is_negative();
        match remainder {
            true if negative_remainder => r.negated(),
            true => r,
            false if negative_quotient => q.negated(),
            false => q,
        }
    }
}

/// The shift amount `amount` (read as signed when `signed`, `width` bits)
/// if it is in `0..limit`.
pub fn shift_amount(amount: &Wide, signed: bool, limit: u32) -> Option<u32> {
    if signed && amount.is_negative() {
        return None;
    }
    let in_range = amount.limbs.iter().skip(1).all(|&l| l == 0) && amount.limbs[0] < u64::from(limit);
    in_range.then_some(amount.limbs[0] as u32)
}

/// A binary operator on two `width`-bit operands of one signedness (a
/// shift's amount comes in as `amount`, already checked); `None` for
/// operators that are not integer arithmetic.
pub fn wide_binary(op: BinOp, a: &Wide, b: &Wide, signed: bool, amount: Option<u32>) -> Option<Wide> {
    Some(match op {
        BinOp::Add => a.add(b),
        BinOp::Sub => a.sub(b),
        BinOp::Mul => a.mul(b),
        BinOp::Div => a.div_rem(b, signed, false),
        BinOp::Rem => a.div_rem(b, signed, true),
        BinOp::BitAnd => a.map2(b, |x, y| x & y),
        BinOp::BitOr => a.map2(b, |x, y| x | y),
        BinOp::BitXor => a.map2(b, |x, y| x ^ y),
        BinOp::Shl => amount.map_or_else(|| Wide::zero(a.width), |s| a.shl(s)),
        BinOp::Shr => match amount {
            Some(s) => a.shr(s, signed),
            None if signed && a.is_negative() => Wide::zero(a.width).complement(),
            None => Wide::zero(a.width),
        },
        _ => return None,
    })
}

/// A comparison of two operands of one width and signedness.
pub fn wide_compare(op: BinOp, a: &Wide, b: &Wide, signed: bool) -> Option<bool> {
    let ordering = if signed { a.scmp(b) } else { a.ucmp(b) };
    super::value::compare_result(op, Some(ordering))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(value: i128, width: u32) -> Wide {
        Wide::from_u128(value as u128, 128, true, width)
    }

    #[test]
    fn arithmetic_wraps_at_the_width_and_matches_i128_where_it_fits() {
        let samples = [0i128, 1, -1, 7, -7, 1 << 62, -(1 << 63), i64::MAX as i128, 123_456_789_012_345];
        for &x in &samples {
            for &y in &samples {
                let (a, b) = (int(x, 200), int(y, 200));
                assert_eq!(wide_binary(BinOp::Add, &a, &b, true, None), Some(int(x + y, 200)));
                assert_eq!(wide_binary(BinOp::Sub, &a, &b, true, None), Some(int(x - y, 200)));
                assert_eq!(wide_binary(BinOp::Mul, &a, &b, true, None), Some(int(x * y, 200)));
                if y != 0 {
                    assert_eq!(wide_binary(BinOp::Div, &a, &b, true, None), Some(int(x / y, 200)), "{x} / {y}");
                    assert_eq!(wide_binary(BinOp::Rem, &a, &b, true, None), Some(int(x % y, 200)), "{x} % {y}");
                }
                assert_eq!(wide_compare(BinOp::Lt, &a, &b, true), Some(x < y));
            }
        }
        // 2^199 * 2 wraps to 0; the unsigned maximum plus one is 0.
        let top = int(1, 200).shl(199);
        assert!(wide_binary(BinOp::Mul, &top, &int(2, 200), false, None).unwrap().is_zero());
        let max = int(-1, 200);
        assert!(wide_binary(BinOp::Add, &max, &int(1, 200), false, None).unwrap().is_zero());
        assert_eq!(wide_compare(BinOp::Gt, &max, &int(1, 200), false), Some(true));
        assert_eq!(wide_compare(BinOp::Gt, &max, &int(1, 200), true), Some(false));
    }

    #[test]
    fn division_by_zero_and_shifts_follow_the_total_semantics() {
        let x = int(-9, 300);
        let zero = int(0, 300);
        assert!(wide_binary(BinOp::Div, &x, &zero, true, None).unwrap().is_zero());
        assert_eq!(wide_binary(BinOp::Rem, &x, &zero, true, None), Some(x.clone()));
        assert_eq!(wide_binary(BinOp::Shr, &x, &zero, true, Some(1)), Some(int(-5, 300)));
        assert_eq!(wide_binary(BinOp::Shr, &x, &zero, true, None), Some(int(-1, 300)));
        assert!(wide_binary(BinOp::Shl, &x, &zero, true, None).unwrap().is_zero());
        let shifted = wide_binary(BinOp::Shl, &int(3, 300), &zero, false, Some(250)).unwrap();
        assert_eq!(wide_binary(BinOp::Shr, &shifted, &zero, false, Some(250)), Some(int(3, 300)));
        assert_eq!(shift_amount(&int(299, 300), false, 300), Some(299));
        assert_eq!(shift_amount(&int(300, 300), false, 300), None);
        assert_eq!(shift_amount(&int(-1, 300), true, 300), None);
    }

    #[test]
    fn indexes_saturate_beyond_i128() {
        assert_eq!(int(-7, 300).to_i128_saturating(true), -7);
        assert_eq!(int(-7, 300).to_i128_saturating(false), i128::MAX);
        assert_eq!(int(1, 300).shl(200).to_i128_saturating(true), i128::MAX);
        assert_eq!(int(1, 300).shl(127).to_i128_saturating(false), i128::MAX);
        assert_eq!(int(-1, 300).shl(200).to_i128_saturating(true), i128::MIN);
    }

    #[test]
    fn integer_parts_convert_when_they_fit() {
        assert_eq!(Wide::from_integer_parts(true, 3, 0, 1000, true), Some(int(-3, 1000)));
        let top = Wide::from_integer_parts(true, 1, 199, 200, true).unwrap();
        assert_eq!(top, int(1, 200).shl(199));
        assert_eq!(Wide::from_integer_parts(false, 1, 199, 200, true), None);
        assert_eq!(Wide::from_integer_parts(false, 1, 199, 200, false), Some(top));
        assert_eq!(Wide::from_integer_parts(true, 1, 0, 200, false), None);
        assert_eq!(Wide::from_integer_parts(false, 5, 300, 200, false), None);
    }

    #[test]
    fn conversions_extend_by_sign_and_bytes_round_trip() {
        let minus_two = Wide::from_u128(0xfe, 8, true, 1000);
        assert_eq!(minus_two, int(-2, 1000));
        assert_eq!(Wide::from_u128(0xfe, 8, false, 1000), int(254, 1000));
        assert_eq!(minus_two.resize(64, true).low_u128(), u128::from(u64::MAX - 1));
        let bytes = minus_two.to_le_bytes(128);
        assert_eq!(bytes.len(), 128);
        assert_eq!(bytes[0], 0xfe);
        assert_eq!(bytes[124], 0xff);
        // Bits 1000..1024 lie beyond the width.
        assert_eq!(bytes[125], 0);
        assert_eq!(Wide::from_le_bytes(&bytes, 1000), minus_two);
        assert_eq!(minus_two.negated(), int(2, 1000));
        assert_eq!(minus_two.complement(), int(1, 1000));
    }
}
