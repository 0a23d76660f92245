//! `addons disable`: after upstream's confirmation (never asked without a terminal: `--force`
//! is needed then), deletes each addon's objects in upstream's order — only those that carry
//! the label `addons enable` put on them; an object of the same name that lacks it is kept and
//! named.

use std::io::{BufRead as _, IsTerminal as _, Read as _, Write as _};

use clap::Args;
use karmadactl_karmada_api::wellknown::LABEL_INSTALLED_BY;
use kube::api::{Api, DeleteParams, DynamicObject};
use kube::{Client, ResourceExt as _};

use super::catalog::{self, Addon, estimator_name, estimator_secret};
use super::manifests::INSTALLED_BY_ADDONS;
use super::{AddonsFlags, Clusters, Target, embedded, server_message};
use crate::cli::Context;
use crate::cmd::init::host::apply::api_resource;
use crate::error::UsageError;

/// Disable karmada addons from Kubernetes
#[derive(Debug, Args)]
#[command(
    long_about = "Disable Karmada addons from Kubernetes",
    after_help = "Examples:\n  # Disable Karmada all addons except karmada-scheduler-estimator on Kubernetes cluster\n  karmadactl addons disable all\n\n  # Disable Karmada search on Kubernetes cluster\n  karmadactl addons disable karmada-search\n\n  # Disable Karmada search and descheduler on Kubernetes cluster\n  karmadactl addons disable karmada-search karmada-descheduler\n\n  # Disable karmada search and scheduler-estimator of member1 cluster to the kubernetes cluster\n  karmadactl addons disable karmada-search karmada-scheduler-estimator --cluster member1\n\n  # Specify the host cluster kubeconfig\n  karmadactl addons disable karmada-search --kubeconfig /root/.kube/config\n\n  # Specify the Karmada control plane kubeconfig\n  karmadactl addons disable karmada-search --karmada-kubeconfig /etc/karmada/karmada-apiserver.config\n\n  # Specify the namespace where Karmada components are installed\n  karmadactl addons disable karmada-search --namespace karmada-system"
)]
pub struct DisableArgs {
    /// The addons to disable: karmada-descheduler, karmada-metrics-adapter,
    /// karmada-scheduler-estimator, karmada-search, or all.
    #[arg(value_name = "ADDON")]
    pub names: Vec<String>,

    #[command(flatten)]
    pub flags: AddonsFlags,

    /// Disable addons without prompting for confirmation (required when there is no terminal
    /// to ask on).
    #[arg(short = 'f', long)]
    pub force: bool,
}

pub async fn run(args: DisableArgs, ctx: &Context) -> anyhow::Result<()> {
    let target = super::connect(&args.flags).await?;
    let (addons, _) = catalog::parse(&args.names)?;
    let clusters = match target {
        Target::Embedded(server) => return Err(embedded::refuse("disable", &args.names, &addons, &server, ctx)),
        Target::Host(clusters) => clusters,
    };
    if args.names.iter().any(|n| n == Addon::SchedulerEstimator.name()) && args.flags.cluster().is_none() {
        return Err(UsageError::new("member cluster and config is needed when disable karmada-scheduler-estimator,use `--cluster=member --member-kubeconfig /root/.kube/config --member-context member1` to disable karmada-scheduler-estimator").into());
    }
    ctx.printer.line(&format!("Disable Karmada addon [{}]", args.names.join(" ")))?;
    if !args.force && !confirm(&args.names, ctx)? {
        ctx.printer.progress("addons disable cancelled; nothing was changed");
        return Ok(());
    }
    let mut kept = Vec::new();
    for addon in addons {
        ctx.printer.progress(&format!("Start to disable addon {}", addon.name()));
        if addon == Addon::SchedulerEstimator && args.flags.cluster().is_none() {
            ctx.printer
                .warn("Cluster is not specified in CommandAddonsDisableOption, estimator uninstallation will skip.");
        } else {
            let before = kept.len();
            remove(addon, &args.flags, &clusters, &mut kept, ctx)
                .await
                .map_err(|e| e.context(format!("Disable addon {} failed", addon.name())))?;
            if kept.len() > before {
                continue;
            }
        }
        ctx.printer.progress(&format!("Successfully disable addon {}", addon.name()));
    }
    if !kept.is_empty() {
        return Err(UsageError::with_hint(
            format!("not disabled completely: {} kept, as 'addons enable' did not create it", kept.join(", ")),
            format!(
                "objects without the label {LABEL_INSTALLED_BY}={INSTALLED_BY_ADDONS} are never deleted by addons disable; delete them yourself if they belong to the addon."
            ),
        )
        .into());
    }
    Ok(())
}

/// Upstream's question, asked only on a terminal; without one, refuses and names `--force`.
fn confirm(names: &[String], ctx: &Context) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(UsageError::with_hint(
            "addons disable needs confirmation, and there is no terminal to ask on",
            format!(
                "nothing was changed; run '{} addons disable {} --force' to disable without asking.",
                ctx.parent(),
                names.join(" ")
            ),
        )
        .into());
    }
    loop {
        ctx.printer.data("Please type (y)es or (n)o and then press enter:")?;
        std::io::stdout().flush()?;
        let mut answer = String::new();
        // One short line is all that is read; a bound keeps a flood on stdin from filling memory.
        if std::io::stdin().lock().take(1024).read_line(&mut answer)? == 0 {
            anyhow::bail!("no answer: the input ended; nothing was changed");
        }
        match answer.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" => return Ok(true),
            "n" | "no" => return Ok(false),
            _ => {}
        }
    }
}

/// One object an addon created: where it is, its kind and name, and the line printed once it
/// is gone.
struct Part<'a> {
    client: &'a Client,
    api_version: &'static str,
    kind: &'static str,
    namespace: Option<&'a str>,
    name: String,
    done: Option<String>,
}

/// Deletes `addon`'s objects in upstream's order; names of objects kept go to `kept`.
async fn remove(
    addon: Addon,
    flags: &AddonsFlags,
    c: &Clusters,
    kept: &mut Vec<String>,
    ctx: &Context,
) -> anyhow::Result<()> {
    let ns = Some(flags.namespace.as_str());
    let spoken = addon.spoken();
    let host = |api_version, kind, name: String, done: Option<String>| Part {
        client: &c.host,
        api_version,
        kind,
        namespace: ns,
        name,
        done,
    };
    let mut parts = Vec::new();
    match addon {
        Addon::Descheduler => parts.push(host(
            "apps/v1",
            "Deployment",
            addon.name().into(),
            Some(format!("Uninstall {spoken} deployment on host cluster successfully")),
        )),
        Addon::SchedulerEstimator => {
            let cluster = flags.cluster().unwrap_or_default();
            parts.push(host("apps/v1", "Deployment", estimator_name(cluster), None));
            parts.push(host("v1", "Service", estimator_name(cluster), None));
            parts.push(host(
                "v1",
                "Secret",
                estimator_secret(cluster),
                Some(format!("Karmada scheduler estimator of member cluster {cluster} is removed successfully.")),
            ));
        }
        Addon::MetricsAdapter | Addon::Search => {
            parts.push(host(
                "v1",
                "Service",
                addon.name().into(),
                Some(format!("Uninstall {spoken} service on host cluster successfully")),
            ));
            parts.push(host(
                "apps/v1",
                "Deployment",
                addon.name().into(),
                Some(format!("Uninstall {spoken} deployment on host cluster successfully")),
            ));
            parts.push(Part {
                client: &c.karmada,
                api_version: "v1",
                kind: "Service",
                namespace: ns,
                name: addon.name().into(),
                done: Some(format!("Uninstall {spoken} AA service on karmada control plane successfully")),
            });
            let services = addon.api_services();
            for (i, name) in services.iter().enumerate() {
                parts.push(Part {
                    client: &c.karmada,
                    api_version: "apiregistration.k8s.io/v1",
                    kind: "APIService",
                    namespace: None,
                    name: name.to_string(),
                    done: (i + 1 == services.len())
                        .then(|| format!("Uninstall {spoken} AA apiservice on karmada control plane successfully")),
                });
            }
        }
    }
    let mut all_gone = true;
    for part in parts {
        if !delete_if_ours(&part, ctx).await? {
            all_gone = false;
            kept.push(match part.namespace {
                Some(ns) => format!("{} {ns}/{}", part.kind, part.name),
                None => format!("{} {}", part.kind, part.name),
            });
        }
        if let Some(done) = part.done.filter(|_| all_gone) {
            ctx.printer.progress(&done);
        }
    }
    Ok(())
}

/// Deletes the object if it carries the installation label (or is already gone); `false` if it
/// exists without the label and was kept.
async fn delete_if_ours(part: &Part<'_>, ctx: &Context) -> anyhow::Result<bool> {
    let (ar, _) = api_resource(part.api_version, part.kind).expect("a known kind");
    let api: Api<DynamicObject> = match part.namespace {
        Some(ns) => Api::namespaced_with(part.client.clone(), ns, &ar),
        None => Api::all_with(part.client.clone(), &ar),
    };
    let what = match part.namespace {
        Some(ns) => format!("{} {ns}/{}", part.kind, part.name),
        None => format!("{} {}", part.kind, part.name),
    };
    let Some(obj) =
        api.get_opt(&part.name).await.map_err(|e| anyhow::anyhow!("cannot read {what}: {}", server_message(&e)))?
    else {
        ctx.printer.debug(1, &format!("{what} does not exist"));
        return Ok(true);
    };
    if obj.labels().get(LABEL_INSTALLED_BY).is_none_or(|v| v != INSTALLED_BY_ADDONS) {
        ctx.printer.warn(&format!(
            "{what} was not created by 'addons enable' (it lacks the label {LABEL_INSTALLED_BY}={INSTALLED_BY_ADDONS}); it is kept"
        ));
        return Ok(false);
    }
    match api.delete(&part.name, &DeleteParams::background()).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(true),
        Err(e) => Err(anyhow::anyhow!("cannot delete {what}: {}", server_message(&e))),
    }
}
