//! The store conformance suite against a real three-member etcd cluster, and what only the
//! etcd backend does: learning compactions made by someone else, key namespaces, surviving
//! the loss of a member.
#![cfg(feature = "etcd")]

use std::sync::Arc;

use bytes::Bytes;
use karmadactl_store::conformance::next_event;
use karmadactl_store::etcd::EtcdStore;
use karmadactl_store::{EtcdConfig, EtcdTls, EventKind, ListOptions, Store, StoreError};
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::common::etcd::{EtcdCluster, TlsFiles};

/// Each conformance test gets its own cluster (revisions are global to an etcd cluster, and
/// the suite counts them); at most two clusters run at once on a small machine.
static CLUSTERS: Semaphore = Semaphore::const_new(2);

async fn connect(cluster: &EtcdCluster, prefix: &str) -> Arc<EtcdStore> {
    let config = EtcdConfig {
        endpoints: cluster.endpoints().split(',').map(String::from).collect(),
        prefix: prefix.to_string(),
        tls: None,
    };
    EtcdStore::connect(&config).await.expect("connect to etcd")
}

async fn fresh() -> ((EtcdCluster, SemaphorePermit<'static>), Arc<dyn Store>) {
    let permit = CLUSTERS.acquire().await.expect("semaphore");
    let cluster = tokio::task::spawn_blocking(|| EtcdCluster::start(3)).await.expect("start etcd");
    let store: Arc<dyn Store> = connect(&cluster, "").await;
    ((cluster, permit), store)
}

karmadactl_store::store_conformance_tests!(fresh);

fn b(s: &str) -> Bytes {
    Bytes::copy_from_slice(s.as_bytes())
}

/// Another client compacts etcd: lists and watches from before it are refused as compacted
/// (the API server's 410 Gone), and the store learns the compacted revision.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compaction_by_another_client_is_learnt() {
    let _permit = CLUSTERS.acquire().await.expect("semaphore");
    let cluster = tokio::task::spawn_blocking(|| EtcdCluster::start(3)).await.expect("start etcd");
    let store = connect(&cluster, "").await;
    let r1 = store.create("/registry/x/a", b("1")).await.expect("create");
    let r2 = store.update("/registry/x/a", b("2"), r1).await.expect("update");
    let r3 = store.create("/registry/x/b", b("1")).await.expect("create");
    assert_eq!(store.compacted_revision(), 0);

    cluster.compact(r3);
    match store.watch("/registry/x/", r1) {
        Ok(mut stream) => match futures::StreamExt::next(&mut stream).await {
            Some(Err(StoreError::Compacted { requested, compacted })) => assert_eq!((requested, compacted), (r1, r3)),
            other => panic!("expected Compacted as the first watch item, got {other:?}"),
        },
        Err(err) => panic!("the store did not know about the compaction yet, so the watch opens: {err}"),
    }
    assert_eq!(store.compacted_revision(), r3, "the watch taught the store the compacted revision");
    let at_r2 = ListOptions { revision: Some(r2), ..ListOptions::default() };
    match store.list("/registry/x/", at_r2).await {
        Err(StoreError::Compacted { requested, compacted }) => assert_eq!((requested, compacted), (r2, r3)),
        other => panic!("expected Compacted, got {other:?}"),
    }
    // A second store opened now finds the compacted revision by itself.
    let other = connect(&cluster, "").await;
    assert_eq!(other.compacted_revision(), r3);
    assert_eq!(other.current_revision(), r3);
}

/// Two stores with different key prefixes share one etcd without seeing each other's keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_prefixes_keep_planes_apart() {
    let _permit = CLUSTERS.acquire().await.expect("semaphore");
    let cluster = tokio::task::spawn_blocking(|| EtcdCluster::start(1)).await.expect("start etcd");
    let a = connect(&cluster, "/plane-a").await;
    let b_store = connect(&cluster, "/plane-b").await;
    let mut watch_b = b_store.watch("", 0).expect("watch");
    a.create("/registry/core/configmaps/ns/x", b("a")).await.expect("create in a");
    let rb = b_store.create("/registry/core/configmaps/ns/x", b("b")).await.expect("create in b");

    let in_a = a.list("", ListOptions::default()).await.expect("list a").items;
    assert_eq!(in_a.len(), 1);
    assert_eq!((in_a[0].key.as_str(), &in_a[0].value[..]), ("/registry/core/configmaps/ns/x", &b"a"[..]));
    let event = next_event(&mut watch_b).await;
    assert_eq!((event.kind, event.revision, event.kv.value), (EventKind::Created, rb, b("b")));
    // The keys really are under the prefix in etcd.
    let raw = cluster.gateway("/v3/kv/range", r#"{"key":"AA==","range_end":"AA==","keys_only":true}"#);
    assert!(raw.contains(&base64_of("/plane-a/registry/core/configmaps/ns/x")), "{raw}");
    assert!(raw.contains(&base64_of("/plane-b/registry/core/configmaps/ns/x")), "{raw}");
}

/// With one of three members killed, writes and reads go on (on the other members), and open
/// watches continue without losing or repeating an event.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_failure_is_survived() {
    let _permit = CLUSTERS.acquire().await.expect("semaphore");
    let mut cluster = tokio::task::spawn_blocking(|| EtcdCluster::start(3)).await.expect("start etcd");
    let store = connect(&cluster, "").await;
    let r1 = store.create("/registry/f/a", b("1")).await.expect("create");
    let mut stream = store.watch("/registry/f/", r1).expect("watch");
    cluster.kill(0);
    // A write in flight while the survivors elect a new leader fails ambiguously ("request
    // timed out": it may or may not have been applied), and the store reports that rather than
    // guess; writes resume once a leader is elected.
    let _cluster = tokio::task::spawn_blocking(move || {
        cluster.wait_healthy();
        cluster
    })
    .await
    .expect("etcd healthy again");
    let mut last = r1;
    for i in 0..20 {
        last = store.update("/registry/f/a", b(&i.to_string()), last).await.expect("update with a member down");
    }
    assert_eq!(store.get("/registry/f/a").await.expect("get").map(|kv| kv.mod_revision), Some(last));
    let mut seen = Vec::new();
    while seen.last() != Some(&last) {
        let event = next_event(&mut stream).await;
        assert_eq!(event.kind, EventKind::Updated);
        seen.push(event.revision);
    }
    assert_eq!(seen, ((r1 + 1)..=last).collect::<Vec<_>>(), "every update exactly once, in order");
}

fn base64_of(s: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// Against members that demand client certificates: the configured CA and client certificate
/// are used, and without the client certificate etcd turns the store away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_with_client_certificates() {
    let _permit = CLUSTERS.acquire().await.expect("semaphore");
    let files = TlsFiles::new();
    let files_ref = &files;
    let cluster = std::thread::scope(|s| s.spawn(|| EtcdCluster::start_with(3, Some(files_ref))).join()).expect("etcd");
    let endpoints: Vec<String> = cluster.https_endpoints().split(',').map(String::from).collect();
    let config = |cert: bool| EtcdConfig {
        endpoints: endpoints.clone(),
        prefix: String::new(),
        tls: Some(EtcdTls {
            ca_file: Some(files.ca.clone()),
            cert_file: cert.then(|| files.client_cert.clone()),
            key_file: cert.then(|| files.client_key.clone()),
        }),
    };
    let store = EtcdStore::connect(&config(true)).await.expect("connect over TLS");
    let mut stream = store.watch("/registry/t/", 0).expect("watch");
    let r = store.create("/registry/t/a", b("secret")).await.expect("create over TLS");
    assert_eq!(store.get("/registry/t/a").await.expect("get").map(|kv| kv.value), Some(b("secret")));
    let event = next_event(&mut stream).await;
    assert_eq!((event.kind, event.revision), (EventKind::Created, r));

    match EtcdStore::connect(&config(false)).await {
        Err(StoreError::Backend(_)) => {}
        Err(other) => panic!("expected a backend failure without a client certificate, got {other}"),
        Ok(_) => panic!("etcd accepted a client without a certificate"),
    }
}

/// Writes by another client (another replica) raise this store's current revision, so the API
/// server does not refuse their resourceVersions as "too large".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_clients_writes_raise_the_current_revision() {
    let _permit = CLUSTERS.acquire().await.expect("semaphore");
    let cluster = tokio::task::spawn_blocking(|| EtcdCluster::start(1)).await.expect("start etcd");
    let mine = connect(&cluster, "").await;
    let theirs = connect(&cluster, "").await;
    let before = mine.current_revision();
    let written = theirs.create("/registry/r/x", b("1")).await.expect("create");
    assert!(written > before);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while mine.current_revision() < written {
        assert!(std::time::Instant::now() < deadline, "the current revision stayed at {}", mine.current_revision());
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(mine.current_revision(), written);
}

/// Answers larger than gRPC's usual 4 MiB limit: a list of 6 MiB, and a watch catching up on
/// all of it at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_watches_larger_than_four_mebibytes() {
    let _permit = CLUSTERS.acquire().await.expect("semaphore");
    let cluster = tokio::task::spawn_blocking(|| EtcdCluster::start(1)).await.expect("start etcd");
    let store = connect(&cluster, "").await;
    // etcd takes requests up to 1.5 MiB by default.
    let value = Bytes::from(vec![b'x'; 1024 * 1024]);
    for i in 0..6 {
        store.create(&format!("/registry/big/{i}"), value.clone()).await.expect("create a 1 MiB value");
    }
    let page = store.list("/registry/big/", ListOptions::default()).await.expect("list 6 MiB");
    assert_eq!(page.items.len(), 6);
    assert!(page.items.iter().all(|kv| kv.value == value));
    let mut stream = store.watch("/registry/big/", 0).expect("watch");
    for i in 0..6 {
        let event = next_event(&mut stream).await;
        assert_eq!((event.kind, event.kv.key), (EventKind::Created, format!("/registry/big/{i}")));
    }
}
