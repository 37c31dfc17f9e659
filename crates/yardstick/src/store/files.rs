//! The file formats, field for field those of Criterion.rs.

use serde::{Deserialize, Serialize};

use crate::config::ActualSamplingMode;
use crate::Throughput;

/// `sample.json`: the raw samples, total measured value per sample.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SavedSample {
    pub sampling_mode: ActualSamplingMode,
    pub iters: Vec<f64>,
    pub times: Vec<f64>,
}

impl SavedSample {
    /// Checks what the analysis relies on; the error says what is wrong.
    pub(crate) fn validate(&self) -> Result<(), String> {
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
        Ok(())
    }

    /// Time per iteration of each sample.
    pub(crate) fn averages(&self) -> Vec<f64> {
        self.times
            .iter()
            .zip(&self.iters)
            .map(|(t, n)| t / n)
            .collect()
    }
}

/// A confidence interval as Criterion.rs writes it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub(crate) struct ConfidenceInterval {
    pub confidence_level: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
}

/// One estimate in `estimates.json`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub(crate) struct EstimateFile {
    pub confidence_interval: ConfidenceInterval,
    pub point_estimate: f64,
    pub standard_error: f64,
}

impl From<&yardstick_stats::Estimate> for EstimateFile {
    fn from(e: &yardstick_stats::Estimate) -> Self {
        EstimateFile {
            confidence_interval: ConfidenceInterval {
                confidence_level: e.confidence,
                lower_bound: e.lower,
                upper_bound: e.upper,
            },
            point_estimate: e.point,
            standard_error: e.standard_error,
        }
    }
}

/// `estimates.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct EstimatesFile {
    pub mean: EstimateFile,
    pub median: EstimateFile,
    pub median_abs_dev: EstimateFile,
    pub slope: Option<EstimateFile>,
    pub std_dev: EstimateFile,
}

impl From<&yardstick_stats::Estimates> for EstimatesFile {
    fn from(e: &yardstick_stats::Estimates) -> Self {
        EstimatesFile {
            mean: (&e.mean).into(),
            median: (&e.median).into(),
            median_abs_dev: (&e.mad).into(),
            slope: e.slope.as_ref().map(Into::into),
            std_dev: (&e.std_dev).into(),
        }
    }
}

/// `change/estimates.json`: relative changes of mean and median.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ChangeFile {
    pub mean: EstimateFile,
    pub median: EstimateFile,
}

/// `benchmark.json`: who the benchmark is.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct BenchmarkRecord {
    pub group_id: String,
    pub function_id: Option<String>,
    pub value_str: Option<String>,
    pub throughput: Option<Throughput>,
    pub full_id: String,
    pub directory_name: String,
    pub title: String,
}

/// One row of `raw.csv`.
#[derive(Debug, Clone)]
pub(crate) struct RawRow {
    pub group: String,
    pub function: String,
    pub value: String,
    pub throughput_num: Option<u64>,
    pub throughput_type: Option<&'static str>,
    pub sample_measured_value: f64,
    pub unit: String,
    pub iteration_count: u64,
}

const RAW_HEADER: &str = "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count";

/// The rows as CSV (RFC 4180: fields with commas, quotes or line breaks are
/// quoted), header first.
pub(crate) fn raw_csv(rows: &[RawRow]) -> String {
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
    fn sample_json_has_criterions_fields() {
        let s = SavedSample {
            sampling_mode: ActualSamplingMode::Linear,
            iters: vec![1.0, 2.0],
            times: vec![10.0, 20.0],
        };
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[10.0,20.0]}"#
        );
    }

    #[test]
    fn estimates_json_matches_the_guide() {
        let e = yardstick_stats::Estimate {
            point: 2.0,
            lower: 1.0,
            upper: 3.0,
            confidence: 0.95,
            standard_error: 0.5,
        };
        let json = serde_json::to_string(&EstimateFile::from(&e)).unwrap();
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
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains(r#""function_id":null"#), "{json}");
        assert!(json.contains(r#""throughput":{"Bytes":1024}"#), "{json}");
        let t = serde_json::to_string(&Throughput::ElementsAndBytes {
            elements: 2,
            bytes: 8,
        })
        .unwrap();
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
