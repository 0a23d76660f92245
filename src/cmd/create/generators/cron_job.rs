//! `create cronjob NAME --image=IMAGE --schedule=SPEC [-- COMMAND]`, as kubectl builds it.

use clap::Args;
use serde_json::json;

use super::ContainerFlags;
use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a cron job with the specified name.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create cronjob NAME --image=image --schedule='0/5 * * * ?' -- [COMMAND] [args...]",
    after_help = "Examples:\n  # Create a cron job\n  karmadactl create cronjob my-job --image=busybox --schedule=\"*/1 * * * *\"\n\n  # Create a cron job with a command\n  karmadactl create cronjob my-job --image=busybox --schedule=\"*/1 * * * *\" -- date"
)]
pub struct CronJobArgs {
    #[command(flatten)]
    pub container: ContainerFlags,

    /// A schedule in the Cron format the job should be run with.
    #[arg(long, value_name = "SCHEDULE")]
    pub schedule: Option<String>,

    /// job's restart policy. supported values: OnFailure, Never
    #[arg(long, value_name = "POLICY")]
    pub restart: Option<String>,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// cobra's checks of the required flags, made before anything else.
pub fn check_required(args: &CronJobArgs) -> anyhow::Result<()> {
    let missing: Vec<&str> = [("image", args.container.image.is_none()), ("schedule", args.schedule.is_none())]
        .iter()
        .filter(|(_, m)| *m)
        .map(|(n, _)| *n)
        .collect();
    if !missing.is_empty() {
        anyhow::bail!(
            "required flag(s) {} not set",
            missing.iter().map(|m| format!("\"{m}\"")).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(())
}

pub fn build(args: &CronJobArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let name = &inputs.name;
    let container = args.container.container(name);
    let restart = args.restart.clone().filter(|r| !r.is_empty()).unwrap_or_else(|| "OnFailure".into());
    let mut object = typed("batch/v1", "CronJob", name, inputs.object_namespace());
    object["spec"] = json!({
        "schedule": args.schedule.clone().unwrap_or_default(),
        "jobTemplate": {
            "metadata": {"name": name, "creationTimestamp": null},
            "spec": {"template": {"metadata": {"creationTimestamp": null},
                                  "spec": {"containers": [container], "restartPolicy": restart}}},
        },
    });
    object["status"] = json!({});
    Ok(Generated {
        resource: Resource::new("batch", "v1", "cronjobs", "CronJob", true),
        object,
        failure: Some("failed to create cronjob: ".into()),
    })
}
