//! Parsing the options of `#[bench(...)]` and `#[bench_group(...)]`.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Token, Type};

/// The options of one attribute, as written.
#[derive(Default)]
pub(crate) struct Options {
    /// `crate = path`: where the divan API lives (default `::divan`).
    pub krate: Option<syn::Path>,
    /// `name = expr`: the display name.
    pub name: Option<Expr>,
    /// `args = expr`: runtime arguments.
    pub args: Option<Expr>,
    /// `consts = [..]` or `consts = PATH`.
    pub consts: Option<Expr>,
    /// `types = [..]`.
    pub types: Option<Vec<Type>>,
    /// `ignore` or `ignore = bool`.
    pub ignore: Option<Expr>,
    /// Options stored in `BenchOptions`, as (name, value).
    pub runtime: Vec<(Ident, Option<Expr>)>,
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

impl Parse for Options {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut o = Options::default();
        let mut seen: Vec<String> = Vec::new();
        while !input.is_empty() {
            let key = Ident::parse_any(input)?;
            let name = key.to_string();
            if seen.contains(&name) {
                return Err(syn::Error::new(
                    key.span(),
                    format!("repeated option `{name}`"),
                ));
            }
            seen.push(name.clone());
            let has_value = input.peek(Token![=]);
            if has_value {
                input.parse::<Token![=]>()?;
            }
            match (name.as_str(), has_value) {
                ("crate", true) => o.krate = Some(input.parse()?),
                ("name", true) => o.name = Some(input.parse()?),
                ("args", true) => o.args = Some(input.parse()?),
                ("consts", true) => o.consts = Some(input.parse()?),
                ("types", true) => {
                    let content;
                    syn::bracketed!(content in input);
                    let list = Punctuated::<Type, Token![,]>::parse_terminated(&content)?;
                    o.types = Some(list.into_iter().collect());
                }
                ("ignore", _) => {
                    o.ignore = Some(if has_value {
                        input.parse()?
                    } else {
                        syn::parse_quote!(true)
                    })
                }
                ("skip_ext_time", false) => o.runtime.push((key, None)),
                (n, true) if RUNTIME.contains(&n) => o.runtime.push((key, Some(input.parse()?))),
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown option `{name}`{}; expected one of: crate, name, args, consts, types, ignore, {}",
                            if has_value { "" } else { " (or it needs `= value`)" },
                            RUNTIME.join(", ")
                        ),
                    ))
                }
            }
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(o)
    }
}

impl Options {
    /// The path of the divan API in generated code.
    pub(crate) fn krate(&self) -> TokenStream {
        match &self.krate {
            Some(p) => quote!(#p),
            None => quote!(::divan),
        }
    }

    /// The body of the `fn() -> BenchOptions` of an entry.
    pub(crate) fn options_fn(&self) -> TokenStream {
        let krate = self.krate();
        let p = quote!(#krate::__private);
        let sets = self.runtime.iter().map(|(key, value)| {
            let span = key.span();
            match (key.to_string().as_str(), value) {
                ("skip_ext_time", None) => quote!(o.skip_ext_time = ::core::option::Option::Some(true);),
                ("threads", Some(v)) => quote_spanned!(span=> o.threads = ::core::option::Option::Some(#p::IntoThreads::into_threads(#v));),
                ("min_time" | "max_time", Some(v)) => quote_spanned!(span=> o.#key = ::core::option::Option::Some(#p::IntoDuration::into_duration(#v));),
                ("counters" | "counter", Some(v)) => {
                    let items: Vec<&Expr> = match v {
                        Expr::Array(a) => a.elems.iter().collect(),
                        other => vec![other],
                    };
                    quote_spanned!(span=> #( o.counters.push(#p::IntoCounter::into_counter(#items)); )*)
                }
                (_, Some(v)) => quote_spanned!(span=> o.#key = ::core::option::Option::Some(#v);),
                (_, None) => quote!(),
            }
        });
        quote! {
            #[allow(unused_mut)]
            let mut o = #p::BenchOptions::default();
            #(#sets)*
            o
        }
    }

    /// The `ignore` flag as an expression.
    pub(crate) fn ignore(&self, attr_ignore: bool) -> TokenStream {
        match (&self.ignore, attr_ignore) {
            (_, true) => quote!(true),
            (Some(e), false) => quote!(#e),
            (None, false) => quote!(false),
        }
    }
}

/// A compile error at `span`.
pub(crate) fn error(span: Span, message: &str) -> TokenStream {
    syn::Error::new(span, message).to_compile_error()
}

/// The span of anything with one.
pub(crate) fn span_of<T: Spanned>(t: &T) -> Span {
    t.span()
}
