//! The Markdown command reference under docs/cli/, generated from the command tree so it can
//! never drift from `--help` (a test compares the committed files with a fresh rendering).

use clap::{Arg, Command};

use super::Flavour;

/// One Markdown page per command, keyed by file name (`karmadactl_token_create.md`).
pub fn pages() -> Vec<(String, String)> {
    let root = super::command(Flavour::Standalone);
    let mut pages = Vec::new();
    walk(&root, &[], &mut pages);
    pages
}

fn walk(cmd: &Command, parents: &[&str], pages: &mut Vec<(String, String)>) {
    let mut path: Vec<&str> = parents.to_vec();
    path.push(cmd.get_name());
    if cmd.is_hide_set() {
        return;
    }
    pages.push((format!("{}.md", path.join("_")), page(cmd, &path)));
    for sub in cmd.get_subcommands() {
        walk(sub, &path, pages);
    }
}

fn page(cmd: &Command, path: &[&str]) -> String {
    let title = path.join(" ");
    let mut out = format!("# {title}\n\n");
    let about = cmd.get_long_about().or(cmd.get_about()).map(|s| s.to_string()).unwrap_or_default();
    out.push_str(&format!("{about}\n\n"));
    out.push_str(&format!("## Usage\n\n```\n{}\n```\n\n", usage(cmd, path)));

    let subs: Vec<&Command> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    if !subs.is_empty() {
        out.push_str("## Commands\n\n| command | what it does |\n|---|---|\n");
        for s in subs {
            let about = s.get_about().map(|a| a.to_string()).unwrap_or_default();
            out.push_str(&format!(
                "| [`{}`]({}_{}.md) | {} |\n",
                s.get_name(),
                path.join("_"),
                s.get_name(),
                cell(&about)
            ));
        }
        out.push('\n');
    }

    let positionals: Vec<&Arg> = cmd.get_positionals().filter(|a| !a.is_hide_set()).collect();
    if !positionals.is_empty() {
        out.push_str("## Arguments\n\n| argument | meaning |\n|---|---|\n");
        for a in positionals {
            let name = a
                .get_value_names()
                .and_then(|v| v.first())
                .map(|v| v.to_string())
                .unwrap_or_else(|| a.get_id().to_string());
            out.push_str(&format!("| `{name}` | {} |\n", cell(&help(a))));
        }
        out.push('\n');
    }

    let flags: Vec<&Arg> =
        cmd.get_arguments().filter(|a| !a.is_positional() && !a.is_hide_set() && a.get_id() != "help").collect();
    if !flags.is_empty() {
        out.push_str("## Flags\n\n| flag | default | meaning |\n|---|---|---|\n");
        for a in flags {
            out.push_str(&format!("| `{}` | {} | {} |\n", flag_name(a), default(a), cell(&help(a))));
        }
        out.push('\n');
    }
    if let Some(after) = cmd.get_after_help() {
        let text = after.to_string();
        if let Some(examples) = text.strip_prefix("Examples:\n") {
            out.push_str(&format!("## Examples\n\n```\n{}\n```\n\n", examples.trim_end()));
        }
    }
    out.push_str("Global logging flags (`-v/--v` and the other klog flags) are listed by `karmadactl options`.\n");
    out
}

fn usage(cmd: &Command, path: &[&str]) -> String {
    let mut c = cmd.clone().bin_name(path.join(" "));
    c.render_usage().to_string().trim().trim_start_matches("Usage:").trim().to_string()
}

fn help(a: &Arg) -> String {
    a.get_help().map(|h| h.to_string()).unwrap_or_default()
}

fn flag_name(a: &Arg) -> String {
    let long = a.get_long().map(|l| format!("--{l}")).unwrap_or_default();
    match a.get_short() {
        Some(s) => format!("-{s}, {long}"),
        None => long,
    }
}

fn default(a: &Arg) -> String {
    if a.is_hide_default_value_set() {
        return String::new();
    }
    let values: Vec<String> = a.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    if values.is_empty() || (values.len() == 1 && values[0] == "false" && !a.get_action().takes_values()) {
        String::new()
    } else {
        format!("`{}`", values.join(","))
    }
}

/// Markdown table cells cannot hold `|` or newlines.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}
