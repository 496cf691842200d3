//! The rounding circuit shared by every arithmetic operator: from an exact
//! (or exact-prefix-plus-sticky) significand and an unbounded exponent to
//! the packed IEEE encoding, in a possibly symbolic rounding mode, with
//! subnormal results, carries into the next binade and overflow.

use smt::RoundingMode;

use crate::aig::{Aig, Lit};
use crate::blast::rounding_mode_index;
use crate::words::{self, Word};

use super::{signed_constant, widen, Format};

/// A rounding-mode word decoded into one literal per mode.
pub struct Mode {
    nearest_even: Lit,
    nearest_away: Lit,
    toward_positive: Lit,
    toward_negative: Lit,
}

impl Mode {
    pub fn decode(aig: &mut Aig, word: &[Lit]) -> Mode {
        let mut is = |mode: RoundingMode| {
            let index = rounding_mode_index(mode) as u128;
            words::eq(aig, word, &words::constant(index, word.len()))
        };
        Mode {
            nearest_even: is(RoundingMode::Rne),
            nearest_away: is(RoundingMode::Rna),
            toward_positive: is(RoundingMode::Rtp),
            toward_negative: is(RoundingMode::Rtn),
        }
    }

    /// Whether a magnitude with the given discarded part rounds up (away
    /// from zero): `guard` is the first discarded bit, `sticky` the OR of
    /// the rest, `odd` the kept least significant bit.
    pub fn rounds_up(
        &self,
        aig: &mut Aig,
        negative: Lit,
        odd: Lit,
        guard: Lit,
        sticky: Lit,
    ) -> Lit {
        let inexact = aig.or(guard, sticky);
        let tie_breaker = aig.or(sticky, odd);
        let even_up = aig.and(guard, tie_breaker);
        let nearest_even = aig.and(self.nearest_even, even_up);
        let nearest_away = aig.and(self.nearest_away, guard);
        let up_positive = aig.and(self.toward_positive, !negative);
        let up_negative = aig.and(self.toward_negative, negative);
        let directed = aig.or(up_positive, up_negative);
        let directed = aig.and(directed, inexact);
        aig.or_all([nearest_even, nearest_away, directed])
    }

    /// Whether an overflow of a value of sign `negative` gives infinity
    /// (otherwise the largest finite value).
    pub fn overflows_to_infinity(&self, aig: &mut Aig, negative: Lit) -> Lit {
        let up_positive = aig.and(self.toward_positive, !negative);
        let up_negative = aig.and(self.toward_negative, negative);
        aig.or_all([
            self.nearest_even,
            self.nearest_away,
            up_positive,
            up_negative,
        ])
    }

    /// An exact zero sum of operands of opposite signs is `-0` only when
    /// rounding toward negative.
    pub fn toward_negative(&self) -> Lit {
        self.toward_negative
    }
}

/// The encoding in `format` of `(-1)^sign · (m + f) · 2^(exponent - (n - 1))`
/// rounded by `mode`, where `m` is the `n`-bit word `significand` (top bit
/// set, or all zero for a zero value), `exponent` a signed word of any
/// width, and `f ∈ [0, 1)` a discarded tail that is nonzero exactly when
/// `sticky` holds.
pub fn round(
    aig: &mut Aig,
    format: Format,
    mode: &Mode,
    sign: Lit,
    exponent: &[Lit],
    significand: &[Lit],
    sticky: Lit,
) -> Word {
    let sig = format.sig;
    // At least a guard bit below the kept bits.
    let padding = (sig + 1).saturating_sub(significand.len());
    let significand = words::concat(significand, &words::constant(0, padding));
    let n = significand.len();
    let width = exponent
        .len()
        .max(format.exp_width())
        .max(words::bits_for(n as u128) + 2)
        + 1;
    let exponent = widen(exponent, width);
    let emin = signed_constant(format.emin(), width);

    // Below the normal range: shift right onto the subnormal grid.
    let below_normal = words::slt(aig, &exponent, &emin);
    let distance = words::sub(aig, &emin, &exponent);
    let distance = words::mux(aig, below_normal, &distance, &words::constant(0, width));
    let (aligned, shifted_out) = words::lshr_sticky(aig, &significand, &distance);
    let exponent = words::mux(aig, below_normal, &emin, &exponent);

    let kept = &aligned[n - sig..];
    let guard = aligned[n - sig - 1];
    let rest = words::reduce_or(aig, &aligned[..n - sig - 1]);
    let sticky = aig.or_all([rest, shifted_out, sticky]);
    let up = mode.rounds_up(aig, sign, kept[0], guard, sticky);
    let (rounded, carry) = words::add_with_carry(aig, kept, &words::constant(0, sig), up);

    // A carry out of the significand means 10…0 in the next binade.
    let mut top_only = words::constant(0, sig);
    top_only[sig - 1] = Lit::TRUE;
    let rounded = words::mux(aig, carry, &top_only, &rounded);
    let bumped = words::add(aig, &exponent, &words::constant(1, width));
    let exponent = words::mux(aig, carry, &bumped, &exponent);

    let normal = rounded[sig - 1];
    let too_large = words::slt(aig, &signed_constant(format.emax(), width), &exponent);
    let overflow = aig.and(normal, too_large);
    let biased = words::add(aig, &exponent, &signed_constant(format.bias(), width));
    let field: Word = biased[..format.exp]
        .iter()
        .map(|&bit| aig.and(bit, normal))
        .collect();
    let mut packed = rounded[..sig - 1].to_vec();
    packed.extend(field);
    packed.push(sign);

    let to_infinity = mode.overflows_to_infinity(aig, sign);
    let saturated = words::mux(
        aig,
        to_infinity,
        &format.infinity(sign),
        &format.max_finite(sign),
    );
    words::mux(aig, overflow, &saturated, &packed)
}
