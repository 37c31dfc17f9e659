//! Benchmark ids and the folder names derived from them.

use std::fmt;

use crate::Throughput;

/// The id of a benchmark inside a group: a function name, a parameter, or
/// both (`BenchmarkId::new("fib", 20)` is shown as `group/fib/20`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BenchmarkId {
    pub(crate) function_name: Option<String>,
    pub(crate) parameter: Option<String>,
}

impl BenchmarkId {
    /// An id with a function name and a parameter.
    pub fn new<S: Into<String>, P: fmt::Display>(function_name: S, parameter: P) -> BenchmarkId {
        BenchmarkId {
            function_name: Some(function_name.into()),
            parameter: Some(parameter.to_string()),
        }
    }

    /// An id with only a parameter, for groups that benchmark one function
    /// over many inputs.
    pub fn from_parameter<P: fmt::Display>(parameter: P) -> BenchmarkId {
        BenchmarkId {
            function_name: None,
            parameter: Some(parameter.to_string()),
        }
    }

    pub(crate) fn from_parts(
        function_name: Option<String>,
        parameter: Option<String>,
    ) -> BenchmarkId {
        BenchmarkId {
            function_name,
            parameter,
        }
    }

    pub(crate) fn no_function() -> BenchmarkId {
        BenchmarkId {
            function_name: None,
            parameter: None,
        }
    }
}

impl fmt::Display for BenchmarkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.function_name, &self.parameter) {
            (Some(func), Some(p)) => write!(f, "{func}/{p}"),
            (Some(func), None) => f.write_str(func),
            (None, Some(p)) => f.write_str(p),
            (None, None) => Ok(()),
        }
    }
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::BenchmarkId {}
    impl<S: Into<String>> Sealed for S {}
}

/// Anything that names a benchmark in a group: a [`BenchmarkId`] or a
/// string.
pub trait IntoBenchmarkId: private::Sealed {
    /// Converts to a [`BenchmarkId`].
    fn into_benchmark_id(self) -> BenchmarkId;
}

impl IntoBenchmarkId for BenchmarkId {
    fn into_benchmark_id(self) -> BenchmarkId {
        self
    }
}

impl<S: Into<String>> IntoBenchmarkId for S {
    fn into_benchmark_id(self) -> BenchmarkId {
        BenchmarkId {
            function_name: Some(self.into()),
            parameter: None,
        }
    }
}

/// The full identity of one benchmark of a run: the record its
/// `benchmark.json` holds (`group/function/value`, the id users filter on
/// and see; its folder under the home directory, see [`folder_component`];
/// its title), made once from the parts the user gave.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FullId(BenchmarkRecord);

impl std::ops::Deref for FullId {
    type Target = BenchmarkRecord;

    fn deref(&self) -> &BenchmarkRecord {
        &self.0
    }
}

use yardstick_format::criterion::BenchmarkRecord;
pub(crate) use yardstick_format::names::folder_component;

impl FullId {
    pub(crate) fn new(
        group_id: &str,
        function_id: Option<String>,
        value_str: Option<String>,
        throughput: Option<Throughput>,
    ) -> FullId {
        // Control characters never reach a terminal line or a file raw.
        let one_line = |s: &str| yardstick_format::names::one_line(s).into_owned();
        let group_id = &one_line(group_id);
        let function_id = function_id.as_deref().map(one_line);
        let value_str = value_str.as_deref().map(one_line);
        let mut parts = vec![group_id.as_str()];
        parts.extend(function_id.as_deref());
        parts.extend(value_str.as_deref());
        let full_id = parts.join("/");
        let directory_name = parts
            .iter()
            .map(|p| folder_component(p))
            .collect::<Vec<_>>()
            .join("/");
        let title = yardstick_format::names::title(&full_id);
        FullId(BenchmarkRecord {
            group_id: group_id.clone(),
            function_id,
            value_str,
            throughput,
            full_id,
            directory_name,
            title,
        })
    }

    /// The record `benchmark.json` holds.
    pub(crate) fn record(&self) -> &BenchmarkRecord {
        &self.0
    }

    /// The id a record names, as [`FullId::new`] made it (a walking child's
    /// plan, `crate::walk`).
    pub(crate) fn from_record(record: BenchmarkRecord) -> FullId {
        FullId(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_id_joins_the_parts() {
        let id = FullId::new("fib", Some("iter".into()), Some("20".into()), None);
        assert_eq!(id.full_id, "fib/iter/20");
        assert_eq!(id.directory_name, "fib/iter/20");
        let id = FullId::new("fib 20", None, None, None);
        assert_eq!(id.full_id, "fib 20");
        assert_eq!(id.directory_name, "fib 20");
    }

    #[test]
    fn display_of_benchmark_ids() {
        assert_eq!(BenchmarkId::new("fib", 20).to_string(), "fib/20");
        assert_eq!(BenchmarkId::from_parameter(7).to_string(), "7");
    }
}
