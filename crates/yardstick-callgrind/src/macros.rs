//! The declarative macros: `main!`, `library_benchmark!`,
//! `library_benchmark_group!` and `binary_benchmark_group!`.

/// Makes the bench binary's `main`.
///
/// Three forms:
///
/// - The Iai form, plain functions taking nothing:
///   `main!(bench_a, bench_b);`
/// - Library benchmark groups, with an optional configuration for all of
///   them: `main!(config = LibraryBenchmarkConfig::default(); library_benchmark_groups = group_a, group_b);`
/// - Binary benchmark groups:
///   `main!(binary_benchmark_groups = my_exe_group);`
///
/// ```no_run
/// use yardstick_callgrind::{black_box, main};
///
/// fn fibonacci(n: u64) -> u64 {
///     match n {
///         0 | 1 => 1,
///         n => fibonacci(n - 1) + fibonacci(n - 2),
///     }
/// }
///
/// fn iai_benchmark_short() -> u64 {
///     fibonacci(black_box(10))
/// }
///
/// fn iai_benchmark_long() -> u64 {
///     fibonacci(black_box(30))
/// }
///
/// main!(iai_benchmark_short, iai_benchmark_long);
/// ```
#[macro_export]
macro_rules! main {
    (config = $config:expr; library_benchmark_groups = $($group:ident),+ $(,)?) => {
        fn main() {
            $crate::__private::main_library(
                $crate::__context!(),
                ::std::option::Option::Some($config),
                ::std::vec![$($group()),+],
            )
        }
    };
    (library_benchmark_groups = $($group:ident),+ $(,)?) => {
        fn main() {
            $crate::__private::main_library(
                $crate::__context!(),
                ::std::option::Option::None,
                ::std::vec![$($group()),+],
            )
        }
    };
    (config = $config:expr; binary_benchmark_groups = $($group:ident),+ $(,)?) => {
        fn main() {
            $crate::__private::main_binary(
                $crate::__context!(),
                ::std::option::Option::Some($config),
                ::std::vec![$($group()),+],
            )
        }
    };
    (binary_benchmark_groups = $($group:ident),+ $(,)?) => {
        fn main() {
            $crate::__private::main_binary(
                $crate::__context!(),
                ::std::option::Option::None,
                ::std::vec![$($group()),+],
            )
        }
    };
    ($($function:path),+ $(,)?) => {
        fn main() {
            let benchmarks = ::std::vec![$(
                $crate::LibraryBenchmark {
                    function: ::std::stringify!($function),
                    id: ::std::option::Option::None,
                    args: ::std::string::String::new(),
                    function_config: ::std::option::Option::None,
                    config: ::std::option::Option::None,
                    run: || {
                        // Called through a pointer the optimiser cannot see
                        // through: never inlined into the measured function,
                        // so callgrind_annotate and the flamegraphs name it.
                        let function: fn() -> _ = $function;
                        let function = ::std::hint::black_box(function);
                        let _ = $crate::__private::measure(function);
                    },
                }
            ),+];
            $crate::__private::main_library(
                $crate::__context!(),
                ::std::option::Option::None,
                ::std::vec![$crate::LibraryBenchmarkGroup {
                    name: "",
                    config: ::std::option::Option::None,
                    compare_by_id: false,
                    benchmarks,
                }],
            )
        }
    };
}

/// The [`Context`](crate::__private::Context) of the bench file the macro
/// expands in.
#[doc(hidden)]
#[macro_export]
macro_rules! __context {
    () => {
        $crate::__private::Context {
            package: ::std::env!("CARGO_PKG_NAME"),
            manifest_dir: ::std::env!("CARGO_MANIFEST_DIR"),
            file: ::std::file!(),
            module: ::std::module_path!(),
        }
    };
}

/// Declares a library benchmark: a function and the argument sets it is
/// benchmarked with, in iai-callgrind's attribute syntax.
///
/// ```no_run
/// use yardstick_callgrind::{black_box, library_benchmark, library_benchmark_group};
///
/// fn fibonacci(n: u64) -> u64 {
///     match n {
///         0 | 1 => 1,
///         n => fibonacci(n - 1) + fibonacci(n - 2),
///     }
/// }
///
/// fn make_vec(n: u64) -> Vec<u64> {
///     (0..n).collect()
/// }
///
/// library_benchmark! {
///     #[bench::short(10)]
///     #[bench::long(20)]
///     fn bench_fibonacci(value: u64) -> u64 {
///         black_box(fibonacci(value))
///     }
/// }
///
/// library_benchmark! {
///     #[library_benchmark(setup = make_vec)]
///     #[benches::sizes(10, 100)]
///     #[bench::custom(args = (5), teardown = drop)]
///     fn bench_sum(v: Vec<u64>) -> u64 {
///         black_box(v.iter().sum())
///     }
/// }
///
/// library_benchmark_group!(name = my_group; benchmarks = bench_fibonacci, bench_sum);
/// # fn main() {}
/// // In a bench file: main!(library_benchmark_groups = my_group);
/// ```
///
/// The macro must be used at module level (not inside a function): the
/// hidden module it adds reaches the function through `super::`.
///
/// - `#[bench::ID(ARGS…)]` benchmarks the function with `ARGS`;
///   `#[bench::ID(args = (ARGS…), setup = f, teardown = g, config = c)]`
///   passes `ARGS` to `f` and `f`'s result to the function, and the
///   function's result to `g`. Setup and teardown are not counted.
/// - `#[benches::ID(A, B, …)]` (or `args = [A, B, …]`) makes one benchmark
///   per argument, with ids `ID_0`, `ID_1`, …
/// - `#[library_benchmark(setup = f, teardown = g, config = c)]` first sets
///   defaults for all of them.
/// - Without any `#[bench]`, the function takes no arguments and is
///   benchmarked once.
///
/// The macro keeps the function as written and adds a hidden module of the
/// same name that [`library_benchmark_group!`](crate::library_benchmark_group)
/// reads.
#[macro_export]
macro_rules! library_benchmark {
    // Entry: optional function-level options first.
    (#[library_benchmark $(( $($opt:tt)* ))?] $($rest:tt)*) => {
        $crate::library_benchmark!(@fnopts [] [] [] [$($($opt)*)?] $($rest)*);
    };
    (@fnopts [$($s:tt)*] [$($t:tt)*] [$($c:tt)*] [setup = $e:expr $(, $($more:tt)*)?] $($rest:tt)*) => {
        $crate::library_benchmark!(@fnopts [$e] [$($t)*] [$($c)*] [$($($more)*)?] $($rest)*);
    };
    (@fnopts [$($s:tt)*] [$($t:tt)*] [$($c:tt)*] [teardown = $e:expr $(, $($more:tt)*)?] $($rest:tt)*) => {
        $crate::library_benchmark!(@fnopts [$($s)*] [$e] [$($c)*] [$($($more)*)?] $($rest)*);
    };
    (@fnopts [$($s:tt)*] [$($t:tt)*] [$($c:tt)*] [config = $e:expr $(, $($more:tt)*)?] $($rest:tt)*) => {
        $crate::library_benchmark!(@fnopts [$($s)*] [$($t)*] [$e] [$($($more)*)?] $($rest)*);
    };
    (@fnopts $s:tt $t:tt $c:tt [] $($rest:tt)*) => {
        $crate::library_benchmark!(@attrs ($s $t $c) [] [] $($rest)*);
    };
    // Collect `#[bench::…]`, `#[benches::…]` and other attributes.
    (@attrs $fo:tt [$($b:tt)*] [$($a:tt)*] #[bench :: $id:ident ( $($args:tt)* )] $($rest:tt)*) => {
        $crate::library_benchmark!(@attrs $fo [$($b)* (bench $id ($($args)*))] [$($a)*] $($rest)*);
    };
    (@attrs $fo:tt [$($b:tt)*] [$($a:tt)*] #[benches :: $id:ident ( $($args:tt)* )] $($rest:tt)*) => {
        $crate::library_benchmark!(@attrs $fo [$($b)* (benches $id ($($args)*))] [$($a)*] $($rest)*);
    };
    (@attrs $fo:tt [$($b:tt)*] [$($a:tt)*] #[$($attr:tt)*] $($rest:tt)*) => {
        $crate::library_benchmark!(@attrs $fo [$($b)*] [$($a)* #[$($attr)*]] $($rest)*);
    };
    // The function itself.
    (@attrs $fo:tt [$($b:tt)*] [$($a:tt)*]
        $vis:vis fn $name:ident ( $($params:tt)* ) $(-> $ret:ty)? $body:block
    ) => {
        // Never inlined (as iai-callgrind's): the function keeps its own
        // symbol, so callgrind_annotate and the flamegraphs name it.
        #[inline(never)]
        $($a)*
        $vis fn $name($($params)*) $(-> $ret)? $body

        #[doc(hidden)]
        #[allow(non_snake_case)]
        $vis mod $name {
            #[allow(unused_imports)]
            use super::*;

            /// The benchmarks of this function.
            pub fn __yardstick_benches() -> ::std::vec::Vec<$crate::LibraryBenchmark> {
                #[allow(unused_mut)]
                let mut benches = ::std::vec::Vec::new();
                $crate::library_benchmark!(@each benches $name $fo [$($b)*]);
                benches
            }
        }
    };
    // No `#[bench]` at all: one benchmark without arguments.
    (@each $v:ident $name:ident $fo:tt []) => {
        $crate::library_benchmark!(@emit $v $name $fo ::std::option::Option::None ; [] [] [] []);
    };
    (@each $v:ident $name:ident $fo:tt [$( ($kind:ident $id:ident ($($args:tt)*)) )+]) => {
        $( $crate::library_benchmark!(@one $v $name $fo $kind $id ($($args)*)); )+
    };
    // One attribute: normalise `key = value` options, else plain arguments.
    (@one $v:ident $name:ident ([$($s:tt)*] [$($t:tt)*] $c:tt) $kind:ident $id:ident (args = $($rest:tt)*)) => {
        $crate::library_benchmark!(@opts $v $name ([$($s)*] [$($t)*] $c) $kind $id [] [$($s)*] [$($t)*] [] ; args = $($rest)*);
    };
    (@one $v:ident $name:ident ([$($s:tt)*] [$($t:tt)*] $c:tt) $kind:ident $id:ident (setup = $($rest:tt)*)) => {
        $crate::library_benchmark!(@opts $v $name ([$($s)*] [$($t)*] $c) $kind $id [] [$($s)*] [$($t)*] [] ; setup = $($rest)*);
    };
    (@one $v:ident $name:ident ([$($s:tt)*] [$($t:tt)*] $c:tt) $kind:ident $id:ident (teardown = $($rest:tt)*)) => {
        $crate::library_benchmark!(@opts $v $name ([$($s)*] [$($t)*] $c) $kind $id [] [$($s)*] [$($t)*] [] ; teardown = $($rest)*);
    };
    (@one $v:ident $name:ident ([$($s:tt)*] [$($t:tt)*] $c:tt) $kind:ident $id:ident (config = $($rest:tt)*)) => {
        $crate::library_benchmark!(@opts $v $name ([$($s)*] [$($t)*] $c) $kind $id [] [$($s)*] [$($t)*] [] ; config = $($rest)*);
    };
    (@one $v:ident $name:ident ([$($s:tt)*] [$($t:tt)*] $c:tt) bench $id:ident ($($arg:expr),* $(,)?)) => {
        $crate::library_benchmark!(@emit $v $name ([$($s)*] [$($t)*] $c)
            ::std::option::Option::Some(::std::string::String::from(::std::stringify!($id)));
            [$($arg),*] [$($s)*] [$($t)*] []);
    };
    (@one $v:ident $name:ident ([$($s:tt)*] [$($t:tt)*] $c:tt) benches $id:ident ($($arg:expr),* $(,)?)) => {
        $crate::library_benchmark!(@many $v $name ([$($s)*] [$($t)*] $c) $id [$($arg),*] [$($s)*] [$($t)*] []);
    };
    (@opts $v:ident $name:ident $fc:tt $kind:ident $id:ident $a:tt $s:tt $t:tt $c:tt ; args = $args:tt $(, $($more:tt)*)?) => {
        $crate::library_benchmark!(@opts $v $name $fc $kind $id $args $s $t $c ; $($($more)*)?);
    };
    (@opts $v:ident $name:ident $fc:tt $kind:ident $id:ident $a:tt $s:tt $t:tt $c:tt ; setup = $e:expr $(, $($more:tt)*)?) => {
        $crate::library_benchmark!(@opts $v $name $fc $kind $id $a [$e] $t $c ; $($($more)*)?);
    };
    (@opts $v:ident $name:ident $fc:tt $kind:ident $id:ident $a:tt $s:tt $t:tt $c:tt ; teardown = $e:expr $(, $($more:tt)*)?) => {
        $crate::library_benchmark!(@opts $v $name $fc $kind $id $a $s [$e] $c ; $($($more)*)?);
    };
    (@opts $v:ident $name:ident $fc:tt $kind:ident $id:ident $a:tt $s:tt $t:tt $c:tt ; config = $e:expr $(, $($more:tt)*)?) => {
        $crate::library_benchmark!(@opts $v $name $fc $kind $id $a $s $t [$e] ; $($($more)*)?);
    };
    (@opts $v:ident $name:ident $fc:tt bench $id:ident ($($arg:expr),* $(,)?) $s:tt $t:tt $c:tt ;) => {
        $crate::library_benchmark!(@emit $v $name $fc
            ::std::option::Option::Some(::std::string::String::from(::std::stringify!($id)));
            [$($arg),*] $s $t $c);
    };
    (@opts $v:ident $name:ident $fc:tt bench $id:ident [] $s:tt $t:tt $c:tt ;) => {
        $crate::library_benchmark!(@emit $v $name $fc
            ::std::option::Option::Some(::std::string::String::from(::std::stringify!($id)));
            [] $s $t $c);
    };
    (@opts $v:ident $name:ident $fc:tt benches $id:ident [$($arg:expr),* $(,)?] $s:tt $t:tt $c:tt ;) => {
        $crate::library_benchmark!(@many $v $name $fc $id [$($arg),*] $s $t $c);
    };
    (@many $v:ident $name:ident $fc:tt $id:ident [$($arg:expr),*] $s:tt $t:tt $c:tt) => {
        #[allow(unused_mut, unused_variables, unused_assignments)]
        let mut index = 0usize;
        $(
            $crate::library_benchmark!(@emit $v $name $fc
                ::std::option::Option::Some(::std::format!("{}_{}", ::std::stringify!($id), index));
                [$arg] $s $t $c);
            index += 1;
        )*
    };
    // Register one benchmark.
    (@emit $v:ident $name:ident ($fs:tt $ft:tt [$($fc:expr)?]) $id:expr ;
        [$($arg:expr),*] [$($setup:expr)?] [$($teardown:expr)?] [$($config:expr)?]
    ) => {
        $v.push($crate::LibraryBenchmark {
            function: ::std::stringify!($name),
            id: $id,
            args: $crate::__private::join_args(&[$(::std::stringify!($arg)),*]),
            function_config: ::std::option::Option::None $(.or(::std::option::Option::Some($fc)))?,
            config: ::std::option::Option::None $(.or(::std::option::Option::Some($config)))?,
            run: $crate::library_benchmark!(@run $name [$($arg),*] [$($setup)?] [$($teardown)?]),
        });
    };
    (@run $name:ident [$($arg:expr),*] [$setup:expr] [$($teardown:expr)?]) => {
        || {
            let input = ::std::hint::black_box($setup($($arg),*));
            let _output = $crate::__private::measure(move || super::$name(input));
            $( $teardown(_output); )?
        }
    };
    (@run $name:ident [$($arg:expr),*] [] [$($teardown:expr)?]) => {
        || {
            let args = ($(::std::hint::black_box($arg),)*);
            let _output =
                $crate::__private::measure(move || $crate::__private::spread(super::$name, args));
            $( $teardown(_output); )?
        }
    };
    // Entry without function-level options.
    (#[$($first:tt)*] $($rest:tt)*) => {
        $crate::library_benchmark!(@fnopts [] [] [] [] #[$($first)*] $($rest)*);
    };
    ($vis:vis fn $($rest:tt)*) => {
        $crate::library_benchmark!(@fnopts [] [] [] [] $vis fn $($rest)*);
    };
}

/// Declares a group of library benchmarks: a function `name()` returning a
/// [`LibraryBenchmarkGroup`](crate::LibraryBenchmarkGroup).
///
/// ```ignore
/// library_benchmark_group!(
///     name = my_group;
///     config = LibraryBenchmarkConfig::default();   // optional
///     compare_by_id = true;                          // optional
///     benchmarks = bench_a, bench_b
/// );
/// ```
#[macro_export]
macro_rules! library_benchmark_group {
    (
        name = $name:ident;
        $(config = $config:expr;)?
        $(compare_by_id = $compare:expr;)?
        benchmarks = $($bench:ident),+ $(,)?
    ) => {
        fn $name() -> $crate::LibraryBenchmarkGroup {
            let mut benchmarks = ::std::vec::Vec::new();
            $( benchmarks.extend($bench::__yardstick_benches()); )+
            $crate::LibraryBenchmarkGroup {
                name: ::std::stringify!($name),
                config: ::std::option::Option::None $(.or(::std::option::Option::Some($config)))?,
                compare_by_id: false $(|| $compare)?,
                benchmarks,
            }
        }
    };
}

/// Declares a group of binary benchmarks: a function `name()` returning a
/// [`BinaryBenchmarkGroup`](crate::BinaryBenchmarkGroup) filled by the
/// closure.
///
/// ```ignore
/// binary_benchmark_group!(
///     name = my_exe_group;
///     config = BinaryBenchmarkConfig::default().fixtures("fixtures"); // optional
///     setup = my_setup;        // optional: before each benchmark, in the sandbox
///     teardown = my_teardown;  // optional: after each benchmark, in the sandbox
///     before = my_before;      // optional: once before the group
///     after = my_after;        // optional: once after the group
///     benchmark = |"my-exe", group: &mut BinaryBenchmarkGroup| {
///         group.bench(Run::with_arg(Arg::new("id", ["--flag"])));
///     }
/// );
/// ```
///
/// `"my-exe"` names a binary of the benchmarking package (found beside the
/// bench binary); leave it out and use [`Run::with_cmd`](crate::Run::with_cmd)
/// with `env!("CARGO_BIN_EXE_my-exe")` or any path instead.
#[macro_export]
macro_rules! binary_benchmark_group {
    (
        name = $name:ident;
        $(config = $config:expr;)?
        $(setup = $setup:expr;)?
        $(teardown = $teardown:expr;)?
        $(before = $before:expr;)?
        $(after = $after:expr;)?
        benchmark = |$($cmd:literal,)? $group:ident : &mut $group_ty:ty| $body:expr $(;)?
    ) => {
        fn $name() -> $crate::BinaryBenchmarkGroup {
            let mut $group = $crate::BinaryBenchmarkGroup::__new(::std::stringify!($name));
            $( $group.__set_config($config); )?
            $( $group.__set_setup($setup); )?
            $( $group.__set_teardown($teardown); )?
            $( $group.__set_before($before); )?
            $( $group.__set_after($after); )?
            $( $group.__set_crate_cmd($cmd); )?
            {
                let $group: &mut $group_ty = &mut $group;
                $body;
            }
            $group
        }
    };
}
