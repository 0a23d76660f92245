//! What the RBAC-generator identity (`system:karmada:agent:rbac-generator`) may write.
//!
//! `register` (ours and upstream's) obtains that identity with a bootstrap token and uses it to
//! create a new pull cluster's agent RBAC. Upstream binds it to `*/*/*`, which makes every
//! bootstrap token a cluster-admin credential. Here its ClusterRole holds only what those
//! writes need (plus `escalate`/`bind`, since the agent's roles grant what the generator does
//! not hold), and this admission step confines the writes themselves: the generator may create
//! (and delete again) exactly the namespaces, roles and bindings the plane would give the agent
//! of a cluster that is not registered yet, and delete its own certificate request. Whatever it
//! creates grants only `system:karmada:agent:<cluster>`, an identity the CSR approver issues to
//! one registration only.

use karmadactl_apimachinery::ApiError;
use serde_json::Value;

use crate::auth::UserInfo;
use karmadactl_karmada_api::agent_rbac as plane_rbac;

use crate::state::ApiState;
use crate::storage::store_access;

pub use karmadactl_karmada_api::agent_rbac::RBAC_GENERATOR_USER;
use karmadactl_karmada_api::wellknown::RBAC_GROUP as RBAC;
/// Names of the generator's own certificate requests (upstream's and ours).
const GENERATOR_CSR_PREFIX: &str = "agent-rbac-generator-";
pub use karmadactl_karmada_api::agent_rbac::REGISTERED_BY_TOKEN_ANNOTATION;

/// Refuses a create by the generator that is not one of a new cluster's agent objects.
pub async fn check_create(
    state: &ApiState,
    user: &UserInfo,
    group: &str,
    plural: &str,
    obj: &Value,
) -> Result<(), ApiError> {
    if user.name != RBAC_GENERATOR_USER {
        return Ok(());
    }
    let name = meta_str(obj, "name");
    let ns = meta_str(obj, "namespace");
    let refuse = |why: &str| Err(ApiError::forbidden_message(group, plural, name, why));
    let cluster = match (group, plural) {
        ("", "namespaces") => {
            if obj.pointer("/metadata/annotations").and_then(|a| a.get(REGISTERED_BY_TOKEN_ANNOTATION)).is_some() {
                return refuse(&format!("{RBAC_GENERATOR_USER} may not set {REGISTERED_BY_TOKEN_ANNOTATION}"));
            }
            if name == karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE {
                return Ok(());
            }
            match name.strip_prefix(karmadactl_karmada_api::wellknown::EXECUTION_SPACE_PREFIX) {
                Some(cluster) => cluster,
                None => return refuse(&scope_message()),
            }
        }
        (RBAC, "clusterroles" | "clusterrolebindings" | "roles" | "rolebindings") => {
            let Some(cluster) = cluster_of_role_name(name) else { return refuse(&scope_message()) };
            if let Err(why) = matches_agent_object(cluster, plural, ns, obj) {
                return refuse(&why);
            }
            cluster
        }
        _ => return refuse(&scope_message()),
    };
    ensure_unregistered(state, group, plural, name, cluster, false).await
}

/// Refuses a delete by the generator of anything but its own certificate request and the agent
/// objects of a cluster that is not registered (what a failed `register` takes back).
pub async fn check_delete(
    state: &ApiState,
    user: &UserInfo,
    group: &str,
    plural: &str,
    ns: Option<&str>,
    name: &str,
) -> Result<(), ApiError> {
    if user.name != RBAC_GENERATOR_USER {
        return Ok(());
    }
    let refuse = || Err(ApiError::forbidden_message(group, plural, name, &scope_message()));
    let cluster = match (group, plural) {
        ("certificates.k8s.io", "certificatesigningrequests") if name.starts_with(GENERATOR_CSR_PREFIX) => {
            return Ok(());
        }
        ("", "namespaces") => match name.strip_prefix(karmadactl_karmada_api::wellknown::EXECUTION_SPACE_PREFIX) {
            Some(cluster) => cluster,
            None => return refuse(),
        },
        (RBAC, "clusterroles" | "clusterrolebindings" | "roles" | "rolebindings") => {
            let Some(cluster) = cluster_of_role_name(name) else { return refuse() };
            let expected =
                plane_rbac::objects(cluster, karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE, true);
            if !expected
                .iter()
                .any(|o| plural_of(o) == plural && meta_str(o, "name") == name && meta_opt(o, "namespace") == ns)
            {
                return refuse();
            }
            cluster
        }
        _ => return refuse(),
    };
    // A failed register deletes the Cluster its agent made, then these: a Cluster being
    // deleted no longer holds them.
    ensure_unregistered(state, group, plural, name, cluster, true).await
}

fn scope_message() -> String {
    format!("{RBAC_GENERATOR_USER} may only create the namespaces and RBAC objects of a new pull cluster's agent")
}

async fn ensure_unregistered(
    state: &ApiState,
    group: &str,
    plural: &str,
    name: &str,
    cluster: &str,
    deleting_counts_as_gone: bool,
) -> Result<(), ApiError> {
    if !karmadactl_apimachinery::is_dns1123_label_without_dots_hint(cluster).is_empty() {
        return Err(ApiError::forbidden_message(group, plural, name, &scope_message()));
    }
    let cluster_group = <karmadactl_karmada_api::cluster::Cluster as kube::Resource>::group(&());
    let existing = store_access::get(state, &cluster_group, "clusters", None, cluster).await?;
    if existing.is_some_and(|(c, _)| !(deleting_counts_as_gone && crate::storage::object::marked_for_deletion(&c))) {
        return Err(ApiError::forbidden_message(
            group,
            plural,
            name,
            &format!(
                "cluster {cluster} is already registered; {RBAC_GENERATOR_USER} may not change its agent's objects"
            ),
        ));
    }
    Ok(())
}

/// `<cluster>` of `system:karmada:<cluster>:agent`, `…:agent-secret` or `…:agent-work`.
fn cluster_of_role_name(name: &str) -> Option<&str> {
    let (cluster, suffix) = name.strip_prefix("system:karmada:")?.rsplit_once(':')?;
    (matches!(suffix, "agent" | "agent-secret" | "agent-work") && !cluster.contains(':')).then_some(cluster)
}

/// Whether `obj` is (at most) the agent object of that name the plane defines for `cluster`:
/// the same place, a role whose every rule the plane's role holds, a binding of exactly that
/// role to exactly the agent user.
fn matches_agent_object(cluster: &str, plural: &str, ns: &str, obj: &Value) -> Result<(), String> {
    let name = meta_str(obj, "name");
    let expected = plane_rbac::objects(cluster, karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE, true);
    let Some(want) = expected.iter().find(|o| plural_of(o) == plural && meta_str(o, "name") == name) else {
        return Err(scope_message());
    };
    if meta_str(want, "namespace") != ns {
        return Err(format!("{name} belongs in namespace {:?}", meta_str(want, "namespace")));
    }
    if plural.ends_with("roles") {
        let have = obj.get("rules").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let allowed = want["rules"].as_array().map(Vec::as_slice).unwrap_or_default();
        if obj.get("aggregationRule").is_some() || !have.iter().all(|r| rule_covered(r, allowed)) {
            return Err(format!("{name} may hold only the rules the agent of cluster {cluster} is given"));
        }
        return Ok(());
    }
    let role_ref = |o: &Value| (o["roleRef"]["kind"].clone(), o["roleRef"]["name"].clone());
    let subjects = |o: &Value| -> Vec<(Value, Value, Value)> {
        o["subjects"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|s| (s["kind"].clone(), s["name"].clone(), s.get("namespace").cloned().unwrap_or(Value::Null)))
            .collect()
    };
    if role_ref(obj) != role_ref(want) || subjects(obj) != subjects(want) {
        return Err(format!(
            "{name} may bind only role {} to user {}",
            want["roleRef"]["name"],
            plane_rbac::agent_user(cluster)
        ));
    }
    Ok(())
}

/// Whether every (group, resource, verb, name) a rule grants is granted by one of `allowed`.
/// Values compare literally: a `*` is covered only by a `*`, which the agent's roles never hold.
fn rule_covered(rule: &Value, allowed: &[Value]) -> bool {
    let list = |r: &Value, key: &str| -> Vec<String> {
        r.get(key)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    };
    if !list(rule, "nonResourceURLs").is_empty() {
        return false;
    }
    let names = list(rule, "resourceNames");
    for group in list(rule, "apiGroups") {
        for resource in list(rule, "resources") {
            for verb in list(rule, "verbs") {
                let granted = allowed.iter().any(|a| {
                    let held = list(a, "resourceNames");
                    list(a, "apiGroups").contains(&group)
                        && list(a, "resources").contains(&resource)
                        && list(a, "verbs").contains(&verb)
                        && (held.is_empty() || (!names.is_empty() && names.iter().all(|n| held.contains(n))))
                });
                if !granted {
                    return false;
                }
            }
        }
    }
    true
}

fn plural_of(obj: &Value) -> String {
    format!("{}s", obj["kind"].as_str().unwrap_or_default().to_ascii_lowercase())
}

fn meta_str<'a>(obj: &'a Value, key: &str) -> &'a str {
    meta_opt(obj, key).unwrap_or("")
}

fn meta_opt<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    obj.get("metadata").and_then(|m| m.get(key)).and_then(Value::as_str).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn agent_objects(cluster: &str) -> Vec<Value> {
        plane_rbac::objects(cluster, karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE, true)
    }

    #[test]
    fn the_agent_objects_of_both_register_flavours_match() {
        for upstream in [true, false] {
            for obj in plane_rbac::objects("m1", karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE, upstream)
            {
                let name = meta_str(&obj, "name");
                assert_eq!(cluster_of_role_name(name), Some("m1"));
                assert_eq!(
                    matches_agent_object("m1", &plural_of(&obj), meta_str(&obj, "namespace"), &obj),
                    Ok(()),
                    "{obj}"
                );
            }
        }
    }

    #[test]
    fn wider_rules_other_subjects_or_other_places_do_not_match() {
        let objs = agent_objects("m1");
        let role = objs.iter().find(|o| o["kind"] == "ClusterRole").unwrap().clone();
        let mut wild = role.clone();
        wild["rules"] = json!([{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]);
        assert!(matches_agent_object("m1", "clusterroles", "", &wild).is_err());
        let mut other_name = role.clone();
        other_name["rules"] = json!([{"apiGroups": ["cluster.karmada.io"], "resources": ["clusters"], "resourceNames": ["m2"], "verbs": ["delete"]}]);
        assert!(matches_agent_object("m1", "clusterroles", "", &other_name).is_err());
        let mut secrets = role;
        secrets["rules"] = json!([{"apiGroups": [""], "resources": ["secrets"], "verbs": ["get"]}]);
        assert!(matches_agent_object("m1", "clusterroles", "", &secrets).is_err());

        let mut binding = objs.iter().find(|o| o["kind"] == "ClusterRoleBinding").unwrap().clone();
        binding["subjects"] = json!([{"kind": "Group", "name": "system:bootstrappers", "apiGroup": RBAC}]);
        assert!(matches_agent_object("m1", "clusterrolebindings", "", &binding).is_err());
        binding["subjects"] = json!([{"kind": "User", "name": "system:karmada:agent:m1", "apiGroup": RBAC}]);
        assert_eq!(matches_agent_object("m1", "clusterrolebindings", "", &binding), Ok(()));
        binding["roleRef"]["name"] = json!("cluster-admin");
        assert!(matches_agent_object("m1", "clusterrolebindings", "", &binding).is_err());

        let secret_role = objs
            .iter()
            .find(|o| o["kind"] == "Role" && o["metadata"]["name"] == "system:karmada:m1:agent-secret")
            .unwrap();
        assert!(matches_agent_object("m1", "roles", "kube-system", secret_role).is_err());
        assert_eq!(cluster_of_role_name("cluster-admin"), None);
        assert_eq!(cluster_of_role_name("system:karmada:a:b:agent"), None);
    }
}
