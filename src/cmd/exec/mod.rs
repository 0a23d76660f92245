//! `exec`: kubectl's exec command against the Karmada control plane, or one member cluster
//! through the plane's cluster proxy (`-s members --cluster NAME`), as upstream karmadactl
//! wraps it. The pod and container are chosen as kubectl chooses them ([`target`]), the
//! session runs over WebSocket or, as kubectl falls back to it, SPDY ([`streams`], [`spdy`])
//! with the local terminal in raw mode under `-t`
//! ([`terminal`]), and the remote command's exit code becomes this process's. `attach` shares
//! all of it but the subresource.

pub(crate) mod spdy;
pub(crate) mod streams;
pub(crate) mod target;
pub(crate) mod terminal;

use clap::Args;

use super::connection::KarmadaConnection;
use super::scope::{self, Scope};
use crate::cli::Context;
use crate::error::Verbatim;

/// Execute a command in a container in a cluster.
#[derive(Debug, Args)]
#[command(
    long_about = "Execute a command in a container.",
    override_usage = "karmadactl exec (POD | TYPE/NAME) [-c CONTAINER] (-C CLUSTER) -- COMMAND [args...]",
    after_help = "Examples:\n  # Get output from running the 'date' command from pod mypod, using the first container by default\n  karmadactl exec mypod -- date\n\n  # Get output from running the 'date' command from pod mypod, using the first container by default in cluster(member1)\n  karmadactl exec mypod --operation-scope=members --cluster=member1 -- date\n\n  # Get output from running the 'date' command in ruby-container from pod mypod in cluster(member1)\n  karmadactl exec mypod -c ruby-container --operation-scope=members --cluster=member1 -- date\n\n  # Switch to raw terminal mode; sends stdin to 'bash' in ruby-container from pod mypod\n  # and sends stdout/stderr from 'bash' back to the client\n  karmadactl exec mypod -c ruby-container -i -t -- bash -il\n\n  # Get output from running 'date' command from the first pod of the deployment mydeployment, using the first container by default in cluster(member1)\n  karmadactl exec deploy/mydeployment --operation-scope=members --cluster=member1 -- date\n\n  # Get output from running 'date' command from the first pod of the service myservice, using the first container by default in cluster(member1)\n  karmadactl exec svc/myservice --operation-scope=members --cluster=member1 -- date"
)]
pub struct ExecArgs {
    /// POD or TYPE/NAME (a command without `--` before it is refused, as kubectl refuses it).
    #[arg(value_name = "POD")]
    pub args: Vec<String>,

    /// The command to run and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND", allow_hyphen_values = true)]
    pub command: Vec<String>,

    /// Filename, directory, or URL to files to use to exec into the resource
    #[arg(short = 'f', long = "filename", value_name = "FILENAME")]
    pub filenames: Vec<String>,

    #[command(flatten)]
    pub stream: StreamFlags,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// The flags exec and attach share (upstream's, from kubectl's StreamOptions and its own
/// scope flags).
#[derive(Debug, Args)]
pub struct StreamFlags {
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
}

/// kubectl's usage error: the message, then where to read the help.
fn usage(ctx: &Context, command: &str, message: &str) -> anyhow::Error {
    Verbatim(format!("error: {message}\nSee '{} {command} -h' for help and examples", ctx.parent())).into()
}

pub fn run(args: ExecArgs, ctx: &Context) -> anyhow::Result<()> {
    if args.args.len() > 1 || (!args.args.is_empty() && !args.filenames.is_empty() && args.command.is_empty()) {
        return Err(usage(
            ctx,
            "exec",
            "exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead",
        ));
    }
    let timeout = super::parse_duration("pod-running-timeout", &args.stream.pod_running_timeout)?;
    let timeout = super::logs::options::check_timeout(timeout).map_err(|e| usage(ctx, "exec", &e))?;
    let member = scope::target(args.stream.operation_scope, args.stream.cluster.as_deref())?;
    if args.args.is_empty() && args.filenames.is_empty() {
        return Err(Verbatim("error: pod, type/name or --filename must be specified".into()).into());
    }
    if args.command.is_empty() {
        return Err(Verbatim("error: you must specify at least one command for the container".into()).into());
    }
    let session = Session {
        subresource: "exec",
        verb: "exec into",
        container: args.stream.container.as_deref(),
        command: &args.command,
        stdin: args.stream.stdin,
        tty: args.stream.tty,
        quiet: args.stream.quiet,
        timeout,
    };
    let object = Object { arg: args.args.first().map(String::as_str), filenames: &args.filenames };
    let where_ =
        Where { karmada: &args.karmada, member: member.as_deref(), namespace: args.stream.namespace.as_deref() };
    let end = connect(&where_, &object, &session, ctx)?;
    finish(end)
}

/// Where the pod is.
pub(crate) struct Where<'a> {
    pub karmada: &'a KarmadaConnection,
    pub member: Option<&'a str>,
    pub namespace: Option<&'a str>,
}

/// What names the pod: `POD`/`TYPE/NAME`, or the one object of `-f`.
pub(crate) struct Object<'a> {
    pub arg: Option<&'a str>,
    pub filenames: &'a [String],
}

/// What the session asks of the kubelet.
pub(crate) struct Session<'a> {
    /// `exec` or `attach`.
    pub subresource: &'static str,
    /// How kubectl words reaching into a container in its refusals (`exec into`, `attach`).
    pub verb: &'static str,
    pub container: Option<&'a str>,
    /// The command (exec only).
    pub command: &'a [String],
    pub stdin: bool,
    pub tty: bool,
    pub quiet: bool,
    pub timeout: std::time::Duration,
}

/// Finds the pod and container, sets the terminal up and runs the session. The runtime is
/// shut down without waiting for the stdin reader, which may block on a terminal forever.
pub(crate) fn connect(
    where_: &Where<'_>,
    object: &Object<'_>,
    session: &Session<'_>,
    ctx: &Context,
) -> anyhow::Result<streams::End> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let result = runtime.block_on(async {
        let mut config = scope::config_for(where_.karmada, where_.member).await?;
        // A session lasts as long as its command; the connection must not time out reading.
        config.read_timeout = None;
        config.write_timeout = None;
        let client = kube::Client::try_from(config)?;
        let resolved = where_.karmada.resolve()?;
        let namespace =
            super::connection::effective_namespace(where_.namespace, resolved.namespace.as_deref());
        let pod = match file_object(object.filenames).await? {
            Some(doc) => target::from_file(&client, &namespace, &doc, session.timeout).await?,
            None => target::pod(&client, &namespace, object.arg.unwrap_or_default(), session.timeout).await?,
        };
        target::check_running(&pod, session.verb)?;
        let attach = session.subresource == "attach";
        // exec leaves a named container for the server to check; attach checks it first.
        let container = match session.container.filter(|c| !c.is_empty()) {
            Some(named) if !attach => named.to_string(),
            named => target::container(&pod, named, session.quiet, &ctx.printer).map_err(|e| match attach {
                true => Verbatim(e.0.replacen("error: ", "error: cannot attach to the container: ", 1)),
                false => e,
            })?,
        };
        let mut want_tty = session.tty;
        if attach {
            // A process started without a terminal cannot get one, and one started with a
            // terminal speaks only through it.
            let allocated = target::allocates_tty(&pod, &container);
            if want_tty && !allocated {
                want_tty = false;
                if !session.quiet {
                    ctx.printer.progress(&format!("error: Unable to use a TTY - container {container} did not allocate one"));
                }
            } else if !want_tty && allocated {
                want_tty = true;
            }
        }
        let stdin = session.stdin;
        // kubectl's SetupTTY: a terminal only with stdin, and only when stdin is one.
        let mut tty = want_tty && stdin;
        if tty && !terminal::stdin_is_terminal() {
            tty = false;
            if !session.quiet {
                ctx.printer.progress("Unable to use a TTY - input is not a terminal or the right kind of file");
            }
        }
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        let pod_ns = pod.metadata.namespace.clone().unwrap_or(namespace);
        let mut query = form_urlencoded::Serializer::new(String::new());
        query.append_pair("container", &container);
        for c in session.command {
            query.append_pair("command", c);
        }
        query.append_pair("stdin", if stdin { "true" } else { "false" });
        query.append_pair("stdout", "true");
        query.append_pair("stderr", if tty { "false" } else { "true" });
        query.append_pair("tty", if tty { "true" } else { "false" });
        let path = format!("/api/v1/namespaces/{pod_ns}/pods/{pod_name}/{}?{}", session.subresource, query.finish());
        if attach && !session.quiet {
            ctx.printer.progress("If you don't see a command prompt, try pressing enter.");
        }
        let raw = match tty {
            true => Some(terminal::Raw::enter()?),
            false => None,
        };
        let plan = streams::Plan { stdin, stderr: !tty, sizes: tty.then(terminal::sizes) };
        let end = streams::run(&client, &path, plan).await;
        drop(raw);
        let restarts = pod.spec.as_ref().and_then(|s| s.restart_policy.as_deref()) == Some("Always");
        if attach && end.is_ok() && !session.quiet && stdin && tty && restarts {
            let parent = ctx.parent();
            let message = match target::is_ephemeral(&pod, &container) {
                true => format!(
                    "Session ended, the ephemeral container will not be restarted but may be reattached using '{parent} attach {pod_name} -c {container} -i -t' if it is still running"
                ),
                false => format!(
                    "Session ended, resume using '{parent} attach {pod_name} -c {container} -i -t' command when the pod is running"
                ),
            };
            println!("{message}");
        }
        end
    });
    runtime.shutdown_background();
    result
}

/// `-f`: the one object the files describe, if any were given.
async fn file_object(filenames: &[String]) -> anyhow::Result<Option<serde_json::Value>> {
    if filenames.is_empty() {
        return Ok(None);
    }
    let docs = crate::manifest_files::read_all(filenames, false).await.map_err(|e| Verbatim(format!("error: {e}")))?;
    match <[_; 1]>::try_from(docs) {
        Ok([doc]) => Ok(Some(doc.object)),
        Err(_) => Err(Verbatim("error: cannot exec into multiple objects at a time".into()).into()),
    }
}

/// The session's end as this process's: a remote exit code is kubectl's
/// `command terminated with exit code N` and exit status N.
pub(crate) fn finish(end: streams::End) -> anyhow::Result<()> {
    match end {
        streams::End::Success => Ok(()),
        streams::End::ExitCode(code) => {
            eprintln!("command terminated with exit code {code}");
            use std::io::Write;
            let _ = std::io::stdout().flush();
            // kubectl's CheckErr exits with the remote code itself; the error path knows only
            // this tool's own codes.
            std::process::exit(code)
        }
    }
}
