//! Writing report files: atomically, and only inside the home directory.

use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use crate::ReportError;

/// Writes `bytes` to `path` through a temporary file in the same folder and
/// a rename, so a reader never sees half a file. Creates the folder.
pub(crate) fn atomic(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| ReportError::io(dir, e))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        ReportError::io(path, e)
    })
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
