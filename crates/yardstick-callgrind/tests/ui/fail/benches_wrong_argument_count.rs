use yardstick_callgrind::library_benchmark;

#[library_benchmark]
#[benches::pairs((1, 2), 3)]
fn bench(a: u64, b: u64) -> u64 {
    a + b
}

fn main() {}
