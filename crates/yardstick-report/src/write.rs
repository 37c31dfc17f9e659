//! Writing report files: atomically, and only inside the home directory.

use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::ReportError;

/// Writes `bytes` to `path` whole or not at all (the workspace's one
/// writer, [`yardstick_format::atomic`]). Creates the folder.
pub(crate) fn atomic(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    yardstick_format::atomic::write_file(path, bytes).map_err(|e| ReportError::io(path, e))
}

/// Removes `path` if it exists (a plot left from an earlier report that
/// this one does not have).
pub(crate) fn remove_stale(path: &Path) {
    let _ = fs::remove_file(path);
}

/// `home/<directory_name>`, after checking that `directory_name` (read
/// from a file, so not trusted) is a relative path of plain names: no
/// root, no `..`, no `.`, nothing empty.
pub(crate) fn inside(home: &Path, directory_name: &str) -> Result<PathBuf, ReportError> {
    let rel = Path::new(directory_name);
    let plain = !directory_name.is_empty()
        && !directory_name.contains('\\')
        && directory_name.split('/').all(|p| !p.is_empty())
        && rel.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain {
        return Err(ReportError::Format {
            path: home.to_owned(),
            problem: format!(
                "the benchmark folder name {directory_name:?} is not a plain relative path; refusing to write outside the home directory"
            ),
        });
    }
    Ok(home.join(rel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_stay_inside() {
        let home = Path::new("h");
        assert!(inside(home, "fib 20/x").is_ok());
        for bad in ["", "../x", "a/../../b", "/etc", "a//b", "./a", "a\\..\\b"] {
            assert!(inside(home, bad).is_err(), "{bad}");
        }
    }
}
