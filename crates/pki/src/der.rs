//! Just enough DER to put exact Name and SubjectPublicKeyInfo bytes into a certificate rcgen built.

// rcgen's `DistinguishedName` keeps one value per attribute type, so it cannot write a client
// certificate whose subject has several `O` (the user's groups), and it rebuilds the issuer name
// from a parsed copy, while Go's chain building compares issuer and CA subject byte for byte.
// So rcgen writes the rest of the certificate (serial, validity, extensions) and this module
// swaps in the issuer, the subject and, for CSRs, the requester's public key; the caller then
// signs the new to-be-signed bytes again.

use super::Subject;

const TAG_SEQUENCE: u8 = 0x30;
const TAG_SET: u8 = 0x31;
const TAG_UTF8_STRING: u8 = 0x0c;
const TAG_BIT_STRING: u8 = 0x03;
const TAG_VERSION: u8 = 0xa0;
/// DER of the OBJECT IDENTIFIERs 2.5.4.3 (commonName) and 2.5.4.10 (organizationName).
const OID_COMMON_NAME: [u8; 5] = [0x06, 0x03, 0x55, 0x04, 0x03];
const OID_ORGANIZATION: [u8; 5] = [0x06, 0x03, 0x55, 0x04, 0x0a];

/// One DER element: its tag, its whole encoding and its contents.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tlv<'a> {
    pub(crate) tag: u8,
    pub(crate) full: &'a [u8],
    pub(crate) content: &'a [u8],
}

/// Reads one element from the front of `input`; `None` if it is truncated, uses the
/// indefinite length or a multi-byte tag (none of which rcgen writes).
pub(crate) fn read_tlv(input: &[u8]) -> Option<(Tlv<'_>, &[u8])> {
    let tag = *input.first()?;
    if tag & 0x1f == 0x1f {
        return None;
    }
    let first = *input.get(1)?;
    let (len, header) = if first < 0x80 {
        (usize::from(first), 2)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 {
            return None;
        }
        let bytes = input.get(2..2 + n)?;
        (bytes.iter().fold(0usize, |acc, b| (acc << 8) | usize::from(*b)), 2 + n)
    };
    let end = header.checked_add(len)?;
    let full = input.get(..end)?;
    Some((Tlv { tag, full, content: &full[header..] }, &input[end..]))
}

/// The elements inside a constructed element's contents, in order.
pub(crate) fn children(mut content: &[u8]) -> Option<Vec<Tlv<'_>>> {
    let mut out = Vec::new();
    while !content.is_empty() {
        let (tlv, rest) = read_tlv(content)?;
        out.push(tlv);
        content = rest;
    }
    Some(out)
}

/// Encodes one element with a definite length.
pub(crate) fn encode(tag: u8, content: &[u8]) -> Vec<u8> {
    let len = content.len();
    let mut out = Vec::with_capacity(content.len() + 6);
    out.push(tag);
    if len < 0x80 {
        // Fits the short form: the cast cannot truncate.
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        let significant = &bytes[skip..];
        // At most size_of::<usize>() bytes, so the count fits the low seven bits.
        out.push(0x80 | significant.len() as u8);
        out.extend_from_slice(significant);
    }
    out.extend_from_slice(content);
    out
}

/// A Name with one RDN per organization, then the common name (Go and openssl put `O` before
/// `CN` too). Values are UTF8String. An empty common name is left out, as Go does; an empty
/// organization is kept (upstream's apiserver certificate has `O=""`).
pub(crate) fn encode_name(subject: &Subject) -> Vec<u8> {
    let mut rdns = Vec::new();
    let mut push = |oid: &[u8], value: &str| {
        let mut atv = oid.to_vec();
        atv.extend(encode(TAG_UTF8_STRING, value.as_bytes()));
        rdns.extend(encode(TAG_SET, &encode(TAG_SEQUENCE, &atv)));
    };
    for o in &subject.organizations {
        push(&OID_ORGANIZATION, o);
    }
    if !subject.common_name.is_empty() {
        push(&OID_COMMON_NAME, &subject.common_name);
    }
    encode(TAG_SEQUENCE, &rdns)
}

/// What to put into a certificate in place of what rcgen wrote.
pub(crate) struct Replacement<'a> {
    pub(crate) issuer: &'a [u8],
    pub(crate) subject: &'a [u8],
    /// The requester's SubjectPublicKeyInfo, when signing a CSR.
    pub(crate) spki: Option<&'a [u8]>,
}

/// The parts of a certificate rcgen produced that are reused: the new to-be-signed bytes and
/// the outer signature AlgorithmIdentifier.
pub(crate) struct Rewritten {
    pub(crate) tbs: Vec<u8>,
    pub(crate) signature_algorithm: Vec<u8>,
}

/// Replaces issuer, subject and optionally the public key in `cert` (rcgen's DER output).
pub(crate) fn rewrite(cert: &[u8], with: &Replacement<'_>) -> Option<Rewritten> {
    let (outer, rest) = read_tlv(cert)?;
    if outer.tag != TAG_SEQUENCE || !rest.is_empty() {
        return None;
    }
    let parts = children(outer.content)?;
    let [tbs, signature_algorithm, _signature] = parts.as_slice() else {
        return None;
    };
    let fields = children(tbs.content)?;
    // TBSCertificate: [0] version (rcgen always writes v3), serial, signature, issuer,
    // validity, subject, subjectPublicKeyInfo, [3] extensions.
    let base = usize::from(fields.first()?.tag == TAG_VERSION);
    let (issuer_at, subject_at, spki_at) = (base + 2, base + 4, base + 5);
    if fields.len() <= spki_at {
        return None;
    }
    let mut content = Vec::with_capacity(tbs.content.len() + with.subject.len());
    for (i, field) in fields.iter().enumerate() {
        let bytes = match i {
            _ if i == issuer_at => with.issuer,
            _ if i == subject_at => with.subject,
            _ if i == spki_at => with.spki.unwrap_or(field.full),
            _ => field.full,
        };
        content.extend_from_slice(bytes);
    }
    Some(Rewritten { tbs: encode(TAG_SEQUENCE, &content), signature_algorithm: signature_algorithm.full.to_vec() })
}

/// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }.
pub(crate) fn assemble(rewritten: &Rewritten, signature: &[u8]) -> Vec<u8> {
    let mut bits = Vec::with_capacity(signature.len() + 1);
    bits.push(0); // no unused bits
    bits.extend_from_slice(signature);
    let mut content = rewritten.tbs.clone();
    content.extend_from_slice(&rewritten.signature_algorithm);
    content.extend(encode(TAG_BIT_STRING, &bits));
    encode(TAG_SEQUENCE, &content)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_use_short_and_long_forms() {
        assert_eq!(encode(0x04, &[1, 2]), vec![0x04, 0x02, 1, 2]);
        let long = encode(0x04, &[0u8; 200]);
        assert_eq!(&long[..3], &[0x04, 0x81, 200]);
        let longer = encode(0x04, &[0u8; 300]);
        assert_eq!(&longer[..4], &[0x04, 0x82, 0x01, 0x2c]);
        let (tlv, rest) = read_tlv(&longer).unwrap();
        assert_eq!(tlv.content.len(), 300);
        assert!(rest.is_empty());
    }

    #[test]
    fn truncated_input_is_refused() {
        assert!(read_tlv(&[0x30]).is_none());
        assert!(read_tlv(&[0x30, 0x05, 1, 2]).is_none());
        assert!(read_tlv(&[0x30, 0x80]).is_none());
        assert!(rewrite(&[0x30, 0x00], &Replacement { issuer: &[], subject: &[], spki: None }).is_none());
    }

    #[test]
    fn name_has_one_rdn_per_organization_then_cn() {
        let subject = Subject { common_name: "u".into(), organizations: vec!["a".into(), "b".into()] };
        let name = encode_name(&subject);
        let (seq, _) = read_tlv(&name).unwrap();
        let rdns = children(seq.content).unwrap();
        assert_eq!(rdns.len(), 3);
        // SET { SEQUENCE { OID 2.5.4.10, UTF8String "a" } }
        assert_eq!(rdns[0].full, &[0x31, 0x0a, 0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x0a, 0x0c, 0x01, b'a']);
        assert_eq!(rdns[2].full, &[0x31, 0x0a, 0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x01, b'u']);
    }
}
