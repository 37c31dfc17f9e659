//! iai-callgrind's library-benchmark form: ids and arguments per benchmark,
//! setup and teardown outside the counts, groups and configuration.
use cgdemo::{bubble_sort, fibonacci, worst_case};
use yardstick_callgrind::{
    black_box, library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig,
};

#[library_benchmark]
#[bench::short(10)]
#[bench::long(20)]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(fibonacci(value))
}

fn check_sorted(v: Vec<i32>) {
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "not sorted: {v:?}");
}

#[library_benchmark(setup = worst_case, teardown = check_sorted)]
#[benches::worst(10, 50)]
#[bench::best(args = (vec![1, 2, 3, 4]), setup = std::convert::identity)]
fn bench_bubble_sort(input: Vec<i32>) -> Vec<i32> {
    black_box(bubble_sort(input))
}

library_benchmark_group!(
    name = fibonacci_group;
    benchmarks = bench_fibonacci
);

library_benchmark_group!(
    name = sort_group;
    config = LibraryBenchmarkConfig::default().raw_callgrind_args(["--I1=32768,8,64"]);
    benchmarks = bench_bubble_sort
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("HOME");
    library_benchmark_groups = fibonacci_group, sort_group
);
