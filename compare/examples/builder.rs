//! The nanobench builder on the comparison's ns-scale body (`ns_op`), as a
//! user would call it from `main`: `reps` fresh builders, each timed from
//! `Bench::new()` to its answer. Prints one line per builder,
//! `<seconds> <err fraction> <ns per op>`, for `run.py` to compare with
//! Criterion.rs's default run of the same body.
//!
//!     cargo run --release -p yardstick-side --example builder -- 20

use std::hint::black_box;
use std::time::Instant;

use criterion::nanobench::Bench;

#[path = "../benches/bodies.rs"]
#[allow(dead_code)]
mod bodies;

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    for _ in 0..reps {
        let start = Instant::now();
        let mut bench = Bench::new();
        bench
            .output(None)
            .run("ns_op", || bodies::ns_op(black_box(12345)));
        let took = start.elapsed().as_secs_f64();
        let r = &bench.results()[0];
        println!(
            "{took:.6} {:.6} {:.6}",
            r.err().unwrap_or(f64::NAN),
            r.median_ns().unwrap_or(f64::NAN)
        );
    }
}
