//! SplitMix64 (Steele, Lea and Flood 2014), the one pseudo-random generator of the seeded tests,
//! generators and benchmarks, so that the mixing function is written once. Each user wraps it
//! in its own `Rng` (own seeding and helpers, which fix the existing seeded streams). Included
//! with `#[path]`, since tests, examples and tools are separate crates.

#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
