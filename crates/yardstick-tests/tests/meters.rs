//! Extra metrics measured beside the time, end to end.

mod common;
use common::{benchmark_dir, counter_notes, home, read_json, run};

fn metrics_json(h: &std::path::Path) -> serde_json::Value {
    let doc = read_json(&benchmark_dir(h).join("new/metrics.json"));
    common::assert_schema("metrics.v1.json", &doc);
    doc
}

fn metric<'a>(doc: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    doc["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {doc}"))
}

const ARGS: &[&str] = &[
    "--bench",
    "--warm-up-time",
    "0.02",
    "--measurement-time",
    "0.1",
    "--sample-size",
    "10",
    "--nresamples",
    "1000",
    "--color",
    "never",
];

#[test]
fn allocations_are_exact_for_known_code() {
    let h = home("meters-alloc");
    let mut args = ARGS.to_vec();
    args.extend(["--measure", "allocs", "--exact", "alloc/vec100"]);
    let r = run(&h, &args, &[("FIXTURE_METERS", "1")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Vec::<u64>::with_capacity(100): one allocation of 800 bytes, freed.
    assert!(
        r.stdout
            .contains("allocations: [1.0000 1.0000 1.0000] allocations per iteration"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("allocated-bytes: [800.00 800.00 800.00] bytes per iteration"),
        "{}",
        r.stdout
    );
    let doc = metrics_json(&h);
    assert_eq!(doc["version"], 1);
    assert_eq!(
        metric(&doc, "deallocations")["estimate"]["point_estimate"],
        1.0
    );
    assert_eq!(
        metric(&doc, "reallocations")["estimate"]["point_estimate"],
        0.0
    );
    assert_eq!(metric(&doc, "peak-live-bytes")["peak"], 800.0);
    assert!(
        r.stderr
            .contains("Peak resident memory of this bench binary: "),
        "{}",
        r.stderr
    );
}

#[test]
fn cpu_time_of_a_sleep_is_near_zero_while_its_wall_time_is_the_sleep() {
    let h = home("meters-cpu");
    let mut args = ARGS.to_vec();
    args.extend([
        "--measure",
        "wall,cpu,thread-cpu,context-switches",
        "--exact",
        "sleep/2ms",
    ]);
    let r = run(&h, &args, &[("FIXTURE_METERS", "1")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = read_json(&h.join("sleep/2ms/new/metrics.json"));
    let per_iter = |name: &str| {
        metric(&doc, name)["estimate"]["point_estimate"]
            .as_f64()
            .unwrap()
    };
    assert!(per_iter("wall") >= 2e6, "wall {}", per_iter("wall"));
    for cpu in ["cpu", "thread-cpu"] {
        assert!(
            per_iter(cpu) < 0.5e6,
            "{cpu} {} ns for a 2 ms sleep",
            per_iter(cpu)
        );
    }
    // Sleeping gives the CPU away: at least one switch per iteration,
    // unless this machine does not allow the counter (then a note says so).
    let switches = doc["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "context-switches");
    match switches {
        Some(m) => assert!(
            m["estimate"]["point_estimate"].as_f64().unwrap() >= 0.9,
            "{m}"
        ),
        None => assert!(r.stderr.contains("context-switches"), "{}", r.stderr),
    }
}

#[test]
fn hardware_counters_are_a_number_or_a_note_never_a_zero() {
    let h = home("meters-hw");
    let mut args = ARGS.to_vec();
    args.extend([
        "--measure",
        "instructions,cycles,page-faults",
        "--exact",
        "work/spin",
    ]);
    let r = run(&h, &args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = metrics_json(&h);
    for name in ["instructions", "cycles"] {
        let found = doc["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name);
        match found {
            Some(m) => assert!(
                m["estimate"]["point_estimate"].as_f64().unwrap() > 0.0,
                "{m}"
            ),
            None => {
                assert_eq!(counter_notes(&r.stderr), 1, "{}", r.stderr);
                assert!(!r.stdout.contains(&format!("{name}:")), "{}", r.stdout);
            }
        }
    }
    // Said once, not per benchmark.
    assert!(counter_notes(&r.stderr) <= 1, "{}", r.stderr);
}

#[test]
fn without_the_counting_allocator_allocations_are_a_note() {
    // The fixture installs it; the note path is covered by the meters'
    // unit tests. Here: an unknown metric is a clear error, status 2.
    let h = home("meters-bad");
    let r = run(&h, &["--bench", "--measure", "cpu,nonsense"], &[]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--measure") && r.stderr.contains("nonsense"),
        "{}",
        r.stderr
    );
}

#[test]
fn time_mode_cpu_measures_cpu_time_as_the_time() {
    let h = home("time-mode");
    let mut args = ARGS.to_vec();
    args.extend(["--time-mode", "cpu", "--exact", "sleep/2ms"]);
    let r = run(&h, &args, &[("FIXTURE_METERS", "1")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let est = read_json(&h.join("sleep/2ms/new/estimates.json"));
    let mean = est["mean"]["point_estimate"].as_f64().unwrap();
    assert!(mean < 0.5e6, "a 2 ms sleep costs {mean} ns of CPU time");
    let bad = run(&h, &["--bench", "--time-mode", "sundial"], &[]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("wall, cpu, thread-cpu"),
        "{}",
        bad.stderr
    );
}

#[test]
fn metrics_are_saved_compared_with_the_baseline_and_sent_as_messages() {
    let h = home("meters-baseline");
    let mut args = ARGS.to_vec();
    args.extend([
        "--measure",
        "allocs",
        "--save-baseline",
        "m",
        "--exact",
        "alloc/vec100",
    ]);
    let r = run(&h, &args, &[("FIXTURE_METERS", "1")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let dir = benchmark_dir(&h);
    assert!(dir.join("m/metrics.json").exists());
    let csv = std::fs::read_to_string(dir.join("new/metrics.csv")).unwrap();
    assert!(
        csv.starts_with("metric,unit,sample,value\nallocations,allocations,0,"),
        "{csv}"
    );

    let file = h.join("msgs.jsonl");
    let mut args = ARGS.to_vec();
    args.extend([
        "--measure",
        "allocs",
        "--baseline",
        "m",
        "--exact",
        "alloc/vec100",
        "--message-format",
        "json",
        "--message-file",
        file.to_str().unwrap(),
    ]);
    let r = run(&h, &args, &[("FIXTURE_METERS", "1")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The same code: the same single allocation, so no change.
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains("allocations: ["))
        .unwrap();
    assert!(
        line.contains("; change [") && line.ends_with("No change in performance detected."),
        "{line}"
    );
    let msg: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let allocs = msg["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "allocations")
        .unwrap();
    assert_eq!(allocs["unit"], "allocations");
    assert_eq!(allocs["per_iteration"]["estimate"], 1.0);
    assert_eq!(allocs["change"]["change"], "NoChange");
}
