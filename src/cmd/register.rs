//! `register`: join a member cluster in Pull mode, run against the member.

use clap::Args;

use super::connection::ClusterConnection;
use crate::cli::Context;
use crate::error::UsageError;

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
    #[arg(short = 'n', long, default_value = crate::wellknown::KARMADA_SYSTEM_NAMESPACE)]
    pub namespace: String,

    /// Name of the member cluster in the control plane (default: the cluster of the current context).
    #[arg(long)]
    pub cluster_name: Option<String>,

    /// Namespace in the control plane where member cluster secrets are stored.
    #[arg(long, default_value = crate::wellknown::KARMADA_CLUSTER_NAMESPACE)]
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
    #[arg(long, default_value_t = format!("docker.io/karmada/karmada-agent:{}", crate::wellknown::KARMADA_RELEASE))]
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
    crate::pki::token::BootstrapToken::parse(token)?;
    if args.discovery_token_ca_cert_hash.is_empty() && !args.discovery_token_unsafe_skip_ca_verification {
        return Err(UsageError::with_hint(
            "need to verify CACertHashes, or set --discovery-token-unsafe-skip-ca-verification=true",
            "pass --discovery-token-ca-cert-hash sha256:<hex> as printed by 'token create --print-register-command'.",
        )
        .into());
    }
    for pin in &args.discovery_token_ca_cert_hash {
        pin.parse::<crate::pki::CaPin>()?;
    }
    super::parse_duration("discovery-timeout", &args.discovery_timeout)?;
    let member = super::connection::load(args.member.kubeconfig.as_deref())?;
    let choice = crate::kubeconfig::rules::host_context(args.member.context.as_deref().unwrap_or_default());
    member.resolve(choice.as_deref())?;
    let cluster_name = match &args.cluster_name {
        Some(name) => name.clone(),
        None => crate::kubeconfig::rules::register_default_cluster_name(member.config(), &choice)?,
    };
    super::check_cluster_name(&cluster_name)?;
    Err(super::not_built(ctx, "register"))
}
