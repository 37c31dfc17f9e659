//! The module graph of every crate, checked against ARCHITECTURE.md's two
//! rules: no module cycles, and no import from an engine module to a
//! front-end module.
//!
//! The graph is drawn from the source text alone (no compiler, no
//! dependency), so the check runs in milliseconds in the README's test
//! command. A module is a file or an inline `mod`; an edge is a path that
//! names something in another module of the same crate — a `use`, or a
//! `crate::`/`super::`/`self::`/child-module path in code. A path through a
//! re-export (`pub use`) counts for the module that defines the item, so the
//! crate root's re-exports make no cycle. A module's import of its own
//! parent (`super::`) is left out, as are `#[cfg(test)]` items: a file split
//! into parts, or its tests, use the parent's items by design.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The root file of every crate under `crates/` (the crates whose modules
/// are checked), relative to the repository root: a new crate is checked
/// without being listed.
fn crates(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        for file in ["lib.rs", "main.rs"] {
            let rel = format!("crates/{name}/src/{file}");
            if root.join(&rel).exists() {
                out.push(rel);
                break;
            }
        }
    }
    out.sort();
    assert!(out.len() >= 10, "the crates were not found: {out:?}");
    out
}

/// The harness's layers (ARCHITECTURE.md, "Layers inside
/// `crates/yardstick`"), the one place they are listed: the engine runs a
/// plan and knows no API a user writes against; the front-ends build plans
/// and hand them down. A module is in a layer
/// with everything below it (`output` covers `output::sink`). Modules in
/// neither list (ids, per-benchmark settings, measurements and meters, the
/// filter, the profiler hook) are vocabulary that both may use.
///
/// `bencher` is the engine's timing loop: a routine is handed a `Bencher`
/// and calls back into its loops (`iter`, `iter_batched`, …), so it sits
/// with the runner that drives it, not with the APIs that name it.
const ENGINE: &[&str] = &[
    "adaptive",
    "analysis",
    "baseline",
    "bencher",
    "complexity",
    "engine",
    "explain",
    "group_summary",
    "limits",
    "metered",
    "output",
    "plan",
    "report",
    "routine",
    "runner",
    "state",
    "store",
    "supervised",
    "tasty_csv",
    "tasty_sampling",
    "worker",
];

/// The front-ends of `crates/yardstick`: Criterion.rs's API (`Criterion`,
/// groups, interleaved comparisons, the async bencher, the macros), the
/// 0.3-era API, divan's entry (`frontend`, used by `yardstick-divan`) and
/// the nanobench builder.
const FRONT_END: &[&str] = &[
    "async_bencher",
    "compat",
    "criterion",
    "frontend",
    "group",
    "interleave",
    "macros",
    "nanobench",
    "waiting",
];

#[test]
fn no_crate_has_a_module_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut report = String::new();
    for krate in crates(&root) {
        let graph = Graph::of_crate(&root.join(&krate));
        for cycle in graph.cycles() {
            report.push_str(&format!("{krate}: {}\n", cycle.join(" ↔ ")));
            for ((from, to), path) in &graph.why {
                let (a, b) = (display(&graph.names[*from]), display(&graph.names[*to]));
                if cycle.contains(&a) && cycle.contains(&b) {
                    report.push_str(&format!("    {a} → {b} (`{path}`)\n"));
                }
            }
        }
    }
    assert!(report.is_empty(), "module cycles:\n{report}");
}

#[test]
fn the_engine_imports_no_front_end() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let graph = Graph::of_crate(&root.join("crates/yardstick/src/lib.rs"));
    let offending = graph.layer_violations(ENGINE, FRONT_END);
    assert!(
        offending.is_empty(),
        "engine modules importing front-end modules:\n{}",
        offending.join("\n")
    );
    // Every module the lists name exists, so a rename cannot empty a layer
    // silently.
    for name in ENGINE.iter().chain(FRONT_END) {
        assert!(
            graph.names.contains(&name.to_string()),
            "no module `{name}`"
        );
    }
}

/// A module graph: module paths (`""` is the crate root, `"a::b"` a module)
/// and the edges between them.
struct Graph {
    names: Vec<String>,
    edges: BTreeMap<usize, BTreeSet<usize>>,
    /// One path written for each edge, to show in a failure.
    why: BTreeMap<(usize, usize), String>,
}

impl Graph {
    fn of_crate(root_file: &Path) -> Graph {
        let mut tree = Tree::default();
        tree.add("", None);
        let source = std::fs::read_to_string(root_file)
            .unwrap_or_else(|e| panic!("{}: {e}", root_file.display()));
        let dir = root_file.parent().unwrap().to_path_buf();
        tree.scan(0, &tokens(&source), &dir);
        tree.into_graph()
    }

    /// Every cycle, as the strongly connected components of more than one
    /// module (Tarjan's algorithm), each sorted by name.
    fn cycles(&self) -> Vec<Vec<String>> {
        let n = self.names.len();
        let mut state = Tarjan {
            index: vec![usize::MAX; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            next: 0,
            components: Vec::new(),
        };
        for v in 0..n {
            if state.index[v] == usize::MAX {
                state.visit(v, &self.edges);
            }
        }
        let mut cycles: Vec<Vec<String>> = state
            .components
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|c| {
                let mut names: Vec<String> = c.iter().map(|&m| display(&self.names[m])).collect();
                names.sort();
                names
            })
            .collect();
        cycles.sort();
        cycles
    }

    /// The edges from a module under one of `lower` to a module under one of
    /// `upper`, as "from → to".
    fn layer_violations(&self, lower: &[&str], upper: &[&str]) -> Vec<String> {
        let under = |name: &str, layer: &[&str]| {
            layer
                .iter()
                .any(|top| name == *top || name.starts_with(&format!("{top}::")))
        };
        let mut out = Vec::new();
        for (&from, targets) in &self.edges {
            for &to in targets {
                let (a, b) = (&self.names[from], &self.names[to]);
                if under(a, lower) && under(b, upper) {
                    let path = &self.why[&(from, to)];
                    out.push(format!("{} → {} (`{path}`)", display(a), display(b)));
                }
            }
        }
        out
    }
}

fn display(name: &str) -> String {
    if name.is_empty() {
        "crate".to_string()
    } else {
        name.to_string()
    }
}

struct Tarjan {
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan {
    fn visit(&mut self, v: usize, edges: &BTreeMap<usize, BTreeSet<usize>>) {
        self.index[v] = self.next;
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for &w in edges.get(&v).into_iter().flatten() {
            if self.index[w] == usize::MAX {
                self.visit(w, edges);
                self.low[v] = self.low[v].min(self.low[w]);
            } else if self.on_stack[w] {
                self.low[v] = self.low[v].min(self.index[w]);
            }
        }
        if self.low[v] == self.index[v] {
            let mut component = Vec::new();
            loop {
                let w = self.stack.pop().unwrap();
                self.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

/// The module tree as it is read: every module's children, its imports
/// (name → path as written) and the paths it uses.
#[derive(Default)]
struct Tree {
    names: Vec<String>,
    parent: Vec<Option<usize>>,
    children: Vec<BTreeMap<String, usize>>,
    imports: Vec<BTreeMap<String, Vec<String>>>,
    uses: Vec<Vec<Vec<String>>>,
}

impl Tree {
    fn add(&mut self, name: &str, parent: Option<usize>) -> usize {
        if let Some(p) = parent {
            if let Some(&existing) = self.children[p].get(name) {
                return existing;
            }
        }
        let id = self.names.len();
        let full = match parent {
            Some(p) if !self.names[p].is_empty() => format!("{}::{name}", self.names[p]),
            _ => name.to_string(),
        };
        self.names.push(full);
        self.parent.push(parent);
        self.children.push(BTreeMap::new());
        self.imports.push(BTreeMap::new());
        self.uses.push(Vec::new());
        if let Some(p) = parent {
            self.children[p].insert(name.to_string(), id);
        }
        id
    }

    /// Reads the items of module `m` from `toks`; `dir` is where its file
    /// children live.
    fn scan(&mut self, m: usize, toks: &[String], dir: &Path) {
        let mut i = 0;
        let mut skip_item = false;
        let mut path_attr: Option<String> = None;
        while i < toks.len() {
            let t = toks[i].as_str();
            let inner = toks.get(i + 1).map(String::as_str) == Some("!");
            let open = if inner { i + 2 } else { i + 1 };
            if t == "#" && toks.get(open).map(String::as_str) == Some("[") {
                let close = matching(toks, open);
                let attr = &toks[open + 1..close];
                if !inner && attr.len() >= 4 && attr[0] == "cfg" && attr[2] == "test" {
                    skip_item = true;
                }
                if attr.len() == 3 && attr[0] == "path" && attr[1] == "=" {
                    path_attr = Some(attr[2].clone());
                }
                i = close + 1;
                continue;
            }
            if skip_item {
                i = end_of_item(toks, i);
                skip_item = false;
                path_attr = None;
                continue;
            }
            match t {
                "pub" if toks.get(i + 1).map(String::as_str) == Some("(") => {
                    // `pub(in crate::x)` names a module but imports nothing.
                    i = matching(toks, i + 1) + 1;
                }
                "mod" if is_ident(toks.get(i + 1)) => {
                    let name = toks[i + 1].clone();
                    let child = self.add(&name, Some(m));
                    if toks.get(i + 2).map(String::as_str) == Some("{") {
                        let close = matching(toks, i + 2);
                        self.scan(child, &toks[i + 3..close], &dir.join(&name));
                        i = close + 1;
                    } else {
                        let file = match path_attr.take() {
                            Some(p) => dir.join(p.trim_matches('"')),
                            None => child_file(dir, &name),
                        };
                        let source = std::fs::read_to_string(&file)
                            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                        let child_dir = if file.ends_with("mod.rs") {
                            file.parent().unwrap().to_path_buf()
                        } else {
                            dir.join(&name)
                        };
                        self.scan(child, &tokens(&source), &child_dir);
                        i += 3;
                    }
                }
                "use" => {
                    // A `use` ends at its `;`, braces and all.
                    let end = toks[i..]
                        .iter()
                        .position(|t| t == ";")
                        .map_or(toks.len(), |k| i + k + 1);
                    let mut found = Vec::new();
                    use_tree(&toks[i + 1..end - 1], &mut Vec::new(), &mut found);
                    for (path, name) in found {
                        self.uses[m].push(path.clone());
                        if name != "_" && name != "*" {
                            self.imports[m].insert(name, path);
                        }
                    }
                    i = end;
                }
                "$" => i += 2, // `$crate::…` in a macro is the caller's path
                _ if is_ident(Some(&toks[i]))
                    && toks.get(i + 1).map(String::as_str) == Some("::")
                    && (i == 0 || toks[i - 1] != "::") =>
                {
                    let mut path = vec![toks[i].clone()];
                    let mut j = i + 1;
                    while toks.get(j).map(String::as_str) == Some("::") && is_ident(toks.get(j + 1))
                    {
                        path.push(toks[j + 1].clone());
                        j += 2;
                    }
                    self.uses[m].push(path);
                    i = j;
                }
                ";" | "{" | "}" => {
                    path_attr = None;
                    i += 1;
                }
                _ => i += 1,
            }
        }
    }

    /// The module a path written in module `m` leads to, if in this crate:
    /// the deepest module on it, followed through imports and re-exports.
    fn resolve(&self, m: usize, path: &[String], depth: usize) -> Option<usize> {
        if depth > 16 || path.is_empty() {
            return None;
        }
        let mut cur = match path[0].as_str() {
            "crate" => 0,
            "self" => m,
            "super" => self.parent[m]?,
            first => {
                if let Some(&c) = self.children[m].get(first) {
                    c
                } else if let Some(target) = self.imports[m].get(first) {
                    if target.len() == 1 && target[0] == first {
                        return None; // `use serde;` names an extern crate
                    }
                    let mut full = target.clone();
                    full.extend_from_slice(&path[1..]);
                    return self.resolve(m, &full, depth + 1);
                } else {
                    return None;
                }
            }
        };
        let mut rest = &path[1..];
        while let Some((seg, tail)) = rest.split_first() {
            if seg == "super" {
                cur = self.parent[cur]?;
            } else if seg == "self" {
            } else if let Some(&c) = self.children[cur].get(seg) {
                cur = c;
            } else if let Some(target) = self.imports[cur].get(seg) {
                let mut full = target.clone();
                full.extend_from_slice(tail);
                return self.resolve(cur, &full, depth + 1).or(Some(cur));
            } else {
                break;
            }
            rest = tail;
        }
        Some(cur)
    }

    /// Whether `a` is `b` or contains it.
    fn is_ancestor(&self, a: usize, b: usize) -> bool {
        let mut cur = Some(b);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            cur = self.parent[c];
        }
        false
    }

    /// The graph of the imports between modules. An import from a module of
    /// its own parent (`use super::Plan`) is left out: a file split into
    /// submodules is one unit, whose parts share its items by design. The
    /// parent's use of its parts counts, so a loop that leaves through a
    /// part and comes back to the parent is found.
    fn into_graph(self) -> Graph {
        let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        let mut why = BTreeMap::new();
        for m in 0..self.names.len() {
            for path in &self.uses[m] {
                if let Some(to) = self.resolve(m, path, 0) {
                    if !self.is_ancestor(to, m) {
                        edges.entry(m).or_default().insert(to);
                        why.entry((m, to)).or_insert_with(|| path.join("::"));
                    }
                }
            }
        }
        Graph {
            names: self.names,
            edges,
            why,
        }
    }
}

fn child_file(dir: &Path, name: &str) -> PathBuf {
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        dir.join(name).join("mod.rs")
    }
}

fn is_ident(t: Option<&String>) -> bool {
    t.and_then(|t| t.chars().next())
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && !matches!(
            t.map(String::as_str),
            Some("as" | "mut" | "ref" | "fn" | "impl" | "dyn")
        )
}

/// The index of the bracket closing the one at `open`.
fn matching(toks: &[String], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                // A stray closer (in a macro's pattern) ends the search.
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

/// The index after the item starting at `i`: after its `;` or its body.
fn end_of_item(toks: &[String], mut i: usize) -> usize {
    while i < toks.len() {
        match toks[i].as_str() {
            ";" => return i + 1,
            "{" => return matching(toks, i) + 1,
            "(" | "[" => i = matching(toks, i) + 1,
            _ => i += 1,
        }
    }
    i
}

/// Expands a `use` tree (without `use` and `;`) into (path, name bound).
fn use_tree(toks: &[String], prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    // Split the list at top-level commas.
    let mut start = 0;
    let mut depth = 0;
    let mut parts = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        match t.as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        let base = prefix.len();
        let mut k = 0;
        if part[0] == "::" {
            k = 1;
        }
        while k < part.len() {
            let t = part[k].as_str();
            if t == "{" {
                let close = matching(part, k);
                use_tree(&part[k + 1..close], prefix, out);
                break;
            } else if t == "*" {
                out.push((prefix.clone(), "*".into()));
                break;
            } else if t == "::" {
                k += 1;
            } else if t == "as" {
                break;
            } else {
                let alias = part.get(k + 1).filter(|n| *n == "as").and(part.get(k + 2));
                if t == "self" && (k + 1 >= part.len() || alias.is_some()) {
                    let name = alias
                        .cloned()
                        .unwrap_or_else(|| prefix.last().cloned().unwrap_or_default());
                    out.push((prefix.clone(), name));
                    break;
                }
                prefix.push(t.to_string());
                if k + 1 >= part.len() || alias.is_some() {
                    out.push((
                        prefix.clone(),
                        alias.cloned().unwrap_or_else(|| t.to_string()),
                    ));
                    break;
                }
                k += 1;
            }
        }
        prefix.truncate(base);
    }
}

/// The source's tokens without comments, strings and characters: words,
/// `::`, and single punctuation marks. A string stays as one token so that
/// `#[path = "…"]` can be read.
fn tokens(source: &str) -> Vec<String> {
    let c: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied().unwrap_or('\0');
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string(&c, i) {
            out.push("\"raw\"".into());
            i = end;
        } else if ch == '"' || (ch == 'b' && next == '"') {
            let start = i;
            i += if ch == 'b' { 2 } else { 1 };
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(c[start..i.min(c.len())].iter().collect());
        } else if ch == '\'' || (ch == 'b' && next == '\'') {
            let q = if ch == 'b' { i + 1 } else { i };
            if c.get(q + 1) == Some(&'\\') {
                // An escaped character: up to the closing quote.
                i = q + 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(q + 2) == Some(&'\'') {
                i = q + 3;
            } else {
                i = q + 1; // a lifetime: the name follows as a word
            }
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            if ch == 'r' && next == '#' {
                i += 2;
            }
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(
                c[start..i]
                    .iter()
                    .collect::<String>()
                    .trim_start_matches("r#")
                    .to_string(),
            );
        } else if ch == ':' && next == ':' {
            out.push("::".into());
            i += 2;
        } else {
            out.push(ch.to_string());
            i += 1;
        }
    }
    out
}

/// The end of a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) starting at `i`.
fn raw_string(c: &[char], i: usize) -> Option<usize> {
    let mut k = i;
    if c.get(k) == Some(&'b') {
        k += 1;
    }
    if c.get(k) != Some(&'r') {
        return None;
    }
    k += 1;
    let hashes = c[k..].iter().take_while(|&&h| h == '#').count();
    k += hashes;
    if c.get(k) != Some(&'"') {
        return None;
    }
    k += 1;
    while k < c.len() {
        if c[k] == '"'
            && c[k + 1..]
                .iter()
                .take(hashes)
                .filter(|&&h| h == '#')
                .count()
                == hashes
        {
            return Some(k + 1 + hashes);
        }
        k += 1;
    }
    Some(c.len())
}

#[cfg(test)]
mod fixtures {
    use super::*;

    /// Writes a crate of `files` (path, text) to a fresh directory and
    /// returns its graph.
    fn graph(name: &str, files: &[(&str, &str)]) -> Graph {
        let dir = std::env::temp_dir().join(format!(
            "yardstick-architecture-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let file = dir.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        let graph = Graph::of_crate(&dir.join("lib.rs"));
        std::fs::remove_dir_all(&dir).unwrap();
        graph
    }

    #[test]
    fn a_cycle_through_three_files_is_found() {
        let g = graph(
            "three",
            &[
                ("lib.rs", "mod a; mod b; mod c;"),
                ("a.rs", "use crate::b::B; pub struct A;"),
                ("b.rs", "pub struct B(crate::c::C);"),
                ("c.rs", "use super::{b::B, a::{self, A}};"),
            ],
        );
        assert_eq!(g.cycles(), vec![vec!["a", "b", "c"]]);
    }

    #[test]
    fn a_loop_through_a_submodule_is_a_cycle_and_its_parent_is_not() {
        let g = graph(
            "parent",
            &[
                ("lib.rs", "mod run; mod sink;"),
                (
                    "run.rs",
                    "mod sampling; pub struct Plan; fn f() { sampling::go() }",
                ),
                (
                    "run/sampling.rs",
                    "use super::Plan; pub fn go() { crate::sink::put() }",
                ),
                ("sink.rs", "pub fn put() { let _ = crate::run::Plan; }"),
            ],
        );
        assert_eq!(g.cycles(), vec![vec!["run", "run::sampling", "sink"]]);
    }

    #[test]
    fn re_exports_tests_comments_and_strings_make_no_edge() {
        let g = graph(
            "clean",
            &[
                (
                    "lib.rs",
                    "mod a; mod b; pub use crate::a::A; pub use b::B as Bee;\n\
                     #[cfg(test)] mod tests { use crate::b::B; }",
                ),
                (
                    "a.rs",
                    "pub struct A; // crate::b::B\n/* super::b */ const S: &str = \"crate::b\";",
                ),
                (
                    "b.rs",
                    "use crate::A; pub struct B(A); #[cfg(test)] use crate::a;",
                ),
            ],
        );
        assert!(g.cycles().is_empty());
        let b = g.names.iter().position(|n| n == "b").unwrap();
        let a = g.names.iter().position(|n| n == "a").unwrap();
        assert_eq!(
            g.edges[&b],
            BTreeSet::from([a]),
            "b → a through the root's re-export"
        );
        assert!(!g.edges.contains_key(&a));
    }

    #[test]
    fn an_engine_import_of_a_front_end_is_named() {
        let g = graph(
            "layers",
            &[
                ("lib.rs", "mod criterion; mod runner;"),
                (
                    "criterion.rs",
                    "pub struct Settings; pub fn bench() { crate::runner::run() }",
                ),
                ("runner.rs", "mod sink;\npub fn run() {}"),
                ("runner/sink.rs", "fn f(_: &crate::criterion::Settings) {}"),
            ],
        );
        assert_eq!(
            g.layer_violations(&["runner"], &["criterion"]),
            vec!["runner::sink → criterion (`crate::criterion::Settings`)"]
        );
    }
}
