//! The bench binary kept with the results it saved, so that the next run
//! can measure that very binary in lock-step with its own
//! (`runner::lockstep`); the formats and the retention rule are
//! `yardstick_format::binary`'s.
//!
//! Each saved folder (`new/` and the baseline) gets a `binary.json` naming
//! the bench target and the binary's content hash; the binary itself is
//! kept once under `<home>/.binaries/<target>/<hash>-<size>`. A run that
//! measures a kept binary holds a shared lock on it; clean-up (at the end
//! of every saving run, and `cargo yardstick binaries --prune`) removes a
//! binary only under an exclusive lock, so two runs at once never remove
//! one the other uses.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use yardstick_format::binary::{self, BinaryFile};

/// Binaries kept per bench target: the most recently used that baselines
/// name. Four cover `base`, `new` and two named baselines; a guide-sized
/// bench binary is 5–15 MB, so a target costs at most about 60 MB.
pub(crate) const KEEP_PER_TARGET: usize = 4;

/// The bench target this binary was built for: its file name without
/// cargo's `-<16 hex digits>`, made safe for a folder name.
pub(crate) fn this_target() -> &'static str {
    static TARGET: OnceLock<String> = OnceLock::new();
    TARGET.get_or_init(|| {
        let exe = std::env::current_exe().ok();
        let stem = exe
            .as_deref()
            .and_then(Path::file_stem)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        binary::target_name(&stem)
    })
}

/// The record of this run's binary for the folders it saves, the binary
/// kept in `home` first (once per process). `None` when it cannot be kept
/// (said once): the folders are saved without it, and the next run
/// compares with their numbers.
pub(crate) fn this_record(home: &Path, measurement: &str) -> Option<BinaryFile> {
    static KEPT: OnceLock<Result<String, String>> = OnceLock::new();
    let kept = KEPT.get_or_init(|| {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let bytes = fs::read(&exe).map_err(|e| format!("{}: {e}", exe.display()))?;
        let name = binary::keep(home, this_target(), &bytes, &exe).map_err(|e| e.to_string())?;
        // Held for the run: another run's clean-up leaves it alone until
        // this one has saved folders naming it.
        hold(&binary::kept_path(home, this_target(), &name));
        Ok(name)
    });
    match kept {
        Ok(name) => Some(BinaryFile {
            version: binary::VERSION,
            target: this_target().to_owned(),
            binary: name.clone(),
            protocol: yardstick_format::worker::PROTOCOL_VERSION,
            measurement: measurement.to_owned(),
        }),
        Err(e) => {
            let note = format!("the bench binary is not kept with the results ({e}): the next run compares with their saved numbers");
            if crate::output::first_time(&note) {
                crate::output::errln!("warning: {note}");
            }
            None
        }
    }
}

/// Files this run holds a shared lock on, until it exits.
static HELD: Mutex<Vec<fs::File>> = Mutex::new(Vec::new());

/// Takes a shared lock on `path` for the rest of the run; whether the file
/// is still there once locked (a clean-up may have removed it just
/// before).
pub(crate) fn hold(path: &Path) -> bool {
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    if super::lock::lock_shared(&file).is_err() || !path.exists() {
        return false;
    }
    HELD.lock().unwrap_or_else(|e| e.into_inner()).push(file);
    true
}

/// The kept binary a saved folder names.
pub(crate) fn path_of(home: &Path, record: &BinaryFile) -> PathBuf {
    binary::kept_path(home, &record.target, &record.binary)
}

/// The retention rule, at the end of a saving run: binaries no folder
/// names go, and those past [`KEEP_PER_TARGET`] per target, least
/// recently used first; never one a run holds. Returns the bytes freed.
pub(crate) fn prune(home: &Path) -> u64 {
    binary::prune(home, KEEP_PER_TARGET, &super::lock::remove_unless_locked)
        .iter()
        .map(|k| k.bytes)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_is_the_file_name_without_cargos_hash() {
        assert_eq!(
            binary::target_name("getting_started-0123456789abcdef"),
            "getting_started"
        );
        assert_eq!(binary::target_name("my-bench-0123456789abcdef"), "my-bench");
        assert_eq!(binary::target_name("plain"), "plain");
        assert_eq!(binary::target_name("odd name-12"), "odd_name-12");
        assert_eq!(binary::target_name(""), "bench");
    }

    #[cfg(unix)]
    #[test]
    fn a_binary_held_by_a_run_is_not_removed() {
        let dir = std::env::temp_dir().join(format!("yardstick-held-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (held, free) = (dir.join("held"), dir.join("free"));
        fs::write(&held, b"x").unwrap();
        fs::write(&free, b"y").unwrap();
        assert!(hold(&held));
        // Another run's clean-up: it opens the file anew, as another
        // process would, and cannot take the exclusive lock.
        assert!(!super::super::lock::remove_unless_locked(&held));
        assert!(held.exists());
        assert!(super::super::lock::remove_unless_locked(&free));
        assert!(!free.exists());
        assert!(!hold(&free), "a removed binary cannot be held");
        fs::remove_dir_all(&dir).unwrap();
    }
}
