//! SPDY/3 frames on the wire (the SPDY/3 draft §2.2 and §2.6, as golang.org/x/net/spdy reads and
//! writes them): data frames, and the control frames SYN_STREAM, SYN_REPLY, RST_STREAM,
//! SETTINGS, PING, GOAWAY, HEADERS and WINDOW_UPDATE. Reading checks every length before it
//! allocates, and header blocks go through the connection's [`Inflater`] with its bounds.

use tokio::io::{AsyncRead, AsyncReadExt};

use super::headers::{self, Deflater, Headers, Inflater};

/// The protocol version in every control frame.
pub const VERSION: u16 = 3;
/// A frame's payload can be no longer than its 24-bit length field allows (Go's MaxDataLength).
pub const MAX_FRAME: usize = (1 << 24) - 1;
/// The FIN flag, on data frames and on SYN_STREAM, SYN_REPLY and HEADERS.
pub const FLAG_FIN: u8 = 0x01;
/// SYN_STREAM's UNIDIRECTIONAL flag.
pub const FLAG_UNIDIRECTIONAL: u8 = 0x02;

const TYPE_SYN_STREAM: u16 = 1;
const TYPE_SYN_REPLY: u16 = 2;
const TYPE_RST_STREAM: u16 = 3;
const TYPE_SETTINGS: u16 = 4;
const TYPE_PING: u16 = 6;
const TYPE_GOAWAY: u16 = 7;
const TYPE_HEADERS: u16 = 8;
const TYPE_WINDOW_UPDATE: u16 = 9;

/// One frame. Stream ids are 31 bits; the top bit is dropped on reading and never written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    Data {
        stream: u32,
        fin: bool,
        data: Vec<u8>,
    },
    SynStream {
        stream: u32,
        associated: u32,
        priority: u8,
        flags: u8,
        headers: Headers,
    },
    SynReply {
        stream: u32,
        fin: bool,
        headers: Headers,
    },
    RstStream {
        stream: u32,
        status: u32,
    },
    /// `clear` is FLAG_SETTINGS_CLEAR_SETTINGS; each entry is (flags, id, value).
    Settings {
        clear: bool,
        entries: Vec<(u8, u32, u32)>,
    },
    Ping {
        id: u32,
    },
    GoAway {
        last_good: u32,
        status: u32,
    },
    Headers {
        stream: u32,
        fin: bool,
        headers: Headers,
    },
    WindowUpdate {
        stream: u32,
        delta: u32,
    },
}

/// Why reading stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The connection ended or broke.
    Gone,
    /// The peer broke the protocol or a bound.
    Protocol(String),
}

/// Reads the frames of one connection, keeping its header inflater.
pub struct FrameReader {
    inflater: Inflater,
    max_frame: usize,
}

impl FrameReader {
    /// A reader refusing any frame whose payload is longer than `max_frame` bytes.
    pub fn new(max_frame: usize) -> Self {
        Self { inflater: Inflater::default(), max_frame: max_frame.min(MAX_FRAME) }
    }

    pub async fn read<R: AsyncRead + Unpin>(&mut self, r: &mut R) -> Result<Frame, ReadError> {
        let mut head = [0u8; 8];
        r.read_exact(&mut head).await.map_err(|_| ReadError::Gone)?;
        let flags = head[4];
        let len = u32::from_be_bytes([0, head[5], head[6], head[7]]) as usize;
        if len > self.max_frame {
            return Err(ReadError::Protocol(format!("a frame of {len} bytes is longer than {}", self.max_frame)));
        }
        let mut payload = vec![0u8; len];
        r.read_exact(&mut payload).await.map_err(|_| ReadError::Gone)?;
        let word = u32::from_be_bytes([head[0], head[1], head[2], head[3]]);
        if word & 0x8000_0000 == 0 {
            return Ok(Frame::Data { stream: word & 0x7FFF_FFFF, fin: flags & FLAG_FIN != 0, data: payload });
        }
        let version = ((word >> 16) & 0x7FFF) as u16;
        if version != VERSION {
            return Err(ReadError::Protocol(format!("SPDY version {version} is not 3")));
        }
        self.control((word & 0xFFFF) as u16, flags, &payload).map_err(ReadError::Protocol)
    }

    fn control(&mut self, kind: u16, flags: u8, p: &[u8]) -> Result<Frame, String> {
        let at = |i: usize| -> Result<u32, String> {
            p.get(i..i + 4)
                .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
                .ok_or_else(|| format!("control frame {kind} is too short"))
        };
        let exact = |n: usize| match p.len() == n {
            true => Ok(()),
            false => Err(format!("control frame {kind} has length {}, not {n}", p.len())),
        };
        let stream = |i: usize| -> Result<u32, String> {
            match at(i)? & 0x7FFF_FFFF {
                0 => Err("stream id zero is disallowed".into()),
                id => Ok(id),
            }
        };
        let fin = flags & FLAG_FIN != 0;
        Ok(match kind {
            TYPE_SYN_STREAM => {
                let (stream, associated) = (stream(0)?, at(4)? & 0x7FFF_FFFF);
                let priority = p.get(8).ok_or("SYN_STREAM is too short")? >> 5;
                Frame::SynStream { stream, associated, priority, flags, headers: self.headers(&p[10.min(p.len())..])? }
            }
            TYPE_SYN_REPLY => Frame::SynReply { stream: stream(0)?, fin, headers: self.headers(&p[4..])? },
            TYPE_HEADERS => Frame::Headers { stream: stream(0)?, fin, headers: self.headers(&p[4..])? },
            TYPE_RST_STREAM => {
                exact(8)?;
                match at(4)? {
                    0 => return Err("RST_STREAM with status 0".into()),
                    status => Frame::RstStream { stream: stream(0)?, status },
                }
            }
            TYPE_SETTINGS => {
                let count = at(0)? as usize;
                exact(4 + count.saturating_mul(8))?;
                let entries = (0..count)
                    .map(|i| {
                        let id = at(4 + i * 8)?;
                        Ok(((id >> 24) as u8, id & 0xFF_FFFF, at(8 + i * 8)?))
                    })
                    .collect::<Result<_, String>>()?;
                Frame::Settings { clear: fin, entries }
            }
            TYPE_PING => {
                exact(4)?;
                Frame::Ping { id: at(0)? }
            }
            TYPE_GOAWAY => {
                exact(8)?;
                Frame::GoAway { last_good: at(0)? & 0x7FFF_FFFF, status: at(4)? }
            }
            TYPE_WINDOW_UPDATE => {
                exact(8)?;
                Frame::WindowUpdate { stream: at(0)? & 0x7FFF_FFFF, delta: at(4)? & 0x7FFF_FFFF }
            }
            other => return Err(format!("unknown control frame type {other}")),
        })
    }

    fn headers(&mut self, compressed: &[u8]) -> Result<Headers, String> {
        let block = self.inflater.inflate(compressed, headers::MAX_HEADER_BLOCK)?;
        headers::decode_block(&block)
    }
}

/// Encodes the frames of one connection, keeping its header deflater.
#[derive(Default)]
pub struct FrameWriter {
    deflater: Deflater,
}

impl FrameWriter {
    /// The frame's bytes. A data frame longer than [`MAX_FRAME`] cannot be framed: callers
    /// send data in smaller chunks.
    pub fn encode(&mut self, frame: &Frame) -> Vec<u8> {
        let mut p = Vec::new();
        let word = |p: &mut Vec<u8>, v: u32| p.extend_from_slice(&v.to_be_bytes());
        let (kind, flags) = match frame {
            Frame::Data { stream, fin, data } => {
                let mut out = Vec::with_capacity(8 + data.len());
                out.extend_from_slice(&(stream & 0x7FFF_FFFF).to_be_bytes());
                out.push(if *fin { FLAG_FIN } else { 0 });
                out.extend_from_slice(&(data.len() as u32).to_be_bytes()[1..]);
                out.extend_from_slice(data);
                return out;
            }
            Frame::SynStream { stream, associated, priority, flags, headers } => {
                word(&mut p, *stream);
                word(&mut p, *associated);
                p.extend_from_slice(&[(priority & 0x07) << 5, 0]);
                p.extend(self.deflater.deflate(&headers::encode_block(headers)));
                (TYPE_SYN_STREAM, *flags)
            }
            Frame::SynReply { stream, fin, headers } | Frame::Headers { stream, fin, headers } => {
                word(&mut p, *stream);
                p.extend(self.deflater.deflate(&headers::encode_block(headers)));
                let kind = if matches!(frame, Frame::SynReply { .. }) { TYPE_SYN_REPLY } else { TYPE_HEADERS };
                (kind, if *fin { FLAG_FIN } else { 0 })
            }
            Frame::RstStream { stream, status } => {
                word(&mut p, *stream);
                word(&mut p, *status);
                (TYPE_RST_STREAM, 0)
            }
            Frame::Settings { clear, entries } => {
                word(&mut p, entries.len() as u32);
                for (flag, id, value) in entries {
                    word(&mut p, u32::from(*flag) << 24 | (id & 0xFF_FFFF));
                    word(&mut p, *value);
                }
                (TYPE_SETTINGS, if *clear { FLAG_FIN } else { 0 })
            }
            Frame::Ping { id } => {
                word(&mut p, *id);
                (TYPE_PING, 0)
            }
            Frame::GoAway { last_good, status } => {
                word(&mut p, *last_good);
                word(&mut p, *status);
                (TYPE_GOAWAY, 0)
            }
            Frame::WindowUpdate { stream, delta } => {
                word(&mut p, *stream);
                word(&mut p, *delta);
                (TYPE_WINDOW_UPDATE, 0)
            }
        };
        let mut out = Vec::with_capacity(8 + p.len());
        out.extend_from_slice(&(0x8000 | VERSION).to_be_bytes());
        out.extend_from_slice(&kind.to_be_bytes());
        out.push(flags);
        out.extend_from_slice(&(p.len() as u32).to_be_bytes()[1..]);
        out.extend(p);
        out
    }
}
