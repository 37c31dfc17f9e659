//! A library bench binary for the end-to-end tests.
//!
//! `bench_sum` has two sizes (the larger does twice the work); `bench_work`
//! sums `0..CG_WORK` (a variable passed through the cleared environment,
//! default 1000) so a test can change the work between two runs. `sorts`
//! compares two functions by id; `leaks` loses memory under Memcheck.
//! `teardowns` runs the same benchmark with and without a costly teardown.
use cgdemo::{bubble_sort, sum_to};
use yardstick_callgrind::{
    black_box, library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig, Tool,
    ValgrindTool,
};

library_benchmark! {
    #[bench::small(1000)]
    #[bench::large(2000)]
    fn bench_sum(n: u64) -> u64 {
        black_box(sum_to(n))
    }
}

fn work_from_env(default: u64) -> u64 {
    std::env::var("CG_WORK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

library_benchmark! {
    #[bench::env(args = (1000), setup = work_from_env)]
    fn bench_work(n: u64) -> u64 {
        black_box(sum_to(n))
    }
}

library_benchmark_group!(
    name = sums;
    benchmarks = bench_sum, bench_work
);

library_benchmark! {
    #[bench::case_3(vec![1, 2, 3])]
    fn bench_sorted(v: Vec<i32>) -> Vec<i32> {
        black_box(bubble_sort(v))
    }
}

library_benchmark! {
    #[bench::case_3(vec![3, 2, 1])]
    fn bench_reversed(v: Vec<i32>) -> Vec<i32> {
        black_box(bubble_sort(v))
    }
}

library_benchmark_group!(
    name = sorts;
    compare_by_id = true;
    benchmarks = bench_sorted, bench_reversed
);

/// Loses a heap block: Memcheck reports it as definitely lost.
#[inline(never)]
fn leak() -> usize {
    let v = black_box(vec![7u8; 100]);
    let len = v.len();
    std::mem::forget(v);
    len
}

library_benchmark! {
    fn bench_leak() -> usize {
        leak()
    }
}

library_benchmark_group!(
    name = leaks;
    config = LibraryBenchmarkConfig::default().tool(
        Tool::new(ValgrindTool::Memcheck)
            .args(["--leak-check=full", "--errors-for-leak-kinds=definite"])
    );
    benchmarks = bench_leak
);

/// Far more work than the benchmark (`sum_to(100_000)` against
/// `sum_to(3000)`), after it: counted, it would show. It prints its result,
/// so a test can see that it ran.
fn costly_teardown(total: u64) {
    let check = sum_to(black_box(100_000));
    eprintln!("costly teardown ran: {total} {check}");
}

library_benchmark! {
    #[bench::without(args = (3000))]
    #[bench::with_costly(args = (3000), teardown = costly_teardown)]
    fn bench_teardown(n: u64) -> u64 {
        black_box(sum_to(n))
    }
}

library_benchmark_group!(
    name = teardowns;
    benchmarks = bench_teardown
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("CG_WORK");
    library_benchmark_groups = sums, sorts, leaks, teardowns
);
