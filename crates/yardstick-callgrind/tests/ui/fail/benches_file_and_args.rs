use yardstick_callgrind::library_benchmark;

#[library_benchmark]
#[benches::lines(file = "Cargo.toml", args = ["a"])]
fn bench(line: String) -> usize {
    line.len()
}

fn main() {}
