use yardstick_callgrind::{black_box, library_benchmark, library_benchmark_group, main};

#[path = "../../common/bodies.rs"]
mod bodies;
use bodies::*;

#[library_benchmark]
#[bench::short(10)]
#[bench::long(20)]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(fibonacci(value))
}

#[library_benchmark]
#[bench::worst(args = (50), setup = worst_case)]
fn bench_bubble_sort(input: Vec<i32>) -> Vec<i32> {
    black_box(bubble_sort(input))
}

#[library_benchmark]
#[bench::k1(1000)]
fn bench_sum(n: u64) -> u64 {
    black_box(sum_to(n))
}

library_benchmark_group!(
    name = workloads;
    benchmarks = bench_fibonacci, bench_bubble_sort, bench_sum
);

main!(library_benchmark_groups = workloads);
