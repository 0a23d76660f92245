use serde_json::{Value, json};

use super::context::{Answer, Request, apply_patch, encode, verify};
use super::{WebhookSet, client::endpoint, rules_cover};
use crate::{InterpretError, Interpreter, Operation, Source, Target};

fn configuration(name: &str, hooks: Value) -> Value {
    json!({"apiVersion": "config.karmada.io/v1alpha1", "kind": "ResourceInterpreterWebhookConfiguration",
           "metadata": {"name": name}, "webhooks": hooks})
}

fn hook(name: &str, operations: &[&str], groups: &[&str], kinds: &[&str]) -> Value {
    json!({"name": name, "clientConfig": {"url": "https://127.0.0.1:1/hook"},
           "rules": [{"operations": operations, "apiGroups": groups, "apiVersions": ["*"], "kinds": kinds}],
           "interpreterContextVersions": ["v1alpha1"]})
}

fn workload() -> Target {
    Target::new("workload.example.io/v1alpha1", "Workload")
}

#[test]
fn a_rule_matches_by_operation_group_version_and_kind_or_wildcard() {
    let set = WebhookSet::from_objects(&[configuration(
        "c",
        json!([hook("w.example.com", &["InterpretReplica"], &["workload.example.io"], &["Workload"])]),
    )])
    .unwrap();
    assert!(set.first(&workload(), Operation::InterpretReplica).is_some());
    assert!(set.first(&workload(), Operation::InterpretHealth).is_none(), "another operation");
    assert!(set.first(&Target::new("apps/v1", "Workload"), Operation::InterpretReplica).is_none(), "another group");
    assert!(set.first(&Target::new("workload.example.io/v1alpha1", "Other"), Operation::InterpretReplica).is_none());

    let any = WebhookSet::from_objects(&[configuration("c", json!([hook("w.example.com", &["*"], &["*"], &["*"])]))])
        .unwrap();
    for op in Operation::ALL {
        assert!(any.first(&Target::new("v1", "Pod"), op).is_some(), "{op}");
    }
}

#[test]
fn the_first_matching_webhook_by_configuration_then_webhook_name_answers() {
    let objects = [
        configuration("b", json!([hook("a.example.com", &["*"], &["*"], &["*"])])),
        configuration(
            "a",
            json!([
                hook("z.example.com", &["InterpretHealth"], &["*"], &["*"]),
                hook("y.example.com", &["*"], &["*"], &["*"])
            ]),
        ),
    ];
    let set = WebhookSet::from_objects(&objects).unwrap();
    let first = set.first(&workload(), Operation::InterpretHealth).unwrap();
    assert_eq!((first.configuration(), first.name()), ("a", "y.example.com"));
    let interpreter = Interpreter::standard();
    interpreter.set_webhooks(set);
    assert_eq!(
        interpreter.source(&workload(), Operation::InterpretReplica),
        Some(Source::Webhook { configuration: "a".into(), webhook: "y.example.com".into() })
    );
}

#[test]
fn a_configuration_that_does_not_decode_is_named() {
    let bad = configuration("broken", json!([{"name": 3}]));
    let err = WebhookSet::from_objects(&[bad]).err().unwrap();
    assert!(err.starts_with("ResourceInterpreterWebhookConfiguration broken: "), "{err}");
}

#[test]
fn rules_cover_a_kind_for_any_operation() {
    let c = configuration("c", json!([hook("w.example.com", &["Retain"], &["workload.example.io"], &["Workload"])]));
    assert!(rules_cover(&c, &workload()));
    assert!(!rules_cover(&c, &Target::new("apps/v1", "Deployment")));
}

#[test]
fn the_request_carries_what_the_operation_needs() {
    let object = json!({"apiVersion": "workload.example.io/v1alpha1", "kind": "Workload",
                        "metadata": {"name": "w", "namespace": "ns"}, "spec": {"replicas": 3}});
    let observed = json!({"observed": true});
    let request =
        Request { observed: Some(&observed), desired_replicas: 2, ..Request::new(Operation::Retain, &object) };
    let body: Value = serde_json::from_slice(&encode("uid-1", &request)).unwrap();
    assert_eq!(body["apiVersion"], "config.karmada.io/v1alpha1");
    assert_eq!(body["kind"], "ResourceInterpreterContext");
    let r = &body["request"];
    assert_eq!(r["uid"], "uid-1");
    assert_eq!(r["kind"], json!({"group": "workload.example.io", "version": "v1alpha1", "kind": "Workload"}));
    assert_eq!((r["name"].as_str(), r["namespace"].as_str()), (Some("w"), Some("ns")));
    assert_eq!(r["operation"], "Retain");
    assert_eq!(r["object"], object);
    assert_eq!(r["observedObject"], observed);
    assert_eq!(r["replicas"], 2);
    assert!(r.get("aggregatedStatus").is_none());
}

fn answer(response: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"apiVersion": "config.karmada.io/v1alpha1", "kind": "ResourceInterpreterContext",
                               "response": response}))
    .unwrap()
}

#[test]
fn an_answer_must_echo_the_uid_and_hold_what_the_operation_returns() {
    let op = Operation::InterpretReplica;
    let ok = answer(json!({"uid": "u", "successful": true, "replicas": 4}));
    assert_eq!(verify("u", op, &ok), Ok(Answer::Replicas { replicas: 4, requirements: None }));
    assert_eq!(verify("other", op, &ok), Err("expected response.uid \"other\", got \"u\"".into()));
    let none = answer(json!({"uid": "u", "successful": true}));
    assert_eq!(verify("u", op, &none), Err("webhook returned nil response.replicas".into()));
    assert_eq!(verify("u", Operation::InterpretHealth, &none), Err("webhook returned nil response.healthy".into()));
    assert_eq!(verify("u", op, b"{}"), Err("webhook response was absent".into()));
    let failed = answer(json!({"uid": "u", "successful": false, "status": {"code": 500, "message": "no"}}));
    assert_eq!(verify("u", op, &failed), Ok(Answer::Failed { code: 500, message: "no".into() }));
    let silent = answer(json!({"uid": "u", "successful": false}));
    assert_eq!(
        verify("u", op, &silent),
        Err("webhook require response.status when response.successful is false".into())
    );
    let bad_deps =
        answer(json!({"uid": "u", "successful": true, "dependencies": [{"apiVersion": "v1", "kind": "Secret"}]}));
    assert!(verify("u", Operation::InterpretDependency, &bad_deps).is_err(), "a dependency without name or selector");
}

#[test]
fn a_patch_answer_needs_json_patch_type_and_applies_to_the_object() {
    let op = Operation::ReviseReplica;
    // "W3sib3AiOiAicmVwbGFjZSIsICJwYXRoIjogIi9zcGVjL3JlcGxpY2FzIiwgInZhbHVlIjogMn1d" is
    // [{"op": "replace", "path": "/spec/replicas", "value": 2}] in base64.
    let b64 = "W3sib3AiOiAicmVwbGFjZSIsICJwYXRoIjogIi9zcGVjL3JlcGxpY2FzIiwgInZhbHVlIjogMn1d";
    let ok = answer(json!({"uid": "u", "successful": true, "patch": b64, "patchType": "JSONPatch"}));
    let Ok(Answer::Patch(Some(patch))) = verify("u", op, &ok) else { panic!("a patch") };
    let patched = apply_patch(&json!({"spec": {"replicas": 5}}), Some(&patch)).unwrap();
    assert_eq!(patched, json!({"spec": {"replicas": 2}}));
    assert_eq!(verify("u", op, &answer(json!({"uid": "u", "successful": true}))), Ok(Answer::Patch(None)));
    let untyped = answer(json!({"uid": "u", "successful": true, "patch": b64}));
    assert_eq!(verify("u", op, &untyped), Err("webhook returned nil response.patchType".into()));
    let merge = answer(json!({"uid": "u", "successful": true, "patch": b64, "patchType": "MergePatch"}));
    assert_eq!(verify("u", op, &merge), Err("webhook returned invalid response.patchType of \"MergePatch\"".into()));
    let err = apply_patch(&json!({}), Some(&patch)).unwrap_err();
    assert!(err.starts_with("the JSON patch does not apply"), "{err}");
}

#[test]
fn a_service_reference_resolves_to_its_cluster_name() {
    let config =
        serde_json::from_value(json!({"service": {"namespace": "ns", "name": "hook", "path": "/interpret"}})).unwrap();
    assert_eq!(endpoint(&config), Ok("https://hook.ns.svc:443/interpret".into()));
    let config = serde_json::from_value(json!({"service": {"namespace": "ns", "name": "hook", "port": 8443}})).unwrap();
    assert_eq!(endpoint(&config), Ok("https://hook.ns.svc:8443".into()));
    let config = serde_json::from_value(json!({"url": "http://127.0.0.1:1/"})).unwrap();
    assert_eq!(endpoint(&config), Err("the URL \"http://127.0.0.1:1/\" is not https".into()));
}

#[tokio::test]
async fn a_webhook_without_the_v1alpha1_context_answers_with_an_error_and_is_not_called() {
    let mut h = hook("w.example.com", &["*"], &["*"], &["*"]);
    h["interpreterContextVersions"] = json!(["v1beta1"]);
    let interpreter = Interpreter::standard();
    interpreter.set_webhooks(WebhookSet::from_objects(&[configuration("c", json!([h]))]).unwrap());
    let object = json!({"apiVersion": "workload.example.io/v1alpha1", "kind": "Workload", "metadata": {"name": "w"}});
    let err = interpreter.replicas(&object).await.unwrap_err();
    assert!(matches!(err, InterpretError::Webhook { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "InterpretReplica webhook c/w.example.com: could not create ResourceInterpreterContext objects: webhook \
         does not accept known ResourceInterpreterContext versions (v1alpha1)"
    );
}

#[tokio::test]
async fn a_webhook_that_is_down_is_a_webhook_error() {
    // Port 1 on the loopback refuses connections.
    let interpreter = Interpreter::standard();
    let set = WebhookSet::from_objects(&[configuration("c", json!([hook("w.example.com", &["*"], &["*"], &["*"])]))]);
    interpreter.set_webhooks(set.unwrap());
    let object = json!({"apiVersion": "workload.example.io/v1alpha1", "kind": "Workload", "metadata": {"name": "w"}});
    let err = interpreter.interpret_health(&object).await.unwrap_err().to_string();
    assert!(err.starts_with("InterpretHealth webhook c/w.example.com: failed to call webhook: "), "{err}");
    assert!(err.to_lowercase().contains("refused"), "{err}");
}
