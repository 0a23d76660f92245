//! kube-controller-manager's `bootstrapsigner`, for the Karmada profile: keeps
//! `kube-public/cluster-info` holding the plane's server URL and CA, with one detached JWS
//! signature (`jws-kubeconfig-<token-id>`) per valid bootstrap token that allows signing, so a
//! member running `register` can check the CA it discovers against its token. The signature of
//! a token that is deleted or has expired is removed; deleting expired token Secrets is the
//! token cleaner's job (`token_cleaner.rs`).
//!
//! It owns exactly the `kubeconfig` key and the `jws-kubeconfig-*` keys of that one ConfigMap.

use std::collections::BTreeMap;
use std::time::Duration;

use base64::Engine;
use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{ListParams, Patch, PatchParams, PostParams};
use kube::runtime::watcher;
use kube::{Api, Client};
use serde_json::json;

use karmadactl_pki::token::{SECRET_NAMESPACE, SECRET_TYPE, TokenSecret};

pub use karmadactl_karmada_api::wellknown::{CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE};
pub const KUBECONFIG_KEY: &str = "kubeconfig";
pub const JWS_KEY_PREFIX: &str = "jws-kubeconfig-";

/// How often tokens are re-checked for expiry when nothing else changes.
const RESYNC: Duration = Duration::from_secs(15);

/// The `kubeconfig` value of cluster-info: one cluster named "" (as cluster-bootstrap names
/// it) with the server URL and CA, nothing else.
pub fn cluster_info_kubeconfig(server: &str, ca_pem: &str) -> String {
    let ca = base64::engine::general_purpose::STANDARD.encode(ca_pem.as_bytes());
    // Written by hand in clientcmd's layout so the signed bytes are stable across versions of
    // any serializer; the JWS covers exactly this text.
    format!(
        "apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: {ca}\n    server: {server}\n  name: \"\"\ncontexts: null\ncurrent-context: \"\"\nkind: Config\npreferences: {{}}\nusers: null\n"
    )
}

/// Creates cluster-info or brings its `kubeconfig` key up to date. Called once before the
/// plane reports ready, then kept current by [`run`].
pub async fn ensure_cluster_info(client: &Client, kubeconfig: &str) -> Result<(), kube::Error> {
    let api: Api<ConfigMap> = Api::namespaced(client.clone(), CLUSTER_INFO_NAMESPACE);
    match api.get_opt(CLUSTER_INFO_NAME).await? {
        None => {
            let cm = ConfigMap {
                metadata: kube::api::ObjectMeta {
                    name: Some(CLUSTER_INFO_NAME.into()),
                    namespace: Some(CLUSTER_INFO_NAMESPACE.into()),
                    ..Default::default()
                },
                data: Some(BTreeMap::from([(KUBECONFIG_KEY.to_string(), kubeconfig.to_string())])),
                ..Default::default()
            };
            match api.create(&PostParams::default(), &cm).await {
                Ok(_) => Ok(()),
                Err(kube::Error::Api(e)) if e.code == 409 => Ok(()),
                Err(e) => Err(e),
            }
        }
        Some(cm) if cm.data.as_ref().and_then(|d| d.get(KUBECONFIG_KEY)).map(String::as_str) == Some(kubeconfig) => {
            Ok(())
        }
        Some(_) => {
            let patch = json!({"data": {KUBECONFIG_KEY: kubeconfig}});
            api.patch(CLUSTER_INFO_NAME, &PatchParams::default(), &Patch::Merge(&patch)).await.map(|_| ())
        }
    }
}

/// Runs until the client's server goes away.
pub async fn run(client: Client, kubeconfig: String) {
    let secrets: Api<Secret> = Api::namespaced(client.clone(), SECRET_NAMESPACE);
    let maps: Api<ConfigMap> = Api::namespaced(client.clone(), CLUSTER_INFO_NAMESPACE);
    let secret_events = watcher(secrets, watcher::Config::default().fields(&format!("type={SECRET_TYPE}"))).map(|_| ());
    let map_events =
        watcher(maps, watcher::Config::default().fields(&format!("metadata.name={CLUSTER_INFO_NAME}"))).map(|_| ());
    let ticks = futures::stream::unfold((), |_| async {
        tokio::time::sleep(RESYNC).await;
        Some(((), ()))
    });
    let mut triggers = futures::stream::select(futures::stream::select(secret_events, map_events), ticks).boxed();
    while triggers.next().await.is_some() {
        // Level-triggered: whatever woke us, compute the whole desired state again.
        if let Err(e) = reconcile(&client, &kubeconfig).await {
            tracing::debug!(error = %e, "bootstrap signer pass failed; retrying on the next change");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

async fn reconcile(client: &Client, kubeconfig: &str) -> Result<(), kube::Error> {
    let secrets: Api<Secret> = Api::namespaced(client.clone(), SECRET_NAMESPACE);
    let listed = secrets.list(&ListParams::default().fields(&format!("type={SECRET_TYPE}"))).await?;
    let now = jiff::Timestamp::now();
    let mut signatures = BTreeMap::new();
    for secret in &listed.items {
        let Ok(token) = TokenSecret::from_secret(secret) else { continue };
        if token.is_expired(now) {
            continue;
        }
        if token.usages.iter().any(|u| u == "signing") {
            let jws = karmadactl_pki::jws::sign_detached(kubeconfig, token.token.id(), token.token.secret());
            signatures.insert(format!("{JWS_KEY_PREFIX}{}", token.token.id()), jws);
        }
    }
    ensure_cluster_info(client, kubeconfig).await?;
    let maps: Api<ConfigMap> = Api::namespaced(client.clone(), CLUSTER_INFO_NAMESPACE);
    let Some(cm) = maps.get_opt(CLUSTER_INFO_NAME).await? else { return Ok(()) };
    let data = cm.data.unwrap_or_default();
    let mut changes = serde_json::Map::new();
    for (key, value) in &data {
        if key.starts_with(JWS_KEY_PREFIX) && !signatures.contains_key(key) {
            changes.insert(key.clone(), serde_json::Value::Null);
        } else if let Some(want) = signatures.get(key)
            && want != value
        {
            changes.insert(key.clone(), json!(want));
        }
    }
    for (key, want) in &signatures {
        if !data.contains_key(key) {
            changes.insert(key.clone(), json!(want));
        }
    }
    if changes.is_empty() {
        return Ok(());
    }
    let patch = json!({"data": changes});
    maps.patch(CLUSTER_INFO_NAME, &PatchParams::default(), &Patch::Merge(&patch)).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_info_kubeconfig_parses_as_a_kubeconfig_with_one_unnamed_cluster() {
        let text = cluster_info_kubeconfig("https://127.0.0.1:5443", "-----BEGIN CERTIFICATE-----\nx\n");
        let kc: kube::config::Kubeconfig = serde_saphyr::from_str(&text).unwrap();
        assert_eq!(kc.clusters.len(), 1);
        assert_eq!(kc.clusters[0].name, "");
        let cluster = kc.clusters[0].cluster.as_ref().unwrap();
        assert_eq!(cluster.server.as_deref(), Some("https://127.0.0.1:5443"));
        let ca = base64::engine::general_purpose::STANDARD
            .decode(cluster.certificate_authority_data.as_deref().unwrap())
            .unwrap();
        assert_eq!(ca, b"-----BEGIN CERTIFICATE-----\nx\n");
        assert!(kc.auth_infos.is_empty());
    }
}
