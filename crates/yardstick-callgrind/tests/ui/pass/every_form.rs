//! Every form of the attributes and macros, as iai-callgrind 0.12 writes
//! them, compiles.
use std::hint::black_box;

use yardstick_callgrind::{
    library_benchmark, library_benchmark_group, main, EventKind, FlamegraphConfig, LibraryBenchmarkConfig,
    RegressionConfig, Tool, ValgrindTool,
};

fn setup_len(n: usize) -> String {
    "x".repeat(n)
}

fn repeat(n: usize, c: char) -> String {
    std::iter::repeat(c).take(n).collect()
}

fn teardown_len(len: usize) {
    assert!(len < 1000);
}

#[library_benchmark]
fn lone() -> u64 {
    black_box(1)
}

#[library_benchmark(setup = setup_len, teardown = teardown_len, config = LibraryBenchmarkConfig::default())]
#[bench::plain(3)]
#[bench::with_args(args = (4))]
#[bench::other_setup(args = (5, 'y'), setup = repeat)]
#[benches::many(1, 2, 3)]
#[benches::with_array(args = [6, 7], config = LibraryBenchmarkConfig::default().env_clear(false))]
fn lengths(s: String) -> usize {
    s.len()
}

#[library_benchmark]
#[bench::two(&[1], 2)]
#[bench::borrowed(&[1, 2, 3], 4)]
#[benches::tuples((&[1], 2), (&[3], 4))]
fn sum(a: &[u64], b: u64) -> u64 {
    a.iter().sum::<u64>() + b
}

#[library_benchmark]
#[bench::none()]
#[benches::empty()]
fn zero() -> u64 {
    black_box(0)
}

library_benchmark_group!(name = group_a; benchmarks = lone, lengths, zero);
library_benchmark_group!(
    name = group_b;
    config = LibraryBenchmarkConfig::default()
        .raw_callgrind_args(["--cache-sim=no"])
        .regression(RegressionConfig::default().limits([(EventKind::Ir, 5.0)]).fail_fast(true))
        .flamegraph(FlamegraphConfig::default())
        .tool(Tool::new(ValgrindTool::DHAT));
    compare_by_id = true;
    benchmarks = sum
);

main!(
    config = LibraryBenchmarkConfig::default();
    library_benchmark_groups = group_a, group_b
);
