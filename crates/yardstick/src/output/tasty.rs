//! tasty-bench's output: `name: OK (2.13s)` then `63 ns ± 3.4 ns`, with
//! its comparison against a baseline (`8% more than baseline`).

use super::Completed;

/// A time in picoseconds the way tasty-bench prints it: three significant
/// figures at most, the unit switching at 995 so `999 ns` reads `1.0 μs`.
pub(crate) fn picos(t: f64) -> String {
    if t < 995.0 {
        format!("{t:3.0} ps")
    } else if t < 995e1 {
        format!("{:3.1} ns", t / 1e3)
    } else if t < 995e3 {
        format!("{:3.0} ns", t / 1e3)
    } else if t < 995e4 {
        format!("{:3.1} μs", t / 1e6)
    } else if t < 995e6 {
        format!("{:3.0} μs", t / 1e6)
    } else if t < 995e7 {
        format!("{:3.1} ms", t / 1e9)
    } else if t < 995e9 {
        format!("{:3.0} ms", t / 1e9)
    } else {
        format!("{:4.2} s", t / 1e12)
    }
}

/// tasty-bench's comparison: the change truncated to whole percent.
pub(crate) fn against_baseline(ratio: f64) -> String {
    let percent = ((ratio - 1.0) * 100.0).trunc() as i64;
    match percent.cmp(&0) {
        std::cmp::Ordering::Less => format!("{:2}% less than baseline", -percent),
        std::cmp::Ordering::Equal => "same as baseline".to_owned(),
        std::cmp::Ordering::Greater => format!("{percent:2}% more than baseline"),
    }
}

/// The two lines of one benchmark. Time values are in nanoseconds; other
/// units are printed with the measurement's own formatter.
pub(crate) fn lines(c: &Completed<'_>) -> Vec<String> {
    // tasty-bench's ± is twice the standard deviation of its estimate; the
    // bootstrap's standard error of the typical estimate is that.
    let typical = c.analysis.typical().point;
    let spread = 2.0 * c.analysis.typical().standard_error;
    let (value, pm) = if c.unit == "ns" {
        (picos(typical * 1e3), picos(spread * 1e3))
    } else {
        (
            c.formatter.format_value(typical).trim().to_owned(),
            c.formatter.format_value(spread).trim().to_owned(),
        )
    };
    let status = if c.failure.is_some() { "FAIL" } else { "OK" };
    let mut second = format!("  {value} ± {pm}");
    if let Some(ratio) = c.ratio_to_baseline {
        second.push_str(", ");
        second.push_str(against_baseline(ratio).trim_start());
    }
    let mut out = vec![
        format!("{}: {status} ({:.2}s)", c.title, c.elapsed.as_secs_f64()),
        second,
    ];
    if let Some(f) = &c.failure {
        out.push(format!("  {f}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_in_the_tasty_bench_readme() {
        // The README's lines: "63 ns ± 3.4 ns", "809 ns ± 73 ns",
        // "104 μs ± 4.9 μs", "1.6 μs ± 31 ns".
        assert_eq!(picos(63_000.0).trim(), "63 ns");
        assert_eq!(picos(3_400.0).trim(), "3.4 ns");
        assert_eq!(picos(809_000.0).trim(), "809 ns");
        assert_eq!(picos(104e6).trim(), "104 μs");
        assert_eq!(picos(4.9e6).trim(), "4.9 μs");
        assert_eq!(picos(1.6e6).trim(), "1.6 μs");
        assert_eq!(picos(999_000.0).trim(), "1.0 μs");
        assert_eq!(picos(500.0).trim(), "500 ps");
        assert_eq!(picos(2.5e12).trim(), "2.50 s");
    }

    #[test]
    fn baseline_comparison_truncates_to_whole_percent() {
        assert_eq!(against_baseline(1.089), " 8% more than baseline");
        assert_eq!(against_baseline(1.004), "same as baseline");
        assert_eq!(against_baseline(0.996), "same as baseline");
        assert_eq!(against_baseline(0.945), " 5% less than baseline");
        assert_eq!(against_baseline(2.0), "100% more than baseline");
    }
}
