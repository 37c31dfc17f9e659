//! What the code `#[bench]` and `#[bench_group]` generate uses. Outside
//! semver, like divan's `__private`.

use std::borrow::{Borrow, Cow};
use std::fmt::Debug;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::time::Duration;

pub use crate::counter::IntoCounter;
use crate::counter::{AnyCounter, CounterSet};

/// Whether an entry is a benchmark function or a group (a module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// `#[bench]` on a function.
    Bench,
    /// `#[bench_group]` on a module.
    Group,
}

/// One registered benchmark or group; a `static` made by the attributes.
pub struct Entry {
    /// Function or group.
    pub kind: EntryKind,
    /// The display name (`name = ...`, else the item's name).
    pub name: fn() -> &'static str,
    /// The item's own name.
    pub raw_name: &'static str,
    /// `module_path!()` where the entry was generated (inside the module
    /// for a group).
    pub module_path: &'static str,
    /// `file!()`.
    pub file: &'static str,
    /// `line!()`.
    pub line: u32,
    /// `#[ignore]` or `ignore = true`.
    pub ignore: bool,
    /// How many type and const parameters the benchmark has: the first
    /// names of each leaf are theirs. A generic benchmark has a node per
    /// instance and is listed after the plain ones, as divan lists them.
    pub generics: usize,
    /// The attribute's options.
    pub options: fn() -> BenchOptions,
    /// Registers the benchmark's leaves (types × consts × args); `None` for
    /// groups.
    pub register: Option<fn(&mut Registrar)>,
    /// The next entry of the list.
    pub next: Link,
}

/// The link of the list of entries.
pub struct Link(AtomicPtr<Entry>);

impl Link {
    /// An empty link.
    pub const fn new() -> Link {
        Link(AtomicPtr::new(ptr::null_mut()))
    }
}

impl Default for Link {
    fn default() -> Self {
        Link::new()
    }
}

/// The head of the list every entry's constructor pushes onto.
static HEAD: AtomicPtr<Entry> = AtomicPtr::new(ptr::null_mut());

/// Pushes `entry` onto the list; run by the entry's constructor before
/// `main`. A lock-free push, so it needs nothing initialised.
pub fn push(entry: &'static Entry) {
    let this = ptr::from_ref(entry).cast_mut();
    let mut head = HEAD.load(Ordering::Acquire);
    loop {
        entry.next.0.store(head, Ordering::Relaxed);
        match HEAD.compare_exchange_weak(head, this, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return,
            Err(h) => head = h,
        }
    }
}

/// Every registered entry, in no particular order.
pub(crate) fn entries() -> Vec<&'static Entry> {
    let mut out = Vec::new();
    let mut p = HEAD.load(Ordering::Acquire);
    // SAFETY: only `push` writes the list, and it stores pointers made from
    // `&'static Entry`, so every non-null pointer is a valid static entry.
    while let Some(e) = unsafe { p.as_ref() } {
        out.push(e);
        p = e.next.0.load(Ordering::Acquire);
    }
    out
}

/// A leaf benchmark: the names below its function and what runs it.
pub(crate) struct Leaf {
    pub names: Vec<String>,
    pub run: Box<dyn Fn(crate::Bencher<'_, '_>)>,
}

/// Collects the leaves of one benchmark function.
#[derive(Default)]
pub struct Registrar {
    pub(crate) leaves: Vec<Leaf>,
}

impl Registrar {
    /// Adds a leaf under `names` (types, consts, argument).
    pub fn leaf<F>(&mut self, names: Vec<String>, run: F)
    where
        F: Fn(crate::Bencher<'_, '_>) + 'static,
    {
        self.leaves.push(Leaf {
            names,
            run: Box::new(run),
        });
    }
}

/// The options of `#[bench]` and `#[bench_group]` (and of the command
/// line, which overrides them).
#[derive(Clone, Default, Debug)]
pub struct BenchOptions {
    /// Samples to take.
    pub sample_count: Option<u32>,
    /// Iterations per sample.
    pub sample_size: Option<u32>,
    /// Thread counts (0: available parallelism).
    pub threads: Option<Cow<'static, [usize]>>,
    /// Counters of what each iteration processes.
    pub counters: CounterSet,
    /// Least time to spend sampling.
    pub min_time: Option<Duration>,
    /// Most time to spend sampling.
    pub max_time: Option<Duration>,
    /// Count only the benchmarked function's time against min/max time.
    pub skip_ext_time: Option<bool>,
    /// Skip unless `--ignored`.
    pub ignore: Option<bool>,
}

impl BenchOptions {
    /// `self`'s settings, with `other`'s where `self` has none.
    pub(crate) fn over(&self, other: &BenchOptions) -> BenchOptions {
        BenchOptions {
            sample_count: self.sample_count.or(other.sample_count),
            sample_size: self.sample_size.or(other.sample_size),
            threads: self.threads.clone().or_else(|| other.threads.clone()),
            counters: self.counters.over(&other.counters),
            min_time: self.min_time.or(other.min_time),
            max_time: self.max_time.or(other.max_time),
            skip_ext_time: self.skip_ext_time.or(other.skip_ext_time),
            ignore: self.ignore.or(other.ignore),
        }
    }
}

impl CounterSet {
    /// Adds a counter from an attribute's `counters = [...]`.
    pub fn push(&mut self, c: impl IntoCounter) {
        self.set(c.into_counter().into());
    }
}

/// `min_time`/`max_time` values: seconds as integers or floats, or a
/// [`Duration`].
pub trait IntoDuration {
    /// The duration.
    fn into_duration(self) -> Duration;
}

impl IntoDuration for Duration {
    fn into_duration(self) -> Duration {
        self
    }
}

macro_rules! seconds {
    ($($t:ty),*) => {$(
        impl IntoDuration for $t {
            #[allow(clippy::cast_lossless, clippy::cast_sign_loss)]
            fn into_duration(self) -> Duration {
                Duration::from_secs_f64((self as f64).max(0.0))
            }
        }
    )*};
}
seconds!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

/// `threads` values: a count, `true` (available parallelism, 0), `false`
/// (1), or a list of counts. The generic `IMP` keeps the impls for scalars
/// and iterables apart.
pub trait IntoThreads<const IMP: u32> {
    /// The sorted, deduplicated counts.
    fn into_threads(self) -> Cow<'static, [usize]>;
}

impl IntoThreads<0> for usize {
    fn into_threads(self) -> Cow<'static, [usize]> {
        Cow::Owned(vec![self])
    }
}

impl IntoThreads<0> for bool {
    fn into_threads(self) -> Cow<'static, [usize]> {
        Cow::Owned(vec![usize::from(!self)])
    }
}

impl<I> IntoThreads<1> for I
where
    I: IntoIterator,
    I::Item: Borrow<usize>,
{
    fn into_threads(self) -> Cow<'static, [usize]> {
        let mut v: Vec<usize> = self.into_iter().map(|i| *i.borrow()).collect();
        v.sort_unstable();
        v.dedup();
        Cow::Owned(v)
    }
}

/// Turns a stored argument into the benchmark's parameter type: copies of
/// `Copy` values, `&str` from `String`, `&T` from `Cow<T>`.
pub trait Arg<T> {
    /// The parameter.
    fn get(this: Self) -> T;
}

impl<T> Arg<T> for T {
    fn get(this: Self) -> T {
        this
    }
}

impl<'a, T: ?Sized + ToOwned> Arg<&'a T> for &'a Cow<'a, T> {
    fn get(this: Self) -> &'a T {
        this
    }
}

impl<'a> Arg<&'a str> for &'a String {
    fn get(this: Self) -> &'a str {
        this
    }
}

impl<T: Copy> Arg<T> for &T {
    fn get(this: Self) -> T {
        *this
    }
}

impl<T: Copy> Arg<T> for &&T {
    fn get(this: Self) -> T {
        **this
    }
}

/// Collects `args` once for the whole run.
pub fn leak_args<I: IntoIterator>(args: I) -> &'static [I::Item] {
    Vec::leak(args.into_iter().collect())
}

/// Names a value by `Display`, else `Debug` (method resolution prefers the
/// inherent `to_string` when `T: Display`).
pub struct ToStringHelper<'a, T: ?Sized>(pub &'a T);

#[allow(clippy::to_string_trait_impl)]
impl<T: ?Sized + Debug> ToString for ToStringHelper<'_, T> {
    fn to_string(&self) -> String {
        format!("{:?}", self.0)
    }
}

impl<T: ?Sized + std::fmt::Display> ToStringHelper<'_, T> {
    /// The `Display` text.
    #[allow(clippy::inherent_to_string)]
    pub fn to_string(&self) -> String {
        self.0.to_string()
    }
}

/// `T`'s name as divan shows it: the outer type's module path dropped,
/// its generic arguments' kept (`alloc::vec::Vec<alloc::string::String>` is
/// `Vec<alloc::string::String>`), so that both name a benchmark alike.
/// divan also cuts into a tuple or a reference (`&alloc::string::String`
/// shows as `String`); those keep their whole name here.
pub fn type_name<T: ?Sized>() -> String {
    let mut name = std::any::type_name::<T>();
    while let Some((path, rest)) = name.split_once("::") {
        if path.contains(['<', '(', '[', '&', '*', ' ']) {
            break;
        }
        name = rest;
    }
    name.to_owned()
}

/// Element `i` of a constant list (element 0 past the end: those instances
/// are compiled but not registered).
pub const fn const_at<T: Copy>(list: &[T], i: usize) -> T {
    if i < list.len() {
        list[i]
    } else {
        list[0]
    }
}

/// Whether every index of a `consts = PATH` instance is below `len`.
pub fn in_range(indices: &[Option<usize>], len: usize) -> bool {
    indices.iter().flatten().all(|&i| i < len)
}

/// A counter from an attribute as the type-erased value.
impl<C: crate::counter::Counter> From<C> for AnyCounter {
    fn from(c: C) -> AnyCounter {
        c.erase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_lose_their_outer_path_as_divans_do() {
        assert_eq!(type_name::<Vec<i32>>(), "Vec<i32>");
        assert_eq!(
            type_name::<std::collections::HashMap<u64, String>>(),
            "HashMap<u64, alloc::string::String>"
        );
        assert_eq!(type_name::<&str>(), "&str");
        assert_eq!(type_name::<(u8, String)>(), "(u8, alloc::string::String)");
        assert_eq!(type_name::<&String>(), "&alloc::string::String");
    }

    #[test]
    fn thread_lists_are_sorted_and_deduplicated() {
        assert_eq!(
            IntoThreads::into_threads([4usize, 0, 1, 4]).as_ref(),
            &[0, 1, 4]
        );
        assert_eq!(IntoThreads::into_threads(true).as_ref(), &[0]);
        assert_eq!(IntoThreads::into_threads(false).as_ref(), &[1]);
        assert_eq!(IntoThreads::into_threads(3usize).as_ref(), &[3]);
    }

    #[test]
    fn names_use_display_else_debug() {
        assert_eq!(ToStringHelper(&5u8).to_string(), "5");
        assert_eq!(ToStringHelper(&[1, 2]).to_string(), "[1, 2]");
    }

    #[test]
    fn durations_are_seconds() {
        assert_eq!(1.into_duration(), Duration::from_secs(1));
        assert_eq!(0.5.into_duration(), Duration::from_millis(500));
    }
}
