//! Well-known names shared by Karmada and this tool: namespaces, labels, annotations, defaults
//! and environment variables. One list, so a name is never spelled twice.

/// Environment variable with a path list of kubeconfig files (kubectl's rule).
pub const ENV_KUBECONFIG: &str = "KUBECONFIG";

/// Namespace where Karmada's components and the pull-mode agent run.
pub const KARMADA_SYSTEM_NAMESPACE: &str = "karmada-system";

/// The API group of Roles, ClusterRoles and their bindings.
pub const RBAC_GROUP: &str = "rbac.authorization.k8s.io";
/// Namespace (in Karmada and in the member) holding a member's credentials.
pub const KARMADA_CLUSTER_NAMESPACE: &str = "karmada-cluster";
/// Prefix of the per-member execution namespace `karmada-es-<cluster>`.
pub const EXECUTION_SPACE_PREFIX: &str = "karmada-es-";

/// The execution namespace `karmada-es-<cluster>` holding one member's Works.
pub fn execution_space(cluster: &str) -> String {
    format!("{EXECUTION_SPACE_PREFIX}{cluster}")
}

/// Namespace of the ConfigMap through which members discover the plane (kubeadm's name).
pub const CLUSTER_INFO_NAMESPACE: &str = "kube-public";
/// The discovery ConfigMap: the plane's URL and CA, signed per bootstrap token. The bootstrap
/// signer writes it and the API server's bootstrap lets anonymous callers read it.
pub const CLUSTER_INFO_NAME: &str = "cluster-info";

/// Label put on everything karmadactl creates for Karmada itself.
pub const LABEL_KARMADA_SYSTEM: &str = "karmada.io/system";
/// Label on member objects that Karmada manages (`get` shows it as ADOPTION).
pub const LABEL_KARMADA_MANAGED: &str = "karmada.io/managed";
/// Label key on objects `init` creates in the host cluster; deinit deletes by it.
pub const LABEL_BOOTSTRAPPING: &str = "karmada.io/bootstrapping";
/// Label on every host-cluster object `init` creates (value `karmadactl-init`): deinit deletes
/// only objects that carry it, so it never removes what someone else labelled for Karmada.
pub const LABEL_INSTALLED_BY: &str = "karmadactl.karmada.io/installed-by";
/// Label `init` puts on the node that holds etcd's hostPath data.
pub const LABEL_ETCD_NODE: &str = "karmada.io/etcd";

/// Finalizer the cluster controller puts on every Cluster (force-unjoin removes it).
pub const CLUSTER_CONTROLLER_FINALIZER: &str = "karmada.io/cluster-controller";
/// Finalizer the execution controller puts on every Work (force-unjoin removes it).
pub const EXECUTION_CONTROLLER_FINALIZER: &str = "karmada.io/execution-controller";

/// Context and cluster name of the Karmada API server in written kubeconfigs.
pub const KARMADA_APISERVER_CONTEXT: &str = "karmada-apiserver";
/// User name of the administrator in the written kubeconfig.
pub const KARMADA_ADMIN_USER: &str = "karmada-admin";
/// File name of the admin kubeconfig under the data directory.
pub const KARMADA_APISERVER_KUBECONFIG: &str = "karmada-apiserver.config";

/// Default data directory of `init` when run as root (upstream's default).
pub const DEFAULT_KARMADA_DATA: &str = "/etc/karmada";
/// Default PKI directory of `init` when run as root.
pub const DEFAULT_KARMADA_PKI: &str = "/etc/karmada/pki";

/// Default group of bootstrap tokens created by `token create`.
pub const DEFAULT_TOKEN_GROUP: &str = "system:bootstrappers:karmada:default-cluster-token";
/// Default usages of bootstrap tokens created by `token create`.
pub const DEFAULT_TOKEN_USAGES: &[&str] = &["signing", "authentication"];

/// Cluster names are DNS-1123 labels of at most this many characters (join, register).
pub const MAX_CLUSTER_NAME_LEN: usize = 48;

/// The Kubernetes API version the embedded control plane serves (`/version`).
pub const KUBERNETES_API_VERSION: &str = "v1.33.0";

/// The Karmada release whose behaviour and defaults this build follows (image tags, CRDs).
pub const KARMADA_RELEASE: &str = "v1.19.0";
