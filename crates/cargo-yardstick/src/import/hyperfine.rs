//! hyperfine's `--export-json`: `{"results": [{"command", "mean", "stddev",
//! "times": [seconds…], "parameters"?}]}`. Each time is one sample of one
//! run of the command.

use super::json::{array, number, parse as parse_json, string};
use crate::record::{BenchResult, Interval};

/// Parses the file.
pub fn parse(text: &str) -> Result<Vec<BenchResult>, String> {
    let doc = parse_json(text)?;
    let mut out = Vec::new();
    for (i, r) in array(&doc, "results")?.iter().enumerate() {
        let at = |e: String| format!("results[{i}]: {e}");
        let name = string(r, "command").map_err(at)?.to_owned();
        let times: Vec<f64> = match r.get("times").and_then(|t| t.as_array()) {
            Some(ts) => ts
                .iter()
                .map(|t| t.as_f64().filter(|x| x.is_finite()).map(|x| x * 1e9))
                .collect::<Option<_>>()
                .ok_or_else(|| at("\"times\" holds a value that is not a number".into()))?,
            None => Vec::new(),
        };
        if times.is_empty() {
            let mean = number(r, "mean").map_err(at)? * 1e9;
            out.push(BenchResult::summary(
                name,
                "ns".into(),
                Interval::exact(mean),
            ));
        } else {
            let iters = vec![1.0; times.len()];
            out.push(BenchResult::from_samples(name, "ns".into(), iters, times).map_err(at)?);
        }
    }
    Ok(out)
}
