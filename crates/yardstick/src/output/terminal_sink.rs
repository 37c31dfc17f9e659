//! The terminal as a sink: each benchmark's lines in the chosen format, a
//! group's Big-O fits and ratios, and the run's closing lines.

use super::sink::{GroupEnd, Outcome, PairedEnd, RunEnd, Sink};
use super::{Completed, Terminal};
use crate::cli::OutputFormat;
use crate::engine::RunSettings;
use crate::store::SavedSample;

/// What the terminal keeps between benchmarks.
#[derive(Default)]
pub(crate) struct Lines {
    /// The nanobench table's last header key: it is printed again only when
    /// the columns change.
    last_header: Option<String>,
    /// Some benchmark measured metrics beside time.
    metered: bool,
}

impl Sink for Lines {
    fn benchmark(&mut self, run: &RunSettings, o: &Outcome<'_>) {
        let terminal = run.terminal();
        self.metered |= !o.metrics.is_empty();
        let failure = &o.failure;
        // tasty-bench says a failed limit on the benchmark's own line.
        if failure.is_none() || !run.output_format.is_tasty() {
            if let Some(f) = failure {
                terminal.failure(&o.id.full_id, f);
            }
        }
        if run.hide_successes && failure.is_none() {
            return;
        }
        let baseline = o.baseline.map(SavedSample::averages);
        let completed = Completed {
            title: &o.id.title,
            analysis: o.analysis,
            throughput: o.id.throughput,
            formatter: o.formatter,
            unit: o.unit,
            significance: o.config.significance_level,
            confidence: o.config.confidence_level,
            noise_threshold: o.drift.unwrap_or(o.config.noise_threshold),
            baseline: baseline.as_deref(),
            ratio_to_baseline: o.ratio,
            failure: failure.clone(),
            elapsed: o.elapsed,
            metrics: o.metrics,
            drift: o.drift,
            optimised_away: o.optimised_away,
        };
        let key = super::table::unit_of(o.id.throughput).0;
        let header = self.last_header.as_deref() != Some(key);
        self.last_header = Some(key.to_owned());
        terminal.complete(&completed, header);
    }

    fn group(&mut self, run: &RunSettings, g: &GroupEnd<'_>) {
        use crate::group_summary as gs;
        if run.output_format != OutputFormat::Criterion || run.hide_successes {
            return;
        }
        for (function, fits) in gs::complexity(g.members) {
            let name = function.map_or_else(|| g.id.to_owned(), |f| format!("{}/{f}", g.id));
            let text = gs::complexity_text(&name, &fits, run.complexity);
            crate::output::outln!("{text}");
        }
        if g.compare_by_id {
            for line in gs::ratios(g.members) {
                crate::output::outln!("{line}");
            }
        }
    }

    fn paired(&mut self, _run: &RunSettings, p: &PairedEnd<'_>) {
        let n = p.per_round.first().map_or(0, Vec::len);
        crate::output::outln!(
            "{}: {} alternatives in {n} alternating rounds (paired, sign-test interval at {:.0}%)",
            p.name,
            p.ids.len(),
            p.confidence * 100.0
        );
        for (id, times) in p.ids.iter().zip(p.per_round) {
            // The median of an even count is the mean of the middle two.
            let median = yardstick_stats::univariate::median(times).unwrap_or(f64::NAN);
            crate::output::outln!("  {id:<30} median {}", crate::format::time(median).trim());
        }
        for r in p.results {
            crate::output::outln!("  {}", r.verdict());
        }
    }

    fn finish(&mut self, run: &RunSettings, end: &RunEnd<'_>) -> Vec<(String, String)> {
        let verbose = run.verbosity == crate::cli::Verbosity::Verbose;
        if (verbose || end.metrics_asked || self.metered) && end.measured > 0 {
            if let Some(bytes) = crate::meters::peak_rss() {
                // The process's high-water mark: it bounds every benchmark
                // of this binary together, not one of them.
                crate::output::errln!(
                    "Peak resident memory of this bench binary: {:.1} MiB",
                    bytes as f64 / (1024.0 * 1024.0)
                );
            }
        }
        if run.output_format == OutputFormat::Criterion {
            if let Some(line) = fdr_summary(end.comparisons, end.significance) {
                crate::output::outln!("\n{line}");
            }
        }
        if run.output_format.is_tasty() {
            let (ran, secs, failed) = (end.attempted, end.seconds, end.failed.len());
            if failed == 0 {
                crate::output::outln!("\nAll {ran} tests passed ({secs:.2}s)");
            } else {
                crate::output::outln!("\n{failed} out of {ran} tests failed ({secs:.2}s)");
            }
        }
        say_failures(&run.terminal(), end.failed);
        Vec::new()
    }
}

/// The closing line naming every benchmark that failed.
fn say_failures(terminal: &Terminal, failed: &[String]) {
    if failed.is_empty() {
        return;
    }
    crate::output::errln!(
        "{} {} benchmark{} failed: {}",
        terminal.style.red("error:"),
        failed.len(),
        if failed.len() == 1 { "" } else { "s" },
        failed.join(", ")
    );
}

/// The suite-level summary of the run's comparisons: how many changes were
/// flagged one by one, and how many remain once the false-discovery rate
/// across all of them is held at `q` (Benjamini–Hochberg). `None` when fewer
/// than two benchmarks were compared or none was flagged.
fn fdr_summary(comparisons: &[super::sink::Comparison], q: f64) -> Option<String> {
    let flagged_alone = comparisons.iter().filter(|c| c.flagged).count();
    if comparisons.len() < 2 || flagged_alone == 0 {
        return None;
    }
    let p: Vec<f64> = comparisons.iter().map(|c| c.p_value).collect();
    let out = yardstick_stats::multiple::control_fdr(&p, q);
    let kept: Vec<&str> = comparisons
        .iter()
        .zip(&out.flagged)
        .filter(|(c, &f)| f && c.flagged)
        .map(|(c, _)| c.id.as_str())
        .collect();
    let mut line = format!(
        "Compared {} benchmarks with their baseline: {flagged_alone} changed one by one; {}",
        comparisons.len(),
        yardstick_stats::multiple::survivors_clause(q, &kept)
    );
    if kept.is_empty() {
        line.push('.');
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::fdr_summary;
    use crate::output::sink::Comparison;

    #[test]
    fn the_suite_summary_keeps_what_survives_the_correction() {
        let c = |id: &str, p_value: f64, flagged: bool| Comparison {
            id: id.to_owned(),
            p_value,
            flagged,
            mean: [0.0; 3],
            too_noisy: None,
            between_processes: false,
        };
        // Two clear changes and two borderline ones among 10 comparisons:
        // BH at 5% keeps p <= k/10 * 0.05 for the largest such k.
        let mut comps = vec![
            c("a", 0.001, true),
            c("b", 0.004, true),
            c("c", 0.03, true),
            c("d", 0.04, true),
        ];
        comps.extend((0..6).map(|i| c(&format!("n{i}"), 0.5, false)));
        let line = fdr_summary(&comps, 0.05).unwrap();
        assert!(
            line.starts_with("Compared 10 benchmarks with their baseline: 4 changed one by one"),
            "{line}"
        );
        // adjusted (min over j >= rank of 10/j * p_(j)): a 0.01, b 0.02, c 0.1,
        // d 0.1 -> a and b remain.
        assert!(
            line.ends_with("2 remain (about 0.10 of them expected to be false): a, b"),
            "{line}"
        );
        assert_eq!(fdr_summary(&comps[4..], 0.05), None, "nothing flagged");
        assert_eq!(
            fdr_summary(&comps[..1], 0.05),
            None,
            "one comparison needs no correction"
        );
    }
}
