//! Creating, applying and deleting the handful of built-in kinds register and unregister
//! manage, given as JSON.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Namespace, Secret, ServiceAccount};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use kube::Client;
use kube::api::{Api, ApiResource, DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
use serde_json::Value;

/// One object, as messages and rollback name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectId {
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl std::fmt::Display for ObjectId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{} {ns}/{}", self.kind, self.name),
            None => write!(f, "{} {}", self.kind, self.name),
        }
    }
}

impl ObjectId {
    pub fn new(kind: &str, namespace: Option<&str>, name: &str) -> Self {
        Self { kind: kind.into(), namespace: namespace.map(Into::into), name: name.into() }
    }

    pub fn of(obj: &Value) -> Self {
        Self::new(
            obj["kind"].as_str().unwrap_or_default(),
            obj["metadata"]["namespace"].as_str(),
            obj["metadata"]["name"].as_str().unwrap_or_default(),
        )
    }
}

fn resource(kind: &str) -> Option<ApiResource> {
    Some(match kind {
        "Namespace" => ApiResource::erase::<Namespace>(&()),
        "Secret" => ApiResource::erase::<Secret>(&()),
        "ServiceAccount" => ApiResource::erase::<ServiceAccount>(&()),
        "ClusterRole" => ApiResource::erase::<ClusterRole>(&()),
        "ClusterRoleBinding" => ApiResource::erase::<ClusterRoleBinding>(&()),
        "Role" => ApiResource::erase::<Role>(&()),
        "RoleBinding" => ApiResource::erase::<RoleBinding>(&()),
        "Deployment" => ApiResource::erase::<Deployment>(&()),
        _ => return None,
    })
}

fn api(client: &Client, id: &ObjectId) -> Result<Api<DynamicObject>, kube::Error> {
    let Some(r) = resource(&id.kind) else {
        return Err(kube::Error::Service(format!("unsupported kind {}", id.kind).into()));
    };
    Ok(match &id.namespace {
        Some(ns) => Api::namespaced_with(client.clone(), ns, &r),
        None => Api::all_with(client.clone(), &r),
    })
}

/// Creates `obj`; an existing object is left as it is. Returns whether this call created it.
pub async fn create(client: &Client, obj: &Value) -> Result<bool, kube::Error> {
    let id = ObjectId::of(obj);
    let dynamic: DynamicObject = serde_json::from_value(obj.clone()).map_err(kube::Error::SerdeError)?;
    match api(client, &id)?.create(&PostParams::default(), &dynamic).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(e)) if e.code == 409 => Ok(false),
        Err(e) => Err(e),
    }
}

/// Creates or updates `obj` with server-side apply; returns whether it existed before.
pub async fn apply(client: &Client, obj: &Value, manager: &str) -> Result<bool, kube::Error> {
    let id = ObjectId::of(obj);
    let api = api(client, &id)?;
    let existed = api.get_opt(&id.name).await?.is_some();
    api.patch(&id.name, &PatchParams::apply(manager).force(), &Patch::Apply(obj)).await?;
    Ok(existed)
}

pub async fn exists(client: &Client, id: &ObjectId) -> Result<bool, kube::Error> {
    Ok(api(client, id)?.get_opt(&id.name).await?.is_some())
}

pub async fn get(client: &Client, id: &ObjectId) -> Result<Option<DynamicObject>, kube::Error> {
    api(client, id)?.get_opt(&id.name).await
}

/// Deletes one object; one that is not there counts as deleted. Returns whether it was there.
pub async fn delete(client: &Client, id: &ObjectId) -> Result<bool, kube::Error> {
    match api(client, id)?.delete(&id.name, &DeleteParams::background()).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(false),
        Err(e) => Err(e),
    }
}
