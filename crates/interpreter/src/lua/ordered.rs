//! Tables walked in gopher-lua's order. gopher-lua's `pairs` yields a table's array part in
//! index order, then its other keys in the order they were first set; Lua 5.1 walks its hash
//! part in hash order. Scripts that gather entries into a table and list them with `pairs`
//! (conditions by type, say) would otherwise answer in another order than upstream.
//!
//! An empty constructor in a script makes a table whose metatable records each new key as it
//! is set ([`super::rewrite`] turns `{}` into the call). `pairs` yields positive integer keys in
//! ascending order, then the recorded keys in the order they were first set, then any other
//! key (set by a constructor with fields, or given as input, whose order gopher-lua takes from
//! a Go map) in Lua's order.

use mlua::{Function, Lua, MultiValue, Table, Value as LuaValue};

use super::convert;
use super::rewrite::ORDERED_TABLE;

/// Keys below this go to gopher-lua's array part (its `MaxArrayIndex`).
const MAX_ARRAY_INDEX: f64 = 67_108_864.0;

/// Installs the ordered-table constructor and the ordered `pairs` in `lua`.
pub(super) fn install(lua: &Lua) -> mlua::Result<()> {
    // Per table: the keys in the order they were set, held weakly so a table the script drops
    // is collected with its record.
    let records = lua.create_table()?;
    let weak = lua.create_table()?;
    weak.raw_set("__mode", "k")?;
    records.set_metatable(Some(weak))?;

    let metatable = lua.create_table()?;
    let log = records.clone();
    metatable.raw_set(
        "__newindex",
        lua.create_function(move |lua, (table, key, value): (Table, LuaValue, LuaValue)| {
            table.raw_set(key.clone(), value.clone())?;
            if value.is_nil() || array_index(&key) {
                return Ok(());
            }
            // A key set, removed and set again is listed twice; pairs keeps its first place.
            let keys = match log.raw_get::<Option<Table>>(&table)? {
                Some(keys) => keys,
                None => {
                    let keys = lua.create_table()?;
                    log.raw_set(&table, &keys)?;
                    keys
                }
            };
            keys.raw_push(key)?;
            Ok(())
        })?,
    )?;
    let globals = lua.globals();
    globals.raw_set(
        ORDERED_TABLE,
        lua.create_function(move |lua, ()| {
            let table = lua.create_table()?;
            table.set_metatable(Some(metatable.clone()))?;
            Ok(table)
        })?,
    )?;
    globals.raw_set("pairs", lua.create_function(move |lua, value: LuaValue| pairs(lua, &records, value))?)?;
    Ok(())
}

/// Whether `key` lands in gopher-lua's array part.
fn array_index(key: &LuaValue) -> bool {
    match key {
        LuaValue::Integer(i) => *i >= 1 && (*i as f64) < MAX_ARRAY_INDEX,
        LuaValue::Number(n) => n.fract() == 0.0 && *n >= 1.0 && *n < MAX_ARRAY_INDEX,
        _ => false,
    }
}

fn as_index(key: &LuaValue) -> f64 {
    match key {
        LuaValue::Integer(i) => *i as f64,
        LuaValue::Number(n) => *n,
        _ => 0.0,
    }
}

/// `pairs(t)`: an iterator over the keys in gopher-lua's order, `t` and nil.
fn pairs(lua: &Lua, records: &Table, value: LuaValue) -> mlua::Result<MultiValue> {
    let LuaValue::Table(table) = value else {
        return Err(mlua::Error::runtime(format!(
            "bad argument #1 to 'pairs' (table expected, got {})",
            convert::type_name(&value)
        )));
    };
    let mut indexed = Vec::new();
    let mut others = Vec::new();
    for pair in table.clone().pairs::<LuaValue, LuaValue>() {
        let (k, _) = pair?;
        if array_index(&k) { indexed.push(k) } else { others.push(k) }
    }
    indexed.sort_by(|a, b| as_index(a).total_cmp(&as_index(b)));
    let mut keys = indexed;
    if let Some(recorded) = records.raw_get::<Option<Table>>(&table)? {
        let mut listed = Listed::default();
        for k in recorded.sequence_values::<LuaValue>() {
            let k = k?;
            if listed.insert(&k) && !table.raw_get::<LuaValue>(k.clone())?.is_nil() {
                keys.push(k);
            }
        }
        others.retain(|k| !listed.contains(k));
    }
    keys.extend(others);
    let mut next = 0;
    let target = table.clone();
    let iterator: Function = lua.create_function_mut(move |_, _: MultiValue| {
        while next < keys.len() {
            let k = keys[next].clone();
            next += 1;
            let v: LuaValue = target.raw_get(k.clone())?;
            if !v.is_nil() {
                return Ok((k, v));
            }
        }
        Ok((LuaValue::Nil, LuaValue::Nil))
    })?;
    Ok(MultiValue::from_vec(vec![LuaValue::Function(iterator), LuaValue::Table(table), LuaValue::Nil]))
}

/// The keys already listed: strings by their bytes, other keys (rare) by value.
#[derive(Default)]
struct Listed {
    strings: std::collections::HashSet<Vec<u8>>,
    others: Vec<LuaValue>,
}

impl Listed {
    /// Adds `key`; false when it was there already.
    fn insert(&mut self, key: &LuaValue) -> bool {
        if self.contains(key) {
            return false;
        }
        match key {
            LuaValue::String(s) => {
                self.strings.insert(s.as_bytes().to_vec());
            }
            other => self.others.push(other.clone()),
        }
        true
    }

    fn contains(&self, key: &LuaValue) -> bool {
        match key {
            LuaValue::String(s) => self.strings.contains(&*s.as_bytes()),
            other => self.others.contains(other),
        }
    }
}
