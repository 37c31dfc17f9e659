use yardstick_callgrind::library_benchmark_group;

library_benchmark_group!(name = empty; benchmarks =);

fn main() {}
