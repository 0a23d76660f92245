//! PEM blocks found the way Go's `encoding/pem.Decode` finds them, for checks that must accept
//! and refuse exactly what kube-apiserver does (a CSR's `status.certificate`): text around and
//! between blocks is skipped, and so is a block that does not decode (bad base64, an END line
//! that does not match), rather than being an error.

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

const BEGIN: &[u8] = b"-----BEGIN ";
/// The END marker with the newline that must precede it.
const END: &[u8] = b"\n-----END ";
const DASHES: &[u8] = b"-----";

/// Go's `base64.StdEncoding`: padding required, stray bits in the last character tolerated.
const GO_STD: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
);

/// One decoded PEM block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoPemBlock {
    /// The label of the BEGIN line (`CERTIFICATE`).
    pub label: String,
    /// Whether the block carried `Key: value` header lines.
    pub has_headers: bool,
    /// The decoded contents.
    pub der: Vec<u8>,
}

/// Every block that repeated calls of Go's `pem.Decode` return from `data`, in order.
pub fn go_pem_blocks(mut data: &[u8]) -> Vec<GoPemBlock> {
    let mut blocks = Vec::new();
    while let Some((block, rest)) = decode_one(data) {
        blocks.push(block);
        data = rest;
    }
    blocks
}

/// The first block of `data` and what follows its END line.
fn decode_one(data: &[u8]) -> Option<(GoPemBlock, &[u8])> {
    let mut from = 0;
    loop {
        // The first END line, then the last BEGIN line before it: a BEGIN without its own END
        // is skipped. Any failure moves on past this END line.
        let end = from + find(&data[from..], END)?;
        let search_from = from;
        from = end + END.len();
        let Some(begin) = rfind(&data[search_from..end], BEGIN).map(|b| search_from + b) else { continue };
        if begin > search_from && data[begin - 1] != b'\n' {
            continue;
        }
        let (type_line, consumed) = line_at(&data[begin + BEGIN.len()..]);
        let Some(label) = type_line.strip_suffix(DASHES) else { continue };
        let mut body = begin + BEGIN.len() + consumed;
        let mut has_headers = false;
        loop {
            if body >= data.len() {
                return None;
            }
            let (line, consumed) = line_at(&data[body..]);
            if !line.contains(&b':') {
                break;
            }
            has_headers = true;
            body += consumed;
        }
        // With headers, the END line must follow a newline of its own.
        if has_headers && end < body {
            continue;
        }
        let trailer = &data[end + END.len()..];
        let wanted = label.len() + DASHES.len();
        if trailer.len() < wanted || !trailer[..wanted].starts_with(label) || !trailer[..wanted].ends_with(DASHES) {
            continue;
        }
        if !line_at(&trailer[wanted..]).0.is_empty() {
            continue;
        }
        let der = if end > body {
            let text: Vec<u8> =
                data[body..end].iter().copied().filter(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n')).collect();
            match GO_STD.decode(text) {
                Ok(der) => der,
                Err(_) => continue,
            }
        } else {
            Vec::new()
        };
        let rest_at = end + END.len() - 1;
        let (_, consumed) = line_at(&data[rest_at..]);
        let block = GoPemBlock { label: String::from_utf8_lossy(label).into_owned(), has_headers, der };
        return Some((block, &data[rest_at + consumed..]));
    }
}

/// The line at the start of `data` without its line break and trailing blanks, and how many
/// bytes the line took with its break.
fn line_at(data: &[u8]) -> (&[u8], usize) {
    let (mut line, consumed) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], i + 1),
        None => (data, data.len()),
    };
    if let Some(stripped) = line.strip_suffix(b"\r")
        && consumed > line.len()
    {
        line = stripped;
    }
    while let Some(stripped) = line.strip_suffix(b" ").or_else(|| line.strip_suffix(b"\t")) {
        line = stripped;
    }
    (line, consumed)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str) -> Vec<(String, bool, Vec<u8>)> {
        go_pem_blocks(text.as_bytes()).into_iter().map(|b| (b.label, b.has_headers, b.der)).collect()
    }

    #[test]
    fn finds_blocks_between_text() {
        let text = "junk\n-----BEGIN A-----\nAAEC\n-----END A-----\nmore\n-----BEGIN B-----\r\nAw==\r\n-----END B-----";
        assert_eq!(labels(text), [("A".into(), false, vec![0, 1, 2]), ("B".into(), false, vec![3])]);
    }

    #[test]
    fn headers_and_empty_blocks() {
        let text =
            "-----BEGIN A-----\nProc-Type: 4,ENCRYPTED\n\nAAEC\n-----END A-----\n-----BEGIN E-----\n-----END E-----\n";
        assert_eq!(labels(text), [("A".into(), true, vec![0, 1, 2]), ("E".into(), false, vec![])]);
    }

    #[test]
    fn broken_blocks_are_skipped() {
        // Bad base64, a mismatched END, text after the END line, a BEGIN not at a line start.
        for text in [
            "-----BEGIN A-----\n!!!!\n-----END A-----\n",
            "-----BEGIN A-----\nAAEC\n-----END B-----\n",
            "-----BEGIN A-----\nAAEC\n-----END A----- x\n",
            "x -----BEGIN A-----\nAAEC\n-----END A-----\n",
            "-----BEGIN A-----\nAAEC\n",
            "not pem at all",
        ] {
            assert_eq!(labels(text), [], "{text:?}");
        }
        let skipped = "-----BEGIN A-----\n!!!!\n-----END A-----\n-----BEGIN B-----\nAw==\n-----END B-----\n";
        assert_eq!(labels(skipped), [("B".into(), false, vec![3])]);
    }
}
