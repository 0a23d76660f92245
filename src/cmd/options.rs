//! `options`: the flags every command accepts (upstream's hidden `options` command).

use clap::Args;

use super::connection::IgnoredKubeconfig;
use crate::cli::Context;

/// Print the list of flags inherited by all commands.
#[derive(Debug, Args)]
#[command(hide = true)]
pub struct OptionsArgs {
    #[command(flatten)]
    pub ignored: IgnoredKubeconfig,
}

pub fn run(_args: OptionsArgs, ctx: &Context) -> anyhow::Result<()> {
    let root = crate::cli::command(ctx.flavour);
    let mut out = String::from("The following options can be passed to any command:\n\n");
    for arg in root.get_arguments().filter(|a| a.is_global_set()) {
        let Some(long) = arg.get_long() else { continue };
        let flag = match arg.get_short() {
            Some(s) => format!("-{s}, --{long}"),
            None => format!("    --{long}"),
        };
        let default =
            arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect::<Vec<_>>().join(",");
        let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
        let default = if default.is_empty() { String::new() } else { format!(" (default {default})") };
        out.push_str(&format!("    {flag}:\n\t{help}{default}\n\n"));
    }
    out.push_str("    --kubeconfig='':\n\tPath to the kubeconfig file to use for CLI requests.\n");
    ctx.printer.data(&out)?;
    Ok(())
}
