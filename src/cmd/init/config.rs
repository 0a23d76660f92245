//! `init --config`: a KarmadaInitConfig file applied onto the flags before validation.
//!
//! Precedence differs from upstream on purpose: a flag given on the command line wins over the
//! file, and the file wins over the flags' defaults (upstream lets the file override even an
//! explicit flag). Extra args are merged by name, the command line's winning.

use std::collections::BTreeSet;

use clap::ArgMatches;
use clap::parser::ValueSource;

use super::InitArgs;
use crate::cli::Context;
use crate::cmd::init::host::config_file::{self, InitConfig};
use crate::error::UsageError;

/// The ids of the arguments given on the command line (or the environment), not defaulted.
pub fn explicit_args(m: &ArgMatches) -> BTreeSet<String> {
    m.ids()
        .map(|id| id.as_str())
        .filter(|id| m.value_source(id).is_some_and(|s| s != ValueSource::DefaultValue))
        .map(str::to_string)
        .collect()
}

/// Reads `--config` (when given) into `args`; fields with no meaning for this mode are named
/// in one warning.
pub fn load_into(args: &mut InitArgs, ctx: &Context) -> anyhow::Result<()> {
    let Some(path) = args.config.clone() else { return Ok(()) };
    let hint = format!(
        "the file must be one {} document (apiVersion {}); '{} init --help' lists the flags its fields stand for.",
        config_file::KIND,
        config_file::API_VERSION,
        ctx.parent()
    );
    let text = std::fs::read_to_string(&path)
        .map_err(|e| UsageError::with_hint(format!("cannot read the --config file {path}: {e}"), hint.clone()))?;
    let file = config_file::parse(&text).map_err(|e| UsageError::with_hint(format!("--config {path}: {e}"), hint))?;
    let mut unused = file.unused.clone();
    let mode = if args.embedded { "init --embedded" } else { "init" };
    unused.extend(apply(args, file));
    if !unused.is_empty() {
        ctx.printer.warn(&format!("--config {path}: {mode} does not use these fields: {}", unused.join(", ")));
    }
    Ok(())
}

/// Writes one file value into a flag unless the flag was given; with `--embedded`, a value the
/// embedded plane has no use for is only recorded in `ignored`.
struct Applier<'a> {
    explicit: &'a BTreeSet<String>,
    embedded: bool,
    ignored: Vec<String>,
}

impl Applier<'_> {
    fn set<T>(&mut self, path: &str, id: &str, for_embedded: bool, slot: &mut T, value: Option<T>) {
        let Some(value) = value else { return };
        if self.embedded && !for_embedded {
            self.ignored.push(path.to_string());
        } else if !self.explicit.contains(id) {
            *slot = value;
        }
    }
}

fn some_if<T>(v: Vec<T>) -> Option<Vec<T>> {
    Some(v).filter(|v| !v.is_empty())
}

/// Applies `file` onto `args`; returns the fields ignored because of `--embedded`.
pub fn apply(args: &mut InitArgs, file: InitConfig) -> Vec<String> {
    let explicit = std::mem::take(&mut args.explicit);
    let mut a = Applier { explicit: &explicit, embedded: args.embedded, ignored: Vec::new() };
    let join = |v: Vec<String>| some_if(v).map(|v| Some(v.join(",")));
    let opt = |v: Option<String>| v.map(Some);

    a.set("spec.hostCluster.kubeconfig", "kubeconfig", false, &mut args.host.kubeconfig, opt(file.kubeconfig));
    a.set("spec.hostCluster.context", "context", false, &mut args.host.context, opt(file.context));
    a.set(
        "spec.hostCluster.domain",
        "host_cluster_domain",
        false,
        &mut args.host_cluster_domain,
        file.host_cluster_domain,
    );
    a.set(
        "spec.images.imagePullPolicy",
        "image_pull_policy",
        false,
        &mut args.image_pull_policy,
        file.image_pull_policy,
    );
    a.set(
        "spec.images.imagePullSecrets",
        "image_pull_secrets",
        false,
        &mut args.image_pull_secrets,
        some_if(file.image_pull_secrets),
    );
    a.set(
        "spec.images.kubeImageMirrorCountry",
        "kube_image_mirror_country",
        false,
        &mut args.kube_image_mirror_country,
        opt(file.kube_image_mirror_country),
    );
    a.set(
        "spec.images.kubeImageRegistry",
        "kube_image_registry",
        false,
        &mut args.kube_image_registry,
        opt(file.kube_image_registry),
    );
    a.set("spec.images.kubeImageTag", "kube_image_tag", false, &mut args.kube_image_tag, file.kube_image_tag);
    a.set(
        "spec.images.privateRegistry.registry",
        "private_image_registry",
        false,
        &mut args.private_image_registry,
        opt(file.private_image_registry),
    );
    a.set("spec.certificates.caCertFile", "ca_cert_file", false, &mut args.ca_cert_file, opt(file.ca_cert_file));
    a.set("spec.certificates.caKeyFile", "ca_key_file", false, &mut args.ca_key_file, opt(file.ca_key_file));
    a.set(
        "spec.certificates.externalDNS",
        "cert_external_dns",
        true,
        &mut args.cert_external_dns,
        join(file.cert_external_dns),
    );
    a.set(
        "spec.certificates.externalIP",
        "cert_external_ip",
        true,
        &mut args.cert_external_ip,
        join(file.cert_external_ip),
    );
    a.set(
        "spec.certificates.validityPeriod",
        "cert_validity_period",
        true,
        &mut args.cert_validity_period,
        file.cert_validity_period,
    );
    a.set("spec.etcd.local.dataPath", "etcd_data", false, &mut args.etcd_data, file.etcd_data);
    a.set("spec.etcd.local.pvcSize", "etcd_pvc_size", false, &mut args.etcd_pvc_size, file.etcd_pvc_size);
    let labels: Vec<String> = file.etcd_node_selector_labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    a.set(
        "spec.etcd.local.nodeSelectorLabels",
        "etcd_node_selector_labels",
        false,
        &mut args.etcd_node_selector_labels,
        join(labels),
    );
    a.set(
        "spec.etcd.local.storageMode",
        "etcd_storage_mode",
        false,
        &mut args.etcd_storage_mode,
        file.etcd_storage_mode,
    );
    a.set(
        "spec.etcd.local.storageClassesName",
        "storage_classes_name",
        false,
        &mut args.storage_classes_name,
        opt(file.storage_classes_name),
    );
    a.set(
        "spec.etcd.external.endpoints",
        "external_etcd_servers",
        false,
        &mut args.external_etcd_servers,
        join(file.external_etcd_servers),
    );
    a.set(
        "spec.etcd.external.caFile",
        "external_etcd_ca_cert_path",
        false,
        &mut args.external_etcd_ca_cert_path,
        opt(file.external_etcd_ca_cert_path),
    );
    a.set(
        "spec.etcd.external.certFile",
        "external_etcd_client_cert_path",
        false,
        &mut args.external_etcd_client_cert_path,
        opt(file.external_etcd_client_cert_path),
    );
    a.set(
        "spec.etcd.external.keyFile",
        "external_etcd_client_key_path",
        false,
        &mut args.external_etcd_client_key_path,
        opt(file.external_etcd_client_key_path),
    );
    a.set(
        "spec.etcd.external.keyPrefix",
        "external_etcd_key_prefix",
        false,
        &mut args.external_etcd_key_prefix,
        opt(file.external_etcd_key_prefix),
    );
    a.set(
        "spec.components.karmadaAPIServer.advertiseAddress",
        "karmada_apiserver_advertise_address",
        true,
        &mut args.karmada_apiserver_advertise_address,
        opt(file.karmada_apiserver_advertise_address),
    );
    a.set(
        "spec.components.karmadaAPIServer.networking.namespace",
        "namespace",
        false,
        &mut args.namespace,
        file.namespace,
    );
    a.set("spec.components.karmadaAPIServer.networking.port", "port", true, &mut args.port, file.port);
    a.set("spec.karmadaDataPath", "karmada_data", true, &mut args.karmada_data, opt(file.karmada_data));
    a.set("spec.karmadaPKIPath", "karmada_pki", true, &mut args.karmada_pki, opt(file.karmada_pki));
    a.set("spec.karmadaCRDs", "crds", false, &mut args.crds, file.crds);
    a.set(
        "spec.waitComponentReadyTimeout",
        "wait_component_ready_timeout",
        true,
        &mut args.wait_component_ready_timeout,
        file.wait_component_ready_timeout,
    );

    for (component, given) in args.components.settings.iter_mut() {
        let Some(from_file) = file.components.get(component.prefix) else { continue };
        let section = section_path(component.prefix);
        a.set(
            &format!("{section}.image"),
            &format!("{}-image", component.prefix),
            false,
            &mut given.image,
            from_file.image.clone(),
        );
        a.set(
            &format!("{section}.replicas"),
            &format!("{}-replicas", component.prefix),
            false,
            &mut given.replicas,
            from_file.replicas,
        );
        if from_file.extra_args.is_empty() {
            continue;
        }
        if a.embedded {
            a.ignored.push(format!("{section}.extraArgs"));
            continue;
        }
        let on_cli: BTreeSet<&str> = given
            .extra_args
            .iter()
            .filter_map(|p| p.strip_prefix("--"))
            .map(|p| p.split_once('=').map_or(p, |(k, _)| k))
            .collect();
        let added: Vec<String> = from_file
            .extra_args
            .iter()
            .filter(|(name, _)| !on_cli.contains(name.as_str()))
            .map(|(name, value)| format!("--{name}={value}"))
            .collect();
        given.extra_args.extend(added);
    }
    let ignored = a.ignored;
    args.explicit = explicit;
    ignored
}

/// Where a component's settings are in the file, for messages.
fn section_path(prefix: &str) -> String {
    match prefix {
        "etcd" => "spec.etcd.local".into(),
        "karmada-apiserver" => "spec.components.karmadaAPIServer".into(),
        "karmada-aggregated-apiserver" => "spec.components.karmadaAggregatedAPIServer".into(),
        "karmada-kube-controller-manager" => "spec.components.kubeControllerManager".into(),
        "karmada-controller-manager" => "spec.components.karmadaControllerManager".into(),
        "karmada-scheduler" => "spec.components.karmadaScheduler".into(),
        _ => "spec.components.karmadaWebhook".into(),
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use super::*;
    use crate::cli::{Cli, Command};

    /// `init` parsed as the binary does it, with the explicit flags recorded.
    fn init(argv: &[&str]) -> InitArgs {
        let matches = Cli::command().try_get_matches_from(["karmadactl", "init"].iter().chain(argv)).unwrap();
        let Some(Command::Init(mut args)) = Cli::from_arg_matches(&matches).unwrap().command else { unreachable!() };
        args.explicit = explicit_args(matches.subcommand_matches("init").unwrap());
        *args
    }

    const FILE: &str = "apiVersion: config.karmada.io/v1alpha1\nkind: KarmadaInitConfig\nspec:\n  certificates: {externalDNS: [a.example], validityPeriod: 1h}\n  karmadaDataPath: /from/file\n  components:\n    karmadaAPIServer: {networking: {namespace: ns-file, port: 31000}}\n    karmadaWebhook:\n      replicas: 2\n      extraArgs: [{name: v, value: \"1\"}, {name: x, value: \"2\"}]\n";

    #[test]
    fn explicit_flags_win_and_the_file_beats_defaults() {
        let mut args = init(&["-n", "ns-flag", "--karmada-webhook-extra-args=--v=5"]);
        let ignored = apply(&mut args, config_file::parse(FILE).unwrap());
        assert!(ignored.is_empty());
        assert_eq!(args.namespace, "ns-flag");
        assert_eq!(args.port, 31000);
        assert_eq!(args.karmada_data.as_deref(), Some("/from/file"));
        assert_eq!(args.cert_validity_period, "1h");
        let webhook = args.components.get("karmada-webhook").unwrap();
        assert_eq!(webhook.replicas, 2);
        assert_eq!(webhook.extra_args, ["--v=5", "--x=2"]);
    }

    #[test]
    fn embedded_applies_what_it_uses_and_names_the_rest() {
        let mut args = init(&["--embedded", "--port", "0"]);
        let ignored = apply(&mut args, config_file::parse(FILE).unwrap());
        assert_eq!(
            ignored,
            [
                "spec.components.karmadaAPIServer.networking.namespace",
                "spec.components.karmadaWebhook.replicas",
                "spec.components.karmadaWebhook.extraArgs"
            ]
        );
        assert_eq!(args.port, 0, "the explicit --port wins");
        assert_eq!(args.namespace, "karmada-system");
        assert_eq!(args.cert_external_dns.as_deref(), Some("a.example"));
        assert_eq!(args.karmada_data.as_deref(), Some("/from/file"));
    }
}
