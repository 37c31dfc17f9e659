//! Extra metrics chosen in code: `Criterion::with_metrics` for every
//! benchmark of a `criterion_group!`, `BenchmarkGroup::metrics` for one
//! group. The fixture's `api/*` and `api_group/*` benchmarks each allocate
//! one `Vec<u64>` per iteration (100, 50 and 10 elements) and free it.

mod common;
use std::path::Path;

use common::{home, read_json, run};

const ARGS: &[&str] = &[
    "--bench",
    "--warm-up-time",
    "0.02",
    "--measurement-time",
    "0.05",
    "--sample-size",
    "10",
    "--nresamples",
    "1000",
    "--color",
    "never",
];

const ENV: &[(&str, &str)] = &[("FIXTURE_API_METRICS", "1")];

/// The names of the metrics in a benchmark's `new/metrics.json`, and the
/// point estimate of each.
fn saved(dir: &Path) -> Vec<(String, f64)> {
    let doc = read_json(&dir.join("new/metrics.json"));
    doc["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap().to_owned(),
                m["estimate"]["point_estimate"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The folder of the benchmark whose id is `id` (`a/b` gets a hash).
fn folder(h: &Path, prefix: &str) -> std::path::PathBuf {
    std::fs::read_dir(h)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix}* under {}", h.display()))
}

/// The lines printed under benchmark `id`'s time line, up to the next
/// benchmark's.
fn block<'a>(stdout: &'a str, id: &str) -> Vec<&'a str> {
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with(id));
    let first = lines.next().unwrap_or_else(|| panic!("{id}: {stdout}"));
    std::iter::once(first)
        .chain(lines.take_while(|l| l.starts_with(' ')))
        .collect()
}

#[test]
fn with_metrics_and_group_metrics_measure_what_the_code_chose() {
    let h = home("metrics-api");
    let mut args = ARGS.to_vec();
    args.push("^api");
    let r = run(&h, &args, ENV);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);

    // with_metrics(&[Allocations, AllocatedBytes]): one allocation of
    // 100 · 8 = 800 bytes per iteration, and nothing else besides the time.
    let vec100 = block(&r.stdout, "api/vec100");
    assert!(
        vec100.contains(
            &"                        allocations: [1.0000 1.0000 1.0000] allocations per iteration"
        ),
        "{vec100:#?}"
    );
    assert!(
        vec100.iter().any(|l| l
            .trim_start()
            .starts_with("allocated-bytes: [800.00 800.00 800.00] bytes per iteration")),
        "{vec100:#?}"
    );
    assert_eq!(
        saved(&folder(&h, "api_vec100_")),
        [
            ("allocations".into(), 1.0),
            ("allocated-bytes".into(), 800.0)
        ]
    );
    let csv = std::fs::read_to_string(folder(&h, "api_vec100_").join("new/metrics.csv")).unwrap();
    assert!(
        csv.starts_with("metric,unit,sample,value\nallocations,allocations,0,"),
        "{csv}"
    );

    // The group's own list, metrics(&[Deallocations, AllocatedBytes]),
    // replaces the Criterion's for its benchmarks, as every group setting
    // does: one free and 50 · 8 = 400 bytes per iteration.
    let vec50 = block(&r.stdout, "api_group/vec50");
    assert!(
        vec50.iter().any(|l| l
            .trim_start()
            .starts_with("deallocations: [1.0000 1.0000 1.0000] deallocations per iteration")),
        "{vec50:#?}"
    );
    assert_eq!(
        saved(&h.join("api_group/vec50")),
        [
            ("deallocations".into(), 1.0),
            ("allocated-bytes".into(), 400.0)
        ]
    );

    // After the group, the Criterion's choice again: 10 · 8 = 80 bytes.
    assert_eq!(
        saved(&folder(&h, "api_vec10_")),
        [
            ("allocations".into(), 1.0),
            ("allocated-bytes".into(), 80.0)
        ]
    );

    // Extra metrics were measured, so the run ends with the binary's peak
    // resident memory: a positive number of MiB.
    let peak = r
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("Peak resident memory of this bench binary: "))
        .unwrap_or_else(|| panic!("{}", r.stderr));
    let mib: f64 = peak.strip_suffix(" MiB").unwrap().parse().unwrap();
    assert!(mib > 0.0, "{peak}");
}

#[test]
fn measure_on_the_command_line_overrides_with_metrics() {
    let h = home("metrics-api-measure");
    let mut args = ARGS.to_vec();
    args.extend(["--measure", "deallocations", "--exact", "api/vec100"]);
    let r = run(&h, &args, ENV);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let lines = block(&r.stdout, "api/vec100");
    assert!(
        lines
            .iter()
            .any(|l| l.trim_start().starts_with("deallocations: [1.0000")),
        "{lines:#?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.trim_start().starts_with("allocations:")),
        "{lines:#?}"
    );
    assert_eq!(
        saved(&folder(&h, "api_vec100_")),
        [("deallocations".into(), 1.0)]
    );
}
