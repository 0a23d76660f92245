//! The command tree and the top-level run loop: parse, dispatch, classify errors.

mod argv;
pub mod docs;
mod global;
mod help;
mod one_command;
mod parse_error;

use std::ffi::OsString;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::cmd;
use crate::error::{self, ExitCode};
use crate::printer::Printer;

pub use global::GlobalFlags;

/// Which of the two installed names the binary runs as. Only help text and printed commands
/// differ (`karmadactl join …` versus `kubectl karmada join …`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// Installed as `karmadactl`.
    Standalone,
    /// Installed as `kubectl-karmada`, run by kubectl as `kubectl karmada`.
    KubectlPlugin,
}

impl Flavour {
    /// Decides from argv[0]: kubectl runs plugins with their own path as argv[0].
    pub fn from_argv0(argv0: Option<&OsString>) -> Self {
        let name = argv0
            .and_then(|a| std::path::Path::new(a).file_name().map(|f| f.to_string_lossy().into_owned()))
            .unwrap_or_default();
        if name.starts_with("kubectl-karmada") { Flavour::KubectlPlugin } else { Flavour::Standalone }
    }

    /// The words a user types to run this binary.
    pub fn parent_command(self) -> &'static str {
        match self {
            Flavour::Standalone => "karmadactl",
            Flavour::KubectlPlugin => "kubectl karmada",
        }
    }

    /// The executable's file name.
    pub fn binary_name(self) -> &'static str {
        match self {
            Flavour::Standalone => "karmadactl",
            Flavour::KubectlPlugin => "kubectl-karmada",
        }
    }
}

/// karmadactl controls a Kubernetes Cluster Federation.
#[derive(Debug, Parser)]
#[command(name = "karmadactl", disable_version_flag = true, disable_help_subcommand = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalFlags,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Every subcommand. The order here is the order in generated docs; the root help groups them
/// the way upstream does (see `help.rs`).
#[derive(Debug, Subcommand)]
pub enum Command {
    Init(Box<cmd::init::InitArgs>),
    Deinit(cmd::deinit::DeinitArgs),
    Addons(cmd::addons::AddonsArgs),
    Join(cmd::join::JoinArgs),
    Unjoin(cmd::unjoin::UnjoinArgs),
    Token(cmd::token::TokenArgs),
    Register(cmd::register::RegisterArgs),
    Unregister(cmd::unregister::UnregisterArgs),
    Cordon(cmd::cordon::CordonArgs),
    Uncordon(cmd::cordon::UncordonArgs),
    Taint(cmd::taint::TaintArgs),
    Dashboard(cmd::dashboard::DashboardArgs),
    Get(cmd::get::GetArgs),
    Promote(cmd::promote::PromoteArgs),
    Apply(Box<cmd::apply::ApplyArgs>),
    Top(cmd::top::TopArgs),
    Interpret(cmd::interpret::InterpretArgs),
    Label(cmd::label::LabelArgs),
    Annotate(cmd::annotate::AnnotateArgs),
    Patch(cmd::patch::PatchArgs),
    Create(Box<cmd::create::CreateArgs>),
    Edit(Box<cmd::edit::EditArgs>),
    Delete(cmd::delete::DeleteArgs),
    Describe(cmd::describe::DescribeArgs),
    Explain(cmd::explain::ExplainArgs),
    Logs(cmd::logs::LogsArgs),
    Exec(cmd::exec::ExecArgs),
    Attach(cmd::attach::AttachArgs),
    ApiResources(cmd::api_resources::ApiResourcesArgs),
    ApiVersions(cmd::api_resources::ApiVersionsArgs),
    Completion(cmd::completion::CompletionArgs),
    Version(cmd::version::VersionArgs),
    Options(cmd::options::OptionsArgs),
    Controlplane(Box<cmd::controlplane::ControlplaneArgs>),
    Local(cmd::local::LocalArgs),
    Agent(cmd::agent::AgentArgs),
}

/// What every command receives besides its own arguments.
pub struct Context {
    pub printer: Printer,
    pub flavour: Flavour,
    pub global: GlobalFlags,
}

impl Context {
    /// `karmadactl` or `kubectl karmada`, for printed commands and hints.
    pub fn parent(&self) -> &'static str {
        self.flavour.parent_command()
    }
}

/// The full clap command for a flavour, with help text adapted to it.
pub fn command(flavour: Flavour) -> clap::Command {
    help::adapt(Cli::command(), flavour)
}

/// Runs the binary with the given argv and returns the process exit code.
pub fn run(args: Vec<OsString>) -> i32 {
    let flavour = Flavour::from_argv0(args.first());
    if args.get(1).is_some_and(|a| a == cmd::completion::COMPLETE_COMMAND) {
        return cmd::completion::complete(flavour, &args[2..]);
    }
    // The named subcommand's tree alone parses most command lines; help, usage errors and
    // anything it cannot parse go through the full tree, whose texts users see.
    let parsed = match one_command::tree_for(&args).map(|tree| parse(tree, args.clone())) {
        Some(Ok(parsed)) => parsed,
        _ => match parse(command(flavour), args) {
            Ok(parsed) => parsed,
            Err((e, path)) => return parse_error::report(e, &path, flavour),
        },
    };
    let (matches, mut cli) = parsed;
    // The derive API drops where a value came from; init's --config needs it to let explicit
    // flags win over the file.
    if let (Some(Command::Init(init)), Some(("init", m))) = (&mut cli.command, matches.subcommand()) {
        init.explicit = cmd::init::config::explicit_args(m);
    }
    let printer = Printer::new(cli.global.verbosity);
    let ctx = Context { printer, flavour, global: cli.global };
    let Some(subcommand) = cli.command else {
        // Upstream prints the root help when no subcommand is given, and exits 0.
        let _ = ctx.printer.data(&command(flavour).render_help().to_string());
        return ExitCode::Success as i32;
    };
    match cmd::dispatch(subcommand, &ctx) {
        Ok(()) => ExitCode::Success as i32,
        Err(err) => {
            let report = error::classify(&err);
            ctx.printer.progress(&report.to_string());
            report.code as i32
        }
    }
}

/// Normalises and parses `args` with `tree`: the matches and the arguments they hold, or the
/// error with the subcommand path it concerns.
fn parse(mut tree: clap::Command, args: Vec<OsString>) -> Result<(clap::ArgMatches, Cli), (clap::Error, Vec<String>)> {
    let args = argv::normalise(&tree, args);
    let path = argv::command_path(&tree, &args);
    let matches = tree.try_get_matches_from_mut(args).map_err(|e| (e, path.clone()))?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| (e, path))?;
    Ok((matches, cli))
}
