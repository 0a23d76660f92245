//! `token create|list|delete`: bootstrap tokens in the Karmada control plane.

use clap::{Args, Subcommand};

mod create;
mod delete;
pub mod errors;
mod list;

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;

/// Manage bootstrap tokens used by `register` to join a cluster in Pull mode.
#[derive(Debug, Args)]
#[command(
    subcommand_required = true,
    after_help = "Examples:\n  # Create a token and print the register command\n  karmadactl token create --print-register-command\n\n  # List tokens\n  karmadactl token list\n\n  # Delete a token\n  karmadactl token delete abcdef"
)]
pub struct TokenArgs {
    #[command(subcommand)]
    pub command: TokenCommand,
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    Create(TokenCreateArgs),
    List(TokenListArgs),
    Delete(TokenDeleteArgs),
}

/// Create a bootstrap token on the Karmada control plane.
#[derive(Debug, Args)]
pub struct TokenCreateArgs {
    /// Print the full `register` command a member cluster runs with this token.
    #[arg(long)]
    pub print_register_command: bool,

    /// How long the token is valid before it is deleted, e.g. 24h0m0s; 0 means it never expires.
    #[arg(long, default_value = "24h0m0s", value_name = "DURATION", allow_hyphen_values = true)]
    pub ttl: String,

    /// Ways the token may be used: signing (cluster-info), authentication.
    #[arg(long, value_delimiter = ',', default_values_t = karmadactl_karmada_api::wellknown::DEFAULT_TOKEN_USAGES.iter().map(|s| s.to_string()))]
    pub usages: Vec<String>,

    /// Extra groups the token authenticates as; each must start with system:bootstrappers:.
    #[arg(long, value_delimiter = ',', default_value = karmadactl_karmada_api::wellknown::DEFAULT_TOKEN_GROUP)]
    pub groups: Vec<String>,

    /// A human-friendly description of how the token is used.
    #[arg(long)]
    pub description: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// List bootstrap tokens on the Karmada control plane.
#[derive(Debug, Args)]
pub struct TokenListArgs {
    /// Output format: json or yaml (default: a table).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// Delete bootstrap tokens on the Karmada control plane, by ID or by full token.
#[derive(Debug, Args)]
pub struct TokenDeleteArgs {
    /// Token IDs (abcdef) or full tokens (abcdef.0123456789abcdef).
    #[arg(value_name = "TOKEN")]
    pub tokens: Vec<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: TokenArgs, ctx: &Context) -> anyhow::Result<()> {
    match args.command {
        TokenCommand::Create(a) => create::run(a, ctx),
        TokenCommand::List(a) => list::run(a, ctx),
        TokenCommand::Delete(a) => {
            if a.tokens.is_empty() {
                return Err(UsageError::with_hint(
                    "missing token: 'token delete' needs a token ID or a full token",
                    format!(
                        "run '{} token list' to see the tokens, then '{} token delete <id>'.",
                        ctx.parent(),
                        ctx.parent()
                    ),
                )
                .into());
            }
            delete::run(a, ctx)
        }
    }
}

/// A runtime for one command's requests.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread().enable_all().build()?)
}
