//! Where results go.

use std::path::{Path, PathBuf};

/// The home directory: `--home`, then `YARDSTICK_HOME`, `CRITERION_HOME`,
/// `$CARGO_TARGET_DIR/criterion`, the cargo target folder that holds this
/// binary, and last `target/criterion` under the working directory.
pub(crate) fn home_directory(from_args: Option<&Path>) -> PathBuf {
    if let Some(p) = from_args {
        return p.to_owned();
    }
    for var in ["YARDSTICK_HOME", "CRITERION_HOME"] {
        if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            return PathBuf::from(v);
        }
    }
    if let Some(v) = std::env::var_os("CARGO_TARGET_DIR").filter(|v| !v.is_empty()) {
        return PathBuf::from(v).join("criterion");
    }
    if let Some(target) = std::env::current_exe().ok().as_deref().and_then(target_of) {
        return target.join("criterion");
    }
    PathBuf::from("target/criterion")
}

/// The cargo target folder holding `exe` (`<target>/release/deps/bench-…`):
/// the nearest ancestor with cargo's `CACHEDIR.TAG`. Criterion.rs runs
/// `cargo metadata` for this, which costs a process per benchmark binary.
fn target_of(exe: &Path) -> Option<PathBuf> {
    exe.ancestors()
        .skip(1)
        .take(4)
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map(Path::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins() {
        assert_eq!(
            home_directory(Some(Path::new("somewhere"))),
            PathBuf::from("somewhere")
        );
    }

    #[test]
    fn the_target_folder_is_found_from_the_binary() {
        let root = std::env::temp_dir().join(format!("yardstick-home-{}", std::process::id()));
        let deps = root.join("release").join("deps");
        std::fs::create_dir_all(&deps).unwrap();
        std::fs::write(root.join("CACHEDIR.TAG"), "Signature").unwrap();
        assert_eq!(target_of(&deps.join("bench-123")), Some(root.clone()));
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(target_of(Path::new("/nonexistent/a/b/c")), None);
    }
}
