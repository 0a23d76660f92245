//! The committed schemas the binary serves instead of generating them are current: the built-in
//! kinds' (crates/apiserver/src/registry/openapi/builtin_schemas.json, from k8s-openapi's
//! `JsonSchema` impls) and the Cluster schema (crates/karmada-api/src/cluster.schema.json, from
//! the Rust types). Regenerate with `UPDATE_GENERATED=1 cargo test --features etcd --test it openapi_schemas::`.

use std::path::{Path, PathBuf};

use karmadactl_apiserver::registry::openapi::generate_builtin_schemas;
use karmadactl_karmada_api::cluster;

const BUILTIN_FILE: &str = "crates/apiserver/src/registry/openapi/builtin_schemas.json";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compares (or, with UPDATE_GENERATED=1, rewrites) one committed file.
fn check(path: &Path, fresh: &str) {
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(path, fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        committed == fresh,
        "{} is stale (run UPDATE_GENERATED=1 cargo test --features etcd --test it openapi_schemas::)",
        path.display()
    );
}

#[test]
fn builtin_kind_schemas_are_current() {
    let generated = generate_builtin_schemas();
    assert!(generated.kinds.get("apps/v1/Deployment").is_some_and(|n| n == "io.k8s.api.apps.v1.Deployment"));
    assert!(generated.schemas.contains_key("io.k8s.api.core.v1.PodSpec"));
    check(&root().join(BUILTIN_FILE), &(serde_json::to_string_pretty(&generated).unwrap() + "\n"));
}

#[test]
fn cluster_schema_is_current() {
    let generated = cluster::generated_openapi_schema();
    assert!(generated["properties"]["spec"]["properties"].get("apiEndpoint").is_some());
    check(&root().join(cluster::SCHEMA_FILE), &(serde_json::to_string_pretty(&generated).unwrap() + "\n"));
    if std::env::var_os("UPDATE_GENERATED").is_none() {
        // What the API server validates Clusters with is the committed file, as generated.
        assert_eq!(cluster::openapi_schema(), generated);
    }
}
