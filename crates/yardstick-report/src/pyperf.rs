//! pyperf's JSON file (format 1.0), written with serde alone so that
//! `--template pyperf` needs no template engine: `python3 -m pyperf stats`,
//! `hist` and `compare_to` read it.

use serde::Serialize;

use crate::results::RunResults;

#[derive(Serialize)]
struct File<'a> {
    version: &'static str,
    metadata: FileMetadata<'a>,
    benchmarks: Vec<Benchmark<'a>>,
}

#[derive(Serialize)]
struct FileMetadata<'a> {
    perf_version: String,
    description: &'a str,
}

#[derive(Serialize)]
struct Benchmark<'a> {
    metadata: BenchmarkMetadata<'a>,
    runs: Vec<Run>,
}

#[derive(Serialize)]
struct BenchmarkMetadata<'a> {
    name: &'a str,
    unit: &'static str,
}

#[derive(Serialize)]
struct Run {
    metadata: RunMetadata,
    values: [f64; 1],
}

#[derive(Serialize)]
struct RunMetadata {
    loops: u64,
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
    let benchmarks = results
        .benchmarks
        .iter()
        .map(|b| {
            let wall = b.unit == "ns";
            let runs = b
                .samples
                .iter()
                .filter(|s| s.per_iteration > 0.0)
                .map(|s| Run {
                    // Iteration counts are whole numbers stored as f64.
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    metadata: RunMetadata {
                        loops: s.iterations as u64,
                    },
                    values: [if wall {
                        s.per_iteration / 1e9
                    } else {
                        s.per_iteration
                    }],
                })
                .collect();
            Benchmark {
                metadata: BenchmarkMetadata {
                    name: &b.id,
                    unit: if wall { "second" } else { "integer" },
                },
                runs,
            }
        })
        .collect();
    let file = File {
        version: "1.0",
        metadata: FileMetadata {
            perf_version: format!("yardstick {}", env!("CARGO_PKG_VERSION")),
            description: &results.title,
        },
        benchmarks,
    };
    // Plain data with string keys: serialising cannot fail.
    serde_json::to_string_pretty(&file).unwrap_or_default()
}
