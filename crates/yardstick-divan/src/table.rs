//! divan's tree table: a row per node, with fastest │ slowest │ median │
//! mean │ samples │ iters for benchmarks, and rows of counters and
//! allocations under them.

use std::time::Duration;

use crate::bencher::Sample;
use crate::counter::{AnyCounter, BytesFormat, CounterSet};

/// Width of each statistic column.
const CELL: usize = 13;

/// `v` to 4 significant digits, without trailing zeros.
pub(crate) fn four_digits(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let digits = v.abs().log10().floor() as i32 + 1;
    let decimals = (4 - digits).clamp(0, 10) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// A time per iteration in nanoseconds, in divan's units.
pub(crate) fn time(ns: f64) -> String {
    let unit =
        yardstick_format::units::TimeUnit::for_nanos(ns, yardstick_format::units::TimeUnit::Ns);
    format!("{} {}", four_digits(unit.scale(ns)), unit.symbol())
}

fn bytes(b: f64, format: BytesFormat) -> String {
    match format {
        BytesFormat::Decimal => crate::counter::scaled(b, 1000.0, &["", "k", "M", "G", "T"], "B"),
        BytesFormat::Binary => {
            crate::counter::scaled(b, 1024.0, &["", "Ki", "Mi", "Gi", "Ti"], "B")
        }
    }
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
    for (i, c) in cells[..4].iter().enumerate() {
        let _ = i;
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
    /// Indices of the fastest, slowest and median samples.
    order: [usize; 3],
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
        idx.sort_by(|&a, &b| per[a].total_cmp(&per[b]));
        let mid = idx[(idx.len() - 1) / 2];
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
            order: [idx[0], idx[n - 1], mid],
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

    fn alloc_rows(&self, samples: &[Sample], bytes_format: BytesFormat) -> Vec<[String; 6]> {
        if samples.iter().all(|s| s.alloc[..4].iter().all(|&x| x == 0)) {
            return Vec::new();
        }
        let per = |s: &Sample, k: usize| s.alloc[k] as f64 / s.iters.max(1) as f64;
        let iters: u64 = samples.iter().map(|s| s.iters).sum();
        let mean = |k: usize| {
            samples.iter().map(|s| s.alloc[k]).sum::<i128>() as f64 / iters.max(1) as f64
        };
        let pick = |k: usize| -> [f64; 4] {
            [
                per(&samples[self.order[0]], k),
                per(&samples[self.order[1]], k),
                per(&samples[self.order[2]], k),
                mean(k),
            ]
        };
        // Freed bytes: allocated minus the change of live bytes.
        let freed = |s: &Sample| (s.alloc[3] - s.alloc[4]) as f64 / s.iters.max(1) as f64;
        let freed_mean = samples
            .iter()
            .map(|s| s.alloc[3] - s.alloc[4])
            .sum::<i128>() as f64
            / iters.max(1) as f64;
        let freed_all = [
            freed(&samples[self.order[0]]),
            freed(&samples[self.order[1]]),
            freed(&samples[self.order[2]]),
            freed_mean,
        ];
        let mut rows = Vec::new();
        let label = |name: &str| {
            [
                name.to_owned(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ]
        };
        // divan indents the first column's values under their label.
        let values = |c: [String; 4]| -> [String; 6] {
            let [a, b, c, d] = c;
            [format!("  {a}"), b, c, d, String::new(), String::new()]
        };
        let counts = |v: [f64; 4]| values(v.map(four_digits));
        let sizes = |v: [f64; 4]| values(v.map(|b| bytes(b, bytes_format)));
        for (name, count, size) in [
            ("alloc:", pick(0), Some(pick(3))),
            ("dealloc:", pick(1), Some(freed_all)),
            ("realloc:", pick(2), None),
        ] {
            if count.iter().all(|&c| c == 0.0) {
                continue;
            }
            rows.push(label(name));
            rows.push(counts(count));
            if let Some(s) = size {
                rows.push(sizes(s));
            }
        }
        rows
    }
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
        let with_alloc = |iters, ns, alloc: [i128; 5]| Sample {
            alloc,
            ..sample(iters, ns)
        };
        let plain = [sample(100, 1_000), sample(100, 1_200), sample(100, 1_100)];
        let allocating = [
            with_alloc(10, 5_000, [10, 10, 0, 640, 0]),
            with_alloc(10, 7_000, [10, 10, 0, 640, 0]),
            with_alloc(10, 6_000, [20, 20, 10, 1_280, 0]),
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
