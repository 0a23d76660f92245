//! LIST with label and field selectors, limit/continue paging at one snapshot revision, and
//! kube-apiserver's resourceVersion / resourceVersionMatch semantics.

use axum::http::StatusCode;
use axum::response::Response;
use karmadactl_apimachinery::{ApiError, FieldSelector, LabelSelector};
use karmadactl_store::{KeyValue, ListOptions, StoreError};
use serde_json::{Value, json};

use crate::registry::ResourceDef;

use crate::filters::dispatch::{Call, json_body_response};
use crate::handlers::continue_token::ContinueToken;
use crate::handlers::served_json::ServedType;
use crate::handlers::table::{self, Output, TableBuilder};
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

const CONTINUE_EXPIRED: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// The label and field selectors of a list or watch.
pub struct Filter {
    labels: Option<LabelSelector>,
    fields: Option<FieldSelector>,
}

impl Filter {
    pub fn from_call(call: &Call, def: &ResourceDef) -> Result<Self, ApiError> {
        let labels = match call.param("labelSelector").filter(|s| !s.trim().is_empty()) {
            Some(s) => Some(LabelSelector::parse(s).map_err(|e| ApiError::bad_request(e.to_string()))?),
            None => None,
        };
        let fields = match call.param("fieldSelector").filter(|s| !s.trim().is_empty()) {
            Some(s) => {
                let sel = FieldSelector::parse(s).map_err(|e| ApiError::bad_request(e.to_string()))?;
                let probe = json!({});
                for f in sel.fields() {
                    if super::fields::value(def, &probe, f).is_none() {
                        return Err(ApiError::bad_request(format!("field label not supported: {f}")));
                    }
                }
                Some(sel)
            }
            None => None,
        };
        Ok(Self { labels, fields })
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_none() && self.fields.is_none()
    }

    pub fn matches(&self, def: &ResourceDef, obj: &Value) -> bool {
        if let Some(l) = &self.labels
            && !l.matches(&object::labels(obj))
        {
            return false;
        }
        if let Some(f) = &self.fields {
            let lookup = |field: &str| super::fields::value(def, obj, field);
            if !f.matches(&lookup) {
                return false;
            }
        }
        true
    }
}

impl Filter {
    /// Whether a stored object passes. A label selector alone reads only the labels from the
    /// stored bytes: a controller listing its dependents by selector made the server decode
    /// every object of the namespace, and decoding, not matching, was the cost of such a LIST.
    fn matches_stored(&self, def: &ResourceDef, kv: &KeyValue) -> Result<bool, ApiError> {
        match (&self.labels, &self.fields) {
            (None, None) => Ok(true),
            (Some(labels), None) => match serde_json::from_slice::<Labelled>(&kv.value) {
                Ok(l) => Ok(labels.matches(&l.metadata.labels.unwrap_or_default())),
                // Labels this shape cannot hold (never written by this server): judge the
                // object as decoded, as before.
                Err(_) => Ok(self.matches(def, &store_access::decode(kv)?)),
            },
            _ => Ok(self.matches(def, &store_access::decode(kv)?)),
        }
    }
}

/// The part of a stored object a label selector reads; every other field is skipped unread.
#[derive(serde::Deserialize)]
struct Labelled {
    #[serde(default)]
    metadata: LabelsOnly,
}

#[derive(serde::Deserialize, Default)]
struct LabelsOnly {
    #[serde(default)]
    labels: Option<std::collections::BTreeMap<String, String>>,
}

pub async fn list(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    let output = call.output()?;
    if let Output::Partial(_) = output {
        return Err(table::partial_of_list());
    }
    let filter = Filter::from_call(call, def)?;
    let limit = match call.param("limit") {
        Some(l) if !l.is_empty() => {
            l.parse::<i64>().map_err(|_| ApiError::bad_request(format!("invalid limit {l:?}")))?.max(0) as usize
        }
        _ => 0,
    };
    let ns = super::namespace_of(def, call);
    let prefix = store_access::prefix(&def.group, &def.plural, ns);

    let mut opts = ListOptions::default();
    // What remains after the previous page, from its continue token.
    let mut known_remaining = None;
    if let Some(token) = call.param("continue").filter(|t| !t.is_empty()) {
        let token = ContinueToken::decode(token).ok_or_else(|| {
            ApiError::bad_request(
                "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
            )
        })?;
        opts.revision = Some(token.rv);
        opts.start_after = Some(format!("{prefix}{}", token.start));
        known_remaining = token.remaining;
    } else {
        opts.revision = requested_revision(state, call)?;
    }

    // A selector hides remainingItemCount, as in kube-apiserver; there is nothing to count.
    // Without a client limit nothing is counted either: the pages are this server's own.
    let skip_count = !filter.is_empty() || known_remaining.is_some() || limit == 0;
    let mut reservation = state.list_budget.reservation();
    let mut items = Vec::new();
    let mut read = 0i64;
    let mut continue_token = None;
    let mut remaining = None;
    let revision;
    loop {
        // Without a client limit the collection is read in pages of its own, uncounted, so the
        // memory budget is checked before each page rather than after the whole collection.
        let wanted = if limit > 0 { (limit - items.len()).max(1) } else { usize::MAX };
        opts.limit = Some(wanted.min(INTERNAL_PAGE));
        // Only the page that may end the client's page needs what remains after it.
        opts.skip_remaining_count = skip_count || wanted > INTERNAL_PAGE;
        let page = match state.store.list(&prefix, opts.clone()).await {
            Ok(p) => p,
            Err(StoreError::Compacted { .. }) if call.param("continue").is_some() => {
                return Err(ApiError::gone(CONTINUE_EXPIRED));
            }
            Err(e) => return Err(store_access::store_error(e, &def.group, &def.plural, "")),
        };
        let last_key = page.items.last().map(|kv| kv.key.clone());
        read += page.items.len() as i64;
        let page_cost: usize = page.items.iter().map(cost).sum();
        if let Err(e) = reservation.take(page_cost) {
            state.metrics.request_terminated(&call.info.verb, &def.plural, e.code);
            return Err(e);
        }
        let mut kept_cost = 0;
        for kv in page.items {
            // The response splices the stored bytes; only a selector reads the object.
            if filter.matches_stored(def, &kv)? {
                kept_cost += cost(&kv);
                items.push(kv);
            }
        }
        reservation.release(page_cost - kept_cost);
        opts.revision = Some(page.revision);
        let full = limit > 0 && items.len() >= limit;
        match page.continue_after {
            Some(after) if full => {
                let start = last_key.unwrap_or(after).trim_start_matches(&prefix).to_string();
                if filter.is_empty() {
                    remaining = known_remaining.map(|r| r - read).or(page.remaining);
                }
                continue_token = Some(ContinueToken::new(page.revision, start).with_remaining(remaining).encode());
                revision = page.revision;
                break;
            }
            Some(after) => opts.start_after = Some(after),
            None => {
                revision = page.revision;
                break;
            }
        }
    }

    let api_version = super::api_version(def);
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if let Some(c) = continue_token {
        metadata["continue"] = Value::String(c);
    }
    if let Some(r) = remaining.filter(|r| *r > 0) {
        metadata["remainingItemCount"] = json!(r);
    }
    let served = ServedType::new(&api_version, &def.kind);
    // Every form is written from the stored bytes: decoding each object into a value tree and
    // serialising it again cost ten times the plain list for a Table.
    let body = match output {
        Output::Table(options) => TableBuilder::new(def, options).list_bytes(&items, &served, &metadata)?,
        Output::PartialList(version) => table::partial_list_bytes(&items, &metadata, version)?,
        Output::Objects | Output::Partial(_) => {
            let head = json!({"kind": def.list_kind, "apiVersion": api_version, "metadata": metadata});
            list_body(&head, &items, &served)?
        }
    };
    drop(items);
    Ok(json_body_response(StatusCode::OK, reservation.body(body)))
}

/// The most objects read from the store before the memory budget is checked again (kube's
/// clients page by 500).
const INTERNAL_PAGE: usize = 1000;

/// What a listed object holds until the response is sent: itself, and its part of the
/// response (about as large, plus its type fields).
fn cost(kv: &KeyValue) -> usize {
    2 * kv.value.len() + kv.key.len() + 128
}

/// The list document: `head`'s members (kind, apiVersion, metadata), then `items` spliced
/// from their stored bytes, so no object is decoded or serialised again.
fn list_body(head: &Value, items: &[KeyValue], served: &ServedType) -> Result<Vec<u8>, ApiError> {
    let head = serde_json::to_vec(head).map_err(|e| ApiError::internal(&format!("serialising a list: {e}")))?;
    // `head` is a non-empty object: reopen it after its last member.
    let Some((b'}', members)) = head.split_last() else {
        return Err(ApiError::internal("a list head is not a JSON object"));
    };
    let stored: usize = items.iter().map(|kv| kv.value.len()).sum();
    // Each object grows by its type fields and resourceVersion: about 64 bytes.
    let mut out = Vec::with_capacity(members.len() + stored + items.len() * 64 + 16);
    out.extend_from_slice(members);
    out.extend_from_slice(b",\"items\":[");
    for (i, kv) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        store_access::append_served(&mut out, kv, served)?;
    }
    out.extend_from_slice(b"]}");
    Ok(out)
}

/// The snapshot revision a list reads at: latest for "" and "0" (kube serves "0" from its
/// cache, which is as new as the store here); the exact revision for `resourceVersionMatch=Exact`;
/// for `NotOlderThan` (or no match) the latest, unless the client asks for the future.
fn requested_revision(state: &ApiState, call: &Call) -> Result<Option<i64>, ApiError> {
    let rv = call.param("resourceVersion").unwrap_or("");
    let matching = call.param("resourceVersionMatch").unwrap_or("");
    if rv.is_empty() {
        if !matching.is_empty() {
            return Err(ApiError::bad_request("resourceVersionMatch is forbidden unless resourceVersion is provided"));
        }
        return Ok(None);
    }
    let Some(rev) = object::parse_resource_version(rv) else {
        return Err(ApiError::bad_request(format!("invalid resource version: {rv}")));
    };
    match matching {
        "Exact" => {
            if rev == 0 {
                return Err(ApiError::bad_request(
                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
                ));
            }
            not_in_the_future(state, rev)?;
            Ok(Some(rev))
        }
        "" | "NotOlderThan" => {
            not_in_the_future(state, rev)?;
            Ok(None)
        }
        other => Err(ApiError::bad_request(format!(
            "unsupported resourceVersionMatch {other:?}: supported values are \"Exact\" and \"NotOlderThan\""
        ))),
    }
}

/// A read of a resourceVersion the store has not reached is answered as kube's watch cache
/// answers it (504 with the ResourceVersionTooLarge cause), at once: this store has no cache to
/// wait for, so only a later write could make it valid.
pub(super) fn not_in_the_future(state: &ApiState, rev: i64) -> Result<(), ApiError> {
    let current = state.store.current_revision();
    if rev > current {
        return Err(ApiError::too_large_resource_version(rev, current));
    }
    Ok(())
}
