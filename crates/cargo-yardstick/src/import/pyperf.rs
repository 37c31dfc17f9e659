//! pyperf's JSON (`pyperf … -o FILE.json`): `{"version": "1.0", "metadata":
//! {"name", "unit", "loops"}, "benchmarks": [{"metadata": {"name"}, "runs":
//! [{"metadata", "warmups", "values": [seconds per loop…]}]}]}`. Warm-ups
//! are dropped; every value is one sample.

use serde_json::Value;

use super::json::{array, parse as parse_json};
use crate::record::BenchResult;

/// Parses the file.
pub fn parse(text: &str) -> Result<Vec<BenchResult>, String> {
    let doc = parse_json(text)?;
    if doc.get("version").and_then(Value::as_str).is_none() {
        return Err(
            "expected a string \"version\" (a pyperf file starts with {\"version\": \"1.0\", …})"
                .into(),
        );
    }
    let top = doc.get("metadata");
    let mut out = Vec::new();
    for (i, b) in array(&doc, "benchmarks")?.iter().enumerate() {
        let at = |e: String| format!("benchmarks[{i}]: {e}");
        let meta = |key: &str| {
            b.get("metadata")
                .and_then(|m| m.get(key))
                .or_else(|| top.and_then(|m| m.get(key)))
        };
        let name = meta("name")
            .and_then(Value::as_str)
            .map_or_else(|| format!("benchmark{i}"), str::to_owned);
        let unit = meta("unit").and_then(Value::as_str).unwrap_or("second");
        let (unit, scale) = match unit {
            "second" => ("ns", 1e9),
            "byte" => ("bytes", 1.0),
            "integer" => ("count", 1.0),
            other => return Err(at(format!("unknown unit \"{other}\""))),
        };
        let mut values = Vec::new();
        for (j, run) in array(b, "runs").map_err(at)?.iter().enumerate() {
            let Some(vs) = run.get("values") else {
                continue; // a calibration run has only warm-ups
            };
            let vs = vs
                .as_array()
                .ok_or_else(|| at(format!("runs[{j}].values is not an array")))?;
            for v in vs {
                let x = v
                    .as_f64()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| at(format!("runs[{j}].values holds a non-number")))?;
                values.push(x * scale);
            }
        }
        let iters = vec![1.0; values.len()];
        out.push(BenchResult::from_samples(name, unit.into(), iters, values).map_err(at)?);
    }
    Ok(out)
}
