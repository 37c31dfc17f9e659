//! How each side's bench binaries were built, and the line naming what
//! differs (`yardstick_format::build::compare_line`, the words every
//! comparison uses). `ab` builds both sides itself, so it reads each
//! binary's compile-time part from its bytes (the text the harness
//! carries), the profile's `lto`, `codegen-units` and `incremental` from
//! the side's checkout, and the package's features and `opt-level` from
//! cargo's message about the bench target it built.

use std::path::Path;

use yardstick_format::build::{self, BuildFile, Sides};

use super::{target_name, Built};

/// The build of one binary of a side checked out at `checkout`; `None`
/// for a binary of an earlier yardstick (it carries no text).
pub(super) fn of(built: &Built, checkout: &Path, package_dir: &Path) -> Option<BuildFile> {
    let bytes = std::fs::read(&built.bin.executable).ok()?;
    let mut b = build::from_embedded(&bytes)?;
    b.profile.name = "bench".to_owned();
    if let Some(manifest) = workspace_manifest(checkout, package_dir) {
        let [lto, units, incremental] = build::profile_settings(&manifest, &["bench", "release"]);
        b.profile.lto = lto.1;
        b.profile.codegen_units = units.1;
        b.profile.incremental = incremental.1;
    }
    // The target's own level, where an override gave the harness another.
    if let Some(level) = &built.bin.opt_level {
        b.profile.opt_level.clone_from(level);
    }
    b.layouts = !built.layouts.is_empty();
    b.features.clone_from(&built.bin.features);
    Some(b)
}

/// The manifest cargo reads profiles from: the nearest one with a
/// `[workspace]` table from the package up to the checkout, else the
/// package's.
fn workspace_manifest(checkout: &Path, package_dir: &Path) -> Option<String> {
    let mut package = None;
    for dir in package_dir.ancestors() {
        if let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) {
            if text.lines().any(|l| l.trim() == "[workspace]") {
                return Some(text);
            }
            package.get_or_insert(text);
        }
        if dir == checkout {
            break;
        }
    }
    package
}

/// The lines naming how B's binaries were built differently from A's,
/// one per distinct difference: the first as it is, a later one (another
/// bench target built otherwise) with its target's name. Targets on one
/// side only, and two binaries that both carry no record, say nothing.
pub(super) fn lines(pairs: &[(String, Option<BuildFile>, Option<BuildFile>)]) -> Vec<String> {
    let sides = Sides { old: "A", new: "B" };
    let mut out: Vec<String> = Vec::new();
    let mut said: Vec<String> = Vec::new();
    for (name, a, b) in pairs {
        let Some(line) = build::compare_line(a.as_ref(), b.as_ref(), sides) else {
            continue;
        };
        if said.contains(&line) {
            continue;
        }
        out.push(if said.is_empty() {
            line.clone()
        } else {
            format!("bench target {name}: {line}")
        });
        said.push(line);
    }
    out
}

/// The pairs of `lines`: each bench target present on both sides.
pub(super) fn pairs(
    a: &[Built],
    b: &[Built],
    checkouts: [&Path; 2],
) -> Vec<(String, Option<BuildFile>, Option<BuildFile>)> {
    a.iter()
        .filter_map(|x| {
            let name = target_name(&x.bin);
            let y = b.iter().find(|y| target_name(&y.bin) == name)?;
            let rebase = |bin: &Built, checkout: &Path| of(bin, checkout, &bin.bin.package_dir);
            Some((name, rebase(x, checkouts[0]), rebase(y, checkouts[1])))
        })
        .collect()
}

/// The harness's line-by-line reading of a manifest's profiles
/// (`yardstick_format::build`, which has no TOML parser: it is compiled in
/// every user's `cargo bench`) against the `toml` crate's, over generated
/// manifests written in the forms it reads: tables `[profile.NAME]` and
/// `[profile.NAME.package.SPEC]`, quoted or not, keys and values with
/// either quotes, comments and blank lines.
#[cfg(test)]
mod tests {
    use yardstick_format::build::{bench_opt_level, profile_settings};

    /// A value of `key` in profile `profile` (its override for `spec`),
    /// as the `toml` crate reads the manifest.
    fn reference<'a>(
        doc: &'a toml::Table,
        profile: &str,
        spec: Option<&str>,
        key: &str,
    ) -> Option<&'a toml::Value> {
        let table = doc.get("profile")?.get(profile)?;
        let table = match spec {
            Some(s) => table.get("package")?.get(s)?,
            None => table,
        };
        table.get(key)
    }

    fn text(v: &toml::Value) -> String {
        match v {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }

    /// What the reader should return, from the `toml` crate's reading and
    /// cargo's rules as `bench_opt_level` states them.
    fn expected(doc: &toml::Table, chain: &[&str]) -> Option<(Option<String>, Option<String>)> {
        let first = |spec: Option<&str>| {
            chain
                .iter()
                .find_map(|p| reference(doc, p, spec, "opt-level"))
                .map(text)
        };
        first(Some("*")).or_else(|| first(Some("yardstick")))?;
        let default = if chain.last() == Some(&"release") {
            "3"
        } else {
            "0"
        };
        Some((
            first(Some("mycrate")),
            Some(first(None).unwrap_or_else(|| default.into())),
        ))
    }

    /// A small deterministic generator (no dependency for one test).
    struct Lcg(u64);
    impl Lcg {
        fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            &from[(self.0 >> 33) as usize % from.len()]
        }
    }

    fn manifest(rng: &mut Lcg) -> String {
        let mut out = String::from("[package]\nname = \"mycrate\"\nversion = \"0.1.0\"\n");
        for profile in ["release", "bench", "dev", "test"] {
            for spec in [
                None,
                Some("*"),
                Some("yardstick"),
                Some("mycrate"),
                Some("serde"),
            ] {
                // The harness's overrides rarer: both answers come up.
                let skip: &[bool] = match spec {
                    Some("*" | "yardstick") => &[true, true, true, false],
                    _ => &[true, false, false],
                };
                if *rng.pick(skip) {
                    continue;
                }
                let quote = *rng.pick(&["", "\"", "'"]);
                let name = match spec {
                    None => format!("[profile.{quote}{profile}{quote}]"),
                    Some("*") => format!("[profile.{profile}.package.\"*\"]"),
                    Some(s) => format!("[profile.{profile}.package.{quote}{s}{quote}]"),
                };
                let comment = *rng.pick(&["", " # a comment", "   "]);
                out.push_str(&format!("\n{name}{comment}\n"));
                let level = *rng.pick(&["0", "1", "2", "3", "\"s\"", "'z'", "\"3\""]);
                let key = *rng.pick(&["opt-level", "\"opt-level\"", "'opt-level'"]);
                let spacing = *rng.pick(&[" = ", "=", "  =  "]);
                out.push_str(&format!("{key}{spacing}{level}{comment}\n"));
                if spec.is_none() {
                    let lto = *rng.pick(&["true", "false", "\"thin\"", "'fat'", "\"off\""]);
                    out.push_str(&format!(
                        "lto = {lto}\ncodegen-units = {}\n",
                        rng.pick(&[1, 4, 16])
                    ));
                    if *rng.pick(&[true, false]) {
                        out.push_str("incremental = false # slow\n");
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_profile_reader_agrees_with_the_toml_crate() {
        let mut rng = Lcg(7);
        let mut overridden = 0;
        for _ in 0..400 {
            let m = manifest(&mut rng);
            let doc: toml::Table = toml::from_str(&m).unwrap_or_else(|e| panic!("{e}\n{m}"));
            for chain in [&["bench", "release"][..], &["test", "dev"][..]] {
                let want = expected(&doc, chain);
                overridden += usize::from(want.is_some());
                assert_eq!(
                    bench_opt_level(&m, chain, "mycrate"),
                    want,
                    "{chain:?}\n{m}"
                );
                let got = profile_settings(&m, chain);
                for (key, value) in got {
                    let want = chain
                        .iter()
                        .find_map(|p| reference(&doc, p, None, key))
                        .map(text);
                    // Set nowhere: the reader gives cargo's default.
                    if want.is_some() {
                        assert_eq!(value, want, "{key} {chain:?}\n{m}");
                    }
                }
            }
        }
        // Both answers were exercised.
        assert!((200..600).contains(&overridden), "{overridden} of 800");
    }
}
