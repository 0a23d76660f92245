//! Running upstream's third-party test cases (`resourcecustomizations/<group>/<version>/<kind>/
//! testdata/*-test.yaml`) through an interpreter and comparing every expected output key as
//! upstream's thirdparty_test.go compares it. Shared by the test of upstream's own
//! customizations and the test of the shipped set.

use std::path::{Path, PathBuf};

use karmadactl_interpreter::{Interpreter, Operation};
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Value, json};

use super::compare;
use crate::block_on::block_on;

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/karmada/resourcecustomizations")
}

/// Every file named `name` under `dir`, in path order.
pub fn find(dir: &Path, name: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            find(&path, name, out);
        } else if path.file_name().is_some_and(|n| n == name) {
            out.push(path);
        }
    }
}

pub fn documents(path: &Path) -> Vec<Value> {
    let text = joined_quoted_lines(&std::fs::read_to_string(path).unwrap());
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    docs.into_iter().filter(|d| !d.is_null()).collect()
}

/// The text with every single-quoted scalar on one line. Go's YAML reader accepts a quoted
/// scalar continued at its key's own indentation, which the parser here refuses; a line break
/// inside a flow scalar folds to a space either way.
pub fn joined_quoted_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open = false;
    for line in text.lines() {
        if open {
            out.push(' ');
            out.push_str(line.trim_start());
        } else {
            out.push('\n');
            out.push_str(line);
        }
        // A mapping key (in a list item or not) whose value starts a single-quoted scalar.
        let item = line.trim_start().trim_start_matches("- ");
        let quoted_value = item
            .split_once(": '")
            .filter(|(key, _)| !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .map(|(_, rest)| rest);
        let body = if open { Some(line) } else { quoted_value };
        if let Some(body) = body {
            // An odd count of quotes after the opening one closes the scalar.
            open = body.matches('\'').count() % 2 == 0;
        }
    }
    out
}

/// The answers of one case, by upstream's output key.
pub fn run(interpreter: &Interpreter, case: &Value) -> Result<Vec<(&'static str, Value)>, String> {
    let desired = case.get("desiredObj").filter(|v| !v.is_null());
    let observed = case.get("observedObj").filter(|v| !v.is_null());
    // Upstream's getObjectOrError: the desired object, else the observed one.
    let object = desired.or(observed).ok_or("the case gives no object")?;
    let operation = case["operation"].as_str().and_then(Operation::parse).ok_or("unknown operation")?;
    let e = |e: karmadactl_interpreter::InterpretError| e.to_string();
    let json = |v: &dyn erased::Ser| v.json();
    Ok(match operation {
        Operation::InterpretReplica => {
            let r = block_on(interpreter.replicas(object)).map_err(e)?;
            vec![("replica", json!(r.replicas)), ("requires", json(&r.requirements))]
        }
        Operation::InterpretComponent => {
            vec![("components", json(&block_on(interpreter.components(object)).map_err(e)?))]
        }
        Operation::ReviseReplica => {
            let replicas = case["inputReplicas"].as_i64().unwrap_or_default();
            vec![("revised", block_on(interpreter.revise_replica(object, replicas)).map_err(e)?)]
        }
        Operation::Retain => {
            let (desired, observed) = (desired.ok_or("no desiredObj")?, observed.ok_or("no observedObj")?);
            vec![("retained", block_on(interpreter.retain(desired, observed)).map_err(e)?)]
        }
        Operation::AggregateStatus => {
            let items = status_items(case)?;
            let answer = interpreter.aggregate_status_items(object, items.as_deref());
            vec![("aggregatedStatus", block_on(answer).map_err(e)?)]
        }
        Operation::InterpretStatus => {
            vec![("status", block_on(interpreter.reflect_status(object)).map_err(e)?.unwrap_or(Value::Null))]
        }
        Operation::InterpretHealth => {
            vec![("healthy", json!(block_on(interpreter.interpret_health(object)).map_err(e)?))]
        }
        Operation::InterpretDependency => {
            vec![("dependencies", json(&block_on(interpreter.dependencies(object)).map_err(e)?))]
        }
    })
}

/// The case's status items: absent or null is no list (nil to a script), `[]` an empty one.
/// Go's decoding takes an item without a cluster name; so does this.
pub fn status_items(case: &Value) -> Result<Option<Vec<AggregatedStatusItem>>, String> {
    let Some(items) = case.get("statusItems").and_then(Value::as_array) else { return Ok(None) };
    let items = items.iter().map(|item| {
        let mut item = item.clone();
        if item.get("clusterName").is_none() {
            item["clusterName"] = json!("");
        }
        serde_json::from_value(item).map_err(|e| e.to_string())
    });
    items.collect::<Result<Vec<_>, _>>().map(Some)
}

/// Serialisation of the typed answers without naming each type.
mod erased {
    pub trait Ser {
        fn json(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Ser for T {
        fn json(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap()
        }
    }
}

/// Whether an answer matches the expected output of `key`.
pub fn matches(key: &str, expected: &Value, actual: &Value) -> bool {
    match key {
        "requires" => compare::same(&compare::typed(expected), &compare::typed(actual)),
        "components" => compare::same(
            &compare::typed(&compare::sorted(expected, &["name"])),
            &compare::typed(&compare::sorted(actual, &["name"])),
        ),
        "dependencies" => {
            let fields = ["apiVersion", "kind", "namespace", "name"];
            compare::same(
                &compare::typed(&compare::sorted(expected, &fields)),
                &compare::typed(&compare::sorted(actual, &fields)),
            )
        }
        "revised" | "retained" | "aggregatedStatus" => {
            let (expected, actual) = compare::excluding(expected, actual);
            compare::same(&expected, &actual)
        }
        _ => compare::same(expected, actual),
    }
}

/// Every case of every kind: `setup` gives the interpreter for a kind from its
/// `customizations.yaml` (and may report problems with it); `check` may refuse a case before it
/// runs. The number of cases and the failures, each naming its file and case.
pub fn run_all(
    setup: impl Fn(&Path, &[Value], &mut Vec<String>) -> Interpreter,
    check: impl Fn(&Interpreter, &Value) -> Result<(), String>,
) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    find(&fixtures(), "customizations.yaml", &mut files);
    assert!(!files.is_empty(), "no customizations.yaml under {}", fixtures().display());
    let (mut cases, mut failures) = (0, Vec::new());
    for file in files {
        let interpreter = setup(&file, &documents(&file), &mut failures);
        let mut tests = Vec::new();
        for entry in std::fs::read_dir(file.parent().unwrap().join("testdata")).unwrap() {
            tests.push(entry.unwrap().path());
        }
        tests.sort();
        for test in tests.iter().filter(|p| p.to_string_lossy().ends_with("-test.yaml")) {
            for case in documents(test) {
                cases += 1;
                let name = case["name"].as_str().unwrap_or_default().to_string();
                let at = format!("{} / {name}", test.strip_prefix(fixtures()).unwrap().display());
                if let Err(e) = check(&interpreter, &case) {
                    failures.push(format!("{at}: {e}"));
                    continue;
                }
                let answers = match run(&interpreter, &case) {
                    Ok(a) => a,
                    Err(e) => {
                        failures.push(format!("{at}: {e}"));
                        continue;
                    }
                };
                for (key, expected) in case["output"].as_object().into_iter().flatten() {
                    let Some((_, actual)) = answers.iter().find(|(k, _)| k == key) else {
                        failures.push(format!("{at}: output key '{key}' is not an answer of this operation"));
                        continue;
                    };
                    if !matches(key, expected, actual) {
                        failures.push(format!(
                            "{at}: unexpected {key}\nexpected: {}\ngot:      {}",
                            serde_json::to_string(expected).unwrap(),
                            serde_json::to_string(actual).unwrap()
                        ));
                    }
                }
            }
        }
    }
    (cases, failures)
}
