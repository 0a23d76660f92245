//! GET of one object (and of its status subresource, which is the same object), as the object,
//! a one-row Table, or its PartialObjectMetadata.

use axum::http::StatusCode;
use axum::response::Response;
use karmadactl_apimachinery::ApiError;

use crate::registry::ResourceDef;

use crate::filters::dispatch::{Call, json_response};
use crate::handlers::table::{self, Output, TableBuilder};
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

pub async fn get(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    let output = call.output()?;
    if let Output::PartialList(_) = output {
        return Err(table::partial_list_of_object());
    }
    // Any version is fine for "" and "0"; a later one than the store has is refused as kube does.
    if let Some(rev) = call.param("resourceVersion").and_then(object::parse_resource_version) {
        super::list::not_in_the_future(state, rev)?;
    }
    let ns = super::namespace_of(def, call);
    let name = &call.info.name;
    let Some((obj, _)) = store_access::get(state, &def.group, &def.plural, ns, name).await? else {
        return Err(ApiError::not_found(&def.group, &def.plural, name));
    };
    let body = match output {
        Output::Objects | Output::PartialList(_) => obj,
        Output::Table(options) => TableBuilder::new(def, options).single(&obj, true),
        Output::Partial(version) => table::partial_object(&obj, version),
    };
    Ok(json_response(StatusCode::OK, &body))
}
