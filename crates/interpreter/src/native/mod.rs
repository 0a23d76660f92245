//! The native interpreters for built-in kinds (upstream's
//! `pkg/resourceinterpreter/default/native`). A kind without a handler for an operation is not
//! interpreted natively: [`hook_enabled`] says no and the operation is an error, as upstream's
//! default interpreter answers, except InterpretStatus, which keeps the whole `.status` of any
//! kind without its own handler.

use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::replicas::Component;
use serde_json::Value;

use crate::{InterpretError, Operation, Replicas, Target};

/// Whether a native handler answers `operation` for `target`.
pub fn hook_enabled(_target: &Target, operation: Operation) -> bool {
    operation == Operation::InterpretStatus
}

fn not_found(operation: Operation, object: &Value) -> InterpretError {
    InterpretError::InvalidInput { operation, message: format!("no native interpreter for {}", Target::of(object)) }
}

/// InterpretReplica.
pub fn replicas(object: &Value) -> Result<Replicas, InterpretError> {
    Err(not_found(Operation::InterpretReplica, object))
}

/// InterpretComponent: upstream has no native handler for any kind.
pub fn components(object: &Value) -> Result<Vec<Component>, InterpretError> {
    Err(not_found(Operation::InterpretComponent, object))
}

/// ReviseReplica.
pub fn revise_replica(object: &Value, _replicas: i64) -> Result<Value, InterpretError> {
    Err(not_found(Operation::ReviseReplica, object))
}

/// Retain.
pub fn retain(desired: &Value, _observed: &Value) -> Result<Value, InterpretError> {
    Err(not_found(Operation::Retain, desired))
}

/// AggregateStatus.
pub fn aggregate_status(object: &Value, _items: &[AggregatedStatusItem]) -> Result<Value, InterpretError> {
    Err(not_found(Operation::AggregateStatus, object))
}

/// InterpretStatus: the whole `.status` of a kind without its own handler.
pub fn reflect_status(object: &Value) -> Result<Option<Value>, InterpretError> {
    Ok(object.get("status").filter(|s| !s.is_null()).cloned())
}

/// InterpretHealth.
pub fn interpret_health(object: &Value) -> Result<bool, InterpretError> {
    Err(not_found(Operation::InterpretHealth, object))
}

/// InterpretDependency.
pub fn dependencies(object: &Value) -> Result<Vec<DependentObjectReference>, InterpretError> {
    Err(not_found(Operation::InterpretDependency, object))
}
