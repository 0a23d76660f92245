//! `create token` does what kubectl 1.33's does on the same plane: both tools get tokens the
//! plane accepts for the service account, with the same claims, the same `-o yaml|json|name`
//! shape (apart from the token and its times), and the same errors for bad flags and for
//! requests the plane refuses.

use base64::Engine as _;
use serde_json::Value;

use crate::common::plane::Plane;
use crate::common::{self, Run};

fn ours(plane: &Plane, args: &[&str]) -> Run {
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.env("KUBECONFIG", &plane.kubeconfig).args(args);
    common::run(cmd)
}

fn theirs(plane: &Plane, args: &[&str]) -> Run {
    plane.kubectl_version_run("1.33", args)
}

/// Runs `args` with both tools; they must agree on exit code, stdout (once `mask`ed) and
/// stderr. Returns (ours, theirs).
fn same(plane: &Plane, args: &[&str], mask: impl Fn(&str) -> String) -> (Run, Run) {
    let (o, t) = (ours(plane, args), theirs(plane, args));
    assert_eq!(o.code, t.code, "{args:?}: kubectl said {}, karmadactl said {}", t.stderr, o.stderr);
    assert_eq!(mask(&o.stdout), mask(&t.stdout), "stdout of {args:?}");
    let stderr = |s: &str| {
        s.replace("kubectl.1.33 create", "karmadactl create").replace("'kubectl create", "'karmadactl create")
    };
    assert_eq!(stderr(&o.stderr), stderr(&t.stderr), "stderr of {args:?}");
    (o, t)
}

/// The JWT's claims.
fn claims(token: &str) -> Value {
    let payload = token.split('.').nth(1).expect("a JWT has three parts");
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

/// The claims with what differs between two tokens replaced by its type.
fn shape(token: &str) -> Value {
    let mut c = claims(token);
    for k in ["exp", "iat", "nbf", "jti"] {
        assert!(c.get(k).is_some(), "{k} missing from {c}");
        c[k] = Value::String(k.into());
    }
    c
}

/// Who the plane says a token's bearer is (kubectl 1.32 `auth whoami`).
fn whoami(plane: &Plane, name: &str, token: &str) -> Run {
    let kc = plane.token_kubeconfig(name, token);
    plane.kubectl_as(&kc, &["auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"])
}

/// `-o yaml|json` text with the token and its times masked.
fn mask_object(text: &str) -> String {
    text.lines()
        .map(|l| {
            let key = l.trim_start().trim_start_matches('"');
            let masked = ["token", "creationTimestamp", "expirationTimestamp"]
                .iter()
                .find(|k| key.starts_with(&format!("{k}\"")) || key.starts_with(&format!("{k}:")));
            match masked {
                Some(k) => format!("{}{k}: X", &l[..l.len() - l.trim_start().len()]),
                None => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn create_token_does_what_kubectl_does() {
    let plane = Plane::start();
    plane.create("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n");
    plane.create("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: robot\n  namespace: team\n");
    plane.create("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: other\n  namespace: team\n");
    plane.create("apiVersion: v1\nkind: Secret\nmetadata:\n  name: s1\n  namespace: team\n");
    plane.create("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\n  namespace: team\nspec:\n  serviceAccountName: robot\n  containers:\n  - name: c\n    image: busybox\n");
    plane.create("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p2\n  namespace: team\nspec:\n  serviceAccountName: other\n  containers:\n  - name: c\n    image: busybox\n");
    let keep = |s: &str| s.to_string();
    let any_token = |_: &str| String::new();

    // A plain token: printed alone (no newline into a pipe); both authenticate as the account.
    let (o, t) = same(&plane, &["create", "token", "robot", "-n", "team"], any_token);
    assert_eq!((o.code, o.stdout.matches('.').count(), o.stdout.ends_with('\n')), (0, 2, false), "{}", o.stderr);
    assert_eq!(shape(&o.stdout), shape(&t.stdout));
    let c = claims(&o.stdout);
    assert_eq!(c["exp"].as_i64().unwrap() - c["iat"].as_i64().unwrap(), 3600);
    assert_eq!(c["sub"], "system:serviceaccount:team:robot");
    for (name, token) in [("ours", &o.stdout), ("theirs", &t.stdout)] {
        let who = whoami(&plane, name, token);
        assert_eq!((who.code, who.stdout.as_str()), (0, "system:serviceaccount:team:robot"), "{name}: {}", who.stderr);
    }

    // Audiences, a lifetime and a bound Secret end up in the claims alike.
    let args = ["create", "token", "robot", "-n", "team", "--audience=a", "--audience", "b", "--duration=20m"];
    let bound = [&args[..], &["--bound-object-kind=Secret", "--bound-object-name=s1"]].concat();
    let (o, t) = same(&plane, &bound, any_token);
    assert_eq!(shape(&o.stdout), shape(&t.stdout));
    let c = claims(&o.stdout);
    assert_eq!(c["aud"], serde_json::json!(["a", "b"]));
    assert_eq!(c["exp"].as_i64().unwrap() - c["iat"].as_i64().unwrap(), 1200);
    assert_eq!(c["kubernetes.io"]["secret"]["name"], "s1");
    // The plane accepts only its own audiences.
    assert_ne!(whoami(&plane, "aud", &o.stdout).code, 0);

    // Pod-bound tokens carry the pod and authenticate while it exists.
    let pod = ["create", "token", "robot", "-n", "team", "--bound-object-kind=Pod", "--bound-object-name=p1"];
    let (o, t) = same(&plane, &pod, any_token);
    assert_eq!(shape(&o.stdout), shape(&t.stdout));
    assert_eq!(claims(&o.stdout)["kubernetes.io"]["pod"]["name"], "p1");
    assert_eq!(whoami(&plane, "pod", &o.stdout).stdout, "system:serviceaccount:team:robot");

    // -o prints the TokenRequest as the typed client decodes it.
    for output in ["yaml", "json"] {
        let (o, _) = same(&plane, &[&bound[..], &["-o", output]].concat(), mask_object);
        assert!(o.stdout.contains("TokenRequest"), "{}", o.stdout);
    }
    let (o, _) = same(&plane, &["create", "token", "robot", "-n", "team", "-o", "yaml"], mask_object);
    assert!(o.stdout.contains("boundObjectRef: null\n"), "{}", o.stdout);
    assert!(o.stdout.contains("expirationSeconds: 3600\n"), "{}", o.stdout);
    let (o, _) = same(&plane, &["create", "token", "robot", "-n", "team", "-o", "name"], keep);
    assert_eq!(o.stdout, "tokenrequest.authentication.k8s.io/robot\n");

    // The same refusals, from the flags and from the plane.
    let refusals: &[&[&str]] = &[
        &["create", "token"],
        &["create", "token", "a", "b"],
        &["create", "token", "robot", "--duration=1m"],
        &["create", "token", "robot", "--duration=-1s"],
        &["create", "token", "robot", "--duration=1500ms"],
        &["create", "token", "robot", "--duration=soon"],
        &["create", "token", "robot", "--duration=2000000h"],
        &["create", "token", "robot", "--audience="],
        &["create", "token", "robot", "--bound-object-name=x"],
        &["create", "token", "robot", "--bound-object-uid=x"],
        &["create", "token", "robot", "--bound-object-kind=Deployment", "--bound-object-name=x"],
        &["create", "token", "robot", "--bound-object-kind=Pod"],
        &["create", "token", "robot", "--bound-object-kind=Secret", "--bound-object-name=nope"],
        &["create", "token", "robot", "--bound-object-kind=Secret", "--bound-object-name=s1", "--bound-object-uid=u"],
        &["create", "token", "robot", "--bound-object-kind=Pod", "--bound-object-name=p2"],
        &["create", "token", "nobody"],
    ];
    for args in refusals {
        let args = [&args[..], &["-n", "team"]].concat();
        let (o, _) = same(&plane, &args, keep);
        assert_eq!((o.code, o.stdout.as_str()), (1, ""), "{args:?}: {}", o.stderr);
        assert!(o.stderr.starts_with("error: "), "{args:?}: {}", o.stderr);
    }

    // Template formats are not built, so the list of formats differs (docs/differences.md).
    let wide = ours(&plane, &["create", "token", "robot", "-n", "team", "-o", "wide"]);
    assert_eq!((wide.code, wide.stdout.as_str()), (1, ""));
    assert!(wide.stderr.starts_with("error: unable to match a printer suitable for the output format \"wide\""));

    // Without `create serviceaccounts/token`, the account cannot mint tokens for itself.
    let robot = ours(&plane, &["create", "token", "robot", "-n", "team"]).stdout;
    let kc = plane.token_kubeconfig("robot", &robot);
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.env("KUBECONFIG", &kc).args(["create", "token", "robot", "-n", "team"]);
    let denied = common::run(cmd);
    let kubectl_denied = plane.kubectl_as(&kc, &["create", "token", "robot", "-n", "team"]);
    assert_eq!((denied.code, denied.stderr.as_str()), (1, kubectl_denied.stderr.as_str()));
    assert!(denied.stderr.contains("cannot create resource \"serviceaccounts/token\""), "{}", denied.stderr);
}
