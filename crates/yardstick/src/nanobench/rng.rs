//! nanobench's random generator (`ankerl::nanobench::Rng`): RomuDuoJr,
//! fast and seedable, for benchmark inputs. The builder also stretches
//! its epochs by a random 0–20 % with it (so that epochs do not fall into
//! lockstep with a periodic disturbance), seeded with 123 as nanobench is,
//! so epoch sizes match nanobench's for the same timings.

use yardstick_stats::rng::splitmix64;

/// nanobench's `Rng`: RomuDuoJr seeded through splitmix64, a 64-bit value
/// in about a nanosecond. Not for cryptography.
///
/// The same seed gives the same values as nanobench's `Rng(seed)`, so
/// inputs can be the same as a C++ benchmark's.
///
/// ```
/// use yardstick::nanobench::{Bench, Rng};
/// use std::collections::BTreeSet;
///
/// let mut rng = Rng::with_seed(123);
/// let set: BTreeSet<u64> = (0..1000).map(|_| rng.next_u64()).collect();
/// let mut bench = Bench::new();
/// bench.output(None).run("find", || set.contains(&rng.next_u64()));
///
/// let mut data: Vec<u32> = (0..500).collect();
/// rng.shuffle(&mut data);
/// assert!(rng.bounded(6) < 6 && (0.0..1.0).contains(&rng.uniform01()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    x: u64,
    y: u64,
}

impl Default for Rng {
    /// [`Rng::new`].
    fn default() -> Self {
        Rng::new()
    }
}

impl Rng {
    /// A generator with a random seed (nanobench's `Rng()`), different in
    /// every process and every call.
    #[must_use]
    pub fn new() -> Rng {
        use std::hash::{BuildHasher, Hasher};
        // std's per-process random keys, mixed with the time and a counter.
        static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            h.write_u128(t.as_nanos());
        }
        Rng::with_seed(h.finish())
    }

    /// The generator nanobench's `Rng(seed)` is: the same values for the
    /// same seed.
    #[must_use]
    pub fn with_seed(mut seed: u64) -> Rng {
        let x = splitmix64(&mut seed);
        let y = splitmix64(&mut seed);
        let mut rng = Rng { x, y };
        for _ in 0..10 {
            rng.next_u64();
        }
        rng
    }

    /// The generator nanobench starts every benchmark's epochs with.
    pub(super) fn nanobench() -> Rng {
        Rng::with_seed(123)
    }

    /// The internal state (nanobench's `state()`), to continue later with
    /// [`Rng::from_state`].
    #[must_use]
    pub fn state(&self) -> [u64; 2] {
        [self.x, self.y]
    }

    /// A generator continuing from `state`.
    #[must_use]
    pub fn from_state(state: [u64; 2]) -> Rng {
        Rng {
            x: state[0],
            y: state[1],
        }
    }

    /// The next 64-bit value (nanobench's `operator()`).
    #[allow(clippy::should_implement_trait)]
    pub fn next_u64(&mut self) -> u64 {
        let out = self.x;
        self.x = self.y.wrapping_mul(15_241_094_284_759_029_579);
        self.y = self.y.wrapping_sub(out).rotate_left(27);
        out
    }

    /// A value in `[0, range)` from one draw, by multiply and shift (no
    /// division; the bias is below 2⁻³² × range).
    pub fn bounded(&mut self, range: u32) -> u32 {
        let low = self.next_u64() & 0xffff_ffff;
        ((low * u64::from(range)) >> 32) as u32
    }

    /// Uniform in `[0, 1)`: the top 52 bits as the mantissa of a number in
    /// `[1, 2)`, minus one.
    pub fn uniform01(&mut self) -> f64 {
        let bits = (0x3ff_u64 << 52) | (self.next_u64() >> 12);
        f64::from_bits(bits) - 1.0
    }

    /// Shuffles `items` in place as nanobench's `shuffle` does: from the
    /// back, two swaps per 64-bit draw (the low and the high 32 bits, each
    /// scaled to the positions left).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        let mut i = items.len() as u64;
        while i > 1 {
            let n = self.next_u64();
            let b1 = ((n & 0xffff_ffff) * i) >> 32;
            i -= 1;
            items.swap(i as usize, b1 as usize);
            let b2 = ((n >> 32) * i) >> 32;
            i -= 1;
            items.swap(i as usize, b2 as usize);
        }
    }
}

impl Iterator for Rng {
    type Item = u64;

    /// Endless: [`Rng::next_u64`].
    fn next(&mut self) -> Option<u64> {
        Some(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_in_the_unit_interval_and_repeatable() {
        let mut a = Rng::nanobench();
        let mut b = Rng::nanobench();
        for _ in 0..1000 {
            let u = a.uniform01();
            assert!((0.0..1.0).contains(&u));
            assert_eq!(u.to_bits(), b.uniform01().to_bits());
        }
    }

    /// The first draws of nanobench's `Rng(123).uniform01()`.
    #[test]
    fn matches_nanobench() {
        let mut r = Rng::nanobench();
        assert_eq!(r.uniform01(), 0.120_499_642_078_521_82);
        assert_eq!(r.uniform01(), 0.141_099_313_498_449_95);
        assert_eq!(r.uniform01(), 0.722_894_443_079_864_1);
    }

    /// Expected values from a separate Python implementation of
    /// splitmix64 + RomuDuoJr and of nanobench's `bounded` and `shuffle`
    /// (its `uniform01` gives the pinned nanobench values above).
    #[test]
    fn values_bounded_and_shuffle_match_an_independent_implementation() {
        let mut r = Rng::with_seed(123);
        assert_eq!(
            [r.next_u64(), r.next_u64(), r.next_u64()],
            [
                2_222_826_058_396_098_479,
                2_602_822_925_082_020_875,
                13_335_048_783_801_050_212
            ]
        );
        let mut r = Rng::with_seed(123);
        let b: Vec<u32> = (0..5).map(|_| r.bounded(100)).collect();
        assert_eq!(b, [90, 96, 48, 45, 70]);
        let mut v: Vec<u32> = (0..10).collect();
        Rng::with_seed(123).shuffle(&mut v);
        assert_eq!(v, [5, 4, 6, 8, 3, 2, 0, 7, 1, 9]);
        // An odd length: the last draw's second swap is with itself.
        let mut v: Vec<u32> = (0..7).collect();
        Rng::with_seed(42).shuffle(&mut v);
        assert_eq!(v, [5, 4, 3, 2, 6, 0, 1]);
        let mut empty: [u8; 0] = [];
        Rng::with_seed(1).shuffle(&mut empty);
    }

    #[test]
    fn state_continues_and_new_generators_differ() {
        let mut a = Rng::with_seed(7);
        a.next_u64();
        let mut b = Rng::from_state(a.state());
        assert_eq!(a.next_u64(), b.next_u64());
        assert_ne!(Rng::new().next_u64(), Rng::new().next_u64());
        assert_eq!(Rng::with_seed(5).take(2).count(), 2);
    }
}
