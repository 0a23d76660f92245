//! Ownership after a create, update or non-apply patch: the writer takes the fields it set or
//! changed (an `Update` entry), and other managers lose them.

use serde_json::Value;

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

/// The tracked parts of `old` and `new`, of the top-level fields that differ only: equal fields
/// add nothing to a diff, and copying an unchanged spec on every status write is most of the
/// cost of recording it.
fn changed_parts(ctx: &Context<'_>, old: &Value, new: &Value) -> (Value, Value) {
    let (Value::Object(old_map), Value::Object(new_map)) = (old, new) else {
        return (ctx.tracked(old), ctx.tracked(new));
    };
    let differing = |map: &serde_json::Map<String, Value>, other: &serde_json::Map<String, Value>| {
        Value::Object(
            map.iter()
                .filter(|(k, v)| other.get(k.as_str()) != Some(*v))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        )
    };
    (ctx.tracked(&differing(old_map, new_map)), ctx.tracked(&differing(new_map, old_map)))
}

/// The union of the sets of every entry but the ones `skip` picks.
pub(crate) fn owned_by_others(list: &[Entry], skip: impl Fn(&Entry) -> bool) -> Set {
    let mut all = Set::new();
    for e in list.iter().filter(|e| !skip(e)) {
        all.union_with(e.set());
    }
    all
}
