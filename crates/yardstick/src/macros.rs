//! `criterion_group!` and `criterion_main!`, as in Criterion.rs.

/// Defines a function `name` that runs benchmark functions with one
/// `Criterion`.
///
/// Short form: `criterion_group!(benches, bench_a, bench_b);` uses
/// `Criterion::default()`. Long form sets the configuration:
///
/// ```
/// # use yardstick as criterion;
/// use criterion::{criterion_group, Criterion};
/// use std::time::Duration;
///
/// fn bench_a(c: &mut Criterion) {
///     c.bench_function("a", |b| b.iter(|| 1 + 1));
/// }
///
/// criterion_group! {
///     name = benches;
///     config = Criterion::default().measurement_time(Duration::from_secs(2));
///     targets = bench_a
/// }
/// ```
#[macro_export]
macro_rules! criterion_group {
    (name = $name:ident; config = $config:expr; targets = $( $target:path ),+ $(,)*) => {
        #[doc = concat!("Runs the benchmark group `", stringify!($name), "`.")]
        pub fn $name() {
            let mut criterion: $crate::Criterion<_> = $config.configure_from_args().__may_wait();
            $(
                $target(&mut criterion);
                criterion.__target_done();
            )+
        }
    };
    ($name:ident, $( $target:path ),+ $(,)*) => {
        $crate::criterion_group! {
            name = $name;
            config = $crate::Criterion::default();
            targets = $( $target ),+
        }
    };
}

/// Defines `main`, which runs the groups made by [`criterion_group!`] and
/// then exits non-zero if a benchmark failed.
///
/// ```no_run
/// # use yardstick as criterion;
/// use criterion::{criterion_group, criterion_main, Criterion};
///
/// fn bench_a(c: &mut Criterion) {
///     c.bench_function("a", |b| b.iter(|| 1 + 1));
/// }
///
/// criterion_group!(benches, bench_a);
/// criterion_main!(benches);
/// ```
#[macro_export]
macro_rules! criterion_main {
    ( $( $group:path ),+ $(,)* ) => {
        fn main() {
            // The bench target's package, as the user's crate is compiled.
            $crate::frontend::compiled_in_package(::std::option_env!("CARGO_PKG_NAME"));
            // A suite whose data outlives its functions is walked by a
            // child, so that this process holds none of it.
            if !$crate::__walk_in_child() {
                $(
                    $group();
                )+
            }
            $crate::Criterion::default()
                .configure_from_args()
                .final_summary();
        }
    };
}
