//! Concrete values of every sort: the results of folding and evaluation.
//!
//! Floating-point values are kept as their IEEE bit pattern plus format; the
//! SMT-LIB FP theory has a single NaN, so every NaN is stored as the canonical
//! pattern (sign 0, exponent all ones, only the top significand bit set: the
//! quiet NaN `0x7fc00000` for Float32). Array values are a default plus a
//! finite map, normalised so that no entry repeats the default.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::bv::BvValue;
use crate::sort::{RoundingMode, Sort};

/// A value of any sort.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Value {
    Bool(bool),
    Bv(BvValue),
    Fp(FpValue),
    Rm(RoundingMode),
    Array(Arc<ArrayValue>),
}

impl Value {
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_bv(&self) -> Option<&BvValue> {
        match self {
            Value::Bv(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_fp(&self) -> Option<&FpValue> {
        match self {
            Value::Fp(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_rm(&self) -> Option<RoundingMode> {
        match self {
            Value::Rm(rm) => Some(*rm),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&ArrayValue> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The sort of a scalar value; arrays carry their sort explicitly.
    pub fn sort(&self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Bv(v) => Sort::BitVec(v.width()),
            Value::Fp(v) => Sort::Float {
                exp: v.exp,
                sig: v.sig,
            },
            Value::Rm(_) => Sort::RoundingMode,
            Value::Array(a) => a.sort,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Bv(v) => write!(f, "{v}"),
            Value::Fp(v) => write!(f, "fp{}/{}:{}", v.exp, v.sig, v.bits.to_smtlib()),
            Value::Rm(rm) => write!(f, "{}", rm.smtlib_name()),
            Value::Array(a) => {
                write!(f, "[")?;
                for (k, v) in &a.entries {
                    write!(f, "{k} -> {v}, ")?;
                }
                write!(f, "else -> {}]", a.default)
            }
        }
    }
}

/// An IEEE-754 value of format `(exp, sig)` held as its bit pattern
/// (`sign | exponent | trailing significand`, `exp + sig` bits).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct FpValue {
    pub exp: u32,
    pub sig: u32,
    bits: BvValue,
}

impl FpValue {
    /// Reinterprets `bits` (width `exp + sig`) as a float; NaN patterns
    /// become the canonical NaN.
    pub fn from_bits(exp: u32, sig: u32, bits: BvValue) -> FpValue {
        assert_eq!(bits.width(), exp + sig, "FP bit pattern width");
        let v = FpValue { exp, sig, bits };
        if v.is_nan() {
            FpValue::nan(exp, sig)
        } else {
            v
        }
    }

    /// The canonical NaN of the format.
    pub fn nan(exp: u32, sig: u32) -> FpValue {
        let mut bits = BvValue::zero(exp + sig);
        for i in sig - 2..exp + sig - 1 {
            bits.set_bit(i, true);
        }
        FpValue { exp, sig, bits }
    }

    /// ±infinity.
    pub fn infinity(exp: u32, sig: u32, negative: bool) -> FpValue {
        let mut bits = BvValue::zero(exp + sig);
        for i in sig - 1..exp + sig - 1 {
            bits.set_bit(i, true);
        }
        bits.set_bit(exp + sig - 1, negative);
        FpValue { exp, sig, bits }
    }

    /// ±0.
    pub fn zero(exp: u32, sig: u32, negative: bool) -> FpValue {
        let mut bits = BvValue::zero(exp + sig);
        bits.set_bit(exp + sig - 1, negative);
        FpValue { exp, sig, bits }
    }

    /// The IEEE encoding (canonical pattern for NaN).
    pub fn bits(&self) -> &BvValue {
        &self.bits
    }

    pub fn sign(&self) -> bool {
        self.bits.msb()
    }

    /// The biased exponent field.
    pub fn exponent_field(&self) -> BvValue {
        self.bits.extract(self.exp + self.sig - 2, self.sig - 1)
    }

    /// The trailing significand field (without the hidden bit).
    pub fn significand_field(&self) -> BvValue {
        self.bits.extract(self.sig - 2, 0)
    }

    pub fn is_nan(&self) -> bool {
        self.exponent_field().is_ones() && !self.significand_field().is_zero()
    }

    pub fn is_infinite(&self) -> bool {
        self.exponent_field().is_ones() && self.significand_field().is_zero()
    }

    pub fn is_zero(&self) -> bool {
        self.exponent_field().is_zero() && self.significand_field().is_zero()
    }

    pub fn is_subnormal(&self) -> bool {
        self.exponent_field().is_zero() && !self.significand_field().is_zero()
    }

    pub fn is_normal(&self) -> bool {
        let e = self.exponent_field();
        !e.is_zero() && !e.is_ones()
    }

    /// SMT-LIB `fp.isNegative`: false for NaN.
    pub fn is_negative(&self) -> bool {
        !self.is_nan() && self.sign()
    }

    /// SMT-LIB `fp.isPositive`: false for NaN.
    pub fn is_positive(&self) -> bool {
        !self.is_nan() && !self.sign()
    }

    pub fn negate(&self) -> FpValue {
        if self.is_nan() {
            return self.clone();
        }
        let mut bits = self.bits.clone();
        bits.set_bit(self.exp + self.sig - 1, !self.sign());
        FpValue { bits, ..*self }
    }

    pub fn abs(&self) -> FpValue {
        if self.sign() {
            self.negate()
        } else {
            self.clone()
        }
    }

    /// IEEE comparison: `None` when either side is NaN (unordered); zeros of
    /// both signs compare equal.
    pub fn ieee_cmp(&self, other: &FpValue) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering;
        if self.is_nan() || other.is_nan() {
            return None;
        }
        if self.is_zero() && other.is_zero() {
            return Some(Ordering::Equal);
        }
        // Sign-magnitude: the magnitude bits order like unsigned integers.
        let magnitude = |v: &FpValue| v.bits.extract(v.exp + v.sig - 2, 0);
        Some(match (self.sign(), other.sign()) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => magnitude(self).ucmp(&magnitude(other)),
            (true, true) => magnitude(other).ucmp(&magnitude(self)),
        })
    }
}

/// An array value: `default` everywhere except at the listed indices.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArrayValue {
    /// The array sort (interned in the store the value belongs to).
    pub sort: Sort,
    default: Value,
    entries: BTreeMap<Value, Value>,
}

impl ArrayValue {
    pub fn constant(sort: Sort, default: Value) -> ArrayValue {
        ArrayValue {
            sort,
            default,
            entries: BTreeMap::new(),
        }
    }

    pub fn default_value(&self) -> &Value {
        &self.default
    }

    /// The explicitly stored entries (none equal to the default).
    pub fn entries(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.entries.iter()
    }

    pub fn select(&self, index: &Value) -> Value {
        self.entries.get(index).unwrap_or(&self.default).clone()
    }

    pub fn store(&self, index: Value, value: Value) -> ArrayValue {
        let mut result = self.clone();
        if value == result.default {
            result.entries.remove(&index);
        } else {
            result.entries.insert(index, value);
        }
        result
    }

    /// Extensional equality. `index_domain_size` is the number of values of
    /// the index sort when it is small enough to matter (an array whose
    /// entries cover the whole domain equals one with another default).
    pub fn extensionally_equal(&self, other: &ArrayValue, index_domain_size: Option<u128>) -> bool {
        let keys: std::collections::BTreeSet<&Value> =
            self.entries.keys().chain(other.entries.keys()).collect();
        if keys.iter().any(|k| self.select(k) != other.select(k)) {
            return false;
        }
        self.default == other.default || index_domain_size == Some(keys.len() as u128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_value(bits: u32) -> FpValue {
        FpValue::from_bits(8, 24, BvValue::from_u64(32, bits as u64))
    }

    #[test]
    fn nan_patterns_are_canonical() {
        assert_eq!(f32_value(0xffc0_0001), f32_value(0x7fc0_0000));
        assert_eq!(f32_value(0x7f80_0001).bits().to_u64(), Some(0x7fc0_0000));
        assert_eq!(
            FpValue::nan(11, 53).bits().to_u64(),
            Some(0x7ff8_0000_0000_0000)
        );
    }

    #[test]
    fn classification_and_comparison() {
        let inf = FpValue::infinity(8, 24, false);
        assert_eq!(inf.bits().to_u64(), Some(0x7f80_0000));
        assert!(inf.is_infinite() && inf.is_positive());
        let neg_zero = FpValue::zero(8, 24, true);
        assert!(neg_zero.is_zero() && neg_zero.is_negative());
        assert_eq!(
            neg_zero.ieee_cmp(&FpValue::zero(8, 24, false)),
            Some(std::cmp::Ordering::Equal)
        );
        let one = f32_value(0x3f80_0000);
        let minus_two = f32_value(0xc000_0000);
        assert!(one.is_normal());
        assert_eq!(minus_two.ieee_cmp(&one), Some(std::cmp::Ordering::Less));
        assert_eq!(
            one.negate().ieee_cmp(&minus_two),
            Some(std::cmp::Ordering::Greater)
        );
        assert!(f32_value(1).is_subnormal());
        assert_eq!(FpValue::nan(8, 24).ieee_cmp(&one), None);
    }

    #[test]
    fn array_store_select_and_equality() {
        let bv = |v| Value::Bv(BvValue::from_u64(1, v));
        let sort = Sort::BitVec(1); // stands in for an array sort here
        let zeros = ArrayValue::constant(sort, bv(0));
        let a = zeros.store(bv(0), bv(1)).store(bv(1), bv(1));
        assert_eq!(a.select(&bv(1)), bv(1));
        let ones = ArrayValue::constant(sort, bv(1));
        assert!(a.extensionally_equal(&ones, Some(2)));
        assert!(!a.extensionally_equal(&ones, None));
        assert_eq!(a.store(bv(0), bv(0)).store(bv(1), bv(0)), zeros);
    }
}
