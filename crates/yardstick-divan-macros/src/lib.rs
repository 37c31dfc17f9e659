#![doc = include_str!("../README.md")]

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::quote;

mod options;

use options::{error, span_of, Options};

/// `#[bench]`: registers a function as a benchmark. See `yardstick_divan::bench`.
#[proc_macro_attribute]
pub fn bench(attr: TokenStream, item: TokenStream) -> TokenStream {
    let options = syn::parse_macro_input!(attr as Options);
    let func = syn::parse_macro_input!(item as syn::ItemFn);
    bench_entry(&options, &func).into()
}

/// `#[bench_group]`: sets options for the benchmarks of a module. See
/// `yardstick_divan::bench_group`.
#[proc_macro_attribute]
pub fn bench_group(attr: TokenStream, item: TokenStream) -> TokenStream {
    let options = syn::parse_macro_input!(attr as Options);
    let mut module = syn::parse_macro_input!(item as syn::ItemMod);
    for (what, present) in [
        ("args", options.args.is_some()),
        ("consts", options.consts.is_some()),
        ("types", options.types.is_some()),
    ] {
        if present {
            return error(
                span_of(&module.ident),
                &format!("`{what}` is an option of #[bench], not of #[bench_group]"),
            )
            .into();
        }
    }
    let Some((_, content)) = module.content.as_mut() else {
        return error(
            span_of(&module),
            "#[bench_group] needs an inline module (`mod name { ... }`)",
        )
        .into();
    };
    let attr_ignore = module.attrs.iter().any(|a| a.path().is_ident("ignore"));
    module.attrs.retain(|a| !a.path().is_ident("ignore"));
    let raw = module.ident.to_string();
    let raw = raw.strip_prefix("r#").unwrap_or(&raw).to_owned();
    let entry = entry_tokens(&options, &raw, attr_ignore, None, quote!(Group));
    content.push(syn::Item::Verbatim(entry));
    quote!(#module).into()
}

/// The benchmark function, unchanged, and its entry.
fn bench_entry(options: &Options, func: &syn::ItemFn) -> Tokens {
    let raw = func.sig.ident.to_string();
    let raw = raw.strip_prefix("r#").unwrap_or(&raw).to_owned();
    let attr_ignore = func.attrs.iter().any(|a| a.path().is_ident("ignore"));
    let register = match register_fn(options, &func.sig) {
        Ok(r) => r,
        Err(e) => return quote!(#func #e),
    };
    // `#[cfg]`s written after `#[bench]` reach the macro: the entry must
    // disappear with the function.
    let cfgs = func.attrs.iter().filter(|a| a.path().is_ident("cfg"));
    let entry = entry_tokens(options, &raw, attr_ignore, Some(register), quote!(Bench));
    let mut func = func.clone();
    // `#[ignore]` is read here; on a plain function rustc would ignore it
    // with a warning.
    func.attrs.retain(|a| !a.path().is_ident("ignore"));
    quote! {
        #func
        #(#cfgs)*
        #entry
    }
}

/// `const _: () = { static ENTRY; constructor };`
fn entry_tokens(
    options: &Options,
    raw: &str,
    attr_ignore: bool,
    register: Option<Tokens>,
    kind: Tokens,
) -> Tokens {
    let krate = options.krate();
    let p = quote!(#krate::__private);
    let name = match &options.name {
        Some(e) => quote!(#e),
        None => quote!(#raw),
    };
    let ignore = options.ignore(attr_ignore);
    let options_body = options.options_fn();
    let (register_item, register_value) = match register {
        Some(body) => (
            quote! {
                fn __divan_register(__r: &mut #p::Registrar) { #body }
            },
            quote!(::core::option::Option::Some(__divan_register)),
        ),
        None => (quote!(), quote!(::core::option::Option::None)),
    };
    let elf = quote! {
        target_os = "android", target_os = "dragonfly", target_os = "freebsd",
        target_os = "fuchsia", target_os = "haiku", target_os = "illumos",
        target_os = "linux", target_os = "netbsd", target_os = "openbsd"
    };
    let mach_o = quote! {
        target_os = "ios", target_os = "macos", target_os = "tvos", target_os = "watchos"
    };
    quote! {
        #[cfg(not(any(windows, #elf, #mach_o)))]
        ::core::compile_error!("yardstick-divan registers benchmarks before main through the platform's constructor section, which this target lacks");
        const _: () = {
            fn __divan_name() -> &'static str { #name }
            fn __divan_options() -> #p::BenchOptions { #options_body }
            #register_item
            static __DIVAN_ENTRY: #p::Entry = #p::Entry {
                kind: #p::EntryKind::#kind,
                name: __divan_name,
                raw_name: #raw,
                module_path: ::core::module_path!(),
                file: ::core::file!(),
                line: ::core::line!(),
                ignore: #ignore,
                options: __divan_options,
                register: #register_value,
                next: #p::Link::new(),
            };
            #[used]
            #[cfg_attr(windows, link_section = ".CRT$XCU")]
            #[cfg_attr(any(#elf), link_section = ".init_array")]
            #[cfg_attr(any(#mach_o), link_section = "__DATA,__mod_init_func,mod_init_funcs")]
            static __DIVAN_PUSH: extern "C" fn() = {
                extern "C" fn __divan_push() {
                    #p::push(&__DIVAN_ENTRY);
                }
                __divan_push
            };
        };
    }
}

/// How many values of a `consts = PATH` option are supported: the path's
/// length is unknown to the macro, so this many instances are compiled and
/// those past the end are not registered.
const MAX_CONSTS: usize = 16;

/// The body of the entry's `register` function: one leaf per combination
/// of type, constant and argument.
fn register_fn(options: &Options, sig: &syn::Signature) -> Result<Tokens, Tokens> {
    let krate = options.krate();
    let p = quote!(#krate::__private);
    let ident = &sig.ident;
    let (has_bencher, n_args) = check_arguments(options, sig)?;
    let generic_lists = generic_lists(options, sig, &p)?;
    let consts_len = match &options.consts {
        Some(syn::Expr::Array(_)) | None => quote!(usize::MAX),
        Some(path) => quote!(#path.len()),
    };
    // Every combination of the generic parameters.
    let mut combos: Vec<Vec<&(Tokens, Tokens, Tokens)>> = vec![Vec::new()];
    for list in &generic_lists {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                list.iter().map(move |item| {
                    let mut c = c.clone();
                    c.push(item);
                    c
                })
            })
            .collect();
    }
    let leaves = combos.into_iter().map(|combo| {
        let names: Vec<&Tokens> = combo.iter().map(|c| &c.0).collect();
        let values: Vec<&Tokens> = combo.iter().map(|c| &c.1).collect();
        let indices: Vec<&Tokens> = combo.iter().map(|c| &c.2).collect();
        let call_path = if values.is_empty() {
            quote!(#ident)
        } else {
            quote!(#ident::<#(#values),*>)
        };
        let call = match (has_bencher, n_args) {
            (true, 0) => quote!(#call_path(__b)),
            (false, 0) => quote!(__b.bench(#call_path)),
            (true, _) => quote!(#call_path(__b, #p::Arg::get(__a))),
            (false, _) => quote!(__b.bench(move || #call_path(#p::Arg::get(__a)))),
        };
        let push = if n_args == 0 {
            quote! {
                __r.leaf(::std::vec![#(#names),*], move |__b: #krate::Bencher<'_, '_>| { #call; });
            }
        } else {
            let args = options.args.as_ref().expect("checked above");
            quote! {
                for __a in #p::leak_args(#args) {
                    let mut __names: ::std::vec::Vec<::std::string::String> = ::std::vec![#(#names),*];
                    __names.push(#p::ToStringHelper(__a).to_string());
                    __r.leaf(__names, move |__b: #krate::Bencher<'_, '_>| { #call; });
                }
            }
        };
        quote! {
            if #p::in_range(&[#(#indices),*], #consts_len) { #push }
        }
    });
    Ok(quote!(#(#leaves)*))
}

/// Whether the benchmark takes a `Bencher`, and how many arguments it takes
/// besides; an error where the options and the signature disagree.
fn check_arguments(options: &Options, sig: &syn::Signature) -> Result<(bool, usize), Tokens> {
    let inputs: Vec<&syn::FnArg> = sig.inputs.iter().collect();
    let has_bencher = inputs.first().is_some_and(|a| is_bencher(a));
    let n_args = inputs.len() - usize::from(has_bencher);
    if n_args > 1 {
        return Err(error(
            span_of(&sig.inputs),
            "a benchmark takes at most a Bencher and one argument",
        ));
    }
    if n_args == 1 && options.args.is_none() {
        return Err(error(
            span_of(&sig.inputs),
            "this benchmark takes an argument: give its values with `args = [...]`",
        ));
    }
    if n_args == 0 && options.args.is_some() {
        return Err(error(
            span_of(&sig.ident),
            "`args` needs the function to take an argument",
        ));
    }
    Ok((has_bencher, n_args))
}

/// One entry per generic parameter, in order: the (name, value, index in
/// `consts`) of each type or constant it is instantiated with.
type GenericLists = Vec<Vec<(Tokens, Tokens, Tokens)>>;

fn generic_lists(
    options: &Options,
    sig: &syn::Signature,
    p: &Tokens,
) -> Result<GenericLists, Tokens> {
    let mut generic_lists: GenericLists = Vec::new();
    for param in &sig.generics.params {
        match param {
            syn::GenericParam::Lifetime(_) => {}
            syn::GenericParam::Type(t) => {
                let Some(types) = &options.types else {
                    return Err(error(
                        span_of(&t.ident),
                        "a generic benchmark needs `types = [...]`",
                    ));
                };
                generic_lists.push(
                    types
                        .iter()
                        .map(|ty| {
                            (
                                quote!(#p::type_name::<#ty>()),
                                quote!(#ty),
                                quote!(::core::option::Option::<usize>::None),
                            )
                        })
                        .collect(),
                );
            }
            syn::GenericParam::Const(c) => {
                let Some(consts) = &options.consts else {
                    return Err(error(
                        span_of(&c.ident),
                        "a const-generic benchmark needs `consts = [...]`",
                    ));
                };
                generic_lists.push(match consts {
                    syn::Expr::Array(a) => a
                        .elems
                        .iter()
                        .map(|e| {
                            (
                                quote!(#p::ToStringHelper(&(#e)).to_string()),
                                quote!({ #e }),
                                quote!(::core::option::Option::<usize>::None),
                            )
                        })
                        .collect(),
                    path => (0..MAX_CONSTS)
                        .map(|i| {
                            (
                                quote!(#p::ToStringHelper(&#p::const_at(&#path, #i)).to_string()),
                                quote!({ #p::const_at(&#path, #i) }),
                                quote!(::core::option::Option::Some(#i)),
                            )
                        })
                        .collect(),
                });
            }
        }
    }
    Ok(generic_lists)
}

/// Whether a parameter is divan's `Bencher` (by its type's last segment).
fn is_bencher(arg: &syn::FnArg) -> bool {
    let syn::FnArg::Typed(t) = arg else {
        return false;
    };
    match &*t.ty {
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Bencher"),
        _ => false,
    }
}
