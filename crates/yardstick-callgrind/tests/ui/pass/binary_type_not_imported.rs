//! iai-callgrind 0.12's `binary_benchmark_group!` matches the type of the
//! closure's parameter as the literal word `BinaryBenchmarkGroup`, so its
//! users write it without importing the type. Both forms, with and without
//! a command.
use yardstick_callgrind::{binary_benchmark_group, main, Arg, Run};

binary_benchmark_group!(
    name = with_command;
    benchmark = |"true", group: &mut BinaryBenchmarkGroup| {
        group.bench(Run::with_arg(Arg::new("id", ["--foo"])));
    }
);

binary_benchmark_group!(
    name = without_command;
    benchmark = |group: &mut BinaryBenchmarkGroup| {
        group.bench(Run::with_cmd("true", Arg::empty("empty")));
    }
);

main!(binary_benchmark_groups = with_command, without_command);
