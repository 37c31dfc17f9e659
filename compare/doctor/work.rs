//! The fixed work `cargo yardstick doctor` times (the same chain of
//! dependent multiply-adds as `crates/cargo-yardstick/src/doctor/measure.rs`,
//! written again here so that the direct measurement shares no code with
//! doctor): times it over and over for the given seconds and prints the
//! median nanoseconds of one call, once per second.
//!
//!     rustc -O work.rs && ./work 1       # one second, one median
//!     ./work 5                           # five seconds in one process, five medians

use std::hint::black_box;
use std::time::{Duration, Instant};

#[inline(never)]
fn work(steps: u64) -> u64 {
    let mut x = black_box(1u64);
    for i in 0..steps {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407 ^ i);
    }
    black_box(x)
}

fn median(mut times: Vec<u64>) -> f64 {
    times.sort_unstable();
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2] as f64
    } else {
        (times[n / 2 - 1] + times[n / 2]) as f64 / 2.0
    }
}

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for _ in 0..seconds {
        let end = Instant::now() + Duration::from_secs(1);
        let mut times = Vec::new();
        loop {
            let t = Instant::now();
            work(200_000);
            let now = Instant::now();
            times.push((now - t).as_nanos() as u64);
            if now >= end {
                break;
            }
        }
        println!("{}", median(times));
    }
}
