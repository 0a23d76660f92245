//! `init` into a host Kubernetes cluster: resolve the flags into settings, complete them from
//! the host's nodes, build the whole plan, then (unless `--dry-run`) write the files and
//! server-side apply every object, waiting for each workload.
//!
//! Differences from upstream, on purpose: `--karmada-data` is not wiped first; a complete,
//! valid PKI already in `--karmada-pki` is reused (so a second run converges instead of
//! rotating every secret); no web service is asked for the machine's public IP; all host
//! objects are applied (and waited for) before the Karmada-side steps.
//!
//! Its modules hold the rest of installing into a host (shared with `deinit` without
//! `--embedded`): the settings resolved from the flags, the PKI, the rendered objects for the
//! host and for the new Karmada API server, the CRD tarball, and applying and removing them.

pub mod apply;
pub mod commands;
pub mod config_file;
pub mod crds;
pub mod extra_args;
pub mod host_objects;
pub mod karmada_objects;
pub mod pki;
pub mod plan;
pub mod remove;
pub mod settings;
pub mod template;

pub use crds::{CrdError, CrdSet};
pub use pki::HostPki;
pub use plan::Plan;
pub use settings::{CrdSource, Etcd, Part, PartSettings, Settings, StorageMode};

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Node, Service};
use karmadactl_karmada_api::wellknown::{KARMADA_RELEASE, LABEL_ETCD_NODE};
use kube::api::{Api, ListParams, Patch, PatchParams};
use kube::{Client, ResourceExt as _};
use serde_json::json;

use super::InitArgs;
use crate::cli::Context;
use crate::cmd::connection::ClusterConnection;
use crate::error::UsageError;
use crate::output::OutputFormat;
use karmadactl_simulator::SIMULATED_LABEL;
use plan::NodeLabel;

/// Resolves the flags into settings, without touching the host (its nodes fill in the API
/// server addresses and the etcd node later, in [`complete`]).
pub fn settings(args: &InitArgs) -> anyhow::Result<Settings> {
    let private = args.private_image_registry.as_deref();
    let kube_registry = settings::kube_registry(
        args.kube_image_registry.as_deref(),
        args.kube_image_mirror_country.as_deref(),
        private,
    );
    let mut parts = BTreeMap::new();
    for part in Part::ALL {
        let (component, given) = args
            .components
            .settings
            .iter()
            .find(|(c, _)| c.prefix == part.flag_prefix())
            .expect("every part has component flags");
        let image = match part {
            Part::Etcd if given.image.is_empty() => format!("{kube_registry}/etcd:{}", settings::ETCD_IMAGE_TAG),
            Part::ApiServer if given.image.is_empty() => {
                format!("{kube_registry}/kube-apiserver:{}", args.kube_image_tag)
            }
            Part::KubeControllerManager if given.image.is_empty() => {
                format!("{kube_registry}/kube-controller-manager:{}", args.kube_image_tag)
            }
            _ => match component.karmada_image {
                Some(name) => settings::karmada_image(&given.image, &component.default_image(), private, name),
                None => given.image.clone(),
            },
        };
        let flag = format!("{}-extra-args", part.flag_prefix());
        let extra_args = extra_args::parse(&flag, &given.extra_args).map_err(|e| {
            UsageError::with_hint(e.to_string(), "pass extra arguments as --key=value, comma-separated.")
        })?;
        parts.insert(
            part,
            PartSettings { image, replicas: given.replicas, priority_class: given.priority_class.clone(), extra_args },
        );
    }
    let etcd = match args.external_etcd_servers.as_deref().filter(|s| !s.is_empty()) {
        Some(servers) => Etcd::External {
            servers: servers.to_string(),
            key_prefix: args.external_etcd_key_prefix.clone(),
            ca_cert: args.external_etcd_ca_cert_path.as_ref().map(PathBuf::from),
            client_cert: args.external_etcd_client_cert_path.as_ref().map(PathBuf::from),
            client_key: args.external_etcd_client_key_path.as_ref().map(PathBuf::from),
        },
        None => Etcd::Local {
            storage: match args.etcd_storage_mode.as_str() {
                "emptyDir" => StorageMode::EmptyDir,
                "PVC" => StorageMode::Pvc {
                    storage_class: args.storage_classes_name.clone().unwrap_or_default(),
                    size: args.etcd_pvc_size.clone(),
                },
                _ => StorageMode::HostPath {
                    path: args.etcd_data.clone(),
                    node_selector: node_selector(args.etcd_node_selector_labels.as_deref())?,
                },
            },
        },
    };
    let split = |s: &Option<String>| -> Vec<String> {
        s.iter().flat_map(|s| s.split(',')).filter(|s| !s.is_empty()).map(str::to_string).collect()
    };
    let cert_external_ips =
        split(&args.cert_external_ip).iter().map(|s| s.parse::<IpAddr>()).collect::<Result<Vec<_>, _>>()?;
    let apiserver_ips = args.karmada_apiserver_advertise_address.iter().filter_map(|a| a.parse().ok()).collect();
    let crds = if args.crds.starts_with("http") {
        if args.crds == default_crds_url() { CrdSource::Builtin } else { CrdSource::Url(args.crds.clone()) }
    } else {
        CrdSource::File(PathBuf::from(&args.crds))
    };
    Ok(Settings {
        namespace: args.namespace.clone(),
        cluster_domain: args.host_cluster_domain.clone(),
        node_port: args.port,
        image_pull_policy: args.image_pull_policy.clone(),
        image_pull_secrets: args.image_pull_secrets.iter().filter(|s| !s.is_empty()).cloned().collect(),
        parts,
        etcd,
        apiserver_ips,
        cert_external_ips,
        cert_external_dns: split(&args.cert_external_dns),
        cert_validity: crate::cmd::parse_duration("cert-validity-period", &args.cert_validity_period)?,
        ca_files: args.ca_cert_file.as_ref().zip(args.ca_key_file.as_ref()).map(|(c, k)| (c.into(), k.into())),
        key_algorithm: karmadactl_pki::KeyAlgorithm::Rsa3072,
        data_dir: PathBuf::from(super::host_data_dir(args)),
        pki_dir: PathBuf::from(super::host_pki_dir(args)),
        crds,
        wait_timeout: match args.wait_component_ready_timeout {
            0 => None,
            s => Some(Duration::from_secs(s.max(0) as u64)),
        },
    })
}

/// The release tarball `--crds` defaults to. Its CRDs are the ones this binary carries, so the
/// default needs no download.
pub fn default_crds_url() -> String {
    format!("https://github.com/karmada-io/karmada/releases/download/{KARMADA_RELEASE}/crds.tar.gz")
}

/// `--etcd-node-selector-labels` (`k=v,k2=v2`); without it, upstream's `karmada.io/etcd: ""`.
fn node_selector(flag: Option<&str>) -> anyhow::Result<BTreeMap<String, String>> {
    let Some(flag) = flag.filter(|f| !f.is_empty()) else {
        return Ok(BTreeMap::from([(LABEL_ETCD_NODE.to_string(), String::new())]));
    };
    let mut out = BTreeMap::new();
    for item in flag.split(',') {
        let Some((k, v)) = item.split_once('=').filter(|(k, _)| !k.is_empty()) else {
            return Err(UsageError::with_hint(
                format!("invalid --etcd-node-selector-labels item {item:?}"),
                "write the labels as key=value pairs separated by commas, e.g. karmada.io/etcd=true,kubernetes.io/os=linux.",
            )
            .into());
        };
        out.insert(k.to_string(), v.to_string());
    }
    Ok(out)
}

/// A client for the host cluster, with bounded timeouts.
pub async fn host_client(conn: &ClusterConnection) -> anyhow::Result<(Client, String)> {
    let choice = crate::kubeconfig::rules::host_context(conn.context.as_deref().unwrap_or_default());
    let loaded = crate::cmd::connection::load(conn.kubeconfig.as_deref())?;
    let resolved = loaded.resolve(choice.as_deref())?;
    let options =
        kube::config::KubeConfigOptions { context: Some(resolved.context_name.clone()), ..Default::default() };
    let mut config = kube::Config::from_custom_kubeconfig(loaded.config().clone(), &options).await?;
    config.connect_timeout = Some(crate::membership::connect::CONNECT_TIMEOUT);
    config.read_timeout = Some(crate::membership::connect::REQUEST_TIMEOUT);
    config.write_timeout = Some(crate::membership::connect::REQUEST_TIMEOUT);
    let server = resolved.cluster.server.clone();
    Ok((Client::try_from(config)?, server))
}

/// What the host's nodes tell: whether they are simulated, and the etcd node to label.
struct HostFacts {
    simulated: bool,
    node_labels: Vec<NodeLabel>,
}

fn healthy_untainted(node: &Node) -> bool {
    let tainted = node.spec.as_ref().and_then(|s| s.taints.as_ref()).is_some_and(|t| !t.is_empty());
    let conditions = node.status.as_ref().and_then(|s| s.conditions.clone()).unwrap_or_default();
    let is = |t: &str, want: &str| conditions.iter().any(|c| c.type_ == t && c.status == want);
    !tainted
        && is("Ready", "True")
        && ["MemoryPressure", "DiskPressure", "NetworkUnavailable", "PIDPressure"]
            .iter()
            .all(|t| !conditions.iter().any(|c| c.type_ == *t && c.status != "False"))
}

fn first_address(node: &Node) -> Option<IpAddr> {
    node.status.as_ref()?.addresses.as_ref()?.first()?.address.parse().ok()
}

/// Upstream's Complete step against the host: the NodePort must be free (unless this
/// install's own Service holds it), the etcd node is chosen and the API server addresses found.
async fn complete(client: &Client, settings: &mut Settings) -> anyhow::Result<HostFacts> {
    let services: Api<Service> = Api::all(client.clone());
    for svc in services.list(&ListParams::default()).await?.items {
        let ours = svc.metadata.namespace.as_deref() == Some(settings.namespace.as_str())
            && svc.metadata.name.as_deref() == Some("karmada-apiserver");
        let taken = svc
            .spec
            .as_ref()
            .and_then(|s| s.ports.as_ref())
            .is_some_and(|ports| ports.iter().any(|p| p.node_port == Some(settings.node_port)));
        if taken && !ours {
            return Err(UsageError::with_hint(
                format!("nodePort of karmada apiserver {} already exist", settings.node_port),
                "choose another NodePort with --port.",
            )
            .into());
        }
    }
    let nodes = Api::<Node>::all(client.clone()).list(&ListParams::default()).await?.items;
    let simulated = nodes.iter().any(|n| n.labels().get(SIMULATED_LABEL).is_some_and(|v| v == "true"));
    let mut node_labels = Vec::new();
    if let Etcd::Local { storage: StorageMode::HostPath { node_selector, .. } } = &settings.etcd {
        let matches = |n: &Node, k: &str, v: &str| n.labels().get(k).is_some_and(|have| have == v);
        let default_selector =
            node_selector.len() == 1 && node_selector.get(LABEL_ETCD_NODE).is_some_and(|v| v.is_empty());
        if default_selector {
            if !nodes.iter().any(|n| n.labels().contains_key(LABEL_ETCD_NODE)) {
                let node = nodes.iter().find(|n| healthy_untainted(n)).ok_or_else(|| {
                    UsageError::with_hint(
                        "failed to find a healthy node for karmada-etcd",
                        "make a node Ready and untainted, or pick one with --etcd-node-selector-labels.",
                    )
                })?;
                node_labels.push(NodeLabel {
                    node: node.name_any(),
                    key: LABEL_ETCD_NODE.to_string(),
                    value: String::new(),
                });
            }
        } else {
            for (k, v) in node_selector {
                if !nodes.iter().any(|n| matches(n, k, v)) {
                    return Err(UsageError::new(format!("no node found by label {k}={v}")).into());
                }
            }
        }
    }
    if settings.apiserver_ips.is_empty() {
        let with_label = |l: &str| -> Vec<IpAddr> {
            nodes.iter().filter(|n| n.labels().contains_key(l)).filter_map(first_address).collect()
        };
        let mut ips = with_label("node-role.kubernetes.io/master");
        if ips.is_empty() {
            ips = with_label("node-role.kubernetes.io/control-plane");
        }
        if ips.is_empty() {
            ips = nodes.iter().take(3).filter_map(first_address).collect();
        }
        if ips.is_empty() {
            return Err(UsageError::with_hint(
                "karmada apiserver ip is empty",
                "pass the address members reach the API server at with --karmada-apiserver-advertise-address.",
            )
            .into());
        }
        settings.apiserver_ips = ips;
    }
    Ok(HostFacts { simulated, node_labels })
}

/// Loads the CRDs named by `--crds`, checking a tarball completely before anything is applied.
async fn load_crds(source: &CrdSource) -> anyhow::Result<CrdSet> {
    let hint = "pass a release crds.tar.gz (crds/bases and crds/patches inside), or leave --crds unset to use the CRDs built into karmadactl.";
    match source {
        CrdSource::Builtin => Ok(CrdSet::builtin()),
        CrdSource::File(path) => {
            let bytes = std::fs::read(path).map_err(|e| {
                UsageError::with_hint(format!("cannot read the CRD tarball {}: {e}", path.display()), hint)
            })?;
            CrdSet::from_tarball(&path.display().to_string(), &bytes)
                .map_err(|e| UsageError::with_hint(e.to_string(), hint).into())
        }
        CrdSource::Url(url) => {
            let bytes = crate::download::fetch(url).await.map_err(|e| UsageError::with_hint(e.to_string(), hint))?;
            CrdSet::from_tarball(url, &bytes).map_err(|e| UsageError::with_hint(e.to_string(), hint).into())
        }
    }
}

/// The host objects as applyable YAML documents or a JSON `List`.
fn manifests(plan: &Plan, output: OutputFormat) -> anyhow::Result<String> {
    if output == OutputFormat::Json {
        let list = json!({"apiVersion": "v1", "kind": "List", "items": plan.host_objects});
        return Ok(format!("{}\n", serde_json::to_string_pretty(&list)?));
    }
    let mut out = String::new();
    for obj in &plan.host_objects {
        out.push_str("---\n");
        out.push_str(&crate::output::to_format(OutputFormat::Yaml, obj)?);
    }
    Ok(out)
}

pub fn run(args: &InitArgs, output: OutputFormat, ctx: &Context) -> anyhow::Result<()> {
    let mut settings = settings(args)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(run_async(args, &mut settings, output, ctx))
}

async fn run_async(
    args: &InitArgs,
    settings: &mut Settings,
    output: OutputFormat,
    ctx: &Context,
) -> anyhow::Result<()> {
    let printer = &ctx.printer;
    let crds = load_crds(&settings.crds).await?;
    let (client, server) = host_client(&args.host).await?;
    let facts =
        complete(&client, settings).await.map_err(|e| e.context(format!("checking the host cluster at {server}")))?;
    let pki = if args.dry_run {
        HostPki::load_or_generate(settings, &settings.pki_dir)?
    } else {
        let spinner = printer.spinner("preparing certificates");
        let pki = HostPki::load_or_generate(settings, &settings.pki_dir)?;
        spinner.finish(
            printer,
            if pki.reused { "reusing the certificates in --karmada-pki" } else { "certificates generated" },
        );
        pki
    };
    let plan = Plan::build(settings.clone(), pki, &crds, facts.node_labels)?;
    if args.dry_run {
        if matches!(output, OutputFormat::Json | OutputFormat::Yaml) {
            printer.data(&manifests(&plan, output)?)?;
        } else {
            printer.line(&format!("init would install Karmada into {server}:"))?;
            for line in plan.describe() {
                printer.line(&line)?;
            }
            printer.line("dry run: nothing was created")?;
        }
        return Ok(());
    }
    printer.progress(&format!("init will install Karmada into {server}:"));
    for line in plan.describe() {
        printer.progress(&line);
    }
    write_files(&plan)?;
    for label in &plan.node_labels {
        let nodes: Api<Node> = Api::all(client.clone());
        let patch = json!({"metadata": {"labels": {&label.key: &label.value}}});
        nodes.patch(&label.node, &PatchParams::default(), &Patch::Merge(&patch)).await?;
        printer.progress(&format!("labelled node {} {}={:?}", label.node, label.key, label.value));
    }
    apply_host(&client, &plan, ctx).await?;
    let kubeconfig = settings.data_dir.join(karmadactl_karmada_api::wellknown::KARMADA_APISERVER_KUBECONFIG);
    if facts.simulated || args.host_only {
        let why = if facts.simulated {
            format!(
                "the host cluster's nodes are simulated (label {SIMULATED_LABEL}=true): its pods report ready but run nothing, so no karmada-apiserver listens at {}",
                settings.external_server()
            )
        } else {
            "--host-only was given".to_string()
        };
        printer.progress(&format!(
            "stopping before connecting to the new karmada-apiserver: {why}.\n\
             The host cluster objects are in place; the Karmada-side steps were not run ({} objects: CRDs, webhook configurations, \
             the cluster APIService, cluster-info and bootstrap RBAC; '{} init --dry-run' lists them).",
            plan.karmada_objects.len(),
            ctx.parent()
        ));
        return Ok(());
    }
    setup_karmada(&plan, &kubeconfig, ctx).await?;
    printer.data(&super::banner::render_host(ctx.parent(), &kubeconfig.display().to_string()))?;
    Ok(())
}

fn write_files(plan: &Plan) -> anyhow::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    for file in &plan.files {
        if let Some(dir) = file.path.parent() {
            std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
        }
        let write = || -> std::io::Result<()> {
            use std::io::Write;
            let tmp = file.path.with_extension("tmp");
            let mut f =
                std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(file.mode).open(&tmp)?;
            f.write_all(file.contents.as_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, &file.path)
        };
        write().map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.path.display()))?;
    }
    Ok(())
}

/// Whether a workload that does not become ready stops init: only the API server, as upstream;
/// for the others a warning names the failing pod and init goes on.
fn fatal_if_not_ready(part: &str) -> bool {
    part == "karmada-apiserver"
}

async fn apply_host(client: &Client, plan: &Plan, ctx: &Context) -> anyhow::Result<()> {
    let printer = &ctx.printer;
    let ns = &plan.settings.namespace;
    for obj in &plan.host_objects {
        apply::apply(client, obj).await?;
        printer.debug(1, &format!("applied {}", plan::object_line(obj)));
        let kind = obj["kind"].as_str().unwrap_or_default();
        if kind != "Deployment" && kind != "StatefulSet" {
            continue;
        }
        let name = obj["metadata"]["name"].as_str().unwrap_or_default();
        let spinner = printer.spinner(&format!("waiting for {kind} {ns}/{name} to become ready"));
        if apply::wait_ready(client, obj, plan.settings.wait_timeout).await? {
            spinner.finish(printer, &format!("{kind} {ns}/{name} is ready"));
            continue;
        }
        spinner.abandon();
        let why = apply::explain_not_ready(client, ns, name).await;
        let secs = plan.settings.wait_timeout.map(|d| d.as_secs()).unwrap_or_default();
        let message = format!("{kind} {ns}/{name} did not become ready within {secs}s: {why}");
        if fatal_if_not_ready(name) {
            return Err(UsageError::with_hint(
                message,
                "fix the cause above and run init again (it converges), or raise --wait-component-ready-timeout.",
            )
            .into());
        }
        printer.warn(&message);
    }
    Ok(())
}

/// The Karmada-side steps, through the admin kubeconfig init just wrote.
async fn setup_karmada(plan: &Plan, kubeconfig: &std::path::Path, ctx: &Context) -> anyhow::Result<()> {
    let printer = &ctx.printer;
    let loaded = crate::cmd::connection::load(Some(&kubeconfig.display().to_string()))?;
    let mut config =
        kube::Config::from_custom_kubeconfig(loaded.config().clone(), &kube::config::KubeConfigOptions::default())
            .await?;
    config.connect_timeout = Some(crate::membership::connect::CONNECT_TIMEOUT);
    config.read_timeout = Some(crate::membership::connect::REQUEST_TIMEOUT);
    let client = Client::try_from(config)?;
    let spinner =
        printer.spinner(&format!("connecting to the karmada-apiserver at {}", plan.settings.external_server()));
    let deadline = std::time::Instant::now() + plan.settings.wait_timeout.unwrap_or(Duration::from_secs(120));
    loop {
        match client.apiserver_version().await {
            Ok(_) => break,
            Err(e) if std::time::Instant::now() >= deadline => {
                spinner.abandon();
                return Err(UsageError::with_hint(
                    format!("cannot reach the new karmada-apiserver at {}: {e}", plan.settings.external_server()),
                    "check that this machine reaches the node address and NodePort, or pass --karmada-apiserver-advertise-address; --host-only stops before this step.",
                )
                .into());
            }
            Err(_) => tokio::time::sleep(Duration::from_secs(1)).await,
        }
    }
    spinner.finish(printer, "connected to the karmada-apiserver");
    for obj in &plan.karmada_objects {
        apply::apply(&client, obj).await?;
        printer.debug(1, &format!("applied {}", plan::object_line(obj)));
    }
    let spinner = printer.spinner("waiting for the APIService v1alpha1.cluster.karmada.io to become available");
    let services: Api<kube::api::DynamicObject> = Api::all_with(
        client.clone(),
        &apply::api_resource("apiregistration.k8s.io/v1", "APIService").expect("known kind").0,
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        let available = services.get_opt("v1alpha1.cluster.karmada.io").await.ok().flatten().is_some_and(|s| {
            s.data["status"]["conditions"]
                .as_array()
                .is_some_and(|c| c.iter().any(|c| c["type"] == "Available" && c["status"] == "True"))
        });
        if available {
            spinner.finish(printer, "the cluster API is available");
            break;
        }
        if std::time::Instant::now() >= deadline {
            spinner.abandon();
            anyhow::bail!("the APIService v1alpha1.cluster.karmada.io did not become available within 120s");
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    Ok(())
}
