//! The agent deployed into the member as upstream's register deploys it (steps 7 and 8): its
//! namespace, the Secret with its kubeconfig for the plane, its RBAC in the member and the
//! `karmada-agent` Deployment with upstream's arguments.

use serde_json::{Value, json};

pub const AGENT_NAME: &str = "karmada-agent";
pub const AGENT_SERVICE_ACCOUNT: &str = "karmada-agent-sa";
pub const KUBECONFIG_SECRET: &str = "karmada-kubeconfig";
const KUBECONFIG_MOUNT: &str = "/etc/kubeconfig";

/// What the Deployment's arguments are made of.
#[derive(Debug, Clone)]
pub struct AgentDeployment {
    pub namespace: String,
    pub cluster_name: String,
    pub cluster_namespace: String,
    pub member_endpoint: String,
    pub provider: String,
    pub region: String,
    pub zones: Vec<String>,
    pub cert_rotation: bool,
    pub proxy_server_address: String,
    pub image: String,
    pub replicas: i32,
}

fn labels() -> Value {
    json!({karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM: "true"})
}

pub fn namespace(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels()}})
}

/// The Secret, ClusterRole, ServiceAccount, ClusterRoleBinding and Deployment, in creation order.
pub fn objects(d: &AgentDeployment, agent_kubeconfig: &str) -> Vec<Value> {
    let ns = &d.namespace;
    let controllers = if d.cert_rotation { "*,certRotation" } else { "*" };
    let command = vec![
        "/bin/karmada-agent".to_string(),
        format!("--karmada-kubeconfig={KUBECONFIG_MOUNT}/{KUBECONFIG_SECRET}"),
        format!("--cluster-name={}", d.cluster_name),
        format!("--cluster-api-endpoint={}", d.member_endpoint),
        format!("--cluster-provider={}", d.provider),
        format!("--cluster-region={}", d.region),
        format!("--cluster-zones={}", d.zones.join(",")),
        format!("--controllers={controllers}"),
        format!("--proxy-server-address={}", d.proxy_server_address),
        format!("--leader-elect-resource-namespace={ns}"),
        format!("--cluster-namespace={}", d.cluster_namespace),
        "--cluster-status-update-frequency=10s".to_string(),
        "--metrics-bind-address=:8080".to_string(),
        "--health-probe-bind-address=0.0.0.0:10357".to_string(),
        "--v=2".to_string(),
    ];
    vec![
        json!({"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
            "metadata": {"name": KUBECONFIG_SECRET, "namespace": ns, "labels": labels()},
            "stringData": {KUBECONFIG_SECRET: agent_kubeconfig}}),
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": AGENT_NAME, "labels": labels()},
        "rules": [
            {"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]},
            {"nonResourceURLs": ["*"], "verbs": ["get"]},
        ]}),
        json!({"apiVersion": "v1", "kind": "ServiceAccount",
            "metadata": {"name": AGENT_SERVICE_ACCOUNT, "namespace": ns, "labels": labels()}}),
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
            "metadata": {"name": AGENT_NAME, "labels": labels()},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": AGENT_NAME},
            "subjects": [{"kind": "ServiceAccount", "name": AGENT_SERVICE_ACCOUNT, "namespace": ns}]}),
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": AGENT_NAME, "namespace": ns, "labels": {"app": AGENT_NAME, karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM: "true"}},
        "spec": {
            "replicas": d.replicas,
            "selector": {"matchLabels": {"app": AGENT_NAME}},
            "template": {
                "metadata": {"labels": {"app": AGENT_NAME}},
                "spec": {
                    "serviceAccountName": AGENT_SERVICE_ACCOUNT,
                    "tolerations": [{"key": "node-role.kubernetes.io/master", "operator": "Exists"}],
                    "containers": [{
                        "name": AGENT_NAME,
                        "image": d.image,
                        "command": command,
                        "ports": [{"name": "metrics", "containerPort": 8080, "protocol": "TCP"}],
                        "volumeMounts": [{"name": "kubeconfig", "mountPath": KUBECONFIG_MOUNT}],
                    }],
                    "volumes": [{"name": "kubeconfig", "secret": {"secretName": KUBECONFIG_SECRET}}],
                }
            }
        }}),
    ]
}
