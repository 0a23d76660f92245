//! Each operation run from a script (upstream's `luavm.VM` methods): the arguments upstream
//! passes, and the results checked and converted into what the operation returns.

use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::replicas::{Component, ReplicaRequirements};
use mlua::Value as LuaValue;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Arg, CallError, Vm, convert, empty_fields};
use crate::Replicas;

fn bad(text: impl Into<String>) -> CallError {
    CallError::Result(text.into())
}

/// A table result as JSON, empty fields repaired against `references`.
fn table_json(value: &LuaValue, wants_object: bool, references: &[&Value]) -> Result<Value, CallError> {
    let LuaValue::Table(_) = value else {
        return Err(bad(format!("expect the returned requires type is table but got {}", convert::type_name(value))));
    };
    let json = convert::from_lua(value).map_err(|e| bad(format!("encode lua result to json failed: {e}")))?;
    Ok(empty_fields::repair(json, wants_object, references))
}

/// A result that must be a whole object with a kind, as upstream's unstructured decoding asks.
fn object(json: Value) -> Result<Value, CallError> {
    match &json {
        Value::Object(m) if m.get("kind").and_then(Value::as_str).is_some_and(|k| !k.is_empty()) => Ok(json),
        Value::Object(_) => Err(bad(format!("Object 'Kind' is missing in '{json}'"))),
        other => Err(bad(format!("json unmarshal obj failed: cannot unmarshal {} into an object", kind_of(other)))),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
        _ => "null",
    }
}

/// Decodes typed output; quantities given as numbers are read as Kubernetes reads them.
fn typed<T: DeserializeOwned>(mut json: Value) -> Result<T, CallError> {
    quantities_as_strings(&mut json);
    serde_json::from_value(json).map_err(|e| bad(format!("json unmarshal obj failed: {e}")))
}

/// Each listed object with the fields Go's decoding would leave at their zero value when absent
/// (Go's JSON decoding never requires a field).
fn with_defaults(mut json: Value, defaults: &[(&str, Value)]) -> Value {
    for item in json.as_array_mut().into_iter().flatten() {
        if let Value::Object(m) = item {
            for (field, zero) in defaults {
                m.entry(*field).or_insert_with(|| zero.clone());
            }
        }
    }
    json
}

/// `resourceRequest` values that are numbers, as strings (Kubernetes' Quantity accepts both).
fn quantities_as_strings(json: &mut Value) {
    match json {
        Value::Object(m) => {
            for (k, v) in m.iter_mut() {
                if k == "resourceRequest" {
                    for q in v.as_object_mut().into_iter().flat_map(Map::values_mut) {
                        if let Value::Number(n) = q {
                            *q = Value::String(n.to_string());
                        }
                    }
                } else {
                    quantities_as_strings(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(quantities_as_strings),
        _ => {}
    }
}

impl Vm {
    /// `GetReplicas(obj)`: the replica count and, when given, what each replica needs.
    pub(crate) fn get_replicas(&self, script: &str, object: &Value) -> Result<Replicas, CallError> {
        self.call(script, "GetReplicas", &[Arg::Json(object)], 2, |_, rets| {
            let replicas = match &rets[0] {
                LuaValue::Integer(i) => *i as i32,
                LuaValue::Number(n) => *n as i32,
                other => return Err(bad(format!("result type {} is not number", convert::type_name(other)))),
            };
            let requirements = match &rets[1] {
                LuaValue::Nil => None,
                v @ LuaValue::Table(_) => Some(typed::<ReplicaRequirements>(table_json(v, true, &[])?)?),
                other => {
                    return Err(bad(format!(
                        "expect the returned requires type is table but got {}",
                        convert::type_name(other)
                    )));
                }
            };
            Ok(Replicas { replicas, requirements })
        })
    }

    /// `GetComponents(obj)`: the components; nil means none.
    pub(crate) fn get_components(&self, script: &str, object: &Value) -> Result<Vec<Component>, CallError> {
        self.call(script, "GetComponents", &[Arg::Json(object)], 1, |_, rets| match &rets[0] {
            LuaValue::Nil => Ok(Vec::new()),
            v @ LuaValue::Table(_) => typed(with_defaults(
                table_json(v, false, &[])?,
                &[("name", Value::from("")), ("replicas", Value::from(0))],
            )),
            other => Err(bad(format!(
                "expected result type 'table' or 'nil' from GetComponents, but got '{}'",
                convert::type_name(other)
            ))),
        })
    }

    /// `ReviseReplica(obj, replicas)`: the object with the replicas written in.
    pub(crate) fn revise_replica(&self, script: &str, object: &Value, replicas: i64) -> Result<Value, CallError> {
        self.call(script, "ReviseReplica", &[Arg::Json(object), Arg::Int(replicas)], 1, |_, rets| {
            object_result(&rets[0], &[object])
        })
    }

    /// `Retain(desired, observed)`: the desired object with the member's values kept.
    pub(crate) fn retain(&self, script: &str, desired: &Value, observed: &Value) -> Result<Value, CallError> {
        self.call(script, "Retain", &[Arg::Json(desired), Arg::Json(observed)], 1, |_, rets| {
            object_result(&rets[0], &[desired, observed])
        })
    }

    /// `AggregateStatus(obj, statusItems)`: the object with its members' statuses added up;
    /// `None` reaches the script as nil, a list (even empty) as a table. Upstream repairs the result against no reference, so an empty field is dropped.
    pub(crate) fn aggregate_status(
        &self,
        script: &str,
        object: &Value,
        items: Option<&[AggregatedStatusItem]>,
    ) -> Result<Value, CallError> {
        let items = items.map_or(Value::Null, status_items);
        self.call(script, "AggregateStatus", &[Arg::Json(object), Arg::Json(&items)], 1, |_, rets| {
            object_result(&rets[0], &[])
        })
    }

    /// `ReflectStatus(obj)`: the status to keep.
    pub(crate) fn reflect_status(&self, script: &str, object: &Value) -> Result<Value, CallError> {
        self.call(script, "ReflectStatus", &[Arg::Json(object)], 1, |_, rets| match &rets[0] {
            v @ LuaValue::Table(_) => table_json(v, true, &[]),
            other => {
                Err(bad(format!("expect the returned replica type is table but got {}", convert::type_name(other))))
            }
        })
    }

    /// `InterpretHealth(obj)`: whether the member's copy is healthy.
    pub(crate) fn interpret_health(&self, script: &str, object: &Value) -> Result<bool, CallError> {
        self.call(script, "InterpretHealth", &[Arg::Json(object)], 1, |_, rets| match &rets[0] {
            LuaValue::Boolean(b) => Ok(*b),
            other => Err(bad(format!("result type {} is not bool", convert::type_name(other)))),
        })
    }

    /// `GetDependencies(obj)`: the objects the workload needs.
    pub(crate) fn get_dependencies(
        &self,
        script: &str,
        object: &Value,
    ) -> Result<Vec<DependentObjectReference>, CallError> {
        self.call(script, "GetDependencies", &[Arg::Json(object)], 1, |_, rets| {
            let zero = || Value::from("");
            typed(with_defaults(table_json(&rets[0], false, &[])?, &[("apiVersion", zero()), ("kind", zero())]))
        })
    }
}

fn object_result(value: &LuaValue, references: &[&Value]) -> Result<Value, CallError> {
    object(table_json(value, true, references)?)
}

/// The status items as upstream hands them to the script: Go's JSON of its type, so empty
/// fields (`applied: false`, no message, no health) are absent.
fn status_items(items: &[AggregatedStatusItem]) -> Value {
    Value::Array(
        items
            .iter()
            .map(|item| {
                let mut m = Map::new();
                m.insert("clusterName".into(), Value::String(item.cluster_name.clone()));
                if let Some(status) = item.status.as_ref().filter(|s| !s.is_null()) {
                    m.insert("status".into(), status.clone());
                }
                if item.applied == Some(true) {
                    m.insert("applied".into(), Value::Bool(true));
                }
                if let Some(message) = item.applied_message.as_ref().filter(|s| !s.is_empty()) {
                    m.insert("appliedMessage".into(), Value::String(message.clone()));
                }
                if let Some(Ok(Value::String(h))) = item.health.as_ref().map(serde_json::to_value)
                    && !h.is_empty()
                {
                    m.insert("health".into(), Value::String(h));
                }
                Value::Object(m)
            })
            .collect(),
    )
}
