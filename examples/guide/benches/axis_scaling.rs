//! Guide chapter "Advanced Configuration", section "Chart Axis Scaling":
//! `PlotConfiguration` with `AxisScale::Logarithmic` on a group.
//!
//! The guide's snippet does not compile as printed; the minimal fixes are
//! marked below.

use criterion::*;

fn do_a_thing(x: u64) {
    // Do something
    // (Filled in: constant-time work, so even the largest input stays fast.
    // The input goes through `black_box` too: a mix of a loop-invariant
    // input is hoisted out of the timed loop, and the harness rightly warned
    // that the body was optimised away.)
    let mut h = std::hint::black_box(x);
    for _ in 0..8 {
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    }
    std::hint::black_box(h);
}

fn bench(c: &mut Criterion) {
    let plot_config = PlotConfiguration::default().summary_scale(AxisScale::Logarithmic);

    let mut group = c.benchmark_group("log_scale_example");
    group.plot_config(plot_config);

    for i in [
        1u64, 10u64, 100u64, 1000u64, 10000u64, 100000u64, 1000000u64,
    ]
    .iter()
    {
        // Fixed: the guide calls `bench_function` with an input, which is
        // `bench_with_input`, and passes `i: &u64` where `do_a_thing` takes a
        // `u64`.
        group.bench_with_input(BenchmarkId::from_parameter(i), i, |b, i| {
            b.iter(|| do_a_thing(*i))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
