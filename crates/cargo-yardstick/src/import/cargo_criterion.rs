//! cargo-criterion's JSON messages (`--message-format json`): one object per
//! line; `benchmark-complete` lines carry the samples and the typical value.

use yardstick_format::messages::Message;

use crate::record::{BenchResult, Interval};

/// Parses the messages; lines of other kinds (`group-complete`) are skipped.
pub fn parse(text: &str) -> Result<Vec<BenchResult>, String> {
    parse_reader(text.as_bytes())
}

/// Parses the messages as they are read: one line in memory at a time,
/// besides the results kept.
pub fn parse_reader(input: impl std::io::BufRead) -> Result<Vec<BenchResult>, String> {
    let mut out: Vec<Option<BenchResult>> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", i + 1))?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("line {}: invalid JSON: {e}", i + 1))?;
        if value.get("reason").and_then(|r| r.as_str()) != Some("benchmark-complete") {
            continue;
        }
        let Message::BenchmarkComplete(b) = serde_json::from_value::<Message>(value)
            .map_err(|e| format!("line {}: not a benchmark-complete message: {e}", i + 1))?
        else {
            continue;
        };
        if b.iteration_count.len() != b.measured_values.len() {
            return Err(format!(
                "line {}: {} iteration counts but {} measured values",
                i + 1,
                b.iteration_count.len(),
                b.measured_values.len()
            ));
        }
        let t = &b.typical;
        let typical = Interval {
            point: t.estimate,
            lower: t.lower_bound,
            upper: t.upper_bound,
        };
        if ![typical.point, typical.lower, typical.upper]
            .iter()
            .all(|x| x.is_finite())
        {
            return Err(format!(
                "line {}: the typical estimate is not finite",
                i + 1
            ));
        }
        let mut r = BenchResult::summary(b.id, b.unit, typical);
        r.iters = b.iteration_count.iter().map(|&n| n as f64).collect();
        r.values = b.measured_values;
        if r.iters.iter().any(|&n| n <= 0.0) || r.values.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "line {}: a sample has no iterations or a value that is not finite",
                i + 1
            ));
        }
        // A rerun of the same id replaces the earlier result (found by
        // name in a map: a scan per line made large files quadratic).
        if let Some(old) = seen.insert(r.name.clone(), out.len()) {
            out[old] = None;
        }
        out.push(Some(r));
    }
    Ok(out.into_iter().flatten().collect())
}
