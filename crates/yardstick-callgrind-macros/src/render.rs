//! The expansion: a hidden module named after the function holding the
//! function itself, renamed [`MEASURED`], and `__yardstick_benches()`, which
//! lists its benchmarks for `library_benchmark_group!`. The function keeps
//! its name through a `use` beside the module.
//!
//! Callgrind counts only [`MEASURED`] functions (`--toggle-collect`), as
//! iai-callgrind counts only its wrapper module's: setup, the arguments and
//! moving them into the call happen outside, so a benchmark costs what its
//! own body costs. The name is fixed (not the user's) so one pattern without
//! a trailing wildcard matches every benchmark, also when the compiler
//! merges two identical bodies, and never a closure inside the body
//! (`...::__yardstick_callgrind_measured::{{closure}}`), which would turn
//! collection off while it runs.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::parse::{Bench, Parsed};

/// The name of every benchmark function in the expansion; the harness's
/// toggle pattern names it too.
const MEASURED: &str = "__yardstick_callgrind_measured";

/// Renders the function and its benchmark module; `k` is the path of the
/// harness crate.
pub fn render(parsed: &Parsed, k: &TokenStream) -> TokenStream {
    let name = &parsed.function.sig.ident;
    let vis = &parsed.function.vis;
    let measured = format_ident!("{}", MEASURED);
    let mut function = parsed.function.clone();
    function.sig.ident = measured.clone();
    function.vis = syn::parse_quote!(pub);
    let fn_config = match &parsed.config {
        Some(c) => quote!(::std::option::Option::Some(#k::__private::into_config(#c))),
        None => quote!(::std::option::Option::None),
    };
    let benches = parsed.benches.iter().map(|b| bench(b, name, k));
    let files = &parsed.files;
    quote! {
        #[doc(hidden)]
        #[allow(non_snake_case, clippy::module_inception)]
        #vis mod #name {
            #[allow(unused_imports)]
            use super::*;
            // The body may call the function by its own name.
            #[allow(unused_imports)]
            use self::#measured as #name;

            #(const _: &str = ::std::include_str!(#files);)*

            #[inline(never)]
            #function

            /// The benchmarks of this function, in attribute order.
            pub fn __yardstick_benches() -> ::std::vec::Vec<#k::LibraryBenchmark> {
                let function_config: ::std::option::Option<#k::LibraryBenchmarkConfig> =
                    #fn_config;
                ::std::vec![#(#benches),*]
            }
        }

        #[allow(unused_imports)]
        #vis use #name::#measured as #name;
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
    let run = run(b);
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

/// The function that sets up, calls the benchmark and tears down. Only the
/// call's inside is counted; the arguments are evaluated in a `match`
/// scrutinee so that temporaries they borrow (`&vec![1, 2]`) live through
/// the call, as in iai-callgrind's single expression, and pass through
/// `black_box` so the optimiser cannot fold them into the function.
///
/// The call goes through a function pointer passed through `black_box`:
/// once its address escapes, LLVM keeps the function's Rust calling
/// convention. Called directly from its one caller in the same codegen
/// unit, it rewrites the signature (arguments in registers instead of
/// through memory, the returned pointer dropped), and small benchmarks
/// counted 1–3 instructions fewer than iai-callgrind's (glam's
/// `mat2_transpose` 3 instead of 5: iai-callgrind's call crosses codegen
/// units, its function being in a module of its own). The count is then
/// the function's whole cost in Rust's convention, whatever else the file
/// holds; iai-callgrind's is lower where rustc happens to merge its module
/// with the caller's (as with `codegen-units = 1`).
fn run(b: &Bench) -> TokenStream {
    let measured = format_ident!("{}", MEASURED);
    let args = &b.args;
    let teardown = match &b.teardown {
        Some(t) => quote!(::std::hint::black_box(#t(_output));),
        None => quote!(),
    };
    // Called through a pointer that escapes (see `pointer`).
    let call = |n: usize| {
        let holes = (0..n).map(|_| quote!(_));
        quote! {{
            let function: fn(#(#holes),*) -> _ = #measured;
            ::std::hint::black_box(function)
        }}
    };
    match &b.setup {
        Some(setup) => {
            let function = call(1);
            quote! {
                || match ::std::hint::black_box(#setup(#(#args),*)) {
                    input => {
                        let _output = ::std::hint::black_box(#function(input));
                        #teardown
                    }
                }
            }
        }
        None => {
            let binds: Vec<_> = (0..args.len()).map(|i| format_ident!("arg{i}")).collect();
            let function = call(args.len());
            quote! {
                || match (#(::std::hint::black_box(#args),)*) {
                    (#(#binds,)*) => {
                        let _output = ::std::hint::black_box(#function(#(#binds),*));
                        #teardown
                    }
                }
            }
        }
    }
}
