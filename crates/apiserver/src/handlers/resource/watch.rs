//! WATCH: newline-delimited JSON events (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) resumed
//! from a resourceVersion or started from the current state, filtered by selectors (an object
//! that stops matching is reported DELETED, one that starts matching ADDED, as kube does).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use karmadactl_apimachinery::ApiError;
use karmadactl_store::{KeyValue, StoreError};
use serde_json::{Value, json};

use crate::registry::ResourceDef;

use super::list::Filter;
use super::watch_event::{SharedEvent, Wanted, object_line, value_line};
use crate::filters::dispatch::Call;
use crate::handlers::served_json::ServedType;
use crate::handlers::table::{self, Output};
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

/// How often a BOOKMARK is sent when the client allows them.
pub(super) const BOOKMARK_EVERY: Duration = Duration::from_secs(30);

pub async fn watch(state: Arc<ApiState>, call: &Call, def: Arc<ResourceDef>) -> Result<Response, ApiError> {
    match call.output()? {
        Output::Objects => {}
        Output::PartialList(_) => return Err(table::partial_list_of_object()),
        Output::Table(_) | Output::Partial(_) => return super::watch_table::watch_converted(state, call, def).await,
    }
    let filter = Filter::from_call(call, &def)?;
    let WatchRequest { name, prefix, timeout, bookmarks, send_initial, initial, start } =
        WatchRequest::from_call(&state, call, &def).await?;

    let api_version = super::api_version(&def);
    let served = ServedType::new(&api_version, &def.kind);
    let events = state.store.watch(&prefix, start);
    let guard = state.metrics.watch_opened();
    // Only a watcher with selectors or a name needs objects decoded.
    let wanted: Option<Box<Wanted>> = if name.is_none() && filter.is_empty() {
        None
    } else {
        let def = def.clone();
        Some(Box::new(move |obj: &Value| {
            name.as_deref().is_none_or(|n| object::meta_str(obj, "name") == Some(n)) && filter.matches(&def, obj)
        }))
    };
    let stream = async_stream::stream! {
        let _guard = guard;
        let wanted = wanted.as_deref();
        for kv in initial {
            let keep = match wanted {
                None => true,
                Some(w) => store_access::decode(&kv).is_ok_and(|obj| w(&obj)),
            };
            if keep && let Ok(line) = object_line("ADDED", &kv, &served) {
                yield Ok::<_, std::io::Error>(line);
            }
        }
        if send_initial && bookmarks {
            yield Ok(value_line("BOOKMARK", &bookmark(&api_version, &def.kind, start, true)));
        }
        let mut events = match events {
            Ok(s) => s,
            Err(e) => {
                yield Ok(value_line("ERROR", &expired(e, start)));
                return;
            }
        };
        let deadline = tokio::time::sleep(timeout);
        tokio::pin!(deadline);
        let mut ticker = tokio::time::interval(BOOKMARK_EVERY);
        ticker.tick().await;
        let mut last_rev = start;
        loop {
            tokio::select! {
                _ = &mut deadline => break,
                _ = ticker.tick(), if bookmarks => {
                    yield Ok(value_line("BOOKMARK", &bookmark(&api_version, &def.kind, last_rev, false)));
                }
                next = events.next() => {
                    let Some(next) = next else { break };
                    let event = match next {
                        Ok(ev) => ev,
                        Err(e) => {
                            yield Ok(value_line("ERROR", &expired(e, last_rev)));
                            break;
                        }
                    };
                    last_rev = event.revision;
                    let shared = SharedEvent::of(&event);
                    if let Some(kind) = shared.kind_for(&event, wanted)
                        && let Some(line) = shared.line(&event, kind, &served)
                    {
                        yield Ok(line);
                    }
                }
            }
        }
    };
    let mut resp = (StatusCode::OK, Body::from_stream(stream)).into_response();
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache, private"));
    Ok(resp)
}

/// What a watch request asks for, read the same way whatever form its events take.
pub(super) struct WatchRequest {
    /// The one object watched (legacy /watch/.../name), if any.
    pub name: Option<String>,
    pub prefix: String,
    pub timeout: Duration,
    pub bookmarks: bool,
    pub send_initial: bool,
    /// Objects to send as synthetic ADDED events before the stream.
    pub initial: Vec<KeyValue>,
    /// The revision the stream starts after.
    pub start: i64,
}

impl WatchRequest {
    pub(super) async fn from_call(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Self, ApiError> {
        let name = (!call.info.name.is_empty()).then(|| call.info.name.clone());
        let ns = super::namespace_of(def, call).map(str::to_string);
        // A watch of one object (legacy /watch/.../name) scans its collection and filters by name.
        let prefix = store_access::prefix(&def.group, &def.plural, ns.as_deref());
        let timeout = timeout(call.param("timeoutSeconds"), state.config.min_request_timeout);
        let bookmarks = call.param("allowWatchBookmarks").is_some_and(|v| v == "true" || v == "1");
        let send_initial = call.param("sendInitialEvents").is_some_and(|v| v == "true" || v == "1");
        let rv = call.param("resourceVersion").unwrap_or("");
        // "" and "0" (and sendInitialEvents) start from the current state: synthetic ADDED events.
        let (initial, start) = if send_initial || rv.is_empty() || rv == "0" {
            store_access::list_all_stored(state, &prefix).await?
        } else {
            let start = object::parse_resource_version(rv)
                .ok_or_else(|| ApiError::bad_request(format!("invalid resource version: {rv}")))?;
            super::list::not_in_the_future(state, start)?;
            (Vec::new(), start)
        };
        Ok(Self { name, prefix, timeout, bookmarks, send_initial, initial, start })
    }
}

/// How long a watch lasts. As kube-apiserver: no timeoutSeconds (or 0) picks a random time
/// in [min, 2*min) so watchers do not all reconnect at once, and a negative one ends the watch
/// at once. Unlike kube, a longer timeoutSeconds is capped at 2*min: a watch that never ends
/// holds its connection and buffers for good.
fn timeout(param: Option<&str>, min: Duration) -> Duration {
    match param.and_then(|t| t.parse::<i64>().ok()) {
        Some(s) if s < 0 => Duration::ZERO,
        Some(s) if s > 0 => Duration::from_secs(s.unsigned_abs()).min(min * 2),
        _ => {
            let mut bytes = [0u8; 4];
            let _ = ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut bytes);
            min.mul_f64(1.0 + f64::from(u32::from_le_bytes(bytes)) / (f64::from(u32::MAX) + 1.0))
        }
    }
}

pub(super) fn bookmark(api_version: &str, kind: &str, rev: i64, initial_end: bool) -> Value {
    let mut meta = json!({"resourceVersion": rev.to_string()});
    if initial_end {
        meta["annotations"] = json!({"k8s.io/initial-events-end": "true"});
    }
    json!({"kind": kind, "apiVersion": api_version, "metadata": meta})
}

/// The ERROR event for a watch that cannot continue (history compacted, or the watcher fell
/// behind): 410 Expired, so clients relist.
pub(super) fn expired(err: StoreError, rev: i64) -> Value {
    match err {
        StoreError::Compacted { requested, compacted } => {
            ApiError::resource_expired(requested, compacted + 1).to_status_json()
        }
        StoreError::WatcherTooSlow => {
            ApiError::gone(format!("the watch fell behind at resource version {rev}; relist and watch again"))
                .to_status_json()
        }
        other => ApiError::internal(&format!("watch failed: {other}")).to_status_json(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_follow_kube_and_are_capped_at_twice_the_minimum() {
        let min = Duration::from_secs(1800);
        assert_eq!(timeout(Some("60"), min), Duration::from_secs(60));
        assert_eq!(timeout(Some("3600"), min), Duration::from_secs(3600));
        assert_eq!(timeout(Some("999999999"), min), Duration::from_secs(3600));
        assert_eq!(timeout(Some("-5"), min), Duration::ZERO);
        for given in [None, Some("0")] {
            let t = timeout(given, min);
            assert!(t >= min && t < min * 2, "{given:?}: {t:?}");
        }
    }
}
