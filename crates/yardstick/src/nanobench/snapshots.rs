//! Snapshot test of the table the builder prints: a header whenever the
//! columns or the title change, the relative column, context, complexityN
//! and the `:wavy_dash:` row of an unstable result. The timer is fake (a
//! fixed time per iteration with a fixed wobble per epoch) and the epochs
//! have fixed sizes, so the table is the same on every machine; a change
//! of format shows as a reviewed diff of `snapshots/*.snap`.

use std::time::Duration;

use super::Bench;

/// A timer for `run_custom`: `ns` per iteration, each epoch off by the
/// next of `wobble` (fractions).
fn fake(ns: f64, wobble: &'static [f64]) -> impl FnMut(u64) -> Duration {
    let mut epoch = 0;
    move |iterations| {
        let w = wobble[epoch % wobble.len()];
        epoch += 1;
        Duration::from_nanos((iterations as f64 * ns * (1.0 + w)).round() as u64)
    }
}

const STEADY: &[f64] = &[0.0, 0.01, -0.01, 0.002, -0.003];
const NOISY: &[f64] = &[0.0, 0.3, -0.2, 0.25, -0.15];

#[test]
fn the_builders_table() {
    let mut out = Vec::new();
    {
        let mut bench = Bench::new();
        bench
            .output(Some(Box::new(&mut out)))
            .title("parsing")
            .warmup(0)
            .epochs(5)
            .epoch_iterations(1000)
            .performance_counters(false)
            .relative(true);
        bench.run_custom("serde_json", fake(120.0, STEADY));
        bench
            .context("size", "small")
            .run_custom("simd-json", fake(80.0, STEADY));
        bench
            .clear_context()
            .run_custom("noisy", fake(300.0, NOISY));
        bench
            .title("bytes")
            .relative(false)
            .unit("byte")
            .batch(64)
            .run_custom("memcpy", fake(12_345.0, STEADY));
        bench
            .complexity_n(1000)
            .run_custom("sort", fake(45_000.0, STEADY));
    }
    insta::assert_snapshot!("nanobench_table", String::from_utf8(out).unwrap());
}
