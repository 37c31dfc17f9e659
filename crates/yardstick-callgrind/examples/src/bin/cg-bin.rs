//! A binary-benchmark bench binary for the end-to-end tests: `cg-tool` with a
//! fixture in the sandbox and an expected exit code. `CG_EXPECT` (read when
//! the group is built) changes the code expected of `exit 3`, so a test can
//! make it fail. `"cg-tool"` names the package's binary, found beside this
//! one.
use yardstick_callgrind::{
    binary_benchmark_group, main, Arg, BinaryBenchmarkConfig, BinaryBenchmarkGroup, ExitWith, Run,
};

fn expected() -> i32 {
    std::env::var("CG_EXPECT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

binary_benchmark_group!(
    name = tool;
    config = BinaryBenchmarkConfig::default().fixtures("fixtures");
    benchmark = |"cg-tool", group: &mut BinaryBenchmarkGroup| {
        group
            .bench(Run::with_arg(Arg::new("count", ["count", "fixtures/words.txt"])))
            .bench(
                Run::with_arg(Arg::new("exit", ["exit", "3"])).exit_with(ExitWith::Code(expected())),
            );
    }
);

main!(binary_benchmark_groups = tool);
