//! `attach`: kubectl's attach command against the Karmada control plane, or one member cluster
//! through the plane's cluster proxy (`-s members --cluster NAME`), as upstream karmadactl
//! wraps it: the session of [`super::exec`] on the pod's `attach` subresource, with kubectl's
//! terminal rules for attaching (the container's own `tty` decides) and its notes.

use clap::Args;

use super::connection::KarmadaConnection;
use super::exec::{self, Object, Session, Where};
use super::scope::{self, Scope};
use crate::cli::Context;
use crate::error::Verbatim;

/// Attach to a running container.
#[derive(Debug, Args)]
#[command(
    long_about = "Attach to a process that is already running inside an existing container.",
    override_usage = "karmadactl attach (POD | TYPE/NAME) -c CONTAINER",
    after_help = "Examples:\n  # Get output from running pod mypod in cluster(member1); use the 'kubectl.kubernetes.io/default-container' annotation\n  # for selecting the container to be attached or the first container in the pod will be chosen\n  karmadactl attach mypod --cluster=member1\n\n  # Get output from ruby-container from pod mypod in cluster(member1)\n  karmadactl attach mypod -c ruby-container --cluster=member1\n\n  # Switch to raw terminal mode; sends stdin to 'bash' in ruby-container from pod mypod in Karmada control plane\n  # and sends stdout/stderr from 'bash' back to the client\n  karmadactl attach mypod -c ruby-container -i -t\n\n  # Get output from the first pod of a replica set named nginx in cluster(member1)\n  karmadactl attach rs/nginx --cluster=member1"
)]
pub struct AttachArgs {
    /// POD, TYPE/NAME, or TYPE NAME.
    #[arg(value_name = "POD")]
    pub args: Vec<String>,

    /// Container name. If omitted, use the kubectl.kubernetes.io/default-container annotation
    /// for selecting the container to be attached or the first container in the pod will be
    /// chosen
    #[arg(short = 'c', long, value_name = "CONTAINER")]
    pub container: Option<String>,

    /// Used to specify a target member cluster and only takes effect when the command's
    /// operation scope is members, for example: --operation-scope=members --cluster=member1
    #[arg(short = 'C', long, value_name = "CLUSTER")]
    pub cluster: Option<String>,

    /// If present, the namespace scope for this CLI request
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// Used to control the operation scope of the command. The optional values are karmada and
    /// members. Defaults to karmada.
    #[arg(short = 's', long, default_value = "karmada", value_parser = scope::parse_scope, value_name = "SCOPE")]
    pub operation_scope: Scope,

    /// The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod
    /// is running
    #[arg(long, default_value = "1m0s", value_name = "DURATION")]
    pub pod_running_timeout: String,

    /// Only print output from the remote session
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Pass stdin to the container
    #[arg(short = 'i', long)]
    pub stdin: bool,

    /// Stdin is a TTY
    #[arg(short = 't', long)]
    pub tty: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: AttachArgs, ctx: &Context) -> anyhow::Result<()> {
    let timeout = super::parse_duration("pod-running-timeout", &args.pod_running_timeout)?;
    let timeout = super::logs::options::check_timeout(timeout)
        .map_err(|e| Verbatim(format!("error: {e}\nSee '{} attach -h' for help and examples", ctx.parent())))?;
    let member = scope::target(args.operation_scope, args.cluster.as_deref())?;
    let arg = match args.args.as_slice() {
        [] => return Err(Verbatim("error: at least 1 argument is required for attach".into()).into()),
        [one] => one.clone(),
        [kind, name] => format!("{kind}/{name}"),
        more => {
            return Err(Verbatim(format!(
                "error: expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw {}: [{}]",
                more.len(),
                more.join(" ")
            ))
            .into());
        }
    };
    let session = Session {
        subresource: "attach",
        verb: "attach",
        container: args.container.as_deref(),
        command: &[],
        stdin: args.stdin,
        tty: args.tty,
        quiet: args.quiet,
        timeout,
    };
    let object = Object { arg: Some(&arg), filenames: &[] };
    let where_ = Where { karmada: &args.karmada, member: member.as_deref(), namespace: args.namespace.as_deref() };
    exec::finish(exec::connect(&where_, &object, &session, ctx)?)
}
