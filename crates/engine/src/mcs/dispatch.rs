//! Works that put multi-cluster services into members; the execution controller applies them
//! and removes the objects with the Works.
//!
//! * A ServiceImport propagated to a member: its `derived-<name>` Service and the imported
//!   slices of the other members (upstream propagates these as the ServiceImport's
//!   dependencies).
//! * A CrossCluster MultiClusterService: its Service in every provider and consumer that does
//!   not have it through a policy already, and each provider's slices in each other consumer as
//!   `<provider>-<slice>` (upstream's endpointslice dispatch controller).
//!
//! Only Works carrying this module's labels are changed or deleted.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use karmadactl_apimachinery::new_uid;
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams};
use serde_json::{Value, json};

use super::kinds::{self, CrossCluster, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, PROVISION_CLUSTER, Propagated};
use super::members::Watches;
use super::{PlaneCaches, collect};
use crate::binding::ensure_work;
use crate::context::{Engine, WorkKey};
use crate::names;

/// What a pass dispatched, for the MultiClusterServices' conditions.
pub struct Dispatched {
    pub result: Result<(), kube::Error>,
    /// Per MultiClusterService (namespace, name): why its Service could not be propagated.
    pub service_problems: BTreeMap<(String, String), String>,
}

/// One Work to be: its namespace and name, labels, and the manifest.
struct Wanted {
    labels: BTreeMap<String, String>,
    annotations: BTreeMap<String, String>,
    manifest: Value,
}

type WorkId = (String, String);

pub async fn sync(
    engine: &Arc<Engine>,
    caches: &PlaneCaches,
    watches: &Watches,
    seen: &Propagated,
    services: &[CrossCluster],
    works: &[Arc<Work>],
) -> Dispatched {
    let mut wanted: BTreeMap<WorkId, Wanted> = BTreeMap::new();
    // Slice Works of providers whose watch has not listed yet: kept as they are.
    let mut unsettled: BTreeSet<String> = BTreeSet::new();
    imports(engine, caches, seen, &mut wanted);
    let mut service_problems = BTreeMap::new();
    for mcs in services.iter().filter(|s| s.cross_cluster) {
        if let Err(problem) = cross_cluster(engine, watches, mcs, &mut wanted, &mut unsettled).await {
            service_problems.insert((mcs.namespace.clone(), mcs.name.clone()), problem);
        }
    }
    let mut result = Ok(());
    for ((ns, name), w) in &wanted {
        let current = engine.work(&WorkKey { namespace: ns.clone(), name: name.clone() });
        let work_id = current
            .as_ref()
            .and_then(|w| w.labels().get(names::WORK_PERMANENT_ID_LABEL).cloned())
            .unwrap_or_else(new_uid);
        let mut labels = w.labels.clone();
        labels.insert(names::WORK_PERMANENT_ID_LABEL.into(), work_id.clone());
        let manifest = manifest_for_work(w.manifest.clone(), ns, name, &work_id);
        let spec = json!({"workload": {"manifests": [manifest]}});
        let r = ensure_work(engine, ns, name, labels, w.annotations.clone(), spec, current.as_deref()).await;
        if let Err(e) = r {
            tracing::debug!(work = %name, error = %e, "could not write a multi-cluster service Work");
            result = result.and(Err(e));
        }
    }
    for w in works.iter().filter(|w| owned(w) && w.metadata.deletion_timestamp.is_none()) {
        let id = (w.namespace().unwrap_or_default(), w.name_any());
        let from_unsettled = w.annotations().get(PROVISION_CLUSTER).is_some_and(|c| unsettled.contains(c));
        if wanted.contains_key(&id) || from_unsettled {
            continue;
        }
        let api: Api<Work> = Api::namespaced(engine.client.clone(), &id.0);
        match api.delete(&id.1, &DeleteParams::default()).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 404 => {}
            Err(e) => result = result.and(Err(e)),
        }
    }
    Dispatched { result, service_problems }
}

/// Whether a Work of this name exists that is not this module's.
fn foreign(engine: &Engine, es: &str, name: &str) -> bool {
    engine.work(&WorkKey { namespace: es.to_string(), name: name.to_string() }).is_some_and(|w| !owned(&w))
}

/// A Work this module made and still answers for. Once a binding writes a Work of the same
/// name (a policy now propagates the Service there), the Work is the binding's.
fn owned(w: &Work) -> bool {
    let l = w.labels();
    let a = w.annotations();
    (l.contains_key(kinds::IMPORT_NAME_LABEL) || l.contains_key(kinds::MCS_NAME_LABEL))
        && !a.contains_key(names::RB_NAME_ANNOTATION)
        && !a.contains_key(names::CRB_NAME_ANNOTATION)
}

/// The derived Service and the other members' imported slices, for each member a
/// ServiceImport of type ClusterSetIP is propagated to.
fn imports(engine: &Engine, caches: &PlaneCaches, seen: &Propagated, wanted: &mut BTreeMap<WorkId, Wanted>) {
    let slices = caches.imported.state();
    for import in caches.imports.state() {
        if import.metadata.deletion_timestamp.is_some() || import.data["spec"]["type"] != "ClusterSetIP" {
            continue;
        }
        let (ns, name) = (import.namespace().unwrap_or_default(), import.name_any());
        let Some(targets) = seen.importing.get(&(ns.clone(), name.clone())) else { continue };
        let derived = kinds::derived_name(&name);
        let labels = BTreeMap::from([
            (kinds::IMPORT_NAMESPACE_LABEL.to_string(), ns.clone()),
            (kinds::IMPORT_NAME_LABEL.to_string(), name.clone()),
        ]);
        for cluster in targets {
            let es = wellknown::execution_space(cluster);
            let service = collect::derived_service(&ns, &name, &import.data["spec"]["ports"]);
            let work = names::work_name("Service", &derived, &ns);
            // With `propagateDeps` the derived Service may come through its own binding.
            if !foreign(engine, &es, &work) {
                wanted.insert(
                    (es.clone(), work),
                    Wanted { labels: labels.clone(), annotations: BTreeMap::new(), manifest: service },
                );
            }
            let of_service = slices.iter().filter(|s| {
                s.namespace().as_deref() == Some(ns.as_str())
                    && s.labels().get(LABEL_SERVICE_NAME) == Some(&derived)
                    && s.labels().get(PROVISION_CLUSTER) != Some(cluster)
            });
            for s in of_service {
                let manifest = slice_manifest(s, &s.name_any(), s.labels().clone().into_iter().collect());
                let work = names::work_name("EndpointSlice", &s.name_any(), &ns);
                wanted.insert(
                    (es.clone(), work),
                    Wanted { labels: labels.clone(), annotations: BTreeMap::new(), manifest },
                );
            }
        }
    }
}

/// A CrossCluster MultiClusterService's Works; Err says why its Service is not propagated.
async fn cross_cluster(
    engine: &Engine,
    watches: &Watches,
    mcs: &CrossCluster,
    wanted: &mut BTreeMap<WorkId, Wanted>,
    unsettled: &mut BTreeSet<String>,
) -> Result<(), String> {
    let (ns, name) = (&mcs.namespace, &mcs.name);
    let labels = BTreeMap::from([
        (kinds::MCS_NAMESPACE_LABEL.to_string(), ns.clone()),
        (kinds::MCS_NAME_LABEL.to_string(), name.clone()),
    ]);
    for consumer in &mcs.consumers {
        let es = wellknown::execution_space(consumer);
        for provider in mcs.providers.iter().filter(|p| *p != consumer) {
            let Some(slices) = watches.slices_of(provider, ns, name) else {
                unsettled.insert(provider.clone());
                continue;
            };
            for s in slices {
                let dispatched_name = format!("{provider}-{}", s.name_any());
                let manifest_labels = BTreeMap::from([
                    (LABEL_SERVICE_NAME.to_string(), name.clone()),
                    (LABEL_MANAGED_BY.to_string(), kinds::MANAGED_BY_DISPATCH.to_string()),
                    (PROVISION_CLUSTER.to_string(), provider.clone()),
                ]);
                let mut manifest = slice_manifest(&s, &dispatched_name, manifest_labels);
                manifest["metadata"]["annotations"] = json!({PROVISION_CLUSTER: provider});
                let work = names::work_name("EndpointSlice", &dispatched_name, ns);
                let annotations = BTreeMap::from([(PROVISION_CLUSTER.to_string(), provider.clone())]);
                wanted.insert((es.clone(), work), Wanted { labels: labels.clone(), annotations, manifest });
            }
        }
    }
    // The Service itself, to every provider and consumer that lacks it.
    let api: Api<k8s_openapi::api::core::v1::Service> = Api::namespaced(engine.client.clone(), ns);
    let service = match api.get_opt(name).await {
        Ok(Some(s)) => s,
        Ok(None) => return Err(format!("Service {ns}/{name} does not exist in the Karmada control plane")),
        Err(e) => return Err(format!("reading Service {ns}/{name}: {e}")),
    };
    let mut spec = serde_json::to_value(&service.spec).unwrap_or_default();
    if let Some(m) = spec.as_object_mut() {
        // Each member allocates its own addresses.
        for f in ["clusterIP", "clusterIPs", "healthCheckNodePort"] {
            m.remove(f);
        }
    }
    let manifest = json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "namespace": ns, "labels": service.labels()},
        "spec": spec,
    });
    let work = names::work_name("Service", name, ns);
    for cluster in mcs.providers.union(&mcs.consumers) {
        let es = wellknown::execution_space(cluster);
        if foreign(engine, &es, &work) {
            // A policy propagates the Service there already; its Work stays in charge.
            continue;
        }
        wanted.insert(
            (es, work.clone()),
            Wanted { labels: labels.clone(), annotations: BTreeMap::new(), manifest: manifest.clone() },
        );
    }
    Ok(())
}

/// A slice as a member gets it: its addresses and ports under a new name and labels.
fn slice_manifest(
    s: &k8s_openapi::api::discovery::v1::EndpointSlice,
    name: &str,
    labels: BTreeMap<String, String>,
) -> Value {
    json!({
        "apiVersion": "discovery.k8s.io/v1",
        "kind": "EndpointSlice",
        "metadata": {"name": name, "namespace": s.namespace(), "labels": labels},
        "addressType": s.address_type,
        "endpoints": s.endpoints,
        "ports": s.ports,
    })
}

/// The labels and annotations the execution controller expects on a Work's manifest (as the
/// namespace sync sets them).
fn manifest_for_work(mut manifest: Value, es: &str, work: &str, work_id: &str) -> Value {
    manifest["metadata"]["labels"][wellknown::LABEL_KARMADA_MANAGED] = json!("true");
    manifest["metadata"]["labels"][names::WORK_PERMANENT_ID_LABEL] = json!(work_id);
    manifest["metadata"]["annotations"][names::WORK_NAME_ANNOTATION] = json!(work);
    manifest["metadata"]["annotations"][names::WORK_NAMESPACE_ANNOTATION] = json!(es);
    manifest
}
