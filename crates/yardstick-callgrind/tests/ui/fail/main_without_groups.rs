use yardstick_callgrind::main;

main!(library_benchmark_groups =);
