//! The expansion: the function as written (never inlined, so it keeps its
//! own symbol for `callgrind_annotate` and the flamegraphs), and beside it a
//! hidden module of the same name whose `__yardstick_benches()` lists its
//! benchmarks for `library_benchmark_group!`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::parse::{Bench, Parsed};

/// Renders the function and its benchmark module; `k` is the path of the
/// harness crate.
pub fn render(parsed: &Parsed, k: &TokenStream) -> TokenStream {
    let function = &parsed.function;
    let name = &function.sig.ident;
    let vis = &function.vis;
    let fn_config = match &parsed.config {
        Some(c) => quote!(::std::option::Option::Some(#k::__private::into_config(#c))),
        None => quote!(::std::option::Option::None),
    };
    let benches = parsed.benches.iter().map(|b| bench(b, name, k));
    let files = &parsed.files;
    quote! {
        #[inline(never)]
        #function

        #[doc(hidden)]
        #[allow(non_snake_case, clippy::module_inception)]
        #vis mod #name {
            #[allow(unused_imports)]
            use super::*;

            #(const _: &str = ::std::include_str!(#files);)*

            /// The benchmarks of this function, in attribute order.
            pub fn __yardstick_benches() -> ::std::vec::Vec<#k::LibraryBenchmark> {
                let function_config: ::std::option::Option<#k::LibraryBenchmarkConfig> =
                    #fn_config;
                ::std::vec![#(#benches),*]
            }
        }
    }
}

/// One `LibraryBenchmark` value.
fn bench(b: &Bench, name: &syn::Ident, k: &TokenStream) -> TokenStream {
    let id = match &b.id {
        Some(id) => quote!(::std::option::Option::Some(::std::string::String::from(#id))),
        None => quote!(::std::option::Option::None),
    };
    let display = &b.display;
    let config = match &b.config {
        Some(c) => quote!(::std::option::Option::Some(#k::__private::into_config(#c))),
        None => quote!(::std::option::Option::None),
    };
    let run = run(b, name, k);
    quote! {
        #k::LibraryBenchmark {
            function: ::std::stringify!(#name),
            id: #id,
            args: ::std::string::String::from(#display),
            function_config: ::std::clone::Clone::clone(&function_config),
            config: #config,
            run: #run,
        }
    }
}

/// The closure that sets up, calls the function inside the measured region
/// and tears down. The arguments are evaluated in a `match` scrutinee so that
/// temporaries they borrow (`&vec![1, 2]`) live through the call, as in
/// iai-callgrind's single expression.
fn run(b: &Bench, name: &syn::Ident, k: &TokenStream) -> TokenStream {
    let args = &b.args;
    let teardown = match &b.teardown {
        Some(t) => quote!(::std::hint::black_box(#t(_output));),
        None => quote!(),
    };
    match &b.setup {
        Some(setup) => quote! {
            || match ::std::hint::black_box(#setup(#(#args),*)) {
                input => {
                    let _output = #k::__private::measure(move || super::#name(input));
                    #teardown
                }
            }
        },
        None => {
            let binds: Vec<_> = (0..args.len()).map(|i| format_ident!("arg{i}")).collect();
            quote! {
                || match (#(::std::hint::black_box(#args),)*) {
                    (#(#binds,)*) => {
                        let _output = #k::__private::measure(move || super::#name(#(#binds),*));
                        #teardown
                    }
                }
            }
        }
    }
}
