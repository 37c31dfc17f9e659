//! `cargo yardstick ab REV_A REV_B [FILTER]`: two git revisions measured in
//! one command, in alternation, so that the machine's drift cancels.
//!
//! Each revision is checked out into its own detached worktree under
//! `target/yardstick-ab/<sha>/` (the user's tree is never touched) and built
//! with its own target directory (`target/yardstick-ab/target-<sha>`). Then
//! for round r = 1..N the bench binaries of A and B run one after the other,
//! A then B in odd rounds and B then A in even ones (ABBA), each for a short
//! fixed measurement; the typical estimates of a benchmark are paired by
//! round, and the per-round ratios B/A give a distribution-free interval
//! for the median ratio by the sign test (see
//! [`yardstick_stats::paired::sign_test_ratio`]): no normality is assumed,
//! and one disturbed round moves the interval by one order statistic at
//! most.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use yardstick_stats::paired::{sign_test_ratio, RatioInterval};

use crate::cli::TableFormat;
use crate::runner::{self, BenchBinary, Rounds};

/// Confidence of the reported intervals.
const CONFIDENCE: f64 = 0.95;

/// `ab` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct AbArgs {
    /// Revision A, the reference: any git revision (branch, tag, commit, HEAD~3).
    pub rev_a: String,
    /// Revision B, compared with A.
    pub rev_b: String,
    /// Only benchmarks matching this filter (as the bench binaries read it).
    pub filter: Option<String>,
    /// Rounds; each runs every benchmark of A and of B once. The sign test
    /// needs at least 6 rounds for a 95% interval.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub runs: usize,
    /// Measurement time per benchmark per round, in seconds.
    #[arg(long, default_value_t = 0.3, value_name = "SECS")]
    pub time: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Terminal)]
    pub format: TableFormat,
    /// Package to build (passed to cargo; repeatable).
    #[arg(long, short = 'p', value_name = "SPEC")]
    pub package: Vec<String>,
    /// Bench target to build (passed to cargo; repeatable).
    #[arg(long, value_name = "NAME")]
    pub bench: Vec<String>,
    /// Exit with status 3 when some benchmark is significantly slower in B.
    #[arg(long)]
    pub fail_on_regression: bool,
    /// One target directory for both builds instead of one per revision
    /// (less disk and build time; cargo keeps both revisions' artifacts apart).
    #[arg(long, value_name = "DIR")]
    pub target_dir: Option<PathBuf>,
    /// Remove the worktrees and their target directories afterwards
    /// (by default they are kept and reused by the next `ab`).
    #[arg(long)]
    pub clean: bool,
}

/// Exit status for bad usage or bad input.
const BAD_INPUT: u8 = 2;
/// Exit status with `--fail-on-regression` when B is slower.
const REGRESSION: u8 = 3;

fn bad(m: String) -> (u8, String) {
    (BAD_INPUT, m)
}

fn other(m: String) -> (u8, String) {
    (1, m)
}

/// Runs `git ARGS` in `dir`; its trimmed stdout.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(format!(
            "`git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Checks out `sha` into `dir` as a detached worktree, reusing a clean one
/// already at `sha`.
fn worktree(top: &Path, dir: &Path, sha: &str) -> Result<(), String> {
    if dir.join(".git").exists()
        && git(dir, &["rev-parse", "HEAD"]).is_ok_and(|h| h == sha)
        && git(dir, &["status", "--porcelain", "--untracked-files=no"]).is_ok_and(|s| s.is_empty())
    {
        return Ok(());
    }
    let d = dir.to_string_lossy();
    if dir.exists() {
        let _ = git(top, &["worktree", "remove", "--force", &d]);
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .map_err(|e| format!("{}: cannot remove the stale worktree: {e}", dir.display()))?;
        }
    }
    let _ = git(top, &["worktree", "prune"]);
    git(top, &["worktree", "add", "--detach", "--quiet", &d, sha]).map(drop)
}

/// Copies the binaries into `dir`; the copies.
fn keep(bins: &[BenchBinary], dir: &Path) -> Result<Vec<BenchBinary>, String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    bins.iter()
        .map(|b| {
            let name = b.executable.file_name().unwrap_or_default();
            let to = dir.join(name);
            std::fs::copy(&b.executable, &to).map_err(|e| {
                format!(
                    "cannot copy {} to {}: {e}",
                    b.executable.display(),
                    to.display()
                )
            })?;
            Ok(BenchBinary {
                executable: to,
                package_dir: b.package_dir.clone(),
            })
        })
        .collect()
}

/// One side of the comparison.
struct Side {
    name: &'static str,
    sha: String,
    binaries: Vec<BenchBinary>,
}

/// The per-benchmark result.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The benchmark id.
    pub id: String,
    /// Median typical estimate of A over the rounds.
    pub a: Option<f64>,
    /// Median typical estimate of B over the rounds.
    pub b: Option<f64>,
    /// Unit of the estimates.
    pub unit: String,
    /// The sign-test interval of B/A, when there are enough paired rounds.
    pub interval: Option<RatioInterval>,
    /// Paired rounds.
    pub paired: usize,
}

impl Row {
    /// The verdict in words.
    #[must_use]
    pub fn verdict(&self) -> String {
        match (&self.interval, self.a, self.b) {
            (_, None, _) => "only in B".to_owned(),
            (_, _, None) => "only in A".to_owned(),
            (Some(i), ..) if i.is_significant() => {
                format!("B is {:.3}× A [{:.3}, {:.3}]", i.ratio, i.lower, i.upper)
            }
            (Some(_), ..) => "no difference detected".to_owned(),
            (None, ..) => format!(
                "too few paired rounds ({}) for a 95% interval; use --runs 6 or more",
                self.paired
            ),
        }
    }

    /// Whether B is significantly slower.
    #[must_use]
    pub fn regressed(&self) -> bool {
        self.interval.as_ref().is_some_and(RatioInterval::is_slower)
    }
}

fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Pairs the rounds of A and B by round and benchmark id and computes each
/// benchmark's ratio B/A with its sign-test interval.
#[must_use]
pub fn analyse(
    a: &Rounds,
    b: &Rounds,
    units: &std::collections::BTreeMap<String, String>,
) -> Vec<Row> {
    let ids: BTreeSet<&String> = a.iter().chain(b).flat_map(|r| r.keys()).collect();
    ids.into_iter()
        .map(|id| {
            let mut av: Vec<f64> = a.iter().filter_map(|r| r.get(id).copied()).collect();
            let mut bv: Vec<f64> = b.iter().filter_map(|r| r.get(id).copied()).collect();
            let ratios: Vec<f64> = a
                .iter()
                .zip(b)
                .filter_map(|(ra, rb)| Some(rb.get(id)? / ra.get(id)?))
                .filter(|r| r.is_finite() && *r > 0.0)
                .collect();
            Row {
                id: id.clone(),
                a: median(&mut av),
                b: median(&mut bv),
                unit: units.get(id).cloned().unwrap_or_else(|| "ns".to_owned()),
                interval: sign_test_ratio(&ratios, CONFIDENCE),
                paired: ratios.len(),
            }
        })
        .collect()
}

/// A value with a readable unit (times in ns are scaled).
fn value(v: Option<f64>, unit: &str) -> String {
    let Some(v) = v else {
        return "—".to_owned();
    };
    if unit != "ns" {
        return format!("{v:.4} {unit}");
    }
    let (x, u) = if v >= 1e9 {
        (v / 1e9, "s")
    } else if v >= 1e6 {
        (v / 1e6, "ms")
    } else if v >= 1e3 {
        (v / 1e3, "µs")
    } else {
        (v, "ns")
    };
    format!("{x:.4} {u}")
}

fn ratio_cells(r: &Row) -> (String, String) {
    r.interval.as_ref().map_or_else(
        || ("—".to_owned(), "—".to_owned()),
        |i| {
            (
                format!("{:.3}×", i.ratio),
                format!("[{:.3}, {:.3}]", i.lower, i.upper),
            )
        },
    )
}

/// What the comparison was.
pub struct Header {
    /// A's short name (rev and sha).
    pub a: String,
    /// B's short name.
    pub b: String,
    /// Rounds.
    pub runs: usize,
    /// Seconds per benchmark per round.
    pub time: f64,
}

/// The aligned plain-text table.
#[must_use]
pub fn terminal(h: &Header, rows: &[Row]) -> String {
    let mut s = format!(
        "A = {}, B = {}: {} interleaved rounds (ABBA), {} s per benchmark per round\n\n",
        h.a, h.b, h.runs, h.time
    );
    let table: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            let (ratio, ci) = ratio_cells(r);
            [
                r.id.clone(),
                value(r.a, &r.unit),
                value(r.b, &r.unit),
                format!("{ratio} {ci}"),
                r.verdict(),
            ]
        })
        .collect();
    let head = ["benchmark", "A", "B", "B/A [95%]", "verdict"].map(str::to_owned);
    let mut widths = head.clone().map(|c| c.chars().count());
    for row in &table {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    for row in std::iter::once(&head).chain(&table) {
        let mut line = String::new();
        for (i, (c, w)) in row.iter().zip(widths).enumerate() {
            let pad = w - c.chars().count();
            if i == 1 || i == 2 {
                line.push_str(&" ".repeat(pad));
                line.push_str(c);
            } else {
                line.push_str(c);
                if i + 1 < row.len() {
                    line.push_str(&" ".repeat(pad));
                }
            }
            if i + 1 < row.len() {
                line.push_str("  ");
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// The GitHub-flavoured markdown summary.
#[must_use]
pub fn markdown(h: &Header, rows: &[Row]) -> String {
    let mut s = format!(
        "### yardstick ab: A = {}, B = {}\n\n{} interleaved rounds (ABBA), {} s per benchmark per round; \
         95% sign-test intervals of the per-round ratio B/A.\n\n\
         | benchmark | A | B | B/A | 95% interval | verdict |\n|---|---:|---:|---:|---|---|\n",
        h.a, h.b, h.runs, h.time
    );
    for r in rows {
        let (ratio, ci) = ratio_cells(r);
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            r.id.replace('|', "\\|"),
            value(r.a, &r.unit),
            value(r.b, &r.unit),
            ratio,
            ci,
            r.verdict()
        ));
    }
    s
}

/// Runs one side's binaries once, appending their messages to `file`.
fn run_side(side: &Side, args: &AbArgs, home: &Path, file: &Path) {
    for bin in &side.binaries {
        let mut c = Command::new(&bin.executable);
        c.current_dir(&bin.package_dir)
            .args([
                "--bench",
                "--noplot",
                "--discard-baseline",
                "--sample-size",
                "10",
            ])
            .args(["--warm-up-time", "0.05", "--measurement-time"])
            .arg(args.time.to_string())
            .args(["--message-format", "json", "--message-file"])
            .arg(file)
            .arg("--home")
            .arg(home)
            .args(&args.filter)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        match c.output() {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                let err = String::from_utf8_lossy(&o.stderr);
                let tail: Vec<&str> = err.lines().rev().take(5).collect();
                eprintln!(
                    "warning: {} of {} ({}) exited with {}: {}",
                    bin.executable.display(),
                    side.name,
                    short(&side.sha),
                    o.status,
                    tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
                );
            }
            Err(e) => eprintln!("warning: cannot run {}: {e}", bin.executable.display()),
        }
    }
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(10)]
}

/// Runs `ab`; returns the exit status.
///
/// # Errors
///
/// The exit status and one line: 2 for bad arguments or revisions, 1 when
/// a build or git fails.
pub fn run(args: &AbArgs) -> Result<u8, (u8, String)> {
    if args.runs == 0 {
        return Err(bad(
            "--runs must be at least 1 (6 or more for a 95% interval)".into(),
        ));
    }
    if !(args.time > 0.0 && args.time.is_finite()) {
        return Err(bad(format!(
            "--time must be a positive number of seconds (e.g. 0.3), got {}",
            args.time
        )));
    }
    let cwd = std::env::current_dir().map_err(|e| other(format!("no working directory: {e}")))?;
    let top = PathBuf::from(
        git(&cwd, &["rev-parse", "--show-toplevel"])
            .map_err(|e| bad(format!("not inside a git repository: {e}")))?,
    );
    let prefix = git(&cwd, &["rev-parse", "--show-prefix"]).map_err(other)?;
    let resolve = |rev: &str| {
        git(
            &cwd,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{rev}^{{commit}}"),
            ],
        )
        .map_err(|_| bad(format!("'{rev}' is not a commit of this repository")))
    };
    let (sha_a, sha_b) = (resolve(&args.rev_a)?, resolve(&args.rev_b)?);
    let root = top.join("target").join("yardstick-ab");
    std::fs::create_dir_all(&root)
        .map_err(|e| other(format!("{}: cannot create: {e}", root.display())))?;
    let mut cargo_args = Vec::new();
    for p in &args.package {
        cargo_args.extend(["--package".to_owned(), p.clone()]);
    }
    for b in &args.bench {
        cargo_args.extend(["--bench".to_owned(), b.clone()]);
    }
    let mut built: Vec<(String, Vec<BenchBinary>)> = Vec::new();
    for (rev, sha) in [(&args.rev_a, &sha_a), (&args.rev_b, &sha_b)] {
        if built.iter().any(|(s, _)| s == sha) {
            continue;
        }
        let dir = root.join(sha);
        eprintln!("preparing {rev} ({}) in {}", short(sha), dir.display());
        worktree(&top, &dir, sha).map_err(other)?;
        let target = args
            .target_dir
            .clone()
            .unwrap_or_else(|| root.join(format!("target-{sha}")));
        let bins = runner::build(&dir.join(&prefix), &target, &cargo_args)
            .map_err(|e| other(format!("{rev}: {e}")))?;
        if bins.is_empty() {
            return Err(bad(format!("{rev} ({}) has no bench target", short(sha))));
        }
        // Cargo names a package's binaries the same in every checkout, so a
        // shared target directory would let B's build replace A's: keep a
        // copy of each revision's binaries.
        let bins = keep(&bins, &root.join(format!("bin-{sha}"))).map_err(other)?;
        built.push((sha.clone(), bins));
    }
    let bins_of = |sha: &str| {
        built
            .iter()
            .find(|(s, _)| s == sha)
            .map(|(_, b)| b.clone())
            .unwrap_or_default()
    };
    let sides = [
        Side {
            name: "A",
            sha: sha_a.clone(),
            binaries: bins_of(&sha_a),
        },
        Side {
            name: "B",
            sha: sha_b.clone(),
            binaries: bins_of(&sha_b),
        },
    ];
    let scratch = root.join(format!("run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let mut rounds: [Rounds; 2] = [Vec::new(), Vec::new()];
    let mut units = std::collections::BTreeMap::new();
    let result = (|| {
        for r in 0..args.runs {
            let order = if r % 2 == 0 { [0, 1] } else { [1, 0] };
            for s in order {
                let side = &sides[s];
                eprintln!(
                    "round {}/{}: {} ({})",
                    r + 1,
                    args.runs,
                    side.name,
                    short(&side.sha)
                );
                let home = scratch.join(format!("home-{}", side.name));
                std::fs::create_dir_all(&home)
                    .map_err(|e| other(format!("{}: cannot create: {e}", home.display())))?;
                let file = scratch.join(format!("{}-{r}.jsonl", side.name));
                run_side(side, args, &home, &file);
                let t = runner::read_typicals(&file).map_err(other)?;
                for x in &t {
                    units.entry(x.id.clone()).or_insert_with(|| x.unit.clone());
                }
                rounds[s].push(runner::by_id(&t));
            }
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&scratch);
    if args.clean {
        for sha in [&sha_a, &sha_b] {
            let dir = root.join(sha);
            let _ = git(
                &top,
                &["worktree", "remove", "--force", &dir.to_string_lossy()],
            );
            let _ = std::fs::remove_dir_all(root.join(format!("bin-{sha}")));
            if args.target_dir.is_none() {
                let _ = std::fs::remove_dir_all(root.join(format!("target-{sha}")));
            }
        }
        let _ = git(&top, &["worktree", "prune"]);
    }
    result?;
    let rows = analyse(&rounds[0], &rounds[1], &units);
    if rows.is_empty() {
        return Err(bad(
            "no benchmark reported a result (does the filter match any?)".into(),
        ));
    }
    let header = Header {
        a: format!("{} ({})", args.rev_a, short(&sha_a)),
        b: format!("{} ({})", args.rev_b, short(&sha_b)),
        runs: args.runs,
        time: args.time,
    };
    let text = match args.format {
        TableFormat::Terminal => terminal(&header, &rows),
        TableFormat::Markdown => markdown(&header, &rows),
    };
    print!("{text}");
    Ok(
        if args.fail_on_regression && rows.iter().any(Row::regressed) {
            REGRESSION
        } else {
            0
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn rounds(vals: &[f64]) -> Rounds {
        vals.iter()
            .map(|v| BTreeMap::from([("spin".to_owned(), *v)]))
            .collect()
    }

    #[test]
    fn rounds_are_paired_and_a_doubling_is_detected() {
        let a = rounds(&[100.0, 103.0, 98.0, 110.0, 101.0, 99.0, 100.0, 104.0]);
        // B is twice as slow, with the same per-round drift plus noise.
        let b: Rounds = a
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.iter()
                    .map(|(k, v)| (k.clone(), v * (2.0 + 0.01 * (i as f64 - 3.5))))
                    .collect()
            })
            .collect();
        let rows = analyse(&a, &b, &BTreeMap::new());
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(r.paired, 8);
        let i = r.interval.as_ref().unwrap();
        assert!(i.lower > 1.9 && i.upper < 2.1, "{i:?}");
        assert!(r.regressed());
        assert!(r.verdict().starts_with("B is 2.00"), "{}", r.verdict());
    }

    #[test]
    fn identical_sides_show_no_difference_and_missing_ids_are_named() {
        let mut a = rounds(&[100.0, 101.0, 99.0, 100.0, 102.0, 98.0]);
        let mut b = rounds(&[101.0, 100.0, 100.0, 99.0, 101.0, 99.0]);
        a[0].insert("old".into(), 5.0);
        b[0].insert("new".into(), 5.0);
        let rows = analyse(&a, &b, &BTreeMap::new());
        let by: BTreeMap<_, _> = rows.iter().map(|r| (r.id.as_str(), r.verdict())).collect();
        assert_eq!(by["spin"], "no difference detected");
        assert_eq!(by["old"], "only in A");
        assert_eq!(by["new"], "only in B");
        let h = Header {
            a: "main (abc)".into(),
            b: "HEAD (def)".into(),
            runs: 6,
            time: 0.3,
        };
        let md = markdown(&h, &rows);
        assert!(
            md.contains("| `spin` | 100.0000 ns | 100.0000 ns | "),
            "{md}"
        );
        let t = terminal(&h, &rows);
        assert!(t.lines().nth(2).unwrap().starts_with("benchmark"), "{t}");
    }

    #[test]
    fn too_few_rounds_are_said_in_words() {
        let a = rounds(&[100.0, 101.0, 99.0]);
        let rows = analyse(&a, &a, &BTreeMap::new());
        assert!(rows[0].verdict().starts_with("too few paired rounds (3)"));
    }
}
