//! Durability: kill -9 the server during a stream of creates from several clients; after a
//! restart every create that got a 201 is there, nothing that was never sent appears, and a
//! watch resumes from a resourceVersion taken before the crash.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::plane::Plane;
use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, PostParams, WatchEvent, WatchParams};
use kube::{Client, ResourceExt};
use serde_json::json;

async fn client(plane: &Plane) -> Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    let mut cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await.unwrap();
    cfg.connect_timeout = Some(Duration::from_secs(2));
    cfg.read_timeout = Some(Duration::from_secs(5));
    Client::try_from(cfg).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_creates_survive_kill_9_and_watches_resume() {
    let mut plane = Plane::start();
    let api: Api<ConfigMap> = Api::namespaced(client(&plane).await, "default");
    let before = api.list(&ListParams::default()).await.unwrap();
    let rv_before = before.metadata.resource_version.clone().unwrap();

    let acked = Arc::new(Mutex::new(BTreeSet::new()));
    let attempted = Arc::new(Mutex::new(BTreeSet::new()));
    let mut writers = Vec::new();
    for w in 0..6 {
        let api = api.clone();
        let acked = acked.clone();
        let attempted = attempted.clone();
        writers.push(tokio::spawn(async move {
            for i in 0.. {
                let name = format!("crash-{w}-{i}");
                attempted.lock().unwrap().insert(name.clone());
                let cm: ConfigMap =
                    serde_json::from_value(json!({"metadata": {"name": name}, "data": {"writer": w.to_string()}}))
                        .unwrap();
                match api.create(&PostParams::default(), &cm).await {
                    Ok(_) => {
                        acked.lock().unwrap().insert(name);
                    }
                    Err(_) => return,
                }
            }
        }));
    }
    // Let some creates land, then pull the plug.
    while acked.lock().unwrap().len() < 200 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    plane.kill9();
    for w in writers {
        let _ = tokio::time::timeout(Duration::from_secs(15), w).await;
    }

    tokio::task::spawn_blocking({
        let data_dir = plane.data_dir.clone();
        move || assert!(data_dir.join("state.db").exists())
    })
    .await
    .unwrap();
    plane.restart();
    let api: Api<ConfigMap> = Api::namespaced(client(&plane).await, "default");
    let present: BTreeSet<String> =
        api.list(&ListParams::default()).await.unwrap().items.iter().map(|c| c.name_any()).collect();
    let acked = acked.lock().unwrap().clone();
    let attempted = attempted.lock().unwrap().clone();
    let missing: Vec<_> = acked.difference(&present).collect();
    assert!(
        missing.is_empty(),
        "{} acknowledged creates were lost, e.g. {:?}",
        missing.len(),
        missing.iter().take(5).collect::<Vec<_>>()
    );
    let unexpected: Vec<_> = present.iter().filter(|n| n.starts_with("crash-") && !attempted.contains(*n)).collect();
    assert!(unexpected.is_empty(), "objects nobody created: {unexpected:?}");
    for cm in
        api.list(&ListParams::default()).await.unwrap().items.iter().filter(|c| c.name_any().starts_with("crash-"))
    {
        assert!(cm.data.as_ref().is_some_and(|d| d.contains_key("writer")), "half-written object {}", cm.name_any());
    }

    // A watch from before the crash replays what happened since, without a 410.
    let mut stream = api.watch(&WatchParams::default().timeout(5), &rv_before).await.unwrap().boxed();
    let mut added = 0usize;
    while let Some(ev) = tokio::time::timeout(Duration::from_secs(6), stream.next()).await.ok().flatten() {
        match ev.unwrap() {
            WatchEvent::Added(cm) if cm.name_any().starts_with("crash-") => added += 1,
            WatchEvent::Error(e) => panic!("watch could not resume: {e:?}"),
            _ => {}
        }
        if added >= acked.len() {
            break;
        }
    }
    assert!(added >= acked.len(), "the resumed watch replayed {added} of {} creates", acked.len());
}
