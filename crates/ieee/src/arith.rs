//! The arithmetic operations of IEEE 754 / the SMT-LIB FP theory: add, sub,
//! mul, div, fma, sqrt, rem, roundToIntegral, min, max. Each computes the
//! exact result (or an exact prefix plus a sticky bit) with `BigUint` and
//! rounds once.

use crate::bignum::BigUint;
use crate::round::{Exact, RoundingMode};
use crate::value::{Fp, Unpacked};

/// A nonzero finite exact term `(-1)^negative * mag * 2^exp`.
struct Term {
    negative: bool,
    mag: BigUint,
    exp: i64,
}

impl Term {
    fn top(&self) -> i64 {
        self.exp + self.mag.bit_len() as i64 - 1
    }
}

/// The exact sum of two nonzero terms, rounded to `sig_bits` later: `None`
/// when it is exactly zero. A term lying entirely below the last bit of
/// the other (widened to `sig_bits + 3` bits) only contributes a sticky bit,
/// which keeps the shifts small whatever the exponent gap.
fn exact_sum(x: Term, y: Term, sig_bits: u32) -> Option<Exact> {
    let (mut big, small) = if x.top() >= y.top() { (x, y) } else { (y, x) };
    let wanted = sig_bits as u64 + 3;
    if big.mag.bit_len() < wanted {
        let widen = wanted - big.mag.bit_len();
        big.mag = big.mag.shl(widen);
        big.exp -= widen as i64;
    }
    if small.top() < big.exp {
        let mag = if big.negative == small.negative { big.mag } else { big.mag.sub(&BigUint::from_u128(1)) };
        return Some(Exact { negative: big.negative, mag, exp: big.exp, sticky: true });
    }
    let exp = big.exp.min(small.exp);
    let big_mag = big.mag.shl((big.exp - exp) as u64);
    let small_mag = small.mag.shl((small.exp - exp) as u64);
    if big.negative == small.negative {
        return Some(Exact::new(big.negative, big_mag.add(&small_mag), exp));
    }
    match big_mag.cmp(&small_mag) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some(Exact::new(big.negative, big_mag.sub(&small_mag), exp)),
        std::cmp::Ordering::Less => Some(Exact::new(small.negative, small_mag.sub(&big_mag), exp)),
    }
}

fn term(negative: bool, sig: u128, exp: i64) -> Term {
    Term { negative, mag: BigUint::from_u128(sig), exp }
}

/// The sign of a zero sum of two zeros.
fn zero_sum_sign(x_negative: bool, y_negative: bool, mode: RoundingMode) -> bool {
    if x_negative == y_negative {
        x_negative
    } else {
        mode.exact_zero_is_negative()
    }
}

fn same_format(x: Fp, y: Fp) {
    assert_eq!(x.format(), y.format(), "floating-point operands of different formats");
}

impl Fp {
    /// `self + rhs` rounded by `mode`.
    pub fn add(self, rhs: Fp, mode: RoundingMode) -> Fp {
        same_format(self, rhs);
        let format = self.format();
        match (self.unpack(), rhs.unpack()) {
            (Unpacked::Nan, _) | (_, Unpacked::Nan) => Fp::nan(format),
            (Unpacked::Infinite { negative: a }, Unpacked::Infinite { negative: b }) if a != b => Fp::nan(format),
            (Unpacked::Infinite { .. }, _) => self,
            (_, Unpacked::Infinite { .. }) => rhs,
            (Unpacked::Zero { negative: a }, Unpacked::Zero { negative: b }) => Fp::zero(format, zero_sum_sign(a, b, mode)),
            (Unpacked::Zero { .. }, _) => rhs,
            (_, Unpacked::Zero { .. }) => self,
            (Unpacked::Finite { negative: sa, sig: a, exp: ea }, Unpacked::Finite { negative: sb, sig: b, exp: eb }) => {
                match exact_sum(term(sa, a, ea), term(sb, b, eb), format.sig_bits()) {
                    Some(sum) => sum.round(format, mode),
                    None => Fp::zero(format, mode.exact_zero_is_negative()),
                }
            }
        }
    }

    /// `self - rhs` rounded by `mode`.
    pub fn sub(self, rhs: Fp, mode: RoundingMode) -> Fp {
        if rhs.is_nan() {
            return Fp::nan(self.format());
        }
        self.add(-rhs, mode)
    }

    /// `self * rhs` rounded by `mode`.
    pub fn mul(self, rhs: Fp, mode: RoundingMode) -> Fp {
        same_format(self, rhs);
        let format = self.format();
        let negative = self.sign_bit() != rhs.sign_bit();
        match (self.unpack(), rhs.unpack()) {
            (Unpacked::Nan, _) | (_, Unpacked::Nan) => Fp::nan(format),
            (Unpacked::Infinite { .. }, Unpacked::Zero { .. }) | (Unpacked::Zero { .. }, Unpacked::Infinite { .. }) => Fp::nan(format),
            (Unpacked::Infinite { .. }, _) | (_, Unpacked::Infinite { .. }) => Fp::infinity(format, negative),
            (Unpacked::Zero { .. }, _) | (_, Unpacked::Zero { .. }) => Fp::zero(format, negative),
            (Unpacked::Finite { sig: a, exp: ea, .. }, Unpacked::Finite { sig: b, exp: eb, .. }) => {
                Exact::new(negative, BigUint::from_u128(a).mul(&BigUint::from_u128(b)), ea + eb).round(format, mode)
            }
        }
    }

    /// `self / rhs` rounded by `mode`.
    pub fn div(self, rhs: Fp, mode: RoundingMode) -> Fp {
        same_format(self, rhs);
        let format = self.format();
        let negative = self.sign_bit() != rhs.sign_bit();
        match (self.unpack(), rhs.unpack()) {
            (Unpacked::Nan, _) | (_, Unpacked::Nan) => Fp::nan(format),
            (Unpacked::Infinite { .. }, Unpacked::Infinite { .. }) | (Unpacked::Zero { .. }, Unpacked::Zero { .. }) => Fp::nan(format),
            (Unpacked::Infinite { .. }, _) | (_, Unpacked::Zero { .. }) => Fp::infinity(format, negative),
            (_, Unpacked::Infinite { .. }) | (Unpacked::Zero { .. }, _) => Fp::zero(format, negative),
            (Unpacked::Finite { sig: a, exp: ea, .. }, Unpacked::Finite { sig: b, exp: eb, .. }) => {
                let (dividend, divisor) = (BigUint::from_u128(a), BigUint::from_u128(b));
                // Enough quotient bits for the significand, a round bit and one more.
                let widen = (format.sig_bits() as i64 + 2 + divisor.bit_len() as i64 - dividend.bit_len() as i64).max(0);
                let (quotient, remainder) = dividend.shl(widen as u64).divrem(&divisor);
                let exact = Exact { negative, mag: quotient, exp: ea - eb - widen, sticky: !remainder.is_zero() };
                exact.round(format, mode)
            }
        }
    }

    /// `self * mul + add` with a single rounding.
    pub fn fma(self, mul: Fp, add: Fp, mode: RoundingMode) -> Fp {
        same_format(self, mul);
        same_format(self, add);
        let format = self.format();
        let product_negative = self.sign_bit() != mul.sign_bit();
        let (x, y, z) = (self.unpack(), mul.unpack(), add.unpack());
        let product_is_nan = matches!(
            (x, y),
            (Unpacked::Infinite { .. }, Unpacked::Zero { .. }) | (Unpacked::Zero { .. }, Unpacked::Infinite { .. })
        );
        if x == Unpacked::Nan || y == Unpacked::Nan || z == Unpacked::Nan || product_is_nan {
            return Fp::nan(format);
        }
        let product_is_infinite = matches!(x, Unpacked::Infinite { .. }) || matches!(y, Unpacked::Infinite { .. });
        let product_is_zero = matches!(x, Unpacked::Zero { .. }) || matches!(y, Unpacked::Zero { .. });
        match z {
            Unpacked::Infinite { negative } if product_is_infinite && negative != product_negative => Fp::nan(format),
            _ if product_is_infinite => Fp::infinity(format, product_negative),
            Unpacked::Infinite { .. } => add,
            Unpacked::Zero { negative } if product_is_zero => Fp::zero(format, zero_sum_sign(product_negative, negative, mode)),
            _ if product_is_zero => add,
            _ => fma_finite(self, mul, add, mode),
        }
    }

    /// The square root rounded by `mode` (`sqrt(-0) = -0`).
    pub fn sqrt(self, mode: RoundingMode) -> Fp {
        let format = self.format();
        match self.unpack() {
            Unpacked::Nan | Unpacked::Infinite { negative: true } | Unpacked::Finite { negative: true, .. } => Fp::nan(format),
            Unpacked::Infinite { negative: false } | Unpacked::Zero { .. } => self,
            Unpacked::Finite { sig, exp, .. } => {
                let (radicand, exp) = if exp % 2 == 0 { (BigUint::from_u128(sig), exp) } else { (BigUint::from_u128(sig).shl(1), exp - 1) };
                // A root of sig_bits + 2 bits needs a radicand of twice that.
                let wanted = 2 * (format.sig_bits() as i64 + 2);
                let half_widen = ((wanted - radicand.bit_len() as i64).max(0) + 1) / 2;
                let radicand = radicand.shl(2 * half_widen as u64);
                let root = radicand.isqrt();
                let sticky = root.mul(&root) != radicand;
                Exact { negative: false, mag: root, exp: (exp - 2 * half_widen) / 2, sticky }.round(format, mode)
            }
        }
    }

    /// IEEE remainder `self - n * rhs`, `n` the quotient rounded to nearest
    /// even; always exact.
    pub fn remainder(self, rhs: Fp) -> Fp {
        same_format(self, rhs);
        let format = self.format();
        match (self.unpack(), rhs.unpack()) {
            (Unpacked::Nan, _) | (_, Unpacked::Nan) | (Unpacked::Infinite { .. }, _) | (_, Unpacked::Zero { .. }) => Fp::nan(format),
            (Unpacked::Zero { .. }, _) | (_, Unpacked::Infinite { .. }) => self,
            (Unpacked::Finite { negative, sig: a, exp: ea }, Unpacked::Finite { sig: b, exp: eb, .. }) => {
                let exp = ea.min(eb);
                let dividend = BigUint::from_u128(a).shl((ea - exp) as u64);
                let divisor = BigUint::from_u128(b).shl((eb - exp) as u64);
                let (quotient, remainder) = dividend.divrem(&divisor);
                let twice = remainder.shl(1);
                let rounds_up = twice > divisor || (twice == divisor && quotient.bit(0));
                let (negative, mag) = if rounds_up { (!negative, divisor.sub(&remainder)) } else { (negative, remainder) };
                if mag.is_zero() {
                    return Fp::zero(format, self.sign_bit());
                }
                Exact::new(negative, mag, exp).round(format, RoundingMode::NearestEven)
            }
        }
    }

    /// The integral value nearest in direction `mode` (zeros keep the sign).
    pub fn round_to_integral(self, mode: RoundingMode) -> Fp {
        let Unpacked::Finite { negative, sig, exp } = self.unpack() else {
            return if self.is_nan() { Fp::nan(self.format()) } else { self };
        };
        if exp >= 0 {
            return self;
        }
        match integral_magnitude(negative, sig, exp, mode) {
            0 => Fp::zero(self.format(), negative),
            // Only formats whose largest values are not integral (emax <
            // sig_bits - 1, none of the standard ones) can overflow here.
            integral => Exact::from_u128(negative, integral, 0).round(self.format(), RoundingMode::NearestEven),
        }
    }

    /// SMT-LIB `fp.min`: a NaN operand yields the other; of `-0` and `+0`
    /// this returns `-0` (SMT-LIB allows either; C's `fmin` prefers `-0`).
    pub fn min(self, rhs: Fp) -> Fp {
        self.min_or_max(rhs, true)
    }

    /// SMT-LIB `fp.max`: a NaN operand yields the other; of `-0` and `+0`
    /// this returns `+0`.
    pub fn max(self, rhs: Fp) -> Fp {
        self.min_or_max(rhs, false)
    }

    fn min_or_max(self, rhs: Fp, want_min: bool) -> Fp {
        same_format(self, rhs);
        match (self.is_nan(), rhs.is_nan()) {
            (true, true) => return Fp::nan(self.format()),
            (true, false) => return rhs,
            (false, true) => return self,
            (false, false) => {}
        }
        if self.is_zero() && rhs.is_zero() {
            let pick_self = self.sign_bit() == want_min;
            return if pick_self { self } else { rhs };
        }
        if self.fp_lt(rhs) == want_min {
            self
        } else {
            rhs
        }
    }
}

/// The magnitude of `sig * 2^exp` (`exp < 0`) rounded to an integer in
/// direction `mode` (applied to the signed value).
pub(crate) fn integral_magnitude(negative: bool, sig: u128, exp: i64, mode: RoundingMode) -> u128 {
    let shifted = BigUint::from_u128(sig).shr_round(exp.unsigned_abs());
    let truncated = shifted.kept.to_u128().expect("integral part of a u128 fits");
    truncated + mode.rounds_up(negative, truncated & 1 == 1, shifted.round, shifted.sticky) as u128
}

fn fma_finite(x: Fp, y: Fp, z: Fp, mode: RoundingMode) -> Fp {
    let format = x.format();
    let (Unpacked::Finite { negative: sx, sig: a, exp: ea }, Unpacked::Finite { negative: sy, sig: b, exp: eb }) = (x.unpack(), y.unpack()) else {
        unreachable!("fma_finite called with a non-finite product");
    };
    let product = Term { negative: sx != sy, mag: BigUint::from_u128(a).mul(&BigUint::from_u128(b)), exp: ea + eb };
    let Unpacked::Finite { negative: sz, sig: c, exp: ec } = z.unpack() else {
        // A zero addend: the exact result is the (nonzero) product.
        return Exact::new(product.negative, product.mag, product.exp).round(format, mode);
    };
    match exact_sum(product, term(sz, c, ec), format.sig_bits()) {
        Some(sum) => sum.round(format, mode),
        None => Fp::zero(format, mode.exact_zero_is_negative()),
    }
}

#[cfg(test)]
mod tests {
    use crate::format::Format;
    use crate::round::RoundingMode::{self, *};
    use crate::value::Fp;

    fn double(v: f64) -> Fp {
        Fp::from_bits(Format::DOUBLE, v.to_bits() as u128)
    }

    fn value(x: Fp) -> f64 {
        f64::from_bits(x.to_bits() as u64)
    }

    #[test]
    fn exact_zero_sums_are_positive_except_toward_negative() {
        for mode in RoundingMode::ALL {
            let zero = double(1.5).sub(double(1.5), mode);
            assert!(zero.is_zero() && zero.sign_bit() == (mode == TowardNegative), "{mode:?}");
            let zeros = double(-0.0).add(double(0.0), mode);
            assert_eq!(zeros.sign_bit(), mode == TowardNegative, "{mode:?}");
            assert!(double(-0.0).add(double(-0.0), mode).sign_bit());
        }
    }

    #[test]
    fn fma_rounds_once() {
        // (1 + 2^-52)^2 - 1 - 2^-51 = 2^-104: lost by a separate rounding.
        let a = double(1.0 + f64::EPSILON);
        let c = double(-(1.0 + 2.0 * f64::EPSILON));
        assert_eq!(value(a.fma(a, c, NearestEven)), 2f64.powi(-104));
        assert_eq!(value(a.mul(a, NearestEven).add(c, NearestEven)), 0.0);
        // A zero product plus a zero addend follows the zero-sum sign rule.
        assert!(!double(0.0).fma(double(-1.0), double(0.0), NearestEven).sign_bit());
        assert!(double(0.0).fma(double(-1.0), double(0.0), TowardNegative).sign_bit());
        assert!(double(f64::INFINITY).fma(double(0.0), double(1.0), NearestEven).is_nan());
    }

    #[test]
    fn division_and_sqrt_round_by_mode() {
        let third_down = double(1.0).div(double(3.0), TowardZero);
        let third_up = double(1.0).div(double(3.0), TowardPositive);
        assert_eq!(third_up.to_bits(), third_down.to_bits() + 1);
        assert_eq!(value(double(2.0).sqrt(NearestEven)), 2f64.sqrt());
        assert_eq!(value(double(6.25).sqrt(TowardZero)), 2.5);
        assert!(double(-0.0).sqrt(NearestEven).sign_bit());
        assert!(double(-1.0).sqrt(NearestEven).is_nan());
        assert!(double(0.0).div(double(0.0), NearestEven).is_nan());
        assert_eq!(value(double(-1.0).div(double(0.0), NearestEven)), f64::NEG_INFINITY);
    }

    #[test]
    fn remainder_rounds_the_quotient_to_even() {
        assert_eq!(value(double(5.0).remainder(double(2.0))), 1.0);
        assert_eq!(value(double(7.0).remainder(double(2.0))), -1.0);
        assert_eq!(value(double(-4.0).remainder(double(2.0))), -0.0);
        assert_eq!(value(double(1e300).remainder(double(7.0))), 1.0);
        assert_eq!(value(double(2.5).remainder(double(1.0))), 0.5);
        assert_eq!(value(double(3.5).remainder(double(1.0))), -0.5);
        assert!(double(f64::INFINITY).remainder(double(2.0)).is_nan());
        assert_eq!(value(double(2.0).remainder(double(f64::INFINITY))), 2.0);
    }

    /// The smallest format, (2,2): values 0, 0.5, 1, 1.5, 2, 3, inf.
    #[test]
    fn tiny_format_rounds_to_its_few_values() {
        let tiny = Format::new(2, 2).unwrap();
        let (half, one, one_and_half, two) = (Fp::from_bits(tiny, 1), Fp::from_bits(tiny, 2), Fp::from_bits(tiny, 3), Fp::from_bits(tiny, 4));
        assert_eq!(half.remainder(one_and_half), half);
        assert_eq!(half.remainder(-one), half);
        assert_eq!((-one_and_half).round_to_integral(NearestAway), -two);
        assert_eq!(one_and_half.round_to_integral(TowardPositive), two);
        assert_eq!(one_and_half.round_to_integral(NearestEven), two);
        assert_eq!(two.add(two, NearestEven), Fp::infinity(tiny, false));
        assert_eq!(two.add(two, TowardZero).to_bits(), 5);
        assert_eq!(half.mul(half, NearestEven), Fp::zero(tiny, false));
        assert_eq!(half.mul(half, TowardPositive), half);
    }

    #[test]
    fn round_to_integral_in_every_mode() {
        let cases: [(f64, [f64; 5]); 3] = [(2.5, [2.0, 3.0, 3.0, 2.0, 2.0]), (-2.5, [-2.0, -3.0, -2.0, -3.0, -2.0]), (-0.2, [-0.0, -0.0, -0.0, -1.0, -0.0])];
        for (input, expected) in cases {
            for (mode, want) in RoundingMode::ALL.into_iter().zip(expected) {
                let got = value(double(input).round_to_integral(mode));
                assert_eq!(got.to_bits(), want.to_bits(), "{input} {mode:?}");
            }
        }
    }

    #[test]
    fn min_and_max_order_zeros_and_skip_nans() {
        let (neg, pos, nan) = (double(-0.0), double(0.0), double(f64::NAN));
        assert!(pos.min(neg).sign_bit() && neg.min(pos).sign_bit());
        assert!(!pos.max(neg).sign_bit() && !neg.max(pos).sign_bit());
        assert_eq!(nan.min(double(1.0)), double(1.0));
        assert_eq!(double(2.0).max(nan), double(2.0));
        assert!(nan.max(nan).is_nan());
        assert_eq!(double(-3.0).max(double(2.0)), double(2.0));
    }
}
