//! Number formatting shared by every terminal output, matching Criterion.rs's
//! text so that scripts reading its output keep working.

use yardstick_format::units::signed_short;
pub(crate) use yardstick_format::units::{short, time};

/// A relative change (0.05 = 5 %) as a percentage, e.g. `+5.0000%`.
pub(crate) fn change(ratio: f64, signed: bool) -> String {
    if signed {
        format!("{:>+6}%", signed_short(ratio * 1e2))
    } else {
        format!("{:>6}%", short(ratio * 1e2))
    }
}

/// A p-value or significance level beside a level of `level`: two
/// decimals, as Criterion.rs prints them, when the level has no more and
/// is 0.05 or above; four otherwise, so that a suite's share of its error rate
/// (0.0008 over 63 comparisons, 0.0250 over one) and a p-value beside it
/// stay readable; scientific below 0.0001.
pub(crate) fn p_value(p: f64, level: f64) -> String {
    let cents = level * 100.0;
    if level >= 0.05 && (cents - cents.round()).abs() < 1e-9 {
        format!("{p:.2}")
    } else if level >= 1e-4 {
        format!("{p:.4}")
    } else {
        format!("{p:.1e}")
    }
}

/// An iteration count as Criterion.rs prints it: `42 iterations`, `12k
/// iterations`, `1.2M iterations`, `3.4B iterations`.
pub(crate) fn iter_count(n: u64) -> String {
    let f = n as f64;
    if n < 10_000 {
        format!("{n} iterations")
    } else if n < 1_000_000 {
        format!("{:.0}k iterations", f / 1e3)
    } else if n < 10_000_000 {
        format!("{:.1}M iterations", f / 1e6)
    } else if n < 1_000_000_000 {
        format!("{:.0}M iterations", f / 1e6)
    } else if n < 10_000_000_000 {
        format!("{:.1}B iterations", f / 1e9)
    } else {
        format!("{:.0}B iterations", f / 1e9)
    }
}

/// An integer with thousands separators, as libtest's bencher output.
pub(crate) fn integer(n: f64) -> String {
    let digits = format!("{:.0}", n.max(0.0));
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_keep_the_digits_their_level_needs() {
        assert_eq!(p_value(0.034, 0.05), "0.03");
        assert_eq!(p_value(0.0077, 0.025), "0.0077");
        assert_eq!(p_value(0.000_04, 0.01), "0.0000");
        assert_eq!(p_value(0.000_41, 0.000_78), "0.0004");
        assert_eq!(p_value(0.000_78, 0.000_78), "0.0008");
        assert_eq!(p_value(0.000_012, 0.000_05), "1.2e-5");
    }

    #[test]
    fn change_is_a_signed_percentage() {
        assert_eq!(change(0.05, true), "+5.0000%");
        assert_eq!(change(-0.1234, true), "-12.340%");
        assert_eq!(change(0.0, true), "+0.0000%");
    }

    #[test]
    fn iteration_counts_are_abbreviated() {
        assert_eq!(iter_count(9999), "9999 iterations");
        assert_eq!(iter_count(12_345), "12k iterations");
        assert_eq!(iter_count(1_234_567), "1.2M iterations");
        assert_eq!(iter_count(123_456_789), "123M iterations");
        assert_eq!(iter_count(5_050_000_000), "5.0B iterations");
    }

    #[test]
    fn integers_get_separators() {
        assert_eq!(integer(0.0), "0");
        assert_eq!(integer(999.0), "999");
        assert_eq!(integer(1000.0), "1,000");
        assert_eq!(integer(1234567.4), "1,234,567");
    }
}
