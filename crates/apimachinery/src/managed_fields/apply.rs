//! Server-side apply: merge an apply configuration into the live object, detect conflicts with
//! other managers, remove fields the applier dropped (when nobody else owns them), and record
//! the applier's `Apply` entry.

use serde_json::{Map, Value};

use super::Context;
use super::conflicts::Conflict;
use super::entries::{self, Entry, Operation};
use super::fieldset::{PathElement, Set};
use super::record::owned_by_others;
use super::shape::{ListType, Shape};
use super::walk::{Mode, diff, fields_of};

/// The object after applying `applied` to `live` (None: the object does not exist yet), with its
/// managedFields; or the conflicts when `force` is false and another manager owns a field the
/// configuration changes.
pub fn apply(live: Option<&Value>, applied: &Value, ctx: &Context<'_>, force: bool) -> Result<Value, Vec<Conflict>> {
    let applied_t = without_nulls(ctx.tracked(applied));
    let applied_set = fields_of(&applied_t, ctx.shape, Mode::Apply);
    let Some(live) = live else {
        // A create: merging into nothing gives the configuration itself, and there is no
        // other manager to conflict with and nothing applied before to drop.
        return Ok(finish(ctx, applied, applied_t, vec![own_entry(ctx, applied_set)]));
    };
    let mut list = entries::read_stored(live);
    let is_mine = |e: &Entry| e.is(ctx.manager, Operation::Apply, ctx.subresource);
    let live_t = ctx.tracked(live);
    let mut merged = merge(&live_t, &applied_t, ctx.shape);
    let changed = diff(&live_t, &merged, ctx.shape).changed;

    let mut conflicts = Vec::new();
    for e in list.iter_mut().filter(|e| !is_mine(e)) {
        let clash = e.set().intersection(&changed);
        if clash.is_empty() {
            continue;
        }
        for path in clash.paths() {
            conflicts.push(Conflict { manager: e.describe(), path });
        }
        if force {
            e.remove(&clash);
        }
    }
    if !force && !conflicts.is_empty() {
        return Err(conflicts);
    }

    // Fields this manager applied before and leaves out now go, unless someone else owns them.
    let previous = list.iter().find(|e| is_mine(e)).map(|e| e.set().clone()).unwrap_or_default();
    let others = owned_by_others(&list, is_mine);
    let dropped = previous.difference(&applied_set);
    for path in dropped.paths() {
        // A node whose fields someone (the applier included) still owns stays: dropping the
        // `.` of `f:data` while still applying `f:data.f:x` keeps `data`.
        if !others.contains_prefix(&path) && !applied_set.contains_prefix(&path) {
            remove_path(&mut merged, &path, ctx.shape);
        }
    }
    let gone = diff(&live_t, &merged, ctx.shape).removed;
    for e in list.iter_mut() {
        e.remove(&gone);
    }

    let object_changed = merged != live_t;
    match list.iter_mut().find(|e| is_mine(e)) {
        Some(e) => {
            if object_changed || *e.set() != applied_set || e.api_version != ctx.api_version {
                e.time = Some(ctx.now.to_string());
            }
            e.replace_set(applied_set);
            e.api_version = ctx.api_version.to_string();
        }
        None => list.push(own_entry(ctx, applied_set)),
    }
    Ok(finish(ctx, live, merged, list))
}

/// The applier's entry when it owns nothing yet.
fn own_entry(ctx: &Context<'_>, set: Set) -> Entry {
    Entry::new(ctx.manager, Operation::Apply, ctx.api_version, ctx.now, ctx.subresource, set)
}

/// The object to store: the merged fields put back into `base` (the live object, or the
/// configuration on a create) with the managedFields `list`.
fn finish(ctx: &Context<'_>, base: &Value, merged: Value, list: Vec<Entry>) -> Value {
    let mut out = ctx.untrack(base, merged);
    if !out.get("metadata").is_some_and(Value::is_object) {
        out["metadata"] = Value::Object(Map::new());
    }
    entries::write(&mut out, list);
    out
}

/// `applied` merged into `live`: objects field by field, keyed lists item by item, sets as a
/// union; anything else is replaced.
pub fn merge(live: &Value, applied: &Value, shape: Shape<'_>) -> Value {
    match (live, applied) {
        (Value::Object(l), Value::Object(a)) if !shape.atomic_object() => {
            let mut out = l.clone();
            for (k, av) in a {
                let merged = match l.get(k) {
                    Some(lv) => merge(lv, av, shape.field(k)),
                    None => av.clone(),
                };
                out.insert(k.clone(), merged);
            }
            Value::Object(out)
        }
        (Value::Array(l), Value::Array(a)) => match shape.list_type() {
            ListType::Set => {
                let mut out = l.clone();
                out.extend(a.iter().filter(|v| !l.contains(v)).cloned());
                Value::Array(out)
            }
            lt if lt.is_keyed() => {
                let mut out = l.clone();
                let item_shape = shape.item();
                for item in a {
                    let Some(key) = lt.key_of(item) else { return applied.clone() };
                    match out.iter().position(|o| lt.key_of(o).as_ref() == Some(&key)) {
                        Some(i) => out[i] = merge(&out[i], item, item_shape),
                        None => out.push(item.clone()),
                    }
                }
                Value::Array(out)
            }
            _ => applied.clone(),
        },
        _ => applied.clone(),
    }
}

/// Removes the value at `path` from `obj`, if it is there.
fn remove_path(obj: &mut Value, path: &[PathElement], shape: Shape<'_>) {
    let Some((first, rest)) = path.split_first() else { return };
    match (first, obj) {
        (PathElement::Field(name), Value::Object(m)) => {
            if rest.is_empty() {
                m.remove(name);
            } else if let Some(v) = m.get_mut(name) {
                remove_path(v, rest, shape.field(name));
            }
        }
        (PathElement::Key(_), Value::Array(items)) => {
            let lt = shape.list_type();
            let Some(i) = items.iter().position(|it| lt.key_of(it).as_ref() == Some(first)) else { return };
            if rest.is_empty() {
                items.remove(i);
            } else {
                remove_path(&mut items[i], rest, shape.item());
            }
        }
        (PathElement::Value(v), Value::Array(items)) if rest.is_empty() => {
            items.retain(|it| &it.to_string() != v);
        }
        _ => {}
    }
}

/// Nulls in an apply configuration carry no value to own; kube treats them as absent.
fn without_nulls(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            Value::Object(m.into_iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k, without_nulls(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(without_nulls).collect()),
        other => other,
    }
}
