//! The parts of a group that Criterion.rs summarises on pages of their own:
//! each function across its inputs (`<group>/<function>/report/`) and each
//! input across the functions (`<group>/<input>/report/`), when two or more
//! benchmarks make the part.

use crate::disk::StoredBenchmark;

/// One summary page to write.
#[derive(Debug, Clone)]
pub(crate) struct Part {
    /// Its folder inside the group's folder (one path component).
    pub folder: String,
    /// Its title: `group/function` or `group/input`.
    pub title: String,
    /// Its benchmarks.
    pub members: Vec<StoredBenchmark>,
}

/// The folder component of a benchmark: the `index`-th of its directory
/// name below the group's folder (0: the function's, 1: the input's).
fn component(b: &StoredBenchmark, index: usize) -> Option<&str> {
    let mut parts = b.record.directory_name.split('/');
    parts.next()?;
    let c: Vec<&str> = parts.collect();
    // Only benchmarks with both a function and an input sit two deep.
    (c.len() == 2).then(|| c[index])
}

/// The summary pages of a group, functions first, in order of appearance.
/// A part whose folder would be a benchmark's own folder or another part's
/// is left out rather than written over it.
pub(crate) fn parts(group_id: &str, group_dir: &str, members: &[StoredBenchmark]) -> Vec<Part> {
    let mut out: Vec<Part> = Vec::new();
    let by = |index: usize, out: &mut Vec<Part>| {
        let mut folders: Vec<&str> = Vec::new();
        for b in members {
            if let Some(f) = component(b, index) {
                if !folders.contains(&f) {
                    folders.push(f);
                }
            }
        }
        for folder in folders {
            let part: Vec<StoredBenchmark> = members
                .iter()
                .filter(|b| component(b, index) == Some(folder))
                .cloned()
                .collect();
            let taken = out.iter().any(|p| p.folder == folder)
                || members
                    .iter()
                    .any(|b| b.record.directory_name == format!("{group_dir}/{folder}"));
            if part.len() < 2 || taken {
                continue;
            }
            let name = if index == 0 {
                part[0].record.function_id.clone()
            } else {
                part[0].record.value_str.clone()
            };
            out.push(Part {
                folder: folder.to_owned(),
                title: format!("{group_id}/{}", name.unwrap_or_else(|| folder.to_owned())),
                members: part,
            });
        }
    };
    by(0, &mut out);
    by(1, &mut out);
    out
}
