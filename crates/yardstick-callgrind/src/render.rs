//! Writing the flamegraph files of one benchmark.

use crate::config::FlamegraphConfig;
#[cfg(feature = "flamegraph")]
use crate::config::FlamegraphKind;
use crate::job::Job;
use crate::parser::CallgrindProfile;
use crate::paths::{ToolFiles, Version};

/// Draws the flamegraphs `fg` asks for and returns their paths:
/// `callgrind.<name>.<Event>.flamegraph.svg` and, when there is a run to
/// compare with, `callgrind.<name>.<Event>.diff.<old|base@NAME>.flamegraph.svg`.
///
/// # Errors
///
/// A message when drawing fails, or when the crate was built without the
/// `flamegraph` feature.
pub fn flamegraphs(
    job: &Job,
    fg: &FlamegraphConfig,
    files: &ToolFiles,
    new: &CallgrindProfile,
    old: Option<&CallgrindProfile>,
    old_version: &Version,
) -> Result<Vec<String>, String> {
    #[cfg(not(feature = "flamegraph"))]
    {
        let _ = (job, fg, files, new, old, old_version);
        Err("flamegraphs need the `flamegraph` feature of yardstick-callgrind".to_owned())
    }
    #[cfg(feature = "flamegraph")]
    {
        use crate::flamegraph::{draw, draw_diff, folded_stacks};
        let root = if !job.toggles.is_empty() {
            "__yardstick_callgrind_measure"
        } else {
            ""
        };
        let title = fg.title.clone().unwrap_or_else(|| job.header.clone());
        let mut written = Vec::new();
        for kind in &fg.event_kinds {
            let Some(index) = new.event_index(kind.name()) else {
                continue;
            };
            let stacks = folded_stacks(new, index, root);
            if matches!(fg.kind, FlamegraphKind::Regular | FlamegraphKind::All) {
                let svg = draw(&stacks, fg, &title, kind.name())?;
                let path = files
                    .dir
                    .join(format!("{}.{}.flamegraph.svg", files.stem, kind.name()));
                write(&path, &svg)?;
                written.push(path.display().to_string());
            }
            if matches!(fg.kind, FlamegraphKind::Differential | FlamegraphKind::All) {
                if let Some(old) = old {
                    if let Some(old_index) = old.event_index(kind.name()) {
                        let old_stacks = folded_stacks(old, old_index, root);
                        let svg = draw_diff(&old_stacks, &stacks, fg, &title, kind.name())?;
                        let tag = match old_version {
                            Version::Base(b) => format!("base@{}", crate::paths::sanitize(b)),
                            _ => "old".to_owned(),
                        };
                        let path = files.dir.join(format!(
                            "{}.{}.diff.{tag}.flamegraph.svg",
                            files.stem,
                            kind.name()
                        ));
                        write(&path, &svg)?;
                        written.push(path.display().to_string());
                    }
                }
            }
        }
        Ok(written)
    }
}

#[cfg(feature = "flamegraph")]
fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    yardstick_format::atomic::write_file(path, bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
