//! `local up`: a Karmada playground on this machine — an embedded control plane plus N
//! SIMULATED member clusters, all joined, with one kubeconfig holding a context per cluster.
//!
//! It runs this binary's own `init --embedded`, `local member start` and `join`, so the
//! playground exercises exactly the code users run by hand, and stops at the first failure
//! with that command's own message.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use clap::Args;
use serde::{Deserialize, Serialize};

use super::playground::Playground;
use crate::cli::Context;
use crate::error::UsageError;
use crate::output::OutputFormat;

/// Start a Karmada playground: an embedded control plane and SIMULATED member clusters (not real
/// Kubernetes clusters), all joined, with one kubeconfig.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # A control plane and three simulated members\n  karmadactl local up\n  export KUBECONFIG=$HOME/.local/share/karmadactl/local/kubeconfig\n  kubectl get clusters\n\n  # Remove it all again\n  karmadactl local down"
)]
pub struct UpArgs {
    /// Number of simulated member clusters (member1 … memberN).
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=50))]
    pub members: u32,

    /// Number of simulated nodes in each member.
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub nodes: u32,

    /// The Kubernetes version the members report.
    #[arg(long, default_value = karmadactl_karmada_api::wellknown::KUBERNETES_API_VERSION, value_name = "VERSION")]
    pub kubernetes_version: String,

    /// Directory for the playground [default: $XDG_DATA_HOME/karmadactl/local].
    #[arg(long, value_name = "PATH")]
    pub data_dir: Option<PathBuf>,

    /// How long to wait for every member to be Ready.
    #[arg(long, default_value = "60s", value_name = "DURATION")]
    pub timeout: String,

    /// Flags for the control plane's Karmada controllers, as init's
    /// --karmada-controller-manager-extra-args: feature gates and cluster failover, e.g.
    /// --karmada-controller-manager-extra-args=--feature-gates=Failover=true,--enable-no-execute-taint-eviction
    #[arg(long, value_delimiter = ',', value_name = "ARGS", allow_hyphen_values = true)]
    pub karmada_controller_manager_extra_args: Vec<String>,

    /// Output format for the result: json or yaml.
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,
}

/// What `local up` reports.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct UpResult {
    data_dir: String,
    kubeconfig: String,
    karmada_context: String,
    /// Always true: the members are simulated.
    simulated_members: bool,
    members: Vec<MemberLine>,
    seconds: f64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MemberLine {
    name: String,
    url: String,
    context: String,
    joined_now: bool,
}

/// The fields of `init --embedded -o json` and `local member start -o json` this reads.
#[derive(Debug, Deserialize)]
struct Reported {
    kubeconfig: String,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    server: Option<String>,
}

pub fn run(args: UpArgs, ctx: &Context) -> anyhow::Result<()> {
    let started = Instant::now();
    let output = OutputFormat::parse_json_or_yaml(args.output.as_deref().unwrap_or(""))?;
    let timeout = super::super::parse_duration("timeout", &args.timeout)?;
    let playground = Playground::resolve(args.data_dir.as_deref())?;
    // Checked before anything is started, with init's own rules.
    crate::cmd::engine_flags::check_controller_manager_args(&args.karmada_controller_manager_extra_args)?;
    let names: Vec<String> = (1..=args.members).map(|i| format!("member{i}")).collect();
    // The record comes first, so 'local down' can remove whatever a failed 'local up' left.
    playground.claim(&names)?;
    super::interrupt::watch(playground.dir.clone(), ctx.parent());
    let exe = std::env::current_exe()?;

    ctx.printer.progress("starting the Karmada control plane");
    let mut init: Vec<OsString> = vec![
        "init".into(),
        "--embedded".into(),
        "--karmada-data".into(),
        playground.plane_dir().into(),
        "--port".into(),
        "0".into(),
        "--output".into(),
        "json".into(),
    ];
    if !args.karmada_controller_manager_extra_args.is_empty() {
        init.push(
            format!("--karmada-controller-manager-extra-args={}", args.karmada_controller_manager_extra_args.join(","))
                .into(),
        );
    }
    let plane: Reported = run_json(&exe, &init, "init --embedded")?;

    ctx.printer.progress(&format!("starting {} simulated member clusters", names.len()));
    let members: Vec<Reported> = std::thread::scope(|s| {
        let handles: Vec<_> = names
            .iter()
            .map(|name| {
                let exe = &exe;
                let dir = playground.member_dir(name);
                let nodes = args.nodes.to_string();
                let version = args.kubernetes_version.clone();
                s.spawn(move || {
                    run_json::<Reported>(
                        exe,
                        &[
                            "local".into(),
                            "member".into(),
                            "start".into(),
                            name.into(),
                            "--data-dir".into(),
                            dir.into(),
                            "--nodes".into(),
                            nodes.into(),
                            "--kubernetes-version".into(),
                            version.into(),
                            "--output".into(),
                            "json".into(),
                        ],
                        &format!("local member start {name}"),
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a member start thread does not panic"))
            .collect::<Vec<anyhow::Result<Reported>>>()
    })
    .into_iter()
    .collect::<anyhow::Result<_>>()?;

    ctx.printer.progress("joining the members");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let plane_kubeconfig = PathBuf::from(&plane.kubeconfig);
    let joined = runtime.block_on(super::playground::registered(&plane_kubeconfig))?;
    // Joins are independent of each other: run them side by side.
    let joins: Vec<anyhow::Result<()>> = std::thread::scope(|s| {
        let handles: Vec<_> = names
            .iter()
            .zip(&members)
            .filter(|(name, _)| !joined.contains(name))
            .map(|(name, member)| {
                let (exe, plane_kubeconfig) = (&exe, &plane_kubeconfig);
                s.spawn(move || {
                    run_plain(
                        exe,
                        &[
                            "join".into(),
                            name.into(),
                            "--kubeconfig".into(),
                            plane_kubeconfig.into(),
                            "--cluster-kubeconfig".into(),
                            member.kubeconfig.clone().into(),
                        ],
                        &format!("join {name}"),
                    )
                    .map(|_| ())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a join thread does not panic")).collect()
    });
    joins.into_iter().collect::<anyhow::Result<Vec<()>>>()?;
    let lines: Vec<MemberLine> = names
        .iter()
        .zip(&members)
        .map(|(name, member)| MemberLine {
            name: name.clone(),
            url: member.url.clone().or(member.server.clone()).unwrap_or_default(),
            context: name.clone(),
            joined_now: !joined.contains(name),
        })
        .collect();

    ctx.printer.progress("waiting for the members to be Ready");
    runtime.block_on(super::playground::wait_ready(&plane_kubeconfig, &names, timeout))?;

    let kubeconfig = playground.kubeconfig();
    let member_kubeconfigs: Vec<PathBuf> = members.iter().map(|m| PathBuf::from(&m.kubeconfig)).collect();
    super::playground::write_combined(&kubeconfig, &plane_kubeconfig, &member_kubeconfigs)?;

    let result = UpResult {
        data_dir: playground.dir.display().to_string(),
        kubeconfig: kubeconfig.display().to_string(),
        karmada_context: karmadactl_karmada_api::wellknown::KARMADA_APISERVER_CONTEXT.to_string(),
        simulated_members: true,
        members: lines,
        seconds: (started.elapsed().as_secs_f64() * 100.0).round() / 100.0,
    };
    match output {
        OutputFormat::Json | OutputFormat::Yaml => ctx.printer.data(&crate::output::to_format(output, &result)?)?,
        _ => ctx.printer.data(&render(&result, ctx.parent()))?,
    }
    Ok(())
}

fn render(r: &UpResult, parent: &str) -> String {
    let mut out = format!(
        "Karmada playground is up in {:.1}s: a control plane and {} SIMULATED member clusters\n\
         (simulated: their nodes and pods are pretend; nothing runs containers).\n\n",
        r.seconds,
        r.members.len()
    );
    for m in &r.members {
        out.push_str(&format!("  {:<10} {}  (context {})\n", m.name, m.url, m.context));
    }
    out.push_str(&format!(
        "\nUse it:\n  export KUBECONFIG={}\n  kubectl get clusters                      # context {}\n  kubectl --context member1 get nodes\n\nRemove it:\n  {parent} local down\n",
        r.kubeconfig, r.karmada_context
    ));
    out
}

/// Runs `exe args` and parses its stdout as JSON; a failure carries the command's own error.
fn run_json<T: serde::de::DeserializeOwned>(exe: &Path, args: &[OsString], what: &str) -> anyhow::Result<T> {
    let stdout = run_plain(exe, args, what)?;
    serde_json::from_str(&stdout)
        .map_err(|e| anyhow::anyhow!("'{what}' printed something that is not its JSON result: {e}"))
}

fn run_plain(exe: &Path, args: &[OsString], what: &str) -> anyhow::Result<String> {
    let out = Command::new(exe).args(args).stdin(Stdio::null()).output()?;
    if !out.status.success() {
        super::interrupt::defer_if_interrupted(out.status);
        let (message, hint) = split_report(&String::from_utf8_lossy(&out.stderr));
        let ours = "what was started so far keeps running; 'local down' removes it, or fix the cause and run 'local up' again.";
        let hint = match hint {
            Some(h) => format!("{h}\nhint: {ours}"),
            None => ours.to_string(),
        };
        return Err(UsageError::with_hint(format!("'{what}' failed: {message}"), hint).into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A failed command's `error:` message and `hint:` lines, without those prefixes (its
/// progress lines are dropped: the error says what went wrong).
fn split_report(stderr: &str) -> (String, Option<String>) {
    let mut message = Vec::new();
    let mut hints = Vec::new();
    for line in stderr.lines() {
        if let Some(m) = line.strip_prefix("error: ") {
            message.push(m.trim().to_string());
        } else if let Some(h) = line.strip_prefix("hint: ") {
            hints.push(h.trim().to_string());
        }
    }
    if message.is_empty() {
        message.push(stderr.trim().lines().last().unwrap_or("no message").to_string());
    }
    (message.join("; "), (!hints.is_empty()).then(|| hints.join("\n")))
}
