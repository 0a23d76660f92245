//! Keeps the resource interpreter's webhooks in step with the plane's
//! `ResourceInterpreterWebhookConfiguration` objects (upstream's webhook config manager): every
//! change replaces the interpreter's webhook set at once, then everything of the kinds the
//! configuration's rules covered before or cover now is queued again. A rule of `*` covers
//! every kind the engine holds.

use std::sync::Arc;

use karmadactl_interpreter::webhook::rules_cover;
use karmadactl_interpreter::{Interpreter, WebhookSet};
use karmadactl_karmada_api::config::webhook::KIND;
use kube::Client;
use kube::api::DynamicObject;
use kube::runtime::reflector::Store;
use serde_json::Value;
use tokio::task::JoinHandle;

use super::context::Engine;
use super::interpreter_config::{follow_objects, resource};

const PLURAL: &str = "resourceinterpreterwebhookconfigurations";

/// Follows the webhook configurations; `engine` yields the engine once it is up.
pub fn follow(
    client: &Client,
    interpreter: Arc<Interpreter>,
    engine: impl Fn() -> Option<Arc<Engine>> + Send + 'static,
) -> (Store<DynamicObject>, JoinHandle<()>) {
    let apply = move |all: &[Value]| match WebhookSet::from_objects(all) {
        Ok(set) => interpreter.set_webhooks(set),
        // The plane's schema keeps such objects out; should one get in, the last good set
        // stays, as upstream's config manager keeps it when a configuration fails to convert.
        Err(e) => tracing::warn!(error = %e, "keeping the current interpreter webhooks"),
    };
    follow_objects(client, resource(KIND, PLURAL), engine, apply, rules_cover)
}
