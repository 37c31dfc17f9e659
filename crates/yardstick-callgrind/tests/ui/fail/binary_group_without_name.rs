use yardstick_callgrind::{binary_benchmark_group, BinaryBenchmarkGroup};

binary_benchmark_group!(
    benchmark = |group: &mut BinaryBenchmarkGroup| {
        let _ = group;
    }
);

fn main() {}
