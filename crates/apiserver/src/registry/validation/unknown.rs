//! Unknown and duplicate field detection for `fieldValidation=Strict|Warn`.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::{self, Write as _};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use karmadactl_apimachinery::JsonStr;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::field::{child, index};
use crate::registry::builtin;
use crate::registry::resources::ResourceDef;

/// Paths of fields the resource's schema does not know (`spec.foo`,
/// `spec.template.spec.containers[0].imagee`), in object-key order.
///
/// Built-ins: anything that disappears after a round trip through the k8s-openapi type.
/// Custom resources: what pruning would remove. Objects that do not decode report nothing here;
/// the type error is reported by validation instead.
pub fn unknown_fields(def: &ResourceDef, obj: &Value) -> Vec<String> {
    if let Some(result) = builtin::roundtrip(&def.group, &def.version, &def.kind, obj) {
        let mut out = Vec::new();
        if let Ok(back) = result {
            diff_unknown(obj, &back, "", &mut out);
        }
        return out;
    }
    match &def.validator {
        Some(v) => v.prune(&mut obj.clone()),
        None => Vec::new(),
    }
}

/// Removes the fields [`unknown_fields`] reports and returns their paths, as kube drops them
/// when decoding (`fieldValidation=Ignore|Warn`).
pub fn prune_unknown(def: &ResourceDef, obj: &mut Value) -> Vec<String> {
    match builtin::roundtrip(&def.group, &def.version, &def.kind, obj) {
        Some(Ok(back)) => prune_decoded(obj, &back),
        Some(Err(_)) => Vec::new(),
        None => def.validator.as_ref().map(|v| v.prune(obj)).unwrap_or_default(),
    }
}

/// Removes from `obj` what its round trip `decoded` (from [`builtin::roundtrip`]) lost, and
/// returns their paths: [`prune_unknown`] for a caller that already has the round trip.
pub(crate) fn prune_decoded(obj: &mut Value, decoded: &Value) -> Vec<String> {
    let mut out = Vec::new();
    prune_against(obj, decoded, &mut String::new(), &mut out);
    out
}

/// Collects paths present (and not null) in `input` but missing from `output`.
pub(crate) fn diff_unknown(input: &Value, output: &Value, path: &str, out: &mut Vec<String>) {
    match (input, output) {
        (Value::Object(i), Value::Object(o)) => {
            for (k, v) in i {
                let p = child(path, k);
                match o.get(k) {
                    // A null means "unset", which every field accepts.
                    None if v.is_null() => {}
                    None => out.push(p),
                    Some(ov) => diff_unknown(v, ov, &p, out),
                }
            }
        }
        (Value::Array(i), Value::Array(o)) => {
            for (n, (iv, ov)) in i.iter().zip(o).enumerate() {
                diff_unknown(iv, ov, &index(path, n), out);
            }
        }
        _ => {}
    }
}

/// Removes from `input` what is missing from `output` (as [`diff_unknown`] reports it).
/// `path` is where `input` sits; it is grown and cut back in place, since nearly every field
/// visited is known and needs no path of its own.
fn prune_against(input: &mut Value, output: &Value, path: &mut String, out: &mut Vec<String>) {
    match (input, output) {
        (Value::Object(i), Value::Object(o)) => {
            i.retain(|k, v| {
                let mark = path.len();
                if mark > 0 {
                    path.push('.');
                }
                path.push_str(k);
                let keep = match o.get(k) {
                    None if v.is_null() => true,
                    None => {
                        out.push(path.clone());
                        false
                    }
                    Some(ov) => {
                        prune_against(v, ov, path, out);
                        true
                    }
                };
                path.truncate(mark);
                keep
            });
        }
        (Value::Array(i), Value::Array(o)) => {
            for (n, (iv, ov)) in i.iter_mut().zip(o).enumerate() {
                let mark = path.len();
                // Writing to a String cannot fail.
                let _ = write!(path, "[{n}]");
                prune_against(iv, ov, path, out);
                path.truncate(mark);
            }
        }
        _ => {}
    }
}

/// Removes unknown fields from an object's `metadata` found at `path`, recording their paths.
/// Metadata that does not decode is left alone for validation to report.
pub(crate) fn prune_metadata(meta: &mut Value, path: &str, out: &mut Vec<String>) {
    // Nearly every write's metadata has only ObjectMeta's own fields; the typed round trip
    // below (managedFields and all) would find nothing to prune, at the cost of copying it.
    if only_known_metadata(meta) {
        return;
    }
    if let Ok(typed) = serde_json::from_value::<ObjectMeta>(meta.clone())
        && let Ok(back) = serde_json::to_value(&typed)
    {
        prune_against(meta, &back, &mut path.to_string(), out);
    }
}

/// ObjectMeta's fields (as k8s-openapi's type has them), and those of the two kinds of list
/// items in it.
const METADATA_FIELDS: &[&str] = &[
    "annotations",
    "creationTimestamp",
    "deletionGracePeriodSeconds",
    "deletionTimestamp",
    "finalizers",
    "generateName",
    "generation",
    "labels",
    "managedFields",
    "name",
    "namespace",
    "ownerReferences",
    "resourceVersion",
    "selfLink",
    "uid",
];
const OWNER_REFERENCE_FIELDS: &[&str] = &["apiVersion", "blockOwnerDeletion", "controller", "kind", "name", "uid"];
const MANAGED_FIELDS_ENTRY_FIELDS: &[&str] =
    &["apiVersion", "fieldsType", "fieldsV1", "manager", "operation", "subresource", "time"];

/// Whether `meta` holds no field ObjectMeta lacks, so that pruning it would remove nothing.
/// Anything unusual (a null list item, a list that is not one) answers false, leaving the
/// decision to the typed round trip.
fn only_known_metadata(meta: &Value) -> bool {
    let Value::Object(fields) = meta else { return false };
    let items_known = |v: &Value, known: &[&str]| match v {
        Value::Array(items) => {
            items.iter().all(|item| matches!(item, Value::Object(o) if o.keys().all(|k| known.contains(&k.as_str()))))
        }
        Value::Null => true,
        _ => false,
    };
    fields.iter().all(|(k, v)| match k.as_str() {
        "ownerReferences" => items_known(v, OWNER_REFERENCE_FIELDS),
        "managedFields" => items_known(v, MANAGED_FIELDS_ENTRY_FIELDS),
        other => METADATA_FIELDS.contains(&other),
    })
}

/// Paths of keys that appear more than once in the same JSON object of a raw body
/// (`spec.replicas`). Malformed JSON yields what was found before the error.
///
/// Every create and update body is walked, and repeats are rare: keys are borrowed from the
/// body where they need no unescaping, and a path is rendered only for a repeat.
pub fn duplicate_fields(raw: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(raw);
    let mut at = Vec::new();
    // A syntax error is the decoder's to report; whatever was found so far is still right.
    let _ = Walker { at: &mut at, found: &mut found }.deserialize(&mut de);
    found
}

/// One step from the body's root to a value.
enum Segment<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

fn render(at: &[Segment<'_>]) -> String {
    at.iter().fold(String::new(), |path, seg| match seg {
        Segment::Key(k) => child(&path, k),
        Segment::Index(n) => index(&path, *n),
    })
}

/// Maps with more keys than this remember them in a hash set rather than a list.
const FEW_KEYS: usize = 16;

/// Walks any JSON value, keeping the way to it and recording repeated keys.
struct Walker<'a, 'de> {
    at: &'a mut Vec<Segment<'de>>,
    found: &'a mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for Walker<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walker<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut few: Vec<Cow<'de, str>> = Vec::new();
        let mut many: HashSet<Cow<'de, str>> = HashSet::new();
        while let Some(JsonStr(key)) = map.next_key::<JsonStr<'de>>()? {
            let repeated = if many.is_empty() && few.len() < FEW_KEYS {
                let seen = few.contains(&key);
                if !seen {
                    few.push(key.clone());
                }
                seen
            } else {
                many.extend(few.drain(..));
                !many.insert(key.clone())
            };
            self.at.push(Segment::Key(key));
            if repeated {
                let p = render(self.at);
                if !self.found.contains(&p) {
                    self.found.push(p);
                }
            }
            let walked = map.next_value_seed(Walker { at: &mut *self.at, found: &mut *self.found });
            self.at.pop();
            walked?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut n = 0;
        loop {
            self.at.push(Segment::Index(n));
            let walked = seq.next_element_seed(Walker { at: &mut *self.at, found: &mut *self.found });
            self.at.pop();
            if walked?.is_none() {
                return Ok(());
            }
            n += 1;
        }
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;
    use serde_json::json;

    #[test]
    fn finds_unknown_builtin_fields() {
        let reg = Registry::builtin();
        let def = reg.lookup("apps", "v1", "deployments").unwrap();
        let obj = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "x", "labels": {"a": "b"}, "bogus": 1},
            "spec": {"foo": 1, "replicas": 1, "paused": null, "selector": {"matchLabels": {"a": "b"}},
                "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [
                    {"name": "c", "image": "i", "imagee": "typo", "resources": {"limits": {"cpu": "1"}},
                     "ports": [{"containerPort": 80}]}]}}},
            "status": {}});
        assert_eq!(
            unknown_fields(&def, &obj),
            ["metadata.bogus", "spec.foo", "spec.template.spec.containers[0].imagee"]
        );
    }

    #[test]
    fn valid_fields_of_many_kinds_are_known() {
        let reg = Registry::builtin();
        let secret = reg.lookup("", "v1", "secrets").unwrap();
        let obj = json!({"metadata": {"name": "s", "annotations": {}}, "type": "Opaque",
            "data": {"a": "YQ=="}, "stringData": {"b": "c"}, "immutable": true});
        assert!(unknown_fields(&secret, &obj).is_empty());
        let svc = reg.lookup("", "v1", "services").unwrap();
        let obj = json!({"spec": {"ports": [{"port": 80, "targetPort": "http"}], "selector": {"a": "b"}}});
        assert!(unknown_fields(&svc, &obj).is_empty());
    }

    #[test]
    fn prunes_builtin_unknowns() {
        let reg = Registry::builtin();
        let def = reg.lookup("", "v1", "configmaps").unwrap();
        let mut obj = json!({"metadata": {"name": "c"}, "data": {"a": "b"}, "dta": {"x": "y"}});
        assert_eq!(prune_unknown(&def, &mut obj), ["dta"]);
        assert_eq!(obj, json!({"metadata": {"name": "c"}, "data": {"a": "b"}}));
    }

    #[test]
    fn finds_duplicates() {
        let raw = br#"{"spec": {"replicas": 1, "replicas": 2, "list": [{"a": 1, "a": 2}]}, "kind": "x"}"#;
        assert_eq!(duplicate_fields(raw), ["spec.replicas", "spec.list[0].a"]);
        assert!(duplicate_fields(br#"{"a": {"b": 1}, "b": {"b": 2}}"#).is_empty());
        assert!(duplicate_fields(b"not json").is_empty());
    }

    #[test]
    fn finds_duplicates_spelled_with_escapes_and_in_large_maps() {
        assert_eq!(duplicate_fields(br#"{"data": {"a": "1", "\u0061": "2"}}"#), ["data.a"]);
        let mut wide: String = (0..40).map(|i| format!("\"k{i}\": {i}, ")).collect();
        wide.push_str(r#""k3": 0, "k39": [1, {"x": 1, "x": 2}]"#);
        let raw = format!(r#"{{"data": {{{wide}}}}}"#);
        assert_eq!(duplicate_fields(raw.as_bytes()), ["data.k3", "data.k39", "data.k39[1].x"]);
    }

    #[test]
    fn metadata_unknowns_are_pruned() {
        let mut meta = json!({"name": "a", "nme": "b", "labels": null, "ownerReferences": [{"name": "o", "x": 1}]});
        let mut out = Vec::new();
        prune_metadata(&mut meta, "metadata", &mut out);
        assert_eq!(out, ["metadata.nme", "metadata.ownerReferences[0].x"]);
        assert_eq!(meta, json!({"name": "a", "labels": null, "ownerReferences": [{"name": "o"}]}));
    }

    #[test]
    fn metadata_with_only_known_fields_is_left_as_the_typed_round_trip_leaves_it() {
        let samples = [
            json!({"name": "a", "namespace": "n", "uid": "u", "resourceVersion": "1", "generation": 2,
                "creationTimestamp": "2026-01-01T00:00:00Z", "labels": {"k": "v"}, "annotations": {},
                "finalizers": ["f"], "ownerReferences": [{"apiVersion": "v1", "kind": "K", "name": "o", "uid": "x",
                    "controller": true, "blockOwnerDeletion": true}],
                "managedFields": [{"manager": "m", "operation": "Update", "apiVersion": "v1",
                    "time": "2026-01-01T00:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {".": {}}}}]}),
            json!({"name": "a", "labels": null, "managedFields": null}),
            json!({"name": "a", "managedFields": [{"manager": "m", "extra": 1}]}),
            json!({"name": "a", "ownerReferences": [null]}),
        ];
        assert!(only_known_metadata(&samples[0]) && only_known_metadata(&samples[1]));
        assert!(!only_known_metadata(&samples[2]) && !only_known_metadata(&samples[3]));
        for sample in samples {
            let mut fast = sample.clone();
            let mut out = Vec::new();
            prune_metadata(&mut fast, "metadata", &mut out);
            let mut slow = sample.clone();
            let mut slow_out = Vec::new();
            if let Ok(typed) = serde_json::from_value::<ObjectMeta>(sample.clone()) {
                prune_against(&mut slow, &serde_json::to_value(&typed).unwrap(), &mut "metadata".into(), &mut slow_out);
            }
            assert_eq!((fast, out), (slow, slow_out));
        }
    }
}
