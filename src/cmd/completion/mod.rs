//! `completion`: shell completion scripts, and the hidden `__complete` command they call back.

mod engine;
mod pods;
mod scripts;
mod values;

use clap::Args;
use clap_complete::Shell;

use super::connection::IgnoredKubeconfig;
use crate::cli::{Context, Flavour};
use crate::error::UsageError;

/// Output shell completion code for the specified shell (bash, zsh, fish, or powershell).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Load the karmadactl completion code for bash into the current shell\n  source <(karmadactl completion bash)\n\n  # Write bash completion code to a file and source it from .bash_profile\n  karmadactl completion bash > ~/.kube/karmadactl_completion.bash.inc\n  printf \"\\n# karmadactl shell completion\\nsource '$HOME/.kube/karmadactl_completion.bash.inc'\\n\" >> $HOME/.bash_profile\n  source $HOME/.bash_profile\n\n  # Load the karmadactl completion code for zsh into the current shell\n  source <(karmadactl completion zsh)\n\n  # Load the karmadactl completion code for fish into the current shell\n  karmadactl completion fish | source"
)]
pub struct CompletionArgs {
    /// bash, zsh, fish or powershell.
    #[arg(value_name = "SHELL")]
    pub shell: Vec<String>,

    #[command(flatten)]
    pub ignored: IgnoredKubeconfig,
}

/// The shells scripts are generated for, with their names as users type them.
pub const SHELLS: &[(&str, Shell)] =
    &[("bash", Shell::Bash), ("zsh", Shell::Zsh), ("fish", Shell::Fish), ("powershell", Shell::PowerShell)];

/// The hidden command the scripts call: `<binary> __complete <words…>`.
pub const COMPLETE_COMMAND: &str = "__complete";

/// The completion script for a shell, as `completion <shell>` prints it. bash, zsh and fish
/// call back into the binary; PowerShell gets clap's static script.
pub fn script(shell: Shell, flavour: Flavour) -> String {
    let bin = flavour.binary_name();
    match shell {
        Shell::Bash => return scripts::bash(bin),
        Shell::Zsh => return scripts::zsh(bin),
        Shell::Fish => return scripts::fish(bin),
        _ => {}
    }
    let mut cmd = crate::cli::command(flavour);
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, flavour.binary_name(), &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Answers `__complete`: prints the candidates for the last of `words`, one per line. Always
/// exits 0 and prints nothing on stderr, so a failed lookup never disturbs the prompt.
pub fn complete(flavour: Flavour, words: &[std::ffi::OsString]) -> i32 {
    let words: Vec<String> = words.iter().map(|w| w.to_string_lossy().into_owned()).collect();
    let mut cmd = crate::cli::command(flavour);
    let mut out = String::new();
    for candidate in engine::candidates(&mut cmd, &words) {
        out.push_str(&candidate);
        out.push('\n');
    }
    use std::io::Write;
    let _ = std::io::stdout().write_all(out.as_bytes());
    0
}

pub fn run(args: CompletionArgs, ctx: &Context) -> anyhow::Result<()> {
    let name = match args.shell.as_slice() {
        [] => {
            return Err(
                UsageError::with_hint("Shell not specified.", "name one of: bash, zsh, fish, powershell.").into()
            );
        }
        [one] => one,
        _ => {
            return Err(UsageError::with_hint(
                "Too many arguments. Expected only the shell type.",
                "name one of: bash, zsh, fish, powershell.",
            )
            .into());
        }
    };
    let Some((_, shell)) = SHELLS.iter().find(|(n, _)| n == name) else {
        return Err(UsageError::with_hint(
            format!("Unsupported shell type \"{name}\"."),
            "name one of: bash, zsh, fish, powershell.",
        )
        .into());
    };
    ctx.printer.data(&script(*shell, ctx.flavour))?;
    Ok(())
}
