//! `ab --format json`: the comparison as a file
//! ([`yardstick_format::ab::AbResult`]), written by each shard of a CI
//! matrix and read back by `cargo yardstick merge`. The rows go out before
//! the false-discovery control, so that the merge applies it once, over
//! the whole suite.

use yardstick_format::ab::{AbResult, AbRow, RESULT_VERSION};
use yardstick_format::history::Machine;
use yardstick_stats::layouts::Spread;
use yardstick_stats::paired::RatioInterval;

use super::verdict::{Outcome, Paired, Row};

/// The settings and context written beside the rows.
pub struct Context {
    /// `--partition`'s shard, when given.
    pub shard: Option<String>,
    /// Where the comparison measured.
    pub machine: Machine,
    /// A's name.
    pub a: String,
    /// B's name.
    pub b: String,
    /// Worker pairs.
    pub pairs: usize,
    /// Each side's share of a round (ms).
    pub round_ms: f64,
    /// Seconds of rounds per benchmark.
    pub timeout: f64,
    /// Wall seconds measuring.
    pub seconds: f64,
    /// The intervals' confidence.
    pub confidence: f64,
    /// Code layouts a side.
    pub layouts: usize,
    /// Why layouts were asked for and not sampled.
    pub unsampled: Option<String>,
}

/// This machine, as the history names machines.
#[must_use]
pub fn this_machine() -> Machine {
    let m = crate::host::current(std::path::Path::new("."), "ab", "");
    Machine {
        name: m.machine,
        cpu: m.cpu,
        cores: m.cores,
        os: m.os,
    }
}

/// The document of a finished comparison (`rows` before the control).
#[must_use]
pub fn document(c: Context, rows: &[Row]) -> AbResult {
    AbResult {
        version: RESULT_VERSION,
        status: "ok".to_owned(),
        error: None,
        shard: c.shard,
        machine: c.machine,
        a: c.a,
        b: c.b,
        pairs: c.pairs as u64,
        round_ms: c.round_ms,
        timeout: c.timeout,
        seconds: c.seconds,
        confidence: c.confidence,
        rows: rows.iter().map(to_row).collect(),
        layouts: c.layouts as u64,
        layout_note: c.unsampled,
    }
}

/// The document of a comparison that failed before its table: the merge
/// names the shard and fails, rather than miss its benchmarks.
#[must_use]
pub fn failed(c: Context, error: &str) -> AbResult {
    AbResult {
        status: "failed".to_owned(),
        error: Some(error.to_owned()),
        ..document(c, &[])
    }
}

fn to_row(r: &Row) -> AbRow {
    let plain = |outcome: &str, message: Option<&String>| AbRow {
        id: r.id.clone(),
        outcome: outcome.to_owned(),
        message: message.cloned(),
        a: None,
        b: None,
        ratio: None,
        lower: None,
        upper: None,
        p_value: None,
        rounds: 0,
        pairs: 0,
        seconds: 0.0,
        layout_spread: None,
    };
    match &r.outcome {
        Outcome::OnlyA => plain("only-a", None),
        Outcome::OnlyB => plain("only-b", None),
        Outcome::Failed(m) => plain("failed", Some(m)),
        Outcome::Measured(p) => AbRow {
            a: Some(p.a),
            b: Some(p.b),
            ratio: p.interval.as_ref().map(|i| i.ratio),
            lower: p.interval.as_ref().map(|i| i.lower),
            upper: p.interval.as_ref().map(|i| i.upper),
            p_value: p.p_value,
            rounds: p.rounds as u64,
            pairs: p.pairs as u64,
            seconds: p.seconds,
            layout_spread: p.layout.filter(|l| l.limiting).map(|l| l.share),
            ..plain("measured", None)
        },
    }
}

/// A row read back (before the false-discovery control).
///
/// # Errors
///
/// One line when the outcome is unknown or a measured row lacks its times.
pub fn from_row(r: &AbRow, confidence: f64) -> Result<Row, String> {
    let outcome = match r.outcome.as_str() {
        "only-a" => Outcome::OnlyA,
        "only-b" => Outcome::OnlyB,
        "failed" => Outcome::Failed(r.message.clone().unwrap_or_default()),
        "measured" => {
            let (Some(a), Some(b)) = (r.a, r.b) else {
                return Err(format!(
                    "row '{}': measured, but without A's and B's times",
                    r.id
                ));
            };
            let interval = match (r.ratio, r.lower, r.upper) {
                (Some(ratio), Some(lower), Some(upper)) => Some(RatioInterval {
                    ratio,
                    lower,
                    upper,
                    coverage: confidence,
                    rounds: r.rounds as usize,
                }),
                _ => None,
            };
            Outcome::Measured(Paired {
                a,
                b,
                interval,
                p_value: r.p_value,
                rounds: r.rounds as usize,
                pairs: r.pairs as usize,
                seconds: r.seconds,
                survives_fdr: true,
                // Only a spread that limits the interval is written.
                layout: r.layout_spread.map(|share| Spread {
                    share,
                    limiting: true,
                    p_value: 0.0,
                }),
            })
        }
        other => return Err(format!("row '{}': unknown outcome '{other}'", r.id)),
    };
    Ok(Row {
        id: r.id.clone(),
        outcome,
    })
}
