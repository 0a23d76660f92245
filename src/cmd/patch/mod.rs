//! `patch`: kubectl's patch command against the Karmada control plane, or a member cluster
//! through the plane's proxy (`-s members -C NAME`): a strategic merge, JSON merge or JSON
//! patch sent to each named object (or applied here, with `--dry-run=client` and `--local`).

mod local;
mod source;

use clap::Args;
use serde_json::Value;

use super::objects::flags::{FileFlags, PrintFlags, ServerFlags};
use super::objects::pairs::DryRun;
use super::objects::{self, Failure, Spec, Target, update};
use crate::cli::Context;
use source::PatchType;

/// Update fields of a resource.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl patch (-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE] [flags]",
    long_about = "Update fields of a resource using strategic merge patch, a JSON merge patch, or a JSON patch.\n\nJSON and YAML formats are accepted.\n\nNote: Strategic merge patch is not supported for custom resources.",
    after_help = "Examples:\n  # Partially update a deployment using a strategic merge patch, specifying the patch as JSON\n  karmadactl patch deployment nginx-deployment -p '{\"spec\":{\"replicas\":2}}'\n\n  # Partially update a deployment using a strategic merge patch, specifying the patch as YAML\n  karmadactl patch deployment nginx-deployment -p $'spec:\\n replicas: 2'\n\n  # Partially update a deployment identified by the type and name specified in \"deployment.json\" using strategic merge patch\n  karmadactl patch -f deployment.json -p '{\"spec\":{\"replicas\":2}}'\n\n  # Update a propagationpolicy's conflictResolution using a JSON patch with positional arrays\n  karmadactl patch pp nginx-propagation --type='json' -p='[{\"op\": \"replace\", \"path\": \"/spec/conflictResolution\", \"value\":\"Overwrite\"}]'\n\n  # Update a deployment's replicas through the 'scale' subresource using a merge patch\n  karmadactl patch deployment nginx-deployment --subresource='scale' --type='merge' -p '{\"spec\":{\"replicas\":2}}'\n\n  # Update deployment 'nginx' in member cluster member1, through the control plane's cluster proxy\n  karmadactl patch deployment nginx -p '{\"spec\":{\"replicas\":2}}' -s members -C member1"
)]
pub struct PatchArgs {
    /// TYPE NAME or TYPE/NAME, or nothing with -f.
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    /// The patch to be applied to the resource JSON file.
    #[arg(short = 'p', long, value_name = "PATCH", allow_hyphen_values = true)]
    pub patch: Option<String>,

    /// A file containing a patch to be applied to the resource.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub patch_file: Option<String>,

    /// The type of patch being provided; one of [json merge strategic]
    #[arg(long = "type", default_value = "strategic", value_name = "TYPE")]
    pub patch_type: String,

    /// If true, patch will operate on the content of the file, not the server-side resource.
    #[arg(long)]
    pub local: bool,

    /// If specified, patch will operate on the subresource of the requested object.
    #[arg(long, value_name = "SUBRESOURCE")]
    pub subresource: Option<String>,

    /// Name of the manager used to track field ownership.
    #[arg(long, default_value = "kubectl-patch", value_name = "NAME")]
    pub field_manager: String,

    #[command(flatten)]
    pub files: FileFlags,

    #[command(flatten)]
    pub server: ServerFlags,

    #[command(flatten)]
    pub print: PrintFlags,
}

/// kubectl's `patchOperation`.
fn operation(changed: bool) -> &'static str {
    if changed { "patched" } else { "patched (no change)" }
}

pub fn run(args: PatchArgs, ctx: &Context) -> anyhow::Result<()> {
    args.files.refuse_unbuilt(ctx.parent(), "patch")?;
    let (dry_run, warning, printer) = args.print.resolve(ctx.parent(), "patch")?;
    let mut printer = printer.without_dry_run_suffix();
    let patch_type = source::validate(&args, dry_run).map_err(anyhow::Error::msg)?;
    if let Some(w) = warning {
        ctx.printer.warn(&w);
    }
    let body = source::read(args.patch.as_deref(), args.patch_file.as_deref()).map_err(anyhow::Error::msg)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (count, failures) = runtime.block_on(async {
        if args.local {
            return local::patch_files(&args, patch_type, &body, &mut printer, ctx).await;
        }
        if args.args.is_empty() && args.files.filenames.is_empty() {
            anyhow::bail!(objects::NOTHING_NAMED);
        }
        let connected = args.server.connect().await?;
        let spec = Spec {
            resources: &args.args,
            filenames: &args.files.filenames,
            recursive: args.files.recursive,
            namespace: connected.namespace.clone(),
            enforce_namespace: connected.enforce_namespace,
            ..Spec::default()
        };
        let selection = objects::select(&connected.client, &spec).await?;
        let (mut count, mut failures) = (0, Vec::new());
        for target in selection.targets {
            let target = match target {
                Ok(t) => t,
                Err(f) => {
                    failures.push(f);
                    continue;
                }
            };
            count += 1;
            let sub = args.subresource.as_deref().filter(|s| !s.is_empty());
            match patch_one(&connected.client, target, sub, patch_type, &body, dry_run, &args.field_manager).await {
                Ok((object, changed)) => ctx.printer.data(&printer.print(&object, operation(changed))?)?,
                Err(f) => failures.push(f),
            }
        }
        anyhow::Ok((count, failures))
    })?;
    match failures.as_slice() {
        [] if count == 0 => anyhow::bail!("no objects passed to patch"),
        [] => Ok(()),
        f => Err(objects::failure::into_error(f)),
    }
}

/// Patches one object (or its subresource) on the server, or here for `--dry-run=client`;
/// returns the result and whether it differs from the object read before.
async fn patch_one(
    client: &kube::Client,
    mut target: Target,
    subresource: Option<&str>,
    patch_type: PatchType,
    body: &[u8],
    dry_run: DryRun,
    field_manager: &str,
) -> Result<(Value, bool), Failure> {
    if let Some(sub) = subresource {
        // kubectl reads the subresource, not the object, and compares the answer with it.
        let req = http::Request::get(format!("{}/{sub}", target.path()))
            .body(Vec::new())
            .map_err(|e| Failure::Plain(e.to_string()))?;
        target.object = client.request::<Value>(req).await.map_err(Failure::from_kube)?;
    }
    let patched = if dry_run == DryRun::Client {
        local::apply(&target.object, patch_type, body).map_err(Failure::Plain)?
    } else {
        let sent = update::patch(
            client,
            &target,
            patch_type.content_type(),
            body.to_vec(),
            dry_run,
            field_manager,
            subresource,
        )
        .await;
        match sent {
            Err(Failure::Api(s)) if s.code == 415 || s.reason == "UnsupportedMediaType" => {
                let r = &target.resource;
                let api_version =
                    if r.group.is_empty() { r.version.clone() } else { format!("{}/{}", r.group, r.version) };
                let gvk = local::gvk_string(&api_version, &r.kind);
                return Err(Failure::Plain(format!(
                    "{} is not supported by {gvk}: {}",
                    patch_type.content_type(),
                    s.message
                )));
            }
            other => other?,
        }
    };
    let changed = patched != target.object;
    Ok((patched, changed))
}
