//! Bad input to the embedded API server: each case is a 4xx `Status` with a clear message,
//! nothing is stored, and the server keeps serving.

use crate::common::plane::Plane;
use crate::common::raw_api::send;
use http::Method;
use kube::Client;
use serde_json::Value;

async fn client(plane: &Plane) -> Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await.unwrap();
    Client::try_from(cfg).unwrap()
}

fn assert_status(code: u16, body: &Value, want: u16, message_part: &str) {
    assert_eq!(code, want, "{body}");
    assert_eq!(body["kind"], "Status", "{body}");
    assert_eq!(body["code"], want, "{body}");
    let msg = body["message"].as_str().unwrap_or_default();
    assert!(msg.contains(message_part), "message {msg:?} lacks {message_part:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_bodies_selectors_patches_and_names() {
    let plane = Plane::start();
    let c = client(&plane).await;
    let cms = "/api/v1/namespaces/default/configmaps";

    let (code, body) = send(&c, Method::POST, cms, "application/json", b"{not json".to_vec()).await;
    assert_status(code, &body, 400, "");
    let (code, body) = send(&c, Method::POST, cms, "application/yaml", b"a: [unclosed".to_vec()).await;
    assert_status(code, &body, 400, "");
    let (code, body) = send(
        &c,
        Method::POST,
        cms,
        "application/json",
        br#"{"kind":"Secret","apiVersion":"v1","metadata":{"name":"x"}}"#.to_vec(),
    )
    .await;
    assert_status(code, &body, 400, "does not match the expected kind");
    let (code, body) = send(&c, Method::POST, cms, "text/html", b"<p>".to_vec()).await;
    assert_status(code, &body, 415, "");

    let huge = format!(r#"{{"metadata":{{"name":"huge"}},"data":{{"k":"{}"}}}}"#, "x".repeat(4 * 1024 * 1024));
    let (code, body) = send(&c, Method::POST, cms, "application/json", huge.into_bytes()).await;
    assert_status(code, &body, 413, "");

    for name in ["Upper", "under_score", "-dash", &"a".repeat(254)] {
        let obj = serde_json::json!({"metadata": {"name": name}});
        let (code, body) = send(&c, Method::POST, cms, "application/json", obj.to_string().into_bytes()).await;
        assert_status(code, &body, 422, "metadata.name");
        assert_eq!(body["reason"], "Invalid");
    }
    let obj = serde_json::json!({"metadata": {"name": "ok", "labels": {"bad key!": "v"}}});
    let (code, body) = send(&c, Method::POST, cms, "application/json", obj.to_string().into_bytes()).await;
    assert_status(code, &body, 422, "metadata.labels");

    let (code, body) =
        send(&c, Method::GET, &format!("{cms}?labelSelector=a%20in%20(b"), "application/json", vec![]).await;
    assert_status(code, &body, 400, "");
    let (code, body) =
        send(&c, Method::GET, &format!("{cms}?fieldSelector=spec.x%3Dy"), "application/json", vec![]).await;
    assert_status(code, &body, 400, "field label not supported");

    let (code, _) =
        send(&c, Method::POST, cms, "application/json", br#"{"metadata":{"name":"target"},"data":{"a":"b"}}"#.to_vec())
            .await;
    assert_eq!(code, 201);
    let target = format!("{cms}/target");
    let (code, body) =
        send(&c, Method::PATCH, &target, "application/json-patch+json", b"[{\"op\":\"explode\"}]".to_vec()).await;
    assert!(code == 400 || code == 422, "{code} {body}");
    assert_eq!(body["kind"], "Status");
    let (code, body) = send(&c, Method::PATCH, &target, "application/merge-patch+json", b"[1,2]".to_vec()).await;
    assert!(code == 400 || code == 422, "{code} {body}");
    let (code, body) = send(&c, Method::PATCH, &target, "application/json-patch+json", b"not json".to_vec()).await;
    assert_status(code, &body, 400, "");

    // Nothing half-created, and the server still answers.
    let (code, body) = send(&c, Method::GET, cms, "application/json", vec![]).await;
    assert_eq!(code, 200);
    let names: Vec<&str> =
        body["items"].as_array().unwrap().iter().filter_map(|i| i["metadata"]["name"].as_str()).collect();
    assert_eq!(names, ["target"], "only the one valid object exists");
    let (code, body) = send(&c, Method::GET, &target, "application/json", vec![]).await;
    assert_eq!(code, 200);
    assert_eq!(body["data"], serde_json::json!({"a": "b"}), "failed patches changed nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_strategic_merge_patches() {
    let plane = Plane::start();
    let c = client(&plane).await;
    let pods = "/api/v1/namespaces/default/pods";
    let pod = br#"{"metadata":{"name":"p","finalizers":["example.com/f"]},
        "spec":{"containers":[{"name":"a","image":"nginx","env":[{"name":"E","value":"1"}]}]}}"#;
    let (code, body) = send(&c, Method::POST, pods, "application/json", pod.to_vec()).await;
    assert_eq!(code, 201, "{body}");
    let target = format!("{pods}/p");
    let smp = "application/strategic-merge-patch+json";

    let cases: &[(&[u8], u16, &str)] = &[
        (b"{\"spec\":", 400, ""),
        (b"not json", 400, ""),
        (b"[{\"op\":\"add\"}]", 400, "json: cannot unmarshal array into Go value of type map[string]interface {}"),
        (b"\"text\"", 400, "cannot unmarshal string"),
        (br#"{"$patch":"bogus"}"#, 400, "unknown patch type: bogus in map"),
        (br#"{"spec":{"containers":[{"name":"a","$patch":"explode"}]}}"#, 400, "unknown patch type: explode"),
        (br#"{"spec":{"containers":[{"$patch":"delete"}]}}"#, 400, "does not contain declared merge key: name"),
        (br#"{"spec":{"containers":[{"image":"x"}]}}"#, 400, "does not contain declared merge key: name"),
        (br#"{"spec":{"containers":[{"$patch":"merge"}]}}"#, 400, "merging lists cannot yet be specified"),
        (br#"{"spec":{"containers":["a"]}}"#, 400, "list element types are not identical"),
        (br#"{"spec":{"$retainKeys":"containers"}}"#, 400, "invalid patch format of retainKeys"),
        (br#"{"spec":{"$retainKeys":["x"],"containers":[]}}"#, 400, "invalid patch format of retainKeys"),
        (br#"{"spec":{"$setElementOrder/containers":{"name":"a"}}}"#, 400, "expected a []interface {}"),
        (br#"{"spec":{"$setElementOrder":[]}}"#, 400, "invalid patch format of setElementOrder list"),
        (br#"{"metadata":{"$deleteFromPrimitiveList":["x"]}}"#, 400, "invalid patch format of primitive list"),
        (
            br#"{"spec":{"$setElementOrder/containers":[{"name":"z"}],"containers":[{"name":"a","image":"y"}]}}"#,
            400,
            "doesn't match $setElementOrder list",
        ),
    ];
    for (patch, want, text) in cases {
        let (code, body) = send(&c, Method::PATCH, &target, smp, patch.to_vec()).await;
        assert_status(code, &body, *want, text);
        assert_eq!(body["reason"], "BadRequest", "{body}");
    }
    let (code, body) = send(&c, Method::PATCH, &target, smp, br#"{"metadata":{"finalizers":[["x"]]}}"#.to_vec()).await;
    assert_status(code, &body, 400, "list element types are not identical");

    // Nothing changed, and a good patch still works afterwards.
    let (code, body) = send(&c, Method::GET, &target, "application/json", vec![]).await;
    assert_eq!(code, 200);
    assert_eq!(body["spec"]["containers"][0]["image"], "nginx");
    assert_eq!(body["metadata"]["finalizers"], serde_json::json!(["example.com/f"]));
    let good = br#"{"spec":{"containers":[{"name":"a","env":[{"name":"E","$patch":"delete"}]}]}}"#;
    let (code, body) = send(&c, Method::PATCH, &target, smp, good.to_vec()).await;
    assert_eq!(code, 200, "{body}");
    let env = &body["spec"]["containers"][0]["env"];
    assert!(env.as_array().is_none_or(|e| e.is_empty()), "{body}");
    assert_eq!(body["spec"]["containers"][0]["image"], "nginx");
}

/// An update carries the managedFields it read back; those pass as they are, while a changed
/// entry that does not decode is refused like any other field of the wrong type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn managed_fields_sent_back_pass_and_malformed_ones_are_refused() {
    let plane = Plane::start();
    let c = client(&plane).await;
    let cms = "/api/v1/namespaces/default/configmaps";
    let (code, _) =
        send(&c, Method::POST, cms, "application/json", br#"{"metadata":{"name":"mf"},"data":{"a":"1"}}"#.to_vec())
            .await;
    assert_eq!(code, 201);
    let one = format!("{cms}/mf");
    let (_, mut stored) = send(&c, Method::GET, &one, "application/json", vec![]).await;
    assert_eq!(stored["metadata"]["managedFields"].as_array().map(Vec::len), Some(1), "{stored}");

    stored["data"]["a"] = "2".into();
    let (code, updated) = send(&c, Method::PUT, &one, "application/json", stored.to_string().into_bytes()).await;
    assert_eq!(code, 200, "{updated}");
    assert_eq!(updated["metadata"]["managedFields"][0]["fieldsV1"], stored["metadata"]["managedFields"][0]["fieldsV1"]);

    let mut malformed = updated.clone();
    malformed["data"]["a"] = "3".into();
    malformed["metadata"]["managedFields"][0]["manager"] = 5.into();
    let (code, body) = send(&c, Method::PUT, &one, "application/json", malformed.to_string().into_bytes()).await;
    assert_status(code, &body, 400, "cannot be handled as a ConfigMap");
    assert!(body["message"].as_str().unwrap().contains("managedFields"), "{body}");
    let (_, now) = send(&c, Method::GET, &one, "application/json", vec![]).await;
    assert_eq!(now["data"]["a"], "2", "the refused update changed nothing");
}
