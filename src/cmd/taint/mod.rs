//! `taint`: add, change or remove taints on member clusters.
//!
//! Its modules hold kubectl's taint grammar ([`spec`]), the edits `cordon`, `uncordon` and
//! `taint` make to `spec.taints` ([`edit`]), and the guarded JSON patch that writes an edit
//! without losing a concurrent change to another taint ([`write`]); `cordon` reuses them.

pub mod edit;
pub mod errors;
pub mod spec;
pub mod write;

pub use edit::{CORDON_EFFECT, CORDON_KEY, Operation, TaintEdit};
pub use errors::TaintError;
pub use spec::{Removal, TaintRequest, Targets};

use clap::Args;
use k8s_openapi::api::core::v1::Taint;
use kube::Api;

use super::connection::KarmadaConnection;
use crate::cli::Context;
use karmadactl_karmada_api::cluster::Cluster;

/// Update the taints on one or more clusters.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Update cluster 'foo' with a taint with key 'dedicated' and value 'special-user' and effect 'NoSchedule'\n  # If a taint with that key and effect already exists, its value is replaced as specified\n  karmadactl taint clusters foo dedicated=special-user:NoSchedule\n\n  # Remove from cluster 'foo' the taint with key 'dedicated' and effect 'NoSchedule' if one exists\n  karmadactl taint clusters foo dedicated:NoSchedule-\n\n  # Remove from cluster 'foo' all the taints with key 'dedicated'\n  karmadactl taint clusters foo dedicated-\n\n  # Add to cluster 'foo' a taint with key 'bar' and no value\n  karmadactl taint clusters foo bar:NoSchedule\n\n  # Add a taint with key 'dedicated' to every cluster labelled env=prod\n  karmadactl taint clusters -l env=prod dedicated=foo:PreferNoSchedule"
)]
pub struct TaintArgs {
    /// `clusters NAME... KEY=VALUE:EFFECT... [KEY:EFFECT-|KEY-]...`
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    /// Replace a taint that already exists with the same key and effect.
    #[arg(long)]
    pub overwrite: bool,

    /// Label selector picking the clusters instead of names, e.g. -l key1=value1,key2=value2.
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Select all clusters.
    #[arg(long)]
    pub all: bool,

    /// Print what would change without changing it.
    #[arg(long)]
    pub dry_run: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: TaintArgs, ctx: &Context) -> anyhow::Result<()> {
    // The whole command line is checked before the kubeconfig is read or anything is sent.
    let request = spec::parse_request(&args.args, args.selector.as_deref(), args.all)?;
    args.karmada.resolve()?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(apply(&args, &request, ctx))
}

async fn apply(args: &TaintArgs, request: &TaintRequest, ctx: &Context) -> anyhow::Result<()> {
    let plane = args.karmada.connect().await?;
    let api: Api<Cluster> = Api::all(plane.client.clone());
    let clusters = match &request.targets {
        Targets::Names(names) => {
            let mut found = Vec::new();
            let mut missing = Vec::new();
            let mut seen = std::collections::BTreeSet::new();
            for name in names.iter().filter(|n| seen.insert(n.as_str())) {
                match write::get(&api, &plane.target, name).await {
                    Ok(cluster) => found.push(cluster),
                    Err(e) => match e.downcast::<TaintError>() {
                        Ok(not_found @ TaintError::ClusterNotFound(_)) => missing.push(not_found),
                        Ok(other) => return Err(other.into()),
                        Err(other) => return Err(other),
                    },
                }
            }
            if let Some(err) = TaintError::all(missing) {
                return Err(err.into());
            }
            found
        }
        Targets::Selector(selector) => write::list(&api, &plane.target, selector).await?,
        Targets::All => write::list(&api, &plane.target, "").await?,
    };
    if clusters.is_empty() {
        ctx.printer.progress("No resources found");
        return Ok(());
    }

    let decide = |c: &Cluster| {
        let name = c.metadata.name.as_deref().unwrap_or_default();
        let (edit, operation) =
            edit::reorganize(name, write::taints_of(c), args.overwrite, &request.adds, &request.removes)?;
        Ok((Some(edit), operation))
    };
    // Every cluster is checked before any is changed: a taint that is missing on one cluster,
    // or exists without --overwrite, leaves all of them as they are.
    let several = clusters.len() > 1;
    let refusals: Vec<TaintError> = clusters
        .iter()
        .filter_map(|c| decide(c).err().map(|e| (c, e)))
        .map(|(c, e)| match e {
            TaintError::TaintsNotFound(_) if several => {
                TaintError::OnCluster { cluster: c.metadata.name.clone().unwrap_or_default(), error: Box::new(e) }
            }
            other => other,
        })
        .collect();
    if let Some(err) = TaintError::all(refusals) {
        return Err(err.into());
    }

    // A cluster that changed in between is decided again; one that fails then does not stop
    // the others, and every failure is reported at the end.
    let mut failures = Vec::new();
    for cluster in clusters {
        let name = cluster.metadata.name.clone().unwrap_or_default();
        match write::write_edit(&api, &plane.target, cluster, args.dry_run, decide).await {
            Ok(operation) => ctx.printer.line(&format!("cluster/{name} {}", operation.as_str()))?,
            Err(e) => failures.push(e),
        }
    }
    match failures.len() {
        0 => Ok(()),
        1 => Err(failures.remove(0)),
        _ => {
            let messages: Vec<String> = failures.iter().map(|e| format!("{e:#}")).collect();
            Err(anyhow::anyhow!("{}", errors::aggregate(&messages)))
        }
    }
}

/// Go's `Taint.MatchTaint`: the same key and effect (the value does not count).
pub fn same_key_and_effect(a: &Taint, b: &Taint) -> bool {
    a.key == b.key && a.effect == b.effect
}
