//! A stored object's JSON turned into what a client is served — the URL's `apiVersion` and
//! `kind`, `metadata.resourceVersion` from the store's revision — by splicing bytes instead of
//! decoding and serialising. LIST and WATCH send every object through here, so a 10,000-object
//! list or one event for 1,000 watchers costs a byte scan, not a decode and a serialise each.
//!
//! Stored bytes are written by `object::to_stored_bytes` (serde_json: compact, keys sorted, no
//! `resourceVersion`), so only the top-level members and those of `metadata` are looked at;
//! nested values are copied as they are. The fields set here go where a sorted serialiser
//! would put them, so for stored bytes the result is byte for byte what decoding, setting the
//! fields and serialising again gives. Anything unexpected (an escaped key, a `metadata` that
//! is not an object, bytes after the object, an unterminated string) is [`Unexpected`], and
//! the caller falls back to decoding, which is always right.

use std::io::Write as _;

/// The stored bytes are not laid out as our serialiser writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unexpected;

/// How one resource's objects are served: its type fields, also encoded once per request.
#[derive(Debug, Clone, Eq)]
pub struct ServedType {
    pub api_version: String,
    pub kind: String,
    /// `"v1"`, as a JSON string with its quotes.
    api_version_json: Vec<u8>,
    /// `"ConfigMap"`, as a JSON string with its quotes.
    kind_json: Vec<u8>,
}

/// The encoded forms follow from the names, so only those are compared (each watcher looks up
/// its event line by served type).
impl PartialEq for ServedType {
    fn eq(&self, other: &Self) -> bool {
        self.api_version == other.api_version && self.kind == other.kind
    }
}

/// The top-level members set here, in the (byte) order a sorted serialiser writes them.
const API_VERSION: &[u8] = b"apiVersion";
const KIND: &[u8] = b"kind";
const METADATA: &[u8] = b"metadata";
const RESOURCE_VERSION: &[u8] = b"resourceVersion";

impl ServedType {
    pub fn new(api_version: &str, kind: &str) -> Self {
        ServedType {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            api_version_json: json_string(api_version),
            kind_json: json_string(kind),
        }
    }

    /// Sets the type fields on a decoded object (the path for objects that need decoding).
    pub fn set_on(&self, obj: &mut serde_json::Map<String, serde_json::Value>) {
        obj.insert("apiVersion".into(), serde_json::Value::String(self.api_version.clone()));
        obj.insert("kind".into(), serde_json::Value::String(self.kind.clone()));
    }

    /// Appends the served form of `stored` at `revision` to `out`. On `Err`, `out` holds a
    /// partial object: truncate it to its earlier length.
    pub fn append(&self, out: &mut Vec<u8>, stored: &[u8], revision: i64) -> Result<(), Unexpected> {
        let mut scan = Scanner { b: stored, i: 0 };
        scan.expect(b'{')?;
        out.push(b'{');
        let specials: [&[u8]; 3] = [API_VERSION, KIND, METADATA];
        let mut done = [false; 3];
        let mut metadata_stored = false;
        let mut first = true;
        let mut next_member = scan.first_member()?;
        while let Some(key) = next_member {
            // Set fields that sort before this key go first, so sorted input stays sorted.
            for (s, special) in specials.iter().enumerate() {
                if !done[s] && *special < key {
                    self.special(out, s, None, revision, &mut first)?;
                    done[s] = true;
                }
            }
            match specials.iter().position(|s| *s == key) {
                Some(s) if !done[s] => {
                    let value = scan.value()?;
                    self.special(out, s, Some(value), revision, &mut first)?;
                    done[s] = true;
                    metadata_stored |= specials[s] == METADATA;
                }
                // `metadata` after a key that sorts later: it was written empty already, and
                // dropping the stored one would lose it. Decoding gets such input right.
                Some(s) if specials[s] == METADATA && !metadata_stored => return Err(Unexpected),
                // A second copy of a set field: the served value already stands.
                Some(_) => {
                    scan.value()?;
                }
                None => {
                    let value = scan.value()?;
                    member(out, key, &mut first);
                    out.extend_from_slice(value);
                }
            }
            next_member = scan.next_member()?;
        }
        for (s, was_done) in done.into_iter().enumerate() {
            if !was_done {
                self.special(out, s, None, revision, &mut first)?;
            }
        }
        scan.end()?;
        out.push(b'}');
        Ok(())
    }

    /// Writes `apiVersion`, `kind` or `metadata` (special index `s`); `stored` is the value the
    /// stored object had, if any.
    fn special(
        &self,
        out: &mut Vec<u8>,
        s: usize,
        stored: Option<&[u8]>,
        revision: i64,
        first: &mut bool,
    ) -> Result<(), Unexpected> {
        match s {
            0 => {
                member(out, API_VERSION, first);
                out.extend_from_slice(&self.api_version_json);
            }
            1 => {
                member(out, KIND, first);
                out.extend_from_slice(&self.kind_json);
            }
            _ => {
                member(out, METADATA, first);
                metadata(out, stored.unwrap_or(b"{}"), revision)?;
            }
        }
        Ok(())
    }
}

/// Appends only the served `metadata` of a stored object (`resourceVersion` set to `revision`):
/// what a PartialObjectMetadata carries, without decoding the rest. The whole object is still
/// checked, so an `Err` means the same layouts as for [`ServedType::append`]; `out` then holds
/// a partial value to truncate.
pub fn append_metadata(out: &mut Vec<u8>, stored: &[u8], revision: i64) -> Result<(), Unexpected> {
    let mut scan = Scanner { b: stored, i: 0 };
    scan.expect(b'{')?;
    let mut meta = None;
    let mut next_member = scan.first_member()?;
    while let Some(key) = next_member {
        let value = scan.value()?;
        // As in `append`, a second copy of `metadata` does not replace the first.
        if key == METADATA && meta.is_none() {
            meta = Some(value);
        }
        next_member = scan.next_member()?;
    }
    scan.end()?;
    metadata(out, meta.unwrap_or(b"{}"), revision)
}

/// Copies the `metadata` object with `resourceVersion` set to `revision` in its sorted place.
fn metadata(out: &mut Vec<u8>, stored: &[u8], revision: i64) -> Result<(), Unexpected> {
    let mut scan = Scanner { b: stored, i: 0 };
    scan.expect(b'{')?;
    out.push(b'{');
    let mut first = true;
    let mut done = false;
    let mut next_member = scan.first_member()?;
    while let Some(key) = next_member {
        if !done && RESOURCE_VERSION < key {
            resource_version(out, revision, &mut first);
            done = true;
        }
        let value = scan.value()?;
        if key == RESOURCE_VERSION {
            if !done {
                resource_version(out, revision, &mut first);
                done = true;
            }
        } else {
            member(out, key, &mut first);
            out.extend_from_slice(value);
        }
        next_member = scan.next_member()?;
    }
    if !done {
        resource_version(out, revision, &mut first);
    }
    scan.end()?;
    out.push(b'}');
    Ok(())
}

fn resource_version(out: &mut Vec<u8>, revision: i64, first: &mut bool) {
    member(out, RESOURCE_VERSION, first);
    // Writing into a Vec cannot fail.
    let _ = write!(out, "\"{revision}\"");
}

/// Starts a member: the separating comma, the key and the colon.
fn member(out: &mut Vec<u8>, key: &[u8], first: &mut bool) {
    if !std::mem::take(first) {
        out.push(b',');
    }
    out.push(b'"');
    out.extend_from_slice(key);
    out.extend_from_slice(b"\":");
}

fn json_string(s: &str) -> Vec<u8> {
    // Serialising a str cannot fail.
    serde_json::to_vec(s).unwrap_or_else(|_| b"\"\"".to_vec())
}

/// A top-level scalar that is copied as it is: a literal, or what can only be a number.
fn scalar(b: &[u8]) -> bool {
    match b {
        b"true" | b"false" | b"null" => true,
        [b'-' | b'0'..=b'9', ..] => b.iter().all(|c| matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')),
        _ => false,
    }
}

/// A cursor over JSON text that finds value boundaries without building values.
struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scanner<'a> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.b.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), Unexpected> {
        if self.peek() != Some(c) {
            return Err(Unexpected);
        }
        self.i += 1;
        Ok(())
    }

    /// After `{`: the first member's key, or `None` for `{}`.
    fn first_member(&mut self) -> Result<Option<&'a [u8]>, Unexpected> {
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(None);
        }
        self.key().map(Some)
    }

    /// After a member's value: the next member's key, or `None` at the closing `}`.
    fn next_member(&mut self) -> Result<Option<&'a [u8]>, Unexpected> {
        match self.peek() {
            Some(b',') => {
                self.i += 1;
                self.key().map(Some)
            }
            Some(b'}') => {
                self.i += 1;
                Ok(None)
            }
            _ => Err(Unexpected),
        }
    }

    /// A key and its colon. Escaped keys are left to the decoder: compared raw they could
    /// hide a duplicate of a field set here.
    fn key(&mut self) -> Result<&'a [u8], Unexpected> {
        self.expect(b'"')?;
        let start = self.i;
        let len = self.b[start..].iter().position(|c| *c == b'"' || *c == b'\\').ok_or(Unexpected)?;
        if self.b[start + len] == b'\\' {
            return Err(Unexpected);
        }
        self.i = start + len + 1;
        self.expect(b':')?;
        Ok(&self.b[start..start + len])
    }

    /// One value's bytes (leading whitespace skipped).
    fn value(&mut self) -> Result<&'a [u8], Unexpected> {
        self.skip_ws();
        let start = self.i;
        match self.b.get(self.i) {
            None => return Err(Unexpected),
            Some(b'"') => self.string()?,
            Some(b'{' | b'[') => {
                let mut stack = Vec::new();
                loop {
                    match self.b.get(self.i) {
                        None => return Err(Unexpected),
                        Some(b'"') => self.string()?,
                        Some(c @ (b'{' | b'[')) => {
                            stack.push(if *c == b'{' { b'}' } else { b']' });
                            self.i += 1;
                        }
                        Some(c @ (b'}' | b']')) => {
                            if stack.pop() != Some(*c) {
                                return Err(Unexpected);
                            }
                            self.i += 1;
                            if stack.is_empty() {
                                break;
                            }
                        }
                        Some(_) => self.i += 1,
                    }
                }
            }
            Some(_) => {
                while let Some(c) = self.b.get(self.i) {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                        break;
                    }
                    self.i += 1;
                }
                if !scalar(&self.b[start..self.i]) {
                    return Err(Unexpected);
                }
            }
        }
        Ok(&self.b[start..self.i])
    }

    /// Skips a string starting at its opening quote.
    fn string(&mut self) -> Result<(), Unexpected> {
        self.i += 1;
        loop {
            let rest = self.b.get(self.i..).ok_or(Unexpected)?;
            let at = rest.iter().position(|c| *c == b'"' || *c == b'\\').ok_or(Unexpected)?;
            if rest[at] == b'\\' {
                // The escaped character is skipped with its backslash (`\"` does not end it).
                self.i += at + 2;
            } else {
                self.i += at + 1;
                return Ok(());
            }
        }
    }

    /// Only whitespace may follow the object.
    fn end(&mut self) -> Result<(), Unexpected> {
        if self.peek().is_some() { Err(Unexpected) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::object;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    /// What the decoding path serves: decode, set resourceVersion, apiVersion and kind.
    fn decoded(stored: &[u8], revision: i64, api_version: &str, kind: &str) -> Value {
        let obj: Value = serde_json::from_slice(stored).unwrap();
        let mut obj = object::with_resource_version(obj, revision);
        obj["apiVersion"] = json!(api_version);
        obj["kind"] = json!(kind);
        obj
    }

    fn served(stored: &[u8], revision: i64, api_version: &str, kind: &str) -> Result<Vec<u8>, Unexpected> {
        let mut out = Vec::new();
        ServedType::new(api_version, kind).append(&mut out, stored, revision)?;
        Ok(out)
    }

    #[test]
    fn stored_objects_are_served_as_decoding_would() {
        let cases = [
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "d", "uid": "u"},
                   "data": {"k": "v \" } ] {", "e": ""}}),
            json!({"metadata": {"name": "no-type"}}),
            json!({"apiVersion": "v1", "kind": "ConfigMap"}),
            json!({}),
            json!({"metadata": {}}),
            json!({"metadata": {"annotations": {"x": "y"}, "labels": {"a": "b"}, "uid": "z"}}),
            json!({"a": [1, 2.5, -3e7, true, false, null, [], {}, [{"b": "\\"}]], "zz": {"metadata": {"q": 1}}}),
            json!({"apiVersion": "old/v0", "kind": "Old", "spec": {"kind": "nested", "apiVersion": "nested"}}),
            json!({"metadata": {"name": "unicode \u{e9}\u{1F600}", "labels": {"tab\t": "nl\n"}}}),
        ];
        for case in cases {
            let stored = object::to_stored_bytes(&case);
            let want = decoded(&stored, 42, "apps/v1", "Deployment");
            let got = served(&stored, 42, "apps/v1", "Deployment").unwrap();
            assert_eq!(serde_json::from_slice::<Value>(&got).unwrap(), want, "{case}");
            // Keys stay sorted, so the bytes are the decoding path's bytes exactly.
            assert_eq!(String::from_utf8(got).unwrap(), serde_json::to_string(&want).unwrap());
        }
    }

    #[test]
    fn unsorted_and_spaced_input_is_still_served_right() {
        let stored = br#" { "metadata" : { "resourceVersion" : "1", "name" : "a" } , "kind" : "X", "z" : [ 1 , 2 ] ,
            "apiVersion" : "v0" , "kind" : "Y" } "#;
        let got = served(stored, 7, "v1", "ConfigMap").unwrap();
        let got: Value = serde_json::from_slice(&got).unwrap();
        assert_eq!(
            got,
            json!({"metadata": {"resourceVersion": "7", "name": "a"}, "kind": "ConfigMap", "z": [1, 2], "apiVersion": "v1"})
        );
        // No member is written twice.
        let text = String::from_utf8(served(stored, 7, "v1", "ConfigMap").unwrap()).unwrap();
        assert_eq!(text.matches("\"kind\"").count(), 1, "{text}");
        assert_eq!(text.matches("\"resourceVersion\"").count(), 1, "{text}");
    }

    #[test]
    fn metadata_after_a_later_key_is_left_to_decoding() {
        let stored = br#"{"status": {}, "metadata": {"name": "late"}}"#;
        assert_eq!(served(stored, 3, "v1", "Pod"), Err(Unexpected));
        let mut meta = Vec::new();
        append_metadata(&mut meta, stored, 3).unwrap();
        assert_eq!(meta, br#"{"name":"late","resourceVersion":"3"}"#);
    }

    #[test]
    fn unexpected_layouts_are_refused() {
        for bad in [
            &br#"[1]"#[..],
            br#""s""#,
            br#"{"metadata": "not an object"}"#,
            br#"{"metadata": null}"#,
            br#"{"k\u0069nd": "X"}"#,
            br#"{"a": 1} trailing"#,
            br#"{"a": "unterminated}"#,
            br#"{"a": {"b": [1}]}"#,
            br#"{"a": }"#,
            br#"{"a": tru}"#,
            br#"{"a": nan}"#,
            br#"{"a" 1}"#,
            br#"{"a": 1,}"#,
            br#"{"a": 1"#,
            b"",
        ] {
            assert_eq!(served(bad, 1, "v1", "ConfigMap"), Err(Unexpected), "{}", String::from_utf8_lossy(bad));
            assert_eq!(append_metadata(&mut Vec::new(), bad, 1), Err(Unexpected), "{}", String::from_utf8_lossy(bad));
        }
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            any::<String>().prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
                prop::collection::btree_map(key(), inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Keys that hit the fields set here as well as arbitrary (also escaped) ones.
    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("apiVersion".to_string()),
            Just("kind".to_string()),
            Just("metadata".to_string()),
            Just("resourceVersion".to_string()),
            Just("name".to_string()),
            any::<String>(),
        ]
    }

    proptest! {
        #[test]
        fn spliced_equals_decoded(
            top in prop::collection::btree_map(key(), json_value(), 0..6),
            meta in prop::option::of(prop::collection::btree_map(key(), json_value(), 0..6)),
            revision in 0i64..i64::MAX,
        ) {
            let mut obj: serde_json::Map<String, Value> = top.into_iter().collect();
            match meta {
                Some(m) => { obj.insert("metadata".into(), Value::Object(m.into_iter().collect())); }
                None => { obj.remove("metadata"); }
            }
            let stored = object::to_stored_bytes(&Value::Object(obj));
            let want = decoded(&stored, revision, "example.io/v1", "Thing \"quoted\"");
            match served(&stored, revision, "example.io/v1", "Thing \"quoted\"") {
                Ok(got) => {
                    prop_assert_eq!(serde_json::from_slice::<Value>(&got).unwrap(), want.clone());
                    prop_assert_eq!(String::from_utf8(got).unwrap(), serde_json::to_string(&want).unwrap());
                    // The metadata alone is the decoded object's metadata, byte for byte.
                    let mut meta = Vec::new();
                    prop_assert!(append_metadata(&mut meta, &stored, revision).is_ok());
                    prop_assert_eq!(String::from_utf8(meta).unwrap(), serde_json::to_string(&want["metadata"]).unwrap());
                }
                // Only escaped keys at the levels looked at are refused.
                Err(Unexpected) => prop_assert!(String::from_utf8_lossy(&stored).contains('\\')),
            }
        }
    }
}
