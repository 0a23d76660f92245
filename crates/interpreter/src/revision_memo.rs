//! Replica revisions already worked out by a script. The binding controller revises a template
//! for each target cluster on every pass over a binding, and a binding passes several times
//! while nothing about the template changes (eviction, rescheduling, the eviction's end, a
//! fleet change); each Lua call builds a sandboxed state and compiles the script. A revision is
//! a function of the script, the object and the count, so the same three give the answer kept
//! here. The object is named by a version its caller vouches for (uid and resourceVersion of
//! the template it was derived from), which costs nothing to compare, unlike the object.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

/// Entries kept at most; when full the memo starts again, so memory stays bounded whatever
/// the number of templates.
const CAPACITY: usize = 8192;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    script: u64,
    version: String,
    replicas: i64,
}

struct Entry {
    /// The script itself, compared on a hit, so two scripts whose hashes collide never share.
    script: Arc<str>,
    revised: Value,
}

#[derive(Default)]
pub(crate) struct RevisionMemo {
    entries: Mutex<HashMap<Key, Entry>>,
}

impl RevisionMemo {
    pub(crate) fn get(&self, script: &str, version: &str, replicas: i64) -> Option<Value> {
        let key = Key { script: hash(script), version: version.to_string(), replicas };
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.get(&key).filter(|e| &*e.script == script).map(|e| e.revised.clone())
    }

    pub(crate) fn put(&self, script: &str, version: &str, replicas: i64, revised: &Value) {
        let key = Key { script: hash(script), version: version.to_string(), replicas };
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= CAPACITY {
            entries.clear();
        }
        entries.insert(key, Entry { script: Arc::from(script), revised: revised.clone() });
    }

    pub(crate) fn clear(&self) {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

fn hash(script: &str) -> u64 {
    let mut h = DefaultHasher::new();
    script.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_only_the_same_script_version_and_count() {
        let memo = RevisionMemo::default();
        memo.put("a", "uid/1", 2, &json!({"n": 2}));
        assert_eq!(memo.get("a", "uid/1", 2), Some(json!({"n": 2})));
        assert_eq!(memo.get("b", "uid/1", 2), None);
        assert_eq!(memo.get("a", "uid/2", 2), None);
        assert_eq!(memo.get("a", "uid/1", 3), None);
    }

    #[test]
    fn stays_bounded() {
        let memo = RevisionMemo::default();
        for i in 0..(CAPACITY as i64 + 10) {
            memo.put("a", "v", i, &json!(i));
        }
        assert!(memo.len() <= CAPACITY);
        assert_eq!(memo.get("a", "v", CAPACITY as i64 + 9), Some(json!(CAPACITY as i64 + 9)));
    }
}
