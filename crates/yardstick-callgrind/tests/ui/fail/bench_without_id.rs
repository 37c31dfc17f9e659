use yardstick_callgrind::library_benchmark;

#[library_benchmark]
#[bench(1)]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
