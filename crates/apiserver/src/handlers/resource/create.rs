//! POST: create an object. The server fills what it owns (uid, creationTimestamp, generation,
//! resourceVersion), honours generateName and dryRun, and refuses objects for namespaces that
//! do not exist or are terminating (kube's NamespaceLifecycle admission).

use axum::http::StatusCode;
use axum::response::Response;
use karmadactl_apimachinery::{ApiError, Cause};
use serde_json::Value;

use crate::registry::ResourceDef;

use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;
use crate::{admission, storage::object, storage::store_access};

/// Characters kube uses for generateName suffixes (no vowels, no look-alikes).
const SUFFIX_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

pub async fn create(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    if !call.info.subresource.is_empty() {
        return Err(ApiError::method_not_supported(&super::qualified(def), "create"));
    }
    super::write_options::check(call, "CreateOptions", Vec::new())?;
    let obj = super::decode_object(call, def)?;
    create_object(state, call, def, obj, Some(&call.body), false).await
}

/// Creates `obj` (decoded from the body, or built by server-side apply with its managedFields
/// already set when `applied` is true); `raw` is the JSON body for strict field validation.
pub async fn create_object(
    state: &ApiState,
    call: &Call,
    def: &ResourceDef,
    mut obj: Value,
    raw: Option<&[u8]>,
    applied: bool,
) -> Result<Response, ApiError> {
    let ns = super::namespace_of(def, call).map(str::to_string);
    super::identity::ensure_namespace(def, call, &mut obj)?;
    {
        let meta = object::meta_mut(&mut obj);
        let name = meta.get("name").and_then(Value::as_str).unwrap_or("").to_string();
        if name.is_empty() {
            let prefix = meta.get("generateName").and_then(Value::as_str).unwrap_or("").to_string();
            if prefix.is_empty() {
                return Err(ApiError::invalid(
                    &def.group,
                    &def.kind,
                    "",
                    vec![Cause::required_detail("metadata.name", "name or generateName is required")],
                ));
            }
            meta.insert("name".into(), Value::String(format!("{prefix}{}", random_suffix())));
        }
        meta.insert("uid".into(), Value::String(karmadactl_apimachinery::new_uid()));
        meta.insert("creationTimestamp".into(), Value::String(object::now_rfc3339()));
        if def.tracks_generation() {
            meta.insert("generation".into(), Value::from(1));
        } else {
            meta.remove("generation");
        }
        for owned in ["resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"] {
            meta.remove(owned);
        }
    }
    let name = object::meta_str(&obj, "name").unwrap_or_default().to_string();
    if let Some(ns) = &ns {
        admission::check_namespace_accepts_content(state, ns).await?;
    }
    admission::prepare_for_create(def, &mut obj);
    admission::record_csr_requester(def, &mut obj, &call.user);
    crate::admission::rbac_generator_admission::check_create(state, &call.user, &def.group, &def.plural, &obj).await?;
    let warnings = admission::validate(state, def, &mut obj, raw, None, call.param("fieldValidation"))?;
    // Held until the object is stored: see `federated_quota::check`.
    let _quota = admission::check_requester(state, def, call, None, &obj).await?;
    if !applied {
        super::managed::record(def, call, None, &mut obj);
    }

    if call.dry_run() {
        return Ok(admission::with_warnings(json_response(StatusCode::CREATED, &obj), &warnings));
    }
    super::identity::check_storable(def, ns.as_deref(), &name, &obj)?;
    let key = store_access::key(&def.group, &def.plural, ns.as_deref(), &name);
    let started = std::time::Instant::now();
    let rev = state
        .store
        .create(&key, object::to_stored_bytes(&obj))
        .await
        .map_err(|e| store_access::store_error(e, &def.group, &def.plural, &name))?;
    state.metrics.record_commit(started.elapsed());
    let obj = object::with_resource_version(obj, rev);
    Ok(admission::with_warnings(json_response(StatusCode::CREATED, &obj), &warnings))
}

fn random_suffix() -> String {
    let mut bytes = [0u8; 5];
    let _ = ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut bytes);
    bytes.iter().map(|b| SUFFIX_ALPHABET[*b as usize % SUFFIX_ALPHABET.len()] as char).collect()
}
