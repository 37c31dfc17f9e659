//! The files of Criterion.rs's home directory, field for field.

use crate::json::{Error, Fields, FromJson, Json, ToJson};

/// How much work one iteration does, so results can be shown as a rate.
///
/// Serialised as Criterion.rs does (`{"Bytes":1024}`).
///
/// Five variants, as Criterion.rs 0.8 has them. Code written for
/// Criterion.rs 0.5, when there were three, that matches them exhaustively
/// does not compile (with Criterion.rs 0.6+ neither):
///
/// ```compile_fail,E0004
/// # use yardstick_format::criterion::Throughput;
/// fn per_iteration(t: Throughput) -> u64 {
///     match t {
///         Throughput::Bytes(n) | Throughput::BytesDecimal(n) => n,
///         Throughput::Elements(n) => n,
///     }
/// }
/// ```
///
/// One arm more makes it build with every version:
///
/// ```
/// # use yardstick_format::criterion::Throughput;
/// fn per_iteration(t: Throughput) -> u64 {
///     match t {
///         Throughput::Bytes(n) | Throughput::BytesDecimal(n) => n,
///         Throughput::Elements(n) => n,
///         _ => 0, // Bits and ElementsAndBytes (Criterion.rs 0.6+)
///     }
/// }
/// assert_eq!(per_iteration(Throughput::Bits(8)), 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Throughput {
    /// Bytes per iteration, shown in binary units (KiB/s, MiB/s, GiB/s).
    Bytes(u64),
    /// Bytes per iteration, shown in decimal units (KB/s, MB/s, GB/s).
    BytesDecimal(u64),
    /// Elements per iteration, shown as elem/s.
    Elements(u64),
    /// Bits per iteration, shown as b/s.
    Bits(u64),
    /// Both elements and bytes per iteration (Criterion.rs 0.8).
    ElementsAndBytes {
        /// Elements per iteration.
        elements: u64,
        /// Bytes per iteration.
        bytes: u64,
    },
}

impl ToJson for Throughput {
    /// `{"Bytes":1024}`, `{"ElementsAndBytes":{"elements":4,"bytes":32}}`:
    /// serde's default for such an enum, as Criterion.rs writes it.
    #[inline]
    fn to_json(&self) -> Json {
        let (name, value) = match *self {
            Throughput::Bytes(n) => ("Bytes", n.to_json()),
            Throughput::BytesDecimal(n) => ("BytesDecimal", n.to_json()),
            Throughput::Elements(n) => ("Elements", n.to_json()),
            Throughput::Bits(n) => ("Bits", n.to_json()),
            Throughput::ElementsAndBytes { elements, bytes } => (
                "ElementsAndBytes",
                Json::Object(vec![
                    ("elements".to_owned(), elements.to_json()),
                    ("bytes".to_owned(), bytes.to_json()),
                ]),
            ),
        };
        Json::Object(vec![(name.to_owned(), value)])
    }
}

impl FromJson for Throughput {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        let Json::Object(mut members) = value else {
            return Err(Error::new(format!(
                "expected an object (Throughput), found {}",
                value.kind()
            )));
        };
        let (Some((name, value)), true) = (members.pop(), members.is_empty()) else {
            return Err(Error::new("expected an object of one member (Throughput)"));
        };
        let amount = |v: Json| u64::from_json(v).map_err(|e| e.within(&name));
        match name.as_str() {
            "Bytes" => amount(value).map(Throughput::Bytes),
            "BytesDecimal" => amount(value).map(Throughput::BytesDecimal),
            "Elements" => amount(value).map(Throughput::Elements),
            "Bits" => amount(value).map(Throughput::Bits),
            "ElementsAndBytes" => {
                let mut f = Fields::of(value, "ElementsAndBytes")?;
                Ok(Throughput::ElementsAndBytes {
                    elements: f.take("elements")?,
                    bytes: f.take("bytes")?,
                })
            }
            other => Err(Error::new(format!("unknown variant `{other}`"))),
        }
    }
}

crate::__json_serde!(Throughput);

impl Throughput {
    /// The amount per iteration and its kind, as the `throughput_num` and
    /// `throughput_type` columns of raw.csv.
    #[must_use]
    pub fn csv_columns(&self) -> (u64, &'static str) {
        match *self {
            Throughput::Bytes(n) => (n, "bytes"),
            Throughput::BytesDecimal(n) => (n, "bytes_decimal"),
            Throughput::Elements(n) => (n, "elements"),
            Throughput::Bits(n) => (n, "bits"),
            Throughput::ElementsAndBytes { elements, .. } => (elements, "elements"),
        }
    }
}

/// The sampling mode a benchmark used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SamplingMode {
    /// Iteration counts d, 2d, …, nd.
    Linear,
    /// Equal iteration counts.
    Flat,
}

crate::json_names!(SamplingMode { Linear, Flat });

/// `sample.json`: the raw samples, total measured value per sample.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedSample {
    /// How the iteration counts were chosen.
    pub sampling_mode: SamplingMode,
    /// Iterations of each sample.
    pub iters: Vec<f64>,
    /// Total measured value of each sample (nanoseconds for time).
    pub times: Vec<f64>,
    /// The worker process that took each sample (yardstick's extension;
    /// Criterion.rs's readers ignore it). Absent when one process took them
    /// all, as Criterion.rs does.
    pub processes: Option<Vec<u32>>,
    /// What the times measure, in words (`wall time`, `process CPU time`,
    /// a custom measurement's type, with the `--measure` set): yardstick's
    /// extension, so that a run never compares itself with a baseline of
    /// another kind. Absent in Criterion.rs's files and older ones, which
    /// are compared as they always were.
    pub measurement: Option<String>,
}

crate::json_object!(SavedSample { sampling_mode, iters, times, processes (skip), measurement (skip) });

impl SavedSample {
    /// Checks what the analysis relies on: as many times as counts, at least
    /// two samples, positive counts, finite non-negative times.
    ///
    /// # Errors
    ///
    /// A sentence saying what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if self.iters.len() != self.times.len() {
            return Err(format!(
                "{} iteration counts but {} times",
                self.iters.len(),
                self.times.len()
            ));
        }
        if self.iters.len() < 2 {
            return Err(format!(
                "{} samples; at least 2 are needed",
                self.iters.len()
            ));
        }
        if self.iters.iter().any(|&n| !(n.is_finite() && n > 0.0)) {
            return Err("an iteration count is not a positive number".into());
        }
        if self.times.iter().any(|&t| !(t.is_finite() && t >= 0.0)) {
            return Err("a time is negative or not a number".into());
        }
        if let Some(p) = &self.processes {
            if p.len() != self.iters.len() {
                return Err(format!(
                    "{} process indices for {} samples",
                    p.len(),
                    self.iters.len()
                ));
            }
        }
        Ok(())
    }

    /// Measured value per iteration of each sample.
    #[must_use]
    pub fn averages(&self) -> Vec<f64> {
        self.times
            .iter()
            .zip(&self.iters)
            .map(|(t, n)| t / n)
            .collect()
    }
}

/// A confidence interval as Criterion.rs writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConfidenceInterval {
    /// The confidence level, a fraction (0.95).
    pub confidence_level: f64,
    /// Lower bound.
    pub lower_bound: f64,
    /// Upper bound.
    pub upper_bound: f64,
}

crate::json_object!(ConfidenceInterval {
    confidence_level,
    lower_bound,
    upper_bound
});

/// One estimate in `estimates.json`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EstimateFile {
    /// The interval.
    pub confidence_interval: ConfidenceInterval,
    /// The statistic of the samples.
    pub point_estimate: f64,
    /// Standard deviation of its bootstrap distribution.
    pub standard_error: f64,
}

crate::json_object!(EstimateFile {
    confidence_interval,
    point_estimate,
    standard_error
});

/// `estimates.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimatesFile {
    /// Mean of the per-iteration values.
    pub mean: EstimateFile,
    /// Median of the per-iteration values.
    pub median: EstimateFile,
    /// Median absolute deviation (×1.4826).
    pub median_abs_dev: EstimateFile,
    /// Slope of the line through the origin (linear sampling), else null.
    pub slope: Option<EstimateFile>,
    /// Standard deviation.
    pub std_dev: EstimateFile,
}

crate::json_object!(EstimatesFile {
    mean,
    median,
    median_abs_dev,
    slope,
    std_dev
});

/// `change/estimates.json`: relative changes (0.05 = +5 %) of mean and
/// median.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeFile {
    /// Relative change of the mean.
    pub mean: EstimateFile,
    /// Relative change of the median.
    pub median: EstimateFile,
}

crate::json_object!(ChangeFile { mean, median });

/// `benchmark.json`: who the benchmark is.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchmarkRecord {
    /// The group (or the id given to `bench_function`).
    pub group_id: String,
    /// The function inside the group, if any.
    pub function_id: Option<String>,
    /// The parameter, if any.
    pub value_str: Option<String>,
    /// Work per iteration, if set.
    pub throughput: Option<Throughput>,
    /// `group/function/value`.
    pub full_id: String,
    /// The folder under the home directory.
    pub directory_name: String,
    /// `full_id` cut to 100 characters.
    pub title: String,
}

crate::json_object!(BenchmarkRecord {
    group_id,
    function_id,
    value_str,
    throughput,
    full_id,
    directory_name,
    title
});

/// One row of `raw.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRow {
    /// Group id.
    pub group: String,
    /// Function id (empty if none).
    pub function: String,
    /// Value string (empty if none).
    pub value: String,
    /// Work per iteration.
    pub throughput_num: Option<u64>,
    /// `bytes`, `bytes_decimal`, `elements` or `bits`.
    pub throughput_type: Option<&'static str>,
    /// Total measured value of the sample.
    pub sample_measured_value: f64,
    /// Its unit (`ns` for time).
    pub unit: String,
    /// Iterations of the sample.
    pub iteration_count: u64,
}

/// The header of raw.csv, in the guide's column order.
pub const RAW_HEADER: &str = "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count";

/// The rows as CSV (RFC 4180: fields with commas, quotes or line breaks are
/// quoted), header first.
#[must_use]
pub fn raw_csv(rows: &[RawRow]) -> String {
    let mut out = String::with_capacity(64 * (rows.len() + 1));
    out.push_str(RAW_HEADER);
    out.push('\n');
    for r in rows {
        let fields = [
            csv_field(&r.group),
            csv_field(&r.function),
            csv_field(&r.value),
            r.throughput_num.map(|n| n.to_string()).unwrap_or_default(),
            r.throughput_type.unwrap_or_default().to_owned(),
            r.sample_measured_value.to_string(),
            csv_field(&r.unit),
            r.iteration_count.to_string(),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_null_bound_reads_as_an_unknown_value() {
        // What serde_json writes for a NaN or infinite bound.
        let text = r#"{"confidence_interval":{"confidence_level":0.95,"lower_bound":1e-300,
            "upper_bound":null},"point_estimate":2e-300,"standard_error":null}"#;
        let e: EstimateFile = crate::json::from_str(text).unwrap();
        assert!(e.confidence_interval.upper_bound.is_nan());
        assert!(e.standard_error.is_nan());
        assert_eq!(e.point_estimate, 2e-300);
        // And a missing field is still an error.
        assert!(crate::json::from_str::<EstimateFile>(r#"{"point_estimate":1}"#).is_err());
    }

    #[test]
    fn sample_json_has_criterions_fields() {
        let s = SavedSample {
            sampling_mode: SamplingMode::Linear,
            iters: vec![1.0, 2.0],
            times: vec![10.0, 20.0],
            processes: None,
            measurement: None,
        };
        assert_eq!(
            crate::json::to_string(&s),
            r#"{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[10.0,20.0]}"#
        );
    }

    #[test]
    fn estimates_json_matches_the_guide() {
        let e = EstimateFile {
            confidence_interval: ConfidenceInterval {
                confidence_level: 0.95,
                lower_bound: 1.0,
                upper_bound: 3.0,
            },
            point_estimate: 2.0,
            standard_error: 0.5,
        };
        let json = crate::json::to_string(&e);
        assert_eq!(
            json,
            r#"{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.0,"standard_error":0.5}"#
        );
    }

    #[test]
    fn benchmark_json_encodes_throughput_as_criterion() {
        let r = BenchmarkRecord {
            group_id: "g".into(),
            function_id: None,
            value_str: Some("10".into()),
            throughput: Some(Throughput::Bytes(1024)),
            full_id: "g/10".into(),
            directory_name: "g/10".into(),
            title: "g/10".into(),
        };
        let json = crate::json::to_string(&r);
        assert!(json.contains(r#""function_id":null"#), "{json}");
        assert!(json.contains(r#""throughput":{"Bytes":1024}"#), "{json}");
        let t = crate::json::to_string(&Throughput::ElementsAndBytes {
            elements: 2,
            bytes: 8,
        });
        assert_eq!(t, r#"{"ElementsAndBytes":{"elements":2,"bytes":8}}"#);
    }

    #[test]
    fn raw_csv_has_the_guides_columns_and_quotes() {
        let rows = [RawRow {
            group: "a,\"b\"".into(),
            function: String::new(),
            value: "1".into(),
            throughput_num: Some(8),
            throughput_type: Some("bytes"),
            sample_measured_value: 12.5,
            unit: "ns".into(),
            iteration_count: 3,
        }];
        let csv = raw_csv(&rows);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next().unwrap(),
            "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count"
        );
        assert_eq!(
            lines.next().unwrap(),
            "\"a,\"\"b\"\"\",,1,8,bytes,12.5,ns,3"
        );
    }
}
