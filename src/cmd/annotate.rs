//! `annotate`: kubectl's annotate command against the Karmada control plane, or a member
//! cluster through the plane's proxy (`-s members -C NAME`).

use std::collections::BTreeMap;

use clap::Args;
use serde_json::Value;

use super::objects::flags::{ObjectFlags, PrintFlags};
use super::objects::pairs::{self, DryRun};
use super::objects::{self, Failure, update};
use crate::cli::Context;

/// The annotation `--record` writes; kubectl lets it be overwritten without --overwrite.
const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

/// Update the annotations on a resource.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [flags]",
    long_about = "Update the annotations on one or more resources.\n\nAll Kubernetes objects support the ability to store additional data with the object as annotations. Annotations are key/value pairs that can be larger than labels and include arbitrary string values such as structured JSON. Tools and system extensions may use annotations to store their own data.\n\nAttempting to set an annotation that already exists will fail unless --overwrite is set. If --resource-version is specified and does not match the current resource version on the server the command will fail.\n\nUse \"karmadactl api-resources\" for a complete list of supported resources.",
    after_help = "Examples:\n  # Update deployment 'foo' with the annotation 'work.karmada.io/conflict-resolution' and the value 'overwrite'\n  # If the same annotation is set multiple times, only the last value will be applied\n  karmadactl annotate deployment foo work.karmada.io/conflict-resolution='overwrite'\n\n  # Update a deployment identified by type and name in \"deployment.json\"\n  karmadactl annotate -f deployment.json work.karmada.io/conflict-resolution='overwrite'\n\n  # Update deployment 'foo' with the annotation 'work.karmada.io/conflict-resolution' and the value 'abort', overwriting any existing value\n  karmadactl annotate --overwrite deployment foo work.karmada.io/conflict-resolution='abort'\n\n  # Update all deployments in the namespace\n  karmadactl annotate deployment --all work.karmada.io/conflict-resolution='abort'\n\n  # Update deployment 'foo' only if the resource is unchanged from version 1\n  karmadactl annotate deployment foo work.karmada.io/conflict-resolution='abort' --resource-version=1\n\n  # Update deployment 'foo' by removing an annotation named 'work.karmada.io/conflict-resolution' if it exists\n  # Does not require the --overwrite flag\n  karmadactl annotate deployment foo work.karmada.io/conflict-resolution-"
)]
pub struct AnnotateArgs {
    /// TYPE NAME, TYPE/NAME or nothing (with -f), then KEY=VALUE to set and KEY- to remove.
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    /// If true, allow annotations to be overwritten, otherwise reject annotation updates that
    /// overwrite existing annotations.
    #[arg(long)]
    pub overwrite: bool,

    /// If true, display the annotations for a given resource.
    #[arg(long)]
    pub list: bool,

    /// If true, annotation will NOT contact api-server but run locally.
    #[arg(long)]
    pub local: bool,

    /// If non-empty, the annotation update will only succeed if this is the current
    /// resource-version for the object. Only valid when specifying a single resource.
    #[arg(long, value_name = "VERSION")]
    pub resource_version: Option<String>,

    /// Name of the manager used to track field ownership.
    #[arg(long, default_value = "kubectl-annotate", value_name = "NAME")]
    pub field_manager: String,

    #[command(flatten)]
    pub objects: ObjectFlags,

    #[command(flatten)]
    pub print: PrintFlags,
}

/// Annotations to set and to remove, checked as kubectl checks them.
fn parse(specs: &[String]) -> Result<(BTreeMap<String, String>, Vec<String>), String> {
    let (set, remove) = pairs::parse(specs, "annotation")?;
    let both: Vec<&str> = remove.iter().filter(|k| set.contains_key(*k)).map(String::as_str).collect();
    if !both.is_empty() {
        return Err(format!(
            "can not both modify and remove the following annotation(s) in the same command: {}",
            both.join(", ")
        ));
    }
    Ok((set, remove))
}

/// kubectl's `updateAnnotations`.
fn apply(
    object: &mut Value,
    set: &BTreeMap<String, String>,
    remove: &[String],
    overwrite: bool,
    resource_version: &str,
) -> Result<(), String> {
    let mut annotations = update::string_map(object, "annotations");
    if !overwrite {
        let clashes: Vec<String> = set
            .iter()
            .filter(|(k, _)| *k != CHANGE_CAUSE)
            .filter_map(|(k, v)| {
                annotations.get(k).filter(|cur| *cur != v).map(|cur| format!("'{k}' already has a value ({cur})"))
            })
            .collect();
        if !clashes.is_empty() {
            return Err(format!(
                "--overwrite is false but found the following declared annotation(s): {}",
                clashes.join("; ")
            ));
        }
    }
    annotations.extend(set.clone());
    for k in remove {
        annotations.remove(k);
    }
    update::set_string_map(object, "annotations", &annotations);
    if !resource_version.is_empty() {
        update::set_resource_version(object, resource_version);
    }
    Ok(())
}

pub fn run(args: AnnotateArgs, ctx: &Context) -> anyhow::Result<()> {
    args.objects.refuse_unbuilt(ctx.parent(), "annotate")?;
    let (dry_run, warning, mut printer) = args.print.resolve(ctx.parent(), "annotate")?;
    let (resources, specs) = pairs::split(&args.args, "annotation").map_err(anyhow::Error::msg)?;
    let (set, remove) = pairs::parse(&specs, "annotation").map_err(anyhow::Error::msg)?;
    let o = &args.objects;
    let refuse = |m: &str| Err(anyhow::Error::msg(m.to_string()));
    // kubectl 1.33's annotate means to refuse --list with --output but checks a field it never
    // fills, so --list wins; so it does here.
    o.check_selectors().map_err(anyhow::Error::msg)?;
    if args.local {
        return Err(super::label::not_built_local(ctx.parent(), "annotate"));
    }
    o.check_named(&resources).map_err(anyhow::Error::msg)?;
    if set.is_empty() && remove.is_empty() && !args.list {
        return refuse("at least one annotation update is required");
    }
    parse(&specs).map_err(anyhow::Error::msg)?;
    if let Some(w) = warning {
        ctx.printer.warn(&w);
    }
    let rv = args.resource_version.clone().unwrap_or_default();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let failures = runtime.block_on(async {
        let connected = o.connect().await?;
        let selection = objects::select(&connected.client, &o.spec(&resources, &connected)).await?;
        if !selection.single && !rv.is_empty() {
            anyhow::bail!("--resource-version may only be used with a single resource");
        }
        let mut failures = Vec::new();
        for target in selection.targets {
            let mut target = match target {
                Ok(t) => t,
                Err(f) => {
                    failures.push(f);
                    continue;
                }
            };
            let local = dry_run == DryRun::Client || args.list;
            if !local && !rv.is_empty() {
                update::set_resource_version(&mut target.object, "");
            }
            let before = target.object.clone();
            if let Err(e) = apply(&mut target.object, &set, &remove, args.overwrite, &rv) {
                failures.push(Failure::Plain(e));
                continue;
            }
            let shown = if local {
                target.object.clone()
            } else {
                let patch = serde_json::to_vec(&karmadactl_apimachinery::create_merge_patch(&before, &target.object))?;
                let content = "application/merge-patch+json";
                match update::patch(&connected.client, &target, content, patch, dry_run, &args.field_manager, None)
                    .await
                {
                    Ok(answer) => answer,
                    Err(f) => {
                        failures.push(f);
                        continue;
                    }
                }
            };
            let text = if args.list {
                update::listing("annotations", &shown, "annotations", selection.single)
            } else {
                printer.print(&shown, "annotated")?
            };
            ctx.printer.data(&text)?;
        }
        anyhow::Ok(failures)
    })?;
    match failures.as_slice() {
        [] => Ok(()),
        f => Err(objects::failure::into_error(f)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn modifying_and_removing_one_key_is_refused() {
        assert_eq!(
            parse(&s(&["w=3", "w-"])).unwrap_err(),
            "can not both modify and remove the following annotation(s) in the same command: w"
        );
        assert_eq!(parse(&s(&["a=x=y"])).unwrap().0["a"], "x=y");
    }

    #[test]
    fn overwriting_needs_the_flag_except_for_the_change_cause() {
        let mut obj = json!({"metadata": {"annotations": {"w": "1", CHANGE_CAUSE: "old"}}});
        let set = BTreeMap::from([("w".to_string(), "2".to_string())]);
        assert_eq!(
            apply(&mut obj, &set, &[], false, "").unwrap_err(),
            "--overwrite is false but found the following declared annotation(s): 'w' already has a value (1)"
        );
        let cause = BTreeMap::from([(CHANGE_CAUSE.to_string(), "new".to_string())]);
        apply(&mut obj, &cause, &s(&["w"]), false, "").unwrap();
        assert_eq!(obj, json!({"metadata": {"annotations": {CHANGE_CAUSE: "new"}}}));
    }
}
