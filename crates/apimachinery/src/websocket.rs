//! RFC 6455 framing as far as the kubelet's stream protocols (`v5.channel.k8s.io`,
//! `v4.channel.k8s.io`) need it, for both ends: the handshake keys, and unfragmented or
//! fragmented binary/text messages, pings and close frames, every message bounded in size.
//! Clients mask what they send and servers do not; each side refuses the other's mistake.
//! Written here rather than pulled in as a crate because both the API server and the CLI need
//! only this much and already carry hyper's upgrade machinery.

use base64::Engine;
use ring::rand::SecureRandom;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The GUID RFC 6455 §4.2.2 appends to the client's key.
const GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

pub const OP_CONTINUATION: u8 = 0x0;
pub const OP_TEXT: u8 = 0x1;
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;
pub const OP_PONG: u8 = 0xA;

/// The channels of `v4`/`v5.channel.k8s.io`: the first byte of every binary message.
pub mod channel {
    pub const STDIN: u8 = 0;
    pub const STDOUT: u8 = 1;
    pub const STDERR: u8 = 2;
    /// The session's end, as a Status.
    pub const ERROR: u8 = 3;
    /// A terminal size, as JSON.
    pub const RESIZE: u8 = 4;
    /// v5 only: `255 N` closes stream N.
    pub const CLOSE_STREAM: u8 = 255;
}

/// Which end of the connection this is: it decides who masks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Reads masked frames, writes unmasked ones.
    Server,
    /// Reads unmasked frames, writes masked ones.
    Client,
}

/// `Sec-WebSocket-Accept` for the client's `Sec-WebSocket-Key`.
pub fn accept_key(key: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, format!("{key}{GUID}").as_bytes());
    base64::engine::general_purpose::STANDARD.encode(digest.as_ref())
}

/// A fresh `Sec-WebSocket-Key`: 16 random bytes in base64 (RFC 6455 §4.1).
pub fn new_key() -> std::io::Result<String> {
    let mut nonce = [0u8; 16];
    random(&mut nonce)?;
    Ok(base64::engine::general_purpose::STANDARD.encode(nonce))
}

fn random(buf: &mut [u8]) -> std::io::Result<()> {
    ring::rand::SystemRandom::new().fill(buf).map_err(|_| std::io::Error::other("no system randomness"))
}

/// One message from the peer.
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
    /// The peer broke the protocol (masking the wrong way, bad opcode, oversized message).
    Protocol(&'static str),
}

/// Reads the next message, joining fragments; a message longer than `limit` bytes is refused.
pub async fn read_message<R: AsyncRead + Unpin>(r: &mut R, limit: usize, role: Role) -> Result<Message, ReadError> {
    let mut data = Vec::new();
    loop {
        let mut head = [0u8; 2];
        r.read_exact(&mut head).await.map_err(|_| ReadError::Gone)?;
        let fin = head[0] & 0x80 != 0;
        let opcode = head[0] & 0x0F;
        let masked = head[1] & 0x80 != 0;
        match role {
            Role::Server if !masked => return Err(ReadError::Protocol("client frames must be masked")),
            Role::Client if masked => return Err(ReadError::Protocol("server frames must not be masked")),
            _ => {}
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
        if masked {
            r.read_exact(&mut mask).await.map_err(|_| ReadError::Gone)?;
        }
        let mut payload = vec![0u8; len as usize];
        r.read_exact(&mut payload).await.map_err(|_| ReadError::Gone)?;
        apply_mask(&mut payload, mask);
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

fn apply_mask(payload: &mut [u8], mask: [u8; 4]) {
    for (i, b) in payload.iter_mut().enumerate() {
        *b ^= mask[i % 4];
    }
}

/// Writes one unfragmented frame, masked with a fresh key when this end is the client.
pub async fn write_frame<W: AsyncWrite + Unpin>(
    w: &mut W,
    opcode: u8,
    payload: &[u8],
    role: Role,
) -> std::io::Result<()> {
    let mut frame = Vec::with_capacity(payload.len() + 14);
    frame.push(0x80 | opcode);
    let mask_bit = if role == Role::Client { 0x80 } else { 0 };
    match payload.len() {
        n if n < 126 => frame.push(mask_bit | n as u8),
        n if n <= usize::from(u16::MAX) => {
            frame.push(mask_bit | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(mask_bit | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    let start = frame.len();
    if role == Role::Client {
        let mut mask = [0u8; 4];
        random(&mut mask)?;
        frame.extend_from_slice(&mask);
        frame.extend_from_slice(payload);
        apply_mask(&mut frame[start + 4..], mask);
    } else {
        frame.extend_from_slice(payload);
    }
    w.write_all(&frame).await?;
    w.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accept_key_is_rfc_6455s_example() {
        assert_eq!(accept_key("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
        let key = new_key().unwrap();
        assert_eq!(base64::engine::general_purpose::STANDARD.decode(&key).unwrap().len(), 16);
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
        assert_eq!(read_message(&mut r, 64, Role::Server).await, Ok(Message::Data(b"\x00abcd".to_vec())));
        assert_eq!(read_message(&mut r, 64, Role::Server).await, Ok(Message::Ping(b"p".to_vec())));
        assert_eq!(read_message(&mut r, 64, Role::Server).await, Err(ReadError::Gone));
        let mut r = masked(OP_BINARY, true, b"0123456789").into_iter().collect::<Vec<_>>();
        assert_eq!(
            read_message(&mut r.as_slice(), 4, Role::Server).await,
            Err(ReadError::Protocol("message too large"))
        );
        r[1] &= 0x7F;
        assert_eq!(
            read_message(&mut r.as_slice(), 64, Role::Server).await,
            Err(ReadError::Protocol("client frames must be masked"))
        );
    }

    #[tokio::test]
    async fn what_one_end_writes_the_other_reads() {
        let long = vec![7u8; 70_000];
        for (writer, reader) in [(Role::Client, Role::Server), (Role::Server, Role::Client)] {
            let mut wire = Vec::new();
            write_frame(&mut wire, OP_BINARY, b"\x01hello", writer).await.unwrap();
            write_frame(&mut wire, OP_BINARY, &long, writer).await.unwrap();
            let mut r = wire.as_slice();
            assert_eq!(read_message(&mut r, 1 << 20, reader).await, Ok(Message::Data(b"\x01hello".to_vec())));
            assert_eq!(read_message(&mut r, 1 << 20, reader).await, Ok(Message::Data(long.clone())));
            // Read as if by the writer's own kind, the frames break the protocol.
            assert!(matches!(read_message(&mut wire.as_slice(), 64, writer).await, Err(ReadError::Protocol(_))));
        }
    }
}
