//! Writes whose answer the simulation does not read. kube-rs decodes the object the server
//! answers with into its typed struct; the simulated controllers learn the new state from
//! their watches anyway, and six of the seven writes a Deployment takes (its ReplicaSet's and
//! pod's creation, the owners' status) answered with an object no one looked at.

use kube::api::{Patch, PatchParams, PostParams};
use kube::core::Request;
use kube::{Client, Resource};
use serde::Serialize;
use serde_json::Value;

/// Creates `obj` in `ns`.
pub async fn create<K>(client: &Client, ns: &str, obj: &K) -> Result<(), kube::Error>
where
    K: Resource<DynamicType = ()> + Serialize,
{
    let body = serde_json::to_vec(obj).map_err(kube::Error::SerdeError)?;
    let request = Request::new(K::url_path(&(), Some(ns)))
        .create(&PostParams::default(), body)
        .map_err(kube::Error::BuildRequest)?;
    client.request_text(request).await.map(drop)
}

/// Merges `patch` into the status of `ns`/`name`.
pub async fn patch_status<K>(client: &Client, ns: &str, name: &str, patch: &Value) -> Result<(), kube::Error>
where
    K: Resource<DynamicType = ()>,
{
    let request = Request::new(K::url_path(&(), Some(ns)))
        .patch_subresource("status", name, &PatchParams::default(), &Patch::Merge(patch))
        .map_err(kube::Error::BuildRequest)?;
    client.request_text(request).await.map(drop)
}
