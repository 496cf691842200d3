//! IEEE comparisons (SMT-LIB `fp.eq`, `fp.lt`, `fp.leq`, `fp.gt`, `fp.geq`):
//! NaN is unordered with everything, `-0 == +0`.

use crate::value::Fp;
use std::cmp::Ordering;

impl Fp {
    /// The numeric order, `None` if either operand is NaN.
    pub fn partial_order(self, rhs: Fp) -> Option<Ordering> {
        assert_eq!(self.format(), rhs.format(), "floating-point operands of different formats");
        if self.is_nan() || rhs.is_nan() {
            return None;
        }
        Some(self.order_key().cmp(&rhs.order_key()))
    }

    /// A signed integer ordered like the (non-NaN) value: the magnitude
    /// encoding is monotonic, and both zeros map to 0.
    fn order_key(self) -> i128 {
        let magnitude = self.abs().to_bits() as i128;
        if self.sign_bit() {
            -magnitude
        } else {
            magnitude
        }
    }

    pub fn fp_eq(self, rhs: Fp) -> bool {
        self.partial_order(rhs) == Some(Ordering::Equal)
    }

    pub fn fp_lt(self, rhs: Fp) -> bool {
        self.partial_order(rhs) == Some(Ordering::Less)
    }

    pub fn fp_leq(self, rhs: Fp) -> bool {
        matches!(self.partial_order(rhs), Some(Ordering::Less | Ordering::Equal))
    }

    pub fn fp_gt(self, rhs: Fp) -> bool {
        rhs.fp_lt(self)
    }

    pub fn fp_geq(self, rhs: Fp) -> bool {
        rhs.fp_leq(self)
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
    fn comparisons_agree_with_hardware() {
        let values = [f64::NEG_INFINITY, -1.5, -0.0, 0.0, 5e-324, 1.0, f64::MAX, f64::INFINITY, f64::NAN];
        for &a in &values {
            for &b in &values {
                let (x, y) = (double(a), double(b));
                assert_eq!(x.fp_eq(y), a == b, "{a} == {b}");
                assert_eq!(x.fp_lt(y), a < b, "{a} < {b}");
                assert_eq!(x.fp_leq(y), a <= b, "{a} <= {b}");
                assert_eq!(x.fp_gt(y), a > b, "{a} > {b}");
                assert_eq!(x.fp_geq(y), a >= b, "{a} >= {b}");
            }
        }
    }
}
