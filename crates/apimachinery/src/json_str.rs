//! A string read from JSON text, borrowed from the text unless it held escapes: for walks over
//! request bodies and watch events that look at member names and values without keeping them.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Visitor};

/// A JSON string, borrowed from the input where serde_json can lend it.
pub struct JsonStr<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for JsonStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(StrVisitor(std::marker::PhantomData))
    }
}

struct StrVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for StrVisitor<'a> {
    type Value = JsonStr<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<JsonStr<'a>, E> {
        Ok(JsonStr(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<JsonStr<'a>, E> {
        Ok(JsonStr(Cow::Owned(v.to_string())))
    }

    fn visit_string<E>(self, v: String) -> Result<JsonStr<'a>, E> {
        Ok(JsonStr(Cow::Owned(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borrows_plain_strings_and_owns_unescaped_ones() {
        let plain: JsonStr<'_> = serde_json::from_str(r#""name""#).unwrap();
        assert!(matches!(plain.0, Cow::Borrowed("name")));
        let escaped: JsonStr<'_> = serde_json::from_str(r#""a\"b""#).unwrap();
        assert!(matches!(escaped.0, Cow::Owned(ref s) if s == "a\"b"));
        let value = serde_json::json!("v");
        let owned = JsonStr::deserialize(&value).unwrap();
        assert_eq!(owned.0, "v");
    }
}
