//! The power lines: what change a comparison of this benchmark could have
//! seen at the noise just measured, and what it takes to see a smaller one
//! (see `yardstick_stats::power` for the formulas).

use yardstick_stats::power::{detectable_change, time_factor};

use super::Completed;

/// The power the guidance is stated for: 80 %, the usual choice (Cohen).
const POWER: f64 = 0.8;

/// What a comparison could detect, for the lines below.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Guidance {
    /// Smallest relative change detected with 80 % power.
    pub detectable: f64,
    /// Samples on each side behind `detectable`.
    pub samples: (usize, usize),
    /// Seconds of measuring to detect the noise threshold instead (white
    /// noise assumed), when the threshold is smaller.
    pub seconds_for_threshold: Option<f64>,
    /// The noise threshold (or measured drift) in force.
    pub threshold: f64,
}

/// The guidance for a finished benchmark, compared with its baseline's
/// sample count if it has one, else with a rerun of the same size.
pub(crate) fn guidance(c: &Completed<'_>) -> Option<Guidance> {
    let a = c.analysis;
    let e = &a.estimates;
    let cv = e.std_dev.point / e.mean.point;
    let n_new = a.averages.len();
    let n_old = c.baseline.map_or(n_new, <[f64]>::len);
    let detectable = detectable_change(cv, n_old, n_new, c.significance, POWER)?;
    // Time in the timed loops when the values are nanoseconds; otherwise
    // the benchmark's wall time, warm-up included (an upper bound).
    let measured_s = if c.unit == "ns" {
        a.values.iter().sum::<f64>() / 1e9
    } else {
        c.elapsed.as_secs_f64()
    };
    let seconds_for_threshold = (detectable > c.noise_threshold)
        .then(|| time_factor(detectable, c.noise_threshold))
        .flatten()
        .map(|f| f * measured_s);
    Some(Guidance {
        detectable,
        samples: (n_old, n_new),
        seconds_for_threshold,
        threshold: c.noise_threshold,
    })
}

/// The verbose line, always printed: `power  ±2.0% detectable (80%, 100
/// and 100 samples)`.
pub(crate) fn verbose_line(g: &Guidance) -> String {
    format!(
        "{:<7}±{}% detectable with 80% power ({} and {} samples)",
        "power",
        percent(g.detectable),
        g.samples.0,
        g.samples.1
    )
}

/// After "No change" or "Change within noise threshold": a warning that
/// changes bigger than the threshold could have gone unseen, and the
/// remedy. `None` when the comparison could see the threshold.
pub(crate) fn unseen_line(g: &Guidance) -> Option<String> {
    let seconds = g.seconds_for_threshold?;
    Some(format!(
        "Changes under ±{}% could go unseen here (80% power); to see ±{}%, measure ≥ {} \
         (--measurement-time) or compare in alternation (cargo yardstick ab).",
        percent(g.detectable),
        percent(g.threshold),
        duration(seconds)
    ))
}

fn percent(x: f64) -> String {
    let p = x * 100.0;
    if p < 10.0 {
        format!("{p:.1}")
    } else {
        format!("{p:.0}")
    }
}

fn duration(s: f64) -> String {
    if s < 60.0 {
        format!("{:.0} s", s.max(1.0).ceil())
    } else if s < 3600.0 {
        format!("{:.0} min", (s / 60.0).ceil())
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(detectable: f64, seconds: Option<f64>) -> Guidance {
        Guidance {
            detectable,
            samples: (100, 100),
            seconds_for_threshold: seconds,
            threshold: 0.01,
        }
    }

    #[test]
    fn lines_read_as_documented() {
        assert_eq!(
            verbose_line(&g(0.0198, None)),
            "power  ±2.0% detectable with 80% power (100 and 100 samples)"
        );
        assert_eq!(unseen_line(&g(0.005, None)), None);
        assert_eq!(
            unseen_line(&g(0.042, Some(88.2))).unwrap(),
            "Changes under ±4.2% could go unseen here (80% power); to see ±1.0%, measure ≥ 2 min \
             (--measurement-time) or compare in alternation (cargo yardstick ab)."
        );
        assert!(unseen_line(&g(0.3, Some(5400.0)))
            .unwrap()
            .contains("≥ 1.5 h"));
        assert!(unseen_line(&g(0.02, Some(0.2))).unwrap().contains("≥ 1 s"));
    }
}
