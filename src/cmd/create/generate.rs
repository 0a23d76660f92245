//! Running one of `create`'s generators as kubectl's create subcommands run: exactly one
//! NAME, the object built here, annotated, POSTed (or only shown with `--dry-run=client`,
//! in `-n`'s namespace when given) and printed.

use serde_json::Value;

use super::Connection;
use super::send::{self, CreateFlags};
use crate::cli::Context;
use crate::cmd::get::discovery::Resource;
use crate::cmd::objects::Failure;
use crate::cmd::objects::pairs::DryRun;
use crate::error::Verbatim;

/// What a generator knows before it builds its object.
pub struct Inputs {
    pub name: String,
    /// `-n`, else the kubeconfig context's, else `default`.
    pub namespace: String,
    /// Whether `-n` was given: the generated object then names its namespace.
    pub enforce_namespace: bool,
}

impl Inputs {
    /// The namespace the generated object names: `-n`'s, else none.
    pub fn object_namespace(&self) -> Option<&str> {
        self.enforce_namespace.then_some(self.namespace.as_str())
    }
}

/// The object a generator built and where it goes.
pub struct Generated {
    pub resource: Resource,
    pub object: Value,
    /// kubectl's words before a failed create's error (`failed to create deployment: `), or
    /// `None` when it reports the server's error as it is.
    pub failure: Option<String>,
}

/// kubectl's usage error, with the subcommand's help pointer.
pub fn usage(ctx: &Context, command: &str, message: &str) -> anyhow::Error {
    Verbatim(format!("error: {message}\nSee '{} create {command} -h' for help and examples", ctx.parent())).into()
}

/// kubectl's `NameFromCommandArgs`: exactly one NAME before `--`.
pub fn one_name(ctx: &Context, command: &str, names: &[String]) -> anyhow::Result<String> {
    match names {
        [one] => Ok(one.clone()),
        other => Err(usage(ctx, command, &format!("exactly one NAME is required, got {}", other.len()))),
    }
}

/// Runs a generator: `build` makes the object from the inputs.
pub fn run(
    ctx: &Context,
    connection: &Connection,
    flags: &CreateFlags,
    command: &str,
    names: &[String],
    build: impl FnOnce(&Inputs) -> anyhow::Result<Generated>,
) -> anyhow::Result<()> {
    let name = one_name(ctx, command, names)?;
    let mut plan = flags.resolve(ctx, &format!("create {command}"))?;
    let (namespace, enforce_namespace) = connection.namespace()?;
    let inputs = Inputs { name, namespace, enforce_namespace };
    let mut generated = build(&inputs)?;
    send::annotate(&mut generated.object, plan.save_config, true);
    if plan.dry_run == DryRun::Client {
        return ctx.printer.data(&plan.print(&generated.object, true)?).map_err(Into::into);
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let created = runtime.block_on(async {
        let (client, _, _) = connection.connect().await?;
        let namespace = generated.resource.namespaced.then_some(inputs.namespace.as_str());
        let sent = send::post(&client, &generated.resource, namespace, &generated.object, &plan).await;
        anyhow::Ok(sent.map_err(|f| match &generated.failure {
            None => crate::cmd::objects::failure::into_error(&[f]),
            Some(prefix) => {
                let cause = match f {
                    Failure::Api(s) => s.message.clone(),
                    Failure::Plain(m) => m,
                };
                anyhow::anyhow!("{prefix}{cause}")
            }
        }))
    })??;
    ctx.printer.data(&plan.print(&created, false)?)?;
    Ok(())
}

/// An object of Go's typed encoding: `kind`, `apiVersion`, and metadata with its
/// `creationTimestamp: null`, the name and, when `-n` was given, the namespace.
pub fn typed(api_version: &str, kind: &str, name: &str, namespace: Option<&str>) -> Value {
    let mut meta = serde_json::json!({"name": name, "creationTimestamp": null});
    if let Some(ns) = namespace {
        meta["namespace"] = Value::String(ns.to_string());
    }
    serde_json::json!({"apiVersion": api_version, "kind": kind, "metadata": meta})
}
