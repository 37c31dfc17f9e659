//! Times and numbers for people: which unit a time is shown in, and
//! Criterion.rs's four significant figures. The terminal outputs, the HTML
//! report, `cargo yardstick`'s tables and the divan table all pick their
//! unit here; each keeps its own number of decimals, which is part of the
//! format it imitates.
//!
//! ```
//! use yardstick_format::units::{time, TimeUnit};
//!
//! assert_eq!(time(26_251.0), "26.251 µs");
//! let u = TimeUnit::for_nanos(3.1e6, TimeUnit::Ns);
//! assert_eq!(u.fixed(3.1e6, 2), "3.10 ms");
//! assert_eq!(u.ascii(), "ms");
//! ```

/// A unit of time, from picoseconds to seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TimeUnit {
    /// Picoseconds.
    Ps,
    /// Nanoseconds.
    Ns,
    /// Microseconds.
    Us,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
}

impl TimeUnit {
    /// The unit for a time of `ns` nanoseconds: the largest in which its
    /// magnitude is at least 1 (so a negative difference reads as the
    /// positive one would), picoseconds below 1 ns (and for `NaN`), but
    /// never smaller than `smallest`.
    #[must_use]
    pub fn for_nanos(ns: f64, smallest: TimeUnit) -> TimeUnit {
        let a = ns.abs();
        let unit = if a >= 1e9 {
            TimeUnit::S
        } else if a >= 1e6 {
            TimeUnit::Ms
        } else if a >= 1e3 {
            TimeUnit::Us
        } else if a >= 1.0 {
            TimeUnit::Ns
        } else {
            TimeUnit::Ps
        };
        unit.max(smallest)
    }

    /// The unit's symbol: `ps`, `ns`, `µs`, `ms`, `s`.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Ps => "ps",
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "µs",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
        }
    }

    /// The symbol in ASCII (`us` for microseconds), as eministat writes it.
    #[must_use]
    pub fn ascii(self) -> &'static str {
        match self {
            TimeUnit::Us => "us",
            u => u.symbol(),
        }
    }

    /// What a value in nanoseconds is multiplied by to be in this unit
    /// (`1e-3` for µs).
    #[must_use]
    pub fn factor(self) -> f64 {
        match self {
            TimeUnit::Ps => 1e3,
            TimeUnit::Ns => 1.0,
            TimeUnit::Us => 1e-3,
            TimeUnit::Ms => 1e-6,
            TimeUnit::S => 1e-9,
        }
    }

    /// `ns` nanoseconds in this unit. Divides by the unit's length (as
    /// Criterion.rs does), which can differ from multiplying by
    /// [`factor`](Self::factor) in the last bit.
    #[must_use]
    pub fn scale(self, ns: f64) -> f64 {
        match self {
            TimeUnit::Ps => ns * 1e3,
            TimeUnit::Ns => ns,
            TimeUnit::Us => ns / 1e3,
            TimeUnit::Ms => ns / 1e6,
            TimeUnit::S => ns / 1e9,
        }
    }

    /// `ns` in this unit with `decimals` decimals and the symbol:
    /// `3.100 ms`.
    #[must_use]
    pub fn fixed(self, ns: f64, decimals: usize) -> String {
        format!("{:.decimals$} {}", self.scale(ns), self.symbol())
    }
}

/// A time with its unit and four significant figures, right-aligned in six
/// columns as Criterion.rs prints it: `26.251 ns`, `500.00 ps`, `1.5000 ms`.
#[must_use]
pub fn time(ns: f64) -> String {
    let unit = TimeUnit::for_nanos(ns, TimeUnit::Ps);
    format!("{:>6} {}", short(unit.scale(ns)), unit.symbol())
}

/// A time with the unit picked from the time itself and `decimals`
/// decimals, never below nanoseconds: `1.2340 µs` for `fixed(1234.0, 4)`.
#[must_use]
pub fn fixed(ns: f64, decimals: usize) -> String {
    TimeUnit::for_nanos(ns, TimeUnit::Ns).fixed(ns, decimals)
}

/// Criterion.rs's five significant figures for values below 10 000 (by
/// magnitude), none after that; infinities and `NaN` as Rust prints them.
/// The number of decimals is chosen for the value as rounded, so 99.99999
/// is `100.00`, not Criterion.rs's `100.000`.
#[must_use]
pub fn short(n: f64) -> String {
    if !n.is_finite() {
        return n.to_string();
    }
    let a = n.abs();
    // Each bound is the first value that rounds up past the bracket.
    let decimals = [(9.999_95, 4), (99.999_5, 3), (999.995, 2), (9_999.95, 1)]
        .iter()
        .find(|(bound, _)| a < *bound)
        .map_or(0, |&(_, d)| d);
    format!("{n:.decimals$}")
}

/// [`short`] with its sign, `+` for zero and positive values: `+5.0000`,
/// `-12.340`.
#[must_use]
pub fn signed_short(n: f64) -> String {
    let s = short(n);
    if s.starts_with('-') || n.is_nan() {
        s
    } else {
        format!("+{s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_keeps_four_significant_figures() {
        assert_eq!(short(1.23456), "1.2346");
        assert_eq!(short(12.3456), "12.346");
        assert_eq!(short(123.456), "123.46");
        assert_eq!(short(1234.56), "1234.6");
        assert_eq!(short(12345.6), "12346");
        // Rounding that reaches the next power of ten takes its precision.
        assert_eq!(short(99.999_99), "100.00");
        assert_eq!(short(9.999_99), "10.000");
        assert_eq!(short(99.999_4), "99.999");
        assert_eq!(short(9_999.97), "10000");
        assert_eq!(short(-12345.6), "-12346");
        assert_eq!(short(f64::INFINITY), "inf");
    }

    #[test]
    fn signed_short_always_has_a_sign() {
        for (n, s) in [
            (5.0, "+5.0000"),
            (0.0, "+0.0000"),
            (-12.34, "-12.340"),
            (12345.6, "+12346"),
            (-0.0, "-0.0000"),
        ] {
            assert_eq!(signed_short(n), s);
        }
    }

    #[test]
    fn time_picks_the_unit_as_criterion_does() {
        assert_eq!(time(0.5), "500.00 ps");
        assert_eq!(time(26.251), "26.251 ns");
        assert_eq!(time(26_251.0), "26.251 µs");
        assert_eq!(time(1.5e6), "1.5000 ms");
        assert_eq!(time(3e9), "3.0000 s");
        assert_eq!(time(5.0), "5.0000 ns");
    }

    #[test]
    fn unit_boundaries_belong_to_the_larger_unit() {
        let at = |ns| TimeUnit::for_nanos(ns, TimeUnit::Ps);
        assert_eq!(at(0.999), TimeUnit::Ps);
        assert_eq!(at(1.0), TimeUnit::Ns);
        assert_eq!(at(999.9), TimeUnit::Ns);
        assert_eq!(at(1e3), TimeUnit::Us);
        assert_eq!(at(1e6), TimeUnit::Ms);
        assert_eq!(at(-2e9), TimeUnit::S);
        assert_eq!(TimeUnit::for_nanos(0.5, TimeUnit::Ns), TimeUnit::Ns);
        assert_eq!(TimeUnit::for_nanos(5e3, TimeUnit::Ms), TimeUnit::Ms);
    }

    #[test]
    fn fixed_decimals() {
        assert_eq!(fixed(133.0, 4), "133.0000 ns");
        assert_eq!(fixed(1234.0, 4), "1.2340 µs");
        assert_eq!(fixed(-2.5e9, 2), "-2.50 s");
        assert_eq!(TimeUnit::Us.fixed(2.5e6, 3), "2500.000 µs");
    }
}
