#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[doc(hidden)]
pub mod __private;
mod alloc;
mod bencher;
mod cli;
pub mod counter;
mod precision;
mod run;
mod table;
mod tree;

pub use crate::alloc::AllocProfiler;
pub use crate::bencher::{Bencher, BencherConfig, InputBencher};
pub use std::hint::black_box;
pub use yardstick_divan_macros::{bench, bench_group};

/// Drops `value` where the optimiser cannot see it (as
/// `drop(black_box(value))`).
#[inline]
pub fn black_box_drop<T>(value: T) {
    drop(black_box(value));
}

/// Runs every registered benchmark with the options of the command line.
///
/// A bad option prints one line naming it and exits with status 2; a
/// failed benchmark makes the binary exit with status 1 at the end.
pub fn main() {
    Divan::from_args().main();
}

/// The run's settings: from the command line ([`Divan::from_args`]) or
/// made in code, where the command line still wins.
#[derive(Debug, Clone, Default)]
pub struct Divan {
    args: cli::Args,
}

impl Divan {
    /// The settings of the command line and the `DIVAN_*` variables.
    pub fn from_args() -> Divan {
        let env: Vec<(String, String)> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect();
        match cli::parse(std::env::args_os().skip(1).collect(), &env) {
            Ok(args) => Divan { args },
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        }
    }

    /// Samples per benchmark.
    #[must_use]
    pub fn sample_count(mut self, n: u32) -> Divan {
        self.args.options.sample_count = Some(n);
        self
    }

    /// Iterations per sample.
    #[must_use]
    pub fn sample_size(mut self, n: u32) -> Divan {
        self.args.options.sample_size = Some(n);
        self
    }

    /// Thread counts of every benchmark (0: available parallelism).
    #[must_use]
    pub fn threads<T: IntoIterator<Item = usize>>(mut self, counts: T) -> Divan {
        let mut v: Vec<usize> = counts.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        self.args.options.threads = Some(v.into());
        self
    }

    /// Least sampling time per benchmark.
    #[must_use]
    pub fn min_time(mut self, t: std::time::Duration) -> Divan {
        self.args.options.min_time = Some(t);
        self
    }

    /// Most sampling time per benchmark.
    #[must_use]
    pub fn max_time(mut self, t: std::time::Duration) -> Divan {
        self.args.options.max_time = Some(t);
        self
    }

    /// Reads the command line over the settings made so far (it wins).
    #[must_use]
    pub fn config_with_args(self) -> Divan {
        let mut from_cli = Divan::from_args().args;
        from_cli.options = from_cli.options.over(&self.args.options);
        Divan { args: from_cli }
    }

    /// Skips the benchmark's time outside the benchmarked function (input
    /// generation, drops) when checking `min_time`/`max_time`.
    #[must_use]
    pub fn skip_ext_time(mut self, skip: bool) -> Divan {
        self.args.options.skip_ext_time = Some(skip);
        self
    }

    /// Sets a counter for every benchmark.
    #[must_use]
    pub fn counter<C: counter::IntoCounter>(mut self, counter: C) -> Divan {
        self.args.options.counters.push(counter);
        self
    }

    /// Items processed per iteration, for every benchmark.
    #[must_use]
    pub fn items_count<C: Into<counter::ItemsCount>>(self, count: C) -> Divan {
        self.counter(count.into())
    }

    /// Bytes processed per iteration, for every benchmark.
    #[must_use]
    pub fn bytes_count<C: Into<counter::BytesCount>>(self, count: C) -> Divan {
        self.counter(count.into())
    }

    /// Characters processed per iteration, for every benchmark.
    #[must_use]
    pub fn chars_count<C: Into<counter::CharsCount>>(self, count: C) -> Divan {
        self.counter(count.into())
    }

    /// Cycles per iteration, for every benchmark.
    #[must_use]
    pub fn cycles_count<C: Into<counter::CyclesCount>>(self, count: C) -> Divan {
        self.counter(count.into())
    }

    /// How byte rates are written.
    #[must_use]
    pub fn bytes_format(mut self, format: counter::BytesFormat) -> Divan {
        self.args.bytes_format = format;
        self
    }

    /// Colours on (`true`), off (`false`) or when writing to a terminal
    /// (`None`).
    #[must_use]
    pub fn color(mut self, yes: impl Into<Option<bool>>) -> Divan {
        self.args.color = yes
            .into()
            .map(|y| if y { "always" } else { "never" }.to_owned());
        self
    }

    /// Runs ignored benchmarks too.
    #[must_use]
    pub fn run_ignored(mut self) -> Divan {
        self.args.include_ignored = true;
        self.args.ignored = false;
        self
    }

    /// Runs only ignored benchmarks.
    #[must_use]
    pub fn run_only_ignored(mut self) -> Divan {
        self.args.ignored = true;
        self.args.include_ignored = false;
        self
    }

    /// Skips benchmarks whose path matches the regular expression `filter`.
    #[must_use]
    pub fn skip_regex(mut self, filter: impl Into<String>) -> Divan {
        self.args.skips.push(filter.into());
        self
    }

    /// Skips the benchmark with exactly this path.
    #[must_use]
    pub fn skip_exact(mut self, filter: impl Into<String>) -> Divan {
        self.args
            .skips
            .push(format!("^{}$", regex_lite::escape(&filter.into())));
        self
    }

    /// Runs the benchmarks (measures, or tests them under `cargo test`).
    pub fn main(&self) {
        self.run(&[]);
    }

    /// Measures the benchmarks, whatever the command line says.
    pub fn run_benches(&self) {
        self.run(&["--bench"]);
    }

    /// Runs each benchmark once.
    pub fn test_benches(&self) {
        self.run(&["--test"]);
    }

    /// Lists the benchmarks.
    pub fn list_benches(&self) {
        let mut d = self.clone();
        d.args.list = true;
        d.run(&[]);
    }

    fn run(&self, extra: &[&str]) {
        let stem = std::env::args()
            .next()
            .and_then(|p| {
                Some(
                    std::path::Path::new(&p)
                        .file_stem()?
                        .to_string_lossy()
                        .into_owned(),
                )
            })
            .unwrap_or_default();
        let title = title(&stem, tree::bench_crate());
        let mut args = self.args.clone();
        if let Some(color) = &args.color {
            args.forward.push(format!("--color={color}").into());
        }
        args.forward
            .extend(extra.iter().map(std::ffi::OsString::from));
        run::main(&args, &title);
    }
}

/// The tree's title, which the engine's ids start with: the bench binary's
/// name as cargo names it (`name-<16 hex digits>`, the hash dropped). A
/// copy under another name (the baseline's kept binary, which lock-step
/// and `--explain` run) would otherwise name other benchmarks than the
/// ones it measured: it takes the bench crate's name, which the binary
/// carries (cargo names the binary after it), else its file name.
fn title(stem: &str, bench_crate: &str) -> String {
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name.to_owned()
        }
        _ if !bench_crate.is_empty() => bench_crate.to_owned(),
        _ => stem.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_copy_of_the_binary_keeps_its_title() {
        // As cargo names it.
        assert_eq!(super::title("forms-0123456789abcdef", "forms"), "forms");
        // The kept copy (`<hash>-<size>`): the bench crate's name, so its
        // ids are the ones the baseline was measured under.
        assert_eq!(super::title("a5a9e39cdda65877-14578872", "forms"), "forms");
        // Nothing registered to name it by: the file's name.
        assert_eq!(super::title("mybench", ""), "mybench");
    }
}
