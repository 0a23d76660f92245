//! Server-side `meta.k8s.io` Table and PartialObjectMetadata responses, as kube-apiserver's
//! `transformResponseObject` builds them for GET, LIST and WATCH: the client picks the form in
//! its Accept header ([`negotiate`]), each kind prints its rows ([`printers`]), and this module
//! assembles the JSON documents.

mod negotiate;
pub mod printers;
mod stored;

use jiff::Timestamp;
use karmadactl_apimachinery::{ApiError, StatusReason};
use serde_json::{Map, Value};

use crate::registry::ResourceDef;

pub use negotiate::{IncludeObject, MetaVersion, Output, TableOptions, negotiate};
use printers::Convertor;
pub use stored::partial_list_bytes;

/// Builds the tables of one resource: its convertor and the time AGE cells count to.
pub struct TableBuilder {
    convertor: Convertor,
    options: TableOptions,
    now: Timestamp,
}

impl TableBuilder {
    pub fn new(def: &ResourceDef, options: TableOptions) -> Self {
        Self { convertor: Convertor::for_resource(def), options, now: Timestamp::now() }
    }

    /// Counts AGE cells to the current time from now on (for long watches).
    pub fn restamp(&mut self) {
        self.now = Timestamp::now();
    }

    /// A Table of `objects` with `metadata` (a ListMeta: resourceVersion, continue,
    /// remainingItemCount). `headers` is false for watch events after the first, which carry
    /// rows only, as kube-apiserver sends them and kubectl expects. LIST writes the same
    /// document from stored bytes with [`TableBuilder::list_bytes`].
    pub fn table(&self, objects: &[Value], metadata: Value, headers: bool) -> Value {
        let rows: Vec<Value> = objects.iter().map(|obj| self.row(obj)).collect();
        let columns = if headers { self.convertor.columns() } else { Value::Array(Vec::new()) };
        // Built as maps rather than with `json!`, which would copy each value it is given.
        let mut table = Map::new();
        table.insert("kind".into(), "Table".into());
        table.insert("apiVersion".into(), self.options.version.api_version().into());
        table.insert("metadata".into(), metadata);
        table.insert("columnDefinitions".into(), columns);
        table.insert("rows".into(), Value::Array(rows));
        Value::Object(table)
    }

    /// A one-row Table for a single object (GET, or one watch event), carrying its version.
    pub fn single(&self, obj: &Value, headers: bool) -> Value {
        let mut metadata = Map::new();
        if let Some(rv) = obj.pointer("/metadata/resourceVersion") {
            metadata.insert("resourceVersion".into(), rv.clone());
        }
        self.table(std::slice::from_ref(obj), Value::Object(metadata), headers)
    }

    fn row(&self, obj: &Value) -> Value {
        let printed = self.convertor.row(obj, self.now);
        let mut row = Map::new();
        row.insert("cells".into(), Value::Array(printed.cells));
        if let Some(conditions) = printed.conditions {
            row.insert("conditions".into(), conditions);
        }
        let object = match self.options.include {
            IncludeObject::None => Value::Null,
            IncludeObject::Metadata => partial_object(obj, self.options.version),
            IncludeObject::Object => obj.clone(),
        };
        row.insert("object".into(), object);
        Value::Object(row)
    }
}

/// The object's metadata as a PartialObjectMetadata.
pub fn partial_object(obj: &Value, version: MetaVersion) -> Value {
    let mut partial = Map::new();
    partial.insert("kind".into(), "PartialObjectMetadata".into());
    partial.insert("apiVersion".into(), version.api_version().into());
    partial.insert("metadata".into(), obj.get("metadata").cloned().unwrap_or_else(|| Value::Object(Map::new())));
    Value::Object(partial)
}

/// A PartialObjectMetadataList of `objects` with the list's `metadata`: the tests' oracle for
/// what LIST writes from stored bytes with [`partial_list_bytes`].
#[cfg(test)]
pub(crate) fn partial_list(objects: &[Value], metadata: Value, version: MetaVersion) -> Value {
    let items: Vec<Value> = objects.iter().map(|o| partial_object(o, version)).collect();
    let mut list = Map::new();
    list.insert("kind".into(), "PartialObjectMetadataList".into());
    list.insert("apiVersion".into(), version.api_version().into());
    list.insert("metadata".into(), metadata);
    list.insert("items".into(), Value::Array(items));
    Value::Object(list)
}

/// 406 for PartialObjectMetadata asked of a list, as kube-apiserver answers.
pub fn partial_of_list() -> ApiError {
    ApiError::new(
        406,
        StatusReason::NotAcceptable,
        "you requested PartialObjectMetadata, but the requested object is a list",
    )
}

/// 406 for PartialObjectMetadataList asked of one object.
pub fn partial_list_of_object() -> ApiError {
    ApiError::new(
        406,
        StatusReason::NotAcceptable,
        "you requested PartialObjectMetadataList, but the requested object is not a list",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;
    use serde_json::json;

    fn options(include: IncludeObject) -> TableOptions {
        TableOptions { version: MetaVersion::V1, include }
    }

    fn cm(name: &str) -> Value {
        json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "namespace": "default", "resourceVersion": "7", "labels": {"a": "b"}},
            "data": {"k": "v"}})
    }

    #[test]
    fn tables_have_columns_rows_and_list_metadata() {
        let def = Registry::builtin().lookup("", "v1", "configmaps").unwrap();
        let b = TableBuilder::new(&def, options(IncludeObject::Metadata));
        let t = b.table(&[cm("a"), cm("b")], json!({"resourceVersion": "9", "continue": "x"}), true);
        assert_eq!(t["kind"], "Table");
        assert_eq!(t["apiVersion"], "meta.k8s.io/v1");
        assert_eq!(t["metadata"], json!({"resourceVersion": "9", "continue": "x"}));
        let names: Vec<&str> =
            t["columnDefinitions"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["Name", "Data", "Age"]);
        assert_eq!(t["rows"][1]["cells"][0], "b");
        assert_eq!(t["rows"][1]["cells"][1], 1);
        assert_eq!(t["rows"][0]["object"]["kind"], "PartialObjectMetadata");
        assert_eq!(t["rows"][0]["object"]["apiVersion"], "meta.k8s.io/v1");
        assert_eq!(t["rows"][0]["object"]["metadata"]["labels"], json!({"a": "b"}));
        assert!(t["rows"][0]["object"].get("data").is_none());
    }

    #[test]
    fn include_object_and_headers() {
        let def = Registry::builtin().lookup("", "v1", "configmaps").unwrap();
        let whole = TableBuilder::new(&def, options(IncludeObject::Object)).single(&cm("a"), false);
        assert_eq!(whole["rows"][0]["object"], cm("a"));
        assert_eq!(whole["columnDefinitions"], json!([]));
        assert_eq!(whole["metadata"], json!({"resourceVersion": "7"}));
        let none =
            TableBuilder::new(&def, TableOptions { version: MetaVersion::V1beta1, include: IncludeObject::None })
                .single(&cm("a"), true);
        assert_eq!(none["rows"][0]["object"], Value::Null);
        assert_eq!(none["apiVersion"], "meta.k8s.io/v1beta1");
    }

    #[test]
    fn partial_metadata() {
        let list = partial_list(&[cm("a")], json!({"resourceVersion": "3"}), MetaVersion::V1);
        assert_eq!(list["kind"], "PartialObjectMetadataList");
        assert_eq!(list["items"][0]["kind"], "PartialObjectMetadata");
        assert_eq!(list["items"][0]["metadata"]["name"], "a");
        assert_eq!(list["metadata"]["resourceVersion"], "3");
        assert_eq!(partial_of_list().code, 406);
    }
}
