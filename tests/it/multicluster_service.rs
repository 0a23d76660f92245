//! Multi-cluster services end to end, as upstream's e2e walks them: a `local up` playground
//! (the embedded plane and simulated members), the ServiceExport/ServiceImport CRDs
//! propagated to the members, a Service exported from member1 and imported into member2, and
//! a CrossCluster MultiClusterService. The members' own API servers are checked for the
//! derived Service and the EndpointSlices listing member1's pod addresses.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::fleet::{Fleet, deployment};

/// The CRDs go to every member, as upstream's e2e does before exporting anything.
const CRDS_TO_MEMBERS: &str = "apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: mcs-crds
spec:
  resourceSelectors:
  - apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    name: serviceexports.multicluster.x-k8s.io
  - apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    name: serviceimports.multicluster.x-k8s.io
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
";

fn service(name: &str) -> String {
    format!(
        "apiVersion: v1
kind: Service
metadata:
  name: {name}
  namespace: default
spec:
  selector: {{app: {name}}}
  ports:
  - {{name: http, port: 80, targetPort: 8080, protocol: TCP}}
"
    )
}

/// A PropagationPolicy sending the listed `(apiVersion, kind)` objects named `name` to one
/// member.
fn policy_to(policy: &str, name: &str, kinds: &[(&str, &str)], member: &str) -> String {
    let selectors: String =
        kinds.iter().map(|(v, k)| format!("  - {{apiVersion: {v}, kind: {k}, name: {name}}}\n")).collect();
    format!(
        "apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: {policy}
  namespace: default
spec:
  resourceSelectors:
{selectors}  placement:
    clusterAffinity:
      clusterNames: [{member}]
"
    )
}

/// The addresses of the EndpointSlices of `service` in a context, with the slices' names.
fn addresses(fleet: &Fleet, context: &str, service: &str) -> (BTreeSet<String>, Vec<Value>) {
    let selector = format!("kubernetes.io/service-name={service}");
    let list = fleet.get(context, &["endpointslices", "-n", "default", "-l", &selector]).unwrap_or_default();
    let items: Vec<Value> = list["items"].as_array().cloned().unwrap_or_default();
    let addrs = items
        .iter()
        .flat_map(|s| s["endpoints"].as_array().cloned().unwrap_or_default())
        .flat_map(|e| e["addresses"].as_array().cloned().unwrap_or_default())
        .filter_map(|a| a.as_str().map(String::from))
        .collect();
    (addrs, items)
}

/// Waits until member1 lists `count` endpoints for `service`, and returns their addresses.
fn exporter_endpoints(fleet: &Fleet, service: &str, count: usize) -> BTreeSet<String> {
    fleet.wait(&format!("{count} endpoints of {service} in member1"), || {
        let (addrs, _) = addresses(fleet, "member1", service);
        if addrs.len() == count { Ok(addrs) } else { Err(format!("{addrs:?}")) }
    })
}

/// Waits until `context` lists exactly `want` for the slices of `service`.
fn wait_addresses(fleet: &Fleet, context: &str, service: &str, want: &BTreeSet<String>) -> Vec<Value> {
    fleet.wait(&format!("{service} slices in {context} listing {want:?}"), || {
        let (addrs, items) = addresses(fleet, context, service);
        if addrs == *want { Ok(items) } else { Err(format!("{addrs:?}")) }
    })
}

fn wait_crds(fleet: &Fleet) {
    fleet.apply(CRDS_TO_MEMBERS);
    for member in ["member1", "member2"] {
        fleet.wait(&format!("MCS CRDs in {member}"), || {
            let e = fleet.get(member, &["crd", "serviceexports.multicluster.x-k8s.io"]);
            let i = fleet.get(member, &["crd", "serviceimports.multicluster.x-k8s.io"]);
            if e.is_some() && i.is_some() { Ok(()) } else { Err(format!("{e:?} {i:?}")) }
        });
    }
}

#[test]
fn service_export_and_import() {
    let fleet = Fleet::up(2);
    wait_crds(&fleet);
    fleet.apply(&deployment("web", 2, ""));
    fleet.apply(&service("web"));
    fleet.apply(&policy_to("web", "web", &[("apps/v1", "Deployment"), ("v1", "Service")], "member1"));

    // The simulated member keeps an EndpointSlice for the Service, as kube's controller does.
    let two = exporter_endpoints(&fleet, "web", 2);
    let (_, slices) = addresses(&fleet, "member1", "web");
    assert_eq!(
        slices[0]["metadata"]["labels"]["endpointslice.kubernetes.io/managed-by"],
        "endpointslice-controller.k8s.io"
    );
    assert_eq!(slices[0]["ports"][0]["port"], 8080);
    let table = fleet.k_ok("member1", &["get", "endpointslices", "-n", "default"]);
    assert!(table.starts_with("NAME") && table.contains("ADDRESSTYPE") && table.contains("IPv4"), "{table}");
    // kube's checks apply to EndpointSlices written by anyone.
    let bad = fleet.home.path().join("bad-slice.yaml");
    std::fs::write(
        &bad,
        "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: bad}\naddressType: IPv5\n\
         endpoints: [{addresses: []}]\n",
    )
    .unwrap();
    let refused = fleet.k("karmada-apiserver", &["create", "-f", bad.to_str().unwrap()]);
    assert_ne!(refused.code, 0);
    assert!(refused.stderr.contains("addressType: Unsupported value: \"IPv5\""), "{}", refused.stderr);
    assert!(refused.stderr.contains("endpoints[0].addresses: Required value"), "{}", refused.stderr);

    // Export from member1: the plane collects the slices for `derived-web`.
    fleet.apply(
        "apiVersion: multicluster.x-k8s.io/v1alpha1\nkind: ServiceExport\nmetadata: {name: web, namespace: default}\n",
    );
    fleet.apply(&policy_to("web-export", "web", &[("multicluster.x-k8s.io/v1alpha1", "ServiceExport")], "member1"));
    let collected = wait_addresses(&fleet, "karmada-apiserver", "derived-web", &two);
    let name = collected[0]["metadata"]["name"].as_str().unwrap();
    assert!(name.starts_with("imported-member1-web-"), "{name}");
    assert_eq!(collected[0]["metadata"]["labels"]["endpointslice.karmada.io/provision-cluster"], "member1");

    // Import into member2: the derived Service and the slices listing member1's pods.
    fleet.apply(
        "apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: web, namespace: default}
spec:
  type: ClusterSetIP
  ports: [{name: http, port: 80, protocol: TCP}]
",
    );
    fleet.apply(&policy_to("web-import", "web", &[("multicluster.x-k8s.io/v1alpha1", "ServiceImport")], "member2"));
    let derived = fleet.wait("derived-web in member2", || {
        fleet.get("member2", &["service", "derived-web"]).ok_or_else(|| "absent".to_string())
    });
    assert_eq!(derived["spec"]["ports"][0]["port"], 80);
    let events = fleet.get("karmada-apiserver", &["events"]).unwrap_or_default();
    let synced = events["items"].as_array().into_iter().flatten().any(|e| {
        e["involvedObject"]["kind"] == "ServiceImport"
            && e["reason"] == "SyncDerivedServiceSucceed"
            && e["type"] == "Normal"
    });
    assert!(synced, "upstream's Event on the ServiceImport: {events}");
    assert!(derived["spec"].get("selector").is_none(), "{derived}");
    wait_addresses(&fleet, "member2", "derived-web", &two);
    assert!(fleet.get("member1", &["service", "derived-web"]).is_none());

    // Settled, nothing is written again: the simulator, the collection and the dispatch
    // compare before they write.
    let versions = || {
        let mut all: Vec<Value> =
            [("member1", "web"), ("karmada-apiserver", "derived-web"), ("member2", "derived-web")]
                .iter()
                .flat_map(|(context, service)| addresses(&fleet, context, service).1)
                .map(|i| i["metadata"]["resourceVersion"].clone())
                .collect();
        let works = fleet
            .get("karmada-apiserver", &["works", "-n", "karmada-es-member2", "-l", "serviceimport.karmada.io/name=web"])
            .unwrap_or_default();
        let works: Vec<Value> = works["items"].as_array().cloned().unwrap_or_default();
        assert_eq!(works.len(), 2, "the derived Service's Work and one slice's");
        all.extend(works.iter().map(|w| w["metadata"]["resourceVersion"].clone()));
        all
    };
    // The Works' status (Applied, and what member2 reports) is written once after the apply,
    // when the member's report has been gathered; settled means that has happened.
    fleet.wait("member2's Works report their apply", || {
        let works = fleet
            .get("karmada-apiserver", &["works", "-n", "karmada-es-member2", "-l", "serviceimport.karmada.io/name=web"])
            .unwrap_or_default();
        let works = works["items"].as_array().cloned().unwrap_or_default();
        let applied = |w: &Value| {
            w["status"]["conditions"].as_array().into_iter().flatten().any(|c| {
                c["type"] == "Applied"
                    && c["status"] == "True"
                    && c["observedGeneration"] == w["metadata"]["generation"]
            })
        };
        match works.len() == 2 && works.iter().all(applied) {
            true => Ok(()),
            false => Err(format!("{works:?}")),
        }
    });
    let before = versions();
    std::thread::sleep(std::time::Duration::from_secs(2));
    assert_eq!(versions(), before, "slices were rewritten while nothing changed");

    // member1 scales: member2's slices follow.
    fleet.plane(&["scale", "deployment/web", "--replicas=3"]);
    let three = exporter_endpoints(&fleet, "web", 3);
    assert!(three.is_superset(&two), "{three:?} ⊇ {two:?}");
    wait_addresses(&fleet, "member2", "derived-web", &three);
    fleet.plane(&["scale", "deployment/web", "--replicas=1"]);
    let one = exporter_endpoints(&fleet, "web", 1);
    wait_addresses(&fleet, "member2", "derived-web", &one);

    // The export goes: so do the collected slices, in the plane and in member2.
    fleet.plane(&["delete", "serviceexport", "web"]);
    wait_addresses(&fleet, "karmada-apiserver", "derived-web", &BTreeSet::new());
    wait_addresses(&fleet, "member2", "derived-web", &BTreeSet::new());
    // member1's own slices are kube's controller's, and stay.
    assert_eq!(addresses(&fleet, "member1", "web").0, one);

    // The import goes: its derived Service leaves the plane and member2.
    fleet.plane(&["delete", "serviceimport", "web"]);
    fleet.wait("derived-web gone", || {
        let left: Vec<&str> = ["karmada-apiserver", "member2"]
            .into_iter()
            .filter(|c| fleet.get(c, &["service", "derived-web"]).is_some())
            .collect();
        if left.is_empty() { Ok(()) } else { Err(format!("still in {left:?}")) }
    });
}

#[test]
fn multi_cluster_service_cross_cluster() {
    let fleet = Fleet::up(2);
    fleet.apply(&deployment("api", 1, ""));
    fleet.apply(&service("api"));
    fleet.apply(&policy_to("api", "api", &[("apps/v1", "Deployment"), ("v1", "Service")], "member1"));
    let one = exporter_endpoints(&fleet, "api", 1);

    fleet.apply(
        "apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: api, namespace: default}
spec:
  types: [CrossCluster]
  providerClusters: [{name: member1}]
  consumerClusters: [{name: member2}]
",
    );
    // member2 gets the Service and slices `member1-<slice>` listing member1's pod.
    fleet.wait("Service api in member2", || fleet.get("member2", &["service", "api"]).ok_or("absent".to_string()));
    let slices = wait_addresses(&fleet, "member2", "api", &one);
    // member2's own controller keeps an empty slice for the Service's selector; the other is
    // member1's.
    let dispatched = slices.iter().find(|s| s["metadata"]["name"].as_str().unwrap().starts_with("member1-api-"));
    let dispatched = dispatched.unwrap_or_else(|| panic!("no member1-api-* slice in {slices:?}"));
    let labels = &dispatched["metadata"]["labels"];
    assert_eq!(labels["endpointslice.kubernetes.io/managed-by"], "endpointslice-dispatch-controller.karmada.io");
    fleet.wait("MultiClusterService conditions", || {
        let mcs = fleet.get("karmada-apiserver", &["multiclusterservice", "api"]).unwrap_or_default();
        let conditions = mcs["status"]["conditions"].as_array().cloned().unwrap_or_default();
        let ok = |t: &str| conditions.iter().any(|c| c["type"] == t && c["status"] == "True");
        if ok("ServiceApplied") && ok("EndpointSliceDispatched") { Ok(()) } else { Err(mcs["status"].to_string()) }
    });

    fleet.plane(&["scale", "deployment/api", "--replicas=2"]);
    let two = exporter_endpoints(&fleet, "api", 2);
    wait_addresses(&fleet, "member2", "api", &two);

    // LoadBalancer is stored and says it is not implemented; so does a MultiClusterIngress.
    fleet.apply(
        "apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: lb, namespace: default}
spec:
  types: [LoadBalancer]
",
    );
    fleet.wait("LoadBalancer not implemented", || {
        let mcs = fleet.get("karmada-apiserver", &["multiclusterservice", "lb"]).unwrap_or_default();
        let conditions = mcs["status"]["conditions"].as_array().cloned().unwrap_or_default();
        let said = conditions
            .iter()
            .any(|c| c["type"] == "LoadBalancerApplied" && c["status"] == "False" && c["reason"] == "NotImplemented");
        if said { Ok(()) } else { Err(mcs["status"].to_string()) }
    });
    fleet.apply(
        "apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterIngress
metadata: {name: front, namespace: default}
spec:
  defaultBackend: {service: {name: api, port: {number: 80}}}
",
    );
    fleet.wait("MultiClusterIngress Warning", || {
        let events = fleet.get("karmada-apiserver", &["events"]).unwrap_or_default();
        let said = events["items"].as_array().into_iter().flatten().any(|e| {
            e["involvedObject"]["name"] == "front" && e["reason"] == "NotImplemented" && e["type"] == "Warning"
        });
        if said { Ok(()) } else { Err(events.to_string()) }
    });

    // The MultiClusterService goes: its slices leave member2.
    fleet.plane(&["delete", "multiclusterservice", "api"]);
    wait_addresses(&fleet, "member2", "api", &BTreeSet::new());
}
