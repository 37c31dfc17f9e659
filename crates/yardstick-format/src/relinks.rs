//! `<id>/relinks.json`: how far earlier rebuilds moved one benchmark, as
//! the lock-step comparisons between two different builds measured it
//! with one code layout of each side (no `cargo yardstick init`). The
//! harness learns the benchmark's layout allowance from the recent moves
//! when they are wider than the default, so that a benchmark every
//! rebuild moves by 6 % stops reading regressed, then improved.
//! Schema: `schemas/relinks.v1.json`.

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The file's name in a benchmark's folder.
pub const FILE_NAME: &str = "relinks.json";

/// Moves kept: the most recent; older ones describe code and a toolchain
/// that have moved on.
pub const KEEP: usize = 8;

/// The widest allowance learned moves may give: a +10 % change must still
/// be called regressed, and coming back (−9.1 %) improved, with the whole
/// interval of a lock-step comparison (about ±0.5 %) beyond it. Learned
/// moves include real changes, so this cap is what keeps a benchmark that
/// someone keeps changing by 10 % found every time.
pub const MAX_SPREAD: f64 = 0.08;

/// Days after which a move no longer counts (as a calibration's,
/// [`crate::layout::MAX_AGE_DAYS`]).
pub const MAX_AGE_DAYS: i64 = crate::layout::MAX_AGE_DAYS;

/// The whole file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RelinksFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The moves, oldest first, at most [`KEEP`].
    pub moves: Vec<Move>,
}

crate::json_object!(RelinksFile { version, moves });

/// One comparison of two different builds.
#[derive(Debug, Clone, PartialEq)]
pub struct Move {
    /// The baseline's binary (its content hash, as `binary.json` names it).
    pub baseline: String,
    /// This run's binary.
    pub this: String,
    /// The measured ratio of this run's time to the baseline's (> 0).
    pub ratio: f64,
    /// When, in seconds since the Unix epoch.
    pub at: i64,
}

crate::json_object!(Move {
    baseline,
    this,
    ratio,
    at
});

impl RelinksFile {
    /// An empty file of this version.
    #[must_use]
    pub fn new() -> RelinksFile {
        RelinksFile {
            version: VERSION,
            moves: Vec::new(),
        }
    }

    /// Adds `m`, replacing an earlier move between the same two builds
    /// (comparing them again is not another rebuild), and keeps the
    /// [`KEEP`] most recent. A ratio that is not positive and finite is
    /// not a move.
    pub fn record(&mut self, m: Move) {
        if !(m.ratio.is_finite() && m.ratio > 0.0) {
            return;
        }
        self.moves
            .retain(|o| !(o.baseline == m.baseline && o.this == m.this));
        self.moves.push(m);
        let over = self.moves.len().saturating_sub(KEEP);
        self.moves.drain(..over);
    }

    /// The log moves (`ln ratio`) measured within [`MAX_AGE_DAYS`] of
    /// `now` (seconds since the Unix epoch), oldest first.
    ///
    /// # Errors
    ///
    /// A sentence when the file is of another version.
    pub fn recent(&self, now: i64) -> Result<Vec<f64>, String> {
        if self.version != VERSION {
            return Err(format!(
                "version {} (this yardstick reads {VERSION})",
                self.version
            ));
        }
        Ok(self
            .moves
            .iter()
            .filter(|m| m.at <= now + 86_400 && (now - m.at) / 86_400 <= MAX_AGE_DAYS)
            .filter(|m| m.ratio.is_finite() && m.ratio > 0.0)
            .map(|m| m.ratio.ln())
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{from_str, to_string};

    fn m(baseline: &str, this: &str, ratio: f64, at: i64) -> Move {
        Move {
            baseline: baseline.into(),
            this: this.into(),
            ratio,
            at,
        }
    }

    #[test]
    fn a_pair_counts_once_and_the_most_recent_are_kept() {
        let mut f = RelinksFile::new();
        f.record(m("a", "b", 1.06, 10));
        f.record(m("a", "b", 1.05, 11));
        assert_eq!(f.moves, vec![m("a", "b", 1.05, 11)]);
        f.record(m("b", "c", 0.0, 12));
        f.record(m("b", "c", f64::NAN, 12));
        assert_eq!(f.moves.len(), 1);
        for i in 0..10 {
            f.record(m(&i.to_string(), "x", 1.01, 20 + i));
        }
        assert_eq!(f.moves.len(), KEEP);
        assert_eq!(f.moves[0].baseline, "2");
        let again: RelinksFile = from_str(&to_string(&f)).unwrap();
        assert_eq!(again, f);
    }

    #[test]
    fn old_and_future_moves_do_not_count() {
        let day = 86_400;
        let now = 100 * day;
        let mut f = RelinksFile::new();
        f.record(m("a", "b", 1.10, now - 31 * day));
        f.record(m("b", "c", 1.02, now - 30 * day));
        f.record(m("c", "d", 0.98, now));
        f.record(m("d", "e", 1.50, now + 2 * day));
        let r = f.recent(now).unwrap();
        assert_eq!(r.len(), 2);
        assert!((r[0] - 1.02f64.ln()).abs() < 1e-12);
        let v2 = RelinksFile { version: 2, ..f };
        assert!(v2.recent(now).unwrap_err().starts_with("version 2"));
    }
}
