//! The accept loop: one task per connection, the TLS handshake inside it (so a slow client
//! never blocks others), the verified client certificate handed to handlers, HTTP/1.1 and
//! HTTP/2 served by hyper, and a graceful stop.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

use super::coalesced_io::CoalescedWrites;

/// What the connection knows about its peer, attached to every request on it.
#[derive(Debug, Clone)]
pub struct ConnInfo {
    pub remote: SocketAddr,
    /// The verified client certificate (leaf, DER), if the client sent one.
    pub client_cert: Option<Arc<Vec<u8>>>,
}

/// A handshake that takes longer than this is dropped.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `stop` turns true. In-flight requests (watches included)
/// are given the chance to finish; the caller decides how long to wait for that.
pub async fn serve(
    listener: TcpListener,
    tls: Arc<rustls::ServerConfig>,
    app: Router,
    mut stop: watch::Receiver<bool>,
) {
    let acceptor = TlsAcceptor::from(tls);
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
        let _ = tcp.set_nodelay(true);
        let acceptor = acceptor.clone();
        let app = app.clone();
        let mut conn_stop = stop.clone();
        tokio::spawn(async move {
            let tls = match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                Ok(Ok(tls)) => tls,
                Ok(Err(e)) => {
                    tracing::debug!(%remote, error = %e, "TLS handshake failed");
                    return;
                }
                Err(_) => return,
            };
            let client_cert = tls.get_ref().1.peer_certificates().and_then(|c| c.first()).map(|c| Arc::new(c.to_vec()));
            let info = ConnInfo { remote, client_cert };
            let service = app.map_request(move |mut req: axum::http::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(info.clone());
                req
            });
            let builder = Builder::new(TokioExecutor::new());
            let io = TokioIo::new(CoalescedWrites::new(tls));
            let conn = builder.serve_connection_with_upgrades(io, TowerToHyperService::new(service));
            tokio::pin!(conn);
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
