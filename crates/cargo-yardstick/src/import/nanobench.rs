//! nanobench's JSON template (`ankerl::nanobench::templates::json()`):
//! `{"results": [{"title", "name", "unit", "batch", "measurements":
//! [{"iterations", "elapsed", …}]}]}` where `elapsed` is seconds per
//! iteration. Benchmarks are named `title/name`.

use super::json::{array, number, parse as parse_json, string};
use crate::record::BenchResult;

/// Parses the file.
pub fn parse(text: &str) -> Result<Vec<BenchResult>, String> {
    let doc = parse_json(text)?;
    let mut out = Vec::new();
    for (i, r) in array(&doc, "results")?.iter().enumerate() {
        let at = |e: String| format!("results[{i}]: {e}");
        let name = string(r, "name").map_err(at)?;
        let title = r.get("title").and_then(|v| v.as_str()).unwrap_or("");
        let id = if title.is_empty() {
            name.to_owned()
        } else {
            format!("{title}/{name}")
        };
        let mut iters = Vec::new();
        let mut values = Vec::new();
        for (j, m) in array(r, "measurements").map_err(at)?.iter().enumerate() {
            let at = |e: String| format!("results[{i}].measurements[{j}]: {e}");
            let n = number(m, "iterations").map_err(at)?;
            let elapsed = number(m, "elapsed").map_err(at)?;
            if n < 1.0 {
                return Err(at("iterations must be at least 1".into()));
            }
            iters.push(n);
            values.push(elapsed * 1e9 * n);
        }
        out.push(BenchResult::from_samples(id, "ns".into(), iters, values).map_err(at)?);
    }
    Ok(out)
}
