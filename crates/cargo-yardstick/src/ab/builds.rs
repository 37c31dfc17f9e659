//! How each side's bench binaries were built, and the line naming what
//! differs (`yardstick_format::build::compare_line`, the words every
//! comparison uses). `ab` builds both sides itself, so it reads each
//! binary's compile-time part from its bytes (the text the harness
//! carries), the profile's `lto`, `codegen-units` and `incremental` from
//! the side's checkout, and the package's features from cargo's message
//! about the bench target it built.

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
