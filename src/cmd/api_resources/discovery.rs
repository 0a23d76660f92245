//! What a server serves, read from its discovery documents as client-go's discovery client
//! reads them: the API groups (the legacy core group first), and for each group the resources
//! of its preferred version plus those only other versions serve (`ServerPreferredResources`).

use futures::future::join_all;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, GroupVersionForDiscovery,
};
use serde::de::DeserializeOwned;

/// Every group the server serves, the legacy core group (`""`, from `/api`) first, with its
/// versions in the server's order: client-go's `ServerGroups`.
pub async fn server_groups(client: &kube::Client) -> Result<Vec<APIGroup>, kube::Error> {
    let core: APIVersions = get_json(client, "/api").await?;
    let mut groups = Vec::new();
    if let Some(first) = core.versions.first() {
        let versions: Vec<GroupVersionForDiscovery> = core
            .versions
            .iter()
            .map(|v| GroupVersionForDiscovery { group_version: v.clone(), version: v.clone() })
            .collect();
        groups.push(APIGroup {
            name: String::new(),
            preferred_version: Some(GroupVersionForDiscovery { group_version: first.clone(), version: first.clone() }),
            server_address_by_client_cidrs: None,
            versions,
        });
    }
    let list: APIGroupList = get_json(client, "/apis").await?;
    groups.extend(list.groups);
    Ok(groups)
}

/// `group/version` of every version of every group (`v1` for the core group), sorted:
/// `metav1.ExtractGroupVersions` and kubectl's sort.
pub fn group_versions(groups: &[APIGroup]) -> Vec<String> {
    let mut out: Vec<String> = groups.iter().flat_map(|g| g.versions.iter().map(|v| v.group_version.clone())).collect();
    out.sort();
    out
}

/// One resource as `api-resources` lists it: its discovery entry with `group` and `version`
/// filled in.
pub type Listed = APIResource;

/// The preferred resources of every group; a group version that could not be read is reported
/// and left out, as client-go does (`unable to retrieve the complete list of server APIs`).
pub async fn preferred_resources(client: &kube::Client, groups: &[APIGroup]) -> (Vec<Listed>, Vec<String>) {
    let paths: Vec<(String, String, String)> = groups
        .iter()
        .flat_map(|g| {
            g.versions.iter().map(|v| {
                let path = if g.name.is_empty() {
                    format!("/api/{}", v.version)
                } else {
                    format!("/apis/{}/{}", g.name, v.version)
                };
                (g.name.clone(), v.version.clone(), path)
            })
        })
        .collect();
    let fetched = join_all(paths.iter().map(|(_, _, path)| get_json::<APIResourceList>(client, path))).await;
    let mut failed = Vec::new();
    let mut lists = std::collections::HashMap::new();
    for ((group, version, _), result) in paths.into_iter().zip(fetched) {
        match result {
            Ok(list) => {
                lists.insert((group, version), list);
            }
            Err(e) => {
                let gv = if group.is_empty() { version } else { format!("{group}/{version}") };
                failed.push(format!("{gv}: {}", crate::error::with_causes(&e)));
            }
        }
    }
    let mut chosen: Vec<Listed> = Vec::new();
    for group in groups {
        let preferred = group.preferred_version.as_ref().map(|p| p.version.as_str());
        for version in &group.versions {
            let Some(list) = lists.get(&(group.name.clone(), version.version.clone())) else {
                continue;
            };
            for resource in &list.resources {
                if resource.name.contains('/') {
                    continue;
                }
                let seen =
                    chosen.iter().position(|c| c.group.as_deref() == Some(&group.name) && c.name == resource.name);
                let entry = APIResource {
                    group: Some(group.name.clone()),
                    version: Some(version.version.clone()),
                    ..resource.clone()
                };
                match seen {
                    // Only the preferred version replaces a version already chosen.
                    Some(i) if Some(version.version.as_str()) == preferred => chosen[i] = entry,
                    Some(_) => {}
                    None => chosen.push(entry),
                }
            }
        }
    }
    (chosen, failed)
}

async fn get_json<T: DeserializeOwned>(client: &kube::Client, path: &str) -> Result<T, kube::Error> {
    let request = http::Request::get(path).body(Vec::new()).map_err(kube::Error::HttpError)?;
    client.request::<T>(request).await
}
