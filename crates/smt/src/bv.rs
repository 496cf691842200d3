//! Arbitrary-width bit-vector values with exact SMT-LIB arithmetic.
//!
//! [`BvValue`] is the constant domain of the `BitVec(w)` sort: folding in the
//! rewriter, the evaluator and every test oracle compute with it. Bits are
//! stored little-endian in `u64` words; bits above `width` are always zero
//! (every constructor and operation re-establishes that invariant), so derived
//! equality and hashing are structural.
//!
//! Division by zero follows SMT-LIB: `bvudiv x 0 = ~0`, `bvurem x 0 = x`,
//! `bvsdiv x 0 = (x < 0 ? 1 : ~0)`, `bvsrem x 0 = x`, `bvsmod x 0 = x`.

use std::cmp::Ordering;
use std::fmt;

/// A bit-vector constant of any width ≥ 1.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BvValue {
    width: u32,
    words: Vec<u64>,
}

fn word_count(width: u32) -> usize {
    (width as usize).div_ceil(64)
}

impl BvValue {
    /// The all-zero value of `width` bits. Panics if `width == 0` (a sort
    /// error the caller must have rejected).
    pub fn zero(width: u32) -> BvValue {
        assert!(width > 0, "bit-vector width must be at least 1");
        BvValue {
            width,
            words: vec![0; word_count(width)],
        }
    }

    /// The all-ones value of `width` bits.
    pub fn ones(width: u32) -> BvValue {
        let mut v = BvValue {
            width,
            words: vec![u64::MAX; word_count(width)],
        };
        v.clear_unused_bits();
        v
    }

    /// The value 1 of `width` bits.
    pub fn one(width: u32) -> BvValue {
        BvValue::from_u64(width, 1)
    }

    /// `value` truncated to `width` bits.
    pub fn from_u64(width: u32, value: u64) -> BvValue {
        let mut v = BvValue::zero(width);
        v.words[0] = value;
        v.clear_unused_bits();
        v
    }

    /// `value` truncated to `width` bits.
    pub fn from_u128(width: u32, value: u128) -> BvValue {
        let mut v = BvValue::zero(width);
        v.words[0] = value as u64;
        if v.words.len() > 1 {
            v.words[1] = (value >> 64) as u64;
        }
        v.clear_unused_bits();
        v
    }

    /// `value` in two's complement, sign-extended or truncated to `width`.
    pub fn from_i128(width: u32, value: i128) -> BvValue {
        let fill = if value < 0 { u64::MAX } else { 0 };
        let mut v = BvValue {
            width,
            words: vec![fill; word_count(width).max(2)],
        };
        v.words[0] = value as u64;
        v.words[1] = (value >> 64) as u64;
        v.words.truncate(word_count(width));
        v.clear_unused_bits();
        v
    }

    /// Little-endian words; bits beyond `width` are ignored.
    pub fn from_words(width: u32, words: &[u64]) -> BvValue {
        let mut v = BvValue::zero(width);
        for (dst, src) in v.words.iter_mut().zip(words) {
            *dst = *src;
        }
        v.clear_unused_bits();
        v
    }

    /// Bits given least significant first; the width is `bits.len()`.
    pub fn from_bits_lsb_first(bits: &[bool]) -> BvValue {
        let mut v = BvValue::zero(bits.len() as u32);
        for (i, &b) in bits.iter().enumerate() {
            v.set_bit(i as u32, b);
        }
        v
    }

    /// The signed minimum `100…0`.
    pub fn signed_min(width: u32) -> BvValue {
        let mut v = BvValue::zero(width);
        v.set_bit(width - 1, true);
        v
    }

    /// The signed maximum `011…1`.
    pub fn signed_max(width: u32) -> BvValue {
        let mut v = BvValue::ones(width);
        v.set_bit(width - 1, false);
        v
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    /// Little-endian words; bits above `width` are zero.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub fn bit(&self, index: u32) -> bool {
        debug_assert!(index < self.width);
        (self.words[(index / 64) as usize] >> (index % 64)) & 1 == 1
    }

    pub fn set_bit(&mut self, index: u32, value: bool) {
        assert!(
            index < self.width,
            "bit index {index} out of width {}",
            self.width
        );
        let word = &mut self.words[(index / 64) as usize];
        let mask = 1u64 << (index % 64);
        if value {
            *word |= mask;
        } else {
            *word &= !mask;
        }
    }

    /// The most significant bit (the sign in two's complement).
    pub fn msb(&self) -> bool {
        self.bit(self.width - 1)
    }

    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn is_one(&self) -> bool {
        self.words[0] == 1 && self.words[1..].iter().all(|&w| w == 0)
    }

    pub fn is_ones(&self) -> bool {
        *self == BvValue::ones(self.width)
    }

    /// The unsigned value if it fits in 64 bits.
    pub fn to_u64(&self) -> Option<u64> {
        self.words[1..]
            .iter()
            .all(|&w| w == 0)
            .then_some(self.words[0])
    }

    /// The unsigned value if it fits in 128 bits.
    pub fn to_u128(&self) -> Option<u128> {
        if self.words.len() > 2 && self.words[2..].iter().any(|&w| w != 0) {
            return None;
        }
        let high = self.words.get(1).copied().unwrap_or(0) as u128;
        Some(high << 64 | self.words[0] as u128)
    }

    /// The two's-complement value if it fits in 128 bits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.width <= 128 {
            let extended = self.sign_extend(128 - self.width);
            return extended.to_u128().map(|u| u as i128);
        }
        let narrow = self.extract(127, 0);
        (narrow.sign_extend(self.width - 128) == *self).then(|| narrow.to_u128().unwrap() as i128)
    }

    /// Number of significant bits (position of the highest one bit + 1).
    pub fn significant_bits(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate().rev() {
            if w != 0 {
                return i as u32 * 64 + (64 - w.leading_zeros());
            }
        }
        0
    }

    /// `k` when the value is `2^k`.
    pub fn exact_log2(&self) -> Option<u32> {
        let k = self.significant_bits().checked_sub(1)?;
        (*self == BvValue::one(self.width).shl_by(k)).then_some(k)
    }

    fn clear_unused_bits(&mut self) {
        let used = self.width % 64;
        if used != 0 {
            let last = self.words.len() - 1;
            self.words[last] &= (1u64 << used) - 1;
        }
    }

    fn zip_words(&self, other: &BvValue, f: impl Fn(u64, u64) -> u64) -> BvValue {
        assert_eq!(self.width, other.width, "bit-vector width mismatch");
        let words = self
            .words
            .iter()
            .zip(&other.words)
            .map(|(&a, &b)| f(a, b))
            .collect();
        let mut v = BvValue {
            width: self.width,
            words,
        };
        v.clear_unused_bits();
        v
    }

    pub fn not(&self) -> BvValue {
        let mut v = BvValue {
            width: self.width,
            words: self.words.iter().map(|w| !w).collect(),
        };
        v.clear_unused_bits();
        v
    }

    pub fn and(&self, other: &BvValue) -> BvValue {
        self.zip_words(other, |a, b| a & b)
    }

    pub fn or(&self, other: &BvValue) -> BvValue {
        self.zip_words(other, |a, b| a | b)
    }

    pub fn xor(&self, other: &BvValue) -> BvValue {
        self.zip_words(other, |a, b| a ^ b)
    }

    /// Sum and whether it carried out of the top word (meaningful for the
    /// unsigned-overflow test only through [`BvValue::uadd_overflows`]).
    fn add_words(&self, other: &BvValue, carry_in: bool) -> BvValue {
        assert_eq!(self.width, other.width, "bit-vector width mismatch");
        let mut carry = carry_in as u64;
        let words = self
            .words
            .iter()
            .zip(&other.words)
            .map(|(&a, &b)| {
                let (s1, c1) = a.overflowing_add(b);
                let (s2, c2) = s1.overflowing_add(carry);
                carry = (c1 | c2) as u64;
                s2
            })
            .collect();
        let mut v = BvValue {
            width: self.width,
            words,
        };
        v.clear_unused_bits();
        v
    }

    pub fn add(&self, other: &BvValue) -> BvValue {
        self.add_words(other, false)
    }

    pub fn sub(&self, other: &BvValue) -> BvValue {
        self.add_words(&other.not(), true)
    }

    pub fn neg(&self) -> BvValue {
        BvValue::zero(self.width).sub(self)
    }

    pub fn mul(&self, other: &BvValue) -> BvValue {
        assert_eq!(self.width, other.width, "bit-vector width mismatch");
        let n = self.words.len();
        let mut acc = vec![0u64; n];
        for (i, &a) in self.words.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &b) in other.words[..n - i].iter().enumerate() {
                let t = a as u128 * b as u128 + acc[i + j] as u128 + carry;
                acc[i + j] = t as u64;
                carry = t >> 64;
            }
        }
        let mut v = BvValue {
            width: self.width,
            words: acc,
        };
        v.clear_unused_bits();
        v
    }

    /// Unsigned quotient and remainder by shift-and-subtract; `divisor` ≠ 0.
    fn udivrem_nonzero(&self, divisor: &BvValue) -> (BvValue, BvValue) {
        if let (Some(a), Some(b)) = (self.to_u128(), divisor.to_u128()) {
            return (
                BvValue::from_u128(self.width, a / b),
                BvValue::from_u128(self.width, a % b),
            );
        }
        let mut quotient = BvValue::zero(self.width);
        let mut remainder = BvValue::zero(self.width);
        for i in (0..self.significant_bits()).rev() {
            let top_out = remainder.msb();
            remainder = remainder.shl_by(1);
            remainder.set_bit(0, self.bit(i));
            if top_out || remainder.uge(divisor) {
                remainder = remainder.sub(divisor);
                quotient.set_bit(i, true);
            }
        }
        (quotient, remainder)
    }

    pub fn udiv(&self, other: &BvValue) -> BvValue {
        if other.is_zero() {
            return BvValue::ones(self.width);
        }
        self.udivrem_nonzero(other).0
    }

    pub fn urem(&self, other: &BvValue) -> BvValue {
        if other.is_zero() {
            return self.clone();
        }
        self.udivrem_nonzero(other).1
    }

    fn abs(&self) -> BvValue {
        if self.msb() {
            self.neg()
        } else {
            self.clone()
        }
    }

    pub fn sdiv(&self, other: &BvValue) -> BvValue {
        let quotient = self.abs().udiv(&other.abs());
        if self.msb() != other.msb() {
            quotient.neg()
        } else {
            quotient
        }
    }

    pub fn srem(&self, other: &BvValue) -> BvValue {
        let remainder = self.abs().urem(&other.abs());
        if self.msb() {
            remainder.neg()
        } else {
            remainder
        }
    }

    /// Remainder with the sign of the divisor (SMT-LIB `bvsmod`).
    pub fn smod(&self, other: &BvValue) -> BvValue {
        let remainder = self.abs().urem(&other.abs());
        if remainder.is_zero() || other.is_zero() {
            return if other.is_zero() {
                self.clone()
            } else {
                remainder
            };
        }
        match (self.msb(), other.msb()) {
            (false, false) => remainder,
            (true, false) => other.sub(&remainder),
            (false, true) => remainder.add(other),
            (true, true) => remainder.neg(),
        }
    }

    /// The shift amount as a `u32` bit count, saturated at `width`.
    fn shift_amount(&self, amount: &BvValue) -> u32 {
        match amount.to_u64() {
            Some(a) if a < self.width as u64 => a as u32,
            _ => self.width,
        }
    }

    /// Shift left by a constant bit count (≥ width gives zero).
    pub fn shl_by(&self, amount: u32) -> BvValue {
        if amount >= self.width {
            return BvValue::zero(self.width);
        }
        let (word_shift, bit_shift) = ((amount / 64) as usize, amount % 64);
        let mut words = vec![0u64; self.words.len()];
        for (src, word) in words.iter_mut().skip(word_shift).enumerate() {
            *word = self.words[src] << bit_shift;
            if bit_shift > 0 && src > 0 {
                *word |= self.words[src - 1] >> (64 - bit_shift);
            }
        }
        let mut v = BvValue {
            width: self.width,
            words,
        };
        v.clear_unused_bits();
        v
    }

    /// Shift right by a constant bit count, filling with `fill` bits.
    fn shr_by(&self, amount: u32, fill: bool) -> BvValue {
        if amount >= self.width {
            return if fill {
                BvValue::ones(self.width)
            } else {
                BvValue::zero(self.width)
            };
        }
        let (word_shift, bit_shift) = ((amount / 64) as usize, amount % 64);
        let n = self.words.len();
        let mut words = vec![0u64; n];
        for (i, word) in words.iter_mut().enumerate().take(n - word_shift) {
            let src = i + word_shift;
            *word = self.words[src] >> bit_shift;
            if bit_shift > 0 && src + 1 < n {
                *word |= self.words[src + 1] << (64 - bit_shift);
            }
        }
        let mut v = BvValue {
            width: self.width,
            words,
        };
        if fill {
            v = v.or(&BvValue::ones(self.width).shl_by(self.width - amount));
        }
        v
    }

    pub fn shl(&self, amount: &BvValue) -> BvValue {
        self.shl_by(self.shift_amount(amount))
    }

    pub fn lshr(&self, amount: &BvValue) -> BvValue {
        self.shr_by(self.shift_amount(amount), false)
    }

    pub fn ashr(&self, amount: &BvValue) -> BvValue {
        self.shr_by(self.shift_amount(amount), self.msb())
    }

    pub fn rotate_left(&self, amount: u32) -> BvValue {
        let k = amount % self.width;
        if k == 0 {
            return self.clone();
        }
        self.shl_by(k).or(&self.shr_by(self.width - k, false))
    }

    pub fn rotate_right(&self, amount: u32) -> BvValue {
        let k = amount % self.width;
        self.rotate_left(self.width - k)
    }

    /// `self` is the high part: result width is the sum of widths.
    pub fn concat(&self, low: &BvValue) -> BvValue {
        let width = self.width + low.width;
        let high = BvValue::from_words(width, &self.words).shl_by(low.width);
        high.or(&low.zero_extend(self.width))
    }

    /// Bits `hi..=lo`; requires `lo <= hi < width`.
    pub fn extract(&self, hi: u32, lo: u32) -> BvValue {
        assert!(
            lo <= hi && hi < self.width,
            "extract [{hi}:{lo}] of width {}",
            self.width
        );
        let shifted = self.shr_by(lo, false);
        BvValue::from_words(hi - lo + 1, &shifted.words)
    }

    pub fn zero_extend(&self, extra: u32) -> BvValue {
        BvValue::from_words(self.width + extra, &self.words)
    }

    pub fn sign_extend(&self, extra: u32) -> BvValue {
        let v = self.zero_extend(extra);
        if !self.msb() || extra == 0 {
            return v;
        }
        v.or(&BvValue::ones(self.width + extra).shl_by(self.width))
    }

    /// Unsigned comparison.
    pub fn ucmp(&self, other: &BvValue) -> Ordering {
        assert_eq!(self.width, other.width, "bit-vector width mismatch");
        self.words.iter().rev().cmp(other.words.iter().rev())
    }

    /// Two's-complement comparison.
    pub fn scmp(&self, other: &BvValue) -> Ordering {
        match (self.msb(), other.msb()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.ucmp(other),
        }
    }

    pub fn ult(&self, other: &BvValue) -> bool {
        self.ucmp(other) == Ordering::Less
    }

    pub fn uge(&self, other: &BvValue) -> bool {
        self.ucmp(other) != Ordering::Less
    }

    pub fn slt(&self, other: &BvValue) -> bool {
        self.scmp(other) == Ordering::Less
    }

    /// The unbounded sum `self + other` needs more than `width` bits.
    pub fn uadd_overflows(&self, other: &BvValue) -> bool {
        self.add(other).ult(self)
    }

    /// The signed sum lies outside `[-2^(w-1), 2^(w-1) - 1]`.
    pub fn sadd_overflows(&self, other: &BvValue) -> bool {
        self.msb() == other.msb() && self.add(other).msb() != self.msb()
    }

    /// `self - other` is negative as an unbounded integer (`self < other`).
    pub fn usub_overflows(&self, other: &BvValue) -> bool {
        self.ult(other)
    }

    /// The signed difference lies outside the signed range.
    pub fn ssub_overflows(&self, other: &BvValue) -> bool {
        self.msb() != other.msb() && self.sub(other).msb() != self.msb()
    }

    /// The unbounded unsigned product needs more than `width` bits.
    pub fn umul_overflows(&self, other: &BvValue) -> bool {
        let w = self.width;
        let wide = self.zero_extend(w).mul(&other.zero_extend(w));
        wide.significant_bits() > w
    }

    /// The signed product lies outside the signed range.
    pub fn smul_overflows(&self, other: &BvValue) -> bool {
        let w = self.width;
        let wide = self.sign_extend(w).mul(&other.sign_extend(w));
        wide.extract(w - 1, 0).sign_extend(w) != wide
    }

    /// The signed quotient is unrepresentable: `signed_min / -1`.
    pub fn sdiv_overflows(&self, other: &BvValue) -> bool {
        *self == BvValue::signed_min(self.width) && other.is_ones()
    }

    /// SMT-LIB literal: `#b…` (binary, exact width).
    pub fn to_smtlib(&self) -> String {
        let mut s = String::with_capacity(self.width as usize + 2);
        s.push_str("#b");
        for i in (0..self.width).rev() {
            s.push(if self.bit(i) { '1' } else { '0' });
        }
        s
    }
}

impl fmt::Debug for BvValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_u128() {
            Some(v) => write!(f, "{v}:bv{}", self.width),
            None => write!(f, "{}:bv{}", self.to_smtlib(), self.width),
        }
    }
}

impl fmt::Display for BvValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests;
