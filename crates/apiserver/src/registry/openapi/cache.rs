//! Built documents, kept until their group-version's resource definitions change: kubectl
//! fetches the index (which hashes every document) on each run that needs OpenAPI, and the full
//! built-in schemas make a document costly to build and serialise.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::registry::ResourceDef;

use super::Document;

struct Entry {
    /// The definitions the document was built from. Holding them keeps their addresses from
    /// being reused, so pointer equality tells whether the registry still has the same ones.
    defs: Vec<Arc<ResourceDef>>,
    doc: Arc<Document>,
}

static CACHE: Mutex<BTreeMap<String, Entry>> = Mutex::new(BTreeMap::new());

/// The document of `key` built from `defs`, built with `build` unless it already was.
pub fn get_or_build(
    key: &str,
    defs: Vec<Arc<ResourceDef>>,
    build: impl FnOnce(&[Arc<ResourceDef>]) -> Document,
) -> Arc<Document> {
    // A panic while building leaves nothing half-written in the map, so a poisoned lock is safe
    // to use.
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(entry) = cache.get(key) {
        let same = entry.defs.len() == defs.len() && entry.defs.iter().zip(&defs).all(|(a, b)| Arc::ptr_eq(a, b));
        if same {
            return Arc::clone(&entry.doc);
        }
    }
    let doc = Arc::new(build(&defs));
    cache.insert(key.to_string(), Entry { defs, doc: Arc::clone(&doc) });
    doc
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::registry::builtin;

    #[test]
    fn rebuilds_only_when_the_definitions_change() {
        // A key no served document uses, so other tests sharing the cache cannot evict it.
        let key = "test/rebuilds_only_when_the_definitions_change";
        let defs: Vec<Arc<ResourceDef>> = builtin::defs().into_iter().take(2).map(Arc::new).collect();
        let mut builds = 0;
        let mut build = |defs: &[Arc<ResourceDef>]| {
            builds += 1;
            Document::new(json!({"kinds": defs.iter().map(|d| d.kind.clone()).collect::<Vec<_>>()}))
        };
        let first = get_or_build(key, defs.clone(), &mut build);
        let again = get_or_build(key, defs.clone(), &mut build);
        assert!(Arc::ptr_eq(&first, &again));
        // Equal content in new allocations is a change: a CRD update replaces its definitions.
        let fresh: Vec<Arc<ResourceDef>> = builtin::defs().into_iter().take(2).map(Arc::new).collect();
        let rebuilt = get_or_build(key, fresh.clone(), &mut build);
        assert!(!Arc::ptr_eq(&first, &rebuilt));
        let fewer = get_or_build(key, fresh[..1].to_vec(), &mut build);
        assert_eq!(fewer.json, json!({"kinds": [defs[0].kind.clone()]}));
        assert_eq!(builds, 3);
    }
}
