//! What a served resource is: its names, scope, verbs, subresources and where it came from.

use std::sync::Arc;

use base64::Engine as _;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::validation::{CrdValidator, names};

/// Every verb of a normal persisted resource, sorted as kube's discovery lists them.
pub const VERBS_ALL: &[&str] = &["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
/// Verbs of a resource without `deletecollection` (namespaces).
pub const VERBS_NO_COLLECTION_DELETE: &[&str] = &["create", "delete", "get", "list", "patch", "update", "watch"];
/// Verbs of a virtual, create-only resource (reviews).
pub const VERBS_CREATE_ONLY: &[&str] = &["create"];
/// Verbs of custom resources, in the (unsorted) order apiextensions-apiserver reports them.
pub const VERBS_CUSTOM: &[&str] = &["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"];

/// One resource in one group-version, as discovery and the handlers see it.
#[derive(Clone, Debug)]
pub struct ResourceDef {
    /// API group; empty for the core group.
    pub group: String,
    /// API version within the group (`v1`, `v1alpha1`).
    pub version: String,
    /// Kind of the objects (`Deployment`).
    pub kind: String,
    /// Kind of lists of the objects (`DeploymentList`).
    pub list_kind: String,
    /// URL path segment (`deployments`).
    pub plural: String,
    /// Singular name (`deployment`).
    pub singular: String,
    /// Short names kubectl resolves (`deploy`).
    pub short_names: Vec<String>,
    /// Categories such as `all`.
    pub categories: Vec<String>,
    /// Whether objects live in namespaces.
    pub namespaced: bool,
    /// Verbs the collection and items support.
    pub verbs: Vec<String>,
    /// Subresources served below each object.
    pub subresources: Vec<Subresource>,
    /// Server-side table columns (from a CRD's `additionalPrinterColumns`).
    pub printer_columns: Vec<PrinterColumn>,
    /// Built in, or from which CRD.
    pub source: Source,
    /// Syntax rule for `metadata.name`.
    pub name_rule: NameRule,
    /// The version's `openAPIV3Schema` for custom resources.
    pub schema: Option<Arc<Value>>,
    /// The compiled schema of a custom resource, built once when the CRD is applied.
    pub validator: Option<Arc<CrdValidator>>,
}

impl ResourceDef {
    /// `v1` for the core group, otherwise `group/version`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.clone() } else { format!("{}/{}", self.group, self.version) }
    }

    /// URL prefix of the group-version: `/api/v1` or `/apis/apps/v1`.
    pub fn url_prefix(&self) -> String {
        if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        }
    }

    /// Whether the verb is allowed on the resource itself.
    pub fn supports(&self, verb: &str) -> bool {
        self.verbs.iter().any(|v| v == verb)
    }

    /// Whether objects are stored (virtual create-only resources such as reviews are not).
    pub fn is_persisted(&self) -> bool {
        self.supports("get")
    }

    /// Whether this comes from a CustomResourceDefinition.
    pub fn is_custom(&self) -> bool {
        matches!(self.source, Source::Crd { .. })
    }

    /// The subresource with this URL name (`status`, `scale`), if served.
    pub fn subresource(&self, name: &str) -> Option<&Subresource> {
        self.subresources.iter().find(|s| s.name() == name)
    }

    /// kube's `storageVersionHash`: base64 of the first 8 bytes of sha256("group/version/Kind") of
    /// the storage version. Clients only compare it for changes; None for unpersisted resources.
    pub fn storage_version_hash(&self) -> Option<String> {
        if !self.is_persisted() {
            return None;
        }
        let version = match &self.source {
            Source::Crd { storage_version, .. } => storage_version.as_str(),
            Source::Builtin => self.version.as_str(),
        };
        let digest = Sha256::digest(format!("{}/{}/{}", self.group, version, self.kind).as_bytes());
        Some(base64::engine::general_purpose::STANDARD.encode(&digest[..8]))
    }
}

/// A subresource below each object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subresource {
    /// `/status`: the object with only `.status` writable.
    Status,
    /// `/scale`: an `autoscaling/v1` `Scale` view of the replica count. Built-in workloads take
    /// their label selector from `spec.selector`, so their `label_selector_path` is None.
    Scale {
        /// JSON path of the desired replicas (`.spec.replicas`).
        spec_replicas_path: String,
        /// JSON path of the observed replicas (`.status.replicas`).
        status_replicas_path: String,
        /// JSON path of the serialized label selector, if any (`.status.selector`).
        label_selector_path: Option<String>,
    },
    /// `certificatesigningrequests/approval`: approve or deny a CSR.
    Approval,
    /// `serviceaccounts/token`: issue a `TokenRequest`.
    Token,
    /// `/proxy`: reserved for member `Cluster` objects.
    Proxy,
    /// `namespaces/finalize`: update `spec.finalizers`.
    Finalize,
    /// `pods/binding`: bind a pod to a node.
    Binding,
}

impl Subresource {
    /// The URL segment after the object name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Status => "status",
            Self::Scale { .. } => "scale",
            Self::Approval => "approval",
            Self::Token => "token",
            Self::Proxy => "proxy",
            Self::Finalize => "finalize",
            Self::Binding => "binding",
        }
    }

    /// Verbs kube reports for it in discovery.
    pub fn verbs(&self) -> &'static [&'static str] {
        match self {
            Self::Status | Self::Scale { .. } | Self::Approval => &["get", "patch", "update"],
            Self::Token | Self::Binding => &["create"],
            Self::Finalize => &["update"],
            Self::Proxy => &["create", "delete", "get", "patch", "update"],
        }
    }

    /// The (group, version, kind) of the body, when it differs from the parent's.
    pub fn foreign_kind(&self) -> Option<(&'static str, &'static str, &'static str)> {
        match self {
            Self::Scale { .. } => Some(("autoscaling", "v1", "Scale")),
            Self::Token => Some(("authentication.k8s.io", "v1", "TokenRequest")),
            Self::Binding => Some(("", "v1", "Binding")),
            Self::Proxy => Some(("cluster.karmada.io", "v1alpha1", "ClusterProxyOptions")),
            Self::Status | Self::Approval | Self::Finalize => None,
        }
    }
}

/// A server-side table column (`additionalPrinterColumns`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrinterColumn {
    /// Column header.
    pub name: String,
    /// OpenAPI type: `string`, `integer`, `number`, `boolean`, `date`.
    pub type_: String,
    /// Optional OpenAPI format.
    pub format: String,
    /// Human description.
    pub description: String,
    /// JSONPath into the object, e.g. `.spec.replicas`.
    pub json_path: String,
    /// 0 for the default view, higher for `-o wide`.
    pub priority: i32,
}

impl ResourceDef {
    /// Whether objects of this resource carry `metadata.generation`. kube-apiserver's
    /// strategies set it for kinds with a spec that controllers act on (workloads, Pods,
    /// autoscaling, policy, networking, API registration, webhooks) and for every custom
    /// resource; plain data (ConfigMaps, Secrets, Namespaces, RBAC, Events, Leases) has none.
    pub fn tracks_generation(&self) -> bool {
        !matches!(self.source, Source::Builtin) || builtin_tracks_generation(&self.group, &self.plural)
    }
}

/// [`ResourceDef::tracks_generation`] for a built-in resource.
pub fn builtin_tracks_generation(group: &str, plural: &str) -> bool {
    match group {
        "" => matches!(plural, "pods" | "replicationcontrollers"),
        "apps"
        | "batch"
        | "autoscaling"
        | "policy"
        | "networking.k8s.io"
        | "apiextensions.k8s.io"
        | "apiregistration.k8s.io"
        | "admissionregistration.k8s.io"
        | "storage.k8s.io" => {
            !matches!(plural, "controllerrevisions" | "storageclasses" | "csinodes" | "volumeattachments")
        }
        other => other.ends_with("karmada.io"),
    }
}

/// Where a resource definition comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Compiled into the server.
    Builtin,
    /// Defined by a CustomResourceDefinition.
    Crd {
        /// The CRD's `metadata.name` (`plural.group`).
        name: String,
        /// The CRD's `metadata.uid`, when it has one.
        uid: Option<String>,
        /// Whether this version is the storage version.
        storage: bool,
        /// Whether this version is served (always true once registered).
        served: bool,
        /// Name of the CRD's storage version.
        storage_version: String,
    },
}

/// Syntax rule for `metadata.name`, as each kube resource's `ValidateNameFunc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NameRule {
    /// RFC 1123 subdomain: the default for most resources.
    #[default]
    Dns1123Subdomain,
    /// RFC 1123 label: namespaces.
    Dns1123Label,
    /// RFC 1035 label: services.
    Dns1035Label,
    /// Any single URL path segment: RBAC objects.
    PathSegment,
    /// No syntax rule (CSRs; reviews have no name).
    Any,
    /// Karmada member clusters: RFC 1123 label of at most 48 characters.
    ClusterName,
}

impl NameRule {
    /// Reasons the name is invalid; empty when valid.
    pub fn validate(self, name: &str) -> Vec<String> {
        match self {
            Self::Dns1123Subdomain => names::dns1123_subdomain(name),
            Self::Dns1123Label => names::dns1123_label(name),
            Self::Dns1035Label => names::dns1035_label(name),
            Self::PathSegment => names::path_segment(name),
            Self::Any => Vec::new(),
            Self::ClusterName => karmadactl_apimachinery::NameRule::ClusterName.check(name, false),
        }
    }
}

/// Storage key of an object or of a collection: `/registry/<group or core>/<plural>/<ns>/<name>`.
///
/// Prefix forms end with `/`: no name gives the namespace's (or, for cluster-scoped resources,
/// the whole resource's) prefix; a namespaced resource without a namespace gives the prefix of
/// all namespaces, and the name is then ignored since it cannot address one object. The key does
/// not contain the version, so every version of a CRD shares one stored copy.
pub fn storage_key(def: &ResourceDef, namespace: Option<&str>, name: Option<&str>) -> String {
    let group = if def.group.is_empty() { "core" } else { def.group.as_str() };
    let mut key = format!("/registry/{group}/{}/", def.plural);
    if def.namespaced {
        match namespace {
            Some(ns) => {
                key.push_str(ns);
                key.push('/');
            }
            None => return key,
        }
    }
    if let Some(n) = name {
        key.push_str(n);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    #[test]
    fn storage_keys() {
        let reg = Registry::builtin();
        let deploy = reg.lookup("apps", "v1", "deployments").unwrap();
        assert_eq!(storage_key(&deploy, Some("default"), Some("web")), "/registry/apps/deployments/default/web");
        assert_eq!(storage_key(&deploy, Some("default"), None), "/registry/apps/deployments/default/");
        assert_eq!(storage_key(&deploy, None, None), "/registry/apps/deployments/");
        let ns = reg.lookup("", "v1", "namespaces").unwrap();
        assert_eq!(storage_key(&ns, None, Some("kube-system")), "/registry/core/namespaces/kube-system");
        assert_eq!(storage_key(&ns, Some("ignored"), None), "/registry/core/namespaces/");
    }

    #[test]
    fn storage_version_hashes_match_kube() {
        // Values reported by a real kube-apiserver's discovery.
        let reg = Registry::builtin();
        assert_eq!(reg.lookup("apps", "v1", "deployments").unwrap().storage_version_hash().unwrap(), "8aSe+NMegvE=");
        assert_eq!(reg.lookup("", "v1", "configmaps").unwrap().storage_version_hash().unwrap(), "qFsyl6wFWjQ=");
        assert!(
            reg.lookup("authorization.k8s.io", "v1", "selfsubjectaccessreviews")
                .unwrap()
                .storage_version_hash()
                .is_none()
        );
    }

    #[test]
    fn name_rules() {
        assert!(NameRule::Dns1123Label.validate("a.b").len() == 1);
        assert!(NameRule::Dns1123Subdomain.validate("a.b").is_empty());
        assert!(NameRule::PathSegment.validate("system:kube-scheduler").is_empty());
        assert!(NameRule::Dns1035Label.validate("1svc").len() == 1);
    }
}
