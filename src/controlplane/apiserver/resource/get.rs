//! GET of one object (and of its status subresource, which is the same object).

use axum::http::StatusCode;
use axum::response::Response;

use crate::controlplane::apimachinery::ApiError;
use crate::controlplane::registry::ResourceDef;

use super::super::dispatch::{Call, json_response};
use super::super::state::ApiState;
use super::super::store_access;

pub async fn get(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    let ns = super::namespace_of(def, call);
    let name = &call.info.name;
    match store_access::get(state, &def.group, &def.plural, ns, name).await? {
        Some((obj, _)) => Ok(json_response(StatusCode::OK, &obj)),
        None => Err(ApiError::not_found(&def.group, &def.plural, name)),
    }
}
