//! Connection and request limits of the real control plane: slow clients are cut off by the
//! header timeout while /readyz keeps answering, the max-in-flight filter answers 429 as
//! kube-apiserver does (watches not counted, system:masters served), one source cannot hold
//! more connections than its cap, and concurrent big lists get 429 instead of exhausting
//! memory. Loopback only; every loop is bounded.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::plane::Plane;
use bytes::Bytes;
use http::{HeaderMap, Method, Request};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http2::SendRequest;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

const TOO_MANY: &str = "Too many requests, please try again later.\n";

/// Raises this process's open-file limit to its hard limit (the tests hold thousands of sockets).
fn raise_fd_limit() {
    let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: plain syscalls on a local struct.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim), 0);
        lim.rlim_cur = lim.rlim_max;
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &lim), 0);
    }
}

fn address(plane: &Plane) -> SocketAddr {
    plane.url.trim_start_matches("https://").parse().expect("the plane's URL is https://IP:PORT")
}

/// A TLS client trusting the plane's CA, as the administrator (system:masters) or anonymous.
fn connector(plane: &Plane, admin: bool, alpn: &[u8]) -> TlsConnector {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    for ca in CertificateDer::pem_slice_iter(plane.ca_pem().as_bytes()) {
        roots.add(ca.unwrap()).unwrap();
    }
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots);
    let mut config = if admin {
        let pki = plane.data_dir.join("pki");
        let cert = std::fs::read_to_string(pki.join("admin.crt")).expect("admin certificate");
        let key = std::fs::read_to_string(pki.join("admin.key")).expect("admin key");
        let chain = CertificateDer::pem_slice_iter(cert.as_bytes()).collect::<Result<Vec<_>, _>>().unwrap();
        builder.with_client_auth_cert(chain, PrivateKeyDer::from_pem_slice(key.as_bytes()).unwrap()).unwrap()
    } else {
        builder.with_no_client_auth()
    };
    config.alpn_protocols = vec![alpn.to_vec()];
    TlsConnector::from(Arc::new(config))
}

async fn tls(plane: &Plane, connector: &TlsConnector) -> std::io::Result<TlsStream<TcpStream>> {
    tls_from(plane, connector, [127, 0, 0, 1]).await
}

/// A TLS connection from the loopback address `source` (the plane's own controllers connect
/// from 127.0.0.1, so a per-source cap is tested from another one).
async fn tls_from(plane: &Plane, connector: &TlsConnector, source: [u8; 4]) -> std::io::Result<TlsStream<TcpStream>> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((source, 0)))?;
    let tcp = socket.connect(address(plane)).await?;
    let name = ServerName::IpAddress(std::net::IpAddr::from([127, 0, 0, 1]).into());
    connector.connect(name, tcp).await
}

/// An HTTP/2 connection: many concurrent requests share it, so they overlap on the server.
#[derive(Clone)]
struct H2(SendRequest<Full<Bytes>>);

struct Answer {
    code: u16,
    headers: HeaderMap,
    body: Bytes,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

impl H2 {
    async fn connect(plane: &Plane, admin: bool) -> std::io::Result<H2> {
        Self::connect_from(plane, admin, [127, 0, 0, 1]).await
    }

    async fn connect_from(plane: &Plane, admin: bool, source: [u8; 4]) -> std::io::Result<H2> {
        let stream = tls_from(plane, &connector(plane, admin, b"h2"), source).await?;
        let (send, conn) = hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .map_err(std::io::Error::other)?;
        tokio::spawn(conn);
        Ok(H2(send))
    }

    async fn send(&self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let req = Request::builder()
            .method(method)
            .uri(format!("https://127.0.0.1{path}"))
            .header("content-type", "application/json")
            .body(Full::new(body.map(|b| Bytes::from(b.to_string())).unwrap_or_default()))
            .unwrap();
        let mut send = self.0.clone();
        send.ready().await.expect("connection usable");
        let resp = send.send_request(req).await.expect("an answer");
        let (parts, body) = resp.into_parts();
        let body = body.collect().await.expect("the whole body").to_bytes();
        Answer { code: parts.status.as_u16(), headers: parts.headers, body }
    }

    async fn get(&self, path: &str) -> Answer {
        self.send(Method::GET, path, None).await
    }

    /// `n` GETs of `path` at once on this connection.
    async fn concurrent_gets(&self, path: &str, n: usize) -> Vec<Answer> {
        let tasks: Vec<_> = (0..n)
            .map(|_| {
                let (c, p) = (self.clone(), path.to_string());
                tokio::spawn(async move { c.get(&p).await })
            })
            .collect();
        let mut out = Vec::with_capacity(n);
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    }
}

/// Lets anonymous requests do anything: they are subject to the limits as any user outside
/// system:masters, and are authorized once admitted.
fn anonymous_is_cluster_admin(plane: &Plane) {
    plane.kubectl_ok(&[
        "create",
        "clusterrolebinding",
        "anon-admin",
        "--clusterrole=cluster-admin",
        "--user=system:anonymous",
    ]);
    plane.wait_authorized("system:anonymous", "*", "*", &["--all-namespaces"]);
}

async fn metric(admin: &H2, line_prefix: &str) -> f64 {
    let text = admin.get("/metrics").await;
    assert_eq!(text.code, 200);
    let text = String::from_utf8_lossy(&text.body).to_string();
    let line = text.lines().find(|l| l.starts_with(line_prefix)).unwrap_or_else(|| panic!("{line_prefix} in\n{text}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

async fn create_configmaps(admin: &H2, ns: &str, count: usize, value_bytes: usize) {
    let value = "v".repeat(value_bytes);
    for i in 0..count {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("cm-{i}")}, "data": {"v": value}});
        let a = admin.send(Method::POST, &format!("/api/v1/namespaces/{ns}/configmaps"), Some(cm)).await;
        assert_eq!(a.code, 201, "{}", String::from_utf8_lossy(&a.body));
    }
}

fn assert_kube_429(a: &Answer) {
    assert_eq!(a.code, 429);
    assert_eq!(a.headers["retry-after"], "1");
    assert_eq!(a.headers["content-type"], "text/plain; charset=utf-8");
    assert_eq!(a.body, TOO_MANY);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn slow_connections_are_cut_off_while_readyz_answers() {
    raise_fd_limit();
    const SLOW: usize = 2000;
    let plane = Plane::start_with(&["--read-header-timeout", "8s", "--max-connections-per-source", "5000"]);
    let admin = H2::connect(&plane, true).await.unwrap();
    let anon = connector(&plane, false, b"http/1.1");

    // Each slow client completes TLS, then sends one header byte a second and waits to be cut off.
    let mut opened = Vec::with_capacity(SLOW);
    for _ in 0..SLOW / 100 {
        let batch: Vec<_> = (0..100).map(|_| tls(&plane, &anon)).collect();
        for stream in futures::future::join_all(batch).await {
            opened.push(stream.expect("a slow client gets its handshake"));
        }
    }
    let started = Instant::now();
    let slow: Vec<_> = opened
        .into_iter()
        .map(|stream| {
            tokio::spawn(async move {
                let (mut read, mut write) = tokio::io::split(stream);
                let trickle = async {
                    for byte in b"GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n".iter().cycle().take(120) {
                        if write.write_all(&[*byte]).await.is_err() || write.flush().await.is_err() {
                            return false;
                        }
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                    true
                };
                let mut buf = [0u8; 256];
                tokio::select! {
                    // Closed by the server: end of stream or an error, never an HTTP answer.
                    read = read.read(&mut buf) => matches!(read, Ok(0) | Err(_)),
                    trickled_on = trickle => !trickled_on,
                }
            })
        })
        .collect();

    // While they are open, the plane keeps answering its health check. The deadline only tells
    // "answers" from "starved" (the time goal itself belongs to benchmarks: this machine is
    // shared); the latencies are printed for the record.
    let mut took = Vec::new();
    while started.elapsed() < Duration::from_secs(6) {
        let t = Instant::now();
        let a = tokio::time::timeout(Duration::from_secs(5), admin.get("/readyz")).await.expect("/readyz answers");
        took.push(t.elapsed());
        assert_eq!((a.code, a.body.as_ref()), (200, b"ok".as_ref()));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    took.sort();
    eprintln!(
        "/readyz with {SLOW} slow connections: median {:?}, max {:?}",
        took[took.len() / 2],
        took[took.len() - 1]
    );
    assert!(took.len() >= 10);

    let mut cut_off = 0;
    for task in slow {
        if tokio::time::timeout(Duration::from_secs(60), task).await.expect("cut off within a minute").unwrap() {
            cut_off += 1;
        }
    }
    assert_eq!(cut_off, SLOW, "every slow connection is closed by the server");
    let timed_out = metric(&admin, "karmada_apiserver_rejected_connections_total{reason=\"header_timeout\"}").await;
    assert!(timed_out >= SLOW as f64, "{timed_out} header timeouts counted");
    assert_eq!(admin.get("/readyz").await.code, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn excess_reads_get_429_and_system_masters_is_served() {
    raise_fd_limit();
    let plane = Plane::start_with(&["--max-requests-inflight", "3"]);
    anonymous_is_cluster_admin(&plane);
    let admin = H2::connect(&plane, true).await.unwrap();
    create_configmaps(&admin, "default", 200, 200).await;
    let anon = H2::connect(&plane, false).await.unwrap();
    let path = "/api/v1/namespaces/default/configmaps";

    let answers = anon.concurrent_gets(path, 1000).await;
    let rejected: Vec<_> = answers.iter().filter(|a| a.code == 429).collect();
    let served: Vec<_> = answers.iter().filter(|a| a.code == 200).collect();
    assert_eq!(rejected.len() + served.len(), 1000, "every answer is 200 or 429");
    assert!(!rejected.is_empty(), "1000 concurrent lists over a limit of 3 are partly rejected");
    assert!(!served.is_empty());
    rejected.iter().for_each(|a| assert_kube_429(a));
    for a in &served {
        assert_eq!(a.json()["items"].as_array().map(Vec::len), Some(200));
    }

    // Counted as kube-apiserver counts them (read before anything else can be turned away).
    let dropped = metric(&admin, "apiserver_dropped_requests_total{request_kind=\"readOnly\"}").await;
    assert_eq!(dropped, rejected.len() as f64);
    let terminated = metric(
        &admin,
        "apiserver_request_terminations_total{code=\"429\",component=\"apiserver\",resource=\"configmaps\",verb=\"list\"}",
    )
    .await;
    assert_eq!(terminated, rejected.len() as f64);

    // The plane is up and answers again once the burst is over.
    let after = admitted(|| anon.get(path)).await;
    assert_eq!(after.code, 200);
    assert_eq!(after.json()["items"].as_array().map(Vec::len), Some(200));

    // system:masters is never turned away, as in kube-apiserver.
    let admin_answers = admin.concurrent_gets(path, 1000).await;
    assert!(admin_answers.iter().all(|a| a.code == 200), "system:masters always gets an answer");
}

/// The answer to `request` once it is not a 429: the plane's own controllers (system:masters)
/// may hold a slot for a moment, so a 429 is retried, a bounded number of times.
async fn admitted<F: std::future::Future<Output = Answer>>(request: impl Fn() -> F) -> Answer {
    let mut answer = request().await;
    for _ in 0..20 {
        if answer.code != 429 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        answer = request().await;
    }
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_do_not_count_against_the_limit() {
    let plane = Plane::start_with(&["--max-requests-inflight", "2", "--max-mutating-requests-inflight", "2"]);
    anonymous_is_cluster_admin(&plane);
    let anon = H2::connect(&plane, false).await.unwrap();
    let path = "/api/v1/namespaces/default/configmaps";

    // Ten open watches: were they counted, the third would already be turned away.
    let mut watches = Vec::new();
    for _ in 0..10 {
        let req = Request::get(format!("https://127.0.0.1{path}?watch=true")).body(Full::new(Bytes::new())).unwrap();
        let mut send = anon.0.clone();
        send.ready().await.unwrap();
        let resp = send.send_request(req).await.unwrap();
        assert_eq!(resp.status(), 200);
        watches.push(resp.into_body());
    }

    // The slots are free for other requests.
    let list = admitted(|| anon.get(path)).await;
    assert_eq!(list.code, 200, "a list is admitted while watches are open: {}", String::from_utf8_lossy(&list.body));
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "seen"}});
    let created = admitted(|| anon.send(Method::POST, path, Some(cm.clone()))).await;
    assert_eq!(created.code, 201, "{}", String::from_utf8_lossy(&created.body));

    // The watches are alive and see the object.
    for mut body in watches {
        let frame =
            tokio::time::timeout(Duration::from_secs(10), body.frame()).await.expect("an event").unwrap().unwrap();
        let event: Value = serde_json::from_slice(frame.data_ref().unwrap()).unwrap();
        assert_eq!(
            (event["type"].as_str(), event["object"]["metadata"]["name"].as_str()),
            (Some("ADDED"), Some("seen"))
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_source_cannot_hold_more_connections_than_its_cap() {
    let plane = Plane::start_with(&["--max-connections-per-source", "3"]);
    const SOURCE: [u8; 4] = [127, 0, 0, 2];
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(H2::connect_from(&plane, true, SOURCE).await.expect("within the cap"));
    }
    // Over the cap: closed at accept, so the handshake never completes.
    assert!(H2::connect_from(&plane, true, SOURCE).await.is_err(), "a fourth connection from 127.0.0.2 is refused");
    // Another source is not affected.
    let other = H2::connect_from(&plane, true, [127, 0, 0, 3]).await.expect("another source has its own cap");
    assert_eq!(other.get("/readyz").await.code, 200);
    // The held connections still work.
    for c in &held {
        assert_eq!(c.get("/readyz").await.code, 200);
    }

    // Closing one frees its slot (the server notices asynchronously, hence the bounded retry).
    held.pop();
    let mut admitted = None;
    for _ in 0..50 {
        if let Ok(c) = H2::connect_from(&plane, true, SOURCE).await {
            admitted = Some(c);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let admitted = admitted.expect("a slot frees when a connection closes");
    let refused = metric(&admitted, "karmada_apiserver_rejected_connections_total{reason=\"per_source\"}").await;
    assert!(refused >= 1.0, "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_big_lists_get_429_instead_of_exhausting_memory() {
    // 40 objects of 100 KB: each list holds about 8 MB, against a budget of 1 MiB for all.
    let plane = Plane::start_with(&["--max-list-memory", "1Mi"]);
    let admin = H2::connect(&plane, true).await.unwrap();
    create_configmaps(&admin, "default", 40, 100_000).await;
    let path = "/api/v1/namespaces/default/configmaps";

    let answers = admin.concurrent_gets(path, 48).await;
    let served = answers.iter().filter(|a| a.code == 200).count();
    let rejected: Vec<_> = answers.iter().filter(|a| a.code == 429).collect();
    assert_eq!(served + rejected.len(), 48, "every answer is 200 or 429");
    assert!(served >= 1, "one list at a time may exceed the budget");
    assert!(!rejected.is_empty(), "48 concurrent 4 MB lists do not all fit in 1 MiB");
    for a in &rejected {
        assert_eq!(a.headers["retry-after"], "1");
        let status = a.json();
        assert_eq!(status["kind"], "Status");
        assert_eq!(status["reason"], "TooManyRequests");
        assert_eq!(status["details"]["retryAfterSeconds"], 1);
        assert!(status["message"].as_str().unwrap().starts_with("Too many requests, please try again later"));
    }
    for a in answers.iter().filter(|a| a.code == 200) {
        assert_eq!(a.json()["items"].as_array().map(Vec::len), Some(40));
    }

    // Afterwards the whole list, and a paged one, are served; nothing was lost.
    let whole = admin.get(path).await;
    assert_eq!(whole.json()["items"].as_array().map(Vec::len), Some(40));
    let page = admin.get(&format!("{path}?limit=5")).await;
    assert_eq!(page.json()["items"].as_array().map(Vec::len), Some(5));
    assert_eq!(page.json()["metadata"]["remainingItemCount"], 35);
    let terminated = metric(
        &admin,
        "apiserver_request_terminations_total{code=\"429\",component=\"apiserver\",resource=\"configmaps\",verb=\"list\"}",
    )
    .await;
    assert_eq!(terminated, rejected.len() as f64);
}

/// A client without credentials asking for thousands of made-up resources: each answer is
/// counted in `/metrics`, but under a bounded number of series, so the server's memory does not
/// grow with the number of names it is sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_up_resources_do_not_grow_the_metrics_without_bound() {
    let plane = Plane::start();
    let stranger = H2::connect(&plane, false).await.expect("an anonymous connection");
    let admin = H2::connect(&plane, true).await.expect("an admin connection");
    let sent = 2_500;
    for chunk in (0..sent).collect::<Vec<_>>().chunks(50) {
        let tasks: Vec<_> = chunk
            .iter()
            .map(|i| {
                let c = stranger.clone();
                let path = format!("/api/v1/namespaces/default/made-up-{i}/x/sub-{i}");
                tokio::spawn(async move { c.get(&path).await.code })
            })
            .collect();
        for t in tasks {
            let code = t.await.unwrap();
            assert!(code >= 400, "a made-up resource is refused, got {code}");
        }
    }
    let text = admin.get("/metrics").await;
    let text = String::from_utf8_lossy(&text.body).to_string();
    let series: Vec<&str> = text.lines().filter(|l| l.starts_with("apiserver_request_total{")).collect();
    assert!(series.len() <= 2_001, "{} request series after {sent} made-up resources", series.len());
    let made_up: usize = series.iter().filter(|l| l.contains("made-up-")).count();
    assert!(made_up < sent, "every made-up resource got a series of its own");
    let counted: f64 = series
        .iter()
        .filter(|l| l.contains("made-up-") || l.contains("resource=\"(other)\""))
        .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum();
    assert!(counted >= sent as f64, "every request is still counted ({counted} of {sent})");
}
