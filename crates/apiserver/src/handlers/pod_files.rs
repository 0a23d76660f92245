//! The files a container sees of its mounted ConfigMap and Secret volumes, as the kubelet lays
//! them out: every key (or only `items`, at their `path`) under the mount path, or the one key a
//! `subPath` names. A missing optional source mounts nothing.

use std::collections::BTreeMap;

use base64::Engine;
use serde_json::Value;

use crate::state::ApiState;
use crate::storage::store_access;

/// Path → content for `container`'s ConfigMap and Secret mounts in `pod`.
pub async fn mounted(state: &ApiState, pod: &Value, container: &str) -> BTreeMap<String, Vec<u8>> {
    let ns = pod.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or_default();
    let mut files = BTreeMap::new();
    let Some(spec) = container_spec(pod, container) else { return files };
    let volumes = pod.pointer("/spec/volumes").and_then(Value::as_array).cloned().unwrap_or_default();
    for mount in spec.get("volumeMounts").and_then(Value::as_array).into_iter().flatten() {
        let name = mount.get("name").and_then(Value::as_str).unwrap_or_default();
        let Some(volume) = volumes.iter().find(|v| v.get("name").and_then(Value::as_str) == Some(name)) else {
            continue;
        };
        let Some((source, keys)) = source_keys(state, ns, volume).await else { continue };
        let at = mount.get("mountPath").and_then(Value::as_str).unwrap_or_default().trim_end_matches('/');
        let paths = layout(source, &keys);
        match mount.get("subPath").and_then(Value::as_str).filter(|s| !s.is_empty()) {
            Some(sub) => {
                if let Some(content) = paths.get(sub) {
                    files.insert(at.to_string(), content.clone());
                }
            }
            None => files.extend(paths.into_iter().map(|(p, c)| (format!("{at}/{p}"), c))),
        }
    }
    files
}

fn container_spec<'a>(pod: &'a Value, container: &str) -> Option<&'a Value> {
    ["/spec/containers", "/spec/initContainers", "/spec/ephemeralContainers"]
        .iter()
        .filter_map(|p| pod.pointer(p).and_then(Value::as_array))
        .flatten()
        .find(|c| c.get("name").and_then(Value::as_str) == Some(container))
}

/// The volume's ConfigMap or Secret source and its keys with their bytes.
async fn source_keys<'v>(
    state: &ApiState,
    ns: &str,
    volume: &'v Value,
) -> Option<(&'v Value, BTreeMap<String, Vec<u8>>)> {
    let b64 = |v: &Value| v.as_str().and_then(|s| base64::engine::general_purpose::STANDARD.decode(s).ok());
    if let Some(cm) = volume.get("configMap") {
        let name = cm.get("name").and_then(Value::as_str)?;
        let (object, _) = store_access::get(state, "", "configmaps", Some(ns), name).await.ok()??;
        let mut keys = BTreeMap::new();
        for (k, v) in object.get("data").and_then(Value::as_object).into_iter().flatten() {
            keys.insert(k.clone(), v.as_str().unwrap_or_default().as_bytes().to_vec());
        }
        for (k, v) in object.get("binaryData").and_then(Value::as_object).into_iter().flatten() {
            keys.insert(k.clone(), b64(v).unwrap_or_default());
        }
        return Some((cm, keys));
    }
    let secret = volume.get("secret")?;
    let name = secret.get("secretName").and_then(Value::as_str)?;
    let (object, _) = store_access::get(state, "", "secrets", Some(ns), name).await.ok()??;
    let keys = object
        .get("data")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), b64(v).unwrap_or_default()))
        .collect();
    Some((secret, keys))
}

/// Relative path → content: every key, or only the listed `items` at their paths.
fn layout(source: &Value, keys: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<u8>> {
    match source.get("items").and_then(Value::as_array) {
        Some(items) => items
            .iter()
            .filter_map(|item| {
                let key = item.get("key").and_then(Value::as_str)?;
                let path = item.get("path").and_then(Value::as_str).unwrap_or(key);
                Some((path.to_string(), keys.get(key)?.clone()))
            })
            .collect(),
        None => keys.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn items_choose_keys_and_their_paths() {
        let keys = BTreeMap::from([("a".to_string(), b"1".to_vec()), ("b".to_string(), b"2".to_vec())]);
        assert_eq!(layout(&json!({}), &keys), keys);
        let only = layout(&json!({"items": [{"key": "b", "path": "sub/b.txt"}, {"key": "gone", "path": "x"}]}), &keys);
        assert_eq!(only, BTreeMap::from([("sub/b.txt".to_string(), b"2".to_vec())]));
    }
}
