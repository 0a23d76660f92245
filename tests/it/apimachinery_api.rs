//! Integration tests for the control plane's apimachinery: what clients (kube-rs, kubectl)
//! see when the API server uses these pieces together.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Status as K8sStatus};
use karmadactl_apimachinery::{
    ApiError, Cause, FieldSelector, LabelSelector, NameRule, OPTIMISTIC_LOCK_ERROR_MSG, RequestInfo, apply_json_patch,
    apply_merge_patch, validate_object_meta,
};
use kube::core::Status as KubeStatus;
use serde_json::json;

fn kube_status(e: &ApiError) -> KubeStatus {
    serde_json::from_value(e.to_status_json()).expect("kube-rs decodes the Status")
}

#[test]
fn kube_rs_decodes_every_status_and_classifies_it() {
    let not_found = kube_status(&ApiError::not_found("apps", "deployments", "web"));
    assert!(not_found.is_not_found() && not_found.is_failure());
    assert_eq!(not_found.message, "deployments.apps \"web\" not found");
    assert_eq!(
        not_found.details.map(|d| (d.group, d.kind, d.name)),
        Some(("apps".into(), "deployments".into(), "web".into()))
    );

    assert!(kube_status(&ApiError::already_exists("", "configmaps", "c")).is_already_exists());
    assert!(kube_status(&ApiError::conflict("", "configmaps", "c", OPTIMISTIC_LOCK_ERROR_MSG)).is_conflict());
    assert!(kube_status(&ApiError::forbidden("bob", "get", "", "secrets", "", "default", "s")).is_forbidden());
    let invalid = kube_status(&ApiError::invalid("", "ConfigMap", "c", vec![Cause::required("metadata.name")]));
    assert!(invalid.is_invalid());
    let causes = invalid.details.map(|d| d.causes).unwrap_or_default();
    assert_eq!(causes[0].reason, "FieldValueRequired");
    assert_eq!(causes[0].field, "metadata.name");

    let all = [
        ApiError::bad_request("x"),
        ApiError::unauthorized(),
        ApiError::forbidden_path("bob", "get", "/metrics"),
        ApiError::method_not_supported("clusters.cluster.karmada.io", "create"),
        ApiError::gone("too old"),
        ApiError::resource_expired(1, 2),
        ApiError::request_entity_too_large(3 * 1024 * 1024),
        ApiError::unsupported_media_type("text/plain", &["application/json"]),
        ApiError::not_acceptable(&["application/json"]),
        ApiError::too_many_requests("slow down", 1),
        ApiError::internal("boom"),
        ApiError::service_unavailable("starting"),
        ApiError::timeout("slow"),
    ];
    for e in all {
        let k = kube_status(&e);
        assert_eq!((k.code, k.reason.as_str(), k.message.as_str()), (e.code, e.reason.as_str(), e.message.as_str()));
        let typed: K8sStatus = serde_json::from_value(e.to_status_json()).expect("k8s-openapi decodes the Status");
        assert_eq!(typed.code, Some(i32::from(e.code)));
        assert_eq!(
            serde_json::to_value(&typed).ok().map(|v| v["details"].clone()),
            Some(e.to_status_json()["details"].clone())
        );
    }
}

#[test]
fn authorization_denial_for_a_kubectl_request() {
    let info = RequestInfo::parse("GET", "/apis/apps/v1/namespaces/team-a/deployments", "limit=500");
    assert_eq!((info.verb.as_str(), info.api_group.as_str(), info.resource.as_str()), ("list", "apps", "deployments"));
    let e = ApiError::forbidden(
        "system:serviceaccount:team-a:ci",
        &info.verb,
        &info.api_group,
        &info.resource,
        &info.subresource,
        &info.namespace,
        &info.name,
    );
    assert_eq!(
        e.message,
        "deployments.apps is forbidden: User \"system:serviceaccount:team-a:ci\" cannot list resource \"deployments\" \
         in API group \"apps\" in the namespace \"team-a\""
    );
    let proxy = RequestInfo::parse("GET", "/apis/cluster.karmada.io/v1alpha1/clusters/member1/proxy/api/v1/nodes", "");
    let e = ApiError::forbidden(
        "bob",
        &proxy.verb,
        &proxy.api_group,
        &proxy.resource,
        &proxy.subresource,
        &proxy.namespace,
        &proxy.name,
    );
    assert_eq!(
        e.message,
        "clusters.cluster.karmada.io \"member1\" is forbidden: User \"bob\" cannot get resource \"clusters/proxy\" \
         in API group \"cluster.karmada.io\" at the cluster scope"
    );
}

#[test]
fn list_filtering_from_query_parameters() {
    // kubectl get pods -l 'app in (web,api),!canary' --field-selector status.phase!=Failed
    let query = "labelSelector=app+in+%28web%2Capi%29%2C%21canary&fieldSelector=status.phase%21%3DFailed";
    let params: BTreeMap<String, String> = form_urlencoded::parse(query.as_bytes()).into_owned().collect();
    let labels = LabelSelector::parse(&params["labelSelector"]).expect("valid label selector");
    let fields = FieldSelector::parse(&params["fieldSelector"]).expect("valid field selector");
    assert_eq!(labels.to_string(), "app in (api,web),!canary");
    assert_eq!(fields.fields(), vec!["status.phase"]);

    let pods = [
        (json!({"app": "web"}), "Running", true),
        (json!({"app": "web", "canary": "true"}), "Running", false),
        (json!({"app": "db"}), "Running", false),
        (json!({"app": "api"}), "Failed", false),
    ];
    for (pod_labels, phase, want) in pods {
        let l: BTreeMap<String, String> = serde_json::from_value(pod_labels).unwrap_or_default();
        let get = |f: &str| (f == "status.phase").then(|| phase.to_string());
        assert_eq!(labels.matches(&l) && fields.matches(&get), want, "{l:?} {phase}");
    }
}

#[test]
fn kubectl_patches() {
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": "c", "labels": {"a": "1", "b": "2"}}, "data": {"k": "v"}});
    // kubectl label configmap c a- c=3
    let labelled = apply_merge_patch(&cm, br#"{"metadata":{"labels":{"a":null,"c":"3"}}}"#);
    assert_eq!(labelled.map(|v| v["metadata"]["labels"].clone()), Ok(json!({"b": "2", "c": "3"})));
    // kubectl patch --type=json with a failing test: kubectl prints "The request is invalid: ..."
    let err = apply_json_patch(&cm, br#"[{"op":"test","path":"/data/k","value":"other"}]"#).expect_err("test fails");
    assert_eq!(kube_status(&err).reason, "Invalid");
    let ok = apply_json_patch(&cm, br#"[{"op":"replace","path":"/data/k","value":"w"}]"#);
    assert_eq!(ok.map(|v| v["data"]["k"].clone()), Ok(json!("w")));
}

#[test]
fn create_validation_as_an_invalid_status() {
    let meta = ObjectMeta {
        name: Some("Web_1".into()),
        namespace: Some("default".into()),
        labels: Some(BTreeMap::from([("app".into(), "web".into())])),
        ..ObjectMeta::default()
    };
    let causes = validate_object_meta(&meta, true, NameRule::DnsSubdomain);
    let e = ApiError::invalid("apps", "Deployment", "Web_1", causes);
    assert_eq!(
        e.message,
        "Deployment.apps \"Web_1\" is invalid: metadata.name: Invalid value: \"Web_1\": a lowercase RFC 1123 subdomain \
         must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric \
         character (e.g. 'example.com', regex used for validation is \
         '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
    );
}
