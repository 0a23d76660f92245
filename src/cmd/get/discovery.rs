//! Which resource a typed name means on one server, from its discovery documents (the
//! preferred version of every group, the core group first), as kubectl's RESTMapper decides.

use futures::future::join_all;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{APIGroupList, APIResource, APIResourceList};

/// A resource a server serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    pub group: String,
    pub version: String,
    pub plural: String,
    pub kind: String,
    pub namespaced: bool,
    singular: String,
    short_names: Vec<String>,
}

impl Resource {
    /// A resource known without asking discovery (core kinds, Karmada's own).
    pub fn new(group: &str, version: &str, plural: &str, kind: &str, namespaced: bool) -> Self {
        Resource {
            group: group.into(),
            version: version.into(),
            plural: plural.into(),
            kind: kind.into(),
            namespaced,
            singular: kind.to_lowercase(),
            short_names: Vec::new(),
        }
    }

    /// `/api/v1` or `/apis/<group>/<version>`.
    pub fn base_path(&self) -> String {
        if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        }
    }

    /// `deployments.apps`, `pods`: how kube names the resource in messages.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() { self.plural.clone() } else { format!("{}.{}", self.plural, self.group) }
    }

    fn from_api(group: &str, version: &str, r: APIResource, any_verbs: bool) -> Option<Self> {
        if r.name.contains('/') || !(any_verbs || r.verbs.iter().any(|v| v == "list" || v == "get")) {
            return None;
        }
        Some(Resource {
            group: group.to_string(),
            version: version.to_string(),
            kind: r.kind,
            namespaced: r.namespaced,
            singular: r.singular_name,
            short_names: r.short_names.unwrap_or_default(),
            plural: r.name,
        })
    }

    fn is_called(&self, name: &str) -> bool {
        let name = name.to_lowercase();
        self.plural == name
            || self.singular == name
            || self.short_names.contains(&name)
            || self.kind.to_lowercase() == name
    }
}

/// Everything one server serves, in kubectl's priority order.
#[derive(Debug, Clone, Default)]
pub struct Served(pub Vec<Resource>);

/// Reads the server's discovery documents: the resources that can be read.
pub async fn discover(client: &kube::Client) -> Result<Served, kube::Error> {
    discover_with(client, false).await
}

/// Reads the server's discovery documents: every resource, also those that can only be
/// created (`tokenreviews`), as kubectl's RESTMapper knows them.
pub async fn discover_all(client: &kube::Client) -> Result<Served, kube::Error> {
    discover_with(client, true).await
}

async fn discover_with(client: &kube::Client, any_verbs: bool) -> Result<Served, kube::Error> {
    let mut out = Vec::new();
    let core: APIResourceList = get_json(client, "/api/v1").await?;
    out.extend(core.resources.into_iter().filter_map(|r| Resource::from_api("", "v1", r, any_verbs)));
    let groups: APIGroupList = get_json(client, "/apis").await?;
    // The preferred version of each group first, then the other versions, whose resources
    // count only where the preferred one lacks them (`works` is only in work.karmada.io/v1alpha1
    // while v1alpha2 is preferred), as client-go's `ServerPreferredResources` merges them.
    let mut versions: Vec<(String, String)> = Vec::new();
    for g in groups.groups {
        let preferred =
            g.preferred_version.map(|v| v.version).or_else(|| g.versions.first().map(|v| v.version.clone()));
        versions.extend(preferred.iter().map(|v| (g.name.clone(), v.clone())));
        for v in g.versions {
            if Some(&v.version) != preferred.as_ref() {
                versions.push((g.name.clone(), v.version));
            }
        }
    }
    let lists =
        join_all(versions.iter().map(|(g, v)| get_json::<APIResourceList>(client, format!("/apis/{g}/{v}")))).await;
    for ((g, v), list) in versions.iter().zip(lists) {
        // A group whose document fails (an unavailable aggregated API) is left out, as kubectl
        // does after warning.
        let Ok(list) = list else { continue };
        for r in list.resources.into_iter().filter_map(|r| Resource::from_api(g, v, r, any_verbs)) {
            if !out.iter().any(|o| o.group == r.group && o.plural == r.plural) {
                out.push(r);
            }
        }
    }
    Ok(Served(out))
}

async fn get_json<T: serde::de::DeserializeOwned>(
    client: &kube::Client,
    path: impl AsRef<str>,
) -> Result<T, kube::Error> {
    let req = http::Request::get(path.as_ref()).body(Vec::new()).map_err(kube::Error::HttpError)?;
    client.request(req).await
}

impl Served {
    /// The resource `type_arg` (`deploy`, `deployments.apps`, `deployments.v1.apps`, `Deployment`)
    /// names, or kubectl's error.
    pub fn resolve(&self, type_arg: &str) -> Result<Resource, String> {
        let found = self.0.iter().find(|r| r.is_called(type_arg)).or_else(|| {
            let (name, rest) = type_arg.split_once('.')?;
            // `name.group`, then `name.version.group`.
            self.0.iter().find(|r| r.group == rest && r.is_called(name)).or_else(|| {
                let (version, group) = rest.split_once('.')?;
                self.0.iter().find(|r| r.group == group && r.version == version && r.is_called(name))
            })
        });
        found.cloned().ok_or_else(|| format!("the server doesn't have a resource type \"{type_arg}\""))
    }

    /// Every resource called `name` (plural, singular, short name or kind, without a group), in
    /// kubectl's priority order, as its RESTMapper's `ResourcesFor` lists them.
    pub fn named(&self, name: &str) -> Vec<&Resource> {
        self.0.iter().filter(|r| r.is_called(name)).collect()
    }

    /// The resource an object of `kind` in `group/version` belongs to (objects read from files),
    /// at the object's own version.
    pub fn by_kind(&self, group: &str, version: &str, kind: &str) -> Option<Resource> {
        let found = self.0.iter().find(|r| r.group == group && r.kind == kind && !kind.is_empty())?;
        Some(Resource { version: version.to_string(), ..found.clone() })
    }
}

#[cfg(test)]
pub(crate) mod tests_support {
    use super::Resource;

    /// A namespaced resource served at v1 of `group`.
    pub fn resource(group: &str, plural: &str, kind: &str) -> Resource {
        Resource {
            group: group.into(),
            version: "v1".into(),
            plural: plural.into(),
            kind: kind.into(),
            namespaced: true,
            singular: kind.to_lowercase(),
            short_names: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(group: &str, version: &str, plural: &str, kind: &str, short: &[&str]) -> Resource {
        Resource {
            group: group.into(),
            version: version.into(),
            plural: plural.into(),
            kind: kind.into(),
            namespaced: true,
            singular: kind.to_lowercase(),
            short_names: short.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn served() -> Served {
        Served(vec![
            res("", "v1", "pods", "Pod", &["po"]),
            res("apps", "v1", "deployments", "Deployment", &["deploy"]),
            res("extensions.example", "v1", "deployments", "Deployment", &[]),
        ])
    }

    #[test]
    fn plural_singular_short_and_kind_names_resolve() {
        for name in ["deployments", "deployment", "deploy", "Deployment", "deployments.apps", "deployments.v1.apps"] {
            let r = served().resolve(name).unwrap();
            assert_eq!((r.group.as_str(), r.plural.as_str()), ("apps", "deployments"), "{name}");
        }
        assert_eq!(served().resolve("deployments.extensions.example").unwrap().group, "extensions.example");
        assert_eq!(served().resolve("po").unwrap().base_path(), "/api/v1");
    }

    #[test]
    fn unknown_types_give_kubectls_error() {
        assert_eq!(
            served().resolve("invalidresource").unwrap_err(),
            "the server doesn't have a resource type \"invalidresource\""
        );
        assert!(served().resolve("deployments.v2.apps").is_err());
    }
}
