//! Reading the baseline a run compares with, so that no saved state can
//! make a benchmark fail forever: an unreadable or unusable baseline is a
//! warning, the run goes on uncompared, and saving replaces it.

use crate::cli::Baseline;
use crate::id::FullId;
use crate::output::Terminal;
use crate::store::{BenchmarkDir, SavedSample};
use yardstick_format::binary::BinaryFile;

/// The baseline to compare with, and whether one must exist.
pub(crate) fn compare_target(baseline: &Baseline) -> Option<(&str, bool)> {
    match baseline {
        Baseline::Save(n) | Baseline::CompareLenient(n) => Some((n, false)),
        Baseline::CompareStrict(n) => Some((n, true)),
        Baseline::Discard => None,
    }
}

/// What was read of the baseline.
#[derive(Default)]
pub(crate) struct Loaded {
    /// The samples to compare with.
    pub sample: Option<SavedSample>,
    /// The record of the binary that measured them (`binary.json`), when
    /// there are samples and it kept one.
    pub binary: Option<BinaryFile>,
    /// The baseline's name, when there are samples.
    pub name: Option<String>,
    /// The name of a baseline whose `sample.json` is unreadable: it is
    /// moved aside before saving over it.
    pub corrupt: Option<String>,
}

/// Reads the baseline `baseline` names, warning about every file of it that
/// is unreadable, and passing over one that measured another `kind` (see
/// `measurement::kind`). A strict baseline (`--baseline`) that is missing,
/// unreadable or unusable is an error; otherwise the run goes on.
pub(crate) fn load(
    dir: &BenchmarkDir,
    baseline: &Baseline,
    id: &FullId,
    terminal: &Terminal,
    kind: &str,
) -> Result<Loaded, String> {
    let Some((name, strict)) = compare_target(baseline) else {
        return Ok(Loaded::default());
    };
    if !dir.has_baseline(name) {
        if strict {
            return Err(format!(
                "baseline '{name}' not found under {} — run with --save-baseline {name} first",
                dir.root.display()
            ));
        }
        return Ok(Loaded::default());
    }
    for problem in dir.check_baseline_files(name) {
        terminal.warning(&format!("baseline '{name}' of {}: {problem}", id.full_id));
    }
    let sample = match dir.load_sample(name) {
        Ok(sample) => sample,
        Err(e) => {
            terminal.warning(&format!(
                "ignoring baseline '{name}' of {}: {e}",
                id.full_id
            ));
            if strict {
                return Err(format!("baseline '{name}' is unreadable"));
            }
            return Ok(Loaded {
                corrupt: Some(name.to_owned()),
                ..Loaded::default()
            });
        }
    };
    // A baseline that cannot be compared with: a warning, and for a strict
    // one an error.
    let refuse = |warning: String, error: String| {
        let tail = if strict { "" } else { "; this run replaces it" };
        terminal.warning(&format!("{warning}{tail}"));
        if strict {
            Err(error)
        } else {
            Ok(Loaded::default())
        }
    };
    if let Some(why) = unusable(&sample) {
        return refuse(
            format!(
                "ignoring baseline '{name}' of {}: {why}, so no change can be measured against it",
                id.full_id
            ),
            format!("baseline '{name}' cannot be compared with"),
        );
    }
    if let Some(theirs) = sample.measurement.as_deref().filter(|&k| k != kind) {
        return refuse(
            format!(
                "not comparing {} with baseline '{name}': it measured {theirs}, this run {kind}, and a change between two kinds of measurement means nothing",
                id.full_id
            ),
            format!("baseline '{name}' measured {theirs}, not {kind}"),
        );
    }
    Ok(Loaded {
        sample: Some(sample),
        binary: dir.load_binary(name).ok().flatten(),
        name: Some(name.to_owned()),
        corrupt: None,
    })
}

/// Names how baseline `name`'s binary was built differently from this
/// one (`yardstick_format::build::compare_line`), once per run for each
/// different line: the first as it is, a later one (a benchmark whose
/// baseline another build saved) with the benchmark's id. Builds alike
/// say nothing; a baseline without a record says so, once. `this` is the
/// record of this run's binary, when it keeps one: a baseline the same
/// binary measured (its name is its content's hash) was built the same
/// way, so nothing is read (the common run, nothing rebuilt). Returns
/// the line, for the benchmark's report.
pub(crate) fn say_build_difference(
    dir: &BenchmarkDir,
    baseline: &Loaded,
    this: Option<&BinaryFile>,
    id: &FullId,
    terminal: &Terminal,
) -> Option<String> {
    use std::sync::atomic::{AtomicBool, Ordering};
    static SAID_ONE: AtomicBool = AtomicBool::new(false);
    let name = baseline.name.as_deref()?;
    if let (Some(old), Some(new)) = (&baseline.binary, this) {
        if old.key() == new.key() && old.binary == new.binary {
            return None;
        }
    }
    let old = match crate::store::build::of_baseline(dir, name, baseline.binary.as_ref()) {
        Ok(old) => old,
        Err(e) => {
            let note = format!("not comparing the builds: {e}");
            if crate::output::first_time(&note) {
                terminal.warning(&note);
            }
            return None;
        }
    };
    let side = yardstick_format::build::baseline_words(name);
    let sides = yardstick_format::build::Sides {
        old: &side,
        new: "this run",
    };
    let this = crate::store::build::this_build();
    let line = yardstick_format::build::compare_line(old.as_ref(), Some(this), sides)?;
    if crate::output::first_time(&line) {
        if SAID_ONE.swap(true, Ordering::Relaxed) {
            terminal.note(&format!("{}: {line}", id.full_id));
        } else {
            terminal.note(&line);
        }
    }
    Some(line)
}

/// Why a readable sample cannot be a baseline: a relative change needs a
/// mean and a median above zero (a clock coarser than the routine saves
/// samples that are mostly zero).
pub(crate) fn unusable(sample: &SavedSample) -> Option<String> {
    let averages = sample.averages();
    let mean = yardstick_stats::univariate::mean(&averages).unwrap_or(0.0);
    let median = yardstick_stats::univariate::median(&averages).unwrap_or(0.0);
    if mean > 0.0 && median > 0.0 {
        return None;
    }
    let zero = averages.iter().filter(|&&v| v == 0.0).count();
    Some(format!(
        "{zero} of its {} samples measured zero time and its {} is zero",
        averages.len(),
        if mean > 0.0 { "median" } else { "mean" }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ActualSamplingMode;

    fn sample(times: &[f64]) -> SavedSample {
        SavedSample {
            sampling_mode: ActualSamplingMode::Flat,
            iters: vec![1.0; times.len()],
            times: times.to_vec(),
            processes: None,
            measurement: None,
        }
    }

    #[test]
    fn mostly_zero_samples_cannot_be_a_baseline() {
        // 7 of 10 zero: the median is 0, the mean 7.5.
        let s = sample(&[0.0, 0.0, 0.0, 25.0, 0.0, 0.0, 25.0, 0.0, 25.0, 0.0]);
        assert_eq!(
            unusable(&s).unwrap(),
            "7 of its 10 samples measured zero time and its median is zero"
        );
        assert_eq!(
            unusable(&sample(&[0.0; 10])).unwrap(),
            "10 of its 10 samples measured zero time and its mean is zero"
        );
        assert!(unusable(&sample(&[0.0, 1.0, 2.0])).is_none());
    }
}
