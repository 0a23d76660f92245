//! Decoding of Kubernetes protobuf request bodies (`application/vnd.kubernetes.protobuf`) into JSON.
//!
//! client-go sends typed objects as protobuf since Kubernetes 1.31, so kubectl's generator
//! commands (`create configmap`, `auth can-i`, ...) do too. A body is the magic `k8s\0` followed
//! by a `runtime.Unknown` envelope naming the apiVersion and kind and carrying the object's bytes.
//! The object is decoded generically with `schema.json`, a table of field numbers and JSON names
//! generated from k8s-pb and k8s-openapi by `tests/it/protobuf_schema.rs`, into the same JSON the
//! object would have been sent as; the rest of the server only sees JSON.

mod decode;
mod schema;
mod special;
#[cfg(test)]
mod tests;
mod wire;

use serde_json::Value;

use karmadactl_apimachinery::ApiError;
use schema::Schema;
use special::Fields;

/// The media type client-go sends protobuf bodies with.
pub const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";

/// The prefix of every Kubernetes protobuf body.
const MAGIC: [u8; 4] = *b"k8s\0";

const ENVELOPE: &str = "apimachinery.pkg.runtime.Unknown";
const TYPE_META: &str = "apimachinery.pkg.runtime.TypeMeta";

/// Why a protobuf body cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtobufError {
    /// The body does not start with `k8s\0`.
    #[error("the protobuf body does not start with the Kubernetes magic prefix \"k8s\\x00\"")]
    MissingMagic,
    /// A field or length runs past the end of its message.
    #[error("the protobuf data is truncated")]
    Truncated,
    /// A varint longer than ten bytes.
    #[error("the protobuf data has a varint longer than 10 bytes")]
    VarintOverflow,
    /// A field key with field number 0, a number too large, or a wire type that is not accepted.
    #[error("the protobuf data has an invalid field key {0:#x}")]
    InvalidKey(u64),
    /// A known field arrived with a wire type its schema type cannot have.
    #[error("{at} has wire type {got}, expected {want}")]
    WireType {
        /// Message and field number (`api.core.v1.ConfigMap field 2`).
        at: String,
        /// The wire type found.
        got: &'static str,
        /// The wire type the field's type needs.
        want: &'static str,
    },
    /// The envelope names a kind this server does not decode from protobuf.
    #[error("no protobuf decoding is available for apiVersion {api_version:?}, kind {kind:?}")]
    UnknownKind {
        /// The envelope's apiVersion.
        api_version: String,
        /// The envelope's kind.
        kind: String,
    },
    /// The envelope declares a content encoding (compression) for the object bytes.
    #[error("unsupported protobuf content encoding {0:?}")]
    ContentEncoding(String),
    /// A value with no JSON form: a non-finite double, a time out of range, invalid embedded JSON.
    #[error("invalid protobuf value: {0}")]
    InvalidValue(String),
    /// Messages nested deeper than any built-in type allows.
    #[error("protobuf messages are nested more than {0} levels deep")]
    TooDeep(usize),
    /// The embedded schema is unusable or incomplete: a build defect, not the client's fault.
    #[error("protobuf schema: {0}")]
    Schema(String),
}

/// Whether a Content-Type header value names the Kubernetes protobuf media type.
pub fn is_protobuf(content_type: &str) -> bool {
    content_type.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case(MEDIA_TYPE)
}

/// Decodes a protobuf request body into the object's Kubernetes JSON, with `apiVersion` and
/// `kind` taken from the envelope.
pub fn decode(body: &[u8]) -> Result<Value, ProtobufError> {
    decode_nested(body, 0)
}

/// [`decode`] with the server's answers: kinds without a protobuf schema get the 415 kube gives
/// custom resources, every other failure is a 400.
pub fn decode_request(body: &[u8]) -> Result<Value, ApiError> {
    decode(body).map_err(|e| match e {
        ProtobufError::UnknownKind { .. } => {
            ApiError::unsupported_media_type(MEDIA_TYPE, &["application/json", "application/yaml"])
        }
        e => ApiError::bad_request(format!("the protobuf request body could not be decoded: {e}")),
    })
}

/// [`decode`] at a nesting depth: a RawExtension may embed another enveloped object.
fn decode_nested(body: &[u8], depth: usize) -> Result<Value, ProtobufError> {
    let rest = body.strip_prefix(&MAGIC).ok_or(ProtobufError::MissingMagic)?;
    let schema = Schema::get()?;
    let envelope = Fields::read(schema, ENVELOPE, rest)?;
    if let Some(enc) = envelope.bytes("contentEncoding")?.filter(|e| !e.is_empty()) {
        return Err(ProtobufError::ContentEncoding(String::from_utf8_lossy(enc).into_owned()));
    }
    let type_meta = Fields::read(schema, TYPE_META, envelope.bytes("typeMeta")?.unwrap_or_default())?;
    let text = |b: Option<&[u8]>| String::from_utf8_lossy(b.unwrap_or_default()).into_owned();
    let api_version = text(type_meta.bytes("apiVersion")?);
    let kind = text(type_meta.bytes("kind")?);
    let Some(message) = schema.kind(&api_version, &kind) else {
        return Err(ProtobufError::UnknownKind { api_version, kind });
    };
    let mut obj = decode::message(schema, message, envelope.bytes("raw")?.unwrap_or_default(), depth)?;
    if let Value::Object(map) = &mut obj {
        map.insert("apiVersion".into(), Value::String(api_version));
        map.insert("kind".into(), Value::String(kind));
    }
    Ok(obj)
}
