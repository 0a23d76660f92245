//! Tables and PartialObjectMetadataLists of stored objects (LIST), written straight to JSON
//! bytes. A row's `object` is spliced from the stored bytes (the whole served object, or only its
//! `metadata`) instead of being decoded into a value tree, copied and serialised again, and the
//! printers read a decoding that leaves out `metadata.managedFields`, which is most of a typical
//! object's nodes and which no built-in printer looks at. The bytes are those of serialising
//! the value-built documents of the parent module: keys in the same (sorted) order, the same
//! values.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

use karmadactl_apimachinery::ApiError;
use karmadactl_store::KeyValue;

use super::printers::Convertor;
use super::{IncludeObject, MetaVersion, TableBuilder, partial_object};
use crate::handlers::served_json::{self, ServedType};
use crate::{storage::object, storage::store_access};

impl TableBuilder {
    /// The Table of `items` (served as `served`) with the list's `metadata`, as JSON bytes.
    pub fn list_bytes(&self, items: &[KeyValue], served: &ServedType, metadata: &Value) -> Result<Vec<u8>, ApiError> {
        let stored: usize = items.iter().map(|kv| kv.value.len()).sum();
        let mut out = Vec::with_capacity(match self.options.include {
            IncludeObject::None => items.len() * 128,
            // Cells and the wrapper add about 200 bytes to what is spliced.
            _ => stored + items.len() * 256,
        });
        out.extend_from_slice(b"{\"apiVersion\":");
        write_json(&mut out, self.options.version.api_version())?;
        out.extend_from_slice(b",\"columnDefinitions\":");
        write_json(&mut out, &self.convertor.columns())?;
        out.extend_from_slice(b",\"kind\":\"Table\",\"metadata\":");
        write_json(&mut out, metadata)?;
        out.extend_from_slice(b",\"rows\":[");
        for (i, kv) in items.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            self.write_row(&mut out, kv, served)?;
        }
        out.extend_from_slice(b"]}");
        Ok(out)
    }

    /// One row: `cells`, `conditions` when the printer sets them, and `object`.
    fn write_row(&self, out: &mut Vec<u8>, kv: &KeyValue, served: &ServedType) -> Result<(), ApiError> {
        let printed = self.convertor.row(&self.printable(kv, served)?, self.now);
        out.extend_from_slice(b"{\"cells\":");
        write_json(out, &printed.cells)?;
        if let Some(conditions) = &printed.conditions {
            out.extend_from_slice(b",\"conditions\":");
            write_json(out, conditions)?;
        }
        out.extend_from_slice(b",\"object\":");
        match self.options.include {
            IncludeObject::None => out.extend_from_slice(b"null"),
            IncludeObject::Metadata => write_partial(out, kv, self.options.version)?,
            IncludeObject::Object => store_access::append_served(out, kv, served)?,
        }
        out.push(b'}');
        Ok(())
    }

    /// The object as its printer reads it: served type and resourceVersion set. Custom columns
    /// are JSONPaths that may point anywhere, so those get the whole object.
    fn printable(&self, kv: &KeyValue, served: &ServedType) -> Result<Value, ApiError> {
        let lean = match self.convertor {
            Convertor::Custom(_) => None,
            Convertor::Printer(_) | Convertor::Default => without_managed_fields(&kv.value),
        };
        let mut obj = match lean {
            Some(obj) => object::with_resource_version(obj, kv.mod_revision),
            None => store_access::decode(kv)?,
        };
        if let Value::Object(map) = &mut obj {
            served.set_on(map);
        }
        Ok(obj)
    }
}

/// The PartialObjectMetadataList of `items` with the list's `metadata`, as JSON bytes.
pub fn partial_list_bytes(items: &[KeyValue], metadata: &Value, version: MetaVersion) -> Result<Vec<u8>, ApiError> {
    let stored: usize = items.iter().map(|kv| kv.value.len()).sum();
    let mut out = Vec::with_capacity(stored / 2 + items.len() * 128);
    out.extend_from_slice(b"{\"apiVersion\":");
    write_json(&mut out, version.api_version())?;
    out.extend_from_slice(b",\"items\":[");
    for (i, kv) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_partial(&mut out, kv, version)?;
    }
    out.extend_from_slice(b"],\"kind\":\"PartialObjectMetadataList\",\"metadata\":");
    write_json(&mut out, metadata)?;
    out.push(b'}');
    Ok(out)
}

/// A stored object's PartialObjectMetadata: its metadata spliced, or decoded when the bytes are
/// not laid out as the store writes them.
fn write_partial(out: &mut Vec<u8>, kv: &KeyValue, version: MetaVersion) -> Result<(), ApiError> {
    let mark = out.len();
    out.extend_from_slice(b"{\"apiVersion\":");
    write_json(out, version.api_version())?;
    out.extend_from_slice(b",\"kind\":\"PartialObjectMetadata\",\"metadata\":");
    if served_json::append_metadata(out, &kv.value, kv.mod_revision).is_ok() {
        out.push(b'}');
        return Ok(());
    }
    out.truncate(mark);
    write_json(out, &partial_object(&store_access::decode(kv)?, version))
}

fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), ApiError> {
    serde_json::to_writer(out, value).map_err(|e| ApiError::internal(&format!("serialising a table: {e}")))
}

/// The stored object decoded without `metadata.managedFields`; `None` when it is not an object
/// with an object `metadata` (the full decoding then says what is wrong).
fn without_managed_fields(stored: &[u8]) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_slice(stored);
    let obj = de.deserialize_map(TopLevel).ok()?;
    de.end().ok()?;
    Some(Value::Object(obj))
}

/// The top level of an object: every member as a value, `metadata` through [`MetadataSeed`].
struct TopLevel;

impl<'de> Visitor<'de> for TopLevel {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value =
                if key == "metadata" { Value::Object(map.next_value_seed(MetadataSeed)?) } else { map.next_value()? };
            // A later duplicate wins, as when decoding into a value.
            obj.insert(key, value);
        }
        Ok(obj)
    }
}

/// `metadata` without `managedFields`, which is skipped without being built.
struct MetadataSeed;

impl<'de> DeserializeSeed<'de> for MetadataSeed {
    type Value = Map<String, Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for MetadataSeed {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut meta = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == "managedFields" {
                map.next_value::<IgnoredAny>()?;
            } else {
                meta.insert(key, map.next_value()?);
            }
        }
        Ok(meta)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{TableOptions, partial_list};
    use super::*;
    use crate::registry::Registry;

    fn managed_fields() -> Value {
        json!([{"apiVersion": "v1", "fieldsType": "FieldsV1", "manager": "kubectl", "operation": "Update",
                "time": "2024-05-01T11:00:00Z",
                "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}, "f:spec": {"f:containers": {}}}}])
    }

    fn pod(name: &str, phase: &str) -> Value {
        json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"),
                "creationTimestamp": "2024-05-01T11:00:00Z",
                "labels": {"app": "web", "pod-template-hash": "abc"},
                "annotations": {"note": "a \"quoted\" value"},
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-abc",
                    "uid": "rs-uid", "controller": true, "blockOwnerDeletion": true}],
                "managedFields": managed_fields()},
            "spec": {"containers": [{"name": "nginx", "image": "nginx"}], "nodeName": "node-1"},
            "status": {"phase": phase, "podIP": "10.0.0.7",
                "conditions": [{"type": "Ready", "status": "True"}],
                "containerStatuses": [{"name": "nginx", "ready": true, "restartCount": 2,
                    "state": {"running": {"startedAt": "2024-05-01T11:00:05Z"}}}]}})
    }

    fn deployment(name: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": "default", "generation": 3,
                "creationTimestamp": "2024-05-01T10:00:00Z", "labels": {"app": name},
                "annotations": {"deployment.kubernetes.io/revision": "2"}, "managedFields": managed_fields()},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": name}},
                "template": {"spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}},
            "status": {"replicas": 3, "readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2}})
    }

    fn stored(objects: &[Value]) -> Vec<KeyValue> {
        objects
            .iter()
            .enumerate()
            .map(|(i, o)| KeyValue {
                key: format!("/k/{i}"),
                value: object::to_stored_bytes(o),
                create_revision: 5,
                mod_revision: 10 + i as i64,
            })
            .collect()
    }

    /// What LIST served before it wrote from stored bytes: each object decoded and typed.
    fn decoded(items: &[KeyValue], served: &ServedType) -> Vec<Value> {
        items
            .iter()
            .map(|kv| {
                let mut obj = store_access::decode(kv).unwrap();
                served.set_on(obj.as_object_mut().unwrap());
                obj
            })
            .collect()
    }

    const MODES: [IncludeObject; 3] = [IncludeObject::None, IncludeObject::Metadata, IncludeObject::Object];

    /// The bytes written from storage are the serialised value-built table, for every mode.
    fn assert_same_tables(resource: (&str, &str, &str), api_version: &str, kind: &str, items: &[KeyValue]) {
        let def = Registry::builtin().lookup(resource.0, resource.1, resource.2).unwrap();
        let served = ServedType::new(api_version, kind);
        let metadata = json!({"resourceVersion": "42", "continue": "next"});
        for version in [MetaVersion::V1, MetaVersion::V1beta1] {
            for include in MODES {
                let builder = TableBuilder::new(&def, TableOptions { version, include });
                let bytes = builder.list_bytes(items, &served, &metadata).unwrap();
                let want = builder.table(&decoded(items, &served), metadata.clone(), true);
                assert_eq!(
                    String::from_utf8(bytes).unwrap(),
                    serde_json::to_string(&want).unwrap(),
                    "{kind} {version:?} {include:?}"
                );
            }
        }
    }

    #[test]
    fn pod_tables_from_storage_equal_the_value_built_ones() {
        let items = stored(&[pod("a", "Running"), pod("b", "Succeeded"), pod("c", "Failed")]);
        assert_same_tables(("", "v1", "pods"), "v1", "Pod", &items);
    }

    #[test]
    fn deployment_tables_from_storage_equal_the_value_built_ones() {
        let items = stored(&[deployment("web"), deployment("api")]);
        assert_same_tables(("apps", "v1", "deployments"), "apps/v1", "Deployment", &items);
    }

    #[test]
    fn rows_carry_what_each_include_mode_asks_for() {
        let def = Registry::builtin().lookup("", "v1", "pods").unwrap();
        let served = ServedType::new("v1", "Pod");
        let items = stored(&[pod("a", "Running")]);
        let table = |include| -> Value {
            let b = TableBuilder::new(&def, TableOptions { version: MetaVersion::V1, include });
            serde_json::from_slice(&b.list_bytes(&items, &served, &json!({"resourceVersion": "42"})).unwrap()).unwrap()
        };
        let meta = table(IncludeObject::Metadata);
        let row = &meta["rows"][0];
        assert_eq!(row["cells"].as_array().unwrap()[..4], [json!("a"), json!("1/1"), json!("Running"), json!("2")]);
        let object = &row["object"];
        assert_eq!(object["kind"], "PartialObjectMetadata");
        assert_eq!(object["apiVersion"], "meta.k8s.io/v1");
        assert_eq!(object["metadata"]["labels"], json!({"app": "web", "pod-template-hash": "abc"}));
        assert_eq!(object["metadata"]["annotations"], json!({"note": "a \"quoted\" value"}));
        assert_eq!(object["metadata"]["ownerReferences"][0]["name"], "web-abc");
        // kube-apiserver's PartialObjectMetadata is the whole ObjectMeta, managedFields included.
        assert_eq!(object["metadata"]["managedFields"], managed_fields());
        assert_eq!(object["metadata"]["resourceVersion"], "10");
        assert!(object.get("spec").is_none() && object.get("status").is_none());

        let whole = table(IncludeObject::Object);
        let object = &whole["rows"][0]["object"];
        assert_eq!((&object["kind"], &object["apiVersion"]), (&json!("Pod"), &json!("v1")));
        assert_eq!(object["metadata"]["managedFields"], managed_fields());
        assert_eq!(object["metadata"]["resourceVersion"], "10");
        assert_eq!(object["spec"]["nodeName"], "node-1");
        assert_eq!(whole["rows"][0]["cells"], meta["rows"][0]["cells"]);

        let none = table(IncludeObject::None);
        assert_eq!(none["rows"][0]["object"], Value::Null);
        assert_eq!(none["rows"][0]["cells"], meta["rows"][0]["cells"]);
    }

    #[test]
    fn objects_not_laid_out_as_stored_are_decoded_instead() {
        // Unsorted keys with spaces and an escaped key: the splicer refuses these.
        let odd = br#" { "status": {"phase": "Running"}, "metadata" : { "name": "odd", "l\u0061bels": {"x": "y"},
            "managedFields": [{"manager": "m"}] }, "kind": "Pod" } "#;
        let items =
            vec![KeyValue { key: "/k/odd".into(), value: odd.to_vec().into(), create_revision: 1, mod_revision: 3 }];
        assert_same_tables(("", "v1", "pods"), "v1", "Pod", &items);
        let want = partial_list(&decoded(&items, &ServedType::new("v1", "Pod")), json!({}), MetaVersion::V1);
        assert_eq!(
            String::from_utf8(partial_list_bytes(&items, &json!({}), MetaVersion::V1).unwrap()).unwrap(),
            serde_json::to_string(&want).unwrap()
        );
    }

    #[test]
    fn partial_lists_from_storage_equal_the_value_built_ones() {
        let items = stored(&[pod("a", "Running"), deployment("web")]);
        let served = ServedType::new("v1", "Pod");
        let metadata = json!({"resourceVersion": "42", "remainingItemCount": 3});
        for version in [MetaVersion::V1, MetaVersion::V1beta1] {
            let want = partial_list(&decoded(&items, &served), metadata.clone(), version);
            let got = partial_list_bytes(&items, &metadata, version).unwrap();
            assert_eq!(String::from_utf8(got).unwrap(), serde_json::to_string(&want).unwrap());
        }
        let empty = partial_list_bytes(&[], &json!({"resourceVersion": "1"}), MetaVersion::V1).unwrap();
        let empty: Value = serde_json::from_slice(&empty).unwrap();
        assert_eq!(empty["items"], json!([]));
        assert_eq!(empty["kind"], "PartialObjectMetadataList");
    }

    #[test]
    fn printers_read_everything_but_managed_fields() {
        let p = pod("a", "Running");
        let lean = without_managed_fields(&object::to_stored_bytes(&p)).unwrap();
        let mut want = p.clone();
        want["metadata"].as_object_mut().unwrap().remove("managedFields");
        assert_eq!(lean, want);
        // Anything but an object with an object metadata is left to the full decoding.
        assert_eq!(without_managed_fields(br#"{"metadata": "x"}"#), None);
        assert_eq!(without_managed_fields(b"[1]"), None);
        assert_eq!(without_managed_fields(br#"{"a": 1} 2"#), None);
        assert_eq!(without_managed_fields(br#"{"a": 1}"#), Some(json!({"a": 1})));
    }
}
