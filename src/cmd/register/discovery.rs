//! Token-based discovery of the control plane, as kubeadm and upstream `register` do it: fetch
//! `kube-public/cluster-info` anonymously without trusting the server, check its JWS signature
//! with the bootstrap token, pin the CA it names by public-key hash, and fetch it again over TLS
//! verified with that CA. Only then is the bootstrap client built.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::ConfigMap;
use karmadactl_pki::CaPin;
use karmadactl_pki::token::BootstrapToken;
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Api, Client};

use crate::kubeconfig::KubeconfigBuilder;
use karmadactl_controllers::bootstrap_signer::{
    CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, JWS_KEY_PREFIX, KUBECONFIG_KEY,
};

/// One cluster-info fetch may take this long.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// Between fetches while the signature for the token is not there yet.
const RETRY_INTERVAL: Duration = Duration::from_millis(500);

#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    #[error(
        "couldn't validate the identity of the API Server: token id \"{id}\" is invalid for this cluster or it has expired. Use \"{parent} token create\" on the karmada-control-plane to create a new valid token"
    )]
    UnknownToken { id: String, parent: String },
    #[error(
        "couldn't validate the identity of the API Server: failed to verify JWS signature of received cluster info object, can't trust this API Server"
    )]
    BadSignature,
    #[error("couldn't validate the identity of the API Server: {0}")]
    Invalid(String),
    #[error(
        "couldn't validate the identity of the API Server: cluster CA found in cluster-info ConfigMap is invalid: none of the public keys \"{found}\" are pinned"
    )]
    NotPinned { found: String },
    #[error("couldn't validate the identity of the API Server: cannot reach {endpoint}: {reason}")]
    Unreachable { endpoint: String, reason: String },
}

/// What discovery proved: the server to talk to and the CA that vouches for it.
#[derive(Debug, Clone)]
pub struct Discovered {
    pub server: String,
    pub ca_pem: Vec<u8>,
}

/// `https://<endpoint>`, accepting an endpoint given with its scheme too.
pub fn server_url(endpoint: &str) -> String {
    let bare = endpoint.trim_start_matches("https://").trim_end_matches('/');
    format!("https://{bare}")
}

pub async fn discover(
    endpoint: &str,
    token: &BootstrapToken,
    pins: &[CaPin],
    timeout: Duration,
    parent: &str,
) -> Result<Discovered, DiscoveryError> {
    let server = server_url(endpoint);
    let insecure = KubeconfigBuilder::new("karmada-apiserver", "token-bootstrap-client", &server)
        .insecure_skip_tls_verify(true)
        .build();
    let jws_key = format!("{JWS_KEY_PREFIX}{}", token.id());
    let deadline = Instant::now() + timeout;
    let first = loop {
        let cm = fetch(&insecure, &server).await;
        match cm {
            Ok(cm) if cm.data.as_ref().is_some_and(|d| d.contains_key(&jws_key)) => break cm,
            Ok(_) if Instant::now() >= deadline => {
                return Err(DiscoveryError::UnknownToken { id: token.id().into(), parent: parent.into() });
            }
            Err(e) if Instant::now() >= deadline => return Err(e),
            _ => tokio::time::sleep(RETRY_INTERVAL).await,
        }
    };
    let data = first.data.unwrap_or_default();
    let content = data
        .get(KUBECONFIG_KEY)
        .filter(|k| !k.is_empty())
        .ok_or_else(|| DiscoveryError::Invalid("there is no kubeconfig in the cluster-info ConfigMap".into()))?;
    let jws = data.get(&jws_key).map(String::as_str).unwrap_or_default();
    if !karmadactl_pki::jws::verify_detached(content, jws, token.id(), token.secret()) {
        return Err(DiscoveryError::BadSignature);
    }
    let ca_pem = single_cluster_ca(content)?;
    if pins.is_empty() {
        return Ok(Discovered { server, ca_pem });
    }
    let ca_text = String::from_utf8_lossy(&ca_pem).into_owned();
    let mut pinned = false;
    for pin in pins {
        pinned |= pin.matches_any(&ca_text).map_err(|e| DiscoveryError::Invalid(e.to_string()))?;
    }
    if !pinned {
        let found = karmadactl_pki::ca_cert_hashes(&ca_text).map(|h| h.join(", ")).unwrap_or_default();
        return Err(DiscoveryError::NotPinned { found });
    }
    // The first answer came over an unverified connection: ask again with the pinned CA and
    // require the very same kubeconfig.
    let secure = KubeconfigBuilder::new("karmada-apiserver", "token-bootstrap-client", &server)
        .certificate_authority(ca_pem.clone())
        .build();
    let second = fetch(&secure, &server).await?;
    if second.data.as_ref().and_then(|d| d.get(KUBECONFIG_KEY)) != Some(content) {
        return Err(DiscoveryError::Invalid(
            "the cluster-info ConfigMap changed between the insecure and the verified fetch".into(),
        ));
    }
    Ok(Discovered { server, ca_pem })
}

async fn fetch(kubeconfig: &Kubeconfig, server: &str) -> Result<ConfigMap, DiscoveryError> {
    let unreachable = |reason: String| DiscoveryError::Unreachable { endpoint: server.into(), reason };
    let mut config = kube::Config::from_custom_kubeconfig(kubeconfig.clone(), &KubeConfigOptions::default())
        .await
        .map_err(|e| unreachable(e.to_string()))?;
    config.connect_timeout = Some(REQUEST_TIMEOUT);
    config.read_timeout = Some(REQUEST_TIMEOUT);
    let client = Client::try_from(config).map_err(|e| unreachable(e.to_string()))?;
    let api: Api<ConfigMap> = Api::namespaced(client, CLUSTER_INFO_NAMESPACE);
    match tokio::time::timeout(REQUEST_TIMEOUT, api.get(CLUSTER_INFO_NAME)).await {
        Ok(Ok(cm)) => Ok(cm),
        Ok(Err(kube::Error::Api(e))) => Err(unreachable(format!("{} ({})", e.message, e.code))),
        Ok(Err(e)) => Err(unreachable(root_cause(&e))),
        Err(_) => Err(unreachable("no answer within 10s".into())),
    }
}

/// The CA of the one cluster the cluster-info kubeconfig must hold.
fn single_cluster_ca(content: &str) -> Result<Vec<u8>, DiscoveryError> {
    let kc = Kubeconfig::from_yaml(content)
        .map_err(|e| DiscoveryError::Invalid(format!("the cluster-info kubeconfig cannot be read: {e}")))?;
    let [cluster] = kc.clusters.as_slice() else {
        return Err(DiscoveryError::Invalid(format!(
            "the cluster-info kubeconfig must hold exactly one cluster, it holds {}",
            kc.clusters.len()
        )));
    };
    let data = cluster.cluster.as_ref().and_then(|c| c.certificate_authority_data.clone()).ok_or_else(|| {
        DiscoveryError::Invalid("the cluster-info kubeconfig has no certificate-authority-data".into())
    })?;
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|e| DiscoveryError::Invalid(format!("the cluster-info CA is not base64: {e}")))
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut last = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        last = s.to_string();
        source = s.source();
    }
    last
}
