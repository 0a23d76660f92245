//! Help text: upstream's grouped command listing at the root, and the binary's own name in
//! every usage line and example (`kubectl karmada …` when run as the kubectl plugin).

use clap::Command;

use super::Flavour;

/// Groups and order of the root listing, as upstream prints them (commands not built in this
/// tool are left out rather than listed as if they worked), plus this tool's `agent` and the
/// `options` command upstream only mentions below the list, so every command can be found here.
const GROUPS: &[(&str, &[&str])] = &[
    ("Basic Commands", &["explain", "get", "create", "delete", "edit"]),
    (
        "Cluster Registration Commands",
        &["init", "deinit", "addons", "join", "unjoin", "token", "register", "unregister"],
    ),
    ("Cluster Management Commands", &["cordon", "uncordon", "taint", "dashboard"]),
    ("Troubleshooting and Debugging Commands", &["attach", "logs", "exec", "describe", "interpret"]),
    ("Advanced Commands", &["apply", "promote", "top", "patch"]),
    ("Control Plane Commands", &["controlplane", "local", "agent"]),
    ("Settings Commands", &["label", "annotate", "completion"]),
    ("Other Commands", &["api-resources", "api-versions", "options", "version"]),
];

/// Applies the flavour's names and the grouped root help to the derived command tree.
pub fn adapt(cmd: Command, flavour: Flavour) -> Command {
    let parent = flavour.parent_command();
    let root_about = format!("{parent} controls a Kubernetes Cluster Federation.");
    let cmd = rename_in_texts(cmd, parent);
    let template = root_template(&cmd, parent);
    cmd.name(flavour.binary_name())
        .bin_name(parent)
        .about(root_about.clone())
        .long_about(root_about)
        .help_template(template)
}

/// The upstream-style root help: groups of commands, usage, and where to look next.
fn root_template(cmd: &Command, parent: &str) -> String {
    let width = GROUPS.iter().flat_map(|(_, names)| names.iter()).map(|n| n.len()).max().unwrap_or(0) + 3;
    let mut out = String::from("{about}\n");
    for (group, names) in GROUPS {
        out.push_str(&format!("\n{group}:\n"));
        for name in *names {
            let about =
                cmd.find_subcommand(name).and_then(|s| s.get_about()).map(|a| a.to_string()).unwrap_or_default();
            out.push_str(&format!("  {name:<width$}{}\n", escape(&about)));
        }
    }
    out.push_str(&format!(
        "\nUsage:\n  {parent} [flags] [options]\n\n\
         Use \"{parent} <command> --help\" for more information about a given command.\n\
         Use \"{parent} options\" for a list of global command-line options (applies to all commands).\n"
    ));
    out
}

/// clap templates treat `{name}` as a tag; about texts never contain braces, but be safe.
fn escape(s: &str) -> String {
    s.replace('{', "(").replace('}', ")")
}

/// Replaces the standalone name in every help text of the tree with the flavour's parent
/// command, so the plugin's examples read `kubectl karmada join …`.
fn rename_in_texts(mut cmd: Command, parent: &str) -> Command {
    if parent != "karmadactl" {
        let swap = |s: &clap::builder::StyledStr| s.to_string().replace("karmadactl", parent);
        if let Some(t) = cmd.get_about().map(swap) {
            cmd = cmd.about(t);
        }
        if let Some(t) = cmd.get_long_about().map(swap) {
            cmd = cmd.long_about(t);
        }
        if let Some(t) = cmd.get_before_help().map(swap) {
            cmd = cmd.before_help(t);
        }
        if let Some(t) = cmd.get_after_help().map(swap) {
            cmd = cmd.after_help(t);
        }
        if let Some(t) = cmd.get_after_long_help().map(swap) {
            cmd = cmd.after_long_help(t);
        }
    }
    let subs: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in subs {
        cmd = cmd.mut_subcommand(name, |sub| rename_in_texts(sub, parent));
    }
    cmd
}
