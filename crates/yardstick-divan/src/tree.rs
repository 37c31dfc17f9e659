//! The tree of benchmarks divan shows: groups, functions, generic
//! instances, arguments and thread counts, built from the registered
//! entries, filtered and sorted as divan does.

use std::cmp::Ordering;
use std::rc::Rc;

use crate::__private::{entries, BenchOptions, Entry, EntryKind, Leaf, Registrar};
use crate::cli::{Args, SortBy};
use crate::table;

/// A node's rank (0 a plain benchmark, 1 a group or a generic benchmark,
/// or one of the ranks below a function: `INSTANCE`, `ARGUMENT`,
/// `THREADS`), name, file and line (a position below a function).
pub(crate) type Key = (u8, String, &'static str, u32);

/// A node of the tree: a module, a function, or a leaf below one.
#[derive(Default)]
pub(crate) struct Node {
    pub(crate) label: String,
    /// What it is, its name, file and line, for sorting.
    pub(crate) key: Key,
    pub(crate) children: Vec<Node>,
    /// Set on a benchmark function's node: its full path (the group id).
    pub(crate) function: Option<String>,
    pub(crate) leaf: Option<LeafSpec>,
    /// Not run: shown as `(ignored)`.
    pub(crate) ignored: bool,
}

pub(crate) struct LeafSpec {
    pub(crate) param: Option<String>,
    pub(crate) threads: usize,
    pub(crate) options: Rc<BenchOptions>,
    pub(crate) leaf: Rc<Leaf>,
}

pub(crate) fn label_width(node: &Node, depth: usize) -> usize {
    let own = if depth == 0 {
        0
    } else {
        3 * depth + node.label.chars().count()
    };
    node.children
        .iter()
        .map(|c| label_width(c, depth + 1))
        .fold(own, usize::max)
}

/// Builds the tree of the entries `args` selects. As divan shows them,
/// the benchmarks not selected (ignored ones, or the others under
/// `--ignored`) stay in the tree as `(ignored)` rows, and `--list` shows
/// functions and their generic instances without arguments or threads.
pub(crate) fn build(args: &Args, binary: &str) -> Node {
    let all = entries();
    let groups: Vec<&Entry> = all
        .iter()
        .copied()
        .filter(|e| e.kind == EntryKind::Group)
        .collect();
    let filter = Filter::new(args);
    let outline = args.list && !args.terse;
    let mut root = Node::default();
    for e in all.iter().filter(|e| e.kind == EntryKind::Bench) {
        let (path, options, ignored) = resolve(e, &groups);
        let selected = if args.ignored {
            ignored
        } else {
            !ignored || args.include_ignored
        };
        if !selected && args.list && args.terse {
            continue;
        }
        let mut reg = Registrar::default();
        if let Some(register) = e.register {
            register(&mut reg);
        }
        let options = Rc::new(options);
        let function = path.join("::");
        // divan's paths, which filters match and `--list --format terse`
        // prints, start with the crate's name: `bench_file::group::function`.
        let krate = crate_name(e);
        // The engine's id starts with the bench binary's name, so that two
        // binaries' `add` never share a baseline; filters see divan's path.
        let group_id = format!("{binary}::{function}");
        let threads = thread_counts(&args.options.over(&options));
        let at = Place {
            entry: e,
            path: &path,
            group_id: &group_id,
            // divan names the thread count only where there are several.
            threads_shown: threads.len() > 1,
        };
        for leaf in reg.leaves {
            if outline || !selected {
                let names = &leaf.names[..e.generics.min(leaf.names.len())];
                let id = leaf_id(&group_id, &param_of(names));
                if filter.keeps(krate, &function, &full_name(&function, names), &id) {
                    insert(&mut root, &at, names, None, !selected);
                }
                continue;
            }
            let leaf = Rc::new(leaf);
            for &t in &threads {
                let mut names = leaf.names.clone();
                if at.threads_shown {
                    names.push(format!("t={t}"));
                }
                let param = param_of(&names);
                let id = leaf_id(&group_id, &param);
                if !filter.keeps(krate, &function, &full_name(&function, &names), &id) {
                    continue;
                }
                let spec = LeafSpec {
                    param,
                    threads: t,
                    options: Rc::clone(&options),
                    leaf: Rc::clone(&leaf),
                };
                insert(&mut root, &at, &names, Some(spec), false);
            }
        }
    }
    root
}

/// The crate an entry was registered in: the first component of its
/// module path (the bench target's name, `-` made `_`).
fn crate_name(e: &Entry) -> &'static str {
    e.module_path.split("::").next().unwrap_or_default()
}

/// The crate of the bench binary's benchmarks, which divan's paths start
/// with (empty when none is registered).
pub(crate) fn bench_crate() -> &'static str {
    entries().first().map_or("", |e| crate_name(e))
}

/// `function::name::name`.
fn full_name(function: &str, names: &[String]) -> String {
    std::iter::once(function)
        .chain(names.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("::")
}

/// A leaf's parameter as the engine names it (`name/name`), none without
/// names.
fn param_of(names: &[String]) -> Option<String> {
    (!names.is_empty()).then(|| names.join("/"))
}

/// The id the engine saves a leaf under (`binary::function/name/name`),
/// which yardstick's own tools pass back with `--exact`.
pub(crate) fn leaf_id(group: &str, param: &Option<String>) -> String {
    match param {
        Some(p) => format!("{group}/{p}"),
        None => group.to_owned(),
    }
}

/// The entry's path (module components renamed by their groups), its
/// options over its groups' (innermost first), and whether it is ignored.
fn resolve(e: &Entry, groups: &[&Entry]) -> (Vec<String>, BenchOptions, bool) {
    let modules: Vec<&str> = e.module_path.split("::").collect();
    let mut path = Vec::new();
    let mut options = (e.options)();
    let mut ignored = e.ignore || options.ignore == Some(true);
    for depth in 1..modules.len() {
        let prefix = modules[..=depth].join("::");
        let group = groups.iter().find(|g| g.module_path == prefix);
        path.push(group.map_or_else(|| modules[depth].to_owned(), |g| (g.name)().to_owned()));
    }
    for depth in (1..modules.len()).rev() {
        let prefix = modules[..=depth].join("::");
        if let Some(g) = groups.iter().find(|g| g.module_path == prefix) {
            let go = (g.options)();
            ignored |= g.ignore || go.ignore == Some(true);
            options = options.over(&go);
        }
    }
    path.push((e.name)().to_owned());
    (path, options, ignored)
}

fn thread_counts(o: &BenchOptions) -> Vec<usize> {
    let list = o.threads.as_deref().unwrap_or(&[1]);
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut v: Vec<usize> = list
        .iter()
        .map(|&t| if t == 0 { available } else { t })
        .collect();
    v.sort_unstable();
    v.dedup();
    if v.is_empty() {
        v.push(1);
    }
    v
}

/// Where a benchmark function goes in the tree.
struct Place<'a> {
    entry: &'a Entry,
    /// Its path: groups, then the function's name.
    path: &'a [String],
    /// The engine's group id.
    group_id: &'a str,
    /// Whether the last name of a leaf is its thread count (`t=4`).
    threads_shown: bool,
}

/// Adds the node at `at`'s path then `names`, running `spec` or marked
/// `(ignored)`.
fn insert(
    root: &mut Node,
    at: &Place<'_>,
    names: &[String],
    spec: Option<LeafSpec>,
    ignored: bool,
) {
    let e = at.entry;
    let mut node = root;
    for (i, part) in at.path.iter().enumerate() {
        let is_fn = i + 1 == at.path.len();
        let pos = node
            .children
            .iter()
            .position(|c| c.label == *part && (c.function.is_some() == is_fn));
        let idx = pos.unwrap_or_else(|| {
            node.children.push(Node {
                label: part.clone(),
                // divan's kinds: plain benchmarks, then generic ones
                // and groups.
                key: (
                    u8::from(!is_fn || e.generics > 0),
                    part.clone(),
                    e.file,
                    e.line,
                ),
                function: is_fn.then(|| at.group_id.to_owned()),
                ..Node::default()
            });
            node.children.len() - 1
        });
        node = &mut node.children[idx];
    }
    for (i, name) in names.iter().enumerate() {
        let rank = if i < e.generics {
            INSTANCE
        } else if at.threads_shown && i + 1 == names.len() {
            THREADS
        } else {
            ARGUMENT
        };
        let pos = node.children.iter().position(|c| c.label == *name);
        let idx = pos.unwrap_or_else(|| {
            node.children.push(Node {
                label: name.clone(),
                // The line is the position, which breaks ties.
                key: (rank, name.clone(), "", node.children.len() as u32),
                ..Node::default()
            });
            node.children.len() - 1
        });
        node = &mut node.children[idx];
    }
    node.leaf = spec;
    node.ignored = ignored;
}

pub(crate) fn sort(node: &mut Node, by: SortBy, reverse: bool) {
    for c in &mut node.children {
        sort(c, by, reverse);
    }
    node.children.sort_unstable_by(|a, b| {
        let ord = order(&a.key, &b.key, by).then_with(|| a.key.3.cmp(&b.key.3));
        if reverse {
            ord.reverse()
        } else {
            ord
        }
    });
}

/// The ranks of a node's key: what the node is. Siblings share one, but
/// for functions beside groups.
const INSTANCE: u8 = 2;
const ARGUMENT: u8 = 3;
const THREADS: u8 = 4;

/// divan's order of two siblings (ties are broken by position).
fn order(a: &Key, b: &Key, by: SortBy) -> Ordering {
    match (a.0, by) {
        // Thread counts ascend, as they were inserted.
        (THREADS, _) => Ordering::Equal,
        (INSTANCE | ARGUMENT, SortBy::Location) => Ordering::Equal,
        // Constants by value, types by name.
        (INSTANCE, _) => by_number(&a.1, &b.1).unwrap_or_else(|| natural_cmp(&a.1, &b.1)),
        // divan's comparison of arguments finds two positive integers equal
        // (keeping their order) and sorts the others by value or name.
        (ARGUMENT, _) if a.1.parse::<u128>().is_ok() && b.1.parse::<u128>().is_ok() => {
            Ordering::Equal
        }
        (ARGUMENT, _) => by_number(&a.1, &b.1).unwrap_or_else(|| natural_cmp(&a.1, &b.1)),
        (_, SortBy::Kind) => a.0.cmp(&b.0).then_with(|| natural_cmp(&a.1, &b.1)),
        (_, SortBy::Name) => natural_cmp(&a.1, &b.1).then_with(|| (a.2, a.3).cmp(&(b.2, b.3))),
        (_, SortBy::Location) => (a.2, a.3)
            .cmp(&(b.2, b.3))
            .then_with(|| natural_cmp(&a.1, &b.1)),
    }
}

/// Two names compared as numbers, if both are.
fn by_number(a: &str, b: &str) -> Option<Ordering> {
    a.parse::<f64>().ok()?.partial_cmp(&b.parse::<f64>().ok()?)
}

/// divan's natural order: runs of digits compare as numbers (`A<8>`
/// before `A<16>`), the rest as text.
fn natural_cmp(a: &str, b: &str) -> Ordering {
    /// The next run of digits or of other characters, and whether it is
    /// digits.
    fn runs(s: &str) -> impl Iterator<Item = (bool, &str)> {
        let mut rest = s;
        std::iter::from_fn(move || {
            let digits = rest.bytes().next()?.is_ascii_digit();
            let len = rest
                .bytes()
                .position(|c| c.is_ascii_digit() != digits)
                .unwrap_or(rest.len());
            let (run, tail) = rest.split_at(len);
            rest = tail;
            Some((digits, run))
        })
    }
    let number = |s: &str| {
        let s = s.trim_start_matches('0');
        (s.len(), s.to_owned())
    };
    let (mut a, mut b) = (runs(a), runs(b));
    loop {
        let ord = match (a.next(), b.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some((true, ra)), Some((true, rb))) => number(ra).cmp(&number(rb)),
            (Some((_, ra)), Some((_, rb))) => ra.cmp(rb),
        };
        if ord.is_ne() {
            return ord;
        }
    }
}

/// `--list`: the tree of functions and generic instances, as divan
/// prints it.
pub(crate) fn outline(tree: &Node, title: &str) {
    let width = label_width(tree, 0).max(title.chars().count());
    println!("{title}");
    outline_rows(tree, &mut Vec::new(), width);
    println!();
}

fn outline_rows(node: &Node, last: &mut Vec<bool>, width: usize) {
    let n = node.children.len();
    for (i, child) in node.children.iter().enumerate() {
        last.push(i + 1 == n);
        let label = format!("{}{}", table::prefix(last), child.label);
        if child.ignored {
            println!("{}", table::ignored(&label, width, false));
        } else {
            println!("{label}");
        }
        outline_rows(child, last, width);
        last.pop();
    }
}

/// `--list --format terse` (cargo-nextest): a line per benchmark.
pub(crate) fn list(node: &Node, path: &mut Vec<String>) {
    if node.leaf.is_some() {
        println!("{}: benchmark", path.join("::"));
    }
    for c in &node.children {
        path.push(c.label.clone());
        list(c, path);
        path.pop();
    }
}

/// divan's filters: regular expressions (or exact names with `--exact`)
/// matched against a benchmark's path, with or without its arguments.
struct Filter {
    include: Vec<regex_lite::Regex>,
    exclude: Vec<regex_lite::Regex>,
    exact: Option<(Vec<String>, Vec<String>)>,
}

impl Filter {
    fn new(args: &Args) -> Filter {
        if args.exact {
            return Filter {
                include: Vec::new(),
                exclude: Vec::new(),
                exact: Some((args.filters.clone(), args.skips.clone())),
            };
        }
        let compile = |list: &[String]| -> Vec<regex_lite::Regex> {
            list.iter()
                .map(|f| {
                    regex_lite::Regex::new(f).unwrap_or_else(|_| {
                        regex_lite::Regex::new(&regex_lite::escape(f))
                            .expect("an escaped pattern is valid")
                    })
                })
                .collect()
        };
        Filter {
            include: compile(&args.filters),
            exclude: compile(&args.skips),
            exact: None,
        }
    }

    /// Whether the benchmark `function` (its path below the crate) with
    /// `full` (the same with its instance, argument and thread names)
    /// passes. divan matches the path from the crate's name on
    /// (`krate::function::arg`); the path without it matches too, as it
    /// did in earlier releases. An exact filter also matches the engine's
    /// `id`: the instruction count at judging time runs the kept binary
    /// with `--exact <id>`, and divan's paths separate arguments otherwise.
    fn keeps(&self, krate: &str, function: &str, full: &str, id: &str) -> bool {
        let prefixed = |p: &str| format!("{krate}::{p}");
        let paths = [
            function.to_owned(),
            full.to_owned(),
            prefixed(function),
            prefixed(full),
        ];
        if let Some((inc, exc)) = &self.exact {
            let hit = |l: &[String]| l.iter().any(|f| paths.contains(f) || f == id);
            return (inc.is_empty() || hit(inc)) && !hit(exc);
        }
        let hit = |l: &[regex_lite::Regex]| l.iter().any(|r| paths.iter().any(|p| r.is_match(p)));
        (self.include.is_empty() || hit(&self.include)) && !hit(&self.exclude)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(args: &[&str]) -> Filter {
        let args = crate::cli::parse(args.iter().map(std::ffi::OsString::from).collect(), &[]);
        Filter::new(&args.expect("valid arguments"))
    }

    #[test]
    fn an_exact_filter_takes_divans_path_or_the_engines_id() {
        let names = ["16".to_owned()];
        let full = full_name("memcpy", &names);
        let id = leaf_id("memcpy::memcpy", &param_of(&names));
        assert_eq!(
            (full.as_str(), id.as_str()),
            ("memcpy::16", "memcpy::memcpy/16")
        );
        let keeps = |f: &Filter| f.keeps("memcpy", "memcpy", &full, &id);
        // divan's own spellings.
        assert!(keeps(&filter(&["--exact", "memcpy::memcpy::16"])));
        assert!(keeps(&filter(&["--exact", "memcpy::16"])));
        // The id yardstick saved, as its instruction count passes it back.
        assert!(keeps(&filter(&["--bench", "--exact", "memcpy::memcpy/16"])));
        assert!(!keeps(&filter(&["--exact", "memcpy::memcpy/64"])));
        assert!(!keeps(&filter(&["--exact", "memcpy::memcpy/1"])));
        // A regular expression sees divan's paths only, as divan's does.
        assert!(!keeps(&filter(&["memcpy/16"])));
        assert!(keeps(&filter(&["memcpy::16$"])));
    }
}
