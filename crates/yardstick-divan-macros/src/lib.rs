#![doc = include_str!("../README.md")]

use proc_macro::{Span, TokenStream, TokenTree};

mod item;
mod options;
mod tokens;

use item::{Function, Generic, Item};
use options::{Options, Target};
use tokens::{braced, comma_list, error, fill, ident, single, string, usize_suffixed};

/// `#[bench]`: registers a function as a benchmark. See `yardstick_divan::bench`.
#[proc_macro_attribute]
pub fn bench(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = Item::new(item);
    let mut out: TokenStream = item.without_ignore().into_iter().collect();
    out.extend(bench_entry(attr, &item).unwrap_or_else(|e| e));
    out
}

/// `#[bench_group]`: sets options for the benchmarks of a module. See
/// `yardstick_divan::bench_group`.
#[proc_macro_attribute]
pub fn bench_group(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = Item::new(item);
    group(attr, &item).unwrap_or_else(|e| {
        // The module stays, so that its contents are still checked.
        let mut out: TokenStream = item.without_ignore().into_iter().collect();
        out.extend(e);
        out
    })
}

fn group(attr: TokenStream, item: &Item) -> Result<TokenStream, TokenStream> {
    let options = Options::parse(attr, Target::Group)?;
    let name = item.module_with(TokenStream::new())?.0;
    let entry = entry_tokens(
        &options,
        &raw_name(&name),
        item.has("ignore"),
        None,
        "Group",
        0,
    );
    Ok(item.module_with(entry)?.1)
}

/// The entry of the benchmark function (which is emitted unchanged before
/// it), or the errors.
fn bench_entry(attr: TokenStream, item: &Item) -> Result<TokenStream, TokenStream> {
    // The function first, as divan reads it: which options apply depends
    // on its signature.
    let func = item.function()?;
    let options = Options::parse(attr, Target::Bench(&func))?;
    let register = register_fn(&options, &func)?;
    // `#[cfg]`s written after `#[bench]` reach the macro: the entry must
    // disappear with the function.
    let mut out = item.attributes("cfg");
    out.extend(entry_tokens(
        &options,
        &raw_name(&func.name),
        item.has("ignore"),
        Some(register),
        "Bench",
        func.generics
            .iter()
            .filter(|g| !matches!(g, Generic::Lifetime))
            .count(),
    ));
    Ok(out)
}

/// A name as written, without `r#`.
fn raw_name(name: &proc_macro::Ident) -> String {
    let raw = name.to_string();
    raw.strip_prefix("r#").unwrap_or(&raw).to_owned()
}

/// The platforms whose constructor sections the entries use.
const ELF: &str = r#"target_os = "android", target_os = "dragonfly", target_os = "freebsd",
    target_os = "fuchsia", target_os = "haiku", target_os = "illumos",
    target_os = "linux", target_os = "netbsd", target_os = "openbsd""#;
const MACH_O: &str =
    r#"target_os = "ios", target_os = "macos", target_os = "tvos", target_os = "watchos""#;

/// `const _: () = { static ENTRY; constructor };` — holes: `$0` the hidden
/// module's path, `$1` the name, `$2` the options' body, `$3` the register
/// function, `$4` the kind, `$5` the raw name, `$6` ignore, `$7` the
/// register value, `$8` how many type and const parameters it has.
const ENTRY: &str = r#"
    #[cfg(not(any(windows, ELF, MACH_O)))]
    ::core::compile_error!("yardstick-divan registers benchmarks before main through the platform's constructor section, which this target lacks");
    const _: () = {
        fn __divan_name() -> &'static str { $1 }
        fn __divan_options() -> $0::BenchOptions { $2 }
        $3
        static __DIVAN_ENTRY: $0::Entry = $0::Entry {
            kind: $0::EntryKind::$4,
            name: __divan_name,
            raw_name: $5,
            module_path: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
            ignore: $6,
            generics: $8,
            options: __divan_options,
            register: $7,
            next: $0::Link::new(),
        };
        #[used]
        #[cfg_attr(windows, link_section = ".CRT$XCU")]
        #[cfg_attr(any(ELF), link_section = ".init_array")]
        #[cfg_attr(any(MACH_O), link_section = "__DATA,__mod_init_func,mod_init_funcs")]
        static __DIVAN_PUSH: extern "C" fn() = {
            extern "C" fn __divan_push() {
                $0::push(&__DIVAN_ENTRY);
            }
            __divan_push
        };
    };
"#;

fn entry_tokens(
    options: &Options,
    raw: &str,
    attr_ignore: bool,
    register: Option<TokenStream>,
    kind: &str,
    generics: usize,
) -> TokenStream {
    let p = options.private();
    let name = options.name.clone().unwrap_or_else(|| string(raw));
    let (register_item, register_value) = match register {
        Some(body) => (
            fill(
                "fn __divan_register(__r: &mut $0::Registrar) { $1 }",
                &[p.clone(), body],
                Span::call_site(),
            ),
            fill(
                "::core::option::Option::Some(__divan_register)",
                &[],
                Span::call_site(),
            ),
        ),
        None => (
            TokenStream::new(),
            fill("::core::option::Option::None", &[], Span::call_site()),
        ),
    };
    let template = ENTRY.replace("ELF", ELF).replace("MACH_O", MACH_O);
    fill(
        &template,
        &[
            p,
            name,
            options.options_fn(),
            register_item,
            ident(kind),
            string(raw),
            options.ignore(attr_ignore),
            register_value,
            usize_suffixed(generics),
        ],
        Span::call_site(),
    )
}

/// How many values of a `consts = PATH` option are supported: the path's
/// length is unknown to the macro, so this many instances are compiled and
/// those past the end are not registered.
const MAX_CONSTS: usize = 16;

/// One way to instantiate a generic parameter: the name it shows, the
/// generic argument, and its index in a `consts = PATH` list.
#[derive(Clone)]
struct Instance {
    name: TokenStream,
    value: TokenStream,
    index: TokenStream,
}

/// The body of the entry's `register` function: one leaf per combination
/// of type, constant and argument.
fn register_fn(options: &Options, func: &Function) -> Result<TokenStream, TokenStream> {
    let (has_bencher, n_args) = check_arguments(options, func)?;
    let lists = generic_lists(options, func)?;
    let consts_len = match &options.consts {
        Some(path) if path.elements.is_none() => {
            fill("$0.len()", &[path.operand()], Span::call_site())
        }
        _ => fill("usize::MAX", &[], Span::call_site()),
    };
    // Every combination of the generic parameters.
    let mut combos: Vec<Vec<&Instance>> = vec![Vec::new()];
    for list in &lists {
        combos = combos
            .iter()
            .flat_map(|c| {
                list.iter()
                    .map(move |item| [c.clone(), vec![item]].concat())
            })
            .collect();
    }
    let mut leaves = TokenStream::new();
    for combo in combos {
        let names = comma_list(combo.iter().map(|c| c.name.clone()));
        let indices = comma_list(combo.iter().map(|c| c.index.clone()));
        let values = comma_list(combo.iter().map(|c| c.value.clone()));
        let push = leaf(options, func, &names, values, has_bencher, n_args);
        leaves.extend(fill(
            "if $0::in_range(&[$1], $2) { $3 }",
            &[options.private(), indices, consts_len.clone(), push],
            Span::call_site(),
        ));
    }
    Ok(leaves)
}

/// The registration of one combination of generic arguments: one leaf, or
/// one per value of `args`.
fn leaf(
    options: &Options,
    func: &Function,
    names: &TokenStream,
    values: TokenStream,
    has_bencher: bool,
    n_args: usize,
) -> TokenStream {
    let (krate, p) = (options.krate(), options.private());
    let site = Span::call_site();
    let mut call_path: TokenStream = TokenTree::Ident(func.name.clone()).into();
    if !values.is_empty() {
        call_path.extend(fill("::<$0>", &[values], site));
    }
    let call = match (has_bencher, n_args) {
        (true, 0) => "$0(__b)",
        // An `extern "C" fn` is no Rust closure: call it from one.
        (false, 0) if func.extern_abi => "__b.bench(|| $0())",
        (false, 0) => "__b.bench($0)",
        (true, _) => "$0(__b, $1::Arg::get(__a))",
        (false, _) => "__b.bench(move || $0($1::Arg::get(__a)))",
    };
    let call = fill(call, &[call_path, p.clone()], site);
    if n_args == 0 {
        return fill(
            "__r.leaf(::std::vec![$0], move |__b: $1::Bencher<'_, '_>| { $2; });",
            &[names.clone(), krate, call],
            site,
        );
    }
    let args = options.args.clone().expect("checked by check_arguments");
    fill(
        "for __a in $0::leak_args($1) {
            let mut __names: ::std::vec::Vec<::std::string::String> = ::std::vec![$2];
            __names.push($0::ToStringHelper(__a).to_string());
            __r.leaf(__names, move |__b: $3::Bencher<'_, '_>| { $4; });
        }",
        &[p, args, names.clone(), krate, call],
        site,
    )
}

/// Whether the benchmark takes a `Bencher`, and how many arguments it takes
/// besides; an error where the options and the signature disagree.
fn check_arguments(options: &Options, func: &Function) -> Result<(bool, usize), TokenStream> {
    let has_bencher = func.takes_bencher();
    let n_args = func.inputs.len() - usize::from(has_bencher);
    // `args` without an argument is the options' error (divan's).
    let message = match (n_args, options.args.is_some()) {
        (2.., _) => "a benchmark takes at most a Bencher and one argument",
        (1, false) => "this benchmark takes an argument: give its values with `args = [...]`",
        _ => return Ok((has_bencher, n_args)),
    };
    Err(error(func.inputs_span, message))
}

/// One list per generic parameter, in order: the instances it is
/// compiled with.
fn generic_lists(options: &Options, func: &Function) -> Result<Vec<Vec<Instance>>, TokenStream> {
    let p = options.private();
    let site = Span::call_site();
    let none = fill("::core::option::Option::<usize>::None", &[], site);
    let mut lists = Vec::new();
    for param in &func.generics {
        match param {
            Generic::Lifetime => {}
            Generic::Type(span) => {
                let Some(types) = &options.types else {
                    return Err(error(*span, "a generic benchmark needs `types = [...]`"));
                };
                lists.push(
                    types
                        .iter()
                        .map(|ty| Instance {
                            name: fill("$0::type_name::<$1>()", &[p.clone(), ty.clone()], site),
                            value: ty.clone(),
                            index: none.clone(),
                        })
                        .collect(),
                );
            }
            Generic::Const(span) => {
                let Some(consts) = &options.consts else {
                    return Err(error(
                        *span,
                        "a const-generic benchmark needs `consts = [...]`",
                    ));
                };
                lists.push(match &consts.elements {
                    Some(elements) => elements
                        .iter()
                        .map(|e| Instance {
                            name: fill(
                                "$0::ToStringHelper(&($1)).to_string()",
                                &[p.clone(), e.clone()],
                                site,
                            ),
                            value: const_arg(e),
                            index: none.clone(),
                        })
                        .collect(),
                    None => (0..MAX_CONSTS)
                        .map(|i| {
                            let at = fill(
                                "$0::const_at(&$1, $2)",
                                &[p.clone(), consts.operand(), usize_suffixed(i)],
                                site,
                            );
                            Instance {
                                name: fill(
                                    "$0::ToStringHelper(&$1).to_string()",
                                    &[p.clone(), at.clone()],
                                    site,
                                ),
                                value: braced(at),
                                index: fill(
                                    "::core::option::Option::Some($0)",
                                    &[usize_suffixed(i)],
                                    site,
                                ),
                            }
                        })
                        .collect(),
                });
            }
        }
    }
    Ok(lists)
}

/// A constant as a generic argument: braced, unless the user's braces are
/// already there (`{ 2 + 3 }`), where a second pair is what rustc's
/// `unused_braces` lint warns about.
fn const_arg(e: &TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = e.clone().into_iter().collect();
    match single(&tokens) {
        Some(TokenTree::Group(g)) if g.delimiter() == proc_macro::Delimiter::Brace => e.clone(),
        _ => braced(e.clone()),
    }
}
