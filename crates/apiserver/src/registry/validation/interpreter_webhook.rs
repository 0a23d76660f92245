//! Admission checks for ResourceInterpreterWebhookConfiguration, as upstream's karmada-webhook
//! (`pkg/webhook/configuration`) makes them: webhook names are unique fully qualified domain
//! names; each rule names known interpreter operations (or `*` alone) and non-empty groups,
//! versions and kinds; the timeout is 1 to 30 seconds; exactly one of an https `url`
//! (kube-apiserver's `ValidateWebhookURL`) or a `service` (`ValidateWebhookService`); and the
//! context versions include `v1alpha1`. The shape itself is the CRD schema's to check.

use std::collections::HashSet;

use karmadactl_apimachinery::{BadValue, Cause, FieldPath, is_dns1035_label, is_dns1123_subdomain};
use karmadactl_karmada_api::config::webhook::{ResourceInterpreterWebhook, RuleWithOperations, ServiceReference};

/// The operations a rule may name, sorted as upstream lists them in its message.
const OPERATIONS: [&str; 9] = [
    "*",
    "AggregateStatus",
    "InterpretComponent",
    "InterpretDependency",
    "InterpretHealth",
    "InterpretReplica",
    "InterpretStatus",
    "Retain",
    "ReviseReplica",
];

/// The ResourceInterpreterContext versions the interpreter speaks.
const CONTEXT_VERSIONS: [&str; 1] = ["v1alpha1"];

const URL_FORM: &str = "; desired format: https://host[/path]";

/// Every problem with the configuration's webhooks, as field causes under `webhooks`.
pub fn validate(webhooks: &[ResourceInterpreterWebhook]) -> Vec<Cause> {
    let mut causes = Vec::new();
    let mut names = HashSet::new();
    for (i, hook) in webhooks.iter().enumerate() {
        let path = FieldPath::new("webhooks").index(i);
        webhook(hook, &path, &mut causes);
        if !names.insert(hook.name.as_str()) {
            causes.push(Cause::duplicate(path.child("name"), &hook.name));
        }
    }
    causes
}

fn webhook(hook: &ResourceInterpreterWebhook, path: &FieldPath, causes: &mut Vec<Cause>) {
    fully_qualified_domain_name(&hook.name, &path.child("name"), causes);
    for (i, rule) in hook.rules.iter().enumerate() {
        rule_with_operations(rule, &path.child("rules").index(i), causes);
    }
    if let Some(timeout) = hook.timeout_seconds
        && !(1..=30).contains(&timeout)
    {
        causes.push(Cause::invalid(
            path.child("timeoutSeconds"),
            timeout,
            "the timeout value must be between 1 and 30 seconds",
        ));
    }
    let config = &hook.client_config;
    let client_path = path.child("clientConfig");
    match (&config.url, &config.service) {
        (Some(url), None) => webhook_url(url, &client_path.child("url"), causes),
        (None, Some(service)) => webhook_service(service, &client_path.child("service"), causes),
        _ => causes.push(Cause::required_detail(client_path, "exactly one of url or service is required")),
    }
    context_versions(&hook.interpreter_context_versions, &path.child("interpreterContextVersions"), causes);
}

/// validation.IsFullyQualifiedDomainName.
fn fully_qualified_domain_name(name: &str, path: &FieldPath, causes: &mut Vec<Cause>) {
    if name.is_empty() {
        causes.push(Cause::required(path.clone()));
        return;
    }
    let trimmed = name.strip_suffix('.').unwrap_or(name);
    for e in is_dns1123_subdomain(trimmed) {
        causes.push(Cause::invalid(path.clone(), name, &e));
    }
    if trimmed.split('.').count() < 3 {
        causes.push(Cause::invalid(
            path.clone(),
            name,
            "should be a domain with at least three segments separated by dots",
        ));
    }
}

fn rule_with_operations(rule: &RuleWithOperations, path: &FieldPath, causes: &mut Vec<Cause>) {
    let operations = path.child("operations");
    if rule.operations.is_empty() {
        causes.push(Cause::required(operations.clone()));
    }
    if rule.operations.len() > 1 && rule.operations.iter().any(|o| o == "*") {
        let msg = "if '*' is present, must not specify other operations";
        causes.push(Cause::invalid(operations.clone(), json(&rule.operations), msg));
    }
    for (i, op) in rule.operations.iter().enumerate() {
        if !OPERATIONS.contains(&op.as_str()) {
            causes.push(Cause::not_supported(operations.index(i), op, &OPERATIONS));
        }
    }
    // upstream's validateRule: groups, versions and kinds.
    let lists = [("apiGroups", &rule.api_groups, "API groups"), ("apiVersions", &rule.api_versions, "API versions")];
    for (field, items, what) in lists.into_iter().chain([("kinds", &rule.kinds, "kinds")]) {
        let p = path.child(field);
        if items.is_empty() {
            causes.push(Cause::required(p.clone()));
        }
        if items.len() > 1 && items.iter().any(|i| i == "*") {
            causes.push(Cause::invalid(
                p.clone(),
                json(items),
                &format!("if '*' is present, must not specify other {what}"),
            ));
        }
        if field != "apiGroups" {
            for (i, item) in items.iter().enumerate() {
                if item.is_empty() {
                    causes.push(Cause::required(p.index(i)));
                }
            }
        }
    }
}

/// kube-apiserver's `ValidateWebhookURL` with https forced, on Go's reading of a URL.
fn webhook_url(url: &str, path: &FieldPath, causes: &mut Vec<Cause>) {
    let (rest, fragment) = url.split_once('#').unwrap_or((url, ""));
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (scheme, rest) = match rest.split_once(':') {
        Some((s, r)) if is_scheme(s) => (s.to_ascii_lowercase(), r),
        _ => (String::new(), rest),
    };
    let authority = rest.strip_prefix("//").map(|r| r.split('/').next().unwrap_or_default()).unwrap_or_default();
    let (user, host) = match authority.rsplit_once('@') {
        Some((user, host)) => (Some(user), host),
        None => (None, authority),
    };
    if scheme != "https" {
        let msg = format!("'https' is the only allowed URL scheme{URL_FORM}");
        causes.push(Cause::invalid(path.clone(), scheme, &msg));
    }
    if host.is_empty() {
        causes.push(Cause::invalid(path.clone(), host, &format!("host must be provided{URL_FORM}")));
    }
    if let Some(user) = user {
        causes.push(Cause::invalid(path.clone(), user, "user information is not permitted in the URL"));
    }
    if !fragment.is_empty() {
        causes.push(Cause::invalid(path.clone(), fragment, "fragments are not permitted in the URL"));
    }
    if !query.is_empty() {
        causes.push(Cause::invalid(path.clone(), query, "query parameters are not permitted in the URL"));
    }
}

/// Go's `getScheme`: a letter, then letters, digits, `+`, `-` or `.`.
fn is_scheme(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// kube-apiserver's `ValidateWebhookService` (port 443 when none is given).
fn webhook_service(service: &ServiceReference, path: &FieldPath, causes: &mut Vec<Cause>) {
    if service.name.is_empty() {
        causes.push(Cause::required_detail(path.child("name"), "service name is required"));
    }
    if service.namespace.is_empty() {
        causes.push(Cause::required_detail(path.child("namespace"), "service namespace is required"));
    }
    let port = service.port.unwrap_or(443);
    if !(1..=65535).contains(&port) {
        let msg = "port is not valid: must be between 1 and 65535, inclusive";
        causes.push(Cause::invalid(path.child("port"), port, msg));
    }
    let Some(url_path) = service.path.as_deref().filter(|p| !p.is_empty() && *p != "/") else {
        return;
    };
    let p = path.child("path");
    if url_path == "//" {
        causes.push(Cause::invalid(p, url_path, "segment[0] may not be empty"));
        return;
    }
    if !url_path.starts_with('/') {
        causes.push(Cause::invalid(p.clone(), url_path, "must start with a '/'"));
    }
    let steps = url_path.get(1..).unwrap_or_default();
    let steps = steps.strip_suffix('/').unwrap_or(steps);
    for (i, step) in steps.split('/').enumerate() {
        if step.is_empty() {
            causes.push(Cause::invalid(p.clone(), url_path, &format!("segment[{i}] may not be empty")));
            continue;
        }
        for e in is_dns1123_subdomain(step) {
            causes.push(Cause::invalid(p.clone(), url_path, &format!("segment[{i}]: {e}")));
        }
    }
}

fn context_versions(versions: &[String], path: &FieldPath, causes: &mut Vec<Cause>) {
    let accepted = CONTEXT_VERSIONS.join(", ");
    if versions.is_empty() {
        causes.push(Cause::required_detail(path.clone(), &format!("must specify one of {accepted}")));
        return;
    }
    let mut seen = HashSet::new();
    for (i, v) in versions.iter().enumerate() {
        if !seen.insert(v.as_str()) {
            causes.push(Cause::invalid(path.index(i), v, "duplicate version"));
            continue;
        }
        for e in is_dns1035_label(v) {
            causes.push(Cause::invalid(path.index(i), v, &e));
        }
    }
    if !versions.iter().any(|v| CONTEXT_VERSIONS.contains(&v.as_str())) {
        causes.push(Cause::invalid(path.clone(), json(versions), &format!("must include at least one of {accepted}")));
    }
}

/// A list as Go prints a non-scalar bad value.
fn json(items: &[String]) -> BadValue {
    BadValue::Json(serde_json::to_string(items).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::validate;
    use karmadactl_karmada_api::config::webhook::ResourceInterpreterWebhook;
    use serde_json::json;

    fn hook(changes: serde_json::Value) -> Vec<ResourceInterpreterWebhook> {
        let h = json!({"name": "workloads.example.com", "clientConfig": {"url": "https://127.0.0.1:8443/hook"},
            "rules": [{"operations": ["InterpretReplica"], "apiGroups": ["workload.example.io"],
                       "apiVersions": ["v1alpha1"], "kinds": ["Workload"]}],
            "timeoutSeconds": 3, "interpreterContextVersions": ["v1alpha1"]});
        let h = karmadactl_apimachinery::apply_merge_patch(&h, changes.to_string().as_bytes()).unwrap();
        vec![serde_json::from_value(h).unwrap()]
    }

    fn messages(changes: serde_json::Value) -> Vec<(String, String)> {
        validate(&hook(changes)).into_iter().map(|c| (c.field, c.message)).collect()
    }

    #[test]
    fn a_good_webhook_passes() {
        assert_eq!(messages(json!({})), vec![]);
        assert_eq!(
            messages(
                json!({"clientConfig": {"url": null, "service": {"namespace": "ns", "name": "svc", "path": "/a/b"}}})
            ),
            vec![]
        );
    }

    #[test]
    fn each_mistake_names_its_field() {
        let url = "webhooks[0].clientConfig.url";
        assert_eq!(
            messages(json!({"clientConfig": {"url": "http://h/x"}})),
            vec![(
                url.into(),
                "Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"
                    .into()
            )]
        );
        assert_eq!(
            messages(json!({"clientConfig": {"url": "https:///x?a=b"}}))[0],
            (url.into(), "Invalid value: \"\": host must be provided; desired format: https://host[/path]".into())
        );
        assert_eq!(
            messages(json!({"timeoutSeconds": 31})),
            vec![(
                "webhooks[0].timeoutSeconds".into(),
                "Invalid value: 31: the timeout value must be between 1 and 30 seconds".into()
            )]
        );
        let unknown = messages(
            json!({"rules": [{"operations": ["Prune"], "apiGroups": [""], "apiVersions": ["v1"], "kinds": ["Pod"]}]}),
        );
        assert_eq!(unknown.len(), 1);
        assert_eq!(unknown[0].0, "webhooks[0].rules[0].operations[0]");
        assert!(
            unknown[0].1.starts_with("Unsupported value: \"Prune\": supported values: \"*\", \"AggregateStatus\""),
            "{}",
            unknown[0].1
        );
        assert_eq!(
            messages(json!({"interpreterContextVersions": ["v1beta1"]})),
            vec![(
                "webhooks[0].interpreterContextVersions".into(),
                "Invalid value: [\"v1beta1\"]: must include at least one of v1alpha1".into()
            )]
        );
        assert_eq!(
            messages(json!({"clientConfig": {"service": {"namespace": "ns", "name": "svc"}}})),
            vec![(
                "webhooks[0].clientConfig".into(),
                "Required value: exactly one of url or service is required".into()
            )]
        );
        assert_eq!(
            messages(json!({"name": "short"})),
            vec![(
                "webhooks[0].name".into(),
                "Invalid value: \"short\": should be a domain with at least three segments separated by dots".into()
            )]
        );
    }
}
