//! `metadata.managedFields` entries, read from and written to objects.

use serde_json::{Map, Value, json};

use super::fieldset::Set;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// One manager's fields. Not comparable: two entries with the same fields may differ in
/// whether they still hold the `fieldsV1` they were read with.
#[derive(Debug, Clone)]
pub struct Entry {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    pub time: Option<String>,
    pub subresource: String,
    set: Set,
    /// The `fieldsV1` this entry was stored with, written back as long as `set` stays as read:
    /// encoding every manager's set again on each write was a measurable part of a write's cost.
    stored_fields: Option<Value>,
}

impl Entry {
    pub fn new(
        manager: &str,
        operation: Operation,
        api_version: &str,
        time: &str,
        subresource: &str,
        set: Set,
    ) -> Self {
        Entry {
            manager: manager.to_string(),
            operation,
            api_version: api_version.to_string(),
            time: Some(time.to_string()),
            subresource: subresource.to_string(),
            set,
            stored_fields: None,
        }
    }

    /// The fields this manager owns.
    pub fn set(&self) -> &Set {
        &self.set
    }

    pub fn replace_set(&mut self, set: Set) {
        self.set = set;
        self.stored_fields = None;
    }

    /// Gives up `paths` (those it owns).
    pub fn remove(&mut self, paths: &Set) {
        if self.set.intersects(paths) {
            self.set = self.set.difference(paths);
            self.stored_fields = None;
        }
    }

    /// Takes `paths` (those it does not own yet).
    pub fn add(&mut self, paths: &Set) {
        if !self.set.includes(paths) {
            self.set.union_with(paths);
            self.stored_fields = None;
        }
    }

    /// Whether this entry is the one `manager` writes with `operation` through `subresource`.
    pub fn is(&self, manager: &str, operation: Operation, subresource: &str) -> bool {
        self.manager == manager && self.operation == operation && self.subresource == subresource
    }

    /// How kube names a manager in conflicts: `"a"` for an applier, `"a" using apps/v1 at <time>`
    /// for an updater (only updates say which version they wrote, as kube-apiserver's
    /// `printManager` does).
    pub fn describe(&self) -> String {
        let mut s = format!("{:?}", self.manager);
        if !self.subresource.is_empty() {
            s.push_str(&format!(" with subresource {:?}", self.subresource));
        }
        if self.operation == Operation::Update {
            s.push_str(&format!(" using {}", self.api_version));
            if let Some(t) = &self.time {
                s.push_str(&format!(" at {t}"));
            }
        }
        s
    }

    fn into_json(self) -> Value {
        let mut m = Map::new();
        m.insert("manager".into(), json!(self.manager));
        m.insert("operation".into(), json!(self.operation.as_str()));
        m.insert("apiVersion".into(), json!(self.api_version));
        if let Some(t) = &self.time {
            m.insert("time".into(), json!(t));
        }
        m.insert("fieldsType".into(), json!("FieldsV1"));
        let fields = self.stored_fields.unwrap_or_else(|| self.set.to_fields_v1());
        m.insert("fieldsV1".into(), fields);
        if !self.subresource.is_empty() {
            m.insert("subresource".into(), json!(self.subresource));
        }
        Value::Object(m)
    }

    /// The entry in `v`; `stored`: `v` is as this server wrote it (its `fieldsV1` is already in
    /// the encoding [`Set`] writes), not as a client sent it.
    fn from_json(v: &Value, stored: bool) -> Option<Entry> {
        let operation = match v.get("operation").and_then(Value::as_str)? {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            _ => return None,
        };
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        Some(Entry {
            manager: s("manager"),
            operation,
            api_version: s("apiVersion"),
            time: v.get("time").and_then(Value::as_str).map(str::to_string),
            subresource: s("subresource"),
            set: Set::from_fields_v1(v.get("fieldsV1").unwrap_or(&Value::Null)),
            stored_fields: if stored { v.get("fieldsV1").cloned() } else { None },
        })
    }
}

/// The raw `managedFields` list of an object (None when absent or empty).
pub fn raw(obj: &Value) -> Option<&Vec<Value>> {
    obj.get("metadata").and_then(|m| m.get("managedFields")).and_then(Value::as_array).filter(|a| !a.is_empty())
}

/// The entries of an object a client sent; entries kube could not have written are dropped.
pub fn read(obj: &Value) -> Vec<Entry> {
    raw(obj).map(|a| a.iter().filter_map(|e| Entry::from_json(e, false)).collect()).unwrap_or_default()
}

/// The entries of a stored object.
pub fn read_stored(obj: &Value) -> Vec<Entry> {
    raw(obj).map(|a| a.iter().filter_map(|e| Entry::from_json(e, true)).collect()).unwrap_or_default()
}

/// Stores `entries` on `obj`, sorted as kube sorts them (applies first, then by time and
/// manager); no entries removes the field.
pub fn write(obj: &mut Value, mut entries: Vec<Entry>) {
    entries.retain(|e| !e.set.is_empty());
    entries.sort_by(|a, b| {
        a.operation.cmp(&b.operation).then_with(|| a.time.cmp(&b.time)).then_with(|| a.manager.cmp(&b.manager))
    });
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else { return };
    if entries.is_empty() {
        meta.remove("managedFields");
    } else {
        meta.insert("managedFields".into(), Value::Array(entries.into_iter().map(Entry::into_json).collect()));
    }
}
