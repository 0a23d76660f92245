//! Kubernetes name rules used before anything is sent: cluster names (the DNS-1123 label
//! rule itself is `karmadactl_apimachinery`'s).
//! Messages follow k8s.io/apimachinery's validation wording, since users know them.

use karmadactl_apimachinery::is_dns1123_label_without_dots_hint as dns1123_label;
use karmadactl_karmada_api::wellknown::MAX_CLUSTER_NAME_LEN;

/// Validates a member cluster name as join, register and unregister do upstream: not empty,
/// at most 48 characters, a DNS-1123 label. The error reads `invalid cluster name(<n>): <why>`.
pub fn cluster_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("cluster name is required".to_string());
    }
    let mut errs = Vec::new();
    if name.len() > MAX_CLUSTER_NAME_LEN {
        errs.push(format!("must be no more than {MAX_CLUSTER_NAME_LEN} characters"));
    }
    errs.extend(dns1123_label(name).into_iter().filter(|e| !e.starts_with("must be no more")));
    if errs.is_empty() { Ok(()) } else { Err(format!("invalid cluster name({name}): {}", errs.join("; "))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_names() {
        assert!(cluster_name("member1").is_ok());
        assert!(cluster_name(&"a".repeat(48)).is_ok());
        assert_eq!(
            cluster_name(&"a".repeat(49)).unwrap_err(),
            format!("invalid cluster name({}): must be no more than 48 characters", "a".repeat(49))
        );
        assert!(
            cluster_name("member.1").unwrap_err().starts_with("invalid cluster name(member.1): a lowercase RFC 1123")
        );
        assert_eq!(cluster_name("").unwrap_err(), "cluster name is required");
    }
}
