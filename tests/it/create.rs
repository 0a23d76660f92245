//! `create` does what kubectl 1.33 does on the same plane: `-f` files and kubectl's
//! generators print the same lines on stdout and stderr, exit with the same code, print the
//! same `--dry-run=client` objects byte for byte, and leave the same objects. kubectl works in
//! namespace `theirs` (cluster-scoped names start with `theirs-`), karmadactl in `ours`.

use serde_json::Value;

use crate::common::Run;
use crate::common::fleet::Fleet;

/// Both tools, each in its namespace, on one plane.
struct Pair<'a> {
    fleet: &'a Fleet,
}

impl Pair<'_> {
    fn kubectl(&self, args: &[&str]) -> Run {
        self.fleet.k("karmada-apiserver", args)
    }

    /// Runs `args` (`{ns}` stands for the tool's namespace) with both tools and checks they
    /// agree on exit code, stdout and stderr; returns karmadactl's run.
    fn same(&self, args: &[&str]) -> Run {
        // `-n` right after `create`: everything after `--` is the container's command.
        let with = |ns: &str| {
            let mut all: Vec<String> = args.iter().map(|a| a.replace("{ns}", ns)).collect();
            let at = 1.min(all.len());
            all.splice(at..at, ["-n".to_string(), ns.to_string()]);
            all
        };
        let theirs = with("theirs");
        let ours = with("ours");
        let theirs = self.kubectl(&theirs.iter().map(String::as_str).collect::<Vec<_>>());
        let ours = self.fleet.karmadactl(&ours.iter().map(String::as_str).collect::<Vec<_>>());
        // Owner references name each tool's own object by its uid.
        let text = |s: &str| {
            let s = s.replace("theirs", "ours").replace("kubectl.1.33 create", "karmadactl create");
            s.replace("'kubectl create", "'karmadactl create")
                .split_inclusive('\n')
                .map(|l| match l.find("uid: ") {
                    Some(i) => format!("{}uid: UID\n", &l[..i]),
                    None => l.to_string(),
                })
                .collect::<String>()
        };
        assert_eq!(ours.code, theirs.code, "{args:?}: kubectl said {}, karmadactl said {}", theirs.stderr, ours.stderr);
        assert_eq!(text(&ours.stdout), text(&theirs.stdout), "stdout of {args:?}");
        assert_eq!(text(&ours.stderr), text(&theirs.stderr), "stderr of {args:?}");
        ours
    }

    /// Like [`Pair::same`] for a failure: exit code 1, nothing on stdout.
    fn refused(&self, args: &[&str]) -> Run {
        let run = self.same(args);
        assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{args:?}: {}", run.stderr);
        run
    }

    /// The objects of `kinds` in a namespace, without what differs between any two objects
    /// (identity, versions, times, allocated addresses), the namespace's name made `ours`.
    fn objects(&self, kinds: &str, ns: &str) -> Value {
        let run = self.kubectl(&["get", kinds, "-n", ns, "-o", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        normalize(&run.stdout)
    }

    /// Both namespaces hold the same objects of `kinds`.
    fn same_objects(&self, kinds: &str) {
        assert_eq!(self.objects(kinds, "ours"), self.objects(kinds, "theirs"), "{kinds}");
    }

    /// The two cluster-scoped objects `theirs-NAME` and `ours-NAME` are the same.
    fn same_cluster_object(&self, kind: &str, name: &str) {
        let get = |prefix: &str| {
            let run = self.kubectl(&["get", kind, &format!("{prefix}-{name}"), "-o", "json"]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            normalize(&run.stdout)
        };
        assert_eq!(get("ours"), get("theirs"), "{kind} {name}");
    }
}

/// The JSON text with `theirs` made `ours` and the fields that differ between any two
/// objects removed.
fn normalize(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).expect("JSON");
    // A uid appears in labels and selectors too (a Job's): mask every occurrence.
    let mut uids = Vec::new();
    collect_uids(&v, &mut uids);
    let mut text = serde_json::to_string(&v).unwrap().replace("theirs", "ours");
    for uid in uids {
        text = text.replace(&uid, "UID");
    }
    v = serde_json::from_str(&text).unwrap();
    strip(&mut v);
    v
}

fn collect_uids(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(u)) = m.get("uid") {
                out.push(u.clone());
            }
            m.values().for_each(|x| collect_uids(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_uids(x, out)),
        _ => {}
    }
}

/// kubectl's typed requests are protobuf, which carries zero values (`false`, `0`, an empty
/// timestamp) that the plane's decoding keeps in the stored object, where JSON requests leave
/// them out or send `null`; kube-apiserver's Go structs make both the same. Not `create`'s
/// doing, so zero values and nulls are not compared (every other value is).
fn drop_protobuf_zeroes(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null() && x != &Value::Bool(false) && x != &Value::from(0));
            m.values_mut().for_each(drop_protobuf_zeroes);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_protobuf_zeroes),
        _ => {}
    }
}

fn strip(v: &mut Value) {
    drop_protobuf_zeroes(v);
    if let Some(items) = v.get_mut("items").and_then(Value::as_array_mut) {
        items.iter_mut().for_each(strip);
        return;
    }
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in ["resourceVersion", "creationTimestamp", "managedFields", "generation"] {
            meta.remove(k);
        }
    }
    if let Some(o) = v.as_object_mut() {
        o.remove("status");
    }
    if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
        spec.remove("clusterIP");
        spec.remove("clusterIPs");
        if let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) {
            for p in ports.iter_mut().filter_map(Value::as_object_mut) {
                p.remove("nodePort");
            }
        }
    }
}

fn namespaces(pair: &Pair) {
    for ns in ["theirs", "ours"] {
        let run = pair.kubectl(&["create", "namespace", ns]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
}

fn write(fleet: &Fleet, name: &str, text: &str) -> String {
    let file = fleet.home.path().join(name);
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(&file, text).unwrap();
    file.to_str().unwrap().to_string()
}

const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c1\n  labels:\n    app: c\ndata:\n  a: \"<b>\"\n";

#[test]
fn create_from_files_does_what_kubectl_does() {
    let fleet = Fleet::up(1);
    let pair = Pair { fleet: &fleet };
    namespaces(&pair);
    let web = write(&fleet, "web.yaml", WEB);
    let saved = write(
        &fleet,
        "dir/saved.json",
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"saved"},"data":{"k":"v"}}"#,
    );
    let dir = fleet.home.path().join("dir").to_str().unwrap().to_string();
    // Nothing is sent with a client dry run; the server's dry run persists nothing either.
    let dry = pair.same(&["create", "-f", &web, "--dry-run=client", "-o", "yaml"]);
    assert!(dry.stdout.contains("namespace: ours"), "{}", dry.stdout);
    let server_dry = pair.same(&["create", "-f", &web, "--dry-run=server"]);
    assert_eq!(
        server_dry.stdout,
        "deployment.apps/web created (server dry run)\nconfigmap/c1 created (server dry run)\n"
    );
    pair.same_objects("deployments,configmaps");
    let created = pair.same(&["create", "-f", &web]);
    assert_eq!(created.stdout, "deployment.apps/web created\nconfigmap/c1 created\n");
    pair.same_objects("deployments,configmaps");
    // Both exist now: the server's AlreadyExists, naming the file, for each; exit code 1.
    let again = pair.refused(&["create", "-f", &web]);
    assert_eq!(
        again.stderr,
        format!(
            "Error from server (AlreadyExists): error when creating \"{web}\": deployments.apps \"web\" already exists\nError from server (AlreadyExists): error when creating \"{web}\": configmaps \"c1\" already exists\n"
        )
    );
    // A directory, --save-config's annotation, -o json of the server's answer.
    let saved_run = pair.same(&["create", "-f", &dir, "--save-config", "-o", "name"]);
    assert_eq!(saved_run.stdout, "configmap/saved\n");
    pair.same_objects("deployments,configmaps");
    let annotated = fleet.plane(&["get", "cm", "saved", "-n", "ours", "-o", "jsonpath={.metadata.annotations}"]);
    assert!(annotated.contains("last-applied-configuration"), "{annotated}");
    pair.same(&["create", "-f", &saved, "--dry-run=client", "-o", "json", "--save-config"]);
    // -l chooses among the file's objects.
    pair.same(&["delete", "cm", "c1"]);
    assert_eq!(pair.same(&["create", "-f", &web, "-l", "app=c"]).stdout, "configmap/c1 created\n");
    pair.same_objects("deployments,configmaps");
    // Standard input, as STDIN in messages.
    let stdin = |mut cmd: std::process::Command| {
        use std::io::Write;
        let mut child = cmd
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: piped\n").unwrap();
        let out = child.wait_with_output().unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    for round in 0..2 {
        let theirs = stdin(fleet.k_command("karmada-apiserver", &["create", "-f", "-", "-n", "theirs"]));
        let mut ours = crate::common::karmadactl(fleet.home.path());
        ours.env("KUBECONFIG", &fleet.kubeconfig).args(["create", "-f", "-", "-n", "ours"]);
        let ours = stdin(ours);
        assert_eq!(ours, (theirs.0, theirs.1.replace("theirs", "ours"), theirs.2.replace("theirs", "ours")));
        let expected = match round {
            0 => (Some(0), "configmap/piped created\n", ""),
            _ => (
                Some(1),
                "",
                "Error from server (AlreadyExists): error when creating \"STDIN\": configmaps \"piped\" already exists\n",
            ),
        };
        assert_eq!((ours.0, ours.1.as_str(), ours.2.as_str()), expected);
    }
    pair.same_objects("deployments,configmaps");
    // Refusals before anything is sent.
    let unknown = write(&fleet, "unknown.yaml", "apiVersion: example.com/v1\nkind: Nope\nmetadata:\n  name: x\n");
    let other_ns =
        write(&fleet, "other.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: o\n  namespace: elsewhere\n");
    for args in [
        &["create"][..],
        &["create", "-f", "/nonexistent/x.yaml"],
        &["create", "-f", &unknown],
        &["create", "-f", &other_ns],
        &["create", "-f", &web, "--validate=sometimes"],
        &["create", "-f", &web, "--dry-run=maybe"],
        &["create", "-f", &web, "-l", "app=none"],
    ] {
        let run = pair.refused(args);
        assert!(run.stderr.starts_with("error: "), "{args:?}: {}", run.stderr);
    }
    pair.same_objects("deployments,configmaps");
    // What is not built says so, with exit code 2, and sends nothing (--edit and --raw are in
    // create_edit.rs).
    let run = fleet.karmadactl(&["create", "-k", "dir"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("is not built yet"), "{}", run.stderr);
}

#[test]
fn create_generators_build_what_kubectl_builds() {
    let fleet = Fleet::up(1);
    let pair = Pair { fleet: &fleet };
    namespaces(&pair);
    let data = write(&fleet, "keys/data.txt", "hello <world>\n");
    write(&fleet, "keys/other.conf", "x=1\n");
    std::fs::write(fleet.home.path().join("keys/binary.bin"), [0xff, 0xfe, 0x00]).unwrap();
    let keys = fleet.home.path().join("keys").to_str().unwrap().to_string();
    let env = write(&fleet, "app.env", "# comment\nA=1\n  B=two=2\nC\n");
    let from_file = format!("--from-file={data}");
    let keyed = format!("--from-file=renamed={data}");
    let dir = format!("--from-file={keys}");
    let env_file = format!("--from-env-file={env}");
    let (cert, key, other_key) = tls_files(&fleet);
    // Each generator: the object kubectl would send, byte for byte (YAML, and JSON with the
    // annotation --save-config writes), then the same object on the server.
    let generators: &[&[&str]] = &[
        &["create", "namespace", "{ns}-space"],
        &["create", "deployment", "d1", "--image=nginx", "--replicas=2", "--port=80"],
        &["create", "deploy", "d2", "--image=busybox:1.36", "--", "sleep", "3600"],
        &["create", "deployment", "d3", "--image=nginx", "--image=registry.k8s.io/pause:3.9"],
        &["create", "configmap", "cm1", "--from-literal=a=b", "--from-literal=c=d=e", &from_file, &keyed],
        &["create", "cm", "cm2", &dir],
        &["create", "configmap", "cm3", &env_file, "--append-hash"],
        &["create", "secret", "generic", "s1", "--from-literal=user=admin", &from_file, "--type=example.com/t"],
        &["create", "secret", "generic", "s2", &env_file, "--append-hash"],
        &["create", "secret", "tls", "t1", &cert, &key],
        &["create", "secret", "tls", "t2", &cert, &key, "--append-hash"],
        &[
            "create",
            "secret",
            "docker-registry",
            "dr1",
            "--docker-username=u",
            "--docker-password=p<&>",
            "--docker-email=e@x",
        ],
        &[
            "create",
            "secret",
            "docker-registry",
            "dr2",
            "--docker-server=r.example.com",
            "--docker-username=u",
            "--docker-password=p",
            "--append-hash",
        ],
        &["create", "secret", "docker-registry", "dr3", &from_file, "--from-file=extra.json=/dev/null"],
        &["create", "serviceaccount", "sa1"],
        &["create", "service", "clusterip", "svc1", "--tcp=80:8080,443:https"],
        &["create", "service", "clusterip", "headless", "--clusterip=None"],
        &["create", "svc", "nodeport", "svc2", "--tcp=80"],
        &["create", "service", "loadbalancer", "svc3", "--tcp=5678:8080"],
        &["create", "service", "externalname", "svc4", "--external-name=bar.example.com"],
        // (A schedule starting with `*` is printed in double quotes here, single quotes by
        // kubectl: the YAML writer's known difference, see go_yaml.rs.)
        &["create", "cronjob", "cj1", "--image=busybox", "--schedule=0 3 * * *", "--", "date"],
        &["create", "job", "j1", "--image=busybox", "--", "echo", "hi"],
        &["create", "resourcequota", "q2", "--hard=pods=10", "--scopes=BestEffort,NotTerminating"],
        &["create", "quota", "q3"],
        &[
            "create",
            "role",
            "r1",
            "--verb=get,list",
            "--verb=get",
            "--resource=pods,deployments.apps,pods/status",
            "--resource-name=a",
        ],
        &["create", "clusterrole", "{ns}-cr1", "--verb=get", "--resource=rs.apps", "--non-resource-url=/logs/*"],
        &["create", "clusterrole", "{ns}-agg", "--aggregation-rule=example.com/aggregate=true"],
        &["create", "rolebinding", "rb1", "--role=r1", "--user=u1", "--group=g1", "--serviceaccount={ns}:sa1"],
        &["create", "clusterrolebinding", "{ns}-crb1", "--clusterrole=view", "--user=u1"],
    ];
    for args in generators {
        // Flags go before `--`: what follows it is the container's command.
        let with = |extra: &[&'static str]| -> Vec<&str> {
            let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
            let mut all = args.to_vec();
            all.splice(at..at, extra.iter().copied());
            all
        };
        pair.same(&with(&["--dry-run=client", "-o", "yaml"]));
        pair.same(&with(&["--dry-run=client", "-o", "json", "--save-config"]));
        let dry = pair.same(&with(&["--dry-run=server"]));
        assert!(dry.stdout.ends_with(" created (server dry run)\n"), "{args:?}: {}{}", dry.stdout, dry.stderr);
        let created = pair.same(&with(&["--save-config"]));
        assert!(created.stdout.ends_with(" created\n"), "{args:?}: {}", created.stdout);
    }
    pair.same_objects(
        "deployments,configmaps,secrets,serviceaccounts,services,jobs,cronjobs,roles,rolebindings,resourcequotas",
    );
    // A quota kube's validation refuses (a count must be whole) is refused alike.
    let q1 = ["create", "quota", "q1", "--hard=pods=2,cpu=1000m,memory=1G,secrets=1.5,requests.storage=0.5Gi"];
    pair.same(&[&q1[..], &["--dry-run=client", "-o", "yaml"]].concat());
    let refused = pair.refused(&q1);
    assert!(
        refused.stderr.contains(r#"spec.hard[secrets]: Invalid value: "1500m": must be an integer"#),
        "{}",
        refused.stderr
    );
    for (kind, name) in
        [("namespace", "space"), ("clusterrole", "cr1"), ("clusterrole", "agg"), ("clusterrolebinding", "crb1")]
    {
        pair.same_cluster_object(kind, name);
    }
    // The plane serves no PriorityClasses, PodDisruptionBudgets or Ingresses: the objects
    // kubectl would send, then its refusal.
    let unserved: &[(&[&str], &str)] = &[
        (&["create", "priorityclass", "pc1", "--value=1000", "--description=high <priority>"], "priorityclass"),
        (&["create", "pc", "pc2", "--value=-5", "--preemption-policy=Never", "--global-default"], "priorityclass"),
        (
            &["create", "poddisruptionbudget", "pdb1", "--selector=app=a,tier in (y,x,x),!z", "--min-available=50%"],
            "poddisruptionbudgets",
        ),
        (&["create", "pdb", "pdb2", "--selector=app==a,e notin (f),g", "--max-unavailable=2"], "poddisruptionbudgets"),
    ];
    let ingress: &[&str] = &[
        "create",
        "ingress",
        "ing1",
        "--class=c",
        "--default-backend=d:http",
        "--rule=foo.com/bar*=svc1:8080,tls=my-cert",
        "--rule=foo.com/x=s:p",
        "--rule=bar.com/=s:80,tls=my-cert",
        "--rule=/y=s:80,tls",
        "--annotation=b=1",
        "--annotation=a=2=",
    ];
    let unserved =
        [unserved, &[(ingress, "ingress"), (&["create", "ing", "ing2", "--rule=/=s:80"], "ingress")]].concat();
    for (args, kind) in &unserved {
        pair.same(&[args, &["--dry-run=client", "-o", "yaml"][..]].concat());
        pair.same(&[args, &["--dry-run=client", "-o", "json", "--save-config"][..]].concat());
        let refused = pair.refused(args);
        assert_eq!(
            refused.stderr,
            format!("error: failed to create {kind}: the server could not find the requested resource\n")
        );
    }
    // A Job from the CronJob: owned by it, marked as made by hand.
    pair.same(&["create", "job", "j2", "--from=cronjob/cj1", "--dry-run=client", "-o", "yaml"]);
    assert_eq!(pair.same(&["create", "job", "j2", "--from=cj/cj1"]).stdout, "job.batch/j2 created\n");
    pair.same_objects("jobs");
    // Each generator's refusals, word for word, and nothing changed.
    let exists = pair.refused(&["create", "deployment", "d1", "--image=nginx"]);
    assert_eq!(exists.stderr, "error: failed to create deployment: deployments.apps \"d1\" already exists\n");
    let ns_exists = pair.refused(&["create", "namespace", "{ns}"]);
    assert_eq!(ns_exists.stderr, "Error from server (AlreadyExists): namespaces \"ours\" already exists\n");
    let refusals: &[&[&str]] = &[
        &["create", "namespace"],
        &["create", "namespace", "a", "b"],
        &["create", "deployment", "x"],
        &["create", "deployment", "x", "--image=a", "--image=b", "--", "sh"],
        &["create", "configmap", "cm1", "--from-literal=a=b"],
        &["create", "configmap", "x", "--from-literal=novalue"],
        &["create", "configmap", "x", "--from-literal=a=1", "--from-literal=a=2"],
        &["create", "configmap", "x", "--from-literal=bad key=1"],
        &["create", "configmap", "x", "--from-file=/nonexistent/f"],
        &["create", "configmap", "x", &env_file, "--from-literal=a=b"],
        &["create", "secret", "generic", "s1", "--from-literal=a=b"],
        &["create", "secret", "generic", "x", "--from-file=k=/nonexistent"],
        &["create", "secret", "tls", "x", &cert],
        &["create", "secret", "tls", "x", &cert, &other_key],
        &["create", "secret", "tls", "x", &cert, "--key=/nonexistent/k"],
        &["create", "secret", "tls", "x", &cert, &dir.replace("--from-file", "--key")],
        &["create", "secret", "tls", "x", &key.replace("--key", "--cert"), &key],
        &["create", "secret", "tls", "t1", &cert, &key],
        &["create", "secret", "docker-registry", "x", "--docker-username=u"],
        &["create", "secret", "docker-registry", "x", "--docker-password=p", "--docker-username=u", "--docker-server="],
        &["create", "secret", "docker-registry", "x", &dir],
        &["create", "secret", "docker-registry", "dr1", "--docker-username=u", "--docker-password=p"],
        &["create", "quota", "x", "--hard=pods"],
        &["create", "quota", "x", "--hard=pods=1,"],
        &["create", "quota", "x", "--hard=pods=many"],
        &["create", "quota", "x", "--scopes=BestEffort,,Terminating"],
        &["create", "pdb", "x", "--min-available=1"],
        &["create", "pdb", "x", "--selector=app=a"],
        &["create", "pdb", "x", "--selector=app=a", "--min-available=1", "--max-unavailable=1"],
        &["create", "pdb", "x", "--selector=app=a", "--min-available=1.5"],
        &["create", "pdb", "x", "--selector=app=a", "--max-unavailable=-1"],
        &["create", "pdb", "x", "--selector=app!=a", "--max-unavailable=1"],
        &["create", "pdb", "x", "--selector=n>1", "--max-unavailable=1"],
        &["create", "pdb", "x", "--selector=a b", "--max-unavailable=1"],
        &["create", "ingress", "x"],
        &["create", "ingress", "x", "--rule=foo.com=s:80"],
        &["create", "ingress", "x", "--rule=f@o/=s:80"],
        &["create", "ingress", "x", "--rule=/p=s"],
        &["create", "ingress", "x", "--rule=/p=s:80", "--annotation=novalue"],
        &["create", "ingress", "x", "--default-backend=s"],
        &["create", "serviceaccount", "sa1"],
        &["create", "service", "clusterip", "x"],
        &["create", "service", "nodeport", "x", "--tcp=notaport"],
        &["create", "service", "clusterip", "x", "--tcp=80:0"],
        &["create", "service", "externalname", "x", "--external-name=Not_Valid"],
        &["create", "service", "externalname", "x"],
        &["create", "job", "x"],
        &["create", "job", "x", "--image=a", "--from=cronjob/cj1"],
        &["create", "job", "x", "--from=cronjob/nope"],
        &["create", "cronjob", "x", "--image=busybox"],
        &["create", "role", "x", "--resource=pods"],
        &["create", "role", "x", "--verb=get"],
        &["create", "role", "x", "--verb=bind", "--resource=pods"],
        &["create", "clusterrole", "x", "--verb=get"],
        &["create", "clusterrole", "x", "--verb=list", "--non-resource-url=/logs"],
        &["create", "clusterrole", "x", "--verb=get", "--non-resource-url=logs"],
        &["create", "clusterrole", "x", "--aggregation-rule=a=b", "--verb=get"],
        &["create", "rolebinding", "x", "--user=u"],
        &["create", "rolebinding", "x", "--role=r", "--serviceaccount=nonamespace"],
        &["create", "clusterrolebinding", "x", "--user=u"],
    ];
    for args in refusals {
        let run = pair.refused(args);
        assert!(
            run.stderr.starts_with("error: ") || run.stderr.starts_with("Error from server"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let mismatch = pair.refused(&["create", "secret", "tls", "x", &cert, &other_key]);
    assert_eq!(mismatch.stderr, "error: tls: private key does not match public key\n");
    let switched = pair.refused(&["create", "secret", "tls", "x", &key.replace("--key", "--cert"), &key]);
    assert!(switched.stderr.contains("PEM inputs may have been switched"), "{}", switched.stderr);
    let registry = pair.refused(&["create", "secret", "docker-registry", "x", "--docker-username=u"]);
    assert!(registry.stderr.starts_with("error: either --from-file or the combination"), "{}", registry.stderr);
    pair.same_objects("deployments,configmaps,secrets,serviceaccounts,services,jobs,cronjobs,roles,rolebindings");
}

/// `--cert=` and `--key=` flags for a self-signed pair made by openssl in the fleet's home, and
/// a `--key=` of another key.
fn tls_files(fleet: &Fleet) -> (String, String, String) {
    let dir = fleet.home.path().join("tls");
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for (key, cert) in [("tls.key", Some("tls.crt")), ("other.key", None)] {
        let mut args = vec!["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
        let (key_path, cert_path) = (path(key), path(cert.unwrap_or("other.crt")));
        args.extend(["-keyout", &key_path, "-out", &cert_path, "-days", "1", "-subj", "/CN=example.com"]);
        let out = std::process::Command::new("openssl").args(&args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    (
        format!("--cert={}", path("tls.crt")),
        format!("--key={}", path("tls.key")),
        format!("--key={}", path("other.key")),
    )
}
