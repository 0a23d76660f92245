//! The CRDs init installs into Karmada (upstream §3.9): from a release tarball (`--crds`, a
//! path or a URL) or, by default, the ones this binary carries. A tarball is read in memory
//! and checked entry by entry, so one with a path-traversal entry or a document that is not a
//! CRD is refused before anything is applied; nothing is extracted to disk.

use std::io::Read;
use std::path::{Component, Path};

use serde_json::{Value, json};

const PATCH_RESOURCEBINDINGS: &str =
    include_str!("../../../../manifests/hostinit/crd-patches/webhook_in_resourcebindings.yaml");
const PATCH_CLUSTERRESOURCEBINDINGS: &str =
    include_str!("../../../../manifests/hostinit/crd-patches/webhook_in_clusterresourcebindings.yaml");

/// Why a CRD tarball was refused; each message names the entry.
#[derive(Debug, thiserror::Error)]
pub enum CrdError {
    #[error("cannot read the CRD tarball {source_name}: {reason}")]
    Read { source_name: String, reason: String },
    #[error("the CRD tarball {source_name} has an entry {entry:?} that is neither a file nor a directory")]
    EntryType { source_name: String, entry: String },
    #[error(
        "the CRD tarball {source_name} has an entry {entry:?} outside crds/, crds/bases and crds/patches, or whose path is not clean (.., ., //, or absolute)"
    )]
    Path { source_name: String, entry: String },
    #[error("the CRD tarball {source_name} has no {dir} directory")]
    MissingDir { source_name: String, dir: &'static str },
    #[error("{entry} in the CRD tarball {source_name} is not a CustomResourceDefinition ({found})")]
    NotCrd { source_name: String, entry: String, found: String },
    #[error("the CRD patch {entry} in {source_name} is not named webhook_in_<plural>.yaml")]
    PatchName { source_name: String, entry: String },
}

/// The bases and the conversion-webhook patches, before the placeholders are filled.
#[derive(Debug, Clone)]
pub struct CrdSet {
    /// Where they came from, for the plan.
    pub origin: String,
    pub bases: Vec<Value>,
    /// (CRD name the patch applies to, patch text with `{{name}}`, `{{namespace}}`, `{{caBundle}}`).
    pub patches: Vec<(String, String)>,
}

/// A CRD as its Kubernetes type serialises it.
fn typed_crd(crd: Value) -> Value {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let typed: CustomResourceDefinition = serde_json::from_value(crd).expect("an embedded upstream CRD is a CRD");
    let mut v = serde_json::to_value(&typed).unwrap_or_default();
    v["apiVersion"] = json!("apiextensions.k8s.io/v1");
    v["kind"] = json!("CustomResourceDefinition");
    v
}

impl CrdSet {
    /// The CRDs this binary serves in the embedded plane (every CRD upstream's release installs:
    /// the generated ones and upstream's own YAML for the rest), with upstream's two patches.
    pub fn builtin() -> Self {
        let bases = karmadactl_karmada_api::crds::all()
            .into_iter()
            .map(|crd| {
                let mut v = serde_json::to_value(&crd).unwrap_or_default();
                v["apiVersion"] = json!("apiextensions.k8s.io/v1");
                v["kind"] = json!("CustomResourceDefinition");
                v
            })
            // Through the typed CRD, as every other host object is rendered: upstream's YAML
            // writes some numbers as integers where the type holds a float.
            .chain(karmadactl_karmada_api::upstream_crds::all().into_iter().map(typed_crd))
            .collect();
        let patches = vec![
            ("resourcebindings.work.karmada.io".to_string(), PATCH_RESOURCEBINDINGS.to_string()),
            ("clusterresourcebindings.work.karmada.io".to_string(), PATCH_CLUSTERRESOURCEBINDINGS.to_string()),
        ];
        CrdSet { origin: "built into karmadactl".into(), bases, patches }
    }

    /// Reads a gzip-compressed release tarball.
    pub fn from_tarball(source_name: &str, gz: &[u8]) -> Result<Self, CrdError> {
        let read_err = |e: std::io::Error| CrdError::Read { source_name: source_name.into(), reason: e.to_string() };
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(gz));
        let mut dirs = std::collections::BTreeSet::new();
        let mut bases = Vec::new();
        let mut patches = Vec::new();
        for entry in archive.entries().map_err(read_err)? {
            let mut entry = entry.map_err(read_err)?;
            let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            let kind = entry.header().entry_type();
            let is_dir = kind.is_dir();
            if !is_dir && !kind.is_file() {
                return Err(CrdError::EntryType { source_name: source_name.into(), entry: raw });
            }
            let path = if is_dir { raw.strip_suffix('/').unwrap_or(&raw) } else { raw.as_str() };
            if !clean_and_allowed(path) {
                return Err(CrdError::Path { source_name: source_name.into(), entry: raw });
            }
            if is_dir {
                dirs.insert(path.to_string());
                continue;
            }
            for ancestor in Path::new(path).ancestors().skip(1) {
                dirs.insert(ancestor.to_string_lossy().into_owned());
            }
            if !path.ends_with(".yaml") {
                continue;
            }
            let mut text = String::new();
            entry.read_to_string(&mut text).map_err(read_err)?;
            if path.starts_with("crds/bases/") {
                for doc in documents(source_name, path, &text)? {
                    bases.push(doc);
                }
            } else if path.starts_with("crds/patches/") {
                documents(source_name, path, &text)?;
                let file = path.rsplit('/').next().unwrap_or_default();
                let plural = file
                    .rsplit_once('_')
                    .map(|(_, p)| p.split('.').next().unwrap_or_default())
                    .filter(|p| !p.is_empty())
                    .ok_or_else(|| CrdError::PatchName { source_name: source_name.into(), entry: path.into() })?;
                patches.push((format!("{plural}.work.karmada.io"), text));
            }
        }
        for dir in ["crds", "crds/bases", "crds/patches"] {
            if !dirs.contains(dir) {
                return Err(CrdError::MissingDir { source_name: source_name.into(), dir });
            }
        }
        Ok(CrdSet { origin: source_name.into(), bases, patches })
    }

    /// The CRDs to apply: each base with its patch merged in and the placeholders filled.
    pub fn render(&self, namespace: &str, ca_bundle_b64: &str) -> Vec<Value> {
        let mut out = self.bases.clone();
        for (target, text) in &self.patches {
            let filled = text
                .replace("{{name}}", "karmada-webhook")
                .replace("{{namespace}}", namespace)
                .replace("{{caBundle}}", ca_bundle_b64);
            let Ok(patch) = serde_saphyr::from_str::<Value>(&filled) else { continue };
            if let Some(crd) = out.iter_mut().find(|c| c["metadata"]["name"] == json!(target)) {
                json_patch::merge(crd, &patch);
            }
        }
        out
    }
}

/// Upstream's rule: a path equal to its cleaned form, and `crds` or below it.
fn clean_and_allowed(path: &str) -> bool {
    if path.is_empty() || path.contains("//") || path.ends_with('/') {
        return false;
    }
    let p = Path::new(path);
    if !p.components().all(|c| matches!(c, Component::Normal(_))) {
        return false;
    }
    path == "crds" || path.starts_with("crds/")
}

/// Every document of a YAML file, each required to be a v1 CRD.
fn documents(source_name: &str, entry: &str, text: &str) -> Result<Vec<Value>, CrdError> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|e| CrdError::NotCrd {
        source_name: source_name.into(),
        entry: entry.into(),
        found: format!("not YAML: {e}"),
    })?;
    let docs: Vec<Value> = docs.into_iter().filter(|d| !d.is_null()).collect();
    for doc in &docs {
        if doc["kind"] != json!("CustomResourceDefinition") || doc["apiVersion"] != json!("apiextensions.k8s.io/v1") {
            let found = format!(
                "apiVersion {}, kind {}",
                doc["apiVersion"].as_str().unwrap_or("none"),
                doc["kind"].as_str().unwrap_or("none")
            );
            return Err(CrdError::NotCrd { source_name: source_name.into(), entry: entry.into(), found });
        }
    }
    Ok(docs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tarball(entries: &[(&str, Option<&str>)]) -> Vec<u8> {
        let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
        for (path, content) in entries {
            let mut header = tar::Header::new_gnu();
            match content {
                None => {
                    header.set_entry_type(tar::EntryType::Directory);
                    header.set_size(0);
                    header.set_mode(0o755);
                    // set_path refuses "..", so write the raw name as a hostile archive would.
                    header.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
                    header.set_cksum();
                    builder.append(&header, std::io::empty()).unwrap();
                }
                Some(text) => {
                    header.set_entry_type(tar::EntryType::Regular);
                    header.set_size(text.len() as u64);
                    header.set_mode(0o644);
                    header.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
                    header.set_cksum();
                    builder.append(&header, text.as_bytes()).unwrap();
                }
            }
        }
        builder.into_inner().unwrap().finish().unwrap()
    }

    const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: resourcebindings.work.karmada.io\nspec: {}\n";

    #[test]
    fn reads_the_release_layout() {
        let gz = tarball(&[
            ("crds/", None),
            ("crds/bases/", None),
            ("crds/bases/work/", None),
            ("crds/bases/work/work.karmada.io_resourcebindings.yaml", Some(CRD)),
            ("crds/patches/", None),
            ("crds/patches/webhook_in_resourcebindings.yaml", Some(PATCH_RESOURCEBINDINGS)),
            ("crds/kustomization.yaml", Some("resources: []\n")),
        ]);
        let set = CrdSet::from_tarball("t.tgz", &gz).unwrap();
        assert_eq!(set.bases.len(), 1);
        assert_eq!(set.patches[0].0, "resourcebindings.work.karmada.io");
        let crds = set.render("ns1", "Q0E=");
        let webhook = &crds[0]["spec"]["conversion"]["webhook"]["clientConfig"];
        assert_eq!(webhook["url"], json!("https://karmada-webhook.ns1.svc:443/convert"));
        assert_eq!(webhook["caBundle"], json!("Q0E="));
    }

    #[test]
    fn refuses_path_traversal() {
        let gz = tarball(&[("crds/", None), ("crds/../../etc/passwd", Some("x"))]);
        let e = CrdSet::from_tarball("t.tgz", &gz).unwrap_err();
        assert!(matches!(e, CrdError::Path { .. }), "{e}");
        assert!(e.to_string().contains("crds/../../etc/passwd"), "{e}");
    }

    #[test]
    fn refuses_a_document_that_is_not_a_crd() {
        let gz = tarball(&[
            ("crds/", None),
            ("crds/bases/", None),
            ("crds/patches/", None),
            ("crds/bases/evil.yaml", Some("apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\n")),
        ]);
        let e = CrdSet::from_tarball("t.tgz", &gz).unwrap_err();
        assert_eq!(
            e.to_string(),
            "crds/bases/evil.yaml in the CRD tarball t.tgz is not a CustomResourceDefinition (apiVersion v1, kind Secret)"
        );
    }

    #[test]
    fn requires_the_three_directories() {
        let gz = tarball(&[("crds/", None), ("crds/bases/", None)]);
        let e = CrdSet::from_tarball("t.tgz", &gz).unwrap_err();
        assert_eq!(e.to_string(), "the CRD tarball t.tgz has no crds/patches directory");
    }

    #[test]
    fn builtin_set_patches_both_bindings() {
        let crds = CrdSet::builtin().render("karmada-system", "Q0E=");
        let patched: Vec<&str> = crds
            .iter()
            .filter(|c| c["spec"]["conversion"]["strategy"] == json!("Webhook"))
            .filter_map(|c| c["metadata"]["name"].as_str())
            .collect();
        assert_eq!(patched, vec!["resourcebindings.work.karmada.io", "clusterresourcebindings.work.karmada.io"]);
    }
}
