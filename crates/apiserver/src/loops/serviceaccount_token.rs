//! kube-controller-manager's token controller: fills `kubernetes.io/service-account-token`
//! Secrets with a signed token, the plane's CA and the namespace. It runs as a client of the API
//! server (kube-rs watcher), so the server's list and watch serve their own controllers.
//!
//! Unlike upstream it never deletes a Secret whose service account is missing: it only fills
//! Secrets it can prove belong to an existing account (name and, when set, uid).

use std::collections::BTreeMap;
use std::sync::Arc;

use base64::Engine;
use futures::StreamExt;
use k8s_openapi::api::core::v1::{Secret, ServiceAccount};
use kube::api::{Patch, PatchParams};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Client};
use serde_json::json;

use crate::state::ApiState;

pub const SA_NAME_ANNOTATION: &str = "kubernetes.io/service-account.name";
pub const SA_UID_ANNOTATION: &str = "kubernetes.io/service-account.uid";
pub const TOKEN_SECRET_TYPE: &str = "kubernetes.io/service-account-token";

/// Runs until the client's server goes away.
pub async fn run(client: Client, state: Arc<ApiState>) {
    let secrets: Api<Secret> = Api::all(client.clone());
    let cfg = watcher::Config::default().fields(&format!("type={TOKEN_SECRET_TYPE}"));
    let mut stream = watcher(secrets, cfg).default_backoff().applied_objects().boxed();
    while let Some(item) = stream.next().await {
        match item {
            Ok(secret) => {
                if let Err(e) = reconcile(&client, &state, &secret).await {
                    tracing::warn!(secret = ?secret.metadata.name, error = %e, "could not fill the service-account token");
                }
            }
            Err(e) => tracing::debug!(error = %e, "token controller watch error; the watcher retries"),
        }
    }
}

async fn reconcile(client: &Client, state: &ApiState, secret: &Secret) -> Result<(), kube::Error> {
    let has_token = secret.data.as_ref().and_then(|d| d.get("token")).is_some_and(|t| !t.0.is_empty());
    if has_token {
        return Ok(());
    }
    let annotations = secret.metadata.annotations.clone().unwrap_or_default();
    let Some(sa_name) = annotations.get(SA_NAME_ANNOTATION) else { return Ok(()) };
    let ns = secret.metadata.namespace.clone().unwrap_or_default();
    let name = secret.metadata.name.clone().unwrap_or_default();
    let sa_api: Api<ServiceAccount> = Api::namespaced(client.clone(), &ns);
    let Some(sa) = sa_api.get_opt(sa_name).await? else { return Ok(()) };
    let sa_uid = sa.metadata.uid.clone().unwrap_or_default();
    if annotations.get(SA_UID_ANNOTATION).is_some_and(|u| !u.is_empty() && *u != sa_uid) {
        return Ok(());
    }
    let token = match state.sa_tokens.issue_legacy(&ns, sa_name, &sa_uid, &name) {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(error = %e, "signing a service-account token failed");
            return Ok(());
        }
    };
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s.as_bytes());
    let mut data = BTreeMap::new();
    data.insert("token", b64(&token));
    data.insert("ca.crt", b64(&state.ca_pem));
    data.insert("namespace", b64(&ns));
    let patch = json!({
        "metadata": {
            "resourceVersion": secret.metadata.resource_version,
            "annotations": {SA_UID_ANNOTATION: sa_uid},
        },
        "data": data,
    });
    let secrets: Api<Secret> = Api::namespaced(client.clone(), &ns);
    match secrets.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => Ok(()),
        // Changed meanwhile: the watch delivers the new version and we try again.
        Err(kube::Error::Api(e)) if e.code == 409 => Ok(()),
        Err(e) => Err(e),
    }
}
