//! The non-relational value of one integer: an interval of mathematical
//! integers reduced with a congruence. Operations compute the exact
//! mathematical result (bounds saturate at `i128`'s ends, far outside any
//! tracked type); [`Value::fit`] then applies the machine type's
//! wrap-around, soundly: an interval that crosses a wrap boundary becomes
//! the whole type.

use super::congruence::Congruence;
use super::kind::IntKind;

/// Bounds at `i128`'s ends stand for "unbounded".
pub const NEG_INF: i128 = i128::MIN;
pub const POS_INF: i128 = i128::MAX;

/// A non-empty set of integers: `lo..=hi` intersected with `cong`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Value {
    pub lo: i128,
    pub hi: i128,
    pub cong: Congruence,
}

impl Value {
    pub fn constant(value: i128) -> Value {
        Value { lo: value, hi: value, cong: Congruence::constant(value) }
    }
    /// `lo..=hi`, or `None` when empty.
    pub fn range(lo: i128, hi: i128) -> Option<Value> {
        Value::reduced(lo, hi, Congruence::TOP)
    }
    pub fn top(kind: IntKind) -> Value {
        Value { lo: kind.min(), hi: kind.max(), cong: Congruence::TOP }
    }
    pub fn unbounded() -> Value {
        Value { lo: NEG_INF, hi: POS_INF, cong: Congruence::TOP }
    }
    /// The bounds tightened to the congruence; `None` when nothing is left.
    pub fn reduced(lo: i128, hi: i128, cong: Congruence) -> Option<Value> {
        if lo > hi {
            return None;
        }
        if let Some(c) = cong.as_constant() {
            return (lo <= c && c <= hi).then(|| Value::constant(c));
        }
        let (mut lo, mut hi) = (lo, hi);
        if let (Ok(m), false) = (i128::try_from(cong.modulus), cong.is_top()) {
            if lo != NEG_INF {
                lo = lo.saturating_add((cong.residue - lo).rem_euclid(m));
            }
            if hi != POS_INF {
                hi = hi.saturating_sub((hi - cong.residue).rem_euclid(m));
            }
        }
        match lo.cmp(&hi) {
            std::cmp::Ordering::Greater => None,
            std::cmp::Ordering::Equal => Some(Value::constant(lo)),
            std::cmp::Ordering::Less => Some(Value { lo, hi, cong }),
        }
    }
    pub fn as_constant(&self) -> Option<i128> {
        (self.lo == self.hi).then_some(self.lo)
    }
    pub fn contains(&self, value: i128) -> bool {
        self.lo <= value && value <= self.hi && self.cong.contains(value)
    }
    pub fn is_subset(&self, other: &Value) -> bool {
        other.lo <= self.lo && self.hi <= other.hi && other.cong.join(self.cong) == other.cong
    }

    pub fn join(&self, other: &Value) -> Value {
        Value { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi), cong: self.cong.join(other.cong) }
    }
    pub fn meet(&self, other: &Value) -> Option<Value> {
        Value::reduced(self.lo.max(other.lo), self.hi.min(other.hi), self.cong.meet(other.cong)?)
    }
    /// Widening of `self` by the larger `next`: a bound that moved jumps to
    /// the nearest threshold beyond it (`thresholds` is sorted and holds
    /// the type's ends, so the chain is finite).
    pub fn widen(&self, next: &Value, thresholds: &[i128]) -> Value {
        let lo = if next.lo < self.lo {
            thresholds.iter().rev().find(|t| **t <= next.lo).copied().unwrap_or(NEG_INF)
        } else {
            self.lo
        };
        let hi = if next.hi > self.hi {
            thresholds.iter().find(|t| **t >= next.hi).copied().unwrap_or(POS_INF)
        } else {
            self.hi
        };
        let cong = self.cong.join(next.cong);
        Value::reduced(lo, hi, cong).unwrap_or(Value { lo, hi, cong: Congruence::TOP })
    }

    /// The value of this mathematical result in `kind`, and whether it is
    /// unchanged (no wrap-around): an interval inside one wrap window moves
    /// as a whole, anything wider becomes the whole type.
    pub fn fit(&self, kind: IntKind) -> (Value, bool) {
        if kind.contains(self.lo) && kind.contains(self.hi) {
            return (*self, true);
        }
        let width = 1i128 << kind.bits;
        let span = self.hi.checked_sub(self.lo);
        if self.lo != NEG_INF && self.hi != POS_INF && span.is_some_and(|s| s < width) {
            let (lo, hi) = (kind.wrap(self.lo), kind.wrap(self.hi));
            if lo <= hi {
                let shift = self.lo - lo;
                let cong = Congruence::new(self.cong.modulus, self.cong.residue.wrapping_sub(shift));
                if let Some(moved) = Value::reduced(lo, hi, cong) {
                    return (moved, false);
                }
            }
        }
        let cong = self.cong.wrapped(kind.bits);
        (Value::reduced(kind.min(), kind.max(), cong).unwrap_or(Value::top(kind)), false)
    }

    pub fn add(&self, other: &Value) -> Value {
        let lo = sat_add(self.lo, other.lo, NEG_INF);
        let hi = sat_add(self.hi, other.hi, POS_INF);
        Value::reduced(lo, hi, self.cong.plus(other.cong)).unwrap_or(Value::unbounded())
    }
    pub fn neg(&self) -> Value {
        let lo = if self.hi == POS_INF { NEG_INF } else { -self.hi };
        let hi = if self.lo == NEG_INF { POS_INF } else { -self.lo };
        Value::reduced(lo, hi, self.cong.negated()).unwrap_or(Value::unbounded())
    }
    pub fn sub(&self, other: &Value) -> Value {
        self.add(&other.neg())
    }
    pub fn mul(&self, other: &Value) -> Value {
        let corners = [
            sat_mul(self.lo, other.lo),
            sat_mul(self.lo, other.hi),
            sat_mul(self.hi, other.lo),
            sat_mul(self.hi, other.hi),
        ];
        let lo = corners.iter().copied().min().unwrap_or(NEG_INF);
        let hi = corners.iter().copied().max().unwrap_or(POS_INF);
        Value::reduced(lo, hi, self.cong.times(other.cong)).unwrap_or(Value::unbounded())
    }
    /// C division (truncating; `x / 0` is 0 in the IR).
    pub fn div(&self, other: &Value) -> Value {
        let mut parts: Vec<Value> = Vec::new();
        if other.contains(0) {
            parts.push(Value::constant(0));
        }
        for (lo, hi) in [(other.lo, other.hi.min(-1)), (other.lo.max(1), other.hi)] {
            if lo > hi || self.lo == NEG_INF || self.hi == POS_INF {
                if lo <= hi {
                    parts.push(Value::unbounded());
                }
                continue;
            }
            let quotients = [self.lo / lo, self.lo / hi, self.hi / lo, self.hi / hi];
            let (qlo, qhi) = (quotients.iter().min(), quotients.iter().max());
            if let (Some(qlo), Some(qhi)) = (qlo, qhi) {
                parts.push(Value { lo: *qlo, hi: *qhi, cong: Congruence::TOP });
            }
        }
        join_all(&parts)
    }
    /// C remainder (sign of the dividend; `x % 0` is `x` in the IR).
    pub fn rem(&self, other: &Value) -> Value {
        let mut parts: Vec<Value> = Vec::new();
        if other.contains(0) {
            parts.push(*self);
        }
        let magnitude = other.lo.unsigned_abs().max(other.hi.unsigned_abs());
        let smallest = if other.lo > 0 { other.lo.unsigned_abs() } else if other.hi < 0 { other.hi.unsigned_abs() } else { 1 };
        if magnitude > 0 && (other.lo != 0 || other.hi != 0) {
            let bound = i128::try_from(magnitude - 1).unwrap_or(POS_INF);
            if self.lo >= 0 && (self.hi as u128) < smallest {
                parts.push(*self);
            } else {
                let lo = if self.lo >= 0 { 0 } else { (-bound).max(self.lo) };
                let hi = if self.hi <= 0 { 0 } else { bound.min(self.hi) };
                let cong = match (other.as_constant(), self.lo >= 0) {
                    (Some(d), true) => self.cong.residue_mod(d.unsigned_abs()).map_or(Congruence::TOP, Congruence::constant),
                    _ => Congruence::TOP,
                };
                parts.push(Value::reduced(lo, hi, cong).unwrap_or(Value { lo, hi, cong: Congruence::TOP }));
            }
        }
        join_all(&parts)
    }
    /// Bitwise and, over two's-complement values.
    pub fn bit_and(&self, other: &Value) -> Value {
        for (value, mask) in [(self, other), (other, self)] {
            if let Some(m) = mask.as_constant().filter(|m| *m >= 0 && (m + 1) & m == 0) {
                if let Some(r) = value.cong.residue_mod(m as u128 + 1) {
                    return Value::constant(r);
                }
            }
        }
        match (self.lo >= 0, other.lo >= 0) {
            (true, true) => Value::range(0, self.hi.min(other.hi)).unwrap_or(Value::unbounded()),
            (true, false) => Value::range(0, self.hi).unwrap_or(Value::unbounded()),
            (false, true) => Value::range(0, other.hi).unwrap_or(Value::unbounded()),
            (false, false) => Value::unbounded(),
        }
    }
    /// Bitwise or and xor of non-negative values stay below the next power
    /// of two; or is at least the larger operand.
    pub fn bit_or_xor(&self, other: &Value, is_or: bool) -> Value {
        if self.lo < 0 || other.lo < 0 || self.hi == POS_INF || other.hi == POS_INF {
            return Value::unbounded();
        }
        let top = self.hi.max(other.hi);
        let ceiling = (top as u128 + 1).checked_next_power_of_two().and_then(|p| i128::try_from(p - 1).ok());
        let lo = if is_or { self.lo.max(other.lo) } else { 0 };
        Value::range(lo, ceiling.unwrap_or(POS_INF)).unwrap_or(Value::unbounded())
    }
    /// `self << amount` in a type of `bits` bits (the IR gives 0 for an
    /// amount of at least the width).
    pub fn shl(&self, amount: &Value, bits: u32) -> Value {
        match amount.as_constant() {
            Some(k) if k >= bits as i128 || k < 0 => Value::constant(0),
            Some(k) => self.mul(&Value::constant(1i128 << k)),
            None => Value::unbounded(),
        }
    }
    /// `self >> amount` (arithmetic; for unsigned types the value is not
    /// negative, so the same), the IR's sign fill past the width.
    pub fn shr(&self, amount: &Value, bits: u32) -> Value {
        match amount.as_constant() {
            Some(k) if (0..bits as i128).contains(&k) => {
                let d = 1i128 << k;
                let lo = if self.lo == NEG_INF { NEG_INF } else { self.lo.div_euclid(d) };
                let hi = if self.hi == POS_INF { POS_INF } else { self.hi.div_euclid(d) };
                Value { lo, hi, cong: Congruence::TOP }
            }
            _ if self.lo >= 0 => Value::range(0, self.hi).unwrap_or(Value::unbounded()),
            _ if self.hi < 0 => Value::range(self.lo.min(-1), -1).unwrap_or(Value::unbounded()),
            _ => Value { lo: self.lo.min(-1), hi: self.hi.max(0), cong: Congruence::TOP },
        }
    }
}

fn sat_add(a: i128, b: i128, infinity: i128) -> i128 {
    if a == infinity || b == infinity {
        infinity
    } else {
        a.saturating_add(b)
    }
}

fn sat_mul(a: i128, b: i128) -> i128 {
    if a == 0 || b == 0 {
        0
    } else {
        a.saturating_mul(b)
    }
}

fn join_all(parts: &[Value]) -> Value {
    let mut iter = parts.iter();
    let first = iter.next().copied().unwrap_or(Value::unbounded());
    iter.fold(first, |acc, v| acc.join(v))
}

#[cfg(test)]
mod tests {
    use super::{Value, NEG_INF, POS_INF};
    use crate::absint::congruence::Congruence;
    use crate::absint::kind::IntKind;

    const I32: IntKind = IntKind { bits: 32, signed: true };
    const U8: IntKind = IntKind { bits: 8, signed: false };

    #[test]
    fn fit_keeps_values_in_range_and_wraps_whole_windows() {
        let v = Value::range(1, 5).unwrap();
        assert_eq!(v.fit(I32), (v, true));
        let (wrapped, exact) = Value::range(256, 260).unwrap().fit(U8);
        assert!(!exact);
        assert_eq!((wrapped.lo, wrapped.hi), (0, 4));
        let (top, _) = Value::range(250, 260).unwrap().fit(U8);
        assert_eq!((top.lo, top.hi), (0, 255));
    }

    #[test]
    fn wrapping_keeps_parity() {
        let even = Value::reduced(0, POS_INF, Congruence::new(2, 0)).unwrap();
        let (fitted, exact) = even.fit(I32);
        assert!(!exact);
        assert_eq!(fitted.cong, Congruence::new(2, 0));
        assert_eq!(fitted.hi, I32.max() - 1);
    }

    #[test]
    fn division_and_remainder_follow_c() {
        let a = Value::range(-7, 7).unwrap();
        let q = a.div(&Value::constant(2));
        assert_eq!((q.lo, q.hi), (-3, 3));
        let r = a.rem(&Value::constant(3));
        assert_eq!((r.lo, r.hi), (-2, 2));
        let small = Value::range(0, 2).unwrap();
        assert_eq!(small.rem(&Value::constant(5)), small);
        let by_zero_or_one = Value::range(0, 1).unwrap();
        let q = Value::range(10, 20).unwrap().div(&by_zero_or_one);
        assert_eq!((q.lo, q.hi), (0, 20));
        let even = Value::reduced(0, 100, Congruence::new(2, 0)).unwrap();
        assert_eq!(even.rem(&Value::constant(2)), Value::constant(0));
    }

    #[test]
    fn widening_jumps_to_thresholds() {
        let thresholds = [NEG_INF, -1, 0, 10, 100, POS_INF];
        let old = Value::range(0, 1).unwrap();
        let next = Value::range(0, 2).unwrap();
        assert_eq!(old.widen(&next, &thresholds), Value::range(0, 10).unwrap());
        let next = Value::range(-5, 2).unwrap();
        assert_eq!(old.widen(&next, &thresholds).lo, NEG_INF);
    }

    #[test]
    fn masks_read_the_congruence() {
        let odd = Value::reduced(-99, 99, Congruence::new(2, 1)).unwrap();
        assert_eq!(odd.bit_and(&Value::constant(1)), Value::constant(1));
        let r = Value::range(0, 300).unwrap().bit_and(&Value::constant(255));
        assert_eq!((r.lo, r.hi), (0, 255));
    }
}
