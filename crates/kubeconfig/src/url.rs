//! Server URLs for kubeconfigs: IPv6 literals need brackets before the port.

use std::net::Ipv6Addr;

/// `https://<host>:<port>`, with an IPv6 literal put in brackets (`https://[::1]:5443`).
/// A host that is already bracketed, a DNS name or an IPv4 address is used as is.
pub fn https_server_url(host: &str, port: u16) -> String {
    if host.parse::<Ipv6Addr>().is_ok() { format!("https://[{host}]:{port}") } else { format!("https://{host}:{port}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_gets_brackets() {
        assert_eq!(https_server_url("::1", 5443), "https://[::1]:5443");
        assert_eq!(https_server_url("fd00:10::2", 32443), "https://[fd00:10::2]:32443");
    }

    #[test]
    fn ipv4_names_and_bracketed_hosts_are_kept() {
        assert_eq!(https_server_url("172.18.0.3", 6443), "https://172.18.0.3:6443");
        assert_eq!(
            https_server_url("karmada-apiserver.karmada-system.svc", 5443),
            "https://karmada-apiserver.karmada-system.svc:5443"
        );
        assert_eq!(https_server_url("[::1]", 5443), "https://[::1]:5443");
    }
}
