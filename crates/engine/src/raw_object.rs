//! An object of any kind as the API server sent it: its metadata decoded, the rest kept as
//! JSON text. The engine's compact caches (resource templates, members' copies) store objects
//! as text anyway; decoding each watch event into a `DynamicObject` (a tree of maps) only to
//! encode it back into text was 7 % of the plane's CPU at 200 templates/s. Taking it in as
//! text costs a scan of the event and a decode of its metadata.
//!
//! managedFields are cut out of the text on the way in: nothing in the engine reads them, and
//! a cached object is decoded again on every read.

use std::borrow::Cow;
use std::fmt;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use karmadactl_apimachinery::JsonStr;
use kube::Resource;
use kube::api::ApiResource;
use kube::core::DynamicResourceScope;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;

/// An object whose metadata is decoded and whose whole text (without managedFields) is kept.
///
/// The text is what [`Serialize`] writes: a change made through [`Resource::meta_mut`] stays
/// in the decoded metadata and is not written back.
#[derive(Clone)]
pub struct RawObject {
    metadata: ObjectMeta,
    text: Box<RawValue>,
}

impl RawObject {
    /// Takes in the JSON text of one object.
    pub fn from_text(text: &str) -> Result<Self, serde_json::Error> {
        let top: Fields<'_> = serde_json::from_str(text)?;
        let Some(meta) = top.get("metadata") else {
            return Ok(RawObject { metadata: ObjectMeta::default(), text: RawValue::from_string(text.to_string())? });
        };
        let fields: Fields<'_> = serde_json::from_str(meta.get())?;
        if fields.get("managedFields").is_none() {
            let metadata = serde_json::from_str(meta.get())?;
            return Ok(RawObject { metadata, text: RawValue::from_string(text.to_string())? });
        }
        let meta_text = fields.write_without(Some("managedFields"), None);
        let metadata = serde_json::from_str(&meta_text)?;
        let text = top.write_without(None, Some(("metadata", &meta_text)));
        Ok(RawObject { metadata, text: RawValue::from_string(text)? })
    }
}

impl fmt::Debug for RawObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawObject")
            .field("namespace", &self.metadata.namespace)
            .field("name", &self.metadata.name)
            .field("resource_version", &self.metadata.resource_version)
            .finish_non_exhaustive()
    }
}

impl Resource for RawObject {
    type DynamicType = ApiResource;
    type Scope = DynamicResourceScope;

    fn group(dt: &ApiResource) -> Cow<'_, str> {
        dt.group.as_str().into()
    }

    fn version(dt: &ApiResource) -> Cow<'_, str> {
        dt.version.as_str().into()
    }

    fn kind(dt: &ApiResource) -> Cow<'_, str> {
        dt.kind.as_str().into()
    }

    fn api_version(dt: &ApiResource) -> Cow<'_, str> {
        dt.api_version.as_str().into()
    }

    fn plural(dt: &ApiResource) -> Cow<'_, str> {
        dt.plural.as_str().into()
    }

    fn meta(&self) -> &ObjectMeta {
        &self.metadata
    }

    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.metadata
    }
}

impl Serialize for RawObject {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.text.serialize(s)
    }
}

/// The newtype name under which serde_json hands a value over as its text (the protocol of
/// its `RawValue`, whose own decoder refuses anything else).
const SERDE_JSON_TEXT: &str = "$serde_json::private::RawValue";

impl<'de> Deserialize<'de> for RawObject {
    /// From serde_json, the object's text is taken as it is. Where the value was buffered
    /// first (serde does so for a watch event whose `object` comes before its `type`), or from
    /// any other decoder, the value itself arrives: it is decoded and written back as text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(SERDE_JSON_TEXT, TextOrValue)
    }
}

struct TextOrValue;

impl<'de> Visitor<'de> for TextOrValue {
    type Value = RawObject;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    /// serde_json's hand-over: one entry, named [`SERDE_JSON_TEXT`], whose value is the text.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawObject, A::Error> {
        match map.next_key::<JsonStr<'de>>()? {
            Some(JsonStr(name)) if name == SERDE_JSON_TEXT => {
                let JsonStr(text) = map.next_value::<JsonStr<'de>>()?;
                RawObject::from_text(&text).map_err(de::Error::custom)
            }
            _ => Err(de::Error::custom("expected serde_json's text of a value")),
        }
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<RawObject, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        let text = serde_json::to_string(&value).map_err(de::Error::custom)?;
        RawObject::from_text(&text).map_err(de::Error::custom)
    }
}

/// The members of one JSON object in their order, each value left as text.
struct Fields<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'a> Fields<'a> {
    fn get(&self, name: &str) -> Option<&'a RawValue> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
    }

    /// The object written back without the member `skip`, with `replace`'s value in place of
    /// its member's.
    fn write_without(&self, skip: Option<&str>, replace: Option<(&str, &str)>) -> String {
        let mut out = String::with_capacity(self.0.iter().map(|(k, v)| k.len() + v.get().len() + 4).sum::<usize>() + 2);
        out.push('{');
        for (key, value) in &self.0 {
            if skip.is_some_and(|skip| key == skip) {
                continue;
            }
            if out.len() > 1 {
                out.push(',');
            }
            // A key needs escaping only if it held escapes in the text it came from.
            out.push_str(&serde_json::to_string(key.as_ref()).unwrap_or_default());
            out.push(':');
            match replace {
                Some((name, text)) if key == name => out.push_str(text),
                _ => out.push_str(value.get()),
            }
        }
        out.push('}');
        out
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Fields<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Fields<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'a>, A::Error> {
                let mut fields = Vec::new();
                while let Some(JsonStr(key)) = map.next_key::<JsonStr<'a>>()? {
                    fields.push((key, map.next_value::<&'a RawValue>()?));
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::ResourceExt;
    use kube::api::DynamicObject;
    use kube::core::{ObjectList, WatchEvent};
    use serde_json::json;

    fn deployment() -> serde_json::Value {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {
                "name": "web", "namespace": "default", "resourceVersion": "7",
                "labels": {"app": "web"}, "annotations": {"a\"b": "c"},
                "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "apps/v1",
                                   "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}],
            },
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}},
            "status": {"replicas": 2},
        })
    }

    fn without_managed_fields(mut v: serde_json::Value) -> serde_json::Value {
        v["metadata"].as_object_mut().unwrap().remove("managedFields");
        v
    }

    #[test]
    fn keeps_the_text_without_managed_fields_and_decodes_the_metadata() {
        let text = serde_json::to_string(&deployment()).unwrap();
        let raw = RawObject::from_text(&text).unwrap();
        assert_eq!(raw.name_any(), "web");
        assert_eq!(raw.namespace().as_deref(), Some("default"));
        assert_eq!(raw.resource_version().as_deref(), Some("7"));
        assert_eq!(raw.labels().get("app").map(String::as_str), Some("web"));
        assert_eq!(raw.annotations().get("a\"b").map(String::as_str), Some("c"));
        assert!(raw.managed_fields().is_empty());
        let back: serde_json::Value = serde_json::from_str(raw.text.get()).unwrap();
        assert_eq!(back, without_managed_fields(deployment()));
        // Serialising writes the same text; decoding it as a DynamicObject sees the same object.
        assert_eq!(serde_json::to_string(&raw).unwrap(), raw.text.get());
        let dynamic: DynamicObject = serde_json::from_str(raw.text.get()).unwrap();
        assert_eq!(dynamic.data["spec"]["replicas"], 2);
    }

    #[test]
    fn text_without_managed_fields_is_kept_as_it_came() {
        let text = r#"{"kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"v"}}"#;
        assert_eq!(RawObject::from_text(text).unwrap().text.get(), text);
        let bare = r#"{"kind":"ConfigMap"}"#;
        let raw = RawObject::from_text(bare).unwrap();
        assert_eq!((raw.text.get(), raw.meta().name.as_deref()), (bare, None));
        assert!(RawObject::from_text("[1]").is_err());
        assert!(RawObject::from_text(r#"{"metadata": {"name": 3}}"#).is_err());
    }

    #[test]
    fn decodes_from_watch_events_and_lists_as_kube_reads_them() {
        let object = deployment().to_string();
        // kube-apiserver writes `type` first; serde buffers the object when it comes first.
        for event in [
            format!(r#"{{"type":"MODIFIED","object":{object}}}"#),
            format!(r#"{{"object":{object},"type":"MODIFIED"}}"#),
        ] {
            let WatchEvent::Modified(raw) = serde_json::from_str::<WatchEvent<RawObject>>(&event).unwrap() else {
                panic!("not a MODIFIED event");
            };
            let back: serde_json::Value = serde_json::from_str(raw.text.get()).unwrap();
            assert_eq!(back, without_managed_fields(deployment()));
        }
        // From serde_json the text is taken as sent, spaces and all: it was not decoded.
        let spaced = r#"{"type": "ADDED", "object": {"kind": "ConfigMap", "data": {"k": "v"}}}"#;
        let WatchEvent::Added(raw) = serde_json::from_str::<WatchEvent<RawObject>>(spaced).unwrap() else {
            panic!("not an ADDED event");
        };
        assert_eq!(raw.text.get(), r#"{"kind": "ConfigMap", "data": {"k": "v"}}"#);
        let from_value: RawObject = serde_json::from_value(deployment()).unwrap();
        assert_eq!(from_value.name_any(), "web");
        assert!(serde_json::from_str::<RawObject>("[]").is_err());
        let list = json!({"apiVersion": "apps/v1", "kind": "DeploymentList", "metadata": {"resourceVersion": "9"},
                          "items": [deployment(), deployment()]})
        .to_string();
        let list: ObjectList<RawObject> = serde_json::from_str(&list).unwrap();
        assert_eq!(list.metadata.resource_version.as_deref(), Some("9"));
        assert_eq!(list.items.len(), 2);
        assert_eq!(list.items[1].name_any(), "web");
    }
}
