//! The control plane's own PKI in its data directory: a CA, the API server's serving
//! certificate, the service-account signing key and an administrator client certificate.
//! Created on first start; reused afterwards (certificates are never silently replaced).
//! The directory is 0700 and every file in it 0600: nothing but the plane and its owner reads
//! them (clients get the CA from their kubeconfig or cluster-info), so, unlike kubeadm's
//! 0644 certificates, even the certificates are owner-only.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use karmadactl_pki::{CaSpec, CertificateAuthority, KeyAlgorithm, LeafSpec, PemPair, PkiError, PrivateKey, Validity};

/// Names of the files under `<data-dir>/pki`.
pub const CA: &str = "ca";
pub const APISERVER: &str = "apiserver";
pub const ADMIN: &str = "admin";
pub const SERVICE_ACCOUNT_KEY: &str = "sa.key";
/// Every file under `<data-dir>/pki`.
pub const PKI_FILES: &[&str] =
    &["ca.crt", "ca.key", "apiserver.crt", "apiserver.key", "admin.crt", "admin.key", "sa.key"];

const CA_VALIDITY: Duration = Duration::from_secs(10 * 365 * 24 * 3600);

/// Everything the server needs from its PKI, loaded into memory.
pub struct PlanePki {
    pub dir: PathBuf,
    pub ca: CertificateAuthority,
    pub serving: PemPair,
    pub admin: PemPair,
    pub service_account_key: PrivateKey,
    /// What was created on this start (empty when everything was reused).
    pub created: Vec<String>,
}

/// Extra names the serving certificate must carry (from `--cert-external-ip/dns` and the
/// listen address).
#[derive(Debug, Clone, Default)]
pub struct ServingNames {
    pub dns: Vec<String>,
    pub ips: Vec<IpAddr>,
}

impl PlanePki {
    /// Loads the PKI under `dir`, creating whatever is missing. An existing CA is always
    /// reused; a serving certificate that lacks a requested name is reissued from that CA.
    /// New leaf certificates are valid for `leaf_validity` from now.
    pub fn load_or_create(dir: &Path, names: &ServingNames, leaf_validity: Duration) -> Result<Self, PkiError> {
        let io = |source| PkiError::Write { path: dir.to_path_buf(), source };
        crate::private_files::create_dir(dir).map_err(io)?;
        for file in PKI_FILES {
            crate::private_files::narrow(&dir.join(file)).map_err(io)?;
        }
        let mut created = Vec::new();
        let ca = match karmadactl_pki::read_pair(dir, CA) {
            Ok(pair) => CertificateAuthority::from_pem(&pair.cert_pem, &pair.key_pem)?,
            Err(_) if !karmadactl_pki::cert_path(dir, CA).exists() => {
                let ca = CertificateAuthority::generate(&CaSpec::new("karmada", Validity::from_now(CA_VALIDITY)?))?;
                karmadactl_pki::write_private_pair(
                    dir,
                    CA,
                    &PemPair { cert_pem: ca.cert_pem().to_string(), key_pem: ca.key_pem() },
                )?;
                created.push(CA.to_string());
                ca
            }
            Err(e) => return Err(e),
        };

        let (dns, ips) = serving_names(names);
        let serving = match karmadactl_pki::read_pair(dir, APISERVER) {
            Ok(pair) if covers(&pair.cert_pem, &dns, &ips) => pair,
            _ => {
                let spec = LeafSpec::server("karmada-apiserver", dns, ips, Validity::from_now(leaf_validity)?);
                let issued = ca.issue(&spec)?;
                let pair = PemPair { cert_pem: issued.cert_pem.clone(), key_pem: issued.key_pem() };
                karmadactl_pki::write_private_pair(dir, APISERVER, &pair)?;
                created.push(APISERVER.to_string());
                pair
            }
        };

        let admin = match karmadactl_pki::read_pair(dir, ADMIN) {
            Ok(pair) => pair,
            Err(_) => {
                let spec =
                    LeafSpec::client("system:admin", vec!["system:masters".into()], Validity::from_now(leaf_validity)?);
                let issued = ca.issue(&spec)?;
                let pair = PemPair { cert_pem: issued.cert_pem.clone(), key_pem: issued.key_pem() };
                karmadactl_pki::write_private_pair(dir, ADMIN, &pair)?;
                created.push(ADMIN.to_string());
                pair
            }
        };

        let sa_path = dir.join(SERVICE_ACCOUNT_KEY);
        let service_account_key = match std::fs::read_to_string(&sa_path) {
            Ok(pem) => PrivateKey::from_pem(&pem)?,
            Err(_) => {
                let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256)?;
                karmadactl_pki::write_key(dir, "sa", &key.to_pem())?;
                created.push(SERVICE_ACCOUNT_KEY.to_string());
                key
            }
        };
        Ok(Self { dir: dir.to_path_buf(), ca, serving, admin, service_account_key, created })
    }
}

/// The serving certificate's names: the in-cluster names kube-apiserver carries, localhost,
/// and whatever the caller adds. DNS names sorted and de-duplicated by the PKI module.
fn serving_names(extra: &ServingNames) -> (Vec<String>, Vec<IpAddr>) {
    let mut dns: Vec<String> =
        ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "karmada-apiserver"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    dns.extend(extra.dns.iter().filter(|d| !d.is_empty()).cloned());
    let mut ips: Vec<IpAddr> = vec![IpAddr::from([127, 0, 0, 1]), IpAddr::from(std::net::Ipv6Addr::LOCALHOST)];
    ips.extend(extra.ips.iter().copied().filter(|ip| !ip.is_unspecified()));
    (dns, ips)
}

fn covers(cert_pem: &str, dns: &[String], ips: &[IpAddr]) -> bool {
    let Ok(info) = karmadactl_pki::inspect_certificate(cert_pem) else { return false };
    let now = jiff::Timestamp::now();
    info.is_valid_at(now)
        && dns.iter().all(|d| info.dns_names.iter().any(|have| have == d))
        && ips.iter().all(|ip| info.ip_addresses.contains(ip))
}
