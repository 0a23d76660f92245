//! What `init` prints after success: upstream's banner (separator, logo, the two ways to
//! register a member), filled with this plane's real paths, token and CA hash.

use serde::Serialize;

const SEPARATOR: &str =
    "------------------------------------------------------------------------------------------------------";

const LOGO: &str = r" █████   ████   █████████   ███████████   ██████   ██████   █████████   ██████████     █████████
░░███   ███░   ███░░░░░███ ░░███░░░░░███ ░░██████ ██████   ███░░░░░███ ░░███░░░░███   ███░░░░░███
 ░███  ███    ░███    ░███  ░███    ░███  ░███░█████░███  ░███    ░███  ░███   ░░███ ░███    ░███
 ░███████     ░███████████  ░██████████   ░███░░███ ░███  ░███████████  ░███    ░███ ░███████████
 ░███░░███    ░███░░░░░███  ░███░░░░░███  ░███ ░░░  ░███  ░███░░░░░███  ░███    ░███ ░███░░░░░███
 ░███ ░░███   ░███    ░███  ░███    ░███  ░███      ░███  ░███    ░███  ░███    ███  ░███    ░███
 █████ ░░████ █████   █████ █████   █████ █████     █████ █████   █████ ██████████   █████   █████
░░░░░   ░░░░ ░░░░░   ░░░░░ ░░░░░   ░░░░░ ░░░░░     ░░░░░ ░░░░░   ░░░░░ ░░░░░░░░░░   ░░░░░   ░░░░░";

/// The facts init reports; `-o json|yaml` prints exactly these.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitResult {
    pub mode: &'static str,
    pub data_dir: String,
    pub pki_dir: String,
    pub kubeconfig: String,
    pub server: String,
    pub pid: u32,
    pub log_file: String,
    pub already_running: bool,
    /// PKI files created by this run; the rest were reused.
    pub created_certificates: Vec<String>,
    pub reused: Vec<String>,
    pub token: String,
    pub token_expires: String,
    pub ca_cert_hash: String,
    pub join_command: String,
    pub register_command: String,
}

/// Quotes a word for a POSIX shell when it needs it, so printed commands paste safely.
pub fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./:=@,+%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

pub fn join_command(parent: &str, kubeconfig: &str) -> String {
    format!(
        "{parent} --kubeconfig {} join ${{MEMBER_CLUSTER_NAME}} --cluster-kubeconfig=$HOME/.kube/config",
        shell_word(kubeconfig)
    )
}

/// The `register` command for this plane. A plane on a loopback address is reachable from this
/// machine only, never from a Pod in a member, so its command runs the agent here
/// (`--agent-mode local`); a karmada-agent Deployment could never reach it.
pub fn register_command(parent: &str, endpoint: &str, token: &str, ca_hash: &str) -> String {
    let local = if is_loopback_endpoint(endpoint) { " --agent-mode local" } else { "" };
    format!("{parent} register {endpoint} --token {token} --discovery-token-ca-cert-hash {ca_hash}{local}")
}

/// Whether `host:port` (or `[v6]:port`) names this machine's loopback interface.
pub fn is_loopback_endpoint(endpoint: &str) -> bool {
    let host = match endpoint.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => endpoint.rsplit_once(':').map_or(endpoint, |(h, _)| h),
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// What the banner says under a register command that runs the agent here.
fn local_agent_note(register: &str) -> &'static str {
    if register.ends_with(" --agent-mode local") {
        "(The control plane listens on a loopback address, which no Pod in a member can reach: '--agent-mode local' runs\n\
         the agent built into this binary on this machine. It is also the only way for a simulated member.)\n"
    } else {
        ""
    }
}

pub fn render(result: &InitResult, parent: &str) -> String {
    let kc = shell_word(&result.kubeconfig);
    let state = if result.already_running { "already running" } else { "running" };
    format!(
        "{SEPARATOR}
{LOGO}
{SEPARATOR}
Karmada is installed successfully.

The embedded control plane is {state} on this machine:
  API server: {server}
  kubeconfig: {kubeconfig}
  process:    {pid} (logs: {log})
  data:       {data}

Register Kubernetes cluster to Karmada control plane.

Register cluster with 'Push' mode

Step 1: Use \"{parent} join\" command to register the cluster to Karmada control plane. --cluster-kubeconfig is kubeconfig of the member cluster.
(In karmada)~# MEMBER_CLUSTER_NAME=$(cat ~/.kube/config  | grep current-context | sed 's/: /\\n/g'| sed '1d')
(In karmada)~# {join}

Step 2: Show members of karmada
(In karmada)~# kubectl --kubeconfig {kc} get clusters


Register cluster with 'Pull' mode

Step 1: Use \"{parent} register\" command to register the cluster to Karmada control plane. \"--cluster-name\" is set to cluster of current-context by default.
(In member cluster)~# {register}
{note}The token expires at {expires}; make a new one with:
(In karmada)~# {parent} token create --print-register-command --kubeconfig={kc}

Step 2: Show members of karmada
(In karmada)~# kubectl --kubeconfig {kc} get clusters

See '{parent} register --help' for more options.
",
        server = result.server,
        kubeconfig = result.kubeconfig,
        pid = result.pid,
        log = result.log_file,
        data = result.data_dir,
        join = result.join_command,
        register = result.register_command,
        note = local_agent_note(&result.register_command),
        expires = result.token_expires,
    )
}

/// The banner after an install into a host cluster (upstream's text, with this install's
/// kubeconfig path).
pub fn render_host(parent: &str, kubeconfig: &str) -> String {
    let kc = shell_word(kubeconfig);
    let join = join_command(parent, kubeconfig);
    format!(
        "{SEPARATOR}
{LOGO}
{SEPARATOR}
Karmada is installed successfully.

Register Kubernetes cluster to Karmada control plane.

Register cluster with 'Push' mode

Step 1: Use \"{parent} join\" command to register the cluster to Karmada control plane. --cluster-kubeconfig is kubeconfig of the member cluster.
(In karmada)~# MEMBER_CLUSTER_NAME=$(cat ~/.kube/config  | grep current-context | sed 's/: /\\n/g'| sed '1d')
(In karmada)~# {join}

Step 2: Show members of karmada
(In karmada)~# kubectl --kubeconfig {kc} get clusters


Register cluster with 'Pull' mode

Step 1: Use \"{parent} register\" command to register the cluster to Karmada control plane. \"--cluster-name\" is set to cluster of current-context by default.
(In member cluster)~# {parent} token create --print-register-command --kubeconfig={kc}
(In member cluster)~# {parent} register <karmada-apiserver-address> --token <token> --discovery-token-ca-cert-hash <hash> --kubeconfig=<member kubeconfig>

Step 2: Show members of karmada
(In karmada)~# {parent} --kubeconfig={kc} get clusters

See '{parent} register --help' for more options.
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_needed() {
        assert_eq!(shell_word("/etc/karmada/karmada-apiserver.config"), "/etc/karmada/karmada-apiserver.config");
        assert_eq!(shell_word("/home/a b/x"), "'/home/a b/x'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn commands_name_the_kubeconfig_and_the_token() {
        assert_eq!(
            join_command("karmadactl", "/d/karmada-apiserver.config"),
            "karmadactl --kubeconfig /d/karmada-apiserver.config join ${MEMBER_CLUSTER_NAME} --cluster-kubeconfig=$HOME/.kube/config"
        );
        assert_eq!(
            register_command("kubectl karmada", "10.0.0.1:32443", "abcdef.0123456789abcdef", "sha256:00"),
            "kubectl karmada register 10.0.0.1:32443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:00"
        );
        assert_eq!(
            register_command("karmadactl", "127.0.0.1:32443", "abcdef.0123456789abcdef", "sha256:00"),
            "karmadactl register 127.0.0.1:32443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:00 --agent-mode local"
        );
    }

    #[test]
    fn only_loopback_endpoints_need_the_local_agent() {
        for e in ["127.0.0.1:5443", "127.1.2.3:1", "[::1]:5443", "localhost:5443", "LOCALHOST:1"] {
            assert!(is_loopback_endpoint(e), "{e}");
        }
        for e in ["10.0.0.1:5443", "[fd00::1]:5443", "karmada.example:443", "0.0.0.0:5443"] {
            assert!(!is_loopback_endpoint(e), "{e}");
        }
    }
}
