//! Reading `#[library_benchmark(..)]`, `#[bench::ID(..)]` and
//! `#[benches::ID(..)]` into benchmarks, with iai-callgrind's rules:
//!
//! - `#[bench::ID(A, B)]` is `#[bench::ID(args = (A, B))]`; with `setup`
//!   the arguments go to the setup function and its result to the
//!   benchmark, otherwise their number must be the function's.
//! - `#[benches::ID(A, B)]` is `#[benches::ID(args = [A, B])]`: one
//!   benchmark per element, ids `ID_0`, `ID_1`, ...; a tuple element is
//!   several arguments. `file = "path"` makes one per line of the file.
//! - `setup`, `teardown` and `config` of `#[library_benchmark(..)]` apply
//!   to every bench that does not set its own.
//!
//! Every mistake is a compile error pointing at the attribute or value.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Error, Expr, ExprPath, ItemFn, LitStr, Meta, MetaNameValue, Result, Token};

/// A parsed `#[library_benchmark]` function.
pub struct Parsed {
    /// The function, without the `bench`/`benches` attributes.
    pub function: ItemFn,
    /// `config` of `#[library_benchmark(..)]`.
    pub config: Option<Expr>,
    /// The benchmarks in attribute order; one without id or arguments when
    /// the function has no `bench`/`benches` attribute.
    pub benches: Vec<Bench>,
    /// Files read by `file = ".."`, absolute, so a change rebuilds.
    pub files: Vec<String>,
}

/// One benchmark of the function.
pub struct Bench {
    /// `ID` (`ID_n` for `benches`); `None` for a lone `#[library_benchmark]`.
    pub id: Option<String>,
    /// The arguments: for the setup function if there is one, else for the
    /// benchmark function.
    pub args: Vec<Expr>,
    /// The arguments as shown after the id (iai-callgrind's display).
    pub display: String,
    /// The setup function.
    pub setup: Option<ExprPath>,
    /// The teardown function.
    pub teardown: Option<ExprPath>,
    /// `config` of this bench.
    pub config: Option<Expr>,
}

/// The `key = value` options of one attribute.
#[derive(Default)]
struct Options {
    args: Option<Expr>,
    config: Option<Expr>,
    setup: Option<ExprPath>,
    teardown: Option<ExprPath>,
    file: Option<LitStr>,
    /// The arguments written without `args =`: `#[bench::id(1, 2)]`.
    plain: Option<Vec<Expr>>,
}

/// Parses the attribute's arguments and the function.
pub fn parse(attr: TokenStream, item: TokenStream) -> Result<Parsed> {
    let mut function: ItemFn = syn::parse2(item)?;
    let defaults = if attr.is_empty() {
        Options::default()
    } else {
        let pairs = Punctuated::<MetaNameValue, Token![,]>::parse_terminated
            .parse2(attr)
            .map_err(|e| {
                Error::new(
                    e.span(),
                    "expected `setup = ..`, `teardown = ..` or `config = ..` in #[library_benchmark(..)]",
                )
            })?;
        options(pairs, &["config", "setup", "teardown"])?
    };
    let expected = function.sig.inputs.len();
    let mut benches = Vec::new();
    let mut files = Vec::new();
    let mut errors: Option<Error> = None;
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut function.attrs) {
        let result = match kind_of(&attr) {
            Some(kind) => one_attribute(&attr, kind, &defaults, expected, &mut files),
            None => {
                kept.push(attr);
                continue;
            }
        };
        match result {
            Ok(new) => {
                for bench in new {
                    if let Some(dup) = benches.iter().find(|b: &&Bench| b.id == bench.id) {
                        push_error(&mut errors, duplicate_id(&attr, dup));
                    }
                    benches.push(bench);
                }
            }
            Err(e) => push_error(&mut errors, e),
        }
    }
    function.attrs = kept;
    if let Some(e) = errors {
        return Err(e);
    }
    if benches.is_empty() {
        benches.push(lone(&function, &defaults)?);
    }
    Ok(Parsed {
        function,
        config: defaults.config,
        benches,
        files,
    })
}

fn push_error(errors: &mut Option<Error>, e: Error) {
    match errors {
        Some(all) => all.combine(e),
        None => *errors = Some(e),
    }
}

fn duplicate_id(attr: &Attribute, first: &Bench) -> Error {
    Error::new_spanned(
        &attr.meta,
        format!(
            "duplicate id `{}`: each #[bench]/#[benches] id must be unique within one #[library_benchmark]",
            first.id.as_deref().unwrap_or_default()
        ),
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Bench,
    Benches,
}

fn kind_of(attr: &Attribute) -> Option<Kind> {
    match attr.path().segments.first()?.ident.to_string().as_str() {
        "bench" => Some(Kind::Bench),
        "benches" => Some(Kind::Benches),
        _ => None,
    }
}

/// The benchmark of a function without `bench`/`benches` attributes: no
/// id, no arguments (or the setup function's result).
fn lone(function: &ItemFn, defaults: &Options) -> Result<Bench> {
    if defaults.setup.is_none() && !function.sig.inputs.is_empty() {
        return Err(Error::new_spanned(
            &function.sig.inputs,
            "a #[library_benchmark] function without #[bench::ID(..)] or #[benches::ID(..)] \
             takes no arguments: add #[bench::some_id(ARGS)] to give them",
        ));
    }
    Ok(Bench {
        id: None,
        args: Vec::new(),
        display: String::new(),
        setup: defaults.setup.clone(),
        teardown: defaults.teardown.clone(),
        config: None,
    })
}

/// The benchmarks of one `#[bench::ID(..)]` or `#[benches::ID(..)]`.
fn one_attribute(
    attr: &Attribute,
    kind: Kind,
    defaults: &Options,
    expected: usize,
    files: &mut Vec<String>,
) -> Result<Vec<Bench>> {
    let name = if kind == Kind::Bench {
        "bench"
    } else {
        "benches"
    };
    let segments = &attr.path().segments;
    if segments.len() == 1 {
        return Err(Error::new_spanned(
            &attr.meta,
            format!("#[{name}] needs an id: #[{name}::my_id(..)]"),
        ));
    }
    if segments.len() > 2 {
        return Err(Error::new_spanned(
            attr.path(),
            format!("only one id is allowed: #[{name}::my_id(..)]"),
        ));
    }
    let id = segments[1].ident.to_string();
    let Meta::List(list) = &attr.meta else {
        return Err(Error::new_spanned(
            &attr.meta,
            format!(
                "#[{name}::{id}] needs parentheses: #[{name}::{id}()] or #[{name}::{id}(ARGS)]"
            ),
        ));
    };
    let allowed: &[&str] = match kind {
        Kind::Bench => &["args", "config", "setup", "teardown"],
        Kind::Benches => &["args", "config", "setup", "teardown", "file"],
    };
    let mut opts = match Punctuated::<MetaNameValue, Token![,]>::parse_terminated
        .parse2(list.tokens.clone())
    {
        Ok(pairs) if !pairs.is_empty() => options(pairs, allowed)?,
        _ => {
            let exprs =
                Punctuated::<Expr, Token![,]>::parse_terminated.parse2(list.tokens.clone())?;
            Options {
                plain: Some(exprs.into_iter().collect()),
                ..Options::default()
            }
        }
    };
    if opts.setup.is_none() {
        opts.setup = defaults.setup.clone();
    }
    if opts.teardown.is_none() {
        opts.teardown = defaults.teardown.clone();
    }
    let arg_lists: Vec<(TokenStream, Vec<Expr>)> = match kind {
        Kind::Bench => match opts.plain.take() {
            Some(plain) => vec![(list.tokens.clone(), plain)],
            None => vec![bench_args(opts.args.as_ref(), &list.tokens)?],
        },
        Kind::Benches => benches_args(&opts, &list.tokens, files)?,
    };
    let mut benches = Vec::new();
    for (index, (tokens, args)) in arg_lists.into_iter().enumerate() {
        if opts.setup.is_none() && args.len() != expected {
            return Err(Error::new_spanned(
                tokens,
                format!(
                    "expected {expected} argument{} but found {}: the arguments must match the \
                     benchmark function's parameters (or go to a `setup` function)",
                    if expected == 1 { "" } else { "s" },
                    args.len()
                ),
            ));
        }
        benches.push(Bench {
            id: Some(match kind {
                Kind::Bench => id.clone(),
                Kind::Benches => format!("{id}_{index}"),
            }),
            display: display(opts.setup.as_ref(), &args),
            args,
            setup: opts.setup.clone(),
            teardown: opts.teardown.clone(),
            config: opts.config.clone(),
        });
    }
    Ok(benches)
}

/// The arguments of `#[bench]`: `args = (A, B)`, `args = [A, B]`,
/// `args = (A)`, or none.
fn bench_args(args: Option<&Expr>, all: &TokenStream) -> Result<(TokenStream, Vec<Expr>)> {
    let Some(args) = args else {
        return Ok((all.clone(), Vec::new()));
    };
    let list = match args {
        Expr::Tuple(t) => t.elems.iter().cloned().collect(),
        Expr::Array(a) => a.elems.iter().cloned().collect(),
        Expr::Paren(p) => vec![(*p.expr).clone()],
        other => {
            return Err(Error::new(
                other.span(),
                "`args` takes a tuple of the benchmark function's arguments: \
                 #[bench::id(args = (1, 2))], or #[bench::id(args = (1))] for one",
            ))
        }
    };
    Ok((args.to_token_stream(), list))
}

/// The argument lists of `#[benches]`: one per array element, or per line
/// of `file`.
fn benches_args(
    opts: &Options,
    all: &TokenStream,
    files: &mut Vec<String>,
) -> Result<Vec<(TokenStream, Vec<Expr>)>> {
    if let Some(file) = &opts.file {
        if opts.args.is_some() {
            return Err(Error::new(
                file.span(),
                "`file` and `args` cannot be used together",
            ));
        }
        return file_args(file, files);
    }
    let elements: Vec<Expr> = match &opts.args {
        None => opts.plain.clone().unwrap_or_default(),
        Some(Expr::Array(a)) => a.elems.iter().cloned().collect(),
        Some(other) => {
            return Err(Error::new(
                other.span(),
                "`args` of #[benches] takes an array, one element per benchmark: \
                 #[benches::id(args = [1, 2])]",
            ))
        }
    };
    if elements.is_empty() {
        // iai-callgrind: `#[benches::id()]` is one benchmark without arguments.
        return Ok(vec![(all.clone(), Vec::new())]);
    }
    Ok(elements
        .into_iter()
        .map(|e| {
            let tokens = e.to_token_stream();
            match e {
                Expr::Tuple(t) => (tokens, t.elems.into_iter().collect()),
                Expr::Paren(p) => (tokens, vec![*p.expr]),
                other => (tokens, vec![other]),
            }
        })
        .collect())
}

/// One `String` argument per non-empty line of the file, its path relative
/// to the calling package's manifest directory.
fn file_args(file: &LitStr, files: &mut Vec<String>) -> Result<Vec<(TokenStream, Vec<Expr>)>> {
    let base = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let path = std::path::Path::new(&base).join(file.value());
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Error::new(
            file.span(),
            format!(
                "cannot read `{}` (relative to the package's Cargo.toml): {e}",
                file.value()
            ),
        )
    })?;
    files.push(path.to_string_lossy().into_owned());
    let lines: Vec<_> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let lit = LitStr::new(line, file.span());
            (
                file.to_token_stream(),
                vec![syn::parse_quote!(::std::string::String::from(#lit))],
            )
        })
        .collect();
    if lines.is_empty() {
        return Err(Error::new(
            file.span(),
            format!("`{}` has no lines", file.value()),
        ));
    }
    Ok(lines)
}

/// iai-callgrind's display of the arguments: the tokens as the compiler
/// prints them (`vec! [1, 2, 3]`), inside the setup call if there is one.
fn display(setup: Option<&ExprPath>, args: &[Expr]) -> String {
    let args: Vec<TokenStream> = args
        .iter()
        .map(|a| match a {
            // A line of a `file`: shown as the line itself, quoted.
            Expr::Call(call) if call.args.len() == 1 && is_string_from(&call.func) => {
                call.args.to_token_stream()
            }
            other => other.to_token_stream(),
        })
        .collect();
    match setup {
        Some(setup) => quote!(#setup(#(#args),*)).to_string(),
        None => quote!(#(#args),*).to_string(),
    }
}

fn is_string_from(func: &Expr) -> bool {
    func.to_token_stream().to_string().replace(' ', "") == "::std::string::String::from"
}

/// Reads the `key = value` pairs, allowing only `allowed` keys, each once.
fn options(pairs: Punctuated<MetaNameValue, Token![,]>, allowed: &[&str]) -> Result<Options> {
    let mut o = Options::default();
    for pair in pairs {
        let key = pair
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        if !allowed.contains(&key.as_str()) {
            let valid: Vec<String> = allowed.iter().map(|k| format!("`{k}`")).collect();
            return Err(Error::new(
                pair.path.span(),
                format!(
                    "invalid argument `{}`: valid arguments are {}",
                    pair.path.to_token_stream(),
                    valid.join(", ")
                ),
            ));
        }
        let duplicate = match key.as_str() {
            "args" => o.args.replace(pair.value.clone()).is_some(),
            "config" => o.config.replace(pair.value.clone()).is_some(),
            "setup" => o
                .setup
                .replace(function_path(&pair.value, "setup")?)
                .is_some(),
            "teardown" => o
                .teardown
                .replace(function_path(&pair.value, "teardown")?)
                .is_some(),
            _ => o.file.replace(string_literal(&pair.value)?).is_some(),
        };
        if duplicate {
            return Err(Error::new(
                pair.span(),
                format!("duplicate argument `{key}`: it is allowed only once"),
            ));
        }
    }
    Ok(o)
}

fn function_path(value: &Expr, key: &str) -> Result<ExprPath> {
    match value {
        Expr::Path(path) => Ok(path.clone()),
        other => Err(Error::new(
            other.span(),
            format!("`{key}` takes the path of a function: `{key} = my_{key}` or `{key} = my::{key}::function`"),
        )),
    }
}

fn string_literal(value: &Expr) -> Result<LitStr> {
    match value {
        Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Ok(s.clone()),
        other => Err(Error::new(
            other.span(),
            "`file` takes a string literal: the path of a file, relative to the package's Cargo.toml",
        )),
    }
}
