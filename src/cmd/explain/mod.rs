//! `explain`: kubectl's explain against the Karmada control plane, or one member cluster
//! through the plane's cluster proxy (`-s members --cluster NAME`), as upstream karmadactl wraps
//! it: the type is resolved by discovery, its schema read from the server's OpenAPI v3, and
//! printed with kubectl's `plaintext` template.

mod field_path;
mod openapi;
mod render;
mod wrap;

use clap::{ArgAction, Args};

use super::connection::KarmadaConnection;
use super::get::discovery::{Resource, Served};
use super::scope::{self, Scope};
use crate::cli::Context;
use crate::error::{NotBuilt, UsageError, Verbatim};

/// The template kubectl renders by default, and the only one built here.
const PLAINTEXT: &str = "plaintext";
/// kubectl's rendering of the OpenAPI v2 document (not built).
const PLAINTEXT_OPENAPI_V2: &str = "plaintext-openapiv2";

/// Get documentation for a resource.
///
/// Describe fields and structure of various resources in Karmada control plane or a member
/// cluster.
///
/// This command describes the fields associated with each supported API resource. Fields are
/// identified via a simple JSONPath identifier:
///
/// `<type>.<fieldName>[.<fieldName>]`
///
/// Information about each field is retrieved from the server in OpenAPI format.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Get the documentation of the resource and its fields in Karmada control plane\n  karmadactl explain propagationpolicies\n\n  # Get all the fields in the resource in member cluster member1\n  karmadactl explain pods --recursive --operation-scope=members --cluster=member1\n\n  # Get the explanation for resourcebindings in supported api versions in Karmada control plane\n  karmadactl explain resourcebindings --api-version=work.karmada.io/v1alpha1\n\n  # Get the documentation of a specific field of a resource in member cluster member1\n  karmadactl explain pods.spec.containers --operation-scope=members --cluster=member1"
)]
pub struct ExplainArgs {
    /// TYPE[.FIELD…]: the resource and, optionally, the path of the field to explain.
    #[arg(value_name = "TYPE")]
    pub resource: Vec<String>,

    /// Print the fields of fields (Currently only 1 level deep).
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub recursive: bool,

    /// Get different explanations for particular API version (API group/version).
    #[arg(long, value_name = "GROUP/VERSION")]
    pub api_version: Option<String>,

    /// Format in which to render the schema (plaintext; plaintext-openapiv2 is not built).
    #[arg(short = 'o', long, default_value = PLAINTEXT, value_name = "FORMAT")]
    pub output: String,

    /// Used to control the operation scope of the command. The optional values are karmada and
    /// members. Defaults to karmada.
    #[arg(short = 's', long, default_value = "karmada", value_parser = scope::parse_scope, value_name = "SCOPE")]
    pub operation_scope: Scope,

    /// Used to specify a target member cluster and only takes effect when the command's
    /// operation scope is members, for example: --operation-scope=members --cluster=member1
    #[arg(short = 'C', long, value_name = "CLUSTER")]
    pub cluster: Option<String>,

    /// If present, the namespace scope for this CLI request (explain does not use it; accepted
    /// as upstream does).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: ExplainArgs, ctx: &Context) -> anyhow::Result<()> {
    let member = scope::target(args.operation_scope, args.cluster.as_deref())?;
    let argument = match args.resource.as_slice() {
        [] => {
            return Err(UsageError::with_hint(
                format!(
                    "You must specify the type of resource to explain. Use \"{} api-resources\" for a complete list of supported resources.",
                    ctx.parent()
                ),
                format!("e.g. '{} explain propagationpolicies.spec'.", ctx.parent()),
            )
            .into());
        }
        [one] => one.clone(),
        _ => return Err(UsageError::new("We accept only this format: explain RESOURCE").into()),
    };
    match args.output.as_str() {
        PLAINTEXT => {}
        PLAINTEXT_OPENAPI_V2 => {
            return Err(NotBuilt {
                command: format!("{} explain --output={PLAINTEXT_OPENAPI_V2}", ctx.parent()),
                instead: Some(format!("leave out --output: the {PLAINTEXT} format explains the same fields.")),
            }
            .into());
        }
        other => return Err(anyhow::anyhow!("unrecognized format: {other}")),
    }
    let api_version = args.api_version.as_deref().unwrap_or_default();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (document, request) = runtime.block_on(async {
        let config = scope::config_for(&args.karmada, member.as_deref()).await?;
        let client = kube::Client::try_from(config)?;
        let served = super::get::discovery::discover_all(&client)
            .await
            .map_err(|e| anyhow::anyhow!("couldn't get resource list: {}", crate::error::with_causes(&e)))?;
        let (resource, fields) = target(&served, &argument, !api_version.is_empty())?;
        let (group, version) = match api_version {
            "" => (resource.group.clone(), resource.version.clone()),
            given => group_version(given)?,
        };
        let index =
            openapi::index(&client).await.map_err(|e| anyhow::anyhow!("failed to fetch list of groupVersions: {e}"))?;
        let key = openapi::key(&group, &version);
        let Some((_, url)) = index.iter().find(|(k, _)| *k == key) else {
            return Err(anyhow::anyhow!(
                "couldn't find resource for \"{group}/{version}, Resource={}\"",
                resource.plural
            ));
        };
        let bytes = openapi::document(&client, url)
            .await
            .map_err(|e| anyhow::anyhow!("failed to fetch openapi schema for {key}: {e}"))?;
        let document: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| anyhow::anyhow!("failed to parse openapi schema for {key}: {e}"))?;
        anyhow::Ok((document, (group, version, resource.plural, fields)))
    })?;
    let (group, version, plural, fields) = request;
    let rendered = render::render(
        &document,
        &render::Request {
            group: &group,
            version: &version,
            resource: &plural,
            fields: &fields,
            recursive: args.recursive,
        },
    );
    ctx.printer.data(&rendered.text)?;
    match rendered.error {
        // The template's messages already begin with `error: `.
        Some(e) => Err(Verbatim(e).into()),
        None => Ok(()),
    }
}

/// The resource and field path `argument` names, as kubectl picks them: without
/// `--api-version`, the first resource of that name whose `plural.group` starts the argument
/// (so `deployments.apps.spec` is the apps group's), else the first of that name; with it, the
/// first of that name and every node after it a field.
fn target(served: &Served, argument: &str, api_version: bool) -> anyhow::Result<(Resource, Vec<String>)> {
    let (name, nodes) = field_path::resource(argument).map_err(anyhow::Error::msg)?;
    let candidates = served.named(&name);
    let Some(first) = candidates.first() else {
        // kubectl prints a resource it cannot map without `error: `.
        return Err(Verbatim(format!("the server doesn't have a resource type \"{name}\"")).into());
    };
    if api_version {
        let fields = field_path::fields_after_first(&nodes, field_path::NOT_ALL_FIELDS).map_err(anyhow::Error::msg)?;
        return Ok(((*first).clone(), fields));
    }
    for candidate in &candidates {
        if let Some(fields) = field_path::fields_after_prefix(argument, &candidate.qualified()) {
            return Ok(((*candidate).clone(), fields.map_err(anyhow::Error::msg)?));
        }
    }
    let fields = field_path::fields_after_first(&nodes, field_path::FIRST_NOT_FIELD).map_err(anyhow::Error::msg)?;
    Ok(((*first).clone(), fields))
}

/// apimachinery's `ParseGroupVersion`: `v1`, `apps/v1`, or empty.
fn group_version(s: &str) -> anyhow::Result<(String, String)> {
    if s.is_empty() || s == "/" {
        return Ok((String::new(), String::new()));
    }
    match s.split_once('/') {
        None => Ok((String::new(), s.to_string())),
        Some((g, v)) if !v.contains('/') => Ok((g.to_string(), v.to_string())),
        Some(_) => Err(anyhow::anyhow!("unexpected GroupVersion string: {s}")),
    }
}
