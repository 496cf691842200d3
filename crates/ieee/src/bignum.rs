//! A small arbitrary-precision unsigned integer (`BigUint`): just what exact
//! IEEE arithmetic and decimal conversion need (shifts with sticky bits,
//! add, sub, mul, long division, integer square root, decimal digits).

use std::cmp::Ordering;

/// Little-endian 64-bit limbs with no high zero limbs (zero is empty).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BigUint {
    limbs: Vec<u64>,
}

/// The outcome of a right shift: the kept part, the first bit shifted out
/// (the round bit) and whether any later bit shifted out was set (sticky).
pub struct ShiftedOut {
    pub kept: BigUint,
    pub round: bool,
    pub sticky: bool,
}

impl BigUint {
    pub fn zero() -> BigUint {
        BigUint { limbs: Vec::new() }
    }

    pub fn from_u128(value: u128) -> BigUint {
        let mut n = BigUint { limbs: vec![value as u64, (value >> 64) as u64] };
        n.normalize();
        n
    }

    /// The value, if it fits in 128 bits.
    pub fn to_u128(&self) -> Option<u128> {
        match self.limbs.len() {
            0 => Some(0),
            1 => Some(self.limbs[0] as u128),
            2 => Some(self.limbs[0] as u128 | (self.limbs[1] as u128) << 64),
            _ => None,
        }
    }

    fn normalize(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// Number of significant bits (0 for zero).
    pub fn bit_len(&self) -> u64 {
        match self.limbs.last() {
            None => 0,
            Some(top) => self.limbs.len() as u64 * 64 - top.leading_zeros() as u64,
        }
    }

    pub fn bit(&self, index: u64) -> bool {
        let limb = (index / 64) as usize;
        limb < self.limbs.len() && (self.limbs[limb] >> (index % 64)) & 1 == 1
    }

    /// Whether any of the bits below `index` is set.
    fn any_bit_below(&self, index: u64) -> bool {
        let whole = ((index / 64) as usize).min(self.limbs.len());
        if self.limbs[..whole].iter().any(|&l| l != 0) {
            return true;
        }
        let part = index % 64;
        whole < self.limbs.len() && part > 0 && self.limbs[whole] & ((1u64 << part) - 1) != 0
    }

    pub fn shl(&self, bits: u64) -> BigUint {
        if self.is_zero() {
            return BigUint::zero();
        }
        let (whole, part) = ((bits / 64) as usize, (bits % 64) as u32);
        let mut limbs = vec![0u64; whole];
        limbs.reserve(self.limbs.len() + 1);
        if part == 0 {
            limbs.extend_from_slice(&self.limbs);
        } else {
            let mut carry = 0u64;
            for &l in &self.limbs {
                limbs.push(l << part | carry);
                carry = l >> (64 - part);
            }
            limbs.push(carry);
        }
        let mut n = BigUint { limbs };
        n.normalize();
        n
    }

    /// `self >> bits`, discarding the shifted-out bits.
    pub fn shr(&self, bits: u64) -> BigUint {
        let (whole, part) = ((bits / 64) as usize, (bits % 64) as u32);
        if whole >= self.limbs.len() {
            return BigUint::zero();
        }
        let src = &self.limbs[whole..];
        let limbs = if part == 0 {
            src.to_vec()
        } else {
            (0..src.len())
                .map(|i| src[i] >> part | src.get(i + 1).map_or(0, |&h| h << (64 - part)))
                .collect()
        };
        let mut n = BigUint { limbs };
        n.normalize();
        n
    }

    /// `self >> bits` (bits >= 1) with the round and sticky bits of the
    /// discarded part.
    pub fn shr_round(&self, bits: u64) -> ShiftedOut {
        debug_assert!(bits >= 1);
        ShiftedOut {
            kept: self.shr(bits),
            round: self.bit(bits - 1),
            sticky: !self.is_zero() && self.any_bit_below(bits - 1),
        }
    }

    pub fn add(&self, other: &BigUint) -> BigUint {
        let (long, short) = if self.limbs.len() >= other.limbs.len() { (self, other) } else { (other, self) };
        let mut limbs = Vec::with_capacity(long.limbs.len() + 1);
        let mut carry = false;
        for (i, &l) in long.limbs.iter().enumerate() {
            let (s1, c1) = l.overflowing_add(short.limbs.get(i).copied().unwrap_or(0));
            let (s2, c2) = s1.overflowing_add(carry as u64);
            limbs.push(s2);
            carry = c1 || c2;
        }
        if carry {
            limbs.push(1);
        }
        BigUint { limbs }
    }

    /// `self - other`; the caller guarantees `self >= other`.
    pub fn sub(&self, other: &BigUint) -> BigUint {
        debug_assert!(self.cmp(other) != Ordering::Less);
        let mut limbs = Vec::with_capacity(self.limbs.len());
        let mut borrow = false;
        for (i, &l) in self.limbs.iter().enumerate() {
            let (d1, b1) = l.overflowing_sub(other.limbs.get(i).copied().unwrap_or(0));
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            limbs.push(d2);
            borrow = b1 || b2;
        }
        let mut n = BigUint { limbs };
        n.normalize();
        n
    }

    pub fn mul(&self, other: &BigUint) -> BigUint {
        if self.is_zero() || other.is_zero() {
            return BigUint::zero();
        }
        let mut limbs = vec![0u64; self.limbs.len() + other.limbs.len()];
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &b) in other.limbs.iter().enumerate() {
                let t = a as u128 * b as u128 + limbs[i + j] as u128 + carry;
                limbs[i + j] = t as u64;
                carry = t >> 64;
            }
            limbs[i + other.limbs.len()] = carry as u64;
        }
        let mut n = BigUint { limbs };
        n.normalize();
        n
    }

    /// `self * factor + addend` for small operands (decimal digit input).
    pub fn mul_add_small(&self, factor: u64, addend: u64) -> BigUint {
        let mut limbs = Vec::with_capacity(self.limbs.len() + 1);
        let mut carry = addend as u128;
        for &l in &self.limbs {
            let t = l as u128 * factor as u128 + carry;
            limbs.push(t as u64);
            carry = t >> 64;
        }
        limbs.push(carry as u64);
        let mut n = BigUint { limbs };
        n.normalize();
        n
    }

    /// Quotient and remainder by a nonzero single limb.
    fn divrem_small(&self, divisor: u64) -> (BigUint, u64) {
        let mut limbs = vec![0u64; self.limbs.len()];
        let mut rem = 0u128;
        for i in (0..self.limbs.len()).rev() {
            let cur = rem << 64 | self.limbs[i] as u128;
            limbs[i] = (cur / divisor as u128) as u64;
            rem = cur % divisor as u128;
        }
        let mut n = BigUint { limbs };
        n.normalize();
        (n, rem as u64)
    }

    /// Quotient and remainder; `divisor` must be nonzero.
    pub fn divrem(&self, divisor: &BigUint) -> (BigUint, BigUint) {
        assert!(!divisor.is_zero(), "BigUint division by zero");
        if self.cmp(divisor) == Ordering::Less {
            return (BigUint::zero(), self.clone());
        }
        if divisor.limbs.len() == 1 {
            let (q, r) = self.divrem_small(divisor.limbs[0]);
            return (q, BigUint::from_u128(r as u128));
        }
        self.divrem_long(divisor)
    }

    /// Schoolbook long division on 64-bit digits with a normalized divisor
    /// (top bit set), estimating each quotient digit from the top two
    /// dividend digits and correcting it at most twice.
    fn divrem_long(&self, divisor: &BigUint) -> (BigUint, BigUint) {
        let shift = divisor.limbs.last().unwrap().leading_zeros() as u64;
        let v = divisor.shl(shift).limbs;
        let mut u = self.shl(shift).limbs;
        u.resize(self.limbs.len() + 1, 0);
        let n = v.len();
        let m = u.len() - n - 1;
        let mut q = vec![0u64; m + 1];
        let (v_top, v_next) = (v[n - 1] as u128, v[n - 2] as u128);
        for j in (0..=m).rev() {
            let num = (u[j + n] as u128) << 64 | u[j + n - 1] as u128;
            let mut qhat = num / v_top;
            let mut rhat = num % v_top;
            while qhat >> 64 != 0 || qhat * v_next > (rhat << 64 | u[j + n - 2] as u128) {
                qhat -= 1;
                rhat += v_top;
                if rhat >> 64 != 0 {
                    break;
                }
            }
            if subtract_multiple(&mut u[j..=j + n], &v, qhat) {
                qhat -= 1;
                add_back(&mut u[j..=j + n], &v);
            }
            q[j] = qhat as u64;
        }
        u.truncate(n);
        let mut rem = BigUint { limbs: u };
        rem.normalize();
        let mut quot = BigUint { limbs: q };
        quot.normalize();
        (quot, rem.shr(shift))
    }

    /// Floor of the square root (Newton's iteration from above).
    pub fn isqrt(&self) -> BigUint {
        if let Some(small) = self.to_u128() {
            return BigUint::from_u128(isqrt_u128(small));
        }
        let mut x = BigUint::from_u128(1).shl(self.bit_len().div_ceil(2));
        loop {
            let y = x.add(&self.divrem(&x).0).shr(1);
            if y.cmp(&x) != Ordering::Less {
                return x;
            }
            x = y;
        }
    }

    /// `base^exp` by repeated squaring.
    pub fn pow(base: u64, mut exp: u64) -> BigUint {
        let mut result = BigUint::from_u128(1);
        let mut square = BigUint::from_u128(base as u128);
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

    /// Decimal digits, most significant first ("0" for zero).
    pub fn to_decimal(&self) -> String {
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut chunks = Vec::new();
        let mut rest = self.clone();
        while !rest.is_zero() {
            let (q, r) = rest.divrem_small(CHUNK);
            chunks.push(r);
            rest = q;
        }
        let mut text = chunks.pop().map_or_else(|| "0".to_string(), |top| top.to_string());
        for chunk in chunks.iter().rev() {
            text.push_str(&format!("{chunk:019}"));
        }
        text
    }
}

/// Floor of the square root of a `u128` (Newton's iteration from above,
/// without allocation: the binary32/binary64 square roots fit here).
fn isqrt_u128(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    let mut x = 1u128 << (128 - n.leading_zeros()).div_ceil(2);
    loop {
        let y = (x + n / x) >> 1;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// `window -= qhat * v`; returns true if the result went negative (the
/// estimate was one too large), leaving the two's complement in `window`.
fn subtract_multiple(window: &mut [u64], v: &[u64], qhat: u128) -> bool {
    let mut carry = 0u128;
    let mut borrow = 0i128;
    for (i, &vi) in v.iter().enumerate() {
        let product = qhat * vi as u128 + carry;
        carry = product >> 64;
        let t = window[i] as i128 - (product as u64) as i128 + borrow;
        window[i] = t as u64;
        borrow = t >> 64;
    }
    let last = v.len();
    let t = window[last] as i128 - carry as i128 + borrow;
    window[last] = t as u64;
    t < 0
}

fn add_back(window: &mut [u64], v: &[u64]) {
    let mut carry = 0u128;
    for (i, &vi) in v.iter().enumerate() {
        let s = window[i] as u128 + vi as u128 + carry;
        window[i] = s as u64;
        carry = s >> 64;
    }
    let last = v.len();
    window[last] = window[last].wrapping_add(carry as u64);
}

impl Ord for BigUint {
    fn cmp(&self, other: &BigUint) -> Ordering {
        self.limbs.len().cmp(&other.limbs.len()).then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &BigUint) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(v: u128) -> BigUint {
        BigUint::from_u128(v)
    }

    /// A deterministic pseudo-random sequence (xorshift) for operand sampling.
    fn samples() -> impl Iterator<Item = u128> {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        std::iter::repeat_with(move || {
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let bits = (next() as u128) << 64 | next() as u128;
            bits >> (next() % 128)
        })
    }

    #[test]
    fn arithmetic_matches_u128_on_small_values() {
        let values: Vec<u128> = samples().take(300).collect();
        for pair in values.windows(2) {
            let (a, b) = (pair[0] >> 1, pair[1] >> 1);
            assert_eq!(big(a).add(&big(b)).to_u128(), Some(a + b));
            let (hi, lo) = (a.max(b), a.min(b));
            assert_eq!(big(hi).sub(&big(lo)).to_u128(), Some(hi - lo));
            if b != 0 {
                let (q, r) = big(a).divrem(&big(b));
                assert_eq!((q.to_u128(), r.to_u128()), (Some(a / b), Some(a % b)), "{a} / {b}");
            }
            assert_eq!(big(a as u64 as u128).mul(&big(b as u64 as u128)).to_u128(), Some((a as u64 as u128) * (b as u64 as u128)));
        }
    }

    #[test]
    fn long_division_reconstructs_the_dividend() {
        let values: Vec<u128> = samples().take(400).collect();
        for chunk in values.chunks(4) {
            let a = big(chunk[0]).mul(&big(chunk[1])).mul(&big(chunk[2] | 1)).shl(chunk[3] as u64 % 200);
            let b = big(chunk[1] | 1).mul(&big(chunk[3] | 1)).add(&big(chunk[2]));
            let (q, r) = a.divrem(&b);
            assert!(r < b);
            assert_eq!(q.mul(&b).add(&r), a);
        }
    }

    #[test]
    fn shifts_report_round_and_sticky_bits() {
        let n = big(0b1011_0100);
        let out = n.shr_round(3);
        assert_eq!((out.kept.to_u128(), out.round, out.sticky), (Some(0b10110), true, false));
        let out = n.shr_round(4);
        assert_eq!((out.kept.to_u128(), out.round, out.sticky), (Some(0b1011), false, true));
        let out = n.shr_round(300);
        assert_eq!((out.kept.is_zero(), out.round, out.sticky), (true, false, true));
        assert_eq!(n.shl(130).shr(130), n);
        assert_eq!(n.shl(130).bit_len(), 138);
    }

    #[test]
    fn square_roots_are_floors() {
        let wide = [big(u128::MAX).mul(&big(u128::MAX)), big(u128::MAX).add(&big(1)), big(1).shl(255)];
        for v in wide {
            let s = v.isqrt();
            assert!(s.mul(&s) <= v);
            let s1 = s.add(&big(1));
            assert!(s1.mul(&s1) > v);
        }
        assert_eq!(big(u128::MAX).isqrt().to_u128(), Some(u64::MAX as u128));
        for v in samples().take(300) {
            let s = big(v).isqrt();
            assert!(s.mul(&s) <= big(v));
            let s1 = s.add(&big(1));
            assert!(s1.mul(&s1) > big(v));
        }
    }

    #[test]
    fn decimal_digits_and_powers() {
        assert_eq!(BigUint::zero().to_decimal(), "0");
        assert_eq!(big(u128::MAX).to_decimal(), u128::MAX.to_string());
        assert_eq!(BigUint::pow(10, 40).to_decimal(), format!("1{}", "0".repeat(40)));
        assert_eq!(BigUint::zero().mul_add_small(10, 7).mul_add_small(10, 3).to_u128(), Some(73));
    }
}
