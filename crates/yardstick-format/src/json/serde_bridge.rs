//! With the `serde` feature: [`Json`] as a serde value, and the macro that
//! gives each file type serde's traits through it, so that tools built on
//! serde read and write the types with the same field lists.

use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Json, Number};

impl Serialize for Json {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(Number::Unsigned(n)) => s.serialize_u64(*n),
            Json::Number(Number::Signed(n)) => s.serialize_i64(*n),
            Json::Number(Number::Float(x)) => s.serialize_f64(*x),
            Json::String(text) => s.serialize_str(text),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                items.iter().try_for_each(|v| seq.serialize_element(v))?;
                seq.end()
            }
            Json::Object(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                members
                    .iter()
                    .try_for_each(|(k, v)| map.serialize_entry(k, v))?;
                map.end()
            }
        }
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        Json::deserialize(d)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(Number::Unsigned(n)))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(match u64::try_from(n) {
            Ok(n) => Number::Unsigned(n),
            Err(_) => Number::Signed(n),
        }))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Json, E> {
        Ok(Json::Number(Number::Float(x)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some(entry) = map.next_entry()? {
            members.push(entry);
        }
        Ok(Json::Object(members))
    }
}

impl<'de> Deserialize<'de> for Json {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

/// Reads a `T` from a serde value of `d`, through [`Json`].
#[doc(hidden)]
pub fn deserialize<'de, T: super::FromJson, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    T::from_json(Json::deserialize(d)?).map_err(de::Error::custom)
}

/// serde's traits for a type that has [`ToJson`](super::ToJson) and
/// [`FromJson`](super::FromJson).
#[doc(hidden)]
#[macro_export]
macro_rules! __json_serde {
    ($ty:ident) => {
        impl $crate::serde::Serialize for $ty {
            #[inline]
            fn serialize<S: $crate::serde::Serializer>(
                &self,
                s: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                $crate::serde::Serialize::serialize(&$crate::json::ToJson::to_json(self), s)
            }
        }
        impl<'de> $crate::serde::Deserialize<'de> for $ty {
            #[inline]
            fn deserialize<D: $crate::serde::Deserializer<'de>>(
                d: D,
            ) -> ::std::result::Result<Self, D::Error> {
                $crate::json::serde_deserialize(d)
            }
        }
    };
}
