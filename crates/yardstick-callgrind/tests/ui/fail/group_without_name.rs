use yardstick_callgrind::{library_benchmark, library_benchmark_group};

#[library_benchmark]
fn bench() -> u64 {
    1
}

library_benchmark_group!(benchmarks = bench);

fn main() {}
