//! The macros behind the builders' methods that only store what they are
//! given: iai-callgrind's API has dozens of them, and each written out
//! would be the same five lines again.

/// Builder methods that hand their arguments to the method of the same
/// name of the configuration in the field named first:
/// iai-callgrind gives `Run` and `Options` the configuration's setters.
macro_rules! forward_to_config {
    ($field:tt; $($(#[doc = $doc:expr])* fn $name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        $(#[doc = $doc])*
        pub fn $name(&mut self, $($arg: $ty),*) -> &mut Self {
            self.$field.$name($($arg),*);
            self
        }
    )*};
}

/// A builder's two methods that add one item, or several, to the list in
/// field `$field` (iai-callgrind's `arg`/`args`, `tool`/`tools`).
macro_rules! list_setters {
    ($field:ident: $item:ty;
     $(#[doc = $one_doc:expr])* fn $one:ident;
     $(#[doc = $many_doc:expr])* fn $many:ident;) => {
        $(#[doc = $one_doc])*
        pub fn $one(&mut self, item: impl Into<$item>) -> &mut Self {
            self.$field.push(item.into());
            self
        }

        $(#[doc = $many_doc])*
        pub fn $many<I, T>(&mut self, items: I) -> &mut Self
        where
            I: IntoIterator<Item = T>,
            T: Into<$item>,
        {
            self.$field.extend(items.into_iter().map(Into::into));
            self
        }
    };
}

/// The builders return `&mut Self` (iai-callgrind's API), so a chain ends in
/// a reference; every place taking a configuration takes `impl Into<..>`,
/// and these conversions copy the value out of it.
macro_rules! from_refs {
    ($($t:ty),*) => {$(
        impl From<&mut $t> for $t {
            fn from(v: &mut $t) -> $t {
                v.clone()
            }
        }
        impl From<&$t> for $t {
            fn from(v: &$t) -> $t {
                v.clone()
            }
        }
    )*};
}
