//! The HTML report of a real run, checked as a person would see it: the
//! fixture bench binary runs twice (so the second run is compared with the
//! first), then every page it wrote is loaded in headless Chromium, which
//! must show every plot with no console error and no request leaving
//! `file://`. Screenshots go to `target/tmp/report-e2e/screenshots/`.
//!
//! Needs Debian's `chromium` package (or `YARDSTICK_CHROMIUM=/path`);
//! without it the browser part says so and is skipped, except under CI
//! (`CI` set), where it fails.

#[path = "../../yardstick-report/tests/browser/cdp.rs"]
mod cdp;
mod common;

use cdp::file_url;

use std::fs;
use std::path::{Path, PathBuf};

const FILTER: &str = "^(sizes|odd names|fast/add)";

fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "index.html") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_real_runs_report_shows_every_plot_in_a_browser() {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-e2e");
    let _ = fs::remove_dir_all(&home);
    fs::create_dir_all(&home).unwrap();
    let mut args = common::QUICK.to_vec();
    args.push(FILTER);
    for _ in 0..2 {
        let run = common::run(&home.join("home"), &args, &[]);
        assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    }
    let home_dir = home.join("home");
    let found = pages(&home_dir);
    let rel: Vec<String> = found
        .iter()
        .map(|p| p.strip_prefix(&home_dir).unwrap().display().to_string())
        .collect();
    for want in [
        "report/index.html",
        "sizes/report/index.html",
        "sizes/sum/64/report/index.html",
        "odd names/report/index.html",
    ] {
        assert!(
            rel.iter().any(|r| r == want),
            "{want} missing from {rel:#?}"
        );
    }
    // `fast/add` is one id with a slash: one folder with a hash.
    assert!(
        rel.iter()
            .any(|r| r.starts_with("fast_add_") && r.ends_with("/report/index.html")),
        "{rel:#?}"
    );
    // The second run compared with the first: change plots exist.
    assert!(home_dir
        .join("sizes/sum/64/report/change/mean.svg")
        .exists());
    let index = fs::read_to_string(home_dir.join("report/index.html")).unwrap();
    assert!(
        !index.contains("<script"),
        "a hostile id reached the index as markup"
    );

    let Some(chromium) = cdp::find_chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium not found, and CI must check the report in a browser: \
             install Debian's chromium package in .ci/run"
        );
        eprintln!(
            "skipped the browser check: Chromium not found; install Debian's chromium \
             package (apt-get install chromium) or set YARDSTICK_CHROMIUM"
        );
        return;
    };
    let shots = home.join("screenshots");
    fs::create_dir_all(&shots).unwrap();
    let mut browser = cdp::Browser::start(&chromium, &home.join("profile"));
    let mut failures = Vec::new();
    for (page, name) in found.iter().zip(&rel) {
        let load = browser.load(&file_url(page));
        let mut problems = load.errors.clone();
        problems.extend(
            load.requests
                .iter()
                .filter(|r| !(r.starts_with("file://") || r.starts_with("data:")))
                .map(|r| format!("network request: {r}")),
        );
        let images: Vec<(String, bool)> = serde_json::from_value(browser.eval(
            "[...document.images].map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0])",
        ))
        .unwrap_or_default();
        problems.extend(
            images
                .iter()
                .filter(|(_, ok)| !ok)
                .map(|(src, _)| format!("plot not shown: {src}")),
        );
        if name != "report/index.html" && images.is_empty() {
            problems.push("no plot at all".into());
        }
        let png = browser.screenshot();
        let file: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        fs::write(shots.join(format!("{file}.png")), png).unwrap();
        if !problems.is_empty() {
            failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
