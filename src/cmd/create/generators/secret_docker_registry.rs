//! `create secret docker-registry NAME`: a `kubernetes.io/dockerconfigjson` Secret from a
//! registry's credentials or from existing config files, as kubectl builds it.

use base64::Engine;
use clap::Args;
use serde::Serialize;
use serde_json::Map;

use super::secret::{add, add_files, secret};
use crate::cmd::create::generate::{Generated, Inputs};
use crate::cmd::create::send::CreateFlags;

/// The key kubectl stores the config under.
const CONFIG_KEY: &str = ".dockerconfigjson";

/// Create a new secret for use with Docker registries.
///
/// Dockercfg secrets are used to authenticate against Docker registries.
///
/// When using the Docker command line to push images, you can authenticate to a given registry
/// by running: '$ docker login DOCKER_REGISTRY_SERVER --username=DOCKER_USER
/// --password=DOCKER_PASSWORD --email=DOCKER_EMAIL'.
///
/// That produces a ~/.dockercfg file that is used by subsequent 'docker push' and 'docker pull'
/// commands to authenticate to the registry. The email address is optional.
///
/// When creating applications, you may have a Docker registry that requires authentication. In
/// order for the nodes to pull images on your behalf, they must have the credentials. You can
/// provide this information by creating a dockercfg secret and attaching it to your service
/// account.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create secret docker-registry NAME --docker-username=user --docker-password=password --docker-email=email [--docker-server=string] [--from-file=[key=]source] [--dry-run=server|client|none]",
    after_help = "Examples:\n  # If you do not already have a .dockercfg file, create a dockercfg secret directly\n  karmadactl create secret docker-registry my-secret --docker-server=DOCKER_REGISTRY_SERVER --docker-username=DOCKER_USER --docker-password=DOCKER_PASSWORD --docker-email=DOCKER_EMAIL\n\n  # Create a new secret named my-secret from ~/.docker/config.json\n  karmadactl create secret docker-registry my-secret --from-file=path/to/.docker/config.json"
)]
pub struct DockerRegistryArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// Username for Docker registry authentication
    #[arg(long, value_name = "USER")]
    pub docker_username: Option<String>,

    /// Password for Docker registry authentication
    #[arg(long, value_name = "PASSWORD")]
    pub docker_password: Option<String>,

    /// Email for Docker registry
    #[arg(long, value_name = "EMAIL")]
    pub docker_email: Option<String>,

    /// Server location for Docker registry
    #[arg(long, value_name = "SERVER", default_value = "https://index.docker.io/v1/")]
    pub docker_server: String,

    /// Key files can be specified using their file path, in which case a default name of
    /// .dockerconfigjson will be given to them, or optionally with a name and file path, in
    /// which case the given name will be used. Specifying a directory will iterate each named
    /// file in the directory that is a valid secret key. For this command, the key should
    /// always be .dockerconfigjson.
    #[arg(long, value_delimiter = ',', value_name = "[KEY=]SOURCE")]
    pub from_file: Vec<String>,

    /// Append a hash of the secret to its name.
    #[arg(long)]
    pub append_hash: bool,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// kubectl's `Validate`: config files, or a user, password and server.
pub fn validate(args: &DockerRegistryArgs) -> anyhow::Result<()> {
    let given = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    if args.from_file.is_empty()
        && (!given(&args.docker_username) || !given(&args.docker_password) || args.docker_server.is_empty())
    {
        anyhow::bail!(
            "either --from-file or the combination of --docker-username, --docker-password and --docker-server is required"
        );
    }
    Ok(())
}

/// kubectl's `DockerConfigJSON`, its fields in Go's order.
#[derive(Serialize)]
struct DockerConfig<'a> {
    auths: std::collections::BTreeMap<&'a str, Entry<'a>>,
}

#[derive(Serialize)]
struct Entry<'a> {
    #[serde(skip_serializing_if = "str::is_empty")]
    username: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    password: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    email: &'a str,
    #[serde(skip_serializing_if = "String::is_empty")]
    auth: String,
}

pub fn build(args: &DockerRegistryArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let mut data = Map::new();
    if !args.from_file.is_empty() {
        // A source without a key is stored under the config's key.
        let sources: Vec<String> = args
            .from_file
            .iter()
            .map(|s| if s.contains('=') { s.clone() } else { format!("{CONFIG_KEY}={s}") })
            .collect();
        add_files(&mut data, &sources)?;
    } else {
        let username = args.docker_username.as_deref().unwrap_or_default();
        let password = args.docker_password.as_deref().unwrap_or_default();
        let auth = base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"));
        let entry = Entry { username, password, email: args.docker_email.as_deref().unwrap_or_default(), auth };
        let config = DockerConfig { auths: [(args.docker_server.as_str(), entry)].into() };
        let encoded = crate::output::to_compact_go_json(&config);
        add(&mut data, CONFIG_KEY.into(), encoded.trim_end().as_bytes())?;
    }
    Ok(secret(inputs, "kubernetes.io/dockerconfigjson".into(), data, args.append_hash))
}
