//! SPDY/3.1 framing as far as the kubelet's stream protocols (`v4.channel.k8s.io` over
//! `Upgrade: SPDY/3.1`) need it, for both ends: the frames ([`frame`]) and their zlib-compressed
//! header blocks ([`headers`]), with Go's stream-type header names. kubectl before 1.30 speaks
//! only this, and later ones fall back to it when a WebSocket upgrade is refused. Every read is
//! bounded: frame length, inflated header block size and header count; the sessions built on it
//! bound the number of streams.

mod dictionary;
pub mod frame;
pub mod headers;
#[cfg(test)]
mod tests;

pub use frame::{FLAG_FIN, Frame, FrameReader, FrameWriter, MAX_FRAME, ReadError};
pub use headers::{Headers, get};

/// The `Upgrade` token.
pub const UPGRADE: &str = "SPDY/3.1";
/// The request and response header carrying the stream protocol (client-go's
/// httpstream.HeaderProtocolVersion).
pub const PROTOCOL_HEADER: &str = "X-Stream-Protocol-Version";
/// The header naming a stream's role, lowercase as SPDY sends it (Go's `streamType`).
pub const STREAM_TYPE: &str = "streamtype";

/// The values of [`STREAM_TYPE`].
pub mod stream_type {
    pub const ERROR: &str = "error";
    pub const STDIN: &str = "stdin";
    pub const STDOUT: &str = "stdout";
    pub const STDERR: &str = "stderr";
    pub const RESIZE: &str = "resize";
}

/// Whether the headers ask for a SPDY/3.1 upgrade.
pub fn is_upgrade(headers: &http::HeaderMap) -> bool {
    crate::upgrade::requested(headers, UPGRADE)
}
