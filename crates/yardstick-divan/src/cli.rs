//! divan's command line (and its `DIVAN_*` variables), with yardstick's
//! own options passed through to the engine.

use std::ffi::OsString;
use std::time::Duration;

use crate::__private::BenchOptions;
use crate::counter::{BytesCount, BytesFormat, CharsCount, CyclesCount, ItemsCount};

/// How the tree is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum SortBy {
    /// Groups (modules) first, then by name.
    #[default]
    Kind,
    /// By name.
    Name,
    /// By file and line.
    Location,
}

/// The parsed command line.
#[derive(Debug, Clone, Default)]
pub(crate) struct Args {
    pub filters: Vec<String>,
    pub skips: Vec<String>,
    pub exact: bool,
    pub ignored: bool,
    pub include_ignored: bool,
    pub list: bool,
    /// `--format terse` (as cargo-nextest asks): `--list` prints one
    /// `name: benchmark` line per benchmark instead of the tree.
    pub terse: bool,
    pub sort: SortBy,
    pub reverse: bool,
    pub bytes_format: BytesFormat,
    /// Options that override every benchmark's.
    pub options: BenchOptions,
    /// `--color`: also passed to yardstick.
    pub color: Option<String>,
    /// yardstick's options, and libtest's `--bench`/`--test`, for the engine.
    pub forward: Vec<OsString>,
    /// `--help`/`-h`.
    pub help: bool,
}

/// `--help`: divan's options; yardstick's are listed by its own help.
pub(crate) const HELP: &str = "\
Runs the benchmarks of this binary (divan's command line, on yardstick).

Usage: <bench-binary> [OPTIONS] [FILTER]...

divan's options:
      --test                    Run each benchmark once (what `cargo test --benches` does)
      --list                    List the benchmarks
      --exact                   Filters match whole paths, not regular expressions
      --skip <FILTER>           Skip benchmarks whose path matches
      --ignored                 Run only ignored benchmarks
      --include-ignored         Run ignored benchmarks too
      --color <WHEN>            auto, always or never
      --sort <ATTR>             Sort by kind (default), name or location; --sortr reverses
      --sample-count <N>        Samples per benchmark (default 100)   [DIVAN_SAMPLE_COUNT]
      --sample-size <N>         Iterations per sample                 [DIVAN_SAMPLE_SIZE]
      --threads <N>...          Thread counts; 0 is every core        [DIVAN_THREADS]
      --min-time <SECONDS>      Least sampling time                   [DIVAN_MIN_TIME]
      --max-time <SECONDS>      Most sampling time                    [DIVAN_MAX_TIME]
      --skip-ext-time [BOOL]    Count only the benchmarked code against the times
      --items-count <N>         Also --bytes-count, --chars-count, --cycles-count
      --bytes-format <FORMAT>   decimal (default) or binary
      --timer <os|tsc>          The OS clock is always used

yardstick's options (saved baselines, comparisons, reports, JSON messages)
are accepted too, for example:
      --save-baseline <NAME>    Save the results under NAME (default: base)
      --baseline <NAME>         Compare with NAME; it must exist
      --discard-baseline        Neither compare nor save
      --message-format json     cargo-criterion's JSON messages on stdout
      --output-format <FORMAT>  yardstick's output instead of the tree (criterion, bencher, …)
      --noplot                  No HTML report
";

/// Options of divan that take a value.
const VALUED: &[&str] = &[
    "color",
    "skip",
    "sort",
    "sortr",
    "timer",
    "sample-count",
    "sample-size",
    "threads",
    "min-time",
    "max-time",
    "items-count",
    "bytes-count",
    "bytes-format",
    "chars-count",
    "cycles-count",
    "format",
];

/// Parses `args` (without the program name) over the `DIVAN_*` variables
/// of `env`. Errors name the flag and what it expects.
pub(crate) fn parse(args: Vec<OsString>, env: &[(String, String)]) -> Result<Args, String> {
    let mut a = Args::default();
    for name in VALUED.iter().chain(&["skip-ext-time"]) {
        let var = format!("DIVAN_{}", name.replace('-', "_").to_uppercase());
        if let Some((_, v)) = env.iter().find(|(k, _)| *k == var) {
            if *name != "skip" && *name != "color" && *name != "format" {
                set(&mut a, name, v).map_err(|e| format!("{var}: {e}"))?;
            }
        }
    }
    let mut words = args.into_iter().map(|w| w.to_string_lossy().into_owned());
    let mut forward_only = false;
    while let Some(word) = words.next() {
        if forward_only {
            a.filters.push(word);
            continue;
        }
        if word == "--" {
            forward_only = true;
            continue;
        }
        let Some(long) = word.strip_prefix("--") else {
            if word == "-h" {
                a.help = true;
                continue;
            }
            if word.starts_with('-') && word.len() > 1 {
                // libtest's short flags (-q, -Z …) change nothing here.
                continue;
            }
            a.filters.push(word);
            continue;
        };
        let (name, inline) = match long.split_once('=') {
            Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
            None => (long.to_owned(), None),
        };
        match name.as_str() {
            "test" | "bench" => a.forward.push(word.clone().into()),
            "list" => a.list = true,
            "help" => a.help = true,
            "exact" => a.exact = true,
            "ignored" => a.ignored = true,
            "include-ignored" => a.include_ignored = true,
            "skip-ext-time" => {
                let v = inline.as_deref().unwrap_or("true");
                set(&mut a, "skip-ext-time", v)?;
            }
            // libtest flags cargo may pass; nothing to do.
            "nocapture" | "show-output" | "quiet" => {}
            n if VALUED.contains(&n) => {
                let value = match inline {
                    Some(v) => v,
                    None => words.next().ok_or_else(|| format!("--{n} needs a value"))?,
                };
                set(&mut a, n, &value)?;
            }
            n => {
                // One of yardstick's options: pass it on, with its value.
                a.forward.push(word.clone().into());
                if inline.is_none() && yardstick::frontend::takes_value(n) {
                    if let Some(v) = words.next() {
                        a.forward.push(v.into());
                    }
                }
            }
        }
    }
    if a.ignored && a.include_ignored {
        return Err("--ignored and --include-ignored exclude each other".into());
    }
    Ok(a)
}

fn set(a: &mut Args, name: &str, value: &str) -> Result<(), String> {
    let o = &mut a.options;
    match name {
        "color" => {
            if !matches!(value, "auto" | "always" | "never") {
                return Err(bad(name, value, "auto, always or never"));
            }
            a.color = Some(value.to_owned());
        }
        "skip" => a.skips.push(value.to_owned()),
        "sort" | "sortr" => {
            a.sort = match value {
                "kind" => SortBy::Kind,
                "name" => SortBy::Name,
                "location" => SortBy::Location,
                _ => return Err(bad(name, value, "kind, name or location")),
            };
            a.reverse = name == "sortr";
        }
        "timer" => match value {
            "os" => {}
            // yardstick reads the OS's monotonic clock; a cycle counter is
            // not a timer it trusts across cores and frequency changes.
            "tsc" => eprintln!("note: --timer tsc is not supported; timing with the OS clock"),
            _ => return Err(bad(name, value, "os or tsc")),
        },
        "sample-count" => o.sample_count = Some(number(name, value)?),
        "sample-size" => o.sample_size = Some(number(name, value)?),
        "threads" => {
            let mut t: Vec<usize> = o
                .threads
                .as_deref()
                .map(<[usize]>::to_vec)
                .unwrap_or_default();
            for part in value.split(',') {
                t.push(number(name, part.trim())?);
            }
            t.sort_unstable();
            t.dedup();
            o.threads = Some(t.into());
        }
        "min-time" => o.min_time = Some(seconds(name, value)?),
        "max-time" => o.max_time = Some(seconds(name, value)?),
        "skip-ext-time" => {
            o.skip_ext_time = Some(match value {
                "true" | "1" | "" => true,
                "false" | "0" => false,
                _ => return Err(bad(name, value, "true or false")),
            })
        }
        "items-count" => o
            .counters
            .push(ItemsCount::new(number::<u64>(name, value)?)),
        "bytes-count" => o
            .counters
            .push(BytesCount::new(number::<u64>(name, value)?)),
        "chars-count" => o
            .counters
            .push(CharsCount::new(number::<u64>(name, value)?)),
        "cycles-count" => o
            .counters
            .push(CyclesCount::new(number::<u64>(name, value)?)),
        "bytes-format" => {
            a.bytes_format = match value {
                "decimal" => BytesFormat::Decimal,
                "binary" => BytesFormat::Binary,
                _ => return Err(bad(name, value, "decimal or binary")),
            }
        }
        // cargo-nextest's `--list --format terse`.
        "format" => a.terse = value == "terse",
        _ => return Err(format!("unknown option --{name}")),
    }
    Ok(())
}

fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| bad(name, value, "a non-negative whole number"))
}

fn seconds(name: &str, value: &str) -> Result<Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| bad(name, value, "a number of seconds"))
}

fn bad(name: &str, value: &str, expected: &str) -> String {
    format!("invalid value '{value}' for --{name}: expected {expected}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Args, String> {
        parse(args.iter().map(OsString::from).collect(), &[])
    }

    #[test]
    fn divan_options_and_filters() {
        let a = p(&[
            "--bench",
            "--sample-count",
            "10",
            "--threads=1,4",
            "fib",
            "--exact",
        ])
        .unwrap();
        assert_eq!(a.options.sample_count, Some(10));
        assert_eq!(a.options.threads.as_deref(), Some(&[1, 4][..]));
        assert_eq!(a.filters, ["fib"]);
        assert!(a.exact);
        assert_eq!(a.forward, [OsString::from("--bench")]);
    }

    #[test]
    fn yardstick_options_pass_through_with_their_values() {
        let a = p(&[
            "--save-baseline",
            "main",
            "--noplot",
            "add",
            "--message-format=json",
        ])
        .unwrap();
        assert_eq!(a.filters, ["add"]);
        let fwd: Vec<_> = a.forward.iter().map(|s| s.to_str().unwrap()).collect();
        assert_eq!(
            fwd,
            [
                "--save-baseline",
                "main",
                "--noplot",
                "--message-format=json"
            ]
        );
    }

    #[test]
    fn bad_values_name_the_flag() {
        assert_eq!(
            p(&["--sample-count", "many"]).unwrap_err(),
            "invalid value 'many' for --sample-count: expected a non-negative whole number"
        );
        assert!(p(&["--max-time"])
            .unwrap_err()
            .contains("--max-time needs a value"));
        assert!(p(&["--sort", "size"])
            .unwrap_err()
            .contains("kind, name or location"));
    }

    #[test]
    fn help_is_ours_and_lists_divans_options() {
        assert!(p(&["--help"]).unwrap().help);
        assert!(p(&["-h"]).unwrap().help);
        for flag in [
            "--sample-count",
            "--threads",
            "--bytes-format",
            "--save-baseline",
        ] {
            assert!(HELP.contains(flag), "{flag}");
        }
    }

    #[test]
    fn environment_variables_set_options() {
        let env = [("DIVAN_SAMPLE_SIZE".to_owned(), "7".to_owned())];
        let a = parse(vec![], &env).unwrap();
        assert_eq!(a.options.sample_size, Some(7));
        let a = parse(vec!["--sample-size=9".into()], &env).unwrap();
        assert_eq!(a.options.sample_size, Some(9));
    }
}
