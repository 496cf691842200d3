//! Binary interchange format descriptors (`Format`): exponent and significand
//! widths, and the derived exponent range and bit layout.

/// An IEEE-754 binary format, SMT-LIB style: `sig_bits` counts the hidden bit.
///
/// The in-memory encoding is the standard one: sign, `exp_bits` biased
/// exponent, `sig_bits - 1` fraction bits, `exp_bits + sig_bits` bits in all.
/// The x87 80-bit format (explicit integer bit) is `Format::X87`, a (15,64)
/// format whose 80-bit memory image is produced by `Fp::to_x87_bits`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Format {
    exp_bits: u32,
    sig_bits: u32,
}

/// Largest supported exponent width: keeps exponents far from `i64` limits
/// and decimal parsing of extreme literals affordable.
pub const MAX_EXP_BITS: u32 = 20;

impl Format {
    /// binary16 (`_Float16`).
    pub const HALF: Format = Format { exp_bits: 5, sig_bits: 11 };
    /// binary32 (`float`).
    pub const SINGLE: Format = Format { exp_bits: 8, sig_bits: 24 };
    /// binary64 (`double`).
    pub const DOUBLE: Format = Format { exp_bits: 11, sig_bits: 53 };
    /// binary128 (`_Float128`).
    pub const QUAD: Format = Format { exp_bits: 15, sig_bits: 113 };
    /// The value set of x87 extended precision (`long double` on x86).
    pub const X87: Format = Format { exp_bits: 15, sig_bits: 64 };

    /// A format with the given widths, or `None` unless
    /// `2 <= exp_bits <= MAX_EXP_BITS`, `sig_bits >= 2` and the encoding fits
    /// in 128 bits.
    pub const fn new(exp_bits: u32, sig_bits: u32) -> Option<Format> {
        if exp_bits < 2 || exp_bits > MAX_EXP_BITS || sig_bits < 2 || exp_bits + sig_bits > 128 {
            return None;
        }
        Some(Format { exp_bits, sig_bits })
    }

    /// Exponent field width.
    pub const fn exp_bits(self) -> u32 {
        self.exp_bits
    }

    /// Precision in bits, hidden bit included.
    pub const fn sig_bits(self) -> u32 {
        self.sig_bits
    }

    /// Width of the standard encoding.
    pub const fn width(self) -> u32 {
        self.exp_bits + self.sig_bits
    }

    /// Exponent bias (also the largest unbiased exponent, `emax`).
    pub const fn bias(self) -> i64 {
        (1i64 << (self.exp_bits - 1)) - 1
    }

    /// Largest exponent of a finite value.
    pub const fn emax(self) -> i64 {
        self.bias()
    }

    /// Exponent of the smallest normal value.
    pub const fn emin(self) -> i64 {
        1 - self.bias()
    }

    /// Number of stored fraction bits.
    pub(crate) const fn frac_bits(self) -> u32 {
        self.sig_bits - 1
    }

    pub(crate) const fn frac_mask(self) -> u128 {
        (1u128 << self.frac_bits()) - 1
    }

    /// All-ones biased exponent (infinities and NaNs).
    pub(crate) const fn max_biased_exp(self) -> u128 {
        (1u128 << self.exp_bits) - 1
    }

    pub(crate) const fn sign_mask(self) -> u128 {
        1u128 << (self.width() - 1)
    }

    /// Mask of all bits of the encoding.
    pub(crate) const fn width_mask(self) -> u128 {
        if self.width() == 128 {
            u128::MAX
        } else {
            (1u128 << self.width()) - 1
        }
    }

    /// The quiet bit: the most significant fraction bit.
    pub(crate) const fn quiet_bit(self) -> u128 {
        1u128 << (self.frac_bits() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_formats_have_ieee_parameters() {
        assert_eq!((Format::SINGLE.emin(), Format::SINGLE.emax()), (-126, 127));
        assert_eq!((Format::DOUBLE.emin(), Format::DOUBLE.emax()), (-1022, 1023));
        assert_eq!((Format::QUAD.emin(), Format::QUAD.emax()), (-16382, 16383));
        assert_eq!(Format::HALF.width(), 16);
        assert_eq!(Format::QUAD.width_mask(), u128::MAX);
        assert_eq!(Format::SINGLE.quiet_bit(), 0x40_0000);
    }

    #[test]
    fn invalid_widths_are_rejected() {
        assert_eq!(Format::new(1, 24), None);
        assert_eq!(Format::new(8, 1), None);
        assert_eq!(Format::new(21, 24), None);
        assert_eq!(Format::new(15, 114), None);
        assert_eq!(Format::new(15, 113), Some(Format::QUAD));
    }
}
