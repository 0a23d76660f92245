//! `create`: kubectl's create against the Karmada control plane: objects from files (`-f`)
//! or built by one of kubectl's generators (`create namespace NAME`, `create deployment …`).
//! As upstream, it acts on Karmada only (no `--operation-scope`).

mod edit_first;
mod from_files;
mod generate;
mod generators;
mod go_order;
mod key_sources;
mod raw;
mod send;
mod token;

use clap::{ArgAction, Args, Subcommand};

use super::connection::KarmadaConnection;
use super::objects::flags::FileFlags;
use crate::cli::Context;
use generators::bindings::{ClusterRoleBindingArgs, RoleBindingArgs};
use generators::configmap::ConfigMapArgs;
use generators::cron_job::CronJobArgs;
use generators::deployment::DeploymentArgs;
use generators::ingress::IngressArgs;
use generators::job::JobArgs;
use generators::namespace::NamespaceArgs;
use generators::pdb::PdbArgs;
use generators::priority_class::PriorityClassArgs;
use generators::quota::QuotaArgs;
use generators::roles::{ClusterRoleArgs, RoleArgs};
use generators::secret::{SecretArgs, SecretKind};
use generators::service::ServiceArgs;
use generators::service_account::ServiceAccountArgs;
use send::CreateFlags;

/// Create a resource from a file or from stdin.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create -f FILENAME",
    long_about = "Create a resource from a file or from stdin.\n\nJSON and YAML formats are accepted.",
    after_help = "Examples:\n  # Create a pod using the data in pod.json\n  karmadactl create -f ./pod.json\n\n  # Create a pod based on the JSON passed into stdin\n  cat pod.json | karmadactl create -f -\n\n  # Edit the data in registry.yaml in JSON then create the resource using the edited data\n  karmadactl create -f registry.yaml --edit -o json"
)]
pub struct CreateArgs {
    #[command(subcommand)]
    pub generator: Option<Generator>,

    #[command(flatten)]
    pub files: FileFlags,

    /// Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l
    /// key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the
    /// specified label constraints.
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Edit the API resource before creating
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub edit: bool,

    /// Only relevant if --edit=true. Defaults to the line ending native to your platform.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub windows_line_endings: bool,

    /// Raw URI to POST to the server. Uses the transport specified by the kubeconfig file
    /// (only paths of the Karmada API server itself are reached).
    #[arg(long, value_name = "URI")]
    pub raw: Option<String>,

    #[command(flatten)]
    pub flags: CreateFlags,

    #[command(flatten)]
    pub connection: Connection,
}

/// The flags upstream adds to create and all its subcommands: the plane's kubeconfig and
/// the namespace.
#[derive(Debug, Clone, Args)]
pub struct Connection {
    /// If present, the namespace scope for this CLI request.
    #[arg(short = 'n', long, global = true, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then
    /// ~/.kube/config).
    #[arg(long, global = true, value_name = "PATH")]
    pub kubeconfig: Option<String>,

    /// The name of the kubeconfig context to use for the Karmada control plane (default: the
    /// current context).
    #[arg(long, global = true, value_name = "CONTEXT")]
    pub karmada_context: Option<String>,
}

impl Connection {
    fn karmada(&self) -> KarmadaConnection {
        KarmadaConnection { kubeconfig: self.kubeconfig.clone(), karmada_context: self.karmada_context.clone() }
    }

    /// The namespace (`-n`, else the context's, else `default`) and whether `-n` was given,
    /// from the kubeconfig alone.
    fn namespace(&self) -> anyhow::Result<(String, bool)> {
        let resolved = self.karmada().resolve()?;
        let flag = self.namespace.as_deref().filter(|n| !n.is_empty());
        Ok((super::connection::effective_namespace(flag, resolved.namespace.as_deref()), flag.is_some()))
    }

    /// A client for the plane, the namespace and whether `-n` was given.
    async fn connect(&self) -> anyhow::Result<(kube::Client, String, bool)> {
        let (namespace, enforce) = self.namespace()?;
        let config = super::scope::plane_config(&self.karmada()).await?;
        Ok((kube::Client::try_from(config)?, namespace, enforce))
    }
}

/// kubectl's create subcommands.
#[derive(Debug, Subcommand)]
pub enum Generator {
    #[command(visible_alias = "ns")]
    Namespace(NamespaceArgs),
    #[command(visible_alias = "deploy")]
    Deployment(DeploymentArgs),
    #[command(visible_alias = "cm")]
    Configmap(ConfigMapArgs),
    Secret(SecretArgs),
    #[command(visible_alias = "sa")]
    Serviceaccount(ServiceAccountArgs),
    #[command(visible_alias = "svc")]
    Service(ServiceArgs),
    Job(JobArgs),
    #[command(visible_alias = "cj")]
    Cronjob(CronJobArgs),
    Role(RoleArgs),
    Clusterrole(ClusterRoleArgs),
    Rolebinding(RoleBindingArgs),
    Clusterrolebinding(ClusterRoleBindingArgs),
    #[command(visible_alias = "resourcequota")]
    Quota(QuotaArgs),
    #[command(visible_alias = "pc")]
    Priorityclass(PriorityClassArgs),
    #[command(visible_alias = "pdb")]
    Poddisruptionbudget(PdbArgs),
    #[command(visible_alias = "ing")]
    Ingress(IngressArgs),
    Token(token::TokenArgs),
}

pub fn run(args: CreateArgs, ctx: &Context) -> anyhow::Result<()> {
    let connection = args.connection.clone();
    let Some(generator) = args.generator else { return from_files::run(args, ctx) };
    let c = &connection;
    match generator {
        Generator::Namespace(a) => generate::run(ctx, c, &a.flags, "namespace", &a.names, generators::namespace::build),
        Generator::Deployment(a) => {
            generators::deployment::check_required(&a)?;
            generate::run(ctx, c, &a.flags, "deployment", &a.names, |i| generators::deployment::build(&a, i))
        }
        Generator::Configmap(a) => {
            generate::run(ctx, c, &a.flags, "configmap", &a.names, |i| generators::configmap::build(&a, i))
        }
        Generator::Secret(SecretArgs { kind: SecretKind::Generic(a) }) => {
            generate::run(ctx, c, &a.flags, "secret generic", &a.names, |i| generators::secret::build(&a, i))
        }
        Generator::Secret(SecretArgs { kind: SecretKind::Tls(a) }) => {
            generate::one_name(ctx, "secret tls", &a.names)?;
            generators::secret_tls::validate(&a)?;
            generate::run(ctx, c, &a.flags, "secret tls", &a.names, |i| generators::secret_tls::build(&a, i))
        }
        Generator::Secret(SecretArgs { kind: SecretKind::DockerRegistry(a) }) => {
            generate::one_name(ctx, "secret docker-registry", &a.names)?;
            generators::secret_docker_registry::validate(&a)?;
            let build = |i: &generate::Inputs| generators::secret_docker_registry::build(&a, i);
            generate::run(ctx, c, &a.flags, "secret docker-registry", &a.names, build)
        }
        Generator::Serviceaccount(a) => {
            generate::run(ctx, c, &a.flags, "serviceaccount", &a.names, generators::service_account::build)
        }
        Generator::Service(ServiceArgs { kind }) => {
            kind.check_flags()?;
            // kubectl's service generators never read --save-config: it is accepted and ignored.
            let flags = CreateFlags { save_config: false, ..kind.flags().clone() };
            generate::run(ctx, c, &flags, kind.command(), kind.names(), |i| generators::service::build(&kind, i))
        }
        Generator::Job(a) => {
            generate::one_name(ctx, "job", &a.container.names)?;
            generators::job::validate(&a)?;
            match a.from.as_deref().filter(|f| !f.is_empty()) {
                Some(from) => {
                    let cron_job = generators::job::read_from(c, from)?;
                    generate::run(ctx, c, &a.flags, "job", &a.container.names, |i| {
                        Ok(generators::job::from_cron_job(&cron_job, i))
                    })
                }
                None => generate::run(ctx, c, &a.flags, "job", &a.container.names, |i| generators::job::build(&a, i)),
            }
        }
        Generator::Cronjob(a) => {
            generators::cron_job::check_required(&a)?;
            generate::run(ctx, c, &a.flags, "cronjob", &a.container.names, |i| generators::cron_job::build(&a, i))
        }
        Generator::Role(a) => {
            generate::one_name(ctx, "role", &a.names)?;
            let served = generators::roles::discover(c)?;
            generate::run(ctx, c, &a.flags, "role", &a.names, |i| generators::roles::build_role(&a, &served, i, ctx))
        }
        Generator::Clusterrole(a) => {
            generate::one_name(ctx, "clusterrole", &a.names)?;
            let served = generators::roles::discover(c)?;
            generators::roles::validate_cluster_role(&a, ctx)?;
            let build = |i: &generate::Inputs| generators::roles::build_cluster_role(&a, &served, i);
            generate::run(ctx, c, &a.flags, "clusterrole", &a.names, build)
        }
        Generator::Rolebinding(a) => generate::run(ctx, c, &a.flags, "rolebinding", &a.names, |i| {
            generators::bindings::build_role_binding(&a, i)
        }),
        Generator::Clusterrolebinding(a) => {
            generators::bindings::check_required(&a)?;
            let build = |i: &generate::Inputs| generators::bindings::build_cluster_role_binding(&a, i);
            generate::run(ctx, c, &a.flags, "clusterrolebinding", &a.names, build)
        }
        Generator::Quota(a) => generate::run(ctx, c, &a.flags, "quota", &a.names, |i| generators::quota::build(&a, i)),
        Generator::Priorityclass(a) => {
            generate::run(ctx, c, &a.flags, "priorityclass", &a.names, |i| generators::priority_class::build(&a, i))
        }
        Generator::Poddisruptionbudget(a) => {
            generate::one_name(ctx, "poddisruptionbudget", &a.names)?;
            generators::pdb::validate(&a)?;
            generate::run(ctx, c, &a.flags, "poddisruptionbudget", &a.names, |i| generators::pdb::build(&a, i))
        }
        Generator::Ingress(a) => {
            generate::one_name(ctx, "ingress", &a.names)?;
            generators::ingress::validate(&a)?;
            generate::run(ctx, c, &a.flags, "ingress", &a.names, |i| generators::ingress::build(&a, i))
        }
        Generator::Token(a) => token::run(&a, ctx, c),
    }
}
