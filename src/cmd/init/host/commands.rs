//! The container commands of the components, with upstream's exact default arguments
//! (§3.11), merged with the `--<component>-extra-args`.

use super::extra_args::merge;
use super::settings::{Part, Settings};

const PKI: &str = "/etc/karmada/pki";
const KARMADA_CONFIG: &str = "/etc/karmada/config/karmada.config";

/// Go's preferred TLS 1.2 cipher suites, as upstream passes them to etcd.
const ETCD_CIPHER_SUITES: &str = "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305";

/// The full command of `part`'s container.
pub fn command(settings: &Settings, part: Part) -> Vec<String> {
    let (binary, defaults) = defaults(settings, part);
    merge(binary, &defaults, &settings.part(part).extra_args)
}

fn pki(file: &str) -> String {
    format!("{PKI}/{file}")
}

/// The etcd flags both API servers share.
fn etcd_client_args(settings: &Settings) -> Vec<String> {
    let mut args = vec![
        format!("--etcd-cafile={}", pki("etcd-ca.crt")),
        format!("--etcd-certfile={}", pki("etcd-client.crt")),
        format!("--etcd-keyfile={}", pki("etcd-client.key")),
        format!("--etcd-servers={}", settings.etcd_servers()),
    ];
    if let Some(prefix) = settings.etcd_key_prefix() {
        args.push(format!("--etcd-prefix={prefix}"));
    }
    args
}

fn defaults(settings: &Settings, part: Part) -> (&'static str, Vec<String>) {
    let ns = &settings.namespace;
    let domain = &settings.cluster_domain;
    let s = |x: &str| x.to_string();
    match part {
        Part::Etcd => {
            let suffix = settings.svc_suffix();
            let initial = (0..settings.etcd_replicas())
                .map(|i| format!("etcd-{i}=http://etcd-{i}.etcd.{suffix}:2380"))
                .collect::<Vec<_>>()
                .join(",");
            (
                "/usr/local/bin/etcd",
                vec![
                    s("--name=$(POD_NAME)"),
                    s("--listen-peer-urls=http://$(POD_IP):2380"),
                    s("--listen-client-urls=https://$(POD_IP):2379,http://127.0.0.1:2379"),
                    s("--listen-metrics-urls=http://$(POD_IP):2381"),
                    format!("--advertise-client-urls=https://$(POD_NAME).etcd.{suffix}:2379"),
                    format!("--initial-cluster={initial}"),
                    s("--initial-cluster-state=new"),
                    s("--client-cert-auth=true"),
                    format!("--cert-file={}", pki("etcd-server.crt")),
                    format!("--key-file={}", pki("etcd-server.key")),
                    format!("--trusted-ca-file={}", pki("etcd-ca.crt")),
                    s("--data-dir=/var/lib/karmada-etcd"),
                    format!("--cipher-suites={ETCD_CIPHER_SUITES}"),
                    s("--initial-cluster-token=etcd-cluster"),
                    s("--initial-advertise-peer-urls=http://$(POD_IP):2380"),
                    s("--peer-client-cert-auth=false"),
                    format!("--peer-trusted-ca-file={}", pki("etcd-ca.crt")),
                    format!("--peer-key-file={}", pki("etcd-server.key")),
                    format!("--peer-cert-file={}", pki("etcd-server.crt")),
                ],
            )
        }
        Part::ApiServer => {
            let mut args = vec![
                s("--allow-privileged=true"),
                s("--authorization-mode=Node,RBAC"),
                format!("--client-ca-file={}", pki("ca.crt")),
                s("--enable-bootstrap-token-auth=true"),
            ];
            args.extend(etcd_client_args(settings));
            args.extend([
                s("--bind-address=0.0.0.0"),
                s("--disable-admission-plugins=StorageObjectInUseProtection,ServiceAccount"),
                s("--runtime-config="),
                format!("--apiserver-count={}", settings.part(Part::ApiServer).replicas),
                s("--secure-port=5443"),
                format!("--service-account-issuer=https://kubernetes.default.svc.{domain}"),
                format!("--service-account-key-file={}", pki("karmada.key")),
                format!("--service-account-signing-key-file={}", pki("karmada.key")),
                s("--service-cluster-ip-range=10.96.0.0/12"),
                format!("--proxy-client-cert-file={}", pki("front-proxy-client.crt")),
                format!("--proxy-client-key-file={}", pki("front-proxy-client.key")),
                s("--requestheader-allowed-names=front-proxy-client"),
                format!("--requestheader-client-ca-file={}", pki("front-proxy-ca.crt")),
                s("--requestheader-extra-headers-prefix=X-Remote-Extra-"),
                s("--requestheader-group-headers=X-Remote-Group"),
                s("--requestheader-username-headers=X-Remote-User"),
                format!("--tls-cert-file={}", pki("apiserver.crt")),
                format!("--tls-private-key-file={}", pki("apiserver.key")),
                s("--tls-min-version=VersionTLS13"),
                s("--v=2"),
            ]);
            ("kube-apiserver", args)
        }
        Part::AggregatedApiServer => {
            let mut args = vec![
                format!("--kubeconfig={KARMADA_CONFIG}"),
                format!("--authentication-kubeconfig={KARMADA_CONFIG}"),
                format!("--authorization-kubeconfig={KARMADA_CONFIG}"),
            ];
            args.extend(etcd_client_args(settings).into_iter().filter(|a| !a.starts_with("--etcd-prefix=")));
            args.extend([
                format!("--tls-cert-file={}", pki("karmada.crt")),
                format!("--tls-private-key-file={}", pki("karmada.key")),
                s("--tls-min-version=VersionTLS13"),
                s("--audit-log-path=-"),
                s("--audit-log-maxage=0"),
                s("--audit-log-maxbackup=0"),
                s("--bind-address=$(POD_IP)"),
                s("--v=2"),
            ]);
            if let Some(prefix) = settings.etcd_key_prefix() {
                args.push(format!("--etcd-prefix={prefix}"));
            }
            ("/bin/karmada-aggregated-apiserver", args)
        }
        Part::KubeControllerManager => (
            "kube-controller-manager",
            vec![
                s("--allocate-node-cidrs=true"),
                format!("--kubeconfig={KARMADA_CONFIG}"),
                format!("--authentication-kubeconfig={KARMADA_CONFIG}"),
                format!("--authorization-kubeconfig={KARMADA_CONFIG}"),
                s("--bind-address=0.0.0.0"),
                format!("--client-ca-file={}", pki("ca.crt")),
                s("--cluster-cidr=10.244.0.0/16"),
                s("--cluster-name=karmada-apiserver"),
                format!("--cluster-signing-cert-file={}", pki("ca.crt")),
                format!("--cluster-signing-key-file={}", pki("ca.key")),
                s(
                    "--controllers=namespace,garbagecollector,serviceaccount-token,ttl-after-finished,bootstrapsigner,tokencleaner,csrcleaner,csrsigning,clusterrole-aggregation",
                ),
                s("--leader-elect=true"),
                format!("--leader-elect-resource-namespace={ns}"),
                s("--node-cidr-mask-size=24"),
                format!("--root-ca-file={}", pki("ca.crt")),
                format!("--service-account-private-key-file={}", pki("karmada.key")),
                s("--service-cluster-ip-range=10.96.0.0/12"),
                s("--use-service-account-credentials=true"),
                s("--v=2"),
            ],
        ),
        Part::Scheduler => (
            "/bin/karmada-scheduler",
            vec![
                format!("--kubeconfig={KARMADA_CONFIG}"),
                s("--metrics-bind-address=$(POD_IP):8080"),
                s("--health-probe-bind-address=$(POD_IP):10351"),
                s("--enable-scheduler-estimator=true"),
                s("--leader-elect=true"),
                format!("--scheduler-estimator-ca-file={}", pki("ca.crt")),
                format!("--scheduler-estimator-cert-file={}", pki("karmada.crt")),
                format!("--scheduler-estimator-key-file={}", pki("karmada.key")),
                format!("--leader-elect-resource-namespace={ns}"),
                s("--v=2"),
            ],
        ),
        Part::ControllerManager => (
            "/bin/karmada-controller-manager",
            vec![
                format!("--kubeconfig={KARMADA_CONFIG}"),
                s("--metrics-bind-address=$(POD_IP):8080"),
                s("--health-probe-bind-address=$(POD_IP):10357"),
                s("--cluster-status-update-frequency=10s"),
                format!("--leader-elect-resource-namespace={ns}"),
                s("--v=2"),
            ],
        ),
        Part::Webhook => (
            "/bin/karmada-webhook",
            vec![
                format!("--kubeconfig={KARMADA_CONFIG}"),
                s("--bind-address=$(POD_IP)"),
                s("--metrics-bind-address=$(POD_IP):8080"),
                s("--health-probe-bind-address=$(POD_IP):8000"),
                s("--secure-port=8443"),
                s("--cert-dir=/var/serving-cert"),
                s("--v=2"),
            ],
        ),
    }
}
