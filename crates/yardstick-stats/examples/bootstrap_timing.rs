//! Times the full analysis of a 100-sample benchmark: all five bootstrap
//! estimates with 100,000 resamples, then a comparison with 100,000
//! resamples. Run with `cargo run --release -p yardstick-stats --example
//! bootstrap_timing`.

use std::time::Instant;

use yardstick_stats::rng::Rng;
use yardstick_stats::{compare, estimates, BootstrapConfig, ChangeConfig};

fn main() {
    let mut rng = Rng::new(1);
    let iters: Vec<f64> = (1..=100).map(|i| f64::from(i) * 10.0).collect();
    let values: Vec<f64> = iters
        .iter()
        .map(|n| n * (100.0 + 5.0 * rng.next_f64()))
        .collect();
    let old: Vec<f64> = values.iter().zip(&iters).map(|(v, n)| v / n).collect();
    let new: Vec<f64> = old.iter().map(|t| t * 1.02).collect();
    let bcfg = BootstrapConfig::default();
    let ccfg = ChangeConfig::default();

    let mut best = (f64::INFINITY, f64::INFINITY);
    for _ in 0..10 {
        let t0 = Instant::now();
        let e = estimates(&iters, &values, true, &bcfg).expect("valid data");
        let t1 = Instant::now();
        let c = compare(&old, &new, &ccfg).expect("valid data");
        let t2 = Instant::now();
        std::hint::black_box((e, c));
        best.0 = best.0.min((t1 - t0).as_secs_f64());
        best.1 = best.1.min((t2 - t1).as_secs_f64());
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "threads {threads}: estimates {:.1} ms, compare {:.1} ms, total {:.1} ms (best of 10)",
        best.0 * 1e3,
        best.1 * 1e3,
        (best.0 + best.1) * 1e3
    );
}
