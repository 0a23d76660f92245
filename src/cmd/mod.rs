//! One module per subcommand: a clap `Args` struct whose doc comments are the help text, and a
//! `run` that resolves the arguments and acts. A command that needs more than one file is a
//! directory (`join/mod.rs` with its steps beside it); parts several commands share live under
//! their own names (`crate::membership`, `crate::pull`, `crate::local_plane`).

pub mod addons;
pub mod agent;
pub mod annotate;
pub mod api_resources;
pub mod apply;
pub mod attach;
pub mod completion;
pub mod connection;
pub mod controlplane;
pub mod cordon;
pub mod create;
pub mod dashboard;
pub mod datastore;
pub mod deinit;
pub mod delete;
pub mod describe;
pub mod edit;
pub mod engine_flags;
pub mod exec;
pub mod explain;
pub mod get;
pub mod init;
pub mod interpret;
pub mod join;
pub mod label;
pub mod local;
pub mod logs;
pub mod objects;
pub mod options;
pub mod patch;
pub mod promote;
pub mod register;
pub mod scope;
pub mod taint;
pub mod token;
pub mod top;
pub mod unjoin;
pub mod unregister;
pub mod version;

use crate::cli::{Command, Context};

/// Runs the parsed subcommand.
pub fn dispatch(command: Command, ctx: &Context) -> anyhow::Result<()> {
    match command {
        Command::Init(a) => init::run(*a, ctx),
        Command::Deinit(a) => deinit::run(a, ctx),
        Command::Addons(a) => addons::run(a, ctx),
        Command::Join(a) => join::run(a, ctx),
        Command::Unjoin(a) => unjoin::run(a, ctx),
        Command::Token(a) => token::run(a, ctx),
        Command::Register(a) => register::run(a, ctx),
        Command::Unregister(a) => unregister::run(a, ctx),
        Command::Cordon(a) => cordon::run_cordon(a, ctx),
        Command::Uncordon(a) => cordon::run_uncordon(a, ctx),
        Command::Taint(a) => taint::run(a, ctx),
        Command::Dashboard(a) => dashboard::run(a, ctx),
        Command::Get(a) => get::run(a, ctx),
        Command::Promote(a) => promote::run(a, ctx),
        Command::Apply(a) => apply::run(*a, ctx),
        Command::Top(a) => top::run(a, ctx),
        Command::Interpret(a) => interpret::run(a, ctx),
        Command::Label(a) => label::run(a, ctx),
        Command::Patch(a) => patch::run(a, ctx),
        Command::Create(a) => create::run(*a, ctx),
        Command::Edit(a) => edit::run(*a, ctx),
        Command::Delete(a) => delete::run(a, ctx),
        Command::Annotate(a) => annotate::run(a, ctx),
        Command::ApiResources(a) => api_resources::run_api_resources(a, ctx),
        Command::ApiVersions(a) => api_resources::run_api_versions(a, ctx),
        Command::Describe(a) => describe::run(a, ctx),
        Command::Explain(a) => explain::run(a, ctx),
        Command::Logs(a) => logs::run(a, ctx),
        Command::Exec(a) => exec::run(a, ctx),
        Command::Attach(a) => attach::run(a, ctx),
        Command::Completion(a) => completion::run(a, ctx),
        Command::Version(a) => version::run(a, ctx),
        Command::Options(a) => options::run(a, ctx),
        Command::Controlplane(a) => controlplane::run(*a, ctx),
        Command::Local(a) => local::run(a, ctx),
        Command::Agent(a) => agent::run(a, ctx),
    }
}

/// Validates a member cluster name (join, unjoin, register, unregister) with upstream's message.
pub(crate) fn check_cluster_name(name: &str) -> anyhow::Result<()> {
    crate::validation::cluster_name(name).map_err(|e| {
        crate::error::UsageError::with_hint(
            e,
            "cluster names are lowercase letters, digits and '-', at most 48 characters.",
        )
        .into()
    })
}

/// Validates a Go-style duration flag (`24h0m0s`) and names the flag in the error.
pub(crate) fn parse_duration(flag: &str, value: &str) -> anyhow::Result<std::time::Duration> {
    let parsed: karmadactl_apimachinery::duration::GoDuration = value.parse().map_err(|e| {
        crate::error::UsageError::with_hint(
            format!("invalid value \"{value}\" for --{flag}: {e}"),
            "durations are written as in Go, e.g. 30s, 5m0s, 24h0m0s.",
        )
    })?;
    Ok(parsed.as_std())
}
