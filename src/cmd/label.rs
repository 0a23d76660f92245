//! `label`: kubectl's label command against the Karmada control plane, or a member cluster
//! through the plane's proxy (`-s members -C NAME`).

use std::collections::BTreeMap;

use clap::Args;
use serde_json::Value;

use super::objects::flags::{ObjectFlags, PrintFlags};
use super::objects::pairs::{self, DryRun};
use super::objects::{self, Failure, update};
use crate::cli::Context;

/// Update the labels on a resource.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [flags]",
    long_about = "Update the labels on a resource.\n\n * A label key and value must begin with a letter or number, and may contain letters, numbers, hyphens, dots, and underscores, up to 63 characters each.\n * Optionally, the key can begin with a DNS subdomain prefix and a single '/', like example.com/my-app.\n * If --overwrite is true, then existing labels can be overwritten, otherwise attempting to overwrite a label will result in an error.\n * If --resource-version is specified, then updates will use this resource version, otherwise the existing resource-version will be used.",
    after_help = "Examples:\n  # Update deployment 'foo' with the label 'resourcetemplate.karmada.io/deletion-protected' and the value 'Always'\n  karmadactl label deployment foo resourcetemplate.karmada.io/deletion-protected=Always\n\n  # Update deployment 'foo' with the label 'resourcetemplate.karmada.io/deletion-protected' and the value '', overwriting any existing value\n  karmadactl label --overwrite deployment foo resourcetemplate.karmada.io/deletion-protected=\n\n  # Update all deployments in the namespace\n  karmadactl label deployments --all resourcetemplate.karmada.io/deletion-protected=\n\n  # Update a deployment identified by the type and name in \"deployment.json\"\n  karmadactl label -f deployment.json resourcetemplate.karmada.io/deletion-protected=\n\n  # Update deployment 'foo' only if the resource is unchanged from version 1\n  karmadactl label deployment foo resourcetemplate.karmada.io/deletion-protected=Always --resource-version=1\n\n  # Update deployment 'foo' by removing a label named 'bar' if it exists\n  # Does not require the --overwrite flag\n  karmadactl label deployment foo bar-\n\n  # Update deployment 'nginx' in member cluster member1, through the control plane's cluster proxy\n  karmadactl label deployment nginx env=test -s members -C member1"
)]
pub struct LabelArgs {
    /// TYPE NAME, TYPE/NAME or nothing (with -f), then KEY=VALUE to set and KEY- to remove.
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    /// If true, allow labels to be overwritten, otherwise reject label updates that overwrite
    /// existing labels.
    #[arg(long)]
    pub overwrite: bool,

    /// If true, display the labels for a given resource.
    #[arg(long)]
    pub list: bool,

    /// If true, label will NOT contact api-server but run locally.
    #[arg(long)]
    pub local: bool,

    /// If non-empty, the labels update will only succeed if this is the current
    /// resource-version for the object. Only valid when specifying a single resource.
    #[arg(long, value_name = "VERSION")]
    pub resource_version: Option<String>,

    /// Name of the manager used to track field ownership.
    #[arg(long, default_value = "kubectl-label", value_name = "NAME")]
    pub field_manager: String,

    #[command(flatten)]
    pub objects: ObjectFlags,

    #[command(flatten)]
    pub print: PrintFlags,
}

/// The labels to set and to remove.
#[derive(Debug, Default, PartialEq)]
struct Changes {
    set: BTreeMap<String, String>,
    remove: Vec<String>,
}

/// kubectl's `parseLabels`: `KEY=VALUE` (one `=`, a valid label value) or `KEY-`.
fn parse_labels(specs: &[String]) -> Result<Changes, String> {
    let mut changes = Changes::default();
    for spec in specs {
        if spec.contains('=') {
            let parts: Vec<&str> = spec.split('=').collect();
            let [key, value] = parts[..] else { return Err(format!("invalid label spec: {spec}")) };
            let errs = karmadactl_apimachinery::is_valid_label_value(value);
            if !errs.is_empty() {
                return Err(format!(
                    "invalid label value: {}: {}",
                    karmadactl_apimachinery::go_quote(spec),
                    errs.join(";")
                ));
            }
            changes.set.insert(key.to_string(), value.to_string());
        } else if let Some(key) = spec.strip_suffix('-') {
            changes.remove.push(key.to_string());
        } else {
            return Err(format!("unknown label spec: {spec}"));
        }
    }
    if changes.remove.iter().any(|k| changes.set.contains_key(k)) {
        return Err("can not both modify and remove a label in the same command".into());
    }
    Ok(changes)
}

/// kubectl's `labelFunc`: refuses to overwrite without --overwrite, then changes the labels.
fn apply(object: &mut Value, changes: &Changes, overwrite: bool, resource_version: &str) -> Result<(), String> {
    let mut labels = update::string_map(object, "labels");
    if !overwrite {
        let clashes: Vec<String> = changes
            .set
            .iter()
            .filter_map(|(k, v)| labels.get(k).filter(|cur| *cur != v).map(|cur| (k, cur)))
            .map(|(k, cur)| format!("'{k}' already has a value ({cur}), and --overwrite is false"))
            .collect();
        match clashes.as_slice() {
            [] => {}
            [one] => return Err(one.clone()),
            many => return Err(format!("[{}]", many.join(", "))),
        }
    }
    labels.extend(changes.set.clone());
    for k in &changes.remove {
        labels.remove(k);
    }
    update::set_string_map(object, "labels", &labels);
    if !resource_version.is_empty() {
        update::set_resource_version(object, resource_version);
    }
    Ok(())
}

/// kubectl 1.33's message: `labeled` when anything changed, `unlabeled` when the object got
/// shorter without --overwrite, else `not labeled`.
fn change_message(old: &str, new: &str, overwrite: bool) -> &'static str {
    match (old == new, !overwrite && new.len() < old.len()) {
        (true, _) => "not labeled",
        (false, true) => "unlabeled",
        (false, false) => "labeled",
    }
}

/// `--local` (changing files without a server) is not built.
pub(crate) fn not_built_local(parent: &str, command: &str) -> anyhow::Error {
    crate::error::NotBuilt {
        command: format!("{parent} {command} --local"),
        instead: Some("use --dry-run=client -o yaml to see the change without making it.".into()),
    }
    .into()
}

pub fn run(args: LabelArgs, ctx: &Context) -> anyhow::Result<()> {
    args.objects.refuse_unbuilt(ctx.parent(), "label")?;
    let (dry_run, warning, mut printer) = args.print.resolve(ctx.parent(), "label")?;
    let (resources, specs) = pairs::split(&args.args, "label").map_err(anyhow::Error::msg)?;
    let changes = parse_labels(&specs).map_err(anyhow::Error::msg)?;
    let o = &args.objects;
    let refuse = |m: &str| Err(anyhow::Error::msg(m.to_string()));
    if args.list && printer.has_format() {
        return refuse("--list and --output may not be specified together");
    }
    o.check_selectors().map_err(anyhow::Error::msg)?;
    if args.local {
        return Err(not_built_local(ctx.parent(), "label"));
    }
    o.check_named(&resources).map_err(anyhow::Error::msg)?;
    if changes.set.is_empty() && changes.remove.is_empty() && !args.list {
        return refuse("at least one label update is required");
    }
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
            if !rv.is_empty() {
                update::set_resource_version(&mut target.object, "");
            }
            let old = serde_json::to_string(&target.object)?;
            if dry_run != DryRun::Client && !args.list {
                let labels = update::string_map(&target.object, "labels");
                let missing: String = changes
                    .remove
                    .iter()
                    .filter(|k| !labels.contains_key(*k))
                    .map(|k| format!("label {} not found.\n", karmadactl_apimachinery::go_quote(k)))
                    .collect();
                ctx.printer.data(&missing)?;
            }
            let before = target.object.clone();
            if let Err(e) = apply(&mut target.object, &changes, args.overwrite, &rv) {
                failures.push(Failure::Plain(e));
                continue;
            }
            let new = serde_json::to_string(&target.object)?;
            let message = change_message(&old, &new, args.overwrite);
            if dry_run != DryRun::Client && !args.list {
                let patch = serde_json::to_vec(&karmadactl_apimachinery::create_merge_patch(&before, &target.object))?;
                let sent = update::patch(
                    &connected.client,
                    &target,
                    "application/merge-patch+json",
                    patch,
                    dry_run,
                    &args.field_manager,
                    None,
                )
                .await;
                if let Err(f) = sent {
                    failures.push(f);
                    continue;
                }
            }
            let text = if args.list {
                update::listing("labels", &target.object, "labels", selection.single)
            } else {
                printer.print(&target.object, message)?
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
    fn label_specs_are_read_as_kubectl_reads_them() {
        let c = parse_labels(&s(&["a=1", "b=", "c-"])).unwrap();
        assert_eq!(c.set, BTreeMap::from([("a".into(), "1".into()), ("b".into(), "".into())]));
        assert_eq!(c.remove, s(&["c"]));
        assert_eq!(parse_labels(&s(&["a=b=c"])).unwrap_err(), "invalid label spec: a=b=c");
        assert!(
            parse_labels(&s(&["a=@@"]))
                .unwrap_err()
                .starts_with("invalid label value: \"a=@@\": a valid label must be")
        );
        assert_eq!(
            parse_labels(&s(&["a=1", "a-"])).unwrap_err(),
            "can not both modify and remove a label in the same command"
        );
    }

    #[test]
    fn overwriting_needs_the_flag() {
        let changes = parse_labels(&s(&["app=y"])).unwrap();
        let mut obj = json!({"metadata": {"labels": {"app": "x"}}});
        assert_eq!(
            apply(&mut obj, &changes, false, "").unwrap_err(),
            "'app' already has a value (x), and --overwrite is false"
        );
        apply(&mut obj, &changes, true, "7").unwrap();
        assert_eq!(obj, json!({"metadata": {"labels": {"app": "y"}, "resourceVersion": "7"}}));
    }

    #[test]
    fn messages_follow_kubectl_1_33() {
        assert_eq!(change_message("{}", "{}", false), "not labeled");
        assert_eq!(change_message("{\"a\":1}", "{}", false), "unlabeled");
        assert_eq!(change_message("{\"a\":1}", "{}", true), "labeled");
        assert_eq!(change_message("{}", "{\"a\":1}", false), "labeled");
    }
}
