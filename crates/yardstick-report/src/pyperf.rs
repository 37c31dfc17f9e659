//! pyperf's JSON file (format 1.0), written by yardstick-format's writer so that
//! `--template pyperf` needs no template engine: `python3 -m pyperf stats`,
//! `hist` and `compare_to` read it.

use yardstick_format::json::{Json, ToJson};

use crate::results::RunResults;

/// An object of `members`, in order.
fn object<const N: usize>(members: [(&str, Json); N]) -> Json {
    Json::Object(members.map(|(k, v)| (k.to_owned(), v)).into())
}

/// `results` as a pyperf JSON file: one pyperf benchmark per benchmark, one
/// run per sample whose value is the time per iteration in seconds (for
/// other measurements the value per iteration, unit `integer`) and whose
/// `loops` is the sample's iteration count. Samples with no positive value
/// per iteration are left out (pyperf rejects them).
///
/// ```
/// use yardstick_report::{pyperf_json, RunResults};
///
/// let json = pyperf_json(&RunResults::new("run", vec![]));
/// assert!(json.contains(r#""version": "1.0""#));
/// ```
#[must_use]
pub fn pyperf_json(results: &RunResults) -> String {
    let benchmarks: Vec<Json> = results
        .benchmarks
        .iter()
        .map(|b| {
            let wall = b.unit == "ns";
            let runs: Vec<Json> = b
                .samples
                .iter()
                .filter(|s| s.per_iteration > 0.0)
                .map(|s| {
                    // Iteration counts are whole numbers stored as f64.
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    let loops = s.iterations as u64;
                    let value = if wall {
                        s.per_iteration / 1e9
                    } else {
                        s.per_iteration
                    };
                    object([
                        ("metadata", object([("loops", loops.to_json())])),
                        ("values", [value].to_json()),
                    ])
                })
                .collect();
            let unit = if wall { "second" } else { "integer" };
            object([
                (
                    "metadata",
                    object([("name", b.id.to_json()), ("unit", unit.to_json())]),
                ),
                ("runs", Json::Array(runs)),
            ])
        })
        .collect();
    let perf_version = format!("yardstick {}", env!("CARGO_PKG_VERSION"));
    object([
        ("version", "1.0".to_json()),
        (
            "metadata",
            object([
                ("perf_version", perf_version.to_json()),
                ("description", results.title.to_json()),
            ]),
        ),
        ("benchmarks", Json::Array(benchmarks)),
    ])
    .to_pretty()
}
