//! The requests apply sends, with kubectl's query parameters: `fieldManager`,
//! `fieldValidation`, `dryRun=All` for `--dry-run=server`, and `force` for server-side apply.

use serde_json::Value;

use super::Options;
use crate::cmd::objects::Failure;
use crate::cmd::objects::pairs::DryRun;

/// The query kubectl's resource helper adds to a create or patch.
pub fn query(options: &Options, force: Option<bool>) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    if options.dry_run == DryRun::Server {
        q.append_pair("dryRun", "All");
    }
    if !options.field_manager.is_empty() {
        q.append_pair("fieldManager", &options.field_manager);
    }
    q.append_pair("fieldValidation", options.validation);
    if let Some(force) = force {
        q.append_pair("force", if force { "true" } else { "false" });
    }
    q.finish()
}

/// Sends one request and returns the object the server answered with.
pub async fn send(
    client: &kube::Client,
    method: http::Method,
    uri: String,
    content_type: &str,
    body: Vec<u8>,
) -> Result<Value, Failure> {
    let req = http::Request::builder()
        .method(method)
        .uri(uri)
        .header(http::header::CONTENT_TYPE, content_type)
        .body(body)
        .map_err(|e| Failure::Plain(e.to_string()))?;
    client.request::<Value>(req).await.map_err(Failure::from_kube)
}

/// kubectl's `AddSourceToErr`: names the file the object came from in the failure.
pub fn with_source(verb: &str, source: &str, failure: Failure) -> Failure {
    if source.is_empty() {
        return failure;
    }
    match failure {
        Failure::Api(mut s) => {
            s.message = format!("error when {verb} {source:?}: {}", s.message);
            Failure::Api(s)
        }
        Failure::Plain(m) => Failure::Plain(format!("error when {verb} {source:?}: {m}")),
    }
}
