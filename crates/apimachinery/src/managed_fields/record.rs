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
    let sent = entries::raw(new).cloned();
    let stored = old.and_then(entries::raw).cloned();
    let mut list = match (&sent, &stored) {
        (Some(s), st) if Some(s) != st.as_ref() => entries::read(new),
        _ => old.map(entries::read).unwrap_or_default(),
    };
    let empty = Value::Object(serde_json::Map::new());
    let before = old.map(|o| ctx.tracked(o)).unwrap_or(empty);
    let d = diff(&before, &ctx.tracked(new), ctx.shape);
    if !d.changed.is_empty() || !d.removed.is_empty() {
        for e in list.iter_mut() {
            e.set = e.set.difference(&d.removed);
            if !e.is(ctx.manager, Operation::Update, ctx.subresource) {
                e.set = e.set.difference(&d.changed);
            }
        }
        match list.iter_mut().find(|e| e.is(ctx.manager, Operation::Update, ctx.subresource)) {
            Some(e) => {
                e.set.union_with(&d.changed);
                e.time = Some(ctx.now.to_string());
                e.api_version = ctx.api_version.to_string();
            }
            None => list.push(Entry {
                manager: ctx.manager.to_string(),
                operation: Operation::Update,
                api_version: ctx.api_version.to_string(),
                time: Some(ctx.now.to_string()),
                subresource: ctx.subresource.to_string(),
                set: d.changed.clone(),
            }),
        }
    }
    entries::write(new, list);
}

/// The union of the sets of every entry but the ones `skip` picks.
pub(crate) fn owned_by_others(list: &[Entry], skip: impl Fn(&Entry) -> bool) -> Set {
    let mut all = Set::new();
    for e in list.iter().filter(|e| !skip(e)) {
        all.union_with(&e.set);
    }
    all
}
