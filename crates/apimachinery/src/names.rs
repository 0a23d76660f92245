//! String format checks from k8s.io/apimachinery/pkg/util/validation, with its exact messages.
//!
//! Each check returns every reason the value is invalid; empty means valid. Lengths are in
//! bytes, as Go's `len` counts them.

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// Maximum length of a DNS-1123 label (and of namespaces, label values, qualified-name parts).
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
/// Maximum length of a DNS-1123 subdomain.
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;

/// `must be no more than N characters` (validation.MaxLenError).
pub fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// validation.RegexError: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')`.
/// The double space after each comma is upstream's.
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{fmt}')"));
    out
}

/// Matches `^[first][mid]*[last]$`-shaped patterns (single characters allowed when `first`
/// and `last` both accept them), the shape of every regex in this file.
fn shaped(v: &str, first: fn(u8) -> bool, mid: fn(u8) -> bool, last: fn(u8) -> bool) -> bool {
    let b = v.as_bytes();
    match b {
        [] => false,
        [only] => first(*only) && last(*only),
        [f, rest @ .., l] => first(*f) && last(*l) && rest.iter().all(|c| mid(*c)),
    }
}

fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}
fn lower_alnum_dash(c: u8) -> bool {
    lower_alnum(c) || c == b'-'
}
fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}
fn qname_ext(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')
}

fn matches_dns1123_label(v: &str) -> bool {
    shaped(v, lower_alnum, lower_alnum_dash, lower_alnum)
}

fn matches_dns1123_subdomain(v: &str) -> bool {
    v.split('.').all(matches_dns1123_label)
}

/// Whether `v` matches the qualified-name / label-key name regex.
fn matches_qualified_name(v: &str) -> bool {
    shaped(v, alnum, qname_ext, alnum)
}

/// validation.IsDNS1123Label.
pub fn is_dns1123_label(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !matches_dns1123_label(v) {
        if matches_dns1123_subdomain(v) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, &["my-name", "123-abc"]));
        }
    }
    errs
}

/// validation.IsDNS1123Label as apimachinery spelled it before it told dotted values "must
/// not contain dots": a dotted value gets the regex message. Upstream karmadactl (and its
/// agent's registration checks) vendor that wording, so the commands and the plane's checks
/// that follow them keep it; the API server's own checks use [`is_dns1123_label`].
pub fn is_dns1123_label_without_dots_hint(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !matches_dns1123_label(v) {
        errs.push(regex_error(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, &["my-name", "123-abc"]));
    }
    errs
}

/// validation.IsDNS1123Subdomain.
pub fn is_dns1123_subdomain(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !matches_dns1123_subdomain(v) {
        errs.push(regex_error(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// validation.IsDNS1035Label.
pub fn is_dns1035_label(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !shaped(v, |c| c.is_ascii_lowercase(), lower_alnum_dash, lower_alnum) {
        errs.push(regex_error(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, &["my-name", "abc-123"]));
    }
    errs
}

/// validation.IsQualifiedName: label keys, annotation keys, finalizers. Wording as in
/// Kubernetes 1.33 ("a qualified name ..." for too many slashes).
pub fn is_qualified_name(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = v.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(is_dns1123_subdomain(prefix).into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(format!("name part {}", max_len_error(DNS1123_LABEL_MAX_LENGTH)));
    }
    if !matches_qualified_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// validation.IsValidLabelValue.
pub fn is_valid_label_value(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !(v.is_empty() || matches_qualified_name(v)) {
        errs.push(regex_error(LABEL_VALUE_ERR, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    errs
}

/// path.IsValidPathSegmentName: names that must be safe as one URL path segment.
pub fn is_valid_path_segment_name(v: &str) -> Vec<String> {
    if v == "." || v == ".." {
        return vec![format!("may not be '{v}'")];
    }
    is_valid_path_segment_prefix(v)
}

/// path.IsValidPathSegmentPrefix: like [`is_valid_path_segment_name`] without the `.`/`..` rule.
pub fn is_valid_path_segment_prefix(v: &str) -> Vec<String> {
    ["/", "%"].iter().filter(|bad| v.contains(**bad)).map(|bad| format!("may not contain '{bad}'")).collect()
}

/// validation's maskTrailingDash for generateName prefixes. Upstream drops the last *two*
/// bytes before appending `a`; that quirk is kept so the same prefixes pass. A lone `-`
/// (where Go would panic) becomes `a`.
pub(crate) fn mask_trailing_dash(name: &str) -> String {
    match name.strip_suffix('-') {
        Some(_) if name.len() >= 2 => {
            // Cut on a char boundary: Go cuts bytes, which can only matter for non-ASCII
            // input that fails validation either way.
            let mut cut = name.len() - 2;
            while !name.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}a", &name[..cut])
        }
        Some(_) => "a".to_string(),
        None => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_without_dots_hint() {
        assert!(is_dns1123_label_without_dots_hint("member1").is_empty());
        assert!(is_dns1123_label_without_dots_hint("a").is_empty());
        assert!(is_dns1123_label_without_dots_hint("a-b-1").is_empty());
        assert_eq!(is_dns1123_label_without_dots_hint("Member1").len(), 1);
        assert_eq!(is_dns1123_label_without_dots_hint("-a").len(), 1);
        assert_eq!(is_dns1123_label_without_dots_hint("a-").len(), 1);
        assert_eq!(is_dns1123_label_without_dots_hint("member.1").len(), 1);
        assert_eq!(is_dns1123_label_without_dots_hint("member.1"), is_dns1123_label("Member1"), "the regex message");
        for v in ["ok", "-x", "x-", "X", "", "a_b"] {
            assert_eq!(is_dns1123_label(v), is_dns1123_label_without_dots_hint(v), "{v}");
        }
        assert_eq!(is_dns1123_label_without_dots_hint("").len(), 1);
        assert_eq!(
            is_dns1123_label_without_dots_hint(&"a".repeat(64)),
            vec!["must be no more than 63 characters".to_string()]
        );
    }

    #[test]
    fn dns_labels() {
        assert!(is_dns1123_label("a-1").is_empty());
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(
            is_dns1123_label("A"),
            vec![
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start \
                 and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert_eq!(is_dns1123_label(&"a".repeat(64)), vec!["must be no more than 63 characters"]);
        assert!(is_dns1035_label("a1").is_empty());
        assert_eq!(is_dns1035_label("1a").len(), 1);
    }

    #[test]
    fn subdomains() {
        assert!(is_dns1123_subdomain("example.com").is_empty());
        assert_eq!(
            is_dns1123_subdomain("Example.com"),
            vec![
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and \
                 must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ]
        );
        assert_eq!(is_dns1123_subdomain("a..b").len(), 1);
        assert_eq!(is_dns1123_subdomain(&"a".repeat(254)), vec!["must be no more than 253 characters"]);
    }

    #[test]
    fn qualified_names() {
        for ok in ["a", "A_b.c-D", "example.com/x", "k8s.io/My_Name"] {
            assert!(is_qualified_name(ok).is_empty(), "{ok}");
        }
        assert_eq!(is_qualified_name("/a"), vec!["prefix part must be non-empty"]);
        assert_eq!(is_qualified_name("a/").len(), 2);
        assert!(is_qualified_name("a/").contains(&"name part must be non-empty".to_string()));
        assert!(is_qualified_name("a/b/c")[0].starts_with("a qualified name must consist of"));
        assert!(is_qualified_name("Ex.com/a")[0].starts_with("prefix part a lowercase RFC 1123 subdomain"));
        assert_eq!(is_qualified_name(&"a".repeat(64)), vec!["name part must be no more than 63 characters"]);
        assert!(is_qualified_name("-a")[0].starts_with("name part must consist of alphanumeric characters"));
    }

    #[test]
    fn label_values() {
        assert!(is_valid_label_value("").is_empty());
        assert!(is_valid_label_value("a.b_c-D").is_empty());
        assert_eq!(
            is_valid_label_value("-a"),
            vec![
                "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and \
                 must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', \
                 regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
            ]
        );
    }

    #[test]
    fn path_segments() {
        assert_eq!(is_valid_path_segment_name(".."), vec!["may not be '..'"]);
        assert_eq!(is_valid_path_segment_name("a/b%c"), vec!["may not contain '/'", "may not contain '%'"]);
        assert!(is_valid_path_segment_prefix(".").is_empty());
        assert!(is_valid_path_segment_name("a:b").is_empty());
    }

    #[test]
    fn trailing_dash() {
        assert_eq!(mask_trailing_dash("abc-"), "aba");
        assert_eq!(mask_trailing_dash("-"), "a");
        assert_eq!(mask_trailing_dash("abc"), "abc");
        assert_eq!(mask_trailing_dash("é-"), "a");
    }
}
