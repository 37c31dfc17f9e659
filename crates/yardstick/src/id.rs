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

/// The full identity of one benchmark of a run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FullId {
    pub group_id: String,
    pub function_id: Option<String>,
    pub value_str: Option<String>,
    pub throughput: Option<Throughput>,
    /// `group/function/value`, the id users filter on and see.
    pub full_id: String,
    /// Relative folder under the home directory; see [`folder_component`].
    pub directory_name: String,
    /// `full_id` cut to 100 characters for titles.
    pub title: String,
}

const MAX_TITLE_LEN: usize = 100;
const MAX_COMPONENT_LEN: usize = 64;

impl FullId {
    pub(crate) fn new(
        group_id: &str,
        function_id: Option<String>,
        value_str: Option<String>,
        throughput: Option<Throughput>,
    ) -> FullId {
        let mut parts = vec![group_id];
        parts.extend(function_id.as_deref());
        parts.extend(value_str.as_deref());
        let full_id = parts.join("/");
        let directory_name = parts
            .iter()
            .map(|p| folder_component(p))
            .collect::<Vec<_>>()
            .join("/");
        let mut title = full_id.clone();
        if title.len() > MAX_TITLE_LEN {
            let cut = floor_char_boundary(&title, MAX_TITLE_LEN);
            title.truncate(cut);
            title.push_str("...");
        }
        FullId {
            group_id: group_id.to_owned(),
            function_id,
            value_str,
            throughput,
            full_id,
            directory_name,
            title,
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Turns one part of an id into one folder name.
///
/// Characters that are unsafe in file names on any platform become `_`, as
/// Criterion.rs does. Unlike Criterion.rs, whenever that loses information
/// (a character was replaced, the name was cut, or it is empty or starts
/// with a dot, which covers `.` and `..`) a hash of the original part is
/// appended, so no part can leave its parent folder and two different ids
/// never share a folder, in this run or any other.
pub(crate) fn folder_component(part: &str) -> String {
    const UNSAFE: &[char] = &['?', '"', '/', '\\', '*', '<', '>', ':', '|', '^'];
    let mut out: String = part
        .chars()
        .map(|c| {
            if UNSAFE.contains(&c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let mut lossy = out != part;
    if out.is_empty() || out.starts_with('.') {
        out.insert(0, '_');
        lossy = true;
    }
    if out.len() > MAX_COMPONENT_LEN {
        let cut = floor_char_boundary(&out, MAX_COMPONENT_LEN);
        out.truncate(cut);
        lossy = true;
    }
    // Trailing spaces and dots are dropped by Windows file systems.
    if out.ends_with(' ') || out.ends_with('.') {
        lossy = true;
    }
    if lossy {
        out.push_str(&format!("_{:08x}", fnv1a(part.as_bytes()) as u32));
    }
    out
}

/// FNV-1a: a stable hash (std's `DefaultHasher` may change between Rust
/// releases, and folder names must not).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
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
    fn unsafe_parts_are_replaced_and_disambiguated() {
        let a = folder_component("a/b");
        let b = folder_component("a:b");
        assert!(a.starts_with("a_b_"), "{a}");
        assert_ne!(a, b, "two different ids must not share a folder");
        assert!(!a.contains('/'));
    }

    #[test]
    fn dot_parts_cannot_leave_the_home_directory() {
        for part in ["..", ".", "", ".hidden"] {
            let c = folder_component(part);
            assert!(c.starts_with('_'), "{part:?} became {c:?}");
            assert_ne!(c, "..");
        }
        assert_ne!(folder_component(".."), folder_component("_.."));
    }

    #[test]
    fn html_and_quotes_are_neutralised() {
        let c = folder_component("<script>alert(\"x\")</script>");
        assert!(!c.contains(['<', '>', '"', '/']), "{c}");
    }

    #[test]
    fn long_parts_are_cut_on_a_char_boundary() {
        let long = "é".repeat(100);
        let c = folder_component(&long);
        assert!(c.len() <= MAX_COMPONENT_LEN + 9);
        assert_ne!(c, folder_component(&"é".repeat(99)));
    }

    #[test]
    fn long_titles_are_cut() {
        let id = FullId::new(&"x".repeat(150), None, None, None);
        assert_eq!(id.title.len(), MAX_TITLE_LEN + 3);
        assert!(id.title.ends_with("..."));
    }

    #[test]
    fn display_of_benchmark_ids() {
        assert_eq!(BenchmarkId::new("fib", 20).to_string(), "fib/20");
        assert_eq!(BenchmarkId::from_parameter(7).to_string(), "7");
    }
}
