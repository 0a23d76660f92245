//! PKI checked against the real `openssl` binary: pins, CSR signing, SANs, file modes, reloads.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use jiff::Timestamp;
use karmadactl_pki::{
    CaSpec, CertificateAuthority, ExtendedKeyUsage, KeyAlgorithm, LeafSpec, PemPair, PkiError, Subject, Validity,
};
use tempfile::TempDir;

/// Runs `openssl args...` in `dir` and returns stdout; fails the test (never skips) when
/// openssl is missing or the command fails.
fn openssl(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("openssl").args(args).current_dir(dir).output().unwrap_or_else(|e| {
        panic!(
            "these tests need the `openssl` binary on PATH (e.g. apt-get install openssl), but it could not be run: {e}"
        )
    });
    assert!(
        out.status.success(),
        "openssl {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Like [`openssl`] but returns whether it succeeded, with its combined output.
fn openssl_status(dir: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("these tests need the `openssl` binary on PATH, but it could not be run: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

fn sh(dir: &Path, script: &str) -> String {
    let out = Command::new("sh").args(["-c", script]).current_dir(dir).output().expect("sh runs");
    assert!(out.status.success(), "{script} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The pin as the spec computes it with openssl.
fn openssl_pin(dir: &Path, cert_file: &str) -> String {
    let out =
        sh(dir, &format!("openssl x509 -pubkey -noout -in {cert_file} | openssl pkey -pubin -outform der | sha256sum"));
    let hex = out.split_whitespace().next().unwrap_or_default();
    assert_eq!(hex.len(), 64, "unexpected sha256sum output {out:?}");
    assert_ne!(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "openssl printed no key");
    format!("sha256:{hex}")
}

fn around_now(duration: Duration) -> Validity {
    // Started a few minutes ago so openssl's "not yet valid" check cannot trip on rounding.
    let start = Timestamp::now() - jiff::SignedDuration::from_mins(5);
    Validity::starting_at(start, duration).unwrap()
}

fn ca(dir: &Path, algorithm: KeyAlgorithm) -> CertificateAuthority {
    let mut spec = CaSpec::new("karmada", around_now(Duration::from_secs(10 * 365 * 86400)));
    spec.key_algorithm = algorithm;
    let ca = CertificateAuthority::generate(&spec).unwrap();
    fs::write(dir.join("ca.crt"), ca.cert_pem()).unwrap();
    ca
}

/// openssl's `notBefore=`/`notAfter=` format, e.g. `Mar  1 10:00:00 2026 GMT`.
fn openssl_date(t: Timestamp) -> String {
    t.strftime("%b %e %H:%M:%S %Y GMT").to_string()
}

fn verify(dir: &Path, extra: &[&str], cert_file: &str) {
    let mut args = vec!["verify", "-CAfile", "ca.crt"];
    args.extend_from_slice(extra);
    args.push(cert_file);
    let out = openssl(dir, &args);
    assert_eq!(out.trim(), format!("{cert_file}: OK"));
}

#[test]
fn ecdsa_ca_pin_matches_openssl() {
    let dir = TempDir::new().unwrap();
    let ca = ca(dir.path(), KeyAlgorithm::EcdsaP256);
    let expected = openssl_pin(dir.path(), "ca.crt");
    assert_eq!(karmadactl_pki::ca_cert_hash(ca.cert_pem()).unwrap(), expected);
    assert_eq!(ca.ca_cert_hash(), expected);
    let pin: karmadactl_pki::CaPin = expected.to_uppercase().replace("SHA256", "sha256").parse().unwrap();
    assert!(pin.matches_any(ca.cert_pem()).unwrap());
}

/// One RSA-3072 generation (slow in debug builds) covers the pin, the key file round trip and
/// issuing from a reloaded RSA CA.
#[test]
fn rsa_ca_pin_matches_openssl_and_reloaded_key_issues() {
    let dir = TempDir::new().unwrap();
    let ca = ca(dir.path(), KeyAlgorithm::Rsa3072);
    assert_eq!(karmadactl_pki::ca_cert_hash(ca.cert_pem()).unwrap(), openssl_pin(dir.path(), "ca.crt"));
    let text = openssl(dir.path(), &["x509", "-in", "ca.crt", "-noout", "-text"]);
    assert!(text.contains("Public-Key: (3072 bit)"), "{text}");
    assert!(text.contains("sha256WithRSAEncryption"), "{text}");

    fs::write(dir.path().join("ca.key"), ca.key_pem()).unwrap();
    let modulus = |args: &[&str]| openssl(dir.path(), args);
    assert_eq!(
        modulus(&["rsa", "-in", "ca.key", "-noout", "-modulus"]),
        modulus(&["x509", "-in", "ca.crt", "-noout", "-modulus"])
    );

    let reloaded = CertificateAuthority::from_pem(ca.cert_pem(), &ca.key_pem()).unwrap();
    let leaf = reloaded
        .issue(&LeafSpec::server(
            "rsa-issued",
            vec!["rsa.example".into()],
            vec![],
            around_now(Duration::from_secs(3600)),
        ))
        .unwrap();
    fs::write(dir.path().join("leaf.crt"), &leaf.cert_pem).unwrap();
    verify(dir.path(), &["-purpose", "sslserver"], "leaf.crt");
}

#[test]
fn openssl_csr_is_signed_with_the_signers_choices() {
    let dir = TempDir::new().unwrap();
    let ca = ca(dir.path(), KeyAlgorithm::EcdsaP256);
    openssl(
        dir.path(),
        &[
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "leaf.key",
            "-out",
            "leaf.csr",
            "-subj",
            "/CN=system:karmada:agent:member1/O=system:karmada:agents",
        ],
    );
    let csr = fs::read_to_string(dir.path().join("leaf.csr")).unwrap();
    let info = karmadactl_pki::inspect_csr(&csr).unwrap();
    assert_eq!(info.subject.common_name, "system:karmada:agent:member1");
    assert_eq!(info.subject.organizations, vec!["system:karmada:agents"]);
    assert!(info.dns_names.is_empty() && !info.requests_ca);

    let validity = around_now(Duration::from_secs(3 * 86400 + 17));
    let cert = ca.sign_csr(&csr, &validity, &[ExtendedKeyUsage::ClientAuth]).unwrap();
    fs::write(dir.path().join("leaf.crt"), &cert).unwrap();
    verify(dir.path(), &["-purpose", "sslclient"], "leaf.crt");

    let shown =
        openssl(dir.path(), &["x509", "-in", "leaf.crt", "-noout", "-subject", "-dates", "-ext", "extendedKeyUsage"]);
    assert!(shown.contains("subject=CN = system:karmada:agent:member1, O = system:karmada:agents\n"), "{shown}");
    assert!(shown.contains(&format!("notBefore={}\n", openssl_date(validity.not_before()))), "{shown}");
    assert!(shown.contains(&format!("notAfter={}\n", openssl_date(validity.not_after()))), "{shown}");
    assert!(shown.contains("TLS Web Client Authentication"), "{shown}");
    assert!(!shown.contains("TLS Web Server Authentication"), "{shown}");

    // The certificate carries the requester's key, not one of ours.
    assert_eq!(
        openssl(dir.path(), &["x509", "-in", "leaf.crt", "-noout", "-pubkey"]),
        openssl(dir.path(), &["pkey", "-in", "leaf.key", "-pubout"])
    );
}

#[test]
fn csr_asking_for_a_ca_gets_a_leaf() {
    let dir = TempDir::new().unwrap();
    let ca = ca(dir.path(), KeyAlgorithm::EcdsaP256);
    openssl(
        dir.path(),
        &[
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "evil.key",
            "-out",
            "evil.csr",
            "-subj",
            "/CN=evil",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
            "-addext",
            "extendedKeyUsage=serverAuth,codeSigning",
            "-addext",
            "subjectAltName=DNS:evil.example,IP:10.9.8.7",
        ],
    );
    let csr = fs::read_to_string(dir.path().join("evil.csr")).unwrap();
    assert!(karmadactl_pki::inspect_csr(&csr).unwrap().requests_ca);
    let validity = around_now(Duration::from_secs(7200));
    let cert = ca.sign_csr(&csr, &validity, &[ExtendedKeyUsage::ClientAuth]).unwrap();
    fs::write(dir.path().join("evil.crt"), &cert).unwrap();
    verify(dir.path(), &[], "evil.crt");

    let shown = openssl(
        dir.path(),
        &[
            "x509",
            "-in",
            "evil.crt",
            "-noout",
            "-enddate",
            "-ext",
            "basicConstraints,keyUsage,extendedKeyUsage,subjectAltName",
        ],
    );
    assert!(shown.contains("CA:FALSE"), "{shown}");
    assert!(!shown.contains("CA:TRUE"), "{shown}");
    assert!(shown.contains("Digital Signature, Key Encipherment"), "{shown}");
    assert!(!shown.contains("Certificate Sign"), "{shown}");
    assert!(shown.contains("TLS Web Client Authentication"), "{shown}");
    assert!(!shown.contains("Server Authentication") && !shown.contains("Code Signing"), "{shown}");
    assert!(shown.contains("DNS:evil.example, IP Address:10.9.8.7"), "{shown}");
    assert!(shown.contains(&format!("notAfter={}", openssl_date(validity.not_after()))), "{shown}");

    // Anything it signs must not verify: openssl refuses a non-CA issuer.
    openssl(
        dir.path(),
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "evil.key",
            "-out",
            "child.crt",
            "-subj",
            "/CN=child",
            "-CA",
            "evil.crt",
            "-CAkey",
            "evil.key",
            "-days",
            "1",
        ],
    );
    let (ok, out) = openssl_status(dir.path(), &["verify", "-CAfile", "ca.crt", "-untrusted", "evil.crt", "child.crt"]);
    assert!(!ok && out.contains("invalid CA certificate"), "a certificate signed by the CSR's leaf verified: {out}");
}

#[test]
fn go_style_csr_with_several_groups_keeps_them_all() {
    // Go writes several O values as one multi-valued RDN; openssl does the same with -multivalue-rdn.
    let dir = TempDir::new().unwrap();
    let ca = ca(dir.path(), KeyAlgorithm::EcdsaP256);
    openssl(
        dir.path(),
        &[
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "n.key",
            "-out",
            "n.csr",
            "-multivalue-rdn",
            "-subj",
            "/O=system:nodes+O=system:bootstrappers/CN=system:node:m1",
        ],
    );
    let csr = fs::read_to_string(dir.path().join("n.csr")).unwrap();
    let mut groups = karmadactl_pki::inspect_csr(&csr).unwrap().subject.organizations;
    groups.sort();
    assert_eq!(groups, vec!["system:bootstrappers", "system:nodes"]);
    let cert = ca.sign_csr(&csr, &around_now(Duration::from_secs(600)), &[ExtendedKeyUsage::ClientAuth]).unwrap();
    fs::write(dir.path().join("n.crt"), &cert).unwrap();
    verify(dir.path(), &["-purpose", "sslclient"], "n.crt");
    let mut issued = karmadactl_pki::inspect_certificate(&cert).unwrap().subject.organizations;
    issued.sort();
    assert_eq!(issued, groups);
    // The subject is copied byte for byte, so openssl prints the same multi-valued RDN.
    assert_eq!(
        openssl(dir.path(), &["x509", "-in", "n.crt", "-noout", "-subject", "-nameopt", "RFC2253"])
            .replace("subject=", ""),
        openssl(dir.path(), &["req", "-in", "n.csr", "-noout", "-subject", "-nameopt", "RFC2253"])
            .replace("subject=", "")
    );
}

#[test]
fn serving_and_client_certificates_verify_with_openssl() {
    let dir = TempDir::new().unwrap();
    let ca = ca(dir.path(), KeyAlgorithm::EcdsaP256);
    let serving = ca
        .issue(&LeafSpec::server(
            "karmada-apiserver",
            vec![
                "localhost".into(),
                "karmada-apiserver.karmada-system.svc.cluster.local".into(),
                "*.karmada-system.svc".into(),
            ],
            vec!["127.0.0.1".parse().unwrap(), "10.0.0.5".parse().unwrap(), "::1".parse().unwrap()],
            around_now(Duration::from_secs(365 * 86400)),
        ))
        .unwrap();
    fs::write(dir.path().join("apiserver.crt"), &serving.cert_pem).unwrap();
    verify(dir.path(), &["-purpose", "sslserver", "-verify_hostname", "localhost"], "apiserver.crt");
    verify(dir.path(), &["-purpose", "sslserver", "-verify_ip", "10.0.0.5"], "apiserver.crt");
    let sans = openssl(dir.path(), &["x509", "-in", "apiserver.crt", "-noout", "-ext", "subjectAltName"]);
    assert!(
        sans.contains(
            "DNS:*.karmada-system.svc, DNS:karmada-apiserver.karmada-system.svc.cluster.local, DNS:localhost, \
             IP Address:127.0.0.1, IP Address:10.0.0.5, IP Address:0:0:0:0:0:0:0:1"
        ),
        "{sans}"
    );
    let (ok, _) = openssl_status(
        dir.path(),
        &["verify", "-CAfile", "ca.crt", "-verify_hostname", "elsewhere.example", "apiserver.crt"],
    );
    assert!(!ok, "a name not in the SANs verified");

    let client = ca
        .issue(&LeafSpec::client(
            "system:admin",
            vec!["system:masters".into(), "devs".into()],
            around_now(Duration::from_secs(3600)),
        ))
        .unwrap();
    fs::write(dir.path().join("admin.crt"), &client.cert_pem).unwrap();
    verify(dir.path(), &["-purpose", "sslclient"], "admin.crt");
    let (ok, _) = openssl_status(dir.path(), &["verify", "-CAfile", "ca.crt", "-purpose", "sslserver", "admin.crt"]);
    assert!(!ok, "a clientAuth-only certificate verified for serverAuth");
    let subject = openssl(dir.path(), &["x509", "-in", "admin.crt", "-noout", "-subject"]);
    assert_eq!(subject, "subject=O = system:masters, O = devs, CN = system:admin\n");
    fs::write(dir.path().join("admin.key"), client.key_pem()).unwrap();
    assert_eq!(
        openssl(dir.path(), &["x509", "-in", "admin.crt", "-noout", "-pubkey"]),
        openssl(dir.path(), &["pkey", "-in", "admin.key", "-pubout"])
    );
}

#[test]
fn files_have_the_right_modes_and_load_back() {
    let dir = TempDir::new().unwrap();
    // What the umask leaves of 0666, so the expected certificate mode holds whatever it is.
    let probe = dir.path().join("probe");
    fs::write(&probe, "").unwrap();
    let allowed = fs::metadata(&probe).unwrap().permissions().mode() & 0o777;

    let pki_dir = dir.path().join("etc/karmada/pki");
    let ca = CertificateAuthority::generate(&CaSpec::new("karmada", around_now(Duration::from_secs(86400)))).unwrap();
    let pair = PemPair { cert_pem: ca.cert_pem().to_owned(), key_pem: ca.key_pem() };
    let (cert_path, key_path) = karmadactl_pki::write_pair(&pki_dir, "ca", &pair).unwrap();
    assert_eq!(cert_path, pki_dir.join("ca.crt"));
    assert_eq!(key_path, pki_dir.join("ca.key"));
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&key_path), 0o600 & allowed);
    assert_eq!(mode(&key_path) & 0o077, 0, "the key is readable by others");
    assert_eq!(mode(&cert_path), 0o644 & allowed);

    openssl(&pki_dir, &["pkey", "-in", "ca.key", "-noout"]);
    let shown = openssl(&pki_dir, &["x509", "-in", "ca.crt", "-noout", "-ext", "basicConstraints,keyUsage"]);
    assert!(shown.contains("CA:TRUE"), "{shown}");
    assert!(shown.contains("Digital Signature, Key Encipherment, Certificate Sign"), "{shown}");

    let back = karmadactl_pki::read_pair(&pki_dir, "ca").unwrap();
    assert_eq!(back, pair);
    let reloaded = CertificateAuthority::from_pem(&back.cert_pem, &back.key_pem).unwrap();
    assert_eq!(reloaded.info().not_after, ca.info().not_after);
}

#[test]
fn openssl_made_cas_load_and_issue() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // RSA key as PKCS#1 "RSA PRIVATE KEY" (what upstream karmadactl writes), EC key as SEC1
    // "EC PRIVATE KEY" with an "EC PARAMETERS" block in front (what `openssl ecparam` writes).
    openssl(d, &["genrsa", "-traditional", "-out", "rsa.key", "2048"]);
    openssl(d, &["ecparam", "-name", "prime256v1", "-genkey", "-out", "ec.key"]);
    for (key_file, label) in [("rsa.key", "RSA PRIVATE KEY"), ("ec.key", "EC PRIVATE KEY")] {
        let key_pem = fs::read_to_string(d.join(key_file)).unwrap();
        assert!(key_pem.contains(&format!("BEGIN {label}")), "{key_pem}");
        openssl(
            d,
            &[
                "req",
                "-x509",
                "-new",
                "-key",
                key_file,
                "-out",
                "ca.crt",
                "-days",
                "30",
                "-subj",
                "/O=Acme/CN=acme-ca",
                "-addext",
                "keyUsage=critical,keyCertSign,cRLSign",
            ],
        );
        let ca_pem = fs::read_to_string(d.join("ca.crt")).unwrap();
        let ca = CertificateAuthority::from_pem(&ca_pem, &key_pem).unwrap();
        assert_eq!(ca.info().subject, Subject::new("acme-ca").with_organizations(["Acme"]));
        assert_eq!(ca.ca_cert_hash(), openssl_pin(d, "ca.crt"));
        let leaf = ca
            .issue(&LeafSpec::server("svc", vec!["svc.example".into()], vec![], around_now(Duration::from_secs(600))))
            .unwrap();
        fs::write(d.join("leaf.crt"), &leaf.cert_pem).unwrap();
        verify(d, &["-purpose", "sslserver", "-x509_strict"], "leaf.crt");
    }
}

#[test]
fn bad_input_gives_errors_not_panics() {
    let e = CertificateAuthority::from_pem("not pem", "not pem").unwrap_err();
    assert!(matches!(e, PkiError::MissingPem { .. }), "{e}");
    let ca = CertificateAuthority::generate(&CaSpec::new("c", around_now(Duration::from_secs(600)))).unwrap();
    let validity = around_now(Duration::from_secs(3600));
    for csr in [
        "",
        "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n",
        "-----BEGIN CERTIFICATE REQUEST-----\nnot base64!\n-----END CERTIFICATE REQUEST-----\n",
        "-----BEGIN CERTIFICATE REQUEST-----\nMAA=\n",
        ca.cert_pem(),
    ] {
        let e = ca.sign_csr(csr, &validity, &[ExtendedKeyUsage::ClientAuth]).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("the certificate signing request") || text.contains("PEM"), "{text}");
        assert!(e.hint().is_some(), "{text}");
    }
    let e = karmadactl_pki::ca_cert_hash("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n").unwrap_err();
    assert_eq!(e.to_string(), "the certificate could not be parsed");
}
