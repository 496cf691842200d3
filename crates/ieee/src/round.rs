//! Rounding modes and the single rounding step every operation ends with:
//! an exact (or exact-plus-sticky) magnitude becomes the nearest
//! representable value in the chosen direction, with gradual underflow and
//! overflow to infinity or the largest finite value.

use crate::bignum::BigUint;
use crate::format::Format;
use crate::value::Fp;

/// IEEE-754 rounding-direction attributes (SMT-LIB names in comments).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RoundingMode {
    /// roundNearestTiesToEven (RNE).
    NearestEven,
    /// roundNearestTiesToAway (RNA).
    NearestAway,
    /// roundTowardPositive (RTP).
    TowardPositive,
    /// roundTowardNegative (RTN).
    TowardNegative,
    /// roundTowardZero (RTZ).
    TowardZero,
}

impl RoundingMode {
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::NearestEven,
        RoundingMode::NearestAway,
        RoundingMode::TowardPositive,
        RoundingMode::TowardNegative,
        RoundingMode::TowardZero,
    ];

    /// Whether a truncated magnitude must be incremented by one unit, given
    /// its last kept bit, the first dropped bit and whether any further
    /// dropped bit is set.
    pub(crate) fn rounds_up(self, negative: bool, lsb: bool, round: bool, sticky: bool) -> bool {
        match self {
            RoundingMode::NearestEven => round && (sticky || lsb),
            RoundingMode::NearestAway => round,
            RoundingMode::TowardPositive => !negative && (round || sticky),
            RoundingMode::TowardNegative => negative && (round || sticky),
            RoundingMode::TowardZero => false,
        }
    }

    /// Whether an overflowing result becomes infinity (else the largest
    /// finite value of the same sign).
    fn overflows_to_infinity(self, negative: bool) -> bool {
        match self {
            RoundingMode::NearestEven | RoundingMode::NearestAway => true,
            RoundingMode::TowardPositive => !negative,
            RoundingMode::TowardNegative => negative,
            RoundingMode::TowardZero => false,
        }
    }

    /// The sign of an exact zero sum of operands of opposite signs.
    pub(crate) fn exact_zero_is_negative(self) -> bool {
        self == RoundingMode::TowardNegative
    }
}

/// An exact real magnitude `(mag + ε) * 2^exp`, where `ε` is 0 if `!sticky`
/// and lies strictly between 0 and 1 otherwise.
///
/// When `sticky` is set, `mag` must carry at least two bits below the
/// result's last place (callers keep `sig_bits + 2` bits or more), so that
/// `ε` only ever feeds the sticky bit.
pub(crate) struct Exact {
    pub negative: bool,
    pub mag: BigUint,
    pub exp: i64,
    pub sticky: bool,
}

impl Exact {
    pub fn new(negative: bool, mag: BigUint, exp: i64) -> Exact {
        Exact { negative, mag, exp, sticky: false }
    }

    pub fn from_u128(negative: bool, mag: u128, exp: i64) -> Exact {
        Exact::new(negative, BigUint::from_u128(mag), exp)
    }

    /// Rounds to `format`. A zero magnitude (without sticky) gives a zero
    /// of the recorded sign.
    pub fn round(&self, format: Format, mode: RoundingMode) -> Fp {
        let negative = self.negative;
        if self.mag.is_zero() {
            debug_assert!(!self.sticky, "sticky bit without a magnitude");
            return Fp::zero(format, negative);
        }
        let precision = format.sig_bits() as i64;
        let top = self.exp + self.mag.bit_len() as i64 - 1;
        if top > format.emax() {
            return overflow(format, mode, negative);
        }
        // Exponent of the result's last place: full precision for normal
        // results, the fixed subnormal quantum below the normal range.
        let quantum = top.max(format.emin()) - (precision - 1);
        let (mut sig, round, sticky) = if quantum > self.exp {
            let shifted = self.mag.shr_round((quantum - self.exp) as u64);
            (shifted.kept.to_u128().expect("rounded significand fits"), shifted.round, shifted.sticky || self.sticky)
        } else {
            debug_assert!(!self.sticky, "sticky bit at or above the last place");
            let widened = self.mag.shl((self.exp - quantum) as u64);
            (widened.to_u128().expect("exact significand fits"), false, false)
        };
        let mut quantum = quantum;
        if mode.rounds_up(negative, sig & 1 == 1, round, sticky) {
            sig += 1;
            if sig >> precision != 0 {
                sig >>= 1;
                quantum += 1;
            }
        }
        if sig >> (precision - 1) != 0 && quantum + precision - 1 > format.emax() {
            return overflow(format, mode, negative);
        }
        Fp::pack_exact(format, negative, sig, quantum)
    }
}

fn overflow(format: Format, mode: RoundingMode, negative: bool) -> Fp {
    if mode.overflows_to_infinity(negative) {
        Fp::infinity(format, negative)
    } else {
        Fp::max_finite(format, negative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RoundingMode::*;

    fn round_single(mag: u128, exp: i64, negative: bool, mode: RoundingMode) -> u32 {
        Exact::from_u128(negative, mag, exp).round(Format::SINGLE, mode).to_bits() as u32
    }

    #[test]
    fn ties_follow_the_mode() {
        // 1 + 2^-24 is exactly halfway between 1 and 1 + 2^-23.
        let halfway = (1u128 << 24) + 1;
        assert_eq!(round_single(halfway, -24, false, NearestEven), 0x3F80_0000);
        assert_eq!(round_single(halfway, -24, false, NearestAway), 0x3F80_0001);
        assert_eq!(round_single(halfway, -24, false, TowardPositive), 0x3F80_0001);
        assert_eq!(round_single(halfway, -24, false, TowardZero), 0x3F80_0000);
        assert_eq!(round_single(halfway, -24, true, TowardNegative), 0xBF80_0001);
        assert_eq!(round_single(halfway, -24, true, TowardPositive), 0xBF80_0000);
    }

    #[test]
    fn overflow_depends_on_mode_and_sign() {
        assert_eq!(round_single(1, 128, false, NearestEven), 0x7F80_0000);
        assert_eq!(round_single(1, 128, false, TowardZero), 0x7F7F_FFFF);
        assert_eq!(round_single(1, 128, true, TowardPositive), 0xFF7F_FFFF);
        assert_eq!(round_single(1, 128, true, TowardNegative), 0xFF80_0000);
        // Just below 2^128 rounds up to infinity in nearest mode.
        assert_eq!(round_single((1 << 26) - 1, 102, false, NearestEven), 0x7F80_0000);
        assert_eq!(round_single((1 << 26) - 1, 102, false, TowardZero), 0x7F7F_FFFF);
    }

    #[test]
    fn underflow_is_gradual() {
        assert_eq!(round_single(1, -149, false, NearestEven), 1);
        assert_eq!(round_single(1, -150, false, NearestEven), 0);
        assert_eq!(round_single(3, -151, false, NearestEven), 1);
        assert_eq!(round_single(1, -150, false, NearestAway), 1);
        assert_eq!(round_single(1, -200, true, TowardNegative), 0x8000_0001);
        assert_eq!(round_single(1, -200, true, TowardZero), 0x8000_0000);
        // The largest subnormal rounds up into the smallest normal.
        assert_eq!(round_single((1 << 24) - 1, -150, false, NearestEven), 0x0080_0000);
    }
}
