//! The machine integer types the abstract domains track: a width of at
//! most 64 bits and a signedness (`Bool` is the unsigned 1-bit type), with
//! their value ranges as `i128`, wide enough for every such value and for
//! the sums and differences the domains form from them.

use ir::{Type, TypeId, TypeTable};

/// A tracked integer type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct IntKind {
    pub bits: u32,
    pub signed: bool,
}

impl IntKind {
    /// The kind of `ty`, when it is an integer of at most 64 bits or `Bool`.
    pub fn of(types: &TypeTable, ty: TypeId) -> Option<IntKind> {
        match types.get(ty) {
            Type::Bool => Some(IntKind { bits: 1, signed: false }),
            Type::Int { bits, signed } if (1..=64).contains(bits) => Some(IntKind { bits: *bits, signed: *signed }),
            _ => None,
        }
    }
    pub fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    pub fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    pub fn contains(self, value: i128) -> bool {
        (self.min()..=self.max()).contains(&value)
    }
    /// The value that the two's-complement `bits` (truncated to the width)
    /// stand for in this kind.
    pub fn value_of_bits(self, bits: u128) -> i128 {
        let mask = (1u128 << self.bits) - 1;
        let raw = (bits & mask) as i128;
        if self.signed && raw > self.max() {
            raw - (1i128 << self.bits)
        } else {
            raw
        }
    }
    /// `value` wrapped into this kind (two's complement).
    pub fn wrap(self, value: i128) -> i128 {
        self.value_of_bits(value as u128)
    }
}

#[cfg(test)]
mod tests {
    use super::IntKind;

    #[test]
    fn ranges_and_wrapping_follow_twos_complement() {
        let i8k = IntKind { bits: 8, signed: true };
        let u8k = IntKind { bits: 8, signed: false };
        assert_eq!((i8k.min(), i8k.max()), (-128, 127));
        assert_eq!((u8k.min(), u8k.max()), (0, 255));
        assert_eq!(i8k.wrap(128), -128);
        assert_eq!(u8k.wrap(-1), 255);
        assert_eq!(IntKind { bits: 64, signed: false }.max(), u64::MAX as i128);
        assert_eq!(i8k.value_of_bits(0xff), -1);
    }
}
