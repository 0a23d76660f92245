//! kube-apiserver's CertificateSigningRequest update rules, replayed against a real plane by a
//! client-certificate user who holds everything a signer needs (update on `/status` and
//! `/approval`, `approve` and `sign` on the signers): `/status` cannot add, remove or change a
//! decision, `/approval` cannot withdraw one or record both, the certificate must be PEM
//! CERTIFICATE blocks and, once issued, never changes; a new request needs known usages and at
//! least ten minutes. Every refusal is checked for kube's
//! status code and message (through kube-rs and real kubectl) and for leaving the stored request
//! as it was; the allowed paths (approving, issuing, the plane's own signer) still work.

use std::path::PathBuf;

use crate::common::eventually;
use crate::common::plane::Plane;
use k8s_openapi::ByteString;
use k8s_openapi::api::certificates::v1::{CertificateSigningRequest, CertificateSigningRequestCondition};
use kube::api::{Patch, PatchParams, PostParams};
use kube::{Api, Client};
use serde_json::{Value, json};

const SIGNER: &str = "example.com/test";
const ISSUER: &str = "issuer";

/// The plane, the issuer's kubeconfig and a kube-rs client for the issuer, who may create,
/// read and update CSRs (and read and update their `/status` and `/approval`) and `approve` and `sign` for
/// every signer.
async fn setup() -> (Plane, PathBuf, Api<CertificateSigningRequest>) {
    let plane = Plane::start();
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "csr-issuer"},
        "rules": [
            {"apiGroups": ["certificates.k8s.io"], "resources": ["certificatesigningrequests"],
             "verbs": ["create", "get", "list", "watch", "update", "patch"]},
            {"apiGroups": ["certificates.k8s.io"],
             "resources": ["certificatesigningrequests/status", "certificatesigningrequests/approval"],
             "verbs": ["get", "update", "patch"]},
            {"apiGroups": ["certificates.k8s.io"], "resources": ["signers"],
             "resourceNames": ["example.com/*", "kubernetes.io/*"], "verbs": ["approve", "sign"]}]});
    plane.create(&role.to_string());
    plane.kubectl_ok(&["create", "clusterrolebinding", "csr-issuer", "--clusterrole=csr-issuer", "--user", ISSUER]);
    plane.wait_authorized(ISSUER, "update", "certificatesigningrequests", &["--subresource=approval"]);
    let kubeconfig = plane.cert_kubeconfig(ISSUER, &["signers"]);
    let kc = kube::config::Kubeconfig::read_from(&kubeconfig).unwrap();
    let cfg = kube::Config::from_custom_kubeconfig(kc, &Default::default()).await.unwrap();
    let api = Api::all(Client::try_from(cfg).unwrap());
    (plane, kubeconfig, api)
}

/// A PEM certificate request for CN `cn`.
fn request_pem(cn: &str) -> String {
    let key = karmadactl_pki::PrivateKey::generate(Default::default()).unwrap();
    karmadactl_pki::create_csr(&key, &karmadactl_pki::Subject::new(cn)).unwrap()
}

fn csr(name: &str, signer: &str) -> CertificateSigningRequest {
    use base64::Engine as _;
    let request = base64::engine::general_purpose::STANDARD.encode(request_pem(name));
    serde_json::from_value(json!({"metadata": {"name": name},
        "spec": {"signerName": signer, "request": request, "usages": ["digital signature", "client auth"]}}))
    .unwrap()
}

fn condition(type_: &str, status: &str, reason: &str) -> CertificateSigningRequestCondition {
    CertificateSigningRequestCondition {
        type_: type_.into(),
        status: status.into(),
        reason: Some(reason.into()),
        ..Default::default()
    }
}

/// `csr` with exactly these conditions.
fn with_conditions(
    mut csr: CertificateSigningRequest,
    conditions: Vec<CertificateSigningRequestCondition>,
) -> CertificateSigningRequest {
    csr.status.get_or_insert_with(Default::default).conditions = Some(conditions);
    csr
}

/// `csr` with this certificate content (None removes it).
fn with_certificate(mut csr: CertificateSigningRequest, pem: Option<&str>) -> CertificateSigningRequest {
    csr.status.get_or_insert_with(Default::default).certificate = pem.map(|p| ByteString(p.as_bytes().to_vec()));
    csr
}

/// A certificate from a CA of the test's own, as PEM.
fn some_certificate(cn: &str) -> String {
    use karmadactl_pki::{CaSpec, CertificateAuthority, Validity};
    let validity = Validity::from_now(std::time::Duration::from_secs(3600)).unwrap();
    CertificateAuthority::generate(&CaSpec::new(cn, validity)).unwrap().cert_pem().to_string()
}

fn refused<T: std::fmt::Debug>(result: Result<T, kube::Error>) -> (u16, String) {
    match result {
        Err(kube::Error::Api(e)) => (e.code, e.message),
        other => panic!("expected the API server to refuse, got {other:?}"),
    }
}

/// kube's 422 message for CSR `name` with these causes.
fn invalid(name: &str, causes: &[&str]) -> String {
    let listed = if causes.len() == 1 { causes[0].to_string() } else { format!("[{}]", causes.join(", ")) };
    format!("CertificateSigningRequest.certificates.k8s.io \"{name}\" is invalid: {listed}")
}

fn remove(type_: &str) -> String {
    format!("status.conditions: Forbidden: updates may not remove a condition of type \"{type_}\"")
}

fn add(type_: &str) -> String {
    format!("status.conditions: Forbidden: updates may not add a condition of type \"{type_}\"")
}

const MODIFY_CERTIFICATE: &str = "status.certificate: Forbidden: updates may not modify existing certificate content";

fn bad_certificate(why: &str) -> String {
    format!("status.certificate: Invalid value: \"<certificate data>\": {why}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_writes_cannot_decide_and_issued_certificates_stay() {
    let (plane, kubeconfig, csrs) = setup().await;
    let pp = PostParams::default();
    let created = csrs.create(&pp, &csr("target", SIGNER)).await.unwrap();
    let approve = with_conditions(created, vec![condition("Approved", "True", "Reviewed")]);
    let approved = csrs.replace_subresource("approval", "target", &pp, &approve).await.unwrap();
    // The server stamps the times the client left out.
    let stamped = &approved.status.as_ref().unwrap().conditions.as_ref().unwrap()[0];
    assert!(stamped.last_update_time.is_some() && stamped.last_transition_time.is_some(), "{stamped:?}");

    // Flip the decision to Denied, or withdraw it, through /status: real kubectl, then kube-rs.
    let flip = r#"[{"op": "replace", "path": "/status/conditions/0/type", "value": "Denied"}]"#;
    let drop = r#"[{"op": "remove", "path": "/status/conditions/0"}]"#;
    let flipped = format!(
        "The CertificateSigningRequest \"target\" is invalid: \n* {}\n* {}\n",
        remove("Approved"),
        add("Denied")
    );
    let dropped = format!("The CertificateSigningRequest \"target\" is invalid: {}\n", remove("Approved"));
    for (patch, stderr) in [(flip, flipped), (drop, dropped)] {
        let args = ["patch", "csr", "target", "--subresource=status", "--type=json", "-p", patch];
        let out = plane.kubectl_as(&kubeconfig, &args);
        assert_eq!((out.code, out.stderr.as_str()), (1, stderr.as_str()), "{}", out.stdout);
    }
    let denied = with_conditions(approved.clone(), vec![condition("Denied", "True", "Changed my mind")]);
    let (code, msg) = refused(csrs.replace_status("target", &pp, &denied).await);
    assert_eq!((code, msg), (422, invalid("target", &[&remove("Approved"), &add("Denied")])));
    let (code, msg) = refused(csrs.replace_status("target", &pp, &with_conditions(approved.clone(), vec![])).await);
    assert_eq!((code, msg), (422, invalid("target", &[&remove("Approved")])));
    // Rewording the decision through /status is dropped, as kube does: the stored one stays.
    let reworded = with_conditions(approved.clone(), vec![condition("Approved", "True", "Rewritten")]);
    let answer = csrs.replace_status("target", &pp, &reworded).await.unwrap();
    assert_eq!(answer.status, approved.status);
    let stored = csrs.get("target").await.unwrap();
    assert_eq!(
        (&stored.metadata.resource_version, &stored.status),
        (&approved.metadata.resource_version, &approved.status)
    );

    // Certificates that are not PEM CERTIFICATE blocks.
    let request = request_pem("target");
    let headers = some_certificate("x").replacen("-----\n", "-----\nProc-Type: 4,ENCRYPTED\n\n", 1);
    for (pem, why) in [
        ("not a certificate", "must contain at least one CERTIFICATE PEM block"),
        (request.as_str(), "only CERTIFICATE PEM blocks are allowed, found \"CERTIFICATE REQUEST\""),
        (headers.as_str(), "no PEM block headers are permitted"),
        ("-----BEGIN CERTIFICATE-----\nAAEC\n-----END CERTIFICATE-----\n", "x509: malformed certificate"),
    ] {
        let (code, msg) =
            refused(csrs.replace_status("target", &pp, &with_certificate(approved.clone(), Some(pem))).await);
        assert_eq!((code, msg), (422, invalid("target", &[&bad_certificate(why)])));
    }
    assert_eq!(csrs.get("target").await.unwrap().metadata.resource_version, approved.metadata.resource_version);

    // Issuing works; changing or removing the issued certificate does not.
    let cert = some_certificate("issued");
    let issued = csrs.replace_status("target", &pp, &with_certificate(approved.clone(), Some(&cert))).await.unwrap();
    assert_eq!(issued.status.as_ref().unwrap().certificate, Some(ByteString(cert.clone().into_bytes())));
    for replacement in [Some(some_certificate("other")), None] {
        let changed = with_certificate(issued.clone(), replacement.as_deref());
        let (code, msg) = refused(csrs.replace_status("target", &pp, &changed).await);
        assert_eq!((code, msg), (422, invalid("target", &[MODIFY_CERTIFICATE])));
    }
    let patch = json!({"status": {"certificate": ByteString(some_certificate("patched").into_bytes())}});
    let (code, msg) = refused(csrs.patch_status("target", &PatchParams::default(), &Patch::Merge(&patch)).await);
    assert_eq!((code, msg), (422, invalid("target", &[MODIFY_CERTIFICATE])));

    // A write of the object itself changes neither spec nor status (200, as kube).
    let mut rewritten = with_certificate(with_conditions(issued.clone(), vec![]), None);
    rewritten.spec.usages = Some(vec!["server auth".into()]);
    rewritten.metadata.labels = Some([("touched".to_string(), "yes".to_string())].into());
    let answer = csrs.replace("target", &pp, &rewritten).await.unwrap();
    assert_eq!((&answer.spec, &answer.status), (&issued.spec, &issued.status));
    let stored = csrs.get("target").await.unwrap();
    assert_eq!((&stored.spec, &stored.status), (&issued.spec, &issued.status));
    assert_eq!(stored.metadata.labels.unwrap()["touched"], "yes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creates_and_approval_writes_follow_kubes_rules() {
    let (plane, _, csrs) = setup().await;
    let pp = PostParams::default();
    // kube's create rules: known usages, at least ten minutes.
    let mut odd = csr("odd", SIGNER);
    odd.spec.usages = Some(vec!["client auth".into(), "time travel".into()]);
    odd.spec.expiration_seconds = Some(60);
    let (code, msg) = refused(csrs.create(&pp, &odd).await);
    let unsupported = "spec.usages[1]: Unsupported value: \"time travel\": supported values: \"any\", \"cert sign\", \"client auth\", \"code signing\", \"content commitment\", \"crl sign\", \"data encipherment\", \"decipher only\", \"digital signature\", \"email protection\", \"encipher only\", \"ipsec end system\", \"ipsec tunnel\", \"ipsec user\", \"key agreement\", \"key encipherment\", \"microsoft sgc\", \"netscape sgc\", \"ocsp signing\", \"s/mime\", \"server auth\", \"signing\", \"timestamping\"";
    let short =
        "spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)";
    assert_eq!((code, msg), (422, invalid("odd", &[unsupported, short])));
    assert!(csrs.get_opt("odd").await.unwrap().is_none());

    let created = csrs.create(&pp, &csr("both", SIGNER)).await.unwrap();

    // Both decisions at once, one twice, or a decision that is not True: refused before anything
    // is recorded.
    let approved = condition("Approved", "True", "Reviewed");
    let attempts = [
        (
            vec![approved.clone(), condition("Denied", "True", "Also")],
            "status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied conditions are mutually exclusive",
        ),
        (vec![approved.clone(), approved.clone()], "status.conditions[1].type: Duplicate value: \"Approved\""),
        (
            vec![condition("Approved", "False", "Maybe")],
            "status.conditions[0].status: Unsupported value: \"False\": supported values: \"True\"",
        ),
    ];
    for (conditions, cause) in attempts {
        let attempt = with_conditions(created.clone(), conditions);
        let (code, msg) = refused(csrs.replace_subresource("approval", "both", &pp, &attempt).await);
        assert_eq!((code, msg), (422, invalid("both", &[cause])));
    }
    assert_eq!(csrs.get("both").await.unwrap().metadata.resource_version, created.metadata.resource_version);

    // Once approved, /approval may not withdraw the decision or turn it into a denial.
    let decided = csrs
        .replace_subresource("approval", "both", &pp, &with_conditions(created.clone(), vec![approved]))
        .await
        .unwrap();
    for conditions in [vec![], vec![condition("Denied", "True", "Changed my mind")]] {
        let attempt = with_conditions(decided.clone(), conditions);
        let (code, msg) = refused(csrs.replace_subresource("approval", "both", &pp, &attempt).await);
        assert_eq!((code, msg), (422, invalid("both", &[&remove("Approved")])));
    }
    let stored = csrs.get("both").await.unwrap();
    assert_eq!(
        (&stored.metadata.resource_version, &stored.status),
        (&decided.metadata.resource_version, &decided.status)
    );

    // kubectl's own approval of a fresh request still goes through.
    csrs.create(&pp, &csr("fresh", SIGNER)).await.unwrap();
    let out = plane.kubectl_ok(&["certificate", "approve", "fresh"]);
    assert_eq!(out.trim(), "certificatesigningrequest.certificates.k8s.io/fresh approved");
    let fresh = csrs.get("fresh").await.unwrap();
    let conditions = fresh.status.unwrap().conditions.unwrap();
    assert_eq!((conditions.len(), conditions[0].type_.as_str()), (1, "Approved"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_the_plane_issued_cannot_be_swapped() {
    let (plane, kubeconfig, csrs) = setup().await;
    let pp = PostParams::default();
    csrs.create(&pp, &csr("client", "kubernetes.io/kube-apiserver-client")).await.unwrap();
    let out = plane.kubectl_as(&kubeconfig, &["certificate", "approve", "client"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let issued = eventually("the plane signs the approved request", || {
        let obj: Value = serde_json::from_str(&plane.kubectl_ok(&["get", "csr", "client", "-o", "json"])).unwrap();
        obj["status"]["certificate"].as_str().is_some().then_some(obj)
    });
    let current = csrs.get("client").await.unwrap();
    let swapped = with_certificate(current.clone(), Some(&some_certificate("client")));
    let (code, msg) = refused(csrs.replace_status("client", &pp, &swapped).await);
    assert_eq!((code, msg), (422, invalid("client", &[MODIFY_CERTIFICATE])));
    let after: Value = serde_json::from_str(&plane.kubectl_ok(&["get", "csr", "client", "-o", "json"])).unwrap();
    assert_eq!(after["status"], issued["status"]);
    assert_eq!(after["metadata"]["resourceVersion"], issued["metadata"]["resourceVersion"]);
}
