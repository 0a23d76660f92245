//! The SPDY framing against itself (every frame type round trips), against a real zlib
//! (header blocks compressed by zlib with the SPDY dictionary, as Go's framer compresses them,
//! back-references into the dictionary and the previous block included) and against the bounds.

use super::dictionary::DICTIONARY;
use super::frame::{FLAG_UNIDIRECTIONAL, MAX_FRAME};
use super::headers::{Inflater, MAX_HEADER_BLOCK, MAX_HEADERS, adler32, decode_block, encode_block};
use super::*;

fn h(pairs: &[(&str, &str)]) -> Headers {
    pairs.iter().map(|(n, v)| (n.to_string(), v.split('\0').map(str::to_string).collect())).collect()
}

fn read_all(bytes: &[u8], max: usize) -> Vec<Result<Frame, ReadError>> {
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let mut reader = FrameReader::new(max);
        let mut input = bytes;
        let mut out = Vec::new();
        loop {
            match reader.read(&mut input).await {
                Err(ReadError::Gone) => return out,
                other => {
                    let stop = other.is_err();
                    out.push(other);
                    if stop {
                        return out;
                    }
                }
            }
        }
    })
}

#[test]
fn the_dictionary_is_spdy3s() {
    // zlib's own Adler-32 of golang.org/x/net/spdy's headerDictionary.
    assert_eq!(adler32(DICTIONARY), 0xe3c6_a7c2);
    assert!(DICTIONARY.starts_with(b"\x00\x00\x00\x07options"));
}

#[test]
fn every_frame_round_trips_with_one_header_stream_per_direction() {
    let frames = vec![
        Frame::SynStream { stream: 1, associated: 0, priority: 0, flags: 0, headers: h(&[("streamtype", "error")]) },
        Frame::SynStream {
            stream: 3,
            associated: 1,
            priority: 7,
            flags: FLAG_FIN | FLAG_UNIDIRECTIONAL,
            headers: h(&[("streamtype", "stdin"), ("multi", "a\0b")]),
        },
        Frame::SynReply { stream: 1, fin: false, headers: h(&[]) },
        Frame::Headers { stream: 3, fin: true, headers: h(&[("x", &"v".repeat(70_000))]) },
        Frame::Data { stream: 3, fin: false, data: b"hello".to_vec() },
        Frame::Data { stream: 3, fin: true, data: Vec::new() },
        Frame::RstStream { stream: 5, status: 5 },
        Frame::Settings { clear: true, entries: vec![(1, 7, 100), (0, 4, 1000)] },
        Frame::Ping { id: 2 },
        Frame::GoAway { last_good: 9, status: 0 },
        Frame::WindowUpdate { stream: 1, delta: 65_536 },
    ];
    let mut writer = FrameWriter::default();
    let bytes: Vec<u8> = frames.iter().flat_map(|f| writer.encode(f)).collect();
    let read: Vec<Frame> = read_all(&bytes, MAX_FRAME).into_iter().map(Result::unwrap).collect();
    assert_eq!(read, frames);
}

#[test]
fn header_blocks_compressed_by_zlib_with_the_dictionary_are_read() {
    // Python's zlib, level 9 with the SPDY dictionary and a sync flush per block, as Go's
    // framer writes them: the first names the dictionary (78 f9 + its Adler-32) and copies
    // "streamtype" from it; the second refers back into the first.
    let first = hex("78f9e3c6a7c202a62346703a2b294a4dcc851625aca9a08006000000ffff");
    let second = hex("c22a054ccc29f9a52500000000ffff");
    let mut inflater = Inflater::default();
    let block = inflater.inflate(&first, MAX_HEADER_BLOCK).unwrap();
    assert_eq!(decode_block(&block).unwrap(), h(&[("streamtype", "error")]));
    let block = inflater.inflate(&second, MAX_HEADER_BLOCK).unwrap();
    assert_eq!(decode_block(&block).unwrap(), h(&[("streamtype", "stdout")]));
    // The same, framed as two SYN_STREAMs.
    let syn = |id: u8, block: &[u8]| {
        let len = 10 + block.len();
        let mut f = vec![0x80, 3, 0, 1, 0, 0, 0, len as u8, 0, 0, 0, id, 0, 0, 0, 0, 0, 0];
        f.extend_from_slice(block);
        f
    };
    let bytes = [syn(1, &first), syn(3, &second)].concat();
    let read = read_all(&bytes, MAX_FRAME);
    assert_eq!(
        read,
        vec![
            Ok(Frame::SynStream {
                stream: 1,
                associated: 0,
                priority: 0,
                flags: 0,
                headers: h(&[("streamtype", "error")])
            }),
            Ok(Frame::SynStream {
                stream: 3,
                associated: 0,
                priority: 0,
                flags: 0,
                headers: h(&[("streamtype", "stdout")])
            }),
        ]
    );
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn an_oversized_frame_is_refused_before_its_payload_is_read() {
    // A data frame claiming 2 MiB, against a 1 MiB bound, with no payload behind it.
    let read = read_all(&[0, 0, 0, 1, 0, 0x20, 0, 0], 1024 * 1024);
    assert_eq!(read, vec![Err(ReadError::Protocol("a frame of 2097152 bytes is longer than 1048576".into()))]);
}

#[test]
fn a_header_bomb_is_refused() {
    // A block that inflates past the bound: stored blocks of zeros after the preamble (any
    // compression ratio ends at the same bound).
    let mut writer = FrameWriter::default();
    let big = Frame::Headers { stream: 1, fin: false, headers: h(&[("x", &"0".repeat(MAX_HEADER_BLOCK))]) };
    let read = read_all(&writer.encode(&big), MAX_FRAME);
    assert_eq!(
        read,
        vec![Err(ReadError::Protocol(format!("a header block inflates to more than {MAX_HEADER_BLOCK} bytes")))]
    );
    // A real bomb: 4 MiB of zeros deflated to a few KiB, behind the zlib preamble.
    let mut bomb = vec![0x78, 0xBB];
    bomb.extend_from_slice(&adler32(DICTIONARY).to_be_bytes());
    bomb.extend(miniz_oxide::deflate::compress_to_vec(&vec![0u8; 4 << 20], 9));
    assert!(bomb.len() < 64 * 1024, "{}", bomb.len());
    assert_eq!(
        Inflater::default().inflate(&bomb, MAX_HEADER_BLOCK).unwrap_err(),
        format!("a header block inflates to more than {MAX_HEADER_BLOCK} bytes")
    );
    // Too many headers.
    let many: Vec<(String, Vec<String>)> = (0..=MAX_HEADERS).map(|i| (format!("h{i}"), vec![String::new()])).collect();
    assert_eq!(
        decode_block(&encode_block(&many)).unwrap_err(),
        format!("a header block has {} headers, more than {MAX_HEADERS}", MAX_HEADERS + 1)
    );
    // Lengths that run past the block, names in capitals, a name twice.
    assert_eq!(decode_block(&[0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF]).unwrap_err(), "a header block ends early");
    let upper = [vec![0, 0, 0, 1, 0, 0, 0, 1, b'A'], vec![0, 0, 0, 0]].concat();
    assert_eq!(decode_block(&upper).unwrap_err(), "header name \"A\" is empty or not lowercase");
    let twice = encode_block(&h(&[("a", "1"), ("a", "2")]));
    assert_eq!(decode_block(&twice).unwrap_err(), "header \"a\" appears twice");
}

#[test]
fn malformed_control_frames_are_refused() {
    let bad = |bytes: &[u8]| read_all(bytes, MAX_FRAME).pop().unwrap().unwrap_err();
    // Version 2.
    assert_eq!(bad(&[0x80, 2, 0, 6, 0, 0, 0, 4, 0, 0, 0, 1]), ReadError::Protocol("SPDY version 2 is not 3".into()));
    // A PING of the wrong length, a RST_STREAM on stream 0, an unknown type.
    assert_eq!(
        bad(&[0x80, 3, 0, 6, 0, 0, 0, 2, 0, 0]),
        ReadError::Protocol("control frame 6 has length 2, not 4".into())
    );
    assert_eq!(
        bad(&[0x80, 3, 0, 3, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1]),
        ReadError::Protocol("stream id zero is disallowed".into())
    );
    assert_eq!(bad(&[0x80, 3, 0, 99, 0, 0, 0, 0]), ReadError::Protocol("unknown control frame type 99".into()));
    // A header stream that is not zlib, or names another dictionary.
    assert_eq!(
        bad(&[0x80, 3, 0, 2, 0, 0, 0, 6, 0, 0, 0, 1, 0x12, 0x34]),
        ReadError::Protocol("the header stream is not zlib".into())
    );
    assert_eq!(
        bad(&[0x80, 3, 0, 2, 0, 0, 0, 10, 0, 0, 0, 1, 0x78, 0xBB, 1, 2, 3, 4]),
        ReadError::Protocol("the header stream names another dictionary".into())
    );
}

#[test]
fn the_upgrade_is_recognised_by_its_tokens() {
    let mut headers = http::HeaderMap::new();
    headers.insert(http::header::CONNECTION, "keep-alive, Upgrade".parse().unwrap());
    headers.insert(http::header::UPGRADE, "spdy/3.1".parse().unwrap());
    assert!(is_upgrade(&headers));
    headers.insert(http::header::UPGRADE, "websocket".parse().unwrap());
    assert!(!is_upgrade(&headers));
}

#[test]
fn kubectl_1_27s_streams_are_read() {
    // Captured from kubectl 1.27 `exec -i` after the 101, each SYN_STREAM answered: the error,
    // stdin and stdout streams, their header blocks one zlib stream (Go's, best compression,
    // the SPDY dictionary), the later ones referring back into the earlier.
    let captured = hex(concat!(
        "80030001000000290000000100000000000078f9e3c6a7c26260606004a7b392a2d4c45c6851c29a0a0a6800000000ffff",
        "800300010000001700000003000000000000c22e555c92929907000000ffff",
        "800300010000001900000005000000000000c22ac5565c92925f5a02000000ffff",
    ));
    let syn = |stream: u32, role: &str| {
        Ok(Frame::SynStream { stream, associated: 0, priority: 0, flags: 0, headers: h(&[("streamtype", role)]) })
    };
    assert_eq!(read_all(&captured, MAX_FRAME), vec![syn(1, "error"), syn(3, "stdin"), syn(5, "stdout")]);
}
