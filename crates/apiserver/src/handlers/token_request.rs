//! The TokenRequest subresource of service accounts (`POST serviceaccounts/NAME/token`), as
//! kube-apiserver's TokenREST answers it: the request's name and namespace must match the
//! URL's, the audiences default to the API server's, `expirationSeconds` defaults to an hour
//! and must lie between 10 minutes and 2^32 seconds, a bound object must exist, and the
//! answer is the request with its metadata, spec and status filled in.

use axum::http::StatusCode;
use axum::response::Response;
use k8s_openapi::api::core::v1::ServiceAccount;
use karmadactl_apimachinery::{ApiError, Cause};
use serde_json::{Value, json};

use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;
use crate::storage::store_access;

const GROUP: &str = "authentication.k8s.io";
const KIND: &str = "TokenRequest";
/// The TokenRequest API's default lifetime (`SetDefaults_TokenRequestSpec`).
const DEFAULT_SECONDS: i64 = 3600;
/// kube-apiserver's `ValidateTokenRequest` bounds.
const MIN_SECONDS: i64 = 600;
const MAX_SECONDS: i64 = 1 << 32;

/// Issues a bound token for the service account the URL names; `req` is the decoded body.
pub async fn serve(state: &ApiState, call: &Call, mut req: Value) -> Result<Response, ApiError> {
    let ns = call.info.namespace.as_str();
    let name = call.info.name.as_str();
    if !req.is_object() {
        return Err(ApiError::bad_request("the request body is not a TokenRequest object"));
    }
    let meta = |k: &str| req.pointer(&format!("/metadata/{k}")).and_then(Value::as_str).unwrap_or_default().to_string();
    let (body_name, body_ns) = (meta("name"), meta("namespace"));
    if !body_name.is_empty() && body_name != name {
        let cause =
            Cause::invalid("metadata.name", body_name.as_str(), "must match the service account name if specified");
        return Err(ApiError::invalid(GROUP, KIND, name, vec![cause]));
    }
    if !body_ns.is_empty() && body_ns != ns {
        let cause = Cause::invalid(
            "metadata.namespace",
            body_ns.as_str(),
            "must match the service account namespace if specified",
        );
        return Err(ApiError::invalid(GROUP, KIND, name, vec![cause]));
    }
    let sa: ServiceAccount = store_access::get_typed(state, "", "serviceaccounts", Some(ns), name)
        .await
        .ok_or_else(|| ApiError::not_found("", "serviceaccounts", name))?;
    let spec = req.get("spec").filter(|s| s.is_object()).cloned().unwrap_or_else(|| json!({}));
    let mut audiences = strings(spec.get("audiences"));
    if audiences.is_empty() {
        audiences = state.sa_tokens.api_audiences().to_vec();
    }
    let seconds = match spec.get("expirationSeconds") {
        None | Some(Value::Null) => DEFAULT_SECONDS,
        Some(v) => v.as_i64().ok_or_else(|| ApiError::bad_request("spec.expirationSeconds must be an integer"))?,
    };
    let mut causes = Vec::new();
    if seconds < MIN_SECONDS {
        causes.push(Cause::invalid(
            "spec.expirationSeconds",
            seconds,
            "may not specify a duration less than 10 minutes",
        ));
    }
    if seconds > MAX_SECONDS {
        causes.push(Cause::invalid(
            "spec.expirationSeconds",
            seconds,
            "may not specify a duration larger than 2^32 seconds",
        ));
    }
    if !causes.is_empty() {
        // kube-apiserver names no object in this error: the request is validated unnamed.
        return Err(ApiError::invalid(GROUP, KIND, "", causes));
    }
    let bound_object = crate::admission::token_binding::resolve(state, ns, name, &spec).await?;
    let now = jiff::Timestamp::now();
    let issue = crate::auth::authn::BoundTokenSpec {
        namespace: ns.into(),
        service_account_name: name.into(),
        service_account_uid: sa.metadata.uid.unwrap_or_default(),
        audiences: audiences.clone(),
        expiration_seconds: seconds,
        bound_object,
    };
    let (token, expiration) = state
        .sa_tokens
        .issue_bound_token(&issue, now)
        .map_err(|e| ApiError::internal(&format!("failed to generate token: {e}")))?;
    let created = jiff::Timestamp::from_second(now.as_second()).unwrap_or(now);
    req["apiVersion"] = json!("authentication.k8s.io/v1");
    req["kind"] = json!(KIND);
    if !req.get("metadata").is_some_and(Value::is_object) {
        req["metadata"] = json!({});
    }
    req["metadata"]["name"] = json!(name);
    req["metadata"]["namespace"] = json!(ns);
    req["metadata"]["creationTimestamp"] = json!(created.to_string());
    let mut spec = spec;
    spec["audiences"] = json!(audiences);
    spec["expirationSeconds"] = json!(seconds);
    if spec.get("boundObjectRef").is_none() {
        spec["boundObjectRef"] = Value::Null;
    }
    req["spec"] = spec;
    req["status"] = json!({"token": token, "expirationTimestamp": expiration.to_string()});
    Ok(json_response(StatusCode::CREATED, &req))
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| s.as_str().filter(|s| !s.is_empty()).map(str::to_string)).collect())
        .unwrap_or_default()
}
