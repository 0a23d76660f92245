//! `create job NAME --image=IMAGE [-- COMMAND]` and `create job NAME --from=cronjob/NAME`,
//! as kubectl builds the Job (from a CronJob: its job template, owned by the CronJob and
//! marked as instantiated by hand).

use clap::Args;
use serde_json::{Map, Value, json};

use super::ContainerFlags;
use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a job with the specified name.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create job NAME --image=image [--from=cronjob/name] -- [COMMAND] [args...]",
    after_help = "Examples:\n  # Create a job\n  karmadactl create job my-job --image=busybox\n\n  # Create a job with a command\n  karmadactl create job my-job --image=busybox -- date\n\n  # Create a job from a cron job named \"a-cronjob\"\n  karmadactl create job test-job --from=cronjob/a-cronjob"
)]
pub struct JobArgs {
    #[command(flatten)]
    pub container: ContainerFlags,

    /// The name of the resource to create a Job from (only cronjob is supported).
    #[arg(long, value_name = "TYPE/NAME")]
    pub from: Option<String>,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// kubectl's `Validate`.
pub fn validate(args: &JobArgs) -> anyhow::Result<()> {
    let image = args.container.image.as_deref().is_some_and(|i| !i.is_empty());
    let from = args.from.as_deref().is_some_and(|f| !f.is_empty());
    if image == from {
        anyhow::bail!("either --image or --from must be specified");
    }
    if !args.container.command.is_empty() && from {
        anyhow::bail!("cannot specify --from and command");
    }
    Ok(())
}

fn resource() -> Resource {
    Resource::new("batch", "v1", "jobs", "Job", true)
}

fn generated(object: Value) -> Generated {
    Generated { resource: resource(), object, failure: Some("failed to create job: ".into()) }
}

pub fn build(args: &JobArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let name = &inputs.name;
    let container = args.container.container(name);
    let mut object = typed("batch/v1", "Job", name, inputs.object_namespace());
    object["spec"] = json!({"template": {"metadata": {"creationTimestamp": null},
                                        "spec": {"containers": [container], "restartPolicy": "Never"}}});
    object["status"] = json!({});
    Ok(generated(object))
}

/// kubectl's `createJobFromCronJob`: `cronjob` as the server has it.
pub fn from_cron_job(cron_job: &Value, inputs: &Inputs) -> Generated {
    let text = |p: &str| cron_job.pointer(p).and_then(Value::as_str).unwrap_or_default().to_string();
    let mut annotations = Map::new();
    annotations.insert("cronjob.kubernetes.io/instantiate".into(), json!("manual"));
    if let Some(a) = cron_job.pointer("/spec/jobTemplate/metadata/annotations").and_then(Value::as_object) {
        annotations.extend(a.clone());
    }
    let mut object = typed("batch/v1", "Job", &inputs.name, inputs.object_namespace());
    let meta = &mut object["metadata"];
    meta["annotations"] = Value::Object(annotations);
    if let Some(labels) = cron_job.pointer("/spec/jobTemplate/metadata/labels").filter(|l| l.is_object()) {
        meta["labels"] = labels.clone();
    }
    meta["ownerReferences"] = json!([{"apiVersion": "batch/v1", "kind": "CronJob", "name": text("/metadata/name"),
                                      "uid": text("/metadata/uid"), "controller": true}]);
    let mut spec = cron_job.pointer("/spec/jobTemplate/spec").cloned().unwrap_or_else(|| json!({}));
    // Go's typed template always carries these, whatever the stored object left out.
    if let Some(template) = spec.get_mut("template").and_then(Value::as_object_mut) {
        let meta = template.entry("metadata").or_insert_with(|| json!({}));
        if let Some(m) = meta.as_object_mut() {
            m.entry("creationTimestamp").or_insert(Value::Null);
        }
    } else {
        spec["template"] = json!({"metadata": {"creationTimestamp": null}, "spec": {"containers": null}});
    }
    if let Some(containers) = spec.pointer_mut("/template/spec/containers").and_then(Value::as_array_mut) {
        for c in containers.iter_mut().filter_map(Value::as_object_mut) {
            c.entry("resources").or_insert_with(|| json!({}));
        }
    }
    object["spec"] = spec;
    object["status"] = json!({});
    generated(object)
}

/// Reads `--from`'s object (`cronjob/NAME`, any spelling of the type) in the namespace;
/// anything but one CronJob is refused as kubectl refuses it.
pub fn read_from(connection: &crate::cmd::create::Connection, from: &str) -> anyhow::Result<Value> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let (client, namespace, _) = connection.connect().await?;
        let Some((type_arg, name)) = from.split_once('/').filter(|(t, n)| !t.is_empty() && !n.is_empty()) else {
            anyhow::bail!("from must be an existing cronjob");
        };
        let served = crate::cmd::objects::discover(&client).await?;
        let resource = served.resolve(type_arg).map_err(anyhow::Error::msg)?;
        let target = crate::cmd::objects::Target {
            namespace: resource.namespaced.then(|| namespace.clone()),
            resource,
            name: name.to_string(),
            object: Value::Null,
            source: None,
        };
        let req = http::Request::get(target.path()).body(Vec::new())?;
        let object: Value = client
            .request(req)
            .await
            .map_err(|e| crate::cmd::objects::failure::into_error(&[crate::cmd::objects::Failure::from_kube(e)]))?;
        if (target.resource.group.as_str(), target.resource.kind.as_str()) != ("batch", "CronJob") {
            anyhow::bail!("unknown object type *{}.{}", target.resource.version, target.resource.kind);
        }
        Ok(object)
    })
}
