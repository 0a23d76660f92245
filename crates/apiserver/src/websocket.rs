//! The server's side of the WebSocket upgrade: recognising an upgrade request. The framing
//! itself is shared with the CLI's client and lives in
//! [`karmadactl_apimachinery::websocket`], re-exported here.

pub use karmadactl_apimachinery::websocket::{
    Message, OP_BINARY, OP_CLOSE, OP_PONG, ReadError, Role, accept_key, read_message, write_frame,
};

/// Whether the request asks for a WebSocket upgrade (Go's wsstream.IsWebSocketRequest).
pub fn is_upgrade(headers: &http::HeaderMap) -> bool {
    karmadactl_apimachinery::upgrade::requested(headers, "websocket")
}
