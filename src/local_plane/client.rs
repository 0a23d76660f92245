//! Talking to an embedded plane from the CLI: a kube client from its admin kubeconfig, waiting
//! for `/readyz`, the first bootstrap token and its cluster-info signature.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use karmadactl_pki::token::{BootstrapToken, DEFAULT_GROUP, SECRET_NAMESPACE, TokenSecret};
use kube::api::PostParams;
use kube::{Api, Client};

use karmadactl_controllers::bootstrap_signer::{CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, JWS_KEY_PREFIX};

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The admin kubeconfig is missing or unusable.
    #[error("cannot use the admin kubeconfig {}: {detail}", path.display())]
    Kubeconfig { path: PathBuf, detail: String },
    /// The plane process exited while we waited for it.
    #[error("the control plane process exited before it became ready")]
    Exited,
    /// /readyz did not answer 200 in time.
    #[error("the control plane did not become ready within {}s (last answer: {last})", timeout.as_secs())]
    NotReady { timeout: Duration, last: String },
    /// A request to the plane failed.
    #[error("{what}: {source}")]
    Request { what: &'static str, source: kube::Error },
    /// The bootstrap signer did not sign cluster-info for the new token in time.
    #[error("kube-public/cluster-info was not signed for token {id} within {}s", timeout.as_secs())]
    NotSigned { id: String, timeout: Duration },
    /// The token could not be encoded as a Secret.
    #[error("{0}")]
    Token(#[from] karmadactl_pki::token::TokenError),
}

pub async fn admin_client(kubeconfig: &Path) -> Result<Client, ClientError> {
    let bad = |detail: String| ClientError::Kubeconfig { path: kubeconfig.to_path_buf(), detail };
    let kc = kube::config::Kubeconfig::read_from(kubeconfig).map_err(|e| bad(e.to_string()))?;
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
        .await
        .map_err(|e| bad(e.to_string()))?;
    Client::try_from(cfg).map_err(|e| bad(e.to_string()))
}

/// Polls `/readyz` until it answers 200. `alive` is asked between attempts so a plane that
/// crashed at start fails fast instead of after the whole timeout.
pub async fn wait_ready(
    kubeconfig: &Path,
    timeout: Duration,
    mut alive: impl FnMut() -> bool,
) -> Result<Client, ClientError> {
    let deadline = Instant::now() + timeout;
    let mut last = "no answer yet".to_string();
    loop {
        // The kubeconfig is (re)written by the plane once it listens, so build the client anew
        // until a request succeeds.
        if kubeconfig.exists()
            && let Ok(client) = admin_client(kubeconfig).await
        {
            let req = http::Request::get("/readyz").body(Vec::new()).expect("static request");
            match tokio::time::timeout(Duration::from_secs(2), client.request_text(req)).await {
                Ok(Ok(_)) => return Ok(client),
                Ok(Err(e)) => last = e.to_string(),
                Err(_) => last = "timed out".into(),
            }
        }
        if !alive() {
            return Err(ClientError::Exited);
        }
        if Instant::now() >= deadline {
            return Err(ClientError::NotReady { timeout, last });
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// A token an earlier init created that is still good for at least an hour, so running init
/// again does not pile up tokens.
pub async fn reusable_bootstrap_token(client: &Client, description: &str) -> Result<Option<TokenSecret>, ClientError> {
    let api: Api<Secret> = Api::namespaced(client.clone(), SECRET_NAMESPACE);
    let params = kube::api::ListParams::default().fields(&format!("type={}", karmadactl_pki::token::SECRET_TYPE));
    let list =
        api.list(&params).await.map_err(|source| ClientError::Request { what: "listing bootstrap tokens", source })?;
    let soon = jiff::Timestamp::now().checked_add(jiff::SignedDuration::from_hours(1)).expect("representable");
    Ok(list
        .items
        .iter()
        .filter_map(|s| TokenSecret::from_secret(s).ok())
        .filter(|t| t.description == description && t.usages.iter().any(|u| u == "signing"))
        .filter(|t| t.expiration.is_some_and(|e| e > soon))
        .max_by_key(|t| t.expiration))
}

/// Creates a bootstrap token as `token create` does with its defaults (24 h, signing and
/// authentication, the default Karmada group).
pub async fn create_bootstrap_token(client: &Client, description: &str) -> Result<TokenSecret, ClientError> {
    let token = BootstrapToken::generate()?;
    let expiration = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_hours(24))
        .expect("24 hours from now is representable");
    let record = TokenSecret {
        token: token.clone(),
        description: description.to_string(),
        expiration: Some(expiration),
        usages: vec!["authentication".into(), "signing".into()],
        groups: vec![DEFAULT_GROUP.to_string()],
    };
    let api: Api<Secret> = Api::namespaced(client.clone(), SECRET_NAMESPACE);
    api.create(&PostParams::default(), &record.to_secret()?)
        .await
        .map_err(|source| ClientError::Request { what: "creating the bootstrap token", source })?;
    Ok(record)
}

/// Waits until cluster-info carries a signature for `token_id`, so `register` works as soon as
/// init has printed its command.
pub async fn wait_signed(client: &Client, token_id: &str, timeout: Duration) -> Result<(), ClientError> {
    let api: Api<ConfigMap> = Api::namespaced(client.clone(), CLUSTER_INFO_NAMESPACE);
    let key = format!("{JWS_KEY_PREFIX}{token_id}");
    let deadline = Instant::now() + timeout;
    loop {
        let cm = api
            .get_opt(CLUSTER_INFO_NAME)
            .await
            .map_err(|source| ClientError::Request { what: "reading kube-public/cluster-info", source })?;
        if cm.and_then(|c| c.data).is_some_and(|d| d.contains_key(&key)) {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(ClientError::NotSigned { id: token_id.to_string(), timeout });
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}
