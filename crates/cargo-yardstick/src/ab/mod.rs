//! `cargo yardstick ab [REV_A [REV_B [FILTER]]]`: two builds of the same
//! benchmarks compared in lock-step, so that the machine's drift cancels.
//!
//! A defaults to `HEAD` and B to the working tree (uncommitted changes
//! included), the "did my edit slow it down?" loop. A revision is checked
//! out into its own detached worktree under `target/yardstick-ab/<sha>/`
//! (the user's tree is never touched) and built into the target directory
//! all revisions share, its sources' times set to now first (see
//! [`target_dir`] for why); the working tree is built where `cargo bench`
//! builds it. A revision's bench binaries are copied to a cache keyed by
//! the commit and everything else the build reads ([`settings`]: cargo's
//! arguments, the compiler, the build's environment variables and cargo's
//! configuration files), so a second `ab` of the same revisions builds
//! nothing, and one under other settings builds again, saying which. Each side's bench binary then runs as
//! long-lived worker processes, and each benchmark present in both is
//! measured in short alternating rounds of equal iteration counts
//! ([`lockstep`]), spread over several worker pairs. Each pair's median
//! ratio B/A is one observation, and the interval is Student's t over the
//! pairs ([`yardstick_stats::paired::units_t_ratio`]): rounds within one
//! pair share that pair's process-level offset, so only pairs are
//! independent. Each side is built in several code layouts
//! ([`crate::layouts`]: the bench binaries relinked with a shuffled
//! function order), pair `k` runs layout `k mod N` on both sides, and the
//! layouts are then the interval's units, so that a neutral edit that
//! moves the code reads as noise. The suite's verdicts go through
//! Benjamini–Hochberg as `compare`'s do ([`verdict`]).
//!
//! Two builds of the same code are the same program: the trust
//! experiment's A/A revisions (the same source, a comment added) build to
//! binaries whose loaded sections are byte-identical (only ThinLTO's
//! `.llvm.<hash>` symbol suffixes in the unloaded symbol table differ), and
//! the working tree built in the user's target directory is byte-identical
//! to the same commit built in a checkout here. Cargo passes workspace
//! members' paths relative to the workspace root, so the checkout's path
//! does not reach the code. A/A false alarms therefore came from the
//! interval, which pooled rounds of three pairs as if independent.

mod builds;
pub mod result;
mod settings;
pub mod verdict;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::args::VerdictFormat;
use crate::layouts;
use crate::runner::{self, BenchBinary};
use verdict::{Header, Outcome, Row};
use yardstick::explain;
use yardstick::worker::lockstep::{self, Engine, Settings};
use yardstick_format::names::terminal_text;
use yardstick_format::partition::{Partition, Selector};

/// Confidence of the reported intervals (and the false-discovery rate held
/// across the suite: 1 − confidence).
const CONFIDENCE: f64 = 0.95;

/// `ab` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct AbArgs {
    /// Revision A, the reference: any git revision (branch, tag, commit,
    /// HEAD~3). Default: HEAD.
    pub rev_a: Option<String>,
    /// Revision B, compared with A. Default (or `.`): the working tree,
    /// uncommitted changes included.
    pub rev_b: Option<String>,
    /// Only benchmarks matching this filter (as the bench binaries read it).
    pub filter: Option<String>,
    /// Accepted for scripts written for earlier versions, and ignored: a
    /// benchmark's rounds are fixed in advance by `--timeout`, because
    /// stopping once the interval first looks narrow breaks its coverage.
    #[arg(long, default_value_t = 0.005, value_name = "SHARE", hide = true)]
    pub precision: f64,
    /// Seconds of rounds per benchmark: with `--pairs` and `--round-ms` it
    /// fixes each pair's rounds before the first one (at least six a pair).
    #[arg(long, default_value_t = 2.5, value_name = "SECS")]
    pub timeout: f64,
    /// Worker process pairs per bench binary (at least 2); rounds are spread
    /// over them in turn, and the interval is over the pairs, so that
    /// process-level effects (heap and stack addresses, caches) count as
    /// the noise they are.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub pairs: usize,
    /// A worker that gives no answer to a warm-up or a round within this
    /// many seconds is taken for hung and killed; its benchmark's row says
    /// so and the others go on.
    #[arg(long, default_value_t = 20.0, value_name = "SECS")]
    pub hang_timeout: f64,
    /// Code layouts a side is measured in: each bench binary is linked N
    /// more times with a shuffled function order, and the worker pairs are
    /// spread over the layouts, so that what moving the code does counts
    /// as noise, not as the edit's effect; 0 measures each build as linked.
    /// Default: 4, or --pairs when fewer.
    #[arg(long, value_name = "N")]
    pub layouts: Option<usize>,
    /// Each side's share of a round, in milliseconds.
    #[arg(long, default_value_t = 2.0, value_name = "MS")]
    pub round_ms: f64,
    /// Output format; `json` is the file `cargo yardstick merge` reads (one
    /// per shard of a CI matrix).
    #[arg(long, value_enum, default_value_t = VerdictFormat::Terminal)]
    pub format: VerdictFormat,
    /// Only shard K of N of the benchmarks (after the filter), with
    /// cargo-nextest's meaning: `hash:K/N` by a hash of the id, `count:K/N`
    /// round-robin in each bench target's order.
    #[arg(long, value_name = "hash:K/N|count:K/N")]
    pub partition: Option<String>,
    /// Package to build (passed to cargo; repeatable).
    #[arg(long, short = 'p', value_name = "SPEC")]
    pub package: Vec<String>,
    /// Bench target to build (passed to cargo; repeatable).
    #[arg(long, value_name = "NAME")]
    pub bench: Vec<String>,
    /// Exit with status 3 when some benchmark is significantly slower in B
    /// (after the false-discovery control), by at least P% when given
    /// (`--fail-on-regression=3%`).
    #[arg(long, value_name = "P%", num_args = 0..=1, require_equals = true, default_missing_value = "0")]
    pub fail_on_regression: Option<String>,
    /// After the table, explain each benchmark that differs by the
    /// instructions that changed: both builds under Callgrind (needs
    /// Valgrind).
    #[arg(long)]
    pub explain: bool,
    /// Where the revisions' shared target directory goes
    /// (`DIR/target-revisions`; default `target/yardstick-ab/`); the working tree is built into the
    /// project's own target directory (or `DIR/target-worktree`).
    #[arg(long, value_name = "DIR")]
    pub target_dir: Option<PathBuf>,
    /// Append every benchmark's rounds (times per iteration of A and B,
    /// worker pair of each round) to this file as JSON lines: the raw data
    /// of the trust experiment's analysis.
    #[arg(long, value_name = "FILE", hide = true)]
    pub rounds_json: Option<PathBuf>,
    /// Remove the worktrees and binary copies afterwards (by default they
    /// are kept and reused by the next `ab`; the revisions' shared target
    /// directory is kept either way).
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
        // Cargo may rewrite the lock file (a stale entry pruned); that
        // alone does not make the checkout another revision's.
        && git(dir, &["status", "--porcelain", "--untracked-files=no"])
            .is_ok_and(|s| s.lines().all(|l| l.ends_with("Cargo.lock")))
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

/// One bench binary of a side, with its code layouts.
#[derive(Debug, Clone)]
pub(crate) struct Built {
    pub(crate) bin: BenchBinary,
    /// `<binary>.layoutK`, empty when none were linked.
    pub(crate) layouts: Vec<PathBuf>,
    /// Why there are none, when some were asked for.
    pub(crate) why_not: Option<String>,
}

/// What `complete.json` lists of one binary.
#[derive(serde::Serialize, serde::Deserialize)]
struct Listed {
    name: String,
    package_dir: PathBuf,
    /// Absent in caches written before ab named feature differences.
    #[serde(default)]
    features: Option<Vec<String>>,
    /// Absent in caches written before ab read it.
    #[serde(default)]
    opt_level: Option<String>,
    layouts: Vec<String>,
    why_not: Option<String>,
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// Copies the binaries and their layouts into `dir`; the copies. The list
/// of copies is written last, so that a copy cut short is never taken for
/// complete.
fn keep(bins: &[Built], dir: &Path) -> Result<Vec<Built>, String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let copy = |from: &Path| {
        let to = dir.join(file_name(from));
        std::fs::copy(from, &to)
            .map(|_| to.clone())
            .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
    };
    let mut kept = Vec::new();
    for b in bins {
        kept.push(Built {
            bin: BenchBinary {
                executable: copy(&b.bin.executable)?,
                package_dir: b.bin.package_dir.clone(),
                features: b.bin.features.clone(),
                opt_level: b.bin.opt_level.clone(),
            },
            layouts: b
                .layouts
                .iter()
                .map(|l| copy(l))
                .collect::<Result<_, _>>()?,
            why_not: b.why_not.clone(),
        });
    }
    let list: Vec<Listed> = kept
        .iter()
        .map(|b| Listed {
            name: file_name(&b.bin.executable),
            package_dir: b.bin.package_dir.clone(),
            features: b.bin.features.clone(),
            opt_level: b.bin.opt_level.clone(),
            layouts: b.layouts.iter().map(|l| file_name(l)).collect(),
            why_not: b.why_not.clone(),
        })
        .collect();
    let json = serde_json::to_string(&list).map_err(|e| e.to_string())?;
    let part = dir.join(format!("{COMPLETE}.part"));
    std::fs::write(&part, json)
        .and_then(|()| std::fs::rename(&part, dir.join(COMPLETE)))
        .map_err(|e| format!("{}: cannot record the copies: {e}", dir.display()))?;
    Ok(kept)
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(10)]
}

/// `--fail-on-regression`'s threshold: `3%`, `3` or `0.5%` → 0.03, 0.03,
/// 0.005.
pub(crate) fn threshold(text: &str) -> Result<f64, String> {
    let t = text.trim().trim_end_matches('%');
    match t.parse::<f64>() {
        Ok(p) if p.is_finite() && p >= 0.0 => Ok(p / 100.0),
        _ => Err(format!(
            "--fail-on-regression takes a percentage (e.g. --fail-on-regression=3%), got '{text}'"
        )),
    }
}

/// `--partition`, read.
fn partition(args: &AbArgs) -> Result<Option<Partition>, (u8, String)> {
    args.partition
        .as_deref()
        .map(|p| Partition::parse(p, "--partition"))
        .transpose()
        .map_err(bad)
}

fn check(args: &AbArgs) -> Result<Option<f64>, (u8, String)> {
    partition(args)?;
    let positive = |v: f64| v > 0.0 && v.is_finite();
    if !positive(args.precision) {
        return Err(bad(format!(
            "--precision must be a positive share (e.g. 0.005 for ±0.5%), got {}",
            args.precision
        )));
    }
    if !positive(args.timeout) || !positive(args.round_ms) || !positive(args.hang_timeout) {
        return Err(bad(
            "--timeout, --round-ms and --hang-timeout must be positive numbers".to_owned(),
        ));
    }
    if args.pairs < 2 {
        return Err(bad(
            "--pairs must be at least 2 (the interval is over the pairs)".to_owned(),
        ));
    }
    if let Some(n) = args.layouts.filter(|&n| n == 1 || n > args.pairs) {
        return Err(bad(format!(
            "--layouts must be 0 (the builds as linked) or between 2 and --pairs ({}), got {n}",
            args.pairs
        )));
    }
    args.fail_on_regression
        .as_deref()
        .map(threshold)
        .transpose()
        .map_err(bad)
}

/// One side to build: a revision, or the working tree.
struct Side {
    /// How the user named it, with the commit: `main (1a2b3c4d5e)`.
    label: String,
    /// The commit, or `None` for the working tree.
    sha: Option<String>,
}

/// The target directory of one side. All revisions share one
/// (`target-revisions` under `--target-dir`, by default
/// `target/yardstick-ab/`), so that a new revision compiles only its
/// workspace crates and reuses the registry dependencies. That is safe only
/// with [`touch`]: cargo decides freshness by file times and names the
/// units of a workspace alike in every checkout, so without it a checkout
/// older than the last build would be handed the other revision's binary.
/// The working tree is built where `cargo bench` builds it
/// (`--target-dir`'s `target-worktree` when given), which reuses the
/// user's own artefacts.
fn target_dir(args: &AbArgs, side: &Side, cwd: &Path, root: &Path) -> PathBuf {
    let base = args.target_dir.clone().unwrap_or_else(|| root.to_owned());
    if side.sha.is_some() {
        return base.join("target-revisions");
    }
    // Linking through the layouts' wrapper changes every unit's
    // fingerprint: the user's own target directory is left alone.
    if args.target_dir.is_some() || layouts_of(args) > 0 {
        return base.join("target-worktree");
    }
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(t);
    }
    Command::new(runner::cargo())
        .current_dir(cwd)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .stderr(Stdio::null())
        .output()
        .ok()
        .and_then(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout).ok())
        .and_then(|v| v["target_directory"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| cwd.join("target"))
}

/// Sets the modification time of every tracked file of the checkout `dir`
/// to now, so that every workspace unit built from it is older than its
/// sources and cargo rebuilds exactly those (registry dependencies keep
/// their fingerprints, which do not go by file times).
fn touch(dir: &Path) -> Result<(), String> {
    let files = git(dir, &["ls-files", "-z"])?;
    let now = std::time::SystemTime::now();
    for f in files.split('\0').filter(|f| !f.is_empty()) {
        let path = dir.join(f);
        // A tracked symbolic link or submodule is no source file of ours.
        if !path.symlink_metadata().is_ok_and(|m| m.is_file()) {
            continue;
        }
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|h| h.set_modified(now))
            .map_err(|e| format!("{}: cannot set its time: {e}", path.display()))?;
    }
    Ok(())
}

/// The cache's record of complete copies, written last.
const COMPLETE: &str = "complete.json";

/// The binaries cached in `dir` by an earlier `ab`, when the copy was
/// completed and every file is still there.
fn cached(dir: &Path) -> Option<Vec<Built>> {
    let text = std::fs::read_to_string(dir.join(COMPLETE)).ok()?;
    let list: Vec<Listed> = serde_json::from_str(&text).ok()?;
    let bins: Vec<Built> = list
        .into_iter()
        .map(|l| Built {
            bin: BenchBinary {
                executable: dir.join(l.name),
                package_dir: l.package_dir,
                features: l.features,
                opt_level: l.opt_level,
            },
            layouts: l.layouts.iter().map(|n| dir.join(n)).collect(),
            why_not: l.why_not,
        })
        .collect();
    let all = !bins.is_empty()
        && bins
            .iter()
            .all(|b| b.bin.executable.is_file() && b.layouts.iter().all(|l| l.is_file()));
    if all {
        mark_used(dir);
    }
    all.then_some(bins)
}

/// Revision caches kept (`bin-*` under `target/yardstick-ab/`), the most
/// recently used first: with four layouts a revision of the guide's
/// examples is 240 MB, and without a bound every revision ever compared
/// stayed.
const CACHES_KEPT: usize = 6;

/// Marks a cache used now (its record's time, which [`prune_caches`]
/// reads).
fn mark_used(dir: &Path) {
    let _ = std::fs::File::options()
        .write(true)
        .open(dir.join(COMPLETE))
        .and_then(|f| f.set_modified(std::time::SystemTime::now()));
}

/// Removes all but the [`CACHES_KEPT`] most recently used revision
/// caches in `root`; the working tree's is rewritten by every `ab` and
/// stays.
fn prune_caches(root: &Path) {
    let mut caches: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("bin-") && name != WORKTREE_CACHE
        })
        .map(|e| {
            let used = std::fs::metadata(e.path().join(COMPLETE))
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (used, e.path())
        })
        .collect();
    caches.sort_by_key(|c| std::cmp::Reverse(c.0));
    for (_, dir) in caches.into_iter().skip(CACHES_KEPT) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The binary cache of the working tree: as long a name as a revision's
/// (`bin-<sha>-<key>`), because the path a binary runs from is copied onto
/// its stack, and a longer one shifts a stack-heavy routine (5 % seen).
const WORKTREE_CACHE: &str = "bin-worktree00-0000000000000000";

/// Builds one side; its bench binaries with `layouts` code layouts each,
/// copied out of the way of the next build. A revision already built with
/// the same [`settings`] is not built again: its copies are reused; one
/// built with others is built again, after a line naming the settings that
/// differ.
fn build(
    side: &Side,
    top: &Path,
    prefix: &str,
    target: &Path,
    cargo_args: &[String],
    layouts: usize,
) -> Result<Vec<Built>, (u8, String)> {
    let root = top.join("target").join("yardstick-ab");
    let start = Instant::now();
    let (dir, keep_dir, now) = match &side.sha {
        Some(sha) => {
            let dir = root.join(sha);
            worktree(top, &dir, sha).map_err(other)?;
            let rustc = crate::host::rustc_verbose();
            let now = settings::read(&dir.join(prefix), cargo_args, layouts, &rustc);
            let keep_dir = root.join(format!("bin-{}", settings::key(sha, &now)));
            if let Some(bins) = cached(&keep_dir) {
                eprintln!("reusing the build of {}", side.label);
                return Ok(bins);
            }
            if let Some(then) = settings::latest(&root, sha, COMPLETE) {
                let why = settings::differences(&then, &now);
                // Said once, before the build it causes.
                if !why.is_empty() {
                    eprintln!(
                        "{}",
                        terminal_text(&format!(
                            "not reusing the build of {}: built with other settings: {why}",
                            side.label
                        ))
                    );
                }
            }
            touch(&dir).map_err(other)?;
            (dir, keep_dir, Some(now))
        }
        None => (top.to_owned(), root.join(WORKTREE_CACHE), None),
    };
    eprintln!("building {}", side.label);
    let env = match layouts {
        0 => Vec::new(),
        n => layouts::build_env(n, &dir).map_err(other)?,
    };
    let bins = link(&dir.join(prefix), target, cargo_args, &env, layouts)
        .map_err(|e| other(format!("{}: {e}", side.label)))?;
    if bins.is_empty() {
        return Err(bad(format!("{} has no bench target", side.label)));
    }
    eprintln!(
        "built {} in {:.1} s",
        side.label,
        start.elapsed().as_secs_f64()
    );
    // The next revision's build replaces the binary in the shared target
    // directory: measure copies.
    let kept = keep(&bins, &keep_dir).map_err(other)?;
    if let Some(now) = &now {
        settings::record(&keep_dir, now).map_err(other)?;
    }
    prune_caches(&root);
    Ok(kept)
}

/// Builds and finds each binary's `n` layouts. A binary whose layouts an
/// earlier build left too few of is removed and built once more (cargo
/// links a target again when its output is missing).
fn link(
    dir: &Path,
    target: &Path,
    cargo_args: &[String],
    env: &[(String, std::ffi::OsString)],
    n: usize,
) -> Result<Vec<Built>, String> {
    type Found = (BenchBinary, Result<layouts::Linked, layouts::Missing>);
    let find = |bins: Vec<BenchBinary>| -> Vec<Found> {
        bins.into_iter()
            .map(|b| {
                let found = match n {
                    0 => Ok(layouts::Linked::default()),
                    n => layouts::of(&b.executable, n),
                };
                (b, found)
            })
            .collect()
    };
    let mut found = find(runner::build(dir, target, cargo_args, env)?);
    let stale: Vec<&BenchBinary> = found
        .iter()
        .filter(|(_, f)| f.as_ref().is_err_and(|m| m.relink))
        .map(|(b, _)| b)
        .collect();
    if !stale.is_empty() {
        stale.iter().for_each(|b| layouts::forget(&b.executable));
        found = find(runner::build(dir, target, cargo_args, env)?);
    }
    let linked: Vec<f64> = found
        .iter()
        .filter_map(|(_, f)| f.as_ref().ok().map(|l| l.seconds))
        .filter(|&s| s > 0.0)
        .collect();
    if !linked.is_empty() {
        eprintln!(
            "linked {n} code layouts of {} bench binaries: {:.1} s of linking",
            linked.len(),
            linked.iter().sum::<f64>()
        );
    }
    Ok(found
        .into_iter()
        .map(|(bin, f)| match f {
            Ok(l) => Built {
                bin,
                layouts: l.paths,
                why_not: None,
            },
            Err(m) => Built {
                bin,
                layouts: Vec::new(),
                why_not: Some(m.reason),
            },
        })
        .collect())
}

/// The working tree's bench binaries with `layouts` code layouts each,
/// built as `ab` builds its B side (`calibrate --layouts`).
pub(crate) fn build_worktree(
    cargo_args: &[String],
    layouts: usize,
) -> Result<Vec<Built>, (u8, String)> {
    let cwd = std::env::current_dir().map_err(|e| other(format!("no working directory: {e}")))?;
    let (top, prefix) = match git(&cwd, &["rev-parse", "--show-toplevel"]) {
        Ok(top) => (
            PathBuf::from(top),
            git(&cwd, &["rev-parse", "--show-prefix"]).map_err(other)?,
        ),
        Err(_) => (cwd.clone(), String::new()),
    };
    // The wrapper's builds go beside `ab`'s, or under a relocated target
    // directory when the user has one.
    let base = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| top.join("target"), PathBuf::from)
        .join("yardstick-ab");
    let side = Side {
        label: "the working tree".to_owned(),
        sha: None,
    };
    let target = base.join("target-worktree");
    build(&side, &top, &prefix, &target, cargo_args, layouts)
}

/// A bench target's name: its file name without cargo's `-<hash>`, by the
/// harness's rule.
pub(crate) fn target_name(b: &BenchBinary) -> String {
    let stem = b
        .executable
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy();
    yardstick_format::binary::target_name(&stem)
}

/// Measures the benchmarks of one pair of bench binaries (either may be
/// missing); rows in A's order, then B's own. With `settings.layouts` of
/// two or more, pair `k` runs layout `k % layouts` on both sides.
fn measure(
    a: Option<&Built>,
    b: Option<&Built>,
    filter: Option<&str>,
    partition: Option<Partition>,
    settings: &Settings,
    dump: Option<&Path>,
) -> Result<Vec<Row>, String> {
    let layouts = settings.layouts;
    let spawner = |built: Option<&Built>| {
        let built = built.cloned();
        let filter = filter.map(str::to_owned);
        move |pair: usize| {
            let built = built.as_ref().expect("spawned only when present");
            let exe = match layouts {
                0 | 1 => &built.bin.executable,
                l => &built.layouts[pair % l],
            };
            let mut c = Command::new(exe);
            c.current_dir(&built.bin.package_dir)
                .arg("--bench")
                .args(&filter);
            c
        }
    };
    let (sa, sb) = (spawner(a), spawner(b));
    let ids_a = a.map_or(Ok(Vec::new()), |_| lockstep::list(&sa))?;
    let ids_b = b.map_or(Ok(Vec::new()), |_| lockstep::list(&sb))?;
    let (ids_a, ids_b) = shard_of(partition, ids_a, ids_b);
    let mut engine = Engine::new(&sa, &sb, settings.clone());
    let mut rows = Vec::new();
    for id in &ids_a {
        if !ids_b.contains(id) {
            rows.push(Row {
                id: id.clone(),
                outcome: Outcome::OnlyA,
            });
            continue;
        }
        let row = match engine.measure(id) {
            Ok(m) => {
                if let Some(path) = dump {
                    append_rounds(path, id, &m);
                }
                verdict::paired(id, &m, settings.confidence)
            }
            Err(e) => Row {
                id: id.clone(),
                outcome: Outcome::Failed(e.to_string()),
            },
        };
        match &row.outcome {
            Outcome::Failed(e) => eprintln!("{}", terminal_text(&format!("{id}: failed: {e}"))),
            _ => eprintln!("{}", terminal_text(&format!("{id}: {}", row.verdict()))),
        }
        rows.push(row);
    }
    rows.extend(ids_b.iter().filter(|id| !ids_a.contains(id)).map(|id| Row {
        id: id.clone(),
        outcome: Outcome::OnlyB,
    }));
    Ok(rows)
}

/// The shard's share of one bench target's benchmarks: the partition deals
/// the union of both sides' ids (A's order, then B's own), so that a
/// benchmark present on one side only still lands in exactly one shard.
/// Nothing in `ab` compares benchmarks with each other, so the unit is the
/// benchmark; counting is per bench target, as nextest counts per binary.
fn shard_of(
    partition: Option<Partition>,
    ids_a: Vec<String>,
    ids_b: Vec<String>,
) -> (Vec<String>, Vec<String>) {
    let Some(p) = partition else {
        return (ids_a, ids_b);
    };
    let mut selector = Selector::new(p);
    let union = ids_a
        .iter()
        .chain(ids_b.iter().filter(|id| !ids_a.contains(id)));
    let kept: std::collections::HashSet<String> =
        union.filter(|id| selector.admits(id)).cloned().collect();
    let keep = |ids: Vec<String>| ids.into_iter().filter(|id| kept.contains(id)).collect();
    (keep(ids_a), keep(ids_b))
}

/// `--rounds-json`: one JSON line per benchmark; a failure to write is a
/// warning, the comparison goes on.
fn append_rounds(path: &Path, id: &str, m: &lockstep::Measured) {
    use std::io::Write;
    let line = yardstick_format::ab::RoundsLine {
        version: yardstick_format::ab::VERSION,
        id: id.to_owned(),
        iters: m.iters,
        seconds: m.seconds,
        a: m.a.clone(),
        b: m.b.clone(),
        pair: m.pair.clone(),
    };
    let Ok(line) = serde_json::to_string(&line) else {
        return;
    };
    let wrote = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| writeln!(f, "{line}"));
    if let Err(e) = wrote {
        eprintln!("warning: {}: cannot write the rounds: {e}", path.display());
    }
}

/// Resolves the two sides named by the arguments.
fn sides(args: &AbArgs, cwd: &Path) -> Result<[Side; 2], (u8, String)> {
    let resolve = |rev: &str| {
        git(
            cwd,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{rev}^{{commit}}"),
            ],
        )
        .map_err(|_| bad(format!("'{rev}' is not a commit of this repository")))
    };
    let rev_a = args.rev_a.as_deref().unwrap_or("HEAD");
    let sha_a = resolve(rev_a)?;
    let a = Side {
        label: format!("{rev_a} ({})", short(&sha_a)),
        sha: Some(sha_a),
    };
    let b = match args.rev_b.as_deref() {
        None | Some(".") => {
            let head = resolve("HEAD")?;
            let dirty = !git(cwd, &["status", "--porcelain", "--untracked-files=no"])
                .map_err(other)?
                .is_empty();
            Side {
                label: format!(
                    "the working tree (HEAD {}{})",
                    short(&head),
                    if dirty {
                        " + uncommitted changes"
                    } else {
                        ", clean"
                    }
                ),
                sha: None,
            }
        }
        Some(rev) => {
            let sha = resolve(rev)?;
            Side {
                label: format!("{rev} ({})", short(&sha)),
                sha: Some(sha),
            }
        }
    };
    Ok([a, b])
}

/// Runs `ab`; returns the exit status.
///
/// # Errors
///
/// The exit status and one line: 2 for bad arguments or revisions, 1 when
/// a build or git fails. With `--format json` the failure is also printed
/// as a `failed` document, so that a shard's file names it.
pub fn run(args: &AbArgs) -> Result<u8, (u8, String)> {
    let fail_at = check(args)?;
    let shard = partition(args)?;
    let compared = match compare(args, shard) {
        Ok(c) => c,
        Err(e) => {
            if args.format == VerdictFormat::Json {
                let c = context(
                    args,
                    shard,
                    ["?".into(), "?".into()],
                    &How::of(args, 0, None, 0.0),
                );
                print!("{}", json_text(&result::failed(c, &e.1)));
            }
            return Err(e);
        }
    };
    let Compared {
        labels,
        mut rows,
        how,
        explainable,
    } = compared;
    if args.format == VerdictFormat::Json {
        let doc = result::document(context(args, shard, labels, &how), &rows);
        print!("{}", json_text(&doc));
        return Ok(0);
    }
    let fdr = verdict::control(&mut rows, 1.0 - CONFIDENCE);
    let [a, b] = labels;
    let header = Header {
        a,
        b,
        how: how.line(),
    };
    let text = match args.format {
        VerdictFormat::Markdown => verdict::markdown(&header, &rows, fdr.as_deref()),
        _ => verdict::terminal(&header, &rows, fdr.as_deref()),
    };
    print!("{}", terminal_text(&text));
    if args.explain {
        explain(&rows, &explainable);
    }
    let regressed = fail_at.is_some_and(|p| rows.iter().any(|r| r.regressed(p)));
    Ok(if regressed { REGRESSION } else { 0 })
}

/// A JSON document and its line break.
fn json_text(doc: &yardstick_format::ab::AbResult) -> String {
    let mut text = yardstick_format::json::to_string(doc);
    text.push('\n');
    text
}

/// What `--format json` writes beside the rows.
fn context(
    args: &AbArgs,
    shard: Option<Partition>,
    [a, b]: [String; 2],
    how: &How,
) -> result::Context {
    result::Context {
        shard: shard.map(|p| p.to_string()),
        machine: result::this_machine(),
        a,
        b,
        pairs: args.pairs,
        round_ms: args.round_ms,
        timeout: args.timeout,
        seconds: how.seconds,
        confidence: CONFIDENCE,
        layouts: how.layouts,
        unsampled: how.unsampled.clone(),
    }
}

/// The comparison before the false-discovery control.
struct Compared {
    /// A's and B's names.
    labels: [String; 2],
    rows: Vec<Row>,
    /// How it was measured.
    how: How,
    /// Per benchmark measured on both sides: what `--explain` runs.
    explainable: Vec<explain::Target>,
}

/// `--explain`: each changed row's benchmark counted in both builds.
fn explain(rows: &[Row], targets: &[explain::Target]) {
    let changed: Vec<&explain::Target> = rows
        .iter()
        .filter(|r| r.changed())
        .filter_map(|r| targets.iter().find(|t| t.id == r.id))
        .collect();
    if changed.is_empty() {
        return;
    }
    if let Err(missing) = explain::valgrind() {
        eprintln!("explain: {missing}; the verdicts stand");
        return;
    }
    let scratch = std::env::temp_dir().join(format!("yardstick-ab-explain-{}", std::process::id()));
    for t in changed {
        match explain::explain(t, &scratch) {
            Ok(e) => println!("{}", terminal_text(explain::render(&e).trim_end())),
            Err(why) => eprintln!("{}", explain::not_explained_line(&t.id, &why)),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Builds both sides and measures the (shard's) benchmarks in lock-step.
fn compare(args: &AbArgs, shard: Option<Partition>) -> Result<Compared, (u8, String)> {
    let cwd = std::env::current_dir().map_err(|e| other(format!("no working directory: {e}")))?;
    let top = PathBuf::from(
        git(&cwd, &["rev-parse", "--show-toplevel"])
            .map_err(|e| bad(format!("not inside a git repository: {e}")))?,
    );
    let prefix = git(&cwd, &["rev-parse", "--show-prefix"]).map_err(other)?;
    let sides = sides(args, &cwd)?;
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
    let target = |side: &Side| target_dir(args, side, &cwd, &root);
    let n = layouts_of(args);
    let bins_a = build(&sides[0], &top, &prefix, &target(&sides[0]), &cargo_args, n)?;
    let bins_b = if sides[1].sha.is_some() && sides[1].sha == sides[0].sha {
        bins_a.clone()
    } else {
        build(&sides[1], &top, &prefix, &target(&sides[1]), &cargo_args, n)?
    };
    let unsampled = layouts_missing(&bins_a, &bins_b);
    if let Some(why) = &unsampled {
        eprintln!("{}", terminal_text(&format!("layout not sampled: {why}")));
    }
    let checkout = |side: &Side| {
        side.sha
            .as_ref()
            .map_or_else(|| top.clone(), |sha| root.join(sha))
    };
    let (ca, cb) = (checkout(&sides[0]), checkout(&sides[1]));
    for line in builds::lines(&builds::pairs(&bins_a, &bins_b, [&ca, &cb])) {
        eprintln!("{}", terminal_text(&format!("note: {line}")));
    }
    let settings = Settings {
        pairs: args.pairs,
        round: Duration::from_secs_f64(args.round_ms / 1e3),
        budget: Duration::from_secs_f64(args.timeout),
        min_blocks: lockstep::MIN_BLOCKS,
        min_pairs: args.pairs,
        confidence: CONFIDENCE,
        seed: u64::from(std::process::id()),
        hang_limit: Duration::from_secs_f64(args.hang_timeout),
        memory_budget: yardstick::worker::lockstep::DEFAULT_MEMORY_BUDGET,
        layouts: if unsampled.is_some() { 0 } else { n },
    };
    eprintln!("measuring in lock-step");
    let start = Instant::now();
    let mut rows = Vec::new();
    let mut explainable = Vec::new();
    let mut names: Vec<String> = bins_a
        .iter()
        .chain(&bins_b)
        .map(|b| target_name(&b.bin))
        .collect();
    names.dedup();
    let mut seen = std::collections::BTreeSet::new();
    for name in names.into_iter().filter(|n| seen.insert(n.clone())) {
        let a = bins_a.iter().find(|b| target_name(&b.bin) == name);
        let b = bins_b.iter().find(|b| target_name(&b.bin) == name);
        match measure(
            a,
            b,
            args.filter.as_deref(),
            shard,
            &settings,
            args.rounds_json.as_deref(),
        ) {
            Ok(r) => {
                if let (Some(a), Some(b)) = (a, b) {
                    explainable.extend(r.iter().filter_map(|row| explain_target(row, a, b)));
                }
                rows.extend(r);
            }
            Err(e) => eprintln!(
                "{}",
                terminal_text(&format!("warning: bench target {name}: {e}"))
            ),
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if args.clean {
        clean(&top, &root, &sides);
    }
    // A shard may be dealt nothing (fewer benchmarks than shards); the
    // merge sees the whole suite.
    if rows.is_empty() && shard.is_none() {
        return Err(bad(
            "no benchmark to compare (does the filter match any?)".into()
        ));
    }
    let [a, b] = sides;
    Ok(Compared {
        labels: [a.label, b.label],
        rows,
        how: How::of(args, settings.layouts, unsampled, seconds),
        explainable,
    })
}

/// What `--explain` runs for a benchmark measured on both sides: A as the
/// baseline, B as the current build, in B's package folder.
fn explain_target(row: &Row, a: &Built, b: &Built) -> Option<explain::Target> {
    let Outcome::Measured(p) = &row.outcome else {
        return None;
    };
    Some(explain::Target {
        id: row.id.clone(),
        baseline: a.bin.executable.clone(),
        current: b.bin.executable.clone(),
        per_iteration_ns: p.b,
        cwd: Some(b.bin.package_dir.clone()),
    })
}

/// The layouts a side is measured in: `--layouts`, else 4 (or --pairs
/// when fewer).
fn layouts_of(args: &AbArgs) -> usize {
    args.layouts
        .unwrap_or_else(|| layouts::DEFAULT.min(args.pairs))
}

/// Why the comparison runs on the builds as linked, when layouts were
/// asked for and some binary has none (the first reason found).
fn layouts_missing(a: &[Built], b: &[Built]) -> Option<String> {
    a.iter().chain(b).find_map(|x| x.why_not.clone())
}

/// How a comparison was measured: the line under its title, for `ab`
/// and for the merge of its shards.
#[derive(Debug, Clone, PartialEq)]
pub struct How {
    /// Worker pairs per benchmark.
    pub pairs: usize,
    /// Each side's share of a round (ms).
    pub round_ms: f64,
    /// Seconds of rounds per benchmark.
    pub timeout: f64,
    /// Code layouts a side (0 or 1: the builds as linked).
    pub layouts: usize,
    /// Why layouts were asked for and not sampled.
    pub unsampled: Option<String>,
    /// Wall seconds measuring.
    pub seconds: f64,
}

impl How {
    fn of(args: &AbArgs, layouts: usize, unsampled: Option<String>, seconds: f64) -> How {
        How {
            pairs: args.pairs,
            round_ms: args.round_ms,
            timeout: args.timeout,
            layouts,
            unsampled,
            seconds,
        }
    }

    /// The line under the title.
    #[must_use]
    pub fn line(&self) -> String {
        let (pairs, layouts) = (self.pairs, self.layouts);
        let (units, over) = if layouts >= 2 {
            (
                format!("{pairs} process pairs over {layouts} code layouts a side (relinked with a shuffled function order)"),
                "the layouts' mean ratios B/A",
            )
        } else {
            (
                format!("{pairs} process pairs"),
                "the pairs' median ratios B/A",
            )
        };
        let not_sampled = self.unsampled.as_ref().map_or(String::new(), |why| {
            format!(" Code layout not sampled: {why}.")
        });
        format!(
            "Lock-step workers ({units}), ABBA rounds of {} ms a side, {} s of rounds per benchmark; \
             95% Student-t intervals over {over}; {:.1} s measuring.{not_sampled}",
            self.round_ms, self.timeout, self.seconds
        )
    }
}

/// Removes the worktrees and binary copies of this run.
fn clean(top: &Path, root: &Path, sides: &[Side; 2]) {
    for side in sides {
        let Some(sha) = &side.sha else {
            let _ = std::fs::remove_dir_all(root.join(WORKTREE_CACHE));
            continue;
        };
        let dir = root.join(sha);
        let _ = git(
            top,
            &["worktree", "remove", "--force", &dir.to_string_lossy()],
        );
        let prefix = format!("bin-{}-", short(sha));
        for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let _ = git(top, &["worktree", "prune"]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_read_as_percentages() {
        assert_eq!(threshold("3%"), Ok(0.03));
        assert_eq!(threshold("3"), Ok(0.03));
        assert_eq!(threshold("0"), Ok(0.0));
        assert!(threshold("x").unwrap_err().contains("got 'x'"));
        assert!(threshold("-1%").is_err());
    }

    #[test]
    fn the_line_that_says_how() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            ab: AbArgs,
        }
        let args = Cli::parse_from(["ab"]).ab;
        assert_eq!(
            How::of(&args, 4, None, 12.34).line(),
            "Lock-step workers (8 process pairs over 4 code layouts a side (relinked with a shuffled function order)), \
             ABBA rounds of 2 ms a side, 2.5 s of rounds per benchmark; \
             95% Student-t intervals over the layouts' mean ratios B/A; 12.3 s measuring."
        );
        assert_eq!(
            How::of(&args, 0, Some("the linker cannot shuffle sections (x)".into()), 1.0).line(),
            "Lock-step workers (8 process pairs), ABBA rounds of 2 ms a side, 2.5 s of rounds per benchmark; \
             95% Student-t intervals over the pairs' median ratios B/A; 1.0 s measuring. \
             Code layout not sampled: the linker cannot shuffle sections (x)."
        );
        let args = Cli::parse_from(["ab", "--layouts", "1"]).ab;
        assert!(check(&args)
            .unwrap_err()
            .1
            .starts_with("--layouts must be 0"));
        let args = Cli::parse_from(["ab", "--layouts", "9"]).ab;
        assert!(check(&args)
            .unwrap_err()
            .1
            .contains("between 2 and --pairs (8), got 9"));
        let args = Cli::parse_from(["ab", "--pairs", "1"]).ab;
        assert_eq!(
            check(&args).unwrap_err().1,
            "--pairs must be at least 2 (the interval is over the pairs)"
        );
        let args = Cli::parse_from(["ab", "--hang-timeout", "0"]).ab;
        assert!(check(&args).unwrap_err().1.contains("--hang-timeout"));
    }

    #[test]
    fn target_names_drop_cargos_hash() {
        let b = |p: &str| BenchBinary {
            executable: PathBuf::from(p),
            package_dir: PathBuf::from("."),
            features: None,
            opt_level: None,
        };
        assert_eq!(target_name(&b("/t/deps/spin-0a1b2c3d4e5f6789")), "spin");
        assert_eq!(
            target_name(&b("/t/deps/my-bench-0a1b2c3d4e5f6789")),
            "my-bench"
        );
        assert_eq!(
            target_name(&b("/t/x/my-bench-0a1b2c3d4e5f6789.layout2")),
            "my-bench"
        );
        assert_eq!(target_name(&b("/t/deps/plain")), "plain");
    }

    #[test]
    fn the_binary_cache_is_complete_or_missed() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("spin-0a1b");
        std::fs::write(&exe, "binary").unwrap();
        let layout = dir.path().join("spin-0a1b.layout1");
        std::fs::write(&layout, "layout").unwrap();
        let bins = [Built {
            bin: BenchBinary {
                executable: exe,
                package_dir: PathBuf::from("pkg"),
                features: Some(vec!["fast".into()]),
                opt_level: Some("2".into()),
            },
            layouts: vec![layout],
            why_not: None,
        }];
        let cache = dir.path().join("bin-key");
        assert!(cached(&cache).is_none());
        let kept = keep(&bins, &cache).unwrap();
        let found = cached(&cache).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].bin.executable, kept[0].bin.executable);
        assert_eq!(found[0].bin.package_dir, PathBuf::from("pkg"));
        assert_eq!(found[0].bin.opt_level.as_deref(), Some("2"));
        assert_eq!(found[0].layouts, vec![cache.join("spin-0a1b.layout1")]);
        // Only the most recently used revision caches stay.
        for k in 0..CACHES_KEPT + 2 {
            let d = dir.path().join(format!("bin-{k:02}"));
            keep(&kept, &d).unwrap();
            let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000 + k as u64);
            std::fs::File::options()
                .write(true)
                .open(d.join(COMPLETE))
                .unwrap()
                .set_modified(t)
                .unwrap();
        }
        prune_caches(dir.path());
        let left = |k: usize| dir.path().join(format!("bin-{k:02}")).exists();
        // `bin-key`, used just now, and the five newest of the eight stay.
        assert!((0..3).all(|k| !left(k)) && (3..CACHES_KEPT + 2).all(left));
        assert!(cache.exists());
        // A copy whose layout went missing is no cache.
        std::fs::remove_file(&kept[0].layouts[0]).unwrap();
        assert!(cached(&cache).is_none());
        // As long as a revision's cache name, whose sha is cut to ten.
        let sha = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(
            WORKTREE_CACHE.len(),
            format!("bin-{}", settings::key(sha, &settings::Settings::new())).len()
        );
    }
}
