//! The field sets of objects and of the difference between two versions of one.

use serde_json::Value;

use super::fieldset::{PathElement, Set};
use super::shape::{ListType, Shape};

/// Which nodes count as owned fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// An apply configuration: leaves and list items; objects only through their fields.
    Apply,
    /// A write that sets whole values: objects that may be absent (maps, optional structs) are
    /// fields of their own too, as kube's `.` entries show.
    Update,
}

/// Objects every built-in has (Go value structs): kube never records them as fields of their
/// own, only what is inside.
const ALWAYS_PRESENT: &[&str] = &["metadata", "spec", "template", "strategy", "updateStrategy", "jobTemplate"];

/// The fields of `obj` (an object), as a set of paths from its root.
pub fn fields_of(obj: &Value, shape: Shape<'_>, mode: Mode) -> Set {
    let mut set = Set::new();
    let mut path = Vec::new();
    object_fields(obj, shape, mode, &mut path, &mut set);
    set
}

fn object_fields(obj: &Value, shape: Shape<'_>, mode: Mode, path: &mut Vec<PathElement>, set: &mut Set) {
    let Value::Object(m) = obj else { return };
    for (k, v) in m {
        path.push(PathElement::Field(k.clone()));
        value_fields(k, v, shape.field(k), mode, path, set);
        path.pop();
    }
}

/// Adds the node at `path` (holding `v`, reached by field `name` or as a list item) and what
/// lies below it.
fn value_fields(name: &str, v: &Value, shape: Shape<'_>, mode: Mode, path: &mut Vec<PathElement>, set: &mut Set) {
    match v {
        Value::Object(m) if !m.is_empty() && !shape.atomic_object() => {
            if mode == Mode::Update && !ALWAYS_PRESENT.contains(&name) {
                set.insert(path);
            }
            object_fields(v, shape, mode, path, set);
        }
        Value::Array(items) => match shape.list_type() {
            ListType::Set if !items.is_empty() => {
                for item in items {
                    path.push(PathElement::value(item));
                    set.insert(path);
                    path.pop();
                }
            }
            lt if lt.is_keyed() && !items.is_empty() => {
                let Some(keys) = items.iter().map(|i| lt.key_of(i)).collect::<Option<Vec<_>>>() else {
                    set.insert(path);
                    return;
                };
                let item_shape = shape.item();
                for (item, key) in items.iter().zip(keys) {
                    path.push(key);
                    set.insert(path);
                    object_fields(item, item_shape, mode, path, set);
                    path.pop();
                }
            }
            _ => set.insert(path),
        },
        _ => set.insert(path),
    }
}

/// What changed from `old` to `new` (both objects): fields added or given another value, and
/// fields that are gone.
#[derive(Debug, Default)]
pub struct Diff {
    pub changed: Set,
    pub removed: Set,
}

pub fn diff(old: &Value, new: &Value, shape: Shape<'_>) -> Diff {
    let mut d = Diff::default();
    diff_objects(old, new, shape, &mut Vec::new(), &mut d);
    d
}

fn diff_objects(old: &Value, new: &Value, shape: Shape<'_>, path: &mut Vec<PathElement>, d: &mut Diff) {
    let empty = serde_json::Map::new();
    let old_m = old.as_object().unwrap_or(&empty);
    let new_m = new.as_object().unwrap_or(&empty);
    for (k, nv) in new_m {
        path.push(PathElement::Field(k.clone()));
        let fshape = shape.field(k);
        match old_m.get(k) {
            None => value_fields(k, nv, fshape, Mode::Update, path, &mut d.changed),
            Some(ov) => diff_values(k, ov, nv, fshape, path, d),
        }
        path.pop();
    }
    for (k, ov) in old_m {
        if !new_m.contains_key(k) {
            path.push(PathElement::Field(k.clone()));
            value_fields(k, ov, shape.field(k), Mode::Update, path, &mut d.removed);
            path.pop();
        }
    }
}

fn diff_values(name: &str, old: &Value, new: &Value, shape: Shape<'_>, path: &mut Vec<PathElement>, d: &mut Diff) {
    if old == new {
        return;
    }
    match (old, new) {
        (Value::Object(om), Value::Object(nm)) if !shape.atomic_object() && !om.is_empty() && !nm.is_empty() => {
            diff_objects(old, new, shape, path, d)
        }
        (Value::Array(oa), Value::Array(na)) => match shape.list_type() {
            ListType::Set => {
                for v in na.iter().filter(|v| !oa.contains(v)) {
                    path.push(PathElement::value(v));
                    d.changed.insert(path);
                    path.pop();
                }
                for v in oa.iter().filter(|v| !na.contains(v)) {
                    path.push(PathElement::value(v));
                    d.removed.insert(path);
                    path.pop();
                }
            }
            lt if lt.is_keyed() => {
                let okeys: Option<Vec<_>> = oa.iter().map(|i| lt.key_of(i)).collect();
                let nkeys: Option<Vec<_>> = na.iter().map(|i| lt.key_of(i)).collect();
                let (Some(okeys), Some(nkeys)) = (okeys, nkeys) else {
                    d.changed.insert(path);
                    return;
                };
                let item_shape = shape.item();
                for (item, key) in na.iter().zip(&nkeys) {
                    path.push(key.clone());
                    match okeys.iter().position(|k| k == key) {
                        None => {
                            d.changed.insert(path);
                            object_fields(item, item_shape, Mode::Update, path, &mut d.changed);
                        }
                        Some(i) => diff_objects(&oa[i], item, item_shape, path, d),
                    }
                    path.pop();
                }
                for (item, key) in oa.iter().zip(&okeys) {
                    if !nkeys.contains(key) {
                        path.push(key.clone());
                        d.removed.insert(path);
                        object_fields(item, item_shape, Mode::Update, path, &mut d.removed);
                        path.pop();
                    }
                }
            }
            _ => d.changed.insert(path),
        },
        _ => {
            // A value of another type or an object emptied or filled: the node changed, and what
            // was below it is gone.
            let mut below = Set::new();
            value_fields(name, old, shape, Mode::Update, path, &mut below);
            let mut now = Set::new();
            value_fields(name, new, shape, Mode::Update, path, &mut now);
            d.changed.insert(path);
            d.changed.union_with(&now);
            d.removed.union_with(&below.difference(&now));
        }
    }
}
