//! Parsing the options of `#[bench(...)]` and `#[bench_group(...)]`.
//!
//! Each option is `key` or `key = value`, separated by commas. Values stay
//! the user's tokens: the compiler checks them where the generated code
//! uses them, and its errors point at them.

use crate::tokens::{
    error, error_over, fill, ident, is_punct, operand, split_commas, stream, Angles,
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

impl Options {
    /// The options of `attr`, or a compile error.
    pub(crate) fn parse(attr: TokenStream) -> Result<Options, TokenStream> {
        let tokens: Vec<TokenTree> = attr.into_iter().collect();
        let mut o = Options::default();
        let mut seen: Vec<String> = Vec::new();
        for piece in split_commas(&tokens, Angles::Expr) {
            let Some(TokenTree::Ident(key)) = piece.first() else {
                return Err(error_over(&piece, "expected an option's name"));
            };
            let name = key.to_string();
            let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
            if seen.contains(&name) {
                return Err(error(key.span(), &format!("repeated option `{name}`")));
            }
            seen.push(name.clone());
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
            ("types", Some(v)) => match Value::of(v, Angles::Type).elements {
                Some(types) => self.types = Some(types),
                None => return Err(error_over(v, "expected a list of types: `types = [A, B]`")),
            },
            ("ignore", v) => self.ignore = Some(v.map_or_else(|| ident("true"), stream)),
            ("skip_ext_time", None) => self.runtime.push((key.clone(), None)),
            (n, Some(v)) if RUNTIME.contains(&n) => {
                self.runtime.push((key.clone(), Some(Value::of(v, Angles::Expr))))
            }
            _ => {
                return Err(error(
                    key.span(),
                    &format!(
                        "unknown option `{name}`{}; expected one of: crate, name, args, consts, types, ignore, {}",
                        if value.is_some() { "" } else { " (or it needs `= value`)" },
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

impl Value {
    /// `tokens`, with its elements if it is one bracketed list.
    fn of(tokens: &[TokenTree], angles: Angles) -> Value {
        let elements = match tokens {
            [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => {
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
