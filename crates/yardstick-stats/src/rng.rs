//! A small, fast, seeded pseudo-random number generator.
//!
//! [`Rng`] is xoshiro256++ (Blackman and Vigna, 2019) seeded through
//! splitmix64, so any `u64` — including 0 — is a good seed. It is not
//! cryptographically secure; it is meant for resampling and for jittering
//! iteration counts, where speed and reproducibility matter.
//!
//! The output for a given seed is part of this crate's contract: the same
//! seed gives the same stream on every platform and in every release of the
//! same major version, which is what makes saved analyses reproducible.
//!
//! # Example
//!
//! ```
//! use yardstick_stats::rng::Rng;
//!
//! let mut a = Rng::new(42);
//! let mut b = Rng::new(42);
//! assert_eq!(a.next_u64(), b.next_u64());
//! let die = a.below(6); // uniform in 0..6
//! assert!(die < 6);
//! let u = a.next_f64(); // uniform in [0, 1)
//! assert!((0.0..1.0).contains(&u));
//! ```

/// One step of splitmix64: advances `state` and returns a well-mixed value.
///
/// Used to expand a single `u64` seed into the 256-bit xoshiro state and to
/// derive independent streams from `(seed, stream)` pairs.
#[must_use]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoshiro256++: a seeded generator of uniformly distributed `u64`s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole stream is determined by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        // splitmix64 is a bijection of a counter, so four consecutive outputs
        // are never all zero; xoshiro's only forbidden state cannot occur.
        Rng { s }
    }

    /// A generator for stream number `stream` of `seed`.
    ///
    /// Different streams of the same seed are statistically independent for
    /// all practical purposes; the bootstrap gives every fixed-size chunk of
    /// resamples its own stream so that its results do not depend on how many
    /// threads run the chunks.
    #[must_use]
    pub fn with_stream(seed: u64, stream: u64) -> Rng {
        let mut sm = stream;
        let mixed = splitmix64(&mut sm);
        let mut sm2 = seed ^ mixed.rotate_left(17);
        Rng::new(splitmix64(&mut sm2) ^ seed)
    }

    /// The next uniformly distributed `u64`.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniformly distributed integer in `0..n`, without modulo bias
    /// (Lemire's multiply-and-reject method).
    ///
    /// # Panics
    ///
    /// Panics if `n` is zero.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0): the range 0..0 is empty");
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        // Truncation to the low 64 bits is the method.
        #[allow(clippy::cast_possible_truncation)]
        let mut low = m as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
                #[allow(clippy::cast_possible_truncation)]
                {
                    low = m as u64;
                }
            }
        }
        (m >> 64) as u64
    }

    /// Two independent uniformly distributed integers in `0..n` from one
    /// 64-bit output (each half by Lemire's method, drawing again only on
    /// the rare rejection). Twice as fast as two calls to [`below`](Rng::below)
    /// when `n` fits in 32 bits, which is what resampling needs.
    ///
    /// # Panics
    ///
    /// Panics if `n` is zero.
    #[inline(always)]
    pub fn below_u32_pair(&mut self, n: u32) -> (u32, u32) {
        assert!(n > 0, "Rng::below_u32_pair(0): the range 0..0 is empty");
        let x = self.next_u64();
        let n64 = u64::from(n);
        let ma = (x & 0xFFFF_FFFF) * n64;
        let mb = (x >> 32) * n64;
        // Truncation to the low half is Lemire's test.
        #[allow(clippy::cast_possible_truncation)]
        if (ma as u32) < n || (mb as u32) < n {
            return self.pair_slow(ma, mb, n);
        }
        #[allow(clippy::cast_possible_truncation)]
        ((ma >> 32) as u32, (mb >> 32) as u32)
    }

    /// The rare case of [`below_u32_pair`](Rng::below_u32_pair) where a
    /// half may have to be rejected.
    #[cold]
    #[inline(never)]
    fn pair_slow(&mut self, ma: u64, mb: u64, n: u32) -> (u32, u32) {
        let a = self.lemire32_finish(ma, n);
        let b = self.lemire32_finish(mb, n);
        (a, b)
    }

    /// Finishes Lemire's method for the product `m` of 32 random bits and
    /// `n`, drawing afresh while the low half is in the rejection zone.
    #[allow(clippy::cast_possible_truncation)]
    fn lemire32_finish(&mut self, mut m: u64, n: u32) -> u32 {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = (self.next_u64() >> 32) * u64::from(n);
        }
        (m >> 32) as u32
    }

    /// A uniformly distributed index in `0..n` (for resampling slices).
    ///
    /// # Panics
    ///
    /// Panics if `n` is zero.
    #[inline]
    pub fn index(&mut self, n: usize) -> usize {
        // usize fits in u64 on every supported platform, and the result is
        // below n, so it fits back.
        #[allow(clippy::cast_possible_truncation)]
        {
            self.below(n as u64) as usize
        }
    }

    /// A uniformly distributed `f64` in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xoshiro256pp_matches_reference_vector() {
        // Reference: the C implementation by Blackman and Vigna
        // (prng.di.unimi.it/xoshiro256plusplus.c) started from state
        // [1, 2, 3, 4] produces 41943041, 58720359, 3588806011781223, ...
        let mut r = Rng { s: [1, 2, 3, 4] };
        assert_eq!(r.next_u64(), 41_943_041);
        assert_eq!(r.next_u64(), 58_720_359);
        assert_eq!(r.next_u64(), 3_588_806_011_781_223);
    }

    #[test]
    fn splitmix64_matches_reference_vector() {
        // Reference: splitmix64.c by Vigna, seed 1234567:
        // 6457827717110365317, 3203168211198807973.
        let mut s = 1_234_567;
        assert_eq!(splitmix64(&mut s), 6_457_827_717_110_365_317);
        assert_eq!(splitmix64(&mut s), 3_203_168_211_198_807_973);
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Rng::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.index(6)] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn pairs_are_in_range_and_roughly_uniform() {
        let mut r = Rng::new(8);
        let mut counts = [0u32; 7];
        for _ in 0..35_000 {
            let (a, b) = r.below_u32_pair(7);
            counts[a as usize] += 1;
            counts[b as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
        // A range that forces frequent rejections still terminates and stays
        // in range.
        let n = (1u32 << 31) + 1;
        for _ in 0..1000 {
            let (a, b) = r.below_u32_pair(n);
            assert!(a < n && b < n);
        }
    }

    #[test]
    fn next_f64_is_in_unit_interval() {
        let mut r = Rng::new(0);
        let mut sum = 0.0;
        for _ in 0..100_000 {
            let u = r.next_f64();
            assert!((0.0..1.0).contains(&u));
            sum += u;
        }
        assert!((sum / 100_000.0 - 0.5).abs() < 0.01);
    }

    #[test]
    fn streams_differ() {
        let a = Rng::with_stream(1, 0).next_u64();
        let b = Rng::with_stream(1, 1).next_u64();
        let c = Rng::with_stream(2, 0).next_u64();
        assert_ne!(a, b);
        assert_ne!(a, c);
    }
}
