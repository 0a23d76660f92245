//! A lean HTTPS client for the hot paths: rustls with the admin client certificate, hyper's
//! HTTP/2 connection API, no pooling, retries or middleware, so that what is measured is the
//! server (and the same client cost is paid against the bare server).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context as _, anyhow, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http2::SendRequest;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::RootCertStore;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};

/// One HTTP/2 connection; cheap to clone (each clone can open streams).
pub type Conn = SendRequest<Full<Bytes>>;

/// Where to connect and as whom.
#[derive(Clone)]
pub struct Target {
    pub addr: SocketAddr,
    pub tls: Arc<rustls::ClientConfig>,
}

impl Target {
    /// The server URL and admin credentials of a kubeconfig, read the way karmadactl reads
    /// any kubeconfig (file references resolved, base64 decoded).
    pub fn from_kubeconfig(path: &Path) -> anyhow::Result<Target> {
        let kc = karmadactl::kubeconfig::read_file(path)
            .with_context(|| format!("reading {}", path.display()))?
            .ok_or_else(|| anyhow!("{} does not exist", path.display()))?;
        let ctx = karmadactl::kubeconfig::resolve(&kc, None).context("resolving the admin context")?;
        let addr = ctx
            .cluster
            .server
            .strip_prefix("https://")
            .ok_or_else(|| anyhow!("server {} is not https", ctx.cluster.server))?
            .trim_end_matches('/')
            .parse::<SocketAddr>()
            .with_context(|| format!("server {} is not an IP:port", ctx.cluster.server))?;
        if !addr.ip().is_loopback() {
            bail!("refusing to benchmark a non-loopback server {addr}");
        }
        let ca = ctx.cluster.certificate_authority_pem.ok_or_else(|| anyhow!("the kubeconfig has no CA"))?;
        let cert = ctx.user.client_certificate_pem.ok_or_else(|| anyhow!("the kubeconfig has no client cert"))?;
        let key = ctx.user.client_key_pem.ok_or_else(|| anyhow!("the kubeconfig has no client key"))?;
        Ok(Target { addr, tls: client_tls(&ca, &cert, &key)? })
    }

    /// The same credentials against another address (the bare server).
    pub fn at(&self, addr: SocketAddr) -> Target {
        Target { addr, tls: self.tls.clone() }
    }

    pub fn uri(&self, path_and_query: &str) -> hyper::Uri {
        format!("https://{}{}", self.addr, path_and_query).parse().expect("a valid request URI")
    }

    /// A new TCP + TLS + HTTP/2 connection. Windows are large (as client-go's are) so that a
    /// multi-megabyte LIST is not throttled by flow control on loopback.
    pub async fn connect(&self) -> anyhow::Result<Conn> {
        let tcp =
            tokio::net::TcpStream::connect(self.addr).await.with_context(|| format!("connecting to {}", self.addr))?;
        tcp.set_nodelay(true).context("TCP_NODELAY")?;
        let name = ServerName::IpAddress(self.addr.ip().into());
        let tls = tokio_rustls::TlsConnector::from(self.tls.clone())
            .connect(name, tcp)
            .await
            .with_context(|| format!("TLS handshake with {}", self.addr))?;
        if tls.get_ref().1.alpn_protocol() != Some(b"h2") {
            bail!("{} did not negotiate HTTP/2", self.addr);
        }
        let (conn, driver) = hyper::client::conn::http2::Builder::new(TokioExecutor::new())
            .initial_stream_window_size(4 << 20)
            .initial_connection_window_size(16 << 20)
            .handshake(TokioIo::new(tls))
            .await
            .context("HTTP/2 handshake")?;
        tokio::spawn(async move {
            // Ends when every sender is dropped or the server goes away; either is expected.
            let _ = driver.await;
        });
        Ok(conn)
    }

    /// `n` connections, opened one after the other.
    pub async fn connect_many(&self, n: usize) -> anyhow::Result<Vec<Conn>> {
        let mut conns = Vec::with_capacity(n);
        for _ in 0..n {
            conns.push(self.connect().await?);
        }
        Ok(conns)
    }
}

fn client_tls(ca: &[u8], cert: &[u8], key: &[u8]) -> anyhow::Result<Arc<rustls::ClientConfig>> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = RootCertStore::empty();
    for c in CertificateDer::pem_slice_iter(ca) {
        roots.add(c.context("CA PEM")?).context("CA certificate")?;
    }
    let chain: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(cert).collect::<Result<_, _>>().context("client certificate PEM")?;
    let key = PrivateKeyDer::from_pem_slice(key).context("client key PEM")?;
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("TLS versions")?
        .with_root_certificates(roots)
        .with_client_auth_cert(chain, key)
        .context("client certificate")?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(Arc::new(config))
}

/// A GET request.
pub fn get(uri: hyper::Uri) -> hyper::Request<Full<Bytes>> {
    hyper::Request::get(uri).body(Full::new(Bytes::new())).expect("a valid GET")
}

/// A POST of a JSON body.
pub fn post(uri: hyper::Uri, body: Bytes) -> hyper::Request<Full<Bytes>> {
    hyper::Request::post(uri)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .body(Full::new(body))
        .expect("a valid POST")
}

/// A server-side apply: PATCH with an `application/apply-patch+yaml` body (JSON is YAML).
pub fn apply(uri: hyper::Uri, body: Bytes) -> hyper::Request<Full<Bytes>> {
    hyper::Request::patch(uri)
        .header(hyper::header::CONTENT_TYPE, "application/apply-patch+yaml")
        .body(Full::new(body))
        .expect("a valid PATCH")
}

/// A small Deployment whose template carries `step` in an annotation, so that every apply with
/// a new step changes one field.
pub fn deployment(name: &str, step: u64) -> Bytes {
    Bytes::from(format!(
        r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"{name}","labels":{{"app":"bench"}}}},"spec":{{"replicas":3,"selector":{{"matchLabels":{{"app":"bench"}}}},"template":{{"metadata":{{"labels":{{"app":"bench"}},"annotations":{{"bench/step":"{step}"}}}},"spec":{{"containers":[{{"name":"app","image":"registry.example.com/app:v1.2.3","ports":[{{"containerPort":8080}}]}}]}}}}}}}}"#
    ))
}

/// Sends `req` on `conn` and reads the whole response.
pub async fn send(conn: &Conn, req: hyper::Request<Full<Bytes>>) -> anyhow::Result<(hyper::StatusCode, Bytes)> {
    let mut conn = conn.clone();
    let resp = conn.send_request(req).await.context("sending the request")?;
    let status = resp.status();
    let body = resp.into_body().collect().await.context("reading the response")?.to_bytes();
    Ok((status, body))
}

/// Like [`send`] but fails unless the status is `want`.
pub async fn expect(conn: &Conn, req: hyper::Request<Full<Bytes>>, want: u16) -> anyhow::Result<Bytes> {
    let what = format!("{} {}", req.method(), req.uri().path());
    let (status, body) = send(conn, req).await?;
    if status.as_u16() != want {
        bail!("{what}: HTTP {status} (wanted {want}): {}", String::from_utf8_lossy(&body[..body.len().min(300)]));
    }
    Ok(body)
}

/// A small ConfigMap, the object every write in this benchmark creates.
pub fn configmap(name: &str) -> Bytes {
    Bytes::from(format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}","labels":{{"app":"bench"}}}},"data":{{"config.yaml":"replicas: 3\nimage: registry.example.com/app:v1.2.3\nlogLevel: info\n"}}}}"#
    ))
}

/// Creates namespace `name` (idempotent: an existing one is fine).
pub async fn ensure_namespace(target: &Target, conn: &Conn, name: &str) -> anyhow::Result<()> {
    let body = Bytes::from(format!(r#"{{"apiVersion":"v1","kind":"Namespace","metadata":{{"name":"{name}"}}}}"#));
    let (status, resp) = send(conn, post(target.uri("/api/v1/namespaces"), body)).await?;
    match status.as_u16() {
        201 | 409 => Ok(()),
        _ => bail!("creating namespace {name}: HTTP {status}: {}", String::from_utf8_lossy(&resp)),
    }
}
