//! The history site: every benchmark over the recorded runs, one series
//! per machine, as static pages in the style of the report (same CSS, same
//! SVG writer). Pages are self-contained — inline CSS and SVG, no network —
//! so the site works from `file://` and from any static host; the only
//! script is a small inline filter for the search boxes, and every page
//! reads the same without it.
//!
//! * `index.html` — every series: a sparkline, the latest value, the change
//!   since the previous run and since the reference run, the last shift.
//! * `regressions.html` — every detected level shift, newest first.
//! * `b/<benchmark>.html` — per machine: the series over the commits with
//!   its interval band, the level shifts at their commits, the runs table.

mod bench;
mod chart;
mod index;
mod regressions;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::{write, ReportError};

/// Everything the site shows. Built by `cargo yardstick history`.
#[derive(Debug, Clone, Default)]
pub struct HistorySite {
    /// The site's title (`Benchmark history`).
    pub title: String,
    /// The reference the index compares with: a branch or label name; the
    /// newest run of each series on that branch or with that label.
    pub reference: Option<String>,
    /// The runs, referred to by index from [`SeriesPoint::run`].
    pub runs: Vec<HistoryRun>,
    /// One series per benchmark and machine.
    pub series: Vec<Series>,
}

/// The context of one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HistoryRun {
    /// Its id in the history database.
    pub id: i64,
    /// When it was made, in seconds since the Unix epoch.
    pub time: i64,
    /// The commit measured.
    pub commit: Option<String>,
    /// The branch.
    pub branch: Option<String>,
    /// Whether the work tree had uncommitted changes.
    pub dirty: bool,
    /// The machine's name.
    pub machine: String,
    /// The machine's CPU, cores and OS, in words.
    pub host: String,
    /// `rustc --version`.
    pub rustc: String,
    /// Its label, if any.
    pub label: Option<String>,
    /// How its bench binaries were built, when recorded: the trends mark
    /// where the toolchain or flags changed.
    pub build: Option<yardstick_format::build::BuildFile>,
}

/// One benchmark on one machine over the runs, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// The benchmark's id.
    pub benchmark: String,
    /// The machine.
    pub machine: String,
    /// Unit of the values (`ns` is scaled to ps…s on the pages).
    pub unit: String,
    /// The values, in run order.
    pub points: Vec<SeriesPoint>,
    /// The level shifts found in `points`, in order.
    pub shifts: Vec<Shift>,
}

/// A benchmark's typical value in one run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SeriesPoint {
    /// Index of the run in [`HistorySite::runs`].
    pub run: usize,
    /// The typical value.
    pub point: f64,
    /// Lower bound of its interval.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// Instructions per iteration `--explain` counted in this run under
    /// Callgrind: `[baseline's binary, this run's]`; `None` when the run
    /// did not explain this benchmark.
    pub instructions: Option<[f64; 2]>,
}

/// A level shift of a series.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Shift {
    /// Index in [`Series::points`] of the first point of the new level.
    pub index: usize,
    /// Mean level before it.
    pub before: f64,
    /// Mean level from it on.
    pub after: f64,
    /// Relative size, `after / before − 1`.
    pub size: f64,
    /// p-value of the test that found it; the confidence is `1 − p`.
    pub p_value: f64,
}

/// What [`write_history_site`] wrote.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SiteSummary {
    /// Every page written, the index first.
    pub pages: Vec<PathBuf>,
    /// The size of the largest page, in bytes.
    pub largest: usize,
}

/// Writes the site into `dir`: `index.html`, `regressions.html` and
/// `b/<benchmark>.html` per benchmark, each atomically; pages of
/// benchmarks no longer in the site are removed from `b/`.
///
/// # Errors
///
/// [`ReportError::Io`] when a page cannot be written.
pub fn write_history_site(dir: &Path, site: &HistorySite) -> Result<SiteSummary, ReportError> {
    let names = benchmark_names(site);
    distinct_pages(names.iter().map(String::as_str), page_name)?;
    let mut files: Vec<(PathBuf, String)> = vec![
        (dir.join("index.html"), index::render(site)),
        (dir.join("regressions.html"), regressions::render(site)),
    ];
    for name in &names {
        let series: Vec<&Series> = site
            .series
            .iter()
            .filter(|s| &s.benchmark == name)
            .collect();
        files.push((
            dir.join("b").join(page_name(name)),
            bench::render(site, name, &series),
        ));
    }
    let mut summary = SiteSummary::default();
    for (path, html) in files {
        write::atomic(&path, html.as_bytes())?;
        summary.largest = summary.largest.max(html.len());
        summary.pages.push(path);
    }
    remove_stale(&dir.join("b"), &summary.pages);
    Ok(summary)
}

fn remove_stale(dir: &Path, keep: &[PathBuf]) {
    let keep: HashSet<&PathBuf> = keep.iter().collect();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "html") && !keep.contains(&p) {
            write::remove_stale(&p);
        }
    }
}

/// The benchmarks, each once, in the order of the series.
fn benchmark_names(site: &HistorySite) -> Vec<String> {
    let mut seen = HashSet::new();
    site.series
        .iter()
        .filter(|s| seen.insert(s.benchmark.as_str()))
        .map(|s| s.benchmark.clone())
        .collect()
}

/// The file name of a benchmark's page: its id with anything but letters,
/// digits, `-` and `.` turned into `_`, cut to 80 characters, and all 64
/// bits of a hash of the whole id, as the results folders have. (The top 32
/// bits alone were found shared by ids past their 80th character; a clash
/// that still happens is refused by [`write_history_site`].)
pub(crate) fn page_name(benchmark: &str) -> String {
    let mut stem: String = benchmark
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    if stem.starts_with('.') {
        stem.insert(0, '_');
    }
    let h = yardstick_format::names::fnv1a(benchmark.as_bytes());
    format!("{stem}-{h:016x}.html")
}

/// Refuses two benchmarks that would share a page (one's history would
/// never be shown): the error names both.
fn distinct_pages<'a>(
    names: impl IntoIterator<Item = &'a str>,
    page_name: impl Fn(&str) -> String,
) -> Result<(), ReportError> {
    let mut pages: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for name in names {
        let page = page_name(name);
        if let Some(other) = pages.insert(page.clone(), name) {
            if other != name {
                return Err(ReportError::Format {
                    path: PathBuf::from("b").join(page),
                    problem: format!(
                        "benchmarks '{}' and '{}' would share this page; rename one",
                        yardstick_format::names::one_line(other),
                        yardstick_format::names::one_line(name)
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The series' reference point: the newest whose run is on the reference
/// branch or has the reference label.
pub(crate) fn reference_point(site: &HistorySite, s: &Series) -> Option<usize> {
    let r = site.reference.as_deref()?;
    s.points.iter().rposition(|p| {
        let run = &site.runs[p.run];
        run.branch.as_deref() == Some(r) || run.label.as_deref() == Some(r)
    })
}

/// `2026-11-23 14:05` (UTC) from Unix seconds.
pub(crate) fn utc(secs: i64) -> String {
    let [y, m, d, hh, mm, _] = crate::units::utc_fields(secs);
    format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}")
}

/// A relative change as a signed percentage with two decimals
/// (`+11.99%`, `-0.37%`); `n/a` when it is not a number (from a zero).
pub(crate) fn pct(fraction: f64) -> String {
    if fraction.is_finite() {
        format!("{:+.2}%", fraction * 100.0)
    } else {
        "n/a".to_owned()
    }
}

/// The first 8 characters of a commit, or `no commit`.
pub(crate) fn short_commit(run: &HistoryRun) -> String {
    run.commit
        .as_deref()
        .map_or_else(|| "no commit".to_owned(), |c| c.chars().take(8).collect())
}

/// `up` when `new`'s interval lies wholly above `old`'s (slower, or more
/// counted), `down` when wholly below, `dim` when they overlap.
pub(crate) fn change_class(old: &SeriesPoint, new: &SeriesPoint) -> &'static str {
    if new.lower > old.upper {
        "up"
    } else if new.upper < old.lower {
        "down"
    } else {
        "dim"
    }
}

/// The inline search filter: hides the rows (`tr[data-q]`) whose text does
/// not contain every word typed. Without script the box is inert and every
/// row stays shown.
pub(crate) const FILTER_SCRIPT: &str = "<script>(function(){var q=document.getElementById('q');if(!q)return;\
var rows=[].slice.call(document.querySelectorAll('tr[data-q]'));\
function f(){var w=q.value.toLowerCase().split(/\\s+/).filter(Boolean);var n=0;\
rows.forEach(function(r){var t=r.getAttribute('data-q');var ok=w.every(function(x){return t.indexOf(x)>=0});\
r.style.display=ok?'':'none';if(ok)n++});var c=document.getElementById('qn');if(c)c.textContent=n+' shown'}\
q.addEventListener('input',f);if(q.value)f()})();</script>";

/// The search box the filter script reads.
pub(crate) fn search_box(placeholder: &str) -> String {
    format!(
        "<div class=\"search\"><input id=\"q\" type=\"search\" placeholder=\"{}\" autocomplete=\"off\"><span id=\"qn\" class=\"dim\"></span></div>",
        crate::escape::html(placeholder)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_match_known_calendar_days() {
        // 0 is the epoch; 951782400 is 2000-02-29 (a leap day, checked
        // with `date -u -d @951782400`); 1700000000 is 2023-11-14 22:13:20.
        assert_eq!(utc(0), "1970-01-01 00:00");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00");
        assert_eq!(utc(1_700_000_000), "2023-11-14 22:13");
        assert_eq!(utc(-86_400), "1969-12-31 00:00");
    }

    fn site(names: &[&str]) -> HistorySite {
        let runs: Vec<HistoryRun> = (0..12)
            .map(|i| HistoryRun {
                id: i + 1,
                time: 1_700_000_000 + i * 60,
                commit: Some(format!("{i:040x}")),
                branch: Some("main".into()),
                machine: "m&<1>".into(),
                ..HistoryRun::default()
            })
            .collect();
        let series = names
            .iter()
            .map(|n| Series {
                benchmark: (*n).to_owned(),
                machine: "m&<1>".into(),
                unit: "ns".into(),
                points: (0..12)
                    .map(|i| {
                        let v = if i < 6 { 100.0 } else { 120.0 };
                        SeriesPoint {
                            run: i,
                            point: v,
                            lower: v - 1.0,
                            upper: v + 1.0,
                            instructions: None,
                        }
                    })
                    .collect(),
                shifts: vec![Shift {
                    index: 6,
                    before: 100.0,
                    after: 120.0,
                    size: 0.2,
                    p_value: 0.001,
                }],
            })
            .collect();
        HistorySite {
            title: "t".into(),
            reference: Some("main".into()),
            runs,
            series,
        }
    }

    #[test]
    fn a_change_of_build_is_marked_on_the_trend() {
        let mut s = site(&["plain"]);
        let build = |flags: &[&str]| yardstick_format::build::BuildFile {
            version: 1,
            rustc: "rustc 1.91.1 (ed61e7d7e 2025-11-07)".into(),
            rustflags: flags.iter().map(|f| (*f).to_owned()).collect(),
            ..Default::default()
        };
        // Runs 1 to 3 without a record mark nothing; run 9 (index 8) added
        // a flag; the others were built alike.
        for (i, run) in s.runs.iter_mut().enumerate().skip(3) {
            run.build = Some(build(if i >= 8 {
                &["-Ctarget-cpu=native"]
            } else {
                &[]
            }));
        }
        // Run 6 (index 5) was built by another compiler than run 5.
        s.runs[5].build.as_mut().unwrap().rustc = "rustc 1.92.0 (ded5c06cf 2025-12-08)".into();
        let svg = chart::trend(&s, &s.series[0]);
        // The markers as drawn: where, how and what they say.
        let markers: Vec<&str> = svg
            .split("<g class=\"build\"")
            .skip(1)
            .map(|g| g.split("</g>").next().unwrap())
            .collect();
        insta::assert_snapshot!("build_markers", markers.join("\n"));
        s.runs[5].build.as_mut().unwrap().rustc = s.runs[4].build.as_ref().unwrap().rustc.clone();
        let svg = chart::trend(&s, &s.series[0]);
        assert_eq!(svg.matches("class=\"build\"").count(), 1, "{svg}");
        assert!(svg.contains("<g class=\"build\" data-index=\"8\"><title>run 9 was built differently from run 8: RUSTFLAGS added -C target-cpu=native</title>"), "{svg}");
        assert!(svg.contains("build changed"));
        // Built alike throughout: nothing marked, no legend entry.
        for run in s.runs.iter_mut().skip(3) {
            run.build = Some(build(&[]));
        }
        let svg = chart::trend(&s, &s.series[0]);
        assert!(!svg.contains("class=\"build\"") && !svg.contains("build changed"));
    }

    #[test]
    fn explained_runs_show_their_instruction_counts_beside_the_times() {
        let mut s = site(&["plain"]);
        let page = |s: &HistorySite| bench::render(s, "plain", &[&s.series[0]]);
        // No run explained it: no column, no card.
        let html = page(&s);
        assert!(!html.contains("Instructions"), "{html}");
        // Run 7 (index 6) explained a change: 16014 -> 48020 is
        // 48020 / 16014 - 1 = +199.86%; run 12 explained one with equal
        // counts. The runs between show a dash.
        s.series[0].points[6].instructions = Some([16_014.0, 48_020.0]);
        s.series[0].points[11].instructions = Some([48_020.0, 48_020.0]);
        let html = page(&s);
        assert!(html.contains("<td>16014 → 48020 (+199.86%)</td>"), "{html}");
        assert!(html.contains("<td>48020</td></tr>"), "{html}");
        assert_eq!(html.matches("<td class=\"dim\">—</td>").count(), 10);
        // The latest count, as a card.
        assert!(
            html.contains(
                "<div class=\"k\">Instructions per iteration</div><div class=\"v\">48020</div>"
            ),
            "{html}"
        );
    }

    #[test]
    fn hostile_names_are_inert_and_stale_pages_go() {
        let dir = std::env::temp_dir().join(format!("yardstick-history-{}", std::process::id()));
        let evil = "<script>alert(1)</script>\"'&";
        let out = write_history_site(&dir, &site(&[evil, "plain"])).unwrap();
        assert_eq!(out.pages.len(), 4);
        for p in &out.pages {
            let html = std::fs::read_to_string(p).unwrap();
            assert!(!html.contains("<script>alert"), "{}", p.display());
            assert!(!html.contains("m&<1>"), "{}", p.display());
        }
        let bench = std::fs::read_to_string(dir.join("b").join(page_name("plain"))).unwrap();
        // The shift is drawn at its run's commit, with its size.
        assert!(bench.contains(&format!("data-commit=\"{:040x}\" data-index=\"6\"", 6)));
        assert!(bench.contains("+20.00% at 0000000 (99.9% confidence)"));
        let out = write_history_site(&dir, &site(&["plain"])).unwrap();
        assert_eq!(out.pages.len(), 3);
        assert!(!dir.join("b").join(page_name(evil)).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn page_names_are_plain_and_distinct() {
        let a = page_name("fib/20");
        assert!(a.starts_with("fib_20-") && a.ends_with(".html"), "{a}");
        assert_ne!(a, page_name("fib_20"));
        assert!(page_name("../../etc").starts_with("_.._.._etc-"));
        assert!(!page_name("<script>").contains('<'));
    }

    /// Two ids past the 80 characters of the stem whose hashes share their
    /// top 32 bits (found by a search of random suffixes; their FNV-1a 64,
    /// computed apart in Python: 0x190c8e3d_ca3c7cbc and
    /// 0x190c8e3d_979f48b1). Was: one page for both, one history never
    /// shown (11 ids, 10 pages).
    #[test]
    fn ids_sharing_a_long_prefix_get_a_page_each() {
        let prefix =
            "group/a_benchmark_id_long_enough_to_be_cut_to_the_eighty_characters_of_its_page_name/";
        let (a, b) = (
            format!("{prefix}case_865847095170"),
            format!("{prefix}case_514885219941"),
        );
        assert_ne!(page_name(&a), page_name(&b));
        let mut ids: Vec<String> = (0..9).map(|i| format!("{prefix}{i}")).collect();
        ids.extend([a, b]);
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let dir = std::env::temp_dir().join(format!("yardstick-pages-{}", std::process::id()));
        let out = write_history_site(&dir, &site(&refs)).unwrap();
        let pages = std::fs::read_dir(dir.join("b")).unwrap().count();
        assert_eq!((out.pages.len(), pages), (13, 11));
        std::fs::remove_dir_all(&dir).unwrap();
        // A clash that still happens (here: names of 32 bits, as they were)
        // is refused, naming both.
        let short = |id: &str| page_name(id)[..page_name(id).len() - 13].to_owned();
        let refs = refs.iter().copied();
        let e = distinct_pages(refs, short).unwrap_err().to_string();
        assert!(
            e.contains("case_865847095170' and '") && e.contains("case_514885219941"),
            "{e}"
        );
        assert!(distinct_pages(["x", "y", "x"], page_name).is_ok());
    }
}
