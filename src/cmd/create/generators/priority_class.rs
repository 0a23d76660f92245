//! `create priorityclass NAME`, as kubectl builds it.

use clap::{ArgAction, Args};
use serde_json::json;

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a priority class with the specified name, value, globalDefault and description.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create priorityclass NAME --value=VALUE --global-default=BOOL [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a priority class named high-priority\n  karmadactl create priorityclass high-priority --value=1000 --description=\"high priority\"\n\n  # Create a priority class named default-priority that is considered as the global default priority\n  karmadactl create priorityclass default-priority --value=1000 --global-default=true --description=\"default priority\"\n\n  # Create a priority class named high-priority that cannot preempt pods with lower priority\n  karmadactl create priorityclass high-priority --value=1000 --description=\"high priority\" --preemption-policy=\"Never\""
)]
pub struct PriorityClassArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// the value of this priority class.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_name = "VALUE")]
    pub value: i32,

    /// global-default specifies whether this PriorityClass should be considered as the default
    /// priority.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub global_default: bool,

    /// description is an arbitrary string that usually provides guidelines on when this
    /// priority class should be used.
    #[arg(long, default_value = "", value_name = "TEXT")]
    pub description: String,

    /// preemption-policy is the policy for preempting pods with lower priority.
    #[arg(long, default_value = "PreemptLowerPriority", value_name = "POLICY")]
    pub preemption_policy: String,

    #[command(flatten)]
    pub flags: CreateFlags,
}

pub fn build(args: &PriorityClassArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let mut object = typed("scheduling.k8s.io/v1", "PriorityClass", &inputs.name, None);
    object["value"] = json!(args.value);
    if args.global_default {
        object["globalDefault"] = json!(true);
    }
    if !args.description.is_empty() {
        object["description"] = json!(args.description);
    }
    object["preemptionPolicy"] = json!(args.preemption_policy);
    Ok(Generated {
        resource: Resource::new("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false),
        object,
        failure: Some("failed to create priorityclass: ".into()),
    })
}
