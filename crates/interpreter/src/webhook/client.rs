//! Sending a ResourceInterpreterContext over HTTPS: the webhook's URL (given, or made from a
//! Service reference as upstream's default service resolver makes it), its `caBundle` as the
//! only trust roots when given (the system's otherwise), a time limit on the whole exchange
//! and a bound on the answer's size.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use karmadactl_apimachinery::with_causes;
use karmadactl_karmada_api::config::webhook::WebhookClientConfig;
use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

/// The largest answer read: a webhook answering more is refused rather than held in memory.
pub(crate) const MAX_RESPONSE_BYTES: usize = 3 * 1024 * 1024;

type Connector = hyper_rustls::HttpsConnector<HttpConnector>;

/// An HTTPS-only client trusting one webhook's roots.
pub(crate) struct HttpsClient {
    client: Client<Connector, Full<Bytes>>,
}

impl HttpsClient {
    /// A client trusting the PEM certificates of `ca_bundle`, or the system's roots.
    pub fn new(ca_bundle: Option<&[u8]>) -> Result<Self, String> {
        let builder = hyper_rustls::HttpsConnectorBuilder::new();
        let builder = match ca_bundle.filter(|b| !b.is_empty()) {
            Some(pem) => {
                let mut roots = RootCertStore::empty();
                for cert in CertificateDer::pem_slice_iter(pem) {
                    let cert = cert.map_err(|e| format!("the caBundle is not PEM certificates: {e}"))?;
                    roots.add(cert).map_err(|e| format!("the caBundle holds a bad certificate: {e}"))?;
                }
                if roots.is_empty() {
                    return Err("the caBundle holds no certificate".into());
                }
                let config =
                    rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                        .with_safe_default_protocol_versions()
                        .map_err(|e| e.to_string())?
                        .with_root_certificates(roots)
                        .with_no_client_auth();
                builder.with_tls_config(config)
            }
            None => builder.with_native_roots().map_err(|e| format!("no system trust roots: {e}"))?,
        };
        let connector = builder.https_only().enable_http1().build();
        Ok(Self { client: Client::builder(TokioExecutor::new()).build(connector) })
    }

    /// POSTs `body` to `url` and returns the answer's body, all within `timeout`.
    pub async fn post(&self, url: &str, body: Vec<u8>, timeout: Duration) -> Result<Vec<u8>, String> {
        let exchange = async {
            let request = http::Request::post(url)
                .header(http::header::CONTENT_TYPE, "application/json")
                .header(http::header::ACCEPT, "application/json")
                .body(Full::new(Bytes::from(body)))
                .map_err(|e| format!("invalid request: {e}"))?;
            let response = self.client.request(request).await.map_err(|e| with_causes(&e))?;
            let status = response.status();
            let body = Limited::new(response.into_body(), MAX_RESPONSE_BYTES).collect().await.map_err(|e| {
                if e.is::<http_body_util::LengthLimitError>() {
                    format!("the response is larger than {} MiB", MAX_RESPONSE_BYTES / (1024 * 1024))
                } else {
                    format!("reading the response: {e}")
                }
            })?;
            if !status.is_success() {
                return Err(format!("the server responded with the status code {}", status.as_u16()));
            }
            Ok(body.to_bytes().to_vec())
        };
        tokio::time::timeout(timeout, exchange)
            .await
            .map_err(|_| format!("no answer within {}s (the webhook's timeoutSeconds)", timeout.as_secs()))?
    }
}

/// Where a webhook is called: its `url`, which must be https, or its Service's
/// `https://<name>.<namespace>.svc:<port>/<path>` (upstream's default service resolver).
pub(crate) fn endpoint(config: &WebhookClientConfig) -> Result<String, String> {
    match (&config.url, &config.service) {
        (Some(url), None) => {
            if !url.starts_with("https://") {
                return Err(format!("the URL {url:?} is not https"));
            }
            url.parse::<http::Uri>().map_err(|e| format!("invalid URL {url:?}: {e}"))?;
            Ok(url.clone())
        }
        (None, Some(service)) => {
            let port = service.port.unwrap_or(443);
            let path = service.path.as_deref().unwrap_or_default();
            let path = if path.starts_with('/') || path.is_empty() { path.to_string() } else { format!("/{path}") };
            let url = format!("https://{}.{}.svc:{port}{path}", service.name, service.namespace);
            url.parse::<http::Uri>().map_err(|e| format!("invalid service reference ({url}): {e}"))?;
            Ok(url)
        }
        _ => Err("exactly one of url or service is required".into()),
    }
}
