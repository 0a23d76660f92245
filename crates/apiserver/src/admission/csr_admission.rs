//! kube-apiserver's certificate admission plugins for CertificateSigningRequests
//! (plugin/pkg/admission/certificates/{approval,signing,subjectrestriction}): approving needs
//! `approve` on the signer, issuing needs `sign` on it, and nobody may ask the client signer
//! for a `system:masters` certificate.

use base64::Engine as _;
use karmadactl_apimachinery::{ApiError, go_quote};
use karmadactl_pki::signer::{KUBE_APISERVER_CLIENT_SIGNER, masters_refusal, requests_masters};
use serde_json::Value;

use crate::auth::{Attributes, UserInfo, authorize};
use crate::registry::{CsrWrite, ResourceDef, csr_create, csr_update};

use crate::admission::CSR;
use crate::filters::dispatch::Call;
use crate::state::ApiState;
use crate::storage::object;

/// Runs the plugins on a create (`old` is `None`) or update of a CSR, after validation.
pub fn check(
    state: &ApiState,
    def: &ResourceDef,
    call: &Call,
    old: Option<&Value>,
    new: &Value,
) -> Result<(), ApiError> {
    if (def.group.as_str(), def.plural.as_str()) != CSR {
        return Ok(());
    }
    check_validation(def, &call.info.subresource, old, new)?;
    let forbidden = |why: String| {
        ApiError::forbidden_message(&def.group, &def.plural, object::meta_str(new, "name").unwrap_or_default(), &why)
    };
    match (call.info.subresource.as_str(), old) {
        ("", None) => subject_restriction(new).map_err(forbidden),
        ("approval", Some(_)) => {
            // The signer name cannot change, so the new object's is the one approved.
            let signer = signer_of(new);
            if authorized_for_signer(state, &call.user, "approve", signer) {
                return Ok(());
            }
            Err(forbidden(format!("user not permitted to approve requests with signerName {}", go_quote(signer))))
        }
        ("status", Some(old)) => {
            let status = |obj: &Value, field: &str| obj.get("status").and_then(|s| s.get(field)).cloned();
            if status(old, "certificate") == status(new, "certificate")
                && status(old, "conditions") == status(new, "conditions")
            {
                return Ok(());
            }
            let signer = signer_of(old);
            if authorized_for_signer(state, &call.user, "sign", signer) {
                return Ok(());
            }
            Err(forbidden(format!("user not permitted to sign requests with signerName {}", go_quote(signer))))
        }
        _ => Ok(()),
    }
}

/// kube's CSR validation that needs to know the write, which runs before the plugins: the spec
/// rules on create; on update, only `/approval` decides, only `/status` issues, and an issued
/// certificate stays as it is.
fn check_validation(def: &ResourceDef, subresource: &str, old: Option<&Value>, new: &Value) -> Result<(), ApiError> {
    let errs = match old {
        None => csr_create(new),
        Some(old) => csr_update(CsrWrite::of(subresource), old, new),
    };
    if errs.is_empty() {
        return Ok(());
    }
    let causes = errs.iter().map(crate::admission::validation::to_cause).collect();
    Err(ApiError::invalid(&def.group, &def.kind, object::meta_str(new, "name").unwrap_or_default(), causes))
}

/// CertificateSubjectRestriction: the client signer never gets a request for `system:masters`.
fn subject_restriction(csr: &Value) -> Result<(), String> {
    if signer_of(csr) != KUBE_APISERVER_CLIENT_SIGNER {
        return Ok(());
    }
    let request = csr.pointer("/spec/request").and_then(Value::as_str).unwrap_or_default();
    let pem = base64::engine::general_purpose::STANDARD.decode(request).unwrap_or_default();
    let info = karmadactl_pki::inspect_csr(&String::from_utf8_lossy(&pem))
        .map_err(|e| format!("failed to parse CSR: {}", karmadactl_apimachinery::with_causes(&e)))?;
    if requests_masters(&info.subject.organizations) {
        return Err(masters_refusal());
    }
    Ok(())
}

/// kube's `IsAuthorizedForSignerName`: `verb` on `certificates.k8s.io/signers` named by the
/// signer, or by its domain with `/*` (`example.com/*` for `example.com/foo`).
fn authorized_for_signer(state: &ApiState, user: &UserInfo, verb: &str, signer: &str) -> bool {
    let snapshot = state.rbac();
    let domain = signer.split('/').next().unwrap_or_default();
    [signer.to_string(), format!("{domain}/*")].into_iter().any(|name| {
        let attrs = Attributes::resource(user, verb, CSR.0, "signers", "", &name);
        authorize(&snapshot, &attrs).is_allowed()
    })
}

fn signer_of(csr: &Value) -> &str {
    csr.pointer("/spec/signerName").and_then(Value::as_str).unwrap_or_default()
}
