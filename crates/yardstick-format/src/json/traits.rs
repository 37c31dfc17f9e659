//! The two traits, their implementations for the types the files hold, and
//! the macros that give a file type both from one list of its fields.

use std::collections::BTreeMap;

use super::{Error, Json, Number};

/// A type written as JSON.
pub trait ToJson {
    /// The value.
    fn to_json(&self) -> Json;

    /// Whether a field that may be left out should be (`None`, an empty
    /// list); see [`json_object!`](crate::json_object).
    fn is_empty_json(&self) -> bool {
        false
    }
}

/// A type read from JSON.
pub trait FromJson: Sized {
    /// Reads the value.
    ///
    /// # Errors
    ///
    /// `value` is not a `Self`: what was expected, and in which field.
    fn from_json(value: Json) -> Result<Self, Error>;

    /// The value of a field that is absent: `None` for an option, as serde
    /// reads it; `None` here means the field is required.
    fn missing() -> Option<Self> {
        None
    }
}

fn missing_field(key: &str) -> Error {
    Error::new(format!("missing field `{key}`"))
}

fn expected(what: &str, found: &Json) -> Error {
    Error::new(format!("expected {what}, found {}", found.kind()))
}

/// An object's members being read into a struct, one field at a time.
pub struct Fields {
    members: Vec<(String, Json)>,
}

impl Fields {
    /// The members of `value`, which must be an object (`ty` names the type
    /// in the error).
    ///
    /// # Errors
    ///
    /// `value` is not an object.
    pub fn of(value: Json, ty: &str) -> Result<Fields, Error> {
        match value {
            Json::Object(members) => Ok(Fields { members }),
            other => Err(expected(&format!("an object ({ty})"), &other)),
        }
    }

    /// The members not read yet.
    #[must_use]
    pub fn into_members(self) -> Vec<(String, Json)> {
        self.members
    }

    /// Removes member `key`, if there is one.
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        let at = self.members.iter().position(|(k, _)| k == key)?;
        Some(self.members.swap_remove(at).1)
    }

    /// Reads field `key`, which must be there unless `T` is an option.
    ///
    /// # Errors
    ///
    /// The field is missing or not a `T`.
    pub fn take<T: FromJson>(&mut self, key: &str) -> Result<T, Error> {
        // The generic part is kept to the calls: it is compiled once per
        // field type.
        match self.remove(key) {
            Some(v) => match T::from_json(v) {
                Ok(x) => Ok(x),
                Err(e) => Err(e.within(key)),
            },
            None => match T::missing() {
                Some(x) => Ok(x),
                None => Err(missing_field(key)),
            },
        }
    }

    /// Reads field `key`, its type's default when absent.
    ///
    /// # Errors
    ///
    /// The field is there but not a `T`.
    pub fn take_or_default<T: FromJson + Default>(&mut self, key: &str) -> Result<T, Error> {
        match self.remove(key) {
            Some(v) => match T::from_json(v) {
                Ok(x) => Ok(x),
                Err(e) => Err(e.within(key)),
            },
            None => Ok(T::default()),
        }
    }

    /// Appends field `key` to `members`, unless `omit_empty` and the value
    /// is empty.
    pub fn put(members: &mut Vec<(String, Json)>, key: &str, value: &dyn ToJson, omit_empty: bool) {
        if !(omit_empty && value.is_empty_json()) {
            members.push((key.to_owned(), value.to_json()));
        }
    }
}

/// Implements [`ToJson`] and [`FromJson`] (and serde's traits, with the
/// `serde` feature) for a struct with named fields, from the list of its
/// fields in the order they are written. A field is required unless its
/// type is an `Option` (absent reads as `None`, `None` writes `null`);
/// `(default)` reads an absent field as its type's default; `(skip)` also
/// leaves the field out when it is empty (`None`, an empty list).
///
/// ```
/// use yardstick_format::{json, json_object};
///
/// #[derive(Debug, PartialEq)]
/// struct Point { x: f64, label: Option<String>, tags: Vec<String> }
/// json_object!(Point { x, label, tags (skip) });
///
/// let p = Point { x: 1.0, label: None, tags: vec![] };
/// assert_eq!(json::to_string(&p), r#"{"x":1.0,"label":null}"#);
/// assert_eq!(json::from_str::<Point>(r#"{"x":1}"#)?, p);
/// # Ok::<(), json::Error>(())
/// ```
#[macro_export]
macro_rules! json_object {
    ($ty:ident { $($field:ident $(($mode:ident))?),* $(,)? }) => {
        $crate::__json_impls!($ty, |this| {
            let mut members = ::std::vec::Vec::new();
            $($crate::json::Fields::put(
                &mut members,
                stringify!($field),
                &this.$field,
                $crate::json_object!(@omit $($mode)?),
            );)*
            $crate::json::Json::Object(members)
        }, |value| {
            #[allow(unused_mut)]
            let mut fields = $crate::json::Fields::of(value, stringify!($ty))?;
            ::std::result::Result::Ok($ty {
                $($field: $crate::json_object!(@take fields, $field $($mode)?),)*
            })
        });
    };
    (@omit) => { false };
    (@omit default) => { false };
    (@omit skip) => { true };
    (@take $f:ident, $field:ident) => { $f.take(stringify!($field))? };
    (@take $f:ident, $field:ident default) => { $f.take_or_default(stringify!($field))? };
    (@take $f:ident, $field:ident skip) => { $f.take_or_default(stringify!($field))? };
}

/// Implements the traits for an enum whose variants have fields (or none),
/// written as one object tagged by member `$tag` (serde's
/// `#[serde(tag = "...")]`): `Variant "name" { field, ... }`.
#[macro_export]
macro_rules! json_tagged {
    ($ty:ident, $tag:literal, {
        $($variant:ident $name:literal { $($field:ident),* $(,)? }),* $(,)?
    }) => {
        $crate::__json_impls!($ty, |this| {
            let (name, mut members) = match this {
                $($ty::$variant { $($field),* } => {
                    #[allow(unused_mut)]
                    let mut members = ::std::vec::Vec::new();
                    $($crate::json::Fields::put(&mut members, stringify!($field), $field, false);)*
                    ($name, members)
                })*
            };
            members.insert(0, (::std::string::String::from($tag), $crate::json::Json::String(name.into())));
            $crate::json::Json::Object(members)
        }, |value| {
            #[allow(unused_mut)]
            let mut fields = $crate::json::Fields::of(value, stringify!($ty))?;
            let tag: ::std::string::String = fields.take($tag)?;
            match tag.as_str() {
                $($name => ::std::result::Result::Ok($ty::$variant {
                    $($field: fields.take(stringify!($field))?),*
                }),)*
                other => ::std::result::Result::Err($crate::json::Error::new(
                    ::std::format!("unknown {} `{other}`", $tag),
                )),
            }
        });
    };
}

/// Implements the traits for an enum of unit variants, each written as its
/// name in a string (serde's default for such enums).
#[macro_export]
macro_rules! json_names {
    ($ty:ident { $($variant:ident),* $(,)? }) => {
        $crate::__json_impls!($ty, |this| {
            let name = match this { $($ty::$variant => stringify!($variant),)* };
            $crate::json::Json::String(name.into())
        }, |value| {
            let name: ::std::string::String = $crate::json::FromJson::from_json(value)?;
            match name.as_str() {
                $(stringify!($variant) => ::std::result::Result::Ok($ty::$variant),)*
                other => ::std::result::Result::Err($crate::json::Error::new(
                    ::std::format!("unknown variant `{other}`"),
                )),
            }
        });
    };
}

/// The two impls (and serde's, with the feature) around a writer body over
/// `this: &Self` and a reader body over `value: Json`. They are `#[inline]`
/// so that each crate compiles only the types it reads or writes.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_impls {
    ($ty:ident, |$this:ident| $to:block, |$value:ident| $from:block) => {
        impl $crate::json::ToJson for $ty {
            #[inline]
            fn to_json(&self) -> $crate::json::Json {
                let $this = self;
                $to
            }
        }
        impl $crate::json::FromJson for $ty {
            #[inline]
            fn from_json(
                $value: $crate::json::Json,
            ) -> ::std::result::Result<Self, $crate::json::Error> {
                $from
            }
        }
        $crate::__json_serde!($ty);
    };
}

impl ToJson for Json {
    #[inline]
    fn to_json(&self) -> Json {
        self.clone()
    }
}

impl FromJson for Json {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        Ok(value)
    }
}

impl ToJson for bool {
    #[inline]
    fn to_json(&self) -> Json {
        Json::Bool(*self)
    }
}

impl FromJson for bool {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        match value {
            Json::Bool(b) => Ok(b),
            other => Err(expected("a boolean", &other)),
        }
    }
}

impl ToJson for f64 {
    #[inline]
    fn to_json(&self) -> Json {
        Json::Number(Number::Float(*self))
    }
}

impl FromJson for f64 {
    /// Any number; `null` is NaN, as the writer writes a NaN or an infinity.
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        match value {
            Json::Number(n) => Ok(n.as_f64()),
            Json::Null => Ok(f64::NAN),
            other => Err(expected("a number", &other)),
        }
    }
}

/// Integers, each read exactly or refused.
macro_rules! integers {
    ($($t:ty),*) => {$(
        impl ToJson for $t {
            #[inline]
            fn to_json(&self) -> Json {
                match u64::try_from(*self) {
                    Ok(n) => Json::Number(Number::Unsigned(n)),
                    // Negative, so it fits an i64.
                    Err(_) => Json::Number(Number::Signed(i64::try_from(*self).unwrap_or(i64::MIN))),
                }
            }
        }
        impl FromJson for $t {
            #[inline]
            fn from_json(value: Json) -> Result<Self, Error> {
                let n = match &value {
                    Json::Number(Number::Unsigned(n)) => <$t>::try_from(*n).ok(),
                    Json::Number(Number::Signed(n)) => <$t>::try_from(*n).ok(),
                    _ => None,
                };
                n.ok_or_else(|| expected(concat!("an integer (", stringify!($t), ")"), &value))
            }
        }
    )*};
}

integers!(u32, u64, usize, i32, i64);

impl ToJson for str {
    #[inline]
    fn to_json(&self) -> Json {
        Json::String(self.to_owned())
    }
}

impl ToJson for String {
    #[inline]
    fn to_json(&self) -> Json {
        Json::String(self.clone())
    }
}

impl FromJson for String {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        match value {
            Json::String(s) => Ok(s),
            other => Err(expected("a string", &other)),
        }
    }
}

impl<T: ToJson> ToJson for Option<T> {
    #[inline]
    fn to_json(&self) -> Json {
        self.as_ref().map_or(Json::Null, ToJson::to_json)
    }

    fn is_empty_json(&self) -> bool {
        self.is_none()
    }
}

impl<T: FromJson> FromJson for Option<T> {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        match value {
            Json::Null => Ok(None),
            v => T::from_json(v).map(Some),
        }
    }

    fn missing() -> Option<Self> {
        Some(None)
    }
}

impl<T: ToJson> ToJson for [T] {
    #[inline]
    fn to_json(&self) -> Json {
        let mut items = Vec::with_capacity(self.len());
        for x in self {
            items.push(x.to_json());
        }
        Json::Array(items)
    }

    fn is_empty_json(&self) -> bool {
        self.is_empty()
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    #[inline]
    fn to_json(&self) -> Json {
        self.as_slice().to_json()
    }

    fn is_empty_json(&self) -> bool {
        self.is_empty()
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        let Json::Array(items) = value else {
            return Err(expected("an array", &value));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, v) in items.into_iter().enumerate() {
            match T::from_json(v) {
                Ok(x) => out.push(x),
                Err(e) => return Err(e.within(&format!("[{i}]"))),
            }
        }
        Ok(out)
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    #[inline]
    fn to_json(&self) -> Json {
        self.as_slice().to_json()
    }
}

impl<T: FromJson, const N: usize> FromJson for [T; N] {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        let items = Vec::<T>::from_json(value)?;
        let len = items.len();
        items
            .try_into()
            .map_err(|_| Error::new(format!("expected an array of {N}, found {len} items")))
    }
}

impl<T: ToJson> ToJson for BTreeMap<String, T> {
    #[inline]
    fn to_json(&self) -> Json {
        Json::Object(self.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    #[inline]
    fn from_json(value: Json) -> Result<Self, Error> {
        match value {
            Json::Object(members) => members
                .into_iter()
                .map(|(k, v)| T::from_json(v).map_err(|e| e.within(&k)).map(|v| (k, v)))
                .collect(),
            other => Err(expected("an object", &other)),
        }
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    #[inline]
    fn to_json(&self) -> Json {
        (**self).to_json()
    }

    fn is_empty_json(&self) -> bool {
        (**self).is_empty_json()
    }
}
