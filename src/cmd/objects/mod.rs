//! The objects a kubectl-like command (label, annotate, …) acts on, chosen as kubectl's
//! resource builder chooses them: `TYPE NAME...`, `TYPE/NAME...`, `TYPE` with `-l` or `--all`
//! (in one namespace, or every one with `-A`), or the objects named in `-f` files; each read
//! fresh from the server, in the order named.

pub mod failure;
pub mod flags;
pub mod pairs;
pub mod update;

use serde_json::Value;

use super::get::discovery::{Resource, Served};
use super::get::fetch::collection_path;
use crate::manifest_files::{self, Document};
pub use failure::Failure;

/// kubectl's builder refusal when nothing names an object.
pub const NOTHING_NAMED: &str = "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/// What the command line asks for.
#[derive(Debug, Default)]
pub struct Spec<'a> {
    pub resources: &'a [String],
    pub filenames: &'a [String],
    pub recursive: bool,
    pub selector: Option<&'a str>,
    pub field_selector: Option<&'a str>,
    pub all: bool,
    pub all_namespaces: bool,
    /// `-n`, else the kubeconfig context's, else `default`.
    pub namespace: String,
    /// Whether `-n` was given: objects in files must then be in that namespace.
    pub enforce_namespace: bool,
    /// Name the objects without reading them (kubectl's `RequireObject(false)`, as `delete`
    /// does): a target named by argument has no object, one from a file has the file's.
    pub skip_read: bool,
}

/// One object to act on, as the server has it now.
#[derive(Debug, Clone)]
pub struct Target {
    pub resource: Resource,
    /// `None` for cluster-scoped objects.
    pub namespace: Option<String>,
    pub name: String,
    pub object: Value,
    /// The file that named it, for messages (`error when deleting "x.yaml": …`).
    pub source: Option<String>,
}

impl Target {
    /// A target not read yet.
    fn named(resource: &Resource, namespace: Option<String>, name: &str) -> Self {
        Target { resource: resource.clone(), namespace, name: name.to_string(), object: Value::Null, source: None }
    }

    /// The object's path on the server.
    pub fn path(&self) -> String {
        let encoded: String = form_urlencoded::byte_serialize(self.name.as_bytes()).collect();
        format!("{}/{}", collection_path(&self.resource, self.namespace.as_deref()), encoded.replace('+', "%20"))
    }

    /// `deployment.apps/nginx`: how kubectl's name printer shows the object.
    pub fn printed_name(&self) -> String {
        crate::output::resource_name(&self.resource.kind, &self.resource.group, &self.name)
    }
}

/// The objects found, in order, with the failures met on the way in their place.
#[derive(Debug, Default)]
pub struct Selection {
    pub targets: Vec<Result<Target, Failure>>,
    /// Whether the arguments name exactly one object (kubectl's "single item implied"):
    /// one `TYPE NAME`, one `TYPE/NAME`, or one file.
    pub single: bool,
}

/// Checks the arguments the way kubectl's builder does before reading anything.
pub fn check(spec: &Spec) -> Result<(), String> {
    if !spec.filenames.is_empty() && !spec.resources.is_empty() {
        return Err(
            "when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well".into()
        );
    }
    if spec.resources.is_empty() {
        return Ok(());
    }
    let wanted = super::get::request::parse(spec.resources)?;
    let named = wanted.iter().any(|w| !w.names.is_empty());
    if named && spec.selector.is_some_and(|s| !s.is_empty()) {
        return Err("name cannot be provided when a selector is specified".into());
    }
    if named && spec.all_namespaces {
        return Err("a resource cannot be retrieved by name across all namespaces".into());
    }
    let selecting = spec.all || spec.selector.is_some_and(|s| !s.is_empty()) || spec.field_selector.is_some();
    if !named && !selecting {
        return Err("resource(s) were provided, but no name was specified".into());
    }
    Ok(())
}

/// Finds the objects `spec` names. An error here stops the command before it changes
/// anything (an unknown type, an unreadable file); failures of single objects are in the
/// selection, in their place.
pub async fn select(client: &kube::Client, spec: &Spec<'_>) -> anyhow::Result<Selection> {
    check(spec).map_err(anyhow::Error::msg)?;
    let served = discover(client).await?;
    let selector = match spec.selector.filter(|s| !s.is_empty()) {
        Some(s) => Some(
            karmadactl_apimachinery::LabelSelector::parse(s)
                .map_err(|e| anyhow::anyhow!("unable to parse requirement: {e}"))?,
        ),
        None => None,
    };
    if !spec.filenames.is_empty() {
        let docs = manifest_files::read_all(spec.filenames, spec.recursive).await?;
        let single = spec.filenames.len() == 1 && std::path::Path::new(&spec.filenames[0]).is_file();
        let mut targets = Vec::new();
        for doc in flatten(docs) {
            let target = from_document(client, &served, spec, &doc).await?;
            if let Ok(t) = &target
                && let Some(sel) = &selector
                && !sel.matches(&labels_of(&t.object))
            {
                continue;
            }
            targets.push(target);
        }
        return Ok(Selection { targets, single });
    }
    let wanted = super::get::request::parse(spec.resources).map_err(anyhow::Error::msg)?;
    let mut resolved = Vec::new();
    for w in &wanted {
        resolved.push((served.resolve(&w.type_arg).map_err(anyhow::Error::msg)?, &w.names));
    }
    let single = wanted.len() == 1 && wanted[0].names.len() == 1;
    let mut targets = Vec::new();
    for (resource, names) in resolved {
        let namespace = resource.namespaced.then(|| spec.namespace.clone());
        if names.is_empty() {
            targets.extend(list(client, &resource, spec).await);
            continue;
        }
        for name in names {
            let target = Target::named(&resource, namespace.clone(), name);
            targets.push(if spec.skip_read { Ok(target) } else { read(client, target).await });
        }
    }
    Ok(Selection { targets, single })
}

/// The resources the server serves, with kubectl's wording when it cannot say.
pub async fn discover(client: &kube::Client) -> anyhow::Result<Served> {
    super::get::discovery::discover(client).await.map_err(|e| match e {
        kube::Error::Api(s) => anyhow::Error::new(crate::error::Verbatim(failure::render(&[Failure::Api(s)]))),
        other => anyhow::anyhow!(crate::error::with_causes(&other)),
    })
}

/// kubectl acts on the items of a `List` document, not on the list.
pub fn flatten(docs: Vec<Document>) -> Vec<Document> {
    let mut out = Vec::new();
    for doc in docs {
        match doc.object.get("items").and_then(Value::as_array) {
            Some(items) if doc.object.get("kind").and_then(Value::as_str).is_some_and(|k| k.ends_with("List")) => {
                out.extend(items.iter().map(|i| Document { object: i.clone(), ..doc.clone() }));
            }
            _ => out.push(doc),
        }
    }
    out
}

pub fn labels_of(object: &Value) -> std::collections::BTreeMap<String, String> {
    object
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))).collect())
        .unwrap_or_default()
}

/// The object a file names, read from the server.
async fn from_document(
    client: &kube::Client,
    served: &Served,
    spec: &Spec<'_>,
    doc: &Document,
) -> anyhow::Result<Result<Target, Failure>> {
    let (resource, namespace, name) = locate(served, spec, doc)?;
    let mut target = Target::named(&resource, namespace, &name);
    target.source = Some(doc.origin.display());
    if spec.skip_read {
        target.object = doc.object.clone();
        return Ok(Ok(target));
    }
    Ok(read(client, target).await)
}

/// The resource, namespace (None for cluster-scoped kinds) and name of the object a file holds,
/// with kubectl's errors for an unknown kind and a namespace other than `-n`.
pub fn locate(served: &Served, spec: &Spec<'_>, doc: &Document) -> anyhow::Result<(Resource, Option<String>, String)> {
    let text = |p: &str| doc.object.pointer(p).and_then(Value::as_str).unwrap_or_default().to_string();
    let (api_version, kind, name) = (text("/apiVersion"), text("/kind"), text("/metadata/name"));
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", &api_version));
    let Some(resource) = served.by_kind(group, version, &kind) else {
        anyhow::bail!(
            "resource mapping not found for name: {name:?} namespace: {:?} from {:?}: no matches for kind {kind:?} in version {api_version:?}\nensure CRDs are installed first",
            text("/metadata/namespace"),
            doc.origin.display()
        );
    };
    let namespace = match text("/metadata/namespace") {
        _ if !resource.namespaced => None,
        ns if ns.is_empty() => Some(spec.namespace.clone()),
        ns if spec.enforce_namespace && ns != spec.namespace => anyhow::bail!(
            "the namespace from the provided object {ns:?} does not match the namespace {:?}. You must pass '--namespace={ns}' to perform this operation.",
            spec.namespace
        ),
        ns => Some(ns),
    };
    Ok((resource, namespace, name))
}

/// One object by name, as the server has it.
async fn read(client: &kube::Client, mut target: Target) -> Result<Target, Failure> {
    let req = http::Request::get(target.path()).body(Vec::new()).map_err(|e| Failure::Plain(e.to_string()))?;
    target.object = client.request::<Value>(req).await.map_err(Failure::from_kube)?;
    Ok(target)
}

/// Every object of a type that the selectors match, in the namespace or in all of them.
async fn list(client: &kube::Client, resource: &Resource, spec: &Spec<'_>) -> Vec<Result<Target, Failure>> {
    let namespace = (!spec.all_namespaces).then_some(spec.namespace.as_str());
    let mut query = form_urlencoded::Serializer::new(String::new());
    if let Some(l) = spec.selector.filter(|l| !l.is_empty()) {
        query.append_pair("labelSelector", l);
    }
    if let Some(f) = spec.field_selector.filter(|f| !f.is_empty()) {
        query.append_pair("fieldSelector", f);
    }
    let query = query.finish();
    let mut path = collection_path(resource, namespace);
    if !query.is_empty() {
        path = format!("{path}?{query}");
    }
    let req = match http::Request::get(path).body(Vec::new()) {
        Ok(r) => r,
        Err(e) => return vec![Err(Failure::Plain(e.to_string()))],
    };
    let listed: Value = match client.request(req).await {
        Ok(v) => v,
        Err(e) => return vec![Err(Failure::from_kube(e))],
    };
    let api_version = if resource.group.is_empty() {
        resource.version.clone()
    } else {
        format!("{}/{}", resource.group, resource.version)
    };
    let items = listed.get("items").and_then(Value::as_array).cloned().unwrap_or_default();
    items
        .into_iter()
        .map(|mut object| {
            if let Some(m) = object.as_object_mut() {
                m.entry("apiVersion").or_insert(Value::String(api_version.clone()));
                m.entry("kind").or_insert(Value::String(resource.kind.clone()));
            }
            let text = |p: &str| object.pointer(p).and_then(Value::as_str).map(str::to_string);
            Ok(Target {
                resource: resource.clone(),
                namespace: text("/metadata/namespace").filter(|_| resource.namespaced),
                name: text("/metadata/name").unwrap_or_default(),
                object,
                source: None,
            })
        })
        .collect()
}
