//! Cobra-compatible argument normalisation, done before clap sees the arguments.
//!
//! Upstream (cobra/pflag) parses every flag against the final subcommand wherever it appears, so
//! `karmadactl --kubeconfig=/k --karmada-context=c promote deployment x -C m1` works, and Go
//! boolean flags accept `--dry-run=true|false`. clap only accepts a subcommand's flags after its
//! name and boolean switches without a value. Two rewrites bridge the gap:
//! 1. flags that stand before (or between) the subcommand names move right after the last one;
//! 2. `--switch=true` becomes `--switch` and `--switch=false` is dropped, for switch flags.
//!
//! Anything the rewrite cannot classify is left for clap to report.

use std::ffi::OsString;

use clap::{Arg, ArgAction, Command};

/// Returns the arguments in the shape clap expects. `args[0]` is the program name.
pub fn normalise(root: &Command, args: Vec<OsString>) -> Vec<OsString> {
    let Some((program, rest)) = args.split_first() else { return args };
    let mut chain: Vec<&Command> = vec![root];
    let mut path: Vec<OsString> = Vec::new();
    let mut moved: Vec<OsString> = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let tok = rest[i].to_string_lossy();
        if tok == "--" {
            break;
        }
        if tok.starts_with('-') && tok.len() > 1 {
            moved.push(rest[i].clone());
            let takes_value = !tok.contains('=') && flag_takes_separate_value(root, &chain, &tok);
            if takes_value && i + 1 < rest.len() {
                moved.push(rest[i + 1].clone());
                i += 1;
            }
            i += 1;
            continue;
        }
        let current = chain[chain.len() - 1];
        match current.find_subcommand(tok.as_ref()) {
            Some(sub) => {
                chain.push(sub);
                path.push(rest[i].clone());
                i += 1;
            }
            None => break,
        }
    }
    let leaf = chain[chain.len() - 1];
    let mut out = Vec::with_capacity(args.len());
    out.push(program.clone());
    out.extend(path);
    let mut after_terminator = false;
    for tok in moved.into_iter().chain(rest[i..].iter().cloned()) {
        if after_terminator {
            out.push(tok);
            continue;
        }
        if tok == "--" {
            after_terminator = true;
            out.push(tok);
            continue;
        }
        match rewrite_switch(root, &chain, leaf, &tok) {
            Switch::Keep => out.push(tok),
            Switch::Replace(t) => out.push(t),
            Switch::Drop => {}
        }
    }
    out
}

/// The subcommand names at the front of normalised arguments (`["token", "create"]`).
pub fn command_path(root: &Command, normalised: &[OsString]) -> Vec<String> {
    let mut cmd = root;
    let mut path = Vec::new();
    for tok in normalised.iter().skip(1) {
        match cmd.find_subcommand(tok.to_string_lossy().as_ref()) {
            Some(sub) => {
                path.push(sub.get_name().to_string());
                cmd = sub;
            }
            None => break,
        }
    }
    path
}

enum Switch {
    Keep,
    Replace(OsString),
    Drop,
}

/// `--name=true|false` for a flag that clap treats as a switch (SetTrue).
fn rewrite_switch(root: &Command, chain: &[&Command], _leaf: &Command, tok: &OsString) -> Switch {
    let s = tok.to_string_lossy();
    let Some(body) = s.strip_prefix("--") else { return Switch::Keep };
    let Some((name, value)) = body.split_once('=') else { return Switch::Keep };
    let Some(arg) = find_arg(root, chain, FlagName::Long(name)) else { return Switch::Keep };
    if !matches!(arg.get_action(), ArgAction::SetTrue) {
        return Switch::Keep;
    }
    match value {
        "true" | "True" | "TRUE" | "t" | "T" | "1" => Switch::Replace(OsString::from(format!("--{name}"))),
        "false" | "False" | "FALSE" | "f" | "F" | "0" => Switch::Drop,
        _ => Switch::Keep,
    }
}

enum FlagName<'a> {
    Long(&'a str),
    Short(char),
}

/// Whether `tok` (a flag without `=`) consumes the next argument as its value. Unknown flags
/// are assumed to take one, as cobra assumes when it looks for the subcommand name.
fn flag_takes_separate_value(root: &Command, chain: &[&Command], tok: &str) -> bool {
    let name = if let Some(long) = tok.strip_prefix("--") {
        FlagName::Long(long)
    } else {
        // `-n` takes the next token; `-nfoo` already carries its value.
        let mut chars = tok[1..].chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => FlagName::Short(c),
            _ => return false,
        }
    };
    match find_arg(root, chain, name) {
        Some(arg) => arg.get_action().takes_values() && !value_is_optional(arg),
        None => true,
    }
}

fn value_is_optional(arg: &Arg) -> bool {
    arg.get_num_args().is_some_and(|r| r.min_values() == 0)
}

/// Looks a flag up in the commands seen so far, then anywhere below the deepest one (the flag
/// may belong to a subcommand named later on the command line).
fn find_arg<'c>(root: &'c Command, chain: &[&'c Command], name: FlagName<'_>) -> Option<&'c Arg> {
    let matches = |a: &&Arg| match name {
        FlagName::Long(l) => a.get_long() == Some(l) || a.get_all_aliases().is_some_and(|al| al.contains(&l)),
        FlagName::Short(c) => a.get_short() == Some(c),
    };
    for cmd in chain.iter().rev() {
        if let Some(arg) = cmd.get_arguments().find(matches) {
            return Some(arg);
        }
    }
    fn below<'c>(cmd: &'c Command, matches: &dyn Fn(&&Arg) -> bool) -> Option<&'c Arg> {
        for sub in cmd.get_subcommands() {
            if let Some(arg) = sub.get_arguments().find(|a| matches(a)) {
                return Some(arg);
            }
            if let Some(arg) = below(sub, matches) {
                return Some(arg);
            }
        }
        None
    }
    let deepest = chain.last().copied().unwrap_or(root);
    below(deepest, &matches)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> Command {
        Command::new("k")
            .arg(Arg::new("v").short('v').long("v").global(true))
            .subcommand(
                Command::new("promote")
                    .arg(Arg::new("kubeconfig").long("kubeconfig"))
                    .arg(Arg::new("namespace").short('n').long("namespace"))
                    .arg(Arg::new("dry-run").long("dry-run").action(ArgAction::SetTrue))
                    .arg(Arg::new("args").num_args(0..)),
            )
            .subcommand(
                Command::new("token").subcommand(Command::new("create").arg(Arg::new("kubeconfig").long("kubeconfig"))),
            )
    }

    fn norm(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(OsString::from).collect();
        normalise(&root(), args).into_iter().map(|a| a.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn leading_flags_move_after_the_subcommand() {
        assert_eq!(
            norm(&["k", "--kubeconfig", "/k", "-n", "ns", "promote", "deploy", "x"]),
            ["k", "promote", "--kubeconfig", "/k", "-n", "ns", "deploy", "x"]
        );
        assert_eq!(norm(&["k", "--kubeconfig=/k", "token", "create"]), ["k", "token", "create", "--kubeconfig=/k"]);
        assert_eq!(
            norm(&["k", "token", "--kubeconfig", "/k", "create"]),
            ["k", "token", "create", "--kubeconfig", "/k"]
        );
    }

    #[test]
    fn switches_accept_go_boolean_values() {
        assert_eq!(norm(&["k", "promote", "--dry-run=true", "a"]), ["k", "promote", "--dry-run", "a"]);
        assert_eq!(norm(&["k", "promote", "--dry-run=false", "a"]), ["k", "promote", "a"]);
        assert_eq!(norm(&["k", "--dry-run", "promote", "a"]), ["k", "promote", "--dry-run", "a"]);
        // Not a switch: left alone for clap.
        assert_eq!(norm(&["k", "promote", "-n=x"]), ["k", "promote", "-n=x"]);
    }

    #[test]
    fn arguments_after_double_dash_are_untouched() {
        assert_eq!(norm(&["k", "promote", "--", "--dry-run=true"]), ["k", "promote", "--", "--dry-run=true"]);
    }

    #[test]
    fn unknown_leading_flags_are_passed_on_for_clap_to_report() {
        assert_eq!(norm(&["k", "--bogus", "x", "promote"]), ["k", "promote", "--bogus", "x"]);
        assert_eq!(norm(&["k", "promote", "--invalidflag"]), ["k", "promote", "--invalidflag"]);
    }
}
