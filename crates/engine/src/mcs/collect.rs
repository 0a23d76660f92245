//! Upstream's ServiceExport and EndpointSlice controllers in one: the slices of a Service
//! exported in a member become `imported-<cluster>-<slice>` in the plane (the Service's
//! namespace), labelled `kubernetes.io/service-name: derived-<service>`; and upstream's
//! ServiceImport controller: each ServiceImport of type ClusterSetIP gets a `derived-<name>`
//! Service in the plane, owned by the ServiceImport so it goes with it, and upstream's
//! `SyncDerivedServiceSucceed` (or `…Failed`) Event.
//!
//! Upstream passes the collected slices through a suspended Work in the member's execution
//! space first; here they go to the plane's slices directly (docs/differences.md).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use k8s_openapi::api::core::v1::{ObjectReference, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, Patch, PatchParams, Preconditions};
use serde_json::{Value, json};

use super::kinds::{self, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, MANAGED_BY_COLLECT, PROVISION_CLUSTER};
use super::members::Watches;
use super::{PlaneCaches, kinds::derived_name};
use crate::context::Engine;
use crate::events;

/// The field manager of the plane objects written here.
const FIELD_MANAGER: &str = "karmada-service-export-controller";
/// The source of the ServiceImport's Events, as upstream names its controller.
const COMPONENT: &str = "service-import-controller";

/// What was last written per plane object, so an unchanged pass writes nothing, and which
/// MultiClusterIngresses were already told they are not implemented.
#[derive(Default)]
pub struct Memo {
    derived: HashMap<(String, String), Value>,
    pub ingresses_warned: HashMap<String, i64>,
}

/// The plane's imported slices in line with the members' exported Services. Slices of a
/// member whose watches have not listed yet are left as they are.
pub async fn imported_slices(
    engine: &Engine,
    caches: &PlaneCaches,
    watches: &Watches,
    exporting: &BTreeSet<String>,
) -> Result<(), kube::Error> {
    let mut desired: BTreeMap<(String, String), Value> = BTreeMap::new();
    let mut settled: BTreeSet<&str> = BTreeSet::new();
    for cluster in exporting {
        let Some(exports) = watches.exports_of(cluster) else { continue };
        let mut complete = true;
        for (ns, service) in exports {
            let Some(slices) = watches.slices_of(cluster, &ns, &service) else {
                complete = false;
                continue;
            };
            for s in slices {
                let obj = imported(cluster, &service, &s);
                desired.insert((ns.clone(), obj["metadata"]["name"].as_str().unwrap_or_default().into()), obj);
            }
        }
        if complete {
            settled.insert(cluster);
        }
    }
    let current = caches.imported.state();
    let mut first_error = Ok(());
    for ((ns, name), obj) in &desired {
        let found = current.iter().find(|s| s.namespace().as_deref() == Some(ns) && s.name_any() == *name);
        if found.is_some_and(|s| same_slice(s, obj)) {
            continue;
        }
        let api: Api<EndpointSlice> = Api::namespaced(engine.client.clone(), ns);
        if let Err(e) = api.patch(name, &PatchParams::apply(FIELD_MANAGER).force(), &Patch::Apply(obj)).await {
            tracing::debug!(slice = %name, error = %e, "could not write an imported EndpointSlice");
            first_error = first_error.and(Err(e));
        }
    }
    for s in &current {
        let (ns, name) = (s.namespace().unwrap_or_default(), s.name_any());
        let Some(cluster) = s.labels().get(PROVISION_CLUSTER) else { continue };
        // Only slices this pass can vouch for: its member no longer exports anything, or its
        // watches are complete and no longer list the slice.
        let vouched = !exporting.contains(cluster) || settled.contains(cluster.as_str());
        if desired.contains_key(&(ns.clone(), name.clone())) || !vouched {
            continue;
        }
        let api: Api<EndpointSlice> = Api::namespaced(engine.client.clone(), &ns);
        let dp = DeleteParams {
            preconditions: Some(Preconditions { uid: s.uid(), resource_version: None }),
            ..Default::default()
        };
        match api.delete(&name, &dp).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => {}
            Err(e) => first_error = first_error.and(Err(e)),
        }
    }
    first_error
}

/// The plane's copy of a member's slice (`deriveEndpointSlice` and the labels upstream adds).
fn imported(cluster: &str, service: &str, s: &EndpointSlice) -> Value {
    let ns = s.namespace().unwrap_or_default();
    json!({
        "apiVersion": "discovery.k8s.io/v1",
        "kind": "EndpointSlice",
        "metadata": {
            "name": format!("imported-{cluster}-{}", s.name_any()),
            "namespace": ns,
            "labels": {
                LABEL_SERVICE_NAME: derived_name(service),
                LABEL_MANAGED_BY: MANAGED_BY_COLLECT,
                PROVISION_CLUSTER: cluster,
                kinds::SERVICE_NAME_LABEL: service,
                kinds::SERVICE_NAMESPACE_LABEL: ns,
            },
        },
        "addressType": s.address_type,
        "endpoints": s.endpoints,
        "ports": s.ports,
    })
}

fn same_slice(current: &EndpointSlice, desired: &Value) -> bool {
    let Ok(current) = serde_json::to_value(current) else { return false };
    let labels_match = desired["metadata"]["labels"]
        .as_object()
        .into_iter()
        .flatten()
        .all(|(k, v)| current["metadata"]["labels"][k] == *v);
    let field = |v: &Value, f: &str| match &v[f] {
        Value::Null => json!([]),
        other => other.clone(),
    };
    labels_match
        && current["addressType"] == desired["addressType"]
        && field(&current, "endpoints") == field(desired, "endpoints")
        && field(&current, "ports") == field(desired, "ports")
}

/// `derived-<name>` for every ServiceImport of type ClusterSetIP: a ClusterIP Service with the
/// import's ports, owned by it (the garbage collector removes it with the import).
pub async fn derived_services(engine: &Engine, caches: &PlaneCaches, memo: &mut Memo) -> Result<(), kube::Error> {
    let mut result = Ok(());
    let mut live = BTreeSet::new();
    for import in caches.imports.state() {
        if import.metadata.deletion_timestamp.is_some() || import.data["spec"]["type"] != "ClusterSetIP" {
            continue;
        }
        let (ns, name) = (import.namespace().unwrap_or_default(), import.name_any());
        let service = derived_service(&ns, &name, &import.data["spec"]["ports"]);
        let mut obj = service.clone();
        obj["metadata"]["ownerReferences"] = json!([{
            "apiVersion": "multicluster.x-k8s.io/v1alpha1",
            "kind": "ServiceImport",
            "name": name,
            "uid": import.uid(),
        }]);
        live.insert((ns.clone(), name.clone()));
        if memo.derived.get(&(ns.clone(), name.clone())) == Some(&obj) {
            continue;
        }
        let api: Api<Service> = Api::namespaced(engine.client.clone(), &ns);
        let target = ObjectReference {
            api_version: Some("multicluster.x-k8s.io/v1alpha1".into()),
            kind: Some("ServiceImport".into()),
            namespace: Some(ns.clone()),
            name: Some(name.clone()),
            uid: import.uid(),
            ..Default::default()
        };
        match api.patch(&derived_name(&name), &PatchParams::apply(FIELD_MANAGER).force(), &Patch::Apply(&obj)).await {
            Ok(_) => {
                let message = format!("Sync derived service for serviceImport({name}) succeed.");
                events::record(engine, target, events::NORMAL, COMPONENT, "SyncDerivedServiceSucceed", &message).await;
                memo.derived.insert((ns, name), obj);
            }
            Err(e) => {
                tracing::debug!(service = %derived_name(&name), error = %e, "could not write a derived Service");
                events::record(engine, target, events::WARNING, COMPONENT, "SyncDerivedServiceFailed", &e.to_string())
                    .await;
                result = result.and(Err(e));
            }
        }
    }
    memo.derived.retain(|k, _| live.contains(k));
    result
}

/// The derived Service of a ServiceImport (`deriveServiceFromServiceImport`), as a member
/// gets it too.
pub fn derived_service(namespace: &str, name: &str, import_ports: &Value) -> Value {
    let ports: Vec<Value> = import_ports
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let mut port = json!({"port": p["port"], "protocol": p.get("protocol").cloned().unwrap_or(json!("TCP"))});
            for f in ["name", "appProtocol"] {
                if let Some(v) = p.get(f).filter(|v| !v.is_null()) {
                    port[f] = v.clone();
                }
            }
            port
        })
        .collect();
    json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": derived_name(name), "namespace": namespace},
        "spec": {"type": "ClusterIP", "ports": ports},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imported_slice_names_and_labels() {
        let s: EndpointSlice = serde_json::from_value(json!({
            "metadata": {"name": "web-x1", "namespace": "shop"},
            "addressType": "IPv4",
            "endpoints": [{"addresses": ["10.244.0.5"]}],
            "ports": [{"name": "http", "port": 80, "protocol": "TCP"}],
        }))
        .unwrap();
        let obj = imported("member1", "web", &s);
        assert_eq!(obj["metadata"]["name"], "imported-member1-web-x1");
        assert_eq!(obj["metadata"]["labels"][LABEL_SERVICE_NAME], "derived-web");
        assert_eq!(obj["metadata"]["labels"][PROVISION_CLUSTER], "member1");
        assert_eq!(obj["endpoints"][0]["addresses"][0], "10.244.0.5");
        let stored: EndpointSlice = serde_json::from_value(obj.clone()).unwrap();
        assert!(same_slice(&stored, &obj));
    }

    #[test]
    fn derived_service_takes_the_import_ports() {
        let svc =
            derived_service("shop", "web", &json!([{"name": "http", "port": 80}, {"port": 53, "protocol": "UDP"}]));
        assert_eq!(svc["metadata"]["name"], "derived-web");
        assert_eq!(
            svc["spec"]["ports"],
            json!([{"name": "http", "port": 80, "protocol": "TCP"}, {"port": 53, "protocol": "UDP"}])
        );
    }
}
