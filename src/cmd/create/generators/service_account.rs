//! `create serviceaccount NAME`, as kubectl builds it.

use clap::Args;

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a service account with the specified name.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create serviceaccount NAME [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a new service account named my-service-account\n  karmadactl create serviceaccount my-service-account"
)]
pub struct ServiceAccountArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    #[command(flatten)]
    pub flags: CreateFlags,
}

pub fn build(inputs: &Inputs) -> anyhow::Result<Generated> {
    Ok(Generated {
        resource: Resource::new("", "v1", "serviceaccounts", "ServiceAccount", true),
        object: typed("v1", "ServiceAccount", &inputs.name, inputs.object_namespace()),
        failure: Some("failed to create serviceaccount: ".into()),
    })
}
