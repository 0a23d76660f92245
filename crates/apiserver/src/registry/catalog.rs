//! The registry: which resources are served, looked up by plural or kind, grouped for discovery.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

use super::resources::{ResourceDef, Source};
use super::validation::{FieldError, join_messages};
use super::version::{compare_groups, compare_versions};
use super::{builtin, crd};

/// Why the registry refused a definition.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The CRD failed validation; `errors` are its field errors.
    #[error("CustomResourceDefinition.apiextensions.k8s.io \"{name}\" is invalid: {}", join_messages(.errors))]
    InvalidCrd {
        /// The CRD's name.
        name: String,
        /// What is wrong with it.
        errors: Vec<FieldError>,
    },
    /// A version's schema could not be compiled for validation.
    #[error("cannot compile the schema of version {version} of CustomResourceDefinition {crd}: {message}")]
    Schema {
        /// The CRD's name.
        crd: String,
        /// The version whose schema failed.
        version: String,
        /// The compiler's explanation.
        message: String,
    },
    /// Another definition already serves this resource or kind.
    #[error("{what} is already served by {owner}")]
    Conflict {
        /// The contested resource or kind, as `group/version, Resource=plural`-like text.
        what: String,
        /// Who serves it now (`built-in` or the CRD's name).
        owner: String,
    },
}

/// A group as discovery lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiGroup {
    /// Group name; empty for the core group.
    pub name: String,
    /// Served versions, preferred first.
    pub versions: Vec<String>,
    /// The preferred version (the first of `versions`).
    pub preferred_version: String,
}

type Key = (String, String, String);

/// Every served resource. Cloning is cheap (definitions are shared); writers clone, change and
/// swap, readers never block (wrap it in an `RwLock` or swap an `Arc<Registry>`).
#[derive(Clone, Debug, Default)]
pub struct Registry {
    by_plural: BTreeMap<Key, Arc<ResourceDef>>,
    by_kind: BTreeMap<Key, Arc<ResourceDef>>,
}

fn key(a: &str, b: &str, c: &str) -> Key {
    (a.to_string(), b.to_string(), c.to_string())
}

fn owner(def: &ResourceDef) -> String {
    match &def.source {
        Source::Builtin => "a built-in resource".to_string(),
        Source::Crd { name, .. } => format!("CustomResourceDefinition {name}"),
    }
}

fn crd_name(def: &ResourceDef) -> Option<&str> {
    match &def.source {
        Source::Crd { name, .. } => Some(name),
        Source::Builtin => None,
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// The built-in resources of kube-apiserver that this control plane serves.
    pub fn builtin() -> Self {
        let mut reg = Self::new();
        for def in builtin::defs() {
            reg.insert(Arc::new(def));
        }
        reg
    }

    /// The built-ins plus the resources a Karmada control plane serves itself (`Cluster`).
    pub fn karmada() -> Self {
        let mut reg = Self::builtin();
        reg.insert(Arc::new(super::karmada::cluster_def()));
        reg
    }

    fn insert(&mut self, def: Arc<ResourceDef>) {
        self.by_kind.insert(key(&def.group, &def.version, &def.kind), Arc::clone(&def));
        self.by_plural.insert(key(&def.group, &def.version, &def.plural), def);
    }

    /// The resource served at `/apis/<group>/<version>/<plural>` (group empty for `/api/v1`).
    pub fn lookup(&self, group: &str, version: &str, plural: &str) -> Option<Arc<ResourceDef>> {
        self.by_plural.get(&key(group, version, plural)).cloned()
    }

    /// The resource whose objects have this group, version and kind.
    pub fn lookup_kind(&self, group: &str, version: &str, kind: &str) -> Option<Arc<ResourceDef>> {
        self.by_kind.get(&key(group, version, kind)).cloned()
    }

    /// Every served resource, ordered by group, version and plural.
    pub fn resources(&self) -> Vec<Arc<ResourceDef>> {
        self.by_plural.values().cloned().collect()
    }

    /// The resources of one group-version, ordered by plural.
    pub fn resources_in(&self, group: &str, version: &str) -> Vec<Arc<ResourceDef>> {
        self.by_plural.values().filter(|d| d.group == group && d.version == version).cloned().collect()
    }

    /// Adds a non-CRD definition (for example a natively served `cluster.karmada.io` API).
    pub fn register(&mut self, def: ResourceDef) -> Result<Arc<ResourceDef>, RegistryError> {
        self.check_conflicts(&def, None)?;
        let def = Arc::new(def);
        self.insert(Arc::clone(&def));
        Ok(def)
    }

    fn check_conflicts(&self, def: &ResourceDef, crd: Option<&str>) -> Result<(), RegistryError> {
        let mine = |d: &ResourceDef| crd.is_some() && crd_name(d) == crd;
        if let Some(existing) = self.lookup(&def.group, &def.version, &def.plural)
            && !mine(&existing)
        {
            return Err(RegistryError::Conflict {
                what: format!("resource {}/{} {}", def.group, def.version, def.plural),
                owner: owner(&existing),
            });
        }
        if let Some(existing) = self.lookup_kind(&def.group, &def.version, &def.kind)
            && !mine(&existing)
        {
            return Err(RegistryError::Conflict {
                what: format!("kind {}/{} {}", def.group, def.version, def.kind),
                owner: owner(&existing),
            });
        }
        Ok(())
    }

    /// Serves the CRD's served versions, replacing what an earlier revision of it served.
    /// Nothing changes when it is invalid or conflicts with another definition.
    pub fn apply_crd(&mut self, crd: &CustomResourceDefinition) -> Result<Vec<Arc<ResourceDef>>, RegistryError> {
        let name = crd.metadata.name.clone().unwrap_or_default();
        let defs = crd::defs_from_crd(crd)?;
        for def in &defs {
            self.check_conflicts(def, Some(&name))?;
        }
        self.remove_crd(&name);
        let defs: Vec<Arc<ResourceDef>> = defs.into_iter().map(Arc::new).collect();
        for def in &defs {
            self.insert(Arc::clone(def));
        }
        Ok(defs)
    }

    /// Stops serving every version of the named CRD (`plural.group`).
    pub fn remove_crd(&mut self, crd_name: &str) {
        let owned = |d: &Arc<ResourceDef>| self::crd_name(d) == Some(crd_name);
        self.by_plural.retain(|_, d| !owned(d));
        self.by_kind.retain(|_, d| !owned(d));
    }

    /// Named groups (not the core group) in `/apis` order, each with its versions.
    pub fn groups(&self) -> Vec<ApiGroup> {
        let mut names: Vec<&str> =
            self.by_plural.keys().map(|(g, _, _)| g.as_str()).filter(|g| !g.is_empty()).collect();
        names.dedup();
        names.sort_by(|a, b| compare_groups(a, b));
        names.into_iter().filter_map(|g| self.group(g)).collect()
    }

    /// One group with its versions, preferred first; `""` gives the core group.
    pub fn group(&self, name: &str) -> Option<ApiGroup> {
        let mut versions: Vec<String> =
            self.by_plural.keys().filter(|(g, _, _)| g == name).map(|(_, v, _)| v.clone()).collect();
        versions.dedup();
        versions.sort_by(|a, b| compare_versions(a, b));
        let preferred_version = versions.first()?.clone();
        Some(ApiGroup { name: name.to_string(), versions, preferred_version })
    }

    /// Every served group-version as `(group, version)`, in discovery order (core first).
    pub fn group_versions(&self) -> Vec<(String, String)> {
        let core = self.group("").into_iter();
        core.chain(self.groups()).flat_map(|g| g.versions.into_iter().map(move |v| (g.name.clone(), v))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crd(versions: serde_json::Value) -> CustomResourceDefinition {
        serde_json::from_value(json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com", "uid": "u1"},
            "spec": {
                "group": "example.com",
                "names": {"kind": "Widget", "plural": "widgets", "shortNames": ["wd"]},
                "scope": "Namespaced",
                "versions": versions,
            }
        }))
        .unwrap()
    }

    fn version(name: &str, served: bool, storage: bool) -> serde_json::Value {
        json!({"name": name, "served": served, "storage": storage,
               "schema": {"openAPIV3Schema": {"type": "object"}}, "subresources": {"status": {}}})
    }

    #[test]
    fn registry_is_shareable_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Registry>();
        assert_send_sync::<RegistryError>();
    }

    #[test]
    fn builtin_lookups() {
        let reg = Registry::builtin();
        let d = reg.lookup("apps", "v1", "deployments").unwrap();
        assert_eq!(d.kind, "Deployment");
        assert_eq!(reg.lookup_kind("", "v1", "ConfigMap").unwrap().plural, "configmaps");
        assert!(reg.lookup("apps", "v1", "nope").is_none());
        assert_eq!(reg.group("").unwrap().versions, ["v1"]);
        let groups: Vec<String> = reg.groups().into_iter().map(|g| g.name).collect();
        // As on kube-apiserver, apiregistration.k8s.io (priority 18000) comes before apps.
        assert_eq!(groups[..2], ["apiregistration.k8s.io", "apps"]);
        assert!(groups.contains(&"apiextensions.k8s.io".to_string()));
        assert_eq!(reg.group_versions()[0], (String::new(), "v1".to_string()));
    }

    #[test]
    fn crd_versions_replace_and_remove() {
        let mut reg = Registry::builtin();
        let defs = reg
            .apply_crd(&crd(json!([
                version("v1alpha1", true, false),
                version("v1", true, true),
                version("v0", false, false)
            ])))
            .unwrap();
        assert_eq!(defs.len(), 2);
        let g = reg.group("example.com").unwrap();
        assert_eq!(g.versions, ["v1", "v1alpha1"]);
        assert_eq!(g.preferred_version, "v1");
        let w = reg.lookup("example.com", "v1alpha1", "widgets").unwrap();
        assert!(matches!(&w.source, Source::Crd { storage: false, storage_version, .. } if storage_version == "v1"));
        assert_eq!(w.singular, "widget");
        assert_eq!(w.list_kind, "WidgetList");
        assert!(w.validator.is_some());

        reg.apply_crd(&crd(json!([version("v1", true, true)]))).unwrap();
        assert!(reg.lookup("example.com", "v1alpha1", "widgets").is_none());
        assert!(reg.lookup_kind("example.com", "v1alpha1", "Widget").is_none());
        assert!(reg.lookup("example.com", "v1", "widgets").is_some());

        reg.remove_crd("widgets.example.com");
        assert!(reg.lookup("example.com", "v1", "widgets").is_none());
        assert!(reg.group("example.com").is_none());
    }

    #[test]
    fn a_schema_that_does_not_compile_is_refused_when_loaded_and_when_written() {
        let mut bad = version("v1", true, true);
        bad["schema"]["openAPIV3Schema"] =
            json!({"type": "object", "properties": {"spec": {"type": "string", "pattern": "("}}});
        let crd = crd(json!([bad]));
        // Loading compiles each schema once, and refuses the CRD when that fails ...
        let err = Registry::builtin().apply_crd(&crd).unwrap_err();
        assert!(matches!(err, RegistryError::Schema { .. }), "{err}");
        // ... and a write of the CRD is refused by validation, which compiles it itself.
        let errs = crate::registry::validate_crd(&crd);
        assert!(errs.iter().any(|e| e.path.contains("openAPIV3Schema")), "{errs:?}");
    }

    #[test]
    fn invalid_and_conflicting_crds_are_refused() {
        let mut reg = Registry::builtin();
        let err = reg.apply_crd(&crd(json!([]))).unwrap_err();
        assert!(matches!(err, RegistryError::InvalidCrd { .. }), "{err}");

        let mut other = crd(json!([version("v1", true, true)]));
        reg.apply_crd(&other).unwrap();
        other.metadata.name = Some("gadgets.example.com".into());
        other.spec.names.plural = "gadgets".into();
        let err = reg.apply_crd(&other).unwrap_err();
        assert!(matches!(err, RegistryError::Conflict { .. }), "{err}");
        assert!(reg.lookup("example.com", "v1", "gadgets").is_none());
    }
}
