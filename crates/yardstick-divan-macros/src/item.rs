//! Reading the item under the attribute: a function's header (name,
//! generic parameters, parameters) or a module's name and body. Everything
//! else is passed through untouched.

use crate::tokens::{error, error_over, flat, is_punct, split_commas, Angles};
use proc_macro::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

/// An outer attribute `#[...]`: where it starts in the item's tokens.
struct Attribute {
    at: usize,
    /// Its path, if it is a single identifier (`ignore`, `cfg`).
    name: Option<String>,
}

/// The item's tokens and its outer attributes.
pub(crate) struct Item {
    tokens: Vec<TokenTree>,
    attrs: Vec<Attribute>,
    /// Where the item proper starts (after its attributes).
    body: usize,
    /// The item proper with its invisible groups opened (a visibility or a
    /// return type from a `macro_rules!` fragment), to read its header.
    header: Vec<TokenTree>,
}

/// A generic parameter's kind, with its name's span.
pub(crate) enum Generic {
    Lifetime,
    Type(Span),
    Const(Span),
}

/// What the entry needs of a benchmark function.
pub(crate) struct Function {
    pub name: Ident,
    pub generics: Vec<Generic>,
    /// The parameters, each as its tokens.
    pub inputs: Vec<Vec<TokenTree>>,
    /// The span of the parenthesised parameter list.
    pub inputs_span: Span,
    /// Whether it is an `extern "ABI" fn`, which is no Rust closure.
    pub extern_abi: bool,
}

impl Function {
    /// Whether the first parameter is divan's `Bencher`.
    pub(crate) fn takes_bencher(&self) -> bool {
        self.inputs.first().is_some_and(|a| is_bencher(a))
    }
}

impl Item {
    pub(crate) fn new(item: TokenStream) -> Item {
        let tokens: Vec<TokenTree> = item.into_iter().collect();
        let mut attrs = Vec::new();
        let mut i = 0;
        while is_punct(tokens.get(i), '#') {
            let Some(TokenTree::Group(g)) = tokens.get(i + 1) else {
                break;
            };
            // `#[$m]` with `$m:meta` holds an invisible group.
            let inner = flat(g.stream());
            let single =
                matches!(inner.first(), Some(TokenTree::Ident(_))) && !is_punct(inner.get(1), ':');
            attrs.push(Attribute {
                at: i,
                name: single.then(|| inner[0].to_string()),
            });
            i += 2;
        }
        Item {
            header: flat(tokens[i..].iter().cloned()),
            tokens,
            attrs,
            body: i,
        }
    }

    /// Whether an attribute `#[name...]` is on the item.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.attrs.iter().any(|a| a.name.as_deref() == Some(name))
    }

    /// The `#[name...]` attributes, as tokens.
    pub(crate) fn attributes(&self, name: &str) -> TokenStream {
        self.attrs
            .iter()
            .filter(|a| a.name.as_deref() == Some(name))
            .flat_map(|a| self.tokens[a.at..a.at + 2].iter().cloned())
            .collect()
    }

    /// The item without its `#[ignore]`s (read by the macro; on a plain
    /// item rustc would ignore them with a warning).
    pub(crate) fn without_ignore(&self) -> Vec<TokenTree> {
        let mut out = Vec::with_capacity(self.tokens.len());
        for (i, t) in self.tokens.iter().enumerate() {
            let in_ignore = self
                .attrs
                .iter()
                .any(|a| a.name.as_deref() == Some("ignore") && (i == a.at || i == a.at + 1));
            if !in_ignore {
                out.push(t.clone());
            }
        }
        out
    }

    /// Where the keyword `word` (`fn`, `mod`) is in the header: after the
    /// visibility (`pub(crate)`) and qualifiers (`const`, `extern "C"`),
    /// before anything else.
    fn keyword(&self, word: &str) -> Option<usize> {
        for i in 0..self.header.len() {
            match &self.header[i] {
                TokenTree::Ident(id) if id.to_string() == word => return Some(i),
                TokenTree::Ident(_) | TokenTree::Literal(_) => {}
                TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {}
                _ => return None,
            }
        }
        None
    }

    /// The function's header, or an error if the item is not a function.
    pub(crate) fn function(&self) -> Result<Function, TokenStream> {
        let not_fn = || {
            error_over(
                &self.tokens[self.body.min(self.tokens.len())..],
                "#[divan::bench] applies to a function",
            )
        };
        let h = &self.header;
        let at = self.keyword("fn").ok_or_else(not_fn)?;
        let Some(TokenTree::Ident(name)) = h.get(at + 1) else {
            return Err(not_fn());
        };
        let mut i = at + 2;
        let mut generics = Vec::new();
        if is_punct(h.get(i), '<') {
            let end = closing_angle(h, i).ok_or_else(not_fn)?;
            generics = split_commas(&h[i + 1..end], Angles::Type)
                .iter()
                .map(|p| generic(p))
                .collect();
            i = end + 1;
        }
        let Some(TokenTree::Group(params)) = h.get(i) else {
            return Err(not_fn());
        };
        let inner = flat(params.stream());
        Ok(Function {
            name: name.clone(),
            generics,
            // Each parameter read through its fragments (`n: $t`).
            inputs: split_commas(&inner, Angles::Type)
                .into_iter()
                .map(flat)
                .collect(),
            inputs_span: params.span(),
            extern_abi: h[..at]
                .iter()
                .any(|t| matches!(t, TokenTree::Ident(i) if i.to_string() == "extern")),
        })
    }

    /// The module with `entry` appended to its body, or an error if the
    /// item is not an inline module.
    pub(crate) fn module_with(
        &self,
        entry: TokenStream,
    ) -> Result<(Ident, TokenStream), TokenStream> {
        let rest = &self.tokens[self.body.min(self.tokens.len())..];
        let at = self
            .keyword("mod")
            .ok_or_else(|| error_over(rest, "#[divan::bench_group] applies to a module"))?;
        let Some(TokenTree::Ident(name)) = self.header.get(at + 1) else {
            return Err(error_over(
                rest,
                "#[divan::bench_group] applies to a module",
            ));
        };
        let mut out = self.without_ignore();
        let body_at = out.len() - 1;
        match out.last_mut() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                let mut content = g.stream();
                content.extend(entry);
                let mut body = Group::new(Delimiter::Brace, content);
                body.set_span(g.span());
                out[body_at] = TokenTree::Group(body);
            }
            _ => {
                return Err(error(
                    name.span(),
                    "#[bench_group] needs an inline module (`mod name { ... }`)",
                ))
            }
        }
        Ok((name.clone(), out.into_iter().collect()))
    }
}

/// The index of the `>` closing the `<` at `open`; a `->` inside (as in
/// `F: Fn() -> u8`) does not close it.
fn closing_angle(tokens: &[TokenTree], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match t {
            TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            TokenTree::Punct(p) if p.as_char() == '>' && !is_punct(tokens.get(i - 1), '-') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// One generic parameter (its attributes skipped).
fn generic(param: &[TokenTree]) -> Generic {
    let mut i = 0;
    while is_punct(param.get(i), '#') {
        i += 2;
    }
    match (param.get(i), param.get(i + 1)) {
        (Some(TokenTree::Punct(p)), _) if p.as_char() == '\'' => Generic::Lifetime,
        (Some(TokenTree::Ident(c)), Some(TokenTree::Ident(n))) if c.to_string() == "const" => {
            Generic::Const(n.span())
        }
        (Some(t), _) => Generic::Type(t.span()),
        (None, _) => Generic::Lifetime,
    }
}

/// Whether a parameter's type is divan's `Bencher`: a path whose last
/// segment is `Bencher`, with or without its lifetimes.
pub(crate) fn is_bencher(param: &[TokenTree]) -> bool {
    // The type follows the first lone `:` (not one of a `::`).
    let colon = (0..param.len()).find(|&i| {
        is_punct(param.get(i), ':')
            && !is_punct(param.get(i + 1), ':')
            && !(i > 0 && is_punct(param.get(i - 1), ':'))
    });
    let Some(colon) = colon else {
        return false;
    };
    let mut depth = 0usize;
    let mut last = None;
    for t in &param[colon + 1..] {
        match t {
            TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            TokenTree::Punct(p) if p.as_char() == '>' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            TokenTree::Punct(p) if p.as_char() == ':' => {}
            TokenTree::Ident(i) if !matches!(i.to_string().as_str(), "dyn" | "impl") => {
                last = Some(i.to_string())
            }
            _ => return false,
        }
    }
    last.as_deref() == Some("Bencher")
}
