//! `interpret`: check, run and edit ResourceInterpreterCustomization rules locally, before
//! they reach a control plane. Works offline: nothing is read from or sent to a cluster.

mod check;
mod edit;
mod edit_file;
mod execute;
mod rules;
pub(crate) mod sources;

use clap::Args;
use karmadactl_interpreter::Operation;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;

use crate::cli::Context;
use crate::error::UsageError;
use sources::Document;

/// Validate, test and edit interpreter customization before applying it to the control plane.
///
/// 1. Validate the ResourceInterpreterCustomization configuration as per API schema and try
///    to load the scripts for syntax check.
///
/// 2. Run the rules locally and test if the result is expected. Similar to the dry run.
///
/// 3. Edit customization. Similar to the kubectl edit.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl interpret (-f FILENAME) (--operation OPERATION) [--ARGS VALUE]... ",
    after_help = "Examples:\n  # Check the customizations in file (only YAML and JSON formats are supported)\n  karmadactl interpret -f customization.json --check\n\n  # Execute the retention rule\n  karmadactl interpret -f customization.yml --operation retain --desired-file desired.yml --observed-file observed.yml\n\n  # Execute the replicaResource rule\n  karmadactl interpret -f customization.yml --operation interpretReplica --observed-file observed.yml\n\n  # Execute the componentResource rule\n  karmadactl interpret -f customization.yml --operation interpretComponent --observed-file observed.yml\n\n  # Execute the replicaRevision rule\n  karmadactl interpret -f customization.yml --operation reviseReplica --observed-file observed.yml --desired-replica 2\n\n  # Execute the statusReflection rule\n  karmadactl interpret -f customization.yml --operation interpretStatus --observed-file observed.yml\n\n  # Execute the healthInterpretation rule\n  karmadactl interpret -f customization.yml --operation interpretHealth --observed-file observed.yml\n\n  # Execute the dependencyInterpretation rule\n  karmadactl interpret -f customization.yml --operation interpretDependency --observed-file observed.yml\n\n  # Execute the statusAggregation rule\n  karmadactl interpret -f customization.yml --operation aggregateStatus --observed-file observed.yml --status-file status.yml\n\n  # Fetch observed object from url, and status items from stdin (specified with -)\n  karmadactl interpret -f customization.yml --operation aggregateStatus --observed-file https://example.com/observed.yml --status-file -\n\n  # Edit customization\n  karmadactl interpret -f customization.yml --edit\n\nOutput: --check prints, for each customization, a line of dashes, `SOURCE:` (its name, or the file),\n`TARGET:` and `RULERS:` with one line per rule: PASS, UNSET, or `ERROR:` and the Lua error (exit code 1\nif any). --operation prints each result as a YAML document headed `# [i/n] name:` (replica and\nrequires, components, revised, retained, aggregatedStatus, status, healthy or dependencies).\n\nThe rules run in an embedded Lua 5.1 with upstream's `kube` helper library, under the same\ninstruction, memory and time budget as on the control plane."
)]
pub struct InterpretArgs {
    /// Filename, directory, or URL to files containing the customizations. Files need to be in
    /// either YAML or JSON format.
    #[arg(short = 'f', long = "filename", value_name = "FILENAME")]
    pub filenames: Vec<String>,

    /// Process the directory used in -f, --filename recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,

    /// The interpret operation to use. One of: (Retain, InterpretReplica, InterpretComponent,
    /// ReviseReplica, InterpretStatus, AggregateStatus, InterpretHealth, InterpretDependency).
    #[arg(long, value_name = "OPERATION")]
    pub operation: Option<String>,

    /// Validates the given ResourceInterpreterCustomization configuration(s).
    #[arg(long)]
    pub check: bool,

    /// Edit customizations.
    #[arg(long)]
    pub edit: bool,

    /// Show document of rules when editing.
    #[arg(long)]
    pub show_doc: bool,

    /// Filename or URL of the resource to use as desiredObj argument in rule script.
    #[arg(long, value_name = "FILE")]
    pub desired_file: Option<String>,

    /// Filename or URL of the resource to use as observedObj argument in rule script.
    #[arg(long, value_name = "FILE")]
    pub observed_file: Option<String>,

    /// Filename or URL of the status items to use as statusItems argument in rule script (`-`
    /// reads standard input).
    #[arg(long, value_name = "FILE")]
    pub status_file: Option<String>,

    /// The desiredReplica argument in rule script.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub desired_replica: i32,
}

pub fn run(args: InterpretArgs, ctx: &Context) -> anyhow::Result<()> {
    if args.check && args.edit {
        return Err(UsageError::new("you can't set both --check and --edit options").into());
    }
    let operation = match args.operation.as_deref().filter(|o| !o.is_empty()) {
        None => None,
        Some(name) => {
            Some(rules::ORDER.into_iter().find(|op| op.name().eq_ignore_ascii_case(name)).ok_or_else(|| {
                UsageError::new(format!("operation {name} is not supported. Use one of: {}", rules::names(", ")))
            })?)
        }
    };
    if args.filenames.is_empty() {
        return Err(UsageError::with_hint(
            "you must provide one or more customizations with -f/--filename",
            "pass a file, a directory, a URL or - for standard input, e.g. -f customization.yaml.",
        )
        .into());
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(run_async(args, operation, ctx))
}

async fn run_async(args: InterpretArgs, operation: Option<Operation>, ctx: &Context) -> anyhow::Result<()> {
    let customizations = sources::read_all(&args.filenames, args.recursive).await?;
    if args.check {
        let (report, failed) = check::report(&customizations);
        ctx.printer.data(&report)?;
        if failed > 0 {
            return Err(check::CheckFailed { failed, total: customizations.len() }.into());
        }
        return Ok(());
    }
    if args.edit {
        return edit::run(&customizations, &args.filenames, args.show_doc, &ctx.printer);
    }
    let Some(operation) = operation else {
        return Err(UsageError::with_hint(
            "operation is not set for executing",
            format!("pass --operation with one of {}, or --check or --edit.", rules::names(", ")),
        )
        .into());
    };
    let rule_args = execute::RuleArgs {
        desired: one_object(args.desired_file.as_deref(), "desired").await?,
        observed: one_object(args.observed_file.as_deref(), "observed").await?,
        status: status_items(args.status_file.as_deref()).await?,
        replica: i64::from(args.desired_replica),
    };
    let results = execute::run(&customizations, operation, &rule_args)
        .await
        .map_err(|e| anyhow::anyhow!(e).context(format!("Execute {} error", operation.name())))?;
    ctx.printer.data(&execute::render(&results)?)?;
    Ok(())
}

/// The single object in a `--desired-file` or `--observed-file`.
async fn one_object(file: Option<&str>, what: &str) -> anyhow::Result<Option<serde_json::Value>> {
    let Some(file) = file else { return Ok(None) };
    let docs = sources::read_all(&[file.to_string()], false).await.map_err(|e| anyhow::anyhow!(e))?;
    match docs.as_slice() {
        [doc] => Ok(Some(doc.object.clone())),
        [] => Err(anyhow::anyhow!("fail to get {what} object: {file} holds no object")),
        more => Err(anyhow::anyhow!("fail to get {what} object: get {} objects, expect one at most", more.len())),
    }
}

/// The status items of `--status-file`, one per document (a list in one document works too).
async fn status_items(file: Option<&str>) -> anyhow::Result<Vec<AggregatedStatusItem>> {
    let Some(file) = file else { return Ok(Vec::new()) };
    let docs: Vec<Document> = sources::read_all(&[file.to_string()], false).await?;
    let mut items = Vec::new();
    for doc in docs {
        let values = match doc.object {
            serde_json::Value::Array(list) => list,
            one => vec![one],
        };
        for value in values {
            let item = karmadactl_karmada_api::decode(&value)
                .map_err(|e| anyhow::anyhow!("fail to get status items: {}: {e}", doc.origin.display()))?;
            items.push(item);
        }
    }
    Ok(items)
}
