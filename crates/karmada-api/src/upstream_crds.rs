//! The CustomResourceDefinitions upstream `init` installs that have no Rust types here, embedded
//! as upstream's YAML (manifests/upstream-crds/, with their provenance). Served as they are so
//! upstream components that inform on these kinds can start against the plane.

use serde_json::Value;

// One file of manifests/upstream-crds/ as `(file name, YAML)`.
macro_rules! embed {
    ($file:literal) => {
        ($file, include_str!(concat!("../../../manifests/upstream-crds/", $file)))
    };
}

/// `(file name, YAML)` of every embedded CRD, in a stable order.
pub const FILES: &[(&str, &str)] = &[
    embed!("apps.karmada.io_workloadrebalancers.yaml"),
    embed!("autoscaling.karmada.io_cronfederatedhpas.yaml"),
    embed!("autoscaling.karmada.io_federatedhpas.yaml"),
    embed!("config.karmada.io_resourceinterpretercustomizations.yaml"),
    embed!("config.karmada.io_resourceinterpreterwebhookconfigurations.yaml"),
    embed!("multicluster.x-k8s.io_serviceexports.yaml"),
    embed!("multicluster.x-k8s.io_serviceimports.yaml"),
    embed!("networking.karmada.io_multiclusteringresses.yaml"),
    embed!("networking.karmada.io_multiclusterservices.yaml"),
    embed!("policy.karmada.io_clustertaintpolicies.yaml"),
    embed!("policy.karmada.io_federatedresourcequotas.yaml"),
    embed!("remedy.karmada.io_remedies.yaml"),
];

/// Where the files are committed, relative to the repository root.
pub const MANIFEST_DIR: &str = "manifests/upstream-crds";

/// Every embedded CRD as a JSON object, ready to store.
pub fn all() -> Vec<Value> {
    FILES
        .iter()
        .map(|(file, text)| {
            serde_saphyr::from_str(text).unwrap_or_else(|e| panic!("the embedded CRD {file} is valid YAML: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

    #[test]
    fn every_file_is_a_crd_named_after_its_file() {
        for ((file, _), obj) in super::FILES.iter().zip(super::all()) {
            let crd: CustomResourceDefinition = serde_json::from_value(obj).unwrap();
            let name = format!("{}_{}.yaml", crd.spec.group, crd.spec.names.plural);
            assert_eq!(*file, name);
        }
    }
}
