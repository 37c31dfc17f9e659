// More of iai-callgrind's forms: a lone #[library_benchmark], config at
// every level, tuples in #[benches], a Tool, client requests in a
// benchmark, and `file =` (one benchmark per line, as later iai-callgrind
// releases have).
use iai_callgrind::{
    client_requests, library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig,
    Tool, ValgrindTool,
};
use std::hint::black_box;

use iai_compat::fibonacci;

#[library_benchmark]
fn lone() -> u64 {
    black_box(fibonacci(black_box(5)))
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().env_clear(true))]
#[benches::pairs((1, 2), (3, 4))]
#[bench::configured(args = (5, 6), config = LibraryBenchmarkConfig::default().raw_callgrind_args(["--cache-sim=no"]))]
fn add(a: u64, b: u64) -> u64 {
    black_box(a + b)
}

#[library_benchmark]
#[benches::lines(file = "inputs/lines.txt")]
fn line_length(line: String) -> usize {
    black_box(line.len())
}

#[library_benchmark]
fn with_requests() -> u64 {
    // Counting stops and starts again: only fibonacci(8) is counted twice.
    let a = fibonacci(black_box(8));
    client_requests::callgrind::toggle_collect();
    let b = fibonacci(black_box(20));
    client_requests::callgrind::toggle_collect();
    black_box(a + b)
}

library_benchmark_group!(
    name = forms;
    config = LibraryBenchmarkConfig::default().tool(Tool::new(ValgrindTool::DHAT).enable(false));
    benchmarks = lone, add, line_length, with_requests
);

main!(library_benchmark_groups = forms);
