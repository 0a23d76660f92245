//! `apply --server-side`: the whole object sent as an apply patch; the server merges it and
//! tracks which manager owns which field.

use serde_json::Value;

use super::{Info, Options, request};
use crate::cmd::objects::Failure;

/// kubectl's advice after a conflict with another field manager.
const CONFLICT_ADVICE: &str = "Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the `--force-conflicts` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts";

/// Applies one object on the server; the object as the server has it afterwards.
pub async fn apply(client: &kube::Client, info: &Info, options: &Options) -> Result<(Value, &'static str), Failure> {
    let body = serde_json::to_vec(&info.object).map_err(|e| Failure::Plain(e.to_string()))?;
    let mut path = info.target().path();
    if let Some(sub) = &options.subresource {
        path = format!("{path}/{sub}");
    }
    let uri = format!("{path}?{}", request::query(options, Some(options.force_conflicts)));
    match request::send(client, http::Method::PATCH, uri, "application/apply-patch+yaml", body).await {
        Ok(object) => Ok((object, "serverside-applied")),
        Err(Failure::Api(s)) if s.code == 409 => Err(Failure::Plain(format!("{}\n{CONFLICT_ADVICE}", s.message))),
        Err(f) => Err(f),
    }
}
