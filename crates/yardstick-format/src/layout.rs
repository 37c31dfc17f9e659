//! `<home>/.layouts/<key>.json`: how far relinking the same code moves
//! each benchmark of one bench target on this machine (`<key>` its
//! [`crate::binary::store_key`], `<package>.<target>`), as
//! `cargo yardstick calibrate --layouts` measured it. `cargo bench`'s
//! comparison with the baseline's binary measures one layout of each side
//! (the harness has no objects to relink), so a neutral edit that moves the
//! code can look like a change; the harness reads this file and reports a
//! change within the spread as what relinking moves, not as a regression.
//! Schema: `schemas/layout.v1.json`.

use std::path::{Path, PathBuf};

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The folder of the home directory that holds the files (hidden: no
/// benchmark's folder begins with a dot).
pub const LAYOUTS_DIR: &str = ".layouts";

/// The whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The bench target ([`crate::binary::target_name`]).
    pub target: String,
    /// Code layouts each benchmark was measured in.
    pub layouts: usize,
    /// What `relative_spread` bounds, in words and as a formula.
    pub definition: String,
    /// One entry per benchmark.
    pub benchmarks: Vec<LayoutSpread>,
}

crate::json_object!(LayoutFile { version, target, layouts, definition (default), benchmarks });

/// One benchmark's spread.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutSpread {
    /// The benchmark id.
    pub id: String,
    /// The relative spread, a fraction ≥ 0 (0.02 = ±2 %).
    pub relative_spread: f64,
    /// The typical time per iteration in each layout (ns), in layout order.
    pub estimates: Vec<f64>,
}

crate::json_object!(LayoutSpread { id, relative_spread, estimates (default) });

/// Where the file of the bench target of [`crate::binary::store_key`]
/// `key` lies under `home`.
#[must_use]
pub fn path(home: &Path, key: &str) -> PathBuf {
    home.join(LAYOUTS_DIR).join(format!("{key}.json"))
}

impl LayoutFile {
    /// Benchmark `id`'s spread, when the file is of this version and the
    /// spread a finite fraction ≥ 0.
    ///
    /// # Errors
    ///
    /// A sentence saying what is expected.
    pub fn spread_of(&self, id: &str) -> Result<Option<f64>, String> {
        if self.version != VERSION {
            return Err(format!(
                "version {} (this yardstick reads {VERSION})",
                self.version
            ));
        }
        let Some(b) = self.benchmarks.iter().find(|b| b.id == id) else {
            return Ok(None);
        };
        let s = b.relative_spread;
        if s.is_finite() && s >= 0.0 {
            Ok(Some(s))
        } else {
            Err(format!("the spread of {id} is not a fraction ≥ 0"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{from_str, to_string};

    #[test]
    fn a_spread_is_found_by_id_and_checked() {
        let text = r#"{"version": 1, "target": "suite", "layouts": 8,
            "benchmarks": [{"id": "fib/20", "relative_spread": 0.021, "estimates": [1.0, 1.02]},
                           {"id": "bad", "relative_spread": -1}]}"#;
        let f: LayoutFile = from_str(text).unwrap();
        assert_eq!(f.spread_of("fib/20"), Ok(Some(0.021)));
        assert_eq!(f.spread_of("other"), Ok(None));
        assert!(f.spread_of("bad").is_err());
        let again: LayoutFile = from_str(&to_string(&f)).unwrap();
        assert_eq!(again, f);
        let v2 = LayoutFile { version: 2, ..f };
        assert!(v2.spread_of("fib/20").unwrap_err().starts_with("version 2"));
    }
}
