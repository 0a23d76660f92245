//! `local`: Karmada on this machine, for trying it out. `local up`/`local down` run a playground
//! (an embedded control plane with joined members); `local member` manages SIMULATED member
//! clusters (a plain Kubernetes API server whose nodes and pods are pretend).

mod down;
mod interrupt;
mod member;
mod playground;
pub mod simulated;
mod up;

use clap::{Args, Subcommand};

use crate::cli::Context;

pub use member::{MemberArgs, MemberCommand};

/// Run Karmada on this machine: a playground of a control plane and SIMULATED member clusters
/// (simulations, not real clusters).
#[derive(Debug, Args)]
#[command(subcommand_required = true)]
pub struct LocalArgs {
    #[command(subcommand)]
    pub command: LocalCommand,
}

#[derive(Debug, Subcommand)]
pub enum LocalCommand {
    Up(up::UpArgs),
    Down(down::DownArgs),
    Member(MemberArgs),
}

pub fn run(args: LocalArgs, ctx: &Context) -> anyhow::Result<()> {
    match args.command {
        LocalCommand::Up(a) => up::run(a, ctx),
        LocalCommand::Down(a) => down::run(a, ctx),
        LocalCommand::Member(a) => member::run(a, ctx),
    }
}
