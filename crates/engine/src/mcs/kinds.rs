//! The kinds, labels and names multi-cluster services work with (upstream's constants), and
//! what the passes read out of Works and MultiClusterServices.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use karmadactl_karmada_api::cluster::ClusterSyncMode;
use karmadactl_karmada_api::work::Work;
use kube::ResourceExt;
use kube::api::{ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::reflector::Store;
use serde_json::Value;

use crate::context::Engine;
use crate::names;

pub const LABEL_SERVICE_NAME: &str = "kubernetes.io/service-name";
pub const LABEL_MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";
/// Slices kube's endpointslice controller keeps: the only member slices collected.
pub const MANAGED_BY_KUBE: &str = "endpointslice-controller.k8s.io";
/// Slices collected into the plane for a ServiceImport (upstream's endpointslice controller).
pub const MANAGED_BY_COLLECT: &str = "endpointslice-controller.karmada.io";
/// Slices dispatched to a MultiClusterService's consumers.
pub const MANAGED_BY_DISPATCH: &str = "endpointslice-dispatch-controller.karmada.io";
/// The member a collected or dispatched slice comes from. Upstream keeps it as an annotation;
/// here it is a label too, so the plane's slices of one member can be selected.
pub const PROVISION_CLUSTER: &str = "endpointslice.karmada.io/provision-cluster";
/// The exported Service a collected slice belongs to (upstream puts these on its Works).
pub const SERVICE_NAME_LABEL: &str = "endpointslice.karmada.io/name";
pub const SERVICE_NAMESPACE_LABEL: &str = "endpointslice.karmada.io/namespace";
/// Works made for a ServiceImport.
pub const IMPORT_NAME_LABEL: &str = "serviceimport.karmada.io/name";
pub const IMPORT_NAMESPACE_LABEL: &str = "serviceimport.karmada.io/namespace";
/// Works made for a MultiClusterService (upstream's labels).
pub const MCS_NAME_LABEL: &str = "multiclusterservice.karmada.io/name";
pub const MCS_NAMESPACE_LABEL: &str = "multiclusterservice.karmada.io/namespace";

const MCS_GROUP: &str = "multicluster.x-k8s.io";

fn resource(group: &str, version: &str, kind: &str, plural: &str) -> ApiResource {
    ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(group, version, kind), plural)
}

pub fn service_export() -> ApiResource {
    resource(MCS_GROUP, "v1alpha1", "ServiceExport", "serviceexports")
}

pub fn service_import() -> ApiResource {
    resource(MCS_GROUP, "v1alpha1", "ServiceImport", "serviceimports")
}

pub fn multi_cluster_service() -> ApiResource {
    resource("networking.karmada.io", "v1alpha1", "MultiClusterService", "multiclusterservices")
}

pub fn multi_cluster_ingress() -> ApiResource {
    resource("networking.karmada.io", "v1alpha1", "MultiClusterIngress", "multiclusteringresses")
}

/// `derived-<name>`: the Service a ServiceImport stands for.
pub fn derived_name(name: &str) -> String {
    format!("derived-{name}")
}

/// Whether a Work change can matter to a pass: it carries a ServiceExport or ServiceImport, or
/// a pass made it.
pub(crate) fn concerns_work(w: &Work) -> bool {
    let labels = w.labels();
    labels.contains_key(IMPORT_NAME_LABEL)
        || labels.contains_key(MCS_NAME_LABEL)
        || manifests(w).any(|m| is_mcs_kind(m, "ServiceExport") || is_mcs_kind(m, "ServiceImport"))
}

/// [`concerns_work`] from what the Work cache holds undecoded: a superset (the group's name
/// anywhere in the text), so a pass decodes only the few Works it can concern.
pub(crate) fn may_concern_work(meta: &crate::compact_store::Meta, json: &[u8]) -> bool {
    const GROUP: &[u8] = b"multicluster.x-k8s.io/";
    meta.label(IMPORT_NAME_LABEL).is_some()
        || meta.label(MCS_NAME_LABEL).is_some()
        || json.windows(GROUP.len()).any(|w| w == GROUP)
}

fn manifests(w: &Work) -> impl Iterator<Item = &Value> {
    w.spec.workload.as_ref().and_then(|l| l.manifests.as_ref()).into_iter().flatten()
}

fn is_mcs_kind(m: &Value, kind: &str) -> bool {
    m["kind"] == kind && m["apiVersion"].as_str().is_some_and(|v| v.starts_with("multicluster.x-k8s.io/"))
}

/// Where ServiceExports and ServiceImports are propagated, read from the Works.
#[derive(Default)]
pub struct Propagated {
    /// Members given a ServiceExport.
    pub exporting: BTreeSet<String>,
    /// Per ServiceImport (namespace, name), the members it is propagated to.
    pub importing: BTreeMap<(String, String), BTreeSet<String>>,
}

impl Propagated {
    pub fn from_works(works: &[Arc<Work>]) -> Self {
        let mut out = Self::default();
        for w in works.iter().filter(|w| w.metadata.deletion_timestamp.is_none()) {
            let Some(cluster) = w.namespace().and_then(|ns| names::cluster_of_execution_space(&ns).map(String::from))
            else {
                continue;
            };
            for m in manifests(w) {
                if is_mcs_kind(m, "ServiceExport") {
                    out.exporting.insert(cluster.clone());
                } else if is_mcs_kind(m, "ServiceImport") {
                    let key = (str_of(&m["metadata"]["namespace"]), str_of(&m["metadata"]["name"]));
                    out.importing.entry(key).or_default().insert(cluster.clone());
                }
            }
        }
        out
    }
}

fn str_of(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// A MultiClusterService as the passes read it.
pub struct CrossCluster {
    pub object: Arc<DynamicObject>,
    pub namespace: String,
    pub name: String,
    /// `spec.types` holds CrossCluster (and the object is not being deleted).
    pub cross_cluster: bool,
    /// `spec.types` holds LoadBalancer, which this plane does not implement.
    pub load_balancer: bool,
    /// Provider and consumer members: the listed ones that exist, or every member when none
    /// is listed.
    pub providers: BTreeSet<String>,
    pub consumers: BTreeSet<String>,
}

impl CrossCluster {
    pub fn all(engine: &Engine, store: &Store<DynamicObject>) -> Vec<CrossCluster> {
        let clusters: BTreeSet<String> = engine
            .caches
            .clusters
            .state()
            .iter()
            .filter(|c| c.metadata.deletion_timestamp.is_none())
            .map(|c| c.name_any())
            .collect();
        // Listed members that do not exist are left out, as upstream skips them.
        let listed = |v: &Value| -> BTreeSet<String> {
            let names: BTreeSet<String> =
                v.as_array().into_iter().flatten().filter_map(|c| c["name"].as_str().map(String::from)).collect();
            if names.is_empty() { clusters.clone() } else { names.intersection(&clusters).cloned().collect() }
        };
        store
            .state()
            .into_iter()
            .map(|object| {
                let spec = &object.data["spec"];
                let types: Vec<&str> =
                    spec["types"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                CrossCluster {
                    namespace: object.namespace().unwrap_or_default(),
                    name: object.name_any(),
                    cross_cluster: types.contains(&"CrossCluster") && object.metadata.deletion_timestamp.is_none(),
                    load_balancer: types.contains(&"LoadBalancer"),
                    providers: listed(&spec["providerClusters"]),
                    consumers: listed(&spec["consumerClusters"]),
                    object,
                }
            })
            .collect()
    }
}

/// Whether the plane reaches the member itself (Push mode): only those are watched.
pub fn is_push(engine: &Engine, cluster: &str) -> bool {
    engine.caches.clusters.state().iter().any(|c| c.name_any() == cluster && c.spec.sync_mode == ClusterSyncMode::Push)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn work(namespace: &str, name: &str, manifest: Value) -> Arc<Work> {
        Arc::new(
            serde_json::from_value(json!({
                "apiVersion": "work.karmada.io/v1alpha1", "kind": "Work",
                "metadata": {"name": name, "namespace": namespace},
                "spec": {"workload": {"manifests": [manifest]}},
            }))
            .unwrap(),
        )
    }

    #[test]
    fn exports_and_imports_are_read_from_the_execution_spaces() {
        let export = json!({"apiVersion": "multicluster.x-k8s.io/v1alpha1", "kind": "ServiceExport",
                            "metadata": {"name": "web", "namespace": "shop"}});
        let import = json!({"apiVersion": "multicluster.x-k8s.io/v1alpha1", "kind": "ServiceImport",
                            "metadata": {"name": "web", "namespace": "shop"}});
        let other = json!({"apiVersion": "example.com/v1", "kind": "ServiceExport", "metadata": {"name": "x"}});
        let works = [
            work("karmada-es-member1", "a", export.clone()),
            work("karmada-es-member2", "b", import.clone()),
            work("karmada-es-member3", "c", import),
            work("karmada-es-member4", "d", other.clone()),
            work("shop", "e", export),
        ];
        let seen = Propagated::from_works(&works);
        assert_eq!(seen.exporting, BTreeSet::from(["member1".to_string()]));
        let importing = &seen.importing[&("shop".to_string(), "web".to_string())];
        assert_eq!(importing, &BTreeSet::from(["member2".to_string(), "member3".to_string()]));
        assert!(concerns_work(&works[0]) && concerns_work(&works[1]));
        assert!(!concerns_work(&work("karmada-es-member1", "f", other)));
    }

    /// The pass decodes only what the Work cache's filter keeps: it must keep every Work
    /// `concerns_work` accepts, and here drops the unrelated one.
    #[test]
    fn the_cache_filter_keeps_every_work_a_pass_concerns() {
        let (store, mut writer) = crate::compact_store::store::<Work>();
        writer.apply_watcher_event(&kube::runtime::watcher::Event::<Work>::Init);
        let export = json!({"apiVersion": "multicluster.x-k8s.io/v1alpha1", "kind": "ServiceExport",
                            "metadata": {"name": "web", "namespace": "shop"}});
        let plain = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}});
        let mut made = (*work("karmada-es-member1", "made", plain.clone())).clone();
        made.metadata.labels = Some([(MCS_NAME_LABEL.to_string(), "web".to_string())].into());
        let mut imported = (*work("karmada-es-member1", "imported", plain.clone())).clone();
        imported.metadata.labels = Some([(IMPORT_NAME_LABEL.to_string(), "web".to_string())].into());
        let works = [made, imported, (*work("karmada-es-member1", "exported", export)).clone()];
        for w in works.iter().chain([&*work("karmada-es-member1", "plain", plain)]) {
            writer.apply_watcher_event(&kube::runtime::watcher::Event::InitApply(w.clone()));
        }
        writer.apply_watcher_event(&kube::runtime::watcher::Event::<Work>::InitDone);
        let kept = store.filtered(may_concern_work);
        let names: Vec<_> = kept.iter().map(|w| w.name_any()).collect();
        assert_eq!(names, ["exported", "imported", "made"]);
        assert!(works.iter().all(concerns_work));
    }
}
