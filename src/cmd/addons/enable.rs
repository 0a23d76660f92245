//! `addons enable`: upstream's checks (the addon names, the kubeconfig secrets `init` wrote,
//! the member cluster of the estimator), then everything that has to be read from the clusters
//! (the CA, etcd's servers, the member's kubeconfig) before anything is created; then per addon
//! its host objects, applied and waited for, and its APIServices in Karmada, waited for until
//! Available.

use std::time::{Duration, Instant};

use clap::Args;
use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
use k8s_openapi::api::core::v1::{Namespace, Secret};
use karmadactl_karmada_api::wellknown::KARMADA_RELEASE;
use kube::Api;
use serde_json::Value;

use super::catalog::{self, Addon};
use super::manifests::{self, Render, Workload};
use super::{AddonsFlags, Clusters, Target, embedded, list, server_message};
use crate::cli::Context;
use crate::cmd::init::host::apply;
use crate::cmd::init::host::settings::karmada_image;
use crate::error::UsageError;

fn default_image(name: &str) -> String {
    format!("docker.io/karmada/{name}:{KARMADA_RELEASE}")
}

/// Enable Karmada addons from Kubernetes
#[derive(Debug, Args)]
#[command(
    long_about = "Enable Karmada addons from Kubernetes",
    after_help = "Examples:\n  # Enable Karmada all addons except karmada-scheduler-estimator to Kubernetes cluster\n  karmadactl addons enable all\n\n  # Enable Karmada search to the Kubernetes cluster\n  karmadactl addons enable karmada-search\n\n  # Enable karmada search and descheduler to the kubernetes cluster\n  karmadactl addons enable karmada-search karmada-descheduler\n\n  # Enable karmada search and scheduler-estimator of cluster member1 to the kubernetes cluster\n  karmadactl addons enable karmada-search karmada-scheduler-estimator -C member1 --member-kubeconfig /etc/karmada/member.config --member-context member1\n\n  # Specify the host cluster kubeconfig\n  karmadactl addons enable karmada-search --kubeconfig /root/.kube/config\n\n  # Specify the Karmada control plane kubeconfig\n  karmadactl addons enable karmada-search --karmada-kubeconfig /etc/karmada/karmada-apiserver.config\n\n  # Specify the karmada-search image\n  karmadactl addons enable karmada-search --karmada-search-image docker.io/karmada/karmada-search:latest\n\n  # Specify the namespace where Karmada components are installed\n  karmadactl addons enable karmada-search --namespace karmada-system"
)]
pub struct EnableArgs {
    /// The addons to enable: karmada-descheduler, karmada-metrics-adapter,
    /// karmada-scheduler-estimator, karmada-search, or all.
    #[arg(value_name = "ADDON")]
    pub names: Vec<String>,

    #[command(flatten)]
    pub flags: AddonsFlags,

    /// Private image registry where pull images from. If set, all required images will be
    /// downloaded from it, it would be useful in offline installation scenarios.
    #[arg(long, value_name = "REGISTRY")]
    pub private_image_registry: Option<String>,

    /// Wait pod ready timeout (seconds).
    #[arg(long, default_value_t = 120, value_name = "SECONDS", allow_negative_numbers = true)]
    pub pod_timeout: i64,

    /// Wait apiservice ready timeout (seconds).
    #[arg(long, default_value_t = 30, value_name = "SECONDS", allow_negative_numbers = true)]
    pub apiservice_timeout: i64,

    /// Member cluster's kubeconfig which to deploy scheduler estimator
    #[arg(long, value_name = "PATH")]
    pub member_kubeconfig: Option<String>,

    /// Member cluster's context which to deploy scheduler estimator
    #[arg(long, value_name = "CONTEXT")]
    pub member_context: Option<String>,

    /// The cluster domain of karmada host cluster. (e.g. --host-cluster-domain=host.karmada)
    #[arg(long, default_value = "cluster.local")]
    pub host_cluster_domain: String,

    /// karmada-descheduler image
    #[arg(long, default_value_t = default_image("karmada-descheduler"))]
    pub karmada_descheduler_image: String,

    /// karmada descheduler replica set
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub karmada_descheduler_replicas: i32,

    /// The priority class name for the component karmada-descheduler.
    #[arg(long, default_value = "system-node-critical")]
    pub descheduler_priority_class: String,

    /// karmada-scheduler-estimator image
    #[arg(long, default_value_t = default_image("karmada-scheduler-estimator"))]
    pub karmada_scheduler_estimator_image: String,

    /// karmada-scheduler-estimator replica set
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub karmada_estimator_replicas: i32,

    /// The priority class name for the component karmada-scheduler-estimator.
    #[arg(long, default_value = "system-node-critical")]
    pub estimator_priority_class: String,

    /// karmada-metrics-adapter replica set
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub karmada_metrics_adapter_replicas: i32,

    /// karmada-metrics-adapter image
    #[arg(long, default_value_t = default_image("karmada-metrics-adapter"))]
    pub karmada_metrics_adapter_image: String,

    /// The priority class name for the component karmada-metrics-adapter.
    #[arg(long, default_value = "system-node-critical")]
    pub metrics_adapter_priority_class: String,

    /// Karmada-search replica set
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub karmada_search_replicas: i32,

    /// karmada-search image
    #[arg(long, default_value_t = default_image("karmada-search"))]
    pub karmada_search_image: String,

    /// The priority class name for the component karmada-search.
    #[arg(long, default_value = "system-node-critical")]
    pub search_priority_class: String,
}

impl EnableArgs {
    /// The image (moved to `--private-image-registry` only when its flag is the default),
    /// replicas and priority class of `addon`, with the flag that sets the replicas.
    fn workload(&self, addon: Addon) -> (Workload, &'static str) {
        let (image, replicas, priority_class, flag) = match addon {
            Addon::Descheduler => (
                &self.karmada_descheduler_image,
                self.karmada_descheduler_replicas,
                &self.descheduler_priority_class,
                "--karmada-descheduler-replicas",
            ),
            Addon::SchedulerEstimator => (
                &self.karmada_scheduler_estimator_image,
                self.karmada_estimator_replicas,
                &self.estimator_priority_class,
                "--karmada-estimator-replicas",
            ),
            Addon::MetricsAdapter => (
                &self.karmada_metrics_adapter_image,
                self.karmada_metrics_adapter_replicas,
                &self.metrics_adapter_priority_class,
                "--karmada-metrics-adapter-replicas",
            ),
            Addon::Search => (
                &self.karmada_search_image,
                self.karmada_search_replicas,
                &self.search_priority_class,
                "--karmada-search-replicas",
            ),
        };
        let image =
            karmada_image(image, &default_image(addon.name()), self.private_image_registry.as_deref(), addon.name());
        (Workload { image, replicas, priority_class: priority_class.clone() }, flag)
    }
}

fn seconds(value: i64) -> Duration {
    Duration::from_secs(value.max(0).unsigned_abs())
}

pub async fn run(args: EnableArgs, ctx: &Context) -> anyhow::Result<()> {
    let target = super::connect(&args.flags).await?;
    let (addons, all) = catalog::parse(&args.names)?;
    let clusters = match target {
        Target::Embedded(server) => return Err(embedded::refuse("enable", &args.names, &addons, &server, ctx)),
        Target::Host(clusters) => clusters,
    };
    validate(&args, &addons, all, &clusters).await?;
    let render = gather(&args, &addons, &clusters).await?;
    for addon in addons {
        ctx.printer.progress(&format!("Start to enable addon {}", addon.name()));
        if addon == Addon::SchedulerEstimator && render.cluster.is_none() {
            ctx.printer
                .warn("Cluster is not specified in CommandAddonsEnableOption, estimator installation will skip.");
        } else {
            install(addon, &args, &render, &clusters, ctx)
                .await
                .map_err(|e| e.context(format!("Install addon {} failed", addon.name())))?;
        }
        ctx.printer.progress(&format!("Successfully enable addon {}", addon.name()));
    }
    Ok(())
}

/// Upstream's `Validate`, then the bounds this tool adds (replicas, the estimator's cluster
/// name, which must fit into its objects' names and labels). Reads only.
async fn validate(args: &EnableArgs, addons: &[Addon], all: bool, clusters: &Clusters) -> anyhow::Result<()> {
    let ns = &args.flags.namespace;
    let secrets: Api<Secret> = Api::namespaced(clusters.host.clone(), ns);
    for addon in addons {
        let Some(name) = addon.config_secret() else { continue };
        let found = secrets.get_opt(&name).await.map_err(|e| {
            anyhow::anyhow!(
                "cannot read Secret {ns}/{name} in the host cluster at {}: {}",
                clusters.host_server,
                server_message(&e)
            )
        })?;
        if found.is_none() {
            return Err(UsageError::with_hint(
                format!("secrets `{name}` is not found in namespace {ns}, please execute karmadactl init to deploy karmada first"),
                "addons run next to a control plane installed by 'init' into this host cluster; pass its namespace with -n if it is not karmada-system.",
            )
            .into());
        }
    }
    let explicit_estimator = args.names.iter().any(|n| n == Addon::SchedulerEstimator.name());
    match args.flags.cluster() {
        None if explicit_estimator => {
            return Err(UsageError::new("member cluster is needed when enable karmada-scheduler-estimator,use `--cluster=member --member-kubeconfig /root/.kube/config --member-context member1` to enable karmada-scheduler-estimator").into());
        }
        None => {}
        Some(_) if !explicit_estimator && !all => {
            return Err(UsageError::new(
                "cluster is needed only when enable karmada-scheduler-estimator or enable all",
            )
            .into());
        }
        Some(cluster) => {
            if args.member_kubeconfig.as_deref().is_none_or(str::is_empty) {
                return Err(UsageError::new("member config is needed when enable karmada-scheduler-estimator,use `--cluster=member --member-kubeconfig /root/.kube/member.config --member-context member1` to enable karmada-scheduler-estimator").into());
            }
            estimator_cluster_name(cluster)?;
        }
    }
    for addon in addons {
        let (workload, flag) = args.workload(*addon);
        if workload.replicas < 0 {
            return Err(UsageError::new(format!("{flag} must not be negative, got {}", workload.replicas)).into());
        }
    }
    Ok(())
}

/// The estimator's objects are named `karmada-scheduler-estimator-<cluster>`, which is also a
/// label value and a Service name: at most 63 characters, a DNS label.
fn estimator_cluster_name(cluster: &str) -> Result<(), UsageError> {
    let max = 63 - catalog::estimator_name("").len();
    let hint = format!(
        "the member cluster's name becomes part of the estimator's object names (karmada-scheduler-estimator-<cluster>): lowercase letters, digits and '-', at most {max} characters."
    );
    crate::validation::cluster_name(cluster).map_err(|e| UsageError::with_hint(e, hint.clone()))?;
    if cluster.len() > max {
        return Err(UsageError::with_hint(
            format!("invalid cluster name({cluster}): must be no more than {max} characters"),
            hint,
        ));
    }
    Ok(())
}

/// Reads what the objects need before any of them is created: the Karmada CA and a reachable
/// Karmada API server (APIServices), etcd's servers (karmada-search), the member's kubeconfig.
async fn gather(args: &EnableArgs, addons: &[Addon], clusters: &Clusters) -> anyhow::Result<Render> {
    let ns = &args.flags.namespace;
    let mut render = Render {
        namespace: ns.clone(),
        cluster_domain: args.host_cluster_domain.clone(),
        cluster: args.flags.cluster().map(str::to_string),
        ca_pem: Vec::new(),
        etcd_servers: String::new(),
        etcd_prefix: None,
        member_kubeconfig: String::new(),
    };
    if let Some(first) = addons.iter().find_map(|a| a.api_services().first()) {
        render.ca_pem = karmada_ca(&clusters.host, ns).await?;
        list::api_service_available(&clusters.karmada, first).await.map_err(|e| {
            UsageError::with_hint(
                format!(
                    "cannot read APIService {first} in the Karmada API server at {}: {e:#}",
                    clusters.karmada_server
                ),
                "check --karmada-kubeconfig and --karmada-context; nothing was changed.",
            )
        })?;
        let namespaces: Api<Namespace> = Api::all(clusters.karmada.clone());
        let found = namespaces.get_opt(ns).await.map_err(|e| anyhow::anyhow!(server_message(&e)))?;
        if found.is_none() {
            return Err(UsageError::with_hint(
                format!("namespace {ns} does not exist in the Karmada API server at {}", clusters.karmada_server),
                "'init' creates it there; check --karmada-kubeconfig, --karmada-context and -n. Nothing was changed.",
            )
            .into());
        }
    }
    if addons.contains(&Addon::Search) {
        (render.etcd_servers, render.etcd_prefix) = etcd_servers(&clusters.host, ns, &args.host_cluster_domain).await?;
    }
    if addons.contains(&Addon::SchedulerEstimator)
        && let Some(cluster) = &render.cluster
    {
        render.member_kubeconfig = super::member::check(
            cluster,
            args.member_kubeconfig.as_deref().unwrap_or_default(),
            args.member_context.as_deref(),
        )
        .await?;
    }
    Ok(render)
}

/// `ca.crt` of the host's `karmada-cert` secret, which `init` wrote.
async fn karmada_ca(host: &kube::Client, ns: &str) -> anyhow::Result<Vec<u8>> {
    let secrets: Api<Secret> = Api::namespaced(host.clone(), ns);
    let secret = secrets.get("karmada-cert").await.map_err(|e| {
        anyhow::anyhow!(
            "error when getting Secret {ns}/karmada-cert, which is used to fetch CaCert for building APIService: {}",
            server_message(&e)
        )
    })?;
    let ca = secret.data.unwrap_or_default().remove("ca.crt").map(|b| b.0).filter(|b| !b.is_empty());
    ca.ok_or_else(|| anyhow::anyhow!("Secret {ns}/karmada-cert has no ca.crt to build the APIService's caBundle from"))
}

/// karmada-search reads Karmada's etcd directly: the servers of the etcd StatefulSet `init`
/// deployed, or else the `--etcd-servers` (and `--etcd-prefix`) of the karmada-apiserver
/// Deployment (an external etcd), as upstream finds them.
async fn etcd_servers(host: &kube::Client, ns: &str, domain: &str) -> anyhow::Result<(String, Option<String>)> {
    let hint = "karmada-search needs the etcd of a control plane installed by 'init' in this namespace.";
    let statefulsets: Api<StatefulSet> = Api::namespaced(host.clone(), ns);
    let read = |e: kube::Error| UsageError::with_hint(server_message(&e), hint);
    if let Some(sts) = statefulsets.get_opt("etcd").await.map_err(read)? {
        let replicas = sts.spec.and_then(|s| s.replicas).unwrap_or(1).max(0);
        let servers: Vec<String> =
            (0..replicas).map(|i| format!("https://etcd-{i}.etcd.{ns}.svc.{domain}:2379")).collect();
        return Ok((servers.join(","), None));
    }
    let deployments: Api<Deployment> = Api::namespaced(host.clone(), ns);
    let apiserver = deployments.get("karmada-apiserver").await.map_err(read)?;
    let command = apiserver
        .spec
        .and_then(|s| s.template.spec)
        .and_then(|p| p.containers.into_iter().find(|c| c.name == "karmada-apiserver"))
        .and_then(|c| c.command)
        .unwrap_or_default();
    let flag = |prefix: &str| command.iter().find_map(|a| a.strip_prefix(prefix)).map(str::to_string);
    match flag("--etcd-servers=").filter(|s| !s.is_empty()) {
        Some(servers) => Ok((servers, flag("--etcd-prefix=").filter(|p| !p.is_empty()))),
        None => Err(UsageError::with_hint("statefulsets.apps \"etcd\" not found", hint).into()),
    }
}

/// Applies one addon's objects: the host side (waiting for its Deployment), then the Karmada
/// side (waiting for each APIService to become Available).
async fn install(addon: Addon, args: &EnableArgs, r: &Render, c: &Clusters, ctx: &Context) -> anyhow::Result<()> {
    let printer = &ctx.printer;
    let spoken = addon.spoken();
    let (workload, _) = args.workload(addon);
    for obj in manifests::host_objects(addon, &workload, r)? {
        apply_readably(&c.host, &obj).await?;
        let kind = obj["kind"].as_str().unwrap_or_default();
        match kind {
            "Service" if addon != Addon::SchedulerEstimator => {
                printer.progress(&format!("Install {spoken} service on host cluster successfully"))
            }
            "Deployment" => wait_deployment(addon, &obj, args, c, ctx).await?,
            _ => printer.debug(1, &format!("applied {kind} {}", obj["metadata"]["name"].as_str().unwrap_or_default())),
        }
    }
    let karmada = manifests::karmada_objects(addon, r)?;
    if karmada.is_empty() {
        return Ok(());
    }
    for obj in &karmada {
        apply_readably(&c.karmada, obj).await?;
        if obj["kind"] == "APIService" {
            wait_api_service(obj["metadata"]["name"].as_str().unwrap_or_default(), addon, args, c, ctx).await?;
        }
    }
    printer.progress(&format!("Install {spoken} api server on karmada control plane successfully"));
    Ok(())
}

/// `init`'s server-side apply, with the API server's answer as client-go words it.
async fn apply_readably(client: &kube::Client, obj: &Value) -> anyhow::Result<()> {
    apply::apply(client, obj).await.map_err(|e| match e {
        apply::ApplyError::Apply { object, source } => {
            anyhow::anyhow!("cannot apply {object}: {}", server_message(&source))
        }
        other => other.into(),
    })
}

/// Waits up to `--pod-timeout` as upstream: a Deployment that does not become ready fails the
/// addon, except the estimator's, which is only warned about.
async fn wait_deployment(
    addon: Addon,
    obj: &Value,
    args: &EnableArgs,
    c: &Clusters,
    ctx: &Context,
) -> anyhow::Result<()> {
    let printer = &ctx.printer;
    let ns = &args.flags.namespace;
    let name = obj["metadata"]["name"].as_str().unwrap_or_default();
    let spinner = printer.spinner(&format!("waiting for Deployment {ns}/{name} to become ready"));
    if apply::wait_ready(&c.host, obj, Some(seconds(args.pod_timeout))).await? {
        spinner.finish(printer, &format!("Deployment {ns}/{name} is ready"));
        match addon {
            Addon::SchedulerEstimator => printer.progress(&format!(
                "Karmada scheduler estimator of member cluster {} is installed successfully.",
                args.flags.cluster().unwrap_or_default()
            )),
            other => printer.progress(&format!("Install {} deployment on host cluster successfully", other.spoken())),
        }
        return Ok(());
    }
    spinner.abandon();
    let why = apply::explain_not_ready(&c.host, ns, name).await;
    let message =
        format!("Deployment {ns}/{name} did not become ready within {}s: {why}", seconds(args.pod_timeout).as_secs());
    if addon == Addon::SchedulerEstimator {
        printer.warn(&message);
        printer.progress(&format!(
            "Karmada scheduler estimator of member cluster {} is installed successfully.",
            args.flags.cluster().unwrap_or_default()
        ));
        return Ok(());
    }
    let lead = match addon {
        Addon::Descheduler => "wait karmada descheduler pod timeout",
        other => &format!("wait {} pod status ready timeout", other.spoken()),
    };
    Err(UsageError::with_hint(
        format!("{lead}: {message}"),
        "fix the cause above and enable the addon again (it converges), or raise --pod-timeout.",
    )
    .into())
}

/// Polls the APIService every second until it is Available, up to `--apiservice-timeout`.
async fn wait_api_service(
    name: &str,
    addon: Addon,
    args: &EnableArgs,
    c: &Clusters,
    ctx: &Context,
) -> anyhow::Result<()> {
    let timeout = seconds(args.apiservice_timeout);
    let start = Instant::now();
    let spinner = ctx.printer.spinner(&format!("waiting for APIService {name} to become Available"));
    loop {
        if list::api_service_available(&c.karmada, name).await.ok().flatten() == Some(true) {
            spinner.finish(&ctx.printer, &format!("APIService {name} is Available"));
            return Ok(());
        }
        if start.elapsed() >= timeout {
            spinner.abandon();
            return Err(UsageError::with_hint(
                format!("APIService {name} did not become Available within {}s", timeout.as_secs()),
                format!(
                    "the Karmada API server marks it Available once it reaches {} through the Service {}/{}; check those pods, or raise --apiservice-timeout.",
                    addon.name(),
                    args.flags.namespace,
                    addon.name()
                ),
            )
            .into());
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimators_cluster_must_fit_its_object_names() {
        assert!(estimator_cluster_name(&"a".repeat(35)).is_ok());
        let long = estimator_cluster_name(&"a".repeat(36)).unwrap_err();
        assert_eq!(
            long.message,
            format!("invalid cluster name({}): must be no more than 35 characters", "a".repeat(36))
        );
        let bad = estimator_cluster_name("Member_1").unwrap_err();
        assert!(bad.message.starts_with("invalid cluster name(Member_1): "), "{}", bad.message);
    }

    #[test]
    fn negative_timeouts_wait_not_at_all() {
        assert_eq!(seconds(-5), Duration::ZERO);
        assert_eq!(seconds(120), Duration::from_secs(120));
    }
}
