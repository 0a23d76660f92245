//! Which form of the response the client asked for, from its `Accept` header: the objects
//! themselves, a `meta.k8s.io` Table (kubectl's `get`), or PartialObjectMetadata (kube-rs's
//! metadata API). A clause such as `application/json;as=Table;v=v1;g=meta.k8s.io` asks for a
//! conversion; clauses are tried in order of their `q` and the first one the server can answer
//! wins, as kube-apiserver's content negotiation does.

use karmadactl_apimachinery::ApiError;
use serde_json::json;

use crate::registry::validation::FieldError;

/// The `meta.k8s.io` version a conversion was asked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaVersion {
    V1,
    V1beta1,
}

impl MetaVersion {
    /// `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`.
    pub fn api_version(self) -> &'static str {
        match self {
            Self::V1 => "meta.k8s.io/v1",
            Self::V1beta1 => "meta.k8s.io/v1beta1",
        }
    }
}

/// What each row of a Table carries in `object` (the `includeObject` parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncludeObject {
    /// No object (`null`).
    None,
    /// The object's metadata as a PartialObjectMetadata: the default, and what kubectl needs
    /// for `-A` and `--show-labels`.
    Metadata,
    /// The whole object (kubectl asks for it with `--sort-by`).
    Object,
}

/// Table options from the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    pub version: MetaVersion,
    pub include: IncludeObject,
}

/// The response form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// The objects (or list) as stored.
    Objects,
    Table(TableOptions),
    /// One object's metadata (GET and WATCH).
    Partial(MetaVersion),
    /// A list of metadata (LIST).
    PartialList(MetaVersion),
}

/// Media types the conversions can be sent as. Tables are always answered in JSON, even when
/// asked for as YAML or protobuf.
const CONVERTIBLE: &[&str] = &["application/json", "application/yaml", "application/vnd.kubernetes.protobuf", "*/*"];

/// The response form for `accept`, with `includeObject` checked when a Table is chosen.
pub fn negotiate(accept: Option<&str>, include_object: Option<&str>) -> Result<Output, ApiError> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else { return Ok(Output::Objects) };
    let mut clauses: Vec<Clause> = accept.split(',').filter_map(Clause::parse).collect();
    // Highest q first; equal q keep their order.
    clauses.sort_by(|a, b| b.q.total_cmp(&a.q));
    let mut asked_for_conversion = false;
    for clause in clauses.iter().filter(|c| c.q > 0.0) {
        let Some(kind) = &clause.as_kind else { return Ok(Output::Objects) };
        asked_for_conversion = true;
        if !CONVERTIBLE.contains(&clause.media_type.as_str()) || clause.group.as_deref() != Some("meta.k8s.io") {
            continue;
        }
        let version = match clause.version.as_deref() {
            Some("v1") => MetaVersion::V1,
            Some("v1beta1") => MetaVersion::V1beta1,
            _ => continue,
        };
        match kind.as_str() {
            "Table" => {
                let include = include_option(include_object)?;
                return Ok(Output::Table(TableOptions { version, include }));
            }
            "PartialObjectMetadata" => return Ok(Output::Partial(version)),
            "PartialObjectMetadataList" => return Ok(Output::PartialList(version)),
            _ => continue,
        }
    }
    if asked_for_conversion {
        return Err(ApiError::not_acceptable(&[
            "application/json",
            "application/yaml",
            "application/vnd.kubernetes.protobuf",
        ]));
    }
    // Only media types this server does not speak: answer JSON, as it always has.
    Ok(Output::Objects)
}

/// `includeObject`, validated as `ValidateTableOptions` does.
fn include_option(value: Option<&str>) -> Result<IncludeObject, ApiError> {
    match value.unwrap_or("") {
        "" | "Metadata" => Ok(IncludeObject::Metadata),
        "None" => Ok(IncludeObject::None),
        "Object" => Ok(IncludeObject::Object),
        other => {
            let err = FieldError::not_supported("includeObject", &json!(other), &["Metadata", "None", "Object"]);
            Err(ApiError::bad_request(format!("Unable to convert to Table as requested: {}", err.message())))
        }
    }
}

/// One clause of an Accept header: `type/subtype;param=value;...`.
#[derive(Debug)]
struct Clause {
    media_type: String,
    q: f64,
    as_kind: Option<String>,
    group: Option<String>,
    version: Option<String>,
}

impl Clause {
    fn parse(text: &str) -> Option<Self> {
        let mut parts = text.split(';');
        let media_type = parts.next()?.trim().to_ascii_lowercase();
        if media_type.is_empty() {
            return None;
        }
        let mut clause = Clause { media_type, q: 1.0, as_kind: None, group: None, version: None };
        for param in parts {
            let Some((k, v)) = param.split_once('=') else { continue };
            let v = v.trim().trim_matches('"').to_string();
            match k.trim() {
                "q" => clause.q = v.parse().unwrap_or(1.0),
                "as" => clause.as_kind = Some(v),
                "g" => clause.group = Some(v),
                "v" => clause.version = Some(v),
                _ => {}
            }
        }
        Some(clause)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KUBECTL: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    fn table(version: MetaVersion, include: IncludeObject) -> Output {
        Output::Table(TableOptions { version, include })
    }

    #[test]
    fn kubectl_get_asks_for_a_v1_table() {
        assert_eq!(negotiate(Some(KUBECTL), None).unwrap(), table(MetaVersion::V1, IncludeObject::Metadata));
        assert_eq!(negotiate(Some(KUBECTL), Some("Object")).unwrap(), table(MetaVersion::V1, IncludeObject::Object));
        assert_eq!(negotiate(Some(KUBECTL), Some("None")).unwrap(), table(MetaVersion::V1, IncludeObject::None));
        let beta = "application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json";
        assert_eq!(negotiate(Some(beta), None).unwrap(), table(MetaVersion::V1beta1, IncludeObject::Metadata));
    }

    #[test]
    fn plain_requests_get_objects() {
        assert_eq!(negotiate(None, None).unwrap(), Output::Objects);
        assert_eq!(negotiate(Some("application/json"), Some("Nonsense")).unwrap(), Output::Objects);
        assert_eq!(
            negotiate(Some("application/vnd.kubernetes.protobuf, application/json"), None).unwrap(),
            Output::Objects
        );
        assert_eq!(negotiate(Some("text/html"), None).unwrap(), Output::Objects);
        // A plain type preferred over a Table.
        let pref = "application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5,application/json";
        assert_eq!(negotiate(Some(pref), None).unwrap(), Output::Objects);
    }

    #[test]
    fn metadata_only() {
        let one = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
        assert_eq!(negotiate(Some(one), None).unwrap(), Output::Partial(MetaVersion::V1));
        let list = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
        assert_eq!(negotiate(Some(list), None).unwrap(), Output::PartialList(MetaVersion::V1));
    }

    #[test]
    fn unknown_conversions_fall_through_or_are_refused() {
        let odd = "application/json;as=Table;v=v2;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io";
        assert_eq!(negotiate(Some(odd), None).unwrap(), table(MetaVersion::V1, IncludeObject::Metadata));
        let err = negotiate(Some("application/json;as=Deployment;g=apps;v=v1"), None).unwrap_err();
        assert_eq!(err.code, 406);
        assert_eq!(
            err.message,
            "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"
        );
    }

    #[test]
    fn bad_include_object_is_a_bad_request() {
        let err = negotiate(Some(KUBECTL), Some("Everything")).unwrap_err();
        assert_eq!(err.code, 400);
        assert_eq!(
            err.message,
            "Unable to convert to Table as requested: includeObject: Unsupported value: \"Everything\": supported values: \"Metadata\", \"None\", \"Object\""
        );
    }
}
