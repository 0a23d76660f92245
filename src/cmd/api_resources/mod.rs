//! `api-resources` and `api-versions`: what the Karmada control plane, or one member cluster
//! through the plane's proxy, serves — kubectl's commands with upstream's `--operation-scope`
//! and `--cluster`.

mod discovery;
mod print;

use clap::{ArgAction, Args};

use super::connection::KarmadaConnection;
use super::scope::{self, Scope};
use crate::cli::Context;
use crate::error::UsageError;
use crate::output::OutputFormat;
use print::SortBy;

/// Print the supported API resources on the server.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Print the supported API resources in Karmada control plane\n  karmadactl api-resources\n\n  # Print the supported API resources with more information in cluster(member1)\n  karmadactl api-resources -o wide --operation-scope=members --cluster=member1\n\n  # Print the supported API resources sorted by a column in Karmada control plane\n  karmadactl api-resources --sort-by=name\n\n  # Print the supported namespaced resources in Karmada control plane\n  karmadactl api-resources --namespaced=true\n\n  # Print the supported non-namespaced resources in Karmada control plane\n  karmadactl api-resources --namespaced=false\n\n  # Print the supported API resources with a specific APIGroup in Karmada control plane\n  karmadactl api-resources --api-group=rbac.authorization.k8s.io"
)]
pub struct ApiResourcesArgs {
    /// Used to control the operation scope of the command. The optional values are karmada and
    /// members. Defaults to karmada.
    #[arg(short = 's', long, default_value = "karmada", value_parser = scope::parse_scope, value_name = "SCOPE")]
    pub operation_scope: Scope,

    /// Used to specify a target member cluster and only takes effect when the command's
    /// operation scope is members, for example: --operation-scope=members --cluster=member1
    #[arg(long, value_name = "CLUSTER")]
    pub cluster: Option<String>,

    /// Limit to resources in the specified API group.
    #[arg(long, value_name = "GROUP")]
    pub api_group: Option<String>,

    /// If false, non-namespaced resources will be returned, otherwise returning namespaced
    /// resources by default (without the flag, both are listed).
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_missing_value = "true", value_name = "BOOL")]
    pub namespaced: Option<bool>,

    /// Limit to resources that support the specified verbs.
    #[arg(long, value_delimiter = ',', value_name = "VERBS")]
    pub verbs: Vec<String>,

    /// If non-empty, sort list of resources using specified field. The field can be either
    /// 'name' or 'kind'.
    #[arg(long, value_name = "FIELD")]
    pub sort_by: Option<String>,

    /// Use the cached list of resources if available (there is no cache: the server is always
    /// asked).
    #[arg(long)]
    pub cached: bool,

    /// Limit to resources that belong to the specified categories.
    #[arg(long, value_delimiter = ',', value_name = "CATEGORIES")]
    pub categories: Vec<String>,

    /// Output format. One of: (json, yaml, name, wide).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// When using the default or custom-column output format, don't print headers (default
    /// print headers).
    #[arg(long)]
    pub no_headers: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// Print the supported API versions on the server, in the form of "group/version".
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Print the supported API versions\n  karmadactl api-versions\n\n  # Print the supported API versions in cluster(member1)\n  karmadactl api-versions --operation-scope=members --cluster=member1"
)]
pub struct ApiVersionsArgs {
    /// Used to control the operation scope of the command. The optional values are karmada and
    /// members. Defaults to karmada.
    #[arg(short = 's', long, default_value = "karmada", value_parser = scope::parse_scope, value_name = "SCOPE")]
    pub operation_scope: Scope,

    /// Used to specify a target member cluster and only takes effect when the command's
    /// operation scope is members, for example: --operation-scope=members --cluster=member1
    #[arg(long, value_name = "CLUSTER")]
    pub cluster: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run_api_resources(args: ApiResourcesArgs, ctx: &Context) -> anyhow::Result<()> {
    let member = scope::target(args.operation_scope, args.cluster.as_deref())?;
    let sort_by = match args.sort_by.as_deref().unwrap_or_default() {
        "" => SortBy::Group,
        "name" => SortBy::Name,
        "kind" => SortBy::Kind,
        _ => {
            return Err(
                UsageError::with_hint("--sort-by accepts only name or kind", "give --sort-by=name or kind.").into()
            );
        }
    };
    let format = OutputFormat::parse_allowed(args.output.as_deref().unwrap_or_default(), OutputFormat::SELECTABLE)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (mut resources, failed) = runtime.block_on(async {
        let config = scope::config_for(&args.karmada, member.as_deref()).await?;
        let client = kube::Client::try_from(config)?;
        let groups = discovery::server_groups(&client).await?;
        anyhow::Ok(discovery::preferred_resources(&client, &groups).await)
    })?;
    resources.retain(|r| {
        !r.verbs.is_empty()
            && args.api_group.as_deref().is_none_or(|g| r.group.as_deref() == Some(g))
            && args.namespaced.is_none_or(|n| r.namespaced == n)
            && args.verbs.iter().all(|v| r.verbs.contains(v))
            && args.categories.iter().all(|c| r.categories.iter().flatten().any(|have| have == c))
    });
    print::sort(&mut resources, sort_by);
    let text = match format {
        OutputFormat::Table | OutputFormat::Wide => {
            print::table(&resources, format == OutputFormat::Wide, args.no_headers)
        }
        OutputFormat::Name => print::names(&resources),
        OutputFormat::Json | OutputFormat::Yaml => print::structured(resources, format)?,
    };
    ctx.printer.data(&text)?;
    match failed.as_slice() {
        [] => Ok(()),
        _ => Err(anyhow::anyhow!("unable to retrieve the complete list of server APIs: {}", failed.join(", "))),
    }
}

pub fn run_api_versions(args: ApiVersionsArgs, ctx: &Context) -> anyhow::Result<()> {
    let member = scope::target(args.operation_scope, args.cluster.as_deref())?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let groups = runtime.block_on(async {
        let config = scope::config_for(&args.karmada, member.as_deref()).await?;
        let client = kube::Client::try_from(config)?;
        discovery::server_groups(&client).await.map_err(|e| {
            anyhow::anyhow!("couldn't get available api versions from server: {}", crate::error::with_causes(&e))
        })
    })?;
    let text: String = discovery::group_versions(&groups).into_iter().map(|v| v + "\n").collect();
    ctx.printer.data(&text)?;
    Ok(())
}
