//! Where the store's keys live in etcd: an optional namespace in front of every key, and the
//! byte ranges that prefix reads and watches cover.

use bytes::Bytes;

use super::super::KeyValue;

/// Maps the store's keys (`/registry/...`) to etcd keys and back.
#[derive(Debug, Clone)]
pub(super) struct Namespace(Vec<u8>);

impl Namespace {
    pub(super) fn new(prefix: &str) -> Self {
        Namespace(prefix.as_bytes().to_vec())
    }

    /// The etcd key of a store key.
    pub(super) fn key(&self, key: &str) -> Vec<u8> {
        let mut full = Vec::with_capacity(self.0.len() + key.len());
        full.extend_from_slice(&self.0);
        full.extend_from_slice(key.as_bytes());
        full
    }

    /// The store key of an etcd key read from this namespace. etcd keys are bytes; a key that
    /// is not UTF-8 was not written by this store and is shown with replacement characters
    /// rather than dropped.
    pub(super) fn strip(&self, key: &[u8]) -> String {
        String::from_utf8_lossy(key.strip_prefix(self.0.as_slice()).unwrap_or(key)).into_owned()
    }

    /// A key to send with reads that only want the response header (the revision) or the
    /// verdict on a revision: etcd refuses an empty key.
    pub(super) fn probe_key(&self) -> Vec<u8> {
        if self.0.is_empty() { vec![0] } else { self.0.clone() }
    }

    /// A key-value read from this namespace, as the store shows it.
    pub(super) fn key_value(&self, kv: &etcd_client::KeyValue) -> KeyValue {
        KeyValue {
            key: self.strip(kv.key()),
            value: Bytes::copy_from_slice(kv.value()),
            create_revision: kv.create_revision(),
            mod_revision: kv.mod_revision(),
        }
    }

    /// The `[start, end)` range of every key starting with `prefix`.
    pub(super) fn prefix_range(&self, prefix: &str) -> (Vec<u8>, Vec<u8>) {
        let start = self.key(prefix);
        let end = range_end(&start);
        (if start.is_empty() { vec![0] } else { start }, end)
    }
}

/// The exclusive end of the range of keys starting with `prefix`: the prefix with its last
/// byte below 0xff incremented (etcd's `GetPrefixRangeEnd`). `\0` means "to the end of the key
/// space", which is what an empty or all-0xff prefix needs.
fn range_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    vec![0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_ranges_cover_exactly_the_prefix() {
        let plain = Namespace::new("");
        assert_eq!(plain.prefix_range("/registry/a/"), (b"/registry/a/".to_vec(), b"/registry/a0".to_vec()));
        // The whole key space: etcd spells it ["\0", "\0").
        assert_eq!(plain.prefix_range(""), (vec![0], vec![0]));
        let spaced = Namespace::new("/plane-a");
        assert_eq!(spaced.prefix_range(""), (b"/plane-a".to_vec(), b"/plane-b".to_vec()));
        assert_eq!(spaced.key("/registry/x"), b"/plane-a/registry/x");
        assert_eq!(spaced.strip(b"/plane-a/registry/x"), "/registry/x");
        assert_eq!(range_end(&[b'a', 0xff, 0xff]), b"b");
        assert_eq!(range_end(&[0xff]), vec![0]);
    }
}
