//! `deinit`: remove a Karmada control plane installed by `init`.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use super::connection::ClusterConnection;
use crate::cli::Context;
use crate::cmd::init::host::remove;
use crate::error::UsageError;
use crate::local_plane::layout::{PKI_FILES, RECORD_FILE};
use crate::local_plane::{Layout, Record, default_data_dir, process};

/// Remove the Karmada control plane from the Kubernetes cluster.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Remove Karmada from the Kubernetes cluster.\n  karmadactl deinit\n\n  # Remove Karmada from the Kubernetes cluster without asking for confirmation.\n  karmadactl deinit --force\n\n  # Stop the embedded control plane on this machine and delete its data.\n  karmadactl deinit --embedded"
)]
pub struct DeinitArgs {
    /// Namespace of the Karmada control plane components in the host cluster.
    #[arg(short = 'n', long, default_value = karmadactl_karmada_api::wellknown::KARMADA_SYSTEM_NAMESPACE)]
    pub namespace: String,

    #[command(flatten)]
    pub host: ClusterConnection,

    /// Show the plan without deleting anything.
    #[arg(long)]
    pub dry_run: bool,

    /// Skip the confirmation prompt (required when there is no terminal to ask on).
    #[arg(short = 'f', long)]
    pub force: bool,

    /// Also delete the namespace the control plane ran in.
    #[arg(long)]
    pub purge_namespace: bool,

    /// Remove the embedded control plane started by 'init --embedded': stop its process and
    /// delete its data directory and PKI.
    #[arg(long)]
    pub embedded: bool,

    /// With --embedded: the data directory given to 'init --embedded' [default: as init's].
    #[arg(short = 'd', long, value_name = "PATH", requires = "embedded")]
    pub karmada_data: Option<String>,

    /// Keep the data: on a host cluster, etcd's hostPath directory and PVCs (otherwise a Job
    /// on etcd's node empties the directory); with --embedded, stop the control plane but keep
    /// its data directory, so 'init --embedded' can start it again.
    #[arg(long)]
    pub keep_data: bool,
}

pub fn run(args: DeinitArgs, ctx: &Context) -> anyhow::Result<()> {
    if args.embedded {
        return embedded(&args, ctx);
    }
    args.host.resolve()?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(host(&args, ctx))
}

/// Removes what `init` installed into the host cluster: only objects carrying init's labels.
async fn host(args: &DeinitArgs, ctx: &Context) -> anyhow::Result<()> {
    let parent = ctx.parent();
    let (client, server) = super::init::host::host_client(&args.host).await?;
    let removal = remove::plan(&client, &args.namespace, args.purge_namespace, args.keep_data).await.map_err(|e| {
        let hint = match e {
            remove::RemoveError::NoNamespace(_) => "pass the namespace given to init with -n/--namespace.",
            _ => "check the host cluster's kubeconfig and your permissions there.",
        };
        anyhow::Error::from(UsageError::with_hint(format!("{e:#} (host cluster at {server})"), hint))
    })?;
    ctx.printer.progress(&format!("removes Karmada from Kubernetes ({server}, namespace {}):", args.namespace));
    for line in removal.describe() {
        ctx.printer.progress(&format!("  - {line}"));
    }
    if removal.namespace_not_ours {
        ctx.printer.warn(&format!(
            "namespace {} was not created by init (it lacks the {}={} label); it is kept",
            args.namespace,
            karmadactl_karmada_api::wellknown::LABEL_INSTALLED_BY,
            remove::INSTALLED_BY_INIT
        ));
    }
    if removal.is_empty() {
        ctx.printer.progress("  (nothing: no objects created by init were found)");
        return Ok(());
    }
    if args.dry_run {
        ctx.printer.progress("dry run: nothing was deleted");
        return Ok(());
    }
    if !args.force && !confirm(parent, "Remove Karmada from the host cluster?", "")? {
        ctx.printer.progress("deinit cancelled; nothing was deleted");
        return Ok(());
    }
    removal
        .execute(&client, &|line| ctx.printer.progress(line), &|line| ctx.printer.warn(line))
        .await
        .map_err(|e| anyhow::Error::from(e).context("removing Karmada from the host cluster"))?;
    let kept = if args.keep_data || removal.data.is_none() {
        " etcd's data was kept (a hostPath directory on the etcd node, default /var/lib/karmada-etcd, or PVCs)."
    } else {
        ""
    };
    ctx.printer.progress(&format!(
        "Karmada was removed from the host cluster.{kept} The certificates and the admin kubeconfig on this machine (default /etc/karmada) are left in place."
    ));
    Ok(())
}

/// One step of the plan, printed before anything happens.
enum Step {
    Stop { pid: u32 },
    DeleteDir { path: PathBuf, what: &'static str },
    DeletePkiFiles { dir: PathBuf },
}

impl Step {
    fn describe(&self) -> String {
        match self {
            Step::Stop { pid } => format!("stop the control plane process {pid} (karmadactl controlplane serve)"),
            Step::DeleteDir { path, what } => format!("delete {} ({what})", path.display()),
            Step::DeletePkiFiles { dir } => {
                format!("delete the certificates and keys in {} ({})", dir.display(), PKI_FILES.join(", "))
            }
        }
    }
}

fn embedded(args: &DeinitArgs, ctx: &Context) -> anyhow::Result<()> {
    let parent = ctx.parent();
    // SAFETY: geteuid has no preconditions.
    let is_root = unsafe { libc::geteuid() } == 0;
    let data_dir = match &args.karmada_data {
        Some(d) if Path::new(d).is_absolute() => PathBuf::from(d),
        Some(d) => std::env::current_dir()?.join(d),
        None => default_data_dir(is_root),
    };
    let layout = Layout::new(data_dir.clone(), None);
    let record = Record::read(&layout.record())?;
    let Some(record) = record else {
        if data_dir.exists() {
            // Without init's record nothing proves the directory is ours to delete.
            return Err(UsageError::with_hint(
                format!(
                    "{} has no {RECORD_FILE}; it is not an embedded control plane's data directory",
                    data_dir.display()
                ),
                "nothing was changed; pass the directory given to 'init --embedded' with --karmada-data.",
            )
            .into());
        }
        ctx.printer.progress(&format!("no embedded control plane in {}; nothing to do", data_dir.display()));
        return Ok(());
    };
    let layout = Layout::new(data_dir.clone(), Some(record.pki_dir.clone()));

    let mut plan = Vec::new();
    if let Some(pid) = process::running_pid(&layout) {
        plan.push(Step::Stop { pid });
    }
    if !args.keep_data {
        if !layout.pki_inside_data() && layout.pki_dir.exists() {
            plan.push(Step::DeletePkiFiles { dir: layout.pki_dir.clone() });
        }
        plan.push(Step::DeleteDir { path: data_dir.clone(), what: "store, certificates, admin kubeconfig, logs" });
    }
    ctx.printer.progress("deinit will:");
    for step in &plan {
        ctx.printer.progress(&format!("  - {}", step.describe()));
    }
    if plan.is_empty() {
        ctx.printer.progress("  (nothing: the control plane is not running and --keep-data keeps its files)");
        return Ok(());
    }
    if args.dry_run {
        ctx.printer.progress("dry run: nothing was changed");
        return Ok(());
    }
    if !args.force && !confirm(parent, "Remove the embedded control plane?", " --embedded")? {
        ctx.printer.progress("deinit cancelled; nothing was changed");
        return Ok(());
    }
    for step in &plan {
        match step {
            Step::Stop { pid } => {
                process::stop(*pid, Duration::from_secs(10))?;
                let _ = std::fs::remove_file(layout.pid_file());
            }
            Step::DeletePkiFiles { dir } => delete_pki_files(dir)?,
            Step::DeleteDir { path, .. } => {
                std::fs::remove_dir_all(path).map_err(|e| anyhow::anyhow!("cannot delete {}: {e}", path.display()))?
            }
        }
        ctx.printer.progress(&format!("done: {}", step.describe()));
    }
    ctx.printer.progress("the embedded control plane is removed");
    Ok(())
}

/// Asks on the terminal; without one, refuses (never waits on a pipe) and names --force.
fn confirm(parent: &str, question: &str, mode_flag: &str) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Err(UsageError::with_hint(
            "deinit needs confirmation, and there is no terminal to ask on",
            format!("nothing was changed; run '{parent} deinit{mode_flag} --force' to remove it without asking."),
        )
        .into());
    }
    let term = dialoguer::console::Term::stderr();
    Ok(dialoguer::Confirm::new().with_prompt(question).default(false).interact_on(&term)?)
}

/// Deletes only the files the plane's PKI consists of, then the directory if that left it
/// empty: a PKI directory outside the data dir may hold other files.
fn delete_pki_files(dir: &Path) -> anyhow::Result<()> {
    for name in PKI_FILES {
        match std::fs::remove_file(dir.join(name)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => anyhow::bail!("cannot delete {}: {e}", dir.join(name).display()),
        }
    }
    let _ = std::fs::remove_dir(dir);
    Ok(())
}
