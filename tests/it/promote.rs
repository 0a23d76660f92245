//! `promote` against a `local up` playground: a Deployment made directly in a member is taken
//! over by the control plane in place (same object, same pods), and bad input creates nothing.

use crate::common::Run;
use crate::common::fleet::Fleet;
use serde_json::Value;

/// `promote` with the playground's kubeconfig for the plane and for the member.
fn promote(f: &Fleet, args: &[&str]) -> Run {
    let kc = f.kubeconfig.to_str().unwrap();
    let mut all = vec!["promote", "--kubeconfig", kc, "--cluster-kubeconfig", kc];
    all.extend_from_slice(args);
    f.karmadactl(&all)
}

const PLANE: &str = "karmada-apiserver";

#[test]
fn a_member_deployment_is_adopted_in_place() {
    let f = Fleet::up(2);
    f.k_ok("member1", &["create", "deployment", "web", "--image=nginx", "--replicas=2"]);
    let pods = f.wait("two pods of web in member1", || {
        let pods = f.names("member1", &["pods", "-l", "app=web"]);
        if pods.len() == 2 { Ok(pods) } else { Err(format!("{pods:?}")) }
    });
    let uid = f.get("member1", &["deployment", "web"]).unwrap()["metadata"]["uid"].as_str().unwrap().to_string();

    // Printing only: the template and the policy, nothing created.
    let dry = promote(&f, &["deployment", "web", "-n", "default", "-C", "member1", "--dry-run", "-o", "yaml"]);
    assert_eq!(dry.code, 0, "{}\n{}", dry.stdout, dry.stderr);
    let docs: Vec<&str> = dry.stdout.split("\n---\n").collect();
    assert_eq!(docs.len(), 2, "{}", dry.stdout);
    assert!(
        docs[0].contains("kind: Deployment") && docs[0].contains("work.karmada.io/conflict-resolution: overwrite"),
        "{}",
        docs[0]
    );
    assert!(!docs[0].contains("uid:") && !docs[0].contains("resourceVersion:") && !docs[0].contains("status:"));
    assert!(docs[1].contains("kind: PropagationPolicy") && docs[1].contains("name: web-6d7f8d5f5b"), "{}", docs[1]);
    assert!(f.get(PLANE, &["deployment", "web"]).is_none());
    assert!(f.get(PLANE, &["propagationpolicy", "web-6d7f8d5f5b"]).is_none());

    let run = promote(&f, &["deployment", "web", "-n", "default", "-C", "member1"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "ResourceTemplate (default/web) is created successfully\n\
         PropagationPolicy (default/web-6d7f8d5f5b) is created successfully\n\
         Resource \"apps/v1, Resource=deployments\"(default/web) is promoted successfully\n"
    );
    let template = f.get(PLANE, &["deployment", "web"]).expect("the template in the plane");
    assert_eq!(template["metadata"]["annotations"]["work.karmada.io/conflict-resolution"], "overwrite");
    assert_ne!(template["metadata"]["uid"].as_str(), Some(uid.as_str()));
    let policy = f.get(PLANE, &["propagationpolicy", "web-6d7f8d5f5b"]).expect("the generated policy");
    assert_eq!(policy["spec"]["placement"]["clusterAffinity"]["clusterNames"], serde_json::json!(["member1"]));
    assert_eq!(policy["spec"]["conflictResolution"], "Overwrite");
    assert_eq!(policy["spec"]["preserveResourcesOnDeletion"], true);
    assert_eq!(
        policy["spec"]["resourceSelectors"],
        serde_json::json!([{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}])
    );

    // The engine adopts the live object: same uid, same pods, now labelled as managed.
    f.wait("member1's web managed by Karmada", || {
        let d = f.get("member1", &["deployment", "web"]).ok_or("gone")?;
        if d["metadata"]["labels"]["karmada.io/managed"] == "true" { Ok(()) } else { Err(d["metadata"].to_string()) }
    });
    let d = f.get("member1", &["deployment", "web"]).unwrap();
    assert_eq!(d["metadata"]["uid"].as_str(), Some(uid.as_str()));
    assert_eq!(f.names("member1", &["pods", "-l", "app=web"]), pods);
    assert!(f.get("member2", &["deployment", "web"]).is_none());

    // From now on the plane's template rules.
    f.k_ok(PLANE, &["scale", "deployment", "web", "--replicas=3"]);
    f.wait("member1's web scaled to 3 from the plane", || {
        let d = f.get("member1", &["deployment", "web"]).ok_or("gone")?;
        if d["spec"]["replicas"] == 3 { Ok(()) } else { Err(d["spec"]["replicas"].to_string()) }
    });
    assert_eq!(f.get("member1", &["deployment", "web"]).unwrap()["metadata"]["uid"].as_str(), Some(uid.as_str()));

    // A cluster-scoped object gets a ClusterPropagationPolicy (upstream's checked name).
    f.k_ok("member1", &["create", "namespace", "my-ns"]);
    let ns = promote(&f, &["namespace", "my-ns", "-C", "member1"]);
    assert_eq!(ns.code, 0, "{}\n{}", ns.stdout, ns.stderr);
    assert_eq!(
        ns.stdout,
        "ResourceTemplate (/my-ns) is created successfully\n\
         ClusterPropagationPolicy my-ns-646d6c6947 is created successfully\n\
         Resource \"/v1, Resource=namespaces\"(my-ns) is promoted successfully\n"
    );
    let cpp = f.get(PLANE, &["clusterpropagationpolicy", "my-ns-646d6c6947"]).expect("the cluster policy");
    assert_eq!(
        cpp["spec"]["resourceSelectors"],
        serde_json::json!([{"apiVersion": "v1", "kind": "Namespace", "name": "my-ns"}])
    );
    assert!(f.get(PLANE, &["namespace", "my-ns"]).is_some());

    // A second promotion is refused (upstream exits 0 here).
    let again = promote(&f, &["deployment", "web", "-n", "default", "-C", "member1"]);
    assert_eq!(again.code, 1, "{}", again.stdout);
    assert!(again.stderr.contains("already exist in karmada control plane"), "{}", again.stderr);
    assert!(again.stdout.is_empty(), "{}", again.stdout);
}

#[test]
fn bad_input_creates_nothing_then_proxy_and_dependencies_promote() {
    let f = Fleet::up(2);
    f.k_ok("member2", &["create", "configmap", "settings", "--from-literal=a=b"]);

    let unknown_cluster =
        promote(&f, &["configmap", "settings", "-n", "default", "-C", "member9", "--cluster-context", "member2"]);
    assert_ne!(unknown_cluster.code, 0);
    assert!(
        unknown_cluster.stderr.contains("clusters.cluster.karmada.io \"member9\" not found"),
        "{}",
        unknown_cluster.stderr
    );

    let missing = promote(&f, &["configmap", "nothing", "-n", "default", "-C", "member2"]);
    assert_ne!(missing.code, 0);
    assert!(
        missing.stderr.contains(
            "failed to get resource in cluster(member2). err: the configmap or nothing don't exist in cluster(member2)"
        ),
        "{}",
        missing.stderr
    );

    let unknown_type = promote(&f, &["gadget", "settings", "-n", "default", "-C", "member2"]);
    assert_ne!(unknown_type.code, 0);
    assert!(
        unknown_type.stderr.contains("the server doesn't have a resource type \"gadget\""),
        "{}",
        unknown_type.stderr
    );

    let no_cluster = promote(&f, &["configmap", "settings", "-n", "default"]);
    assert_ne!(no_cluster.code, 0);
    assert!(no_cluster.stderr.contains("the cluster cannot be empty"), "{}", no_cluster.stderr);

    assert!(f.get(PLANE, &["configmap", "settings"]).is_none());
    assert!(f.get(PLANE, &["configmap", "nothing"]).is_none());
    assert_eq!(f.names(PLANE, &["propagationpolicies", "-A"]), Vec::<String>::new());

    // Through the plane's cluster proxy (no member kubeconfig), a namespaced object with an
    // explicit policy name.
    let kc = f.kubeconfig.to_str().unwrap();
    let run = f.karmadactl(&[
        "promote",
        "configmap",
        "settings",
        "-n",
        "default",
        "-C",
        "member2",
        "--kubeconfig",
        kc,
        "--policy-name",
        "pinned",
    ]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("PropagationPolicy (default/pinned) is created successfully"), "{}", run.stdout);
    assert!(run.stdout.ends_with("Resource \"/v1, Resource=configmaps\"(default/settings) is promoted successfully\n"));
    assert_eq!(f.get(PLANE, &["configmap", "settings"]).unwrap()["data"]["a"], "b");
    f.wait("member2's settings managed by Karmada", || {
        let c = f.get("member2", &["configmap", "settings"]).ok_or("gone")?;
        if c["metadata"]["labels"]["karmada.io/managed"] == "true" { Ok(()) } else { Err(c["metadata"].to_string()) }
    });

    // A policy name already taken: the template is created, then the command fails (§18.14).
    f.k_ok("member2", &["create", "configmap", "other", "--from-literal=x=y"]);
    let taken = f.karmadactl(&[
        "promote",
        "configmap",
        "other",
        "-n",
        "default",
        "-C",
        "member2",
        "--kubeconfig",
        kc,
        "--policy-name",
        "pinned",
    ]);
    assert_eq!(taken.code, 1, "{}\n{}", taken.stdout, taken.stderr);
    assert!(
        taken
            .stderr
            .contains("the PropagationPolicy(default/pinned) already exist, please edit it to propagate resource"),
        "{}",
        taken.stderr
    );
    assert_eq!(taken.stdout, "ResourceTemplate (default/other) is created successfully\n");
    assert!(f.get(PLANE, &["configmap", "other"]).is_some());

    // -d: the ConfigMap the workload reads comes along, without a policy of its own.
    let manifest = f.home.path().join("api.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: v1
kind: ConfigMap
metadata: {name: api-config, namespace: default}
data: {mode: fast}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: api
        image: nginx
        envFrom: [{configMapRef: {name: api-config}}]
",
    )
    .unwrap();
    f.k_ok("member2", &["apply", "-f", manifest.to_str().unwrap()]);
    let json = promote(&f, &["deployment", "api", "-n", "default", "-C", "member2", "-d", "-o", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let docs: Vec<Value> =
        serde_json::Deserializer::from_str(&json.stdout).into_iter().collect::<Result<_, _>>().expect("JSON documents");
    assert_eq!(docs.len(), 2, "{}", json.stdout);
    assert_eq!((docs[0]["kind"].as_str(), docs[1]["kind"].as_str()), (Some("Deployment"), Some("PropagationPolicy")));
    assert_eq!(docs[1]["spec"]["propagateDeps"], true);
    assert!(f.get(PLANE, &["configmap", "api-config"]).is_none());

    let run = promote(&f, &["deployment", "api", "-n", "default", "-C", "member2", "-d"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.starts_with(
            "Dependency resource \"/v1, Resource=configmaps\"(default/api-config) is promoted successfully\n\
             ResourceTemplate (default/api) is created successfully\n"
        ),
        "{}",
        run.stdout
    );
    let cm = f.get(PLANE, &["configmap", "api-config"]).expect("the dependency in the plane");
    assert_eq!(cm["data"]["mode"], "fast");
    assert_eq!(f.names(PLANE, &["propagationpolicies"]).len(), 2);
    f.wait("member2's api-config managed by Karmada", || {
        let c = f.get("member2", &["configmap", "api-config"]).ok_or("gone")?;
        if c["metadata"]["labels"]["karmada.io/managed"] == "true" { Ok(()) } else { Err(c["metadata"].to_string()) }
    });

    // A dependency already in the plane stops the dependency step: the ones this run created
    // are removed again, and the workload itself is still promoted.
    let manifest = f.home.path().join("api2.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: v1
kind: ConfigMap
metadata: {name: a-first, namespace: default}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api2, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: api2}}
  template:
    metadata: {labels: {app: api2}}
    spec:
      containers:
      - name: api
        image: nginx
        envFrom: [{configMapRef: {name: a-first}}, {configMapRef: {name: api-config}}]
",
    )
    .unwrap();
    f.k_ok("member2", &["apply", "-f", manifest.to_str().unwrap()]);
    let run = promote(&f, &["deployment", "api2", "-n", "default", "-C", "member2", "-d"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("ResourceTemplate (default/api2) is created successfully"), "{}", run.stdout);
    assert!(
        run.stderr.contains("dependency /v1, Resource=configmaps(default/api-config) already exists"),
        "{}",
        run.stderr
    );
    assert!(f.get(PLANE, &["configmap", "a-first"]).is_none());
    assert!(f.get(PLANE, &["deployment", "api2"]).is_some());
}
