//! The facade: each operation answered by the first source with a rule for the object's kind,
//! in upstream's order (`customResourceInterpreterImpl`): the user's customizations, then
//! interpreter webhooks, then the shipped third-party customizations, then the native
//! interpreters. Callers ask [`Interpreter::source`] first where upstream asks `HookEnabled`
//! (a kind nobody interprets has no replicas, no health and no aggregated status).

use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::replicas::{Component, ReplicaRequirements};
use serde_json::Value;

use crate::{InterpretError, Operation, Target, native};

/// Where an answer comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A user's `ResourceInterpreterCustomization`, by name.
    Customization(String),
    /// A webhook of a `ResourceInterpreterWebhookConfiguration`: configuration and webhook name.
    Webhook { configuration: String, webhook: String },
    /// The shipped customization for a third-party kind, by name.
    ThirdParty(String),
    /// The native interpreter for a built-in kind.
    Native,
}

impl std::fmt::Display for Source {
    /// How upstream's `karmadactl interpret` and the engine's logs name the interpreter used.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Customization(name) => {
                write!(f, "configurable interpreter (ResourceInterpreterCustomization {name})")
            }
            Self::Webhook { configuration, webhook } => {
                write!(f, "customized interpreter (webhook {webhook} of {configuration})")
            }
            Self::ThirdParty(name) => write!(f, "third-party interpreter ({name})"),
            Self::Native => f.write_str("default interpreter"),
        }
    }
}

/// A workload's replicas and what one replica needs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replicas {
    /// The desired replica count.
    pub replicas: i32,
    /// What one replica needs, when the kind says.
    pub requirements: Option<ReplicaRequirements>,
}

/// The resource interpreter. Cheap to share behind an `Arc`; its sources are replaced as the
/// objects that configure them change.
#[derive(Default)]
pub struct Interpreter {}

impl Interpreter {
    /// An interpreter with the native interpreters only.
    pub fn new() -> Self {
        Self {}
    }

    /// Which source answers `operation` for `target`, or `None` when nothing interprets it.
    pub fn source(&self, target: &Target, operation: Operation) -> Option<Source> {
        native::hook_enabled(target, operation).then_some(Source::Native)
    }

    /// InterpretReplica: the replicas and what each needs.
    pub async fn replicas(&self, object: &Value) -> Result<Replicas, InterpretError> {
        native::replicas(object)
    }

    /// InterpretComponent: the components of a multi-component workload.
    pub async fn components(&self, object: &Value) -> Result<Vec<Component>, InterpretError> {
        native::components(object)
    }

    /// ReviseReplica: the manifest with a cluster's share of the replicas.
    pub async fn revise_replica(&self, object: &Value, replicas: i64) -> Result<Value, InterpretError> {
        native::revise_replica(object, replicas)
    }

    /// Retain: the desired manifest with the member-side fields of `observed` kept.
    pub async fn retain(&self, desired: &Value, observed: &Value) -> Result<Value, InterpretError> {
        native::retain(desired, observed)
    }

    /// AggregateStatus: the template with its members' statuses added up.
    pub async fn aggregate_status(
        &self,
        object: &Value,
        items: &[AggregatedStatusItem],
    ) -> Result<Value, InterpretError> {
        native::aggregate_status(object, items)
    }

    /// InterpretStatus: the status to keep from a member's copy (`None`: nothing to keep).
    pub async fn reflect_status(&self, object: &Value) -> Result<Option<Value>, InterpretError> {
        native::reflect_status(object)
    }

    /// InterpretHealth: whether a member's copy is healthy.
    pub async fn interpret_health(&self, object: &Value) -> Result<bool, InterpretError> {
        native::interpret_health(object)
    }

    /// InterpretDependency: the objects the workload needs in the same clusters.
    pub async fn dependencies(&self, object: &Value) -> Result<Vec<DependentObjectReference>, InterpretError> {
        native::dependencies(object)
    }
}
