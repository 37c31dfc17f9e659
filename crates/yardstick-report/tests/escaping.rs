//! Hostile names: ids with markup, quotes, `&`, `/` and `..` are shown as
//! text everywhere, and a folder name that would leave the home directory
//! is refused.

mod common;

use std::fs;

use yardstick_format::criterion::{BenchmarkRecord, SamplingMode, SavedSample};
use yardstick_report::{write_benchmark, BenchmarkReport, ReportError};
use yardstick_stats::{classify, estimates, BootstrapConfig};

#[test]
fn hostile_ids_are_text_on_every_page() {
    let home = common::fresh_dir("escaping-pages");
    common::write_suite(&home);
    let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;";
    let dir = home.join(&common::specs().last().unwrap().directory_name);
    let page = fs::read_to_string(dir.join("report/index.html")).unwrap();
    assert!(
        page.contains(&format!("<h1>{escaped}/a/b/..</h1>")),
        "{page}"
    );
    assert!(page.contains(&format!("<title>{escaped}/a/b/.. · yardstick</title>")));
    let index = fs::read_to_string(home.join("report/index.html")).unwrap();
    assert!(index.contains(escaped));
    // The link to the page is percent-encoded, segment by segment.
    assert!(
        index.contains("href=\"../_script_alert%28_x_%29__script_%20%26%20%27q%27_1a2b3c4d/a_b_5e6a3b2f/_.._0badf00d/report/index.html\""),
        "{index}"
    );
    let group = fs::read_to_string(
        home.join("_script_alert(_x_)__script_ & 'q'_1a2b3c4d/report/index.html"),
    )
    .unwrap();
    assert!(group.contains(&format!("<h1>{escaped}")));
    let violin = fs::read_to_string(
        home.join("_script_alert(_x_)__script_ & 'q'_1a2b3c4d/report/violin.svg"),
    )
    .unwrap();
    assert!(violin.contains("a/b/.."));
    for f in common::files_under(&home) {
        let text = fs::read_to_string(&f).unwrap_or_default();
        if f.extension().is_some_and(|e| e == "html" || e == "svg") {
            assert!(!text.contains("<script"), "raw markup in {}", f.display());
            assert!(
                !text.contains("alert(\"x\")"),
                "raw quotes in {}",
                f.display()
            );
        }
    }
}

#[test]
fn folder_names_that_leave_home_are_refused() {
    let home = common::fresh_dir("escaping-folders");
    let sample = SavedSample {
        sampling_mode: SamplingMode::Flat,
        iters: vec![10.0; 10],
        times: (0..10).map(|i| 100.0 + f64::from(i)).collect(),
        processes: None,
        measurement: None,
    };
    let est = estimates(
        &sample.iters,
        &sample.times,
        false,
        &BootstrapConfig {
            nresamples: 500,
            ..BootstrapConfig::default()
        },
    )
    .unwrap();
    let tukey = classify(&sample.averages());
    for bad in ["../escaped", "/abs/path", "a/../../b", "", "a//b", "./a"] {
        let record = BenchmarkRecord {
            group_id: "g".into(),
            function_id: None,
            value_str: None,
            throughput: None,
            full_id: "g".into(),
            directory_name: bad.into(),
            title: "g".into(),
        };
        let err = write_benchmark(
            &home,
            &BenchmarkReport {
                record: &record,
                sample: &sample,
                unit: "ns",
                estimates: &est,
                distributions: None,
                tukey: &tukey,
                baseline: None,
                change: None,
                change_distributions: None,
                lockstep: None,
                explanation: None,
                build_line: None,
            },
        )
        .unwrap_err();
        assert!(matches!(err, ReportError::Format { .. }), "{bad}: {err}");
        assert!(
            err.to_string().contains("refusing to write outside"),
            "{err}"
        );
    }
    assert!(!home.parent().unwrap().join("escaped").exists());
    assert!(common::files_under(&home).is_empty());
}

#[test]
fn without_distributions_the_numbers_stay_and_the_page_says_why() {
    let home = common::fresh_dir("escaping-no-distributions");
    let sample = SavedSample {
        sampling_mode: SamplingMode::Linear,
        iters: (1..=10).map(f64::from).collect(),
        times: (1..=10)
            .map(|i| f64::from(i) * 50.0 + f64::from(i % 3))
            .collect(),
        processes: None,
        measurement: None,
    };
    let est = estimates(
        &sample.iters,
        &sample.times,
        true,
        &BootstrapConfig {
            nresamples: 500,
            ..BootstrapConfig::default()
        },
    )
    .unwrap();
    let tukey = classify(&sample.averages());
    let record = BenchmarkRecord {
        group_id: "g".into(),
        function_id: Some("f".into()),
        value_str: None,
        throughput: None,
        full_id: "g/f".into(),
        directory_name: "g/f".into(),
        title: "g/f".into(),
    };
    write_benchmark(
        &home,
        &BenchmarkReport {
            record: &record,
            sample: &sample,
            unit: "ns",
            estimates: &est,
            distributions: None,
            tukey: &tukey,
            baseline: None,
            change: None,
            change_distributions: None,
            lockstep: None,
            explanation: None,
            build_line: None,
        },
    )
    .unwrap();
    let page = fs::read_to_string(home.join("g/f/report/index.html")).unwrap();
    assert!(page.contains("No bootstrap distribution was kept for this run."));
    assert!(page.contains("<b>Mean</b>"));
    assert!(home.join("g/f/report/regression.svg").exists());
    assert!(!home.join("g/f/report/mean.svg").exists());
}
