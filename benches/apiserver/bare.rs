//! The physical limit for the HTTP figures: a bare hyper + rustls HTTPS server with the
//! control plane's own TLS configuration (same certificates, same client-certificate
//! verification, same ALPN) that answers every request with a pre-built body. No routing,
//! authentication, authorization, JSON or store: what is left is TLS, HTTP/2 and tokio.
//!
//! For the watch figure it also streams: a GET with `watch=true` gets every line published
//! after it, and a POST of an object publishes that object as an ADDED line padded to the size
//! of the plane's event, then answers 201. So the same watch client meets the same TLS,
//! HTTP/2 streams and tokio tasks, without a store or a handler behind them.

use std::convert::Infallible;
use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use anyhow::Context as _;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::Frame;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;

/// The bodies the bare server answers with; set to the exact bytes the control plane returned,
/// so both servers send the same amount of data.
pub struct Bodies {
    /// Answer to a GET of one object.
    pub object: RwLock<Bytes>,
    /// Answer to a LIST (a path ending in `/configmaps`).
    pub list: RwLock<Bytes>,
    /// The size of one watch line as the plane sends it; published lines are padded to it.
    pub event_size: AtomicUsize,
    events: tokio::sync::broadcast::Sender<Bytes>,
}

impl Default for Bodies {
    fn default() -> Self {
        let (events, _) = tokio::sync::broadcast::channel(64);
        Bodies { object: RwLock::default(), list: RwLock::default(), event_size: AtomicUsize::new(0), events }
    }
}

type Body = BoxBody<Bytes, Infallible>;

/// The control plane's TLS server configuration, built by the control plane's own code from
/// the PKI in its data dir.
pub fn tls_from_pki(pki: &Path) -> anyhow::Result<Arc<rustls::ServerConfig>> {
    let read = |name: &str| {
        let p = pki.join(name);
        std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))
    };
    let config = karmadactl_apiserver::transport::tls::server_config(
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

async fn respond(bodies: Arc<Bodies>, req: hyper::Request<Incoming>) -> Result<hyper::Response<Body>, Infallible> {
    if req.uri().query().is_some_and(|q| q.contains("watch=true")) {
        return Ok(answer(200, watch_body(&bodies)));
    }
    let post = req.method() == hyper::Method::POST;
    let path = req.uri().path().to_string();
    // Read the request body as a real server must before answering.
    let sent = req.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    if post {
        if path.ends_with("/configmaps") {
            let _ = bodies.events.send(added_line(&sent, bodies.event_size.load(Ordering::Relaxed)));
        }
        return Ok(answer(201, Full::new(sent).boxed()));
    }
    let body = match path.as_str() {
        "/readyz" => Bytes::from_static(b"ok"),
        p if p.ends_with("/configmaps") => bodies.list.read().map(|b| b.clone()).unwrap_or_default(),
        _ => bodies.object.read().map(|b| b.clone()).unwrap_or_default(),
    };
    Ok(answer(200, Full::new(body).boxed()))
}

fn answer(status: u16, body: Body) -> hyper::Response<Body> {
    hyper::Response::builder()
        .status(status)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .body(body)
        .expect("a valid response")
}

/// Every line published from now on, one DATA frame each, as the plane's watch sends them.
fn watch_body(bodies: &Bodies) -> Body {
    let mut rx = bodies.events.subscribe();
    let lines = async_stream::stream! {
        while let Ok(line) = rx.recv().await {
            yield Ok::<_, Infallible>(Frame::data(line));
        }
    };
    StreamBody::new(lines).boxed()
}

/// `{"type":"ADDED","object":OBJECT}` for the posted object, padded with an extra field to
/// `size` bytes so that both servers send the same amount per event.
fn added_line(object: &[u8], size: usize) -> Bytes {
    let head = b"{\"type\":\"ADDED\",\"object\":";
    let Some(open) = object.strip_suffix(b"}") else {
        return Bytes::new();
    };
    let mut line = Vec::with_capacity(size.max(128));
    line.extend_from_slice(head);
    line.extend_from_slice(open);
    line.extend_from_slice(b",\"pad\":\"");
    // What is left for the padding after the closing `"}}` and the newline.
    let pad = size.saturating_sub(line.len() + 4);
    line.resize(line.len() + pad, b'x');
    line.extend_from_slice(b"\"}}\n");
    Bytes::from(line)
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
