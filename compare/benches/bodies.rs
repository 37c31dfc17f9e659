//! The bodies of the workloads, shared by the bench file (`workloads.rs`) and
//! the plain reference loop (`reference/src/main.rs`) so that both time
//! exactly the same code.

use std::hint::black_box;

/// ns-scale operation: one multiply-add on an opaque value.
#[inline(always)]
pub fn ns_op(x: u64) -> u64 {
    black_box(x)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(1)
}

/// µs-scale loop: 2000 dependent multiply/xor-shift steps (a few µs).
#[inline(never)]
pub fn us_loop(seed: u64) -> u64 {
    let mut x = seed;
    for i in 0..2000u64 {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
        x ^= x >> 29;
    }
    x
}

/// A deterministic shuffled vector of `n` u64 (xorshift, Fisher-Yates).
pub fn shuffled(n: usize, seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..n as u64).collect();
    let mut s = seed | 1;
    for i in (1..n).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let j = (s % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

/// The input maker of `sort_setup`: each call gives a differently shuffled
/// vector of 1000 u64.
pub struct Shuffler(u64);

impl Shuffler {
    pub fn new() -> Self {
        Shuffler(0x2545_F491_4F6C_DD1D)
    }

    pub fn next_input(&mut self) -> Vec<u64> {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        shuffled(1000, self.0)
    }
}

/// The timed part of `sort_setup`.
#[inline(never)]
pub fn sort(mut v: Vec<u64>) -> Vec<u64> {
    v.sort();
    v
}
