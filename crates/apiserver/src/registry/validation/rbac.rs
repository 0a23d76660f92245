//! RBAC checks: policy rules, role references, subjects.

use serde_json::{Value, json};

use super::access::{go_string_slice, is_set, list_at, str_at};
use super::field::{FieldError, child, index};
use super::names;

use karmadactl_karmada_api::wellknown::RBAC_GROUP;

/// Checks the rules of a Role (`namespaced`) or ClusterRole.
pub fn role(obj: &Value, namespaced: bool, errs: &mut Vec<FieldError>) {
    // An aggregated ClusterRole's rules are written by the controller; kube skips them too.
    if !namespaced && is_set(obj, &["aggregationRule"]) {
        return;
    }
    for (i, rule) in list_at(obj, &["rules"]).iter().enumerate() {
        policy_rule(rule, &index("rules", i), namespaced, errs);
    }
}

fn policy_rule(rule: &Value, path: &str, namespaced: bool, errs: &mut Vec<FieldError>) {
    if list_at(rule, &["verbs"]).is_empty() {
        errs.push(FieldError::required(child(path, "verbs"), "verbs must contain at least one value"));
    }
    let urls = list_at(rule, &["nonResourceURLs"]);
    if !urls.is_empty() {
        let upath = child(path, "nonResourceURLs");
        if namespaced {
            errs.push(FieldError::invalid_raw(
                &upath,
                go_string_slice(urls),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if is_set(rule, &["apiGroups"]) || is_set(rule, &["resources"]) || is_set(rule, &["resourceNames"]) {
            errs.push(FieldError::invalid_raw(
                &upath,
                go_string_slice(urls),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return;
    }
    if list_at(rule, &["apiGroups"]).is_empty() {
        errs.push(FieldError::required(child(path, "apiGroups"), "resource rules must supply at least one api group"));
    }
    if list_at(rule, &["resources"]).is_empty() {
        errs.push(FieldError::required(child(path, "resources"), "resource rules must supply at least one resource"));
    }
}

/// Checks a RoleBinding (`namespaced`) or ClusterRoleBinding.
pub fn binding(obj: &Value, namespaced: bool, errs: &mut Vec<FieldError>) {
    let api_group = str_at(obj, &["roleRef", "apiGroup"]).unwrap_or_default();
    if api_group != RBAC_GROUP {
        errs.push(FieldError::not_supported("roleRef.apiGroup", &json!(api_group), &[RBAC_GROUP]));
    }
    let kind = str_at(obj, &["roleRef", "kind"]).unwrap_or_default();
    let kinds: &[&str] = if namespaced { &["Role", "ClusterRole"] } else { &["ClusterRole"] };
    if !kinds.contains(&kind) {
        errs.push(FieldError::not_supported("roleRef.kind", &json!(kind), kinds));
    }
    match str_at(obj, &["roleRef", "name"]).unwrap_or_default() {
        "" => errs.push(FieldError::required("roleRef.name", "")),
        name => {
            for msg in names::path_segment(name) {
                errs.push(FieldError::invalid("roleRef.name", &json!(name), msg));
            }
        }
    }
    for (i, s) in list_at(obj, &["subjects"]).iter().enumerate() {
        subject(s, &index("subjects", i), namespaced, errs);
    }
}

fn subject(s: &Value, path: &str, namespaced: bool, errs: &mut Vec<FieldError>) {
    let name = str_at(s, &["name"]).unwrap_or_default();
    if name.is_empty() {
        errs.push(FieldError::required(child(path, "name"), ""));
    }
    let group = str_at(s, &["apiGroup"]).unwrap_or_default();
    match str_at(s, &["kind"]).unwrap_or_default() {
        "ServiceAccount" => {
            if !group.is_empty() {
                errs.push(FieldError::not_supported(child(path, "apiGroup"), &json!(group), &[""]));
            }
            if !name.is_empty() {
                for msg in names::dns1123_subdomain(name) {
                    errs.push(FieldError::invalid(child(path, "name"), &json!(name), msg));
                }
            }
            if !namespaced && str_at(s, &["namespace"]).is_none_or(str::is_empty) {
                errs.push(FieldError::required(child(path, "namespace"), ""));
            }
        }
        // Defaulting fills the RBAC group for users and groups, so empty is fine.
        "User" | "Group" => {
            if !group.is_empty() && group != RBAC_GROUP {
                errs.push(FieldError::not_supported(child(path, "apiGroup"), &json!(group), &[RBAC_GROUP]));
            }
        }
        other => errs.push(FieldError::not_supported(
            child(path, "kind"),
            &json!(other),
            &["ServiceAccount", "User", "Group"],
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs(errs: Vec<FieldError>) -> Vec<String> {
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn rules_need_verbs_and_groups() {
        let mut errs = Vec::new();
        role(&json!({"rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}), true, &mut errs);
        assert!(errs.is_empty());
        role(&json!({"rules": [{"resources": ["pods"]}]}), true, &mut errs);
        assert_eq!(
            msgs(errs),
            [
                "rules[0].verbs: Required value: verbs must contain at least one value",
                "rules[0].apiGroups: Required value: resource rules must supply at least one api group"
            ]
        );
        let mut errs = Vec::new();
        role(&json!({"rules": [{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}]}), true, &mut errs);
        assert_eq!(
            msgs(errs),
            [
                "rules[0].nonResourceURLs: Invalid value: []string{\"/healthz\"}: namespaced rules cannot apply to non-resource URLs"
            ]
        );
    }

    #[test]
    fn bindings() {
        let good = json!({"roleRef": {"apiGroup": RBAC_GROUP, "kind": "ClusterRole", "name": "admin"},
            "subjects": [{"kind": "User", "name": "alice"}, {"kind": "ServiceAccount", "name": "sa", "namespace": "d"}]});
        let mut errs = Vec::new();
        binding(&good, false, &mut errs);
        assert!(errs.is_empty(), "{errs:?}");
        let bad = json!({"roleRef": {"apiGroup": RBAC_GROUP, "kind": "Role", "name": ""},
            "subjects": [{"kind": "ServiceAccount", "name": "sa"}, {"kind": "Robot", "name": "r"}]});
        binding(&bad, false, &mut errs);
        let m = msgs(errs);
        assert!(
            m.contains(&"roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\"".to_string()),
            "{m:?}"
        );
        assert!(m.contains(&"roleRef.name: Required value".to_string()));
        assert!(m.contains(&"subjects[0].namespace: Required value".to_string()));
        assert!(m.iter().any(|e| e.starts_with("subjects[1].kind: Unsupported value: \"Robot\"")));
    }
}
