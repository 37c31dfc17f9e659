//! Where the home directory is: one order for the harness, `cargo
//! yardstick` and yardstick-callgrind, so all three find the same folder.
//!
//! The first rule that gives a directory wins:
//!
//! 1. the command line's `--home DIR`;
//! 2. a variable naming the home itself, in the caller's order
//!    (`YARDSTICK_HOME`, then `CRITERION_HOME`, for the Criterion.rs layout);
//! 3. `$CARGO_TARGET_DIR/<folder>`;
//! 4. `<folder>` in the cargo target directory holding the running bench
//!    binary (`<target>/release/deps/bench-…`: the nearest ancestor with
//!    cargo's `CACHEDIR.TAG`), which covers `build.target-dir` in cargo's
//!    configuration without running `cargo metadata` per binary;
//! 5. `<workspace root>/target/<folder>`, the root found by walking up from
//!    the starting directory to the nearest `Cargo.toml` with a
//!    `[workspace]` table, else the nearest `Cargo.toml`;
//! 6. `target/<folder>` under the starting directory.
//!
//! Empty variables count as unset.
//!
//! ```
//! use std::path::Path;
//! use yardstick_format::home::{resolve, Lookup, CRITERION};
//!
//! let env = |k: &str| (k == "CRITERION_HOME").then(|| "ch".into());
//! let look = Lookup { flag: None, env: &env, exe: None, start: Path::new(".") };
//! assert_eq!(resolve(&CRITERION, &look), Path::new("ch"));
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What one tool calls its home.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Variables that name the home directory itself, first wins.
    pub variables: &'static [&'static str],
    /// The home's name inside a cargo target directory.
    pub folder: &'static str,
}

/// The Criterion.rs layout's home: the harness's and `cargo yardstick`'s.
pub const CRITERION: Rules = Rules {
    variables: &["YARDSTICK_HOME", "CRITERION_HOME"],
    folder: "criterion",
};

/// Everything the rules look at, passed in so that tests need not change
/// the process's environment or working directory.
pub struct Lookup<'a> {
    /// `--home DIR` from the command line.
    pub flag: Option<&'a Path>,
    /// Reads an environment variable.
    pub env: &'a dyn Fn(&str) -> Option<OsString>,
    /// The running bench binary, when it may live in a target directory
    /// (`None` for an installed tool such as `cargo-yardstick`).
    pub exe: Option<&'a Path>,
    /// Where the walk up to the workspace root starts.
    pub start: &'a Path,
}

/// The home directory by the rules of this module.
#[must_use]
pub fn resolve(rules: &Rules, look: &Lookup<'_>) -> PathBuf {
    if let Some(flag) = look.flag {
        return flag.to_owned();
    }
    let env = |k: &str| (look.env)(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(home) = rules.variables.iter().find_map(|k| env(k)) {
        return home;
    }
    if let Some(target) = env("CARGO_TARGET_DIR") {
        return target.join(rules.folder);
    }
    if let Some(target) = look.exe.and_then(target_dir_of) {
        return target.join(rules.folder);
    }
    workspace_root(look.start)
        .unwrap_or_else(|| look.start.to_owned())
        .join("target")
        .join(rules.folder)
}

/// [`resolve`] with this process's environment and working directory;
/// `exe` as in [`Lookup::exe`].
#[must_use]
pub fn resolve_here(rules: &Rules, flag: Option<&Path>, exe: Option<&Path>) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    let env = |k: &str| std::env::var_os(k);
    resolve(
        rules,
        &Lookup {
            flag,
            env: &env,
            exe,
            start: &cwd,
        },
    )
}

/// The cargo target directory holding `exe`
/// (`<target>/[<triple>/]<profile>/deps/<binary>`): the nearest ancestor,
/// at most five levels up, with cargo's `CACHEDIR.TAG`.
#[must_use]
pub fn target_dir_of(exe: &Path) -> Option<PathBuf> {
    exe.ancestors()
        .skip(1)
        .take(5)
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map(Path::to_owned)
}

/// The cargo workspace holding `start`: the nearest ancestor whose
/// `Cargo.toml` has a `[workspace]` table, else the nearest with a
/// `Cargo.toml`, else `None`.
#[must_use]
pub fn workspace_root(start: &Path) -> Option<PathBuf> {
    let mut package = None;
    for dir in start.ancestors() {
        let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        if text.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("[workspace]") || l.starts_with("[workspace.")
        }) {
            return Some(dir.to_owned());
        }
        package.get_or_insert_with(|| dir.to_owned());
    }
    package
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("yardstick-home-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn find(
        vars: &[(&str, &str)],
        flag: Option<&str>,
        exe: Option<&Path>,
        start: &Path,
    ) -> PathBuf {
        let env = |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        };
        let look = Lookup {
            flag: flag.map(Path::new),
            env: &env,
            exe,
            start,
        };
        resolve(&CRITERION, &look)
    }

    const ALL: &[(&str, &str)] = &[
        ("YARDSTICK_HOME", "yh"),
        ("CRITERION_HOME", "ch"),
        ("CARGO_TARGET_DIR", "ctd"),
    ];

    #[test]
    fn the_flag_beats_every_variable() {
        assert_eq!(find(ALL, Some("f"), None, Path::new("s")), Path::new("f"));
    }

    #[test]
    fn yardstick_home_beats_criterion_home_and_the_target_dir() {
        assert_eq!(find(ALL, None, None, Path::new("s")), Path::new("yh"));
    }

    #[test]
    fn criterion_home_beats_the_target_dir() {
        assert_eq!(find(&ALL[1..], None, None, Path::new("s")), Path::new("ch"));
    }

    #[test]
    fn empty_variables_count_as_unset() {
        let vars = [("YARDSTICK_HOME", ""), ("CRITERION_HOME", "ch")];
        assert_eq!(find(&vars, None, None, Path::new("s")), Path::new("ch"));
    }

    #[test]
    fn cargo_target_dir_beats_the_binarys_folder() {
        let root = scratch("ctd");
        write(&root.join("t/CACHEDIR.TAG"), "Signature");
        let exe = root.join("t/release/deps/bench-1");
        assert_eq!(
            find(&ALL[2..], None, Some(&exe), &root),
            Path::new("ctd/criterion")
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_binarys_target_dir_beats_the_workspace() {
        let root = scratch("exe");
        write(&root.join("ws/Cargo.toml"), "[workspace]\n");
        for exe in [
            "t/release/deps/b-1",
            "t/x86_64-unknown-linux-gnu/release/deps/b-1",
        ] {
            write(&root.join("t/CACHEDIR.TAG"), "Signature");
            let exe = root.join(exe);
            assert_eq!(
                find(&[], None, Some(&exe), &root.join("ws")),
                root.join("t/criterion")
            );
        }
        // A binary outside any target directory (an installed tool) does
        // not count.
        let exe = root.join("bin/cargo-yardstick");
        assert_eq!(
            find(&[], None, Some(&exe), &root.join("ws")),
            root.join("ws/target/criterion")
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_workspace_member_uses_the_workspace_roots_target() {
        let root = scratch("ws");
        write(
            &root.join("Cargo.toml"),
            "[package]\nname = \"x\"\n\n[workspace]\nmembers = [\"crates/a\"]\n",
        );
        write(
            &root.join("crates/a/Cargo.toml"),
            "[package]\nname = \"a\"\n",
        );
        std::fs::create_dir_all(root.join("crates/a/src")).unwrap();
        assert_eq!(
            find(&[], None, None, &root.join("crates/a/src")),
            root.join("target/criterion")
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_lone_package_uses_its_own_target() {
        let root = scratch("pkg");
        write(&root.join("p/Cargo.toml"), "[package]\nname = \"p\"\n");
        std::fs::create_dir_all(root.join("p/benches")).unwrap();
        assert_eq!(
            find(&[], None, None, &root.join("p/benches")),
            root.join("p/target/criterion")
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn outside_any_package_the_start_holds_target() {
        let root = scratch("none");
        assert_eq!(find(&[], None, None, &root), root.join("target/criterion"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn other_tools_use_their_own_folder_and_variables() {
        let rules = Rules {
            variables: &[],
            folder: "iai",
        };
        let env = |k: &str| ALL.iter().find(|(n, _)| *n == k).map(|(_, v)| v.into());
        let look = Lookup {
            flag: None,
            env: &env,
            exe: None,
            start: Path::new("s"),
        };
        assert_eq!(resolve(&rules, &look), Path::new("ctd/iai"));
    }
}
