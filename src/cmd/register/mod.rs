//! `register`: join a member cluster in Pull mode, run against the member.

mod agent_ready;
mod discovery;
mod steps;

use clap::Args;

use super::connection::ClusterConnection;
use crate::cli::Context;
use crate::error::UsageError;
use steps::RegisterOptions;

/// Register a cluster to Karmada control plane with Pull mode.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Register cluster into karmada control plane with Pull mode.\n  # If '--cluster-name' isn't specified, the cluster of current-context will be used by default.\n  karmadactl register [karmada-apiserver-endpoint] --cluster-name=<CLUSTER_NAME> --token=<TOKEN>  --discovery-token-ca-cert-hash=<CA-CERT-HASH>\n\n  # UnsafeSkipCAVerification allows token-based discovery without CA verification via CACertHashes. This can weaken\n  # the security of register command since other clusters can impersonate the control-plane.\n  karmadactl register [karmada-apiserver-endpoint] --token=<TOKEN>  --discovery-token-unsafe-skip-ca-verification=true"
)]
pub struct RegisterArgs {
    /// The Karmada API server endpoint, host:port.
    #[arg(value_name = "KARMADA_APISERVER_ENDPOINT")]
    pub endpoint: Vec<String>,

    #[command(flatten)]
    pub member: ClusterConnection,

    /// Namespace the karmada-agent runs in, in the member cluster.
    #[arg(short = 'n', long, default_value = karmadactl_karmada_api::wellknown::KARMADA_SYSTEM_NAMESPACE)]
    pub namespace: String,

    /// Name of the member cluster in the control plane (default: the cluster of the current context).
    #[arg(long)]
    pub cluster_name: Option<String>,

    /// Namespace in the control plane where member cluster secrets are stored.
    #[arg(long, default_value = karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE)]
    pub cluster_namespace: String,

    #[command(flatten)]
    pub attributes: super::connection::ClusterAttributes,

    /// Let the agent rotate its client certificate before it expires.
    #[arg(long)]
    pub enable_cert_rotation: bool,

    /// The bootstrap token, from `token create` on the control plane.
    #[arg(long)]
    pub token: Option<String>,

    /// Pin of the control plane's CA public key, sha256:<hex>; repeat or comma-separate for several.
    #[arg(long, value_delimiter = ',', value_name = "sha256:HEX")]
    pub discovery_token_ca_cert_hash: Vec<String>,

    /// Trust the control plane without pinning its CA (unsafe: another server could impersonate it).
    #[arg(long)]
    pub discovery_token_unsafe_skip_ca_verification: bool,

    /// How long to wait for discovery, certificate signing and the agent to become ready.
    #[arg(long, default_value = "5m0s", value_name = "DURATION")]
    pub discovery_timeout: String,

    /// Image of the karmada-agent deployed into the member cluster.
    #[arg(long, default_value_t = format!("docker.io/karmada/karmada-agent:{}", karmadactl_karmada_api::wellknown::KARMADA_RELEASE))]
    pub karmada_agent_image: String,

    /// Number of karmada-agent replicas.
    #[arg(long, default_value_t = 1)]
    pub karmada_agent_replicas: i32,

    /// Validity of the agent's client certificate, in seconds.
    #[arg(long, default_value_t = 31_536_000)]
    pub cert_expiration_seconds: i32,

    /// Run the pre-flight checks only, without changing anything.
    #[arg(long)]
    pub dry_run: bool,

    /// Address of the proxy server the agent uses to reach the member's API server.
    #[arg(long)]
    pub proxy_server_address: Option<String>,

    /// Where the agent runs: 'deployment' deploys the karmada-agent image into the member (as
    /// upstream does); 'local' runs the agent built into this binary as a background process on
    /// this machine, for members it can reach (simulated members, bastion hosts).
    #[arg(long, value_enum, default_value = "deployment", hide_possible_values = true, overrides_with = "agent_mode")]
    pub agent_mode: steps::AgentMode,

    /// Directory of the local agent's kubeconfig, pid and log (with --agent-mode=local)
    /// [default: ~/.karmada/agents/<cluster>].
    #[arg(long, value_name = "PATH")]
    pub agent_dir: Option<std::path::PathBuf>,
}

pub fn run(args: RegisterArgs, ctx: &Context) -> anyhow::Result<()> {
    if args.endpoint.len() != 1 {
        return Err(UsageError::with_hint(
            format!("accepts 1 arg(s), received {}", args.endpoint.len()),
            format!(
                "run '{} register <host:port> --token <token> --discovery-token-ca-cert-hash sha256:<hex>'.",
                ctx.parent()
            ),
        )
        .into());
    }
    if let Some(name) = &args.cluster_name {
        super::check_cluster_name(name)?;
    }
    let Some(token) = &args.token else {
        return Err(UsageError::with_hint(
            "token is required",
            format!("create one on the control plane with '{} token create --print-register-command'.", ctx.parent()),
        )
        .into());
    };
    let token = karmadactl_pki::token::BootstrapToken::parse(token)?;
    if args.discovery_token_ca_cert_hash.is_empty() && !args.discovery_token_unsafe_skip_ca_verification {
        return Err(UsageError::with_hint(
            "need to verify CACertHashes, or set --discovery-token-unsafe-skip-ca-verification=true",
            "pass --discovery-token-ca-cert-hash sha256:<hex> as printed by 'token create --print-register-command'.",
        )
        .into());
    }
    let mut pins = vec![];
    for pin in &args.discovery_token_ca_cert_hash {
        pins.push(pin.parse::<karmadactl_pki::CaPin>()?);
    }
    let discovery_timeout = super::parse_duration("discovery-timeout", &args.discovery_timeout)?;
    let member = super::connection::load(args.member.kubeconfig.as_deref())?;
    let choice = crate::kubeconfig::rules::host_context(args.member.context.as_deref().unwrap_or_default());
    let resolved = member.resolve(choice.as_deref())?;
    let cluster_name = match &args.cluster_name {
        Some(name) => name.clone(),
        None => crate::kubeconfig::rules::register_default_cluster_name(member.config(), &choice)?,
    };
    super::check_cluster_name(&cluster_name)?;
    let member_kubeconfig = match args.member.kubeconfig.as_deref().filter(|k| !k.is_empty()) {
        Some(path) => Some(std::path::absolute(path)?),
        None => None,
    };
    let opts = RegisterOptions {
        endpoint: args.endpoint[0].clone(),
        token,
        pins,
        discovery_timeout,
        agent_dir: args.agent_dir.clone().unwrap_or_else(|| crate::pull::local_agent::default_dir(&cluster_name)),
        cluster_name,
        cluster_namespace: args.cluster_namespace.clone(),
        namespace: args.namespace.clone(),
        provider: args.attributes.cluster_provider.clone().unwrap_or_default(),
        region: args.attributes.cluster_region.clone().unwrap_or_default(),
        zones: args.attributes.cluster_zones.clone(),
        cert_rotation: args.enable_cert_rotation,
        image: args.karmada_agent_image.clone(),
        replicas: args.karmada_agent_replicas,
        cert_expiration_seconds: args.cert_expiration_seconds,
        proxy_server_address: args.proxy_server_address.clone().unwrap_or_default(),
        dry_run: args.dry_run,
        mode: args.agent_mode,
        member_server: resolved.cluster.server.clone(),
        member_context: resolved.context_name.clone(),
        member_kubeconfig,
        parent: ctx.parent().to_string(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let member = crate::membership::connect(
            crate::membership::Side::Member,
            &member,
            choice.as_deref(),
            &crate::membership::Impersonation::default(),
        )
        .await?;
        let out = |line: &str| {
            let _ = ctx.printer.line(line);
        };
        // Reaching the member first gives errors that name it.
        let member_id = crate::cmd::join::member_side::cluster_id(&member.client, &member.target).await?;
        steps::register(&member.client, &member_id, &opts, &out).await
    })
}
