//! A real HTTPS server for interpreter webhook tests: 127.0.0.1 on a free port, serving a
//! certificate for that address signed by its own CA (made with the project's rcgen-based PKI),
//! answering each ResourceInterpreterContext with what the test's function says (after three
//! seconds under `/slow`) and keeping every request it was sent.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use karmadactl_pki::{CaSpec, CertificateAuthority, LeafSpec, Validity};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::{Value, json};

/// The answer to one request: the request's path and its `request` part in, the `response`
/// part out.
pub type Answer = fn(&str, &Value) -> Value;

pub struct WebhookServer {
    /// `https://127.0.0.1:<port>`.
    pub url: String,
    /// The CA that signed the serving certificate, as PEM (what a caBundle holds).
    pub ca_pem: String,
    /// Every request received: its path and its `request` part.
    pub requests: Arc<Mutex<Vec<(String, Value)>>>,
    /// The server's runtime; dropping it stops the server.
    _runtime: tokio::runtime::Runtime,
}

impl WebhookServer {
    pub fn start(answer: Answer) -> Self {
        let validity = Validity::from_now(Duration::from_secs(3600)).unwrap();
        let ca = CertificateAuthority::generate(&CaSpec::new("webhook-ca", validity)).unwrap();
        let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let leaf = ca.issue(&LeafSpec::server("webhook", vec![], vec![loopback], validity)).unwrap();
        let chain = CertificateDer::pem_slice_iter(leaf.cert_pem.as_bytes()).collect::<Result<Vec<_>, _>>().unwrap();
        let key = PrivateKeyDer::from_pem_slice(leaf.key_pem().as_bytes()).unwrap();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let listener = runtime.block_on(tokio::net::TcpListener::bind((loopback, 0))).unwrap();
        let url = format!("https://{}", listener.local_addr().unwrap());
        let requests: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
        let seen = requests.clone();
        runtime.spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else { continue };
                let (acceptor, seen) = (acceptor.clone(), seen.clone());
                tokio::spawn(async move {
                    let Ok(tls) = acceptor.accept(tcp).await else { return };
                    let service = service_fn(move |req: hyper::Request<Incoming>| {
                        let seen = seen.clone();
                        async move {
                            let path = req.uri().path().to_string();
                            let body = req.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                            let context: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                            let request = context["request"].clone();
                            seen.lock().unwrap().push((path.clone(), request.clone()));
                            if path == "/slow" {
                                // Longer than the one second a test webhook is given.
                                tokio::time::sleep(Duration::from_secs(3)).await;
                            }
                            let reply = json!({
                                "apiVersion": "config.karmada.io/v1alpha1",
                                "kind": "ResourceInterpreterContext",
                                "response": answer(&path, &request),
                            });
                            let reply = Full::new(Bytes::from(serde_json::to_vec(&reply).unwrap()));
                            Ok::<_, std::convert::Infallible>(hyper::Response::new(reply))
                        }
                    });
                    let _ =
                        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(tls), service).await;
                });
            }
        });
        WebhookServer { url, ca_pem: ca.cert_pem().to_string(), requests, _runtime: runtime }
    }

    /// The requests received so far for `path`.
    pub fn requests_to(&self, path: &str) -> Vec<Value> {
        self.requests.lock().unwrap().iter().filter(|(p, _)| p == path).map(|(_, r)| r.clone()).collect()
    }
}
