//! The small generator nanobench stretches its epochs with.
//!
//! nanobench lengthens every computed epoch by a random 0–20 % so that
//! epochs do not fall into lockstep with a periodic disturbance. To size
//! epochs exactly as nanobench does, the draws come from the same
//! generator (RomuDuoJr, seeded through splitmix64 with 123 and stepped ten
//! times) and are turned into `[0, 1)` the same way.

use yardstick_stats::rng::splitmix64;

/// RomuDuoJr, as nanobench's `Rng`.
#[derive(Debug, Clone)]
pub(super) struct Rng {
    x: u64,
    y: u64,
}

impl Rng {
    /// The generator nanobench starts every benchmark with (`Rng(123)`).
    pub(super) fn nanobench() -> Rng {
        Rng::seeded(123)
    }

    fn seeded(mut seed: u64) -> Rng {
        let x = splitmix64(&mut seed);
        let y = splitmix64(&mut seed);
        let mut rng = Rng { x, y };
        for _ in 0..10 {
            rng.next_u64();
        }
        rng
    }

    fn next_u64(&mut self) -> u64 {
        let out = self.x;
        self.x = self.y.wrapping_mul(15_241_094_284_759_029_579);
        self.y = self.y.wrapping_sub(out).rotate_left(27);
        out
    }

    /// Uniform in `[0, 1)`: the top 52 bits as the mantissa of a number in
    /// `[1, 2)`, minus one.
    pub(super) fn uniform01(&mut self) -> f64 {
        let bits = (0x3ff_u64 << 52) | (self.next_u64() >> 12);
        f64::from_bits(bits) - 1.0
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
}
