//! Interpreter webhooks end to end: a real HTTPS webhook started by the test, trusted through
//! the caBundle of a ResourceInterpreterWebhookConfiguration, interprets a CRD kind for the
//! fleet (its replica count divides the kind across members, its revision reaches them, its
//! health verdict shows in the binding); a webhook that is down, or answers with another
//! request's uid, is refused with a Warning on the template and the plane stays healthy; and
//! admission refuses configurations upstream's webhook refuses, naming the field.

use base64::Engine;
use serde_json::{Value, json};

use karmadactl_interpreter::{Interpreter, WebhookSet};

use crate::common::fleet::Fleet;
use crate::common::webhook_server::WebhookServer;
use crate::resource_interpreter::{CRD, set_ready, wait_health, weighted_policy};

/// The CRD of the Workload kind, made over for another kind of the same shape.
fn crd(kind: &str, plural: &str) -> String {
    CRD.replace("workloads", plural).replace("Workload", kind).replace("workload", &kind.to_lowercase())
}

/// The webhook: replicas at `spec.size`, a revision that writes a cluster's share there and
/// labels the copy, healthy once all are ready. Under `/wrong-uid` it answers with a uid of
/// its own, under `/refuse` it refuses, under `/huge` its answer is over 4 MiB.
fn answer(path: &str, request: &Value) -> Value {
    let uid = if path == "/wrong-uid" { "not-the-request-uid" } else { request["uid"].as_str().unwrap_or_default() };
    if path == "/refuse" {
        return json!({"uid": uid, "successful": false, "status": {"code": 403, "message": "not today"}});
    }
    if path == "/huge" {
        return json!({"uid": uid, "successful": true, "replicas": 1, "rawStatus": {"pad": "x".repeat(4 << 20)}});
    }
    let object = &request["object"];
    let mut response = json!({"uid": uid, "successful": true});
    match request["operation"].as_str().unwrap_or_default() {
        "InterpretReplica" => response["replicas"] = object["spec"]["size"].clone(),
        "ReviseReplica" => {
            let patch = json!([
                {"op": "replace", "path": "/spec/size", "value": request["replicas"]},
                {"op": "add", "path": "/metadata/labels/revised-by", "value": "webhook"},
            ]);
            let encoded = base64::engine::general_purpose::STANDARD.encode(patch.to_string());
            response["patch"] = json!(encoded);
            response["patchType"] = json!("JSONPatch");
        }
        "InterpretHealth" => {
            response["healthy"] = json!(object["status"]["readySize"] == object["spec"]["size"]);
        }
        other => {
            response = json!({"uid": uid, "successful": false,
                              "status": {"code": 400, "message": format!("no rule for {other}")}});
        }
    }
    response
}

fn configuration(name: &str, kind: &str, url: &str, ca_pem: &str) -> String {
    let config = json!({
        "apiVersion": "config.karmada.io/v1alpha1",
        "kind": "ResourceInterpreterWebhookConfiguration",
        "metadata": {"name": name},
        "webhooks": [{
            "name": format!("{}.example.io", kind.to_lowercase()),
            "clientConfig": {"url": url, "caBundle": base64::engine::general_purpose::STANDARD.encode(ca_pem)},
            "rules": [{"operations": ["InterpretReplica", "ReviseReplica", "InterpretHealth"],
                       "apiGroups": ["example.io"], "apiVersions": ["v1"], "kinds": [kind]}],
            "timeoutSeconds": 5,
            "interpreterContextVersions": ["v1alpha1"],
        }],
    });
    config.to_string()
}

fn template(kind: &str, name: &str) -> String {
    format!(
        "apiVersion: example.io/v1\nkind: {kind}\nmetadata:\n  name: {name}\n  namespace: default\n  labels: {{app: web}}\nspec:\n  size: 6\n"
    )
}

/// The Warning events of the template `name`, as `reason: message` and their counts.
fn warnings(fleet: &Fleet, name: &str) -> Vec<(String, i64)> {
    let events = fleet.get("karmada-apiserver", &["events", "-n", "default"]).unwrap_or_default();
    events["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["involvedObject"]["name"] == name && e["type"] == "Warning")
        .map(|e| {
            let text =
                format!("{}: {}", e["reason"].as_str().unwrap_or_default(), e["message"].as_str().unwrap_or_default());
            (text, e["count"].as_i64().unwrap_or_default())
        })
        .collect()
}

/// The one Warning on the template `name`, once the engine has retried and counted it again
/// (a failing template keeps one Event, not one per retry).
fn repeated_warning(fleet: &Fleet, name: &str) -> String {
    fleet.wait(&format!("a repeated Warning on {name}"), || match warnings(fleet, name).as_slice() {
        [(text, count)] if *count >= 2 => Ok(text.clone()),
        seen => Err(format!("{seen:?}")),
    })
}

#[test]
fn a_webhook_divides_revises_and_judges_a_crd_kind_and_a_failing_one_is_reported() {
    let server = WebhookServer::start(answer);
    // A port nothing listens on: the one a listener had before it closed.
    let down = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("https://{}/", listener.local_addr().unwrap())
    };
    let fleet = Fleet::up(2);
    for (kind, plural) in [("Workload", "workloads"), ("Gadget", "gadgets"), ("Widget", "widgets")] {
        let file = fleet.home.path().join(format!("{plural}-crd.yaml"));
        std::fs::write(&file, crd(kind, plural)).unwrap();
        for context in ["karmada-apiserver", "member1", "member2"] {
            fleet.k_ok(context, &["apply", "-f", file.to_str().unwrap()]);
        }
    }
    fleet.apply(&configuration("workloads", "Workload", &format!("{}/interpret", server.url), &server.ca_pem));
    fleet.apply(&configuration("gadgets", "Gadget", &down, &server.ca_pem));
    fleet.apply(&configuration("widgets", "Widget", &format!("{}/wrong-uid", server.url), &server.ca_pem));
    let selectors = ["Workload", "Gadget", "Widget"].map(|k| format!("  - {{apiVersion: example.io/v1, kind: {k}}}"));
    fleet.apply(&weighted_policy(&selectors.join("\n")));
    fleet.apply(&template("Workload", "web"));

    // The webhook says 6 replicas; the static weights 2:1 give member1 4 and member2 2, which
    // the webhook's revision writes into each copy (and labels it).
    let copy = |member: &str| fleet.get(member, &["workloads.example.io", "web", "-n", "default"]);
    // Each member's copy: its size and the mark the webhook's revision leaves.
    let copies = || -> Vec<(Value, Value)> {
        ["member1", "member2"]
            .iter()
            .map(|m| {
                copy(m).map_or((Value::Null, Value::Null), |w| {
                    (w["spec"]["size"].clone(), w["metadata"]["labels"]["revised-by"].clone())
                })
            })
            .collect()
    };
    let wait_copies = |what: &str, want: Vec<(Value, Value)>| {
        fleet.wait(what, || {
            let seen = copies();
            if seen == want { Ok(()) } else { Err(format!("{seen:?}")) }
        })
    };
    wait_copies(
        "sizes 4 and 2 written by the webhook's revision",
        vec![(json!(4), json!("webhook")), (json!(2), json!("webhook"))],
    );
    let binding = || fleet.get("karmada-apiserver", &["resourcebindings", "web-workload", "-n", "default"]).unwrap();
    assert_eq!(binding()["spec"]["replicas"], 6);
    // What the webhook was sent: a ResourceInterpreterContext about the template, with the
    // cluster's share for ReviseReplica.
    let revisions = server.requests_to("/interpret");
    let revise = revisions.iter().find(|r| r["operation"] == "ReviseReplica").expect("a ReviseReplica request");
    assert_eq!(revise["kind"], json!({"group": "example.io", "version": "v1", "kind": "Workload"}));
    assert_eq!((revise["name"].as_str(), revise["namespace"].as_str()), (Some("web"), Some("default")));
    assert!(revise["replicas"] == 4 || revise["replicas"] == 2, "{}", revise["replicas"]);
    assert_eq!(revise["object"]["spec"]["size"], 6);

    // The webhook judges health: member1 fully ready, member2 not.
    set_ready(&fleet, "member1", 4);
    set_ready(&fleet, "member2", 1);
    wait_health(&fleet, binding, ("Healthy", "Unhealthy"));

    // A webhook that is down: the template gets a Warning saying so, and no binding.
    fleet.apply(&template("Gadget", "g1"));
    let warning = repeated_warning(&fleet, "g1");
    assert!(
        warning.starts_with(
            "ApplyPolicyFailed: Apply policy(default/web) failed: InterpretReplica webhook gadgets/gadget.example.io: failed to call webhook: "
        ),
        "{warning}"
    );
    assert!(warning.contains("Connection refused"), "{warning}");
    assert!(fleet.get("karmada-apiserver", &["resourcebindings", "g1-gadget", "-n", "default"]).is_none());

    // A webhook answering with another uid is refused the same way.
    fleet.apply(&template("Widget", "w1"));
    let warning = repeated_warning(&fleet, "w1");
    assert!(warning.contains("InterpretReplica webhook widgets/widget.example.io: received invalid webhook response: expected response.uid \""), "{warning}");
    assert!(warning.ends_with("got \"not-the-request-uid\""), "{warning}");
    assert!(fleet.get("karmada-apiserver", &["resourcebindings", "w1-widget", "-n", "default"]).is_none());

    // The plane is healthy and the working webhook's kind is untouched.
    assert_eq!(fleet.plane(&["get", "--raw", "/readyz"]).trim(), "ok");
    assert_eq!(copy("member1").unwrap()["spec"]["size"], 4);

    // Deleting the configuration takes the webhook away from the kind at once: nobody
    // interprets Workloads, so each member gets the template as it is.
    fleet.plane(&["delete", "resourceinterpreterwebhookconfiguration", "workloads"]);
    wait_copies("the template as it is in both members", vec![(json!(6), Value::Null), (json!(6), Value::Null)]);
    assert!(binding()["spec"].get("replicas").is_none(), "{}", binding()["spec"]);
}

#[test]
fn admission_refuses_a_webhook_configuration_upstream_refuses_naming_the_field() {
    let plane = crate::common::plane::Plane::start();
    let good = json!({
        "apiVersion": "config.karmada.io/v1alpha1",
        "kind": "ResourceInterpreterWebhookConfiguration",
        "metadata": {"name": "checked"},
        "webhooks": [{
            "name": "workloads.example.io",
            "clientConfig": {"url": "https://127.0.0.1:8443/interpret"},
            "rules": [{"operations": ["InterpretReplica"], "apiGroups": ["example.io"], "apiVersions": ["v1"], "kinds": ["Workload"]}],
            "timeoutSeconds": 5,
            "interpreterContextVersions": ["v1alpha1"],
        }],
    });
    let cases = [
        (
            json!({"clientConfig": {"url": "http://127.0.0.1:8443/interpret"}}),
            "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
        ),
        (
            json!({"rules": [{"operations": ["Prune"], "apiGroups": ["example.io"], "apiVersions": ["v1"], "kinds": ["Workload"]}]}),
            "webhooks[0].rules[0].operations[0]: Unsupported value: \"Prune\": supported values: \"*\", \"AggregateStatus\", \"InterpretComponent\", \"InterpretDependency\", \"InterpretHealth\", \"InterpretReplica\", \"InterpretStatus\", \"Retain\", \"ReviseReplica\"",
        ),
        (
            json!({"timeoutSeconds": 31}),
            "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
        ),
    ];
    for (change, message) in cases {
        let mut bad = good.clone();
        let hook = bad["webhooks"][0].as_object_mut().unwrap();
        for (k, v) in change.as_object().unwrap() {
            hook.insert(k.clone(), v.clone());
        }
        let file = plane.dir.path().join("bad.json");
        std::fs::write(&file, bad.to_string()).unwrap();
        let run = plane.kubectl_run(&["create", "-f", file.to_str().unwrap()]);
        assert_ne!(run.code, 0);
        assert_eq!(
            run.stderr.trim(),
            format!("The ResourceInterpreterWebhookConfiguration \"checked\" is invalid: {message}"),
            "{change}"
        );
        let listed = plane.kubectl_run(&["get", "resourceinterpreterwebhookconfigurations", "-o", "name"]);
        assert_eq!(listed.stdout.trim(), "", "nothing was stored");
    }
    let file = plane.dir.path().join("good.json");
    std::fs::write(&file, good.to_string()).unwrap();
    plane.kubectl_ok(&["create", "-f", file.to_str().unwrap()]);
    let listed = plane.kubectl_ok(&["get", "resourceinterpreterwebhookconfigurations", "-o", "name"]);
    assert_eq!(listed.trim(), "resourceinterpreterwebhookconfiguration.config.karmada.io/checked");
}

/// The interpreter of the engine with one webhook for Workloads at `url`, trusting `ca_pem`
/// and given one second.
fn interpreter_calling(url: &str, ca_pem: &str) -> Interpreter {
    let mut config: Value = serde_json::from_str(&configuration("direct", "Workload", url, ca_pem)).unwrap();
    config["webhooks"][0]["timeoutSeconds"] = json!(1);
    let interpreter = Interpreter::standard();
    interpreter.set_webhooks(WebhookSet::from_objects(&[config]).unwrap());
    interpreter
}

#[test]
fn a_webhook_is_trusted_only_through_its_ca_bundle_and_bounded_in_time_and_size() {
    let server = WebhookServer::start(answer);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let workload: Value = workload_object();
    let replicas = |path: &str, ca_pem: &str| {
        let interpreter = interpreter_calling(&format!("{}{path}", server.url), ca_pem);
        runtime.block_on(interpreter.replicas(&workload)).map(|r| r.replicas).map_err(|e| e.to_string())
    };
    let prefix = "InterpretReplica webhook direct/workload.example.io: ";

    assert_eq!(replicas("/interpret", &server.ca_pem), Ok(6));

    let other_ca = karmadactl_pki::CertificateAuthority::generate(&karmadactl_pki::CaSpec::new(
        "another-ca",
        karmadactl_pki::Validity::from_now(std::time::Duration::from_secs(3600)).unwrap(),
    ))
    .unwrap();
    let err = replicas("/interpret", other_ca.cert_pem()).unwrap_err();
    assert!(err.starts_with(&format!("{prefix}failed to call webhook: ")), "{err}");
    assert!(err.contains("invalid peer certificate: UnknownIssuer"), "{err}");

    let err = replicas("/huge", &server.ca_pem).unwrap_err();
    assert_eq!(err, format!("{prefix}failed to call webhook: the response is larger than 3 MiB"));

    let err = replicas("/slow", &server.ca_pem).unwrap_err();
    assert_eq!(err, format!("{prefix}failed to call webhook: no answer within 1s (the webhook's timeoutSeconds)"));

    let err = replicas("/refuse", &server.ca_pem).unwrap_err();
    assert_eq!(err, format!("{prefix}webhook call failed, get status code: 403, msg: not today"));

    let err = replicas("/wrong-uid", &server.ca_pem).unwrap_err();
    assert!(err.starts_with(&format!("{prefix}received invalid webhook response: expected response.uid ")), "{err}");

    // Every call but the untrusted one reached the server (that one failed in the handshake).
    let paths: Vec<String> = server.requests.lock().unwrap().iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(paths, ["/interpret", "/huge", "/slow", "/refuse", "/wrong-uid"]);
}

fn workload_object() -> Value {
    json!({"apiVersion": "example.io/v1", "kind": "Workload",
           "metadata": {"name": "web", "namespace": "default"}, "spec": {"size": 6}})
}
