//! The congruence domain: `x ≡ residue (mod modulus)`, where modulus 0
//! means `x == residue` and modulus 1 knows nothing. It finds parity and
//! stride facts (`x` stays even, `i` moves by 4) that intervals miss, and
//! it survives wrap-around: a value that wrapped in a `w`-bit type moved by
//! a multiple of 2^w, so it keeps its residue modulo `gcd(modulus, 2^w)`.

/// `value ≡ residue (mod modulus)`; `residue` lies in `0..modulus` when
/// `modulus > 0`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Congruence {
    pub modulus: u128,
    pub residue: i128,
}

pub fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Congruence {
    pub const TOP: Congruence = Congruence { modulus: 1, residue: 0 };

    pub fn constant(value: i128) -> Congruence {
        Congruence { modulus: 0, residue: value }
    }
    /// `residue mod modulus`, normalised; too large a modulus knows nothing.
    pub fn new(modulus: u128, residue: i128) -> Congruence {
        if modulus == 0 {
            return Congruence::constant(residue);
        }
        match i128::try_from(modulus) {
            Ok(m) => Congruence { modulus, residue: residue.rem_euclid(m) },
            Err(_) => Congruence::TOP,
        }
    }
    pub fn is_top(self) -> bool {
        self.modulus == 1
    }
    pub fn as_constant(self) -> Option<i128> {
        (self.modulus == 0).then_some(self.residue)
    }
    /// Whether `value` satisfies the congruence.
    pub fn contains(self, value: i128) -> bool {
        match self.modulus {
            0 => value == self.residue,
            m => i128::try_from(m).is_ok_and(|m| value.rem_euclid(m) == self.residue),
        }
    }

    pub fn join(self, other: Congruence) -> Congruence {
        let diff = self.residue.abs_diff(other.residue);
        Congruence::new(gcd(gcd(self.modulus, other.modulus), diff), self.residue)
    }
    /// A sound approximation of the intersection (either side contains
    /// it); `None` when the two cannot both hold.
    pub fn meet(self, other: Congruence) -> Option<Congruence> {
        let g = gcd(self.modulus, other.modulus);
        let diff = self.residue.abs_diff(other.residue);
        if !diff.is_multiple_of(g) {
            return None;
        }
        Some(match (self.modulus, other.modulus) {
            (0, _) => self,
            (_, 0) => other,
            (a, b) if a >= b => self,
            _ => other,
        })
    }

    pub fn plus(self, other: Congruence) -> Congruence {
        match self.residue.checked_add(other.residue) {
            Some(r) => Congruence::new(gcd(self.modulus, other.modulus), r),
            None => Congruence::TOP,
        }
    }
    pub fn negated(self) -> Congruence {
        Congruence::new(self.modulus, self.residue.checked_neg().unwrap_or(0))
    }
    pub fn times(self, other: Congruence) -> Congruence {
        let scale = |m: u128, r: i128| m.checked_mul(r.unsigned_abs());
        let parts = [
            self.modulus.checked_mul(other.modulus),
            scale(self.modulus, other.residue),
            scale(other.modulus, self.residue),
        ];
        match (parts, self.residue.checked_mul(other.residue)) {
            ([Some(a), Some(b), Some(c)], Some(r)) => Congruence::new(gcd(gcd(a, b), c), r),
            _ => Congruence::TOP,
        }
    }
    /// The congruence left after the value moved by an unknown multiple of
    /// 2^bits (wrap-around, truncation, a change of signedness).
    pub fn wrapped(self, bits: u32) -> Congruence {
        Congruence::new(gcd(self.modulus, 1u128 << bits), self.residue)
    }
    /// The residue modulo `divisor` when the congruence decides it.
    pub fn residue_mod(self, divisor: u128) -> Option<i128> {
        let d = i128::try_from(divisor).ok().filter(|d| *d > 0)?;
        self.modulus.is_multiple_of(divisor).then(|| self.residue.rem_euclid(d))
    }
}

#[cfg(test)]
mod tests {
    use super::Congruence;

    #[test]
    fn even_stays_even_under_addition_of_even_and_wrapping() {
        let even = Congruence::new(2, 0);
        let stepped = even.plus(Congruence::constant(2));
        assert_eq!(stepped, even);
        assert_eq!(Congruence::constant(0).join(Congruence::constant(2)), even);
        assert_eq!(Congruence::new(6, 0).wrapped(32), even);
        assert_eq!(Congruence::new(4, 1).times(Congruence::constant(3)), Congruence::new(12, 3));
    }

    #[test]
    fn meet_detects_incompatible_residues() {
        assert_eq!(Congruence::new(2, 0).meet(Congruence::new(2, 1)), None);
        assert_eq!(Congruence::new(2, 0).meet(Congruence::constant(4)), Some(Congruence::constant(4)));
        assert!(Congruence::new(4, 3).contains(-1));
    }
}
