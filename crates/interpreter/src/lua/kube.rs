//! The `kube` library scripts load with `require("kube")` (upstream's `luavm/kube.go`):
//! `resourceAdd`, `accuratePodRequirements`, `getPodDependencies` and `getResourceQuantity`,
//! with upstream's argument checks and error texts. The pod helpers are upstream's
//! `GenerateReplicaRequirements` and `GetDependenciesFromPodTemplate`, which the native
//! interpreter answers for a Pod: the template is handed to it as one.

use karmadactl_apimachinery::quantity::Quantity;
use karmadactl_karmada_api::work::replicas::ReplicaRequirements;
use mlua::{Lua, MultiValue, Table, Value as LuaValue};
use serde_json::{Value, json};

use super::{convert, empty_fields};
use crate::native;

/// The name scripts require.
pub(super) const NAME: &str = "kube";

/// The library's table.
pub(super) fn library(lua: &Lua) -> mlua::Result<Table> {
    let kube = lua.create_table()?;
    kube.raw_set("resourceAdd", lua.create_function(resource_add)?)?;
    kube.raw_set("accuratePodRequirements", lua.create_function(accurate_pod_requirements)?)?;
    kube.raw_set("getPodDependencies", lua.create_function(get_pod_dependencies)?)?;
    kube.raw_set("getResourceQuantity", lua.create_function(get_resource_quantity)?)?;
    Ok(kube)
}

fn error(text: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(text.into())
}

/// Lua's "bad argument" text for argument `n` of `function`.
fn type_error(n: usize, function: &str, expected: &str, got: &LuaValue) -> mlua::Error {
    error(format!("bad argument #{n} to {function} ({expected} expected, got {})", convert::type_name(got)))
}

/// Argument `n` as a quantity: nil is zero, a string is parsed, anything else is refused.
fn quantity_arg(args: &MultiValue, n: usize, function: &str) -> mlua::Result<Quantity> {
    match args.get(n - 1).unwrap_or(&LuaValue::Nil) {
        LuaValue::Nil => Ok(Quantity::zero()),
        LuaValue::String(s) => {
            let text = s.to_string_lossy();
            Quantity::parse(&text).map_err(|e| error(format!("cannot parse '{text}': {e}")))
        }
        other => Err(type_error(n, function, "string", other)),
    }
}

/// `resourceAdd(q1, q2, ...)`: the sum, printed as Kubernetes prints it.
fn resource_add(_: &Lua, args: MultiValue) -> mlua::Result<String> {
    let mut sum = Quantity::zero();
    for n in 1..=args.len() {
        sum = sum.plus(quantity_arg(&args, n, "resourceAdd")?);
    }
    Ok(sum.to_string())
}

/// `getResourceQuantity(q)`: the quantity as an approximate number.
fn get_resource_quantity(_: &Lua, args: MultiValue) -> mlua::Result<f64> {
    if args.len() != 1 {
        return Err(error("getResourceQuantity only accepts one argument"));
    }
    let q = quantity_arg(&args, 1, "getResourceQuantity")?;
    let n = q.nanos() as f64 / 1e9;
    if n < 0.0 {
        return Err(error(format!("int approximation unexpectedly returned a negative value: {q},")));
    }
    if n.is_infinite() {
        return Err(error(format!("int approximation unexpectedly returned an infinite value: {q},")));
    }
    Ok(n)
}

/// Argument 1 as a PodTemplateSpec, converted as upstream converts a result table.
fn template_arg(args: &MultiValue, function: &str) -> mlua::Result<Value> {
    let Some(LuaValue::Table(t)) = args.front() else {
        return Err(type_error(1, function, "table", args.front().unwrap_or(&LuaValue::Nil)));
    };
    let json = convert::from_lua(&LuaValue::Table(t.clone()))
        .map_err(|e| error(format!("fail to convert lua value to PodTemplateSpec: {e}")))?;
    let json = empty_fields::repair(json, true, &[]);
    if !json.is_object() {
        return Err(error("fail to convert lua value to PodTemplateSpec: a pod template is an object"));
    }
    Ok(json)
}

/// The pod a template makes in `namespace`, as upstream's `GeneratePodFromTemplateAndNamespace`.
fn pod(template: &Value, namespace: Option<&str>) -> Value {
    let mut pod = json!({"apiVersion": "v1", "kind": "Pod", "spec": template["spec"]});
    if let Some(ns) = namespace {
        pod["metadata"] = json!({ "namespace": ns });
    }
    pod
}

/// `accuratePodRequirements(podTemplate)`: what one replica needs.
fn accurate_pod_requirements(lua: &Lua, args: MultiValue) -> mlua::Result<LuaValue> {
    if args.len() != 1 {
        return Err(error("getPodRequirements only accepts one argument"));
    }
    let template = template_arg(&args, "accuratePodRequirements")?;
    let requirements = native::replicas(&pod(&template, None)).ok().and_then(|r| r.requirements);
    match requirements {
        // Upstream sets the priority class only behind its ResourceQuotaEstimate gate (off).
        Some(r) => convert::to_lua(
            lua,
            &serde_json::to_value(ReplicaRequirements { priority_class_name: None, ..r })
                .map_err(mlua::Error::external)?,
        ),
        None => Ok(LuaValue::Nil),
    }
}

/// `getPodDependencies(podTemplate, namespace)`: the objects its pods need.
fn get_pod_dependencies(lua: &Lua, args: MultiValue) -> mlua::Result<LuaValue> {
    if args.len() != 2 {
        return Err(error("getPodDependencies only accepts two argument"));
    }
    let template = template_arg(&args, "getPodDependencies")?;
    let namespace = match &args[1] {
        LuaValue::Nil => "default".to_string(),
        LuaValue::String(s) => s.to_string_lossy(),
        LuaValue::Integer(i) => i.to_string(),
        LuaValue::Number(n) => convert::number(*n).map(|v| v.to_string()).unwrap_or_else(|_| n.to_string()),
        other => return Err(type_error(2, "getPodDependencies", "string", other)),
    };
    // Upstream hands back a nil list when the pod needs nothing.
    match native::dependencies(&pod(&template, Some(&namespace))) {
        Ok(refs) if !refs.is_empty() => {
            convert::to_lua(lua, &serde_json::to_value(refs).map_err(mlua::Error::external)?)
        }
        _ => Ok(LuaValue::Nil),
    }
}
