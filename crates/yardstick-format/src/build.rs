//! `build.json`: how a bench binary was built (the toolchain, the target,
//! the profile's settings that move code, the flags, the enabled target
//! and package features, the linker), kept once beside the kept binary
//! that a saved folder's `binary.json` names ([`kept_path`],
//! [`of_folder`]) and in every run of the history, so that a comparison
//! can name what changed between two builds ([`compare_line`], the one
//! place that puts it in words). Schema: `schemas/build.v1.json`.
//!
//! The text readers here ([`rustc_verbose`], [`profile_settings`],
//! [`fingerprint_features`], [`encoded_flags`]) read what cargo and rustc
//! hand over; the harness gathers it (see its `store::build`).

use crate::json;

mod kept;
pub use kept::{kept_path, of_folder, of_saved, read_record};

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The file's name in a folder saved by the previous layout (or by a
/// run that could not keep its binary).
pub const FILE_NAME: &str = "build.json";

/// The whole file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BuildFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// yardstick's own version (the harness compiled in).
    pub yardstick: String,
    /// rustc's version line (`rustc 1.91.1 (ed61e7d7e 2025-11-07)`).
    pub rustc: String,
    /// rustc's host triple (`rustc -vV`'s `host:`).
    pub host: String,
    /// rustc's LLVM version (empty when it did not say).
    pub llvm: String,
    /// The target triple the binary was built for.
    pub target: String,
    /// The profile's settings that move code.
    pub profile: Profile,
    /// `RUSTFLAGS` as cargo passed them (`CARGO_ENCODED_RUSTFLAGS`, one
    /// argument per item).
    pub rustflags: Vec<String>,
    /// The target features enabled (`cfg(target_feature)`), sorted.
    pub target_features: Vec<String>,
    /// The bench package's enabled features, sorted; `None` when they
    /// could not be read.
    pub features: Option<Vec<String>>,
    /// The linker configured for the target; `None`: rustc's default.
    pub linker: Option<String>,
    /// Whether the binary was relinked in sampled code layouts
    /// (`cargo yardstick ab --layouts`).
    pub layouts: bool,
}

crate::json_object!(BuildFile {
    version,
    yardstick,
    rustc,
    host,
    llvm,
    target,
    profile,
    rustflags,
    target_features,
    features,
    linker,
    layouts (default)
});

/// The settings of cargo's profile that change the code rustc makes.
/// Values as cargo spells them (`"3"`, `"fat"`, `"true"`); `None` where
/// the value could not be read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Profile {
    /// The profile's name (`bench`, `release`, `test`, `dev`, a custom
    /// one); empty when unknown.
    pub name: String,
    /// `opt-level`.
    pub opt_level: String,
    /// `debug` (debuginfo).
    pub debug: String,
    /// Whether debug assertions were on.
    pub debug_assertions: bool,
    /// `panic`: `unwind` or `abort`.
    pub panic: String,
    /// `lto`.
    pub lto: Option<String>,
    /// `codegen-units`.
    pub codegen_units: Option<String>,
    /// `incremental`.
    pub incremental: Option<String>,
}

crate::json_object!(Profile {
    name,
    opt_level,
    debug,
    debug_assertions,
    panic,
    lto,
    codegen_units,
    incremental
});

impl BuildFile {
    /// The file, when it is of this version.
    ///
    /// # Errors
    ///
    /// A sentence saying what is wrong.
    pub fn checked(self) -> Result<BuildFile, String> {
        if self.version == VERSION {
            Ok(self)
        } else {
            Err(format!(
                "version {} (this yardstick reads {VERSION})",
                self.version
            ))
        }
    }
}

/// What the two sides of a comparison are called in words: `("the
/// baseline", "this run")`, `("base", "new")`.
#[derive(Debug, Clone, Copy)]
pub struct Sides<'a> {
    /// The side compared against.
    pub old: &'a str,
    /// The side measured now.
    pub new: &'a str,
}

/// A saved baseline as a side of a comparison, in words: `the baseline`
/// for `base` (Criterion.rs's default), else `baseline 'NAME'`. The bench
/// binary's line and the report drawn again from the files say the same.
#[must_use]
pub fn baseline_words(name: &str) -> String {
    if name == "base" {
        "the baseline".to_owned()
    } else {
        format!("baseline '{name}'")
    }
}

/// The one line that names how two builds differ, for every comparison
/// (`cargo bench`, `ab`, `compare`, `check`, the report, the history):
/// `None` when they were built alike in everything that can move timings.
/// One side without a record (saved by Criterion.rs or an earlier
/// yardstick) gives a line saying its build is unknown; two say nothing.
#[must_use]
pub fn compare_line(
    old: Option<&BuildFile>,
    new: Option<&BuildFile>,
    sides: Sides<'_>,
) -> Option<String> {
    let (old, new) = match (old, new) {
        (Some(o), Some(n)) => (o, n),
        // Nothing known of either (two imports, two runs of an earlier
        // yardstick): nothing to say.
        (None, None) => return None,
        (o, _) => {
            let unknown = if o.is_none() { sides.old } else { sides.new };
            return Some(format!(
                "how {unknown} was built is not known (saved without a build record, by Criterion.rs or an earlier yardstick): a change of toolchain or flags would not be named"
            ));
        }
    };
    let rest = differences(old, new, sides);
    if old.rustc != new.rustc {
        let (a, b) = versions(&old.rustc, &new.rustc);
        let head = format!("{} was built by {a}, {} by {b}", sides.old, sides.new);
        return Some(
            std::iter::once(head)
                .chain(rest)
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    (!rest.is_empty()).then(|| {
        format!(
            "{} was built differently from {}: {}",
            sides.new,
            sides.old,
            rest.join("; ")
        )
    })
}

/// Each difference but the toolchain's, in words.
fn differences(old: &BuildFile, new: &BuildFile, sides: Sides<'_>) -> Vec<String> {
    let mut out = Vec::new();
    if old.target != new.target {
        out.push(format!(
            "the target changed from {} to {}",
            old.target, new.target
        ));
    }
    if let Some(d) = added_removed(
        "RUSTFLAGS",
        &flag_words(&old.rustflags),
        &flag_words(&new.rustflags),
    ) {
        out.push(d);
    }
    if let Some(d) = added_removed(
        "target features",
        &old.target_features,
        &new.target_features,
    ) {
        out.push(d);
    }
    if let (Some(a), Some(b)) = (&old.features, &new.features) {
        if let Some(d) = added_removed("the package's features", a, b) {
            out.push(d);
        }
    }
    if let Some(d) = profile_changes(&old.profile, &new.profile) {
        out.push(d);
    }
    if old.linker != new.linker {
        let name = |l: &Option<String>| l.clone().unwrap_or_else(|| "rustc's default".into());
        out.push(format!(
            "the linker changed from {} to {}",
            name(&old.linker),
            name(&new.linker)
        ));
    }
    if old.layouts != new.layouts {
        let (yes, no) = if old.layouts {
            (sides.old, sides.new)
        } else {
            (sides.new, sides.old)
        };
        out.push(format!(
            "{yes} was relinked in sampled code layouts, {no} was not"
        ));
    }
    if old.yardstick != new.yardstick {
        out.push(format!(
            "yardstick changed from {} to {}",
            old.yardstick, new.yardstick
        ));
    }
    out
}

/// Two rustc version lines as short as still tells them apart: the
/// release (`rustc 1.91.1`), or the whole line when the releases are
/// equal (two nightlies).
fn versions(a: &str, b: &str) -> (String, String) {
    let release = |s: &str| s.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    if release(a) == release(b) {
        (a.to_owned(), b.to_owned())
    } else {
        (release(a), release(b))
    }
}

/// The profile's changed settings: `the profile changed opt-level from 3
/// to 2 and lto from false to fat`.
fn profile_changes(a: &Profile, b: &Profile) -> Option<String> {
    let opt = |v: &Option<String>| v.clone();
    let pairs = [
        (
            "opt-level",
            Some(a.opt_level.clone()),
            Some(b.opt_level.clone()),
        ),
        ("lto", opt(&a.lto), opt(&b.lto)),
        (
            "codegen-units",
            opt(&a.codegen_units),
            opt(&b.codegen_units),
        ),
        ("debug", Some(a.debug.clone()), Some(b.debug.clone())),
        ("panic", Some(a.panic.clone()), Some(b.panic.clone())),
        ("incremental", opt(&a.incremental), opt(&b.incremental)),
        (
            "debug-assertions",
            Some(a.debug_assertions.to_string()),
            Some(b.debug_assertions.to_string()),
        ),
    ];
    let changed: Vec<String> = pairs
        .into_iter()
        .filter_map(|(key, x, y)| match (x, y) {
            (Some(x), Some(y)) if x != y => Some(format!("{key} from {x} to {y}")),
            _ => None,
        })
        .collect();
    (!changed.is_empty()).then(|| format!("the profile changed {}", and_list(&changed)))
}

/// `what added x, y and removed z`, naming at most six of each.
fn added_removed(what: &str, old: &[String], new: &[String]) -> Option<String> {
    let added: Vec<String> = new.iter().filter(|f| !old.contains(f)).cloned().collect();
    let removed: Vec<String> = old.iter().filter(|f| !new.contains(f)).cloned().collect();
    let list = |v: &[String]| {
        const SHOWN: usize = 6;
        if v.len() > SHOWN {
            format!("{} and {} more", v[..SHOWN].join(", "), v.len() - SHOWN)
        } else {
            v.join(", ")
        }
    };
    match (added.is_empty(), removed.is_empty()) {
        (true, true) => None,
        (false, true) => Some(format!("{what} added {}", list(&added))),
        (true, false) => Some(format!("{what} removed {}", list(&removed))),
        (false, false) => Some(format!(
            "{what} added {} and removed {}",
            list(&added),
            list(&removed)
        )),
    }
}

fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Flags as a person reads them: an option and its value as one word
/// (`-C target-cpu=native`, whether written as one argument or two).
fn flag_words(args: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let takes_value = matches!(
            a.as_str(),
            "-C" | "-Z" | "-L" | "-l" | "--cfg" | "--cap-lints" | "-A" | "-W" | "-D" | "-F"
        );
        if takes_value && i + 1 < args.len() {
            out.push(format!("{a} {}", args[i + 1]));
            i += 2;
        } else if let Some(v) = a.strip_prefix("-C").filter(|v| !v.is_empty()) {
            out.push(format!("-C {v}"));
            i += 1;
        } else {
            out.push(a.clone());
            i += 1;
        }
    }
    out
}

/// The first line of the text a bench binary carries with the build's
/// compile-time part ([`from_embedded`]); `ab` finds it in a binary's bytes
/// without running it.
pub const EMBEDDED_START: &str = "\n@yardstick-build-v1\n";

/// The line that ends that text.
pub const EMBEDDED_END: &str = "\n@end\n";

/// The compile-time part of a build from the text a bench binary carries:
/// `key=value` lines between [`EMBEDDED_START`] and [`EMBEDDED_END`], with
/// `rustc_vv` (`rustc -vV`'s lines), `target`, `opt_level`, `debug`,
/// `profile`, `rustflags` (cargo's encoding), `target_features`
/// (comma-separated), `linker`, `debug_assertions`, `panic`, `yardstick`.
/// `bytes` may be the whole binary; `None` when the text is not there (a
/// binary of an earlier yardstick, or of another harness). The profile's
/// `lto`, `codegen-units` and `incremental` and the package's features
/// are not known at compile time: left `None`.
#[must_use]
pub fn from_embedded(bytes: &[u8]) -> Option<BuildFile> {
    let start = find(bytes, EMBEDDED_START.as_bytes())? + EMBEDDED_START.len();
    let len = find(&bytes[start..], EMBEDDED_END.as_bytes())?;
    let text = std::str::from_utf8(&bytes[start..start + len]).ok()?;
    let get = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
            .unwrap_or("")
            .to_owned()
    };
    let (rustc, host, llvm) = rustc_verbose(&get("rustc_vv").replace('\u{1f}', "\n"));
    let mut target_features: Vec<String> = get("target_features")
        .split(',')
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect();
    target_features.sort();
    let linker = get("linker");
    Some(BuildFile {
        version: VERSION,
        yardstick: get("yardstick"),
        rustc,
        host,
        llvm,
        target: get("target"),
        profile: Profile {
            name: get("profile"),
            opt_level: get("opt_level"),
            debug: get("debug"),
            debug_assertions: get("debug_assertions") == "true",
            panic: get("panic"),
            lto: None,
            codegen_units: None,
            incremental: None,
        },
        rustflags: encoded_flags(&get("rustflags")),
        target_features,
        features: None,
        linker: (!linker.is_empty()).then_some(linker),
        layouts: false,
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let mut at = 0;
    while let Some(i) = hay[at..].iter().position(|&b| b == first) {
        let i = at + i;
        if hay[i..].starts_with(needle) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// `CARGO_ENCODED_RUSTFLAGS`' arguments (separated by `0x1f`).
#[must_use]
pub fn encoded_flags(encoded: &str) -> Vec<String> {
    encoded
        .split('\u{1f}')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// `rustc -vV`'s version line, host and LLVM version (empty where it did
/// not say).
#[must_use]
pub fn rustc_verbose(text: &str) -> (String, String, String) {
    let line = text.lines().next().unwrap_or("").trim().to_owned();
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(|v| v.trim().to_owned())
            .unwrap_or_default()
    };
    (line, field("host:"), field("LLVM version:"))
}

/// The profile settings that neither rustc nor a build script is told
/// (`lto`, `codegen-units`, `incremental`), read from the workspace's
/// `Cargo.toml` text: `chain` is the profile and those it inherits from,
/// most specific first (`["bench", "release"]`). Only the plain
/// `[profile.NAME]` tables are read (neither per-package overrides nor
/// `.cargo/config.toml`), a line at a time: keys and values with or
/// without quotes, not inline tables or dotted keys (the forms checked
/// against the `toml` crate in `cargo-yardstick`'s `ab::builds`); a key
/// set nowhere is cargo's default for the chain's root (`release` or
/// `dev`), `None` when that is unknown.
#[must_use]
pub fn profile_settings(manifest: &str, chain: &[&str]) -> [(&'static str, Option<String>); 3] {
    const KEYS: [&str; 3] = ["lto", "codegen-units", "incremental"];
    let mut found: [Option<(usize, &str)>; 3] = [None, None, None];
    for l in profile_lines(manifest, chain).filter(|l| l.package.is_empty()) {
        if let Some(k) = KEYS.iter().position(|k| *k == l.key) {
            keep_first(&mut found[k], &l);
        }
    }
    let release = root_is_release(chain);
    let default = |k: usize| -> Option<String> {
        let v = match (k, release?) {
            (0, _) => "false",
            (1, true) => "16",
            (1, false) => "256",
            (2, release) => {
                if release {
                    "false"
                } else {
                    "true"
                }
            }
            _ => return None,
        };
        Some(v.to_owned())
    };
    let mut out = [
        ("lto", None),
        ("codegen-units", None),
        ("incremental", None),
    ];
    for (k, slot) in out.iter_mut().enumerate() {
        slot.1 = found[k].map(|(_, v)| v.to_owned()).or_else(|| default(k));
    }
    out
}

/// The `inherits` of profile `name` in the manifest's text, if set.
#[must_use]
pub fn profile_inherits(manifest: &str, name: &str) -> Option<String> {
    profile_lines(manifest, &[name])
        .find(|l| l.package.is_empty() && l.key == "inherits")
        .map(|l| l.value.to_owned())
}

/// The `opt-level` the bench package `package` was compiled at, when the
/// manifest's text gives the harness another one: a per-package override
/// of a profile in `chain` (`[profile.bench.package."*"]`, or one naming
/// `yardstick`) sets `opt-level`, so the harness's build script was told
/// the override's level, not the bench package's. Then the bench
/// package's own is the first of: an override naming `package` (its own
/// level), and, from the second member on, `[profile.NAME]`'s along
/// `chain` or cargo's default for the chain's root (`3` for `release`,
/// `0` for `dev`); the caller puts cargo's environment
/// (`CARGO_PROFILE_BENCH_OPT_LEVEL`) between the two. `None` when no such
/// override is there: the harness's level is then the package's (or is
/// set where this does not read, in `.cargo/config.toml`).
#[must_use]
pub fn bench_opt_level(
    manifest: &str,
    chain: &[&str],
    package: &str,
) -> Option<(Option<String>, Option<String>)> {
    let mut profile = None;
    let mut own = None;
    let mut harness_overridden = false;
    for l in profile_lines(manifest, chain).filter(|l| l.key == "opt-level") {
        let slot = match l.package {
            "" => &mut profile,
            p if p == package => &mut own,
            "*" | "yardstick" => {
                harness_overridden = true;
                continue;
            }
            _ => continue,
        };
        keep_first(slot, &l);
    }
    if !harness_overridden {
        return None;
    }
    let default = root_is_release(chain).map(|release| if release { "3" } else { "0" });
    let value = |found: Option<(usize, &str)>| found.map(|(_, v)| v.to_owned());
    Some((value(own), value(profile).or(default.map(str::to_owned))))
}

/// One `key = value` line of a profile table, its key and value unquoted.
struct ProfileLine<'a> {
    /// The profile's place in the chain it was read along (0: the most
    /// specific).
    rank: usize,
    /// The package a per-package table overrides (`*`, a name); empty
    /// for the profile's own table.
    package: &'a str,
    key: &'a str,
    value: &'a str,
}

/// The `key = value` lines of the manifest's tables `[profile.NAME]` and
/// `[profile.NAME.package.SPEC]` of the profiles in `chain`, in order, a
/// line at a time (see [`profile_settings`] for the forms read).
fn profile_lines<'a>(
    manifest: &'a str,
    chain: &'a [&'a str],
) -> impl Iterator<Item = ProfileLine<'a>> + 'a {
    let mut table = None;
    manifest.lines().filter_map(move |raw| {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            table = profile_table(line.trim_matches(|c| c == '[' || c == ']').trim(), chain);
            return None;
        }
        let (rank, package) = table?;
        let (key, value) = line.split_once('=')?;
        Some(ProfileLine {
            rank,
            package,
            key: unquoted(key),
            value: unquoted(value),
        })
    })
}

/// A table's name read as one of `chain`'s profiles: its rank in `chain`
/// and the package it overrides (empty for the profile's own table).
fn profile_table<'a>(name: &'a str, chain: &[&str]) -> Option<(usize, &'a str)> {
    let rest = name.strip_prefix("profile.")?;
    let (profile, package) = match rest.split_once(".package.") {
        Some((p, pkg)) => (p, unquoted(pkg)),
        None => (rest, ""),
    };
    let rank = chain.iter().position(|c| *c == unquoted(profile))?;
    Some((rank, package))
}

/// Keeps `line`'s value in `slot` unless a more specific profile's is
/// there: the first along the chain wins, as cargo's inheritance does.
fn keep_first<'a>(slot: &mut Option<(usize, &'a str)>, line: &ProfileLine<'a>) {
    if slot.map_or(true, |(rank, _)| line.rank < rank) {
        *slot = Some((line.rank, line.value));
    }
}

/// Whether the chain's root is the `release` profile (`Some(true)`) or
/// `dev` (`Some(false)`): cargo's defaults follow it.
fn root_is_release(chain: &[&str]) -> Option<bool> {
    match chain.last().copied()? {
        "release" | "bench" => Some(true),
        "dev" | "test" => Some(false),
        _ => None,
    }
}

/// A key or value of one line of TOML without its quotes, basic (`"`) or
/// literal (`'`).
fn unquoted(s: &str) -> &str {
    s.trim().trim_matches(|c| c == '"' || c == '\'')
}

/// The enabled features in a cargo fingerprint file of the bench target
/// (`target/<profile>/.fingerprint/<package>-<hash>/*.json`, member
/// `features`, itself a list written as text), sorted. cargo's own file,
/// not a stable interface: `None` when it does not read as expected.
#[must_use]
pub fn fingerprint_features(text: &str) -> Option<Vec<String>> {
    let doc = json::parse(text).ok()?;
    let list = json::parse(doc.get("features")?.as_str()?).ok()?;
    let mut names: Vec<String> = list
        .as_array()?
        .iter()
        .map(|f| f.as_str().map(str::to_owned))
        .collect::<Option<_>>()?;
    names.sort();
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIDES: Sides<'static> = Sides {
        old: "the baseline",
        new: "this run",
    };

    fn build() -> BuildFile {
        BuildFile {
            version: VERSION,
            yardstick: "0.1.0".into(),
            rustc: "rustc 1.91.1 (ed61e7d7e 2025-11-07)".into(),
            host: "x86_64-unknown-linux-gnu".into(),
            llvm: "21.1.2".into(),
            target: "x86_64-unknown-linux-gnu".into(),
            profile: Profile {
                name: "bench".into(),
                opt_level: "3".into(),
                debug: "false".into(),
                debug_assertions: false,
                panic: "unwind".into(),
                lto: Some("false".into()),
                codegen_units: Some("16".into()),
                incremental: Some("false".into()),
            },
            rustflags: vec![],
            target_features: vec!["fxsr".into(), "sse".into(), "sse2".into()],
            features: Some(vec!["default".into()]),
            linker: None,
            layouts: false,
        }
    }

    #[test]
    fn identical_builds_name_nothing() {
        assert_eq!(compare_line(Some(&build()), Some(&build()), SIDES), None);
        // The profile's name alone moves no code (bench inherits release).
        let mut b = build();
        b.profile.name = "release".into();
        b.host = "aarch64-apple-darwin".into();
        assert_eq!(compare_line(Some(&build()), Some(&b), SIDES), None);
    }

    #[test]
    fn a_toolchain_and_flags_change_is_one_line() {
        let mut b = build();
        b.rustc = "rustc 1.92.0 (ded5c06cf 2025-12-08)".into();
        b.rustflags = vec!["-C".into(), "target-cpu=native".into()];
        assert_eq!(
            compare_line(Some(&build()), Some(&b), SIDES).unwrap(),
            "the baseline was built by rustc 1.91.1, this run by rustc 1.92.0; \
             RUSTFLAGS added -C target-cpu=native"
        );
    }

    #[test]
    fn each_kind_of_difference_is_named() {
        let mut b = build();
        b.rustflags = vec!["-Ctarget-cpu=native".into()];
        b.target_features = [
            "avx", "avx2", "fma", "fxsr", "sse", "sse2", "sse3", "sse4.1", "sse4.2", "ssse3",
        ]
        .map(String::from)
        .to_vec();
        b.features = Some(vec!["default".into(), "simd".into()]);
        b.profile.opt_level = "2".into();
        b.profile.lto = Some("fat".into());
        b.linker = Some("clang".into());
        b.yardstick = "0.2.0".into();
        assert_eq!(
            compare_line(Some(&build()), Some(&b), SIDES).unwrap(),
            "this run was built differently from the baseline: \
             RUSTFLAGS added -C target-cpu=native; \
             target features added avx, avx2, fma, sse3, sse4.1, sse4.2 and 1 more; \
             the package's features added simd; \
             the profile changed opt-level from 3 to 2 and lto from false to fat; \
             the linker changed from rustc's default to clang; \
             yardstick changed from 0.1.0 to 0.2.0"
        );
        // Two nightlies of one release: the whole lines tell them apart.
        let (mut x, mut y) = (build(), build());
        x.rustc = "rustc 1.93.0-nightly (aaaaaaaaa 2025-11-01)".into();
        y.rustc = "rustc 1.93.0-nightly (bbbbbbbbb 2025-11-02)".into();
        y.features = None;
        x.features = Some(vec!["fast".into()]);
        assert_eq!(
            compare_line(Some(&x), Some(&y), SIDES).unwrap(),
            "the baseline was built by rustc 1.93.0-nightly (aaaaaaaaa 2025-11-01), \
             this run by rustc 1.93.0-nightly (bbbbbbbbb 2025-11-02)"
        );
    }

    #[test]
    fn a_side_without_a_record_is_unknown_in_one_line() {
        let line = compare_line(None, Some(&build()), SIDES).unwrap();
        assert!(
            line.starts_with("how the baseline was built is not known"),
            "{line}"
        );
        // Nothing known of either side: nothing to say.
        assert_eq!(compare_line(None, None, SIDES), None);
    }

    #[test]
    fn cargos_and_rustcs_text_is_read() {
        let vv = "rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\ncommit-hash: 59807616e1fa\n\
                  host: x86_64-unknown-linux-gnu\nrelease: 1.95.0\nLLVM version: 22.1.2\n";
        assert_eq!(
            rustc_verbose(vv),
            (
                "rustc 1.95.0 (59807616e 2026-04-14)".into(),
                "x86_64-unknown-linux-gnu".into(),
                "22.1.2".into()
            )
        );
        assert_eq!(
            encoded_flags("-C\u{1f}target-cpu=native\u{1f}"),
            vec!["-C", "target-cpu=native"]
        );
        assert!(encoded_flags("").is_empty());
        let fp = r#"{"rustc":1,"features":"[\"default\", \"async\"]","declared_features":"[]"}"#;
        assert_eq!(
            fingerprint_features(fp),
            Some(vec!["async".into(), "default".into()])
        );
        assert_eq!(fingerprint_features("{}"), None);
        assert_eq!(fingerprint_features("not json"), None);
    }

    #[test]
    fn the_text_a_binary_carries_is_found_among_its_bytes() {
        let mut bytes = b"\x7fELF\0\0junk\n@yardstick".to_vec();
        bytes.extend_from_slice(
            b"\n@yardstick-build-v1\nyardstick=0.1.0\n\
              rustc_vv=rustc 1.91.1 (ed61e7d7e 2025-11-07)\x1fbinary: rustc\x1fhost: x86_64-unknown-linux-gnu\x1fLLVM version: 21.1.2\n\
              target=x86_64-unknown-linux-gnu\nprofile=release\nopt_level=3\ndebug=false\n\
              rustflags=\ntarget_features=sse2,fxsr,sse\nlinker=\ndebug_assertions=false\npanic=unwind\n@end\n\0more",
        );
        let mut expected = build();
        expected.profile.name = "release".into();
        expected.profile.lto = None;
        expected.profile.codegen_units = None;
        expected.profile.incremental = None;
        expected.features = None;
        assert_eq!(from_embedded(&bytes), Some(expected));
        assert_eq!(from_embedded(b"no text here"), None);
        assert_eq!(from_embedded(b"\n@yardstick-build-v1\nyardstick=1\n"), None);
    }

    #[test]
    fn a_dependency_override_leaves_the_bench_package_its_profiles_level() {
        let chain = ["bench", "release"];
        // No override: the harness was told the package's level.
        let plain = "[profile.release]\nopt-level = 2\n";
        assert_eq!(bench_opt_level(plain, &chain, "mycrate"), None);
        // Every dependency at 3, the profile at 1 (cargo's book's example
        // of a fast-to-build crate with optimized dependencies).
        let star = "[profile.release]\nopt-level = 1\n\n[profile.release.package.\"*\"]\nopt-level = 3 # deps\n";
        assert_eq!(
            bench_opt_level(star, &chain, "mycrate"),
            Some((None, Some("1".into())))
        );
        // Set nowhere but the override: the release profile's default, 3.
        let only = "[profile.bench.package.\"*\"]\nopt-level = \"s\"\n";
        assert_eq!(
            bench_opt_level(only, &chain, "mycrate"),
            Some((None, Some("3".into())))
        );
        // `cargo test`'s chain: the dev profile's override and default.
        let dev = "[profile.dev.package.\"*\"]\nopt-level = 1\n";
        assert_eq!(
            bench_opt_level(dev, &["test", "dev"], "mycrate"),
            Some((None, Some("0".into())))
        );
        assert_eq!(bench_opt_level(only, &["test", "dev"], "mycrate"), None);
        // The bench package's own override wins; the bench profile's
        // table over the release one it inherits.
        let own = "[profile.release]\nopt-level = 1\n[profile.bench]\nopt-level = 2\n\
                   [profile.bench.package.yardstick]\nopt-level = 0\n\
                   [profile.release.package.mycrate]\nopt-level = \"z\"\n";
        assert_eq!(
            bench_opt_level(own, &chain, "mycrate"),
            Some((Some("z".into()), Some("2".into())))
        );
        // Another profile's override, or one naming another package, says
        // nothing about this build.
        let other = "[profile.dev.package.\"*\"]\nopt-level = 3\n[profile.release.package.serde]\nopt-level = 0\n";
        assert_eq!(bench_opt_level(other, &chain, "mycrate"), None);
    }

    #[test]
    fn the_profile_is_read_along_its_inheritance() {
        let manifest = "[package]\nname = \"x\"\n\n[profile.release]\nlto = \"thin\" # a comment\n\
                        codegen-units = 1\n\n[profile.bench]\nlto = true\n\n[profile.fast]\ninherits = \"release\"\n";
        let got = profile_settings(manifest, &["bench", "release"]);
        assert_eq!(got[0], ("lto", Some("true".into())));
        assert_eq!(got[1], ("codegen-units", Some("1".into())));
        // Set nowhere: cargo's default of the release profile.
        assert_eq!(got[2], ("incremental", Some("false".into())));
        assert_eq!(
            profile_settings("", &["test", "dev"])[1].1.as_deref(),
            Some("256")
        );
        assert_eq!(profile_settings("", &["odd"])[0].1, None);
        assert_eq!(
            profile_inherits(manifest, "fast").as_deref(),
            Some("release")
        );
        assert_eq!(profile_inherits(manifest, "bench"), None);
    }
}
