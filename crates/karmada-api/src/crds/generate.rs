//! The Karmada CRDs generated from the types (the `schema` feature): what manifests/crds/ holds.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceConversion, CustomResourceDefinition, CustomResourceValidation, JSONSchemaProps,
};
use kube::CustomResourceExt;
use kube::core::crd::merge_crds;
use serde_json::Value;

use crate::policy::overrides::{ClusterOverridePolicy, OverridePolicy, OverrideSpec};
use crate::policy::propagation::{ClusterPropagationPolicy, PropagationPolicy, PropagationSpec};
use crate::schema;
use crate::work::binding::{ClusterResourceBinding, ResourceBinding, ResourceBindingSpec};
use crate::work::binding_status::ResourceBindingStatus;
use crate::work::binding_v1alpha1 as v1alpha1;
use crate::work::workload::{Work, WorkSpec, WorkStatus};

/// Every CRD generated from the types, in a stable order: what `all` reads back.
pub fn generated() -> Vec<CustomResourceDefinition> {
    vec![
        version::<PropagationPolicy>(
            "PropagationPolicy propagates resource templates in its namespace to member clusters.",
            schema::of::<PropagationSpec>(),
            None,
        ),
        version::<ClusterPropagationPolicy>(
            "ClusterPropagationPolicy propagates resource templates of any namespace, and cluster-scoped ones, to member clusters.",
            schema::of::<PropagationSpec>(),
            None,
        ),
        version::<OverridePolicy>(
            "OverridePolicy changes resource templates in its namespace for particular member clusters.",
            schema::of::<OverrideSpec>(),
            None,
        ),
        version::<ClusterOverridePolicy>(
            "ClusterOverridePolicy changes resource templates of any namespace, and cluster-scoped ones, for particular member clusters.",
            schema::of::<OverrideSpec>(),
            None,
        ),
        bindings(
            version::<ResourceBinding>(
                BINDING,
                schema::of::<ResourceBindingSpec>(),
                Some(schema::of::<ResourceBindingStatus>()),
            ),
            version::<v1alpha1::ResourceBinding>(
                BINDING,
                schema::of::<v1alpha1::ResourceBindingSpec>(),
                Some(schema::of::<v1alpha1::ResourceBindingStatus>()),
            ),
        ),
        bindings(
            version::<ClusterResourceBinding>(
                CLUSTER_BINDING,
                schema::of::<ResourceBindingSpec>(),
                Some(schema::of::<ResourceBindingStatus>()),
            ),
            version::<v1alpha1::ClusterResourceBinding>(
                CLUSTER_BINDING,
                schema::of::<v1alpha1::ResourceBindingSpec>(),
                Some(schema::of::<v1alpha1::ResourceBindingStatus>()),
            ),
        ),
        version::<Work>(
            "Work holds the manifests to apply to one member cluster.",
            schema::of::<WorkSpec>(),
            Some(schema::of::<WorkStatus>()),
        ),
    ]
}

const BINDING: &str =
    "ResourceBinding binds a namespaced resource template to a propagation policy and records where it is scheduled.";
const CLUSTER_BINDING: &str = "ClusterResourceBinding binds a cluster-scoped resource template to a propagation policy and records where it is scheduled.";

/// The CRD files generated from the types: `(file name, YAML)`, named `<group>_<plural>.yaml`
/// like upstream's.
pub fn files() -> Vec<(String, String)> {
    generated().iter().map(|crd| (format!("{}_{}.yaml", crd.spec.group, crd.spec.names.plural), to_yaml(crd))).collect()
}

/// One CRD as the committed YAML document.
pub fn to_yaml(crd: &CustomResourceDefinition) -> String {
    let body = serde_saphyr::to_string(crd).expect("a CRD serialises to YAML");
    format!(
        "# Generated from crates/karmada-api; regenerate with `UPDATE_GENERATED=1 cargo test --test it karmada_crds::`.\n{body}"
    )
}

/// The one-version CRD of kind `K` with the given spec (and status) schemas.
fn version<K>(description: &str, spec: Value, status: Option<Value>) -> CustomResourceDefinition
where
    K: CustomResourceExt + kube::Resource<DynamicType = ()>,
{
    let mut crd = K::crd();
    let kind = K::kind(&()).into_owned();
    let object = schema::object(&kind, description, spec, status);
    let props: JSONSchemaProps = serde_json::from_value(object).expect("generated schemas are JSONSchemaProps");
    crd.spec.versions[0].schema = Some(CustomResourceValidation { open_api_v3_schema: Some(props) });
    crd.spec.names.list_kind = Some(format!("{kind}List"));
    crd
}

/// Both served versions of a binding kind. Upstream converts between them with a webhook; the
/// embedded plane has none, so conversion is `None`: objects are relabelled, never converted
/// (see `binding_v1alpha1`).
fn bindings(v1alpha2: CustomResourceDefinition, v1alpha1: CustomResourceDefinition) -> CustomResourceDefinition {
    let mut crd = merge_crds(vec![v1alpha2, v1alpha1], "v1alpha2").expect("the binding versions agree on names");
    crd.spec.versions.sort_by(|a, b| a.name.cmp(&b.name));
    crd.spec.conversion = Some(CustomResourceConversion { strategy: "None".into(), webhook: None });
    crd
}
