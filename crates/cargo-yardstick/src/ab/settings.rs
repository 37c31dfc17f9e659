//! What a revision's build depends on besides its commit: the key of
//! `ab`'s binary cache, and the line that says why a cached build was not
//! reused.
//!
//! A revision's sources are fixed by its commit, and so are the cargo
//! configuration files inside its checkout. Everything else cargo, rustc
//! and the C toolchains of build scripts read is recorded here, by name:
//! cargo's arguments, the compiler, the layouts asked for, the environment
//! variables that configure a build (the complete list of prefixes in
//! [`ENV`]) and the contents of every cargo configuration file cargo reads
//! (`.cargo/config.toml` and `.cargo/config` in each ancestor of the
//! directory it runs in, then under `$CARGO_HOME`). A build script may read
//! any variable it likes (`cargo:rerun-if-env-changed`); those outside this
//! list are not seen.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The settings of one build: a name (an environment variable, a file, or
/// `cargo arguments`, `rustc -vV`, `layouts`) and its value. A file's value
/// is a hash of its contents; a setting that is unset is absent.
pub(crate) type Settings = BTreeMap<String, String>;

/// The environment variables that change what a build makes: a name is in
/// when it is one of these or starts with one of them followed by `_`
/// (`CC_x86_64-unknown-linux-gnu`, `CARGO_PROFILE_BENCH_OPT_LEVEL`).
/// Cargo reads every configuration key from `CARGO_<KEY>` as well; those
/// that shape the build are `profile`, `build` (the flags, `rustc`, its
/// wrappers, the target), `target` (per-triple linker, flags, runner),
/// `host`, `unstable` and `resolver`. Then rustc's own (`RUSTC*`,
/// `RUSTFLAGS`, rustup's toolchain) and what cc-rs and pkg-config read in
/// build scripts, also as `TARGET_<name>` and `HOST_<name>`.
const ENV: &[&str] = &[
    "CARGO_PROFILE",
    "CARGO_BUILD",
    "CARGO_TARGET",
    "CARGO_HOST",
    "CARGO_UNSTABLE",
    "CARGO_RESOLVER",
    "CARGO_ENCODED_RUSTFLAGS",
    "CARGO_INCREMENTAL",
    "RUSTFLAGS",
    "RUSTC",
    "RUSTUP_TOOLCHAIN",
    "CC",
    "CXX",
    "CFLAGS",
    "CXXFLAGS",
    "CPPFLAGS",
    "AR",
    "ARFLAGS",
    "RANLIB",
    "LDFLAGS",
    "CRATE_CC_NO_DEFAULTS",
    "PKG_CONFIG",
    "PKG_CONFIG_PATH",
    "MACOSX_DEPLOYMENT_TARGET",
];

/// Matched by [`ENV`] and yet no part of what is built: where it goes
/// (`ab` sets the target directory itself) and how many jobs build it.
const NOT_ENV: &[&str] = &[
    "CARGO_TARGET_DIR",
    "CARGO_BUILD_TARGET_DIR",
    "CARGO_BUILD_BUILD_DIR",
    "CARGO_BUILD_JOBS",
];

/// Whether the environment variable `name` is a setting of the build.
fn is_setting(name: &str) -> bool {
    if NOT_ENV.contains(&name) {
        return false;
    }
    let bare = ["TARGET_", "HOST_"]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name);
    ENV.iter().any(|p| {
        [name, bare]
            .iter()
            .any(|n| *n == *p || n.strip_prefix(p).is_some_and(|r| r.starts_with('_')))
    })
}

/// The cargo configuration files cargo reads when run in `dir`, in the
/// order it reads them (the nearest first), each one that exists.
fn config_files(dir: &Path) -> Vec<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let dirs = dir.ancestors().map(|d| d.join(".cargo")).chain(home);
    let mut files: Vec<PathBuf> = Vec::new();
    for d in dirs {
        for name in ["config.toml", "config"] {
            let f = d.join(name);
            if f.is_file() && !files.contains(&f) {
                files.push(f);
            }
        }
    }
    files
}

/// The settings of a build that cargo runs in `dir` with `cargo_args`,
/// `layouts` code layouts and the compiler `rustc -vV` prints (`rustc`).
pub(crate) fn read(dir: &Path, cargo_args: &[String], layouts: usize, rustc: &str) -> Settings {
    let mut s = Settings::new();
    s.insert("cargo arguments".into(), cargo_args.join(" "));
    s.insert("layouts".into(), layouts.to_string());
    s.insert("rustc -vV".into(), rustc.trim().to_owned());
    for (name, value) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if is_setting(&name) {
            s.insert(name.into_owned(), value.to_string_lossy().into_owned());
        }
    }
    for file in config_files(dir) {
        // Unreadable is a setting too: it differs from any contents.
        let hash = std::fs::read(&file).map_or_else(
            |e| format!("unreadable ({})", e.kind()),
            |b| format!("{:016x}", yardstick_format::names::fnv1a(&b)),
        );
        s.insert(file.display().to_string(), hash);
    }
    s
}

/// The cache key of commit `sha` built with `settings`: the commit's first
/// ten digits and a hash (FNV-1a, stable across builds of this tool) of the
/// settings.
pub(crate) fn key(sha: &str, settings: &Settings) -> String {
    let mut text = sha.to_owned();
    for (name, value) in settings {
        text.push_str(&format!("\n{name}={value}"));
    }
    let hash = yardstick_format::names::fnv1a(text.as_bytes());
    format!("{}-{hash:016x}", &sha[..sha.len().min(10)])
}

/// The settings that differ between an earlier build (`then`) and this
/// one (`now`), as one line: `CARGO_PROFILE_BENCH_OPT_LEVEL (unset then,
/// 0 now); /p/.cargo/config.toml (changed)`. Values are shown when short
/// and on one line; a file's or the compiler's change is only named.
pub(crate) fn differences(then: &Settings, now: &Settings) -> String {
    let names: std::collections::BTreeSet<&String> = then.keys().chain(now.keys()).collect();
    let shown = |v: Option<&String>| match v {
        None => "unset".to_owned(),
        Some(v) if v.is_empty() => "empty".to_owned(),
        Some(v) => format!("{v:?}"),
    };
    // No variable's name holds a path separator.
    let is_file = |n: &str| n.contains(['/', '\\']);
    names
        .into_iter()
        .filter(|n| then.get(*n) != now.get(*n))
        .map(|n| {
            let (a, b) = (then.get(n), now.get(n));
            let long = [a, b]
                .iter()
                .flatten()
                .any(|v| v.contains('\n') || v.len() > 60);
            if is_file(n) {
                let what = match (a, b) {
                    (None, _) => "new",
                    (_, None) => "gone",
                    _ => "changed",
                };
                format!("{n} ({what})")
            } else if long {
                format!("{n} (changed)")
            } else {
                format!("{n} ({} then, {} now)", shown(a), shown(b))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The file in a cache directory that records its build's settings.
pub(crate) const RECORD: &str = "settings.json";

/// Records `settings` in the cache directory `dir`.
pub(crate) fn record(dir: &Path, settings: &Settings) -> Result<(), String> {
    let json = serde_json::to_string_pretty(settings).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(RECORD), json)
        .map_err(|e| format!("{}: cannot record the build's settings: {e}", dir.display()))
}

/// The settings recorded in the most recently used cache of commit `sha`
/// under `root`, when there is one.
pub(crate) fn latest(root: &Path, sha: &str, complete: &str) -> Option<Settings> {
    let prefix = format!("bin-{}-", &sha[..sha.len().min(10)]);
    std::fs::read_dir(root)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .filter_map(|e| {
            let used = std::fs::metadata(e.path().join(complete))
                .and_then(|m| m.modified())
                .ok()?;
            let text = std::fs::read_to_string(e.path().join(RECORD)).ok()?;
            Some((used, serde_json::from_str::<Settings>(&text).ok()?))
        })
        .max_by_key(|(used, _)| *used)
        .map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variables_that_shape_a_build_are_settings() {
        for name in [
            "CARGO_PROFILE_BENCH_OPT_LEVEL",
            "CARGO_PROFILE_RELEASE_LTO",
            "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER",
            "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS",
            "CARGO_BUILD_RUSTFLAGS",
            "CARGO_BUILD_TARGET",
            "CARGO_ENCODED_RUSTFLAGS",
            "CARGO_HOST_LINKER",
            "CARGO_UNSTABLE_BUILD_STD",
            "RUSTFLAGS",
            "RUSTC",
            "RUSTC_WRAPPER",
            "RUSTC_WORKSPACE_WRAPPER",
            "RUSTUP_TOOLCHAIN",
            "CC",
            "CC_x86_64-unknown-linux-gnu",
            "CFLAGS_x86_64_unknown_linux_gnu",
            "TARGET_CC",
            "HOST_CFLAGS",
            "AR",
        ] {
            assert!(is_setting(name), "{name}");
        }
        for name in [
            "CARGO_TARGET_DIR",
            "CARGO_BUILD_JOBS",
            "CARGO_HOME",
            "CARGO_TERM_COLOR",
            "CARGO_REGISTRY_TOKEN",
            "CARGO",
            "CARGO_MANIFEST_DIR",
            "CCACHE_DIR",
            "ARCH",
            "HOSTNAME",
            "TARGET",
            "PATH",
            "HOME",
        ] {
            assert!(!is_setting(name), "{name}");
        }
    }

    #[test]
    fn config_files_are_read_from_every_ancestor() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b");
        std::fs::create_dir_all(deep.join(".cargo")).unwrap();
        std::fs::create_dir_all(dir.path().join(".cargo")).unwrap();
        std::fs::write(deep.join(".cargo/config.toml"), "x").unwrap();
        std::fs::write(dir.path().join(".cargo/config"), "y").unwrap();
        let found = config_files(&deep);
        assert_eq!(found[0], deep.join(".cargo/config.toml"));
        assert_eq!(found[1], dir.path().join(".cargo/config"));
    }

    #[test]
    fn a_difference_is_named_with_its_values() {
        let s = |pairs: &[(&str, &str)]| -> Settings {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        let then = s(&[("layouts", "4"), ("/p/.cargo/config.toml", "01")]);
        let now = s(&[
            ("layouts", "4"),
            ("/p/.cargo/config.toml", "02"),
            ("CARGO_PROFILE_BENCH_OPT_LEVEL", "0"),
        ]);
        assert_eq!(
            differences(&then, &now),
            "/p/.cargo/config.toml (changed); CARGO_PROFILE_BENCH_OPT_LEVEL (unset then, \"0\" now)"
        );
        assert_eq!(differences(&now, &now), "");
        assert_ne!(key("abc", &then), key("abc", &now));
        assert_eq!(key("abc", &now), key("abc", &now.clone()));
        assert!(key("abc", &now).starts_with("abc-"));
    }
}
