//! Outlier classification by Tukey's fences, as Criterion.rs does it.
//!
//! With quartiles `q1`, `q3` (type 7) and `iqr = q3 − q1`, the fences are
//! `q1 − 3·iqr`, `q1 − 1.5·iqr`, `q3 + 1.5·iqr` and `q3 + 3·iqr`. A value
//! below the outer low fence is a severe low outlier, below the inner one a
//! mild low outlier, and symmetrically above. Comparisons are strict: a value
//! exactly on a fence belongs to the inner class. When the IQR is 0 all four
//! fences coincide with the quartile and every value that differs from it is
//! a severe outlier, exactly as in Criterion.rs.
//!
//! Outliers are only counted; they are never removed from the analysis.
//!
//! # Example
//!
//! ```
//! use yardstick_stats::{classify, OutlierClass};
//!
//! let t = classify(&[10.0, 11.0, 10.5, 10.2, 10.8, 30.0]);
//! assert_eq!(t.labels[5], OutlierClass::HighSevere);
//! assert_eq!(t.counts.high_severe, 1);
//! assert_eq!(t.counts.total(), 1);
//! ```

use crate::univariate::quartiles_of_sorted;

/// The four fences, lowest first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TukeyFences {
    /// `q1 − 3·iqr`: below it a value is a severe low outlier.
    pub low_severe: f64,
    /// `q1 − 1.5·iqr`: below it a value is a mild low outlier.
    pub low_mild: f64,
    /// `q3 + 1.5·iqr`: above it a value is a mild high outlier.
    pub high_mild: f64,
    /// `q3 + 3·iqr`: above it a value is a severe high outlier.
    pub high_severe: f64,
}

impl TukeyFences {
    /// The fences in the order `[low_severe, low_mild, high_mild,
    /// high_severe]` (the order of Criterion.rs's `tukey.json`).
    #[must_use]
    pub fn as_array(&self) -> [f64; 4] {
        [
            self.low_severe,
            self.low_mild,
            self.high_mild,
            self.high_severe,
        ]
    }

    /// The class of one value.
    #[must_use]
    pub fn class_of(&self, x: f64) -> OutlierClass {
        if x < self.low_severe {
            OutlierClass::LowSevere
        } else if x > self.high_severe {
            OutlierClass::HighSevere
        } else if x < self.low_mild {
            OutlierClass::LowMild
        } else if x > self.high_mild {
            OutlierClass::HighMild
        } else {
            OutlierClass::NotAnOutlier
        }
    }
}

/// Where a value falls relative to the fences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutlierClass {
    /// Below `q1 − 3·iqr`.
    LowSevere,
    /// Below `q1 − 1.5·iqr`, not below `q1 − 3·iqr`.
    LowMild,
    /// Between the inner fences (inclusive).
    NotAnOutlier,
    /// Above `q3 + 1.5·iqr`, not above `q3 + 3·iqr`.
    HighMild,
    /// Above `q3 + 3·iqr`.
    HighSevere,
}

impl OutlierClass {
    /// Whether this is any kind of outlier.
    #[must_use]
    pub fn is_outlier(self) -> bool {
        self != OutlierClass::NotAnOutlier
    }
}

/// How many values fall in each outlier class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OutlierCounts {
    /// Severe low outliers.
    pub low_severe: usize,
    /// Mild low outliers.
    pub low_mild: usize,
    /// Mild high outliers.
    pub high_mild: usize,
    /// Severe high outliers.
    pub high_severe: usize,
}

impl OutlierCounts {
    /// The number of outliers of every class.
    #[must_use]
    pub fn total(&self) -> usize {
        self.low_severe + self.low_mild + self.high_mild + self.high_severe
    }
}

/// The classification of a sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Tukey {
    /// The fences.
    pub fences: TukeyFences,
    /// How many values fall in each outlier class.
    pub counts: OutlierCounts,
    /// The class of each value, in the order of the sample.
    pub labels: Vec<OutlierClass>,
}

/// Classifies every value of `sample` by Tukey's fences.
///
/// An empty sample gives fences at 0, no labels and no outliers.
#[must_use]
pub fn classify(sample: &[f64]) -> Tukey {
    if sample.is_empty() {
        return Tukey {
            fences: TukeyFences {
                low_severe: 0.0,
                low_mild: 0.0,
                high_mild: 0.0,
                high_severe: 0.0,
            },
            counts: OutlierCounts::default(),
            labels: Vec::new(),
        };
    }
    let mut sorted = sample.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let (q1, _, q3) = quartiles_of_sorted(&sorted);
    let iqr = q3 - q1;
    let fences = TukeyFences {
        low_severe: q1 - 3.0 * iqr,
        low_mild: q1 - 1.5 * iqr,
        high_mild: q3 + 1.5 * iqr,
        high_severe: q3 + 3.0 * iqr,
    };
    let mut counts = OutlierCounts::default();
    let labels = sample
        .iter()
        .map(|&x| {
            let class = fences.class_of(x);
            match class {
                OutlierClass::LowSevere => counts.low_severe += 1,
                OutlierClass::LowMild => counts.low_mild += 1,
                OutlierClass::HighMild => counts.high_mild += 1,
                OutlierClass::HighSevere => counts.high_severe += 1,
                OutlierClass::NotAnOutlier => {}
            }
            class
        })
        .collect();
    Tukey {
        fences,
        counts,
        labels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_on_a_fence_is_inner_class() {
        // q1 = 2, q3 = 4 (type 7 over 1..=5), iqr = 2: fences -4, -1, 7, 10.
        let f = classify(&[1.0, 2.0, 3.0, 4.0, 5.0]).fences;
        assert_eq!(f.as_array(), [-4.0, -1.0, 7.0, 10.0]);
        assert_eq!(f.class_of(7.0), OutlierClass::NotAnOutlier);
        assert_eq!(f.class_of(7.5), OutlierClass::HighMild);
        assert_eq!(f.class_of(10.0), OutlierClass::HighMild);
        assert_eq!(f.class_of(10.5), OutlierClass::HighSevere);
        assert_eq!(f.class_of(-1.0), OutlierClass::NotAnOutlier);
        assert_eq!(f.class_of(-4.0), OutlierClass::LowMild);
        assert_eq!(f.class_of(-4.5), OutlierClass::LowSevere);
    }

    #[test]
    fn zero_iqr_makes_every_other_value_severe() {
        let t = classify(&[2.0, 2.0, 2.0, 2.0, 2.0, 1.0, 3.0]);
        assert_eq!(t.fences.as_array(), [2.0; 4]);
        assert_eq!(t.counts.low_severe, 1);
        assert_eq!(t.counts.high_severe, 1);
        assert_eq!(t.counts.total(), 2);
    }

    #[test]
    fn empty_sample() {
        let t = classify(&[]);
        assert!(t.labels.is_empty());
        assert_eq!(t.counts.total(), 0);
    }
}
