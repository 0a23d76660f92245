//! The shipped third-party customizations (upstream's `default/thirdparty`): Lua rules for
//! popular kinds outside Kubernetes (OpenKruise, Argo, Flux, Kubeflow ...), answering after the
//! user's customizations and webhooks and before the native interpreters. Each lives in
//! `thirdparty/<group>/<version>/<kind>/customizations.yaml` and is listed in [`FILES`]; the
//! tests check that every file there is listed and that each parses and passes validation.

use crate::RuleSet;

/// Each shipped file: its path under `thirdparty/`, and its text.
const FILES: &[(&str, &str)] = &[
    (
        "apps.kruise.io/v1alpha1/AdvancedCronJob/customizations.yaml",
        include_str!("../thirdparty/apps.kruise.io/v1alpha1/AdvancedCronJob/customizations.yaml"),
    ),
    (
        "apps.kruise.io/v1alpha1/BroadcastJob/customizations.yaml",
        include_str!("../thirdparty/apps.kruise.io/v1alpha1/BroadcastJob/customizations.yaml"),
    ),
    (
        "apps.kruise.io/v1alpha1/CloneSet/customizations.yaml",
        include_str!("../thirdparty/apps.kruise.io/v1alpha1/CloneSet/customizations.yaml"),
    ),
    (
        "apps.kruise.io/v1alpha1/DaemonSet/customizations.yaml",
        include_str!("../thirdparty/apps.kruise.io/v1alpha1/DaemonSet/customizations.yaml"),
    ),
    (
        "apps.kruise.io/v1alpha1/SidecarSet/customizations.yaml",
        include_str!("../thirdparty/apps.kruise.io/v1alpha1/SidecarSet/customizations.yaml"),
    ),
    (
        "apps.kruise.io/v1alpha1/UnitedDeployment/customizations.yaml",
        include_str!("../thirdparty/apps.kruise.io/v1alpha1/UnitedDeployment/customizations.yaml"),
    ),
    (
        "apps.kruise.io/v1beta1/StatefulSet/customizations.yaml",
        include_str!("../thirdparty/apps.kruise.io/v1beta1/StatefulSet/customizations.yaml"),
    ),
    (
        "argoproj.io/v1alpha1/Workflow/customizations.yaml",
        include_str!("../thirdparty/argoproj.io/v1alpha1/Workflow/customizations.yaml"),
    ),
    (
        "flink.apache.org/v1beta1/FlinkDeployment/customizations.yaml",
        include_str!("../thirdparty/flink.apache.org/v1beta1/FlinkDeployment/customizations.yaml"),
    ),
    (
        "helm.toolkit.fluxcd.io/v2beta1/HelmRelease/customizations.yaml",
        include_str!("../thirdparty/helm.toolkit.fluxcd.io/v2beta1/HelmRelease/customizations.yaml"),
    ),
    (
        "kubeflow.org/v1/Notebook/customizations.yaml",
        include_str!("../thirdparty/kubeflow.org/v1/Notebook/customizations.yaml"),
    ),
    (
        "kubeflow.org/v1/PyTorchJob/customizations.yaml",
        include_str!("../thirdparty/kubeflow.org/v1/PyTorchJob/customizations.yaml"),
    ),
    (
        "kubeflow.org/v1/TFJob/customizations.yaml",
        include_str!("../thirdparty/kubeflow.org/v1/TFJob/customizations.yaml"),
    ),
    (
        "kubeflow.org/v2beta1/MPIJob/customizations.yaml",
        include_str!("../thirdparty/kubeflow.org/v2beta1/MPIJob/customizations.yaml"),
    ),
    (
        "kustomize.toolkit.fluxcd.io/v1/Kustomization/customizations.yaml",
        include_str!("../thirdparty/kustomize.toolkit.fluxcd.io/v1/Kustomization/customizations.yaml"),
    ),
    (
        "kyverno.io/v1/ClusterPolicy/customizations.yaml",
        include_str!("../thirdparty/kyverno.io/v1/ClusterPolicy/customizations.yaml"),
    ),
    (
        "kyverno.io/v1/Policy/customizations.yaml",
        include_str!("../thirdparty/kyverno.io/v1/Policy/customizations.yaml"),
    ),
    (
        "source.toolkit.fluxcd.io/v1/GitRepository/customizations.yaml",
        include_str!("../thirdparty/source.toolkit.fluxcd.io/v1/GitRepository/customizations.yaml"),
    ),
    (
        "source.toolkit.fluxcd.io/v1beta2/Bucket/customizations.yaml",
        include_str!("../thirdparty/source.toolkit.fluxcd.io/v1beta2/Bucket/customizations.yaml"),
    ),
    (
        "source.toolkit.fluxcd.io/v1beta2/HelmChart/customizations.yaml",
        include_str!("../thirdparty/source.toolkit.fluxcd.io/v1beta2/HelmChart/customizations.yaml"),
    ),
    (
        "source.toolkit.fluxcd.io/v1beta2/HelmRepository/customizations.yaml",
        include_str!("../thirdparty/source.toolkit.fluxcd.io/v1beta2/HelmRepository/customizations.yaml"),
    ),
    (
        "source.toolkit.fluxcd.io/v1beta2/OCIRepository/customizations.yaml",
        include_str!("../thirdparty/source.toolkit.fluxcd.io/v1beta2/OCIRepository/customizations.yaml"),
    ),
];

/// The shipped set. A file that does not parse is left out (the tests keep that from being
/// shipped), so the interpreter always starts.
pub(crate) fn rule_set() -> RuleSet {
    let mut objects = Vec::new();
    for (_, text) in FILES {
        if let Ok(documents) = serde_saphyr::from_multiple::<serde_json::Value>(text) {
            objects.extend(documents.into_iter().filter(|d| !d.is_null()));
        }
    }
    RuleSet::from_objects(&objects).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::FILES;
    use crate::RuleSet;
    use crate::customization::validate;

    fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                yaml_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_file_under_thirdparty_is_listed() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("thirdparty");
        let mut found = Vec::new();
        yaml_files(&root, &mut found);
        for path in found {
            let relative = path.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            assert!(FILES.iter().any(|(listed, _)| *listed == relative), "{relative} is not listed in FILES");
        }
    }

    #[test]
    fn every_listed_file_parses_and_validates() {
        for (path, text) in FILES {
            let documents: Vec<serde_json::Value> = serde_saphyr::from_multiple(text).unwrap();
            for document in documents.iter().filter(|d| !d.is_null()) {
                assert_eq!(validate(document), Vec::new(), "{path}");
            }
            RuleSet::from_yaml(text).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
    }
}
