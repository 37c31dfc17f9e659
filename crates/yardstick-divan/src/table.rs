//! divan's tree table: a row per node, with fastest │ slowest │ median │
//! mean │ samples │ iters for benchmarks, and rows of counters and
//! allocations under them.

use std::time::Duration;

use crate::bencher::{Sample, ALLOC_ROWS};
use crate::counter::{four_digits, AnyCounter, BytesFormat, CounterSet};

/// Width of each statistic column.
const CELL: usize = 13;

/// A time per iteration in nanoseconds, in divan's units.
pub(crate) fn time(ns: f64) -> String {
    let unit =
        yardstick_format::units::TimeUnit::for_nanos(ns, yardstick_format::units::TimeUnit::Ns);
    format!("{} {}", four_digits(unit.scale(ns)), unit.symbol())
}

/// The tree-drawing prefix of a node: `last` says, for each ancestor and
/// then the node, whether it is the last of its siblings.
pub(crate) fn prefix(last: &[bool]) -> String {
    let mut s = String::new();
    if let Some((own, ancestors)) = last.split_last() {
        for &l in ancestors {
            s.push_str(if l { "   " } else { "│  " });
        }
        s.push_str(if *own { "╰─ " } else { "├─ " });
    }
    s
}

/// The prefix of the rows under a node (its counters and allocations).
pub(crate) fn continuation(last: &[bool]) -> String {
    last.iter()
        .map(|&l| if l { "   " } else { "│  " })
        .collect()
}

/// One line: label padded to `width`, then the cells.
pub(crate) fn line(label: &str, width: usize, cells: &[String; 6]) -> String {
    let pad = width.saturating_sub(label.chars().count());
    let mut s = format!("{label}{}  ", " ".repeat(pad));
    for c in &cells[..4] {
        s.push_str(&format!("{c:<CELL$} │ "));
    }
    s.push_str(&format!("{:<7} │ {}", cells[4], cells[5]));
    s.trim_end().to_owned()
}

/// The header line.
pub(crate) fn header(title: &str, width: usize) -> String {
    let cells = ["fastest", "slowest", "median", "mean", "samples", "iters"].map(str::to_owned);
    line(title, width, &cells)
}

/// The row of a benchmark not run: in the table, or in a tree without
/// columns (`--list`, a test run).
pub(crate) fn ignored(label: &str, width: usize, columns: bool) -> String {
    if !columns {
        return format!("{label:<width$}  (ignored)");
    }
    let mut cells: [String; 6] = Default::default();
    cells[0] = "(ignored)".to_owned();
    line(label, width, &cells)
}

/// An empty row for a node without results.
pub(crate) fn empty(label: &str, width: usize) -> String {
    let cells: [String; 6] = Default::default();
    line(label, width, &cells)
}

/// The statistics of one benchmark's samples, per iteration.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stats {
    /// Per-iteration nanoseconds of the fastest, slowest and median sample.
    pub fastest: f64,
    pub slowest: f64,
    pub median: f64,
    /// Total time over total iterations.
    pub mean: f64,
    pub samples: usize,
    pub iters: u64,
    /// Indices of the fastest and slowest samples, and of the two middle
    /// ones by time (the same one when the count is odd).
    order: [usize; 4],
}

impl Stats {
    /// `None` without samples.
    pub(crate) fn of(samples: &[Sample]) -> Option<Stats> {
        if samples.is_empty() {
            return None;
        }
        let per: Vec<f64> = samples
            .iter()
            .map(|s| s.time.as_nanos() as f64 / s.iters.max(1) as f64)
            .collect();
        let mut idx: Vec<usize> = (0..per.len()).collect();
        idx.sort_unstable_by(|&a, &b| per[a].total_cmp(&per[b]).then(a.cmp(&b)));
        let n = idx.len();
        let median = yardstick_stats::univariate::median(&per).unwrap_or(f64::NAN);
        let total: Duration = samples.iter().map(|s| s.time).sum();
        let iters: u64 = samples.iter().map(|s| s.iters).sum();
        Some(Stats {
            fastest: per[idx[0]],
            slowest: per[idx[n - 1]],
            median,
            mean: total.as_nanos() as f64 / iters.max(1) as f64,
            samples: n,
            iters,
            order: [idx[0], idx[n - 1], idx[(n - 1) / 2], idx[n / 2]],
        })
    }

    /// The cells of the time row.
    pub(crate) fn time_cells(&self) -> [String; 6] {
        [
            time(self.fastest),
            time(self.slowest),
            time(self.median),
            time(self.mean),
            self.samples.to_string(),
            self.iters.to_string(),
        ]
    }

    /// The rows under the time row: one per counter (rates), then the
    /// allocations when any were counted.
    pub(crate) fn extra_rows(
        &self,
        samples: &[Sample],
        counters: &CounterSet,
        bytes_format: BytesFormat,
    ) -> Vec<[String; 6]> {
        let mut rows = Vec::new();
        let times = [self.fastest, self.slowest, self.median, self.mean];
        let mut all: Vec<(AnyCounter, f64)> = counters
            .counters
            .iter()
            .map(|c| (*c, c.count as f64))
            .collect();
        // Per-input counters: the mean count per iteration over the samples.
        if let Some(first) = samples.first() {
            for (k, (c, _)) in first.input_counts.iter().enumerate() {
                let (total, iters) = samples.iter().fold((0u128, 0u64), |(t, i), s| {
                    (t + s.input_counts.get(k).map_or(0, |x| x.1), i + s.iters)
                });
                all.retain(|(x, _)| x.kind != c.kind);
                all.push((*c, total as f64 / iters.max(1) as f64));
            }
        }
        for (c, count) in all {
            let cells = times.map(|t| c.rate(count, t, bytes_format));
            rows.push([
                cells[0].clone(),
                cells[1].clone(),
                cells[2].clone(),
                cells[3].clone(),
                String::new(),
                String::new(),
            ]);
        }
        rows.extend(self.alloc_rows(samples, bytes_format));
        rows
    }

    /// divan's allocation rows (see [`ALLOC_ROWS`]): a label row, then the
    /// count and the bytes per iteration of the fastest and slowest
    /// samples, of the middle one (the mean of the middle two for an even
    /// count, as divan's median), and of all samples together. As divan,
    /// the peak row is left out when its bytes are zero in every column,
    /// the others when both their counts and bytes are.
    fn alloc_rows(&self, samples: &[Sample], bytes_format: BytesFormat) -> Vec<[String; 6]> {
        let iters: u64 = samples.iter().map(|s| s.iters).sum();
        let per = |i: usize, row: usize, k: usize| {
            let s = &samples[i];
            s.alloc[row][k] as f64 / s.iters.max(1) as f64
        };
        let pick = |row: usize, k: usize| -> [f64; 4] {
            let total: i128 = samples.iter().map(|s| s.alloc[row][k]).sum();
            let [fastest, slowest, lower, upper] = self.order;
            let median = if lower == upper {
                per(lower, row, k)
            } else {
                (per(lower, row, k) + per(upper, row, k)) / 2.0
            };
            [
                per(fastest, row, k),
                per(slowest, row, k),
                median,
                total as f64 / iters.max(1) as f64,
            ]
        };
        // divan indents the first column's values under their label.
        let values = |c: [String; 4]| -> [String; 6] {
            let [a, b, c, d] = c;
            [format!("  {a}"), b, c, d, String::new(), String::new()]
        };
        let zero = |v: &[f64; 4]| v.iter().all(|&x| x == 0.0);
        let mut rows = Vec::new();
        for (row, name) in ALLOC_ROWS.iter().enumerate() {
            let (count, size) = (pick(row, 0), pick(row, 1));
            let hidden = if row == 0 {
                zero(&size)
            } else {
                zero(&count) && zero(&size)
            };
            if hidden {
                continue;
            }
            let mut label: [String; 6] = Default::default();
            label[0] = (*name).to_owned();
            rows.push(label);
            rows.push(values(count.map(truncated)));
            rows.push(values(size.map(|b| alloc_bytes(b, bytes_format))));
        }
        rows
    }
}

/// `v` as divan prints allocation figures: cut (not rounded) to four
/// significant digits counting those before the point, so 2/3 reads
/// `0.666` and 1166.67 reads `1166`; trailing zeros dropped.
pub(crate) fn truncated(v: f64) -> String {
    // `to_string` is the shortest form that reads back the same, never in
    // exponent form.
    let s = v.to_string();
    let Some(point) = s.find('.') else {
        return s;
    };
    let decimals = 4usize.saturating_sub(point);
    let end = (point + 1 + decimals).min(s.len());
    s[..end]
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_owned()
}

/// Bytes as divan prints them in the allocation rows: `B`, then `KB`, `MB`…
/// from 1000, or `KiB`, `MiB`… from 1024, with [`truncated`] digits.
pub(crate) fn alloc_bytes(b: f64, format: BytesFormat) -> String {
    let (base, units): (f64, _) = match format {
        BytesFormat::Decimal => (1000.0, ["B", "KB", "MB", "GB", "TB", "PB"]),
        BytesFormat::Binary => (1024.0, ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]),
    };
    // The largest unit the value reaches, then one division by its size
    // (exact: the powers fit in an f64's mantissa), as divan scales.
    let mut unit = 0;
    while b.is_finite() && unit + 1 < units.len() && b >= base.powi(unit as i32 + 1) {
        unit += 1;
    }
    format!("{} {}", truncated(b / base.powi(unit as i32)), units[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(iters: u64, ns: u64) -> Sample {
        Sample {
            iters,
            time: Duration::from_nanos(ns),
            ..Sample::default()
        }
    }

    #[test]
    fn four_significant_digits() {
        assert_eq!(four_digits(1.23456), "1.235");
        assert_eq!(four_digits(123.456), "123.5");
        assert_eq!(four_digits(0.2091), "0.2091");
        assert_eq!(four_digits(1500.0), "1500");
        assert_eq!(four_digits(2.5), "2.5");
        assert_eq!(time(1234.0), "1.234 µs");
        assert_eq!(time(2.0e9), "2 s");
    }

    #[test]
    fn statistics_per_iteration() {
        // Per iteration: 10, 30, 20, 40 ns; median (20 + 30) / 2 = 25;
        // mean = (100 + 300 + 200 + 400) / 40 = 25.
        let s = [
            sample(10, 100),
            sample(10, 300),
            sample(10, 200),
            sample(10, 400),
        ];
        let st = Stats::of(&s).unwrap();
        assert_eq!(
            (st.fastest, st.slowest, st.median, st.mean),
            (10.0, 40.0, 25.0, 25.0)
        );
        assert_eq!((st.samples, st.iters), (4, 40));
        assert!(Stats::of(&[]).is_none());
    }

    #[test]
    fn allocation_figures_are_cut_as_divan_cuts_them() {
        assert_eq!(truncated(2.0 / 3.0), "0.666");
        assert_eq!(truncated(0.25), "0.25");
        assert_eq!(truncated(1.0), "1");
        assert_eq!(truncated(0.0), "0");
        assert_eq!(truncated(85.333_333), "85.33");
        assert_eq!(truncated(1166.666), "1166");
        assert_eq!(truncated(12_345.6), "12345");
        assert_eq!(truncated(1.000_04), "1");
        assert_eq!(truncated(0.000_01), "0");
        let dec = BytesFormat::Decimal;
        assert_eq!(alloc_bytes(999.9, dec), "999.9 B");
        assert_eq!(alloc_bytes(3_500.0, dec), "3.5 KB");
        assert_eq!(alloc_bytes(3_500.0 / 3.0, dec), "1.166 KB");
        assert_eq!(alloc_bytes(3_300_000.0, dec), "3.3 MB");
        let bin = BytesFormat::Binary;
        assert_eq!(alloc_bytes(1_000.0, bin), "1000 B");
        assert_eq!(alloc_bytes(1_536.0, bin), "1.5 KiB");
        assert_eq!(alloc_bytes(3.0 * 1024.0 * 1024.0, bin), "3 MiB");
    }

    /// The rows of a sample of 4 iterations of a body that makes a
    /// `Vec<u8>` with room for 100, reserves room for 200 (a grow of 100
    /// bytes), shrinks it to 10 (a shrink of 190) and drops it (10 bytes
    /// freed). At most 1 allocation and 200 bytes are live at once in the
    /// sample, which divan divides by the sample's iterations too: 0.25
    /// and 50 B. (`alloc::tests` counts the same body for real.)
    #[test]
    fn allocation_rows_by_hand() {
        let per_sample = Sample {
            alloc: [[1, 200], [4, 400], [4, 40], [4, 400], [4, 760]],
            ..sample(4, 400)
        };
        let samples = [per_sample.clone(), per_sample.clone(), per_sample];
        let st = Stats::of(&samples).unwrap();
        let rows = st.extra_rows(&samples, &CounterSet::default(), BytesFormat::Decimal);
        let text: Vec<String> = rows.iter().map(|r| line("", 0, r)).collect();
        let row = |first: &str, rest: &str| {
            format!("{first:<CELL$} │ {rest:<CELL$} │ {rest:<CELL$} │ {rest:<CELL$} │         │")
        };
        let label = |l: &str| row(l, "");
        let expected = [
            label("max alloc:"),
            row("  0.25", "0.25"),
            row("  50 B", "50 B"),
            label("alloc:"),
            row("  1", "1"),
            row("  100 B", "100 B"),
            label("dealloc:"),
            row("  1", "1"),
            row("  10 B", "10 B"),
            label("grow:"),
            row("  1", "1"),
            row("  100 B", "100 B"),
            label("shrink:"),
            row("  1", "1"),
            row("  190 B", "190 B"),
        ]
        .map(|l| format!("  {l}"));
        assert_eq!(text, expected);
        // Nothing allocated: no rows at all.
        let quiet = [sample(4, 400)];
        let st = Stats::of(&quiet).unwrap();
        assert!(st
            .extra_rows(&quiet, &CounterSet::default(), BytesFormat::Decimal)
            .is_empty());
    }

    #[test]
    fn tree_prefixes() {
        assert_eq!(prefix(&[false]), "├─ ");
        assert_eq!(prefix(&[true]), "╰─ ");
        assert_eq!(prefix(&[false, true]), "│  ╰─ ");
        assert_eq!(prefix(&[true, false]), "   ├─ ");
        assert_eq!(continuation(&[false, true]), "│     ");
    }

    #[test]
    fn rows_line_up() {
        let st = Stats::of(&[sample(100, 1000), sample(100, 2000)]).unwrap();
        assert_eq!(
            line("├─ add", 8, &st.time_cells()),
            "├─ add    10 ns         │ 20 ns         │ 15 ns         │ 15 ns         │ 2       │ 200"
        );
        assert_eq!(
            header("math", 8),
            "math      fastest       │ slowest       │ median        │ mean          │ samples │ iters"
        );
    }

    /// divan's tree table for a made-up suite: nested groups, arguments, a
    /// bytes and an items counter in both byte formats, and allocations.
    /// The text is the spec: a change of format shows as a reviewed diff.
    #[test]
    fn the_tree_table() {
        use crate::counter::{AnyCounter, CounterSet, Kind};
        let with_alloc = |iters, ns, alloc: [[i128; 2]; 5]| Sample {
            alloc,
            ..sample(iters, ns)
        };
        let plain = [sample(100, 1_000), sample(100, 1_200), sample(100, 1_100)];
        let allocating = [
            // [max alloc, alloc, dealloc, grow, shrink], [count, bytes].
            with_alloc(10, 5_000, [[1, 64], [10, 640], [10, 640], [0, 0], [0, 0]]),
            with_alloc(10, 7_000, [[1, 64], [10, 640], [10, 640], [0, 0], [0, 0]]),
            with_alloc(
                10,
                6_000,
                [[2, 128], [20, 1_280], [20, 1_280], [10, 640], [0, 0]],
            ),
        ];
        // Frees only (no peak above the start): an even count of samples,
        // so the median column is the mean of the middle two by time.
        let freeing = [
            with_alloc(4, 4_000, [[0, 0], [0, 0], [4, 8_192], [0, 0], [2, 100]]),
            with_alloc(4, 1_000, [[0, 0], [0, 0], [4, 4_096], [0, 0], [0, 0]]),
            with_alloc(4, 3_000, [[0, 0], [0, 0], [8, 8_192], [0, 0], [2, 100]]),
            with_alloc(4, 2_000, [[0, 0], [0, 0], [4, 4_096], [0, 0], [0, 0]]),
        ];
        let mut counters = CounterSet::default();
        counters.set(AnyCounter {
            kind: Kind::Bytes,
            count: 4_096,
        });
        counters.set(AnyCounter {
            kind: Kind::Items,
            count: 64,
        });
        let width = 17;
        let mut out = vec![header("workloads", width)];
        let leaf = |out: &mut Vec<String>,
                    last: &[bool],
                    label: &str,
                    samples: &[Sample],
                    c: &CounterSet,
                    f| {
            let st = Stats::of(samples).unwrap();
            out.push(line(
                &format!("{}{label}", prefix(last)),
                width,
                &st.time_cells(),
            ));
            for row in st.extra_rows(samples, c, f) {
                out.push(line(&continuation(last), width, &row));
            }
        };
        let none = CounterSet::default();
        leaf(
            &mut out,
            &[false],
            "add",
            &plain,
            &none,
            BytesFormat::Decimal,
        );
        leaf(
            &mut out,
            &[false],
            "alloc_vec",
            &allocating,
            &none,
            BytesFormat::Decimal,
        );
        leaf(
            &mut out,
            &[false],
            "frees",
            &freeing,
            &none,
            BytesFormat::Binary,
        );
        out.push(format!("{}copy", prefix(&[true])));
        leaf(
            &mut out,
            &[true, false],
            "4096",
            &plain,
            &counters,
            BytesFormat::Decimal,
        );
        leaf(
            &mut out,
            &[true, true],
            "4096 binary",
            &plain,
            &counters,
            BytesFormat::Binary,
        );
        out.push(empty(&format!("{}ignored", prefix(&[true, true])), width));
        insta::assert_snapshot!("divan_tree_table", out.join("\n"));
    }
}
