//! Parsing the options of `#[bench(...)]` and `#[bench_group(...)]`.
//!
//! Each option is `key` or `key = value`, separated by commas. Values stay
//! the user's tokens: the compiler checks them where the generated code
//! uses them, and its errors point at them.

use crate::item::{Function, Generic};
use crate::tokens::{
    error, error_over, fill, ident, is_punct, operand, single, split_commas, split_commas_at,
    stream, Angles,
};
use proc_macro::{Delimiter, Ident, Span, TokenStream, TokenTree};

/// A value: its tokens, and its elements if it is an array literal
/// (`[a, b]`, not `[a; n]`).
pub(crate) struct Value {
    pub tokens: TokenStream,
    pub elements: Option<Vec<TokenStream>>,
}

/// The options of one attribute, as written.
#[derive(Default)]
pub(crate) struct Options {
    /// `crate = path`: where the divan API lives (default `::divan`).
    krate: Option<TokenStream>,
    /// `name = expr`: the display name.
    pub name: Option<TokenStream>,
    /// `args = expr`: runtime arguments.
    pub args: Option<TokenStream>,
    /// `consts = [..]` or `consts = PATH`.
    pub consts: Option<Value>,
    /// `types = [..]`.
    pub types: Option<Vec<TokenStream>>,
    /// `ignore` or `ignore = bool`.
    ignore: Option<TokenStream>,
    /// Options stored in `BenchOptions`, as (name, value).
    runtime: Vec<(Ident, Option<Value>)>,
}

/// Options stored in `BenchOptions` (some only as flags).
const RUNTIME: &[&str] = &[
    "sample_count",
    "sample_size",
    "threads",
    "counters",
    "counter",
    "min_time",
    "max_time",
    "skip_ext_time",
];

/// What the attribute is on: the function (whose signature decides which
/// options make sense, as in divan) or a group's module.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    Bench(&'a Function),
    Group,
}

/// What syn says where a type is expected and something else is found
/// (divan's error for `types = [u8,,u16]`).
const EXPECTED_TYPE: &str = "expected one of: `for`, parentheses, `fn`, `unsafe`, `extern`, identifier, `::`, `<`, `dyn`, square brackets, `*`, `&`, `!`, `impl`, `_`, lifetime";

impl Options {
    /// The options of `attr`, or a compile error.
    pub(crate) fn parse(attr: TokenStream, target: Target<'_>) -> Result<Options, TokenStream> {
        let tokens: Vec<TokenTree> = attr.into_iter().collect();
        let mut o = Options::default();
        let mut seen: Vec<String> = Vec::new();
        for (piece, comma) in split_commas_at(&tokens, Angles::Expr) {
            let Some(TokenTree::Ident(key)) = piece.first() else {
                return Err(error_over(&piece, "expected an option's name"));
            };
            let name = key.to_string();
            let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
            if seen.contains(&name) {
                return Err(error(key.span(), &format!("repeated option `{name}`")));
            }
            seen.push(name.clone());
            check_target(key, &name, target)?;
            let value = match piece.get(1) {
                None => None,
                Some(TokenTree::Punct(p)) if p.as_char() == '=' && piece.len() > 2 => {
                    Some(&piece[2..])
                }
                Some(TokenTree::Punct(p)) if p.as_char() == '=' => {
                    return Err(error(p.span(), "expected a value after `=`"));
                }
                Some(other) => return Err(error(other.span(), "expected `=` or `,`")),
            };
            if value.is_none() && NEEDS_VALUE.contains(&name.as_str()) {
                // syn's error, where divan reports it: at the comma that
                // came instead of `=`, or over the attribute at its end.
                return Err(error(comma.unwrap_or_else(Span::call_site), "expected `=`"));
            }
            o.set(key, &name, value)?;
        }
        Ok(o)
    }

    fn set(
        &mut self,
        key: &Ident,
        name: &str,
        value: Option<&[TokenTree]>,
    ) -> Result<(), TokenStream> {
        match (name, value) {
            ("crate", Some(v)) => self.krate = Some(stream(v)),
            ("name", Some(v)) => self.name = Some(stream(v)),
            ("args", Some(v)) => self.args = Some(stream(v)),
            ("consts", Some(v)) => self.consts = Some(Value::of(v, Angles::Expr)),
            ("types", Some(v)) => self.types = Some(types(v)?),
            ("ignore", v) => self.ignore = Some(v.map_or_else(|| ident("true"), stream)),
            ("skip_ext_time", None) => self.runtime.push((key.clone(), None)),
            (n, Some(v)) if RUNTIME.contains(&n) => {
                self.runtime.push((key.clone(), Some(Value::of(v, Angles::Expr))))
            }
            _ => {
                return Err(error(
                    key.span(),
                    &format!(
                        "unknown option `{name}`; expected one of: crate, name, args, consts, types, ignore, {}",
                        RUNTIME.join(", ")
                    ),
                ))
            }
        }
        Ok(())
    }

    /// The path of the divan API in generated code.
    pub(crate) fn krate(&self) -> TokenStream {
        self.krate
            .clone()
            .unwrap_or_else(|| fill("::divan", &[], Span::call_site()))
    }

    /// The path of the API's hidden module.
    pub(crate) fn private(&self) -> TokenStream {
        fill("$0::__private", &[self.krate()], Span::call_site())
    }

    /// The body of the `fn() -> BenchOptions` of an entry.
    pub(crate) fn options_fn(&self) -> TokenStream {
        let p = self.private();
        let mut sets = TokenStream::new();
        for (key, value) in &self.runtime {
            let span = key.span();
            let key_tokens: TokenStream = TokenTree::Ident(key.clone()).into();
            let set = |template: &str, v: TokenStream| {
                fill(template, &[p.clone(), key_tokens.clone(), v], span)
            };
            let Some(v) = value else {
                // `skip_ext_time` alone.
                sets.extend(fill(
                    "o.skip_ext_time = ::core::option::Option::Some(true);",
                    &[],
                    Span::call_site(),
                ));
                continue;
            };
            sets.extend(match key.to_string().as_str() {
                "threads" => set(
                    "o.threads = ::core::option::Option::Some($0::IntoThreads::into_threads($2));",
                    v.tokens.clone(),
                ),
                "min_time" | "max_time" => set(
                    "o.$1 = ::core::option::Option::Some($0::IntoDuration::into_duration($2));",
                    v.tokens.clone(),
                ),
                "counters" | "counter" => {
                    let items = v.elements.clone().unwrap_or_else(|| vec![v.tokens.clone()]);
                    items
                        .into_iter()
                        .flat_map(|item| {
                            set("o.counters.push($0::IntoCounter::into_counter($2));", item)
                        })
                        .collect()
                }
                _ => set("o.$1 = ::core::option::Option::Some($2);", v.tokens.clone()),
            });
        }
        fill(
            "#[allow(unused_mut)] let mut o = $0::BenchOptions::default(); $1 o",
            &[p, sets],
            Span::call_site(),
        )
    }

    /// The `ignore` flag as an expression.
    pub(crate) fn ignore(&self, attr_ignore: bool) -> TokenStream {
        match (&self.ignore, attr_ignore) {
            (_, true) => ident("true"),
            (Some(e), false) => e.clone(),
            (None, false) => ident("false"),
        }
    }
}

/// Options that take a value (`ignore` and `skip_ext_time` alone mean
/// `true`).
const NEEDS_VALUE: &[&str] = &[
    "crate",
    "name",
    "args",
    "consts",
    "types",
    "sample_count",
    "sample_size",
    "threads",
    "counters",
    "counter",
    "min_time",
    "max_time",
];

/// divan's errors for an option the target cannot use, at the option's
/// name: generic arguments for a function without such parameters, `args`
/// for one without an argument, and any of the three on a group.
fn check_target(key: &Ident, name: &str, target: Target<'_>) -> Result<(), TokenStream> {
    let func = match target {
        Target::Group if matches!(name, "args" | "consts" | "types") => {
            return Err(error(
                key.span(),
                &format!("unsupported 'bench_group' option '{name}'"),
            ))
        }
        Target::Group => return Ok(()),
        Target::Bench(func) => func,
    };
    let has = |kind: fn(&Generic) -> bool| func.generics.iter().any(kind);
    let missing = match name {
        "types" if !has(|g| matches!(g, Generic::Type(_))) => "generic type",
        "consts" if !has(|g| matches!(g, Generic::Const(_))) => "generic const",
        "args" if func.inputs.len() == usize::from(func.takes_bencher()) => "function argument",
        _ => return Ok(()),
    };
    Err(error(
        key.span(),
        &format!("{missing} required for 'bench' option '{name}'"),
    ))
}

/// The types of `types = [A, B]`; an empty element is syn's error at the
/// comma where a type was expected, as divan reports it.
fn types(v: &[TokenTree]) -> Result<Vec<TokenStream>, TokenStream> {
    let Some(TokenTree::Group(g)) = single(v)
        .filter(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket))
    else {
        return Err(error_over(v, "expected a list of types: `types = [A, B]`"));
    };
    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
    let mut out = Vec::new();
    for (piece, comma) in split_commas_at(&inner, Angles::Type) {
        if piece.is_empty() {
            return Err(error(
                comma.unwrap_or_else(|| g.span_close()),
                EXPECTED_TYPE,
            ));
        }
        out.push(stream(&piece));
    }
    Ok(out)
}

impl Value {
    /// `tokens`, with its elements if it is one bracketed list.
    fn of(tokens: &[TokenTree], angles: Angles) -> Value {
        // `$e:expr` holding `[a, b]` is still a list.
        let elements = match single(tokens) {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                // `[x; n]` is one value repeated, not a list.
                let repeat = inner.iter().any(|t| is_punct(Some(t), ';'));
                (!repeat).then(|| {
                    split_commas(&inner, angles)
                        .iter()
                        .map(|e| stream(e))
                        .collect()
                })
            }
            _ => None,
        };
        Value {
            tokens: stream(tokens),
            elements,
        }
    }

    /// The value as one operand of a larger expression.
    pub(crate) fn operand(&self) -> TokenStream {
        operand(self.tokens.clone())
    }
}
