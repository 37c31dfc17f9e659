//! The yardstick user guide's code blocks as doc tests.
//!
//! Each chapter of `src/` is included below as the documentation of an
//! empty item, only when rustdoc collects doc tests, so every Rust block of
//! the guide is compiled against the workspace's crates by
//! `cargo test --workspace --doc`. Blocks that are not Rust carry their
//! language (`toml`, `sh`, `text`), which rustdoc skips; `tests/book.rs`
//! checks that no block is left without one and that every chapter listed in
//! `src/SUMMARY.md` is included here.

/// Includes each chapter as the doc comment of a private item.
macro_rules! chapters {
    ($($name:ident = $path:literal;)*) => {
        $(
            #[cfg(doctest)]
            #[doc = include_str!($path)]
            #[allow(dead_code)]
            struct $name;
        )*
    };
}

chapters! {
    Introduction = "src/introduction.md";
    GettingStarted = "src/getting-started.md";
    Measurement = "src/measurement.md";
    Verdicts = "src/verdicts.md";
    CommandLine = "src/command-line.md";
    Measurements = "src/measurements.md";
    Comparing = "src/comparing.md";
    OutputFormats = "src/output-formats.md";
    Templates = "src/templates.md";
    Reports = "src/reports.md";
    Async = "src/async.md";
    Nanobench = "src/nanobench.md";
    Callgrind = "src/callgrind.md";
    Divan = "src/divan.md";
    Files = "src/files.md";
    Failures = "src/failures.md";
    CargoYardstick = "src/cargo-yardstick.md";
    HistorySite = "src/history-site.md";
    Ab = "src/ab.md";
    Exec = "src/exec.md";
    Configuration = "src/configuration.md";
    Statistics = "src/statistics.md";
    QuietMachine = "src/quiet-machine.md";
    Explain = "src/explain.md";
    Ci = "src/ci.md";
    Sharding = "src/sharding.md";
    MigrationCriterion = "src/migration/criterion.md";
    MigrationIaiCallgrind = "src/migration/iai-callgrind.md";
    MigrationDivan = "src/migration/divan.md";
    MigrationOthers = "src/migration/others.md";
    Trust = "src/trust.md";
    Measured = "src/measured.md";
}
