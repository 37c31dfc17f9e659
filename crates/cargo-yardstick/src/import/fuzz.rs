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
