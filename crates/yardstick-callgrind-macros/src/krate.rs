//! The name under which the calling package depends on
//! `yardstick-callgrind`.
//!
//! A proc macro has no `$crate`: the expansion must name the harness crate,
//! and after the one-line switch
//! (`iai-callgrind = { package = "yardstick-callgrind", .. }`) that name is
//! `iai_callgrind`. Cargo runs the macro with `CARGO_MANIFEST_DIR` set to the
//! calling package, so its manifest says which name it chose.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Our package name on crates.io.
const PACKAGE: &str = "yardstick-callgrind";

/// The path of the harness crate in the calling package: `::iai_callgrind`
/// or `::yardstick_callgrind`.
pub fn path() -> TokenStream {
    let ident = Ident::new(&dependency_name().replace('-', "_"), Span::call_site());
    quote!(::#ident)
}

/// The dependency's name in the calling package's manifest; the package
/// name when the manifest cannot be read or does not rename it.
pub fn dependency_name() -> String {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .and_then(|dir| std::fs::read_to_string(std::path::Path::new(&dir).join("Cargo.toml")).ok())
        .and_then(|manifest| renamed(&manifest))
        .unwrap_or_else(|| PACKAGE.to_owned())
}

/// The key of the dependency entry that renames `yardstick-callgrind`, in
/// any of TOML's spellings: `key = { package = "yardstick-callgrind" }`,
/// `key.package = "yardstick-callgrind"` and a `[dev-dependencies.key]`
/// table. A key `iai-callgrind` inherited from the workspace
/// (`iai-callgrind.workspace = true`) counts too: the rename is then in the
/// workspace's manifest, and this package uses our macro under that name.
fn renamed(manifest: &str) -> Option<String> {
    let mut table: Option<String> = None;
    let mut iai_key = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            let header = line.trim_matches(|c| c == '[' || c == ']').trim();
            table = header
                .split_once("dependencies.")
                .map(|(_, key)| unquote(key).to_owned());
            iai_key |= table.as_deref() == Some("iai-callgrind");
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let (key, value) = (unquote(key.trim()), value.trim());
        if let Some(table) = &table {
            if key == "package" && unquote(value) == PACKAGE {
                return Some(table.clone());
            }
        } else if let Some(dep) = key.strip_suffix(".package") {
            if unquote(value) == PACKAGE {
                return Some(unquote(dep).to_owned());
            }
        } else if value.contains("package") && value.contains(&format!("\"{PACKAGE}\"")) {
            return Some(key.to_owned());
        }
        let first = key.split('.').next().map(unquote);
        iai_key |= first == Some("iai-callgrind");
    }
    iai_key.then(|| "iai-callgrind".to_owned())
}

fn unquote(s: &str) -> &str {
    s.trim().trim_matches(|c| c == '"' || c == '\'')
}

#[cfg(test)]
mod tests {
    use super::renamed;

    #[test]
    fn every_spelling_of_the_rename() {
        let inline = "[dev-dependencies]\niai-callgrind = { package = \"yardstick-callgrind\", path = \"x\" }\n";
        assert_eq!(renamed(inline).as_deref(), Some("iai-callgrind"));
        let dotted = "[dev-dependencies]\nbench.package = \"yardstick-callgrind\"\n";
        assert_eq!(renamed(dotted).as_deref(), Some("bench"));
        let table =
            "[dev-dependencies.iai]\nversion = \"0.1\"\npackage = \"yardstick-callgrind\"\n";
        assert_eq!(renamed(table).as_deref(), Some("iai"));
        let workspace = "[dev-dependencies]\niai-callgrind = { workspace = true }\n";
        assert_eq!(renamed(workspace).as_deref(), Some("iai-callgrind"));
    }

    #[test]
    fn no_rename_is_none() {
        let plain = "[dev-dependencies]\nyardstick-callgrind = { path = \"..\" }\nserde = \"1\"\n";
        assert_eq!(renamed(plain), None);
    }
}
