//! WATCH for clients that asked for converted objects (one-row Tables, as `kubectl get -w`
//! wants, or PartialObjectMetadata): each watcher decodes and converts every event itself,
//! since the conversion depends on its options. Plain watches take the shared-bytes path in
//! `watch.rs`.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use karmadactl_apimachinery::ApiError;
use karmadactl_store::{Event, EventKind};
use serde_json::{Value, json};

use crate::registry::ResourceDef;

use super::list::Filter;
use super::watch::{BOOKMARK_EVERY, WatchRequest, bookmark, expired};
use crate::filters::dispatch::Call;
use crate::handlers::table::{self, MetaVersion, Output, TableBuilder};
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

pub async fn watch_converted(state: Arc<ApiState>, call: &Call, def: Arc<ResourceDef>) -> Result<Response, ApiError> {
    let mut embed = match call.output()? {
        Output::Objects => Embed::Objects,
        Output::Table(options) => Embed::Table { builder: TableBuilder::new(&def, options), headers_sent: false },
        Output::Partial(version) => Embed::Partial(version),
        Output::PartialList(_) => return Err(table::partial_list_of_object()),
    };
    let filter = Arc::new(Filter::from_call(call, &def)?);
    let WatchRequest { name, prefix, timeout, bookmarks, send_initial, initial, start } =
        WatchRequest::from_call(&state, call, &def).await?;

    let api_version = super::api_version(&def);
    let events = state.store.watch(&prefix, start);
    let guard = state.metrics.watch_opened();
    let stream = async_stream::stream! {
        let _guard = guard;
        let wanted = |obj: &Value| -> bool {
            name.as_deref().is_none_or(|n| object::meta_str(obj, "name") == Some(n)) && filter.matches(&def, obj)
        };
        for mut obj in initial.iter().filter_map(|kv| store_access::decode(kv).ok()) {
            if wanted(&obj) {
                set_type(&mut obj, &api_version, &def.kind);
                yield Ok::<_, std::io::Error>(line("ADDED", &embed.encode(obj)));
            }
        }
        if send_initial && bookmarks {
            yield Ok(line("BOOKMARK", &embed.encode(bookmark(&api_version, &def.kind, start, true))));
        }
        let mut events = match events {
            Ok(s) => s,
            Err(e) => {
                yield Ok(line("ERROR", &expired(e, start)));
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
                    yield Ok(line("BOOKMARK", &embed.encode(bookmark(&api_version, &def.kind, last_rev, false))));
                }
                next = events.next() => {
                    let Some(next) = next else { break };
                    let event = match next {
                        Ok(ev) => ev,
                        Err(e) => {
                            yield Ok(line("ERROR", &expired(e, last_rev)));
                            break;
                        }
                    };
                    last_rev = event.revision;
                    if let Some((kind, mut obj)) = translate(&event, &wanted) {
                        set_type(&mut obj, &api_version, &def.kind);
                        yield Ok(line(kind, &embed.encode(obj)));
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

/// How event objects are sent.
enum Embed {
    Objects,
    /// One-row Tables; only the first event carries the column definitions, as
    /// kube-apiserver's watch encoder sends them (kubectl reuses the columns it has).
    Table {
        builder: TableBuilder,
        headers_sent: bool,
    },
    Partial(MetaVersion),
}

impl Embed {
    fn encode(&mut self, obj: Value) -> Value {
        match self {
            Self::Objects => obj,
            Self::Table { builder, headers_sent } => {
                builder.restamp();
                let table = builder.single(&obj, !*headers_sent);
                *headers_sent = true;
                table
            }
            Self::Partial(version) => table::partial_object(&obj, *version),
        }
    }
}

/// A store event as the client sees it, given its selectors.
fn translate(event: &Event, wanted: &dyn Fn(&Value) -> bool) -> Option<(&'static str, Value)> {
    let now = store_access::decode(&event.kv).ok()?;
    let before = event.prev.as_ref().and_then(|p| store_access::decode(p).ok());
    match event.kind {
        EventKind::Created => wanted(&now).then_some(("ADDED", now)),
        EventKind::Deleted => wanted(&now).then_some(("DELETED", now)),
        EventKind::Updated => {
            let was = before.as_ref().is_some_and(wanted);
            match (was, wanted(&now)) {
                (true, true) => Some(("MODIFIED", now)),
                (false, true) => Some(("ADDED", now)),
                (true, false) => Some(("DELETED", now)),
                (false, false) => None,
            }
        }
    }
}

fn set_type(obj: &mut Value, api_version: &str, kind: &str) {
    obj["apiVersion"] = Value::String(api_version.to_string());
    obj["kind"] = Value::String(kind.to_string());
}

fn line(kind: &str, obj: &Value) -> bytes::Bytes {
    let mut buf = serde_json::to_vec(&json!({"type": kind, "object": obj})).unwrap_or_default();
    buf.push(b'\n');
    bytes::Bytes::from(buf)
}
