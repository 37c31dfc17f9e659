//! `cargo yardstick binaries [--prune | --remove-all] [--home DIR]`: the
//! bench binaries kept with the baselines (under `<home>/.binaries/`), which
//! `cargo bench` measures in lock-step with the current build. Lists them
//! with their size and the saved folders naming them; `--prune` applies
//! the retention rule the harness applies whenever a run keeps its binary
//! (the unnamed ones go, and all but the four most recently used of each
//! bench target); `--remove-all` removes every kept binary, after which
//! comparisons use the saved numbers until the next run keeps its own.
//! Both are the harness's own clean-up: a binary a running `cargo bench`
//! holds (its shared lock) stays.

use clap::Args;

use yardstick_format::binary::{self, Kept};

use crate::args::HomeArg;

/// `binaries` arguments.
#[derive(Debug, Clone, Args)]
pub struct BinariesArgs {
    #[command(flatten)]
    pub home: HomeArg,
    /// Apply the retention rule now (a binary a running bench measures stays).
    #[arg(long, conflicts_with = "remove_all")]
    pub prune: bool,
    /// Remove every kept binary a running bench is not measuring.
    #[arg(long)]
    pub remove_all: bool,
}

/// Runs `binaries`; the text to print.
pub fn run(args: &BinariesArgs) -> String {
    let home = args.home.resolve();
    if args.remove_all {
        let removed = yardstick::remove_all_kept_binaries(&home);
        return summary("removed", &removed) + &in_use(&binary::kept(&home));
    }
    if args.prune {
        return summary("pruned", &yardstick::prune_kept_binaries(&home));
    }
    listing(&binary::kept(&home))
}

/// What `--remove-all` left because a run holds it.
fn in_use(left: &[Kept]) -> String {
    if left.is_empty() {
        return String::new();
    }
    format!(
        "{} kept bench binar{} in use by a running bench stay{} (removed by a later clean-up)\n",
        left.len(),
        if left.len() == 1 { "y" } else { "ies" },
        if left.len() == 1 { "s" } else { "" },
    )
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn summary(verb: &str, removed: &[Kept]) -> String {
    let bytes: u64 = removed.iter().map(|k| k.bytes).sum();
    format!(
        "{verb} {} kept bench binar{} ({})\n",
        removed.len(),
        if removed.len() == 1 { "y" } else { "ies" },
        mb(bytes)
    )
}

fn listing(kept: &[Kept]) -> String {
    if kept.is_empty() {
        return "no bench binary is kept (a run that saves results keeps its binary)\n".into();
    }
    let mut out = String::new();
    for k in kept {
        out.push_str(&format!(
            "{:<32} {:<24} {:>9}  named by {} folder{}\n",
            k.key,
            k.binary,
            mb(k.bytes),
            k.references,
            if k.references == 1 { "" } else { "s" }
        ));
    }
    let total: u64 = kept.iter().map(|k| k.bytes).sum();
    out.push_str(&format!(
        "{} binar{}, {} in all\n",
        kept.len(),
        if kept.len() == 1 { "y" } else { "ies" },
        mb(total)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listing_names_size_and_references() {
        let k = Kept {
            key: "guide.getting_started".into(),
            binary: "cd278ee51a2f3848-2371384".into(),
            path: "x".into(),
            bytes: 2_371_384,
            used: std::time::UNIX_EPOCH,
            references: 2,
        };
        let text = listing(std::slice::from_ref(&k));
        assert!(text.contains("guide.getting_started"), "{text}");
        assert!(text.contains("2.4 MB  named by 2 folders"), "{text}");
        assert!(text.ends_with("1 binary, 2.4 MB in all\n"), "{text}");
        assert_eq!(
            summary("pruned", &[k]),
            "pruned 1 kept bench binary (2.4 MB)\n"
        );
    }
}
