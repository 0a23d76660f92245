//! Resources that are computed, not stored: access reviews (`kubectl auth can-i`), who-am-i,
//! token reviews, and the TokenRequest subresource of service accounts (in `token_request`).

use axum::http::StatusCode;
use axum::response::Response;
use karmadactl_apimachinery::ApiError;
use serde_json::{Value, json};

use crate::auth::{Attributes, Decision, UserInfo, authorize, rules_for};
use crate::registry::ResourceDef;

use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;

/// Serves the request when it is one of the computed resources; `None` otherwise.
pub async fn serve(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Option<Response>, ApiError> {
    let verb = call.info.verb.as_str();
    let resp = match (def.group.as_str(), def.plural.as_str(), call.info.subresource.as_str(), verb) {
        ("authorization.k8s.io", "selfsubjectaccessreviews", "", "create") => access_review(state, call, &call.user)?,
        ("authorization.k8s.io", "subjectaccessreviews", "", "create") => {
            let body = body(call)?;
            let spec = body.get("spec").cloned().unwrap_or_default();
            let user = UserInfo {
                name: spec.get("user").and_then(Value::as_str).unwrap_or("").to_string(),
                uid: spec.get("uid").and_then(Value::as_str).unwrap_or("").to_string(),
                groups: strings(spec.get("groups")),
                extra: Default::default(),
            };
            access_review(state, call, &user)?
        }
        ("authorization.k8s.io", "selfsubjectrulesreviews", "", "create") => rules_review(state, call)?,
        ("authentication.k8s.io", "selfsubjectreviews", "", "create") => {
            let mut review = body(call)?;
            review["status"] = json!({"userInfo": call.user.to_api()});
            json_response(StatusCode::CREATED, &review)
        }
        ("authentication.k8s.io", "tokenreviews", "", "create") => token_review(state, call).await?,
        ("", "serviceaccounts", "token", "create") => super::token_request::serve(state, call, body(call)?).await?,
        (_, _, "scale", "get" | "update" | "patch") => crate::handlers::scale::serve(state, call, def).await?,
        _ => return Ok(None),
    };
    Ok(Some(resp))
}

fn body(call: &Call) -> Result<Value, ApiError> {
    // kubectl 1.31+ sends these reviews as protobuf.
    if crate::protobuf::is_protobuf(call.content_type()) {
        return crate::protobuf::decode_request(&call.body);
    }
    serde_json::from_slice(&call.body)
        .map_err(|e| ApiError::bad_request(format!("the request body is not valid JSON: {e}")))
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn access_review(state: &ApiState, call: &Call, user: &UserInfo) -> Result<Response, ApiError> {
    let mut review = body(call)?;
    let spec = review.get("spec").cloned().unwrap_or_default();
    let s = |v: &Value, f: &str| v.get(f).and_then(Value::as_str).unwrap_or("").to_string();
    let attrs = if let Some(ra) = spec.get("resourceAttributes") {
        Attributes {
            user: user.clone(),
            verb: s(ra, "verb"),
            namespace: s(ra, "namespace"),
            api_group: s(ra, "group"),
            resource: s(ra, "resource"),
            subresource: s(ra, "subresource"),
            name: s(ra, "name"),
            resource_request: true,
            path: String::new(),
        }
    } else if let Some(nra) = spec.get("nonResourceAttributes") {
        Attributes {
            user: user.clone(),
            verb: s(nra, "verb"),
            namespace: String::new(),
            api_group: String::new(),
            resource: String::new(),
            subresource: String::new(),
            name: String::new(),
            resource_request: false,
            path: s(nra, "path"),
        }
    } else {
        return Err(ApiError::bad_request("spec.resourceAttributes or spec.nonResourceAttributes is required"));
    };
    let status = match authorize(&state.rbac(), &attrs) {
        Decision::Allow => json!({"allowed": true}),
        Decision::Deny { reason } if reason.is_empty() => json!({"allowed": false}),
        Decision::Deny { reason } => json!({"allowed": false, "reason": reason}),
    };
    review["status"] = status;
    Ok(json_response(StatusCode::CREATED, &review))
}

fn rules_review(state: &ApiState, call: &Call) -> Result<Response, ApiError> {
    let mut review = body(call)?;
    let ns = review.get("spec").and_then(|s| s.get("namespace")).and_then(Value::as_str).unwrap_or("").to_string();
    let rules = rules_for(&state.rbac(), &call.user, &ns);
    let mut resource_rules = Vec::new();
    let mut non_resource_rules = Vec::new();
    for r in rules {
        if let Some(urls) = r.non_resource_urls.as_ref().filter(|u| !u.is_empty()) {
            non_resource_rules.push(json!({"verbs": r.verbs, "nonResourceURLs": urls}));
        } else {
            let mut rule = json!({"verbs": r.verbs, "apiGroups": r.api_groups.unwrap_or_default(), "resources": r.resources.unwrap_or_default()});
            if let Some(names) = r.resource_names.filter(|n| !n.is_empty()) {
                rule["resourceNames"] = json!(names);
            }
            resource_rules.push(rule);
        }
    }
    review["status"] =
        json!({"resourceRules": resource_rules, "nonResourceRules": non_resource_rules, "incomplete": false});
    Ok(json_response(StatusCode::CREATED, &review))
}

async fn token_review(state: &ApiState, call: &Call) -> Result<Response, ApiError> {
    let mut review = body(call)?;
    let token = review.get("spec").and_then(|s| s.get("token")).and_then(Value::as_str).unwrap_or("").to_string();
    let mut headers = axum::http::HeaderMap::new();
    if let Ok(v) = axum::http::HeaderValue::from_str(&format!("Bearer {token}")) {
        headers.insert(axum::http::header::AUTHORIZATION, v);
    }
    review["status"] = match crate::filters::authenticate::authenticate(state, None, &headers).await {
        Ok(user) if user.name != "system:anonymous" => json!({"authenticated": true, "user": user.to_api()}),
        _ => json!({"authenticated": false, "error": "invalid bearer token"}),
    };
    Ok(json_response(StatusCode::CREATED, &review))
}
