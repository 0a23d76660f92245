//! Patch strategies and list merge keys of the built-in kinds, as data.
//!
//! Source: the `patchStrategy` / `patchMergeKey` struct tags of the Kubernetes v1.33 API types
//! (k8s.io/api and k8s.io/apimachinery's `ObjectMeta`), which kube-apiserver also publishes as
//! `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` in `api/openapi-spec`. Fields
//! that Go inlines (`EphemeralContainerCommon` in `EphemeralContainer`, `VolumeSource` in `Volume`)
//! appear in the outer type, as in JSON. Deliberately without a strategy upstream, and so here:
//! tolerations, node taints, endpoint subsets, CSR and CRD conditions, RBAC rules and subjects.
//!
//! Only fields that carry a strategy, or are objects leading to one, are listed: every other field
//! merges as plain JSON (objects key by key, lists replaced whole). Lists without a strategy are
//! not followed because the patch replaces them whole.

/// How a field is patched (`x-kubernetes-patch-strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// No strategy: objects merge key by key, lists are replaced.
    None,
    /// Lists merge: items by their merge key, primitives as a set.
    Merge,
    /// `merge,retainKeys`: a merged list whose items clients patch with `$retainKeys`.
    MergeRetainKeys,
    /// An object clients patch with `$retainKeys` (fields not listed are cleared).
    RetainKeys,
    /// The value is replaced whole.
    Replace,
}

impl Strategy {
    /// The list-level strategy the server applies (`retainKeys` only affects how clients diff).
    pub(crate) fn merges_lists(self) -> bool {
        matches!(self, Strategy::Merge | Strategy::MergeRetainKeys)
    }

    /// The `x-kubernetes-patch-strategy` value; None when the field has no strategy.
    pub fn as_extension(self) -> Option<&'static str> {
        match self {
            Strategy::None => None,
            Strategy::Merge => Some("merge"),
            Strategy::MergeRetainKeys => Some("merge,retainKeys"),
            Strategy::RetainKeys => Some("retainKeys"),
            Strategy::Replace => Some("replace"),
        }
    }
}

/// A struct type of the API, by its OpenAPI schema name, with the fields that matter for patches.
#[derive(Debug)]
pub struct TypeSchema {
    /// OpenAPI definition name (`io.k8s.api.core.v1.PodSpec`).
    pub name: &'static str,
    /// Fields with a strategy or leading to one, sorted by name.
    pub fields: &'static [FieldMeta],
}

/// One field of a [`TypeSchema`].
#[derive(Debug)]
pub struct FieldMeta {
    /// JSON field name.
    pub name: &'static str,
    pub strategy: Strategy,
    /// `x-kubernetes-patch-merge-key` of a merged list of objects.
    pub merge_key: Option<&'static str>,
    /// The type of the value (of each item, for lists) when it has patch metadata of its own.
    pub ty: Option<&'static TypeSchema>,
}

impl TypeSchema {
    /// The field named `name`, if it has patch metadata.
    pub fn field(&self, name: &str) -> Option<&'static FieldMeta> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// The schema of a built-in kind; None for kinds without patch metadata (and custom resources).
pub fn schema_for(group: &str, kind: &str) -> Option<&'static TypeSchema> {
    KINDS.iter().find(|(g, k, _)| *g == group && *k == kind).map(|(_, _, s)| *s)
}

/// The patch metadata of the field at `path` (JSON field names, list items implied) in a kind.
pub fn lookup(group: &str, kind: &str, path: &[&str]) -> Option<&'static FieldMeta> {
    let (last, parents) = path.split_last()?;
    let mut ty = schema_for(group, kind)?;
    for name in parents {
        ty = ty.field(name)?.ty?;
    }
    ty.field(last)
}

/// Every type in the table, for the OpenAPI documents (which annotate each by name).
pub fn all_types() -> Vec<&'static TypeSchema> {
    let mut seen: Vec<&'static TypeSchema> = Vec::new();
    let mut stack: Vec<&'static TypeSchema> = KINDS.iter().map(|(_, _, s)| *s).collect();
    while let Some(t) = stack.pop() {
        if seen.iter().any(|s| std::ptr::eq(*s, t)) {
            continue;
        }
        seen.push(t);
        stack.extend(t.fields.iter().filter_map(|f| f.ty));
    }
    seen.sort_by_key(|t| t.name);
    seen
}

pub static DAEMON_SET: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.DaemonSet",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&DAEMON_SET_SPEC) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&DAEMON_SET_STATUS) },
    ],
};

pub(crate) static DAEMON_SET_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.DaemonSetSpec",
    fields: &[FieldMeta { name: "template", strategy: Strategy::None, merge_key: None, ty: Some(&POD_TEMPLATE_SPEC) }],
};

pub(crate) static DAEMON_SET_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.DaemonSetStatus",
    fields: &[FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None }],
};

pub static DEPLOYMENT: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.Deployment",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&DEPLOYMENT_SPEC) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&DEPLOYMENT_STATUS) },
    ],
};

pub(crate) static DEPLOYMENT_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.DeploymentSpec",
    fields: &[
        FieldMeta { name: "strategy", strategy: Strategy::RetainKeys, merge_key: None, ty: None },
        FieldMeta { name: "template", strategy: Strategy::None, merge_key: None, ty: Some(&POD_TEMPLATE_SPEC) },
    ],
};

pub(crate) static DEPLOYMENT_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.DeploymentStatus",
    fields: &[FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None }],
};

pub static REPLICA_SET: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.ReplicaSet",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&REPLICA_SET_SPEC) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&REPLICA_SET_STATUS) },
    ],
};

pub(crate) static REPLICA_SET_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.ReplicaSetSpec",
    fields: &[FieldMeta { name: "template", strategy: Strategy::None, merge_key: None, ty: Some(&POD_TEMPLATE_SPEC) }],
};

pub(crate) static REPLICA_SET_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.ReplicaSetStatus",
    fields: &[FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None }],
};

pub static STATEFUL_SET: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.StatefulSet",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&STATEFUL_SET_SPEC) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&STATEFUL_SET_STATUS) },
    ],
};

pub(crate) static STATEFUL_SET_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.StatefulSetSpec",
    fields: &[FieldMeta { name: "template", strategy: Strategy::None, merge_key: None, ty: Some(&POD_TEMPLATE_SPEC) }],
};

pub(crate) static STATEFUL_SET_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.apps.v1.StatefulSetStatus",
    fields: &[FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None }],
};

pub(crate) static SCALE: TypeSchema = TypeSchema {
    name: "io.k8s.api.autoscaling.v1.Scale",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static CRON_JOB: TypeSchema = TypeSchema {
    name: "io.k8s.api.batch.v1.CronJob",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&CRON_JOB_SPEC) },
    ],
};

pub(crate) static CRON_JOB_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.batch.v1.CronJobSpec",
    fields: &[FieldMeta {
        name: "jobTemplate",
        strategy: Strategy::None,
        merge_key: None,
        ty: Some(&JOB_TEMPLATE_SPEC),
    }],
};

pub static JOB: TypeSchema = TypeSchema {
    name: "io.k8s.api.batch.v1.Job",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&JOB_SPEC) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&JOB_STATUS) },
    ],
};

pub(crate) static JOB_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.batch.v1.JobSpec",
    fields: &[FieldMeta { name: "template", strategy: Strategy::None, merge_key: None, ty: Some(&POD_TEMPLATE_SPEC) }],
};

pub(crate) static JOB_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.batch.v1.JobStatus",
    fields: &[FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None }],
};

pub(crate) static JOB_TEMPLATE_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.batch.v1.JobTemplateSpec",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&JOB_SPEC) },
    ],
};

pub static CERTIFICATE_SIGNING_REQUEST: TypeSchema = TypeSchema {
    name: "io.k8s.api.certificates.v1.CertificateSigningRequest",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static LEASE: TypeSchema = TypeSchema {
    name: "io.k8s.api.coordination.v1.Lease",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static CONFIG_MAP: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.ConfigMap",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static CONTAINER: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Container",
    fields: &[
        FieldMeta { name: "env", strategy: Strategy::Merge, merge_key: Some("name"), ty: None },
        FieldMeta { name: "ports", strategy: Strategy::Merge, merge_key: Some("containerPort"), ty: None },
        FieldMeta { name: "volumeDevices", strategy: Strategy::Merge, merge_key: Some("devicePath"), ty: None },
        FieldMeta { name: "volumeMounts", strategy: Strategy::Merge, merge_key: Some("mountPath"), ty: None },
    ],
};

pub static CONTAINER_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.ContainerStatus",
    fields: &[
        FieldMeta { name: "allocatedResourcesStatus", strategy: Strategy::Merge, merge_key: Some("name"), ty: None },
        FieldMeta { name: "volumeMounts", strategy: Strategy::Merge, merge_key: Some("mountPath"), ty: None },
    ],
};

pub static ENDPOINTS: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Endpoints",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub(crate) static EPHEMERAL_CONTAINER: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.EphemeralContainer",
    fields: &[
        FieldMeta { name: "env", strategy: Strategy::Merge, merge_key: Some("name"), ty: None },
        FieldMeta { name: "ports", strategy: Strategy::Merge, merge_key: Some("containerPort"), ty: None },
        FieldMeta { name: "volumeDevices", strategy: Strategy::Merge, merge_key: Some("devicePath"), ty: None },
        FieldMeta { name: "volumeMounts", strategy: Strategy::Merge, merge_key: Some("mountPath"), ty: None },
    ],
};

pub(crate) static EPHEMERAL_VOLUME_SOURCE: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.EphemeralVolumeSource",
    fields: &[FieldMeta {
        name: "volumeClaimTemplate",
        strategy: Strategy::None,
        merge_key: None,
        ty: Some(&PERSISTENT_VOLUME_CLAIM_TEMPLATE),
    }],
};

pub static EVENT: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Event",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static NAMESPACE: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Namespace",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&NAMESPACE_STATUS) },
    ],
};

pub(crate) static NAMESPACE_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.NamespaceStatus",
    fields: &[FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None }],
};

pub static NODE: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Node",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&NODE_SPEC) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&NODE_STATUS) },
    ],
};

pub(crate) static NODE_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.NodeSpec",
    fields: &[FieldMeta { name: "podCIDRs", strategy: Strategy::Merge, merge_key: None, ty: None }],
};

pub(crate) static NODE_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.NodeStatus",
    fields: &[
        FieldMeta { name: "addresses", strategy: Strategy::Merge, merge_key: Some("type"), ty: None },
        FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None },
    ],
};

pub static PERSISTENT_VOLUME_CLAIM: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.PersistentVolumeClaim",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta {
            name: "status",
            strategy: Strategy::None,
            merge_key: None,
            ty: Some(&PERSISTENT_VOLUME_CLAIM_STATUS),
        },
    ],
};

pub static PERSISTENT_VOLUME_CLAIM_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.PersistentVolumeClaimStatus",
    fields: &[FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None }],
};

pub(crate) static PERSISTENT_VOLUME_CLAIM_TEMPLATE: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.PersistentVolumeClaimTemplate",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static POD: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Pod",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&POD_SPEC) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&POD_STATUS) },
    ],
};

pub(crate) static POD_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.PodSpec",
    fields: &[
        FieldMeta { name: "containers", strategy: Strategy::Merge, merge_key: Some("name"), ty: Some(&CONTAINER) },
        FieldMeta {
            name: "ephemeralContainers",
            strategy: Strategy::Merge,
            merge_key: Some("name"),
            ty: Some(&EPHEMERAL_CONTAINER),
        },
        FieldMeta { name: "hostAliases", strategy: Strategy::Merge, merge_key: Some("ip"), ty: None },
        FieldMeta { name: "imagePullSecrets", strategy: Strategy::Merge, merge_key: Some("name"), ty: None },
        FieldMeta { name: "initContainers", strategy: Strategy::Merge, merge_key: Some("name"), ty: Some(&CONTAINER) },
        FieldMeta { name: "resourceClaims", strategy: Strategy::MergeRetainKeys, merge_key: Some("name"), ty: None },
        FieldMeta { name: "schedulingGates", strategy: Strategy::Merge, merge_key: Some("name"), ty: None },
        FieldMeta {
            name: "topologySpreadConstraints",
            strategy: Strategy::Merge,
            merge_key: Some("topologyKey"),
            ty: None,
        },
        FieldMeta { name: "volumes", strategy: Strategy::MergeRetainKeys, merge_key: Some("name"), ty: Some(&VOLUME) },
    ],
};

pub(crate) static POD_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.PodStatus",
    fields: &[
        FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None },
        FieldMeta { name: "hostIPs", strategy: Strategy::Merge, merge_key: Some("ip"), ty: None },
        FieldMeta { name: "podIPs", strategy: Strategy::Merge, merge_key: Some("ip"), ty: None },
        FieldMeta {
            name: "resourceClaimStatuses",
            strategy: Strategy::MergeRetainKeys,
            merge_key: Some("name"),
            ty: None,
        },
    ],
};

pub(crate) static POD_TEMPLATE_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.PodTemplateSpec",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&POD_SPEC) },
    ],
};

pub static SECRET: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Secret",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static SERVICE: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Service",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "spec", strategy: Strategy::None, merge_key: None, ty: Some(&SERVICE_SPEC) },
        FieldMeta { name: "status", strategy: Strategy::None, merge_key: None, ty: Some(&SERVICE_STATUS) },
    ],
};

pub static SERVICE_ACCOUNT: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.ServiceAccount",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "secrets", strategy: Strategy::Merge, merge_key: Some("name"), ty: None },
    ],
};

pub(crate) static SERVICE_SPEC: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.ServiceSpec",
    fields: &[FieldMeta { name: "ports", strategy: Strategy::Merge, merge_key: Some("port"), ty: None }],
};

pub(crate) static SERVICE_STATUS: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.ServiceStatus",
    fields: &[FieldMeta { name: "conditions", strategy: Strategy::Merge, merge_key: Some("type"), ty: None }],
};

pub(crate) static VOLUME: TypeSchema = TypeSchema {
    name: "io.k8s.api.core.v1.Volume",
    fields: &[FieldMeta {
        name: "ephemeral",
        strategy: Strategy::None,
        merge_key: None,
        ty: Some(&EPHEMERAL_VOLUME_SOURCE),
    }],
};

pub(crate) static CLUSTER_ROLE: TypeSchema = TypeSchema {
    name: "io.k8s.api.rbac.v1.ClusterRole",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static CLUSTER_ROLE_BINDING: TypeSchema = TypeSchema {
    name: "io.k8s.api.rbac.v1.ClusterRoleBinding",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static MUTATING_WEBHOOK_CONFIGURATION: TypeSchema = TypeSchema {
    name: "io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "webhooks", strategy: Strategy::Merge, merge_key: Some("name"), ty: None },
    ],
};

pub static VALIDATING_WEBHOOK_CONFIGURATION: TypeSchema = TypeSchema {
    name: "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration",
    fields: &[
        FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) },
        FieldMeta { name: "webhooks", strategy: Strategy::Merge, merge_key: Some("name"), ty: None },
    ],
};

pub static API_SERVICE: TypeSchema = TypeSchema {
    name: "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static ROLE: TypeSchema = TypeSchema {
    name: "io.k8s.api.rbac.v1.Role",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static ROLE_BINDING: TypeSchema = TypeSchema {
    name: "io.k8s.api.rbac.v1.RoleBinding",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub(crate) static CUSTOM_RESOURCE_DEFINITION: TypeSchema = TypeSchema {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

pub static OBJECT_META: TypeSchema = TypeSchema {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    fields: &[
        FieldMeta { name: "finalizers", strategy: Strategy::Merge, merge_key: None, ty: None },
        FieldMeta { name: "ownerReferences", strategy: Strategy::Merge, merge_key: Some("uid"), ty: None },
    ],
};

/// The kinds with patch metadata, by API group and kind.
pub static KINDS: &[(&str, &str, &TypeSchema)] = &[
    ("", "Namespace", &NAMESPACE),
    ("", "ConfigMap", &CONFIG_MAP),
    ("", "Secret", &SECRET),
    ("", "ServiceAccount", &SERVICE_ACCOUNT),
    ("", "Service", &SERVICE),
    ("", "Endpoints", &ENDPOINTS),
    ("", "Event", &EVENT),
    ("", "Pod", &POD),
    ("", "Node", &NODE),
    ("apps", "Deployment", &DEPLOYMENT),
    ("apps", "ReplicaSet", &REPLICA_SET),
    ("apps", "StatefulSet", &STATEFUL_SET),
    ("apps", "DaemonSet", &DAEMON_SET),
    ("batch", "Job", &JOB),
    ("batch", "CronJob", &CRON_JOB),
    ("rbac.authorization.k8s.io", "Role", &ROLE),
    ("rbac.authorization.k8s.io", "ClusterRole", &CLUSTER_ROLE),
    ("rbac.authorization.k8s.io", "RoleBinding", &ROLE_BINDING),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding", &CLUSTER_ROLE_BINDING),
    ("certificates.k8s.io", "CertificateSigningRequest", &CERTIFICATE_SIGNING_REQUEST),
    ("coordination.k8s.io", "Lease", &LEASE),
    ("apiextensions.k8s.io", "CustomResourceDefinition", &CUSTOM_RESOURCE_DEFINITION),
    ("admissionregistration.k8s.io", "MutatingWebhookConfiguration", &MUTATING_WEBHOOK_CONFIGURATION),
    ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration", &VALIDATING_WEBHOOK_CONFIGURATION),
    ("apiregistration.k8s.io", "APIService", &API_SERVICE),
    ("autoscaling", "Scale", &SCALE),
];
