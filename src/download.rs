//! Downloading what a command is pointed at by URL (`init --crds <URL>`, `interpret -f <URL>`):
//! HTTPS (or HTTP) GET with the system's trust roots, redirects followed (GitHub release assets
//! redirect), a 60 s limit like upstream's, and a size cap so a wrong URL cannot fill memory.

use std::time::Duration;

use http_body_util::{BodyExt, Empty, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

const TIMEOUT: Duration = Duration::from_secs(60);
const MAX_REDIRECTS: usize = 5;
/// The CRD release tarball is well under 1 MiB; a customization file is smaller still.
const MAX_BYTES: usize = 64 << 20;

#[derive(Debug, thiserror::Error)]
pub enum DownloadError {
    #[error("cannot download {url}: {reason}")]
    Failed { url: String, reason: String },
    #[error("cannot download {url}: the server answered {status}")]
    Status { url: String, status: u16 },
    #[error("cannot download {url}: no answer within {}s", TIMEOUT.as_secs())]
    Timeout { url: String },
}

pub async fn fetch(url: &str) -> Result<Vec<u8>, DownloadError> {
    tokio::time::timeout(TIMEOUT, fetch_following(url))
        .await
        .map_err(|_| DownloadError::Timeout { url: url.to_string() })?
}

async fn fetch_following(url: &str) -> Result<Vec<u8>, DownloadError> {
    let failed = |url: &str, reason: String| DownloadError::Failed { url: url.to_string(), reason };
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_native_roots()
        .map_err(|e| failed(url, format!("no trust roots: {e}")))?
        .https_or_http()
        .enable_http1()
        .build();
    let client: Client<_, Empty<bytes::Bytes>> = Client::builder(TokioExecutor::new()).build(connector);
    let mut current = url.to_string();
    for _ in 0..=MAX_REDIRECTS {
        let uri: http::Uri = current.parse().map_err(|e| failed(&current, format!("invalid URL: {e}")))?;
        let response = client.get(uri).await.map_err(|e| failed(&current, e.to_string()))?;
        let status = response.status();
        if status.is_redirection() {
            let location = response
                .headers()
                .get(http::header::LOCATION)
                .and_then(|l| l.to_str().ok())
                .ok_or_else(|| failed(&current, "a redirect without a Location".into()))?;
            current = location.to_string();
            continue;
        }
        if !status.is_success() {
            return Err(DownloadError::Status { url: current, status: status.as_u16() });
        }
        let body = Limited::new(response.into_body(), MAX_BYTES)
            .collect()
            .await
            .map_err(|e| failed(&current, e.to_string()))?;
        return Ok(body.to_bytes().to_vec());
    }
    Err(failed(url, format!("more than {MAX_REDIRECTS} redirects")))
}
