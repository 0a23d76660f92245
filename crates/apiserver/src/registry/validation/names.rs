//! Name and key syntax checks from k8s.io/apimachinery/pkg/util/validation, with its messages.

/// Longest DNS-1123 / DNS-1035 label.
pub const LABEL_MAX: usize = 63;
/// Longest DNS-1123 subdomain.
pub const SUBDOMAIN_MAX: usize = 253;
/// Longest ConfigMap/Secret key.
pub const CONFIG_KEY_MAX: usize = 253;

const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', \
and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is \
'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \
'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is \
'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start \
with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for \
validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const CONFIG_KEY_MSG: &str = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. \
'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

fn max_len(value: &str, max: usize) -> Option<String> {
    (value.len() > max).then(|| format!("must be no more than {max} characters"))
}

fn lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

fn is_label_body(value: &str) -> bool {
    let b = value.as_bytes();
    !b.is_empty() && lower_alnum(b[0]) && lower_alnum(b[b.len() - 1]) && b.iter().all(|&c| lower_alnum(c) || c == b'-')
}

/// RFC 1123 label (`[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63); empty when valid.
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errs: Vec<String> = max_len(value, LABEL_MAX).into_iter().collect();
    if !is_label_body(value) {
        errs.push(DNS1123_LABEL_MSG.to_string());
    }
    errs
}

/// RFC 1123 subdomain (dot-separated labels, at most 253); empty when valid.
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs: Vec<String> = max_len(value, SUBDOMAIN_MAX).into_iter().collect();
    if !value.split('.').all(is_label_body) {
        errs.push(DNS1123_SUBDOMAIN_MSG.to_string());
    }
    errs
}

/// RFC 1035 label (starts with a letter, at most 63); empty when valid.
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errs: Vec<String> = max_len(value, LABEL_MAX).into_iter().collect();
    if !(is_label_body(value) && value.as_bytes()[0].is_ascii_lowercase()) {
        errs.push(DNS1035_LABEL_MSG.to_string());
    }
    errs
}

/// A name usable as one URL path segment (RBAC objects); empty when valid.
pub fn path_segment(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    match value {
        "." | ".." => errs.push(format!("may not be '{value}'")),
        _ => {
            for bad in ["/", "%"] {
                if value.contains(bad) {
                    errs.push(format!("may not contain '{bad}'"));
                }
            }
        }
    }
    errs
}

/// A ConfigMap/Secret data key (`[-._a-zA-Z0-9]+`, not `.`/`..`); empty when valid.
pub fn config_key(value: &str) -> Vec<String> {
    let mut errs: Vec<String> = max_len(value, CONFIG_KEY_MAX).into_iter().collect();
    let charset = !value.is_empty() && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b));
    if !charset {
        errs.push(CONFIG_KEY_MSG.to_string());
    }
    if value == "." {
        errs.push("must not be '.'".to_string());
    } else if value == ".." {
        errs.push("must not be '..'".to_string());
    } else if value.starts_with("..") {
        errs.push("must not start with '..'".to_string());
    }
    errs
}

/// An IANA service name, used for named container and target ports; empty when valid.
pub fn port_name(value: &str) -> Vec<String> {
    let mut errs: Vec<String> = max_len(value, 15).into_iter().collect();
    if !value.bytes().all(|b| lower_alnum(b) || b == b'-') {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string());
    }
    if value.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if !value.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if value.starts_with('-') || value.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

/// A qualified name such as a label key: optional DNS subdomain prefix and `/`, then a name of
/// at most 63 characters of `[A-Za-z0-9_.-]` that starts and ends alphanumeric.
pub fn qualified_name(value: &str) -> Vec<String> {
    const MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end \
with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is \
'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let (prefix, name) = match value.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, value),
    };
    let mut errs = Vec::new();
    if let Some(p) = prefix {
        if p.is_empty() {
            errs.push("prefix part must be non-empty".to_string());
        } else {
            errs.extend(dns1123_subdomain(p).into_iter().map(|e| format!("prefix part {e}")));
        }
    }
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
        return errs;
    }
    if name.len() > LABEL_MAX {
        errs.push(format!("name part must be no more than {LABEL_MAX} characters"));
    }
    let b = name.as_bytes();
    let ok = b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(c));
    if !ok {
        errs.push(MSG.to_string());
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_subdomains() {
        assert!(dns1123_label("a-1").is_empty());
        assert_eq!(dns1123_label("A").len(), 1);
        assert_eq!(dns1123_label(&"a".repeat(64)).len(), 1);
        assert!(dns1123_subdomain("a.b-c.d").is_empty());
        assert_eq!(dns1123_subdomain("a..b").len(), 1);
        assert!(dns1035_label("abc-1").is_empty());
        assert_eq!(dns1035_label("1abc").len(), 1);
    }

    #[test]
    fn keys_and_segments() {
        assert!(config_key("a.b_C-1").is_empty());
        assert_eq!(config_key("a b").len(), 1);
        assert_eq!(config_key(".."), vec!["must not be '..'".to_string()]);
        assert!(path_segment("system:admin").is_empty());
        assert_eq!(path_segment("a/b"), vec!["may not contain '/'".to_string()]);
        assert!(port_name("http").is_empty());
        assert!(!port_name("80").is_empty());
        assert!(qualified_name("app.kubernetes.io/name").is_empty());
        assert!(!qualified_name("-bad").is_empty());
    }
}
