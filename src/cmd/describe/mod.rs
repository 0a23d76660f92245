//! `describe`: kubectl's describe against the Karmada control plane, or one member cluster
//! through the plane's cluster proxy (`-s members -C NAME`), as upstream karmadactl wraps it.
//! Each kind kubectl has a describer for is printed in that describer's layout; every other
//! kind (Karmada's own among them) by kubectl's generic describer.

mod apps;
mod batch;
mod containers;
mod core;
mod events;
mod generic;
mod go_format;
mod list;
mod meta;
mod network;
mod node;
mod pod_template;
mod pods;
mod prefix_writer;
mod targets;
mod volumes;

use clap::{ArgAction, Args};
use serde_json::Value;

use super::connection::KarmadaConnection;
use super::scope::{self, Scope};
use crate::cli::Context;
use crate::error::{NotBuilt, PerObject, UsageError};
use targets::{Failure, Target};

/// Show details of a specific resource or group of resources in Karmada control plane or a
/// member cluster.
///
/// Print a detailed description of the selected resources, including related resources such as
/// events or controllers. You may select a single object by name, all objects of that type,
/// provide a name prefix, or label selector. For example:
///
///   $ karmadactl describe TYPE NAME_PREFIX
///
/// will first check for an exact match on TYPE and NAME_PREFIX. If no such resource exists, it
/// will output details for every resource that has a name prefixed with NAME_PREFIX.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Describe a deployment in Karmada control plane\n  karmadactl describe deployment/nginx\n\n  # Describe a pod in cluster(member1)\n  karmadactl describe pods/nginx --operation-scope=members --cluster=member1\n\n  # Describe all pods in cluster(member1)\n  karmadactl describe pods --operation-scope=members --cluster=member1\n\n  # Describe a pod identified by type and name in \"pod.json\" in cluster(member1)\n  karmadactl describe -f pod.json --operation-scope=members --cluster=member1\n\n  # Describe pods by label name=myLabel in cluster(member1)\n  karmadactl describe po -l name=myLabel --operation-scope=members --cluster=member1\n\n  # Describe all pods managed by the 'frontend' replication controller in cluster(member1)\n  # (rc-created pods get the name of the rc as a prefix in the pod name)\n  karmadactl describe pods frontend --operation-scope=members --cluster=member1"
)]
pub struct DescribeArgs {
    /// TYPE [NAME_PREFIX], TYPE/NAME..., or TYPE1,TYPE2 [NAME...].
    #[arg(value_name = "RESOURCE")]
    pub resources: Vec<String>,

    /// Used to control the operation scope of the command. The optional values are karmada and
    /// members. Defaults to karmada.
    #[arg(short = 's', long, default_value = "karmada", value_parser = scope::parse_scope, value_name = "SCOPE")]
    pub operation_scope: Scope,

    /// Used to specify a target member cluster and only takes effect when the command's
    /// operation scope is members, for example: --operation-scope=members --cluster=member1
    #[arg(short = 'C', long, value_name = "CLUSTER")]
    pub cluster: Option<String>,

    /// Filename, directory, or URL to files containing the resource to describe.
    #[arg(short = 'f', long = "filename", value_name = "FILENAME")]
    pub filenames: Vec<String>,

    /// Process the directory used in -f, --filename recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,

    /// Process the kustomization directory (not built: refused).
    #[arg(short = 'k', long, value_name = "DIR")]
    pub kustomize: Option<String>,

    /// Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l
    /// key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the
    /// specified label constraints.
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// If present, list the requested object(s) across all namespaces. Namespace in current
    /// context is ignored even if specified with --namespace.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// If true, display events related to the described object.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", value_name = "BOOL")]
    pub show_events: bool,

    /// Return large lists in chunks rather than all at once. Pass 0 to disable.
    #[arg(long, default_value_t = 500, value_name = "N", allow_negative_numbers = true)]
    pub chunk_size: i64,

    /// If present, the namespace scope for this CLI request.
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// What the describers need besides the object.
pub struct Settings<'a> {
    pub client: &'a kube::Client,
    pub show_events: bool,
    pub chunk_size: i64,
}

pub fn run(args: DescribeArgs, ctx: &Context) -> anyhow::Result<()> {
    if args.kustomize.is_some() {
        return Err(NotBuilt {
            command: format!("{} describe -k", ctx.parent()),
            instead: Some("run 'kubectl kustomize DIR' and pass its output with -f -.".into()),
        }
        .into());
    }
    if args.resources.is_empty() && args.filenames.is_empty() {
        return Err(UsageError::with_hint(
            format!(
                "You must specify the type of resource to describe. Use \"{} api-resources\" for a complete list of supported resources.",
                ctx.parent()
            ),
            format!("e.g. '{} describe clusters'.", ctx.parent()),
        )
        .into());
    }
    let member = scope::target(args.operation_scope, args.cluster.as_deref())?;
    if args.chunk_size < 0 {
        return Err(UsageError::new(format!("invalid --chunk-size {}: it must be 0 or more", args.chunk_size)).into());
    }
    if let Some(l) = args.selector.as_deref() {
        karmadactl_apimachinery::LabelSelector::parse(l)
            .map_err(|e| UsageError::new(format!("unable to parse requirement: {e}")))?;
    }
    let wanted = if args.filenames.is_empty() {
        crate::cmd::get::request::parse(&args.resources).map_err(UsageError::new)?
    } else {
        Vec::new()
    };
    let resolved = args.karmada.resolve()?;
    let namespace = super::connection::effective_namespace(args.namespace.as_deref(), resolved.namespace.as_deref());
    let enforce_namespace = args.namespace.as_deref().is_some_and(|n| !n.is_empty()) && !args.all_namespaces;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let outcome = runtime.block_on(async {
        let config = scope::config_for(&args.karmada, member.as_deref()).await?;
        let client = kube::Client::try_from(config)?;
        let served = crate::cmd::get::discovery::discover(&client)
            .await
            .map_err(|e| anyhow::anyhow!("couldn't get resource list: {}", crate::error::with_causes(&e)))?;
        let settings = Settings { client: &client, show_events: args.show_events, chunk_size: args.chunk_size };
        let scope = targets::Scope {
            namespace: &namespace,
            all_namespaces: args.all_namespaces,
            selector: args.selector.as_deref(),
            chunk_size: args.chunk_size,
        };
        let (found, failures) = if args.filenames.is_empty() {
            targets::named(&client, &served, &wanted, &scope).await.map_err(anyhow::Error::msg)?
        } else {
            let documents = crate::manifest_files::read_all(&args.filenames, args.recursive).await?;
            let objects: Vec<(String, Value)> = documents.into_iter().map(|d| (d.origin.display(), d.object)).collect();
            targets::from_documents(&served, &objects, &namespace, enforce_namespace).map_err(anyhow::Error::msg)?
        };
        // `TYPE NAME` that names nothing: every object of the type whose name starts with NAME.
        if args.resources.len() == 2
            && args.filenames.is_empty()
            && !failures.is_empty()
            && failures.iter().all(Failure::is_not_found)
        {
            return anyhow::Ok(by_prefix(&settings, &served, &args.resources, &scope, failures).await);
        }
        anyhow::Ok(describe_all(&settings, &found, failures).await)
    })?;
    ctx.printer.data(&outcome.text)?;
    if outcome.described == 0 && outcome.failures.is_empty() {
        ctx.printer.progress(&if args.all_namespaces {
            "No resources found".to_string()
        } else {
            format!("No resources found in {namespace} namespace.")
        });
    }
    report(outcome.failures)
}

/// What was printed, and what failed.
struct Outcome {
    text: String,
    described: usize,
    failures: Vec<Failure>,
}

/// Every target, the first as it is and the others after a blank line; failures are kept
/// once each, as kubectl drops repeated messages.
async fn describe_all(settings: &Settings<'_>, found: &[Target], mut failures: Vec<Failure>) -> Outcome {
    let mut text = String::new();
    let mut described = 0;
    for target in found {
        match describe_one(settings, target).await {
            Ok(s) => {
                if described > 0 {
                    text.push_str("\n\n");
                }
                text.push_str(&s);
                described += 1;
            }
            Err(e) => {
                if !failures.iter().any(|f| message(f) == message(&e)) {
                    failures.push(e);
                }
            }
        }
    }
    Outcome { text, described, failures }
}

/// kubectl's `DescribeMatchingResources`: the type's objects in the namespace whose names start
/// with the prefix, each followed by a blank line; the original failure when there are none.
async fn by_prefix(
    settings: &Settings<'_>,
    served: &crate::cmd::get::discovery::Served,
    args: &[String],
    scope: &targets::Scope<'_>,
    original: Vec<Failure>,
) -> Outcome {
    let fail = |failures| Outcome { text: String::new(), described: 0, failures };
    let resource = match served.resolve(&args[0]) {
        Ok(r) => r,
        Err(e) => return fail(vec![Failure::Other(e)]),
    };
    let in_namespace = targets::Scope { all_namespaces: false, selector: None, ..*scope };
    let listed = match targets::list(settings.client, &resource, &in_namespace).await {
        Ok(l) => l,
        Err(e) => return fail(vec![e]),
    };
    let mut text = String::new();
    let mut described = 0;
    for target in listed.iter().filter(|t| t.name.starts_with(&args[1])) {
        match describe_one(settings, target).await {
            Ok(s) => {
                text.push_str(&s);
                text.push('\n');
                described += 1;
            }
            Err(e) => return Outcome { text, described, failures: vec![e] },
        }
    }
    if described == 0 {
        return fail(original);
    }
    Outcome { text, described, failures: Vec::new() }
}

/// One object through its kind's describer.
async fn describe_one(settings: &Settings<'_>, target: &Target) -> Result<String, Failure> {
    let object = targets::get(settings.client, target).await?;
    // Events are read only for the describers that print them.
    let prints_events =
        !matches!((target.resource.group.as_str(), target.resource.kind.as_str()), ("", "Namespace" | "Secret"));
    let events = match settings.show_events && prints_events {
        true => Some(match (target.resource.group.as_str(), target.resource.kind.as_str()) {
            ("", "Pod") => events::for_pod(settings.client, &object, settings.chunk_size).await,
            ("", "Node") => events::for_node(settings.client, &object, settings.chunk_size).await,
            (_, kind) => events::search(settings.client, &object, kind, settings.chunk_size).await,
        }),
        false => None,
    };
    let events = events.as_ref();
    Ok(match (target.resource.group.as_str(), target.resource.kind.as_str()) {
        ("", "Namespace") => core::namespace(settings, &object).await?,
        ("", "ConfigMap") => core::config_map(&object, events),
        ("", "Secret") => core::secret(&object),
        ("", "ServiceAccount") => core::service_account(settings, &object, events).await,
        ("", "Service") => network::service(settings, &object, events).await,
        ("", "Pod") => pods::describe(&object, events),
        ("", "Node") => node::describe(settings, &object, events).await?,
        ("apps", "Deployment") => apps::deployment(settings, &object, events).await?,
        ("apps", "ReplicaSet") => apps::replica_set(settings, &object, events).await?,
        ("apps", "StatefulSet") => apps::stateful_set(settings, &object, events).await?,
        ("apps", "DaemonSet") => apps::daemon_set(settings, &object, events).await?,
        ("batch", "Job") => batch::job(&object, events),
        ("batch", "CronJob") => batch::cron_job(&object, events),
        _ => generic::describe(&object, events),
    })
}

fn message(f: &Failure) -> String {
    match f {
        Failure::Server(s) => crate::error::from_server(s),
        Failure::Other(m) => m.clone(),
    }
}

/// The failures as kubectl prints them after the objects it could describe.
fn report(failures: Vec<Failure>) -> anyhow::Result<()> {
    match failures.as_slice() {
        [] => Ok(()),
        _ => Err(PerObject(failures.iter().map(message).collect()).into()),
    }
}
