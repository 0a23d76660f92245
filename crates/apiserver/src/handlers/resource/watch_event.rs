//! Watch events as lines on the wire, made once per store event and shared by its watchers.
//!
//! Every watcher of a resource gets its own clone of each store event; without sharing, a
//! thousand watchers decode and serialise the same object a thousand times. The first watcher
//! that needs a representation (event type, apiVersion, kind) encodes it and leaves the bytes
//! in the event's memo; the others send the same `Bytes`. The decoded object, needed only for
//! selectors, is shared the same way.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use bytes::Bytes;
use serde_json::Value;

use karmadactl_apimachinery::ApiError;
use karmadactl_store::{Event, EventKind, KeyValue};

use crate::handlers::served_json::ServedType;
use crate::storage::store_access;

/// Which objects a watcher wants (its selectors and watched name).
pub type Wanted = dyn Fn(&Value) -> bool + Send + Sync;

/// What the watchers of one store event share.
#[derive(Default)]
pub struct SharedEvent {
    now: OnceLock<Option<Value>>,
    before: OnceLock<Option<Value>>,
    /// Encoded lines by event type and served type; usually one.
    lines: Mutex<Vec<(&'static str, ServedType, Bytes)>>,
}

impl SharedEvent {
    /// The shared state of `event` (a private one should its memo hold something else).
    pub fn of(event: &Event) -> Arc<SharedEvent> {
        event.memo.get_or_init(SharedEvent::default).unwrap_or_default()
    }

    /// The event type a watcher sees, or `None` when it sees nothing. `wanted` (selectors, a
    /// watched name) is `None` when the watcher wants every object: then nothing is decoded.
    /// Moving into or out of the selection reads as ADDED or DELETED, as kube reports it.
    pub fn kind_for(&self, event: &Event, wanted: Option<&Wanted>) -> Option<&'static str> {
        let Some(wanted) = wanted else {
            return Some(match event.kind {
                EventKind::Created => "ADDED",
                EventKind::Updated => "MODIFIED",
                EventKind::Deleted => "DELETED",
            });
        };
        let now = self.now.get_or_init(|| store_access::decode(&event.kv).ok()).as_ref()?;
        match event.kind {
            EventKind::Created => wanted(now).then_some("ADDED"),
            EventKind::Deleted => wanted(now).then_some("DELETED"),
            EventKind::Updated => {
                let before = self.before.get_or_init(|| event.prev.as_ref().and_then(|p| store_access::decode(p).ok()));
                match (before.as_ref().is_some_and(wanted), wanted(now)) {
                    (true, true) => Some("MODIFIED"),
                    (false, true) => Some("ADDED"),
                    (true, false) => Some("DELETED"),
                    (false, false) => None,
                }
            }
        }
    }

    /// The line for this event as `kind`, objects served as `served`; `None` when the stored
    /// object cannot be read (the event is skipped, as it always was).
    pub fn line(&self, event: &Event, kind: &'static str, served: &ServedType) -> Option<Bytes> {
        // Watchers asking while the first one encodes wait for its bytes instead of encoding too.
        let mut lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, _, line)) = lines.iter().find(|(k, s, _)| *k == kind && s == served) {
            return Some(line.clone());
        }
        let line = object_line(kind, &event.kv, served).ok()?;
        lines.push((kind, served.clone(), line.clone()));
        Some(line)
    }
}

/// `{"type":KIND,"object":OBJECT}` and a newline, the object spliced from its stored bytes.
pub fn object_line(kind: &str, kv: &KeyValue, served: &ServedType) -> Result<Bytes, ApiError> {
    let mut out = start_line(kind, kv.value.len() + 64);
    store_access::append_served(&mut out, kv, served)?;
    Ok(end_line(out))
}

/// A line for an object the server makes itself (BOOKMARK, ERROR).
pub fn value_line(kind: &str, object: &Value) -> Bytes {
    let mut out = start_line(kind, 256);
    // Serialising a Value into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut out, object);
    end_line(out)
}

fn start_line(kind: &str, object_len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(object_len + 32);
    out.extend_from_slice(b"{\"type\":");
    let _ = serde_json::to_writer(&mut out, kind);
    out.extend_from_slice(b",\"object\":");
    out
}

fn end_line(mut out: Vec<u8>) -> Bytes {
    out.extend_from_slice(b"}\n");
    Bytes::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::object;
    use serde_json::json;

    fn kv(obj: &Value, revision: i64) -> KeyValue {
        KeyValue {
            key: "/registry/core/configmaps/d/a".into(),
            value: object::to_stored_bytes(obj),
            create_revision: 3,
            mod_revision: revision,
        }
    }

    fn parse(line: &[u8]) -> Value {
        assert_eq!(line.last(), Some(&b'\n'));
        serde_json::from_slice(line).unwrap()
    }

    #[test]
    fn watchers_share_one_encoding_per_representation() {
        let obj = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v"}});
        let event = Event::new(EventKind::Created, 9, kv(&obj, 9), None);
        let v1 = ServedType::new("v1", "ConfigMap");
        let lines: Vec<Bytes> = (0..3)
            .map(|_| {
                // Each watcher holds its own clone of the event, as the hub hands them out.
                let mine = event.clone();
                let shared = SharedEvent::of(&mine);
                let kind = shared.kind_for(&mine, None).unwrap();
                shared.line(&mine, kind, &v1).unwrap()
            })
            .collect();
        assert!(lines.windows(2).all(|w| w[0].as_ptr() == w[1].as_ptr()), "one buffer for every watcher");
        assert_eq!(
            parse(&lines[0]),
            json!({"type": "ADDED", "object": {"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "a", "resourceVersion": "9"}, "data": {"k": "v"}}})
        );
        // Another served version of the same event is its own line.
        let other = SharedEvent::of(&event).line(&event, "ADDED", &ServedType::new("v2", "ConfigMap")).unwrap();
        assert_ne!(other.as_ptr(), lines[0].as_ptr());
        assert_eq!(parse(&other)["object"]["apiVersion"], "v2");
        assert_eq!(parse(&other)["object"]["metadata"]["resourceVersion"], "9");
    }

    #[test]
    fn selectors_see_moves_in_and_out_as_added_and_deleted() {
        let labelled = |v: &str| json!({"metadata": {"name": "a", "labels": {"app": v}}});
        let wants_web = |o: &Value| object::labels(o).get("app").map(String::as_str) == Some("web");
        let update = |from: &str, to: &str| {
            Event::new(EventKind::Updated, 5, kv(&labelled(to), 5), Some(kv(&labelled(from), 4)))
        };
        let seen = |e: &Event| SharedEvent::of(e).kind_for(e, Some(&wants_web));
        assert_eq!(seen(&update("web", "web")), Some("MODIFIED"));
        assert_eq!(seen(&update("db", "web")), Some("ADDED"));
        assert_eq!(seen(&update("web", "db")), Some("DELETED"));
        assert_eq!(seen(&update("db", "db")), None);
        let deleted = Event::new(EventKind::Deleted, 6, kv(&labelled("web"), 6), Some(kv(&labelled("web"), 5)));
        assert_eq!(seen(&deleted), Some("DELETED"));
        // A DELETED event carries the last state, at the delete's revision.
        let line = SharedEvent::of(&deleted).line(&deleted, "DELETED", &ServedType::new("v1", "ConfigMap")).unwrap();
        let line = parse(&line);
        assert_eq!(line["object"]["metadata"]["labels"]["app"], "web");
        assert_eq!(line["object"]["metadata"]["resourceVersion"], "6");
        // Without selectors the store's kind maps straight through.
        let plain = update("db", "db");
        assert_eq!(SharedEvent::of(&plain).kind_for(&plain, None), Some("MODIFIED"));
    }

    #[test]
    fn unreadable_objects_are_skipped() {
        let bad =
            KeyValue { key: "/k".into(), value: Bytes::from_static(b"{not json"), create_revision: 1, mod_revision: 1 };
        let event = Event::new(EventKind::Created, 1, bad, None);
        let shared = SharedEvent::of(&event);
        assert_eq!(shared.line(&event, "ADDED", &ServedType::new("v1", "ConfigMap")), None);
        assert_eq!(shared.kind_for(&event, Some(&|_: &Value| true)), None);
    }

    #[test]
    fn server_made_lines_are_framed_the_same_way() {
        let line = value_line("BOOKMARK", &json!({"kind": "ConfigMap", "metadata": {"resourceVersion": "3"}}));
        assert_eq!(
            parse(&line),
            json!({"type": "BOOKMARK", "object": {"kind": "ConfigMap", "metadata": {"resourceVersion": "3"}}})
        );
    }
}
