//! cargo-criterion's machine-readable messages (`--message-format json`):
//! one JSON object per line, its kind in the first key, `reason`.
//!
//! Field for field as the Criterion.rs guide's *External Tools* chapter and
//! cargo-criterion's source define them, so tools written for
//! cargo-criterion read yardstick's messages. Absent values (a slope under
//! flat sampling, a change without a baseline) are `null`.
//!
//! ```
//! use yardstick_format::json;
//! use yardstick_format::messages::{GroupComplete, Message};
//!
//! let msg = Message::GroupComplete(GroupComplete {
//!     group_name: "fib".into(),
//!     benchmarks: vec!["fib/10".into(), "fib/20".into()],
//!     report_directory: "target/criterion/reports/fib".into(),
//!     complexity: Vec::new(),
//! });
//! let line = json::to_string(&msg);
//! assert!(line.starts_with(r#"{"reason":"group-complete","group_name":"fib""#));
//! assert_eq!(json::from_str::<Message>(&line)?, msg);
//! # Ok::<(), yardstick_format::json::Error>(())
//! ```

use crate::json::{Error, Fields, FromJson, Json, ToJson};

/// One message, tagged by its `reason`.
#[derive(Debug, Clone, PartialEq)]
// One message is built per benchmark and written at once; boxing the large
// variant would only make it clumsier to construct and match.
#[allow(clippy::large_enum_variant)]
pub enum Message {
    /// `"reason": "benchmark-complete"`: a benchmark's measurements and
    /// statistics.
    BenchmarkComplete(BenchmarkComplete),
    /// `"reason": "group-complete"`: a group has finished.
    GroupComplete(GroupComplete),
}

impl ToJson for Message {
    /// The message's fields after its `reason`, as serde's internally
    /// tagged enums write them.
    #[inline]
    fn to_json(&self) -> Json {
        let (reason, fields) = match self {
            Message::BenchmarkComplete(m) => ("benchmark-complete", m.to_json()),
            Message::GroupComplete(m) => ("group-complete", m.to_json()),
        };
        let mut members = vec![("reason".to_owned(), Json::String(reason.into()))];
        if let Json::Object(rest) = fields {
            members.extend(rest);
        }
        Json::Object(members)
    }
}

impl FromJson for Message {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        let mut fields = Fields::of(value, "Message")?;
        let reason: String = fields.take("reason")?;
        let rest = Json::Object(fields.into_members());
        match reason.as_str() {
            "benchmark-complete" => {
                BenchmarkComplete::from_json(rest).map(Message::BenchmarkComplete)
            }
            "group-complete" => GroupComplete::from_json(rest).map(Message::GroupComplete),
            other => Err(Error::new(format!("unknown reason `{other}`"))),
        }
    }
}

crate::__json_serde!(Message);

/// A benchmark has been measured and analysed.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchmarkComplete {
    /// The benchmark's id (its title).
    pub id: String,
    /// The folder holding its report.
    pub report_directory: String,
    /// Iterations of each sample.
    pub iteration_count: Vec<u64>,
    /// Total measured value of each sample, in `unit`.
    pub measured_values: Vec<f64>,
    /// Unit of `measured_values` and of the estimates (`ns` for wall time).
    pub unit: String,
    /// Work per iteration: empty, or one entry per kind.
    pub throughput: Vec<Throughput>,
    /// The slope if there is one, else the mean.
    pub typical: ConfidenceInterval,
    /// Mean of the per-iteration values.
    pub mean: ConfidenceInterval,
    /// Median of the per-iteration values.
    pub median: ConfidenceInterval,
    /// Median absolute deviation of the per-iteration values.
    pub median_abs_dev: ConfidenceInterval,
    /// Slope of the regression (linear sampling only, else `null`).
    pub slope: Option<ConfidenceInterval>,
    /// The change from the previous run (`null` without one).
    pub change: Option<ChangeDetails>,
    /// yardstick's extra measurements (`--measure`), each with its unit;
    /// left out when there are none, so cargo-criterion's readers see
    /// exactly its schema.
    pub metrics: Vec<MetricSummary>,
}

crate::json_object!(BenchmarkComplete { id, report_directory, iteration_count, measured_values, unit, throughput, typical, mean, median, median_abs_dev, slope, change, metrics (skip) });

/// One extra measurement of a benchmark (yardstick's addition).
#[derive(Debug, Clone, PartialEq)]
pub struct MetricSummary {
    /// The metric's name (`cpu`, `allocations`, `page-faults`, …).
    pub name: String,
    /// Its unit (`ns`, `allocations`, `bytes`, `faults`, …).
    pub unit: String,
    /// The value per iteration with its interval (additive metrics).
    pub per_iteration: Option<ConfidenceInterval>,
    /// The largest sample value (metrics that are maxima, such as peak
    /// live bytes).
    pub peak: Option<f64>,
    /// The change from the baseline, when it measured this metric too.
    pub change: Option<ChangeDetails>,
}

crate::json_object!(MetricSummary {
    name,
    unit,
    per_iteration,
    peak,
    change
});

/// A group of benchmarks has finished.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupComplete {
    /// The group's name.
    pub group_name: String,
    /// The ids of its benchmarks, in the order they ran.
    pub benchmarks: Vec<String>,
    /// The folder holding the group's report.
    pub report_directory: String,
    /// yardstick's Big-O fits per function over numeric inputs (at least
    /// three), best first; left out when there are none.
    pub complexity: Vec<ComplexityFits>,
}

crate::json_object!(GroupComplete { group_name, benchmarks, report_directory, complexity (skip) });

/// The Big-O fits of one function of a group.
#[derive(Debug, Clone, PartialEq)]
pub struct ComplexityFits {
    /// The function (`null` for a group of one function over inputs).
    pub function: Option<String>,
    /// The fits, best first.
    pub fits: Vec<ComplexityFit>,
}

crate::json_object!(ComplexityFits { function, fits });

/// One fit `time ≈ coefficient · f(n)` (seconds).
#[derive(Debug, Clone, PartialEq)]
pub struct ComplexityFit {
    /// `O(1)`, `O(n)`, `O(log n)`, `O(n log n)`, `O(n^2)`, `O(n^3)`.
    pub name: String,
    /// Seconds per unit of `f(n)`.
    pub coefficient: f64,
    /// Normalised root-mean-square error, in percent.
    pub err_pct: f64,
}

crate::json_object!(ComplexityFit {
    name,
    coefficient,
    err_pct
});

/// An estimate with its confidence interval and unit.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfidenceInterval {
    /// The point estimate.
    pub estimate: f64,
    /// Lower bound.
    pub lower_bound: f64,
    /// Upper bound.
    pub upper_bound: f64,
    /// The unit: that of the measurement (`ns`), or `%` for relative
    /// changes, whose values are nevertheless fractions (0.0142 = 1.42 %),
    /// as in cargo-criterion.
    pub unit: String,
}

crate::json_object!(ConfidenceInterval {
    estimate,
    lower_bound,
    upper_bound,
    unit
});

/// Work per iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Throughput {
    /// Amount per iteration.
    pub per_iteration: u64,
    /// `bytes` (also for decimal bytes), `elements` or `bits`.
    pub unit: String,
}

crate::json_object!(Throughput {
    per_iteration,
    unit
});

/// The change from the previous run.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeDetails {
    /// Relative change of the mean (a fraction, unit `%`).
    pub mean: ConfidenceInterval,
    /// Relative change of the median (a fraction, unit `%`).
    pub median: ConfidenceInterval,
    /// The verdict.
    pub change: ChangeType,
    /// yardstick: the p-value of the comparison.
    pub p_value: Option<f64>,
    /// yardstick: the level `change` was judged at, when it holds the
    /// run's error rate across its comparisons (its share of the
    /// significance level); absent when each comparison is judged alone.
    pub judged_at: Option<f64>,
    /// yardstick: the verdict of this comparison alone, at the significance
    /// level, when `change` holds the run's error rate.
    pub change_alone: Option<ChangeType>,
}

crate::json_object!(ChangeDetails {
    mean,
    median,
    change,
    p_value (skip),
    judged_at (skip),
    change_alone (skip)
});

/// cargo-criterion's verdict: a change within the noise threshold is
/// `NoChange`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeType {
    /// Not significant, or within the noise threshold.
    NoChange,
    /// Significantly faster.
    Improved,
    /// Significantly slower.
    Regressed,
}

crate::json_names!(ChangeType {
    NoChange,
    Improved,
    Regressed
});

impl ConfidenceInterval {
    /// `estimate` in `[lower_bound, upper_bound]`, in `unit`.
    #[must_use]
    pub fn new(estimate: f64, lower_bound: f64, upper_bound: f64, unit: &str) -> Self {
        ConfidenceInterval {
            estimate,
            lower_bound,
            upper_bound,
            unit: unit.to_owned(),
        }
    }
}

impl Throughput {
    /// `per_iteration` of the kind raw.csv names `kind` (`bytes`,
    /// `bytes_decimal`, `elements`, `bits`), in cargo-criterion's units:
    /// decimal bytes are `bytes` (cargo-criterion has no unit of its own
    /// for them).
    #[must_use]
    pub fn new(per_iteration: u64, kind: &str) -> Throughput {
        let unit = if kind == "bytes_decimal" {
            "bytes"
        } else {
            kind
        };
        Throughput {
            per_iteration,
            unit: unit.to_owned(),
        }
    }

    /// A benchmark's throughput as cargo-criterion lists it: nothing, one
    /// entry, or two for elements and bytes; units as in [`new`](Self::new).
    #[must_use]
    pub fn entries(t: Option<&crate::criterion::Throughput>) -> Vec<Throughput> {
        use crate::criterion::Throughput as T;
        let entry = Throughput::new;
        match t {
            None => Vec::new(),
            Some(T::Bytes(n) | T::BytesDecimal(n)) => vec![entry(*n, "bytes")],
            Some(T::Elements(n)) => vec![entry(*n, "elements")],
            Some(T::Bits(n)) => vec![entry(*n, "bits")],
            Some(T::ElementsAndBytes { elements, bytes }) => {
                vec![entry(*elements, "elements"), entry(*bytes, "bytes")]
            }
        }
    }
}

impl ChangeType {
    /// The verdict named `verdict` (`Regressed`, `Improved`; any other name
    /// is `NoChange`). Without a verdict (a change read back from disk, whose
    /// p-value is not saved), a change whose whole interval of the mean lies
    /// beyond 1 %, as Criterion.rs's default noise threshold.
    #[must_use]
    pub fn from_verdict(verdict: Option<&str>, mean: &ConfidenceInterval) -> ChangeType {
        match verdict {
            Some("Regressed") => ChangeType::Regressed,
            Some("Improved") => ChangeType::Improved,
            Some(_) => ChangeType::NoChange,
            None if mean.lower_bound > 0.01 => ChangeType::Regressed,
            None if mean.upper_bound < -0.01 => ChangeType::Improved,
            None => ChangeType::NoChange,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ci(estimate: f64, unit: &str) -> ConfidenceInterval {
        ConfidenceInterval {
            estimate,
            lower_bound: estimate - 1.0,
            upper_bound: estimate + 1.0,
            unit: unit.into(),
        }
    }

    #[test]
    fn benchmark_complete_has_the_guides_keys_in_order() {
        let msg = Message::BenchmarkComplete(BenchmarkComplete {
            id: "norm".into(),
            report_directory: "target/criterion/reports/norm".into(),
            iteration_count: vec![30, 60],
            measured_values: vec![124200.0, 248000.0],
            unit: "ns".into(),
            throughput: vec![Throughput {
                per_iteration: 1024,
                unit: "elements".into(),
            }],
            typical: ci(3419.0, "ns"),
            mean: ci(3419.0, "ns"),
            median: ci(3362.0, "ns"),
            median_abs_dev: ci(130.0, "ns"),
            slope: None,
            change: Some(ChangeDetails {
                mean: ci(0.014, "%"),
                median: ci(0.012, "%"),
                change: ChangeType::NoChange,
                p_value: None,
                judged_at: None,
                change_alone: None,
            }),
            metrics: Vec::new(),
        });
        let json = crate::json::to_string(&msg);
        let keys = [
            "\"reason\":\"benchmark-complete\"",
            "\"id\":",
            "\"report_directory\":",
            "\"iteration_count\":[30,60]",
            "\"measured_values\":",
            "\"unit\":\"ns\"",
            "\"throughput\":[{\"per_iteration\":1024,\"unit\":\"elements\"}]",
            "\"typical\":",
            "\"mean\":",
            "\"median\":",
            "\"median_abs_dev\":",
            "\"slope\":null",
            "\"change\":{",
            "\"change\":\"NoChange\"",
        ];
        let mut at = 0;
        for k in keys {
            let pos = json[at..]
                .find(k)
                .unwrap_or_else(|| panic!("{k} after {at} in {json}"));
            at += pos + k.len();
        }
        assert!(json.starts_with("{\"reason\""));
        let back: Message = crate::json::from_str(&json).unwrap();
        assert_eq!(back, msg);
    }

    #[test]
    fn throughput_entries_use_cargo_criterions_units() {
        use crate::criterion::Throughput as T;
        let units = |t| {
            Throughput::entries(Some(&t))
                .into_iter()
                .map(|e| (e.per_iteration, e.unit))
                .collect::<Vec<_>>()
        };
        assert!(Throughput::entries(None).is_empty());
        assert_eq!(units(T::BytesDecimal(8)), [(8, "bytes".to_owned())]);
        assert_eq!(units(T::Bits(3)), [(3, "bits".to_owned())]);
        assert_eq!(
            units(T::ElementsAndBytes {
                elements: 4,
                bytes: 32
            }),
            [(4, "elements".to_owned()), (32, "bytes".to_owned())]
        );
    }

    #[test]
    fn without_a_verdict_only_a_change_wholly_beyond_one_percent_counts() {
        let mean = |lo, hi| ConfidenceInterval::new((lo + hi) / 2.0, lo, hi, "%");
        let v = |lo, hi| ChangeType::from_verdict(None, &mean(lo, hi));
        assert_eq!(v(0.02, 0.05), ChangeType::Regressed);
        assert_eq!(v(0.005, 0.05), ChangeType::NoChange);
        assert_eq!(v(-0.05, -0.02), ChangeType::Improved);
        let named = |n| ChangeType::from_verdict(Some(n), &mean(0.02, 0.05));
        assert_eq!(named("WithinNoise"), ChangeType::NoChange);
        assert_eq!(named("Improved"), ChangeType::Improved);
    }
}
