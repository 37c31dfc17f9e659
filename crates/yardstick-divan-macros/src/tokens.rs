//! The few token-level tools the two attributes need, on `proc_macro`
//! alone: splitting at top-level commas, filling a code template with
//! tokens, and compile errors that point at the user's code.
//!
//! divan users choose divan for its light build; syn, quote and
//! proc-macro2 were a fifth of a clean `cargo bench`'s CPU time for a
//! one-bench crate, to read a function header and a list of options.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use std::str::FromStr;

/// How `<` and `>` nest while splitting at commas.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Angles {
    /// In a type or a generic list: every `<` opens (`HashMap<K, V>`).
    Type,
    /// In an expression: only a turbofish or a qualified path opens
    /// (`Vec::<u8>::new()`, `<T as Tr>::f()`); elsewhere `<` compares.
    Expr,
}

/// `tokens` cut at each comma outside `<...>`; brackets, parentheses and
/// braces are single token trees already. An empty last piece (a trailing
/// comma) is dropped.
pub(crate) fn split_commas(tokens: &[TokenTree], angles: Angles) -> Vec<Vec<TokenTree>> {
    split_commas_at(tokens, angles)
        .into_iter()
        .map(|(piece, _)| piece)
        .collect()
}

/// [`split_commas`], each piece with the span of the comma after it (`None`
/// for the last): where syn reports what is missing in a piece.
pub(crate) fn split_commas_at(
    tokens: &[TokenTree],
    angles: Angles,
) -> Vec<(Vec<TokenTree>, Option<Span>)> {
    let mut pieces = vec![(Vec::new(), None)];
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        if let TokenTree::Punct(p) = t {
            let prev = i.checked_sub(1).map(|j| &tokens[j]);
            let at_start = pieces.last().is_some_and(|(p, _)| p.is_empty());
            match p.as_char() {
                ',' if depth == 0 => {
                    pieces.last_mut().expect("never empty").1 = Some(p.span());
                    pieces.push((Vec::new(), None));
                    continue;
                }
                '<' if opens(prev, at_start, angles) => depth += 1,
                '>' if depth > 0 && !is_punct(prev, '-') => depth -= 1,
                _ => {}
            }
        }
        pieces.last_mut().expect("never empty").0.push(t.clone());
    }
    if pieces.last().is_some_and(|(p, _)| p.is_empty()) {
        pieces.pop();
    }
    pieces
}

/// The tokens with every invisible group at this level opened. A
/// `macro_rules!` fragment (`$v:vis`, `$t:ty`, `$m:meta`, `$e:expr`)
/// reaches a macro as a group without delimiters; reading through it is
/// what lets the header of a function written by a macro be read like any
/// other. Only for reading: the output keeps the groups, which keep an
/// expression's operators together.
pub(crate) fn flat(tokens: impl IntoIterator<Item = TokenTree>) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for t in tokens {
        match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => out.extend(flat(g.stream())),
            t => out.push(t),
        }
    }
    out
}

/// The one token tree of `tokens` once invisible groups are opened, if
/// there is exactly one (`[a, b]` passed as `$e:expr` is still a list).
pub(crate) fn single(tokens: &[TokenTree]) -> Option<TokenTree> {
    match flat(tokens.iter().cloned()).as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// Whether a `<` after `prev` opens: in an expression, after `::` or at
/// the start of a value (a piece, or what follows `key =`).
fn opens(prev: Option<&TokenTree>, at_start: bool, angles: Angles) -> bool {
    angles == Angles::Type || at_start || is_punct(prev, ':') || is_punct(prev, '=')
}

/// Whether `t` is the punctuation `c`.
pub(crate) fn is_punct(t: Option<&TokenTree>, c: char) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// `template` with each `$N` replaced by `holes[N]`, spliced as they are
/// (their spans kept, so an error in a user's expression points at it).
/// The template's own tokens get `span`.
pub(crate) fn fill(template: &str, holes: &[TokenStream], span: Span) -> TokenStream {
    let parsed = TokenStream::from_str(template).expect("templates are valid tokens");
    substitute(parsed, holes, span)
}

fn substitute(template: TokenStream, holes: &[TokenStream], span: Span) -> TokenStream {
    let mut out = TokenStream::new();
    let mut tokens = template.into_iter().peekable();
    while let Some(mut t) = tokens.next() {
        match &mut t {
            TokenTree::Punct(p) if p.as_char() == '$' => {
                let Some(TokenTree::Literal(n)) = tokens.next() else {
                    unreachable!("a `$` in a template is followed by a hole's number")
                };
                let n: usize = n.to_string().parse().expect("a hole's number");
                out.extend(holes[n].clone());
                continue;
            }
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), substitute(g.stream(), holes, span));
                inner.set_span(span);
                t = TokenTree::Group(inner);
            }
            other => other.set_span(span),
        }
        out.extend([t]);
    }
    out
}

/// `tokens` joined with commas.
pub(crate) fn comma_list(items: impl IntoIterator<Item = TokenStream>) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
        }
        out.extend(item);
    }
    out
}

/// A user's expression as one operand: an invisible group keeps `a + b`
/// together in `&$0` or `$0.len()` without parentheses to lint.
pub(crate) fn operand(tokens: TokenStream) -> TokenStream {
    TokenTree::Group(Group::new(Delimiter::None, tokens)).into()
}

/// `{ tokens }`.
pub(crate) fn braced(tokens: TokenStream) -> TokenStream {
    TokenTree::Group(Group::new(Delimiter::Brace, tokens)).into()
}

pub(crate) fn string(s: &str) -> TokenStream {
    TokenTree::Literal(Literal::string(s)).into()
}

pub(crate) fn usize_suffixed(n: usize) -> TokenStream {
    TokenTree::Literal(Literal::usize_suffixed(n)).into()
}

pub(crate) fn ident(name: &str) -> TokenStream {
    TokenTree::Ident(Ident::new(name, Span::call_site())).into()
}

/// The tokens as a stream.
pub(crate) fn stream(tokens: &[TokenTree]) -> TokenStream {
    tokens.iter().cloned().collect()
}

/// A compile error spanning `first` to `last`, as syn writes one.
pub(crate) fn error_between(first: Span, last: Span, message: &str) -> TokenStream {
    let mut body = Group::new(Delimiter::Brace, string(message));
    body.set_span(last);
    let mut out = fill("::core::compile_error!", &[], first);
    out.extend([TokenTree::Group(body)]);
    out
}

/// A compile error at `span`.
pub(crate) fn error(span: Span, message: &str) -> TokenStream {
    error_between(span, span, message)
}

/// A compile error over `tokens` (at the call site if there are none).
pub(crate) fn error_over(tokens: &[TokenTree], message: &str) -> TokenStream {
    let first = tokens.first().map_or_else(Span::call_site, TokenTree::span);
    let last = tokens.last().map_or(first, TokenTree::span);
    error_between(first, last, message)
}
