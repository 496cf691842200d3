//! Test support shared by the unit tests: a small deterministic PRNG, so
//! randomized tests are reproducible without external crates.

/// SplitMix64: tiny, fast, and good enough to spread test cases.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0; the bias is irrelevant for tests).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Mostly random bits, often an edge value (0, 1, all ones, signed
    /// extremes), truncated to `width`.
    pub(crate) fn interesting_u128(&mut self, width: u32) -> u128 {
        let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
        let raw = match self.below(8) {
            0 => 0,
            1 => 1,
            2 => u128::MAX,
            3 => 1u128 << (width - 1),
            4 => (1u128 << (width - 1)).wrapping_sub(1),
            _ => (self.next_u64() as u128) << 64 | self.next_u64() as u128,
        };
        raw & mask
    }
}
