//! `describe` prints what kubectl 1.33 prints for the same server: the control plane (Karmada's
//! kinds through the generic describer, core kinds through their own), and a member through
//! the plane's cluster proxy (`-s members -C`), with the same errors and exit codes.

use crate::common::Run;
use crate::common::fleet::Fleet;

const OBJECTS: &str = r#"apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {team: a}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: default
  labels: {app: web, tier: front}
  annotations: {note: hello, long: "a very long annotation value that kubectl folds onto lines of its own because it is longer than one hundred and forty characters"}
data: {nginx.conf: "server {\n  listen 80;\n}\n"}
binaryData: {blob: aGVsbG8=}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-extra, namespace: default, labels: {app: web}}
data: {mode: fast}
---
apiVersion: v1
kind: Secret
metadata: {name: web-secret, namespace: default}
type: Opaque
data: {password: cGFzc3dvcmQ=}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web-sa, namespace: default}
secrets: [{name: web-secret}, {name: gone}]
imagePullSecrets: [{name: pull}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
  - {name: admin, port: 9000, targetPort: admin, protocol: TCP}
---
apiVersion: v1
kind: Service
metadata: {name: web-np, namespace: default}
spec:
  type: NodePort
  ports:
  - {port: 81}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web-pp, namespace: default}
spec:
  resourceSelectors:
  - {apiVersion: v1, kind: ConfigMap, name: web-config}
  - {apiVersion: v1, kind: Service, name: web}
  placement:
    clusterAffinity: {clusterNames: [member1]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: web-op, namespace: default}
spec:
  resourceSelectors:
  - {apiVersion: v1, kind: ConfigMap, name: web-config}
  overrideRules:
  - targetCluster: {clusterNames: [member1]}
    overriders:
      labelsOverrider: [{operator: add, value: {where: member}}]
"#;

/// An event about `web-config` whose times are years in the past.
fn event(uid: &str) -> String {
    format!(
        r#"apiVersion: v1
kind: Event
metadata: {{name: web-config.1, namespace: default}}
involvedObject: {{kind: ConfigMap, name: web-config, namespace: default, uid: {uid}, apiVersion: v1}}
reason: Updated
message: "config changed "
type: Normal
count: 3
firstTimestamp: "2020-01-01T00:00:00Z"
lastTimestamp: "2021-01-01T00:00:00Z"
source: {{component: config-watcher}}
"#
    )
}

/// Event ages (and the ages of a node's pods) are counted from the moment each command runs, so
/// the two runs may be a second (or a day) apart: only the ages in those rows are replaced, and
/// those rows' spacing, which follows the ages' widths. Everything else is compared byte for
/// byte.
fn normalise(text: &str) -> String {
    let mut in_events = false;
    let mut out = String::new();
    for line in data_sorted(text).lines() {
        if line == "Events:" || line.starts_with("Non-terminated Pods:") {
            in_events = true;
        } else if !line.starts_with("  ") {
            in_events = false;
        }
        if in_events && line.starts_with("  ") {
            let words: Vec<&str> = line
                .split_whitespace()
                .map(|w| {
                    let bare = w.trim_start_matches("(x");
                    let is_age = bare.chars().next().is_some_and(|c| c.is_ascii_digit())
                        && bare.chars().all(|c| c.is_ascii_digit() || "smhdy".contains(c))
                        && !w.starts_with("(x");
                    if is_age { "AGE" } else { w }
                })
                .collect();
            out.push_str(&format!("  {}\n", words.join(" ")));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The keys under `Data` / `====` in sorted order: kubectl walks a Go map there, so its order
/// changes from run to run (this tool sorts them).
fn data_sorted(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        out.push(lines[i]);
        if lines[i] == "====" && i > 0 && lines[i - 1] == "Data" {
            let end = (i + 1..lines.len()).find(|&j| lines[j].is_empty()).unwrap_or(lines.len());
            let mut section = lines[i + 1..end].to_vec();
            section.sort_unstable();
            out.extend(section);
            i = end;
            continue;
        }
        i += 1;
    }
    out.join("\n")
}

/// Compares one run of each. Controllers may update an object's status between the two reads
/// (a Cluster's conditions, a Work's status), so a difference is read again a few times before
/// it counts.
fn same(fleet: &Fleet, ours: &[&str], theirs: impl Fn() -> Run) {
    let mut last = String::new();
    for _ in 0..5 {
        let mine = fleet.karmadactl(ours);
        let reference = theirs();
        assert_eq!(mine.code, reference.code, "karmadactl {ours:?}: {}\nkubectl: {}", mine.stderr, reference.stderr);
        assert_eq!(mine.stderr, reference.stderr, "karmadactl {ours:?}");
        let (a, b) = (normalise(&mine.stdout), normalise(&reference.stdout));
        if a == b {
            return;
        }
        last = format!("karmadactl {ours:?}:\n{a}\nkubectl:\n{b}");
    }
    panic!("describe differs from kubectl's:\n{last}");
}

#[test]
fn the_plane_and_a_member_are_described_as_kubectl_describes_them() {
    let fleet = Fleet::up(1);
    fleet.apply(OBJECTS);
    let uid = fleet.plane(&["get", "cm", "web-config", "-o", "jsonpath={.metadata.uid}"]);
    fleet.apply(&event(&uid));
    fleet.wait("web-config and the web Service in member1", || {
        fleet.get("member1", &["cm", "web-config", "-n", "default"]).ok_or("no ConfigMap")?;
        fleet.get("member1", &["svc", "web", "-n", "default"]).map(|_| ()).ok_or_else(|| "no Service".into())
    });
    let file = fleet.home.path().join("objects.yaml");
    std::fs::write(&file, OBJECTS).unwrap();
    let file = file.to_str().unwrap();
    let plane_cases: &[&[&str]] = &[
        &["describe", "cluster", "member1"],
        &["describe", "clusters"],
        &["describe", "cm", "web-config"],
        &["describe", "configmaps/web-config", "secret/web-secret"],
        &["describe", "cm", "web-config", "--show-events=false"],
        &["describe", "cm", "web"],
        &["describe", "cm", "-l", "app=web"],
        &["describe", "secret", "web-secret"],
        &["describe", "sa", "web-sa"],
        &["describe", "services"],
        &["describe", "ns", "team-a"],
        &["describe", "namespaces"],
        &["describe", "pp", "web-pp"],
        &["describe", "overridepolicies"],
        &["describe", "rb"],
        &["describe", "works", "-n", "karmada-es-member1"],
        &["describe", "cm", "-A", "--chunk-size=1"],
        &["describe", "-f", file],
        &["describe", "-f", file, "-n", "team-a"],
        // Failures: kubectl's messages and exit codes, and nothing on stdout.
        &["describe", "cm", "nope"],
        &["describe", "cm", "a", "b"],
        &["describe", "cm", "web-config", "nope"],
        &["describe", "nope"],
        &["describe", "cm", "-l", "app=none"],
    ];
    for args in plane_cases {
        same(&fleet, args, || fleet.k("karmada-apiserver", args));
    }
    let proxy = fleet.proxy_kubeconfig("member1");
    let member_cases: &[&[&str]] = &[
        &["describe", "cm", "web-config"],
        &["describe", "ns", "default"],
        &["describe", "svc", "web"],
        &["describe", "configmaps", "-n", "default"],
        &["describe", "cm", "nope"],
    ];
    for args in member_cases {
        let mut ours = args.to_vec();
        ours.extend(["-s", "members", "-C", "member1"]);
        same(&fleet, &ours, || fleet.k_with(&proxy, args));
    }
    // The member's copy carries the override: the member was really read, not the plane.
    let member = fleet.karmadactl(&["describe", "cm", "web-config", "--operation-scope=members", "--cluster=member1"]);
    assert!(member.stdout.contains("where=member"), "{}", member.stdout);
    let plane = fleet.karmadactl(&["describe", "cm", "web-config"]);
    assert!(!plane.stdout.contains("where=member"), "{}", plane.stdout);
}

#[test]
fn bad_requests_are_refused_with_upstreams_messages() {
    let fleet = Fleet::up(1);
    let cases: &[(&[&str], &str)] = &[
        (
            &["describe"],
            "error: You must specify the type of resource to describe. Use \"karmadactl api-resources\" for a complete list of supported resources.",
        ),
        (&["describe", "cm", "-s", "members"], "error: must specify a member cluster"),
        (&["describe", "cm", "-s", "members", "-C", "nope"], "error: clusters.cluster.karmada.io \"nope\" not found"),
        (&["describe", "cm", "-s", "all"], "not support operation scope: all"),
        (&["describe", "cm", "--chunk-size=-1"], "error: invalid --chunk-size -1: it must be 0 or more"),
        (&["describe", "cm", "-l", "a=(b"], "error: unable to parse requirement"),
        (
            &["describe", "cm", "-f", "/nonexistent/file.yaml"],
            "error: the path \"/nonexistent/file.yaml\" does not exist",
        ),
    ];
    for (args, want) in cases {
        let run = fleet.karmadactl(args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?} printed {}", run.stdout);
        assert!(run.stderr.starts_with("error: ") && run.stderr.contains(want), "{args:?}: {}", run.stderr);
    }
    let kustomize = fleet.karmadactl(&["describe", "-k", "."]);
    assert_eq!(kustomize.code, 2, "{}", kustomize.stderr);
    assert!(kustomize.stderr.contains("describe -k` is not built yet"), "{}", kustomize.stderr);
}

const WORKLOADS: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web}, annotations: {note: front}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {team: a}}
    spec:
      serviceAccountName: default
      initContainers:
      - {name: setup, image: busybox:1.36, command: [sh, -c, "echo ready\nexit 0"]}
      containers:
      - name: nginx
        image: nginx:1.25
        args: [--port, "8080"]
        ports: [{containerPort: 8080, name: http}, {containerPort: 9090, hostPort: 9090, protocol: UDP}]
        resources: {requests: {cpu: "0.25", memory: 64Mi}, limits: {cpu: 500m, memory: 128Mi}}
        livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5}
        readinessProbe: {tcpSocket: {port: http}}
        startupProbe: {exec: {command: [cat, /tmp/ok]}}
        envFrom: [{configMapRef: {name: web-env}}, {secretRef: {name: web-secret, optional: true}, prefix: S_}]
        env:
        - {name: MODE, value: "fast\nsafe"}
        - {name: POD, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
        - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
        - {name: CPU, valueFrom: {resourceFieldRef: {resource: limits.cpu, containerName: nginx}}}
        - {name: PASS, valueFrom: {secretKeyRef: {name: web-secret, key: password}}}
        - {name: CONF, valueFrom: {configMapKeyRef: {name: web-env, key: mode, optional: true}}}
        volumeMounts:
        - {name: conf, mountPath: /etc/nginx, readOnly: true}
        - {name: cache, mountPath: /cache, subPath: nginx}
      volumes:
      - {name: conf, configMap: {name: web-env}}
      - {name: cache, emptyDir: {sizeLimit: 1Gi}}
      - {name: creds, secret: {secretName: web-secret, optional: true}}
      - {name: host, hostPath: {path: /var/log, type: Directory}}
      - {name: info, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}
      - name: token
        projected: {sources: [{serviceAccountToken: {path: token, expirationSeconds: 3600}}, {configMap: {name: web-env}}]}
      nodeSelector: {kubernetes.io/os: linux}
      tolerations:
      - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
      - {operator: Exists}
      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-env, namespace: default}
data: {mode: fast}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  serviceName: db
  replicas: 1
  selector: {matchExpressions: [{key: app, operator: In, values: [db, store]}]}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:16}]
  volumeClaimTemplates:
  - metadata: {name: data, labels: {tier: db, keep: "yes"}}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: agent, image: busybox:1.36, resources: {limits: {cpu: 100m, memory: 32Mi}}}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: once, namespace: default}
spec:
  backoffLimit: 2
  activeDeadlineSeconds: 600
  template:
    spec:
      restartPolicy: Never
      containers: [{name: once, image: busybox:1.36, command: [sh, -c, "exit 0"]}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: indexed, namespace: default}
spec:
  completions: 3
  parallelism: 3
  completionMode: Indexed
  suspend: true
  template:
    spec:
      restartPolicy: Never
      containers: [{name: step, image: busybox:1.36}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: default}
spec:
  schedule: "0 3 * * *"
  successfulJobsHistoryLimit: 1
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: report, image: busybox:1.36}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: workloads, namespace: default}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, name: web}
  - {apiVersion: v1, kind: ConfigMap, name: web-env}
  - {apiVersion: apps/v1, kind: StatefulSet, name: db}
  - {apiVersion: apps/v1, kind: DaemonSet, name: agent}
  - {apiVersion: batch/v1, kind: Job, name: once}
  - {apiVersion: batch/v1, kind: Job, name: indexed}
  - {apiVersion: batch/v1, kind: CronJob, name: nightly}
  placement:
    clusterAffinity: {clusterNames: [member1]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: everything-labelled}
spec:
  resourceSelectors:
  - {apiVersion: v1, kind: Namespace, labelSelector: {matchLabels: {spread: "yes"}}}
  placement:
    clusterAffinity: {clusterNames: [member1]}
"#;

#[test]
fn workloads_and_nodes_are_described_as_kubectl_describes_them() {
    let fleet = Fleet::up(1);
    fleet.apply(WORKLOADS);
    fleet.wait("web's pods running and the job done in member1", || {
        let pods = fleet.get("member1", &["pods", "-n", "default"]).ok_or("no pods")?;
        let items = pods["items"].as_array().cloned().unwrap_or_default();
        let phase = |prefix: &str, want: &str| {
            items.iter().any(|p| {
                p["metadata"]["name"].as_str().unwrap_or_default().starts_with(prefix) && p["status"]["phase"] == want
            })
        };
        let running = items.iter().filter(|p| p["status"]["phase"] == "Running").count();
        match running >= 4 && phase("once-", "Succeeded") && phase("db-0", "Running") {
            true => Ok(()),
            false => Err(format!("{} pods, {running} running", items.len())),
        }
    });
    let plane_cases: &[&[&str]] = &[
        &["describe", "deploy", "web"],
        &["describe", "sts", "db"],
        &["describe", "ds", "agent"],
        &["describe", "jobs"],
        &["describe", "cronjob", "nightly"],
        &["describe", "pp", "workloads"],
        &["describe", "cpp", "everything-labelled"],
        &["describe", "rb", "web-deployment"],
        &["describe", "pods"],
    ];
    for args in plane_cases {
        same(&fleet, args, || fleet.k("karmada-apiserver", args));
    }
    let proxy = fleet.proxy_kubeconfig("member1");
    let member_cases: &[&[&str]] = &[
        &["describe", "deploy", "web"],
        &["describe", "rs"],
        &["describe", "pods"],
        &["describe", "pods", "-l", "app=web"],
        &["describe", "sts", "db"],
        &["describe", "ds", "agent"],
        &["describe", "jobs"],
        &["describe", "cronjob", "nightly"],
        &["describe", "nodes"],
        &["describe", "deploy", "web", "--show-events=false"],
    ];
    for args in member_cases {
        let mut ours = args.to_vec();
        ours.extend(["-s", "members", "-C", "member1"]);
        same(&fleet, &ours, || fleet.k_with(&proxy, args));
    }
    // Events a kubelet would report: about a pod (one without the involved object's kind, which
    // kubectl still finds) and about a node, naming it by name in place of its UID.
    let pod = fleet.names("member1", &["pods", "-n", "default", "-l", "app=web"])[0].clone();
    let pod_uid = fleet.get("member1", &["pod", &pod, "-n", "default"]).unwrap()["metadata"]["uid"].clone();
    let events = format!(
        r#"apiVersion: v1
kind: Event
metadata: {{name: pod-pulled, namespace: default}}
involvedObject: {{kind: Pod, name: {pod}, namespace: default, uid: {pod_uid}, fieldPath: "spec.containers{{nginx}}"}}
reason: Pulled
message: Container image "nginx:1.25" already present on machine
type: Normal
count: 1
firstTimestamp: "2020-01-01T00:00:00Z"
lastTimestamp: "2020-01-01T00:00:00Z"
source: {{component: kubelet, host: member1-node-1}}
---
apiVersion: v1
kind: Event
metadata: {{name: pod-probe, namespace: default}}
involvedObject: {{name: {pod}, namespace: default, uid: {pod_uid}}}
reason: Unhealthy
message: Readiness probe failed
type: Warning
count: 4
firstTimestamp: "2020-01-01T00:00:00Z"
lastTimestamp: "2021-01-01T00:00:00Z"
source: {{component: kubelet}}
---
apiVersion: v1
kind: Event
metadata: {{name: node-ready, namespace: default}}
involvedObject: {{kind: Node, name: member1-node-1, uid: member1-node-1}}
reason: NodeReady
message: Node member1-node-1 status is now NodeReady
type: Normal
firstTimestamp: "2020-01-01T00:00:00Z"
lastTimestamp: "2020-01-01T00:00:00Z"
source: {{component: kubelet}}
"#
    );
    let file = fleet.home.path().join("events.yaml");
    std::fs::write(&file, events).unwrap();
    let created = fleet.k_with(&proxy, &["create", "-f", file.to_str().unwrap()]);
    assert_eq!(created.code, 0, "{}", created.stderr);
    for args in [&["describe", "pod", pod.as_str()][..], &["describe", "node", "member1-node-1"]] {
        let mut ours = args.to_vec();
        ours.extend(["-s", "members", "-C", "member1"]);
        same(&fleet, &ours, || fleet.k_with(&proxy, args));
    }
    let described = fleet.karmadactl(&["describe", "pod", &pod, "-s", "members", "-C", "member1"]);
    assert!(described.stdout.contains("Readiness probe failed"), "{}", described.stdout);
    let node = fleet.karmadactl(&["describe", "node", "member1-node-1", "-s", "members", "-C", "member1"]);
    assert!(node.stdout.contains("NodeReady"), "{}", node.stdout);

    // A rollout: the member's Deployment then has an old ReplicaSet and a new one.
    let rolled = fleet.k("karmada-apiserver", &["set", "image", "deploy/web", "nginx=nginx:1.26", "-n", "default"]);
    assert_eq!(rolled.code, 0, "{}", rolled.stderr);
    fleet.wait("two ReplicaSets of web in member1", || {
        let names = fleet.names("member1", &["rs", "-n", "default", "-l", "app=web"]);
        if names.len() == 2 { Ok(()) } else { Err(format!("{names:?}")) }
    });
    for args in [&["describe", "deploy", "web"][..], &["describe", "rs", "-l", "app=web"]] {
        let mut ours = args.to_vec();
        ours.extend(["-s", "members", "-C", "member1"]);
        same(&fleet, &ours, || fleet.k_with(&proxy, args));
    }

    // The member's objects were read, not the plane's: only the member has the ReplicaSet.
    let member = fleet.karmadactl(&["describe", "deploy", "web", "-s", "members", "-C", "member1"]);
    for title in ["OldReplicaSets:", "NewReplicaSet:"] {
        let line = member.stdout.lines().find(|l| l.starts_with(title)).unwrap_or_default();
        assert!(line.contains(" web-") && line.contains("replicas created"), "{title}\n{}", member.stdout);
    }
    let plane = fleet.karmadactl(&["describe", "deploy", "web"]);
    assert!(!plane.stdout.contains("NewReplicaSet"), "{}", plane.stdout);
}

const CORE_KINDS: &str = r#"apiVersion: v1
kind: Namespace
metadata: {name: team-c, annotations: {owner: team-q}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: robot, namespace: team-c, labels: {role: bot}}
secrets: [{name: robot-creds}]
---
apiVersion: v1
kind: Secret
metadata: {name: robot-creds, namespace: team-c, labels: {role: bot}}
type: kubernetes.io/basic-auth
stringData: {username: admin, password: s3cret-value}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: team-c}
spec: {type: ExternalName, externalName: db.example.com}
---
apiVersion: v1
kind: Service
metadata: {name: lb, namespace: team-c, annotations: {note: public}}
spec:
  type: LoadBalancer
  externalTrafficPolicy: Local
  loadBalancerSourceRanges: [10.0.0.0/8, 192.168.0.0/16]
  selector: {app: lb, tier: edge}
  ports:
  - {name: https, port: 443, targetPort: 8443, protocol: TCP}
---
apiVersion: v1
kind: Service
metadata: {name: headless, namespace: team-c}
spec: {clusterIP: None, selector: {app: db}}
"#;

/// A service account token Secret for `robot` (whose UID it names, as the token controller
/// would), and events about the load balancer Service and the service account.
fn robot_token_and_events(sa_uid: &str, svc_uid: &str) -> String {
    format!(
        r#"apiVersion: v1
kind: Secret
metadata:
  name: robot-token
  namespace: team-c
  annotations: {{kubernetes.io/service-account.name: robot, kubernetes.io/service-account.uid: {sa_uid}}}
type: kubernetes.io/service-account-token
data: {{token: ZXlKaGJHY2lPaUpTVXpJMU5pSjkuYm9keS5zaWc=, ca.crt: Y2VydGlmaWNhdGU=, namespace: dGVhbS1j}}
---
apiVersion: v1
kind: Event
metadata: {{name: lb.1, namespace: team-c}}
involvedObject: {{kind: Service, name: lb, namespace: team-c, uid: {svc_uid}, apiVersion: v1}}
reason: EnsuringLoadBalancer
message: Ensuring load balancer
type: Normal
count: 2
firstTimestamp: "2020-01-01T00:00:00Z"
lastTimestamp: "2021-01-01T00:00:00Z"
source: {{component: service-controller}}
---
apiVersion: v1
kind: Event
metadata: {{name: robot.1, namespace: team-c}}
involvedObject: {{kind: ServiceAccount, name: robot, namespace: team-c, uid: {sa_uid}, apiVersion: v1}}
reason: TokenCreated
message: token added
type: Warning
count: 1
firstTimestamp: "2020-01-01T00:00:00Z"
lastTimestamp: "2020-01-01T00:00:00Z"
source: {{component: token-controller}}
"#
    )
}

#[test]
fn services_namespaces_and_credentials_are_described_as_kubectl_describes_them() {
    let fleet = Fleet::up(1);
    fleet.apply(CORE_KINDS);
    let uid = |object: &str| fleet.plane(&["get", object, "-n", "team-c", "-o", "jsonpath={.metadata.uid}"]);
    let (sa_uid, svc_uid) = (uid("sa/robot"), uid("svc/lb"));
    fleet.apply(&robot_token_and_events(&sa_uid, &svc_uid));
    let cases: &[&[&str]] = &[
        // Services of every type, with their events.
        &["describe", "svc", "-n", "team-c"],
        &["describe", "svc", "lb", "-n", "team-c", "--show-events=false"],
        // Namespaces (the server serves neither quotas nor limit ranges: both sections are left
        // out, as kubectl leaves them out on a 404).
        &["describe", "ns", "team-c"],
        &["describe", "ns", "default"],
        // Secrets: sizes only, the service account token shown, as kubectl shows it.
        &["describe", "secrets", "-n", "team-c"],
        // Service accounts: mountable secrets, tokens found by annotation, events.
        &["describe", "sa", "-n", "team-c"],
        &["describe", "sa", "robot", "-n", "team-c", "--show-events=false"],
        &["describe", "cm", "-n", "team-c"],
    ];
    for args in cases {
        same(&fleet, args, || fleet.k("karmada-apiserver", args));
    }
    let secrets = fleet.karmadactl(&["describe", "secrets", "-n", "team-c"]);
    assert!(secrets.stdout.contains("password:  12 bytes"), "{}", secrets.stdout);
    assert!(!secrets.stdout.contains("s3cret-value"), "{}", secrets.stdout);
    assert!(secrets.stdout.contains("eyJhbGciOiJSUzI1NiJ9.body.sig"), "{}", secrets.stdout);
    let sa = fleet.karmadactl(&["describe", "sa", "robot", "-n", "team-c"]);
    assert!(sa.stdout.contains("Tokens:              robot-token"), "{}", sa.stdout);
    assert!(sa.stdout.contains("TokenCreated"), "{}", sa.stdout);
}
