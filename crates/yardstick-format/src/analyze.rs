//! The JSON document `cargo yardstick analyze` prints. Field order here is
//! the order in the output. Schema: `schemas/analyze.v1.json`.

/// Version of the document's schema; bumped on incompatible changes.
pub const VERSION: u32 = 1;

/// The whole output.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// Schema version.
    pub version: u32,
    /// One entry per benchmark, in the order of the input file.
    pub benchmarks: Vec<BenchmarkReport>,
}

crate::json_object!(Document {
    version,
    benchmarks
});

/// A statistic with its bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EstimateJson {
    /// The statistic of the data.
    pub point: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// Confidence level as a fraction (0.95).
    pub confidence: f64,
}

crate::json_object!(EstimateJson {
    point,
    lower,
    upper,
    confidence
});

/// The analysis of one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchmarkReport {
    /// `group/function/value`, empty parts left out.
    pub id: String,
    /// Unit of the values (`ns`).
    pub unit: String,
    /// Number of samples.
    pub n: usize,
    /// Mean per-iteration value.
    pub mean: EstimateJson,
    /// Median per-iteration value.
    pub median: EstimateJson,
    /// Standard deviation of the per-iteration values.
    pub std_dev: EstimateJson,
    /// Median absolute deviation (×1.4826) of the per-iteration values.
    pub mad: EstimateJson,
    /// Slope through the origin of value on iterations; null for flat
    /// sampling (all iteration counts equal).
    pub slope: Option<EstimateJson>,
    /// Centred R² of the slope; null with the slope.
    pub r2: Option<f64>,
    /// Order statistics of the per-iteration values.
    pub percentiles: Percentiles,
    /// Tukey fences and outlier counts.
    pub tukey: TukeyJson,
    /// Haskell criterion's outlier variance.
    pub outlier_variance: OutlierVarianceJson,
    /// nanobench's err% (median absolute percentage error), in percent.
    pub err_pct: f64,
    /// The change from the baseline (with `--baseline`, when the benchmark
    /// is in it).
    pub change: Option<ChangeJson>,
    /// Big-O fits over the numeric `value`s of the benchmark's group and
    /// function, best first (two or more numeric values only).
    pub complexity: Option<Vec<ComplexityJson>>,
}

crate::json_object!(BenchmarkReport { id, unit, n, mean, median, std_dev, mad, slope, r2, percentiles, tukey, outlier_variance, err_pct, change (skip), complexity (skip) });

/// Percentiles (type 7) of the per-iteration values.
#[derive(Debug, Clone, PartialEq)]
pub struct Percentiles {
    /// Smallest.
    pub min: f64,
    /// 25th percentile.
    pub p25: f64,
    /// Median.
    pub p50: f64,
    /// 75th percentile.
    pub p75: f64,
    /// Largest.
    pub max: f64,
}

crate::json_object!(Percentiles {
    min,
    p25,
    p50,
    p75,
    max
});

/// Tukey's fences and outlier counts.
#[derive(Debug, Clone, PartialEq)]
pub struct TukeyJson {
    /// `[low_severe, low_mild, high_mild, high_severe]` fences.
    pub fences: [f64; 4],
    /// Values below the low severe fence.
    pub low_severe: usize,
    /// Values between the low fences.
    pub low_mild: usize,
    /// Values between the high fences.
    pub high_mild: usize,
    /// Values above the high severe fence.
    pub high_severe: usize,
}

crate::json_object!(TukeyJson {
    fences,
    low_severe,
    low_mild,
    high_mild,
    high_severe
});

/// The outlier variance.
#[derive(Debug, Clone, PartialEq)]
pub struct OutlierVarianceJson {
    /// Fraction of the variance due to outliers.
    pub fraction: f64,
    /// `unaffected`, `slight`, `moderate` or `severe`.
    pub class: String,
}

crate::json_object!(OutlierVarianceJson { fraction, class });

/// The comparison with the baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeJson {
    /// Relative change of the mean (0.05 = 5 % slower).
    pub mean: EstimateJson,
    /// Relative change of the median.
    pub median: EstimateJson,
    /// p-value of Criterion.rs's bootstrapped t-test.
    pub p_value: f64,
    /// Welch's t-test of new against baseline.
    pub welch: WelchJson,
    /// Student's t interval of the difference of means (new − baseline).
    pub student: StudentJson,
    /// Mann-Whitney U test of new against baseline.
    pub mann_whitney: MannWhitneyJson,
    /// `regressed`, `improved`, `no_change` or `within_noise`.
    pub verdict: String,
}

crate::json_object!(ChangeJson {
    mean,
    median,
    p_value,
    welch,
    student,
    mann_whitney,
    verdict
});

/// Welch's t-test.
#[derive(Debug, Clone, PartialEq)]
pub struct WelchJson {
    /// t statistic (positive when the new run is slower); null when
    /// infinite.
    pub t: f64,
    /// Degrees of freedom.
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

crate::json_object!(WelchJson { t, df, p });

/// Student's t interval of the difference of means.
#[derive(Debug, Clone, PartialEq)]
pub struct StudentJson {
    /// `mean(new) − mean(baseline)`.
    pub diff: f64,
    /// Half width of the interval.
    pub half_width: f64,
    /// Confidence level as a fraction.
    pub confidence: f64,
}

crate::json_object!(StudentJson {
    diff,
    half_width,
    confidence
});

/// Mann-Whitney U test.
#[derive(Debug, Clone, PartialEq)]
pub struct MannWhitneyJson {
    /// U of the new run.
    pub u: f64,
    /// Two-sided p-value.
    pub p: f64,
}

crate::json_object!(MannWhitneyJson { u, p });

/// One Big-O fit.
#[derive(Debug, Clone, PartialEq)]
pub struct ComplexityJson {
    /// `O(1)`, `O(n)`, `O(log n)`, `O(n log n)`, `O(n^2)` or `O(n^3)`.
    pub name: String,
    /// Constant factor.
    pub coefficient: f64,
    /// Normalised root-mean-square error, in percent.
    pub err_pct: f64,
}

crate::json_object!(ComplexityJson {
    name,
    coefficient,
    err_pct
});
