//! The resource interpreter end to end: a CRD kind taught to Karmada by a user's
//! ResourceInterpreterCustomization is divided by its own replica field, reports health and
//! status back through the Works and the binding into the template, and stops being
//! interpreted the moment the customization is deleted.

use serde_json::Value;

use crate::common::fleet::Fleet;

pub(crate) const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: workloads.example.io
spec:
  group: example.io
  names: {kind: Workload, plural: workloads, singular: workload, listKind: WorkloadList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              image: {type: string}
          status:
            type: object
            properties:
              readySize: {type: integer}
";

/// Replicas live at `spec.size`; a member's copy is healthy once all of them are ready.
const CUSTOMIZATION: &str = "apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: workload-size
spec:
  target: {apiVersion: example.io/v1, kind: Workload}
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          return obj.spec.size, {}
        end
    replicaRevision:
      luaScript: |
        function ReviseReplica(obj, desiredReplica)
          obj.spec.size = desiredReplica
          return obj
        end
    statusReflection:
      luaScript: |
        function ReflectStatus(observedObj)
          if observedObj.status == nil then
            return {}
          end
          return {readySize = observedObj.status.readySize}
        end
    statusAggregation:
      luaScript: |
        function AggregateStatus(desiredObj, statusItems)
          local ready = 0
          for i = 1, #statusItems do
            if statusItems[i].status ~= nil and statusItems[i].status.readySize ~= nil then
              ready = ready + statusItems[i].status.readySize
            end
          end
          desiredObj.status = {readySize = ready}
          return desiredObj
        end
    healthInterpretation:
      luaScript: |
        function InterpretHealth(observedObj)
          return observedObj.status ~= nil and observedObj.status.readySize == observedObj.spec.size
        end
";

/// A PropagationPolicy `web` for `selectors` (YAML list items), dividing replicas 2:1 between
/// member1 and member2.
pub(crate) fn weighted_policy(selectors: &str) -> String {
    format!(
        "apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
  namespace: default
spec:
  resourceSelectors:
{selectors}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - targetCluster: {{clusterNames: [member1]}}
          weight: 2
        - targetCluster: {{clusterNames: [member2]}}
          weight: 1
"
    )
}

fn size(fleet: &Fleet, member: &str) -> Option<i64> {
    fleet.get(member, &["workloads.example.io", "web", "-n", "default"]).and_then(|w| w["spec"]["size"].as_i64())
}

fn wait_sizes(fleet: &Fleet, want: (i64, i64)) {
    fleet.wait(&format!("sizes {want:?} in member1 and member2"), || {
        let seen = (size(fleet, "member1"), size(fleet, "member2"));
        if seen == (Some(want.0), Some(want.1)) { Ok(()) } else { Err(format!("{seen:?}")) }
    });
}

/// Sets `status.readySize` of the Workload `web` in `member`.
pub(crate) fn set_ready(fleet: &Fleet, member: &str, ready: i64) {
    let patch = format!("{{\"status\":{{\"readySize\":{ready}}}}}");
    fleet.k_ok(
        member,
        &[
            "patch",
            "workloads.example.io",
            "web",
            "-n",
            "default",
            "--subresource=status",
            "--type=merge",
            "-p",
            &patch,
        ],
    );
}

/// Waits until the binding that `binding` reads shows the health of member1 and member2 as `want`.
pub(crate) fn wait_health(fleet: &Fleet, binding: impl Fn() -> Value, want: (&str, &str)) {
    fleet.wait("health per cluster in the binding", || {
        let b = binding();
        let health = |c: &str| {
            b["status"]["aggregatedStatus"]
                .as_array()
                .and_then(|items| items.iter().find(|i| i["clusterName"] == c))
                .map(|i| i["health"].clone())
        };
        let seen = (health("member1"), health("member2"));
        if seen == (Some(want.0.into()), Some(want.1.into())) { Ok(()) } else { Err(format!("{seen:?}")) }
    });
}

fn binding(fleet: &Fleet) -> Value {
    fleet.get("karmada-apiserver", &["resourcebindings", "web-workload", "-n", "default"]).unwrap_or(Value::Null)
}

#[test]
fn a_customization_divides_a_crd_reports_its_health_and_status_and_stops_when_deleted() {
    let fleet = Fleet::up(2);
    // The kind exists in the plane and in both members.
    let crd = fleet.home.path().join("workloads-crd.yaml");
    std::fs::write(&crd, CRD).unwrap();
    for context in ["karmada-apiserver", "member1", "member2"] {
        fleet.k_ok(context, &["apply", "-f", crd.to_str().unwrap()]);
    }
    fleet.apply(CUSTOMIZATION);
    fleet.apply(&weighted_policy("  - {apiVersion: example.io/v1, kind: Workload, name: web}"));
    fleet.apply("apiVersion: example.io/v1\nkind: Workload\nmetadata:\n  name: web\n  namespace: default\nspec:\n  size: 6\n  image: nginx\n");

    // GetReplicas reads spec.size, so the binding asks for 6 and the static weights 2:1 give
    // member1 4 and member2 2, written back by ReviseReplica.
    wait_sizes(&fleet, (4, 2));
    assert_eq!(binding(&fleet)["spec"]["replicas"], 6);

    // Statuses flow back: member1 is fully ready, member2 is not.
    set_ready(&fleet, "member1", 4);
    set_ready(&fleet, "member2", 1);
    wait_health(&fleet, || binding(&fleet), ("Healthy", "Unhealthy"));
    fleet.wait("the aggregated status on the template", || {
        let t = fleet.get("karmada-apiserver", &["workloads.example.io", "web", "-n", "default"]).unwrap();
        if t["status"]["readySize"] == 5 { Ok(()) } else { Err(t["status"].to_string()) }
    });

    // Without the customization nobody interprets the kind: no replicas to divide, so each
    // member gets the template as it is.
    fleet.plane(&["delete", "resourceinterpretercustomization", "workload-size"]);
    wait_sizes(&fleet, (6, 6));
    assert!(binding(&fleet)["spec"].get("replicas").is_none(), "{}", binding(&fleet)["spec"]);
}

const CLONESET_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: clonesets.apps.kruise.io
spec:
  group: apps.kruise.io
  names: {kind: CloneSet, plural: clonesets, singular: cloneset, listKind: CloneSetList}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
";

const CLONESET: &str = "apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: shop, namespace: default}
spec:
  replicas: 4
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers:
      - name: shop
        image: nginx
        resources: {requests: {cpu: 250m}}
";

fn cloneset_replicas(fleet: &Fleet, member: &str) -> Option<i64> {
    fleet
        .get(member, &["clonesets.apps.kruise.io", "shop", "-n", "default"])
        .and_then(|c| c["spec"]["replicas"].as_i64())
}

#[test]
fn a_kruise_cloneset_is_divided_and_aggregated_by_the_shipped_customization_alone() {
    let fleet = Fleet::up(2);
    let crd = fleet.home.path().join("clonesets-crd.yaml");
    std::fs::write(&crd, CLONESET_CRD).unwrap();
    for context in ["karmada-apiserver", "member1", "member2"] {
        fleet.k_ok(context, &["apply", "-f", crd.to_str().unwrap()]);
    }
    // No ResourceInterpreterCustomization of the user's: the shipped one for CloneSet answers.
    assert!(fleet.names("karmada-apiserver", &["resourceinterpretercustomizations"]).is_empty());
    fleet.apply(&weighted_policy("  - {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: shop}"));
    fleet.apply(CLONESET);

    // Static weights 2:1 over 4 replicas: 3 and 1 (the remainder goes to the heavier member).
    fleet.wait("the CloneSet divided over the members", || {
        let seen = (cloneset_replicas(&fleet, "member1"), cloneset_replicas(&fleet, "member2"));
        if seen == (Some(3), Some(1)) { Ok(()) } else { Err(format!("{seen:?}")) }
    });
    let binding = || {
        fleet.get("karmada-apiserver", &["resourcebindings", "shop-cloneset", "-n", "default"]).unwrap_or(Value::Null)
    };
    let spec = binding()["spec"].clone();
    assert_eq!(spec["replicas"], 4, "{spec}");
    assert_eq!(spec["replicaRequirements"]["resourceRequest"]["cpu"], "250m", "{spec}");

    // What the members report adds up on the template.
    for (member, n) in [("member1", 3), ("member2", 1)] {
        let status = format!(
            "{{\"status\":{{\"replicas\":{n},\"readyReplicas\":{n},\"updatedReplicas\":{n},\"availableReplicas\":{n},\"observedGeneration\":1}}}}"
        );
        fleet.k_ok(
            member,
            &[
                "patch",
                "clonesets.apps.kruise.io",
                "shop",
                "-n",
                "default",
                "--subresource=status",
                "--type=merge",
                "-p",
                &status,
            ],
        );
    }
    fleet.wait("the members' replicas summed on the template", || {
        let t = fleet.get("karmada-apiserver", &["clonesets.apps.kruise.io", "shop", "-n", "default"]).unwrap();
        if t["status"]["readyReplicas"] == 4 && t["status"]["replicas"] == 4 {
            Ok(())
        } else {
            Err(t["status"].to_string())
        }
    });
    wait_health(&fleet, binding, ("Healthy", "Healthy"));
}
