//! Turns clap's parse errors into this tool's error format: `error: <sentence>` and a `hint:`
//! line, exit code 1 (as upstream). Help and version requests print normally and exit 0.

use clap::error::{ContextKind, ContextValue, ErrorKind};

use super::Flavour;
use crate::error::ExitCode;

/// Prints the error for `path` (the subcommand names the user typed) and returns the exit code.
pub fn report(err: clap::Error, path: &[String], flavour: Flavour) -> i32 {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::DisplayVersion => {
            // Help goes to stdout: it is what the user asked for.
            let _ = err.print();
            return ExitCode::Success as i32;
        }
        _ => {}
    }
    let path =
        std::iter::once(flavour.parent_command().to_string()).chain(path.iter().cloned()).collect::<Vec<_>>().join(" ");
    let (message, hint) = match err.kind() {
        ErrorKind::UnknownArgument => {
            let arg = context_string(&err, ContextKind::InvalidArg).unwrap_or_default();
            if arg.starts_with('-') {
                let flag = arg.split('=').next().unwrap_or(&arg).to_string();
                let hint = match context_string(&err, ContextKind::SuggestedArg) {
                    Some(s) => format!("did you mean {s}? Run '{path} --help' for the accepted flags."),
                    None => format!("run '{path} --help' for the accepted flags."),
                };
                (format!("unknown flag: {flag}"), hint)
            } else {
                (
                    format!("unexpected argument \"{arg}\" for \"{path}\""),
                    format!("run '{path} --help' for the expected arguments."),
                )
            }
        }
        ErrorKind::InvalidSubcommand => {
            let sub = context_string(&err, ContextKind::InvalidSubcommand).unwrap_or_default();
            let hint = match context_string(&err, ContextKind::SuggestedSubcommand) {
                Some(s) => format!("did you mean \"{s}\"? Run '{path} --help' for the list of commands."),
                None => format!("run '{path} --help' for the list of commands."),
            };
            (format!("unknown command \"{sub}\" for \"{path}\""), hint)
        }
        _ => (first_line(&err), format!("run '{path} --help' for usage.")),
    };
    eprintln!("error: {message}\nhint: {hint}");
    ExitCode::Failure as i32
}

/// clap's own sentence without its `error: ` prefix, usage block and footer.
fn first_line(err: &clap::Error) -> String {
    let rendered = err.render().to_string();
    let line = rendered.lines().next().unwrap_or("invalid arguments").trim();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

fn context_string(err: &clap::Error, kind: ContextKind) -> Option<String> {
    match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => v.first().cloned(),
        other => Some(other.to_string()),
    }
}
