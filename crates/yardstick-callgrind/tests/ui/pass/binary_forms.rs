//! iai-callgrind 0.12's binary benchmark forms compile.
use yardstick_callgrind::{
    binary_benchmark_group, main, Arg, BinaryBenchmarkConfig, BinaryBenchmarkGroup, ExitWith,
    Fixtures, Options, Run,
};

fn before() {}

binary_benchmark_group!(
    name = bins;
    before = before, bench = false;
    setup = before;
    config = BinaryBenchmarkConfig::default().fixtures(Fixtures::new("src"));
    // Not a binary of this package: found on PATH, as iai-callgrind does.
    benchmark = |"true", group: &mut BinaryBenchmarkGroup| {
        group
            .sandbox(false)
            .bench(Run::with_arg(Arg::new("id", ["--foo"])).envs([("KEY", "VALUE")]))
            .bench(
                Run::with_cmd("sh", Arg::new("code", ["-c", "exit 100"]))
                    .options(Options::default().exit_with(ExitWith::Code(100))),
            )
            .bench(Run::with_cmd("false", Arg::empty("cmd")).exit_with(ExitWith::Failure));
    }
);

main!(
    config = BinaryBenchmarkConfig::default().env_clear(true);
    binary_benchmark_groups = bins
);
