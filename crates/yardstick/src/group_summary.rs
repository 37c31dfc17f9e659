//! What a group says when it finishes: Big-O fits over numeric inputs
//! (nanobench's table), ratios between its functions at the same input
//! (tasty-bench's `bcompare`, iai-callgrind's compare-by-id), and checks of
//! portable performance requirements (tasty-bench's `bcompareWithin`).

use std::collections::BTreeMap;

use yardstick_stats::complexity::big_o;

use crate::complexity::ComplexityFits;

/// One measured benchmark of a group.
#[derive(Debug, Clone)]
pub(crate) struct Member {
    pub title: String,
    pub function: Option<String>,
    pub value: Option<String>,
    /// Typical time (or value) per iteration.
    pub typical: f64,
}

/// "`a` must be at least `factor` times faster than `b`".
#[derive(Debug, Clone)]
pub(crate) struct Requirement {
    pub fast: String,
    pub slow: String,
    pub factor: f64,
}

/// Big-O fits per function over its numeric inputs (at least three), in the
/// order the functions first ran. Times are fitted in seconds, as nanobench.
pub(crate) fn complexity(members: &[Member]) -> Vec<(Option<String>, ComplexityFits)> {
    type Points = Vec<(f64, f64)>;
    let mut by_function: Vec<(Option<String>, Points)> = Vec::new();
    for m in members {
        let Some(n) = m
            .value
            .as_deref()
            .and_then(|v| v.trim().parse::<f64>().ok())
        else {
            continue;
        };
        match by_function.iter_mut().find(|(f, _)| *f == m.function) {
            Some((_, points)) => points.push((n, m.typical / 1e9)),
            None => by_function.push((m.function.clone(), vec![(n, m.typical / 1e9)])),
        }
    }
    by_function
        .into_iter()
        .filter(|(_, p)| p.len() >= 3)
        .filter_map(|(f, p)| {
            let (ns, ts): (Vec<f64>, Vec<f64>) = p.into_iter().unzip();
            big_o(&ns, &ts)
                .ok()
                .map(|fits| (f, ComplexityFits::from(fits)))
        })
        .collect()
}

/// The largest error (normalised RMS, nanobench's err%) at which a Big-O fit
/// is printed without `--complexity`: beyond it the best model explains the
/// times too poorly to name (fibonacci's exponential growth is "O(n^3),
/// err 51.7%").
pub(crate) const GOOD_FIT: f64 = 0.10;

/// What a group prints about the complexity of function `name`: the table
/// when the best fit is good or `asked` (`--complexity`); otherwise one line
/// saying that no model fits, and how close the closest came.
pub(crate) fn complexity_text(name: &str, fits: &ComplexityFits, asked: bool) -> String {
    let Some(best) = fits.best() else {
        return String::new();
    };
    if best.normalized_rms <= GOOD_FIT {
        return format!("\n{name}: complexity over the inputs{fits}");
    }
    let line = format!(
        "\n{name}: no complexity model fits the times over the inputs (the closest, {}, is off by {:.1}%)",
        best.name,
        best.normalized_rms * 100.0
    );
    if asked {
        format!("{line}{fits}")
    } else {
        format!("{line}; --complexity prints the fits")
    }
}

/// For every input measured by two or more functions, each function's time
/// over the first function's, tasty-bench style: `0.08x`, `128.36x`.
pub(crate) fn ratios(members: &[Member]) -> Vec<String> {
    let mut by_value: BTreeMap<Option<&str>, Vec<&Member>> = BTreeMap::new();
    for m in members {
        by_value.entry(m.value.as_deref()).or_default().push(m);
    }
    let mut lines = Vec::new();
    for group in by_value.values().filter(|g| g.len() >= 2) {
        let first = group[0];
        for m in &group[1..] {
            lines.push(format!(
                "{}: {:.2}x {}",
                m.title,
                m.typical / first.typical,
                first.title
            ));
        }
    }
    lines
}

/// The requirements that do not hold, in words. A requirement names
/// functions (or whole ids); it holds when, at every input both were
/// measured at, `slow / fast` is at least `factor`.
pub(crate) fn violations(members: &[Member], reqs: &[Requirement]) -> Vec<String> {
    let matches = |m: &Member, name: &str| m.function.as_deref() == Some(name) || m.title == name;
    let mut out = Vec::new();
    for r in reqs {
        let mut compared = false;
        for fast in members.iter().filter(|m| matches(m, &r.fast)) {
            for slow in members
                .iter()
                .filter(|m| matches(m, &r.slow) && m.value == fast.value)
            {
                compared = true;
                let speedup = slow.typical / fast.typical;
                // Two equal times reach the estimate through different
                // iteration counts, so their floating-point slopes may
                // differ in the last bits; that is not a slowdown.
                if speedup < r.factor * (1.0 - yardstick_stats::RELATIVE_ROUNDING) {
                    out.push(format!(
                        "{} is {speedup:.2}x faster than {}, but must be at least {:.2}x faster",
                        fast.title, slow.title, r.factor
                    ));
                }
            }
        }
        if !compared {
            out.push(format!(
                "requirement '{}' at least {:.2}x faster than '{}' compared nothing: no input was measured for both",
                r.fast, r.factor, r.slow
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(function: &str, value: &str, typical: f64) -> Member {
        Member {
            title: format!("g/{function}/{value}"),
            function: Some(function.into()),
            value: Some(value.into()),
            typical,
        }
    }

    #[test]
    fn big_o_is_fitted_per_function_over_numeric_inputs() {
        // linear: 5 ns per element; quadratic: 0.5 ns per element squared.
        let mut members = Vec::new();
        for n in [10.0, 100.0, 1000.0, 10000.0] {
            members.push(m("lin", &n.to_string(), 5.0 * n));
            members.push(m("quad", &n.to_string(), 0.5 * n * n));
        }
        members.push(m("few", "1", 1.0));
        let fits = complexity(&members);
        assert_eq!(fits.len(), 2, "'few' has too few inputs");
        assert_eq!(fits[0].0.as_deref(), Some("lin"));
        assert_eq!(fits[0].1.best().unwrap().name, "O(n)");
        assert_eq!(fits[1].1.best().unwrap().name, "O(n^2)");
        assert!((fits[0].1[0].coefficient - 5e-9).abs() < 1e-15);
    }

    #[test]
    fn a_big_o_table_only_when_the_fit_is_good_or_asked() {
        let mut members = Vec::new();
        for n in [10u32, 20, 30, 40] {
            // 3 ns per element: O(n) fits exactly.
            members.push(m("lin", &n.to_string(), 3.0 * f64::from(n)));
            // fibonacci: twice the time per step of n, no polynomial fits.
            members.push(m("fib", &n.to_string(), 2f64.powi(n as i32)));
        }
        let fits = complexity(&members);
        let lin = complexity_text("g/lin", &fits[0].1, false);
        assert!(
            lin.starts_with("\ng/lin: complexity over the inputs\n|   coefficient"),
            "{lin}"
        );
        assert!(lin.contains("| O(n)\n"), "{lin}");
        let fib = complexity_text("g/fib", &fits[1].1, false);
        assert!(
            fib.starts_with(
                "\ng/fib: no complexity model fits the times over the inputs (the closest, O("
            ),
            "{fib}"
        );
        assert!(fib.ends_with("%); --complexity prints the fits"), "{fib}");
        assert!(!fib.contains("coefficient"), "{fib}");
        let asked = complexity_text("g/fib", &fits[1].1, true);
        assert!(asked.contains("no complexity model fits"), "{asked}");
        assert!(
            asked.contains("|   coefficient |   err% | complexity"),
            "{asked}"
        );
        // The error printed is the best fit's, in per cent.
        let best = fits[1].1.best().unwrap();
        assert!(best.normalized_rms > GOOD_FIT);
        assert!(fib.contains(&format!("{:.1}%", best.normalized_rms * 100.0)));
    }

    #[test]
    fn ratios_compare_functions_at_the_same_input() {
        let members = [
            m("slow", "20", 26_000.0),
            m("fast", "20", 2.08e3),
            m("slow", "21", 42.0),
        ];
        assert_eq!(ratios(&members), ["g/fast/20: 0.08x g/slow/20"]);
    }

    #[test]
    fn requirements_fail_in_words() {
        let members = [m("slow", "20", 1000.0), m("fast", "20", 600.0)];
        let ok = Requirement {
            fast: "fast".into(),
            slow: "slow".into(),
            factor: 1.5,
        };
        assert!(violations(&members, &[ok]).is_empty());
        let strict = Requirement {
            fast: "fast".into(),
            slow: "slow".into(),
            factor: 2.0,
        };
        assert_eq!(
            violations(&members, &[strict]),
            ["g/fast/20 is 1.67x faster than g/slow/20, but must be at least 2.00x faster"]
        );
        let none = Requirement {
            fast: "x".into(),
            slow: "slow".into(),
            factor: 2.0,
        };
        assert!(violations(&members, &[none])[0].contains("compared nothing"));
    }

    #[test]
    fn equal_times_meet_at_least_one_times_faster_despite_rounding() {
        let req = |factor| Requirement {
            fast: "fast".into(),
            slow: "slow".into(),
            factor,
        };
        // 50 ns reached by two sums of different lengths: off in the last bit.
        let fast = m("fast", "10", 50.000_000_000_000_01);
        let slow = m("slow", "10", 49.999_999_999_999_99);
        assert!(violations(&[fast.clone(), slow.clone()], &[req(1.0)]).is_empty());
        // A real shortfall of one part in a million still fails.
        let slower = m("fast", "10", 50.0 * (1.0 + 1e-6));
        assert_eq!(violations(&[slower, slow], &[req(1.0)]).len(), 1);
    }
}
