//! `ab`'s results: one row per benchmark with its verdict in words, the
//! false-discovery control across the suite, and the two printed forms
//! (an aligned table for the terminal, markdown for a PR comment).

use yardstick_stats::layouts::Spread;
use yardstick_stats::multiple::{control_fdr, survivors_clause};
use yardstick_stats::paired::RatioInterval;

use yardstick::worker::lockstep::Measured;

/// What became of one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Only A's binary has it.
    OnlyA,
    /// Only B's binary has it.
    OnlyB,
    /// A worker failed on it (one line: panic, hang, exit).
    Failed(String),
    /// Measured in lock-step.
    Measured(Paired),
}

/// A benchmark measured on both sides.
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    /// Median time per iteration of A over the rounds (ns).
    pub a: f64,
    /// Median time per iteration of B (ns).
    pub b: f64,
    /// The interval of B/A over the worker pairs (Student's t over their
    /// median ratios); `None` with fewer than two pairs.
    pub interval: Option<RatioInterval>,
    /// Its p-value for "B/A = 1".
    pub p_value: Option<f64>,
    /// Paired rounds.
    pub rounds: usize,
    /// Worker pairs the rounds came from.
    pub pairs: usize,
    /// Seconds spent on the benchmark.
    pub seconds: f64,
    /// Whether a detected change is still flagged once the false-discovery
    /// rate across the suite is controlled (true when nothing was detected).
    pub survives_fdr: bool,
    /// What relinking the same code moves the ratio by, when the pairs
    /// ran several code layouts.
    pub layout: Option<Spread>,
}

impl Paired {
    fn significant(&self) -> bool {
        self.interval
            .as_ref()
            .is_some_and(RatioInterval::is_significant)
    }
}

/// One benchmark's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The benchmark id.
    pub id: String,
    /// What became of it.
    pub outcome: Outcome,
}

impl Row {
    /// The verdict in words.
    #[must_use]
    pub fn verdict(&self) -> String {
        let p = match &self.outcome {
            Outcome::OnlyA => return "only in A".to_owned(),
            Outcome::OnlyB => return "only in B".to_owned(),
            Outcome::Failed(m) => return format!("failed: {m}"),
            Outcome::Measured(p) => p,
        };
        match &p.interval {
            None => format!("too few worker pairs ({}) for an interval", p.pairs),
            Some(i) if p.significant() && p.survives_fdr => format!(
                "B is {:.3}× A [{:.3}, {:.3}]: {}",
                i.ratio,
                i.lower,
                i.upper,
                if i.is_slower() { "slower" } else { "faster" }
            ),
            Some(_) if p.significant() => {
                "a change alone, within chance across the suite (false-discovery control)"
                    .to_owned()
            }
            Some(_) => match p.layout {
                Some(l) if l.limiting => format!(
                    "no difference detected: within what relinking the same code moves here (±{:.1}%)",
                    l.share * 100.0
                ),
                _ => "no difference detected".to_owned(),
            },
        }
    }

    /// Whether B differs from A, after the false-discovery control: what
    /// `--explain` explains.
    #[must_use]
    pub fn changed(&self) -> bool {
        matches!(&self.outcome, Outcome::Measured(p) if p.significant() && p.survives_fdr)
    }

    /// Whether B is slower than A by at least `threshold` (0.03 = 3 %),
    /// after the false-discovery control.
    #[must_use]
    pub fn regressed(&self, threshold: f64) -> bool {
        match &self.outcome {
            Outcome::Measured(p) => {
                p.survives_fdr
                    && p.interval
                        .as_ref()
                        .is_some_and(|i| i.is_slower() && i.ratio >= 1.0 + threshold)
            }
            _ => false,
        }
    }
}

fn median(v: &[f64]) -> f64 {
    yardstick_stats::univariate::median(v).unwrap_or(f64::NAN)
}

/// A measured benchmark's row (before the false-discovery control).
#[must_use]
pub fn paired(id: &str, m: &Measured, confidence: f64) -> Row {
    let found = m.interval_and_p(confidence);
    Row {
        id: id.to_owned(),
        outcome: Outcome::Measured(Paired {
            a: median(&m.a),
            b: median(&m.b),
            interval: found.map(|(i, _)| i),
            p_value: found.map(|(_, p)| p),
            rounds: m.a.len(),
            pairs: m.pairs(),
            seconds: m.seconds,
            survives_fdr: true,
            layout: m.layout_spread(),
        }),
    }
}

/// Benjamini–Hochberg across the measured rows at `q`, as `compare` and
/// `check` do; the line under the table when two or more were tested and
/// one or more changed.
pub fn control(rows: &mut [Row], q: f64) -> Option<String> {
    let mut tested: Vec<&mut Paired> = rows
        .iter_mut()
        .filter_map(|r| match &mut r.outcome {
            Outcome::Measured(p) if p.interval.is_some() => Some(p),
            _ => None,
        })
        .collect();
    let flagged_alone = tested.iter().filter(|p| p.significant()).count();
    if tested.len() < 2 || flagged_alone == 0 {
        return None;
    }
    let p: Vec<f64> = tested.iter().map(|p| p.p_value.unwrap_or(1.0)).collect();
    let outcome = control_fdr(&p, q);
    for (p, &flagged) in tested.iter_mut().zip(&outcome.flagged) {
        p.survives_fdr = flagged || !p.significant();
    }
    let kept: Vec<&str> = rows
        .iter()
        .filter(|r| matches!(&r.outcome, Outcome::Measured(p) if p.significant() && p.survives_fdr))
        .map(|r| r.id.as_str())
        .collect();
    Some(format!(
        "{flagged_alone} of {} benchmarks changed one by one; {}",
        p.len(),
        survivors_clause(q, &kept)
    ))
}

/// A time in ns with a readable unit.
fn time(v: f64) -> String {
    let (x, u) = if v >= 1e9 {
        (v / 1e9, "s")
    } else if v >= 1e6 {
        (v / 1e6, "ms")
    } else if v >= 1e3 {
        (v / 1e3, "µs")
    } else {
        (v, "ns")
    };
    format!("{x:.4} {u}")
}

/// The cells of a row: A, B, ratio with interval, rounds/pairs (seconds).
fn cells(r: &Row) -> [String; 4] {
    let dash = || "—".to_owned();
    match &r.outcome {
        Outcome::Measured(p) => [
            time(p.a),
            time(p.b),
            p.interval.as_ref().map_or_else(dash, |i| {
                format!("{:.3}× [{:.3}, {:.3}]", i.ratio, i.lower, i.upper)
            }),
            format!("{}/{} ({:.1} s)", p.rounds, p.pairs, p.seconds),
        ],
        _ => [dash(), dash(), dash(), dash()],
    }
}

/// What the comparison was.
pub struct Header {
    /// A's name (revision and commit).
    pub a: String,
    /// B's name.
    pub b: String,
    /// How it was measured, in words.
    pub how: String,
}

/// The aligned plain-text table, then the false-discovery line.
#[must_use]
pub fn terminal(h: &Header, rows: &[Row], fdr: Option<&str>) -> String {
    let mut s = terminal_head(h);
    s.push_str(&terminal_table(rows));
    if let Some(f) = fdr {
        s.push_str(&format!("\n{f}\n"));
    }
    s
}

/// What the terminal table stands under: the sides and how they were
/// measured.
#[must_use]
pub fn terminal_head(h: &Header) -> String {
    format!("A = {}, B = {}\n{}\n\n", h.a, h.b, h.how)
}

/// The aligned plain-text table alone.
#[must_use]
pub fn terminal_table(rows: &[Row]) -> String {
    let mut s = String::new();
    let head = [
        "benchmark",
        "A",
        "B",
        "B/A [95%]",
        "rounds/pairs",
        "verdict",
    ]
    .map(str::to_owned);
    let table: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            let [a, b, ratio, rounds] = cells(r);
            [r.id.clone(), a, b, ratio, rounds, r.verdict()]
        })
        .collect();
    let mut widths = head.clone().map(|c| c.chars().count());
    for row in &table {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    for row in std::iter::once(&head).chain(&table) {
        let mut line = String::new();
        for (i, (c, w)) in row.iter().zip(widths).enumerate() {
            let pad = " ".repeat(w - c.chars().count());
            if (1..=2).contains(&i) {
                line.push_str(&pad);
                line.push_str(c);
            } else {
                line.push_str(c);
                line.push_str(&pad);
            }
            line.push_str("  ");
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// The GitHub-flavoured markdown summary for a PR comment.
#[must_use]
pub fn markdown(h: &Header, rows: &[Row], fdr: Option<&str>) -> String {
    let mut s = markdown_head(h);
    s.push_str(&markdown_table(rows));
    if let Some(f) = fdr {
        s.push_str(&format!("\n{f}\n"));
    }
    s
}

/// The markdown summary's title and the line that says how.
#[must_use]
pub fn markdown_head(h: &Header) -> String {
    format!(
        "### yardstick ab: A = {}, B = {}\n\n{}\n\n",
        h.a, h.b, h.how
    )
}

/// The markdown table alone.
#[must_use]
pub fn markdown_table(rows: &[Row]) -> String {
    let mut s = "| benchmark | A | B | B/A [95%] | rounds/pairs | verdict |\n|---|---:|---:|---|---:|---|\n"
        .to_owned();
    for r in rows {
        let [a, b, ratio, rounds] = cells(r);
        s.push_str(&format!(
            "| `{}` | {a} | {b} | {ratio} | {rounds} | {} |\n",
            r.id.replace('|', "\\|"),
            r.verdict().replace('|', "\\|")
        ));
    }
    s
}

#[cfg(test)]
mod tests;
