//! Property tests: no input panics any importer; it parses or says why.

use proptest::prelude::*;

use super::{parse_text, Format};

const FORMATS: [Format; 7] = [
    Format::CargoCriterion,
    Format::GoogleBenchmark,
    Format::Nanobench,
    Format::Pyperf,
    Format::Hyperfine,
    Format::IaiCallgrind,
    Format::TastyBench,
];

/// Fragments of the real formats, so the generator reaches deep paths.
const PIECES: [&str; 24] = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"results\"",
    "\"benchmarks\"",
    "\"runs\"",
    "\"values\"",
    "\"times\"",
    "\"measurements\"",
    "\"iterations\"",
    "\"elapsed\"",
    "\"name\"",
    "\"command\"",
    "\"Ir\"",
    "\"new\"",
    "0",
    "-1",
    "1e400",
    "\"reason\":\"benchmark-complete\"",
    "\n",
    "Name,Mean (ps),2*Stdev (ps)\n",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        for f in FORMATS {
            let _ = parse_text(f, &text);
        }
    }

    #[test]
    fn format_shaped_text_never_panics(idx in prop::collection::vec(0..PIECES.len(), 0..60)) {
        let text: String = idx.iter().map(|&i| PIECES[i]).collect();
        for f in FORMATS {
            let _ = parse_text(f, &text);
        }
    }

    #[test]
    fn truncated_real_files_never_panic(cut in 0usize..4000) {
        for (f, text) in [
            (Format::Pyperf, include_str!("../../tests/fixtures/pyperf/timeit.json")),
            (Format::Hyperfine, include_str!("../../tests/fixtures/hyperfine/two.json")),
            (Format::GoogleBenchmark, include_str!("../../tests/fixtures/google-benchmark/repetitions.json")),
            (Format::Nanobench, include_str!("../../tests/fixtures/nanobench/json_template.json")),
            (Format::IaiCallgrind, include_str!("../../tests/fixtures/iai-callgrind/summary.json")),
            (Format::CargoCriterion, include_str!("../../tests/fixtures/cargo-criterion/messages.jsonl")),
            (Format::TastyBench, include_str!("../../tests/fixtures/tasty-bench/results.csv")),
        ] {
            let mut end = cut.min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let _ = parse_text(f, &text[..end]);
        }
    }
}

/// The files of a Criterion.rs home, to build random trees from.
mod criterion_home {
    use std::path::Path;

    use proptest::prelude::*;

    use super::super::{import, read_baseline, Format};

    const BENCHMARK: &str =
        include_str!("../../tests/fixtures/criterion/home/fib_10/new/benchmark.json");
    const ESTIMATES: &str =
        include_str!("../../tests/fixtures/criterion/home/fib_10/new/estimates.json");
    const SAMPLE: &str = include_str!("../../tests/fixtures/criterion/home/fib_10/new/sample.json");

    /// Folders a home holds: benchmarks at one and two levels, their
    /// baselines, a `new` at the top, a file's name used as a folder.
    const DIRS: [&str; 12] = [
        "",
        "b",
        "b/new",
        "b/base",
        "b/main",
        "b/change",
        "g/f",
        "g/f/new",
        "g/f/base",
        "new",
        "b/new/sample.json",
        "b/report",
    ];
    const FILES: [&str; 6] = [
        "benchmark.json",
        "sample.json",
        "estimates.json",
        "raw.csv",
        "tukey.json",
        "new",
    ];
    /// Numbers that break arithmetic: zero, negative, tiny, huge.
    const NUMBERS: [&str; 10] = [
        "0", "-1", "1", "2.5", "1e-300", "5e-324", "1e300", "1.7e308", "1e400", "\"1\"",
    ];
    const MODES: [&str; 4] = ["\"Linear\"", "\"Flat\"", "\"Other\"", "null"];
    const IDS: [&str; 6] = ["\"fib\"", "\"\"", "\"../../x\"", "\"/abs\"", "null", "7"];

    /// One file's text.
    #[derive(Debug, Clone)]
    enum Content {
        /// A real file cut short.
        Truncated(usize, usize),
        /// A sample with chosen numbers.
        Sample(usize, Vec<usize>, Vec<usize>),
        /// Estimates whose numbers are replaced.
        Estimates(usize),
        /// A benchmark record with chosen ids.
        Record(usize, usize),
        /// Arbitrary bytes, not necessarily UTF-8.
        Bytes(Vec<u8>),
    }

    fn text(c: &Content) -> Vec<u8> {
        match c {
            Content::Truncated(which, cut) => {
                let t = [BENCHMARK, ESTIMATES, SAMPLE][which % 3].as_bytes();
                t[..(*cut).min(t.len())].to_vec()
            }
            Content::Sample(mode, iters, times) => {
                let list = |xs: &[usize]| {
                    xs.iter()
                        .map(|&i| NUMBERS[i % NUMBERS.len()])
                        .collect::<Vec<_>>()
                        .join(",")
                };
                format!(
                    r#"{{"sampling_mode":{},"iters":[{}],"times":[{}]}}"#,
                    MODES[mode % MODES.len()],
                    list(iters),
                    list(times)
                )
                .into_bytes()
            }
            Content::Estimates(n) => {
                // Each number after a colon: kept, or replaced by one of
                // NUMBERS, as the bits of `n` say.
                let mut k = *n;
                let mut out = String::new();
                let mut rest = ESTIMATES;
                while let Some(i) = rest.find(':') {
                    out.push_str(&rest[..=i]);
                    rest = &rest[i + 1..];
                    let end = rest
                        .find(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))
                        .unwrap_or(rest.len());
                    if end > 0 && k % 3 == 0 {
                        out.push_str(NUMBERS[(k / 3) % NUMBERS.len()]);
                    } else {
                        out.push_str(&rest[..end]);
                    }
                    k = k / 3 + (k % 7) * 1_000;
                    rest = &rest[end..];
                }
                out.push_str(rest);
                out.into_bytes()
            }
            Content::Record(a, b) => BENCHMARK
                .replacen("\"fib_10\"", IDS[a % IDS.len()], 1)
                .replacen("\"fib_10\"", IDS[b % IDS.len()], 1)
                .into_bytes(),
            Content::Bytes(b) => b.clone(),
        }
    }

    fn content() -> impl Strategy<Value = Content> {
        prop_oneof![
            (0usize..3, 0usize..800).prop_map(|(w, c)| Content::Truncated(w, c)),
            (
                0usize..4,
                prop::collection::vec(0usize..10, 0..6),
                prop::collection::vec(0usize..10, 0..6)
            )
                .prop_map(|(m, i, t)| Content::Sample(m, i, t)),
            (0usize..1_000_000).prop_map(Content::Estimates),
            (0usize..6, 0usize..6).prop_map(|(a, b)| Content::Record(a, b)),
            prop::collection::vec(any::<u8>(), 0..64).prop_map(Content::Bytes),
        ]
    }

    fn build(home: &Path, entries: &[(usize, usize, Content)], link: bool, valid: bool) {
        if valid {
            // Start from whole benchmarks, so corruptions hit readable ones.
            for b in ["b", "g/f"] {
                for (sub, files) in [
                    (
                        "new",
                        &[
                            ("benchmark.json", BENCHMARK),
                            ("estimates.json", ESTIMATES),
                            ("sample.json", SAMPLE),
                        ][..],
                    ),
                    ("base", &[("sample.json", SAMPLE)][..]),
                ] {
                    let dir = home.join(b).join(sub);
                    std::fs::create_dir_all(&dir).unwrap();
                    for (name, text) in files {
                        std::fs::write(dir.join(name), text).unwrap();
                    }
                }
            }
        }
        for (d, f, c) in entries {
            let dir = home.join(DIRS[d % DIRS.len()]);
            // A name already taken by a file stays a file.
            if std::fs::create_dir_all(&dir).is_err() {
                continue;
            }
            let path = dir.join(FILES[f % FILES.len()]);
            if !path.is_dir() {
                let _ = std::fs::write(&path, text(c));
            }
        }
        #[cfg(unix)]
        if link {
            // A folder linking to its parent: a loop for a careless walk.
            let _ = std::fs::create_dir_all(home.join("b"));
            let _ = std::os::unix::fs::symlink(home, home.join("b").join("loop"));
        }
        #[cfg(not(unix))]
        let _ = link;
    }

    fn clear(e: &str, home: &Path) {
        assert!(
            e.starts_with(&home.display().to_string()),
            "the error does not name the folder: {e}"
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// A random tree of Criterion.rs files (cut short, wrong numbers,
        /// wrong types, folders where files belong, a symlink loop) is read
        /// or refused with one line naming the folder, never a panic; what
        /// is read has finite values.
        #[test]
        fn a_random_home_never_panics(
            entries in prop::collection::vec((0usize..12, 0usize..6, content()), 0..14),
            link in any::<bool>(),
            valid in any::<bool>(),
        ) {
            let tmp = tempfile::tempdir().unwrap();
            let home = tmp.path().join("home");
            std::fs::create_dir_all(&home).unwrap();
            build(&home, &entries, link, valid);
            match import(Format::Criterion, &home) {
                Ok(rs) => {
                    prop_assert!(!rs.is_empty());
                    for r in &rs {
                        prop_assert!(r.typical.point.is_finite(), "{r:?}");
                        prop_assert_eq!(r.iters.len(), r.values.len());
                    }
                }
                Err(e) => clear(&e, &home),
            }
            for name in ["base", "main"] {
                match read_baseline(&home, name) {
                    Ok(rs) => prop_assert!(rs.iter().all(|r| r.typical.point.is_finite())),
                    Err(e) => clear(&e, &home),
                }
            }
        }
    }

    /// Per-iteration values that overflow (a huge time over a tiny count)
    /// are refused, not stored as an infinite or NaN typical value.
    #[test]
    fn overflowing_samples_are_not_read() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        let overflow =
            r#"{"sampling_mode":"Flat","iters":[5e-324,1e-300],"times":[1.7e308,1e300]}"#;
        for sub in ["new", "base"] {
            std::fs::create_dir_all(home.join("b").join(sub)).unwrap();
            std::fs::write(home.join("b").join(sub).join("sample.json"), overflow).unwrap();
        }
        std::fs::write(home.join("b/new/benchmark.json"), BENCHMARK).unwrap();
        std::fs::write(home.join("b/new/estimates.json"), ESTIMATES).unwrap();
        for name in ["new", "base"] {
            let e = read_baseline(home, name).unwrap_err();
            assert!(
                e.contains(&format!("no benchmark with a readable '{name}' folder")),
                "{e}"
            );
        }
    }

    #[test]
    fn a_missing_or_plain_file_home_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("missing");
        let e = import(Format::Criterion, &missing).unwrap_err();
        clear(&e, &missing);
        assert!(e.contains("not a directory"), "{e}");
        let file = tmp.path().join("file");
        std::fs::write(&file, SAMPLE).unwrap();
        let e = import(Format::Criterion, &file).unwrap_err();
        clear(&e, &file);
    }
}
