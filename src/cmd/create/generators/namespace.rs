//! `create namespace NAME`, as kubectl builds it.

use clap::Args;
use serde_json::json;

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a namespace with the specified name.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create namespace NAME [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a new namespace named my-namespace\n  karmadactl create namespace my-namespace"
)]
pub struct NamespaceArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    #[command(flatten)]
    pub flags: CreateFlags,
}

pub fn build(inputs: &Inputs) -> anyhow::Result<Generated> {
    let mut object = typed("v1", "Namespace", &inputs.name, None);
    object["spec"] = json!({});
    object["status"] = json!({});
    Ok(Generated { resource: Resource::new("", "v1", "namespaces", "Namespace", false), object, failure: None })
}
