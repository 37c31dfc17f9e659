//! Google Benchmark's JSON (`--benchmark_format=json` or `--benchmark_out`):
//! `{"context": …, "benchmarks": [{"name", "run_name", "run_type",
//! "iterations", "real_time", "time_unit", …}]}`. Each `iteration` entry is
//! one sample (its repetitions become more samples); aggregates (mean,
//! median, stddev) are used only for benchmarks that have no iteration entry.

use super::json::{array, ns_per, number, parse as parse_json, string};
use crate::record::{BenchResult, Interval};

/// Parses the file.
pub fn parse(text: &str) -> Result<Vec<BenchResult>, String> {
    let doc = parse_json(text)?;
    let mut samples: Vec<(String, Vec<f64>, Vec<f64>)> = Vec::new();
    let mut aggregates: Vec<(String, f64)> = Vec::new();
    for (i, b) in array(&doc, "benchmarks")?.iter().enumerate() {
        let at = |e: String| format!("benchmarks[{i}]: {e}");
        if b.get("error_occurred").and_then(serde_json::Value::as_bool) == Some(true) {
            continue;
        }
        let name = b
            .get("run_name")
            .and_then(|v| v.as_str())
            .map_or_else(
                || string(b, "name").map(str::to_owned),
                |s| Ok(s.to_owned()),
            )
            .map_err(at)?;
        let unit = b.get("time_unit").and_then(|v| v.as_str()).unwrap_or("ns");
        let scale = ns_per(unit).ok_or_else(|| at(format!("unknown time_unit \"{unit}\"")))?;
        let time = number(b, "real_time").map_err(at)? * scale;
        match b.get("run_type").and_then(|v| v.as_str()) {
            Some("aggregate") => {
                if b.get("aggregate_name").and_then(|v| v.as_str()) == Some("mean") {
                    aggregates.push((name, time));
                }
            }
            _ => {
                let iters = number(b, "iterations").map_err(at)?;
                if iters < 1.0 {
                    return Err(at("iterations must be at least 1".into()));
                }
                match samples.iter_mut().find(|s| s.0 == name) {
                    Some(s) => {
                        s.1.push(iters);
                        s.2.push(time * iters);
                    }
                    None => samples.push((name, vec![iters], vec![time * iters])),
                }
            }
        }
    }
    let mut out = Vec::new();
    for (name, iters, values) in samples {
        out.push(BenchResult::from_samples(name, "ns".into(), iters, values)?);
    }
    for (name, mean) in aggregates {
        if !out.iter().any(|r| r.name == name) {
            out.push(BenchResult::summary(
                name,
                "ns".into(),
                Interval::exact(mean),
            ));
        }
    }
    Ok(out)
}
