//! kubectl's create subcommands, one file each: the flags and the object they build.

pub mod bindings;
pub mod configmap;
pub mod cron_job;
pub mod deployment;
pub mod ingress;
pub mod job;
pub mod namespace;
pub mod pdb;
pub mod priority_class;
pub mod quota;
pub mod roles;
pub mod secret;
pub mod secret_docker_registry;
pub mod secret_tls;
pub mod service;
pub mod service_account;

use clap::Args;
use serde_json::{Value, json};

/// NAME, `--image` and `-- COMMAND`: what `create job` and `create cronjob` share.
#[derive(Debug, Args)]
pub struct ContainerFlags {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// The command the container runs, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,

    /// Image name to run.
    #[arg(long, value_name = "IMAGE")]
    pub image: Option<String>,
}

impl ContainerFlags {
    /// The one container kubectl gives the job: named after the object.
    pub fn container(&self, name: &str) -> Value {
        let mut container = json!({"name": name, "image": self.image.clone().unwrap_or_default(), "resources": {}});
        if !self.command.is_empty() {
            container["command"] = json!(self.command);
        }
        container
    }
}
