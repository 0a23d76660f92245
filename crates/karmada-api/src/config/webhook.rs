//! `ResourceInterpreterWebhookConfiguration`: webhooks that interpret kinds, chosen by rules of
//! operation and kind, as upstream's `config/v1alpha1` types name them.

use serde::{Deserialize, Serialize};

/// The kind of a webhook configuration object.
pub const KIND: &str = "ResourceInterpreterWebhookConfiguration";

/// One webhook of a configuration (the object's `webhooks` list).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceInterpreterWebhook {
    /// The webhook's name, unique within the configuration.
    pub name: String,
    /// Where to send requests.
    pub client_config: WebhookClientConfig,
    /// Which operations on which kinds this webhook interprets.
    #[serde(default)]
    pub rules: Vec<RuleWithOperations>,
    /// Seconds to wait for an answer (default 10, at most 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i32>,
    /// `ResourceInterpreterContext` versions the webhook accepts, in order of preference.
    #[serde(default)]
    pub interpreter_context_versions: Vec<String>,
}

/// Where a webhook is served: a URL, or a Service in the control plane.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct WebhookClientConfig {
    /// `https://host[:port]/path`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A Service reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<ServiceReference>,
    /// PEM certificates that sign the webhook's serving certificate (base64 in JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_bundle: Option<k8s_openapi::ByteString>,
}

/// A Service that serves a webhook.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ServiceReference {
    /// The Service's namespace.
    pub namespace: String,
    /// The Service's name.
    pub name: String,
    /// The URL path to call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The Service port (default 443).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

/// Operations and the kinds they apply to; `*` matches anything.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RuleWithOperations {
    /// Interpreter operations (`InterpretReplica`, …, or `*`).
    #[serde(default)]
    pub operations: Vec<String>,
    /// API groups (`""` is the core group).
    #[serde(default)]
    pub api_groups: Vec<String>,
    /// API versions.
    #[serde(default)]
    pub api_versions: Vec<String>,
    /// Kinds.
    #[serde(default)]
    pub kinds: Vec<String>,
}
