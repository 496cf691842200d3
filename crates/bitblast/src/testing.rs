//! Test support shared by the crate's unit tests: a small deterministic
//! random generator, so failures reproduce from the printed seed.

/// SplitMix64: tiny, fast and good enough for test-case generation.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn next_u128(&mut self) -> u128 {
        (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64())
    }

    /// A value below `bound` (which must be positive).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    /// A `width`-bit value biased toward the edge cases of arithmetic:
    /// zero, one, all ones, the signed extremes, small and random values.
    pub fn edgy_value(&mut self, width: usize) -> u128 {
        let mask = mask(width);
        let sign = 1u128 << (width - 1);
        match self.below(8) {
            0 => 0,
            1 => 1 & mask,
            2 => mask,
            3 => sign,
            4 => sign - 1,
            5 => self.below(4) as u128 & mask,
            _ => self.next_u128() & mask,
        }
    }
}

/// The low `width` bits set (`width` at most 128).
pub fn mask(width: usize) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// A `width`-bit pattern read as a two's-complement number.
pub fn to_signed(value: u128, width: usize) -> i128 {
    let shift = 128 - width as u32;
    ((value << shift) as i128) >> shift
}
