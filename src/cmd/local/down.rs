//! `local down`: stop the local agents registered into the playground, its members and control
//! plane, and delete its directory, after showing the plan and asking (or with `--force`). It deletes only a directory holding
//! `local up`'s record, and stops processes through `local member stop` and `deinit --embedded`,
//! which themselves stop only processes serving those data directories.

use std::ffi::OsString;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use clap::Args;

use super::playground::{Playground, RECORD_FILE};
use crate::cli::Context;
use crate::error::UsageError;
use crate::pull::local_agent;

/// Stop the Karmada playground started by 'local up' and delete its data.
#[derive(Debug, Args)]
pub struct DownArgs {
    /// The playground's directory [default: $XDG_DATA_HOME/karmadactl/local].
    #[arg(long, value_name = "PATH")]
    pub data_dir: Option<PathBuf>,

    /// Do not ask for confirmation.
    #[arg(long)]
    pub force: bool,

    /// Print the plan only.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(args: DownArgs, ctx: &Context) -> anyhow::Result<()> {
    let playground = Playground::resolve(args.data_dir.as_deref())?;
    let Some(record) = playground.read_record()? else {
        if playground.dir.exists() {
            return Err(UsageError::with_hint(
                format!("{} has no {RECORD_FILE}; it is not a playground made by 'local up'", playground.dir.display()),
                "nothing was changed; pass the playground's directory with --data-dir.",
            )
            .into());
        }
        ctx.printer.progress(&format!("no playground in {}; nothing to do", playground.dir.display()));
        return Ok(());
    };
    // Agents 'register --agent-mode local' started against this plane would outlive it and
    // retry forever.
    let ca = std::fs::read(playground.plane_dir().join("pki").join("ca.crt")).unwrap_or_default();
    let agents = if ca.is_empty() { vec![] } else { local_agent::running_for_plane(&ca) };
    let mut plan: Vec<String> = agents
        .iter()
        .map(|a| {
            format!(
                "stop the local agent of cluster {} (pid {}) and delete its files in {}",
                a.cluster,
                a.pid,
                a.dir.display()
            )
        })
        .collect();
    plan.extend(
        record
            .members
            .iter()
            .map(|m| format!("stop the simulated member {m} and delete {}", playground.member_dir(m).display())),
    );
    plan.push(format!("stop the control plane and delete {}", playground.plane_dir().display()));
    plan.push(format!("delete {}", playground.dir.display()));
    ctx.printer.progress("this will:");
    for step in &plan {
        ctx.printer.progress(&format!("  - {step}"));
    }
    if args.dry_run {
        return Ok(());
    }
    if !args.force {
        if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
            return Err(UsageError::with_hint(
                "refusing to delete the playground without confirmation",
                "nothing was changed; run it in a terminal to confirm, or pass --force.",
            )
            .into());
        }
        let yes = dialoguer::Confirm::new().with_prompt("Remove the playground?").default(false).interact()?;
        if !yes {
            ctx.printer.progress("nothing was changed");
            return Ok(());
        }
    }
    for agent in &agents {
        local_agent::remove(&agent.dir).map_err(|e| {
            UsageError::with_hint(
                format!("cannot stop the local agent of cluster {}: {e}", agent.cluster),
                "nothing else was changed; fix the cause and run 'local down' again.",
            )
        })?;
        ctx.printer.progress(&format!("stopped the local agent of cluster {} (pid {})", agent.cluster, agent.pid));
    }
    let exe = std::env::current_exe()?;
    for member in &record.members {
        let dir = playground.member_dir(member);
        if dir.exists() {
            step(
                &exe,
                &["local".into(), "member".into(), "stop".into(), member.into(), "--data-dir".into(), dir.into()],
            )?;
        }
    }
    if playground.plane_dir().exists() {
        step(
            &exe,
            &[
                "deinit".into(),
                "--embedded".into(),
                "--karmada-data".into(),
                playground.plane_dir().into(),
                "--force".into(),
            ],
        )?;
    }
    std::fs::remove_dir_all(&playground.dir)?;
    ctx.printer.line(&format!("the playground in {} is removed", playground.dir.display()))?;
    Ok(())
}

fn step(exe: &std::path::Path, args: &[OsString]) -> anyhow::Result<()> {
    let out = Command::new(exe).args(args).stdin(Stdio::null()).output()?;
    if !out.status.success() {
        let what: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        return Err(UsageError::with_hint(
            format!("'{}' failed: {}", what.join(" "), String::from_utf8_lossy(&out.stderr).trim()),
            "what is left stays in place; fix the cause and run 'local down' again.",
        )
        .into());
    }
    Ok(())
}
