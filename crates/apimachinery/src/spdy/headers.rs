//! SPDY/3 header blocks: the name/value block (a count, then length-prefixed lowercase names and
//! NUL-joined values) and the zlib stream that carries it. Each direction of a connection is one
//! zlib stream, primed with the SPDY dictionary and flushed at the end of every block, so both
//! sides keep state per connection: [`Inflater`] for what the peer sends, [`Deflater`] for ours.
//!
//! Reading uses miniz_oxide's raw inflater (already in the build through flate2) with the
//! dictionary placed in front of the output window, which is how a preset dictionary works in
//! deflate: it is simply history that back-references may reach. The zlib preamble (which names
//! the dictionary by its Adler-32) is parsed here because miniz_oxide refuses `FDICT` itself.
//! Writing emits stored (uncompressed) deflate blocks, each followed by the sync-flush marker: every inflater accepts them, a header block
//! here is a few dozen bytes, and it keeps a compressor (and its attack surface) out of the build.

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};

use super::dictionary::DICTIONARY;

/// A header block after inflating, at most (Go sets no limit; kubelet streams send a handful of
/// short headers, so 256 KiB is generous and stops a small frame from inflating into gigabytes).
pub const MAX_HEADER_BLOCK: usize = 256 * 1024;
/// Name/value pairs in one block, at most.
pub const MAX_HEADERS: usize = 128;
/// Deflate's window: how much history a back-reference may reach.
const WINDOW: usize = 32 * 1024;

/// Headers in the order they came, names lowercase, each with its values.
pub type Headers = Vec<(String, Vec<String>)>;

/// The first value of header `name` (lowercase).
pub fn get<'a>(headers: &'a Headers, name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.first()).map(String::as_str)
}

/// Adler-32 (RFC 1950 §8.2), for the dictionary id of the zlib preamble.
pub(super) fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in bytes {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// The uncompressed name/value block.
pub fn encode_block(headers: &Headers) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(headers.len() as u32).to_be_bytes());
    for (name, values) in headers {
        let name = name.to_ascii_lowercase();
        out.extend_from_slice(&(name.len() as u32).to_be_bytes());
        out.extend_from_slice(name.as_bytes());
        let value = values.join("\0");
        out.extend_from_slice(&(value.len() as u32).to_be_bytes());
        out.extend_from_slice(value.as_bytes());
    }
    out
}

/// Parses an uncompressed name/value block, refusing what Go's framer refuses (names not in
/// lowercase, a name twice) and anything that does not add up.
pub fn decode_block(block: &[u8]) -> Result<Headers, String> {
    let mut rest = block;
    let mut take = |n: usize| -> Result<&[u8], String> {
        if rest.len() < n {
            return Err("a header block ends early".into());
        }
        let (head, tail) = rest.split_at(n);
        rest = tail;
        Ok(head)
    };
    let word = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize;
    let count = word(take(4)?);
    if count > MAX_HEADERS {
        return Err(format!("a header block has {count} headers, more than {MAX_HEADERS}"));
    }
    let mut headers: Headers = Vec::with_capacity(count);
    for _ in 0..count {
        let len = word(take(4)?);
        let name = String::from_utf8(take(len)?.to_vec()).map_err(|_| "a header name is not UTF-8".to_string())?;
        if name.is_empty() || name != name.to_ascii_lowercase() {
            return Err(format!("header name {name:?} is empty or not lowercase"));
        }
        if headers.iter().any(|(n, _)| *n == name) {
            return Err(format!("header {name:?} appears twice"));
        }
        let len = word(take(4)?);
        let value = String::from_utf8(take(len)?.to_vec()).map_err(|_| "a header value is not UTF-8".to_string())?;
        headers.push((name, value.split('\0').map(str::to_string).collect()));
    }
    if !rest.is_empty() {
        return Err("a header block has bytes after its last header".into());
    }
    Ok(headers)
}

/// The inflating side of one direction of a connection.
pub struct Inflater {
    state: Box<DecompressorOxide>,
    /// The last [`WINDOW`] bytes inflated so far, the dictionary to begin with.
    history: Vec<u8>,
    /// The zlib preamble's bytes not seen yet (it may in principle straddle frames).
    preamble: Vec<u8>,
    preamble_done: bool,
}

impl Default for Inflater {
    fn default() -> Self {
        Self { state: Box::default(), history: DICTIONARY.to_vec(), preamble: Vec::new(), preamble_done: false }
    }
}

impl Inflater {
    /// Inflates one frame's compressed header block (which ends with a sync flush) into at most
    /// `limit` bytes.
    pub fn inflate(&mut self, mut input: &[u8], limit: usize) -> Result<Vec<u8>, String> {
        if !self.preamble_done {
            let want = 2usize.saturating_sub(self.preamble.len());
            let (head, tail) = input.split_at(want.min(input.len()));
            self.preamble.extend_from_slice(head);
            input = tail;
            if self.preamble.len() >= 2 {
                let (cmf, flg) = (self.preamble[0], self.preamble[1]);
                if cmf & 0x0F != 8 || (u16::from(cmf) << 8 | u16::from(flg)) % 31 != 0 {
                    return Err("the header stream is not zlib".into());
                }
                let total = if flg & 0x20 != 0 { 6 } else { 2 };
                let want = total - self.preamble.len();
                let (head, tail) = input.split_at(want.min(input.len()));
                self.preamble.extend_from_slice(head);
                input = tail;
                if self.preamble.len() == total {
                    if total == 6 {
                        let id = u32::from_be_bytes([
                            self.preamble[2],
                            self.preamble[3],
                            self.preamble[4],
                            self.preamble[5],
                        ]);
                        if id != adler32(DICTIONARY) {
                            return Err("the header stream names another dictionary".into());
                        }
                    }
                    self.preamble_done = true;
                }
            }
            if !self.preamble_done {
                return match input.is_empty() {
                    true => Ok(Vec::new()),
                    false => Err("the header stream's preamble is malformed".into()),
                };
            }
        }
        let start = self.history.len();
        let mut out = std::mem::take(&mut self.history);
        // Room grows as the block needs it, to one byte beyond the limit (which tells a block at
        // the limit from one over it): most blocks are a few dozen bytes.
        let mut room = (limit + 1).min(4096);
        out.resize(start + room, 0);
        let flags = inflate_flags::TINFL_FLAG_HAS_MORE_INPUT | inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        let (mut pos, mut consumed) = (start, 0);
        loop {
            let (status, read, written) = decompress(&mut self.state, &input[consumed..], &mut out, pos, flags);
            consumed += read;
            pos += written;
            match status {
                TINFLStatus::NeedsMoreInput if consumed == input.len() => break,
                TINFLStatus::NeedsMoreInput => continue,
                TINFLStatus::HasMoreOutput if room > limit => {
                    return Err(format!("a header block inflates to more than {limit} bytes"));
                }
                TINFLStatus::HasMoreOutput => {
                    room = (room * 4).min(limit + 1);
                    out.resize(start + room, 0);
                }
                TINFLStatus::Done => return Err("the header stream ended".into()),
                other => return Err(format!("the header stream is corrupt ({other:?})")),
            }
        }
        if pos - start > limit {
            return Err(format!("a header block inflates to more than {limit} bytes"));
        }
        let block = out[start..pos].to_vec();
        out.truncate(pos);
        let keep = out.len().saturating_sub(WINDOW);
        out.drain(..keep);
        self.history = out;
        Ok(block)
    }
}

/// The deflating side of one direction of a connection: stored blocks, after the zlib preamble
/// naming the SPDY dictionary.
#[derive(Default)]
pub struct Deflater {
    started: bool,
}

impl Deflater {
    pub fn deflate(&mut self, block: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(block.len() + 16);
        if !self.started {
            // CMF 0x78 (deflate, 32 KiB window); FLG 0xBB: FDICT, default level, check bits.
            out.extend_from_slice(&[0x78, 0xBB]);
            out.extend_from_slice(&adler32(DICTIONARY).to_be_bytes());
            self.started = true;
        }
        for chunk in block.chunks(u16::MAX as usize) {
            // BFINAL 0, BTYPE 00 (stored); the block starts byte-aligned, so the header is a
            // whole byte, followed by LEN and its complement, little-endian.
            let len = chunk.len() as u16;
            out.push(0);
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&(!len).to_le_bytes());
            out.extend_from_slice(chunk);
        }
        // The sync flush's empty stored block, as zlib ends a flushed block: Go's inflater hands
        // the block's bytes on when it reaches this marker; without it, it reads on for the next
        // block, hits the end of the frame, and keeps that error for the rest of the stream.
        out.extend_from_slice(&[0x00, 0x00, 0x00, 0xFF, 0xFF]);
        out
    }
}
