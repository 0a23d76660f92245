//! The built-in resources, with names, verbs and subresources as kube-apiserver v1.33 reports them.
//!
//! One table drives the definitions, the typed decoding used for validation, and the OpenAPI
//! schemas (k8s-openapi's), so the three can never disagree about which kinds exist.

use k8s_openapi::api::{
    admissionregistration::v1 as admission, apps::v1 as apps, authentication::v1 as authn, authorization::v1 as authz,
    batch::v1 as batch, certificates::v1 as certs, coordination::v1 as coord, core::v1 as core,
    discovery::v1 as discovery, rbac::v1 as rbac,
};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1 as apiext;
use k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1 as apireg;
use k8s_openapi::{ClusterResourceScope, NamespaceResourceScope, Resource};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

use super::resources::{
    NameRule, ResourceDef, Source, Subresource, VERBS_ALL, VERBS_CREATE_ONLY, VERBS_NO_COLLECTION_DELETE,
};
use super::validation::field;

/// Turns k8s-openapi's type-level scope into a value.
trait Scoped {
    const NAMESPACED: bool;
}
impl Scoped for NamespaceResourceScope {
    const NAMESPACED: bool = true;
}
impl Scoped for ClusterResourceScope {
    const NAMESPACED: bool = false;
}

/// Why an object does not decode into its k8s-openapi type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DecodeFailure {
    /// Field path of the offending value (`spec.replicas`).
    pub path: String,
    /// JSON pointer to the offending value (`/spec/replicas`).
    pub pointer: String,
    /// serde's explanation (`invalid type: string "two", expected i32`).
    pub message: String,
}

fn scale() -> Subresource {
    Subresource::Scale {
        spec_replicas_path: ".spec.replicas".to_string(),
        status_replicas_path: ".status.replicas".to_string(),
        label_selector_path: None,
    }
}

fn make<T>(short: &[&str], cats: &[&str], verbs: &[&str], subs: Vec<Subresource>, rule: NameRule) -> ResourceDef
where
    T: Resource,
    T::Scope: Scoped,
{
    let strings = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    ResourceDef {
        group: T::GROUP.to_string(),
        version: T::VERSION.to_string(),
        kind: T::KIND.to_string(),
        list_kind: format!("{}List", T::KIND),
        plural: T::URL_PATH_SEGMENT.to_string(),
        singular: T::KIND.to_ascii_lowercase(),
        short_names: strings(short),
        categories: strings(cats),
        namespaced: <T::Scope as Scoped>::NAMESPACED,
        verbs: strings(verbs),
        subresources: subs,
        printer_columns: Vec::new(),
        source: Source::Builtin,
        name_rule: rule,
        schema: None,
        validator: None,
    }
}

fn is<T: Resource>(group: &str, version: &str, kind: &str) -> bool {
    T::GROUP == group && T::VERSION == version && T::KIND == kind
}

/// Decodes into `T` and serialises back, so fields `T` does not know disappear. `apiVersion` and
/// `kind` are forced to `T`'s because k8s-openapi rejects others and the caller has already
/// matched the object to this resource.
fn roundtrip_as<T: Resource + DeserializeOwned + Serialize>(obj: &Value) -> Result<Value, DecodeFailure> {
    // Bodies nearly always carry `T`'s own apiVersion and kind: they are decoded in place
    // rather than copied first. Both paths decode from `&Value`, so each type's decoder is
    // instantiated once.
    let retyped = (!has_type_of::<T>(obj)).then(|| typed_input::<T>(obj));
    let input = retyped.as_ref().unwrap_or(obj);
    let typed = match T::deserialize(input) {
        Ok(typed) => typed,
        // Tracking the path costs a wrapper around every field of every write; only a body that
        // does not decode needs it, so it is decoded again, the same way, to find where.
        Err(first) => {
            return Err(match serde_path_to_error::deserialize::<_, T>(input) {
                Err(e) => {
                    let (path, pointer) = render_path(e.path());
                    DecodeFailure { path, pointer, message: e.inner().to_string() }
                }
                Ok(_) => DecodeFailure { path: String::new(), pointer: String::new(), message: first.to_string() },
            });
        }
    };
    serde_json::to_value(&typed).map_err(|e| DecodeFailure {
        path: String::new(),
        pointer: String::new(),
        message: e.to_string(),
    })
}

/// Whether `obj` says it is a `T` already.
fn has_type_of<T: Resource>(obj: &Value) -> bool {
    obj.get("apiVersion").and_then(Value::as_str) == Some(T::API_VERSION)
        && obj.get("kind").and_then(Value::as_str) == Some(T::KIND)
}

/// A copy of `obj` with `T`'s `apiVersion` and `kind`.
fn typed_input<T: Resource>(obj: &Value) -> Value {
    let mut input = obj.clone();
    if let Some(map) = input.as_object_mut() {
        map.insert("apiVersion".into(), Value::String(T::API_VERSION.to_string()));
        map.insert("kind".into(), Value::String(T::KIND.to_string()));
    }
    input
}

/// Renders a serde_path_to_error path in kube's style (`spec.containers[0].name`) and as a JSON
/// pointer (`/spec/containers/0/name`).
fn render_path(path: &serde_path_to_error::Path) -> (String, String) {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    let mut pointer = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => {
                out = field::index(&out, *index);
                pointer.push_str(&format!("/{index}"));
            }
            Segment::Map { key } | Segment::Enum { variant: key } => {
                out = field::child(&out, key);
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Unknown => {}
        }
    }
    (out, pointer)
}

macro_rules! builtins {
    ($( $ty:ty => [$($s:literal),*], [$($c:literal),*], $verbs:expr, [$($sub:expr),*], $rule:expr; )*) => {
        /// Every built-in resource definition.
        pub(crate) fn defs() -> Vec<ResourceDef> {
            vec![$( make::<$ty>(&[$($s),*], &[$($c),*], $verbs, vec![$($sub),*], $rule), )*]
        }

        /// Round-trips `obj` through the k8s-openapi type of the kind; None for unknown kinds.
        pub(crate) fn roundtrip(group: &str, version: &str, kind: &str, obj: &Value) -> Option<Result<Value, DecodeFailure>> {
            $( if is::<$ty>(group, version, kind) { return Some(roundtrip_as::<$ty>(obj)); } )*
            None
        }

        /// Adds the kind's full schema, and every schema it references, to `generator`'s
        /// definitions; kube's name of the kind's schema, None for unknown kinds. Only the
        /// generator of the committed schemas (the `schema` feature) uses it.
        #[cfg(feature = "schema")]
        pub(crate) fn register_schema(
            group: &str,
            version: &str,
            kind: &str,
            generator: &mut schemars::SchemaGenerator,
        ) -> Option<String> {
            $( if is::<$ty>(group, version, kind) {
                generator.subschema_for::<$ty>();
                return Some(<$ty as schemars::JsonSchema>::schema_name().into_owned());
            } )*
            None
        }
    };
}

use NameRule::{Any, Dns1035Label, Dns1123Label, Dns1123Subdomain as Subdomain, PathSegment};
use Subresource::{Approval, Finalize, Status, Token};

builtins! {
    core::Namespace => ["ns"], [], VERBS_NO_COLLECTION_DELETE, [Status, Finalize], Dns1123Label;
    core::ConfigMap => ["cm"], [], VERBS_ALL, [], Subdomain;
    core::Secret => [], [], VERBS_ALL, [], Subdomain;
    core::ServiceAccount => ["sa"], [], VERBS_ALL, [Token], Subdomain;
    core::Service => ["svc"], ["all"], VERBS_ALL, [Status], Dns1035Label;
    core::Endpoints => ["ep"], [], VERBS_ALL, [], Subdomain;
    discovery::EndpointSlice => [], [], VERBS_ALL, [], Subdomain;
    core::Event => ["ev"], [], VERBS_ALL, [], Subdomain;
    core::Pod => ["po"], ["all"], VERBS_ALL, [Status], Subdomain;
    core::Node => ["no"], [], VERBS_ALL, [Status], Subdomain;
    core::ResourceQuota => ["quota"], [], VERBS_ALL, [Status], Subdomain;
    apps::Deployment => ["deploy"], ["all"], VERBS_ALL, [Status, scale()], Subdomain;
    apps::ReplicaSet => ["rs"], ["all"], VERBS_ALL, [Status, scale()], Subdomain;
    apps::StatefulSet => ["sts"], ["all"], VERBS_ALL, [Status, scale()], Subdomain;
    apps::DaemonSet => ["ds"], ["all"], VERBS_ALL, [Status], Subdomain;
    batch::Job => [], ["all"], VERBS_ALL, [Status], Subdomain;
    batch::CronJob => ["cj"], ["all"], VERBS_ALL, [Status], Subdomain;
    rbac::Role => [], [], VERBS_ALL, [], PathSegment;
    rbac::ClusterRole => [], [], VERBS_ALL, [], PathSegment;
    rbac::RoleBinding => [], [], VERBS_ALL, [], PathSegment;
    rbac::ClusterRoleBinding => [], [], VERBS_ALL, [], PathSegment;
    certs::CertificateSigningRequest => ["csr"], [], VERBS_ALL, [Approval, Status], Any;
    coord::Lease => [], [], VERBS_ALL, [], Subdomain;
    apiext::CustomResourceDefinition => ["crd", "crds"], ["api-extensions"], VERBS_ALL, [Status], Subdomain;
    // Stored as data: the embedded plane neither calls admission webhooks nor proxies
    // aggregated APIs (create and update say so in a warning).
    admission::MutatingWebhookConfiguration => [], ["api-extensions"], VERBS_ALL, [], Subdomain;
    admission::ValidatingWebhookConfiguration => [], ["api-extensions"], VERBS_ALL, [], Subdomain;
    apireg::APIService => [], ["api-extensions"], VERBS_ALL, [Status], Subdomain;
    authz::SelfSubjectAccessReview => [], [], VERBS_CREATE_ONLY, [], Any;
    authz::SubjectAccessReview => [], [], VERBS_CREATE_ONLY, [], Any;
    authz::SelfSubjectRulesReview => [], [], VERBS_CREATE_ONLY, [], Any;
    authn::TokenReview => [], [], VERBS_CREATE_ONLY, [], Any;
    authn::SelfSubjectReview => [], [], VERBS_CREATE_ONLY, [], Any;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_def_round_trips_and_has_a_schema() {
        for def in defs() {
            let obj = json!({"metadata": {"name": "x"}});
            let back = roundtrip(&def.group, &def.version, &def.kind, &obj)
                .unwrap_or_else(|| panic!("{} has no decoder", def.kind))
                .unwrap();
            assert_eq!(back["kind"], json!(def.kind));
            let name = crate::registry::openapi::builtin_kind_schema_name(&def.group, &def.version, &def.kind);
            assert_eq!(name.unwrap().rsplit('.').next(), Some(&*def.kind));
        }
        assert!(roundtrip("apps", "v1", "Nope", &json!({})).is_none());
    }

    #[test]
    fn decode_failure_names_the_path() {
        let obj = json!({"spec": {"template": {"spec": {"containers": [{"name": 5}]}}}});
        let err = roundtrip("apps", "v1", "Deployment", &obj).unwrap().unwrap_err();
        assert_eq!(err.path, "spec.template.spec.containers[0].name");
        assert_eq!(err.pointer, "/spec/template/spec/containers/0/name");
        assert!(err.message.contains("invalid type"), "{}", err.message);
    }
}
