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

/// The fewest layouts a spread is trusted from: the bound is
/// `t(0.975, layouts − 1)` standard deviations wide, 12.7 with two layouts
/// and 4.3 with three, so that a bound from so few mostly says how few
/// there were (`calibrate --layouts=2` wrote ±71 % for a benchmark that
/// eight layouts put at ±2 %).
pub const MIN_LAYOUTS: usize = 4;

/// The widest allowance a measured spread may give a verdict: a +10 %
/// change must still be called regressed, and a benchmark that relinking
/// moves by more than this needs its layouts sampled on both sides (as
/// `cargo yardstick ab` does), not an allowance.
pub const MAX_SPREAD: f64 = 0.10;

/// Days after which a calibration is no longer trusted: the code, the
/// toolchain and the machine it measured have moved on.
pub const MAX_AGE_DAYS: i64 = 30;

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
    /// When it was measured, in seconds since the Unix epoch.
    pub measured_at: Option<i64>,
    /// The toolchain that built the layouts (`rustc --version`).
    pub rustc: Option<String>,
}

crate::json_object!(LayoutFile {
    version,
    target,
    layouts,
    definition (default),
    benchmarks,
    measured_at (skip),
    rustc (skip)
});

/// A spread the harness may use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trusted {
    /// The allowance: the measured spread, at most [`MAX_SPREAD`].
    pub spread: f64,
    /// The spread as measured, when it was wider than [`MAX_SPREAD`].
    pub capped_from: Option<f64>,
}

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
        self.check_version()?;
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

    fn check_version(&self) -> Result<(), String> {
        if self.version == VERSION {
            Ok(())
        } else {
            Err(format!(
                "version {} (this yardstick reads {VERSION})",
                self.version
            ))
        }
    }

    /// Benchmark `id`'s spread as an allowance a verdict may take, at
    /// `now` (seconds since the Unix epoch): `Err` when the whole file is
    /// not to be trusted (another version, fewer than [`MIN_LAYOUTS`]
    /// layouts, measured more than [`MAX_AGE_DAYS`] ago or in the future),
    /// or this benchmark's spread is not a fraction ≥ 0; held at
    /// [`MAX_SPREAD`] when wider.
    ///
    /// # Errors
    ///
    /// A sentence saying why the file or the spread is not used.
    pub fn trusted_spread(&self, id: &str, now: i64) -> Result<Option<Trusted>, String> {
        self.check_version()?;
        if self.layouts < MIN_LAYOUTS {
            return Err(format!(
                "measured in {} layouts, fewer than the {MIN_LAYOUTS} a bound needs; run cargo yardstick calibrate --layouts again",
                self.layouts
            ));
        }
        if let Some(at) = self.measured_at {
            let days = (now - at) / 86_400;
            if days > MAX_AGE_DAYS || at > now + 86_400 {
                return Err(format!(
                    "measured {days} days ago, more than the {MAX_AGE_DAYS} days a calibration is trusted; run cargo yardstick calibrate --layouts again"
                ));
            }
        }
        Ok(self.spread_of(id)?.map(|s| Trusted {
            spread: s.min(MAX_SPREAD),
            capped_from: (s > MAX_SPREAD).then_some(s),
        }))
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

    fn file(layouts: usize, measured_at: Option<i64>, spreads: &[(&str, f64)]) -> LayoutFile {
        LayoutFile {
            version: VERSION,
            target: "suite".into(),
            layouts,
            definition: String::new(),
            benchmarks: spreads
                .iter()
                .map(|&(id, s)| LayoutSpread {
                    id: id.into(),
                    relative_spread: s,
                    estimates: Vec::new(),
                })
                .collect(),
            measured_at,
            rustc: None,
        }
    }

    #[test]
    fn a_spread_is_trusted_within_its_range_age_and_layouts() {
        let day = 86_400;
        let now = 1_800_000_000;
        let f = file(
            8,
            Some(now - 3 * day),
            &[("ok", 0.02), ("wide", 5.0), ("huge", 1e308)],
        );
        let ok = f.trusted_spread("ok", now).unwrap().unwrap();
        assert_eq!((ok.spread, ok.capped_from), (0.02, None));
        // 5.0 (±500 %) would hide a −97.9 % change: held at 10 %.
        let wide = f.trusted_spread("wide", now).unwrap().unwrap();
        assert_eq!((wide.spread, wide.capped_from), (0.10, Some(5.0)));
        assert_eq!(f.trusted_spread("huge", now).unwrap().unwrap().spread, 0.10);
        assert_eq!(f.trusted_spread("absent", now), Ok(None));
        // Two layouts: t(0.975, 1) = 12.7 standard deviations.
        let two = file(2, Some(now), &[("ok", 0.7115)]);
        assert!(two
            .trusted_spread("ok", now)
            .unwrap_err()
            .contains("2 layouts"));
        let old = file(8, Some(now - 31 * day), &[("ok", 0.02)]);
        assert!(old
            .trusted_spread("ok", now)
            .unwrap_err()
            .contains("31 days ago"));
        // Written before the date was recorded: trusted by its layouts.
        let undated = file(8, None, &[("ok", 0.02)]);
        assert_eq!(
            undated.trusted_spread("ok", now).unwrap().unwrap().spread,
            0.02
        );
        let nan = file(8, None, &[("bad", f64::NAN)]);
        assert!(nan.trusted_spread("bad", now).is_err());
    }
}
