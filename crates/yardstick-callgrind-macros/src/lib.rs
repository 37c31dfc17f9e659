#![doc = include_str!("../README.md")]

mod krate;
mod parse;
mod render;

use proc_macro::TokenStream;

/// Declares a library benchmark: the function, and with `#[bench::ID(..)]`
/// and `#[benches::ID(..)]` the arguments it is benchmarked with.
///
/// See the `yardstick-callgrind` documentation of `library_benchmark`.
#[proc_macro_attribute]
pub fn library_benchmark(args: TokenStream, input: TokenStream) -> TokenStream {
    match parse::parse(args.into(), input.into()) {
        Ok(parsed) => render::render(&parsed, &krate::path()).into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// The name of the dependency as the calling package's manifest spells it
/// (`"iai-callgrind"` or `"yardstick-callgrind"`), as a string literal: the
/// harness uses iai-callgrind's file locations when it is called so.
#[doc(hidden)]
#[proc_macro]
pub fn __dependency_name(_input: TokenStream) -> TokenStream {
    let name = krate::dependency_name();
    quote::quote!(#name).into()
}
