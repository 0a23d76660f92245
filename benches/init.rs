//! `init --embedded` benchmark: wall time from the command to a usable plane (ready, bootstrap
//! token created and cluster-info signed, banner data printed), and the time to generate the
//! plane's PKI, each beside the physical limit measured in the same run:
//! * init: starting any process (`/bin/true`) and `controlplane serve`'s own spawn → URL;
//! * PKI: the raw key generations and signatures it consists of (ring, no files).
//!
//! Run with `cargo bench --bench init`; prints a Markdown section for docs/performance.md.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;
#[path = "common/stats.rs"]
mod stats;
use stats::median;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use karmadactl_apiserver::pki::{PlanePki, ServingNames};

const INIT_RUNS: usize = 7;
const PKI_RUNS: usize = 50;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_karmadactl")
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// One cold `init --embedded` into a fresh data dir, then `deinit --force` (not timed).
fn init_once(home: &Path) -> Duration {
    let data = home.join("karmada");
    let start = Instant::now();
    let out = Command::new(bin())
        .args(["init", "--embedded", "--port", "0", "-o", "json", "--karmada-data"])
        .arg(&data)
        .env("HOME", home)
        .stdin(Stdio::null())
        .output()
        .expect("init runs");
    let wall = start.elapsed();
    assert!(out.status.success(), "init failed: {}", String::from_utf8_lossy(&out.stderr));
    let down = Command::new(bin())
        .args(["deinit", "--embedded", "--force", "--karmada-data"])
        .arg(&data)
        .stdin(Stdio::null())
        .output()
        .expect("deinit runs");
    assert!(down.status.success(), "deinit failed: {}", String::from_utf8_lossy(&down.stderr));
    wall
}

/// `controlplane serve` spawn → first stdout line (the URL, printed once serving), fresh dir.
fn serve_once(dir: &Path) -> Duration {
    let start = Instant::now();
    let mut child = Command::new(bin())
        .args(["controlplane", "serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir.join("plane"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("URL line");
    let wall = start.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    wall
}

fn true_once() -> Duration {
    let start = Instant::now();
    Command::new("/bin/true").status().expect("/bin/true runs");
    start.elapsed()
}

/// What the PKI consists of, without files or certificate encoding: four ECDSA P-256 key
/// generations (CA, serving, admin, service-account) and three signatures (the certificates).
fn raw_crypto_once() -> Duration {
    use ring::rand::SystemRandom;
    use ring::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair};
    let rng = SystemRandom::new();
    let start = Instant::now();
    let mut keys = Vec::new();
    for _ in 0..4 {
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &rng).unwrap();
        keys.push(EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, pkcs8.as_ref(), &rng).unwrap());
    }
    for _ in 0..3 {
        keys[0].sign(&rng, &[0u8; 600]).unwrap();
    }
    start.elapsed()
}

fn pki_once(dir: &Path) -> Duration {
    let start = Instant::now();
    let pki = PlanePki::load_or_create(&dir.join("pki"), &ServingNames::default(), Duration::from_secs(365 * 86400))
        .expect("PKI generates");
    let wall = start.elapsed();
    assert_eq!(pki.created.len(), 4, "fresh dir: everything created");
    wall
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let trues = median((0..50).map(|_| true_once()).collect());
    let serves = median(
        (0..INIT_RUNS)
            .map(|_| {
                let d = tempfile::tempdir().unwrap();
                serve_once(d.path())
            })
            .collect(),
    );
    let inits: Vec<Duration> = (0..INIT_RUNS)
        .map(|_| {
            let d = tempfile::tempdir().unwrap();
            init_once(d.path())
        })
        .collect();
    let init_worst = *inits.iter().max().unwrap();
    let init_p50 = median(inits);
    let pkis: Vec<Duration> = (0..PKI_RUNS)
        .map(|_| {
            let d = tempfile::tempdir().unwrap();
            pki_once(d.path())
        })
        .collect();
    let pki_worst = *pkis.iter().max().unwrap();
    let pki_p50 = median(pkis);
    let crypto = median((0..PKI_RUNS).map(|_| raw_crypto_once()).collect());

    println!("### Run: `init --embedded` ({})", jiff::Zoned::now().strftime("%Y-%m-%d"));
    println!();
    println!("Machine: {}.", machine());
    println!();
    println!(
        "Release binary; each init into a fresh temp data dir with `--port 0 -o json`, followed by an untimed `deinit --force`. Init: median of {INIT_RUNS}; PKI: median of {PKI_RUNS}, in-process."
    );
    println!();
    println!("| measure | karmadactl | physical limit | goal | upstream |");
    println!("|---|---|---|---|---|");
    println!(
        "| `init --embedded` wall time to a usable plane (ready, token created, cluster-info signed), cold incl. PKI, median | {} | `controlplane serve` spawn → serving {}; `/bin/true` {} | ≤ 1.5 s | about 5 minutes (docs) |",
        ms(init_p50),
        ms(serves),
        ms(trues)
    );
    println!("| `init --embedded`, worst of {INIT_RUNS} | {} | | | |", ms(init_worst));
    println!(
        "| PKI generation (CA, serving, admin certificates, service-account key; ECDSA P-256; written 0600), median | {} | the 4 key generations and 3 signatures alone (ring) {} | ≤ 50 ms | 8 RSA-3072 keys: about 4.6 s of CPU |",
        ms(pki_p50),
        ms(crypto)
    );
    println!("| PKI generation, worst of {PKI_RUNS} | {} | | | |", ms(pki_worst));
}
