//! The code layouts of a kept binary. When the bench binary's build linked
//! layouts beside it (yardstick's linker wrapper, set up by
//! `cargo yardstick init`; `yardstick_format::linked`), they are kept with
//! it as `<binary>.layout<K>`, their content names listed in its folders'
//! `binary.json`, and the lock-step comparison runs layout `k % n` of both
//! builds in worker pair `k`, so that what moving the code does is sampled
//! rather than frozen into one link of each side.

use std::io;
use std::path::{Path, PathBuf};

use yardstick_format::binary::BinaryFile;
use yardstick_format::linked::{self, LinkedFile};

/// Keeps the layouts linked beside `exe` (kept as `name`) and returns
/// their content names, in order; none when its build linked none through
/// the wrapper.
///
/// # Errors
///
/// The one line saying why the layouts beside it are not kept (its build's
/// linker cannot shuffle, they belong to an earlier link, one is gone).
pub(super) fn keep(home: &Path, key: &str, exe: &Path, name: &str) -> Result<Vec<String>, String> {
    let record_path = linked::record_path(exe);
    let text = match std::fs::read(&record_path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(format!(
                "{} cannot be read ({e}): {UNSAMPLED}",
                record_path.display()
            ))
        }
    };
    let record: LinkedFile = yardstick_format::json::from_slice(&text)
        .map_err(|e| format!("{} is unreadable ({e}): {UNSAMPLED}", record_path.display()))?;
    if let Some(e) = record.error {
        return Err(format!(
            "this build linked no code layouts: {e}; {UNSAMPLED}"
        ));
    }
    if record.binary.as_deref() != Some(name) {
        // The wrapper's own files, of no use to any build now: removed, so
        // that this is said once and not at every run after the setup was
        // undone.
        let _ = std::fs::remove_file(&record_path);
        for k in 1..=record.seeds.len() {
            let _ = std::fs::remove_file(linked::layout_path(exe, k));
        }
        return Err(format!(
            "the code layouts beside this bench binary are an earlier build's (it was linked again since, without yardstick's linker wrapper): {UNSAMPLED}"
        ));
    }
    (1..=record.seeds.len())
        .map(|k| {
            let layout = linked::layout_path(exe, k);
            super::keep_as(home, key, &layout, |_| format!("{name}.layout{k}")).map_err(|e| {
                format!("code layout {k} of this bench binary cannot be kept ({e}): {UNSAMPLED}")
            })
        })
        .collect()
}

/// What a comparison without this run's layouts does.
const UNSAMPLED: &str = "comparisons run on the builds as linked";

/// The layouts both sides of a lock-step comparison run: pair `k` runs
/// `baseline[k % n]` and `this[k % n]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Paired {
    /// The baseline binary's kept layouts.
    pub baseline: Vec<PathBuf>,
    /// This run's binary's kept layouts, as many.
    pub this: Vec<PathBuf>,
}

/// The layouts the comparison of the binary `baseline` names with this
/// run's (`this`) can run: at least two and at most `most` of each,
/// checked as the binaries are (trusted, and holding the content their
/// record names).
///
/// # Errors
///
/// `None` when neither side has layouts (the caller says once how to
/// sample them), else the one line saying why the builds run as linked.
pub(crate) fn pair(
    home: &Path,
    baseline: &BinaryFile,
    this: Option<&BinaryFile>,
    most: usize,
) -> Result<Paired, Option<String>> {
    let mine = this.map_or(&[][..], |t| &t.layouts[..]);
    let n = baseline.layouts.len().min(mine.len()).min(most);
    if n < 2 {
        return Err(match (baseline.layouts.len() >= 2, mine.len() >= 2) {
            (false, false) => None,
            (false, true) => Some(format!("the baseline's binary was kept without code layouts (its build did not link them, or they were cleaned up since): {UNSAMPLED}; the next run samples them")),
            (true, _) => Some(format!("this build linked no code layouts (not linked through yardstick's linker wrapper: cargo yardstick init sets it up): {UNSAMPLED}")),
        });
    }
    let this = this.expect("layouts of this run's record");
    let side = |record: &BinaryFile, whose: &str| -> Result<Vec<PathBuf>, Option<String>> {
        let kept = super::path_of(home, record);
        record.layouts[..n]
            .iter()
            .enumerate()
            .map(|(i, content)| {
                let path = linked::layout_path(&kept, i + 1);
                super::verified_as(&path, content)
                    .map(|()| path)
                    .map_err(|e| {
                        Some(format!(
                            "{whose} code layout {} is refused ({e}): {UNSAMPLED}",
                            i + 1
                        ))
                    })
            })
            .collect()
    };
    Ok(Paired {
        baseline: side(baseline, "the baseline's")?,
        this: side(this, "this run's")?,
    })
}
