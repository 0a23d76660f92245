//! Interpreter webhooks (upstream's `customized/webhook`): the webhooks of the plane's
//! `ResourceInterpreterWebhookConfiguration` objects, compiled into a [`WebhookSet`] that
//! names, per kind and operation, the one webhook to call, and the call itself
//! ([`context`] builds the `ResourceInterpreterContext` and checks the answer, [`client`]
//! sends it over HTTPS).

mod client;
mod context;
mod operations;
mod rules;

#[cfg(test)]
mod tests;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use karmadactl_karmada_api::config::webhook::{ResourceInterpreterWebhook, RuleWithOperations};
use serde_json::Value;

use crate::{InterpretError, Operation, Target};
use context::{Answer, Request};

pub use rules::rules_cover;

/// Seconds a webhook is given when its configuration says nothing, and the most it may ask
/// for (upstream's admission refuses more).
const DEFAULT_TIMEOUT_SECONDS: u64 = 10;
const MAX_TIMEOUT_SECONDS: u64 = 30;

/// The one `ResourceInterpreterContext` version this interpreter speaks.
pub(crate) const CONTEXT_VERSION: &str = "v1alpha1";

/// One webhook of a configuration, ready to call.
pub struct Webhook {
    /// `<configuration>/<webhook>`, upstream's hook UID: webhooks are tried in its order.
    uid: String,
    configuration: String,
    name: String,
    rules: Vec<RuleWithOperations>,
    /// The `https://` URL to POST to, or why there is none.
    url: Result<String, String>,
    ca_bundle: Option<Vec<u8>>,
    timeout: Duration,
    versions: Vec<String>,
    /// The HTTPS client, made on first use (a bad caBundle then fails each call, not the set).
    client: OnceLock<Result<client::HttpsClient, String>>,
}

impl Webhook {
    fn new(configuration: &str, hook: ResourceInterpreterWebhook) -> Self {
        let seconds = hook.timeout_seconds.map_or(DEFAULT_TIMEOUT_SECONDS, |s| u64::try_from(s).unwrap_or(1));
        Self {
            uid: format!("{configuration}/{}", hook.name),
            configuration: configuration.to_string(),
            name: hook.name,
            rules: hook.rules,
            url: client::endpoint(&hook.client_config),
            ca_bundle: hook.client_config.ca_bundle.map(|b| b.0),
            timeout: Duration::from_secs(seconds.clamp(1, MAX_TIMEOUT_SECONDS)),
            versions: hook.interpreter_context_versions,
            client: OnceLock::new(),
        }
    }

    /// The configuration's name.
    pub fn configuration(&self) -> &str {
        &self.configuration
    }

    /// The webhook's name within its configuration.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How long a call may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Whether any of the webhook's rules covers `operation` on `target`.
    pub fn matches(&self, target: &Target, operation: Operation) -> bool {
        self.rules.iter().any(|rule| rules::matches(rule, target, Some(operation)))
    }

    /// Asks the webhook about `request` and checks its answer, as upstream's `callHook`: a
    /// failure names the webhook and says what went wrong.
    pub(crate) async fn call(&self, request: Request<'_>) -> Result<Answer, InterpretError> {
        let operation = request.operation;
        let fail = |message: String| InterpretError::Webhook { operation, source_name: self.uid.clone(), message };
        // Upstream picks the webhook before it looks at the versions, so a webhook that takes
        // no known version answers for its kinds with this error rather than being skipped.
        if !self.versions.iter().any(|v| v == CONTEXT_VERSION) {
            return Err(fail(format!(
                "could not create ResourceInterpreterContext objects: webhook does not accept known \
                 ResourceInterpreterContext versions ({CONTEXT_VERSION})"
            )));
        }
        let url = self.url.as_ref().map_err(|e| fail(format!("could not get REST client: {e}")))?;
        let https = self
            .client
            .get_or_init(|| client::HttpsClient::new(self.ca_bundle.as_deref()))
            .as_ref()
            .map_err(|e| fail(format!("could not get REST client: {e}")))?;
        let uid = context::new_uid();
        let body = context::encode(&uid, &request);
        let reply =
            https.post(url, body, self.timeout).await.map_err(|e| fail(format!("failed to call webhook: {e}")))?;
        let answer = context::verify(&uid, operation, &reply)
            .map_err(|e| fail(format!("received invalid webhook response: {e}")))?;
        if let Answer::Failed { code, message } = answer {
            return Err(fail(format!("webhook call failed, get status code: {code}, msg: {message}")));
        }
        Ok(answer)
    }
}

/// The webhooks of every configuration, in the order upstream tries them.
#[derive(Default)]
pub struct WebhookSet {
    hooks: Vec<Arc<Webhook>>,
}

impl WebhookSet {
    /// The set of `objects` (ResourceInterpreterWebhookConfiguration manifests). An object
    /// whose webhooks do not decode is an error naming it, so the caller can keep its last
    /// good set, as upstream's config manager does.
    pub fn from_objects(objects: &[Value]) -> Result<Self, String> {
        let mut hooks = Vec::new();
        for object in objects {
            let name = object["metadata"]["name"].as_str().unwrap_or_default();
            let webhooks: Vec<ResourceInterpreterWebhook> =
                serde_json::from_value(object.get("webhooks").cloned().unwrap_or(Value::Array(Vec::new())))
                    .map_err(|e| format!("ResourceInterpreterWebhookConfiguration {name}: {e}"))?;
            hooks.extend(webhooks.into_iter().map(|hook| Arc::new(Webhook::new(name, hook))));
        }
        // Upstream sorts the matching hooks by UID and takes the first.
        hooks.sort_by(|a, b| a.uid.cmp(&b.uid));
        Ok(Self { hooks })
    }

    /// The webhook that answers `operation` for `target`, if any.
    pub fn first(&self, target: &Target, operation: Operation) -> Option<Arc<Webhook>> {
        self.hooks.iter().find(|hook| hook.matches(target, operation)).cloned()
    }

    /// Whether the set has no webhooks.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }
}
