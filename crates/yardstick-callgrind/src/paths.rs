//! Where results go: the home directory, one folder per benchmark, and the
//! names of Valgrind's files in it (iai-callgrind's scheme).
//!
//! ```text
//! <home>/[<target triple>/]<package>/<module path>/<group>/<function>.<id>/
//!     callgrind.<function>.<id>.out            this run
//!     callgrind.<function>.<id>.out.old        the run before
//!     callgrind.<function>.<id>.out.base@NAME  baseline NAME
//!     callgrind.<function>.<id>.log[.old|.base@NAME]
//!     <tool>.<function>.<id>.{out,log}[...]     other tools, same scheme
//!     summary.json
//! ```

use std::path::{Path, PathBuf};

/// The home directory, by the one order of [`yardstick_format::home`]:
/// `--home`, `YARDSTICK_CALLGRIND_HOME` or `IAI_CALLGRIND_HOME` (already in
/// `explicit`), else `name` in `CARGO_TARGET_DIR`, else in the target
/// directory holding the bench binary, else in `target` of the workspace
/// holding `manifest_dir`. `name` is `iai` when the package calls this crate
/// `iai-callgrind` (iai-callgrind's location), else `yardstick-callgrind`.
pub fn home(
    explicit: Option<&Path>,
    exe: Option<&Path>,
    manifest_dir: &Path,
    name: &'static str,
) -> PathBuf {
    let rules = yardstick_format::home::Rules {
        variables: &[],
        folder: name,
    };
    let env = |k: &str| std::env::var_os(k);
    let look = yardstick_format::home::Lookup {
        flag: explicit,
        env: &env,
        exe,
        start: manifest_dir,
    };
    yardstick_format::home::resolve(&rules, &look)
}

/// The home directory's name for a package that calls this crate
/// `dependency`.
pub fn home_name(dependency: &str) -> &'static str {
    if dependency == "iai-callgrind" {
        "iai"
    } else {
        "yardstick-callgrind"
    }
}

/// Makes `part` safe as one path component: characters that are unsafe in
/// file names become `_`, and `.`/`..`/empty become `_`.
pub fn sanitize(part: &str) -> String {
    let s: String = part
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' | '^' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    if s.is_empty() || s == "." || s == ".." {
        "_".to_owned()
    } else {
        s
    }
}

/// The folders of `main!`'s module path (`ec_iai`, or `ec_iai/inner` for a
/// `main!` in a module), as iai-callgrind names them: the bench target's
/// crate name, so `benches/ec-iai.rs` saves under `ec_iai`. Results saved
/// by iai-callgrind are then found, and compared with, after the switch.
pub fn module_dir(module: &str) -> PathBuf {
    module.split("::").map(sanitize).collect()
}

/// The files of one tool for one benchmark.
#[derive(Debug, Clone)]
pub struct ToolFiles {
    /// The benchmark's folder.
    pub dir: PathBuf,
    /// `<tool>.<name>`: the common prefix.
    pub stem: String,
}

/// Which version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Version {
    /// This run.
    New,
    /// The run before.
    Old,
    /// A named baseline.
    Base(String),
}

impl ToolFiles {
    /// The files of `tool` for the benchmark named `name` in `dir`.
    pub fn new(dir: &Path, tool: &str, name: &str) -> ToolFiles {
        ToolFiles {
            dir: dir.to_owned(),
            stem: format!("{tool}.{}", sanitize(name)),
        }
    }

    /// The output file (`out`) or log (`log`) of `version`.
    pub fn path(&self, ext: &str, version: &Version) -> PathBuf {
        let name = match version {
            Version::New => format!("{}.{ext}", self.stem),
            Version::Old => format!("{}.{ext}.old", self.stem),
            Version::Base(b) => format!("{}.{ext}.base@{}", self.stem, sanitize(b)),
        };
        self.dir.join(name)
    }

    /// Moves this run's files (`out`, `log`) to `.old` before a new run.
    ///
    /// # Errors
    ///
    /// When a rename fails.
    pub fn rotate(&self) -> std::io::Result<()> {
        for ext in ["out", "log"] {
            let new = self.path(ext, &Version::New);
            if new.exists() {
                std::fs::rename(&new, self.path(ext, &Version::Old))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// iai-callgrind's folders: the crate name of the bench target (a
    /// hyphen in the file name is an underscore there), one folder per
    /// module.
    #[test]
    fn results_folder_is_the_module_path() {
        assert_eq!(module_dir("ec_iai"), Path::new("ec_iai"));
        assert_eq!(module_dir("ec_iai::inner"), Path::new("ec_iai/inner"));
    }

    #[test]
    fn ids_cannot_leave_their_folder() {
        assert_eq!(sanitize("a/b"), "a_b");
        assert_eq!(sanitize(".."), "_");
        assert_eq!(sanitize(""), "_");
        assert_eq!(sanitize("do foo with test1"), "do foo with test1");
    }

    #[test]
    fn file_names_follow_iai_callgrind() {
        let f = ToolFiles::new(Path::new("d"), "callgrind", "bench_fib.short");
        assert_eq!(
            f.path("out", &Version::New),
            Path::new("d/callgrind.bench_fib.short.out")
        );
        assert_eq!(
            f.path("out", &Version::Old),
            Path::new("d/callgrind.bench_fib.short.out.old")
        );
        assert_eq!(
            f.path("log", &Version::Base("main".into())),
            Path::new("d/callgrind.bench_fib.short.log.base@main")
        );
    }

    #[test]
    fn explicit_home_wins() {
        assert_eq!(
            home(Some(Path::new("h")), None, Path::new("m"), "iai"),
            Path::new("h")
        );
    }

    #[test]
    fn iai_callgrinds_name_means_target_iai() {
        assert_eq!(home_name("iai-callgrind"), "iai");
        assert_eq!(home_name("yardstick-callgrind"), "yardstick-callgrind");
        assert_eq!(
            home(None, None, Path::new("m"), home_name("iai-callgrind")).file_name(),
            Some(std::ffi::OsStr::new("iai"))
        );
    }
}
