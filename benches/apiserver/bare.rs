//! The physical limit for the HTTP figures: a bare hyper + rustls HTTPS server with the
//! control plane's own TLS configuration (same certificates, same client-certificate
//! verification, same ALPN) that answers every request with a pre-built body. No routing,
//! authentication, authorization, JSON or store: what is left is TLS, HTTP/2 and tokio.

use std::convert::Infallible;
use std::io::Write as _;
use std::path::Path;
use std::sync::{Arc, RwLock};

use anyhow::Context as _;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;

/// The bodies the bare server answers with; set to the exact bytes the control plane returned,
/// so both servers send the same amount of data.
#[derive(Default)]
pub struct Bodies {
    /// Answer to a GET of one object.
    pub object: RwLock<Bytes>,
    /// Answer to a LIST (a path ending in `/configmaps`).
    pub list: RwLock<Bytes>,
}

/// The control plane's TLS server configuration, built by the control plane's own code from
/// the PKI in its data dir.
pub fn tls_from_pki(pki: &Path) -> anyhow::Result<Arc<rustls::ServerConfig>> {
    let read = |name: &str| {
        let p = pki.join(name);
        std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))
    };
    let config = karmadactl::controlplane::apiserver::tls::server_config(
        &read("apiserver.crt")?,
        &read("apiserver.key")?,
        &read("ca.crt")?,
    )?;
    Ok(config)
}

/// Accepts connections until the task is aborted: one task per connection, the handshake inside
/// it, HTTP/1.1 or HTTP/2 by ALPN (as the control plane's listener does).
pub async fn serve(listener: TcpListener, tls: Arc<rustls::ServerConfig>, bodies: Arc<Bodies>) {
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            // Out of descriptors or similar: back off rather than spin.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let acceptor = acceptor.clone();
        let bodies = bodies.clone();
        tokio::spawn(async move {
            let Ok(tls) = acceptor.accept(tcp).await else { return };
            let service = hyper::service::service_fn(move |req| respond(bodies.clone(), req));
            let _ = Builder::new(TokioExecutor::new()).serve_connection(TokioIo::new(tls), service).await;
        });
    }
}

async fn respond(
    bodies: Arc<Bodies>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let body = match req.uri().path() {
        "/readyz" => Bytes::from_static(b"ok"),
        p if p.ends_with("/configmaps") => bodies.list.read().map(|b| b.clone()).unwrap_or_default(),
        _ => bodies.object.read().map(|b| b.clone()).unwrap_or_default(),
    };
    // Read the request body as a real server must before answering.
    let _ = req.into_body().collect().await;
    let resp = hyper::Response::builder()
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .body(Full::new(body))
        .expect("a valid response");
    Ok(resp)
}

/// `bench-binary bare-server <pki-dir>`: the bare server as its own process (for cold start
/// and idle RSS). Prints its URL once listening, like `controlplane serve`, and exits when
/// stdin closes, so it cannot outlive the benchmark.
pub fn child_main(pki: &Path) -> ! {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime");
    runtime.block_on(async {
        let tls = tls_from_pki(pki).expect("bare server TLS configuration");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bare server binds loopback");
        let addr = listener.local_addr().expect("bound address");
        let mut out = std::io::stdout();
        let _ = writeln!(out, "https://{addr}");
        let _ = out.flush();
        tokio::spawn(serve(listener, tls, Arc::new(Bodies::default())));
        let mut stdin = tokio::io::stdin();
        let mut sink = [0u8; 64];
        loop {
            match tokio::io::AsyncReadExt::read(&mut stdin, &mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    });
    std::process::exit(0)
}
