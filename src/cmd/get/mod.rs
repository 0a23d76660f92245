//! `get`: show resources from the control plane and from member clusters.

pub mod discovery;
pub(crate) mod fetch;
mod query;
pub(crate) mod request;
mod table;
mod watch;

use clap::{ArgAction, Args};

use std::time::Duration;

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;
use crate::kubeconfig::rules;
use crate::output::OutputFormat;

/// How long reaching the control plane may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one read may take (members answer through the plane's proxy).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

pub use query::Scope as OperationScope;

fn parse_scope(s: &str) -> Result<OperationScope, String> {
    match s {
        "karmada" => Ok(OperationScope::Karmada),
        "members" => Ok(OperationScope::Members),
        "all" => Ok(OperationScope::All),
        other => Err(format!("not support OperationScope: {other}")),
    }
}

/// Display one or many resources in the Karmada control plane and member clusters.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # List all pods in ps output format\n  karmadactl get pods\n\n  # List all pods in ps output format with more information (such as node name)\n  karmadactl get pods -o wide\n\n  # List all pods of member1 cluster in ps output format\n  karmadactl get pods -C member1\n\n  # List a single replicasets controller with specified NAME in ps output format\n  karmadactl get replicasets -C member1 web\n\n  # List deployments in JSON output format, in the \"v1\" version of the \"apps\" API group\n  karmadactl get deployments.v1.apps -o json\n\n  # Return only the phase value of the specified resource\n  karmadactl get -o template deployment/nginx -C member1 --template={{.spec.replicas}}\n\n  # List all replication controllers and services together in ps output format\n  karmadactl get rs,services\n\n  # List one or more resources by their type and names\n  karmadactl get rs/nginx-cb87b6d88 service/kubernetes"
)]
pub struct GetArgs {
    /// TYPE[.VERSION][.GROUP] [NAME...], TYPE/NAME..., or TYPE1,TYPE2 [NAME...].
    #[arg(value_name = "RESOURCE")]
    pub resources: Vec<String>,

    /// Where to look: karmada (the control plane), members (member clusters), or all.
    #[arg(short = 's', long, default_value = "karmada", value_parser = parse_scope, value_name = "SCOPE")]
    pub operation_scope: OperationScope,

    /// Member clusters to query, comma-separated (default: every registered cluster).
    #[arg(short = 'C', long, value_delimiter = ',', value_name = "CLUSTERS")]
    pub clusters: Vec<String>,

    /// Label selector to filter on, e.g. -l key1=value1,key2=value2.
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub labels: Option<String>,

    /// List the requested objects across all namespaces.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// If the requested object does not exist the command will return exit code 0.
    #[arg(long)]
    pub ignore_not_found: bool,

    /// After listing/getting the requested object, watch for changes (one resource type from one source).
    #[arg(short = 'w', long)]
    pub watch: bool,

    /// Watch for changes to the requested object(s), without listing/getting first.
    #[arg(long)]
    pub watch_only: bool,

    /// Output watch event objects when --watch or --watch-only is used (not built yet: refused).
    #[arg(long)]
    pub output_watch_events: bool,

    /// The namespace scope for this request.
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,

    /// Output format: wide, json, yaml or name.
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// Template string or path to template file to use when -o=go-template or -o=go-template-file (not built yet: refused).
    #[arg(long)]
    pub template: Option<String>,

    /// If true, ignore any errors in templates when a field or map key is missing in the template.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", value_name = "BOOL")]
    pub allow_missing_template_keys: bool,

    /// If true, keep the managedFields when printing objects in JSON or YAML format.
    #[arg(long)]
    pub show_managed_fields: bool,

    /// If present, list the resource type for the requested object(s).
    #[arg(long)]
    pub show_kind: bool,

    /// When printing, show all labels as the last column (default hide labels column).
    #[arg(long)]
    pub show_labels: bool,

    /// If non-empty, sort list types using this field specification (not built yet: refused).
    #[arg(long, value_name = "JSONPATH")]
    pub sort_by: Option<String>,

    /// Accepts a comma separated list of labels that are going to be presented as columns.
    #[arg(short = 'L', long, value_delimiter = ',', value_name = "LABELS")]
    pub label_columns: Vec<String>,

    /// When using the default or custom-column output format, don't print headers.
    #[arg(long)]
    pub no_headers: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: GetArgs, ctx: &Context) -> anyhow::Result<()> {
    let format = match args.output.as_deref() {
        None => OutputFormat::Table,
        Some(o) => o.parse::<OutputFormat>()?,
    };
    let watching = args.watch || args.watch_only;
    if watching && (!format.is_table() || args.output_watch_events) {
        let flag = if args.output_watch_events { "--output-watch-events" } else { "-o with --watch" };
        return Err(crate::error::NotBuilt {
            command: format!("{} get --watch {flag}", ctx.parent()),
            instead: Some(
                "--watch prints tables; drop -o, or use 'kubectl get -w -o json' against the control plane or a member's context."
                    .into(),
            ),
        }
        .into());
    }
    if args.sort_by.is_some() || args.template.is_some() {
        let flag = if args.sort_by.is_some() { "--sort-by" } else { "--template" };
        return Err(crate::error::NotBuilt {
            command: format!("{} get {flag}", ctx.parent()),
            instead: Some("use -o json and a JSON processor instead.".into()),
        }
        .into());
    }
    let wanted = query::parse_resources(&args.resources).map_err(|e| {
        UsageError::with_hint(e, format!("name a resource type, e.g. '{} get deployments -C member1'.", ctx.parent()))
    })?;
    if let Some(l) = args.labels.as_deref() {
        karmadactl_apimachinery::LabelSelector::parse(l)
            .map_err(|e| UsageError::new(format!("invalid label selector {l:?}: {e}")))?;
    }
    let resolved = args.karmada.resolve()?;
    let namespace = super::connection::effective_namespace(args.namespace.as_deref(), resolved.namespace.as_deref());
    let opts = query::Options {
        scope: args.operation_scope,
        clusters: args.clusters.iter().filter(|c| !c.is_empty()).cloned().collect(),
        namespace,
        all_namespaces: args.all_namespaces,
        label_selector: args.labels.clone(),
        ignore_not_found: args.ignore_not_found,
        format,
        no_headers: args.no_headers,
        show_labels: args.show_labels,
        show_kind: args.show_kind,
        label_columns: args.label_columns.clone(),
        show_managed_fields: args.show_managed_fields,
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let outcome = runtime.block_on(async {
        let choice = rules::factory_context(args.karmada.karmada_context.as_deref().unwrap_or_default());
        let loaded = super::connection::load(args.karmada.kubeconfig.as_deref())?;
        let context = choice.as_deref().map(str::to_string).unwrap_or_else(|| resolved.context_name.clone());
        let options = kube::config::KubeConfigOptions { context: Some(context), ..Default::default() };
        let mut config = kube::Config::from_custom_kubeconfig(loaded.config().clone(), &options).await?;
        config.connect_timeout = Some(CONNECT_TIMEOUT);
        config.read_timeout = Some(REQUEST_TIMEOUT);
        if watching {
            watch::watch(config, &wanted, &opts, args.watch_only, |text| {
                let _ = ctx.printer.data(text);
            })
            .await?;
            return anyhow::Ok(None);
        }
        anyhow::Ok(Some(query::run(config, &wanted, &opts).await?))
    })?;
    let Some(outcome) = outcome else { return Ok(()) };
    for w in &outcome.warnings {
        ctx.printer.warn(w);
    }
    ctx.printer.data(&outcome.stdout)?;
    for n in &outcome.notices {
        ctx.printer.progress(n);
    }
    match outcome.errors.as_slice() {
        [] => Ok(()),
        [one] => Err(anyhow::anyhow!("{one}")),
        many => Err(anyhow::anyhow!("{}", many.join("\n"))),
    }
}
