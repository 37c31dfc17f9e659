//! The configuration file: `yardstick.toml` (or cargo-criterion's
//! `criterion.toml` when there is none), found by walking up from the
//! current directory, or named by `YARDSTICK_CONFIG`. Command-line flags
//! and environment variables override it.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::args::{HomeArg, TableFormat};
use crate::cli::{Command, Invocation};

/// Names looked for in each directory, in order.
pub const FILE_NAMES: [&str; 2] = ["yardstick.toml", "criterion.toml"];

/// An RGB colour of cargo-criterion's `[colors]` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

/// cargo-criterion's `[colors]` table.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Colors {
    /// The current measurement.
    pub current_sample: Option<Color>,
    /// The previous measurement.
    pub previous_sample: Option<Color>,
    /// Samples that are not outliers.
    pub not_an_outlier: Option<Color>,
    /// Mild outliers.
    pub mild_outlier: Option<Color>,
    /// Severe outliers.
    pub severe_outlier: Option<Color>,
    /// Lines of the comparison charts.
    pub comparison_colors: Option<Vec<Color>>,
}

/// cargo-criterion's `output_format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// The default.
    Criterion,
    /// Without change lines.
    Quiet,
    /// With more statistics.
    Verbose,
    /// libtest's bencher lines.
    Bencher,
}

/// cargo-criterion's `plotting_backend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlottingBackend {
    /// gnuplot.
    Gnuplot,
    /// plotters.
    Plotters,
    /// gnuplot when installed, else plotters.
    Auto,
    /// No plots.
    Disabled,
}

/// `[compare]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareSection {
    /// Default `--format`.
    pub format: Option<Format>,
}

/// `[check]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSection {
    /// Default `--threshold`.
    pub threshold: Option<f64>,
    /// Default `--instructions-threshold`.
    pub instructions_threshold: Option<f64>,
}

/// `[exec]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecSection {
    /// Default `--runs` (fixed number of runs).
    pub runs: Option<usize>,
    /// Default `--min-runs`.
    pub min_runs: Option<usize>,
    /// Default `--max-runs`.
    pub max_runs: Option<usize>,
    /// Default `--warmup`.
    pub warmup: Option<usize>,
    /// Default `--precision`.
    pub precision: Option<f64>,
    /// Default `--max-time`.
    pub max_time: Option<f64>,
    /// Default `--shell`.
    pub shell: Option<String>,
    /// Default `--format`.
    pub format: Option<Format>,
}

/// A table format in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Aligned text.
    Terminal,
    /// Markdown.
    Markdown,
}

impl From<Format> for TableFormat {
    fn from(f: Format) -> TableFormat {
        match f {
            Format::Terminal => TableFormat::Terminal,
            Format::Markdown => TableFormat::Markdown,
        }
    }
}

/// The whole file; every key is optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// yardstick's home directory (relative to the file's folder).
    pub home: Option<PathBuf>,
    /// cargo-criterion's name for `home`.
    pub criterion_home: Option<PathBuf>,
    /// cargo-criterion's output format (accepted and checked).
    pub output_format: Option<OutputFormat>,
    /// cargo-criterion's plotting backend (accepted and checked).
    #[serde(alias = "ploting_backend")]
    pub plotting_backend: Option<PlottingBackend>,
    /// cargo-criterion's chart colours (accepted and checked).
    pub colors: Option<Colors>,
    /// Whether `exec` records its runs in the history (default true).
    pub history: Option<bool>,
    /// Default `--noise-threshold` of `compare`, `check` and `report`.
    pub noise_threshold: Option<f64>,
    /// Default `--significance-level` of `compare` and `check`.
    pub significance_level: Option<f64>,
    /// Default `--nresamples` of `compare`, `check` and `exec`.
    pub nresamples: Option<usize>,
    /// `[compare]`.
    #[serde(default)]
    pub compare: CompareSection,
    /// `[check]`.
    #[serde(default)]
    pub check: CheckSection,
    /// `[exec]`.
    #[serde(default)]
    pub exec: ExecSection,
    /// The folder of the file, to resolve `home` against.
    #[serde(skip)]
    pub dir: PathBuf,
}

fn line_of(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

/// The line of `key = …` in `text` (1 when not found).
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with('='))
        })
        .map_or(1, |i| i + 1)
}

/// Parses a configuration file's text.
///
/// # Errors
///
/// One line: `FILE:LINE:COL: problem`.
pub fn parse(text: &str, path: &Path) -> Result<Config, String> {
    let mut c: Config = toml::from_str(text).map_err(|e| {
        let (line, col) = e.span().map_or((1, 1), |s| line_of(text, s.start));
        let msg = e.message().trim().replace('\n', " ");
        format!("{}:{line}:{col}: {msg}", path.display())
    })?;
    let at = |key: &str, problem: String| {
        format!("{}:{}: {problem}", path.display(), key_line(text, key))
    };
    let fractions = [
        ("noise_threshold", c.noise_threshold),
        ("threshold", c.check.threshold),
        ("instructions_threshold", c.check.instructions_threshold),
        ("max_time", c.exec.max_time),
    ];
    for (k, v) in fractions {
        if let Some(v) = v.filter(|v| !(*v >= 0.0 && v.is_finite())) {
            return Err(at(k, format!("{k} must be a non-negative number, got {v}")));
        }
    }
    if let Some(v) = c.significance_level.filter(|v| !(*v > 0.0 && *v < 1.0)) {
        return Err(at(
            "significance_level",
            format!("significance_level must be strictly between 0 and 1, got {v}"),
        ));
    }
    if let Some(v) = c.exec.precision.filter(|v| !(*v > 0.0 && v.is_finite())) {
        return Err(at(
            "precision",
            format!("precision must be a positive fraction, got {v}"),
        ));
    }
    for (k, v) in [
        ("nresamples", c.nresamples),
        ("runs", c.exec.runs),
        ("min_runs", c.exec.min_runs),
        ("max_runs", c.exec.max_runs),
    ] {
        if v == Some(0) {
            return Err(at(k, format!("{k} must be at least 1")));
        }
    }
    if c.home.is_some() && c.criterion_home.is_some() {
        return Err(at(
            "criterion_home",
            "give either home or criterion_home, not both".into(),
        ));
    }
    c.dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok(c)
}

/// The configuration file that applies in `dir`: `YARDSTICK_CONFIG`, else
/// the first `yardstick.toml` or `criterion.toml` in `dir` or a parent.
#[must_use]
pub fn find(dir: &Path) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("YARDSTICK_CONFIG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    dir.ancestors()
        .flat_map(|d| FILE_NAMES.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file())
}

/// Loads the configuration that applies in the current directory (the
/// defaults when there is no file).
///
/// # Errors
///
/// One line naming the file, line and problem.
pub fn load() -> Result<Config, String> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let Some(path) = find(&cwd) else {
        return Ok(Config::default());
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: cannot read the configuration: {e}", path.display()))?;
    parse(&text, &path)
}

impl Config {
    /// The home directory the file names, resolved against its folder.
    #[must_use]
    pub fn home(&self) -> Option<PathBuf> {
        self.home
            .as_ref()
            .or(self.criterion_home.as_ref())
            .map(|h| self.dir.join(h))
    }
}

fn env_home_set() -> bool {
    ["YARDSTICK_HOME", "CRITERION_HOME"]
        .iter()
        .any(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty()))
}

/// Whether `flag` is on the command line (before any `--`).
fn given(args: &[String], flag: &str) -> bool {
    let eq = format!("{flag}=");
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a == flag || a.starts_with(&eq))
}

fn set<T: Copy>(args: &[String], flag: &str, field: &mut T, value: Option<T>) {
    if let Some(v) = value {
        if !given(args, flag) {
            *field = v;
        }
    }
}

fn home(h: &mut HomeArg, c: &Config) {
    if h.home.is_none() && !env_home_set() {
        h.home = c.home();
    }
}

/// cargo-criterion's `output_format` and `plotting_backend` as the bench
/// binaries' flags, after `--` in `cargo bench`'s arguments, unless the
/// command line already passes one of the same kind. yardstick draws its
/// own SVG plots, so `gnuplot`, `plotters` and `auto` all mean plots on;
/// `disabled` is `--noplot`.
fn add_harness_flags(cargo_args: &mut Vec<String>, c: &Config) {
    let bench_args: Vec<&String> = cargo_args
        .iter()
        .skip_while(|a| *a != "--")
        .skip(1)
        .collect();
    let has = |flags: &[&str]| {
        bench_args.iter().any(|a| {
            flags
                .iter()
                .any(|f| *a == f || a.starts_with(&format!("{f}=")))
        })
    };
    let mut extra: Vec<&str> = Vec::new();
    if !has(&["--quiet", "--verbose", "-v", "--output-format"]) {
        match c.output_format {
            Some(OutputFormat::Quiet) => extra.push("--quiet"),
            Some(OutputFormat::Verbose) => extra.push("--verbose"),
            Some(OutputFormat::Bencher) => extra.extend(["--output-format", "bencher"]),
            Some(OutputFormat::Criterion) | None => {}
        }
    }
    if c.plotting_backend == Some(PlottingBackend::Disabled) && !has(&["--noplot", "-n"]) {
        extra.push("--noplot");
    }
    if extra.is_empty() {
        return;
    }
    if !cargo_args.iter().any(|a| a == "--") {
        cargo_args.push("--".to_owned());
    }
    cargo_args.extend(extra.into_iter().map(str::to_owned));
}

/// Applies the configuration to a parsed invocation: every setting the
/// command line (or, for the home directory, the environment) does not
/// give is taken from the file.
pub fn apply(inv: &mut Invocation, c: &Config, args: &[String]) {
    match inv {
        Invocation::Bench(b) => {
            match c.home() {
                Some(h) if !given(args, "--home") && !env_home_set() => b.home = h,
                _ => {}
            }
            add_harness_flags(&mut b.args, c);
        }
        Invocation::Parsed(command) => apply_parsed(command, c, args),
        _ => {}
    }
}

/// [`apply`] for the subcommands clap's arguments serve as they are.
fn apply_parsed(command: &mut Command, c: &Config, args: &[String]) {
    match command {
        Command::History(h) => home(&mut h.home, c),
        Command::Import(i) => home(&mut i.home, c),
        Command::Binaries(b) => home(&mut b.home, c),
        Command::Compare(x) => {
            home(&mut x.home, c);
            stats(&mut x.stats, c, args);
            set(
                args,
                "--format",
                &mut x.format,
                c.compare.format.map(Into::into),
            );
        }
        Command::Check(x) => {
            home(&mut x.home, c);
            stats(&mut x.stats, c, args);
            set(args, "--threshold", &mut x.threshold, c.check.threshold);
            set(
                args,
                "--instructions-threshold",
                &mut x.instructions_threshold,
                c.check.instructions_threshold,
            );
        }
        Command::Exec(x) => {
            home(&mut x.home, c);
            let e = &c.exec;
            if x.runs.is_none() && x.min_runs.is_none() && x.max_runs.is_none() {
                x.runs = e.runs;
            }
            if x.runs.is_none() {
                x.min_runs = x.min_runs.or(e.min_runs);
                x.max_runs = x.max_runs.or(e.max_runs);
            }
            x.warmup = x.warmup.or(e.warmup);
            x.precision = x.precision.or(e.precision);
            x.max_time = x.max_time.or(e.max_time);
            if x.shell.is_none() {
                x.shell.clone_from(&e.shell);
            }
            x.format = x.format.or(e.format.map(Into::into));
            set(args, "--nresamples", &mut x.nresamples, c.nresamples);
            if c.history == Some(false) {
                x.no_history = true;
            }
        }
        Command::Report(r) => {
            home(&mut r.home, c);
            r.noise_threshold = r.noise_threshold.or(c.noise_threshold);
        }
        _ => {}
    }
}

fn stats(s: &mut crate::args::StatsArgs, c: &Config, args: &[String]) {
    set(
        args,
        "--noise-threshold",
        &mut s.noise_threshold,
        c.noise_threshold,
    );
    set(
        args,
        "--significance-level",
        &mut s.significance_level,
        c.significance_level,
    );
    set(args, "--nresamples", &mut s.nresamples, c.nresamples);
}

#[cfg(test)]
mod tests {

    #[test]
    fn cargo_criterions_output_format_and_plotting_backend_become_harness_flags() {
        let c = |text: &str| parse(text, Path::new("criterion.toml")).unwrap();
        let strs = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let mut args = strs(&["--bench", "x"]);
        add_harness_flags(
            &mut args,
            &c("output_format = \"bencher\"\nplotting_backend = \"disabled\"\n"),
        );
        assert_eq!(
            args,
            strs(&[
                "--bench",
                "x",
                "--",
                "--output-format",
                "bencher",
                "--noplot"
            ])
        );
        // The command line wins: its own format and --noplot stay alone.
        let mut args = strs(&["--", "--verbose", "-n"]);
        add_harness_flags(
            &mut args,
            &c("output_format = \"quiet\"\nplotting_backend = \"disabled\"\n"),
        );
        assert_eq!(args, strs(&["--", "--verbose", "-n"]));
        // Plots on (any backend) and the default format add nothing.
        let mut args = strs(&["--", "fib"]);
        add_harness_flags(
            &mut args,
            &c("output_format = \"criterion\"\nplotting_backend = \"plotters\"\n"),
        );
        assert_eq!(args, strs(&["--", "fib"]));
        let mut args = Vec::new();
        add_harness_flags(&mut args, &c("output_format = \"verbose\"\n"));
        assert_eq!(args, strs(&["--", "--verbose"]));
    }
    use super::*;

    #[test]
    fn cargo_criterion_keys_are_accepted() {
        let text = r#"
criterion_home = "./target/criterion"
output_format = "verbose"
ploting_backend = "auto"
[colors]
current_sample = {r = 31, g = 120, b = 180}
comparison_colors = [{r = 8, g = 34, b = 34}]
"#;
        let c = parse(text, Path::new("crate/criterion.toml")).unwrap();
        assert_eq!(c.output_format, Some(OutputFormat::Verbose));
        assert_eq!(c.plotting_backend, Some(PlottingBackend::Auto));
        assert_eq!(
            c.home(),
            Some(Path::new("crate").join("./target/criterion"))
        );
        let colors = c.colors.unwrap();
        assert_eq!(
            colors.current_sample,
            Some(Color {
                r: 31,
                g: 120,
                b: 180
            })
        );
    }

    #[test]
    fn errors_name_file_line_and_problem() {
        let e = parse(
            "home = \"h\"\n[check]\nthreshhold = 0.1\n",
            Path::new("y.toml"),
        )
        .unwrap_err();
        assert!(e.starts_with("y.toml:3:"), "{e}");
        assert!(e.contains("threshhold"), "{e}");
        assert!(!e.contains('\n'));
        let e = parse(
            "[colors]\nmild_outlier = {r = 300, g = 0, b = 0}\n",
            Path::new("c.toml"),
        )
        .unwrap_err();
        assert!(e.starts_with("c.toml:2:"), "{e}");
        let e = parse("\n\nnoise_threshold = -1\n", Path::new("y.toml")).unwrap_err();
        assert!(e.starts_with("y.toml:3: noise_threshold"), "{e}");
        let e = parse("output_format = \"fancy\"\n", Path::new("y.toml")).unwrap_err();
        assert!(e.starts_with("y.toml:1:"), "{e}");
    }

    #[test]
    fn flags_are_detected_before_the_separator() {
        let a: Vec<String> = ["check", "--threshold=0.2", "--", "--home"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert!(given(&a, "--threshold"));
        assert!(!given(&a, "--home"));
        assert!(!given(&a, "--instructions-threshold"));
    }
}
