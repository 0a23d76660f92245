//! `delete`: kubectl's delete command against the Karmada control plane, or a member cluster
//! through the plane's proxy (`-s members -C NAME`): the named or selected objects are deleted
//! with the chosen cascading strategy and grace period, then (`--wait`, the default) waited
//! for until they are gone. `delete cluster NAME` is how upstream removes a cluster: the
//! plane's cluster controller then clears its execution namespace and Works.

mod options;
mod wait;

use std::io::{BufRead, Read, Write};

use clap::{ArgAction, Args};
use karmadactl_apimachinery::duration::SignedGoDuration;
use serde_json::{Value, json};

use super::objects::flags::ObjectFlags;
use super::objects::pairs::DryRun;
use super::objects::{self, Failure, Target};
use crate::cli::Context;

const LONG: &str = "Delete resources by file names, stdin, resources and names, or by resources and label selector.\n\nJSON and YAML formats are accepted. Only one type of argument may be specified: file names, resources and names, or resources and label selector.\n\nSome resources, such as pods, support graceful deletion. These resources define a default period before they are forcibly terminated (the grace period) but you may override that value with the --grace-period flag, or pass --now to set a grace-period of 1. Because these resources often represent entities in the cluster, deletion may not be acknowledged immediately. If the node hosting a pod is down or cannot reach the API server, termination may take significantly longer than the grace period. To force delete a resource, you must specify the --force flag. Note: only a subset of resources support graceful deletion. In absence of the support, the --grace-period flag is ignored.\n\nIMPORTANT: Force deleting pods does not wait for confirmation that the pod's processes have been terminated, which can leave those processes running until the node detects the deletion and completes graceful deletion. If your processes use shared storage or talk to a remote API and depend on the name of the pod to identify themselves, force deleting those pods may result in multiple processes running on different machines using the same identification which may lead to data corruption or inconsistency. Only force delete pods when you are sure the pod is terminated, or if your application can tolerate multiple copies of the same pod running at once. Also, if you force delete pods, the scheduler may place new pods on those nodes before the node has released those resources and causing those pods to be evicted immediately.\n\nNote that the delete command does NOT do resource version checks, so if someone submits an update to a resource right when you submit a delete, their update will be lost along with the rest of the resource.\n\nAfter a CustomResourceDefinition is deleted, invalidation of discovery cache may take up to 6 hours. If you don't want to wait, you might want to run \"karmadactl api-resources\" to refresh the discovery cache.";

const EXAMPLES: &str = "Examples:\n  # Delete a propagationpolicy using the type and name specified in propagationpolicy.json\n  karmadactl delete -f ./propagationpolicy.json\n\n  # Delete resources from all files that end with '.json'\n  karmadactl delete -f '*.json'\n\n  # Delete a propagationpolicy based on the type and name in the JSON passed into stdin\n  cat propagationpolicy.json | karmadactl delete -f -\n\n  # Delete propagationpolicies and services with same names \"baz\" and \"foo\"\n  karmadactl delete propagationpolicy,service baz foo\n\n  # Delete propagationpolicies and services with label name=myLabel\n  karmadactl delete propagationpolicies,services -l name=myLabel\n\n  # Delete a propagationpolicy with minimal delay\n  karmadactl delete propagationpolicy foo --now\n\n  # Force delete a propagationpolicy on a dead node\n  karmadactl delete propagationpolicy foo --force\n\n  # Delete all propagationpolicies\n  karmadactl delete propagationpolicies --all\n\n  # Remove member cluster member1 from Karmada (its Works and execution namespace go too)\n  karmadactl delete cluster member1\n\n  # Delete deployment 'nginx' in member cluster member1, through the control plane's cluster proxy\n  karmadactl delete deployment nginx -s members -C member1";

/// Delete resources by file names, stdin, resources and names, or by resources and label selector.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)]) [flags]",
    long_about = LONG,
    after_help = EXAMPLES,
    mut_arg("filenames", |a| a.help("containing the resource to delete.").long_help("Filename, directory, or URL to files containing the resource to delete.")),
    mut_arg("all", |a| a.help("Delete all resources, in the namespace of the specified resource types.")),
    mut_arg("all_namespaces", |a| a.help("If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace.")),
)]
pub struct DeleteArgs {
    /// TYPE NAME..., TYPE/NAME..., TYPE with -l or --all, or nothing with -f.
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    #[command(flatten)]
    pub objects: ObjectFlags,

    /// Must be "background", "orphan", or "foreground". Selects the deletion cascading strategy
    /// for the dependents (e.g. Pods created by a ReplicationController). Defaults to background.
    #[arg(long, default_value = "background", num_args = 0..=1, require_equals = true,
          default_missing_value = "background", value_name = "STRATEGY")]
    pub cascade: String,

    /// Period of time in seconds given to the resource to terminate gracefully. Ignored if
    /// negative. Set to 1 for immediate shutdown. Can only be set to 0 when --force is true
    /// (force deletion).
    #[arg(long, default_value_t = -1, allow_negative_numbers = true, value_name = "SECONDS")]
    pub grace_period: i64,

    /// If true, resources are signaled for immediate shutdown (same as --grace-period=1).
    #[arg(long)]
    pub now: bool,

    /// If true, immediately remove resources from API and bypass graceful deletion. Note that
    /// immediate deletion of some resources may result in inconsistency or data loss and
    /// requires confirmation.
    #[arg(long)]
    pub force: bool,

    /// Treat "resource not found" as a successful delete. Defaults to "true" when --all is
    /// specified.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_missing_value = "true", value_name = "BOOL")]
    pub ignore_not_found: Option<bool>,

    /// If true, wait for resources to be gone before returning. This waits for finalizers.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", value_name = "BOOL")]
    pub wait: bool,

    /// The length of time to wait before giving up on a delete, zero means determine a timeout
    /// from the size of the object
    #[arg(long, default_value = "0s", value_name = "DURATION")]
    pub timeout: SignedGoDuration,

    /// Output mode. Use "-o name" for shorter output (resource/name).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// Must be "none", "server", or "client". If client strategy, only print the object that
    /// would be sent, without sending it. If server strategy, submit server-side request
    /// without persisting the resource.
    #[arg(long, default_value = "none", num_args = 0..=1, require_equals = true,
          default_missing_value = "unchanged", value_name = "STRATEGY")]
    pub dry_run: String,

    /// If true, delete resource only when user confirms.
    #[arg(short = 'i', long)]
    pub interactive: bool,

    /// Raw URI to DELETE to the server (not built: refused with exit code 2).
    #[arg(long, value_name = "URI")]
    pub raw: Option<String>,
}

/// How each object is deleted and reported.
struct Plan {
    body: Value,
    grace: i64,
    dry_run: DryRun,
    names_only: bool,
}

impl Plan {
    /// kubectl's line for a deleted object: `kind.group "name" deleted`, `force deleted` for
    /// a zero grace period, the dry-run suffix; `kind.group/name` for `-o name`.
    fn line(&self, target: &Target) -> String {
        let r = &target.resource;
        let kind =
            if r.group.is_empty() { r.kind.to_lowercase() } else { format!("{}.{}", r.kind.to_lowercase(), r.group) };
        if self.names_only {
            return format!("{kind}/{}\n", target.name);
        }
        let operation = if self.grace == 0 { "force deleted" } else { "deleted" };
        format!("{kind} \"{}\" {operation}{}\n", target.name, self.dry_run.suffix())
    }
}

pub fn run(args: DeleteArgs, ctx: &Context) -> anyhow::Result<()> {
    let o = &args.objects;
    o.refuse_unbuilt(ctx.parent(), "delete")?;
    if args.raw.is_some() {
        return Err(crate::error::NotBuilt {
            command: format!("{} delete --raw", ctx.parent()),
            instead: Some(
                "name the objects as TYPE NAME, or use kubectl delete --raw against the control plane.".into(),
            ),
        }
        .into());
    }
    let (cascade, warning) = options::parse_cascade(&args.cascade).map_err(anyhow::Error::msg)?;
    if let Some(w) = warning {
        ctx.printer.progress(&format!("warning: {w}"));
    }
    let given = |s: &Option<String>| s.as_deref().is_some_and(|s| !s.trim().is_empty());
    let selecting = given(&o.selector) || given(&o.field_selector);
    let ignore_not_found = args.ignore_not_found.unwrap_or(o.all || selecting);
    let grace = options::grace_period(args.grace_period, args.now, args.force).map_err(anyhow::Error::msg)?;
    let (dry_run, dry_warning) = DryRun::parse(&args.dry_run).map_err(anyhow::Error::msg)?;
    if let Some(w) = dry_warning {
        ctx.printer.warn(&w);
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        if args.args.is_empty() && o.files.filenames.is_empty() {
            anyhow::bail!(objects::NOTHING_NAMED);
        }
        if o.all && selecting {
            // kubectl's builder refuses this before its Validate would, in its own words.
            anyhow::bail!("setting 'all' parameter but found a non empty selector. ");
        }
        let connected = o.connect().await?;
        let mut spec = o.spec(&args.args, &connected);
        spec.skip_read = true;
        let selection = objects::select(&connected.client, &spec).await?;
        // kubectl's Validate comes after its builder has named the objects.
        match args.output.as_deref() {
            None | Some("") | Some("name") => {}
            Some(other) => anyhow::bail!("unexpected -o output mode: {other}. We only support '-o name'"),
        }
        if let Some(w) = options::check_force(grace, args.force).map_err(anyhow::Error::msg)? {
            ctx.printer.progress(&format!("Warning: {w}"));
        }
        let mut body = json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": cascade.policy()});
        if grace >= 0 {
            body["gracePeriodSeconds"] = json!(grace);
        }
        if dry_run == DryRun::Server {
            body["dryRun"] = json!(["All"]);
        }
        let plan = Plan { body, grace, dry_run, names_only: args.output.as_deref() == Some("name") };
        let mut targets = Vec::new();
        let mut failures = Vec::new();
        for t in selection.targets {
            match t {
                Ok(t) => targets.push(t),
                Err(Failure::Api(s)) if ignore_not_found && s.code == 404 => {}
                Err(f) => failures.push(f),
            }
        }
        if args.interactive && !confirmed(&targets, ctx)? {
            return Ok(());
        }
        // kubectl warns once when `-n` was given and a cluster-scoped object is deleted.
        let mut warn_cluster_scope = connected.enforce_namespace && !o.all_namespaces;
        let mut deleted = Vec::new();
        for target in &targets {
            if warn_cluster_scope && !target.resource.namespaced {
                ctx.printer
                    .progress("Warning: deleting cluster-scoped resources, not scoped to the provided namespace");
                warn_cluster_scope = false;
            }
            if dry_run == DryRun::Client {
                ctx.printer.data(&plan.line(target))?;
                continue;
            }
            match delete_one(&connected.client, target, &plan.body).await {
                Ok(uid) => {
                    ctx.printer.data(&plan.line(target))?;
                    deleted.push((target.clone(), uid));
                }
                Err(Failure::Api(s)) if ignore_not_found && s.code == 404 => {}
                Err(f) => failures.push(f),
            }
        }
        if !failures.is_empty() {
            return Err(objects::failure::into_error(&failures));
        }
        if targets.is_empty() {
            ctx.printer.data("No resources found\n")?;
            return Ok(());
        }
        if args.wait && dry_run == DryRun::None {
            let timeout = args.timeout.to_std().unwrap_or_default();
            wait::until_gone(&connected.client, &deleted, timeout)
                .await
                .map_err(|f| objects::failure::into_error(&[f]))?;
        }
        Ok(())
    })
}

/// Sends the DELETE; returns the uid of what was deleted (empty when the answer has none).
async fn delete_one(client: &kube::Client, target: &Target, body: &Value) -> Result<String, Failure> {
    let req = http::Request::delete(target.path())
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(serde_json::to_vec(body).map_err(|e| Failure::Plain(e.to_string()))?)
        .map_err(|e| Failure::Plain(e.to_string()))?;
    let answer = client.request::<Value>(req).await.map_err(|e| with_source(Failure::from_kube(e), target))?;
    // A Status answer (the object is gone already) carries the uid in its details.
    let uid = answer.pointer("/metadata/uid").or_else(|| answer.pointer("/details/uid"));
    Ok(uid.and_then(Value::as_str).unwrap_or_default().to_string())
}

/// kubectl's `AddSourceToErr`: failures of objects named in a file say which file.
fn with_source(failure: Failure, target: &Target) -> Failure {
    let Some(source) = &target.source else { return failure };
    match failure {
        Failure::Api(mut s) => {
            s.message = format!("error when deleting {source:?}: {}", s.message);
            Failure::Api(s)
        }
        Failure::Plain(m) => Failure::Plain(format!("error when deleting {source:?}: {m}")),
    }
}

/// `--interactive`: lists what would go and asks; false (after saying so) unless answered `y`.
fn confirmed(targets: &[Target], ctx: &Context) -> anyhow::Result<bool> {
    if targets.is_empty() {
        ctx.printer.data("No resources found\n")?;
        return Ok(false);
    }
    let mut text = format!("You are about to delete the following {} resource(s):\n", targets.len());
    for t in targets {
        text.push_str(&t.printed_name());
        text.push('\n');
    }
    text.push_str("Do you want to continue? (y/N): ");
    ctx.printer.data(&text)?;
    std::io::stdout().flush()?;
    let mut answer = String::new();
    // One short line is all kubectl reads; a bound keeps a flood on stdin from filling memory.
    std::io::stdin().lock().take(1024).read_line(&mut answer)?;
    if answer.trim().eq_ignore_ascii_case("y") {
        return Ok(true);
    }
    ctx.printer.data("deletion is cancelled\n")?;
    Ok(false)
}
