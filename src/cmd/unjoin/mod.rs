//! `unjoin`: remove a Push-mode member cluster.

pub mod steps;

use clap::Args;

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;
use crate::kubeconfig::rules;
use crate::membership::{Impersonation, Kind, ObjectRef, Side, connect};
use steps::{MemberOutcome, Removal, UnjoinOptions};

/// Remove a cluster from Karmada control plane.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Unjoin cluster from karmada control plane, but not to remove resources created by karmada in the unjoining cluster\n  karmadactl unjoin CLUSTER_NAME\n\n  # Unjoin cluster from karmada control plane and attempt to remove resources created by karmada in the unjoining cluster\n  karmadactl unjoin CLUSTER_NAME --cluster-kubeconfig=<CLUSTER_KUBECONFIG>"
)]
pub struct UnjoinArgs {
    /// Name of the member cluster.
    #[arg(value_name = "CLUSTER_NAME")]
    pub names: Vec<String>,

    /// Namespace in the control plane where member cluster secrets are stored.
    #[arg(long, default_value = karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE)]
    pub cluster_namespace: String,

    /// Context name of the cluster in the kubeconfig; empty means the context named like the cluster.
    #[arg(long, value_name = "CONTEXT")]
    pub cluster_context: Option<String>,

    /// Path of the cluster's kubeconfig; when empty, the member cluster is not cleaned up.
    #[arg(long, value_name = "PATH")]
    pub cluster_kubeconfig: Option<String>,

    /// Delete the cluster object even if its resources cannot be removed within --wait.
    #[arg(long)]
    pub force: bool,

    /// How long to wait for the cluster's resources to be removed, e.g. 1m0s.
    #[arg(long, default_value = "1m0s", value_name = "DURATION", allow_hyphen_values = true)]
    pub wait: String,

    /// Run the command in dry-run mode, without making any server requests.
    #[arg(long)]
    pub dry_run: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: UnjoinArgs, ctx: &Context) -> anyhow::Result<()> {
    let name = super::join::single_cluster_name(&args.names, ctx.parent(), "unjoin")?;
    let wait = positive_wait(&args.wait)?;
    let plane_choice = rules::factory_context(args.karmada.karmada_context.as_deref().unwrap_or_default());
    let plane_kubeconfig = super::connection::load(args.karmada.kubeconfig.as_deref())?;
    plane_kubeconfig.resolve(plane_choice.as_deref())?;
    let member_choice = rules::unjoin_cluster_context(args.cluster_context.as_deref().unwrap_or_default(), &name);
    let member_kubeconfig = match args.cluster_kubeconfig.as_deref().filter(|p| !p.is_empty()) {
        Some(path) => {
            let loaded = super::connection::load(Some(path))?;
            loaded.resolve(member_choice.as_deref())?;
            Some(loaded)
        }
        None => None,
    };
    let progress = |line: &str| {
        if ctx.printer.stderr_is_tty() {
            ctx.printer.progress(line);
        }
    };
    let options = UnjoinOptions {
        cluster_name: name.clone(),
        namespace: args.cluster_namespace.clone(),
        force: args.force,
        wait,
        wait_text: args.wait.clone(),
    };

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let plane =
            connect(Side::Karmada, &plane_kubeconfig, plane_choice.as_deref(), &Impersonation::default()).await?;
        steps::get_push_cluster(&plane.client, &plane.target, &name).await?;
        let cluster_ref = ObjectRef::new(Side::Karmada, Kind::Cluster, None, &name);
        if args.dry_run {
            ctx.printer.line(&cluster_ref.deleted_line(true))?;
        } else {
            match steps::delete_cluster(&plane.client, &plane.target, &options, &progress).await? {
                Removal::Deleted => ctx.printer.line(&cluster_ref.deleted_line(false))?,
                Removal::StillPresent { finalizers } => ctx.printer.warn(&format!(
                    "cluster {name} is still being deleted; other finalizers hold it: {}",
                    finalizers.join(", ")
                )),
            }
        }
        let Some(loaded) = member_kubeconfig else { return Ok(()) };
        remove_member_side(&loaded, &member_choice, &options, args.dry_run, ctx).await
    })
}

/// §6 step 4: the member-side objects, in order. With `--force` a member that cannot be
/// reached or refuses a deletion is a warning, not a failure.
async fn remove_member_side(
    loaded: &crate::kubeconfig::LoadedKubeconfig,
    choice: &crate::kubeconfig::ContextChoice,
    options: &UnjoinOptions,
    dry_run: bool,
    ctx: &Context,
) -> anyhow::Result<()> {
    let member = match connect(Side::Member, loaded, choice.as_deref(), &Impersonation::default()).await {
        Ok(member) => member,
        Err(e) if options.force => {
            ctx.printer.warn(&format!("the member-side objects were not removed: {e:#}"));
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    for object in steps::member_objects(&options.cluster_name, &options.namespace) {
        match steps::remove_object(&member.client, &member.target, &object, dry_run).await {
            Ok(MemberOutcome::Deleted) => ctx.printer.line(&object.deleted_line(dry_run))?,
            Ok(MemberOutcome::Absent) => {}
            Err(e) if options.force => {
                ctx.printer.warn(&format!(
                    "{}/{} was not removed from the member cluster: {e}",
                    object.kind.resource(),
                    object.name
                ));
                // An unreachable member fails every step the same way; one warning says it.
                if e.is_connection() {
                    return Ok(());
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// `--wait` must be a positive duration (unjoin, unregister).
pub(crate) fn positive_wait(value: &str) -> anyhow::Result<std::time::Duration> {
    let signed: karmadactl_apimachinery::duration::SignedGoDuration = value.parse().map_err(|e| {
        UsageError::with_hint(
            format!("invalid value \"{value}\" for --wait: {e}"),
            "durations are written as in Go, e.g. 30s, 5m0s, 1m0s.",
        )
    })?;
    let wait = signed.to_std().unwrap_or_default();
    if wait.is_zero() {
        return Err(UsageError::with_hint(
            format!("--wait {value} must be a positive duration, e.g. 1m0s"),
            "give --wait a duration greater than zero.",
        )
        .into());
    }
    Ok(wait)
}
