//! The embedded API server judged by kube-rs: typed and dynamic clients, a watcher feeding a
//! reflector, and a kube-runtime Controller reconciling a custom resource's status.

use std::sync::Arc;
use std::time::Duration;

use crate::common::plane::Plane;
use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::core::{DynamicObject, GroupVersionKind};
use kube::discovery::Discovery;
use kube::runtime::controller::{Action, Controller};
use kube::runtime::{WatchStreamExt, reflector, watcher};
use kube::{Client, CustomResource, CustomResourceExt, ResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

async fn client(plane: &Plane) -> Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await.unwrap();
    Client::try_from(cfg).unwrap()
}

fn configmap(name: &str, value: &str) -> ConfigMap {
    serde_json::from_value(json!({"metadata": {"name": name, "labels": {"suite": "kube-rs"}}, "data": {"k": value}}))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_client_round_trip() {
    let plane = Plane::start();
    let client = client(&plane).await;
    let info = client.apiserver_version().await.unwrap();
    assert_eq!(info.git_version, "v1.33.0");

    let cms: Api<ConfigMap> = Api::namespaced(client, "default");
    let created = cms.create(&PostParams::default(), &configmap("typed", "1")).await.unwrap();
    assert!(created.metadata.uid.is_some());
    let fetched = cms.get("typed").await.unwrap();
    assert_eq!(fetched.data.unwrap()["k"], "1");
    let patched =
        cms.patch("typed", &PatchParams::default(), &Patch::Merge(json!({"data": {"k": "2"}}))).await.unwrap();
    assert_eq!(patched.data.unwrap()["k"], "2");
    assert_ne!(patched.metadata.resource_version, created.metadata.resource_version);

    // A stale update is a 409 Conflict.
    let mut stale = created.clone();
    stale.data = Some([("k".to_string(), "stale".to_string())].into());
    let err = cms.replace("typed", &PostParams::default(), &stale).await.unwrap_err();
    assert!(matches!(err, kube::Error::Api(ref e) if e.code == 409 && e.reason == "Conflict"), "{err:?}");

    let list = cms.list(&ListParams::default().labels("suite=kube-rs")).await.unwrap();
    assert_eq!(list.items.len(), 1);
    cms.delete("typed", &DeleteParams::default()).await.unwrap();
    let err = cms.get("typed").await.unwrap_err();
    assert!(matches!(err, kube::Error::Api(ref e) if e.code == 404 && e.reason == "NotFound"), "{err:?}");

    // deletecollection removes exactly what the selector matches.
    for (name, suite) in [("a", "kube-rs"), ("b", "kube-rs"), ("keep", "other")] {
        let cm: ConfigMap =
            serde_json::from_value(json!({"metadata": {"name": name, "labels": {"suite": suite}}})).unwrap();
        cms.create(&PostParams::default(), &cm).await.unwrap();
    }
    cms.delete_collection(&DeleteParams::default(), &ListParams::default().labels("suite=kube-rs")).await.unwrap();
    let left: Vec<String> =
        cms.list(&ListParams::default()).await.unwrap().items.iter().map(|c| c.name_any()).collect();
    assert_eq!(left, ["keep"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamic_client_through_discovery_and_paging() {
    let plane = Plane::start();
    let client = client(&plane).await;
    let discovery = Discovery::new(client.clone()).run().await.unwrap();
    let (ar, caps) =
        discovery.resolve_gvk(&GroupVersionKind::gvk("", "v1", "ConfigMap")).expect("configmaps are discovered");
    assert!(caps.scope == kube::discovery::Scope::Namespaced);
    let api: Api<DynamicObject> = Api::namespaced_with(client.clone(), "default", &ar);
    for i in 0..7 {
        let obj: DynamicObject = serde_json::from_value(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("dyn-{i}")}, "data": {"i": i.to_string()}})).unwrap();
        api.create(&PostParams::default(), &obj).await.unwrap();
    }
    let total = api.list(&ListParams::default()).await.unwrap().items.len();
    // Paging: 3 at a time, one snapshot, each page saying how many are left in it. Changes
    // between pages alter neither the names nor the counts.
    let mut names = Vec::new();
    let mut lp = ListParams::default().limit(3);
    loop {
        let page = api.list(&lp).await.unwrap();
        assert!(page.items.len() <= 3);
        names.extend(page.items.iter().map(|o| o.name_any()));
        let left = (total - names.len()) as i64;
        assert_eq!(page.metadata.remaining_item_count, (left > 0).then_some(left), "after {names:?}");
        if names.len() == 3 {
            api.delete("dyn-6", &DeleteParams::default()).await.unwrap();
            let late = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "dyn-late"}});
            api.create(&PostParams::default(), &serde_json::from_value(late).unwrap()).await.unwrap();
        }
        match page.metadata.continue_.filter(|c| !c.is_empty()) {
            Some(c) => lp = lp.continue_token(&c),
            None => break,
        }
    }
    let dyn_names: Vec<_> = names.iter().filter(|n| n.starts_with("dyn-")).collect();
    assert_eq!(dyn_names.len(), 7, "{names:?}");
    assert!(names.contains(&"dyn-6".to_string()) && !names.contains(&"dyn-late".to_string()), "{names:?}");
    // A selector leaves the count unset, as kube-apiserver does.
    let selected = api.list(&ListParams::default().limit(1).labels("!absent")).await.unwrap();
    assert!(selected.metadata.continue_.is_some_and(|c| !c.is_empty()));
    assert_eq!(selected.metadata.remaining_item_count, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watcher_feeds_a_reflector() {
    let plane = Plane::start();
    let client = client(&plane).await;
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
    let (reader, writer) = reflector::store::<ConfigMap>();
    let stream = reflector(writer, watcher(cms.clone(), watcher::Config::default().labels("suite=kube-rs")))
        .default_backoff()
        .applied_objects();
    let task = tokio::spawn(async move {
        futures::pin_mut!(stream);
        while stream.next().await.is_some() {}
    });
    reader.wait_until_ready().await.unwrap();
    for i in 0..3 {
        cms.create(&PostParams::default(), &configmap(&format!("r-{i}"), "x")).await.unwrap();
    }
    cms.create(
        &PostParams::default(),
        &serde_json::from_value::<ConfigMap>(json!({"metadata": {"name": "unlabelled"}})).unwrap(),
    )
    .await
    .unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while reader.state().len() < 3 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut names: Vec<String> = reader.state().iter().map(|c| c.name_any()).collect();
    names.sort();
    assert_eq!(names, ["r-0", "r-1", "r-2"], "the reflector holds exactly the labelled objects");
    cms.delete("r-1", &DeleteParams::default()).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while reader.state().len() != 2 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(reader.state().len(), 2, "the delete reached the reflector");
    task.abort();
}

#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[kube(group = "example.karmada.io", version = "v1", kind = "Widget", namespaced, status = "WidgetStatus")]
pub struct WidgetSpec {
    pub size: i32,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default, JsonSchema)]
pub struct WidgetStatus {
    pub observed_size: i32,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_controller_reconciles_a_custom_resource() {
    let plane = Plane::start();
    let client = client(&plane).await;
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &Widget::crd()).await.unwrap();
    let established = kube::runtime::wait::await_condition(
        crds,
        "widgets.example.karmada.io",
        kube::runtime::wait::conditions::is_crd_established(),
    );
    tokio::time::timeout(Duration::from_secs(10), established).await.unwrap().unwrap();

    let widgets: Api<Widget> = Api::namespaced(client.clone(), "default");
    async fn reconcile(w: Arc<Widget>, api: Arc<Api<Widget>>) -> Result<Action, kube::Error> {
        let status = json!({"status": {"observed_size": w.spec.size}});
        api.patch_status(&w.name_any(), &PatchParams::default(), &Patch::Merge(status)).await?;
        Ok(Action::await_change())
    }
    fn error_policy(_w: Arc<Widget>, _e: &kube::Error, _ctx: Arc<Api<Widget>>) -> Action {
        Action::requeue(Duration::from_millis(200))
    }
    let ctx = Arc::new(widgets.clone());
    let controller = tokio::spawn(
        Controller::new(widgets.clone(), watcher::Config::default())
            .run(reconcile, error_policy, ctx)
            .for_each(|_| async {}),
    );
    widgets.create(&PostParams::default(), &Widget::new("w1", WidgetSpec { size: 3 })).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let w = widgets.get("w1").await.unwrap();
        if w.status.as_ref().map(|s| s.observed_size) == Some(3) {
            // The status write did not bump the generation (spec unchanged).
            assert_eq!(w.metadata.generation, Some(1));
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the controller did not set the status: {w:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A spec change bumps generation and is reconciled again.
    widgets.patch("w1", &PatchParams::default(), &Patch::Merge(json!({"spec": {"size": 5}}))).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let w = widgets.get("w1").await.unwrap();
        if w.status.as_ref().map(|s| s.observed_size) == Some(5) {
            assert_eq!(w.metadata.generation, Some(2));
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the spec change was not reconciled");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    controller.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_from_compacted_history_gets_410_and_a_recent_one_resumes() {
    use kube::api::{WatchEvent, WatchParams};
    let plane = Plane::start_with(&["--watch-history", "1s"]);
    let cms: Api<ConfigMap> = Api::namespaced(client(&plane).await, "default");
    let first = cms.create(&PostParams::default(), &configmap("old", "1")).await.unwrap();
    let old_rv = first.metadata.resource_version.unwrap();
    for i in 0..5 {
        cms.create(&PostParams::default(), &configmap(&format!("later-{i}"), "x")).await.unwrap();
    }
    // Once the history window has passed, the compactor (four passes per window) drops the
    // old versions: a watch from them then ends with 410 Gone, and until then replays them.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let mut stream = cms.watch(&WatchParams::default().timeout(5), &old_rv).await.unwrap().boxed();
        match tokio::time::timeout(Duration::from_secs(5), stream.next()).await.unwrap() {
            Some(Ok(WatchEvent::Error(e))) => {
                assert_eq!(e.code, 410, "{e:?}");
                assert_eq!(e.reason, "Expired");
                break;
            }
            Some(Ok(WatchEvent::Added(cm))) => assert!(cm.name_any().starts_with("later-"), "replayed {cm:?}"),
            other => panic!("a watch from history must replay it or end with 410 Gone, got {other:?}"),
        }
        assert!(tokio::time::Instant::now() < deadline, "the history before {old_rv} was never compacted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let recent = cms.create(&PostParams::default(), &configmap("recent", "2")).await.unwrap();
    let recent_rv = recent.metadata.resource_version.unwrap();

    // A watch from a version still in history resumes and sees the next change.
    let mut stream = cms.watch(&WatchParams::default().timeout(5), &recent_rv).await.unwrap().boxed();
    cms.create(&PostParams::default(), &configmap("after", "3")).await.unwrap();
    match tokio::time::timeout(Duration::from_secs(5), stream.next()).await.unwrap() {
        Some(Ok(WatchEvent::Added(cm))) => assert_eq!(cm.name_any(), "after"),
        other => panic!("expected the next ADDED event, got {other:?}"),
    }
}
