//! The dynamic completion engine behind the hidden `__complete` command: walks the clap command
//! tree over the words typed so far and answers the candidates for the last word.
//!
//! Hidden arguments (the klog flags, compatibility aliases) are never offered; values come from
//! clap's possible values, fixed lists, or live lookups in [`super::values`].

use clap::{Arg, Command};

use super::values::{self, Connection};

/// Connection flags users put before the subcommand, where the root does not define them.
const LEADING_FLAGS: &[&str] = &["kubeconfig", "karmada-context"];

/// The answer that tells a script to complete file names itself (only the shell knows its
/// quoting and directory conventions).
pub const FILES_DIRECTIVE: &str = ":files";

/// What the word being completed is.
enum Slot<'a> {
    /// The value of an option, written as `--name=<prefix>` when `inline` is set.
    OptionValue { arg: &'a Arg, inline: Option<String> },
    /// A flag name.
    Flag,
    /// A subcommand name or the `index`-th positional argument.
    Positional { index: usize },
}

/// Candidates for the last of `words` (the words after the binary name; the last may be empty).
pub fn candidates(root: &mut Command, words: &[String]) -> Vec<String> {
    root.build();
    let (current, typed) = match words.split_last() {
        Some((last, rest)) => (last.as_str(), rest),
        None => ("", &[][..]),
    };
    let mut cmd: &Command = root;
    let mut path: Vec<String> = Vec::new();
    let mut conn = Connection::default();
    let mut positionals = 0usize;
    let mut pending: Option<&Arg> = None;
    let mut only_positionals = false;
    let mut i = 0;
    while i < typed.len() {
        let word = typed[i].as_str();
        i += 1;
        if only_positionals || word == "-" || !word.starts_with('-') {
            if word == "--" && !only_positionals {
                only_positionals = true;
                continue;
            }
            match (positionals, cmd.find_subcommand(word)) {
                (0, Some(sub)) if !only_positionals => {
                    cmd = sub;
                    path.push(sub.get_name().to_string());
                }
                _ => {
                    if positionals == 0 && !only_positionals {
                        conn.first_positional = Some(word.to_string());
                    }
                    positionals += 1;
                }
            }
            continue;
        }
        let (arg, inline) = find_flag(cmd, word);
        let Some(arg) = arg else {
            // Upstream takes --kubeconfig before the subcommand too (`karmadactl --kubeconfig x
            // get`); the root has no such flag, so note it by name.
            if let Some(name) = word.strip_prefix("--").filter(|n| LEADING_FLAGS.contains(n)) {
                if let Some(v) = typed.get(i) {
                    conn.record(&name.replace('-', "_"), v.clone());
                    i += 1;
                }
            } else if let Some((name, v)) = word.strip_prefix("--").and_then(|w| w.split_once('=')) {
                conn.record(&name.replace('-', "_"), v.to_string());
            }
            continue;
        };
        let value = match inline {
            Some(v) => Some(v),
            None if takes_value(arg) => match typed.get(i) {
                Some(v) => {
                    i += 1;
                    Some(v.clone())
                }
                None => {
                    pending = Some(arg);
                    None
                }
            },
            None => None,
        };
        if let Some(v) = value {
            conn.record(arg.get_id().as_str(), v);
        }
    }
    let slot = if let Some(arg) = pending {
        Slot::OptionValue { arg, inline: None }
    } else if !only_positionals && current.starts_with('-') && current != "-" {
        match find_flag(cmd, current) {
            (Some(arg), Some(_)) if takes_value(arg) => {
                let (name, _) = current.split_once('=').unwrap_or((current, ""));
                Slot::OptionValue { arg, inline: Some(format!("{name}=")) }
            }
            _ => Slot::Flag,
        }
    } else {
        Slot::Positional { index: positionals }
    };
    let mut out = match slot {
        Slot::Flag => flags(cmd),
        Slot::OptionValue { arg, inline } => {
            let prefix = inline.unwrap_or_default();
            let typed_value = current.strip_prefix(prefix.as_str()).unwrap_or(current);
            if names_a_path(arg) {
                return vec![FILES_DIRECTIVE.to_string()];
            }
            let found = option_values(&path, arg, &conn);
            return found.into_iter().filter(|v| v.starts_with(typed_value)).map(|v| format!("{prefix}{v}")).collect();
        }
        Slot::Positional { index } => {
            let mut out: Vec<String> = Vec::new();
            if index == 0 {
                out.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).map(|s| s.get_name().to_string()));
            }
            out.extend(positional_values(&path, index, &conn));
            out
        }
    };
    out.retain(|c| c.starts_with(current));
    out.dedup();
    out
}

/// The argument a flag word names, and the value written after `=` in it, if any.
fn find_flag<'a>(cmd: &'a Command, word: &str) -> (Option<&'a Arg>, Option<String>) {
    if let Some(long) = word.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (long, None),
        };
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_long() == Some(name) || a.get_all_aliases().is_some_and(|al| al.contains(&name)));
        return (arg, value);
    }
    let mut chars = word[1..].chars();
    let Some(short) = chars.next() else { return (None, None) };
    let rest: String = chars.collect();
    let arg = cmd.get_arguments().find(|a| a.get_short() == Some(short));
    let value = arg.filter(|a| takes_value(a)).and_then(|_| {
        let rest = rest.strip_prefix('=').unwrap_or(&rest);
        (!rest.is_empty()).then(|| rest.to_string())
    });
    (arg, value)
}

/// Whether an option needs a value in the next word (optional-value flags take theirs only
/// after `=`, so they do not).
fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values() && arg.get_num_args().is_none_or(|n| n.min_values() > 0)
}

/// The visible long flags of a command, `--name` each.
fn flags(cmd: &Command) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_positional())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    out.sort();
    out
}

/// Whether an option takes a file or directory path.
fn names_a_path(arg: &Arg) -> bool {
    use clap::ValueHint;
    matches!(arg.get_value_hint(), ValueHint::FilePath | ValueHint::DirPath | ValueHint::AnyPath)
        || arg.get_value_names().is_some_and(|n| n.iter().any(|n| n.as_str() == "PATH" || n.as_str() == "FILE"))
}

/// Values for an option, by what it holds.
fn option_values(path: &[String], arg: &Arg, conn: &Connection) -> Vec<String> {
    let fixed: Vec<String> =
        arg.get_possible_values().iter().filter(|p| !p.is_hide_set()).map(|p| p.get_name().to_string()).collect();
    if !fixed.is_empty() {
        return fixed;
    }
    match arg.get_id().as_str() {
        "clusters" | "cluster" => values::cluster_names(conn),
        "context" | "karmada_context" | "cluster_context" => values::contexts(conn, arg.get_id().as_str()),
        // Only get has the "all" scope.
        "operation_scope" if path.first().is_some_and(|c| c != "get") => vec!["karmada".into(), "members".into()],
        "operation_scope" => values::SCOPES.iter().map(|s| s.to_string()).collect(),
        "sort_by" if path.first().is_some_and(|c| c == "api-resources") => vec!["kind".into(), "name".into()],
        "sort_by" if path.first().is_some_and(|c| c == "top") => vec!["cpu".into(), "memory".into()],
        "output" => values::output_formats(path),
        "container" if path.first().is_some_and(|c| matches!(c.as_str(), "exec" | "attach" | "logs")) => {
            super::pods::container_names(path, conn)
        }
        _ => Vec::new(),
    }
}

/// Values for a positional argument of the command at `path`.
fn positional_values(path: &[String], index: usize, conn: &Connection) -> Vec<String> {
    let full = path;
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    match (path.as_slice(), index) {
        (["exec"] | ["attach"] | ["logs"], 0) => super::pods::pod_names(full, conn),
        (["cordon"] | ["uncordon"] | ["unjoin"], 0) => values::cluster_names(conn),
        (["taint"], 0) => vec!["clusters".to_string()],
        (["taint"], 1) => values::cluster_names(conn),
        (["get"] | ["label"] | ["annotate"] | ["describe"] | ["patch"] | ["delete"] | ["edit"] | ["explain"], 0) => {
            values::resource_kinds(conn)
        }
        (["addons", "enable" | "disable"], _) => crate::cmd::addons::completion_names(),
        _ => Vec::new(),
    }
}
