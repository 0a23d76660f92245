//! The certificate signing request printer: signer, requester, requested duration and the
//! condition summary (`Approved,Issued`, `Denied`, `Pending`).

use jiff::Timestamp;
use serde_json::{Value, json};

use super::cells::{age, items, name, or_none, seconds, text};
use super::descriptions as d;
use super::{Column, Printer, Row};

pub const CERTIFICATE_SIGNING_REQUEST: Printer = Printer {
    group: "certificates.k8s.io",
    kind: "CertificateSigningRequest",
    columns: &[
        Column::name(),
        Column::age(),
        Column::string("SignerName", d::CSR_SPEC_SIGNER_NAME),
        Column::string("Requestor", d::CSR_SPEC_REQUEST),
        Column::string("RequestedDuration", d::CSR_SPEC_EXPIRATION_SECONDS),
        Column::string("Condition", d::CSR_STATUS_CONDITIONS),
    ],
    row: csr_row,
};

fn csr_row(obj: &Value, now: Timestamp) -> Row {
    let duration = match obj.pointer("/spec/expirationSeconds").and_then(Value::as_i64) {
        Some(s) => seconds(s),
        None => "<none>".to_string(),
    };
    Row::cells(vec![
        name(obj),
        age(obj, now),
        json!(or_none(text(obj, "/spec/signerName"))),
        json!(text(obj, "/spec/username")),
        json!(duration),
        json!(status(obj)),
    ])
}

/// `extractCSRStatus`: Denied over Approved over Pending, then `,Failed` and `,Issued`.
fn status(obj: &Value) -> String {
    let conditions = items(obj, "/status/conditions");
    let has = |t: &str| conditions.iter().any(|c| text(c, "/type") == t);
    let mut status = if has("Denied") {
        "Denied"
    } else if has("Approved") {
        "Approved"
    } else {
        "Pending"
    }
    .to_string();
    if has("Failed") {
        status.push_str(",Failed");
    }
    if !text(obj, "/status/certificate").is_empty() {
        status.push_str(",Issued");
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn condition_summary() {
        let csr = json!({"metadata": {"name": "node-csr"}, "spec": {"signerName": "kubernetes.io/kube-apiserver-client",
            "username": "system:admin", "expirationSeconds": 86400},
            "status": {"conditions": [{"type": "Approved"}], "certificate": "LS0t"}});
        let cells = (CERTIFICATE_SIGNING_REQUEST.row)(&csr, "2024-05-01T12:00:00Z".parse().unwrap()).cells;
        assert_eq!(
            cells[2..],
            [
                json!("kubernetes.io/kube-apiserver-client"),
                json!("system:admin"),
                json!("24h"),
                json!("Approved,Issued"),
            ]
        );
        assert_eq!(status(&json!({})), "Pending");
        assert_eq!(
            status(&json!({"status": {"conditions": [{"type": "Approved"}, {"type": "Denied"}, {"type": "Failed"}]}})),
            "Denied,Failed"
        );
    }
}
