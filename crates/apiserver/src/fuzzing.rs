//! Fuzz body for request bodies as the API server decodes them (JSON, YAML and Kubernetes
//! protobuf), shared by the `fuzz/` target and the proptest unit tests below.
//!
//! It panics only when a property is violated, which is what a fuzzer reports.

use serde_json::Value;

use crate::handlers::resource::decode_bytes;
use crate::protobuf;

/// How much larger than its body a decoded object may be, as JSON. YAML aliases can repeat a
/// node; a decoder that expands them without a budget turns a small body into a huge object
/// (the "billion laughs"), which this bound catches long before memory runs out.
const GROWTH: usize = 64;

/// The first byte picks the media type (JSON, YAML, protobuf), the rest is the body. Decoding
/// never panics; what decodes is bounded in size by the body, and JSON that decodes encodes back
/// to JSON that decodes to the same value.
pub fn request_body(data: &[u8]) {
    let Some((&kind, body)) = data.split_first() else { return };
    let content_type = match kind % 3 {
        0 => "application/json",
        1 => "application/yaml",
        _ => protobuf::MEDIA_TYPE,
    };
    let Ok(value) = decode_bytes(content_type, body, true) else { return };
    let encoded = serde_json::to_vec(&value).expect("a decoded value encodes as JSON");
    assert!(
        encoded.len() <= GROWTH * body.len() + 64,
        "a {}-byte {content_type} body decoded to {} bytes of JSON",
        body.len(),
        encoded.len()
    );
    let again: Value = serde_json::from_slice(&encoded).expect("the server's own JSON decodes");
    assert_eq!(again, value, "JSON round trip of a decoded {content_type} body");
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn yaml_aliases_do_not_expand_without_bound() {
        let mut doc = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..9 {
            let prev = i - 1;
            doc.push_str(&format!("a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"));
        }
        let err = decode_bytes("application/yaml", doc.as_bytes(), true).expect_err("10^9 aliased nodes are refused");
        assert_eq!(err.code, 400, "{err:?}");
        let mut data = vec![1u8];
        data.extend_from_slice(doc.as_bytes());
        request_body(&data);
    }

    #[test]
    fn known_bodies_pass() {
        request_body(b"\x00{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{\"a\":\"1\"}}");
        request_body(b"\x01apiVersion: v1\nkind: ConfigMap\ndata: {a: '1'}\n");
        request_body(b"\x02k8s\x00");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn request_body_holds_on_random_bytes(b in proptest::collection::vec(any::<u8>(), 0..80)) {
            request_body(&b);
        }

        #[test]
        fn request_body_holds_on_yaml_shaped_text(s in "[a-z:&*\\[\\]{}, \\n-]{0,60}") {
            let mut data = vec![1u8];
            data.extend_from_slice(s.as_bytes());
            request_body(&data);
        }
    }
}
