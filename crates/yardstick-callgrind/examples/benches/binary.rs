//! Binary benchmarks: the package's `cg-tool` run with arguments, a fixture
//! copied into the sandbox, and an expected exit code.
use yardstick_callgrind::{
    binary_benchmark_group, main, Arg, BinaryBenchmarkConfig, BinaryBenchmarkGroup, ExitWith, Run,
};

fn make_input() {
    // Runs in the sandbox before each benchmark, not counted.
    std::fs::write("generated.txt", "one two three\n").expect("write generated.txt");
}

binary_benchmark_group!(
    name = tool_group;
    config = BinaryBenchmarkConfig::default().fixtures("fixtures");
    setup = make_input;
    benchmark = |group: &mut BinaryBenchmarkGroup| {
        group
            .bench(Run::with_cmd(
                env!("CARGO_BIN_EXE_cg-tool"),
                Arg::new("count fixture", ["count", "fixtures/words.txt"]),
            ))
            .bench(Run::with_cmd(
                env!("CARGO_BIN_EXE_cg-tool"),
                Arg::new("count generated", ["count", "generated.txt"]),
            ))
            .bench(
                Run::with_cmd(env!("CARGO_BIN_EXE_cg-tool"), Arg::new("exit 3", ["exit", "3"]))
                    .exit_with(ExitWith::Code(3)),
            );
    }
);

main!(binary_benchmark_groups = tool_group);
