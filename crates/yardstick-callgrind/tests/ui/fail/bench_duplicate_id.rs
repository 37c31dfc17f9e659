use yardstick_callgrind::library_benchmark;

#[library_benchmark]
#[bench::same(1)]
#[bench::same(2)]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
