//! nanobench's builder outside `cargo bench`: a plain `main`.
//!
//! ```sh
//! cargo run --release -p yardstick --example nanobench
//! ```
//!
//! Prints the tables (markdown; they render on GitHub) of a nanosecond
//! body, a relative comparison, a Big-O fit, an optimised-away body, and a
//! portable performance check; then how long a nanosecond body takes to
//! answer, over 20 fresh builders.

use std::time::Instant;

use yardstick::nanobench::{do_not_optimize_away, Bench};
use yardstick_stats::univariate::{max, median, min};

fn main() {
    let mut x = 1_u64;

    // A nanosecond body: the answer comes in milliseconds, with its err%.
    Bench::new().run("x = x.wrapping_mul(3)", || {
        x = do_not_optimize_away(x.wrapping_mul(3));
    });

    // Relative to the first benchmark: a linear scan against a binary
    // search, and a portable check that the search wins by at least 10x.
    let sorted: Vec<u32> = (0..4096).map(|i| i * 3).collect();
    let mut needle = 0_u32;
    let mut next_needle = || {
        needle = (needle + 4_099) % (4096 * 3);
        needle
    };
    let mut bench = Bench::new();
    bench
        .title("find in 4096 sorted u32")
        .unit("search")
        .relative(true);
    bench.run("linear scan", || {
        let n = next_needle();
        do_not_optimize_away(&sorted).iter().position(|&e| e >= n)
    });
    bench.run("binary search", || {
        let n = next_needle();
        do_not_optimize_away(&sorted).partition_point(|&e| e < n)
    });
    println!(
        "\n`binary search` vs `linear scan`: {}",
        bench.ratio("binary search", "linear scan").unwrap()
    );
    match bench.check_faster("binary search", "linear scan", 10.0) {
        Ok(()) => println!("`binary search` is at least 10x faster than `linear scan`"),
        Err(message) => println!("{message}"),
    }

    // Big-O: insertion into a sorted Vec is linear in its length.
    let mut bench = Bench::new();
    bench.title("sorted insert");
    for n in [250_u64, 500, 1_000, 2_000, 4_000, 8_000] {
        let mut v: Vec<u64> = (0..n).map(|i| i * 2).collect();
        bench.complexity_n(n).run(format!("insert into {n}"), || {
            let at = v.partition_point(|&e| e < n);
            v.insert(at, n);
            v.remove(at)
        });
    }
    println!("{}", bench.complexity_big_o());

    // A body the optimiser removes (its result is dropped): the :boom: row.
    Bench::new().run("x * 3, result dropped", || {
        let _ = x.wrapping_mul(3);
    });

    // How soon does a nanosecond body answer?
    let mut took = Vec::new();
    let mut errs = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let mut bench = Bench::new();
        bench.output(None).run("x * 3", || {
            x = do_not_optimize_away(x.wrapping_mul(3));
        });
        took.push(start.elapsed());
        errs.push(bench.results()[0].err().unwrap_or(f64::NAN) * 100.0);
    }
    let ms: Vec<f64> = took.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    let stat = |f: fn(&[f64]) -> Option<f64>, xs: &[f64]| f(xs).unwrap_or(f64::NAN);
    println!(
        "\n20 fresh builders on `x = x.wrapping_mul(3)`: time to answer median {:.1} ms \
         (min {:.1}, max {:.1}); err% median {:.2} (max {:.2})",
        stat(median, &ms),
        stat(min, &ms),
        stat(max, &ms),
        stat(median, &errs),
        stat(max, &errs)
    );
}
