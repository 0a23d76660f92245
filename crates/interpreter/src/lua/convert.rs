//! JSON to Lua and back, as upstream converts: arguments go in as gopher-json decodes them
//! (objects and arrays become tables, numbers doubles, `null` nothing — a null array element
//! is skipped, a null field absent), and results come out as gopher-json encodes a table: no
//! keys is `[]`, keys 1..n an array, string keys an object, anything else an error. A whole
//! number comes back as an integer, as Kubernetes' JSON decoding turns whole numbers into
//! int64 on the way into an unstructured object.

use std::collections::HashSet;

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Map, Number, Value};

/// How deep a result may nest: deeper than any Kubernetes object, shallow enough that the
/// conversion's recursion cannot exhaust the stack.
pub(crate) const MAX_DEPTH: usize = 100;

/// A JSON value as a Lua value.
pub(crate) fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    Ok(match value {
        Value::Null => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Number(n) => LuaValue::Number(n.as_f64().unwrap_or_default()),
        Value::String(s) => LuaValue::String(lua.create_string(s)?),
        Value::Array(items) => {
            let table = lua.create_table_with_capacity(items.len(), 0)?;
            let mut next = 1;
            for item in items {
                let v = to_lua(lua, item)?;
                if !v.is_nil() {
                    table.raw_set(next, v)?;
                    next += 1;
                }
            }
            LuaValue::Table(table)
        }
        Value::Object(fields) => {
            let table = lua.create_table_with_capacity(0, fields.len())?;
            for (k, v) in fields {
                table.raw_set(k.as_str(), to_lua(lua, v)?)?;
            }
            LuaValue::Table(table)
        }
    })
}

/// A Lua value as JSON, with gopher-json's rules and errors.
pub(crate) fn from_lua(value: &LuaValue) -> Result<Value, String> {
    Encoder::default().encode(value, 0)
}

/// A number as upstream's round trip yields it: an integer when whole, else a float; NaN and
/// the infinities are not JSON.
pub(crate) fn number(n: f64) -> Result<Value, String> {
    if !n.is_finite() {
        let shown = if n.is_nan() {
            "NaN"
        } else if n > 0.0 {
            "+Inf"
        } else {
            "-Inf"
        };
        return Err(format!("json: unsupported value: {shown}"));
    }
    // Go prints floats from 1e21 up in exponent form, which then decodes as a float.
    if n.fract() == 0.0 && n.abs() < 1e21 && n >= i64::MIN as f64 && n < i64::MAX as f64 {
        return Ok(Value::Number(Number::from(n as i64)));
    }
    Number::from_f64(n).map(Value::Number).ok_or_else(|| format!("json: unsupported value: {n}"))
}

#[derive(Default)]
struct Encoder {
    /// Tables already encoded: gopher-json refuses a table met twice, nested or shared.
    visited: HashSet<usize>,
}

impl Encoder {
    fn encode(&mut self, value: &LuaValue, depth: usize) -> Result<Value, String> {
        match value {
            LuaValue::Nil => Ok(Value::Null),
            LuaValue::Boolean(b) => Ok(Value::Bool(*b)),
            LuaValue::Integer(i) => number(*i as f64),
            LuaValue::Number(n) => number(*n),
            LuaValue::String(s) => Ok(Value::String(String::from_utf8_lossy(&s.as_bytes()).into_owned())),
            LuaValue::Table(t) => self.table(t, depth),
            other => Err(format!("cannot encode {} to JSON", other.type_name())),
        }
    }

    fn table(&mut self, table: &Table, depth: usize) -> Result<Value, String> {
        if depth >= MAX_DEPTH {
            return Err(format!("cannot encode tables nested deeper than {MAX_DEPTH} levels"));
        }
        if !self.visited.insert(table.to_pointer() as usize) {
            return Err("cannot encode recursively nested tables to JSON".into());
        }
        let mut numbered: Vec<(f64, LuaValue)> = Vec::new();
        let mut named: Vec<(String, LuaValue)> = Vec::new();
        for pair in table.pairs::<LuaValue, LuaValue>() {
            let (k, v) = pair.map_err(|e| super::message(&e))?;
            match k {
                LuaValue::Integer(i) => numbered.push((i as f64, v)),
                LuaValue::Number(n) => numbered.push((n, v)),
                LuaValue::String(s) => named.push((String::from_utf8_lossy(&s.as_bytes()).into_owned(), v)),
                _ => return Err("cannot encode mixed or invalid key types".into()),
            }
            if !numbered.is_empty() && !named.is_empty() {
                return Err("cannot encode mixed or invalid key types".into());
            }
        }
        if !named.is_empty() {
            let mut map = Map::new();
            for (k, v) in named {
                map.insert(k, self.encode(&v, depth + 1)?);
            }
            return Ok(Value::Object(map));
        }
        numbered.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut items = Vec::with_capacity(numbered.len());
        for (i, (k, v)) in numbered.iter().enumerate() {
            if *k != (i + 1) as f64 {
                return Err("cannot encode sparse array".into());
            }
            items.push(self.encode(v, depth + 1)?);
        }
        Ok(Value::Array(items))
    }
}

/// A value's type as Lua's `type()` names it (mlua tells integers apart; Lua 5.1 does not).
pub(crate) fn type_name(value: &LuaValue) -> &'static str {
    match value {
        LuaValue::Integer(_) => "number",
        other => other.type_name(),
    }
}
