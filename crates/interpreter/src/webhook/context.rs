//! The `ResourceInterpreterContext` (config.karmada.io/v1alpha1) a webhook is sent and
//! answers with, as upstream's `request` package builds and checks it: the request carries
//! the object and what the operation needs; the answer must echo the request's uid and hold
//! what the operation returns.

use k8s_openapi::ByteString;
use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::replicas::{Component, ReplicaRequirements};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{Operation, Target, native};

/// What one call asks (upstream's `request.Attributes`).
pub(crate) struct Request<'a> {
    pub operation: Operation,
    /// The object interpreted (the desired manifest for Retain).
    pub object: &'a Value,
    /// The member's copy, for Retain.
    pub observed: Option<&'a Value>,
    /// A cluster's share, for ReviseReplica (0 otherwise, as upstream always sends it).
    pub desired_replicas: i32,
    /// The members' statuses, for AggregateStatus.
    pub aggregated_status: Option<&'a [AggregatedStatusItem]>,
}

impl<'a> Request<'a> {
    /// A request about `object` with nothing else.
    pub fn new(operation: Operation, object: &'a Value) -> Self {
        Self { operation, object, observed: None, desired_replicas: 0, aggregated_status: None }
    }
}

/// A checked answer: what the operation returns, or the webhook's own refusal.
#[derive(Debug, PartialEq)]
pub(crate) enum Answer {
    /// `successful: false`, with the status the webhook gave.
    Failed {
        code: i32,
        message: String,
    },
    Replicas {
        replicas: i32,
        requirements: Option<ReplicaRequirements>,
    },
    Components(Vec<Component>),
    Dependencies(Vec<DependentObjectReference>),
    /// A JSON patch to apply to the object (`None`: leave it as it is).
    Patch(Option<Vec<u8>>),
    RawStatus(Value),
    Healthy(bool),
}

/// A fresh request uid (a random UUID, as upstream's `uuid.NewUUID`).
pub(crate) fn new_uid() -> String {
    use ring::rand::SecureRandom;
    let mut b = [0u8; 16];
    // The system's random source failing leaves zeros: the uid is only matched against the
    // answer, never trusted for anything secret.
    let _ = ring::rand::SystemRandom::new().fill(&mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

/// The request body: a ResourceInterpreterContext with `request` filled in.
pub(crate) fn encode(uid: &str, request: &Request<'_>) -> Vec<u8> {
    let target = Target::of(request.object);
    let meta = &request.object["metadata"];
    let mut body = json!({
        "uid": uid,
        "kind": {"group": target.group(), "version": target.version(), "kind": target.kind},
        "name": meta["name"].as_str().unwrap_or_default(),
        "operation": request.operation.name(),
        "object": request.object,
        "replicas": request.desired_replicas,
    });
    if let Some(namespace) = meta["namespace"].as_str().filter(|n| !n.is_empty()) {
        body["namespace"] = json!(namespace);
    }
    if let Some(observed) = request.observed {
        body["observedObject"] = observed.clone();
    }
    if let Some(items) = request.aggregated_status.filter(|items| !items.is_empty()) {
        body["aggregatedStatus"] = json!(items);
    }
    let context = json!({
        "apiVersion": "config.karmada.io/v1alpha1",
        "kind": "ResourceInterpreterContext",
        "request": body,
    });
    serde_json::to_vec(&context).unwrap_or_default()
}

#[derive(Deserialize)]
struct Context {
    response: Option<Response>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Response {
    #[serde(default)]
    uid: String,
    #[serde(default)]
    successful: bool,
    status: Option<Status>,
    patch: Option<ByteString>,
    patch_type: Option<String>,
    replica_requirements: Option<ReplicaRequirements>,
    replicas: Option<i32>,
    #[serde(default)]
    components: Vec<Component>,
    #[serde(default)]
    dependencies: Vec<DependentObjectReference>,
    raw_status: Option<Value>,
    healthy: Option<bool>,
}

#[derive(Deserialize)]
struct Status {
    #[serde(default)]
    message: String,
    #[serde(default)]
    code: i32,
}

/// Checks `body` as upstream's `VerifyResourceInterpreterContext`: the answer must be there,
/// echo `uid`, and hold what `operation` returns.
pub(crate) fn verify(uid: &str, operation: Operation, body: &[u8]) -> Result<Answer, String> {
    let context: Context =
        serde_json::from_slice(body).map_err(|e| format!("cannot decode the ResourceInterpreterContext: {e}"))?;
    let response = context.response.ok_or("webhook response was absent")?;
    if response.uid != uid {
        return Err(format!("expected response.uid {uid:?}, got {:?}", response.uid));
    }
    if !response.successful {
        let status = response.status.ok_or("webhook require response.status when response.successful is false")?;
        return Ok(Answer::Failed { code: status.code, message: status.message });
    }
    match operation {
        Operation::InterpretReplica => {
            let replicas = response.replicas.ok_or("webhook returned nil response.replicas")?;
            Ok(Answer::Replicas { replicas, requirements: response.replica_requirements })
        }
        Operation::InterpretComponent => Ok(Answer::Components(response.components)),
        Operation::InterpretDependency => {
            native::verify_dependencies(&response.dependencies)?;
            Ok(Answer::Dependencies(response.dependencies))
        }
        Operation::ReviseReplica | Operation::Retain | Operation::AggregateStatus => {
            let patch = response.patch.map(|p| p.0).filter(|p| !p.is_empty());
            match (patch, response.patch_type) {
                (None, None) => Ok(Answer::Patch(None)),
                (_, None) => Err("webhook returned nil response.patchType".into()),
                (None, Some(_)) => Err("webhook returned empty response.patch".into()),
                (Some(_), Some(t)) if t != "JSONPatch" => {
                    Err(format!("webhook returned invalid response.patchType of {t:?}"))
                }
                (Some(patch), Some(_)) => Ok(Answer::Patch(Some(patch))),
            }
        }
        Operation::InterpretStatus => {
            Ok(Answer::RawStatus(response.raw_status.ok_or("webhook returned nill response.rawStatus")?))
        }
        Operation::InterpretHealth => {
            Ok(Answer::Healthy(response.healthy.ok_or("webhook returned nil response.healthy")?))
        }
    }
}

/// `object` with an answer's JSON patch applied (upstream's `applyPatch`).
pub(crate) fn apply_patch(object: &Value, patch: Option<&[u8]>) -> Result<Value, String> {
    let Some(patch) = patch else {
        return Ok(object.clone());
    };
    let patch: json_patch::Patch =
        serde_json::from_slice(patch).map_err(|e| format!("the JSON patch does not decode: {e}"))?;
    let mut patched = object.clone();
    json_patch::patch(&mut patched, &patch).map_err(|e| format!("the JSON patch does not apply: {e}"))?;
    Ok(patched)
}
