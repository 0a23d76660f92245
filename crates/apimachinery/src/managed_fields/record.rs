//! Ownership after a create, update or non-apply patch: the writer takes the fields it set or
//! changed (an `Update` entry), and other managers lose them.

use serde_json::{Map, Value};

use super::Context;
use super::entries::{self, Entry, Operation};
use super::fieldset::Set;
use super::walk::diff;

/// Records the write of `new` over `old` (None for a create) in `new`'s managedFields.
///
/// Managed fields a client sends that differ from the stored ones replace them (kubectl's
/// client-side-to-server-side apply migration rewrites them this way); otherwise the stored ones
/// carry over.
pub fn record_update(old: Option<&Value>, new: &mut Value, ctx: &Context<'_>) {
    let stored = old.and_then(entries::raw);
    let (sent, sent_differs) = match entries::raw(new) {
        Some(s) => (true, Some(s) != stored),
        None => (false, false),
    };
    let mut list = if sent_differs { entries::read(new) } else { old.map(entries::read_stored).unwrap_or_default() };
    let (before, after) = match old {
        Some(old) => changed_parts(ctx, old, new),
        None => (Value::Object(serde_json::Map::new()), ctx.tracked(new)),
    };
    let d = diff(&before, &after, ctx.shape);
    let unchanged = d.changed.is_empty() && d.removed.is_empty();
    if unchanged && sent && !sent_differs {
        // The client sent back the stored entries and changed nothing anyone owns: they stand.
        return;
    }
    if !unchanged {
        for e in list.iter_mut() {
            e.remove(&d.removed);
            if !e.is(ctx.manager, Operation::Update, ctx.subresource) {
                e.remove(&d.changed);
            }
        }
        match list.iter_mut().find(|e| e.is(ctx.manager, Operation::Update, ctx.subresource)) {
            Some(e) => {
                e.add(&d.changed);
                e.time = Some(ctx.now.to_string());
                e.api_version = ctx.api_version.to_string();
            }
            None => list.push(Entry::new(
                ctx.manager,
                Operation::Update,
                ctx.api_version,
                ctx.now,
                ctx.subresource,
                d.changed.clone(),
            )),
        }
    }
    entries::write(new, list);
}

/// The tracked parts of `old` and `new`, of the fields that differ only (top-level fields, and
/// within metadata its fields): equal fields add nothing to a diff, and copying an unchanged
/// spec, or the managedFields themselves, on every write is most of the cost of recording it.
fn changed_parts(ctx: &Context<'_>, old: &Value, new: &Value) -> (Value, Value) {
    let (Value::Object(old_map), Value::Object(new_map)) = (old, new) else {
        return (ctx.tracked(old), ctx.tracked(new));
    };
    let (mut before, mut after) = (Map::new(), Map::new());
    for key in union_keys(old_map, new_map) {
        if !ctx.tracks_top_level(key) {
            continue;
        }
        let (o, n) = (old_map.get(key), new_map.get(key));
        if key == "metadata" {
            let empty = Map::new();
            let om = o.and_then(Value::as_object).unwrap_or(&empty);
            let nm = n.and_then(Value::as_object).unwrap_or(&empty);
            let (mb, ma) = differing(om, nm, |k| !super::SERVER_META.contains(&k));
            if !mb.is_empty() {
                before.insert(key.clone(), Value::Object(mb));
            }
            if !ma.is_empty() {
                after.insert(key.clone(), Value::Object(ma));
            }
            continue;
        }
        if o != n {
            if let Some(o) = o {
                before.insert(key.clone(), o.clone());
            }
            if let Some(n) = n {
                after.insert(key.clone(), n.clone());
            }
        }
    }
    (Value::Object(before), Value::Object(after))
}

/// The fields `keep` accepts whose values differ between `old` and `new`, from each side.
fn differing(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    keep: impl Fn(&str) -> bool,
) -> (Map<String, Value>, Map<String, Value>) {
    let (mut before, mut after) = (Map::new(), Map::new());
    for key in union_keys(old, new) {
        let (o, n) = (old.get(key), new.get(key));
        if !keep(key) || o == n {
            continue;
        }
        if let Some(o) = o {
            before.insert(key.clone(), o.clone());
        }
        if let Some(n) = n {
            after.insert(key.clone(), n.clone());
        }
    }
    (before, after)
}

/// The keys of `a`, then those of `b` that `a` lacks.
fn union_keys<'m>(a: &'m Map<String, Value>, b: &'m Map<String, Value>) -> impl Iterator<Item = &'m String> {
    a.keys().chain(b.keys().filter(|k| !a.contains_key(k.as_str())))
}

/// The union of the sets of every entry but the ones `skip` picks.
pub(crate) fn owned_by_others(list: &[Entry], skip: impl Fn(&Entry) -> bool) -> Set {
    let mut all = Set::new();
    for e in list.iter().filter(|e| !skip(e)) {
        all.union_with(e.set());
    }
    all
}
