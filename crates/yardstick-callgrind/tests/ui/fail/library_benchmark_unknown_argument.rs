use yardstick_callgrind::library_benchmark;

#[library_benchmark(args = (1))]
#[bench::id(1)]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
