//! What the macros register: library benchmarks and their groups.

use crate::config::LibraryBenchmarkConfig;

/// One library benchmark: a function called with one set of arguments.
///
/// Made by [`#[library_benchmark]`](crate::library_benchmark) and the Iai form
/// of [`main!`](crate::main); there is rarely a reason to build one by hand.
#[derive(Debug, Clone)]
pub struct LibraryBenchmark {
    /// The benchmark function's name.
    pub function: &'static str,
    /// The id of this argument set (`short` in `#[bench::short(10)]`), if
    /// any.
    pub id: Option<String>,
    /// The arguments as written (`10`), shown after the id.
    pub args: String,
    /// The configuration at `#[library_benchmark]` level.
    pub function_config: Option<LibraryBenchmarkConfig>,
    /// The configuration at `#[bench]` level.
    pub config: Option<LibraryBenchmarkConfig>,
    /// Runs setup, the measured call and teardown. Only the benchmark
    /// function is counted (named `__yardstick_callgrind_measured`, or
    /// called inside [`__private::measure`](crate::__private::measure)).
    pub run: fn(),
}

/// A group of library benchmarks, made by
/// [`library_benchmark_group!`](crate::library_benchmark_group).
#[derive(Debug, Clone)]
pub struct LibraryBenchmarkGroup {
    /// The group's name.
    pub name: &'static str,
    /// The configuration at group level.
    pub config: Option<LibraryBenchmarkConfig>,
    /// Compare benchmarks of different functions that share an id.
    pub compare_by_id: bool,
    /// The benchmarks, in order.
    pub benchmarks: Vec<LibraryBenchmark>,
}

impl LibraryBenchmark {
    /// The name used for files: `function.id`, or `function`.
    pub(crate) fn file_name(&self) -> String {
        match &self.id {
            Some(id) => format!("{}.{id}", self.function),
            None => self.function.to_owned(),
        }
    }

    /// The part of the header after the path: ` id:args`, ` id` or nothing.
    pub(crate) fn header_suffix(&self) -> String {
        match (&self.id, self.args.is_empty()) {
            (Some(id), false) => format!(" {id}:{}", self.args),
            (Some(id), true) => format!(" {id}"),
            (None, _) => String::new(),
        }
    }
}
