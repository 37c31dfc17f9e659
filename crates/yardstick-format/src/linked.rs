//! `<bench binary>.layouts.json`: the code layouts yardstick's linker
//! wrapper linked beside a bench binary (`<bench binary>.layout1..=n`, the
//! same objects linked with their functions in another order), or why it
//! linked none. Written by `cargo-yardstick` when it is the build's linker,
//! last (after the layouts), and read by the harness, which keeps the
//! layouts with its own binary so that the next run's comparison spreads
//! its worker pairs over them. Schema: `schemas/linked.v1.json`.

use std::path::{Path, PathBuf};

/// The version this crate writes; records `ab` wrote before the field
/// existed read as 0 and are read alike.
pub const VERSION: u32 = 1;

/// The whole file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LinkedFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The binary the layouts were linked beside, named as kept binaries
    /// are ([`crate::binary::binary_name`]): a binary linked again since
    /// without the wrapper no longer holds this name, and its layouts are
    /// an older build's. `None` in records written before it was recorded.
    pub binary: Option<String>,
    /// The seeds of `<binary>.layout1..`, in order.
    pub seeds: Vec<u64>,
    /// Why no layout was linked (one line).
    pub error: Option<String>,
    /// Wall seconds the relinks took.
    pub seconds: f64,
}

crate::json_object!(LinkedFile {
    version (default),
    binary (skip),
    seeds (default),
    error (skip),
    seconds (default),
});

/// The record's path beside the binary `exe`.
#[must_use]
pub fn record_path(exe: &Path) -> PathBuf {
    suffixed(exe, ".layouts.json")
}

/// Layout `k` (from 1) of the binary `exe`; a kept binary's layouts are
/// named the same way beside it.
#[must_use]
pub fn layout_path(exe: &Path, k: usize) -> PathBuf {
    suffixed(exe, &format!(".layout{k}"))
}

fn suffixed(exe: &Path, suffix: &str) -> PathBuf {
    let mut name = exe.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether `name` is a layout's suffix of a kept binary's name
/// (`.layout<K>`, K from 1): how clean-up finds them.
#[must_use]
pub fn layout_number(suffix: &str) -> Option<usize> {
    let k = suffix.strip_prefix(".layout")?;
    let digits = !k.is_empty() && k.len() <= 3 && k.bytes().all(|b| b.is_ascii_digit());
    k.parse().ok().filter(|&k| digits && k >= 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_named_beside_their_binary() {
        let exe = Path::new("/t/release/deps/fib-0a1b");
        assert_eq!(
            layout_path(exe, 3),
            Path::new("/t/release/deps/fib-0a1b.layout3")
        );
        assert_eq!(
            record_path(exe),
            Path::new("/t/release/deps/fib-0a1b.layouts.json")
        );
        assert_eq!(layout_number(".layout12"), Some(12));
        for no in [
            ".layout",
            ".layout0",
            ".layouts.json",
            ".layout1x",
            "layout1",
        ] {
            assert_eq!(layout_number(no), None, "{no}");
        }
    }

    #[test]
    fn a_record_written_by_an_earlier_ab_reads() {
        let old: LinkedFile =
            crate::json::from_str(r#"{"seeds":[1,2],"error":null,"seconds":0.5}"#).unwrap();
        assert_eq!(
            old,
            LinkedFile {
                version: 0,
                binary: None,
                seeds: vec![1, 2],
                error: None,
                seconds: 0.5
            }
        );
    }
}
