//! `apply`: kubectl's apply against the Karmada control plane (client-side with the
//! last-applied annotation and a three-way merge, or `--server-side`), plus upstream's
//! propagation: with `-C c1,c2` or `--all-clusters`, each object is followed by the
//! (Cluster)PropagationPolicy upstream generates for it, applied the same way.

pub(crate) mod client_side;
mod policy;
pub(crate) mod request;
mod server_side;

use clap::{ArgAction, Args};
use serde_json::Value;

use super::connection::KarmadaConnection;
use super::get::discovery::Resource;
use super::objects::flags::PrintFlags;
use super::objects::pairs::DryRun;
use super::objects::{self, Failure, Spec};
use crate::cli::Context;
use crate::manifest_files::{self, Document};
pub use policy::Placement;

/// Apply a configuration to a resource by file name or stdin and propagate them into member clusters.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl apply (-f FILENAME | -k DIRECTORY)",
    long_about = "Apply a configuration to a resource by file name or stdin and propagate them into member clusters. The resource name must be specified. This resource will be created if it doesn't exist yet. To use 'apply', always create the resource initially with either 'apply' or 'create --save-config'.\n\nJSON and YAML formats are accepted.\n\nAlpha Disclaimer: the --prune functionality is not yet complete. Do not use unless you are aware of what the current state is. See https://issues.k8s.io/34274.\n\nNote: It implements the function of 'kubectl apply' by default. If you want to propagate them into member clusters, please use karmadactl apply --all-clusters.",
    after_help = "Examples:\n  # Apply the configuration without propagation into member clusters. It acts as 'kubectl apply'.\n  karmadactl apply -f manifest.yaml\n\n  # Apply the configuration with propagation into specific member clusters.\n  karmadactl apply -f manifest.yaml --cluster member1,member2\n\n  # Apply resources from a directory and propagate them into all member clusters.\n  karmadactl apply -f dir/ --all-clusters\n\n  # Apply resources from a directory containing kustomization.yaml - e.g.\n  # dir/kustomization.yaml, and propagate them into all member clusters\n  karmadactl apply -k dir/ --all-clusters"
)]
pub struct ApplyArgs {
    /// The files that contain the configurations to apply.
    #[arg(short = 'f', long = "filename", value_name = "FILENAME", value_hint = clap::ValueHint::AnyPath)]
    pub filenames: Vec<String>,

    /// Process the directory used in -f, --filename recursively. Useful when you want to
    /// manage related manifests organized within the same directory.
    #[arg(short = 'R', long)]
    pub recursive: bool,

    /// Process a kustomization directory (not built: refused with exit code 2).
    #[arg(short = 'k', long, value_name = "DIR")]
    pub kustomize: Option<String>,

    /// Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l
    /// key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the
    /// specified label constraints.
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Select all resources in the namespace of the specified resource types (only used with
    /// --prune, which is not built).
    #[arg(long)]
    pub all: bool,

    /// If true, apply runs in the server instead of the client.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub server_side: bool,

    /// If true, server-side apply will force the changes against conflicts.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub force_conflicts: bool,

    /// Name of the manager used to track field ownership.
    #[arg(long, default_value = "kubectl-client-side-apply", value_name = "NAME")]
    pub field_manager: String,

    /// If specified, apply will operate on the subresource of the requested object. Only
    /// allowed when using --server-side.
    #[arg(long, value_name = "NAME")]
    pub subresource: Option<String>,

    /// Must be one of: strict (or true), warn, ignore (or false). Unknown or duplicate fields
    /// fail the request (strict), are reported as warnings (warn) or dropped silently (ignore).
    #[arg(long, default_value = "strict", num_args = 0..=1, require_equals = true,
          default_missing_value = "strict", value_name = "MODE")]
    pub validate: String,

    /// Automatically resolve conflicts between the modified and live configuration by using
    /// values from the modified configuration (only true is built).
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", value_name = "BOOL")]
    pub overwrite: bool,

    /// Automatically delete resource objects that do not appear in the configs (not built:
    /// refused with exit code 2).
    #[arg(long)]
    pub prune: bool,

    /// Delete and re-create resources that cannot be updated (not built: refused with exit
    /// code 2).
    #[arg(long)]
    pub force: bool,

    /// If present, propagates a group of resources to all member clusters.
    #[arg(long)]
    pub all_clusters: bool,

    /// If present, propagates a group of resources to specified clusters.
    #[arg(short = 'C', long = "cluster", value_name = "CLUSTERS", value_delimiter = ',')]
    pub clusters: Vec<String>,

    /// If present, the namespace scope for this CLI request.
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,

    #[command(flatten)]
    pub print: PrintFlags,
}

/// One object to apply: what the file says, and where it goes.
pub(crate) struct Info {
    pub resource: Resource,
    /// None for cluster-scoped kinds.
    pub namespace: Option<String>,
    pub name: String,
    pub object: Value,
    /// The file it came from (`STDIN`, a URL); empty for generated policies.
    pub source: String,
    /// The JSON text of a generated policy (upstream's typed object), used as its
    /// last-applied configuration.
    pub typed_json: Option<String>,
}

impl Info {
    fn target(&self) -> objects::Target {
        objects::Target {
            resource: self.resource.clone(),
            namespace: self.namespace.clone(),
            name: self.name.clone(),
            object: Value::Null,
            source: None,
        }
    }

    /// kubectl's `Info.String()`, quoted in some error messages.
    fn describe(&self) -> String {
        let r = &self.resource;
        format!(
            "Resource: \"{}/{}, Resource={}\", GroupVersionKind: \"{}/{}, Kind={}\"\nName: {:?}, Namespace: {:?}",
            r.group,
            r.version,
            r.plural,
            r.group,
            r.version,
            r.kind,
            self.name,
            self.namespace.as_deref().unwrap_or_default()
        )
    }
}

/// What every object's apply shares.
pub(crate) struct Options {
    pub dry_run: DryRun,
    pub field_manager: String,
    pub validation: &'static str,
    pub force_conflicts: bool,
    pub subresource: Option<String>,
    /// `kubectl` or `karmadactl`, named in the missing-annotation warning.
    pub base_name: String,
}

/// kubectl's `--validate` values, as the `fieldValidation` the server is asked for.
pub(crate) fn field_validation(value: &str) -> anyhow::Result<&'static str> {
    match value.to_lowercase().as_str() {
        "strict" | "true" => Ok("Strict"),
        "warn" => Ok("Warn"),
        "ignore" | "false" => Ok("Ignore"),
        _ => anyhow::bail!(
            "invalid - validate option {value:?}; must be one of: strict (or true), warn, ignore (or false)"
        ),
    }
}

fn not_built(ctx: &Context, what: &str, instead: &str) -> anyhow::Error {
    crate::error::NotBuilt { command: format!("{} apply {what}", ctx.parent()), instead: Some(instead.into()) }.into()
}

/// Checks the flags as kubectl's `ToOptions` and `Validate` do, refusing what is not built.
fn validate(args: &ApplyArgs, dry_run: DryRun, ctx: &Context) -> anyhow::Result<()> {
    if args.kustomize.is_some() {
        return Err(not_built(
            ctx,
            "-k",
            "render the kustomization with 'kubectl kustomize DIR > FILE' and pass -f FILE.",
        ));
    }
    if args.filenames.is_empty() {
        anyhow::bail!("must specify one of -f and -k");
    }
    if args.all && args.selector.as_deref().is_some_and(|s| !s.is_empty()) {
        anyhow::bail!("cannot set --all and --selector at the same time");
    }
    if args.prune {
        return Err(not_built(ctx, "--prune", "delete the objects you no longer want with kubectl delete."));
    }
    if args.force {
        return Err(not_built(ctx, "--force", "delete the object with kubectl delete, then apply it again."));
    }
    if !args.overwrite {
        return Err(not_built(ctx, "--overwrite=false", "leave --overwrite at its default (true)."));
    }
    if args.force_conflicts && !args.server_side {
        anyhow::bail!("--force-conflicts only works with --server-side");
    }
    if dry_run == DryRun::Client && args.server_side {
        anyhow::bail!("--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)");
    }
    if args.subresource.as_deref().is_some_and(|s| !s.is_empty()) && !args.server_side {
        anyhow::bail!("--subresource can only be specified for --server-side");
    }
    Ok(())
}

pub fn run(args: ApplyArgs, ctx: &Context) -> anyhow::Result<()> {
    let (dry_run, warning, mut printer) = args.print.resolve(ctx.parent(), "apply")?;
    validate(&args, dry_run, ctx)?;
    let validation = field_validation(&args.validate)?;
    if args.all_clusters && !args.clusters.is_empty() {
        anyhow::bail!("--all-clusters and --cluster cannot be used together");
    }
    if let Some(w) = warning {
        ctx.printer.warn(&w);
    }
    let placement = match (args.all_clusters, args.clusters.is_empty()) {
        (true, _) => Some(Placement::All),
        (false, false) => Some(Placement::Clusters(args.clusters.clone())),
        (false, true) => None,
    };
    // Without a changed --field-manager, server-side apply manages as `kubectl`.
    let field_manager = match (args.server_side, args.field_manager.as_str()) {
        (true, "kubectl-client-side-apply") => "kubectl".to_string(),
        (_, m) => m.to_string(),
    };
    let options = Options {
        dry_run,
        field_manager,
        validation,
        force_conflicts: args.force_conflicts,
        subresource: args.subresource.clone().filter(|s| !s.is_empty()),
        base_name: ctx.parent().split(' ').next().unwrap_or("kubectl").to_string(),
    };
    let whole_objects = printer.has_format() && !matches!(args.print.output.as_deref(), Some("name"));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (failures, applied) = runtime.block_on(async {
        let resolved = args.karmada.resolve()?;
        let flag = args.namespace.as_deref().filter(|n| !n.is_empty());
        let namespace = crate::cmd::connection::effective_namespace(flag, resolved.namespace.as_deref());
        let config = super::scope::plane_config(&args.karmada).await?;
        let client = kube::Client::try_from(config)?;
        if let Some(Placement::Clusters(names)) = &placement {
            check_clusters(&client, names).await?;
        }
        let spec = Spec {
            filenames: &args.filenames,
            recursive: args.recursive,
            selector: args.selector.as_deref(),
            namespace,
            enforce_namespace: flag.is_some(),
            ..Default::default()
        };
        let (infos, mut failures) = infos(&client, &spec).await?;
        let infos = match &placement {
            Some(_) if !failures.is_empty() => return Ok((failures, Vec::new())),
            Some(p) => with_policies(infos, p),
            None => infos,
        };
        if infos.is_empty() && failures.is_empty() {
            anyhow::bail!("no objects passed to apply");
        }
        let mut applied = Vec::new();
        for info in infos {
            let result = if args.server_side {
                server_side::apply(&client, &info, &options).await
            } else {
                client_side::apply(&client, &info, &options, ctx).await
            };
            match result {
                Ok((object, operation)) => {
                    if !whole_objects {
                        ctx.printer.data(&printer.print(&object, operation)?)?;
                    }
                    applied.push(object);
                }
                Err(f) => failures.push(f),
            }
        }
        anyhow::Ok((failures, applied))
    })?;
    if !failures.is_empty() {
        return Err(objects::failure::into_error(&failures));
    }
    if whole_objects {
        print_all(&mut printer, applied, ctx)?;
    }
    Ok(())
}

/// kubectl prints `-o json|yaml` once at the end: the object, or a `List` of them.
fn print_all(
    printer: &mut objects::flags::ObjectPrinter,
    mut applied: Vec<Value>,
    ctx: &Context,
) -> anyhow::Result<()> {
    let object = match applied.len() {
        0 => return Ok(()),
        1 => applied.remove(0),
        _ => {
            serde_json::json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": applied})
        }
    };
    ctx.printer.data(&printer.print(&object, "")?)?;
    Ok(())
}

/// Upstream's check of `-C`: every named cluster must exist.
async fn check_clusters(client: &kube::Client, names: &[String]) -> anyhow::Result<()> {
    use karmadactl_karmada_api::cluster::Cluster;
    let listed = kube::Api::<Cluster>::all(client.clone())
        .list(&Default::default())
        .await
        .map_err(|e| objects::failure::into_error(&[Failure::from_kube(e)]))?;
    let known: Vec<String> = listed.items.iter().filter_map(|c| c.metadata.name.clone()).collect();
    let missing: Vec<String> =
        names.iter().filter(|n| !known.contains(n)).map(|n| format!("cluster {n} does not exist")).collect();
    match missing.as_slice() {
        [] => Ok(()),
        [one] => anyhow::bail!("{one}"),
        many => anyhow::bail!("[{}]", many.join(", ")),
    }
}

/// The objects of the files, in order, as kubectl's builder visits them (items of `List`
/// documents, `-l` applied, the default namespace filled in); failures in their place.
pub(crate) async fn infos(client: &kube::Client, spec: &Spec<'_>) -> anyhow::Result<(Vec<Info>, Vec<Failure>)> {
    let served = objects::discover(client).await?;
    let selector = match spec.selector.filter(|s| !s.is_empty()) {
        Some(s) => Some(
            karmadactl_apimachinery::LabelSelector::parse(s)
                .map_err(|e| anyhow::anyhow!("unable to parse requirement: {e}"))?,
        ),
        None => None,
    };
    let docs = manifest_files::read_all(spec.filenames, spec.recursive).await?;
    let (mut infos, mut failures) = (Vec::new(), Vec::new());
    for doc in objects::flatten(docs) {
        if selector.as_ref().is_some_and(|sel| !sel.matches(&objects::labels_of(&doc.object))) {
            continue;
        }
        match objects::locate(&served, spec, &doc) {
            Ok((resource, namespace, name)) => infos.push(info(resource, namespace, name, doc)),
            Err(e) => failures.push(Failure::Plain(e.to_string())),
        }
    }
    Ok((infos, failures))
}

fn info(resource: Resource, namespace: Option<String>, name: String, doc: Document) -> Info {
    let mut object = doc.object;
    if let (Some(ns), Some(meta)) = (&namespace, object.get_mut("metadata").and_then(Value::as_object_mut)) {
        meta.insert("namespace".into(), Value::String(ns.clone()));
    }
    Info { resource, namespace, name, object, source: doc.origin.display(), typed_json: None }
}

/// Each object followed by its generated policy.
fn with_policies(infos: Vec<Info>, placement: &Placement) -> Vec<Info> {
    let mut out = Vec::new();
    for info in infos {
        let api_version = info.object.get("apiVersion").and_then(Value::as_str).unwrap_or_default().to_string();
        let namespace = info.namespace.clone().unwrap_or_default();
        let text = policy::generate(&api_version, &info.resource.kind, &namespace, &info.name, placement);
        let object = policy::as_object(&text);
        let (plural, kind) = if namespace.is_empty() {
            ("clusterpropagationpolicies", "ClusterPropagationPolicy")
        } else {
            ("propagationpolicies", "PropagationPolicy")
        };
        let resource = Resource::new("policy.karmada.io", "v1alpha1", plural, kind, !namespace.is_empty());
        let name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
        let generated = Info {
            resource,
            namespace: info.namespace.clone(),
            name,
            object,
            source: String::new(),
            typed_json: Some(text),
        };
        out.push(info);
        out.push(generated);
    }
    out
}
