//! A minimal OpenAPI v2 document in protobuf for `GET /openapi/v2`.
//!
//! kubectl 1.27 and 1.28 load v2 (protobuf only; JSON is not accepted) before `apply`/`create`
//! with the default `--validate=strict` and fail without it. They only need it to parse: whether
//! `fieldValidation` is supported is then decided from the v3 documents, and with no kinds in v2
//! apply falls back to its compiled-in types for strategic merge patches. Verified against
//! kubectl 1.27 to 1.33.

/// Content-Type kube-apiserver sends with the protobuf v2 document.
pub const OPENAPI_V2_PROTOBUF_CONTENT_TYPE: &str = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/// Appends a length-delimited protobuf field.
fn field(out: &mut Vec<u8>, number: u8, bytes: &[u8]) {
    out.push((number << 3) | 2);
    let mut len = bytes.len();
    while len >= 0x80 {
        out.push((len as u8 & 0x7f) | 0x80);
        len >>= 7;
    }
    out.push(len as u8);
    out.extend_from_slice(bytes);
}

/// A gnostic `openapi_v2.Document` with `swagger: "2.0"`, an `info` and empty `paths`.
pub fn openapi_v2_protobuf() -> Vec<u8> {
    let mut info = Vec::new();
    field(&mut info, 1, b"Kubernetes");
    field(&mut info, 2, super::INFO_VERSION.as_bytes());
    let mut doc = Vec::new();
    field(&mut doc, 1, b"2.0");
    field(&mut doc, 2, &info);
    field(&mut doc, 8, b"");
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_the_minimal_document() {
        let mut expected = vec![0x0a, 3];
        expected.extend_from_slice(b"2.0");
        expected.extend_from_slice(&[0x12, 21, 0x0a, 10]);
        expected.extend_from_slice(b"Kubernetes");
        expected.extend_from_slice(&[0x12, 7]);
        expected.extend_from_slice(b"v1.33.0");
        expected.extend_from_slice(&[0x42, 0]);
        assert_eq!(openapi_v2_protobuf(), expected);
    }

    #[test]
    fn long_fields_use_multibyte_lengths() {
        let mut out = Vec::new();
        field(&mut out, 1, &[0; 300]);
        assert_eq!(&out[..3], &[0x0a, 0xac, 0x02]);
        assert_eq!(out.len(), 303);
    }
}
