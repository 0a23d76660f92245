//! The server side of RFC 6455 as far as the kubelet's stream protocols need it: the upgrade
//! answer, and unfragmented or fragmented binary/text messages, pings and close frames, every
//! message bounded in size. Written here rather than pulled in as a crate because the server
//! needs only this much and already carries hyper's upgrade machinery.

use base64::Engine;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The GUID RFC 6455 §4.2.2 appends to the client's key.
const GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

pub const OP_CONTINUATION: u8 = 0x0;
pub const OP_TEXT: u8 = 0x1;
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;
pub const OP_PONG: u8 = 0xA;

/// `Sec-WebSocket-Accept` for the client's `Sec-WebSocket-Key`.
pub fn accept_key(key: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, format!("{key}{GUID}").as_bytes());
    base64::engine::general_purpose::STANDARD.encode(digest.as_ref())
}

/// Whether the request asks for a WebSocket upgrade (Go's wsstream.IsWebSocketRequest).
pub fn is_upgrade(headers: &http::HeaderMap) -> bool {
    let has = |name: http::header::HeaderName, token: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    };
    has(http::header::CONNECTION, "upgrade") && has(http::header::UPGRADE, "websocket")
}

/// One message from the client.
#[derive(Debug, PartialEq, Eq)]
pub enum Message {
    Data(Vec<u8>),
    Ping(Vec<u8>),
    Pong,
    Close,
}

/// Why reading stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The connection ended or broke.
    Gone,
    /// The client broke the protocol (unmasked frame, bad opcode, oversized message).
    Protocol(&'static str),
}

/// Reads the next message, joining fragments; a message longer than `limit` bytes is refused.
pub async fn read_message<R: AsyncRead + Unpin>(r: &mut R, limit: usize) -> Result<Message, ReadError> {
    let mut data = Vec::new();
    loop {
        let mut head = [0u8; 2];
        r.read_exact(&mut head).await.map_err(|_| ReadError::Gone)?;
        let fin = head[0] & 0x80 != 0;
        let opcode = head[0] & 0x0F;
        if head[1] & 0x80 == 0 {
            return Err(ReadError::Protocol("client frames must be masked"));
        }
        let len = match head[1] & 0x7F {
            126 => u64::from(r.read_u16().await.map_err(|_| ReadError::Gone)?),
            127 => r.read_u64().await.map_err(|_| ReadError::Gone)?,
            n => u64::from(n),
        };
        let control = opcode & 0x8 != 0;
        if (control && (len > 125 || !fin)) || len > limit.saturating_sub(data.len()) as u64 {
            return Err(ReadError::Protocol("message too large"));
        }
        let mut mask = [0u8; 4];
        r.read_exact(&mut mask).await.map_err(|_| ReadError::Gone)?;
        let mut payload = vec![0u8; len as usize];
        r.read_exact(&mut payload).await.map_err(|_| ReadError::Gone)?;
        for (i, b) in payload.iter_mut().enumerate() {
            *b ^= mask[i % 4];
        }
        match opcode {
            OP_PING => return Ok(Message::Ping(payload)),
            OP_PONG => return Ok(Message::Pong),
            OP_CLOSE => return Ok(Message::Close),
            OP_TEXT | OP_BINARY | OP_CONTINUATION => {
                data.extend_from_slice(&payload);
                if fin {
                    return Ok(Message::Data(data));
                }
            }
            _ => return Err(ReadError::Protocol("unknown opcode")),
        }
    }
}

/// Writes one unmasked, unfragmented frame (servers do not mask).
pub async fn write_frame<W: AsyncWrite + Unpin>(w: &mut W, opcode: u8, payload: &[u8]) -> std::io::Result<()> {
    let mut frame = Vec::with_capacity(payload.len() + 10);
    frame.push(0x80 | opcode);
    match payload.len() {
        n if n < 126 => frame.push(n as u8),
        n if n <= usize::from(u16::MAX) => {
            frame.push(126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(payload);
    w.write_all(&frame).await?;
    w.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accept_key_is_rfc_6455s_example() {
        assert_eq!(accept_key("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    fn masked(opcode: u8, fin: bool, payload: &[u8]) -> Vec<u8> {
        let mask = [1u8, 2, 3, 4];
        let mut f = vec![if fin { 0x80 } else { 0 } | opcode, 0x80 | payload.len() as u8];
        f.extend_from_slice(&mask);
        f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        f
    }

    #[tokio::test]
    async fn fragments_join_and_limits_hold() {
        let mut bytes = masked(OP_BINARY, false, b"\x00ab");
        bytes.extend(masked(OP_CONTINUATION, true, b"cd"));
        bytes.extend(masked(OP_PING, true, b"p"));
        let mut r = bytes.as_slice();
        assert_eq!(read_message(&mut r, 64).await, Ok(Message::Data(b"\x00abcd".to_vec())));
        assert_eq!(read_message(&mut r, 64).await, Ok(Message::Ping(b"p".to_vec())));
        assert_eq!(read_message(&mut r, 64).await, Err(ReadError::Gone));
        let mut r = masked(OP_BINARY, true, b"0123456789").into_iter().collect::<Vec<_>>();
        assert_eq!(read_message(&mut r.as_slice(), 4).await, Err(ReadError::Protocol("message too large")));
        r[1] &= 0x7F;
        assert_eq!(read_message(&mut r.as_slice(), 64).await, Err(ReadError::Protocol("client frames must be masked")));
    }
}
