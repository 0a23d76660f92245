//! `local member start|stop|list`: simulated member clusters in the background.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::cli::Context;
use crate::cmd::local::simulated::{self, MemberError, MemberSpec, Started};
use crate::error::UsageError;
use crate::output::OutputFormat;

/// Start, stop and list SIMULATED member clusters. A simulated member is a Kubernetes API
/// server whose nodes and pods are pretend: workloads report Running and Ready, but no
/// container ever runs. Not a real Kubernetes cluster.
#[derive(Debug, Args)]
#[command(subcommand_required = true)]
pub struct MemberArgs {
    #[command(subcommand)]
    pub command: MemberCommand,
}

#[derive(Debug, Subcommand)]
pub enum MemberCommand {
    Start(StartArgs),
    Stop(StopArgs),
    List(ListArgs),
}

/// Start a SIMULATED member cluster in the background (not a real Kubernetes cluster: nodes and
/// pods are simulated) and print how to join it.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Start a simulated member with 3 nodes and join it to Karmada\n  karmadactl local member start member1\n  karmadactl join member1 --cluster-kubeconfig=<the kubeconfig it printed>\n\n  # A bigger member that reports another Kubernetes version\n  karmadactl local member start member2 --nodes 10 --kubernetes-version v1.31.4"
)]
pub struct StartArgs {
    /// Name of the member: its kubeconfig context and cluster, and the name to join it as.
    pub name: String,

    /// Number of simulated nodes.
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub nodes: u32,

    /// The Kubernetes version the member reports (/version and each node's kubelet version).
    #[arg(long, default_value = karmadactl_karmada_api::wellknown::KUBERNETES_API_VERSION, value_name = "VERSION")]
    pub kubernetes_version: String,

    /// How long a simulated pod stays Pending before it reports Running and Ready.
    #[arg(long, default_value = "500ms", value_name = "DURATION")]
    pub pod_ready_delay: String,

    /// IP address the member listens on.
    #[arg(long, default_value = "127.0.0.1", value_name = "IP")]
    pub address: std::net::IpAddr,

    /// Port to listen on; 0 picks a free one on first start, kept for later starts.
    #[arg(long, default_value_t = 0, value_name = "PORT")]
    pub port: u16,

    /// Directory for the member's data [default: $XDG_DATA_HOME/karmadactl/members/NAME].
    #[arg(long, value_name = "PATH")]
    pub data_dir: Option<PathBuf>,

    /// Run in this terminal until interrupted instead of in the background.
    #[arg(long)]
    pub foreground: bool,

    /// Output format for the result: json or yaml.
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,
}

/// Stop a simulated member cluster and delete its data (unless --keep-data).
#[derive(Debug, Args)]
pub struct StopArgs {
    /// Name of the member.
    pub name: String,

    /// The member's data directory [default: $XDG_DATA_HOME/karmadactl/members/NAME].
    #[arg(long, value_name = "PATH")]
    pub data_dir: Option<PathBuf>,

    /// Keep the data so 'local member start' starts the same member again.
    #[arg(long)]
    pub keep_data: bool,
}

/// List the simulated member clusters in the default directory and the playground's.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Output format: json or yaml (a table otherwise).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// The playground whose members are listed too (default: the one 'local up' makes without
    /// --data-dir).
    #[arg(long, value_name = "PATH")]
    pub playground_dir: Option<PathBuf>,
}

/// One listed member, and whether it belongs to the `local up` playground.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ListedMember {
    #[serde(flatten)]
    info: simulated::MemberInfo,
    playground: bool,
}

/// The simulated members `local up` made in the playground at `dir` (only when its record
/// says it is one), in the record's order.
fn playground_members(dir: Option<&std::path::Path>) -> anyhow::Result<Vec<simulated::MemberInfo>> {
    let playground = super::playground::Playground::resolve(dir)?;
    let Some(record) = playground.read_record()? else { return Ok(Vec::new()) };
    let found = simulated::list(&playground.dir.join("members"));
    Ok(record.members.iter().filter_map(|name| found.iter().find(|m| &m.name == name).cloned()).collect())
}

pub fn run(args: MemberArgs, ctx: &Context) -> anyhow::Result<()> {
    match args.command {
        MemberCommand::Start(a) => start(a, ctx),
        MemberCommand::Stop(a) => stop(a, ctx),
        MemberCommand::List(a) => list(a, ctx),
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn data_dir(name: &str, given: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let dir = given.unwrap_or_else(|| simulated::members_dir(is_root()).join(name));
    Ok(if dir.is_absolute() { dir } else { std::env::current_dir()?.join(dir) })
}

fn start(args: StartArgs, ctx: &Context) -> anyhow::Result<()> {
    super::super::check_cluster_name(&args.name)?;
    let output = OutputFormat::parse_json_or_yaml(args.output.as_deref().unwrap_or(""))?;
    super::super::parse_duration("pod-ready-delay", &args.pod_ready_delay)?;
    let spec = MemberSpec {
        name: args.name.clone(),
        data_dir: data_dir(&args.name, args.data_dir)?,
        nodes: args.nodes,
        kubernetes_version: args.kubernetes_version,
        pod_ready_delay: args.pod_ready_delay,
        address: args.address,
        port: args.port,
        foreground: args.foreground,
        verbosity: ctx.global.verbosity,
        ready_timeout: Duration::from_secs(120),
        exe: std::env::current_exe()?,
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let spinner = ctx.printer.spinner("waiting for the simulated member to become ready");
    let started = match runtime.block_on(simulated::start(&spec)) {
        Ok(s) => {
            spinner.finish(&ctx.printer, "the simulated member is ready");
            s
        }
        Err(e) => {
            spinner.abandon();
            return Err(member_error(e, ctx));
        }
    };
    match output {
        OutputFormat::Json | OutputFormat::Yaml => ctx.printer.data(&crate::output::to_format(output, &started)?)?,
        _ => {
            let default_dir = simulated::members_dir(is_root()).join(&spec.name) == spec.data_dir;
            ctx.printer.data(&banner(&started, spec.nodes, default_dir, ctx.parent()))?
        }
    }
    wait_foreground(started)
}

fn banner(s: &Started, nodes: u32, default_dir: bool, parent: &str) -> String {
    let kubeconfig = s.kubeconfig.display().to_string();
    let state = if s.already_running { "is already running (reused)" } else { "is running" };
    let mut out = format!(
        "SIMULATED member cluster \"{}\" {state} (pid {}).\n\
         This is not a real Kubernetes cluster: nodes and pods are simulated, no container runs.\n\n\
         \x20 URL:         {}\n\x20 Kubeconfig:  {kubeconfig}\n\x20 Data:        {}\n",
        s.name,
        s.pid,
        s.url,
        s.data_dir.display()
    );
    if !s.already_running {
        out.push_str(&format!("  Nodes:       {nodes} (simulated)\n"));
    }
    if let Some(log) = &s.log_file {
        out.push_str(&format!("  Log:         {}\n", log.display()));
    }
    out.push_str(&format!(
        "\nJoin it to Karmada with:\n  {parent} join {} --cluster-kubeconfig={}\n",
        s.name,
        crate::cmd::init::banner::shell_word(&kubeconfig),
    ));
    if s.child.is_some() {
        out.push_str("\nIt runs in this terminal; press Ctrl-C to stop it.\n");
    } else {
        let dir_flag = if default_dir {
            String::new()
        } else {
            format!(" --data-dir {}", crate::cmd::init::banner::shell_word(&s.data_dir.display().to_string()))
        };
        out.push_str(&format!("\nStop it with:\n  {parent} local member stop {}{dir_flag}\n", s.name));
    }
    out
}

fn wait_foreground(started: Started) -> anyhow::Result<()> {
    let Some(mut child) = started.child else { return Ok(()) };
    // The member runs in this terminal: Ctrl-C reaches it directly and it shuts down
    // gracefully; this process only waits for it.
    // SAFETY: ignoring SIGINT in this process only; the child keeps its own disposition.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
    }
    let status = child.wait()?;
    let _ = std::fs::remove_file(started.data_dir.join(crate::local_plane::layout::PID_FILE));
    if !status.success() && status.code().is_some() {
        anyhow::bail!("the simulated member exited with {status}; see the messages above");
    }
    Ok(())
}

fn stop(args: StopArgs, ctx: &Context) -> anyhow::Result<()> {
    super::super::check_cluster_name(&args.name)?;
    let dir = data_dir(&args.name, args.data_dir)?;
    if !dir.exists() {
        ctx.printer.data(&format!("no simulated member \"{}\" in {}; nothing to stop\n", args.name, dir.display()))?;
        return Ok(());
    }
    let stopped = simulated::stop(&dir, args.keep_data).map_err(|e| member_error(e, ctx))?;
    match stopped.pid {
        Some(pid) => ctx.printer.data(&format!("stopped simulated member \"{}\" (pid {pid})\n", args.name))?,
        None => ctx.printer.data(&format!("simulated member \"{}\" was not running\n", args.name))?,
    }
    if stopped.data_removed {
        ctx.printer.data(&format!("removed {}\n", dir.display()))?;
    }
    Ok(())
}

fn list(args: ListArgs, ctx: &Context) -> anyhow::Result<()> {
    let output = OutputFormat::parse_json_or_yaml(args.output.as_deref().unwrap_or(""))?;
    let members: Vec<ListedMember> = simulated::list(&simulated::members_dir(is_root()))
        .into_iter()
        .map(|info| ListedMember { info, playground: false })
        .chain(
            playground_members(args.playground_dir.as_deref())?
                .into_iter()
                .map(|info| ListedMember { info, playground: true }),
        )
        .collect();
    if matches!(output, OutputFormat::Json | OutputFormat::Yaml) {
        return Ok(ctx.printer.data(&crate::output::to_format(output, &members)?)?);
    }
    let rows: Vec<[String; 5]> = members
        .iter()
        .map(|ListedMember { info: m, playground }| {
            let status = m.pid.map(|p| format!("Running(pid {p})")).unwrap_or_else(|| "Stopped".into());
            let owner = if *playground { "local up" } else { "member start" };
            [m.name.clone(), status, owner.into(), m.url.clone(), m.kubeconfig.display().to_string()]
        })
        .collect();
    let header = ["NAME".to_string(), "STATUS".into(), "CREATED BY".into(), "URL".into(), "KUBECONFIG".into()];
    let widths: Vec<usize> =
        (0..5).map(|i| rows.iter().chain([&header]).map(|r| r[i].len()).max().unwrap_or(0) + 3).collect();
    let mut out = String::new();
    for row in [&header].into_iter().chain(rows.iter()) {
        let line: String = row.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if members.is_empty() {
        out = "No simulated member clusters found.\n".into();
    }
    ctx.printer.data(&out)?;
    Ok(())
}

fn member_error(e: MemberError, ctx: &Context) -> anyhow::Error {
    let parent = ctx.parent();
    let hint = match &e {
        MemberError::NotAMemberDir { .. } | MemberError::OtherMember { .. } => {
            "choose another directory with --data-dir; nothing was changed.".to_string()
        }
        MemberError::ForeignProcess { pid_file, .. } => {
            format!("if that process is unrelated, delete {} and run stop again.", pid_file.display())
        }
        MemberError::NotReady { log_file, .. } => {
            format!("see {} for the member's log; '{parent} local member start' again retries.", log_file.display())
        }
        _ => return e.into(),
    };
    UsageError::with_hint(e.to_string(), hint).into()
}
