//! The accept loop: one task per connection, the TLS handshake inside it (so a slow client
//! never blocks others), the verified client certificate handed to handlers, HTTP/1.1 and
//! HTTP/2 served by hyper, and a graceful stop. Connections over the caps of
//! [`ConnectionLimits`] are closed at accept; one that sends no request head in time is closed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

use crate::auth::{AuthError, ClientCertIdentity, read_client_cert};
use crate::filters::metrics::Metrics;
use crate::transport::coalesced_io::CoalescedWrites;
use crate::transport::connection_limits::{ConnectionLimits, ConnectionTracker};

/// What the connection knows about its peer, attached to every request on it.
#[derive(Debug, Clone)]
pub struct ConnInfo {
    /// What the verified client certificate (leaf) says, if the client sent one: read once
    /// per connection, checked against the clock at each request.
    pub client_cert: Option<Arc<Result<ClientCertIdentity, AuthError>>>,
}

/// A handshake that takes longer than this is dropped.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// HTTP/2 pings a connection silent for this long, and drops it when the ping goes unanswered
/// for [`H2_KEEPALIVE_TIMEOUT`]: a vanished peer does not hold its slot forever.
const H2_KEEPALIVE_INTERVAL: Duration = Duration::from_secs(60);
const H2_KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);

/// Serves `app` on `listener` until `stop` turns true. In-flight requests (watches included)
/// are given the chance to finish; the caller decides how long to wait for that.
pub async fn serve(
    listener: TcpListener,
    tls: Arc<rustls::ServerConfig>,
    app: Router,
    limits: ConnectionLimits,
    metrics: Arc<Metrics>,
    mut stop: watch::Receiver<bool>,
) {
    let acceptor = TlsAcceptor::from(tls);
    let max_total = crate::transport::connection_limits::total_cap(
        limits.max_total,
        crate::transport::connection_limits::raise_open_file_limit(),
    );
    let tracker = ConnectionTracker::new(limits.max_per_source, max_total);
    metrics.set_connection_tracker(tracker.clone());
    loop {
        let (tcp, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and similar: back off instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stop.changed() => break,
        };
        let slot = match tracker.admit(remote.ip()) {
            Ok(slot) => slot,
            Err(refusal) => {
                // Dropping the stream closes it: no handshake, no task, no buffers.
                metrics.connection_refused(refusal);
                tracing::debug!(%remote, reason = refusal.label(), "connection refused");
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let acceptor = acceptor.clone();
        let app = app.clone();
        let metrics = metrics.clone();
        let mut conn_stop = stop.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let tls = match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                Ok(Ok(tls)) => tls,
                Ok(Err(e)) => {
                    tracing::debug!(%remote, error = %e, "TLS handshake failed");
                    return;
                }
                Err(_) => return,
            };
            let client_cert =
                tls.get_ref().1.peer_certificates().and_then(|c| c.first()).map(|c| Arc::new(read_client_cert(c)));
            let info = ConnInfo { client_cert };
            let requested = Arc::new(AtomicBool::new(false));
            let seen = requested.clone();
            let service = app.map_request(move |mut req: axum::http::Request<hyper::body::Incoming>| {
                seen.store(true, Ordering::Relaxed);
                req.extensions_mut().insert(info.clone());
                req
            });
            let mut builder = Builder::new(TokioExecutor::new());
            builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_read_timeout);
            builder
                .http2()
                .timer(TokioTimer::new())
                .keep_alive_interval(H2_KEEPALIVE_INTERVAL)
                .keep_alive_timeout(H2_KEEPALIVE_TIMEOUT);
            let io = TokioIo::new(CoalescedWrites::new(tls));
            let conn = builder.serve_connection_with_upgrades(io, TowerToHyperService::new(service));
            tokio::pin!(conn);
            // hyper's own header timeout starts only once it knows the protocol, which takes the
            // first bytes: a connection that sends no complete request head in time is closed
            // here, whichever protocol it speaks.
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = tokio::time::sleep(limits.header_read_timeout) => {
                    if !requested.load(Ordering::Relaxed) {
                        metrics.connection_timed_out();
                        return;
                    }
                }
                _ = conn_stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                    return;
                }
            }
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = conn_stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
}
