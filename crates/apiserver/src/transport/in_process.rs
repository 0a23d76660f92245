//! The plane's own clients (the server's loops, the controllers, the engine, a simulated
//! member's simulator) reach the API server without a socket: each request goes straight to
//! the router, as if it came on a connection whose verified client certificate is the admin
//! certificate. Authentication, impersonation, RBAC, admission, the in-flight limits and the
//! metrics are the same as for a client over TLS; what a process talking to itself does not
//! need, and no longer pays for, is TLS on both ends, HTTP framing and loopback TCP.
//!
//! Once the server stops, the client refuses new requests, as a closed listener would.

use std::sync::Arc;
use std::task::{Context, Poll};

use axum::Router;
use futures::future::BoxFuture;
use http::{HeaderValue, Request, Response, header};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio::sync::watch;
use tower::{BoxError, ServiceBuilder, ServiceExt};

use crate::auth::read_client_cert;
use crate::transport::listener::ConnInfo;

/// Why the in-process client could not be built.
#[derive(Debug, thiserror::Error)]
pub enum InProcessError {
    #[error("the admin certificate is not valid PEM")]
    Pem(#[source] rustls::pki_types::pem::Error),
    #[error("the admin certificate could not be read")]
    Certificate(#[source] crate::auth::AuthError),
}

/// A client of `app` that authenticates as the holder of `admin_cert_pem` and names itself by
/// `user_agent` when a request does not. 429, 503 and 504 answers are retried with backoff, as
/// kube-rs's own clients do.
pub fn client(
    app: Router,
    admin_cert_pem: &str,
    user_agent: &'static str,
    stopped: watch::Receiver<bool>,
) -> Result<kube::Client, InProcessError> {
    let der = CertificateDer::from_pem_slice(admin_cert_pem.as_bytes()).map_err(InProcessError::Pem)?;
    let identity = read_client_cert(&der).map_err(InProcessError::Certificate)?;
    let conn = ConnInfo { client_cert: Some(Arc::new(Ok(identity))) };
    let service = InProcess { app, conn, user_agent: HeaderValue::from_static(user_agent), stopped };
    let service = ServiceBuilder::new()
        .layer(tower::retry::RetryLayer::new(kube::client::retry::RetryPolicy::server_retry()))
        .service(service);
    Ok(kube::Client::new(service, "default"))
}

#[derive(Clone)]
struct InProcess {
    app: Router,
    conn: ConnInfo,
    user_agent: HeaderValue,
    stopped: watch::Receiver<bool>,
}

impl tower::Service<Request<kube::client::Body>> for InProcess {
    type Response = Response<axum::body::Body>;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Self::Response, BoxError>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<kube::client::Body>) -> Self::Future {
        if *self.stopped.borrow() {
            return Box::pin(async { Err(BoxError::from("the API server has stopped")) });
        }
        let mut req = req.map(axum::body::Body::new);
        req.extensions_mut().insert(self.conn.clone());
        req.headers_mut().entry(header::USER_AGENT).or_insert_with(|| self.user_agent.clone());
        // The server's work runs on its own task, as it would for a request over a
        // connection: a caller that stops waiting (a timeout, a `select!`) does not cut a
        // write off halfway through its steps.
        let handled = tokio::spawn(self.app.clone().oneshot(req));
        Box::pin(async move {
            match handled.await? {
                Ok(response) => Ok(response),
                Err(never) => match never {},
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::Api;
    use kube::api::PostParams;

    use crate::config::ServerConfig;
    use crate::leading::Leading;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_plane_client_acts_as_the_admin_without_a_connection_and_stops_with_the_server() {
        let dir = tempfile::tempdir().unwrap();
        let config = ServerConfig::new(dir.path().join("plane"), "127.0.0.1:0".parse().unwrap());
        let server = crate::start(config, Leading::always()).await.unwrap();
        let client = server.client.clone();

        let review = http::Request::post("/apis/authentication.k8s.io/v1/selfsubjectreviews")
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(br#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#.to_vec())
            .unwrap();
        let review: serde_json::Value = client.request(review).await.unwrap();
        assert_eq!(review["status"]["userInfo"]["username"], "system:admin");
        assert!(review["status"]["userInfo"]["groups"].as_array().unwrap().iter().any(|g| g == "system:masters"));

        let config_maps: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
        let mut probe = ConfigMap::default();
        probe.metadata.name = Some("probe".into());
        probe.data = Some([("k".to_string(), "v".to_string())].into());
        let created = config_maps.create(&PostParams::default(), &probe).await.unwrap();
        let managers: Vec<_> = created.metadata.managed_fields.unwrap().into_iter().map(|e| e.manager).collect();
        assert_eq!(managers, [Some("karmadactl-controlplane".to_string())]);

        let metrics = client.request_text(http::Request::get("/metrics").body(Vec::new()).unwrap()).await.unwrap();
        assert!(metrics.lines().any(|l| l == "karmada_apiserver_open_connections 0"), "{metrics}");

        server.shutdown(Duration::from_secs(1)).await;
        let refused = tokio::time::timeout(Duration::from_secs(5), config_maps.get("probe")).await.unwrap();
        assert!(refused.unwrap_err().to_string().contains("the API server has stopped"));
    }
}
