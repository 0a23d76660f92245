//! `get` across the Karmada control plane and its member clusters: members are reached through
//! the plane's cluster proxy (`/apis/cluster.karmada.io/v1alpha1/clusters/<c>/proxy/`) with
//! the caller's own credentials, queried in parallel, and their rows merged with the plane's
//! under a CLUSTER column (see [`table`]). A member that cannot be reached is a warning, not a
//! failure, so one broken member does not hide the others.

use futures::future::join_all;
use karmadactl_karmada_api::cluster::Cluster;
use kube::Api;
use serde_json::Value;

use crate::output::{List, OutputFormat, TableOptions, object_name, to_format};

pub use super::request::{Wanted, parse as parse_resources};
use super::{discovery, fetch, table};

/// Where `get` looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The control plane only.
    Karmada,
    /// Member clusters only.
    Members,
    /// Both.
    All,
}

/// What to read and how to print it.
#[derive(Debug, Clone)]
pub struct Options {
    pub scope: Scope,
    /// Members to query; empty: every registered Cluster.
    pub clusters: Vec<String>,
    /// The namespace to read in (already defaulted).
    pub namespace: String,
    pub all_namespaces: bool,
    pub label_selector: Option<String>,
    pub ignore_not_found: bool,
    pub format: OutputFormat,
    pub no_headers: bool,
    pub show_labels: bool,
    pub show_kind: bool,
    pub label_columns: Vec<String>,
    /// Keep `metadata.managedFields` in `-o json|yaml` (kubectl drops them by default).
    pub show_managed_fields: bool,
}

/// What a run produced: data for stdout, and stderr lines.
#[derive(Debug, Default)]
pub struct Outcome {
    pub stdout: String,
    /// Informational lines (`No resources found ...`).
    pub notices: Vec<String>,
    /// Members left out because they could not be reached.
    pub warnings: Vec<String>,
    /// Failures for one source or type; any makes the command fail after printing the rest.
    pub errors: Vec<String>,
}

/// Errors that stop `get` before anything is read.
#[derive(Debug, thiserror::Error)]
pub enum GetError {
    #[error("clusters don't exist: {0}")]
    UnknownClusters(String),
    #[error("cannot list the member clusters at {0}")]
    ListClusters(String, #[source] kube::Error),
    #[error("cannot build a client: {0}")]
    Client(String),
    #[error("{0}")]
    Watch(String),
}

/// One place to read from.
pub(super) struct Source {
    /// `None`: the control plane.
    pub(super) cluster: Option<String>,
    pub(super) client: kube::Client,
    /// Where the client points, for messages.
    pub(super) server: String,
}

impl Source {
    /// `cluster(member1): ` before a member's errors.
    pub(super) fn prefix(&self, message: &str) -> String {
        match &self.cluster {
            Some(c) => format!("cluster({c}): {message}"),
            None => message.to_string(),
        }
    }
}

/// What one source returned for each wanted type (in `wanted` order).
struct SourceResult {
    per_type: Vec<Option<(discovery::Resource, fetch::Fetched)>>,
    errors: Vec<String>,
}

/// Runs `get`.
pub async fn run(plane: kube::Config, wanted: &[Wanted], opts: &Options) -> Result<Outcome, GetError> {
    let mut outcome = Outcome::default();
    let plane_client = kube::Client::try_from(plane.clone()).map_err(|e| GetError::Client(e.to_string()))?;
    let mut sources = Vec::new();
    if matches!(opts.scope, Scope::Karmada | Scope::All) {
        sources.push(Source { cluster: None, client: plane_client.clone(), server: plane.cluster_url.to_string() });
    }
    if matches!(opts.scope, Scope::Members | Scope::All) {
        let (members, pull) = members(&plane_client, &plane.cluster_url.to_string(), &opts.clusters).await?;
        if !pull.is_empty() {
            outcome.notices.push(pull_members_skipped(&pull));
        }
        if members.is_empty() && opts.scope == Scope::Members {
            outcome.notices.push("No member Clusters found in Karmada control plane".into());
            return Ok(outcome);
        }
        let checks = join_all(members.iter().map(|m| member_source(&plane, m))).await;
        for (name, checked) in members.iter().zip(checks) {
            match checked {
                Ok(source) => sources.push(source),
                Err(e) => outcome.warnings.push(format!(
                    "basic connection test to cluster({name}) failed, please check authorization or network: {e}"
                )),
            }
        }
    }
    let table = opts.format.is_table();
    let results = join_all(sources.iter().map(|s| read_source(s, wanted, opts, table))).await;
    for r in &results {
        outcome.errors.extend(r.errors.iter().cloned());
    }
    let found = if table {
        print_tables(&sources, &results, wanted, opts, &mut outcome.stdout)
    } else {
        print_objects(&results, wanted, opts, &mut outcome.stdout, &mut outcome.errors)
    };
    if !found && outcome.errors.is_empty() && !opts.ignore_not_found {
        let namespaced = results.iter().flat_map(|r| r.per_type.iter().flatten()).any(|(res, _)| res.namespaced);
        if matches!(opts.format, OutputFormat::Json | OutputFormat::Yaml) {
            // kubectl prints an empty List rather than a notice for data formats.
        } else if namespaced && !opts.all_namespaces {
            outcome.notices.push(format!("No resources found in {} namespace.", opts.namespace));
        } else {
            outcome.notices.push("No resources found".into());
        }
    }
    Ok(outcome)
}

/// The members to query: `-C` (each must exist) or every registered Cluster, sorted by name;
/// and apart, the Pull members among them that the plane's proxy cannot reach.
pub(super) async fn members(
    plane: &kube::Client,
    server: &str,
    wanted: &[String],
) -> Result<(Vec<String>, Vec<String>), GetError> {
    let api: Api<Cluster> = Api::all(plane.clone());
    let list = api.list(&Default::default()).await.map_err(|e| GetError::ListClusters(server.to_string(), e))?;
    let mut known: Vec<String> = list.items.iter().filter_map(|c| c.metadata.name.clone()).collect();
    known.sort();
    let mut chosen = if wanted.is_empty() {
        known
    } else {
        let missing: Vec<&str> = wanted.iter().filter(|w| !known.contains(w)).map(String::as_str).collect();
        if !missing.is_empty() {
            return Err(GetError::UnknownClusters(missing.join(",")));
        }
        let mut chosen: Vec<String> = wanted.to_vec();
        chosen.sort();
        chosen.dedup();
        chosen
    };
    let unreachable: Vec<String> = list
        .items
        .iter()
        .filter(|c| proxy_cannot_reach(c))
        .filter_map(|c| c.metadata.name.clone())
        .filter(|n| chosen.contains(n))
        .collect();
    chosen.retain(|n| !unreachable.contains(n));
    let mut pull = unreachable;
    pull.sort();
    Ok((chosen, pull))
}

/// A Pull member's agent gives the plane no credentials for it (no `spec.secretRef`), so the
/// cluster proxy can only answer 503; upstream reaches such members only through a tunnel
/// (apiserver-network-proxy), which this plane does not have.
fn proxy_cannot_reach(c: &Cluster) -> bool {
    c.spec.sync_mode == karmadactl_karmada_api::cluster::ClusterSyncMode::Pull && c.spec.secret_ref.is_none()
}

/// One line for all the Pull members left out, instead of a failed connection test each.
pub(super) fn pull_members_skipped(names: &[String]) -> String {
    let list = names.iter().map(|n| format!("cluster({n})")).collect::<Vec<_>>().join(", ");
    format!(
        "skipped Pull mode member {list}: the control plane has no credentials to proxy to a Pull member (upstream \
         reaches them only through apiserver-network-proxy); read it with the member's own kubeconfig"
    )
}

/// A client for the member through the plane's proxy, after upstream's connectivity check
/// (`GET /api`).
pub(super) async fn member_source(plane: &kube::Config, name: &str) -> Result<Source, String> {
    let mut cfg = plane.clone();
    let base = plane.cluster_url.to_string();
    let server = format!("{}/apis/cluster.karmada.io/v1alpha1/clusters/{name}/proxy", base.trim_end_matches('/'));
    cfg.cluster_url = server.parse().map_err(|e| format!("{e}"))?;
    // An unreachable member answers 503 through the proxy; retrying it only delays the others.
    cfg.default_retry = false;
    let client = kube::Client::try_from(cfg).map_err(|e| e.to_string())?;
    let req = http::Request::get("/api").body(Vec::new()).map_err(|e| e.to_string())?;
    client.request::<Value>(req).await.map_err(|e| match e {
        kube::Error::Api(s) => s.message,
        other => crate::error::with_causes(&other),
    })?;
    Ok(Source { cluster: Some(name.to_string()), client, server })
}

async fn read_source(source: &Source, wanted: &[Wanted], opts: &Options, table: bool) -> SourceResult {
    let mut result = SourceResult { per_type: Vec::new(), errors: Vec::new() };
    let served = match discovery::discover(&source.client).await {
        Ok(s) => s,
        Err(e) => {
            let e = crate::error::with_causes(&e);
            result.errors.push(source.prefix(&format!("cannot read the API discovery of {}: {e}", source.server)));
            result.per_type = wanted.iter().map(|_| None).collect();
            return result;
        }
    };
    for w in wanted {
        let resource = match served.resolve(&w.type_arg) {
            Ok(r) => r,
            Err(e) => {
                result.errors.push(source.prefix(&e));
                result.per_type.push(None);
                continue;
            }
        };
        let q = fetch::Query {
            resource: &resource,
            names: &w.names,
            namespace: (!opts.all_namespaces || !w.names.is_empty()).then_some(opts.namespace.as_str()),
            label_selector: opts.label_selector.as_deref(),
            ignore_not_found: opts.ignore_not_found,
        };
        match fetch::fetch(&source.client, &q, table).await {
            Ok(f) => result.per_type.push(Some((resource, f))),
            Err(e) => {
                result.errors.push(source.prefix(&e));
                result.per_type.push(None);
            }
        }
    }
    result
}

/// The merged tables, one per resource type (sorted by resource), separated by a blank line.
fn print_tables(
    sources: &[Source],
    results: &[SourceResult],
    wanted: &[Wanted],
    opts: &Options,
    out: &mut String,
) -> bool {
    let shape_for = |r: &discovery::Resource| table::Shape {
        with_namespace: opts.all_namespaces && r.namespaced,
        with_kind: opts.show_kind || wanted.len() > 1,
        show_labels: opts.show_labels,
        label_columns: opts.label_columns.clone(),
    };
    // Resource types by their qualified name; the same type may be asked for twice (`deploy,deployments`).
    let mut types: Vec<(String, discovery::Resource)> = Vec::new();
    for r in results {
        for (res, _) in r.per_type.iter().flatten() {
            if !types.iter().any(|(k, _)| *k == res.qualified()) {
                types.push((res.qualified(), res.clone()));
            }
        }
    }
    types.sort_by(|a, b| a.0.cmp(&b.0));
    let mut found = false;
    for (key, res) in &types {
        let sources: Vec<table::SourceTables<'_>> = sources
            .iter()
            .zip(results)
            .map(|(s, r)| {
                let mut tables = Vec::new();
                for (rr, f) in r.per_type.iter().flatten() {
                    if rr.qualified() == *key {
                        tables.extend(&f.tables);
                        // Only the first spelling of a type counts (`deploy,deployments`).
                        break;
                    }
                }
                table::SourceTables { cluster: s.cluster.as_deref(), tables }
            })
            .collect();
        if let Some(t) = table::merge(res, &sources, &shape_for(res)) {
            if found {
                out.push('\n');
            }
            found = true;
            out.push_str(&t.render(TableOptions::new(opts.format, opts.no_headers)));
        }
    }
    found
}

/// `-o json|yaml|name`: each source separately, as kubectl would print it, without marking
/// which cluster an object came from (as upstream).
fn print_objects(
    results: &[SourceResult],
    wanted: &[Wanted],
    opts: &Options,
    out: &mut String,
    errors: &mut Vec<String>,
) -> bool {
    let single = wanted.len() == 1 && wanted[0].names.len() == 1;
    let mut found = false;
    for r in results {
        let mut objects: Vec<Value> =
            r.per_type.iter().flatten().flat_map(|(_, f)| f.objects.iter().cloned()).collect();
        if !opts.show_managed_fields {
            for o in &mut objects {
                if let Some(meta) = o.get_mut("metadata").and_then(Value::as_object_mut) {
                    meta.remove("managedFields");
                }
            }
        }
        found |= !objects.is_empty();
        match opts.format {
            OutputFormat::Name => {
                for o in &objects {
                    match object_name(o) {
                        Ok(n) => {
                            out.push_str(&n);
                            out.push('\n');
                        }
                        Err(e) => errors.push(e.to_string()),
                    }
                }
            }
            format => {
                let printed = if single && objects.len() == 1 {
                    to_format(format, &objects[0])
                } else if single && objects.is_empty() {
                    continue;
                } else {
                    to_format(format, &List::new(objects))
                };
                match printed {
                    Ok(text) => {
                        if format == OutputFormat::Yaml && !out.is_empty() {
                            out.push_str("---\n");
                        }
                        out.push_str(&text)
                    }
                    Err(e) => errors.push(e.to_string()),
                }
            }
        }
    }
    found
}
