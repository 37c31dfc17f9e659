//! Plain reference loop for the comparison: `reference <workload> [seconds]`
//! times one long run of the workload body with `Instant` and prints
//! `<workload> <ns per iteration> <iterations>`.
//!
//! The loop is the simplest one that can time the body: the same shape as a
//! harness's `iter` loop (`black_box` of each result), run for about
//! `seconds` (default 1) so that the clock's resolution and the timer calls
//! do not matter. `sort_setup` makes its inputs before each timed batch of
//! ten and drops the outputs after it, as `iter_batched` does, so only the
//! sort is timed (the two timer reads per batch cost well under 0.1% of ten
//! sorts).

use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../../benches/bodies.rs"]
#[allow(dead_code)]
mod bodies;

/// Times `n` iterations of the plain loop of `workload`.
fn run(workload: &str, n: u64, shuffler: &mut bodies::Shuffler) -> Duration {
    match workload {
        "empty" => {
            let start = Instant::now();
            for _ in 0..n {
                black_box({});
            }
            start.elapsed()
        }
        "ns_op" => {
            let start = Instant::now();
            for _ in 0..n {
                black_box(bodies::ns_op(black_box(12345)));
            }
            start.elapsed()
        }
        "us_loop" => {
            let start = Instant::now();
            for _ in 0..n {
                black_box(bodies::us_loop(black_box(12345)));
            }
            start.elapsed()
        }
        "sort_setup" => {
            // Batches of up to 10 inputs (80 KB, so they are still in cache
            // as a freshly made input is): made untimed, sorted timed,
            // outputs dropped untimed.
            let mut total = Duration::ZERO;
            let mut left = n;
            while left > 0 {
                let batch = left.min(10);
                left -= batch;
                let inputs: Vec<Vec<u64>> = (0..batch).map(|_| shuffler.next_input()).collect();
                let mut outputs = Vec::with_capacity(batch as usize);
                let start = Instant::now();
                outputs.extend(inputs.into_iter().map(|v| black_box(bodies::sort(v))));
                total += start.elapsed();
                drop(outputs);
            }
            total
        }
        _ => {
            eprintln!("reference: unknown workload {workload:?} (expected empty, ns_op, us_loop or sort_setup)");
            std::process::exit(2);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(workload) = args.first() else {
        eprintln!("usage: reference <empty|ns_op|us_loop|sort_setup> [seconds]");
        std::process::exit(2);
    };
    let seconds: f64 = match args.get(1).map(|s| s.parse()) {
        None => 1.0,
        Some(Ok(s)) if s > 0.0 => s,
        Some(_) => {
            eprintln!(
                "reference: seconds must be a positive number, got {:?}",
                args[1]
            );
            std::process::exit(2);
        }
    };
    let mut shuffler = bodies::Shuffler::new();

    // Calibrate: double n until one run takes at least 1/20 of the target,
    // which also warms the caches and the branch predictors.
    let mut n = 1u64;
    let per_iter = loop {
        let t = run(workload, n, &mut shuffler);
        if t.as_secs_f64() >= seconds / 20.0 {
            break t.as_secs_f64() / n as f64;
        }
        n *= 2;
    };
    let n = ((seconds / per_iter) as u64).max(1);
    let t = run(workload, n, &mut shuffler);
    println!("{workload} {:.6} {n}", t.as_nanos() as f64 / n as f64);
}
