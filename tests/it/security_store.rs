//! The plane's state under pressure and at rest: a full disk is a clear error that heals by
//! itself once space is freed (nothing acknowledged is lost), and everything the plane and the
//! CLI keep on disk is readable by its owner only.
//!
//! The disk-full test puts the data directory on a small file system of its own (tmpfs, or a
//! loop-mounted ext4 image when tmpfs cannot be mounted); it needs root and fails, saying so,
//! when neither can be mounted.

use std::io::Write as _;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::plane::Plane;
use http::{Method, Request};
use kube::Client;
use serde_json::{Value, json};

/// A small file system mounted on a temp dir, unmounted on drop.
struct SmallFs {
    /// Kept so the mount point (and the image) go away after the unmount.
    _dir: tempfile::TempDir,
    mount: PathBuf,
}

impl SmallFs {
    fn mount(megabytes: u32) -> SmallFs {
        let dir = tempfile::tempdir().expect("temp dir");
        let mount = dir.path().join("fs");
        std::fs::create_dir(&mount).unwrap();
        let tmpfs = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(&mount)
            .output()
            .expect("mount runs");
        if tmpfs.status.success() {
            return SmallFs { _dir: dir, mount };
        }
        let image = dir.path().join("fs.img");
        let size = format!("{megabytes}M");
        let steps: [(&str, Vec<&std::ffi::OsStr>); 3] = [
            ("truncate", vec!["-s".as_ref(), size.as_ref(), image.as_os_str()]),
            ("mkfs.ext4", vec!["-q".as_ref(), "-F".as_ref(), image.as_os_str()]),
            ("mount", vec!["-o".as_ref(), "loop".as_ref(), image.as_os_str(), mount.as_os_str()]),
        ];
        for (program, args) in steps {
            let out = Command::new(program).args(args).output();
            let ok = out.as_ref().is_ok_and(|o| o.status.success());
            assert!(
                ok,
                "this test needs a small file system of its own: `mount -t tmpfs` failed ({}) and so did `{program}` for a loop-mounted ext4 image ({:?}); run it as root where mounting is permitted",
                String::from_utf8_lossy(&tmpfs.stderr).trim(),
                out.map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
            );
        }
        SmallFs { _dir: dir, mount }
    }

    fn path(&self) -> &Path {
        &self.mount
    }

    fn filler(&self) -> PathBuf {
        self.mount.join("filler")
    }

    /// Writes a filler file until the file system refuses more.
    fn fill(&self) {
        let mut file = std::fs::File::create(self.filler()).unwrap();
        let chunk = vec![0u8; 64 * 1024];
        loop {
            match file.write(&chunk) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    assert_eq!(e.raw_os_error(), Some(libc::ENOSPC), "filling failed otherwise: {e}");
                    break;
                }
            }
        }
        // The last partial page, byte by byte is too slow; small writes until refused.
        let small = [0u8; 512];
        while file.write(&small).is_ok_and(|n| n > 0) {}
    }

    fn free(&self) {
        std::fs::remove_file(self.filler()).unwrap();
    }
}

impl Drop for SmallFs {
    fn drop(&mut self) {
        let done = Command::new("umount").arg(&self.mount).status().is_ok_and(|s| s.success());
        if !done {
            // Something still holds it (a plane that did not stop): detach it anyway.
            let _ = Command::new("umount").arg("-l").arg(&self.mount).status();
        }
    }
}

async fn client(plane: &Plane) -> Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await.unwrap();
    Client::try_from(cfg).unwrap()
}

/// Sends a request and returns (status code, body as text).
async fn send(client: &Client, method: Method, path: &str, body: Option<&Value>) -> (u16, String) {
    let bytes = body.map(|b| serde_json::to_vec(b).unwrap()).unwrap_or_default();
    let req = Request::builder().method(method).uri(path).header("content-type", "application/json").body(bytes);
    let resp = client.send(req.unwrap().map(kube::client::Body::from)).await.unwrap();
    let code = resp.status().as_u16();
    let bytes = http_body_util::BodyExt::collect(resp.into_body()).await.unwrap().to_bytes();
    (code, String::from_utf8_lossy(&bytes).into_owned())
}

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

async fn create(client: &Client, name: &str, data: &str) -> (u16, String) {
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"x": data}});
    send(client, Method::POST, CONFIGMAPS, Some(&cm)).await
}

/// Polls `check` until it holds, failing with `what` after a generous bound.
async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !check().await {
        assert!(Instant::now() < deadline, "{what} did not happen");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_is_a_clear_error_and_heals_without_a_restart() {
    let fs = SmallFs::mount(16);
    // The plane's log is on the same file system, as an embedded plane's is, and verbose, so
    // that it too runs out of space: logging must not take the store (or anything) down.
    let mut plane = Plane::start_at(fs.path().join("plane"), &["--v=4"]);
    let client = client(&plane).await;
    let mut acknowledged = Vec::new();
    for i in 0..3 {
        let (code, body) = create(&client, &format!("before-{i}"), "small").await;
        assert_eq!(code, 201, "{body}");
        acknowledged.push(format!("before-{i}"));
    }
    let (code, body) = send(&client, Method::GET, "/readyz?verbose", None).await;
    assert_eq!((code, body.contains("[+]etcd ok\n")), (200, true), "{body}");

    fs.fill();
    let big = "x".repeat(256 * 1024);
    let mut refusal = None;
    for i in 0..64 {
        let name = format!("full-{i}");
        let (code, body) = create(&client, &name, &big).await;
        if code == 201 {
            acknowledged.push(name);
        } else {
            refusal = Some((name, code, body));
            break;
        }
    }
    let (refused, code, body) = refusal.expect("a write was refused on the full disk");
    let status: Value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("a Status: {body}"));
    assert_eq!((code, &status["reason"], &status["code"]), (500, &json!("InternalError"), &json!(500)), "{body}");
    assert_eq!(
        status["message"],
        "Internal error occurred: storage error: the datastore is out of disk space: database or disk is full",
        "{body}"
    );

    // Reads still work and the refused write left nothing behind.
    let (code, body) = send(&client, Method::GET, &format!("{CONFIGMAPS}/{refused}"), None).await;
    assert_eq!(code, 404, "{body}");
    let (code, body) = send(&client, Method::GET, &format!("{CONFIGMAPS}/before-0"), None).await;
    assert_eq!(code, 200, "{body}");
    let (code, body) = send(&client, Method::GET, CONFIGMAPS, None).await;
    assert_eq!(code, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> =
        list["items"].as_array().unwrap().iter().filter_map(|i| i["metadata"]["name"].as_str()).collect();
    assert!(acknowledged.iter().all(|n| names.contains(&n.as_str())), "{names:?} lacks some of {acknowledged:?}");
    assert!(!names.contains(&refused.as_str()));

    // The health endpoints say the store is failing, in kube's format.
    for endpoint in ["/readyz", "/livez"] {
        let (code, body) = send(&client, Method::GET, &format!("{endpoint}?verbose"), None).await;
        assert_eq!(code, 500, "{endpoint}: {body}");
        assert!(body.contains("[-]etcd failed: reason withheld\n"), "{endpoint}: {body}");
        assert!(body.contains("[+]ping ok\n"), "{endpoint}: {body}");
        let name = endpoint.trim_start_matches('/');
        assert!(body.ends_with(&format!("{name} check failed\n")), "{endpoint}: {body}");
    }
    let (code, body) = send(&client, Method::GET, "/readyz/etcd", None).await;
    assert_eq!((code, body.as_str()), (500, "internal server error: etcd failed\n"));

    // Freeing space brings the store back by itself, without a write and without a restart.
    let pid = plane.pid();
    fs.free();
    eventually("/readyz recovering", async || send(&client, Method::GET, "/readyz", None).await == (200, "ok".into()))
        .await;
    let (code, body) = send(&client, Method::GET, "/livez?verbose", None).await;
    assert_eq!((code, body.contains("[+]etcd ok\n")), (200, true), "{body}");
    let (code, body) = create(&client, "after", &big).await;
    assert_eq!(code, 201, "{body}");
    acknowledged.push("after".into());
    assert_eq!(plane.pid(), pid, "the plane was not restarted");

    // Every acknowledged write survives a restart.
    plane.restart();
    let client = self::client(&plane).await;
    for name in &acknowledged {
        let (code, body) = send(&client, Method::GET, &format!("{CONFIGMAPS}/{name}"), None).await;
        assert_eq!(code, 200, "{name} was acknowledged but is gone after a restart: {body}");
        let cm: Value = serde_json::from_str(&body).unwrap();
        let want = if name.starts_with("before") { "small" } else { big.as_str() };
        assert_eq!(cm["data"]["x"], want, "{name}");
    }
    drop(plane);
}

// ---- file modes ----

/// Every entry under `root` (itself included) that is not 0700 (directories) or 0600 (files).
fn loose_entries(root: &Path) -> Vec<String> {
    let mut loose = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(path) = pending.pop() {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let mode = meta.mode() & 0o7777;
        if meta.is_dir() {
            if mode != 0o700 {
                loose.push(format!("{} is a directory with mode {mode:o}", path.display()));
            }
            pending.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if meta.is_file() && mode != 0o600 {
            loose.push(format!("{} is a file with mode {mode:o}", path.display()));
        } else if !meta.is_dir() && !meta.is_file() {
            loose.push(format!("{} is neither a file nor a directory", path.display()));
        }
    }
    loose
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("chmod {}: {e}", path.display()));
}

struct Home {
    dir: tempfile::TempDir,
    /// Data dirs of planes started here, stopped on drop.
    planes: Vec<PathBuf>,
}

impl Home {
    fn new() -> Home {
        Home { dir: tempfile::tempdir().unwrap(), planes: Vec::new() }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn run(&self, args: &[&str]) -> common::Run {
        let mut cmd = common::karmadactl(self.dir.path());
        cmd.args(args).stdin(std::process::Stdio::null());
        common::run(cmd)
    }

    fn ok(&self, args: &[&str]) -> Value {
        let out = self.run(args);
        assert_eq!(out.code, 0, "karmadactl {args:?} failed:\n{}\n{}", out.stdout, out.stderr);
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("no JSON ({e}):\n{}", out.stdout))
    }

    fn init(&mut self, data: &Path) -> Value {
        self.planes.push(data.to_path_buf());
        self.ok(&["init", "--embedded", "--karmada-data", data.to_str().unwrap(), "--port", "0", "-o", "json"])
    }

    fn stop_plane(&self, data: &Path) {
        let Ok(pid) = std::fs::read_to_string(data.join("controlplane.pid")) else { return };
        let Ok(pid) = pid.trim().parse::<i32>() else { return };
        // SAFETY: kill(2) with a concrete pid only sends a signal.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(15);
        while std::path::Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z "))
        {
            assert!(Instant::now() < deadline, "the plane {pid} did not stop");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        for data in self.planes.clone() {
            let _ = self.run(&["deinit", "--embedded", "--force", "--karmada-data", data.to_str().unwrap()]);
        }
    }
}

#[test]
fn init_embedded_keeps_its_directory_and_files_owner_only() {
    let mut home = Home::new();
    // A directory made by hand with the usual 0755.
    let data = home.path("karmada");
    std::fs::create_dir(&data).unwrap();
    set_mode(&data, 0o755);
    home.init(&data);
    for f in ["state.db", "state.db-wal", "state.db-shm", "pki/ca.crt", "pki/ca.key", "logs/controlplane.log"] {
        assert!(data.join(f).is_file(), "{f} was written");
    }
    assert_eq!(loose_entries(&data), Vec::<String>::new());

    // State left loose (by hand, or by an older version) is narrowed when init adopts it again.
    home.stop_plane(&data);
    set_mode(&data, 0o755);
    for f in
        ["state.db", "state.db.lock", "pki/ca.crt", "pki/sa.key", "embedded-controlplane.json", "logs/controlplane.log"]
    {
        set_mode(&data.join(f), 0o644);
    }
    set_mode(&data.join("pki"), 0o755);
    set_mode(&data.join("logs"), 0o755);
    let again = home.init(&data);
    assert_eq!(again["alreadyRunning"], false);
    assert_eq!(loose_entries(&data), Vec::<String>::new());

    // A fresh directory, parents included.
    let fresh = home.path("new/nested/karmada");
    home.init(&fresh);
    assert_eq!(loose_entries(&home.path("new")), Vec::<String>::new());
}

#[test]
fn a_data_directory_of_another_user_is_refused_and_left_alone() {
    let home = Home::new();
    let theirs = home.path("theirs");
    std::fs::create_dir(&theirs).unwrap();
    set_mode(&theirs, 0o755);
    // SAFETY: geteuid has no preconditions.
    assert_eq!(unsafe { libc::geteuid() }, 0, "this test gives a directory away, which needs root");
    std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
    let out = home.run(&["init", "--embedded", "--karmada-data", theirs.to_str().unwrap(), "--port", "0"]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "{} belongs to user id 65534, not to the user running this command (id 0); use a directory of your own, or give this one to user 0 with chown",
            theirs.display()
        )),
        "{}",
        out.stderr
    );
    let meta = std::fs::metadata(&theirs).unwrap();
    assert_eq!((meta.mode() & 0o7777, meta.uid()), (0o755, 65534), "the directory was changed");
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 0, "something was written");
}

#[test]
fn the_plane_member_and_playground_files_are_owner_only() {
    let home = Home::new();
    // `controlplane serve` on a loose existing data dir, with its admin kubeconfig elsewhere.
    let data = home.path("plane");
    std::fs::create_dir(&data).unwrap();
    set_mode(&data, 0o755);
    let elsewhere = home.path("shared");
    std::fs::create_dir(&elsewhere).unwrap();
    set_mode(&elsewhere, 0o755);
    let admin = elsewhere.join("admin.kubeconfig");
    let mut plane = Plane::start_at(
        data.clone(),
        &["--pki-dir", home.path("pki").to_str().unwrap(), "--admin-kubeconfig", admin.to_str().unwrap()],
    );
    assert!(data.join("state.db-wal").is_file());
    assert_eq!(loose_entries(&data), Vec::<String>::new());
    assert_eq!(loose_entries(&home.path("pki")), Vec::<String>::new());
    assert_eq!(std::fs::metadata(&admin).unwrap().mode() & 0o7777, 0o600, "the admin kubeconfig");
    plane.stop();

    // A simulated member in a loose directory of its own.
    let member = home.path("member1");
    std::fs::create_dir(&member).unwrap();
    set_mode(&member, 0o755);
    let out = home.ok(&["local", "member", "start", "member1", "--data-dir", member.to_str().unwrap(), "-o", "json"]);
    let member_loose = loose_entries(&member);
    home.run(&["local", "member", "stop", "member1", "--data-dir", member.to_str().unwrap()]);
    assert_eq!(member_loose, Vec::<String>::new(), "{out}");

    // The playground: its plane, members and combined kubeconfig.
    let playground = home.path("playground");
    let up = home.ok(&["local", "up", "--members", "1", "--data-dir", playground.to_str().unwrap(), "-o", "json"]);
    let playground_loose = loose_entries(&playground);
    let kubeconfig = PathBuf::from(up["kubeconfig"].as_str().unwrap());
    let kubeconfig_mode = std::fs::metadata(&kubeconfig).unwrap().mode() & 0o7777;
    home.run(&["local", "down", "--force", "--data-dir", playground.to_str().unwrap()]);
    assert_eq!(playground_loose, Vec::<String>::new());
    assert_eq!(kubeconfig_mode, 0o600, "{}", kubeconfig.display());
}

// ---- etcd ----

/// etcd refusing writes at its space quota ("mvcc: database space exceeded") is the same clear
/// error; reads and deletes go on, and once space is reclaimed and the alarm disarmed, as an
/// operator does, writes and the store's health come back.
#[cfg(feature = "etcd")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn etcd_out_of_space_is_the_same_clear_error() {
    use bytes::Bytes;
    use common::etcd::EtcdCluster;
    use karmadactl_store::etcd::EtcdStore;
    use karmadactl_store::{EtcdConfig, Store, StoreError};

    let quota = ["--quota-backend-bytes", "2097152"];
    let cluster = tokio::task::spawn_blocking(move || EtcdCluster::start_with_args(1, None, &quota)).await.unwrap();
    let config = EtcdConfig { endpoints: vec![cluster.endpoints()], ..EtcdConfig::default() };
    let store = EtcdStore::connect(&config).await.expect("connect to etcd");
    let big = Bytes::from(vec![b'x'; 256 * 1024]);
    let mut written = Vec::new();
    let mut refusal = None;
    for i in 0..64 {
        let key = format!("/registry/core/configmaps/default/big-{i}");
        match store.create(&key, big.clone()).await {
            Ok(_) => written.push(key),
            Err(err) => {
                refusal = Some((key, err));
                break;
            }
        }
    }
    let (refused, err) = refusal.expect("etcd refused a write at its quota");
    assert!(matches!(err, StoreError::NoSpace { .. }), "{err:?}");
    assert_eq!(err.to_string(), "the datastore is out of disk space: etcdserver: mvcc: database space exceeded");
    assert_eq!(store.health(), Err(err.to_string()));
    assert!(store.get(&refused).await.unwrap().is_none(), "the refused write left nothing");
    assert_eq!(store.get(&written[0]).await.unwrap().map(|kv| kv.value), Some(big.clone()));

    // Reclaim space: delete (etcd allows deletes under the alarm), compact, defragment, disarm.
    for key in &written {
        store.delete(key, None).await.expect("deletes work at the quota");
    }
    cluster.compact(store.current_revision());
    cluster.gateway("/v3/maintenance/defragment", "{}");
    let alarms: Value = serde_json::from_str(&cluster.gateway("/v3/maintenance/alarm", r#"{"action":"GET"}"#)).unwrap();
    let alarms = alarms["alarms"].as_array().cloned().unwrap_or_default();
    assert!(!alarms.is_empty(), "etcd raised its NOSPACE alarm");
    for alarm in alarms {
        let disarm = json!({"action": "DEACTIVATE", "memberID": alarm["memberID"], "alarm": "NOSPACE"});
        cluster.gateway("/v3/maintenance/alarm", &disarm.to_string());
    }
    store.create("/registry/core/configmaps/default/after", Bytes::from_static(b"{}")).await.expect("writes again");
    assert_eq!(store.health(), Ok(()));
}
