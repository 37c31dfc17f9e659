//! Every page of a report loaded in headless Chromium, as a person would
//! open it from the file system: no console error, no failed load, no
//! request leaving `file://`, every plot shown. A screenshot of each page
//! is saved under `target/tmp/browser/screenshots/`.
//!
//! Needs Debian's `chromium` package (or `YARDSTICK_CHROMIUM=/path`);
//! without it the test says so and passes, except under CI (`CI` set),
//! where it fails.

#[path = "browser/cdp.rs"]
mod cdp;
mod common;

use cdp::file_url;

use std::fs;
use std::path::Path;

use yardstick_report::{quick_svg, Builtin};

fn shot_name(home: &Path, page: &Path) -> String {
    let rel = page
        .strip_prefix(home)
        .unwrap_or(page)
        .display()
        .to_string();
    let mut name: String = rel
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    name.truncate(120);
    format!("{name}.png")
}

#[test]
fn every_page_loads_in_chromium_with_its_plots() {
    let Some(chromium) = cdp::find_chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium not found, and CI must check the report in a browser: \
             install Debian's chromium package in .ci/run"
        );
        eprintln!(
            "skipped: Chromium not found; install Debian's chromium package \
             (apt-get install chromium) or set YARDSTICK_CHROMIUM to run the browser test"
        );
        return;
    };
    let dir = common::fresh_dir("browser");
    let home = dir.join("home");
    let results = common::write_suite(&home);
    let exports = dir.join("exports");
    fs::create_dir_all(&exports).unwrap();
    fs::write(
        exports.join("boxplot.html"),
        Builtin::Html.render(&results).unwrap(),
    )
    .unwrap();
    fs::write(exports.join("quick.svg"), quick_svg(&results)).unwrap();

    let mut pages: Vec<_> = common::files_under(&home)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "index.html"))
        .collect();
    pages.push(exports.join("boxplot.html"));
    pages.push(exports.join("quick.svg"));
    let shots = dir.join("screenshots");
    fs::create_dir_all(&shots).unwrap();

    let mut browser = cdp::Browser::start(&chromium, &dir.join("profile"));
    let mut failures = Vec::new();
    for page in &pages {
        let url = file_url(page);
        let load = browser.load(&url);
        let mut problems = load.errors.clone();
        for r in &load.requests {
            if !(r.starts_with("file://") || r.starts_with("data:")) {
                problems.push(format!("network request: {r}"));
            }
        }
        let images: Vec<(String, bool)> = serde_json::from_value(browser.eval(
            "[...document.images].map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0])",
        ))
        .unwrap_or_default();
        for (src, ok) in &images {
            if !ok {
                problems.push(format!("plot not shown: {src}"));
            }
        }
        let rel = page.strip_prefix(&dir).unwrap().display().to_string();
        let in_report = rel.ends_with("report/index.html") && rel != "home/report/index.html";
        let benchmark_page = common::specs()
            .iter()
            .any(|s| rel == format!("home/{}/report/index.html", s.directory_name));
        let expected_plots = if !in_report {
            0
        } else if benchmark_page {
            6 // a benchmark: PDF, regression or iteration times, 4 or 5 distributions
        } else {
            // A group or a part of one (a function across its inputs, an
            // input across the functions): the violin plot and at least
            // one benchmark's two small plots.
            3
        };
        if images.len() < expected_plots {
            problems.push(format!(
                "{} plots, expected at least {expected_plots}",
                images.len()
            ));
        }
        if rel.ends_with(".html") {
            let title = browser.eval("document.querySelector('h1') ? document.querySelector('h1').textContent : document.title");
            if title.as_str().is_none_or(str::is_empty) {
                problems.push("no heading".into());
            }
        } else {
            let svgs = browser.eval("document.querySelectorAll('svg rect').length");
            if svgs.as_u64().unwrap_or(0) == 0 {
                problems.push("the SVG draws nothing".into());
            }
        }
        let png = browser.screenshot();
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        fs::write(shots.join(shot_name(&dir, page)), png).unwrap();
        if !problems.is_empty() {
            failures.push(format!("{rel}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "pages with problems:\n{}",
        failures.join("\n")
    );
    eprintln!(
        "{} pages loaded; screenshots in {}",
        pages.len(),
        shots.display()
    );
}

/// The colour a person sees on the headline change, as Chromium computes
/// it: red (the style's `#b91c1c`) only for a regression, green
/// (`#15803d`) only for an improvement, the text's own colour for a change
/// the test cannot tell from noise, whatever its sign.
#[test]
fn the_headline_change_is_red_only_for_a_regression() {
    use yardstick_stats::Verdict;
    let Some(chromium) = cdp::find_chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium not found under CI"
        );
        eprintln!("skipped: Chromium not found");
        return;
    };
    let dir = common::fresh_dir("browser-change-colour");
    let home = dir.join("home");
    common::write_suite(&home);
    let mut browser = cdp::Browser::start(&chromium, &dir.join("profile"));
    let colour_of = |browser: &mut cdp::Browser, c: &yardstick_stats::Change| {
        common::page_with_change(&home, "parse/json/10", c, None);
        let page = home.join("parse/json/10/report/index.html");
        browser.load(&file_url(&page));
        let js = "(() => { const k = [...document.querySelectorAll('.card .k')].find(k => k.textContent.startsWith('Change in mean')); \
                  return [getComputedStyle(k.nextElementSibling).color, getComputedStyle(document.body).color]; })()";
        let v: (String, String) = serde_json::from_value(browser.eval(js)).unwrap();
        v
    };
    const RED: &str = "rgb(185, 28, 28)";
    const GREEN: &str = "rgb(21, 128, 61)";
    let no_change = common::change(0.0048, -0.0180, 0.0282, 0.63, Verdict::NoChange);
    let (colour, text) = colour_of(&mut browser, &no_change);
    assert_eq!(colour, text, "a change that is no change is painted");
    assert_ne!(colour, RED);
    let regressed = common::change(0.12, 0.10, 0.14, 0.001, Verdict::Regressed);
    assert_eq!(colour_of(&mut browser, &regressed).0, RED);
    let improved = common::change(-0.12, -0.14, -0.10, 0.001, Verdict::Improved);
    assert_eq!(colour_of(&mut browser, &improved).0, GREEN);
}
