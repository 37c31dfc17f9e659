// The README's binary-benchmark quickstart, unchanged, and its exit-code
// and environment examples in the released 0.12.0 API (`.exit_with(..)`
// on Options, `envs` taking pairs).
use iai_callgrind::{
    binary_benchmark_group, main, Arg, BinaryBenchmarkConfig, BinaryBenchmarkGroup,
    ExitWith, Fixtures, Options, Run,
};

fn my_setup() {
    println!("We can put code in here which will be run before each benchmark run");
}

binary_benchmark_group!(
    name = my_exe_group;
    setup = my_setup;
    // This directory will be copied into the root of the sandbox (as `fixtures`)
    config = BinaryBenchmarkConfig::default().fixtures(Fixtures::new("fixtures"));
    benchmark =
        |"benchmark-tests-printargs", group: &mut BinaryBenchmarkGroup| {
            setup_my_exe_group(group)
    }
);

fn setup_my_exe_group(group: &mut BinaryBenchmarkGroup) {
    group
        .bench(Run::with_arg(Arg::new(
            "do foo with test1",
            ["--foo=fixtures/test1.txt"],
        )))
        .bench(
            Run::with_arg(
                Arg::new(
                    "positional arguments",
                    ["foo", "foo bar"],
                )
            ).entry_point("benchmark_tests_printargs::main")
        )
        .bench(Run::with_arg(Arg::empty("no argument")));
}

binary_benchmark_group!(
    name = exit_group;
    benchmark = |"benchmark-tests-printargs", group: &mut BinaryBenchmarkGroup| {
        group.bench(
            Run::with_arg(
                Arg::new("exits with 100", ["exit", "100"])
            )
            .options(Options::default().exit_with(ExitWith::Code(100)))
        );
        group.bench(Run::with_arg(Arg::new("env", ["x"])).envs([("KEY", "VALUE")]));
    }
);

main!(binary_benchmark_groups = my_exe_group, exit_group);
