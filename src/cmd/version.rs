//! `version`: what this binary is, and which Kubernetes API its control plane serves.

use clap::Args;
use serde::Serialize;

use super::connection::IgnoredKubeconfig;
use crate::build_info;
use crate::cli::Context;
use crate::output::OutputFormat;

/// Print the version information.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Print karmadactl command version\n  karmadactl version\n\n  # Print the version as JSON\n  karmadactl version -o json"
)]
pub struct VersionArgs {
    /// One of 'yaml' or 'json'.
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    #[command(flatten)]
    pub ignored: IgnoredKubeconfig,
}

/// The facts `version` prints. Field names follow kubectl's `version -o json` casing.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionInfo {
    pub git_version: String,
    pub git_commit: &'static str,
    pub git_short_commit: &'static str,
    pub git_tree_state: &'static str,
    pub build_date: &'static str,
    pub rust_version: &'static str,
    pub compiler: &'static str,
    pub platform: String,
    /// The Kubernetes API version the embedded control plane serves.
    #[serde(rename = "kubernetesAPIVersion")]
    pub kubernetes_api_version: &'static str,
    /// The upstream Karmada release whose defaults (image tags, CRDs) this build follows.
    pub karmada_release: &'static str,
}

impl VersionInfo {
    pub fn current() -> Self {
        Self {
            git_version: format!("v{}", build_info::CURRENT.version),
            git_commit: build_info::CURRENT.git_commit,
            git_short_commit: build_info::CURRENT.short_commit(),
            git_tree_state: build_info::CURRENT.git_tree_state,
            build_date: build_info::CURRENT.build_date,
            rust_version: build_info::CURRENT.rustc_version,
            compiler: "rustc",
            platform: build_info::platform(),
            kubernetes_api_version: karmadactl_karmada_api::wellknown::KUBERNETES_API_VERSION,
            karmada_release: karmadactl_karmada_api::wellknown::KARMADA_RELEASE,
        }
    }

    /// Upstream's one-line form (Go's `%#v` of its version.Info), with our fields.
    pub fn line(&self, parent: &str) -> String {
        format!(
            "{parent} version: version.Info{{GitVersion:\"{}\", GitCommit:\"{}\", GitShortCommit:\"{}\", GitTreeState:\"{}\", BuildDate:\"{}\", RustVersion:\"{}\", Compiler:\"{}\", Platform:\"{}\", KubernetesAPIVersion:\"{}\", KarmadaRelease:\"{}\"}}",
            self.git_version,
            self.git_commit,
            self.git_short_commit,
            self.git_tree_state,
            self.build_date,
            self.rust_version,
            self.compiler,
            self.platform,
            self.kubernetes_api_version,
            self.karmada_release,
        )
    }
}

pub fn run(args: VersionArgs, ctx: &Context) -> anyhow::Result<()> {
    let info = VersionInfo::current();
    let text = match args.output.as_deref() {
        None | Some("") => format!("{}\n", info.line(ctx.parent())),
        Some(value) => {
            let format = OutputFormat::parse_allowed(value, OutputFormat::JSON_OR_YAML)?;
            crate::output::to_format(format, &info)?
        }
    };
    ctx.printer.data(&text)?;
    Ok(())
}
