//! `create configmap NAME`: keys from literals, files, directories and env files, as kubectl
//! builds the ConfigMap (text in `data`, other bytes in `binaryData`), `--append-hash` too.

use base64::Engine;
use clap::Args;
use serde_json::{Map, Value, json};

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::key_sources::{self, Content};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a config map based on a file, directory, or specified literal value.
///
/// A single config map may package one or more key/value pairs.
///
/// When creating a config map based on a file, the key will default to the basename of the
/// file, and the value will default to the file content. If the basename is an invalid key,
/// you may specify an alternate key.
///
/// When creating a config map based on a directory, each file whose basename is a valid key in
/// the directory will be packaged into the config map. Any directory entries except regular
/// files are ignored (e.g. subdirectories, symlinks, devices, pipes, etc).
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create configmap NAME [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a new config map named my-config based on folder bar\n  karmadactl create configmap my-config --from-file=path/to/bar\n\n  # Create a new config map named my-config with specified keys instead of file basenames on disk\n  karmadactl create configmap my-config --from-file=key1=/path/to/bar/file1.txt --from-file=key2=/path/to/bar/file2.txt\n\n  # Create a new config map named my-config with key1=config1 and key2=config2\n  karmadactl create configmap my-config --from-literal=key1=config1 --from-literal=key2=config2\n\n  # Create a new config map named my-config from the key=value pairs in the file\n  karmadactl create configmap my-config --from-file=path/to/bar\n\n  # Create a new config map named my-config from an env file\n  karmadactl create configmap my-config --from-env-file=path/to/foo.env --from-env-file=path/to/bar.env"
)]
pub struct ConfigMapArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// Key file can be specified using its file path, in which case file basename will be used
    /// as configmap key, or optionally with a key and file path, in which case the given key
    /// will be used. Specifying a directory will iterate each named file in the directory whose
    /// basename is a valid configmap key.
    #[arg(long, value_delimiter = ',', value_name = "[KEY=]SOURCE")]
    pub from_file: Vec<String>,

    /// Specify a key and literal value to insert in configmap (i.e. mykey=somevalue)
    #[arg(long, value_name = "KEY=VALUE")]
    pub from_literal: Vec<String>,

    /// Specify the path to a file to read lines of key=val pairs to create a configmap.
    #[arg(long, value_delimiter = ',', value_name = "PATH")]
    pub from_env_file: Vec<String>,

    /// Append a hash of the configmap to its name.
    #[arg(long)]
    pub append_hash: bool,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// The keys so far, checked as kubectl's `validateNewConfigMap` checks each new one.
struct Keys<'a> {
    name: &'a str,
    data: Map<String, Value>,
    binary: Map<String, Value>,
}

impl Keys<'_> {
    fn add(&mut self, key: String, content: Content) -> anyhow::Result<()> {
        let errs = key_sources::config_map_key_errors(&key);
        if !errs.is_empty() {
            anyhow::bail!("{key:?} is not a valid key name for a ConfigMap: {}", errs.join(","));
        }
        if self.data.contains_key(&key) {
            anyhow::bail!(
                "cannot add key {key:?}, another key by that name already exists in Data for ConfigMap {:?}",
                self.name
            );
        }
        if self.binary.contains_key(&key) {
            anyhow::bail!(
                "cannot add key {key:?}, another key by that name already exists in BinaryData for ConfigMap {:?}",
                self.name
            );
        }
        match content {
            Content::Text(t) => self.data.insert(key, Value::String(t)),
            Content::Binary(b) => {
                self.binary.insert(key, Value::String(base64::engine::general_purpose::STANDARD.encode(b)))
            }
        };
        Ok(())
    }
}

pub fn build(args: &ConfigMapArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    if !args.from_env_file.is_empty() && (!args.from_file.is_empty() || !args.from_literal.is_empty()) {
        anyhow::bail!("from-env-file cannot be combined with from-file or from-literal");
    }
    let mut keys = Keys { name: &inputs.name, data: Map::new(), binary: Map::new() };
    for source in &args.from_file {
        for (key, content) in key_sources::files(source).map_err(anyhow::Error::msg)? {
            keys.add(key, content)?;
        }
    }
    for source in &args.from_literal {
        let (key, value) = key_sources::literal(source).map_err(anyhow::Error::msg)?;
        keys.add(key, Content::Text(value))?;
    }
    for path in &args.from_env_file {
        let pairs = key_sources::env_file(path, "env config file cannot be a directory").map_err(anyhow::Error::msg)?;
        for (key, value) in pairs {
            keys.add(key, Content::Text(value))?;
        }
    }
    let mut name = inputs.name.clone();
    if args.append_hash {
        // kubectl's encodeConfigMap: a Go map, so its keys are sorted.
        let mut encoded = json!({"kind": "ConfigMap", "name": name, "data": keys.data});
        if !keys.binary.is_empty() {
            encoded["binaryData"] = Value::Object(keys.binary.clone());
        }
        name = format!("{name}-{}", key_sources::name_hash(crate::output::to_compact_go_json(&encoded).trim_end()));
    }
    let mut object = typed("v1", "ConfigMap", &name, inputs.object_namespace());
    if !keys.data.is_empty() {
        object["data"] = Value::Object(keys.data);
    }
    if !keys.binary.is_empty() {
        object["binaryData"] = Value::Object(keys.binary);
    }
    Ok(Generated {
        resource: Resource::new("", "v1", "configmaps", "ConfigMap", true),
        object,
        failure: Some("failed to create configmap: ".into()),
    })
}
