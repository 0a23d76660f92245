//! PATCH with `application/apply-patch+yaml`: server-side apply. The configuration (YAML or
//! JSON) is merged into the live object under the `fieldManager`'s ownership, or creates the
//! object when it does not exist, as kube-apiserver does.

use axum::response::Response;
use karmadactl_apimachinery::managed_fields::{self, conflict_error, last_applied};
use karmadactl_apimachinery::{ApiError, BadValue, Cause, StatusReason, check_result};
use serde_json::Value;

use crate::registry::ResourceDef;

use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;
use crate::{admission, storage::object, storage::store_access};

/// How many times an apply is redone when the object changed underneath it.
const MAX_ATTEMPTS: usize = 5;

pub async fn apply(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    let manager = call.param("fieldManager").unwrap_or("").to_string();
    let required = manager.is_empty().then(|| Cause::required_detail("fieldManager", "is required for apply patch"));
    super::write_options::check(call, "PatchOptions", required.into_iter().collect())?;
    let force = match call.param("force") {
        None | Some("") | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(options_invalid(Cause::invalid("force", BadValue::Str(other.into()), "must be true or false")));
        }
    };
    let (applied, json_body) = decode(call, def)?;
    let max_bytes = state.config.max_request_bytes.saturating_mul(super::patch::RESULT_SIZE_FACTOR);
    check_result(&applied, max_bytes)?;
    let name = call.info.name.clone();
    let ns = super::namespace_of(def, call);
    let api_version = def.api_version();
    for _ in 0..MAX_ATTEMPTS {
        let now = object::now_rfc3339();
        let ctx = super::managed::context(def, call, &manager, &api_version, &now);
        let live = store_access::get(state, &def.group, &def.plural, ns, &name).await?;
        let Some((current, current_rev)) = live else {
            if !call.info.subresource.is_empty() {
                return Err(ApiError::not_found(&def.group, &def.plural, &name));
            }
            let obj = managed_fields::apply(None, &applied, &ctx, force).map_err(|c| conflict_error(&c))?;
            check_result(&obj, max_bytes)?;
            let raw = json_body.then_some(&call.body[..]);
            match super::create::create_object(state, call, def, obj, raw, true).await {
                // Someone created it meanwhile: apply to theirs.
                Err(e) if e.reason == StatusReason::AlreadyExists => continue,
                other => return other,
            }
        };
        let mut obj = match managed_fields::apply(Some(&current), &applied, &ctx, force) {
            Ok(obj) => obj,
            // kubectl taking over from client-side apply: fields it applied before are its own.
            Err(c) if last_applied::conflicts_allowed(&current, &c, &ctx) => {
                managed_fields::apply(Some(&current), &applied, &ctx, true).map_err(|c| conflict_error(&c))?
            }
            Err(c) => return Err(conflict_error(&c)),
        };
        last_applied::sync(&current, &applied, &mut obj, &manager);
        check_result(&obj, max_bytes)?;
        // A resourceVersion in the configuration is a precondition, as in other patches.
        let expected = match object::meta_str(&applied, "resourceVersion").filter(|rv| !rv.is_empty()) {
            Some(rv) => object::parse_resource_version(rv).unwrap_or(-1),
            None => current_rev,
        };
        let precondition = expected != current_rev;
        match super::update::finish(state, call, def, &name, current, current_rev, expected, obj, None, true).await {
            Err(e) if e.code == 409 && !precondition => continue,
            Err(e) => return Err(e),
            Ok((obj, code, warnings)) => return Ok(admission::with_warnings(json_response(code, &obj), &warnings)),
        }
    }
    Err(ApiError::conflict(&def.group, &def.plural, &name, karmadactl_apimachinery::OPTIMISTIC_LOCK_ERROR_MSG))
}

fn options_invalid(cause: Cause) -> ApiError {
    ApiError::invalid("meta.k8s.io", "PatchOptions", "", vec![cause])
}

/// The apply configuration, and whether it came as JSON (then strict field validation can
/// look at the raw body). It must name the URL's kind, version, object and namespace.
fn decode(call: &Call, def: &ResourceDef) -> Result<(Value, bool), ApiError> {
    let (obj, json_body) = match serde_json::from_slice::<Value>(&call.body) {
        Ok(v) => (v, true),
        Err(_) => {
            let text =
                std::str::from_utf8(&call.body).map_err(|_| ApiError::bad_request("the request body is not UTF-8"))?;
            let v = karmadactl_apimachinery::from_yaml(text)
                .map_err(|e| ApiError::bad_request(format!("error decoding YAML: {e}")))?;
            (v, false)
        }
    };
    if !obj.is_object() {
        return Err(ApiError::bad_request("the apply configuration must be an object"));
    }
    let want_version = def.api_version();
    match obj.get("apiVersion").and_then(Value::as_str) {
        Some(v) if v == want_version => {}
        None | Some("") => {
            return Err(ApiError::bad_request("invalid object: apiVersion must be set in an apply configuration"));
        }
        Some(v) => {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({v}) does not match the expected API version ({want_version})"
            )));
        }
    }
    match obj.get("kind").and_then(Value::as_str) {
        Some(k) if k == def.kind => {}
        None | Some("") => {
            return Err(ApiError::bad_request("invalid object: kind must be set in an apply configuration"));
        }
        Some(k) => {
            return Err(ApiError::bad_request(format!(
                "the kind in the data ({k}) does not match the expected kind ({})",
                def.kind
            )));
        }
    }
    let name = &call.info.name;
    match object::meta_str(&obj, "name") {
        Some(n) if n == name => {}
        Some(n) if !n.is_empty() => {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({n}) does not match the name on the URL ({name})"
            )));
        }
        _ => {
            return Err(ApiError::invalid(
                &def.group,
                &def.kind,
                "",
                vec![Cause::required_detail("metadata.name", "name is required")],
            ));
        }
    }
    if let (Some(want), Some(have)) = (super::namespace_of(def, call), object::meta_str(&obj, "namespace"))
        && !have.is_empty()
        && have != want
    {
        return Err(ApiError::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    Ok((obj, json_body))
}
