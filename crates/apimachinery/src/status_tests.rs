//! Unit tests for status.rs: messages and Status JSON as kube-apiserver sends them.

use serde_json::json;

use super::*;

#[test]
fn not_found_json() {
    let e = ApiError::not_found("apps", "deployments", "x");
    assert_eq!(
        e.to_status_json(),
        json!({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
               "message":"deployments.apps \"x\" not found","reason":"NotFound",
               "details":{"name":"x","group":"apps","kind":"deployments"},"code":404})
    );
    assert_eq!(ApiError::not_found("", "configmaps", "c").message, "configmaps \"c\" not found");
    assert_eq!(e.to_string(), e.message);
}

#[test]
fn conflicts() {
    let e = ApiError::already_exists("cluster.karmada.io", "clusters", "m1");
    assert_eq!((e.code, e.message.as_str()), (409, "clusters.cluster.karmada.io \"m1\" already exists"));
    let e = ApiError::conflict("apps", "deployments", "x", OPTIMISTIC_LOCK_ERROR_MSG);
    assert_eq!(e.reason.as_str(), "Conflict");
    assert_eq!(
        e.message,
        "Operation cannot be fulfilled on deployments.apps \"x\": the object has been modified; \
         please apply your changes to the latest version and try again"
    );
}

#[test]
fn invalid_formats_like_new_invalid() {
    let causes = vec![
        Cause::invalid("spec.replicas", -1, "must be greater than or equal to 0"),
        Cause::required("metadata.name"),
    ];
    let e = ApiError::invalid("apps", "Deployment", "x", causes);
    assert_eq!(
        e.message,
        "Deployment.apps \"x\" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, \
         metadata.name: Required value]"
    );
    assert_eq!(e.code, 422);
    let j = e.to_status_json();
    assert_eq!(j["details"]["kind"], "Deployment");
    assert_eq!(
        j["details"]["causes"][0],
        json!({"reason":"FieldValueInvalid","message":"Invalid value: -1: must be greater than or equal to 0","field":"spec.replicas"})
    );
    let one = ApiError::invalid("", "ConfigMap", "c", vec![Cause::required("metadata.name")]);
    assert_eq!(one.message, "ConfigMap \"c\" is invalid: metadata.name: Required value");
    assert_eq!(ApiError::invalid("", "ConfigMap", "c", vec![]).message, "ConfigMap \"c\" is invalid");
}

#[test]
fn forbidden_sentences() {
    let e = ApiError::forbidden("bob", "get", "", "configmaps", "", "default", "x");
    assert_eq!(
        e.message,
        "configmaps \"x\" is forbidden: User \"bob\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"default\""
    );
    let e = ApiError::forbidden("bob", "list", "cluster.karmada.io", "clusters", "", "", "");
    assert_eq!(
        e.message,
        "clusters.cluster.karmada.io is forbidden: User \"bob\" cannot list resource \"clusters\" in API group \"cluster.karmada.io\" at the cluster scope"
    );
    let e = ApiError::forbidden("bob", "update", "apps", "deployments", "scale", "ns", "d");
    assert_eq!(
        e.message,
        "deployments.apps \"d\" is forbidden: User \"bob\" cannot update resource \"deployments/scale\" in API group \"apps\" in the namespace \"ns\""
    );
    assert_eq!(e.to_status_json()["details"], json!({"name":"d","group":"apps","kind":"deployments"}));
    let e = ApiError::forbidden_path("a<b>&c", "get", "/x");
    assert_eq!(e.message, "forbidden: User \"a&lt;b&gt;&amp;c\" cannot get path \"/x\"");
    let e = ApiError::forbidden_path("x", "get", "/foo");
    assert_eq!(e.message, "forbidden: User \"x\" cannot get path \"/foo\"");
    assert_eq!(e.to_status_json()["details"], json!({}));
}

#[test]
fn simple_constructors() {
    let u = ApiError::unauthorized().to_status_json();
    assert_eq!(
        u,
        json!({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401})
    );
    let m = ApiError::method_not_supported("deployments.apps", "create");
    assert_eq!(m.message, "create is not supported on resources of kind \"deployments.apps\"");
    assert_eq!(m.to_status_json()["details"], json!({"group":"apps","kind":"deployments"}));
    assert_eq!(ApiError::method_not_supported("pods", "x").details.unwrap().group, "");
    let g = ApiError::resource_expired(5, 9);
    assert_eq!((g.code, g.reason.as_str(), g.message.as_str()), (410, "Expired", "too old resource version: 5 (9)"));
    assert_eq!(ApiError::request_entity_too_large(3145728).message, "Request entity too large: limit is 3145728");
    assert_eq!(
        ApiError::unsupported_media_type("text/plain", &["application/json", "application/yaml"]).message,
        "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml"
    );
    assert_eq!(
        ApiError::not_acceptable(&["application/json"]).message,
        "only the following media types are accepted: application/json"
    );
    let t = ApiError::too_many_requests("slow down", 3).to_status_json();
    assert_eq!((t["code"].clone(), t["details"].clone()), (json!(429), json!({"retryAfterSeconds":3})));
    let i = ApiError::internal("boom");
    assert_eq!(i.message, "Internal error occurred: boom");
    assert_eq!(i.to_status_json()["details"], json!({"causes":[{"message":"boom"}]}));
    assert_eq!(ApiError::service_unavailable("later").code, 503);
    assert_eq!(ApiError::timeout("too slow").message, "Timeout: too slow");
    assert_eq!(ApiError::bad_request("nope").to_status_json()["reason"], "BadRequest");
    let s = ApiError::server_timeout("", "pods", "list", 2);
    assert_eq!(s.message, "The list operation against pods could not be completed at this time, please try again.");
}

#[test]
fn names_are_go_quoted() {
    assert_eq!(ApiError::not_found("", "pods", "a\"b").message, "pods \"a\\\"b\" not found");
}

#[test]
fn typed_status_matches_json() {
    let e = ApiError::invalid("apps", "Deployment", "x", vec![Cause::required("metadata.name")]);
    let typed = serde_json::to_value(e.to_status()).unwrap_or_default();
    assert_eq!(typed["details"], e.to_status_json()["details"]);
    assert_eq!(typed["message"], e.to_status_json()["message"]);
    assert_eq!(typed["code"], json!(422));
}
