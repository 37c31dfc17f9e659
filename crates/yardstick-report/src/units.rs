//! Numbers for people: the unit of a measured value, rates and changes,
//! formatted as the terminal output formats them.

use yardstick_format::criterion::Throughput;
use yardstick_format::units::TimeUnit;

/// How measured values are shown: multiplied by `factor` and followed by
/// `unit`.
///
/// For wall time (unit `ns`) the unit is picked from a typical value, as
/// Criterion.rs does: below 1 ns in ps, then ns, µs, ms and s. Any other
/// unit is shown as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Scale {
    /// What a value is multiplied by.
    pub factor: f64,
    /// The unit after scaling.
    pub unit: String,
    /// The unit of the values before scaling (`ns`).
    pub source_unit: String,
}

impl Scale {
    /// The scale for values in `unit` around `typical`.
    #[must_use]
    pub fn for_value(unit: &str, typical: f64) -> Scale {
        if unit != "ns" {
            return Scale {
                factor: 1.0,
                unit: unit.to_owned(),
                source_unit: unit.to_owned(),
            };
        }
        let unit = TimeUnit::for_nanos(typical, TimeUnit::Ps);
        Scale {
            factor: unit.factor(),
            unit: unit.symbol().to_owned(),
            source_unit: "ns".to_owned(),
        }
    }

    /// `value` scaled and formatted with four significant digits and the
    /// unit (`133.68 ns`).
    #[must_use]
    pub fn format(&self, value: f64) -> String {
        format!("{} {}", short(value * self.factor), self.unit)
    }

    /// Relative changes (fractions) shown as percentages.
    #[must_use]
    pub fn percent() -> Scale {
        Scale {
            factor: 100.0,
            unit: "%".to_owned(),
            source_unit: "fraction".to_owned(),
        }
    }

    /// `value` scaled, without the unit.
    #[must_use]
    pub fn apply(&self, value: f64) -> f64 {
        value * self.factor
    }
}

/// A measured value with the unit picked from the value itself
/// (`format_value(1234.0, "ns")` is `1.2340 µs`).
#[must_use]
pub fn format_value(value: f64, unit: &str) -> String {
    Scale::for_value(unit, value).format(value)
}

pub use yardstick_format::units::short;

/// A relative change (a fraction) as a signed percentage with an ASCII
/// sign, as the terminal prints it: `+5.0123%`, `-22.994%`.
#[must_use]
pub fn format_change(fraction: f64) -> String {
    let pct = fraction * 100.0;
    let sign = if pct >= 0.0 { '+' } else { '-' };
    format!("{sign}{}%", short(pct.abs()))
}

/// The rates of `throughput` at `ns_per_iteration`, one string per kind
/// (two for elements and bytes), in Criterion.rs's units.
#[must_use]
pub fn format_throughput(throughput: &Throughput, ns_per_iteration: f64) -> Vec<String> {
    let per_second = |amount: u64| amount as f64 * 1e9 / ns_per_iteration;
    match *throughput {
        Throughput::Bytes(n) => vec![binary_bytes(per_second(n))],
        Throughput::BytesDecimal(n) => {
            vec![decimal(per_second(n), "B/s", ["KB/s", "MB/s", "GB/s"])]
        }
        Throughput::Elements(n) => vec![decimal(
            per_second(n),
            "elem/s",
            ["Kelem/s", "Melem/s", "Gelem/s"],
        )],
        Throughput::Bits(n) => vec![decimal(per_second(n), "b/s", ["Kb/s", "Mb/s", "Gb/s"])],
        Throughput::ElementsAndBytes { elements, bytes } => vec![
            decimal(
                per_second(elements),
                "elem/s",
                ["Kelem/s", "Melem/s", "Gelem/s"],
            ),
            binary_bytes(per_second(bytes)),
        ],
    }
}

/// The amount of work per iteration and its unit word, for labels
/// (`1024 bytes`).
#[must_use]
pub fn throughput_parts(throughput: &Throughput) -> Vec<(u64, &'static str)> {
    match *throughput {
        Throughput::Bytes(n) | Throughput::BytesDecimal(n) => vec![(n, "bytes")],
        Throughput::Elements(n) => vec![(n, "elements")],
        Throughput::Bits(n) => vec![(n, "bits")],
        Throughput::ElementsAndBytes { elements, bytes } => {
            vec![(elements, "elements"), (bytes, "bytes")]
        }
    }
}

fn binary_bytes(rate: f64) -> String {
    const K: f64 = 1024.0;
    if rate < K {
        format!("{} B/s", short(rate))
    } else if rate < K * K {
        format!("{} KiB/s", short(rate / K))
    } else if rate < K * K * K {
        format!("{} MiB/s", short(rate / (K * K)))
    } else {
        format!("{} GiB/s", short(rate / (K * K * K)))
    }
}

fn decimal(rate: f64, base: &str, units: [&str; 3]) -> String {
    if rate < 1e3 {
        format!("{} {base}", short(rate))
    } else if rate < 1e6 {
        format!("{} {}", short(rate / 1e3), units[0])
    } else if rate < 1e9 {
        format!("{} {}", short(rate / 1e6), units[1])
    } else {
        format!("{} {}", short(rate / 1e9), units[2])
    }
}

/// Year, month, day, hour, minute and second (UTC) of a time in seconds
/// since the Unix epoch, by Howard Hinnant's `civil_from_days`.
#[must_use]
pub fn utc_fields(secs: i64) -> [i64; 6] {
    let rem = secs.rem_euclid(86_400);
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    [y, m, d, rem / 3600, rem % 3600 / 60, rem % 60]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_scale_like_the_terminal() {
        assert_eq!(format_value(0.5, "ns"), "500.00 ps");
        assert_eq!(format_value(133.68, "ns"), "133.68 ns");
        assert_eq!(format_value(1234.0, "ns"), "1.2340 µs");
        assert_eq!(format_value(20_091_145.0, "ns"), "20.091 ms");
        assert_eq!(format_value(3.2e9, "ns"), "3.2000 s");
        assert_eq!(format_value(42.0, "cycles"), "42.000 cycles");
    }

    #[test]
    fn rates_and_changes() {
        assert_eq!(
            format_throughput(&Throughput::Bytes(1024), 79.268),
            ["12.031 GiB/s"]
        );
        assert_eq!(
            format_throughput(
                &Throughput::ElementsAndBytes {
                    elements: 10,
                    bytes: 4096
                },
                71.789
            ),
            ["139.30 Melem/s", "53.138 GiB/s"]
        );
        assert_eq!(format_change(-0.22994), "-22.994%");
        assert_eq!(format_change(0.0), "+0.0000%");
    }
}
