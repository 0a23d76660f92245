//! `attach`: kubectl's attach command against the Karmada control plane, or one member cluster
//! through the plane's cluster proxy (`-s members --cluster NAME`), as upstream karmadactl
//! wraps it: the session of [`super::exec`] on the pod's `attach` subresource, with kubectl's
//! terminal rules for attaching (the container's own `tty` decides) and its notes.

use clap::Args;

use super::connection::KarmadaConnection;
use super::exec::{self, Object, Session, StreamFlags, Where};
use super::scope;
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

    #[command(flatten)]
    pub stream: StreamFlags,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: AttachArgs, ctx: &Context) -> anyhow::Result<()> {
    let timeout = super::parse_duration("pod-running-timeout", &args.stream.pod_running_timeout)?;
    let timeout = super::logs::options::check_timeout(timeout)
        .map_err(|e| Verbatim(format!("error: {e}\nSee '{} attach -h' for help and examples", ctx.parent())))?;
    let member = scope::target(args.stream.operation_scope, args.stream.cluster.as_deref())?;
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
        container: args.stream.container.as_deref(),
        command: &[],
        stdin: args.stream.stdin,
        tty: args.stream.tty,
        quiet: args.stream.quiet,
        timeout,
    };
    let object = Object { arg: Some(&arg), filenames: &[] };
    let where_ =
        Where { karmada: &args.karmada, member: member.as_deref(), namespace: args.stream.namespace.as_deref() };
    exec::finish(exec::connect(&where_, &object, &session, ctx)?)
}
