use yardstick_callgrind::library_benchmark;

#[library_benchmark]
#[bench::id(args = (1), setup = |x: u64| x)]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
