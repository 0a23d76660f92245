//! `create deployment NAME --image=IMAGE [-- COMMAND]`, as kubectl builds it: one container
//! per image (named after the image), `app: NAME` labels and selector.

use clap::Args;
use serde_json::{Value, json};

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a deployment with the specified name.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create deployment NAME --image=image -- [COMMAND] [args...]",
    after_help = "Examples:\n  # Create a deployment named my-dep that runs the busybox image\n  karmadactl create deployment my-dep --image=busybox\n\n  # Create a deployment with a command\n  karmadactl create deployment my-dep --image=busybox -- date\n\n  # Create a deployment named my-dep that runs the nginx image with 3 replicas\n  karmadactl create deployment my-dep --image=nginx --replicas=3\n\n  # Create a deployment named my-dep that runs the busybox image and expose port 5701\n  karmadactl create deployment my-dep --image=busybox --port=5701\n\n  # Create a deployment named my-dep that runs multiple containers\n  karmadactl create deployment my-dep --image=busybox:latest --image=ubuntu:latest --image=nginx"
)]
pub struct DeploymentArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// The command the container runs, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,

    /// Image names to run. A deployment can have multiple images set for multi-container pod.
    #[arg(long, value_delimiter = ',', value_name = "IMAGE")]
    pub image: Vec<String>,

    /// The containerPort that this deployment exposes.
    #[arg(long, default_value_t = -1, allow_negative_numbers = true, value_name = "PORT")]
    pub port: i32,

    /// Number of replicas to create. Default is 1.
    #[arg(short = 'r', long, default_value_t = 1, allow_negative_numbers = true, value_name = "N")]
    pub replicas: i32,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// cobra's check of a required flag, made before anything else.
pub fn check_required(args: &DeploymentArgs) -> anyhow::Result<()> {
    if args.image.is_empty() {
        anyhow::bail!("required flag(s) \"image\" not set");
    }
    Ok(())
}

/// kubectl's container name for an image: its last path segment without tag or digest,
/// `_` and `.` made `-` with a random suffix.
fn container_name(image: &str) -> String {
    let mut name = image.rsplit('/').next().unwrap_or_default();
    name = name.split(':').next().unwrap_or_default();
    name = name.split('@').next().unwrap_or_default();
    if !name.contains(['_', '.']) {
        return name.to_string();
    }
    let entropy = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or_default()
        ^ u64::from(std::process::id());
    karmadactl_apimachinery::generate_name(&format!("{}-", name.replace(['_', '.'], "-")), entropy)
}

pub fn build(args: &DeploymentArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    if args.image.len() > 1 && !args.command.is_empty() {
        anyhow::bail!("cannot specify multiple --image options and command");
    }
    let labels = json!({"app": inputs.name});
    let mut containers: Vec<Value> = args
        .image
        .iter()
        .map(|image| {
            let mut c = json!({"name": container_name(image), "image": image, "resources": {}});
            if !args.command.is_empty() {
                c["command"] = json!(args.command);
            }
            c
        })
        .collect();
    if args.port >= 0
        && let Some(first) = containers.first_mut()
    {
        first["ports"] = json!([{"containerPort": args.port}]);
    }
    let mut object = typed("apps/v1", "Deployment", &inputs.name, inputs.object_namespace());
    object["metadata"]["labels"] = labels.clone();
    object["spec"] = json!({
        "replicas": args.replicas,
        "selector": {"matchLabels": labels},
        "template": {
            "metadata": {"creationTimestamp": null, "labels": labels},
            "spec": {"containers": containers},
        },
        "strategy": {},
    });
    object["status"] = json!({});
    Ok(Generated {
        resource: Resource::new("apps", "v1", "deployments", "Deployment", true),
        object,
        failure: Some("failed to create deployment: ".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_are_named_after_their_images() {
        assert_eq!(container_name("registry.k8s.io/nginx:1.25"), "nginx");
        assert_eq!(container_name("busybox@sha256:abc"), "busybox");
        let sanitized = container_name("my_app.v2:1");
        assert!(sanitized.starts_with("my-app-v2-") && sanitized.len() == "my-app-v2-".len() + 5, "{sanitized}");
    }
}
