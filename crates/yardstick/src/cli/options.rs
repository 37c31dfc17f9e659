//! The bench binary's options, in one table: the parser, the `YARDSTICK_*`
//! variables, the bounds of every value and `--help` are all read from it,
//! so an option cannot be parsed and undocumented, or documented and
//! unbounded.

/// What a value must be; checked when it is read, so a bad value is one
/// line naming the flag or variable it came from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Check {
    /// Any text (a name, a path, a list checked later).
    Text,
    /// An integer in `min..=max`.
    Int(u64, u64),
    /// A finite number in the range; `open` bounds are excluded.
    Real {
        min: f64,
        max: f64,
        open_min: bool,
        open_max: bool,
        expected: &'static str,
    },
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// A shard: `hash:K/N` or `count:K/N` (`yardstick_format::partition`).
    Partition,
}

/// One command-line option.
#[derive(Debug)]
pub(crate) struct Opt {
    pub long: &'static str,
    pub short: Option<char>,
    /// The value's placeholder in `--help`; `None` for a flag.
    pub value: Option<&'static str>,
    pub check: Check,
    /// Whether `YARDSTICK_<LONG>` sets it (libtest's mode flags do not).
    pub env: bool,
    /// `--help`'s text; `\n` continues on the next line, aligned.
    pub help: &'static str,
}

const fn flag(long: &'static str, help: &'static str) -> Opt {
    Opt {
        long,
        short: None,
        value: None,
        check: Check::Text,
        env: true,
        help,
    }
}

const fn value(long: &'static str, value: &'static str, check: Check, help: &'static str) -> Opt {
    Opt {
        long,
        short: None,
        value: Some(value),
        check,
        env: true,
        help,
    }
}

const fn short(mut o: Opt, c: char) -> Opt {
    o.short = Some(c);
    o
}

const fn no_env(mut o: Opt) -> Opt {
    o.env = false;
    o
}

/// The longest time option, in seconds: a day.
pub(crate) const MAX_SECONDS: f64 = 86_400.0;
/// The most samples: beyond this a linear plan alone needs 5·10^9 runs.
pub(crate) const MAX_SAMPLE_SIZE: u64 = 100_000;
/// The most bootstrap resamples: yardstick-stats' bound.
const MAX_NRESAMPLES: u64 = yardstick_stats::MAX_NRESAMPLES as u64;

const SECONDS: Check = Check::Real {
    min: 0.0,
    max: MAX_SECONDS,
    open_min: true,
    open_max: false,
    expected: "a number of seconds above 0 and at most 86400, e.g. 2.5",
};
const UNIT: Check = Check::Real {
    min: 0.0,
    max: 1.0,
    open_min: true,
    open_max: true,
    expected: "a number strictly between 0 and 1, e.g. 0.95",
};
const PERCENT: Check = Check::Real {
    min: 0.0,
    max: 1e6,
    open_min: false,
    open_max: false,
    expected: "a percentage of at least 0, e.g. 10",
};
const PRECISION: Check = Check::Real {
    min: 0.0,
    max: 100.0,
    open_min: true,
    open_max: true,
    expected: "a percentage above 0 and below 100, e.g. 1 for ±1 %",
};

/// Every option, in `--help`'s order.
pub(crate) const OPTIONS: &[Opt] = &[
    no_env(flag(
        "exact",
        "Match FILTER against the whole id, literally",
    )),
    no_env(flag(
        "list",
        "List the benchmarks (`<id>: benchmark`) and exit",
    )),
    value(
        "partition",
        "KIND:K/N",
        Check::Partition,
        "Only shard K of N, after the filter: hash:K/N by a hash of the id,\ncount:K/N round-robin (cargo-nextest's meaning); a group whose\nmembers are compared with each other stays whole",
    ),
    no_env(flag(
        "ignored",
        "Run only ignored benchmarks (yardstick has none)",
    )),
    no_env(flag(
        "test",
        "Run each benchmark once, as a test (the default without --bench)",
    )),
    no_env(flag(
        "bench",
        "Measure the benchmarks (cargo bench passes it)",
    )),
    short(
        value(
            "save-baseline",
            "NAME",
            Check::Text,
            "Save results under NAME (default: base)",
        ),
        's',
    ),
    short(
        value(
            "baseline",
            "NAME",
            Check::Text,
            "Compare with baseline NAME, which must exist; save nothing",
        ),
        'b',
    ),
    value(
        "baseline-lenient",
        "NAME",
        Check::Text,
        "Compare with baseline NAME when it exists; save nothing",
    ),
    value(
        "load-baseline",
        "NAME",
        Check::Text,
        "Analyse saved baseline NAME instead of running (needs --baseline)",
    ),
    flag("discard-baseline", "Neither compare nor save"),
    value(
        "sample-size",
        "N",
        Check::Int(10, MAX_SAMPLE_SIZE),
        "Samples per benchmark (10 to 100000; default 100)",
    ),
    value("warm-up-time", "SECS", SECONDS, "Warm-up time (default 3)"),
    value(
        "measurement-time",
        "SECS",
        SECONDS,
        "Target measurement time (default 5)",
    ),
    value(
        "nresamples",
        "N",
        Check::Int(yardstick_stats::MIN_NRESAMPLES as u64, MAX_NRESAMPLES),
        "Bootstrap resamples (default 100000, at most 10^7)",
    ),
    value(
        "noise-threshold",
        "FRACTION",
        Check::Real {
            min: 0.0,
            max: 1.0,
            open_min: false,
            open_max: false,
            expected: "a fraction from 0 to 1, e.g. 0.02",
        },
        "Changes smaller than this are noise (default 0.01)",
    ),
    value(
        "confidence-level",
        "LEVEL",
        UNIT,
        "Confidence level of intervals (default 0.95)",
    ),
    value(
        "significance-level",
        "LEVEL",
        UNIT,
        "Significance level of the change test (default 0.05)",
    ),
    value(
        "target-precision",
        "PERCENT",
        PRECISION,
        "Sample until the 95% interval is within ±PERCENT (default 1)",
    ),
    value(
        "stdev",
        "PERCENT",
        Check::Real {
            min: 0.0,
            max: 1e6,
            open_min: true,
            open_max: false,
            expected: "a percentage above 0, e.g. 5",
        },
        "tasty-bench's rule instead: double the iterations until the\n\
         relative standard deviation of its estimate is below PERCENT",
    ),
    value(
        "timeout",
        "SECS",
        SECONDS,
        "Stop sampling a benchmark after this long (default 5)",
    ),
    value(
        "min-time",
        "SECS",
        Check::Real {
            min: 0.0,
            max: MAX_SECONDS,
            open_min: false,
            open_max: false,
            expected: "a number of seconds from 0 to 86400, e.g. 0.5",
        },
        "Sample at least this long, precise or not (default 0.5)",
    ),
    value(
        "processes",
        "N",
        Check::Int(1, 64),
        "Sample each benchmark in up to N worker processes, so its\n\
         interval carries run-to-run noise (default 10; 1: in this one)",
    ),
    value(
        "baseline-binary",
        "WHEN",
        Check::OneOf(&["measure", "ignore"]),
        "measure (default): compare in lock-step with the bench binary the\n\
         baseline kept; ignore: compare with its saved numbers",
    ),
    flag(
        "explain",
        "After measuring, count the instructions of each benchmark that\n\
         regressed or improved in both binaries under Callgrind and name\n\
         the functions that changed (needs Valgrind)",
    ),
    flag(
        "complexity",
        "Print the Big-O fits of numeric inputs even when no model fits",
    ),
    flag(
        "quick",
        "Stop as soon as two measurements agree (tasty-bench's rule)",
    ),
    value(
        "profile-time",
        "SECS",
        SECONDS,
        "Iterate each benchmark this long without analysis (profilers)",
    ),
    short(flag("noplot", "Write no HTML report"), 'n'),
    value(
        "home",
        "DIR",
        Check::Text,
        "Where results go (default: target/criterion)",
    ),
    short(
        flag("verbose", "Print slope, mean, median and their spreads"),
        'v',
    ),
    short(flag("quiet", "Print only the result lines"), 'q'),
    short(
        value(
            "color",
            "WHEN",
            Check::OneOf(&["auto", "always", "never"]),
            "auto, always or never (honours NO_COLOR and CARGO_TERM_COLOR)",
        ),
        'c',
    ),
    value(
        "output-format",
        "FORMAT",
        Check::OneOf(&[
            "criterion",
            "bencher",
            "tasty",
            "tasty-flat",
            "stats",
            "markdown",
            "table",
        ]),
        "criterion (default), bencher (`test id ... bench: N ns/iter`),\n\
         tasty (`All`, groups, `id: OK (0.44s)` / `53 ns ± 2.7 ns`),\n\
         tasty-flat (the same, whole ids), stats (rebar3_bench),\n\
         markdown (a table of the run, for CI step summaries) or\n\
         table (nanobench's: ns/op, op/s, err%, ins/op, cyc/op, IPC, …)",
    ),
    value(
        "time-mode",
        "MODE",
        Check::OneOf(&["wall", "cpu", "thread-cpu"]),
        "What time is: wall (default), cpu (the process's CPU time, as\n\
         tasty-bench) or thread-cpu (the benchmark thread's)",
    ),
    value(
        "measure",
        "LIST",
        Check::Text,
        "Also measure, per iteration: wall, cpu, thread-cpu, instructions,\n\
         cycles, branches, branch-misses, cache-references, cache-misses,\n\
         task-clock, context-switches, cpu-migrations, page-faults, allocs\n\
         (needs yardstick's counting allocator), counters, all",
    ),
    value(
        "message-format",
        "json|human",
        Check::OneOf(&["json", "human"]),
        "json: cargo-criterion's messages, one JSON line per benchmark\n\
         and group, to --message-file FILE (appended) or to stdout",
    ),
    value(
        "message-file",
        "FILE",
        Check::Text,
        "Where --message-format json goes (appended)",
    ),
    value(
        "svg",
        "FILE",
        Check::Text,
        "Write one SVG of every benchmark's mean and interval (tasty-bench)",
    ),
    value(
        "template",
        "NAME|FILE",
        Check::Text,
        "Render the run with a template: csv, json, html, pyperf or a file\n\
         (needs the `templates` feature)",
    ),
    value(
        "template-output",
        "FILE",
        Check::Text,
        "Where the template's output goes (default: stdout)",
    ),
    value(
        "csv",
        "FILE",
        Check::Text,
        "Write tasty-bench's CSV of results (Name,Mean (ps),2*Stdev (ps))",
    ),
    value(
        "baseline-csv",
        "FILE",
        Check::Text,
        "Compare with such a CSV (`8% more than baseline`)",
    ),
    value(
        "fail-if-slower",
        "PERCENT",
        PERCENT,
        "Fail benchmarks more than PERCENT slower than the baseline",
    ),
    value(
        "fail-if-faster",
        "PERCENT",
        PERCENT,
        "Fail benchmarks more than PERCENT faster than the baseline",
    ),
    flag("hide-successes", "Print only benchmarks that failed"),
    value(
        "confidence",
        "PERCENT",
        Check::OneOf(&["80", "90", "95", "98", "99"]),
        "rebar3_bench's name for --confidence-level, in percent (95)",
    ),
    value(
        "plotting-backend",
        "NAME",
        Check::OneOf(&["gnuplot", "plotters"]),
        "Accepted for compatibility (gnuplot, plotters)",
    ),
    short(no_env(flag("help", "Print this help")), 'h'),
];

/// The option named `long`.
pub(crate) fn by_long(long: &str) -> Option<&'static Opt> {
    OPTIONS.iter().find(|o| o.long == long)
}

/// The option with the short letter `c`.
pub(crate) fn by_short(c: char) -> Option<&'static Opt> {
    OPTIONS.iter().find(|o| o.short == Some(c))
}

impl Opt {
    /// `YARDSTICK_SAMPLE_SIZE` for `--sample-size`.
    pub(crate) fn env_var(&self) -> String {
        format!("YARDSTICK_{}", self.long.replace('-', "_").to_uppercase())
    }

    /// Checks `v` against the option's bounds; the error says what was
    /// expected (the caller names where the value came from).
    pub(crate) fn check(&self, v: &str) -> Result<(), String> {
        let t = v.trim();
        match self.check {
            Check::Text => Ok(()),
            Check::Int(min, max) => match t.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(()),
                _ => Err(format!("an integer from {min} to {max}")),
            },
            Check::Real {
                min,
                max,
                open_min,
                open_max,
                expected,
            } => match t.parse::<f64>() {
                Ok(x)
                    if x.is_finite()
                        && (x > min || (!open_min && x == min))
                        && (x < max || (!open_max && x == max)) =>
                {
                    Ok(())
                }
                _ => Err(expected.to_owned()),
            },
            Check::Partition => yardstick_format::partition::Partition::from_text(t)
                .map(drop)
                .map_err(|why| format!("{} (it {why})", yardstick_format::partition::EXPECTED)),
            Check::OneOf(words) if words.contains(&t) => Ok(()),
            Check::OneOf(words) => Err(format!("one of {}", words.join(", "))),
        }
    }
}

/// The options part of `--help`, from [`OPTIONS`].
pub(crate) fn help_lines() -> String {
    const COLUMN: usize = 37;
    let mut out = String::new();
    for o in OPTIONS {
        let short = o
            .short
            .map_or_else(|| "    ".to_owned(), |c| format!("-{c}, "));
        let mut left = format!("  {short}--{}", o.long);
        if let Some(v) = o.value {
            left.push_str(&format!(" <{v}>"));
        }
        let mut lines = o.help.lines();
        let first = lines.next().unwrap_or_default();
        out.push_str(&format!("{left:<COLUMN$}{first}\n"));
        for line in lines {
            out.push_str(&format!("{:COLUMN$}{}\n", "", line.trim_start()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_unique_and_documented() {
        for (i, o) in OPTIONS.iter().enumerate() {
            assert!(!o.help.is_empty(), "{}", o.long);
            assert!(
                OPTIONS[i + 1..]
                    .iter()
                    .all(|p| p.long != o.long && (o.short.is_none() || p.short != o.short)),
                "{} twice",
                o.long
            );
        }
        let help = help_lines();
        assert!(
            help.contains("  -s, --save-baseline <NAME>         Save results"),
            "{help}"
        );
        assert!(
            help.contains("\n                                     tasty (`All`, groups, `id: OK"),
            "{help}"
        );
    }

    #[test]
    fn bounds_hold_at_the_extremes() {
        let size = by_long("sample-size").unwrap();
        assert!(size.check("10").is_ok());
        assert!(size.check("100000").is_ok());
        for bad in [
            "9",
            "100001",
            "18446744073709551615",
            "100000000000",
            "-1",
            "abc",
            "",
        ] {
            assert_eq!(
                size.check(bad).unwrap_err(),
                "an integer from 10 to 100000",
                "{bad}"
            );
        }
        let noise = by_long("noise-threshold").unwrap();
        for bad in ["inf", "NaN", "-0.1", "1.5", "-inf"] {
            assert!(noise.check(bad).is_err(), "{bad}");
        }
        assert!(noise.check("0").is_ok() && noise.check("1").is_ok());
        let time = by_long("warm-up-time").unwrap();
        for bad in ["0", "1e300", "86401", "nan"] {
            assert!(time.check(bad).is_err(), "{bad}");
        }
        let confidence = by_long("confidence").unwrap();
        assert!(confidence.check("95").is_ok());
        assert!(confidence.check("85").is_err());
        assert_eq!(by_short('s').unwrap().long, "save-baseline");
        assert_eq!(size.env_var(), "YARDSTICK_SAMPLE_SIZE");
    }
}
