//! `init --embedded`: run Karmada's control plane on this machine.
//!
//! Everything is checked and decided first (paths, listen address, certificate names); only then
//! are files and processes touched. A second run on the same data directory reuses what is
//! there: the same CA, the same address, the same store, and it starts the plane only if it is
//! not running.

use std::ffi::OsString;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::InitArgs;
use super::banner::{self, InitResult};
use crate::cli::Context;
use crate::error::UsageError;
use crate::local_plane::client::{self, ClientError};
use crate::local_plane::{Layout, Record, default_data_dir, process};
use crate::output::OutputFormat;
use karmadactl_apiserver::pki::{PlanePki, ServingNames};

/// Marks the token init creates, so a later init reuses it instead of making another.
const TOKEN_DESCRIPTION: &str = "created by karmadactl init --embedded";

/// The default of init's `--port`.
const DEFAULT_PORT: i32 = 32443;

/// What this run will do, decided before anything is written.
struct Plan {
    layout: Layout,
    listen: SocketAddr,
    names: ServingNames,
    validity: Duration,
    validity_text: String,
    /// The record from an earlier init, when this data dir has one.
    existing: Option<Record>,
    ready_timeout: Duration,
    /// `controlplane serve`'s datastore flags (empty for SQLite).
    datastore_args: Vec<String>,
    /// Engine flags from `--karmada-controller-manager-extra-args` (feature gates, failover).
    engine_args: Vec<String>,
}

pub fn run(args: &InitArgs, output: OutputFormat, ctx: &Context) -> anyhow::Result<()> {
    let plan = resolve(args, ctx)?;
    // Before anything is written: a record would fix the taken port for every later init.
    if process::running_pid(&plan.layout).is_none() {
        check_port_free(&plan, ctx)?;
    }
    let mut reused = Vec::new();
    if let Some(rec) = &plan.existing {
        reused.push(format!("data directory {}", plan.layout.data_dir.display()));
        reused.push(format!("listen address {}", rec.listen));
    }
    create_private_dir(&plan.layout)?;

    let pki = PlanePki::load_or_create(&plan.layout.pki_dir, &plan.names, plan.validity)
        .map_err(|e| anyhow::anyhow!(e).context(format!("preparing the PKI in {}", plan.layout.pki_dir.display())))?;
    if pki.created.is_empty() {
        reused.push(format!("certificates in {}", plan.layout.pki_dir.display()));
    } else if !pki.created.iter().any(|c| c == karmadactl_apiserver::pki::CA) {
        reused.push(format!("CA in {}", plan.layout.pki_dir.display()));
    }
    if plan.existing.is_none() {
        let record = Record {
            listen: plan.listen,
            pki_dir: plan.layout.pki_dir.clone(),
            cert_external_ips: plan.names.ips.iter().map(ToString::to_string).collect(),
            cert_external_dns: plan.names.dns.clone(),
            cert_validity_period: plan.validity_text.clone(),
            datastore_args: plan.datastore_args.clone(),
            created_by: env!("CARGO_PKG_VERSION").to_string(),
        };
        record.write(&plan.layout.record())?;
    }

    let running = process::running_pid(&plan.layout);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (pid, mut child) = match running {
        Some(pid) => {
            ctx.printer.progress(&format!("the control plane is already running (pid {pid})"));
            if !plan.engine_args.is_empty() {
                ctx.printer.warn(&format!(
                    "--karmada-controller-manager-extra-args apply when the control plane starts; the running one (pid {pid}) keeps its flags"
                ));
            }
            (pid, None)
        }
        None if args.foreground => {
            let child = std::process::Command::new(std::env::current_exe()?)
                .args(serve_args(&plan, ctx))
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .spawn()?;
            crate::private_files::write(&plan.layout.pid_file(), format!("{}\n", child.id()).as_bytes())?;
            (child.id(), Some(child))
        }
        None => (process::spawn_detached(&std::env::current_exe()?, &serve_args(&plan, ctx), &plan.layout)?, None),
    };

    let spinner = ctx.printer.spinner("waiting for the control plane to become ready");
    let kubeconfig = plan.layout.kubeconfig();
    let data_dir = plan.layout.data_dir.clone();
    let ready = runtime.block_on(async {
        let client =
            client::wait_ready(&kubeconfig, plan.ready_timeout, || process::is_plane_process(pid, &data_dir)).await?;
        let token = match client::reusable_bootstrap_token(&client, TOKEN_DESCRIPTION).await? {
            Some(token) => token,
            None => client::create_bootstrap_token(&client, TOKEN_DESCRIPTION).await?,
        };
        client::wait_signed(&client, token.token.id(), Duration::from_secs(10)).await?;
        Ok::<_, ClientError>(token)
    });
    let token = match ready {
        Ok(token) => {
            spinner.finish(&ctx.printer, "the control plane is ready");
            token
        }
        Err(e) => {
            spinner.abandon();
            return Err(not_ready(e, &plan.layout, args.foreground));
        }
    };

    let server = crate::kubeconfig::https_server_url(&client_host(plan.listen).to_string(), plan.listen.port());
    let endpoint = server.trim_start_matches("https://").to_string();
    let ca_hash = karmadactl_pki::ca_cert_hash(pki.ca.cert_pem())?;
    let kubeconfig_text = kubeconfig.display().to_string();
    let expires = token.expiration.map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()).unwrap_or_default();
    let result = InitResult {
        mode: "embedded",
        data_dir: plan.layout.data_dir.display().to_string(),
        pki_dir: plan.layout.pki_dir.display().to_string(),
        kubeconfig: kubeconfig_text.clone(),
        server,
        pid,
        log_file: if args.foreground { "(this terminal)".into() } else { plan.layout.log_file().display().to_string() },
        already_running: running.is_some(),
        created_certificates: pki.created.clone(),
        reused,
        token: token.token.to_string(),
        token_expires: expires,
        join_command: banner::join_command(ctx.parent(), &kubeconfig_text),
        register_command: banner::register_command(ctx.parent(), &endpoint, &token.token.to_string(), &ca_hash),
        ca_cert_hash: ca_hash,
    };
    for what in &result.reused {
        ctx.printer.progress(&format!("reused {what}"));
    }
    match output {
        OutputFormat::Json | OutputFormat::Yaml => ctx.printer.data(&crate::output::to_format(output, &result)?)?,
        _ => ctx.printer.data(&banner::render(&result, ctx.parent()))?,
    }

    if let Some(child) = child.as_mut() {
        // The plane runs in this terminal: Ctrl-C reaches it directly and it shuts down
        // gracefully; this process only waits for it.
        // SAFETY: ignoring SIGINT in this process only; the child keeps its own disposition.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_IGN);
        }
        let status = child.wait()?;
        let _ = std::fs::remove_file(plan.layout.pid_file());
        if !status.success() && status.code().is_some() {
            anyhow::bail!("the control plane exited with {status}; see the messages above");
        }
    }
    Ok(())
}

fn resolve(args: &InitArgs, ctx: &Context) -> anyhow::Result<Plan> {
    let parent = ctx.parent();
    let usage = |m: String, h: String| -> anyhow::Error { UsageError::with_hint(m, h).into() };
    // SAFETY: geteuid has no preconditions.
    let is_root = unsafe { libc::geteuid() } == 0;
    let data_dir =
        absolute(args.karmada_data.as_deref().map(PathBuf::from).unwrap_or_else(|| default_data_dir(is_root)))?;
    let layout_guess = Layout::new(data_dir.clone(), None);
    let existing = Record::read(&layout_guess.record())?;

    if existing.is_none() && dir_has_entries(&data_dir) {
        return Err(usage(
            format!("{} is not empty and was not created by '{parent} init --embedded'", data_dir.display()),
            "choose another directory with --karmada-data; nothing was changed.".into(),
        ));
    }
    let asked_pki = args.karmada_pki.as_deref().map(PathBuf::from).map(absolute).transpose()?;
    let pki_dir = match (&existing, asked_pki) {
        (Some(rec), Some(asked)) if asked != rec.pki_dir => {
            return Err(usage(
                format!(
                    "{} was created with --karmada-pki {}, not {}",
                    data_dir.display(),
                    rec.pki_dir.display(),
                    asked.display()
                ),
                format!(
                    "run init again without --karmada-pki, or remove the plane first with '{parent} deinit --embedded'."
                ),
            ));
        }
        (Some(rec), _) => rec.pki_dir.clone(),
        (None, asked) => asked.unwrap_or_else(|| data_dir.join("pki")),
    };
    let layout = Layout::new(data_dir, Some(pki_dir));

    let advertise: Option<IpAddr> = args.karmada_apiserver_advertise_address.as_deref().map(str::parse).transpose()?;
    let mut names = ServingNames::default();
    for ip in args.cert_external_ip.iter().flat_map(|s| s.split(',')).filter(|s| !s.is_empty()) {
        names.ips.push(ip.parse()?);
    }
    names.dns =
        args.cert_external_dns.iter().flat_map(|s| s.split(',')).filter(|s| !s.is_empty()).map(String::from).collect();
    let listen = match &existing {
        Some(rec) => {
            // 0 asks for any free port, which the kept one is; the default cannot be told from
            // an explicit --port 32443 and stays quiet.
            let asked = args.port;
            if asked != 0 && asked != DEFAULT_PORT && u16::try_from(asked).ok() != Some(rec.listen.port()) {
                ctx.printer.warn(&format!(
                    "--port {asked} is ignored: {} keeps the address of its first init, {} (its certificate and \
                     kubeconfigs name it); to move the plane, remove it with '{} deinit --embedded' first or use \
                     another --karmada-data",
                    layout.data_dir.display(),
                    rec.listen,
                    ctx.parent()
                ));
            }
            rec.listen
        }
        None => {
            let port = u16::try_from(args.port).map_err(|_| {
                usage(format!("port {} is out of range", args.port), "give a port between 0 and 65535.".into())
            })?;
            let ip = advertise.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
            if port == 0 { free_port(ip)? } else { SocketAddr::new(ip, port) }
        }
    };
    if let Some(rec) = &existing {
        // The certificate and cluster-info must keep naming what the first run chose.
        names.ips = rec.cert_external_ips.iter().filter_map(|s| s.parse().ok()).collect();
        names.dns = rec.cert_external_dns.clone();
    }
    let mut cert_names = names.clone();
    cert_names.ips.push(listen.ip());
    let validity_text = args.cert_validity_period.clone();
    let validity = super::super::controlplane::positive_duration("cert-validity-period", &validity_text)?;
    let ready_timeout = match args.wait_component_ready_timeout {
        0 => Duration::from_secs(24 * 3600),
        n => Duration::from_secs(n as u64),
    };
    let datastore_args = datastore_args(args, existing.as_ref(), parent)?;
    let extra = args.components.get("karmada-controller-manager").map(|s| s.extra_args.clone()).unwrap_or_default();
    let engine_args = crate::cmd::engine_flags::check_controller_manager_args(&extra)?;
    Ok(Plan {
        layout,
        listen,
        names: cert_names,
        validity,
        validity_text,
        existing,
        ready_timeout,
        datastore_args,
        engine_args,
    })
}

/// The datastore flags for `controlplane serve`: from --datastore and the --external-etcd-*
/// flags on the first run, from the record afterwards (the objects live where they were put).
fn datastore_args(args: &InitArgs, existing: Option<&Record>, parent: &str) -> anyhow::Result<Vec<String>> {
    let path = |p: &Option<String>| p.as_deref().map(PathBuf::from).map(absolute).transpose();
    let asked = args.datastore.clone().unwrap_or_else(|| "sqlite".into());
    let etcd_flags = args.external_etcd_ca_cert_path.is_some()
        || args.external_etcd_client_cert_path.is_some()
        || args.external_etcd_key_prefix.is_some();
    if asked == "sqlite" && args.datastore.is_some() && etcd_flags {
        return Err(UsageError::with_hint(
            "the --external-etcd-* flags need an etcd datastore with --embedded",
            "add --datastore etcd://HOST:PORT, or drop the --external-etcd-* flags.",
        )
        .into());
    }
    let flags = crate::cmd::datastore::DatastoreArgs {
        etcd_prefix: if asked == "sqlite" {
            String::new()
        } else {
            args.external_etcd_key_prefix.clone().unwrap_or_default()
        },
        etcd_cafile: if asked == "sqlite" { None } else { path(&args.external_etcd_ca_cert_path)? },
        etcd_certfile: if asked == "sqlite" { None } else { path(&args.external_etcd_client_cert_path)? },
        etcd_keyfile: if asked == "sqlite" { None } else { path(&args.external_etcd_client_key_path)? },
        datastore: asked,
    };
    flags.datastore()?;
    let wanted: Vec<String> = flags.serve_args().into_iter().map(|a| a.to_string_lossy().into_owned()).collect();
    match existing {
        Some(rec) if args.datastore.is_some() && rec.datastore_args != wanted => Err(UsageError::with_hint(
            format!(
                "this control plane keeps its objects in {}; its datastore cannot be changed",
                if rec.datastore_args.is_empty() { "sqlite".to_string() } else { rec.datastore_args.join(" ") }
            ),
            format!("run init again without --datastore, or remove the plane first with '{parent} deinit --embedded'."),
        )
        .into()),
        Some(rec) => Ok(rec.datastore_args.clone()),
        None => Ok(wanted),
    }
}

/// The `controlplane serve` command line of this plan.
fn serve_args(plan: &Plan, ctx: &Context) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec![
        "controlplane".into(),
        "serve".into(),
        "--data-dir".into(),
        plan.layout.data_dir.clone().into(),
        "--pki-dir".into(),
        plan.layout.pki_dir.clone().into(),
        "--admin-kubeconfig".into(),
        plan.layout.kubeconfig().into(),
        "--listen".into(),
        plan.listen.to_string().into(),
        "--cert-validity-period".into(),
        plan.validity_text.clone().into(),
        // Info-level logs: the log file is where users look when something is wrong.
        format!("--v={}", ctx.global.verbosity.max(2)).into(),
    ];
    for ip in &plan.names.ips {
        args.push("--cert-external-ip".into());
        args.push(ip.to_string().into());
    }
    for dns in &plan.names.dns {
        args.push("--cert-external-dns".into());
        args.push(dns.into());
    }
    args.extend(plan.datastore_args.iter().map(OsString::from));
    args.extend(plan.engine_args.iter().map(OsString::from));
    args
}

/// The host clients use for an address (an unspecified listen address is reached on loopback).
fn client_host(listen: SocketAddr) -> IpAddr {
    if listen.ip().is_unspecified() { IpAddr::V4(Ipv4Addr::LOCALHOST) } else { listen.ip() }
}

fn not_ready(e: ClientError, layout: &Layout, foreground: bool) -> anyhow::Error {
    let log = layout.log_file();
    let tail = if foreground { String::new() } else { log_tail(&log, 15) };
    let mut message = format!("the embedded control plane did not start: {e}");
    if !tail.is_empty() {
        message.push_str(&format!("\nlast lines of {}:\n{tail}", log.display()));
    }
    let hint = if foreground {
        "see the control plane's messages above.".to_string()
    } else {
        format!("see {} for the control plane's log; a second init retries and reuses the data.", log.display())
    };
    UsageError::with_hint(message, hint).into()
}

/// init's own answer to a taken port, naming init's flags (the server it starts would name
/// its `--listen`, which init does not have).
fn check_port_free(plan: &Plan, ctx: &Context) -> anyhow::Result<()> {
    match std::net::TcpListener::bind(plan.listen) {
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            let hint = match &plan.existing {
                Some(_) => format!(
                    "{} keeps this address from its first init; stop what is using it, or start another plane with \
                     '{} init --embedded --karmada-data <new dir> --port 0'.",
                    plan.layout.data_dir.display(),
                    ctx.parent()
                ),
                None => "pick another with --port (--port 0 picks a free one), or stop what is using it.".into(),
            };
            Err(UsageError::with_hint(format!("{} is already in use", plan.listen), hint).into())
        }
        _ => Ok(()),
    }
}

fn log_tail(path: &Path, lines: usize) -> String {
    let Ok(text) = std::fs::read_to_string(path) else { return String::new() };
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

fn absolute(path: PathBuf) -> anyhow::Result<PathBuf> {
    Ok(if path.is_absolute() { path } else { std::env::current_dir()?.join(path) })
}

fn dir_has_entries(dir: &Path) -> bool {
    std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(false)
}

/// Creates the data directory owner-only, or adopts an existing one: it must belong to this
/// user, and it and what an earlier run left in it are narrowed to owner-only.
fn create_private_dir(layout: &Layout) -> anyhow::Result<()> {
    crate::private_files::adopt_dir(&layout.data_dir)?;
    for path in layout.private_paths() {
        crate::private_files::narrow(&path)
            .map_err(|e| anyhow::anyhow!("cannot make {} private: {e}", path.display()))?;
    }
    Ok(())
}

/// A port the OS says is free now, for `--port 0`; it is then fixed in the record so the
/// kubeconfig stays valid across restarts.
fn free_port(ip: IpAddr) -> anyhow::Result<SocketAddr> {
    let listener = std::net::TcpListener::bind(SocketAddr::new(ip, 0))
        .map_err(|e| anyhow::anyhow!("cannot find a free port on {ip}: {e}"))?;
    Ok(listener.local_addr()?)
}
