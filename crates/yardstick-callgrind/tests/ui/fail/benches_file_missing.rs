use yardstick_callgrind::library_benchmark;

#[library_benchmark]
#[benches::lines(file = "tests/ui/no-such-file.txt")]
fn bench(line: String) -> usize {
    line.len()
}

fn main() {}
