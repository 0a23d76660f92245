//! `create secret tls NAME --cert --key`: a `kubernetes.io/tls` Secret from a PEM certificate
//! and its private key, refused unless the key matches the certificate, as kubectl builds it.

use clap::Args;
use karmadactl_pki::{PrivateKey, go_pem_blocks};
use serde_json::Map;

use super::secret::{add, secret};
use crate::cmd::create::generate::{Generated, Inputs};
use crate::cmd::create::key_sources;
use crate::cmd::create::send::CreateFlags;

/// Create a TLS secret from the given public/private key pair.
///
/// The public/private key pair must exist beforehand. The public key certificate must be .PEM
/// encoded and match the given private key.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create secret tls NAME --cert=path/to/cert/file --key=path/to/key/file [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a new TLS secret named tls-secret with the given key pair\n  karmadactl create secret tls tls-secret --cert=path/to/tls.crt --key=path/to/tls.key"
)]
pub struct TlsArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// Path to PEM encoded public key certificate.
    #[arg(long, value_name = "PATH")]
    pub cert: Option<String>,

    /// Path to private key associated with given certificate.
    #[arg(long, value_name = "PATH")]
    pub key: Option<String>,

    /// Append a hash of the secret to its name.
    #[arg(long)]
    pub append_hash: bool,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// kubectl's `Validate`: both files are named.
pub fn validate(args: &TlsArgs) -> anyhow::Result<()> {
    if args.cert.as_deref().unwrap_or_default().is_empty() || args.key.as_deref().unwrap_or_default().is_empty() {
        anyhow::bail!("key and cert must be specified");
    }
    Ok(())
}

/// kubectl's `readFile`.
fn read(path: &str) -> anyhow::Result<Vec<u8>> {
    key_sources::read_file(std::path::Path::new(path)).map_err(|e| anyhow::anyhow!("Cannot read file {path}, {e}"))
}

/// The checks of Go's `tls.X509KeyPair` that kubectl relies on, with its words: a certificate
/// block, a key block, and the key belonging to the first certificate.
fn check_pair(cert: &[u8], key: &[u8]) -> anyhow::Result<()> {
    let blocks = go_pem_blocks(cert);
    let Some(first) = blocks.iter().find(|b| b.label == "CERTIFICATE") else {
        let skipped: Vec<&str> = blocks.iter().map(|b| b.label.as_str()).collect();
        anyhow::bail!(match skipped.as_slice() {
            [] => "tls: failed to find any PEM data in certificate input".to_string(),
            ["PRIVATE KEY"] => "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched".to_string(),
            _ => format!("tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: [{}]", skipped.join(" ")),
        });
    };
    let blocks = go_pem_blocks(key);
    if !blocks.iter().any(|b| b.label == "PRIVATE KEY" || b.label.ends_with(" PRIVATE KEY")) {
        let skipped: Vec<&str> = blocks.iter().map(|b| b.label.as_str()).collect();
        anyhow::bail!(match skipped.as_slice() {
            [] => "tls: failed to find any PEM data in key input".to_string(),
            ["CERTIFICATE"] => "tls: found a certificate rather than a key in the PEM for the private key".to_string(),
            _ => format!(
                "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after skipping PEM blocks of the following types: [{}]",
                skipped.join(" ")
            ),
        });
    }
    let key_text = std::str::from_utf8(key).unwrap_or_default();
    let key = PrivateKey::from_pem(key_text).map_err(|_| anyhow::anyhow!("tls: failed to parse private key"))?;
    match key.matches_certificate(&first.der) {
        Ok(true) => Ok(()),
        Ok(false) => anyhow::bail!("tls: private key does not match public key"),
        Err(e) => anyhow::bail!("x509: malformed certificate: {e}"),
    }
}

pub fn build(args: &TlsArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let cert = read(args.cert.as_deref().unwrap_or_default())?;
    let key = read(args.key.as_deref().unwrap_or_default())?;
    check_pair(&cert, &key)?;
    let mut data = Map::new();
    add(&mut data, "tls.crt".into(), &cert)?;
    add(&mut data, "tls.key".into(), &key)?;
    Ok(secret(inputs, "kubernetes.io/tls".into(), data, args.append_hash))
}
