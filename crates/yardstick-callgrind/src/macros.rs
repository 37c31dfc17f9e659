//! The declarative macros: `main!`, `library_benchmark_group!` and
//! `binary_benchmark_group!` (`#[library_benchmark]` is in
//! `yardstick-callgrind-macros`).

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
    // iai-callgrind's form: `key = value;` clauses in any order, then the
    // groups.
    (config = $($rest:tt)*) => { $crate::main!(@parse [] [] [] config = $($rest)*); };
    (setup = $($rest:tt)*) => { $crate::main!(@parse [] [] [] setup = $($rest)*); };
    (teardown = $($rest:tt)*) => { $crate::main!(@parse [] [] [] teardown = $($rest)*); };
    (library_benchmark_groups = $($rest:tt)*) => {
        $crate::main!(@parse [] [] [] library_benchmark_groups = $($rest)*);
    };
    (binary_benchmark_groups = $($rest:tt)*) => {
        $crate::main!(@parse [] [] [] binary_benchmark_groups = $($rest)*);
    };
    (@parse $c:tt $s:tt $t:tt ; $($rest:tt)*) => { $crate::main!(@parse $c $s $t $($rest)*); };
    (@parse [] $s:tt $t:tt config = $e:expr; $($rest:tt)*) => {
        $crate::main!(@parse [$e] $s $t $($rest)*);
    };
    (@parse $c:tt [] $t:tt setup = $e:expr; $($rest:tt)*) => {
        $crate::main!(@parse $c [$e] $t $($rest)*);
    };
    (@parse $c:tt $s:tt [] teardown = $e:expr; $($rest:tt)*) => {
        $crate::main!(@parse $c $s [$e] $($rest)*);
    };
    (@parse $c:tt $s:tt $t:tt library_benchmark_groups = $(;)?) => {
        ::std::compile_error!("library_benchmark_groups needs at least one `name` of a `library_benchmark_group!`");
        fn main() {}
    };
    (@parse $c:tt $s:tt $t:tt binary_benchmark_groups = $(;)?) => {
        ::std::compile_error!("binary_benchmark_groups needs at least one `name` of a `binary_benchmark_group!`");
        fn main() {}
    };
    (@parse $c:tt $s:tt $t:tt library_benchmark_groups = $($group:ident),+ $(,)? $(;)?) => {
        $crate::main!(@main main_library $c $s $t $($group),+);
    };
    (@parse $c:tt $s:tt $t:tt binary_benchmark_groups = $($group:ident),+ $(,)? $(;)?) => {
        $crate::main!(@main main_binary $c $s $t $($group),+);
    };
    (@main $entry:ident [$($c:expr)?] [$($s:expr)?] [$($t:expr)?] $($group:ident),+) => {
        fn main() {
            $crate::__private::$entry(
                $crate::__context!(),
                ::std::option::Option::None $(.or(::std::option::Option::Some($crate::__private::into_config($c))))?,
                ::std::vec![$($group()),+],
                $crate::__private::MainHooks {
                    setup: ::std::option::Option::None $(.or(::std::option::Option::Some(|| $crate::__private::Hook::run($s))))?,
                    teardown: ::std::option::Option::None $(.or(::std::option::Option::Some(|| $crate::__private::Hook::run($t))))?,
                },
            )
        }
    };
    (@parse $($rest:tt)*) => {
        ::std::compile_error!(
            "main! takes `config = ..;`, `setup = ..;` and `teardown = ..;` (each at most once), then \
             `library_benchmark_groups = a, b` or `binary_benchmark_groups = a, b`"
        );
    };
    // The Iai form: plain functions taking nothing.
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
                $crate::__private::MainHooks::default(),
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
            dependency: $crate::__private::__dependency_name!(),
        }
    };
}

/// Declares a group of library benchmarks: a function `name()` returning a
/// [`LibraryBenchmarkGroup`](crate::LibraryBenchmarkGroup).
///
/// ```no_run
/// # use yardstick_callgrind::{library_benchmark, library_benchmark_group, LibraryBenchmarkConfig};
/// # fn main() {}
/// # mod bench {
/// # use super::*;
/// # #[library_benchmark] fn bench_a() -> u64 { 1 }
/// # #[library_benchmark] fn bench_b() -> u64 { 2 }
/// library_benchmark_group!(
///     name = my_group;
///     config = LibraryBenchmarkConfig::default();   // optional
///     compare_by_id = true;                          // optional
///     benchmarks = bench_a, bench_b
/// );
/// # }
/// ```
#[macro_export]
macro_rules! library_benchmark_group {
    (
        name = $name:ident; $(;)*
        $(config = $config:expr; $(;)*)?
        $(compare_by_id = $compare:expr; $(;)*)?
        benchmarks = $($bench:ident),+ $(,)? $(;)?
    ) => {
        fn $name() -> $crate::LibraryBenchmarkGroup {
            let mut benchmarks = ::std::vec::Vec::new();
            $( benchmarks.extend($bench::__yardstick_benches()); )+
            $crate::LibraryBenchmarkGroup {
                name: ::std::stringify!($name),
                config: ::std::option::Option::None
                    $(.or(::std::option::Option::Some($crate::__private::into_config($config))))?,
                compare_by_id: false $(|| $compare)?,
                benchmarks,
            }
        }
    };
    (
        name = $name:ident; $(;)*
        $(config = $config:expr; $(;)*)?
        $(compare_by_id = $compare:expr; $(;)*)?
        benchmarks = $(;)?
    ) => {
        ::std::compile_error!(
            "a library_benchmark_group! needs at least one benchmark function annotated with \
             #[library_benchmark]: library_benchmark_group!(name = some_ident; benchmarks = some_function);"
        );
    };
    ($($rest:tt)*) => {
        ::std::compile_error!(
            "a library_benchmark_group! needs a name and benchmarks: \
             library_benchmark_group!(name = some_ident; benchmarks = some_function);"
        );
    };
}

/// Declares a group of binary benchmarks: a function `name()` returning a
/// [`BinaryBenchmarkGroup`](crate::BinaryBenchmarkGroup) filled by the
/// closure.
///
/// ```no_run
/// # use yardstick_callgrind::{binary_benchmark_group, Arg, BinaryBenchmarkConfig, BinaryBenchmarkGroup, Run};
/// # fn my_setup() {}
/// # fn my_teardown() {}
/// # fn my_before() {}
/// # fn my_after() {}
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
    (name = $name:ident; $($rest:tt)*) => {
        $crate::binary_benchmark_group!(@opts $name [] $($rest)*);
    };
    (@opts $name:ident $o:tt ; $($rest:tt)*) => {
        $crate::binary_benchmark_group!(@opts $name $o $($rest)*);
    };
    (@opts $name:ident [$($o:tt)*] config = $e:expr; $($rest:tt)*) => {
        $crate::binary_benchmark_group!(@opts $name [$($o)* (__set_config $e)] $($rest)*);
    };
    (@opts $name:ident $o:tt benchmark = $(;)?) => {
        ::std::compile_error!(
            "a binary_benchmark_group! needs `benchmark = |group: &mut BinaryBenchmarkGroup| ..` \
             or `benchmark = |\"my-exe\", group: &mut BinaryBenchmarkGroup| ..`"
        );
    };
    // iai-callgrind matches the word `BinaryBenchmarkGroup` itself, so its
    // users need not import the type. A glob import provides it where the
    // user has not imported it, and yields to the user's import where
    // there is one (which stays used, as before).
    (@opts $name:ident [$($o:tt)*]
        benchmark = |$cmd:literal, $group:ident : &mut BinaryBenchmarkGroup| $body:expr $(;)?) => {
        #[allow(unused_imports)]
        use $crate::__private::binary_group_type::*;
        $crate::binary_benchmark_group!(
            @emit $name [$($o)*] [$cmd] $group [BinaryBenchmarkGroup] $body
        );
    };
    (@opts $name:ident [$($o:tt)*]
        benchmark = |$group:ident : &mut BinaryBenchmarkGroup| $body:expr $(;)?) => {
        #[allow(unused_imports)]
        use $crate::__private::binary_group_type::*;
        $crate::binary_benchmark_group!(
            @emit $name [$($o)*] [] $group [BinaryBenchmarkGroup] $body
        );
    };
    (@opts $name:ident [$($o:tt)*]
        benchmark = |$cmd:literal, $group:ident : &mut $group_ty:ty| $body:expr $(;)?) => {
        $crate::binary_benchmark_group!(@emit $name [$($o)*] [$cmd] $group [$group_ty] $body);
    };
    (@opts $name:ident [$($o:tt)*]
        benchmark = |$group:ident : &mut $group_ty:ty| $body:expr $(;)?) => {
        $crate::binary_benchmark_group!(@emit $name [$($o)*] [] $group [$group_ty] $body);
    };
    (@opts $name:ident [$($o:tt)*] before = $f:path $(, bench = $b:literal)?; $($rest:tt)*) => {
        $crate::binary_benchmark_group!(@opts $name [$($o)* (@hook before [$f] $($b)?)] $($rest)*);
    };
    (@opts $name:ident [$($o:tt)*] after = $f:path $(, bench = $b:literal)?; $($rest:tt)*) => {
        $crate::binary_benchmark_group!(@opts $name [$($o)* (@hook after [$f] $($b)?)] $($rest)*);
    };
    (@opts $name:ident [$($o:tt)*] setup = $f:path $(, bench = $b:literal)?; $($rest:tt)*) => {
        $crate::binary_benchmark_group!(@opts $name [$($o)* (@hook setup [$f] $($b)?)] $($rest)*);
    };
    (@opts $name:ident [$($o:tt)*] teardown = $f:path $(, bench = $b:literal)?; $($rest:tt)*) => {
        $crate::binary_benchmark_group!(@opts $name [$($o)* (@hook teardown [$f] $($b)?)] $($rest)*);
    };
    (@emit $name:ident [$($o:tt)*] [$($cmd:literal)?] $group:ident [$group_ty:ty] $body:expr) => {
        fn $name() -> $crate::BinaryBenchmarkGroup {
            let mut $group = $crate::BinaryBenchmarkGroup::__new(::std::stringify!($name));
            $( $crate::binary_benchmark_group!(@apply $group $o); )*
            $( $group.__set_crate_cmd($cmd); )?
            {
                let $group: &mut $group_ty = &mut $group;
                $body;
            }
            $group
        }
    };
    (@apply $group:ident (__set_config $e:expr)) => {
        $group.__set_config($crate::__private::into_config($e));
    };
    (@apply $group:ident (@hook $hook:ident [$f:path] $($b:literal)?)) => {
        $group.__set_hook(::std::stringify!($hook), $f, false $(|| $b)?);
    };
    ($($rest:tt)*) => {
        ::std::compile_error!(
            "a binary_benchmark_group! needs a name: binary_benchmark_group!(name = some_ident; benchmark = ..);"
        );
    };
}
