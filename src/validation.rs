//! Kubernetes name rules used before anything is sent: DNS-1123 labels and cluster names.
//! Messages follow k8s.io/apimachinery's validation wording, since users know them.

use karmadactl_karmada_api::wellknown::MAX_CLUSTER_NAME_LEN;

const DNS1123_LABEL_MAX: usize = 63;

/// Checks a DNS-1123 label and returns every reason it is invalid (empty when valid).
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(format!("must be no more than {DNS1123_LABEL_MAX} characters"));
    }
    let bytes = value.as_bytes();
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let valid = !bytes.is_empty()
        && alnum(&bytes[0])
        && alnum(&bytes[bytes.len() - 1])
        && bytes.iter().all(|b| alnum(b) || *b == b'-');
    if !valid {
        errs.push(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', \
             and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', \
             regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
                .to_string(),
        );
    }
    errs
}

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
    fn labels_agree_with_apimachinery() {
        for v in ["ok", "-x", "x-", "X", "", "a_b"] {
            assert_eq!(karmadactl_apimachinery::is_dns1123_label(v), dns1123_label(v), "{v}");
        }
    }

    #[test]
    fn labels() {
        assert!(dns1123_label("member1").is_empty());
        assert!(dns1123_label("a").is_empty());
        assert!(dns1123_label("a-b-1").is_empty());
        assert_eq!(dns1123_label("Member1").len(), 1);
        assert_eq!(dns1123_label("-a").len(), 1);
        assert_eq!(dns1123_label("a-").len(), 1);
        assert_eq!(dns1123_label("member.1").len(), 1);
        assert_eq!(dns1123_label("").len(), 1);
        assert_eq!(dns1123_label(&"a".repeat(64)), vec!["must be no more than 63 characters".to_string()]);
    }

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
