//! The CustomResourceDefinitions of the Karmada kinds: the control plane installs them at start
//! from the files committed under `manifests/crds/`, which the `schema` feature generates from
//! this crate's types (tests/it/karmada_crds.rs keeps the files current and checks them against
//! upstream's CRDs).
//!
//! Names, short names, categories, printer columns and subresources come from each type's
//! `#[kube(...)]` attributes; the schemas from `schema`.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

#[cfg(feature = "schema")]
mod generate;
#[cfg(feature = "schema")]
pub use generate::{files, generated, to_yaml};

// One file of manifests/crds/ as `(file name, YAML)`.
macro_rules! embed {
    ($file:literal) => {
        ($file, include_str!(concat!("../../../../manifests/crds/", $file)))
    };
}

/// `(file name, YAML)` of every committed CRD, in the order the generator makes them.
const FILES: &[(&str, &str)] = &[
    embed!("policy.karmada.io_propagationpolicies.yaml"),
    embed!("policy.karmada.io_clusterpropagationpolicies.yaml"),
    embed!("policy.karmada.io_overridepolicies.yaml"),
    embed!("policy.karmada.io_clusteroverridepolicies.yaml"),
    embed!("work.karmada.io_resourcebindings.yaml"),
    embed!("work.karmada.io_clusterresourcebindings.yaml"),
    embed!("work.karmada.io_works.yaml"),
];

/// Every CRD, in a stable order, read from the committed files.
pub fn all() -> Vec<CustomResourceDefinition> {
    FILES
        .iter()
        .map(|(file, text)| {
            serde_saphyr::from_str(text).unwrap_or_else(|e| panic!("the committed CRD {file} is a valid CRD: {e}"))
        })
        .collect()
}

/// Where the generated files are committed, relative to the repository root.
pub const MANIFEST_DIR: &str = "manifests/crds";
