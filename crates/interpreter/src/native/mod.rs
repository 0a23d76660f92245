//! The native interpreters for built-in kinds (upstream's
//! `pkg/resourceinterpreter/default/native`): one file per operation, as upstream splits them,
//! each with its table of kinds. A kind without a handler for an operation is not interpreted
//! natively: [`hook_enabled`] says no and the operation is an error, as upstream's default
//! interpreter answers, except InterpretStatus, which keeps the whole `.status` of any kind
//! without its own handler.

mod aggregate_job;
mod aggregate_load_balancer;
mod aggregate_phase;
mod aggregate_status;
mod dependencies;
mod fields;
mod health;
mod reflect_status;
mod replica;
mod resources;
mod retain;
mod revise_replica;

use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::replicas::Component;
use serde_json::Value;

use crate::{InterpretError, Operation, Replicas, Target};

pub use dependencies::verify_dependencies;

/// A kind a handler table names: apiVersion and kind.
type Gvk = (&'static str, &'static str);

/// Whether a native handler answers `operation` for `target`.
pub fn hook_enabled(target: &Target, operation: Operation) -> bool {
    let table: &[Gvk] = match operation {
        Operation::InterpretReplica => replica::KINDS,
        Operation::InterpretComponent => &[],
        Operation::ReviseReplica => revise_replica::KINDS,
        Operation::Retain => retain::KINDS,
        Operation::AggregateStatus => aggregate_status::KINDS,
        // Kinds without their own handler have their whole status reflected.
        Operation::InterpretStatus => return true,
        Operation::InterpretHealth => health::KINDS,
        Operation::InterpretDependency => dependencies::KINDS,
    };
    handles(table, target)
}

fn handles(table: &[Gvk], target: &Target) -> bool {
    table.iter().any(|(v, k)| *v == target.api_version && *k == target.kind)
}

/// Upstream's answer for a kind its table lacks.
fn not_found(operation: Operation, object: &Value) -> InterpretError {
    // Upstream prints the GroupVersionKind, as Target's Display does (`/v1, Kind=ConfigMap`).
    let gvk = Target::of(object).to_string();
    InterpretError::InvalidInput {
        operation,
        message: format!("default {operation} interpreter for {gvk:?} not found"),
    }
}

/// An object the operation cannot read (a field of the wrong type, a bad annotation).
fn invalid(operation: Operation, message: impl Into<String>) -> InterpretError {
    InterpretError::InvalidInput { operation, message: message.into() }
}

/// InterpretReplica: the replicas and what each needs.
pub fn replicas(object: &Value) -> Result<Replicas, InterpretError> {
    replica::replicas(object).ok_or_else(|| not_found(Operation::InterpretReplica, object))
}

/// InterpretComponent: upstream has no native handler for any kind.
pub fn components(_object: &Value) -> Result<Vec<Component>, InterpretError> {
    Err(invalid(Operation::InterpretComponent, "no plan to implement this method yet"))
}

/// ReviseReplica: the manifest with a cluster's share of the replicas.
pub fn revise_replica(object: &Value, replicas: i64) -> Result<Value, InterpretError> {
    revise_replica::revise(object, replicas).ok_or_else(|| not_found(Operation::ReviseReplica, object))
}

/// Retain: the desired manifest with the member-side fields of `observed` kept.
pub fn retain(desired: &Value, observed: &Value) -> Result<Value, InterpretError> {
    retain::retain(desired, observed).unwrap_or_else(|| Err(not_found(Operation::Retain, desired)))
}

/// AggregateStatus: the template with its members' statuses added up.
pub fn aggregate_status(object: &Value, items: &[AggregatedStatusItem]) -> Result<Value, InterpretError> {
    aggregate_status::aggregate(object, items).unwrap_or_else(|| Err(not_found(Operation::AggregateStatus, object)))
}

/// InterpretStatus: the status to keep from a member's copy (`None`: nothing to keep); the
/// whole `.status` of a kind without its own handler.
pub fn reflect_status(object: &Value) -> Result<Option<Value>, InterpretError> {
    reflect_status::reflect(object)
}

/// InterpretHealth: whether a member's copy is healthy.
pub fn interpret_health(object: &Value) -> Result<bool, InterpretError> {
    health::healthy(object).ok_or_else(|| not_found(Operation::InterpretHealth, object))
}

/// InterpretDependency: the objects the workload needs in the same clusters, verified.
pub fn dependencies(object: &Value) -> Result<Vec<DependentObjectReference>, InterpretError> {
    let Some(deps) = dependencies::dependencies(object) else {
        let message = "default interpreter for operation InterpretDependency not found";
        return Err(invalid(Operation::InterpretDependency, message));
    };
    verify_dependencies(&deps).map_err(|message| invalid(Operation::InterpretDependency, message))?;
    Ok(deps)
}
