//! `local`: Karmada on this machine, for trying it out. `local member` manages SIMULATED member
//! clusters (a plain Kubernetes API server whose nodes and pods are pretend).

mod member;

use clap::{Args, Subcommand};

use crate::cli::Context;

pub use member::{MemberArgs, MemberCommand};

/// Run simulated Karmada member clusters on this machine (simulations, not real clusters).
#[derive(Debug, Args)]
#[command(subcommand_required = true)]
pub struct LocalArgs {
    #[command(subcommand)]
    pub command: LocalCommand,
}

#[derive(Debug, Subcommand)]
pub enum LocalCommand {
    Member(MemberArgs),
}

pub fn run(args: LocalArgs, ctx: &Context) -> anyhow::Result<()> {
    match args.command {
        LocalCommand::Member(a) => member::run(a, ctx),
    }
}
