//! Every output of the crate on a deterministic suite: the pages and plots
//! on disk, the markdown summary, the JSON messages, the built-in templates
//! and the quick plot. Numbers are masked where the snapshot is about the
//! shape, not the statistics.

mod common;

use std::fs;

use common::{change, page_with_build, page_with_change};
use yardstick_format::change::{LockstepFile, VerdictFile};
use yardstick_format::messages::Message;
use yardstick_report::messages::{benchmark_complete, group_complete};
use yardstick_report::{
    load_results, markdown_summary, quick_svg, render_template, write_all, Builtin,
    RegenerateOptions, ReportError,
};
use yardstick_stats::Verdict;

/// Replaces every number (digits with an optional point, sign and
/// exponent) by `#`, so snapshots do not depend on the statistics.
fn mask(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            while chars
                .peek()
                .is_some_and(|d| d.is_ascii_digit() || *d == '.' || *d == 'e')
            {
                chars.next();
            }
            out.push('#');
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn the_report_has_every_page_and_plot() {
    let home = common::fresh_dir("outputs-pages");
    common::write_suite(&home);
    let rel = |p: &std::path::Path| p.strip_prefix(&home).unwrap().display().to_string();
    let files: Vec<String> = common::files_under(&home)
        .iter()
        .map(|p| rel(p))
        .filter(|p| p.contains("report"))
        .collect();
    // A linear benchmark with a baseline: every Criterion.rs plot name.
    for f in [
        "index.html",
        "pdf.svg",
        "regression.svg",
        "slope.svg",
        "mean.svg",
        "median.svg",
        "SD.svg",
        "MAD.svg",
        "both/pdf.svg",
        "both/regression.svg",
        "change/mean.svg",
        "change/median.svg",
        "change/t-test.svg",
    ] {
        let want = format!("parse/json/10/report/{f}");
        assert!(files.contains(&want), "{want} missing from {files:#?}");
    }
    // Flat sampling: iteration times instead of the regression, no slope,
    // and no comparison without a baseline.
    assert!(files.contains(&"fib 20/report/iteration_times.svg".to_owned()));
    assert!(!files
        .iter()
        .any(|f| f.starts_with("fib 20/report/regression")));
    assert!(!files.iter().any(|f| f.starts_with("fib 20/report/both")));
    // Group pages (not for the lone benchmark, whose folder is its group's).
    assert!(files.contains(&"parse/report/index.html".to_owned()));
    assert!(files.contains(&"parse/report/violin.svg".to_owned()));
    assert!(files.contains(&"parse/report/lines.svg".to_owned()));
    assert!(files.contains(&"parse/report/throughput.svg".to_owned()));
    assert!(files.contains(&"cycles/report/violin.svg".to_owned()));
    assert!(!files.iter().any(|f| f == "fib 20/report/violin.svg"));
    assert!(files.contains(&"report/index.html".to_owned()));

    // Links from the index reach every benchmark page.
    let index = fs::read_to_string(home.join("report/index.html")).unwrap();
    assert!(index.contains("href=\"../parse/json/10/report/index.html\""));
    assert!(index.contains("href=\"../fib%2020/report/index.html\""));
    assert!(index.contains("href=\"../parse/report/group.html\""));
    assert!(files.contains(&"parse/report/group.html".to_owned()));
    assert!(files.contains(&"parse/report/index.html".to_owned()));
    let page = fs::read_to_string(home.join("parse/json/10/report/index.html")).unwrap();
    assert!(page.contains("href=\"../../../../report/index.html\""));
    assert!(page.contains("href=\"../../../../parse/report/group.html\""));
    // Self-contained: no script, no external resource.
    for f in common::files_under(&home) {
        if f.extension().is_some_and(|e| e == "html" || e == "svg") {
            let text = fs::read_to_string(&f).unwrap();
            assert!(!text.contains("<script"), "{}", f.display());
            assert!(!text.contains("http://") || text.contains("http://www.w3.org/2000/svg"));
            assert!(!text.contains("https://"), "{}", f.display());
        }
    }
}

/// Every plot file the Criterion.rs user guide lists for a benchmark
/// ("File Structure" of its Plots & Graphs chapter), after a run with a
/// comparison: the linear-sampling names on a linear benchmark, the
/// iteration-times names on a flat one given a baseline here.
#[test]
fn every_plot_the_criterion_guide_lists_exists_after_a_comparison() {
    let home = common::fresh_dir("outputs-guide-plots");
    common::write_suite(&home);
    let has = |dir: &str, f: &str| home.join(dir).join("report").join(f).is_file();
    for f in [
        "both/pdf.svg",
        "both/regression.svg",
        "change/mean.svg",
        "change/median.svg",
        "change/t-test.svg",
        "index.html",
        "MAD.svg",
        "mean.svg",
        "median.svg",
        "pdf.svg",
        "pdf_small.svg",
        "regression.svg",
        "regression_small.svg",
        "relative_pdf_small.svg",
        "relative_regression_small.svg",
        "SD.svg",
        "slope.svg",
    ] {
        assert!(has("parse/json/10", f), "parse/json/10/report/{f} missing");
    }
    // The flat benchmark, compared with a copy of itself as its baseline.
    common::rewrite_with_baseline(&home, "fib 20");
    for f in [
        "both/iteration_times.svg",
        "iteration_times.svg",
        "iteration_times_small.svg",
        "relative_iteration_times_small.svg",
        "pdf_small.svg",
        "relative_pdf_small.svg",
    ] {
        assert!(has("fib 20", f), "fib 20/report/{f} missing");
    }
    assert!(!has("fib 20", "regression_small.svg"));
    // Every small plot is an SVG of its own, smaller than the full plot.
    let small = fs::read_to_string(home.join("parse/json/10/report/pdf_small.svg")).unwrap();
    let full = fs::read_to_string(home.join("parse/json/10/report/pdf.svg")).unwrap();
    assert!(
        small.starts_with("<svg") && small.contains("width=\"420\""),
        "{}",
        &small[..200]
    );
    assert!(full.contains("width=\"640\""));
}

/// The summary pages Criterion.rs writes for a group with functions and
/// inputs: each function across its inputs and each input across the
/// functions, linked from the group page, with each member's small plots.
#[test]
fn groups_have_summary_pages_per_function_and_per_input() {
    let home = common::fresh_dir("outputs-summaries");
    common::write_suite(&home);
    for part in ["json", "xml", "1", "10", "100", "1000"] {
        let dir = home.join("parse").join(part).join("report");
        assert!(
            dir.join("index.html").is_file(),
            "parse/{part}/report/index.html"
        );
        assert!(
            dir.join("violin.svg").is_file(),
            "parse/{part}/report/violin.svg"
        );
    }
    // Lines over the inputs only where the inputs vary: per function.
    assert!(home.join("parse/json/report/lines.svg").is_file());
    assert!(!home.join("parse/10/report/lines.svg").exists());
    let group = fs::read_to_string(home.join("parse/report/index.html")).unwrap();
    assert!(
        group.contains("href=\"../json/report/index.html\">parse/json</a>"),
        "{group}"
    );
    assert!(
        group.contains("href=\"../100/report/index.html\">parse/100</a>"),
        "{group}"
    );
    assert!(
        group.contains("src=\"../../parse/json/10/report/pdf_small.svg\""),
        "{group}"
    );
    assert!(
        group.contains("src=\"../../parse/json/10/report/regression_small.svg\""),
        "{group}"
    );
    let json = fs::read_to_string(home.join("parse/json/report/index.html")).unwrap();
    assert!(json.contains("<h1>parse/json"), "{json}");
    assert!(
        json.contains("href=\"../../../report/index.html\""),
        "{json}"
    );
    assert!(
        json.contains("src=\"../../../parse/json/1000/report/pdf_small.svg\""),
        "{json}"
    );
    assert!(
        !json.contains("parse/xml/"),
        "only the json benchmarks: {json}"
    );
    // A group without inputs, or with one benchmark per part, has none.
    assert!(!home.join("cycles/count/report/violin.svg").exists());
}

#[test]
fn units_other_than_time_are_shown_as_they_are() {
    let home = common::fresh_dir("outputs-units");
    common::write_suite(&home);
    let page = fs::read_to_string(home.join("cycles/count/report/index.html")).unwrap();
    assert!(page.contains(" cycles</div>"), "{page}");
    assert!(page.contains("Value per iteration (slope)"));
    assert!(
        !page.contains("Throughput</div>"),
        "no rate for a non-time unit"
    );
    let pdf = fs::read_to_string(home.join("cycles/count/report/pdf.svg")).unwrap();
    assert!(pdf.contains("(cycles)"));
}

#[test]
fn markdown_summary_snapshot() {
    let home = common::fresh_dir("outputs-markdown");
    let results = common::write_suite(&home);
    let md = markdown_summary(&results);
    let masked = mask(&md);
    let expected = "\
## suite

| Benchmark | Time (lower) | Time | Time (upper) | Throughput | Change | Verdict |
| :--- | ---: | ---: | ---: | ---: | ---: | :--- |
| parse/json/# | # ns | **# ns** | # ns | # GiB/s | -#% [-#% -#%] | improved |
| parse/json/# | # ns | **# ns** | # ns | # GiB/s | -#% [-#% -#%] | improved |
| parse/json/# | # µs | **# µs** | # µs | # GiB/s | -#% [-#% -#%] | improved |
| parse/json/# | # µs | **# µs** | # µs | # GiB/s | -#% [-#% -#%] | improved |
| parse/xml/# | # ns | **# ns** | # ns | # MiB/s | +#% [+#% +#%] | **regressed** |
| parse/xml/# | # ns | **# ns** | # ns | # MiB/s | +#% [+#% +#%] | **regressed** |
| parse/xml/# | # µs | **# µs** | # µs | # MiB/s | +#% [+#% +#%] | **regressed** |
| parse/xml/# | # µs | **# µs** | # µs | # GiB/s | +#% [+#% +#%] | **regressed** |
| fib # | # ms | **# ms** | # ms |  |  |  |
| cycles/count | # cycles | **# cycles** | # cycles |  | -#% [-#% +#%] | no change |
| &lt;script&gt;alert\\(\"x\"\\)&lt;/script&gt; &amp; 'q'/a/b/.. | # ns | **# ns** | # ns | # Gelem/s, # GiB/s | +#% [+#% +#%] | **regressed** |
";
    assert_eq!(masked, expected, "markdown changed:\n{masked}");
    // The unit row has no rate; the hostile id is escaped.
    assert!(md.contains("| cycles/count | "), "{md}");
    assert!(
        md.contains("&lt;script&gt;alert\\(\"x\"\\)&lt;/script&gt; &amp; 'q'/a/b/.."),
        "{md}"
    );
    assert!(!md.contains("<script>"));
}

/// The same summary with its numbers: the suite's samples come from a
/// seeded generator and a seeded bootstrap, so they are the same on every
/// machine, and a change of wording, rounding or unit is a reviewed diff.
#[test]
fn markdown_summary_with_numbers() {
    let home = common::fresh_dir("outputs-markdown-numbers");
    let results = common::write_suite(&home);
    insta::assert_snapshot!("markdown_summary", markdown_summary(&results));
}

#[test]
fn json_messages_have_cargo_criterions_fields() {
    let home = common::fresh_dir("outputs-messages");
    let results = common::write_suite(&home);
    let linear = &results.benchmarks[1];
    let line =
        serde_json::to_string(&benchmark_complete(linear, "target/criterion/reports/x")).unwrap();
    let masked = mask(&line);
    let ci = "{\"estimate\":#,\"lower_bound\":#,\"upper_bound\":#,\"unit\":\"ns\"}";
    let pct = "{\"estimate\":-#,\"lower_bound\":-#,\"upper_bound\":-#,\"unit\":\"%\"}";
    let expected = format!(
        "{{\"reason\":\"benchmark-complete\",\"id\":\"parse/json/#\",\"report_directory\":\"target/criterion/reports/x\",\
\"iteration_count\":[{iters}],\"measured_values\":[{values}],\"unit\":\"ns\",\
\"throughput\":[{{\"per_iteration\":#,\"unit\":\"bytes\"}}],\"typical\":{ci},\"mean\":{ci},\"median\":{ci},\
\"median_abs_dev\":{ci},\"slope\":{ci},\"change\":{{\"mean\":{pct},\"median\":{pct},\"change\":\"Improved\"}}}}",
        iters = vec!["#"; 60].join(","),
        values = vec!["#"; 60].join(","),
    );
    assert_eq!(masked, expected);
    // Flat sampling: slope is null; no baseline: change is null.
    let flat = results
        .benchmarks
        .iter()
        .find(|b| b.id == "fib 20")
        .unwrap();
    let line = serde_json::to_string(&benchmark_complete(flat, "r")).unwrap();
    assert!(line.contains("\"slope\":null"), "{line}");
    assert!(line.contains("\"change\":null"), "{line}");
    assert!(line.contains("\"throughput\":[]"), "{line}");
    // Elements and bytes: two entries.
    let eab = results.benchmarks.last().unwrap();
    let line = serde_json::to_string(&benchmark_complete(eab, "r")).unwrap();
    assert!(line.contains(
        "\"throughput\":[{\"per_iteration\":4,\"unit\":\"elements\"},{\"per_iteration\":32,\"unit\":\"bytes\"}]"
    ));
    assert!(line.contains("\"change\":\"Regressed\""), "{line}");
    let group = group_complete(
        "parse",
        vec!["parse/json/1".into()],
        "target/criterion/reports/parse",
    );
    assert_eq!(
        serde_json::to_string(&group).unwrap(),
        r#"{"reason":"group-complete","group_name":"parse","benchmarks":["parse/json/1"],"report_directory":"target/criterion/reports/parse"}"#
    );
    let back: Message = serde_json::from_str(&line).unwrap();
    assert!(matches!(back, Message::BenchmarkComplete(_)));
}

/// Splits one CSV line into fields (RFC 4180 quoting).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

#[test]
fn builtin_templates_render_the_run() {
    let home = common::fresh_dir("outputs-templates");
    let results = common::write_suite(&home);

    let csv = Builtin::Csv.render(&results).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), results.benchmarks.len() + 1);
    let header = csv_fields(lines[0]);
    assert_eq!(header[0], "id");
    assert_eq!(header.last().unwrap(), "verdict");
    for (line, b) in lines[1..].iter().zip(&results.benchmarks) {
        let fields = csv_fields(line);
        assert_eq!(fields.len(), header.len(), "{line}");
        assert_eq!(fields[0], b.id);
        let typical: f64 = fields[6].parse().unwrap();
        assert_eq!(typical, b.typical.estimate);
    }
    assert_eq!(
        mask(lines[1]),
        "parse/json/#,parse,json,#,ns,Linear,#,#,#,#,#,#,#,#,#,#,#,#,#,#,bytes,-#,-#,-#,#,Improved"
    );

    let json: serde_json::Value =
        serde_json::from_str(&Builtin::Json.render(&results).unwrap()).unwrap();
    assert_eq!(json["title"], "suite");
    assert_eq!(
        json["benchmarks"].as_array().unwrap().len(),
        results.benchmarks.len()
    );
    assert_eq!(
        json["benchmarks"][0]["samples"].as_array().unwrap().len(),
        60
    );
    assert_eq!(json["benchmarks"][8]["slope"], serde_json::Value::Null);

    let html = Builtin::Html.render(&results).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        html.matches("<rect class=\"box\"").count(),
        results.benchmarks.len()
    );
    assert!(!html.contains("<script"), "the hostile id must be escaped");
    assert!(html.contains("&lt;script&gt;"));

    let pyperf: serde_json::Value =
        serde_json::from_str(&Builtin::Pyperf.render(&results).unwrap()).unwrap();
    assert_eq!(pyperf["version"], "1.0");
    let first = &pyperf["benchmarks"][0];
    assert_eq!(first["metadata"]["name"], "parse/json/1");
    assert_eq!(first["metadata"]["unit"], "second");
    assert_eq!(first["runs"].as_array().unwrap().len(), 60);
    let v = first["runs"][0]["values"][0].as_f64().unwrap();
    assert!(v > 1e-9 && v < 1e-6, "seconds per iteration: {v}");
    // The built-in renders with serde (no template engine needed); the
    // template source users copy from says exactly the same.
    let templated: serde_json::Value = serde_json::from_str(
        &yardstick_report::render_template(Builtin::Pyperf.source(), &results).unwrap(),
    )
    .unwrap();
    assert_eq!(templated, pyperf);
}

#[test]
fn user_templates_and_their_errors() {
    let home = common::fresh_dir("outputs-user-templates");
    let results = common::write_suite(&home);
    let out = render_template(
        "{% for b in benchmarks if b.group == 'parse' %}{{ b.id }} {{ b.typical.estimate|format_value(b.unit) }}\n{% endfor %}",
        &results,
    )
    .unwrap();
    assert_eq!(out.lines().count(), 8);
    assert!(
        mask(out.lines().next().unwrap()) == "parse/json/# # ns",
        "{out}"
    );
    let err = render_template("{{ benchmarks[0].no_such_field }}", &results).unwrap_err();
    assert!(matches!(err, ReportError::Template(_)));
    assert!(err.to_string().contains("template"), "{err}");
    let err = render_template("{% for %}", &results).unwrap_err();
    assert_eq!(
        err.to_string(),
        "template: syntax error: unexpected end of block, expected in (template, line 1)"
    );
    // From a file: .html templates escape.
    let path = home.join("ids.html");
    fs::write(
        &path,
        "{% for b in benchmarks %}<li>{{ b.group }}</li>{% endfor %}",
    )
    .unwrap();
    let html = yardstick_report::render_template_file(&path, &results).unwrap();
    assert!(html.contains("<li>&lt;script&gt;"), "{html}");
    let path = home.join("ids.txt");
    fs::write(&path, "{{ benchmarks[-1].group }}").unwrap();
    let text = yardstick_report::render_template_file(&path, &results).unwrap();
    assert_eq!(text, common::HOSTILE_GROUP);
}

#[test]
fn quick_plot_has_a_bar_per_benchmark() {
    let home = common::fresh_dir("outputs-quick");
    let results = common::write_suite(&home);
    let svg = quick_svg(&results);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(svg.matches(" bar\"/>").count(), results.benchmarks.len());
    assert_eq!(
        svg.matches("class=\"err\"").count(),
        3 * results.benchmarks.len()
    );
    assert!(!svg.contains("<script"));
    assert!(svg.trim_end().ends_with("</svg>"));
}

#[test]
fn reports_regenerate_from_disk_alone() {
    let home = common::fresh_dir("outputs-regenerate");
    common::write_suite(&home);
    let before = fs::read_to_string(home.join("parse/json/10/report/index.html")).unwrap();
    fs::remove_dir_all(home.join("parse/json/10/report")).unwrap();
    fs::remove_dir_all(home.join("report")).unwrap();
    let done = write_all(
        &home,
        &RegenerateOptions {
            nresamples: 10_000,
            seed: 11,
            log_scale: true,
            ..RegenerateOptions::default()
        },
    )
    .unwrap();
    assert!(done.problems.is_empty(), "{:?}", done.problems);
    assert_eq!(done.benchmarks, common::specs().len());
    assert_eq!(done.groups, 3);
    let after = fs::read_to_string(home.join("parse/json/10/report/index.html")).unwrap();
    // Same numbers as the run wrote (read from estimates.json), and the
    // comparison recomputed from base/ with the same seed.
    assert_eq!(mask(&before), mask(&after));
    for line in ["Slope", "Mean", "Median"] {
        let row = |page: &str| {
            page.split("<tr>")
                .find(|r| r.contains(&format!(">{line}<")))
                .map(str::to_owned)
        };
        assert_eq!(row(&before), row(&after), "{line}");
    }
    assert!(home.join("parse/json/10/report/change/t-test.svg").exists());
    assert!(home.join("report/index.html").exists());

    // The data model read back has every benchmark, changes without a verdict.
    let results = load_results(&home, "from disk").unwrap();
    assert_eq!(results.benchmarks.len(), common::specs().len());
    let json10 = results
        .benchmarks
        .iter()
        .find(|b| b.id == "parse/json/10")
        .unwrap();
    assert!(json10.change.as_ref().unwrap().verdict.is_none());
    assert_eq!(json10.samples.len(), 60);
}

#[test]
fn a_corrupt_benchmark_does_not_hide_the_others() {
    let home = common::fresh_dir("outputs-corrupt");
    common::write_suite(&home);
    fs::write(home.join("parse/xml/1/new/sample.json"), b"{not json").unwrap();
    let done = write_all(
        &home,
        &RegenerateOptions {
            nresamples: 2_000,
            ..RegenerateOptions::default()
        },
    )
    .unwrap();
    assert_eq!(done.problems.len(), 1);
    let msg = done.problems[0].to_string();
    assert!(
        msg.contains("sample.json") && msg.contains("not a valid"),
        "{msg}"
    );
    let index = fs::read_to_string(home.join("report/index.html")).unwrap();
    assert!(index.contains("Unreadable results"));
    assert!(index.contains("parse/json/1"));
}

/// FNV-1a, 64 bits: a digest of a file for the golden list below.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every file of every benchmark's report of the seeded suite: the pages by
/// name, length and digest, the plots by name, so that a refactoring of the
/// page code that changes one byte of a page or which plots it writes shows
/// here; two pages are also kept in full.
#[test]
fn benchmark_reports_are_byte_for_byte_the_same() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let home = common::fresh_dir("outputs-golden");
    common::write_suite(&home);
    let mut files = Vec::new();
    walk(&home, &mut files);
    let mut list: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let rel = p
                .strip_prefix(&home)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            // Benchmark reports only; the index and group pages are others'.
            let (bench, _) = rel.split_once("/report/")?;
            if bench.is_empty() || common::specs().iter().all(|s| s.directory_name != bench) {
                return None;
            }
            // Plots by name only: their coordinates come from exp and ln of
            // the platform's libm, which may differ in the last bit.
            if !rel.ends_with(".html") {
                return Some(rel);
            }
            let bytes = fs::read(p).unwrap();
            Some(format!("{rel} {} {:016x}", bytes.len(), fnv1a(&bytes)))
        })
        .collect();
    list.sort();
    insta::assert_snapshot!("benchmark_report_files", list.join("\n") + "\n");
    for (name, dir) in [("linear_with_change", "parse/json/10"), ("flat", "fib 20")] {
        let page = fs::read_to_string(home.join(dir).join("report/index.html")).unwrap();
        insta::assert_snapshot!(format!("benchmark_page_{name}"), page);
    }
}

/// The headline card of the change: its value's classes and text.
fn change_card(page: &str) -> (String, String) {
    let rest = page
        .split("<div class=\"k\">Change in mean")
        .nth(1)
        .expect(page);
    let rest = rest.split("<div class=\"").nth(1).unwrap();
    let (class, rest) = rest.split_once("\">").unwrap();
    let value = rest.split('<').next().unwrap();
    (class.to_owned(), value.to_owned())
}

/// The change's headline is red for a regression and green for an
/// improvement, and plain otherwise whatever its sign: the campaign's page
/// showed +0.48% [−1.80%, +2.82%], p = 0.63 in bold red beside `no change`.
#[test]
fn the_headline_change_is_coloured_by_its_verdict_not_its_sign() {
    let home = common::fresh_dir("outputs-change-colour");
    common::write_suite(&home);
    for (c, class, value) in [
        (
            change(0.0048, -0.0180, 0.0282, 0.63, Verdict::NoChange),
            "v",
            "+0.4800%",
        ),
        (
            change(-0.0048, -0.0282, 0.0180, 0.63, Verdict::NoChange),
            "v",
            "-0.4800%",
        ),
        (
            change(0.004, 0.001, 0.007, 0.01, Verdict::WithinNoise),
            "v",
            "+0.4000%",
        ),
        (
            change(0.12, 0.10, 0.14, 0.001, Verdict::Regressed),
            "v up",
            "+12.000%",
        ),
        (
            change(-0.12, -0.14, -0.10, 0.001, Verdict::Improved),
            "v down",
            "-12.000%",
        ),
    ] {
        let page = page_with_change(&home, "parse/json/10", &c, None);
        assert_eq!(change_card(&page), (class.to_owned(), value.to_owned()));
    }
}

/// A lock-step comparison measures one ratio, B/A of the times per
/// iteration: the page shows that change alone (no median row or plot
/// repeating it) and says, as the terminal does, how it was measured.
#[test]
fn a_lockstep_change_is_said_so_and_shows_only_what_was_measured() {
    let home = common::fresh_dir("outputs-lockstep");
    common::write_suite(&home);
    let how = LockstepFile {
        pairs: 8,
        rounds: 96,
        layouts: 0,
        counted: None,
        same_code: None,
        rewritten: None,
    };
    let c = change(0.0048, -0.0180, 0.0282, 0.63, Verdict::NoChange);
    let page = page_with_change(&home, "parse/json/10", &c, Some(how));
    assert!(
        page.contains(
            "Measured in lock-step with the baseline's binary (8 process pairs, 96 rounds)"
        ),
        "{page}"
    );
    assert!(page.contains("Change in mean (lock-step)"), "{page}");
    let section = page.split("Change from the baseline").nth(1).unwrap();
    assert!(!section.contains(">Median<"), "{section}");
    assert!(!section.contains("Change in median"), "{section}");
    let report = home.join("parse/json/10/report");
    assert!(!report.join("change/median.svg").exists());
    // Measured between runs, the median's change is its own row.
    let page = page_with_change(&home, "parse/json/10", &c, None);
    let section = page.split("Change from the baseline").nth(1).unwrap();
    assert!(section.contains(">Median<"), "{section}");
    assert!(section.contains("-0.5200%"), "{section}");
    assert!(!page.contains("lock-step"), "{page}");
}

/// A run built differently from its baseline says so beside the verdict,
/// in the comparison's own words (escaped: flags hold `<`, `&` and quotes
/// as easily as anything); builds alike add nothing to the page.
#[test]
fn a_build_difference_is_named_beside_the_verdict() {
    let home = common::fresh_dir("outputs-build");
    common::write_suite(&home);
    let c = change(0.12, 0.10, 0.14, 0.001, Verdict::Regressed);
    let line = "the baseline was built by rustc 1.91.1, this run by rustc 1.92.0; RUSTFLAGS added -C target-cpu=native --cfg 'x=\"<&>\"'";
    let page = page_with_build(&home, "parse/json/10", &c, None, Some(line));
    let section = page.split("Change from the baseline").nth(1).unwrap();
    let legends: Vec<&str> = section
        .split("<p class=\"legend")
        .skip(1)
        .map(|p| p.split("</p>").next().unwrap())
        .collect();
    insta::assert_snapshot!("benchmark_page_build_difference", legends.join("\n"));
    let built = legends
        .iter()
        .position(|l| l.contains("The baseline was built by"));
    let verdict = legends
        .iter()
        .position(|l| l.contains("Performance has regressed"));
    assert_eq!(built, verdict.map(|v| v + 1), "{legends:?}");
    let page = page_with_change(&home, "parse/json/10", &c, None);
    assert!(!page.contains("legend build"), "{page}");
}

/// After a default run `base/` holds the run itself, so `report` cannot
/// recompute the comparison: the change the run saved is shown, with the
/// verdict and lock-step `change/verdict.json` kept, or said to be
/// unknown when only Criterion.rs's `change/estimates.json` is there.
#[test]
fn reports_regenerated_after_a_default_run_keep_the_saved_change() {
    let home = common::fresh_dir("outputs-regenerate-saved-change");
    common::write_suite(&home);
    let dir = home.join("parse/json/10");
    fs::copy(dir.join("new/sample.json"), dir.join("base/sample.json")).unwrap();
    let regenerate = || {
        let opts = RegenerateOptions {
            nresamples: 1_000,
            ..RegenerateOptions::default()
        };
        yardstick_report::write_benchmark_from_disk(&home, "parse/json/10", &opts).unwrap();
        fs::read_to_string(dir.join("report/index.html")).unwrap()
    };
    let saved: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("change/estimates.json")).unwrap())
            .unwrap();
    let mean = saved["mean"]["point_estimate"].as_f64().unwrap();
    let page = regenerate();
    assert!(page.contains("Change from the baseline"), "{page}");
    assert!(page.contains("verdict not saved"), "{page}");
    assert_eq!(change_card(&page).0, "v");

    let verdict = VerdictFile {
        version: yardstick_format::change::VERSION,
        mean,
        p_value: 0.001,
        t: 9.5,
        verdict: "Improved".into(),
        lockstep: Some(LockstepFile {
            pairs: 8,
            rounds: 96,
            layouts: 0,
            counted: None,
            same_code: None,
            rewritten: None,
        }),
        judged_at: None,
        verdict_alone: None,
        baseline: None,
    };
    fs::write(
        dir.join("change/verdict.json"),
        yardstick_format::json::to_string(&verdict),
    )
    .unwrap();
    let page = regenerate();
    assert!(page.contains("Change from the baseline"), "{page}");
    assert!(
        page.contains(
            "Measured in lock-step with the baseline's binary (8 process pairs, 96 rounds)"
        ),
        "{page}"
    );
    assert!(
        page.contains("p = 0.00 <span class=\"badge improved\">"),
        "{page}"
    );
    assert_eq!(change_card(&page).0, "v down");
    // A verdict of another change (a later run of another tool) is not
    // this one's.
    let other = VerdictFile {
        mean: mean + 0.01,
        ..verdict
    };
    fs::write(
        dir.join("change/verdict.json"),
        yardstick_format::json::to_string(&other),
    )
    .unwrap();
    assert!(regenerate().contains("verdict not saved"));
}

/// A page drawn again names how the builds differ from the build records
/// the saved folders name (`<binary>.build.json` beside each kept binary),
/// in the words of the run: recomputed against a named baseline, the line
/// names that baseline; folders without records (Criterion.rs's) say
/// nothing, and one side without a record says it is not known.
#[test]
fn regenerated_pages_name_the_build_difference_from_the_records() {
    use yardstick_format::binary::{BinaryFile, VERSION as BINARY_VERSION};
    use yardstick_format::build::{kept_path, BuildFile, VERSION as BUILD_VERSION};
    let home = common::fresh_dir("outputs-regenerate-build-line");
    common::write_suite(&home);
    let dir = home.join("parse/json/10");
    fs::create_dir_all(dir.join("old")).unwrap();
    fs::copy(dir.join("base/sample.json"), dir.join("old/sample.json")).unwrap();
    let legend_of_run = |baseline: &str, baseline_of_run: bool| {
        let opts = RegenerateOptions {
            nresamples: 1_000,
            baseline: baseline.to_owned(),
            baseline_of_run,
            ..RegenerateOptions::default()
        };
        yardstick_report::write_benchmark_from_disk(&home, "parse/json/10", &opts).unwrap();
        let page = fs::read_to_string(dir.join("report/index.html")).unwrap();
        page.split("<p class=\"legend build\">")
            .nth(1)
            .map(|l| l.split("</p>").next().unwrap().to_owned())
    };
    let legend = |baseline: &str| legend_of_run(baseline, false);
    assert_eq!(legend("old"), None);
    // Each folder names its binary; each binary's record names its rustc.
    let keep = |folder: &str, binary: &str, rustc: &str| {
        let b = BinaryFile {
            version: BINARY_VERSION,
            target: "parse".into(),
            binary: binary.into(),
            protocol: 1,
            measurement: "wall".into(),
            package: Some("suite".into()),
            layouts: Vec::new(),
        };
        let json = yardstick_format::json::to_string(&b);
        fs::write(dir.join(folder).join("binary.json"), json).unwrap();
        let record = BuildFile {
            version: BUILD_VERSION,
            rustc: rustc.into(),
            ..BuildFile::default()
        };
        let path = kept_path(&home, &b);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, yardstick_format::json::to_string(&record)).unwrap();
    };
    keep(
        "new",
        "00000000000000aa-1",
        "rustc 1.92.0 (ded5c06cf 2025-12-08)",
    );
    keep(
        "old",
        "00000000000000bb-1",
        "rustc 1.91.1 (ed61e7d7e 2025-11-07)",
    );
    assert_eq!(
        legend("old").as_deref(),
        Some("Baseline &#39;old&#39; was built by rustc 1.91.1, this run by rustc 1.92.0.")
    );
    // `base/` has no record: said once, in one sentence.
    let unknown = legend("base").unwrap();
    assert!(
        unknown.starts_with("How the baseline was built is not known"),
        "{unknown}"
    );
    // The run compared with `old` (its verdict names it): `report` without
    // `--baseline` and `explain` compare with `old` too.
    let saved: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("change/estimates.json")).unwrap())
            .unwrap();
    let verdict = VerdictFile {
        version: yardstick_format::change::VERSION,
        mean: saved["mean"]["point_estimate"].as_f64().unwrap(),
        p_value: 0.001,
        t: 9.5,
        verdict: "Improved".into(),
        lockstep: None,
        judged_at: None,
        verdict_alone: None,
        baseline: Some("old".into()),
    };
    fs::write(
        dir.join("change/verdict.json"),
        yardstick_format::json::to_string(&verdict),
    )
    .unwrap();
    assert_eq!(legend_of_run("base", true), legend("old"));
    assert_eq!(legend_of_run("base", false), Some(unknown));

    // After a default run `base/` holds the run itself: the change is the
    // one the run saved, its baseline the binary `change/binary.json`
    // names (a verdict of an earlier yardstick names no baseline: `base`).
    fs::copy(dir.join("new/sample.json"), dir.join("base/sample.json")).unwrap();
    keep(
        "change",
        "00000000000000bb-1",
        "rustc 1.91.1 (ed61e7d7e 2025-11-07)",
    );
    let unnamed = VerdictFile {
        baseline: None,
        ..verdict.clone()
    };
    let write_verdict = |v: &VerdictFile| {
        let json = yardstick_format::json::to_string(v);
        fs::write(dir.join("change/verdict.json"), json).unwrap();
    };
    write_verdict(&unnamed);
    assert_eq!(
        legend("base").as_deref(),
        Some("The baseline was built by rustc 1.91.1, this run by rustc 1.92.0.")
    );
    // Beside another tool's later change the verdict is not this change's,
    // and `change/binary.json` is an older comparison's: nothing is said.
    write_verdict(&VerdictFile {
        mean: unnamed.mean + 0.01,
        ..unnamed
    });
    assert_eq!(legend("base"), None);
}
