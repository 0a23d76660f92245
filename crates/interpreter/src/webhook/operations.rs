//! Each interpreter operation asked of a webhook and its answer put to use as upstream's
//! customized interpreter does: replicas, components, dependencies, status and health as
//! given; a revised, retained or aggregated object as the answer's JSON patch applied to the
//! object sent.

use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::replicas::Component;
use serde_json::Value;

use super::Webhook;
use super::context::{Answer, Request, apply_patch};
use crate::{InterpretError, Operation, Replicas};

impl Webhook {
    /// An answer of the wrong shape: [`super::context::verify`] rules that out, so this is
    /// only here to keep the matches total.
    fn unexpected(&self, operation: Operation, answer: &Answer) -> InterpretError {
        InterpretError::InvalidResult {
            operation,
            source_name: self.uid.clone(),
            message: format!("unexpected answer {answer:?}"),
        }
    }

    pub(crate) async fn replicas(&self, object: &Value) -> Result<Replicas, InterpretError> {
        let op = Operation::InterpretReplica;
        match self.call(Request::new(op, object)).await? {
            Answer::Replicas { replicas, requirements } => Ok(Replicas { replicas, requirements }),
            other => Err(self.unexpected(op, &other)),
        }
    }

    pub(crate) async fn components(&self, object: &Value) -> Result<Vec<Component>, InterpretError> {
        let op = Operation::InterpretComponent;
        match self.call(Request::new(op, object)).await? {
            Answer::Components(components) => Ok(components),
            other => Err(self.unexpected(op, &other)),
        }
    }

    pub(crate) async fn dependencies(&self, object: &Value) -> Result<Vec<DependentObjectReference>, InterpretError> {
        let op = Operation::InterpretDependency;
        match self.call(Request::new(op, object)).await? {
            Answer::Dependencies(refs) => Ok(refs),
            other => Err(self.unexpected(op, &other)),
        }
    }

    pub(crate) async fn reflect_status(&self, object: &Value) -> Result<Option<Value>, InterpretError> {
        let op = Operation::InterpretStatus;
        match self.call(Request::new(op, object)).await? {
            Answer::RawStatus(status) => Ok(Some(status)),
            other => Err(self.unexpected(op, &other)),
        }
    }

    pub(crate) async fn interpret_health(&self, object: &Value) -> Result<bool, InterpretError> {
        let op = Operation::InterpretHealth;
        match self.call(Request::new(op, object)).await? {
            Answer::Healthy(healthy) => Ok(healthy),
            other => Err(self.unexpected(op, &other)),
        }
    }

    pub(crate) async fn revise_replica(&self, object: &Value, replicas: i64) -> Result<Value, InterpretError> {
        let op = Operation::ReviseReplica;
        let desired_replicas = i32::try_from(replicas).map_err(|_| InterpretError::InvalidInput {
            operation: op,
            message: format!("{replicas} replicas do not fit a webhook request"),
        })?;
        self.patched(Request { desired_replicas, ..Request::new(op, object) }).await
    }

    pub(crate) async fn retain(&self, desired: &Value, observed: &Value) -> Result<Value, InterpretError> {
        self.patched(Request { observed: Some(observed), ..Request::new(Operation::Retain, desired) }).await
    }

    pub(crate) async fn aggregate_status(
        &self,
        object: &Value,
        items: Option<&[AggregatedStatusItem]>,
    ) -> Result<Value, InterpretError> {
        self.patched(Request { aggregated_status: items, ..Request::new(Operation::AggregateStatus, object) }).await
    }

    /// The request's object with the answer's patch applied.
    async fn patched(&self, request: Request<'_>) -> Result<Value, InterpretError> {
        let (op, object) = (request.operation, request.object);
        match self.call(request).await? {
            Answer::Patch(patch) => apply_patch(object, patch.as_deref()).map_err(|message| {
                InterpretError::InvalidResult { operation: op, source_name: self.uid.clone(), message }
            }),
            other => Err(self.unexpected(op, &other)),
        }
    }
}
