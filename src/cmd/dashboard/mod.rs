//! `dashboard`: a one-time login link to the web dashboard the plane serves under
//! `/dashboard/`. The link is minted by an authenticated request with the kubeconfig's own
//! credentials (client certificate or token, impersonation included), so the browser session
//! acts as exactly that user and RBAC decides what it may do.

mod open;

use clap::Args;
use serde::{Deserialize, Serialize};

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::membership::errors::classify;
use crate::output::OutputFormat;

/// Open the web dashboard served by the Karmada control plane, logged in as the kubeconfig's user.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Open the dashboard in a browser (or print its one-time login link when there is no terminal)\n  karmadactl dashboard\n\n  # Print the link only\n  karmadactl dashboard --no-open\n\n  # The link, its lifetime and the user as JSON\n  karmadactl dashboard -o json"
)]
pub struct DashboardArgs {
    /// Print the login link instead of opening a browser (the default when stdout is not a terminal).
    #[arg(long)]
    pub no_open: bool,

    /// Output format. One of: json|yaml.
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// The plane's answer to a login-code request.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Minted {
    code: String,
    expires_in_seconds: u64,
    user: serde_json::Value,
}

/// What `-o json` prints.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct LoginLink {
    url: String,
    expires_in_seconds: u64,
    user: serde_json::Value,
}

/// The link: the dashboard's page on the server the kubeconfig names, with the code in the
/// fragment, which browsers never send to a server or put in a Referer.
fn link(server: &str, code: &str) -> String {
    format!("{}/dashboard/#code={code}", server.trim_end_matches('/'))
}

pub fn run(args: DashboardArgs, ctx: &Context) -> anyhow::Result<()> {
    let format =
        args.output.as_deref().map(|o| OutputFormat::parse_allowed(o, OutputFormat::JSON_OR_YAML)).transpose()?;
    args.karmada.resolve()?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (minted, server) = runtime.block_on(async {
        let plane = args.karmada.connect().await?;
        let request = http::Request::post("/dashboard/api/login-codes").body(Vec::new())?;
        let minted: Minted = plane
            .client
            .request(request)
            .await
            .map_err(|e| classify(&plane.target, "requesting a dashboard login link", e))?;
        anyhow::Ok((minted, plane.cluster.server.clone()))
    })?;
    let out = LoginLink {
        url: link(&server, &minted.code),
        expires_in_seconds: minted.expires_in_seconds,
        user: minted.user,
    };
    if let Some(format) = format {
        ctx.printer.data(&crate::output::to_format(format, &out)?)?;
        return Ok(());
    }
    let user = out.user.get("username").and_then(|u| u.as_str()).unwrap_or("?");
    let expiry = format!("works once, within {}s, as user {user:?}", out.expires_in_seconds);
    if !args.no_open && std::io::IsTerminal::is_terminal(&std::io::stdout()) && open::browser(&out.url) {
        ctx.printer.progress(&format!("Opened the dashboard in a browser (the login link {expiry})."));
        return Ok(());
    }
    ctx.printer.progress(&format!("Open this link in a browser; it {expiry}:"));
    ctx.printer.line(&out.url)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_travels_in_the_fragment() {
        assert_eq!(link("https://127.0.0.1:5443/", "abc"), "https://127.0.0.1:5443/dashboard/#code=abc");
        assert_eq!(link("https://plane", "abc"), "https://plane/dashboard/#code=abc");
    }
}
