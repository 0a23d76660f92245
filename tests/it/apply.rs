//! `apply` does what kubectl 1.33's apply does on the same plane (the same lines on stdout and
//! stderr, the same exit code, the same objects afterwards, last-applied annotation included);
//! kubectl works in namespace `theirs`, karmadactl in `ours`. With `--all-clusters` or `-C`,
//! each object is followed by the policy upstream generates, and the object reaches the members.

use serde_json::Value;

use crate::common::Run;
use crate::common::fleet::Fleet;

struct Twins<'a> {
    fleet: &'a Fleet,
}

impl<'a> Twins<'a> {
    /// Both namespaces, empty.
    fn new(fleet: &'a Fleet) -> Self {
        for ns in ["theirs", "ours"] {
            fleet.plane(&["create", "namespace", ns]);
        }
        Twins { fleet }
    }

    fn write(&self, name: &str, text: &str) -> String {
        let file = self.fleet.home.path().join(name);
        std::fs::write(&file, text).unwrap();
        file.to_str().unwrap().to_string()
    }

    /// The objects of a namespace without what differs between any two objects; the
    /// namespace's name is written `NS` wherever it appears (the last-applied annotation).
    fn objects(&self, ns: &str) -> Value {
        let run = self
            .fleet
            .k("karmada-apiserver", &["get", "deployments,configmaps,overridepolicies", "-n", ns, "-o", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut list: Value = serde_json::from_str(&run.stdout).unwrap();
        for item in list["items"].as_array_mut().unwrap() {
            let meta = item["metadata"].as_object_mut().unwrap();
            for k in ["resourceVersion", "uid", "creationTimestamp", "managedFields", "namespace", "generation"] {
                meta.remove(k);
            }
            item.as_object_mut().unwrap().remove("status");
        }
        let text = serde_json::to_string(&list["items"]).unwrap().replace(&format!("\\\"{ns}\\\""), "\\\"NS\\\"");
        serde_json::from_str(&text).unwrap()
    }

    /// Runs `args` with both tools, each in its namespace, and checks they agree.
    fn same(&self, args: &[&str]) -> Run {
        let with_ns = |ns: &'static str| {
            let mut all = args.to_vec();
            all.extend(["-n", ns]);
            all
        };
        let theirs = self.fleet.k("karmada-apiserver", &with_ns("theirs"));
        let ours = self.fleet.karmadactl(&with_ns("ours"));
        let text = |s: &str| {
            s.replace("theirs", "ours")
                .replace("kubectl apply", "karmadactl apply")
                .replace("kubectl create", "karmadactl create")
        };
        assert_eq!(ours.code, theirs.code, "{args:?}: kubectl said {}, karmadactl said {}", theirs.stderr, ours.stderr);
        assert_eq!(ours.stdout, text(&theirs.stdout), "stdout of {args:?}");
        assert_eq!(ours.stderr, text(&theirs.stderr), "stderr of {args:?}");
        assert_eq!(self.objects("ours"), self.objects("theirs"), "objects after {args:?}");
        ours
    }
}

const V1: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: front}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: nginx, env: [{name: A, value: '1'}, {name: B, value: '<2>'}]}
      - {name: side, image: busybox}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: conf}
data: {a: '1', b: '2'}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: op}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
  - targetCluster: {clusterNames: [member1]}
    overriders: {plaintext: [{path: /spec/replicas, operator: replace, value: 1}]}
";

/// The same objects changed: an image, a label and an env entry gone, a container gone, a
/// ConfigMap key gone, the strategy switched (its rollingUpdate must go), a policy rule list
/// replaced.
const V2: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  strategy: {type: Recreate}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: nginx:1.27, env: [{name: A, value: '1'}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: conf}
data: {a: '1'}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: op}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules: []
";

#[test]
fn apply_creates_configures_and_leaves_unchanged_as_kubectl_does() {
    let fleet = Fleet::up(1);
    let twins = Twins::new(&fleet);
    let v1 = twins.write("v1.yaml", V1);
    let v2 = twins.write("v2.yaml", V2);
    let created = twins.same(&["apply", "-f", &v1]);
    assert_eq!(
        created.stdout,
        "deployment.apps/web created\nconfigmap/conf created\noverridepolicy.policy.karmada.io/op created\n"
    );
    let again = twins.same(&["apply", "-f", &v1]);
    assert_eq!(
        again.stdout,
        "deployment.apps/web unchanged\nconfigmap/conf unchanged\noverridepolicy.policy.karmada.io/op unchanged\n"
    );
    twins.same(&["apply", "-f", &v2, "--dry-run=server"]);
    twins.same(&["apply", "-f", &v2, "--dry-run=client", "-o", "name"]);
    let configured = twins.same(&["apply", "-f", &v2]);
    assert_eq!(
        configured.stdout,
        "deployment.apps/web configured\nconfigmap/conf configured\noverridepolicy.policy.karmada.io/op configured\n"
    );
    let deployment = fleet.get("karmada-apiserver", &["deployment", "web", "-n", "ours"]).unwrap();
    assert_eq!(deployment["spec"]["strategy"], serde_json::json!({"type": "Recreate"}));
    assert_eq!(deployment["spec"]["template"]["spec"]["containers"].as_array().unwrap().len(), 1);
    twins.same(&["apply", "-f", &v1, "-o", "name"]);

    // An object made without apply: kubectl warns and patches the annotation in.
    for ns in ["theirs", "ours"] {
        fleet.plane(&["create", "configmap", "plain", "--from-literal=x=1", "-n", ns]);
    }
    let plain = twins.write("plain.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\ndata: {x: '2'}\n");
    let warned = twins.same(&["apply", "-f", &plain]);
    assert!(warned.stderr.starts_with("Warning: resource configmaps/plain is missing the"), "{}", warned.stderr);

    // Server-side apply, and a conflict with the client-side manager's field.
    let ssa = twins.write("ssa.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa}\ndata: {k: v}\n");
    assert_eq!(twins.same(&["apply", "--server-side", "-f", &ssa]).stdout, "configmap/ssa serverside-applied\n");
    let conflict =
        twins.write("conflict.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa}\ndata: {k: w}\n");
    let refused = twins.same(&["apply", "--server-side", "--field-manager=other", "-f", &conflict]);
    assert!(refused.stderr.starts_with("error: Apply failed with 1 conflict"), "{}", refused.stderr);
    twins.same(&[
        "apply",
        "--server-side",
        "--field-manager=other",
        "--force-conflicts",
        "-f",
        &conflict,
        "-o",
        "name",
    ]);
    twins.same(&["apply", "--server-side", "-f", &ssa, "--dry-run=server"]);
}

#[test]
fn bad_input_is_refused_as_kubectl_refuses_it_and_changes_nothing() {
    let fleet = Fleet::up(1);
    let twins = Twins::new(&fleet);
    let v1 = twins.write("v1.yaml", V1);
    let unknown = twins.write("unknown.yaml", "apiVersion: example.com/v1\nkind: Nope\nmetadata: {name: x}\n");
    let elsewhere =
        twins.write("elsewhere.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: other}\n");
    let invalid =
        twins.write("invalid.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: 1}\nbogus: 1\n");
    let empty = twins.write("empty.yaml", "# nothing\n");
    let before = twins.objects("ours");
    let cases: &[&[&str]] = &[
        &["apply"],
        &["apply", "-f", "/nonexistent.yaml"],
        &["apply", "-f", &v1, "--force-conflicts"],
        &["apply", "-f", &v1, "--server-side", "--dry-run=client"],
        &["apply", "-f", &v1, "--dry-run=bogus"],
        &["apply", "-f", &unknown],
        &["apply", "-f", &elsewhere],
        &["apply", "-f", &invalid],
        &["apply", "-f", &empty],
        &["apply", "-f", &v1, "--subresource=status"],
    ];
    for args in cases {
        let run = twins.same(args);
        assert_eq!(run.code, 1, "{args:?}");
        assert!(run.stdout.is_empty(), "{args:?} printed {}", run.stdout);
        assert!(!run.stderr.is_empty(), "{args:?} said nothing");
    }
    assert_eq!(twins.objects("ours"), before, "a refused command changed something");

    // Upstream's own refusals, and what is not built (exit code 2), before anything is sent.
    let ours = |args: &[&str]| fleet.karmadactl(args);
    let both = ours(&["apply", "-f", &v1, "--all-clusters", "-C", "member1", "-n", "ours"]);
    assert_eq!((both.code, both.stderr.as_str()), (1, "error: --all-clusters and --cluster cannot be used together\n"));
    let missing = ours(&["apply", "-f", &v1, "-C", "member1,nope,gone", "-n", "ours"]);
    assert_eq!(missing.code, 1);
    assert_eq!(missing.stderr, "error: [cluster nope does not exist, cluster gone does not exist]\n");
    for refused in [&["-k", "dir"][..], &["-f", &v1, "--prune", "--all"], &["-f", &v1, "--force"]] {
        let mut args = vec!["apply", "-n", "ours"];
        args.extend_from_slice(refused);
        let run = ours(&args);
        assert_eq!(run.code, 2, "{refused:?}: {}", run.stderr);
        assert!(run.stderr.contains("not built"), "{refused:?}: {}", run.stderr);
    }
    assert_eq!(twins.objects("ours"), before, "a refused command changed something");
}

#[test]
fn apply_all_clusters_propagates_the_seed_nginx_to_every_member() {
    let fleet = Fleet::up(2);
    let nginx = crate::common::karmada_fixtures().join("samples/nginx/deployment.yaml");
    let nginx = nginx.to_str().unwrap();
    let run = fleet.karmadactl(&["apply", "--all-clusters", "-f", nginx]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "deployment.apps/nginx created\npropagationpolicy.policy.karmada.io/nginx-6d7f8d5f5b created\n"
    );
    let policy = fleet.get("karmada-apiserver", &["propagationpolicy", "nginx-6d7f8d5f5b", "-n", "default"]).unwrap();
    assert_eq!(
        policy["spec"]["resourceSelectors"],
        serde_json::json!([{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx", "namespace": "default"}])
    );
    assert_eq!(policy["spec"]["placement"]["clusterAffinity"], serde_json::json!({}));
    assert_eq!(
        policy["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"],
        "{\"kind\":\"PropagationPolicy\",\"apiVersion\":\"policy.karmada.io/v1alpha1\",\"metadata\":{\"name\":\"nginx-6d7f8d5f5b\",\"namespace\":\"default\",\"creationTimestamp\":null},\"spec\":{\"resourceSelectors\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"namespace\":\"default\",\"name\":\"nginx\"}],\"placement\":{\"clusterAffinity\":{}}}}\n"
    );
    fleet.wait_replicas("nginx", &[("member1", Some(2)), ("member2", Some(2))]);
    let again = fleet.karmadactl(&["apply", "--all-clusters", "-f", nginx]);
    assert_eq!(
        (again.code, again.stdout.as_str()),
        (0, "deployment.apps/nginx unchanged\npropagationpolicy.policy.karmada.io/nginx-6d7f8d5f5b unchanged\n"),
        "{}",
        again.stderr
    );

    // A cluster-scoped object on one named member gets a ClusterPropagationPolicy.
    let ns = fleet.home.path().join("ns.yaml");
    std::fs::write(&ns, "apiVersion: v1\nkind: Namespace\nmetadata: {name: my-ns}\n").unwrap();
    let run = fleet.karmadactl(&["apply", "-C", "member2", "-f", ns.to_str().unwrap()]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "namespace/my-ns created\nclusterpropagationpolicy.policy.karmada.io/my-ns-646d6c6947 created\n"),
        "{}",
        run.stderr
    );
    let cpp = fleet.get("karmada-apiserver", &["clusterpropagationpolicy", "my-ns-646d6c6947"]).unwrap();
    assert_eq!(cpp["spec"]["placement"]["clusterAffinity"], serde_json::json!({"clusterNames": ["member2"]}));
    assert_eq!(
        cpp["spec"]["resourceSelectors"],
        serde_json::json!([{"apiVersion": "v1", "kind": "Namespace", "name": "my-ns"}])
    );
}
