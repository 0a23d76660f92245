//! PATCH with JSON patch (RFC 6902), JSON merge patch (RFC 7386), strategic merge patch
//! (built-in kinds only) or server-side apply (in apply.rs), read-modify-write with compare-and-swap, retried when another writer
//! got in between (as kube-apiserver does).

use axum::response::Response;

use karmadactl_apimachinery::strategic::{self, TypeSchema};
use karmadactl_apimachinery::{
    ApiError, Cause, apply_json_patch_within, apply_merge_patch, apply_strategic_merge_patch, check_result,
};
use serde_json::Value;

use crate::registry::{ResourceDef, Source};

use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;
use crate::{admission, storage::object, storage::store_access};

const ACCEPTED: &[&str] = &[
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
    "application/apply-patch+yaml",
];

/// How many times a patch is re-applied when the object changed underneath it.
const MAX_ATTEMPTS: usize = 5;

/// A patch or apply result may be this many times the request body limit: room for an object
/// created at the limit plus its managedFields, yet a bound on what repeated patches can grow.
pub(super) const RESULT_SIZE_FACTOR: usize = 2;

pub async fn patch(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    let ct = call.content_type().split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let kind = match ct.as_str() {
        "application/json-patch+json" => PatchKind::Json,
        "application/merge-patch+json" => PatchKind::Merge,
        "application/strategic-merge-patch+json" if matches!(def.source, Source::Crd { .. }) => {
            // kube-apiserver refuses strategic merge patches for custom resources: there are no
            // Go types to take merge keys from. kubectl falls back to a merge patch for them.
            return Err(ApiError::unsupported_media_type(&ct, &ACCEPTED[..2]));
        }
        "application/strategic-merge-patch+json" => PatchKind::Strategic(strategic::schema_for(&def.group, &def.kind)),
        "application/apply-patch+yaml" => return super::apply::apply(state, call, def).await,
        other => return Err(ApiError::unsupported_media_type(other, ACCEPTED)),
    };
    let force = call.param("force").map(|_| Cause::forbidden("force", "may not be specified for non-apply patch"));
    super::write_options::check(call, "PatchOptions", force.into_iter().collect())?;
    let name = call.info.name.clone();
    let ns = super::namespace_of(def, call);
    let max_bytes = state.config.max_request_bytes;
    for _ in 0..MAX_ATTEMPTS {
        let Some((current, current_rev)) = store_access::get(state, &def.group, &def.plural, ns, &name).await? else {
            return Err(ApiError::not_found(&def.group, &def.plural, &name));
        };
        let mut patched = match kind {
            PatchKind::Json => apply_json_patch_within(&current, &call.body, max_bytes)?,
            PatchKind::Merge => apply_merge_patch(&current, &call.body)?,
            PatchKind::Strategic(schema) => apply_strategic_merge_patch(&current, &call.body, schema)?,
        };
        settle(def, call, &name, &mut patched, max_bytes)?;
        // A resourceVersion in the patch is a precondition; otherwise the patch applies to
        // whatever is current.
        let expected = match object::meta_str(&patched, "resourceVersion") {
            Some(rv) if rv != current_rev.to_string() => object::parse_resource_version(rv).unwrap_or(-1),
            _ => current_rev,
        };
        let precondition = expected != current_rev;
        match super::update::finish(state, call, def, &name, current, current_rev, expected, patched, None, false).await
        {
            Err(e) if e.code == 409 && !precondition => continue,
            Err(e) => return Err(e),
            Ok((obj, code, warnings)) => return Ok(admission::with_warnings(json_response(code, &obj), &warnings)),
        }
    }
    Err(ApiError::conflict(&def.group, &def.plural, &name, karmadactl_apimachinery::OPTIMISTIC_LOCK_ERROR_MSG))
}

/// What kube-apiserver checks of a patched object before updating with it: bounded in size and
/// depth (patched results may be up to [`RESULT_SIZE_FACTOR`] times the request body limit), of
/// the resource's type, in the request's namespace, and still named as the URL says.
fn settle(def: &ResourceDef, call: &Call, name: &str, patched: &mut Value, max_bytes: usize) -> Result<(), ApiError> {
    if !patched.is_object() {
        return Err(ApiError::bad_request("the patched object is not a JSON object"));
    }
    check_result(patched, max_bytes.saturating_mul(RESULT_SIZE_FACTOR))?;
    super::identity::ensure_type(def, patched)?;
    super::identity::ensure_namespace(def, call, patched)?;
    super::identity::check_name(patched, name)
}

#[derive(Clone, Copy)]
enum PatchKind {
    Json,
    Merge,
    /// With the kind's patch metadata (None: a kind without merged lists).
    Strategic(Option<&'static TypeSchema>),
}
