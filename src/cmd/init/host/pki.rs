//! The certificates init writes to `--karmada-pki` (upstream §3.7): three CAs (karmada,
//! etcd, front-proxy) and the leaves the components use. A complete, still valid set already
//! in the directory is reused, so running init again converges instead of rotating every
//! secret under running components.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::Path;
use std::time::Duration;

use jiff::Timestamp;
use karmadactl_pki::{
    CaSpec, CertificateAuthority, ExtendedKeyUsage, LeafSpec, PemPair, PkiError, Subject, Validity, inspect_certificate,
};

use super::settings::{Etcd, Settings};

/// CAs last ten years whatever `--cert-validity-period` says (upstream).
const CA_VALIDITY: Duration = Duration::from_secs(10 * 365 * 24 * 3600);

/// File names (without `.crt`/`.key`) in upstream's order for the `karmada-cert` secret.
pub const NAMES: [&str; 8] =
    ["ca", "etcd-ca", "etcd-server", "etcd-client", "karmada", "apiserver", "front-proxy-ca", "front-proxy-client"];

/// The certificates and keys, by file name. With an external etcd, `etcd-ca` has no key and
/// `etcd-server` is absent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPki {
    pub pairs: BTreeMap<&'static str, PemPair>,
    /// True when the set was read from `--karmada-pki` instead of generated.
    pub reused: bool,
}

impl HostPki {
    pub fn cert(&self, name: &str) -> &str {
        self.pairs.get(name).map(|p| p.cert_pem.as_str()).unwrap_or_default()
    }

    pub fn key(&self, name: &str) -> &str {
        self.pairs.get(name).map(|p| p.key_pem.as_str()).unwrap_or_default()
    }

    /// The files this set consists of, for the plan and for writing.
    pub fn generated_names(settings: &Settings) -> Vec<&'static str> {
        NAMES
            .iter()
            .copied()
            .filter(|n| settings.local_etcd() || !matches!(*n, "etcd-ca" | "etcd-server" | "etcd-client"))
            .collect()
    }

    /// Reuses a complete valid set from `dir`, else generates one.
    pub fn load_or_generate(settings: &Settings, dir: &Path) -> Result<Self, PkiError> {
        if let Some(existing) = Self::load(settings, dir) {
            return Ok(existing);
        }
        Self::generate(settings)
    }

    /// A set in `dir` that has every file, is valid now and names what this install needs.
    fn load(settings: &Settings, dir: &Path) -> Option<Self> {
        let mut pairs = BTreeMap::new();
        for name in Self::generated_names(settings) {
            pairs.insert(name, karmadactl_pki::read_pair(dir, name).ok()?);
        }
        let (dns, ips) = karmada_sans(settings);
        let now = Timestamp::now();
        for name in ["karmada", "apiserver"] {
            let info = inspect_certificate(&pairs[name].cert_pem).ok()?;
            let covers =
                dns.iter().all(|d| info.dns_names.contains(d)) && ips.iter().all(|i| info.ip_addresses.contains(i));
            if !covers || !info.is_valid_at(now) {
                return None;
            }
        }
        if let Some((cert, _)) = &settings.ca_files {
            let given = std::fs::read_to_string(cert).ok()?;
            if given != pairs["ca"].cert_pem {
                return None;
            }
        }
        let mut pki = HostPki { pairs, reused: true };
        pki.add_external_etcd(settings).ok()?;
        Some(pki)
    }

    /// Generates every CA and leaf (or loads the root CA from `--ca-cert-file/--ca-key-file`).
    pub fn generate(settings: &Settings) -> Result<Self, PkiError> {
        let alg = settings.key_algorithm;
        let ca = match &settings.ca_files {
            Some((cert, key)) => {
                let read = |p: &Path| {
                    std::fs::read_to_string(p).map_err(|source| PkiError::Read { path: p.to_path_buf(), source })
                };
                CertificateAuthority::from_pem(&read(cert)?, &read(key)?)?
            }
            None => new_ca("karmada", alg)?,
        };
        let front_proxy_ca = new_ca("front-proxy-ca", alg)?;
        let leaf_end = Timestamp::now()
            .checked_add(jiff::SignedDuration::try_from(settings.cert_validity).unwrap_or(jiff::SignedDuration::MAX))
            .unwrap_or(Timestamp::MAX);
        let leaf = |ca: &CertificateAuthority, subject: Subject, dns: Vec<String>, ips: Vec<IpAddr>| {
            let validity = Validity::new(ca.info().not_before, leaf_end)?;
            let spec = LeafSpec {
                subject,
                dns_names: dns,
                ip_addresses: ips,
                extended_key_usages: vec![ExtendedKeyUsage::ServerAuth, ExtendedKeyUsage::ClientAuth],
                validity,
                key_algorithm: alg,
            };
            let issued = ca.issue(&spec)?;
            Ok::<_, PkiError>(PemPair { key_pem: issued.key_pem(), cert_pem: issued.cert_pem })
        };
        let (dns, ips) = karmada_sans(settings);
        let mut pairs = BTreeMap::new();
        pairs.insert(
            "karmada",
            leaf(&ca, Subject::new("system:admin").with_organizations(["system:masters"]), dns.clone(), ips.clone())?,
        );
        pairs.insert("apiserver", leaf(&ca, Subject::new("karmada-apiserver").with_organizations([""]), dns, ips)?);
        pairs.insert("front-proxy-client", leaf(&front_proxy_ca, Subject::new("front-proxy-client"), vec![], vec![])?);
        if settings.local_etcd() {
            let etcd_ca = new_ca("etcd-ca", alg)?;
            let mut etcd_dns = vec!["localhost".to_string()];
            etcd_dns.extend((0..settings.etcd_replicas()).map(|i| format!("etcd-{i}.etcd.{}", settings.svc_suffix())));
            let loopback = vec![IpAddr::from([127, 0, 0, 1])];
            pairs.insert("etcd-server", leaf(&etcd_ca, Subject::new("karmada-etcd-server"), etcd_dns, loopback)?);
            pairs.insert("etcd-client", leaf(&etcd_ca, Subject::new("karmada-etcd-client"), vec![], vec![])?);
            pairs.insert("etcd-ca", ca_pair(&etcd_ca));
        }
        pairs.insert("ca", ca_pair(&ca));
        pairs.insert("front-proxy-ca", ca_pair(&front_proxy_ca));
        let mut pki = HostPki { pairs, reused: false };
        pki.add_external_etcd(settings)?;
        Ok(pki)
    }

    /// With an external etcd the API servers trust its CA and present its client certificate;
    /// both come from the given files, not from `--karmada-pki`.
    fn add_external_etcd(&mut self, settings: &Settings) -> Result<(), PkiError> {
        let Etcd::External { ca_cert, client_cert, client_key, .. } = &settings.etcd else { return Ok(()) };
        let read =
            |p: &Path| std::fs::read_to_string(p).map_err(|source| PkiError::Read { path: p.to_path_buf(), source });
        if let Some(ca) = ca_cert {
            self.pairs.insert("etcd-ca", PemPair { cert_pem: read(ca)?, key_pem: String::new() });
        }
        if let (Some(cert), Some(key)) = (client_cert, client_key) {
            self.pairs.insert("etcd-client", PemPair { cert_pem: read(cert)?, key_pem: read(key)? });
        }
        Ok(())
    }

    /// Writes the generated files (not the external etcd ones) into `dir`.
    pub fn write(&self, settings: &Settings, dir: &Path) -> Result<(), PkiError> {
        for name in Self::generated_names(settings) {
            karmadactl_pki::write_pair(dir, name, &self.pairs[name])?;
        }
        Ok(())
    }
}

fn new_ca(common_name: &str, alg: karmadactl_pki::KeyAlgorithm) -> Result<CertificateAuthority, PkiError> {
    let mut spec = CaSpec::new(common_name, Validity::from_now(CA_VALIDITY)?);
    spec.key_algorithm = alg;
    spec.dns_names = vec![common_name.to_string()];
    CertificateAuthority::generate(&spec)
}

fn ca_pair(ca: &CertificateAuthority) -> PemPair {
    PemPair { cert_pem: ca.cert_pem().to_string(), key_pem: ca.key_pem() }
}

/// The names the karmada and apiserver certificates carry. Upstream also asks a web service
/// for the machine's public IP and adds empty names when the external flags are empty; this
/// does neither (no network call behind the user's back; pass --cert-external-ip instead).
pub fn karmada_sans(settings: &Settings) -> (Vec<String>, Vec<IpAddr>) {
    let ns = &settings.namespace;
    let suffix = settings.svc_suffix();
    let mut dns: Vec<String> = [
        "localhost",
        "kubernetes",
        "kubernetes.default",
        "kubernetes.default.svc",
        "karmada-apiserver",
        "karmada-webhook",
        "karmada-aggregated-apiserver",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    dns.push(format!("karmada-apiserver.{suffix}"));
    dns.push(format!("karmada-webhook.{suffix}"));
    dns.push(format!("karmada-webhook.{ns}.svc"));
    dns.push(format!("karmada-aggregated-apiserver.{suffix}"));
    dns.push(format!("*.{suffix}"));
    dns.push(format!("*.{ns}.svc"));
    dns.extend(settings.cert_external_dns.iter().filter(|d| !d.is_empty()).cloned());
    dns.sort();
    dns.dedup();
    let mut ips: Vec<IpAddr> = settings.cert_external_ips.clone();
    ips.push(IpAddr::from([127, 0, 0, 1]));
    ips.extend(settings.apiserver_ips.iter().copied());
    let mut unique = Vec::new();
    for ip in ips {
        if !unique.contains(&ip) {
            unique.push(ip);
        }
    }
    (dns, unique)
}
