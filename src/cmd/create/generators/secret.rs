//! `create secret generic NAME`: an (Opaque unless `--type`) Secret from literals, files,
//! directories and env files, as kubectl builds it, and the Secret every `create secret`
//! builds.

use base64::Engine;
use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};

pub use super::secret_docker_registry::DockerRegistryArgs;
pub use super::secret_tls::TlsArgs;
use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::key_sources::{self, Content};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a secret with specified type.
///
/// A docker-registry type secret is for accessing a container registry.
///
/// A generic type secret indicate an Opaque secret type.
///
/// A tls type secret holds TLS certificate and its associated key.
#[derive(Debug, Args)]
#[command(override_usage = "karmadactl create secret (docker-registry | generic | tls)", arg_required_else_help = true)]
pub struct SecretArgs {
    #[command(subcommand)]
    pub kind: SecretKind,
}

#[derive(Debug, Subcommand)]
pub enum SecretKind {
    Generic(Box<GenericArgs>),
    #[command(name = "docker-registry")]
    DockerRegistry(Box<DockerRegistryArgs>),
    Tls(Box<TlsArgs>),
}

/// Create a secret based on a file, directory, or specified literal value.
///
/// A single secret may package one or more key/value pairs.
///
/// When creating a secret based on a file, the key will default to the basename of the file,
/// and the value will default to the file content. If the basename is an invalid key or you
/// wish to chose your own, you may specify an alternate key.
///
/// When creating a secret based on a directory, each file whose basename is a valid key in the
/// directory will be packaged into the secret. Any directory entries except regular files are
/// ignored (e.g. subdirectories, symlinks, devices, pipes, etc).
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create secret generic NAME [--type=string] [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a new secret named my-secret with keys for each file in folder bar\n  karmadactl create secret generic my-secret --from-file=path/to/bar\n\n  # Create a new secret named my-secret with specified keys instead of names on disk\n  karmadactl create secret generic my-secret --from-file=ssh-privatekey=path/to/id_rsa --from-file=ssh-publickey=path/to/id_rsa.pub\n\n  # Create a new secret named my-secret with key1=supersecret and key2=topsecret\n  karmadactl create secret generic my-secret --from-literal=key1=supersecret --from-literal=key2=topsecret\n\n  # Create a new secret named my-secret using a combination of a file and a literal\n  karmadactl create secret generic my-secret --from-file=ssh-privatekey=path/to/id_rsa --from-literal=passphrase=topsecret\n\n  # Create a new secret named my-secret from env files\n  karmadactl create secret generic my-secret --from-env-file=path/to/foo.env --from-env-file=path/to/bar.env"
)]
pub struct GenericArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// Key files can be specified using their file path, in which case a default name will be
    /// given to them, or optionally with a name and file path, in which case the given name
    /// will be used. Specifying a directory will iterate each named file in the directory that
    /// is a valid secret key.
    #[arg(long, value_delimiter = ',', value_name = "[KEY=]SOURCE")]
    pub from_file: Vec<String>,

    /// Specify a key and literal value to insert in secret (i.e. mykey=somevalue)
    #[arg(long, value_name = "KEY=VALUE")]
    pub from_literal: Vec<String>,

    /// Specify the path to a file to read lines of key=val pairs to create a secret.
    #[arg(long, value_delimiter = ',', value_name = "PATH")]
    pub from_env_file: Vec<String>,

    /// The type of secret to create
    #[arg(long = "type", value_name = "TYPE")]
    pub secret_type: Option<String>,

    /// Append a hash of the secret to its name.
    #[arg(long)]
    pub append_hash: bool,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// kubectl's `addKeyFromLiteralToSecret`.
pub(super) fn add(data: &mut Map<String, Value>, key: String, bytes: &[u8]) -> anyhow::Result<()> {
    let errs = key_sources::config_map_key_errors(&key);
    if !errs.is_empty() {
        anyhow::bail!("{key:?} is not valid key name for a Secret {}", errs.join(";"));
    }
    if data.contains_key(&key) {
        anyhow::bail!("cannot add key {key}, another key by that name already exists");
    }
    data.insert(key, Value::String(base64::engine::general_purpose::STANDARD.encode(bytes)));
    Ok(())
}

/// kubectl's `handleSecretFromFileSources`: each `[key=]path`'s files.
pub(super) fn add_files(data: &mut Map<String, Value>, sources: &[String]) -> anyhow::Result<()> {
    for source in sources {
        for (key, content) in key_sources::files(source).map_err(anyhow::Error::msg)? {
            match content {
                Content::Text(t) => add(data, key, t.as_bytes())?,
                Content::Binary(b) => add(data, key, &b)?,
            }
        }
    }
    Ok(())
}

pub fn build(args: &GenericArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    if !args.from_env_file.is_empty() && (!args.from_file.is_empty() || !args.from_literal.is_empty()) {
        anyhow::bail!("from-env-file cannot be combined with from-file or from-literal");
    }
    let mut data = Map::new();
    for source in &args.from_literal {
        let (key, value) = key_sources::literal(source).map_err(anyhow::Error::msg)?;
        add(&mut data, key, value.as_bytes())?;
    }
    add_files(&mut data, &args.from_file)?;
    for path in &args.from_env_file {
        let pairs = key_sources::env_file(path, "env secret file cannot be a directory").map_err(anyhow::Error::msg)?;
        for (key, value) in pairs {
            add(&mut data, key, value.as_bytes())?;
        }
    }
    Ok(secret(inputs, args.secret_type.clone().unwrap_or_default(), data, args.append_hash))
}

/// kubectl's `newSecretObj` with `data` (base64 already) filled in, named with the hash of its
/// content appended when asked.
pub fn secret(inputs: &Inputs, secret_type: String, data: Map<String, Value>, append_hash: bool) -> Generated {
    let mut name = inputs.name.clone();
    if append_hash {
        // kubectl's encodeSecret: a Go map, so its keys are sorted.
        let encoded = json!({"kind": "Secret", "type": secret_type, "name": name, "data": data});
        name = format!("{name}-{}", key_sources::name_hash(crate::output::to_compact_go_json(&encoded).trim_end()));
    }
    let mut object = typed("v1", "Secret", &name, inputs.object_namespace());
    if !data.is_empty() {
        object["data"] = Value::Object(data);
    }
    if !secret_type.is_empty() {
        object["type"] = Value::String(secret_type);
    }
    Generated {
        resource: Resource::new("", "v1", "secrets", "Secret", true),
        object,
        failure: Some("failed to create secret ".into()),
    }
}
