//! Which objects `describe` shows, chosen as kubectl's resource builder chooses them: named
//! ones (`TYPE NAME...`, `TYPE/NAME...`), every object of a type in the namespace (or all
//! namespaces, or matching `-l`), or the objects written in `-f` files; and, when a single
//! `TYPE NAME` is not found, every object of the type whose name starts with NAME.

use kube::core::Status;
use serde_json::Value;

use crate::cmd::get::discovery::{Resource, Served};
use crate::cmd::get::request::Wanted;

/// One object to describe.
#[derive(Debug, Clone)]
pub struct Target {
    pub resource: Resource,
    /// Empty for cluster-scoped objects.
    pub namespace: String,
    pub name: String,
}

/// Where the objects are looked for.
pub struct Scope<'a> {
    pub namespace: &'a str,
    pub all_namespaces: bool,
    pub selector: Option<&'a str>,
    pub chunk_size: i64,
}

/// Why a target could not be read: the server's answer, or any other failure.
#[derive(Debug)]
pub enum Failure {
    Server(Box<Status>),
    Other(String),
}

impl Failure {
    pub fn from_kube(e: kube::Error) -> Self {
        match e {
            kube::Error::Api(s) => Failure::Server(s),
            other => Failure::Other(crate::error::with_causes(&other)),
        }
    }

    /// The error as Go's `err.Error()` gives it: a server's answer is its message alone.
    pub fn text(&self) -> String {
        match self {
            Failure::Server(s) => s.message.clone(),
            Failure::Other(m) => m.clone(),
        }
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, Failure::Server(s) if s.code == 404)
    }
}

/// The objects `wanted` names, confirmed to exist, with the failures for those that could not
/// be read.
pub async fn named(
    client: &kube::Client,
    served: &Served,
    wanted: &[Wanted],
    scope: &Scope<'_>,
) -> Result<(Vec<Target>, Vec<Failure>), String> {
    let mut out = Vec::new();
    let mut failures = Vec::new();
    for w in wanted {
        let resource = served.resolve(&w.type_arg)?;
        if w.names.is_empty() {
            match list(client, &resource, scope).await {
                Ok(found) => out.extend(found),
                Err(e) => failures.push(e),
            }
            continue;
        }
        for name in &w.names {
            let target =
                Target { resource: resource.clone(), namespace: namespace_for(&resource, scope), name: name.clone() };
            match get(client, &target).await {
                Ok(_) => out.push(target),
                Err(e) => failures.push(e),
            }
        }
    }
    Ok((out, failures))
}

/// Every object of `resource` in the scope (by `-l`), in the server's order.
pub async fn list(client: &kube::Client, resource: &Resource, scope: &Scope<'_>) -> Result<Vec<Target>, Failure> {
    let namespace = (!scope.all_namespaces).then_some(scope.namespace);
    let collection = crate::cmd::get::fetch::collection_path(resource, namespace);
    let selector = scope.selector.unwrap_or_default();
    let items = super::list::items(client, &collection, &[("labelSelector", selector)], scope.chunk_size).await?;
    Ok(items
        .iter()
        .map(|item| Target {
            resource: resource.clone(),
            namespace: item["metadata"]["namespace"].as_str().unwrap_or_default().to_string(),
            name: item["metadata"]["name"].as_str().unwrap_or_default().to_string(),
        })
        .collect())
}

/// The object itself.
pub async fn get(client: &kube::Client, target: &Target) -> Result<Value, Failure> {
    let namespace = (!target.namespace.is_empty()).then_some(target.namespace.as_str());
    let collection = crate::cmd::get::fetch::collection_path(&target.resource, namespace);
    let encoded: String = form_urlencoded::byte_serialize(target.name.as_bytes()).collect();
    let path = format!("{collection}/{}", encoded.replace('+', "%20"));
    let request = http::Request::get(path).body(Vec::new()).map_err(|e| Failure::Other(e.to_string()))?;
    client.request::<Value>(request).await.map_err(Failure::from_kube)
}

/// The namespace a named object of `resource` is looked for in.
fn namespace_for(resource: &Resource, scope: &Scope<'_>) -> String {
    if resource.namespaced { scope.namespace.to_string() } else { String::new() }
}

/// The objects written in `-f` files (each with the name of its source): each document's kind
/// and apiVersion name its resource, its namespace (or the default one) where it is. A kind the
/// server does not serve is a failure for that document only; an explicit `-n` that differs
/// from a document's namespace is a failure for that document, as kubectl reports it.
pub fn from_documents(
    served: &Served,
    documents: &[(String, Value)],
    namespace: &str,
    enforce_namespace: bool,
) -> Result<(Vec<Target>, Vec<Failure>), String> {
    let mut out = Vec::new();
    let mut failures = Vec::new();
    for (source, doc) in documents {
        let kind = doc["kind"].as_str().unwrap_or_default();
        let api_version = doc["apiVersion"].as_str().unwrap_or_default();
        let name = doc["metadata"]["name"].as_str().unwrap_or_default();
        let own = doc["metadata"]["namespace"].as_str().unwrap_or_default();
        if kind.is_empty() || api_version.is_empty() {
            return Err(format!("error validating \"{source}\": apiVersion and kind must be set"));
        }
        let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
        let Some(resource) = served.0.iter().find(|r| r.kind == kind && r.group == group).cloned() else {
            let shown_namespace = if own.is_empty() { namespace } else { own };
            failures.push(Failure::Other(format!(
                "resource mapping not found for name: \"{name}\" namespace: \"{shown_namespace}\" from \"{source}\": no matches for kind \"{kind}\" in version \"{api_version}\"\nensure CRDs are installed first"
            )));
            continue;
        };
        let namespace = match (resource.namespaced, own) {
            (false, _) => String::new(),
            (true, "") => namespace.to_string(),
            (true, own) if enforce_namespace && own != namespace => {
                failures.push(Failure::Other(format!(
                    "the namespace from the provided object \"{own}\" does not match the namespace \"{namespace}\". You must pass '--namespace={own}' to perform this operation."
                )));
                continue;
            }
            (true, own) => own.to_string(),
        };
        out.push(Target { resource, namespace, name: name.to_string() });
    }
    Ok((out, failures))
}
