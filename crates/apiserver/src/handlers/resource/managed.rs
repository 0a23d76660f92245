//! The managedFields context of a request: who writes (fieldManager or User-Agent), through
//! which version and subresource, and the kind's list semantics.

use axum::http::header;
use karmadactl_apimachinery::managed_fields::{self, Context, Shape};
use karmadactl_apimachinery::strategic;

use crate::registry::{ResourceDef, Source};

use crate::filters::dispatch::Call;

/// The manager a non-apply write is recorded for.
pub fn manager(call: &Call) -> String {
    let ua = call.headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok());
    managed_fields::manager_name(call.param("fieldManager"), ua)
}

/// The shape of the resource's objects: strategic-merge metadata for built-ins, the CRD's
/// schema for custom resources.
pub fn shape(def: &ResourceDef) -> Shape<'_> {
    match def.source {
        Source::Builtin => Shape::builtin(strategic::schema_for(&def.group, &def.kind)),
        Source::Crd { .. } => def.schema.as_deref().map(Shape::Openapi).unwrap_or(Shape::Unknown),
    }
}

pub fn context<'a>(
    def: &'a ResourceDef,
    call: &'a Call,
    manager: &'a str,
    api_version: &'a str,
    now: &'a str,
) -> Context<'a> {
    Context {
        manager,
        api_version,
        subresource: call.info.subresource.as_str(),
        shape: shape(def),
        status_separate: def.subresource("status").is_some(),
        now,
    }
}

/// Records a create, update or non-apply patch of `new` over `old` in `new`'s managedFields.
pub fn record(def: &ResourceDef, call: &Call, old: Option<&serde_json::Value>, new: &mut serde_json::Value) {
    let manager = manager(call);
    let api_version = def.api_version();
    let now = crate::storage::object::now_rfc3339();
    let ctx = context(def, call, &manager, &api_version, &now);
    managed_fields::record_update(old, new, &ctx);
}
