//! `register`, step by step as upstream (§8 of the spec), with its quirks fixed: failed
//! pre-flight checks fail the command, a failure after the first object was created removes
//! what this run created (in the plane and the member), and the agent can run on this machine.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use k8s_openapi::api::apps::v1::Deployment;
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_pki::CaPin;
use karmadactl_pki::token::BootstrapToken;
use kube::api::{Api, DeleteParams};
use kube::{Client, ResourceExt};

use super::agent_ready::{self, NotReady};
use super::discovery;
use crate::pull::certificate::{self, RBAC_GENERATOR_USER};
use crate::pull::local_agent::{self, MemberAccess};
use crate::pull::member_agent::{self, AgentDeployment};
use crate::pull::objects::{self, ObjectId};
use crate::pull::plane_rbac;

const FIELD_MANAGER: &str = "karmadactl";

/// Where the agent runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AgentMode {
    /// A `karmada-agent` Deployment in the member, as upstream deploys it.
    Deployment,
    /// The agent built into this binary, as a background process on this machine.
    Local,
}

#[derive(Debug, Clone)]
pub struct RegisterOptions {
    pub endpoint: String,
    pub token: BootstrapToken,
    pub pins: Vec<CaPin>,
    pub discovery_timeout: Duration,
    pub cluster_name: String,
    pub cluster_namespace: String,
    /// The agent's namespace in the member (Deployment mode).
    pub namespace: String,
    pub provider: String,
    pub region: String,
    pub zones: Vec<String>,
    pub cert_rotation: bool,
    pub image: String,
    pub replicas: i32,
    pub cert_expiration_seconds: i32,
    pub proxy_server_address: String,
    pub dry_run: bool,
    pub mode: AgentMode,
    pub agent_dir: PathBuf,
    /// The member's API server URL, as the agent reports it.
    pub member_server: String,
    pub member_context: String,
    pub member_kubeconfig: Option<PathBuf>,
    /// The command name to suggest (`karmadactl` or `kubectl karmada`).
    pub parent: String,
}

#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    #[error("[preflight] Some fatal errors occurred:\n{}", .0.iter().map(|e| format!("\t[ERROR]: {e}")).collect::<Vec<_>>().join("\n"))]
    Preflight(Vec<String>),
    #[error("failed to register as cluster with name {0} already exists")]
    Exists(String),
    #[error("cluster {existing} is already registered with the same ID ({id}) as this member; unregister it first")]
    SameId { existing: String, id: String },
    #[error("the karmada-agent Deployment did not become ready within {seconds}s: {detail}")]
    RolloutTimeout { seconds: u64, detail: String },
    #[error(
        "the karmada-agent Deployment is ready but the plane has no Ready cluster {cluster} after {seconds}s ({last}); \
         see the agent's log with 'kubectl logs -n {namespace} deployment/karmada-agent' in the member"
    )]
    ClusterNotReady { cluster: String, seconds: u64, last: String, namespace: String },
    #[error("the local agent did not report cluster {cluster} Ready within {seconds}s; its log is {log}{tail}")]
    AgentNotReady { cluster: String, seconds: u64, log: String, tail: String },
    #[error("the local agent exited before cluster {cluster} was Ready; its log is {log}{tail}")]
    AgentExited { cluster: String, log: String, tail: String },
}

/// What this run created, to take back if a later step fails.
#[derive(Default)]
struct Created {
    plane: Vec<ObjectId>,
    member: Vec<ObjectId>,
    local_agent: bool,
    /// The agent's own client: the generator may not delete a Cluster, the agent its own.
    agent: Option<Client>,
}

/// `member_id` is the member's kube-system UID, read by the caller (which can name the member
/// in errors).
pub async fn register(
    member: &Client,
    member_id: &str,
    opts: &RegisterOptions,
    out: &dyn Fn(&str),
) -> anyhow::Result<()> {
    out("[preflight] Running pre-flight checks");
    let errors = preflight(member, opts).await?;
    if !errors.is_empty() {
        return Err(RegisterError::Preflight(errors).into());
    }
    out("[preflight] All pre-flight checks were passed");
    if opts.dry_run {
        return Ok(());
    }

    out("[karmada-agent-start] Waiting to perform the TLS Bootstrap");
    let found =
        discovery::discover(&opts.endpoint, &opts.token, &opts.pins, opts.discovery_timeout, &opts.parent).await?;
    let bootstrap = crate::pull::client_from(
        &crate::kubeconfig::KubeconfigBuilder::new("karmada-apiserver", "tls-bootstrap-token-user", &found.server)
            .context("tls-bootstrap-token-user@karmada-apiserver")
            .certificate_authority(found.ca_pem.clone())
            .token(opts.token.to_string())
            .build(),
    )
    .await?;
    let deadline = Instant::now() + opts.discovery_timeout;
    let remaining = || deadline.saturating_duration_since(Instant::now());

    let generator_csr = format!("agent-rbac-generator-{}{}", opts.cluster_name, certificate::random_suffix()?);
    let generator_cert = certificate::request(
        &bootstrap,
        &generator_csr,
        RBAC_GENERATOR_USER,
        opts.cert_expiration_seconds,
        remaining(),
    )
    .await;
    let generator_cert = match generator_cert {
        Ok(c) => c,
        Err(e) => {
            let _ = certificate::delete(&bootstrap, &generator_csr).await;
            return Err(e.into());
        }
    };
    let generator = crate::pull::client_from(&crate::pull::agent_kubeconfig(
        &found.server,
        &found.ca_pem,
        &opts.cluster_name,
        &generator_cert,
    ))
    .await?;

    let mut created = Created::default();
    let result = async {
        out("[karmada-agent-start] Waiting to check cluster exists");
        check_not_registered(&generator, &opts.cluster_name, member_id).await?;
        out("[karmada-agent-start] Assign the necessary RBAC permissions to the agent");
        let granted = grant(&generator, opts, &mut created).await;
        // The generator's request has served its purpose either way.
        let _ = certificate::delete(&generator, &generator_csr).await;
        granted?;

        out("[karmada-agent-start] Waiting to construct karmada-agent kubeconfig");
        let agent_csr = format!("{}-{}", opts.cluster_name, certificate::random_suffix()?);
        let agent_cert = certificate::request(
            &bootstrap,
            &agent_csr,
            &plane_rbac::agent_user(&opts.cluster_name),
            opts.cert_expiration_seconds,
            remaining(),
        )
        .await?;
        let agent_kubeconfig =
            crate::pull::agent_kubeconfig(&found.server, &found.ca_pem, &opts.cluster_name, &agent_cert);
        created.agent = Some(crate::pull::client_from(&agent_kubeconfig).await?);
        match opts.mode {
            AgentMode::Deployment => deploy(member, opts, &agent_kubeconfig, &mut created, remaining()).await,
            AgentMode::Local => run_local(opts, &agent_kubeconfig, &mut created, remaining()).await,
        }
    }
    .await;
    if let Err(e) = result {
        if !created.plane.is_empty() || !created.member.is_empty() || created.local_agent {
            out("karmadactl register failed and started deleting the created resources");
            roll_back(&generator, member, opts, member_id, created).await;
        }
        return Err(e);
    }
    out("");
    out(&format!("cluster({}) is joined successfully", opts.cluster_name));
    Ok(())
}

/// Upstream's checks, plus: the local agent directory must not hold an agent already.
async fn preflight(member: &Client, opts: &RegisterOptions) -> anyhow::Result<Vec<String>> {
    let mut errors = vec![];
    match opts.mode {
        AgentMode::Deployment => {
            if agent_ready::member_is_simulated(member).await {
                return Err(agent_ready::simulated_member_error(&opts.cluster_name, &opts.parent).into());
            }
            let ns = Some(opts.namespace.as_str());
            let checks = [
                ObjectId::new("Secret", ns, member_agent::KUBECONFIG_SECRET),
                ObjectId::new("ServiceAccount", ns, member_agent::AGENT_SERVICE_ACCOUNT),
                ObjectId::new("Deployment", ns, member_agent::AGENT_NAME),
            ];
            if objects::exists(member, &ObjectId::new("Namespace", None, &opts.namespace)).await? {
                for id in checks {
                    if objects::exists(member, &id).await? {
                        errors.push(format!("{id} already exists in the member cluster"));
                    }
                }
            }
        }
        AgentMode::Local => {
            if let Some(pid) = local_agent::running_pid(&opts.agent_dir) {
                errors.push(format!("a karmada agent (pid {pid}) already runs from {}", opts.agent_dir.display()));
            } else if local_agent::kubeconfig_path(&opts.agent_dir).exists() {
                errors.push(format!(
                    "{} already exists; unregister the cluster or remove it",
                    local_agent::kubeconfig_path(&opts.agent_dir).display()
                ));
            }
        }
    }
    Ok(errors)
}

async fn check_not_registered(generator: &Client, name: &str, member_id: &str) -> anyhow::Result<()> {
    let clusters: Api<Cluster> = Api::all(generator.clone());
    if clusters.get_opt(name).await?.is_some() {
        return Err(RegisterError::Exists(name.into()).into());
    }
    for c in clusters.list(&Default::default()).await? {
        if c.spec.id.as_deref() == Some(member_id) {
            return Err(RegisterError::SameId { existing: c.name_any(), id: member_id.into() }.into());
        }
    }
    Ok(())
}

async fn grant(generator: &Client, opts: &RegisterOptions, created: &mut Created) -> anyhow::Result<()> {
    for ns in plane_rbac::namespaces(&opts.cluster_name, &opts.cluster_namespace) {
        let obj = plane_rbac::namespace(&ns, &opts.cluster_name);
        if objects::create(generator, &obj).await? {
            created.plane.push(ObjectId::of(&obj));
        }
    }
    for obj in plane_rbac::objects(&opts.cluster_name, &opts.cluster_namespace, opts.mode == AgentMode::Deployment) {
        if objects::create(generator, &obj).await? {
            created.plane.push(ObjectId::of(&obj));
        }
    }
    Ok(())
}

async fn deploy(
    member: &Client,
    opts: &RegisterOptions,
    agent_kubeconfig: &kube::config::Kubeconfig,
    created: &mut Created,
    timeout: Duration,
) -> anyhow::Result<()> {
    let ns = member_agent::namespace(&opts.namespace);
    if objects::create(member, &ns).await? {
        created.member.push(ObjectId::of(&ns));
    }
    let d = AgentDeployment {
        namespace: opts.namespace.clone(),
        cluster_name: opts.cluster_name.clone(),
        cluster_namespace: opts.cluster_namespace.clone(),
        member_endpoint: opts.member_server.clone(),
        provider: opts.provider.clone(),
        region: opts.region.clone(),
        zones: opts.zones.clone(),
        cert_rotation: opts.cert_rotation,
        proxy_server_address: opts.proxy_server_address.clone(),
        image: opts.image.clone(),
        replicas: opts.replicas,
    };
    let kubeconfig_yaml = crate::kubeconfig::to_yaml(agent_kubeconfig)?;
    for obj in member_agent::objects(&d, &kubeconfig_yaml) {
        if !objects::apply(member, &obj, FIELD_MANAGER).await? {
            created.member.push(ObjectId::of(&obj));
        }
    }
    let deadline = Instant::now() + timeout;
    wait_rollout(member, opts, timeout).await?;
    // A rolled-out Deployment is not a member yet: upstream stops here, but success is only
    // true once the agent has registered the Cluster and it is Ready.
    let agent = crate::pull::client_from(agent_kubeconfig).await?;
    let left = deadline.saturating_duration_since(Instant::now());
    let Err(why) = agent_ready::wait_cluster_ready(&agent, &opts.cluster_name, left, &|| true).await else {
        return Ok(());
    };
    // The Deployment is never reported gone (`still_running` is always true).
    let last = match why {
        NotReady::Timeout { last } => last,
        NotReady::AgentGone => None,
    };
    Err(RegisterError::ClusterNotReady {
        cluster: opts.cluster_name.clone(),
        seconds: timeout.as_secs(),
        last: last.unwrap_or_else(|| "the agent has not created the Cluster".into()),
        namespace: opts.namespace.clone(),
    }
    .into())
}

async fn wait_rollout(member: &Client, opts: &RegisterOptions, timeout: Duration) -> anyhow::Result<()> {
    let api: Api<Deployment> = Api::namespaced(member.clone(), &opts.namespace);
    let deadline = Instant::now() + timeout;
    loop {
        let d = api.get(member_agent::AGENT_NAME).await?;
        let status = d.status.clone().unwrap_or_default();
        let rolled_out = status.observed_generation >= d.metadata.generation
            && status.updated_replicas.unwrap_or(0) >= opts.replicas
            && status.ready_replicas.unwrap_or(0) >= opts.replicas;
        if rolled_out {
            return Ok(());
        }
        if Instant::now() >= deadline {
            let detail = status
                .conditions
                .unwrap_or_default()
                .into_iter()
                .map(|c| format!("{}={} {}", c.type_, c.status, c.message.unwrap_or_default()))
                .collect::<Vec<_>>()
                .join("; ");
            let detail = if detail.is_empty() {
                format!("{} of {} replicas ready", status.ready_replicas.unwrap_or(0), opts.replicas)
            } else {
                detail
            };
            return Err(RegisterError::RolloutTimeout { seconds: timeout.as_secs(), detail }.into());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

async fn run_local(
    opts: &RegisterOptions,
    agent_kubeconfig: &kube::config::Kubeconfig,
    created: &mut Created,
    timeout: Duration,
) -> anyhow::Result<()> {
    create_private_dir(&opts.agent_dir)?;
    crate::kubeconfig::write_file_with_mode(&local_agent::kubeconfig_path(&opts.agent_dir), agent_kubeconfig, 0o600)?;
    created.local_agent = true;
    let mut extra: Vec<(String, String)> = vec![];
    let attrs = [("cluster-provider", &opts.provider), ("cluster-region", &opts.region)];
    for (flag, value) in attrs {
        if !value.is_empty() {
            extra.push((flag.into(), value.clone()));
        }
    }
    if !opts.zones.is_empty() {
        extra.push(("cluster-zones".into(), opts.zones.join(",")));
    }
    let access = MemberAccess { kubeconfig: opts.member_kubeconfig.clone(), context: opts.member_context.clone() };
    let pid = local_agent::start(&opts.agent_dir, &opts.cluster_name, &access, &extra)?;
    // Readiness as the plane sees it, asked with the agent's own credentials.
    let agent = crate::pull::client_from(agent_kubeconfig).await?;
    let alive = || crate::local_plane::process::is_alive(pid);
    let Err(why) = agent_ready::wait_cluster_ready(&agent, &opts.cluster_name, timeout, &alive).await else {
        return Ok(());
    };
    let log = local_agent::log_path(&opts.agent_dir);
    let tail = std::fs::read_to_string(&log)
        .ok()
        .map(|t| t.lines().rev().take(5).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n"))
        .filter(|t| !t.is_empty())
        .map(|t| format!("; it ends with:\n{t}"))
        .unwrap_or_default();
    let (cluster, log) = (opts.cluster_name.clone(), log.display().to_string());
    Err(match why {
        NotReady::Timeout { .. } => RegisterError::AgentNotReady { cluster, seconds: timeout.as_secs(), log, tail },
        NotReady::AgentGone => RegisterError::AgentExited { cluster, log, tail },
    }
    .into())
}

fn create_private_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))
}

/// Takes back what this run created, newest first, and a Cluster the local agent registered
/// for this very member (its spec.id proves it).
async fn roll_back(generator: &Client, member: &Client, opts: &RegisterOptions, member_id: &str, created: Created) {
    if created.local_agent {
        if let Err(e) = local_agent::remove(&opts.agent_dir) {
            tracing::warn!(error = %e, "removing the local agent failed");
        }
        let clusters: Api<Cluster> = Api::all(created.agent.clone().unwrap_or_else(|| generator.clone()));
        if let Ok(Some(c)) = clusters.get_opt(&opts.cluster_name).await
            && c.spec.id.as_deref() == Some(member_id)
        {
            let _ = clusters.delete(&opts.cluster_name, &DeleteParams::default()).await;
        }
    }
    for id in created.member.iter().rev() {
        if let Err(e) = objects::delete(member, id).await {
            tracing::warn!(object = %id, error = %e, "rolling back in the member failed");
        }
    }
    for id in created.plane.iter().rev() {
        if let Err(e) = objects::delete(generator, id).await {
            tracing::warn!(object = %id, error = %e, "rolling back in the control plane failed");
        }
    }
}
