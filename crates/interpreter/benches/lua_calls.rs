//! Lua calls per second: CloneSet's InterpretReplica and AggregateStatus scripts from the
//! shared fixtures (upstream's third-party customization and its first test case of each), and
//! a one-line health script, which measures what a fresh sandboxed state costs per call.
//!
//! Run with `cargo bench -p karmadactl-interpreter --bench lua_calls` with the machine quiet.

#[path = "../tests/support/block_on.rs"]
mod block_on;
use block_on::block_on;

use std::path::Path;
use std::time::{Duration, Instant};

use karmadactl_interpreter::{Interpreter, RuleSet};
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Value, json};

const WARM_UP: usize = 200;
const CALLS: usize = 5000;

fn yaml(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_saphyr::from_multiple(&text).unwrap()
}

/// Calls per second of `call`, after a warm-up.
fn rate(mut call: impl FnMut()) -> f64 {
    for _ in 0..WARM_UP {
        call();
    }
    let start = Instant::now();
    for _ in 0..CALLS {
        call();
    }
    CALLS as f64 / start.elapsed().max(Duration::from_nanos(1)).as_secs_f64()
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fixtures/karmada/resourcecustomizations/apps.kruise.io/v1alpha1/CloneSet");
    let interpreter = Interpreter::new();
    interpreter.set_customizations(RuleSet::from_objects(&yaml(&dir.join("customizations.yaml"))).unwrap());
    let replica_case = &yaml(&dir.join("testdata/interpretreplica-test.yaml"))[0];
    let aggregate_case = yaml(&dir.join("testdata/aggregatestatus-test.yaml"))
        .into_iter()
        .find(|c| c["statusItems"].as_array().is_some_and(|a| !a.is_empty()))
        .expect("a case with status items");
    let items: Vec<AggregatedStatusItem> = serde_json::from_value(aggregate_case["statusItems"].clone()).unwrap();

    let replicas = rate(|| {
        block_on(interpreter.replicas(&replica_case["desiredObj"])).unwrap();
    });
    let aggregate = rate(|| {
        block_on(interpreter.aggregate_status(&aggregate_case["desiredObj"], &items)).unwrap();
    });
    let trivial = Interpreter::new();
    let health = json!({
        "metadata": {"name": "h"},
        "spec": {"target": {"apiVersion": "example.io/v1", "kind": "Thing"},
                 "customizations": {"healthInterpretation": {"luaScript": "function InterpretHealth(o) return true end"}}}
    });
    trivial.set_customizations(RuleSet::from_objects(&[health]).unwrap());
    let thing = json!({"apiVersion": "example.io/v1", "kind": "Thing"});
    let state = rate(|| {
        block_on(trivial.interpret_health(&thing)).unwrap();
    });

    // The same operations on a Deployment, answered by the native interpreter: the CloneSet's
    // pod template and replicas, and the Deployment's own reflected member statuses.
    let native = Interpreter::new();
    let mut deployment = replica_case["desiredObj"].clone();
    deployment["apiVersion"] = json!("apps/v1");
    deployment["kind"] = json!("Deployment");
    let native_replicas = rate(|| {
        block_on(native.replicas(&deployment)).unwrap();
    });
    let member = |ready: i64| {
        json!({"replicas": 2, "readyReplicas": ready, "updatedReplicas": 2, "availableReplicas": ready,
               "observedGeneration": 1, "generation": 1, "resourceTemplateGeneration": 1})
    };
    let deployment_items: Vec<AggregatedStatusItem> = serde_json::from_value(json!([
        {"clusterName": "member1", "status": member(2), "applied": true},
        {"clusterName": "member2", "status": member(1), "applied": true},
    ]))
    .unwrap();
    let native_aggregate = rate(|| {
        block_on(native.aggregate_status(&deployment, &deployment_items)).unwrap();
    });

    println!("## Lua calls per second ({CALLS} calls each, one thread)\n");
    println!("| call | calls/s | per call |");
    println!("|---|---:|---:|");
    for (name, r) in [
        ("CloneSet InterpretReplica (GetReplicas + kube.accuratePodRequirements)", replicas),
        ("CloneSet AggregateStatus (two status items)", aggregate),
        ("one-line InterpretHealth (a fresh sandboxed state and a tiny script)", state),
        ("native: Deployment InterpretReplica (the same pod template)", native_replicas),
        ("native: Deployment AggregateStatus (two status items)", native_aggregate),
    ] {
        println!("| {name} | {r:.0} | {:.1} µs |", 1e6 / r);
    }
}
