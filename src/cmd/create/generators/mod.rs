//! kubectl's create subcommands, one file each: the flags and the object they build.

pub mod bindings;
pub mod configmap;
pub mod cron_job;
pub mod deployment;
pub mod job;
pub mod namespace;
pub mod roles;
pub mod secret;
pub mod service;
pub mod service_account;

use clap::Args;

/// The arguments of a create subcommand that is not built: taken whole, then refused.
#[derive(Debug, Args)]
pub struct NotBuiltArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub args: Vec<String>,
}
