//! The facade: each operation answered by the first source with a rule for the object's kind,
//! in upstream's order (`customResourceInterpreterImpl`): the user's customizations, then
//! interpreter webhooks, then the shipped third-party customizations, then the native
//! interpreters. Callers ask [`Interpreter::source`] first where upstream asks `HookEnabled`
//! (a kind nobody interprets has no replicas, no health and no aggregated status).

use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::replicas::{Component, ReplicaRequirements};
use serde_json::Value;

use std::sync::{Arc, RwLock};

use crate::customization::{Rule, RuleSet};
use crate::lua::{Limits, Vm};
use crate::webhook::{Webhook, WebhookSet};
use crate::{InterpretError, Operation, Target, dependencies, native};

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

/// The non-native source chosen for a kind and operation.
enum Chosen {
    /// A Lua source and its rules (every rule counts for dependencies, the first otherwise).
    Lua(Source, Vec<Rule>),
    Webhook(Arc<Webhook>),
}

/// What answers one operation on one object, when not the native interpreter.
enum Answerer {
    /// A script and the name of its source.
    Script(String, Arc<str>),
    Webhook(Arc<Webhook>),
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
/// objects that configure them change. A Lua rule runs on the calling thread, for at most its
/// time budget ([`Limits`], one second by default): a caller on an async runtime with many
/// scripts to run may want a blocking thread for them. A webhook call awaits its answer for at
/// most the webhook's timeout (10 seconds unless configured, 30 at most).
#[derive(Default)]
pub struct Interpreter {
    /// The user's customizations, replaced whole as the objects change.
    user: RwLock<Arc<RuleSet>>,
    /// The webhooks of the ResourceInterpreterWebhookConfiguration objects, replaced whole.
    webhooks: RwLock<Arc<WebhookSet>>,
    /// The shipped third-party customizations.
    third_party: Arc<RuleSet>,
    vm: Vm,
    revisions: crate::revision_memo::RevisionMemo,
}

impl Interpreter {
    /// An interpreter with the native interpreters only.
    pub fn new() -> Self {
        Self::default()
    }

    /// The interpreter Karmada runs: the shipped third-party customizations and the native
    /// interpreters (the engine adds the user's customizations as it sees them).
    pub fn standard() -> Self {
        Self::default().with_third_party(crate::thirdparty::rule_set())
    }

    /// This interpreter with `set` as its third-party customizations.
    #[must_use]
    pub fn with_third_party(mut self, set: RuleSet) -> Self {
        self.third_party = Arc::new(set);
        self
    }

    /// This interpreter running scripts under `limits`.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.vm = Vm::new(limits);
        self
    }

    /// Replaces the user's customizations (the engine calls this whenever one is created,
    /// updated or deleted, with all of them).
    pub fn set_customizations(&self, set: RuleSet) {
        *self.user.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(set);
        self.revisions.clear();
    }

    /// Replaces the user's customizations with those in `objects` (every
    /// ResourceInterpreterCustomization there is). An object that is not one leaves the current
    /// set in place, as upstream's config manager keeps its last good set when one fails to
    /// convert.
    pub fn set_customization_objects(&self, objects: &[Value]) -> Result<(), String> {
        self.set_customizations(RuleSet::from_objects(objects)?);
        Ok(())
    }

    /// Replaces the webhooks (the engine calls this whenever a webhook configuration is
    /// created, updated or deleted, with all of them).
    pub fn set_webhooks(&self, set: WebhookSet) {
        *self.webhooks.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(set);
    }

    /// Which source answers `operation` for `target`, or `None` when nothing interprets it.
    pub fn source(&self, target: &Target, operation: Operation) -> Option<Source> {
        match self.choose(target, operation) {
            Some(Chosen::Lua(source, _)) => Some(source),
            Some(Chosen::Webhook(hook)) => Some(Source::Webhook {
                configuration: hook.configuration().to_string(),
                webhook: hook.name().to_string(),
            }),
            None => native::hook_enabled(target, operation).then_some(Source::Native),
        }
    }

    /// The first non-native source with a rule for `target`, in upstream's order.
    fn choose(&self, target: &Target, operation: Operation) -> Option<Chosen> {
        let user = self.user.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        let rules: Vec<Rule> = user.rules(target, operation).into_iter().cloned().collect();
        if let Some(first) = rules.first() {
            return Some(Chosen::Lua(Source::Customization(first.source.clone()), rules));
        }
        let webhooks = self.webhooks.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        if let Some(hook) = webhooks.first(target, operation) {
            return Some(Chosen::Webhook(hook));
        }
        let rules: Vec<Rule> = self.third_party.rules(target, operation).into_iter().cloned().collect();
        let first = rules.first()?;
        Some(Chosen::Lua(Source::ThirdParty(first.source.clone()), rules))
    }

    /// The one script or the webhook answering `operation` for `object`, if not native.
    fn answerer(&self, object: &Value, operation: Operation) -> Option<Answerer> {
        match self.choose(&Target::of(object), operation)? {
            Chosen::Lua(source, rules) => Some(Answerer::Script(source.to_string(), rules.into_iter().next()?.script)),
            Chosen::Webhook(hook) => Some(Answerer::Webhook(hook)),
        }
    }

    /// InterpretReplica: the replicas and what each needs.
    pub async fn replicas(&self, object: &Value) -> Result<Replicas, InterpretError> {
        let op = Operation::InterpretReplica;
        match self.answerer(object, op) {
            Some(Answerer::Script(source, script)) => {
                self.vm.get_replicas(&script, object).map_err(|e| e.into_error(op, source))
            }
            Some(Answerer::Webhook(hook)) => hook.replicas(object).await,
            None => native::replicas(object),
        }
    }

    /// InterpretComponent: the components of a multi-component workload.
    pub async fn components(&self, object: &Value) -> Result<Vec<Component>, InterpretError> {
        let op = Operation::InterpretComponent;
        match self.answerer(object, op) {
            Some(Answerer::Script(source, script)) => {
                self.vm.get_components(&script, object).map_err(|e| e.into_error(op, source))
            }
            Some(Answerer::Webhook(hook)) => hook.components(object).await,
            None => native::components(object),
        }
    }

    /// ReviseReplica: the manifest with a cluster's share of the replicas.
    pub async fn revise_replica(&self, object: &Value, replicas: i64) -> Result<Value, InterpretError> {
        let op = Operation::ReviseReplica;
        match self.answerer(object, op) {
            Some(Answerer::Script(source, script)) => {
                self.vm.revise_replica(&script, object, replicas).map_err(|e| e.into_error(op, source))
            }
            Some(Answerer::Webhook(hook)) => hook.revise_replica(object, replicas).await,
            None => native::revise_replica(object, replicas),
        }
    }

    /// [`revise_replica`](Self::revise_replica) of an object its caller names by `version`
    /// (one that changes whenever the object may, such as the uid and resourceVersion of the
    /// template it was derived from): a script's answer for the same version and count is
    /// kept and given again without running it. Webhooks are always asked.
    pub async fn revise_replica_of(
        &self,
        object: &Value,
        version: &str,
        replicas: i64,
    ) -> Result<Value, InterpretError> {
        let op = Operation::ReviseReplica;
        match self.answerer(object, op) {
            Some(Answerer::Script(source, script)) => {
                if let Some(revised) = self.revisions.get(&script, version, replicas) {
                    return Ok(revised);
                }
                let revised =
                    self.vm.revise_replica(&script, object, replicas).map_err(|e| e.into_error(op, source))?;
                self.revisions.put(&script, version, replicas, &revised);
                Ok(revised)
            }
            Some(Answerer::Webhook(hook)) => hook.revise_replica(object, replicas).await,
            None => native::revise_replica(object, replicas),
        }
    }

    /// Retain: the desired manifest with the member-side fields of `observed` kept.
    pub async fn retain(&self, desired: &Value, observed: &Value) -> Result<Value, InterpretError> {
        let op = Operation::Retain;
        match self.answerer(desired, op) {
            Some(Answerer::Script(source, script)) => {
                self.vm.retain(&script, desired, observed).map_err(|e| e.into_error(op, source))
            }
            Some(Answerer::Webhook(hook)) => hook.retain(desired, observed).await,
            None => native::retain(desired, observed),
        }
    }

    /// AggregateStatus: the template with its members' statuses added up. No items reach a
    /// script as nil, as upstream's scripts get them from a binding without aggregated status.
    pub async fn aggregate_status(
        &self,
        object: &Value,
        items: &[AggregatedStatusItem],
    ) -> Result<Value, InterpretError> {
        self.aggregate_status_items(object, (!items.is_empty()).then_some(items)).await
    }

    /// AggregateStatus with the items given as upstream's callers can give them: `None` (a
    /// script sees nil) or a list, perhaps empty (a script sees a table).
    pub async fn aggregate_status_items(
        &self,
        object: &Value,
        items: Option<&[AggregatedStatusItem]>,
    ) -> Result<Value, InterpretError> {
        let op = Operation::AggregateStatus;
        match self.answerer(object, op) {
            Some(Answerer::Script(source, script)) => {
                self.vm.aggregate_status(&script, object, items).map_err(|e| e.into_error(op, source))
            }
            Some(Answerer::Webhook(hook)) => hook.aggregate_status(object, items).await,
            None => native::aggregate_status(object, items.unwrap_or_default()),
        }
    }

    /// InterpretStatus: the status to keep from a member's copy (`None`: nothing to keep).
    pub async fn reflect_status(&self, object: &Value) -> Result<Option<Value>, InterpretError> {
        let op = Operation::InterpretStatus;
        match self.answerer(object, op) {
            Some(Answerer::Script(source, script)) => {
                self.vm.reflect_status(&script, object).map(Some).map_err(|e| e.into_error(op, source))
            }
            Some(Answerer::Webhook(hook)) => hook.reflect_status(object).await,
            None => native::reflect_status(object),
        }
    }

    /// InterpretHealth: whether a member's copy is healthy.
    pub async fn interpret_health(&self, object: &Value) -> Result<bool, InterpretError> {
        let op = Operation::InterpretHealth;
        match self.answerer(object, op) {
            Some(Answerer::Script(source, script)) => {
                self.vm.interpret_health(&script, object).map_err(|e| e.into_error(op, source))
            }
            Some(Answerer::Webhook(hook)) => hook.interpret_health(object).await,
            None => native::interpret_health(object),
        }
    }

    /// InterpretDependency: the objects the workload needs in the same clusters. Every
    /// dependency script of the source runs; their answers are checked, united and sorted.
    pub async fn dependencies(&self, object: &Value) -> Result<Vec<DependentObjectReference>, InterpretError> {
        let op = Operation::InterpretDependency;
        let (source, rules) = match self.choose(&Target::of(object), op) {
            Some(Chosen::Lua(source, rules)) => (source, rules),
            Some(Chosen::Webhook(hook)) => return hook.dependencies(object).await,
            None => return native::dependencies(object),
        };
        let mut all = Vec::new();
        for rule in rules {
            let refs =
                self.vm.get_dependencies(&rule.script, object).map_err(|e| e.into_error(op, source.to_string()))?;
            native::verify_dependencies(&refs).map_err(|message| InterpretError::InvalidResult {
                operation: op,
                source_name: source.to_string(),
                message,
            })?;
            all.extend(refs);
        }
        Ok(dependencies::united(all))
    }
}
