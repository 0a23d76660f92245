//! CertificateSigningRequest validation as kube-apiserver's (pkg/apis/certificates/validation):
//! the request and signer on every write, and on updates the condition and certificate rules
//! that keep approving (`/approval`) apart from issuing (`/status`): no write removes an
//! Approved, Denied or Failed condition, only `/approval` adds or changes Approved and Denied,
//! only `/status` sets the certificate, which must be PEM CERTIFICATE blocks and, once set,
//! never changes.

use base64::Engine as _;
use serde_json::{Value, json};

use super::access::{list_at, str_at};
use super::field::{FieldError, child, go_quote, index};
use super::names;

const CONDITIONS: &str = "status.conditions";
const CERTIFICATE: &str = "status.certificate";
/// Condition types whose only allowed status is True.
const TRUE_ONLY_TYPES: [&str; 3] = ["Approved", "Denied", "Failed"];

/// Checks a CertificateSigningRequest's spec: a PEM request and a signer name.
pub fn csr(obj: &Value, errs: &mut Vec<FieldError>) {
    // k8s-openapi has already checked the base64; decode again to look at the PEM.
    let request = str_at(obj, &["spec", "request"]).unwrap_or_default();
    let pem = base64::engine::general_purpose::STANDARD.decode(request).unwrap_or_default();
    if request.is_empty() {
        errs.push(FieldError::required("spec.request", ""));
    } else if !String::from_utf8_lossy(&pem).contains("-----BEGIN CERTIFICATE REQUEST-----") {
        errs.push(FieldError::invalid_raw("spec.request", "[]byte{...}", "PEM block type must be CERTIFICATE REQUEST"));
    }
    if str_at(obj, &["spec", "signerName"]).is_none_or(str::is_empty) {
        errs.push(FieldError::required("spec.signerName", ""));
    }
}

/// Key usages kube knows, sorted as its messages list them.
const KNOWN_USAGES: [&str; 23] = [
    "any",
    "cert sign",
    "client auth",
    "code signing",
    "content commitment",
    "crl sign",
    "data encipherment",
    "decipher only",
    "digital signature",
    "email protection",
    "encipher only",
    "ipsec end system",
    "ipsec tunnel",
    "ipsec user",
    "key agreement",
    "key encipherment",
    "microsoft sgc",
    "netscape sgc",
    "ocsp signing",
    "s/mime",
    "server auth",
    "signing",
    "timestamping",
];
const LEGACY_SIGNER: &str = "kubernetes.io/legacy-unknown";
/// kube's longest domain (a DNS subdomain) and signer name (domain, `/`, namespace, `.`, name).
const MAX_SIGNER_DOMAIN: usize = 253;
const MAX_SIGNER_NAME: usize = MAX_SIGNER_DOMAIN + 253 + 63 + 1 + 1;

/// kube's create checks of the spec beyond [`csr`]: known usages, each once; a signer name of
/// the form `example.com/name`, not the legacy one; at least ten minutes asked for. Updates keep
/// the stored spec, whatever it holds (kube tolerates there what the stored object already has).
pub fn csr_create(obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let usages = list_at(obj, &["spec", "usages"]);
    if usages.is_empty() {
        errs.push(FieldError::required("spec.usages", ""));
    }
    for (i, usage) in usages.iter().enumerate() {
        if !KNOWN_USAGES.contains(&usage.as_str().unwrap_or_default()) {
            errs.push(FieldError::not_supported(index("spec.usages", i), usage, &KNOWN_USAGES));
        }
    }
    for (i, usage) in usages.iter().enumerate() {
        if usages[..i].contains(usage) {
            errs.push(FieldError::duplicate(index("spec.usages", i), usage));
        }
    }
    match str_at(obj, &["spec", "signerName"]).unwrap_or_default() {
        // [`csr`] reports a missing signer.
        "" => {}
        LEGACY_SIGNER => errs.push(FieldError::invalid(
            "spec.signerName",
            &json!(LEGACY_SIGNER),
            "the legacy signerName is not allowed via this API version",
        )),
        signer => signer_name(signer, &mut errs),
    }
    if let Some(seconds) = obj.pointer("/spec/expirationSeconds").and_then(Value::as_i64)
        && seconds < 600
    {
        let why = "may not specify a duration less than 600 seconds (10 minutes)";
        errs.push(FieldError::invalid("spec.expirationSeconds", &json!(seconds), why));
    }
    errs
}

/// kube's `ValidateSignerName`: a DNS domain of at least two labels, `/`, then DNS subdomains
/// separated by dots.
fn signer_name(signer: &str, errs: &mut Vec<FieldError>) {
    const PATH: &str = "spec.signerName";
    let Some((domain, name)) = signer.split_once('/').filter(|(_, name)| !name.contains('/')) else {
        let why = "must be a fully qualified domain and path of the form 'example.com/signer-name'";
        errs.push(FieldError::invalid(PATH, &json!(signer), why));
        return;
    };
    if domain.len() > MAX_SIGNER_DOMAIN {
        errs.push(FieldError::too_long(PATH, MAX_SIGNER_DOMAIN));
    }
    // Only the first bad label of each part is reported; the others would read the same.
    let labels: Vec<&str> = domain.split('.').collect();
    if let Some((label, problems)) = labels.iter().map(|l| (l, names::dns1123_label(l))).find(|(_, p)| !p.is_empty()) {
        for problem in problems {
            let why = format!("validating label {}: {problem}", go_quote(label));
            errs.push(FieldError::invalid(PATH, &json!(domain), why));
        }
    }
    if labels.len() < 2 {
        let why = "should be a domain with at least two segments separated by dots";
        errs.push(FieldError::invalid(PATH, &json!(domain), why));
    }
    let parts = name.split('.').map(|l| (l, names::dns1123_subdomain(l)));
    if let Some((label, problems)) = parts.into_iter().find(|(_, p)| !p.is_empty()) {
        for problem in problems {
            let why = format!("validating label {}: {problem}", go_quote(label));
            errs.push(FieldError::invalid(PATH, &json!(name), why));
        }
    }
    if signer.len() > MAX_SIGNER_NAME {
        errs.push(FieldError::too_long(PATH, MAX_SIGNER_NAME));
    }
}

/// The write an update is: to the object itself, to `/status` or to `/approval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsrWrite {
    Object,
    Status,
    Approval,
}

impl CsrWrite {
    /// The write for a subresource name (`""` for the object itself).
    pub fn of(subresource: &str) -> Self {
        match subresource {
            "status" => Self::Status,
            "approval" => Self::Approval,
            _ => Self::Object,
        }
    }
}

/// What an update may do, as kube's `certificateValidationOptions`: the subresource decides
/// what may be set; problems the stored object already has are tolerated, not made worse.
struct Options {
    setting_approval_conditions: bool,
    setting_certificate: bool,
    both_approved_and_denied: bool,
    duplicate_condition_types: bool,
    empty_condition_type: bool,
    arbitrary_certificate: bool,
}

impl Options {
    fn new(write: CsrWrite, old: &Value, new: &Value) -> Self {
        let types: Vec<&str> = conditions(old).iter().map(condition_type).collect();
        let (old_cert, new_cert) = (certificate(old), certificate(new));
        Self {
            setting_approval_conditions: write == CsrWrite::Approval,
            setting_certificate: write == CsrWrite::Status,
            both_approved_and_denied: types.contains(&"Approved") && types.contains(&"Denied"),
            duplicate_condition_types: types.iter().enumerate().any(|(i, t)| types[..i].contains(t)),
            empty_condition_type: types.contains(&""),
            // An update that leaves the certificate alone, or a stored one kube would refuse today.
            arbitrary_certificate: old_cert == new_cert || certificate_problem(&old_cert).is_some(),
        }
    }
}

/// kube's update validation of a CSR, `old` being the stored object and `new` what the write
/// would store (after the subresource kept what it may not change).
pub fn csr_update(write: CsrWrite, old: &Value, new: &Value) -> Vec<FieldError> {
    let opts = Options::new(write, old, new);
    let mut errs = Vec::new();
    condition_rules(new, &opts, &mut errs);
    if !opts.arbitrary_certificate
        && let Some(problem) = certificate_problem(&certificate(new))
    {
        errs.push(FieldError::invalid_raw(CERTIFICATE, go_quote("<certificate data>"), problem));
    }
    let count = |obj: &Value, type_: &str| conditions(obj).iter().filter(|c| condition_type(c) == type_).count();
    for type_ in TRUE_ONLY_TYPES {
        if count(new, type_) < count(old, type_) {
            let why = format!("updates may not remove a condition of type {}", go_quote(type_));
            errs.push(FieldError::forbidden(CONDITIONS, why));
        }
    }
    if !opts.setting_approval_conditions {
        // Writes other than /approval keep the stored Approved and Denied instances (see the
        // strategy), so only an added one is left to refuse here.
        for type_ in ["Approved", "Denied"] {
            if count(new, type_) > count(old, type_) {
                let why = format!("updates may not add a condition of type {}", go_quote(type_));
                errs.push(FieldError::forbidden(CONDITIONS, why));
            }
        }
    }
    let (old_cert, new_cert) = (certificate(old), certificate(new));
    if old_cert != new_cert {
        if !opts.setting_certificate {
            errs.push(FieldError::forbidden(CERTIFICATE, "updates may not set certificate content"));
        } else if !old_cert.is_empty() {
            errs.push(FieldError::forbidden(CERTIFICATE, "updates may not modify existing certificate content"));
        }
    }
    errs
}

/// kube's `validateConditions`: a type and a status on each, True only for Approved, Denied and
/// Failed, not both Approved and Denied, no type twice.
fn condition_rules(obj: &Value, opts: &Options, errs: &mut Vec<FieldError>) {
    let mut seen: Vec<&str> = Vec::new();
    let (mut approved, mut denied) = (false, false);
    for (i, c) in conditions(obj).iter().enumerate() {
        let path = index(CONDITIONS, i);
        let type_ = condition_type(c);
        if !opts.empty_condition_type && type_.is_empty() {
            errs.push(FieldError::required(child(&path, "type"), ""));
        }
        let allowed: &[&str] = if TRUE_ONLY_TYPES.contains(&type_) { &["True"] } else { &["False", "True", "Unknown"] };
        let status = str_at(c, &["status"]).unwrap_or_default();
        if status.is_empty() {
            errs.push(FieldError::required(child(&path, "status"), ""));
        } else if !allowed.contains(&status) {
            errs.push(FieldError::not_supported(child(&path, "status"), &json!(status), allowed));
        }
        if !opts.both_approved_and_denied {
            let conflict = match type_ {
                "Approved" => {
                    approved = true;
                    denied
                }
                "Denied" => {
                    denied = true;
                    approved
                }
                _ => false,
            };
            if conflict {
                let why = "Approved and Denied conditions are mutually exclusive";
                errs.push(FieldError::invalid(child(&path, "type"), &json!(type_), why));
            }
        }
        if !opts.duplicate_condition_types {
            if seen.contains(&type_) {
                errs.push(FieldError::duplicate(child(&path, "type"), &json!(type_)));
            }
            seen.push(type_);
        }
    }
}

/// kube's `validateCertificate`: empty, or PEM holding only CERTIFICATE blocks without
/// headers, each with at least one certificate that parses.
fn certificate_problem(pem: &[u8]) -> Option<String> {
    if pem.is_empty() {
        return None;
    }
    let blocks = karmadactl_pki::go_pem_blocks(pem);
    for block in &blocks {
        if block.label != "CERTIFICATE" {
            return Some(format!("only CERTIFICATE PEM blocks are allowed, found {}", go_quote(&block.label)));
        }
        if block.has_headers {
            return Some("no PEM block headers are permitted".into());
        }
        match karmadactl_pki::count_der_certificates(&block.der) {
            // Go's parser words every structural failure of the outer DER this way.
            Err(_) => return Some("x509: malformed certificate".into()),
            Ok(0) => return Some("found CERTIFICATE PEM block containing 0 certificates".into()),
            Ok(_) => {}
        }
    }
    blocks.is_empty().then(|| "must contain at least one CERTIFICATE PEM block".into())
}

fn conditions(obj: &Value) -> &[Value] {
    list_at(obj, &["status", "conditions"])
}

fn condition_type(c: &Value) -> &str {
    str_at(c, &["type"]).unwrap_or_default()
}

/// The certificate bytes (`status.certificate` is base64 in JSON); absent and empty are alike,
/// as Go's `bytes.Equal` has them.
fn certificate(obj: &Value) -> Vec<u8> {
    let text = str_at(obj, &["status", "certificate"]).unwrap_or_default();
    base64::engine::general_purpose::STANDARD.decode(text).unwrap_or_else(|_| text.as_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs(errs: Vec<FieldError>) -> Vec<String> {
        errs.iter().map(FieldError::message).collect()
    }

    fn with(conditions: Value, certificate: &[u8]) -> Value {
        let cert = base64::engine::general_purpose::STANDARD.encode(certificate);
        json!({"spec": {}, "status": {"conditions": conditions, "certificate": cert}})
    }

    fn ca_pem(name: &str) -> String {
        let validity = karmadactl_pki::Validity::from_now(std::time::Duration::from_secs(3600)).unwrap();
        let spec = karmadactl_pki::CaSpec::new(name, validity);
        karmadactl_pki::CertificateAuthority::generate(&spec).unwrap().cert_pem().to_string()
    }

    fn approved() -> Value {
        json!({"type": "Approved", "status": "True", "reason": "OK"})
    }

    #[test]
    fn approval_conditions_are_the_approval_subresource_s() {
        let pending = with(json!([]), b"");
        let flipped = with(json!([{"type": "Denied", "status": "True"}]), b"");
        let old = with(json!([approved()]), b"");
        assert_eq!(
            msgs(csr_update(CsrWrite::Status, &old, &flipped)),
            [
                "status.conditions: Forbidden: updates may not remove a condition of type \"Approved\"",
                "status.conditions: Forbidden: updates may not add a condition of type \"Denied\""
            ]
        );
        assert_eq!(
            msgs(csr_update(CsrWrite::Approval, &old, &flipped)),
            ["status.conditions: Forbidden: updates may not remove a condition of type \"Approved\""]
        );
        assert!(csr_update(CsrWrite::Approval, &pending, &old).is_empty());
        let both = with(json!([approved(), {"type": "Denied", "status": "True"}, approved()]), b"");
        assert_eq!(
            msgs(csr_update(CsrWrite::Approval, &old, &both)),
            [
                "status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied conditions are mutually exclusive",
                "status.conditions[2].type: Invalid value: \"Approved\": Approved and Denied conditions are mutually exclusive",
                "status.conditions[2].type: Duplicate value: \"Approved\""
            ]
        );
        // What the stored object already breaks stays tolerated.
        assert!(csr_update(CsrWrite::Approval, &both, &both).is_empty());
    }

    #[test]
    fn create_checks_usages_signer_and_duration() {
        let spec = |spec: Value| msgs(csr_create(&json!({"spec": spec})));
        assert!(
            spec(json!({"signerName": "example.com/a.b", "usages": ["client auth"], "expirationSeconds": 600}))
                .is_empty()
        );
        assert_eq!(
            spec(json!({"signerName": "example.com/x", "usages": ["client auth", "flying", "client auth"], "expirationSeconds": 60})),
            [
                format!("spec.usages[1]: Unsupported value: \"flying\": supported values: {}", KNOWN_USAGES.map(go_quote).join(", ")),
                "spec.usages[2]: Duplicate value: \"client auth\"".to_string(),
                "spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)".to_string()
            ]
        );
        assert_eq!(spec(json!({"signerName": "example.com/x"})), ["spec.usages: Required value"]);
        let signer = |name: &str| spec(json!({"signerName": name, "usages": ["any"]}));
        assert_eq!(
            signer(LEGACY_SIGNER),
            [
                "spec.signerName: Invalid value: \"kubernetes.io/legacy-unknown\": the legacy signerName is not allowed via this API version"
            ]
        );
        assert_eq!(
            signer("example.com"),
            [
                "spec.signerName: Invalid value: \"example.com\": must be a fully qualified domain and path of the form 'example.com/signer-name'"
            ]
        );
        assert_eq!(
            signer("example/x"),
            [
                "spec.signerName: Invalid value: \"example\": should be a domain with at least two segments separated by dots"
            ]
        );
        let bad = signer("Example.com/x_y");
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(
            bad[0].starts_with("spec.signerName: Invalid value: \"Example.com\": validating label \"Example\": "),
            "{bad:?}"
        );
        assert!(bad[1].starts_with("spec.signerName: Invalid value: \"x_y\": validating label \"x_y\": "), "{bad:?}");
    }

    #[test]
    fn condition_fields() {
        let bad = with(
            json!([{"type": "Approved", "status": "False"}, {"type": "", "status": ""}, {"type": "Custom", "status": "Maybe"}]),
            b"",
        );
        assert_eq!(
            msgs(csr_update(CsrWrite::Approval, &with(json!([]), b""), &bad)),
            [
                "status.conditions[0].status: Unsupported value: \"False\": supported values: \"True\"",
                "status.conditions[1].type: Required value",
                "status.conditions[1].status: Required value",
                "status.conditions[2].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\""
            ]
        );
    }

    #[test]
    fn certificate_content() {
        let cert = ca_pem("one");
        let old = with(json!([approved()]), b"");
        let set = |pem: &str| msgs(csr_update(CsrWrite::Status, &old, &with(json!([approved()]), pem.as_bytes())));
        assert!(set(&cert).is_empty());
        assert!(set(&format!("leading text\n{cert}{cert}")).is_empty());
        let invalid = |why: &str| vec![format!("status.certificate: Invalid value: \"<certificate data>\": {why}")];
        assert_eq!(set("not pem"), invalid("must contain at least one CERTIFICATE PEM block"));
        let request = "-----BEGIN CERTIFICATE REQUEST-----\nAAEC\n-----END CERTIFICATE REQUEST-----\n";
        assert_eq!(set(request), invalid("only CERTIFICATE PEM blocks are allowed, found \"CERTIFICATE REQUEST\""));
        let headers = cert.replacen("-----\n", "-----\nKey: value\n\n", 1);
        assert_eq!(set(&headers), invalid("no PEM block headers are permitted"));
        assert_eq!(
            set("-----BEGIN CERTIFICATE-----\nAAEC\n-----END CERTIFICATE-----\n"),
            invalid("x509: malformed certificate")
        );
        assert_eq!(
            set("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n"),
            invalid("found CERTIFICATE PEM block containing 0 certificates")
        );

        let issued = with(json!([approved()]), cert.as_bytes());
        let modify = "status.certificate: Forbidden: updates may not modify existing certificate content";
        for changed in [with(json!([approved()]), ca_pem("two").as_bytes()), with(json!([approved()]), b"")] {
            assert_eq!(msgs(csr_update(CsrWrite::Status, &issued, &changed)), [modify]);
        }
        let set_elsewhere = "status.certificate: Forbidden: updates may not set certificate content";
        assert_eq!(msgs(csr_update(CsrWrite::Approval, &old, &issued)), [set_elsewhere]);
        // Unchanged content is not checked again.
        let odd = with(json!([approved()]), b"not pem");
        assert!(csr_update(CsrWrite::Status, &odd, &odd).is_empty());
    }
}
