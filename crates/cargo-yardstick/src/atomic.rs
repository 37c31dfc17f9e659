//! Files other tools read while we write them: written whole or not at all.

use std::path::Path;

/// Writes `bytes` whole or not at all (the workspace's one writer,
/// [`yardstick_format::atomic`]); creates the folder. One line naming the
/// path on failure, and no temporary left behind.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: cannot create it: {e}", dir.display()))?;
    yardstick_format::atomic::write_file(path, bytes)
        .map_err(|e| format!("{}: cannot write it: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/drift.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["drift.json"]);
        let err = write_atomic(&path.join("under-a-file"), b"x").unwrap_err();
        assert!(err.contains("cannot create it"), "{err}");
    }
}
