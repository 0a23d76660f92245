//! Reading one resource type from one server: a server-side Table for the human formats (as
//! kubectl asks for it), or the objects themselves for `-o json|yaml|name`.

use serde_json::Value;

use super::discovery::Resource;
use super::table::ServerTable;

/// kubectl's Accept header for `get`: a v1 Table, else v1beta1, else plain JSON.
pub const TABLE_ACCEPT: &str =
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

/// What to read.
pub struct Query<'a> {
    pub resource: &'a Resource,
    pub names: &'a [String],
    /// `None`: every namespace (`-A`) or a cluster-scoped resource.
    pub namespace: Option<&'a str>,
    pub label_selector: Option<&'a str>,
    pub ignore_not_found: bool,
}

/// What came back.
#[derive(Debug, Default)]
pub struct Fetched {
    /// Server-side Tables (one per request).
    pub tables: Vec<ServerTable>,
    /// Objects with `kind` and `apiVersion` set.
    pub objects: Vec<Value>,
}

/// Reads the objects or tables `q` asks for; the error is the server's message.
pub async fn fetch(client: &kube::Client, q: &Query<'_>, table: bool) -> Result<Fetched, String> {
    let mut out = Fetched::default();
    let collection = collection_path(q.resource, q.namespace);
    let mut paths = Vec::new();
    if q.names.is_empty() {
        let mut query = form_urlencoded::Serializer::new(String::new());
        if let Some(l) = q.label_selector.filter(|l| !l.is_empty()) {
            query.append_pair("labelSelector", l);
        }
        let query = query.finish();
        paths.push(if query.is_empty() { collection.clone() } else { format!("{collection}?{query}") });
    } else {
        for name in q.names {
            let encoded: String = form_urlencoded::byte_serialize(name.as_bytes()).collect();
            paths.push(format!("{collection}/{}", encoded.replace('+', "%20")));
        }
    }
    for path in paths {
        let mut req = http::Request::get(&path);
        if table {
            req = req.header(http::header::ACCEPT, TABLE_ACCEPT);
        }
        let req = req.body(Vec::new()).map_err(|e| e.to_string())?;
        let text = match client.request_text(req).await {
            Ok(t) => t,
            Err(kube::Error::Api(s)) if s.code == 404 && q.ignore_not_found && !q.names.is_empty() => continue,
            Err(kube::Error::Api(s)) => return Err(s.message),
            Err(e) => return Err(crate::error::with_causes(&e)),
        };
        // A Table is read as one (its rows' objects are mostly skipped); a server that
        // answered with the objects instead is read as those.
        if table
            && let Ok(t) = serde_json::from_str::<ServerTable>(&text)
            && t.kind.as_deref() == Some("Table")
        {
            out.tables.push(t);
            continue;
        }
        let value: Value =
            serde_json::from_str(&text).map_err(|e| format!("the server's response is not JSON: {e}"))?;
        if let Some(items) = value.get("items").and_then(Value::as_array) {
            out.objects.extend(items.iter().map(|i| with_type(i.clone(), q.resource)));
        } else {
            out.objects.push(with_type(value, q.resource));
        }
    }
    Ok(out)
}

/// List items come without `kind` and `apiVersion`; kubectl fills them in.
fn with_type(mut object: Value, r: &Resource) -> Value {
    if let Some(m) = object.as_object_mut() {
        let api_version = if r.group.is_empty() { r.version.clone() } else { format!("{}/{}", r.group, r.version) };
        m.entry("apiVersion").or_insert(Value::String(api_version));
        m.entry("kind").or_insert(Value::String(r.kind.clone()));
    }
    object
}

/// `.../namespaces/<ns>/<plural>` or `.../<plural>`.
pub fn collection_path(r: &Resource, namespace: Option<&str>) -> String {
    match namespace.filter(|_| r.namespaced) {
        Some(ns) => format!("{}/namespaces/{ns}/{}", r.base_path(), r.plural),
        None => format!("{}/{}", r.base_path(), r.plural),
    }
}
