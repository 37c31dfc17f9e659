//! The history as a site and as files that travel between machines,
//! through the real binary: `history --export` and `import yardstick`
//! (idempotent, machines kept apart, files valid against their schema),
//! and the site of 60 runs × 20 benchmarks with an injected level shift
//! opened in headless Chromium.
//!
//! The browser part needs Debian's `chromium` package (or
//! `YARDSTICK_CHROMIUM=/path`); without it the test says so and passes,
//! except under CI (`CI` set), where it fails.

#[path = "../../yardstick-report/tests/browser/cdp.rs"]
mod cdp;
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{bin, db_state, stderr, stdout};
use serde_json::{json, Value};

/// Runs the binary with `--home home` and the machine named `machine`.
fn run_on(home: &Path, machine: &str, args: &[&str]) -> Output {
    bin()
        .args(args)
        .arg("--home")
        .arg(home)
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .env("YARDSTICK_MACHINE", machine)
        .output()
        .expect("run cargo-yardstick")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}{}", stdout(o), stderr(o));
    stdout(o)
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(json_files(&p));
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Records `n` tasty-bench runs of `fib` around `level` ns on `machine`.
fn record_runs(home: &Path, machine: &str, n: usize, level: f64) {
    for r in 0..n {
        let v = level * (1.0 + 0.002 * r as f64);
        let csv = format!("Name,Mean (ps),2*Stdev (ps)\nfib,{},{}\n", v * 1e3, 2e3);
        let f = home.join(format!("{machine}{r}.csv"));
        fs::write(&f, csv).unwrap();
        ok(&run_on(
            home,
            machine,
            &["import", "tasty-bench", f.to_str().unwrap()],
        ));
    }
}

#[test]
fn exports_merge_idempotently_and_machines_stay_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let shared = tmp.path().join("results");
    for h in [&a, &b, &c] {
        fs::create_dir_all(h).unwrap();
    }
    record_runs(&a, "alpha", 3, 100.0);
    record_runs(&b, "beta", 2, 300.0);
    let text = ok(&run_on(
        &a,
        "alpha",
        &["history", "--export", shared.to_str().unwrap()],
    ));
    assert!(
        text.contains("exported 3 runs to") && text.contains("3 written, 0 already there"),
        "{text}"
    );
    ok(&run_on(
        &b,
        "beta",
        &["history", "--export", shared.to_str().unwrap()],
    ));
    let files = json_files(&shared);
    assert_eq!(files.len(), 5, "{files:?}");
    assert_eq!(json_files(&shared.join("alpha")).len(), 3);
    assert_eq!(json_files(&shared.join("beta")).len(), 2);
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../yardstick-format/schemas/history-run.v1.json");
    let schema: Value = serde_json::from_str(&fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    for f in &files {
        let doc: Value = serde_json::from_str(&fs::read_to_string(f).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", f.display());
    }
    // Exporting again rewrites nothing.
    let text = ok(&run_on(
        &a,
        "alpha",
        &["history", "--export", shared.to_str().unwrap()],
    ));
    assert!(text.contains("0 written, 3 already there"), "{text}");

    // One history merges both machines; twice is the same as once.
    let text = ok(&run_on(
        &c,
        "gamma",
        &["import", "yardstick", shared.to_str().unwrap()],
    ));
    assert!(text.starts_with("imported 5 new runs from"), "{text}");
    let text = ok(&run_on(
        &c,
        "gamma",
        &["import", "yardstick", shared.to_str().unwrap()],
    ));
    assert!(
        text.contains("imported 0 new runs") && text.contains("(5 already in the history)"),
        "{text}"
    );
    assert_eq!(db_state(&c), (5, "ok".to_owned()));
    let text = ok(&run_on(&c, "gamma", &["history", "fib"]));
    // (Runs made in the same second keep no order; real runs are minutes
    // apart.)
    assert!(
        text.starts_with("fib on alpha  3 runs  latest 100."),
        "{text}"
    );
    assert!(text.contains("\nfib on beta  2 runs  latest 30"), "{text}");
    // The merged history exports to the very same files.
    let again = tmp.path().join("again");
    ok(&run_on(
        &c,
        "gamma",
        &["history", "--export", again.to_str().unwrap()],
    ));
    let rel = |root: &Path, fs: Vec<PathBuf>| -> Vec<(PathBuf, String)> {
        fs.into_iter()
            .map(|f| {
                (
                    f.strip_prefix(root).unwrap().to_owned(),
                    std::fs::read_to_string(&f).unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(rel(&again, json_files(&again)), rel(&shared, files.clone()));
    // An export merged back into its own history adds nothing.
    let text = ok(&run_on(
        &a,
        "alpha",
        &[
            "import",
            "yardstick",
            shared.join("alpha").to_str().unwrap(),
        ],
    ));
    assert!(text.contains("imported 0 new runs"), "{text}");
}

#[test]
fn a_bad_export_file_is_one_line_and_nothing_is_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("h");
    let dir = tmp.path().join("in");
    fs::create_dir_all(&dir).unwrap();
    let mut run = exported_run(0, "m", "c0", 1.0, &["b"]);
    fs::write(dir.join("a.json"), run.to_string()).unwrap();
    run["uid"] = json!("second");
    run["benchmarks"][0]["typical"]["lower"] = json!(1e12);
    fs::write(dir.join("b.json"), run.to_string()).unwrap();
    let o = run_on(&home, "m", &["import", "yardstick", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains("b.json: not a yardstick history run (version 1): benchmarks[0] ('b'): "),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    // Every file is checked first: nothing was merged.
    assert_eq!(db_state(&home).0, 0);
    fs::write(dir.join("b.json"), "{\"version\": 7}").unwrap();
    let o = run_on(&home, "m", &["import", "yardstick", dir.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("b.json: not a yardstick history run"),
        "{}",
        stderr(&o)
    );
    fs::remove_file(dir.join("b.json")).unwrap();
    let o = run_on(&home, "m", &["import", "yardstick", dir.to_str().unwrap()]);
    assert!(
        stdout(&o).starts_with("imported 1 new runs"),
        "{}",
        stderr(&o)
    );
    let o = run_on(
        &home,
        "m",
        &["import", "yardstick", dir.to_str().unwrap(), "--label", "x"],
    );
    assert!(
        stderr(&o).contains("--label does not apply"),
        "{}",
        stderr(&o)
    );
    // A commit of multi-byte characters is text like any other.
    let mut odd = exported_run(1, "m", &"é".repeat(12), 1.0, &["b"]);
    odd["uid"] = json!("odd");
    fs::write(dir.join("odd.json"), odd.to_string()).unwrap();
    ok(&run_on(
        &home,
        "m",
        &["import", "yardstick", dir.to_str().unwrap()],
    ));
    let out = tmp.path().join("out");
    ok(&run_on(
        &home,
        "m",
        &["history", "--export", out.to_str().unwrap()],
    ));
    ok(&run_on(
        &home,
        "m",
        &["history", "--output", out.join("site").to_str().unwrap()],
    ));
    let o = run_on(&home, "m", &["history", "--output", "site.html"]);
    assert!(
        stderr(&o).contains("--output names the history site's folder"),
        "{}",
        stderr(&o)
    );
}

/// splitmix64: a fixed pseudo-random number per input.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A commit hash for run `r`: 40 hex digits, distinct per run.
fn commit(r: usize) -> String {
    format!(
        "{:016x}{:016x}{:08x}",
        mix(r as u64),
        mix(r as u64 + 1000),
        r
    )
}

/// One exported run (format version 1) with a value per benchmark, each
/// with independent uniform noise of ±1 %.
fn exported_run(r: usize, machine: &str, commit: &str, scale: f64, names: &[&str]) -> Value {
    let benchmarks: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let u = (mix((r * 1000 + k) as u64) >> 11) as f64 / (1u64 << 53) as f64;
            let v = 1000.0 * (k + 1) as f64 * scale * (1.0 + (u - 0.5) * 0.02);
            json!({"name": name, "unit": "ns",
                   "typical": {"point": v, "lower": v * 0.995, "upper": v * 1.005},
                   "iters": [], "values": []})
        })
        .collect();
    let branch = if (55..100).contains(&r) {
        "feature"
    } else {
        "main"
    };
    json!({"version": 1, "uid": format!("{machine}-{r}"),
           "machine": {"name": machine, "cpu": "Test CPU", "cores": 2, "os": "linux x86_64"},
           "time": 1_760_000_000 + 3600 * r as i64, "commit": commit, "branch": branch,
           "dirty": r == 7, "rustc": "rustc 1.80.0 (051478957 2024-07-21)", "config": "bench",
           "source": "bench", "label": null, "benchmarks": benchmarks})
}

/// Runs at which `parse/json` on `ci-linux` moves up by 12 %.
const SHIFT_AT: usize = 40;

/// 60 runs × 20 benchmarks on `ci-linux` (parse/json 12 % slower from run
/// 40 on; the last 5 runs on branch `feature`, the others on `main`) and
/// 12 runs of the same benchmarks on `laptop`.
fn write_exports(dir: &Path) -> Vec<String> {
    let names: Vec<String> = (0..19)
        .map(|i| format!("group {}/bench_{i:02}", i % 4))
        .chain(["parse/json".to_owned()])
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    for r in 0..60 {
        let mut run = exported_run(r, "ci-linux", &commit(r), 1.0, &refs);
        if r >= SHIFT_AT {
            let b = &mut run["benchmarks"][19]["typical"];
            for k in ["point", "lower", "upper"] {
                b[k] = json!(b[k].as_f64().unwrap() * 1.12);
            }
        }
        fs::write(dir.join(format!("ci{r}.json")), run.to_string()).unwrap();
    }
    for r in 0..12 {
        let run = exported_run(100 + r, "laptop", &commit(r * 5), 1.5, &refs);
        fs::write(dir.join(format!("laptop{r}.json")), run.to_string()).unwrap();
    }
    names
}

#[test]
fn the_history_site_opens_in_chromium_with_the_shift_at_its_commit() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("history-site");
    let _ = fs::remove_dir_all(&dir);
    let (home, exports, site) = (dir.join("home"), dir.join("exports"), dir.join("site"));
    fs::create_dir_all(&exports).unwrap();
    let names = write_exports(&exports);
    ok(&run_on(
        &home,
        "x",
        &["import", "yardstick", exports.to_str().unwrap()],
    ));
    let text = ok(&run_on(
        &home,
        "x",
        &[
            "history",
            "--output",
            site.to_str().unwrap(),
            "--title",
            "Test history",
        ],
    ));
    let c = commit(SHIFT_AT);
    assert!(
        text.contains("parse/json on ci-linux  60 runs")
            && text.contains(&format!("(commit {})", &c[..10])),
        "{text}"
    );
    let pages: Vec<PathBuf> = [site.join("index.html"), site.join("regressions.html")]
        .into_iter()
        .chain(
            fs::read_dir(site.join("b"))
                .unwrap()
                .flatten()
                .map(|e| e.path()),
        )
        .collect();
    assert_eq!(pages.len(), 2 + names.len());
    for p in &pages {
        let html = fs::read_to_string(p).unwrap();
        assert!(
            !html.contains("src=\"http") && !html.contains("<script src"),
            "{}",
            p.display()
        );
    }
    let Some(chromium) = cdp::find_chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium not found, and CI must check the history site in a browser: install Debian's chromium package in .ci/run"
        );
        eprintln!("skipped the browser: Chromium not found (apt-get install chromium, or set YARDSTICK_CHROMIUM)");
        return;
    };
    let mut browser = cdp::Browser::start(&chromium, &dir.join("profile"));
    let mut failures = Vec::new();
    for p in &pages {
        let load = browser.load(&cdp::file_url(p));
        let mut problems = load.errors.clone();
        problems.extend(
            load.requests
                .iter()
                .filter(|r| !(r.starts_with("file://") || r.starts_with("data:")))
                .map(|r| format!("network request: {r}")),
        );
        // Every page shows a table; the index and benchmark pages draw too.
        let drawn = browser.eval(
            "[document.querySelectorAll('table tr').length, document.querySelectorAll('svg path').length]",
        );
        let wants_svg = !p.ends_with("regressions.html");
        if drawn[0].as_u64().unwrap_or(0) < 2 || (wants_svg && drawn[1].as_u64().unwrap_or(0) == 0)
        {
            problems.push(format!("nothing shown (rows, paths): {drawn}"));
        }
        if !problems.is_empty() {
            failures.push(format!("{}:\n  {}", p.display(), problems.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "pages with problems:\n{}",
        failures.join("\n")
    );
    check_shift_page(&mut browser, &site, &c);
    check_index_and_regressions(&mut browser, &site, &c);
    fs::write(dir.join("index.png"), browser.screenshot()).unwrap();
}

/// On parse/json's page the ci-linux chart draws one shift, at the point
/// of the injected commit, labelled about +12 %; the laptop series is a
/// separate chart.
fn check_shift_page(browser: &mut cdp::Browser, site: &Path, c: &str) {
    let page = fs::read_dir(site.join("b"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("parse_json-")
        })
        .expect("parse/json's page");
    browser.load(&cdp::file_url(&page));
    let found = browser.eval(&format!(
        "(() => {{ const s = document.querySelector('#m-ci-linux ~ section figure svg');
            const shifts = [...s.querySelectorAll('g.shift')];
            const pt = s.querySelector('circle[data-commit=\"{c}\"]');
            return {{ n: shifts.length, commit: shifts.length ? shifts[0].dataset.commit : null,
                     lineX: shifts.length ? +shifts[0].querySelector('line').getAttribute('x1') : null,
                     pointX: pt ? +pt.getAttribute('cx') : null,
                     label: shifts.length ? shifts[0].querySelector('text').textContent : null,
                     tip: pt ? pt.querySelector('title').textContent : null,
                     charts: document.querySelectorAll('figure.trend svg').length }}; }})()"
    ));
    assert_eq!(found["n"], 1, "{found}");
    assert_eq!(found["commit"], c, "{found}");
    assert_eq!(found["lineX"], found["pointX"], "{found}");
    let label = found["label"].as_str().unwrap();
    assert!(
        label.starts_with("+12") || label.starts_with("+11"),
        "{found}"
    );
    let tip = found["tip"].as_str().unwrap();
    for part in [
        c,
        " on main\n",
        "machine ci-linux",
        "Test CPU · 2 cores",
        "rustc 1.80.0",
    ] {
        assert!(tip.contains(part), "{part} not in {tip}");
    }
    assert_eq!(found["charts"], 2, "one chart per machine: {found}");
}

/// The index lists 40 series (20 benchmarks × 2 machines) and its search
/// box filters them; the regressions page lists the injected shift first
/// among the regressions and links to its run.
fn check_index_and_regressions(browser: &mut cdp::Browser, site: &Path, c: &str) {
    browser.load(&cdp::file_url(&site.join("regressions.html")));
    let rows = browser.eval(&format!(
        "[...document.querySelectorAll('tr[data-q]')].filter(r => r.dataset.q.includes('parse/json ci-linux {c}')).map(r => r.querySelector('a').getAttribute('href'))"
    ));
    assert_eq!(rows.as_array().map(Vec::len), Some(1), "{rows}");
    assert!(rows[0].as_str().unwrap().contains("#run"), "{rows}");
    browser.load(&cdp::file_url(&site.join("index.html")));
    let total = browser.eval("document.querySelectorAll('tr[data-q]').length");
    assert_eq!(total, 40);
    let shown = browser.eval(
        "(() => { const q = document.getElementById('q'); q.value = 'parse/json';
           q.dispatchEvent(new Event('input'));
           return [...document.querySelectorAll('tr[data-q]')].filter(r => r.style.display !== 'none').length; })()",
    );
    assert_eq!(shown, 2, "parse/json on two machines");
    browser.eval("(() => { const q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input')); return 0; })()");
}

/// The instructions per iteration `--explain` counted travel with their
/// run: a run exported with them is merged, its benchmark's page shows
/// them, and exporting it again and merging that elsewhere gives back the
/// same file byte for byte. A benchmark the run did not explain has none.
#[test]
fn explained_instructions_travel_with_the_exported_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let given = tmp.path().join("given");
    for d in [&a, &b, &given] {
        fs::create_dir_all(d).unwrap();
    }
    let counts = json!({"baseline": 16014.0, "current": 48020.0});
    let mut run = exported_run(1, "m", &commit(1), 1.0, &["spin", "work"]);
    run["benchmarks"][1]["instructions"] = counts.clone();
    common::assert_schema("history-run.v1.json", &run);
    fs::write(given.join("run.json"), run.to_string()).unwrap();
    ok(&run_on(
        &a,
        "m",
        &["import", "yardstick", given.to_str().unwrap()],
    ));

    let site = tmp.path().join("site");
    ok(&run_on(
        &a,
        "m",
        &["history", "--output", site.to_str().unwrap()],
    ));
    let pages: String = fs::read_dir(site.join("b"))
        .unwrap()
        .flatten()
        .map(|e| fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    // 48020 / 16014 - 1 = 1.998626…: +199.86 %.
    assert!(pages.contains("16014 → 48020 (+199.86%)"), "{pages}");

    let exported = |home: &Path, to: &Path| -> (PathBuf, String) {
        ok(&run_on(
            home,
            "m",
            &["history", "--export", to.to_str().unwrap()],
        ));
        let files = json_files(to);
        assert_eq!(files.len(), 1, "{files:?}");
        let text = fs::read_to_string(&files[0]).unwrap();
        (files[0].strip_prefix(to).unwrap().to_owned(), text)
    };
    let (name, text) = exported(&a, &tmp.path().join("out-a"));
    let doc: Value = serde_json::from_str(&text).unwrap();
    common::assert_schema("history-run.v1.json", &doc);
    let by_name = |n: &str| {
        doc["benchmarks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(by_name("work")["instructions"], counts, "{doc:#}");
    assert!(by_name("spin").get("instructions").is_none(), "{doc:#}");

    ok(&run_on(
        &b,
        "m",
        &[
            "import",
            "yardstick",
            tmp.path().join("out-a").to_str().unwrap(),
        ],
    ));
    assert_eq!(exported(&b, &tmp.path().join("out-b")), (name, text));
}
