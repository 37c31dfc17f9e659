//! Where results go.

use std::path::{Path, PathBuf};

/// The home directory, by the one order of [`yardstick_format::home`]:
/// `--home`, `YARDSTICK_HOME`, `CRITERION_HOME`, `$CARGO_TARGET_DIR/criterion`,
/// the cargo target folder holding this binary, then `target/criterion` in
/// the workspace root (cargo runs a bench binary in its package's folder).
pub(crate) fn home_directory(from_args: Option<&Path>) -> PathBuf {
    let exe = std::env::current_exe().ok();
    yardstick_format::home::resolve_here(
        &yardstick_format::home::CRITERION,
        from_args,
        exe.as_deref(),
    )
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
}
