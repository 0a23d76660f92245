//! `get --watch` / `--watch-only` for one resource type from one source (the plane, or one
//! member through the proxy): the server-side Table rows of the list, then one line per
//! change, as kubectl prints them. Several sources at once are refused rather than
//! interleaved.

use super::query::{GetError, Options, Scope, Source, Wanted, member_source, members, pull_members_skipped};
use super::table::{ServerTable, Shape, SourceTables, merge};
use super::{discovery, fetch};
use crate::output::TableOptions;
use futures::TryStreamExt;
use kube::core::WatchEvent;

/// Lists (printing it unless `watch_only`) and then watches; `emit` gets each piece of output as it comes.
/// Returns when the server ends the watch.
pub async fn watch(
    plane: kube::Config,
    wanted: &[Wanted],
    opts: &Options,
    watch_only: bool,
    mut emit: impl FnMut(&str),
) -> Result<(), GetError> {
    let [w] = wanted else {
        return Err(GetError::Watch(format!(
            "watch is only supported on individual resources and resource collections, but {} resources were found",
            wanted.len()
        )));
    };
    if w.names.len() > 1 {
        return Err(GetError::Watch("watch is only supported on one object at a time".into()));
    }
    let source = single_source(&plane, opts).await?;
    let served = discovery::discover(&source.client).await.map_err(|e| {
        let e = crate::error::with_causes(&e);
        GetError::Watch(source.prefix(&format!("cannot read the API discovery of {}: {e}", source.server)))
    })?;
    let resource = served.resolve(&w.type_arg).map_err(|e| GetError::Watch(source.prefix(&e)))?;
    let namespace = (!opts.all_namespaces).then_some(opts.namespace.as_str());
    let shape = Shape {
        with_namespace: opts.all_namespaces && resource.namespaced,
        with_kind: opts.show_kind,
        show_labels: opts.show_labels,
        label_columns: opts.label_columns.clone(),
    };
    let print = TableOptions::new(opts.format, opts.no_headers);
    let mut columns = None;
    let mut header_done = opts.no_headers;
    let mut resource_version = String::new();
    // --watch-only still lists, for the resource version to watch from, but prints nothing of it.
    {
        let q = fetch::Query {
            resource: &resource,
            names: &w.names,
            namespace,
            label_selector: opts.label_selector.as_deref(),
            ignore_not_found: opts.ignore_not_found,
        };
        let listed = fetch::fetch(&source.client, &q, true).await.map_err(|e| GetError::Watch(source.prefix(&e)))?;
        for t in &listed.tables {
            columns = columns.or_else(|| t.column_definitions.clone());
            resource_version = t.resource_version().unwrap_or("").into();
            if w.names.len() == 1 {
                resource_version =
                    t.rows().first().and_then(|r| r.metadata()?.resource_version.clone()).unwrap_or_default();
            }
        }
        let tables = SourceTables { cluster: source.cluster.as_deref(), tables: listed.tables.iter().collect() };
        if !watch_only && let Some(t) = merge(&resource, &[tables], &shape) {
            emit(&t.render(print));
            header_done = true;
        }
    }

    let mut query = form_urlencoded::Serializer::new(String::new());
    query.append_pair("watch", "1");
    if !resource_version.is_empty() {
        query.append_pair("resourceVersion", &resource_version);
    }
    if let Some(l) = opts.label_selector.as_deref().filter(|l| !l.is_empty()) {
        query.append_pair("labelSelector", l);
    }
    if let Some(name) = w.names.first() {
        query.append_pair("fieldSelector", &format!("metadata.name={name}"));
    }
    let path = format!("{}?{}", fetch::collection_path(&resource, namespace), query.finish());
    let req = http::Request::get(path)
        .header(http::header::ACCEPT, fetch::TABLE_ACCEPT)
        .body(Vec::new())
        .map_err(|e| GetError::Watch(e.to_string()))?;
    let events = source
        .client
        .request_events::<ServerTable>(req)
        .await
        .map_err(|e| GetError::Watch(source.prefix(&crate::error::with_causes(&e))))?;
    futures::pin_mut!(events);
    while let Some(event) =
        events.try_next().await.map_err(|e| GetError::Watch(source.prefix(&crate::error::with_causes(&e))))?
    {
        let table = match event {
            WatchEvent::Added(t) | WatchEvent::Modified(t) | WatchEvent::Deleted(t) => t,
            WatchEvent::Bookmark(_) => continue,
            WatchEvent::Error(e) => return Err(GetError::Watch(source.prefix(&e.message))),
        };
        columns = columns.or_else(|| table.column_definitions.clone().filter(|c| !c.is_empty()));
        let Some(cols) = columns.clone() else { continue };
        let one = ServerTable { column_definitions: Some(cols), ..table };
        let tables = SourceTables { cluster: source.cluster.as_deref(), tables: vec![&one] };
        if let Some(t) = merge(&resource, &[tables], &shape) {
            emit(&t.render(TableOptions { no_headers: header_done, ..print }));
            header_done = true;
        }
    }
    Ok(())
}

/// The one source the scope and `-C` name.
async fn single_source(plane: &kube::Config, opts: &Options) -> Result<Source, GetError> {
    let refuse = || {
        GetError::Watch(
            "--watch reads one source: the control plane (-s karmada), or one member (-s members -C <cluster>)".into(),
        )
    };
    match opts.scope {
        Scope::Karmada => {
            let client = kube::Client::try_from(plane.clone()).map_err(|e| GetError::Client(e.to_string()))?;
            Ok(Source { cluster: None, client, server: plane.cluster_url.to_string() })
        }
        Scope::All => Err(refuse()),
        Scope::Members => {
            let client = kube::Client::try_from(plane.clone()).map_err(|e| GetError::Client(e.to_string()))?;
            let (chosen, pull) = members(&client, &plane.cluster_url.to_string(), &opts.clusters).await?;
            if let [_] = pull.as_slice() {
                return Err(GetError::Watch(pull_members_skipped(&pull)));
            }
            let [name] = chosen.as_slice() else { return Err(refuse()) };
            member_source(plane, name).await.map_err(|e| {
                GetError::Watch(format!(
                    "basic connection test to cluster({name}) failed, please check authorization or network: {e}"
                ))
            })
        }
    }
}
