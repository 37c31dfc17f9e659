use yardstick_callgrind::library_benchmark;

#[library_benchmark]
#[bench::id]
fn bench() -> u64 {
    1
}

fn main() {}
