//! OpenAPI v3 (`/openapi/v3` and `/openapi/v3/<api|apis/group>/<version>`). kubectl apply and
//! create refuse to run without it, and send `fieldValidation=Strict` once every PATCH
//! operation of a kind lists that parameter; `kubectl explain` (every version from 1.27) reads
//! the schemas, which are kube's full ones for built-in kinds. Also a minimal v2 for kubectl
//! 1.27/1.28.

mod cache;
mod params;
mod patch_meta;
mod paths;
mod schemas;
mod typed;
mod v2;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::catalog::Registry;
use super::resources::ResourceDef;

pub use schemas::schema_name;
pub use typed::BuiltinSchemas;
#[cfg(feature = "schema")]
pub use typed::generate as generate_builtin_schemas;
#[cfg(test)]
pub(crate) use typed::kind_name as builtin_kind_schema_name;
pub use v2::{OPENAPI_V2_PROTOBUF_CONTENT_TYPE, openapi_v2_protobuf};

/// `info.version` of every document.
const INFO_VERSION: &str = "v1.33.0";

/// The document key of a group-version: `api/v1` or `apis/<group>/<version>`.
pub fn group_version_key(group: &str, version: &str) -> String {
    if group.is_empty() { format!("api/{version}") } else { format!("apis/{group}/{version}") }
}

fn parse_key(key: &str) -> Option<(String, String)> {
    let key = key.trim_matches('/');
    if let Some(version) = key.strip_prefix("api/") {
        return (!version.contains('/')).then(|| (String::new(), version.to_string()));
    }
    let rest = key.strip_prefix("apis/")?;
    let (group, version) = rest.split_once('/')?;
    (!group.is_empty() && !version.is_empty() && !version.contains('/'))
        .then(|| (group.to_string(), version.to_string()))
}

/// One served v3 document.
pub struct Document {
    pub json: Value,
    /// `json` serialised, as served.
    pub bytes: Vec<u8>,
    /// Content hash (upper-case hex sha256 of `bytes`), used in `?hash=` and as ETag.
    pub hash: String,
}

impl Document {
    fn new(json: Value) -> Self {
        let bytes = serde_json::to_vec(&json).unwrap_or_default();
        let hash = Sha256::digest(&bytes).iter().map(|b| format!("{b:02X}")).collect();
        Self { json, bytes, hash }
    }
}

/// `GET /openapi/v3`: one entry per served group-version, each URL carrying its document's hash
/// so clients re-fetch exactly the documents that changed.
pub fn openapi_v3_index(reg: &Registry) -> Value {
    let mut entries = Map::new();
    for (group, version) in reg.group_versions() {
        let key = group_version_key(&group, &version);
        if let Some(doc) = openapi_v3_document(reg, &key) {
            let url = format!("/openapi/v3/{key}?hash={}", doc.hash);
            entries.insert(key, json!({"serverRelativeURL": url}));
        }
    }
    json!({"paths": entries})
}

/// `GET /openapi/v3/<key>` for `api/v1` or `apis/<group>/<version>`; None when not served.
pub fn openapi_v3_document(reg: &Registry, key: &str) -> Option<Arc<Document>> {
    let (group, version) = parse_key(key)?;
    let defs = reg.resources_in(&group, &version);
    if defs.is_empty() {
        return None;
    }
    Some(cache::get_or_build(&group_version_key(&group, &version), defs, |defs| Document::new(build(defs))))
}

fn build(defs: &[Arc<ResourceDef>]) -> Value {
    let mut path_items = BTreeMap::new();
    let mut components: BTreeMap<String, Value> = schemas::meta_schemas().into_iter().collect();
    for def in defs {
        for (path, item) in paths::for_resource(def) {
            path_items.insert(path, item);
        }
        components.insert(schema_name(def, &def.kind), schemas::kind_schema(def));
        if def.is_persisted() {
            components.insert(schema_name(def, &def.list_kind), schemas::list_schema(def));
        }
        for sub in &def.subresources {
            if let Some((g, v, k)) = sub.foreign_kind() {
                let (name, schema) = schemas::foreign_schema(g, v, k);
                components.insert(name, schema);
            }
        }
    }
    typed::add_referenced(&mut components);
    patch_meta::annotate(&mut components);
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": INFO_VERSION},
        "paths": path_items,
        "components": {
            "schemas": components,
            "securitySchemes": {"BearerToken": {"type": "apiKey", "description": "Bearer Token authentication",
                "name": "authorization", "in": "header"}},
        },
        "security": [{"BearerToken": []}],
    })
}

#[cfg(test)]
mod tests;
