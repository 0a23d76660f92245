//! Names, labels and annotations the engine writes, as upstream Karmada spells them, so that
//! objects made here look the same to tools written for upstream. Names the CLI and other
//! controllers share (execution spaces, the managed label, finalizers) are in
//! `karmadactl_karmada_api::wellknown`.

use karmadactl_karmada_api::wellknown::{EXECUTION_SPACE_PREFIX, KARMADA_CLUSTER_NAMESPACE, KARMADA_SYSTEM_NAMESPACE};

pub const PP_PERMANENT_ID_LABEL: &str = "propagationpolicy.karmada.io/permanent-id";
pub const PP_NAME_ANNOTATION: &str = "propagationpolicy.karmada.io/name";
pub const PP_NAMESPACE_ANNOTATION: &str = "propagationpolicy.karmada.io/namespace";
pub const CPP_PERMANENT_ID_LABEL: &str = "clusterpropagationpolicy.karmada.io/permanent-id";
pub const CPP_NAME_ANNOTATION: &str = "clusterpropagationpolicy.karmada.io/name";

pub const RB_PERMANENT_ID_LABEL: &str = "resourcebinding.karmada.io/permanent-id";
pub const CRB_PERMANENT_ID_LABEL: &str = "clusterresourcebinding.karmada.io/permanent-id";
pub const RB_NAME_ANNOTATION: &str = "resourcebinding.karmada.io/name";
pub const RB_NAMESPACE_ANNOTATION: &str = "resourcebinding.karmada.io/namespace";
pub const CRB_NAME_ANNOTATION: &str = "clusterresourcebinding.karmada.io/name";

pub const WORK_PERMANENT_ID_LABEL: &str = "work.karmada.io/permanent-id";
pub const WORK_NAME_ANNOTATION: &str = "work.karmada.io/name";
pub const WORK_NAMESPACE_ANNOTATION: &str = "work.karmada.io/namespace";
pub const CONFLICT_RESOLUTION_ANNOTATION: &str = "work.karmada.io/conflict-resolution";
pub const TEMPLATE_UID_ANNOTATION: &str = "resourcetemplate.karmada.io/uid";
pub const TEMPLATE_GENERATION_ANNOTATION: &str = "resourcetemplate.karmada.io/generation";
pub const APPLIED_OVERRIDES_ANNOTATION: &str = "policy.karmada.io/applied-overrides";
pub const APPLIED_CLUSTER_OVERRIDES_ANNOTATION: &str = "policy.karmada.io/applied-cluster-overrides";
/// Marks a namespace Work made by the namespace sync, holding the plane namespace's uid.
pub const NAMESPACE_SYNC_LABEL: &str = "namespace.karmada.io/uid";

pub const BINDING_FINALIZER: &str = "karmada.io/binding-controller";

/// Field manager of the execution controller's server-side applies in members.
pub const EXECUTION_FIELD_MANAGER: &str = "karmada-execution-controller";

/// The cluster an execution namespace belongs to.
pub fn cluster_of_execution_space(namespace: &str) -> Option<&str> {
    namespace.strip_prefix(EXECUTION_SPACE_PREFIX).filter(|c| !c.is_empty())
}

/// Namespaces whose objects are never propagated: Karmada's own and the execution spaces.
pub fn is_reserved_namespace(namespace: &str) -> bool {
    namespace == KARMADA_SYSTEM_NAMESPACE
        || namespace == KARMADA_CLUSTER_NAMESPACE
        || namespace.starts_with(EXECUTION_SPACE_PREFIX)
}

/// Namespaces the namespace sync leaves alone: reserved ones, `default` and `kube-*`, which
/// every member has already.
pub fn is_skipped_for_namespace_sync(namespace: &str) -> bool {
    is_reserved_namespace(namespace) || namespace == "default" || namespace.starts_with("kube-")
}

/// ResourceBinding name: `lower(replace(name, ":", ".") + "-" + kind)`.
pub fn binding_name(kind: &str, name: &str) -> String {
    format!("{}-{}", name.replace(':', "."), kind).to_lowercase()
}

/// Work name: the (lower-cased) object name and an encoded FNV-1a hash of
/// `namespace-name-kind`, so that objects with the same name never share a Work.
pub fn work_name(kind: &str, name: &str, namespace: &str) -> String {
    let n = name.replace(':', ".").to_lowercase();
    let key = if namespace.is_empty() { format!("{n}-{kind}") } else { format!("{namespace}-{n}-{kind}") };
    format!("{n}-{}", safe_encode(fnv32a(key.to_lowercase().as_bytes())))
}

/// Name `promote` (and upstream's `apply --all-clusters`) gives the policy it creates:
/// `lower(replace(name, ":", ".") + "-" + enc(fnv(namespace + gvk)))`, where `gvk` is Go's
/// `GroupVersionKind.String()` (`"apps/v1, Kind=Deployment"`, `"/v1, Kind=Namespace"`).
pub fn generated_policy_name(namespace: &str, name: &str, gvk: &str) -> String {
    let hash = safe_encode(fnv32a(format!("{namespace}{gvk}").as_bytes()));
    format!("{}-{hash}", name.replace(':', ".")).to_lowercase()
}

fn fnv32a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for b in bytes {
        hash ^= u32::from(*b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// Apimachinery's `rand.SafeEncodeString` over the decimal digits of the hash.
fn safe_encode(hash: u32) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    hash.to_string().bytes().map(|b| ALPHABET[usize::from(b) % ALPHABET.len()] as char).collect()
}

#[cfg(test)]
mod tests {
    use karmadactl_karmada_api::wellknown::execution_space;

    use super::*;

    #[test]
    fn work_name_matches_upstream_example() {
        assert_eq!(work_name("Deployment", "nginx", "default"), "nginx-687f7fb96f");
    }

    #[test]
    fn generated_policy_name_matches_upstream_examples() {
        assert_eq!(generated_policy_name("ns-foo", "foo", "rand"), "foo-b4978784");
        assert_eq!(generated_policy_name("default", "nginx", "apps/v1, Kind=Deployment"), "nginx-6d7f8d5f5b");
        assert_eq!(generated_policy_name("", "my-ns", "/v1, Kind=Namespace"), "my-ns-646d6c6947");
    }

    #[test]
    fn binding_name_lowercases_and_replaces_colons() {
        assert_eq!(binding_name("Deployment", "nginx"), "nginx-deployment");
        assert_eq!(binding_name("ClusterRole", "system:Foo"), "system.foo-clusterrole");
    }

    #[test]
    fn execution_space_round_trip() {
        assert_eq!(cluster_of_execution_space(&execution_space("member1")), Some("member1"));
        assert_eq!(cluster_of_execution_space("default"), None);
        assert_eq!(cluster_of_execution_space("karmada-es-"), None);
    }

    #[test]
    fn reserved_and_skipped_namespaces() {
        assert!(is_reserved_namespace("karmada-system"));
        assert!(is_reserved_namespace("karmada-es-member1"));
        assert!(!is_reserved_namespace("default"));
        assert!(is_skipped_for_namespace_sync("default"));
        assert!(is_skipped_for_namespace_sync("kube-public"));
        assert!(!is_skipped_for_namespace_sync("demo"));
    }
}
