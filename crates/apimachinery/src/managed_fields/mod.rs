//! `metadata.managedFields`: which manager owns which fields of an object, kept on every write
//! and used by server-side apply to merge, prune and detect conflicts (kube's fieldmanager and
//! structured-merge-diff).

mod apply;
mod conflicts;
mod entries;
mod fieldset;
pub mod last_applied;
mod record;
mod shape;
mod walk;

#[cfg(test)]
mod tests;

pub use apply::apply;
pub use conflicts::{Conflict, conflict_error};
pub use entries::{Entry, Operation};
pub use fieldset::{PathElement, Set, path_string};
pub use record::record_update;
pub use shape::{ListType, Shape};
pub use walk::{Mode, diff, fields_of};

use serde_json::Value;

/// Longest manager name kube keeps when it derives one from the User-Agent.
const MAX_DERIVED_MANAGER_LEN: usize = 128;

/// The manager of a write: the `fieldManager` parameter, else the User-Agent up to its first
/// `/` (`kubectl/v1.33.0 (linux/amd64) ...` is `kubectl`), as kube-apiserver derives it.
pub fn manager_name(field_manager: Option<&str>, user_agent: Option<&str>) -> String {
    if let Some(m) = field_manager.filter(|m| !m.is_empty()) {
        return m.to_string();
    }
    let ua = user_agent.unwrap_or("");
    let prefix = ua.split('/').next().unwrap_or("");
    prefix.chars().take(MAX_DERIVED_MANAGER_LEN).collect()
}

/// What a write is about: who writes, through which API version and subresource, and which parts
/// of the object the server keeps out of ownership.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub manager: &'a str,
    pub api_version: &'a str,
    /// `status` or another subresource name; empty for the object itself.
    pub subresource: &'a str,
    pub shape: Shape<'a>,
    /// Whether status has its own subresource (then writes to the object never own status).
    pub status_separate: bool,
    /// RFC 3339 time recorded on entries that change.
    pub now: &'a str,
}

/// Metadata the server owns: never part of anyone's field set.
const SERVER_META: &[&str] = &[
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "managedFields",
    "selfLink",
];

impl Context<'_> {
    /// The part of `obj` that managers can own through this write: the top-level fields
    /// [`Self::tracks_top_level`] admits, metadata without [`SERVER_META`].
    pub fn tracked(&self, obj: &Value) -> Value {
        let Value::Object(map) = obj else {
            return if self.subresource == "status" { Value::Object(serde_json::Map::new()) } else { obj.clone() };
        };
        let mut out = serde_json::Map::new();
        for (key, value) in map.iter().filter(|(k, _)| self.tracks_top_level(k)) {
            match value {
                Value::Object(meta) if key == "metadata" => {
                    let owned: serde_json::Map<String, Value> = meta
                        .iter()
                        .filter(|(f, _)| !SERVER_META.contains(&f.as_str()))
                        .map(|(f, v)| (f.clone(), v.clone()))
                        .collect();
                    if !owned.is_empty() {
                        out.insert(key.clone(), Value::Object(owned));
                    }
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        Value::Object(out)
    }

    /// Whether a top-level field of the object can be owned through this write (metadata only
    /// in part: not [`SERVER_META`]).
    pub(crate) fn tracks_top_level(&self, key: &str) -> bool {
        if self.subresource == "status" {
            return key == "status";
        }
        !(key == "apiVersion" || key == "kind" || (self.status_separate && key == "status"))
    }

    /// `full` with its tracked part replaced by `tracked`.
    pub(crate) fn untrack(&self, full: &Value, tracked: Value) -> Value {
        if self.subresource == "status" {
            let mut out = full.clone();
            if let Value::Object(m) = &mut out {
                match tracked.get("status") {
                    Some(s) => m.insert("status".into(), s.clone()),
                    None => m.remove("status"),
                };
            }
            return out;
        }
        let mut out = tracked;
        if !out.is_object() {
            out = Value::Object(serde_json::Map::new());
        }
        for k in ["apiVersion", "kind"] {
            if let Some(v) = full.get(k) {
                out[k] = v.clone();
            }
        }
        if self.status_separate
            && let Some(s) = full.get("status")
        {
            out["status"] = s.clone();
        }
        if let Some(Value::Object(meta)) = full.get("metadata") {
            for f in SERVER_META {
                if let Some(v) = meta.get(*f) {
                    if !out.get("metadata").is_some_and(Value::is_object) {
                        out["metadata"] = Value::Object(serde_json::Map::new());
                    }
                    out["metadata"][*f] = v.clone();
                }
            }
        }
        out
    }
}
