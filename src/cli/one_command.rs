//! The command tree of the one subcommand a run names, for parsing.
//!
//! The full tree has every command with every flag (a few thousand clap `Arg`s); building it
//! was most of what `karmadactl version` cost. A run that names its subcommand is parsed with a
//! root holding the global flags and that subcommand only, built exactly as the derived tree
//! builds it. Anything that tree cannot parse as the full one would (help, a usage error, a
//! token that names another command) makes [`super::run`] parse again with the full tree, so
//! what users see in those cases comes from the full tree as before.

use clap::{Args, Command};

use crate::cmd;

/// The root for `args` (argv with the program name first) holding only the top-level
/// subcommand the first argument that names one names (a flag's value may come before it);
/// `None` when none does.
///
/// Parsing with it succeeds only where the full tree finds the same subcommand: before the
/// subcommand both trees have the same root, and a token that names another command is no
/// subcommand of this one, an error. One difference is deliberate: a flag written before the
/// subcommand name is classified (takes a value or not) by that subcommand's own flags, as
/// cobra does, where the full tree takes the first command it finds with that flag.
pub fn tree_for(args: &[std::ffi::OsString]) -> Option<Command> {
    let sub = args.iter().skip(1).filter_map(|a| a.to_str()).filter(|a| !a.starts_with('-')).find_map(subcommand)?;
    let root = Command::new("karmadactl").disable_version_flag(true).disable_help_subcommand(true);
    Some(super::GlobalFlags::augment_args(root).subcommand(sub))
}

/// One top-level subcommand as `#[derive(Subcommand)]` builds it for [`super::Command`]: the
/// variant's name in kebab case and its arguments' own `augment_args`.
fn subcommand(name: &str) -> Option<Command> {
    let named = Command::new(name.to_owned());
    Some(match name {
        "init" => <Box<cmd::init::InitArgs>>::augment_args(named),
        "deinit" => cmd::deinit::DeinitArgs::augment_args(named),
        "addons" => cmd::addons::AddonsArgs::augment_args(named),
        "join" => cmd::join::JoinArgs::augment_args(named),
        "unjoin" => cmd::unjoin::UnjoinArgs::augment_args(named),
        "token" => cmd::token::TokenArgs::augment_args(named),
        "register" => cmd::register::RegisterArgs::augment_args(named),
        "unregister" => cmd::unregister::UnregisterArgs::augment_args(named),
        "cordon" => cmd::cordon::CordonArgs::augment_args(named),
        "uncordon" => cmd::cordon::UncordonArgs::augment_args(named),
        "taint" => cmd::taint::TaintArgs::augment_args(named),
        "dashboard" => cmd::dashboard::DashboardArgs::augment_args(named),
        "get" => cmd::get::GetArgs::augment_args(named),
        "promote" => cmd::promote::PromoteArgs::augment_args(named),
        "apply" => <Box<cmd::apply::ApplyArgs>>::augment_args(named),
        "top" => cmd::top::TopArgs::augment_args(named),
        "interpret" => cmd::interpret::InterpretArgs::augment_args(named),
        "label" => cmd::label::LabelArgs::augment_args(named),
        "annotate" => cmd::annotate::AnnotateArgs::augment_args(named),
        "patch" => cmd::patch::PatchArgs::augment_args(named),
        "create" => <Box<cmd::create::CreateArgs>>::augment_args(named),
        "edit" => <Box<cmd::edit::EditArgs>>::augment_args(named),
        "delete" => cmd::delete::DeleteArgs::augment_args(named),
        "describe" => cmd::describe::DescribeArgs::augment_args(named),
        "explain" => cmd::explain::ExplainArgs::augment_args(named),
        "logs" => cmd::logs::LogsArgs::augment_args(named),
        "exec" => cmd::exec::ExecArgs::augment_args(named),
        "attach" => cmd::attach::AttachArgs::augment_args(named),
        "api-resources" => cmd::api_resources::ApiResourcesArgs::augment_args(named),
        "api-versions" => cmd::api_resources::ApiVersionsArgs::augment_args(named),
        "completion" => cmd::completion::CompletionArgs::augment_args(named),
        "version" => cmd::version::VersionArgs::augment_args(named),
        "options" => cmd::options::OptionsArgs::augment_args(named),
        "controlplane" => <Box<cmd::controlplane::ControlplaneArgs>>::augment_args(named),
        "local" => cmd::local::LocalArgs::augment_args(named),
        "agent" => cmd::agent::AgentArgs::augment_args(named),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use super::*;
    use crate::cli::Cli;

    /// Every top-level subcommand of the derived tree is built here, identically (clap's
    /// `Debug` of a `Command` shows every setting, argument and nested subcommand).
    #[test]
    fn each_subcommand_is_built_as_the_derived_tree_builds_it() {
        let full = Cli::command();
        let names: Vec<&str> = full.get_subcommands().map(|s| s.get_name()).collect();
        assert!(names.len() > 30, "{names:?}");
        for sub in full.get_subcommands() {
            let name = sub.get_name();
            let one = subcommand(name).unwrap_or_else(|| panic!("add `{name}` to one_command::subcommand"));
            // Its place in the parent's help listing is given when it is added to one.
            let one = one.display_order(sub.get_display_order());
            assert_eq!(format!("{one:?}"), format!("{sub:?}"), "subcommand {name}");
        }
    }

    /// The root differs from the derived one only in the subcommands it holds and in its
    /// about text: help is never printed from it (asking for help makes `run` use the full tree).
    #[test]
    fn the_root_is_the_derived_root_with_one_subcommand() {
        let mut full = Cli::command();
        full.build();
        let mut one = tree_for(&["karmadactl".into(), "version".into()]).unwrap();
        one.build();
        let args = |c: &Command| c.get_arguments().map(|a| format!("{a:?}")).collect::<Vec<_>>();
        assert_eq!(args(&one), args(&full));
        assert_eq!(one.get_name(), full.get_name());
        assert_eq!(one.is_disable_version_flag_set(), full.is_disable_version_flag_set());
        assert_eq!(one.is_disable_help_subcommand_set(), full.is_disable_help_subcommand_set());
    }

    fn parse(tree: Command, args: &[&str]) -> Result<String, clap::error::ErrorKind> {
        let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        let mut tree = tree;
        let args = super::super::argv::normalise(&tree, args);
        let matches = tree.try_get_matches_from_mut(args).map_err(|e| e.kind())?;
        Cli::from_arg_matches(&matches).map(|c| format!("{c:?}")).map_err(|e| e.kind())
    }

    /// Where the one-command tree parses a command line, the full tree parses it to the same
    /// arguments; where it cannot, `run` falls back to the full tree.
    #[test]
    fn a_command_line_parses_the_same_with_either_tree() {
        let lines: &[&[&str]] = &[
            &["karmadactl", "version"],
            &["karmadactl", "version", "-o", "json"],
            &["karmadactl", "--v=4", "version", "-o=yaml"],
            &["karmadactl", "--kubeconfig", "/k", "get", "deployments", "-n", "default", "-C", "m1"],
            &["karmadactl", "--kubeconfig=/k", "--karmada-context=c", "promote", "deployment", "x", "-C", "m1"],
            &["karmadactl", "join", "m1", "--cluster-kubeconfig=/m", "--dry-run=true"],
            &["karmadactl", "token", "create", "--print-register-command"],
            &["karmadactl", "create", "deploy", "web", "--image=nginx", "--replicas=2"],
            &["karmadactl", "apply", "-f", "x.yaml", "--all-clusters", "--dry-run=client"],
            &["karmadactl", "local", "member", "start", "m1", "-o", "json"],
            &["karmadactl", "controlplane", "serve", "--data-dir", "/d"],
            &["karmadactl", "init", "--karmada-data", "/d", "--cert-validity-period=8760h"],
            &["karmadactl", "logs", "pod/x", "-C", "m1", "--", "extra"],
        ];
        for line in lines {
            let one = tree_for(&line.iter().map(Into::into).collect::<Vec<_>>()).expect("a subcommand is named");
            let with_one = parse(one, line);
            let with_full = parse(Cli::command(), line);
            match with_one {
                Ok(parsed) => assert_eq!(Ok(parsed), with_full, "{line:?}"),
                Err(kind) => panic!("{line:?} should parse with its own tree: {kind:?} (full tree: {with_full:?})"),
            }
        }
    }

    #[test]
    fn no_tree_without_a_known_subcommand_name() {
        for line in [&["karmadactl"][..], &["karmadactl", "--v=2"], &["karmadactl", "frobnicate"]] {
            assert!(tree_for(&line.iter().map(Into::into).collect::<Vec<_>>()).is_none(), "{line:?}");
        }
    }
}
