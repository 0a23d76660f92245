//! JSON to Lua and back: gopher-json's rules for tables, numbers and nulls.

use mlua::{Lua, Value as LuaValue};
use serde_json::{Value, json};

use crate::lua::convert::{from_lua, number, to_lua};

fn encode(source: &str) -> Result<Value, String> {
    let lua = Lua::new();
    let value: LuaValue = lua.load(source).eval().unwrap();
    from_lua(&value)
}

#[test]
fn tables_encode_as_arrays_objects_or_empty_arrays() {
    assert_eq!(encode("return {}"), Ok(json!([])));
    assert_eq!(encode("return {1, 'a', true}"), Ok(json!([1, "a", true])));
    assert_eq!(encode("return {a = 1, b = {c = 'd'}}"), Ok(json!({"a": 1, "b": {"c": "d"}})));
    assert_eq!(encode("return {{1, 2}, {{}}, {x = {}}}"), Ok(json!([[1, 2], [[]], {"x": []}])));
    assert_eq!(encode("local t = {} t[2] = 'b' t[1] = 'a' return t"), Ok(json!(["a", "b"])));
}

#[test]
fn tables_gopher_json_refuses() {
    assert_eq!(encode("return {1, nil, 3}"), Err("cannot encode sparse array".into()));
    assert_eq!(encode("return {[2] = 'x'}"), Err("cannot encode sparse array".into()));
    assert_eq!(encode("return {[1.5] = 'x'}"), Err("cannot encode sparse array".into()));
    assert_eq!(encode("return {1, a = 2}"), Err("cannot encode mixed or invalid key types".into()));
    assert_eq!(encode("return {[true] = 1}"), Err("cannot encode mixed or invalid key types".into()));
    assert_eq!(
        encode("local t = {} t.self = t return t"),
        Err("cannot encode recursively nested tables to JSON".into())
    );
    // A table met twice is refused even when it is not a cycle, as gopher-json refuses it.
    assert_eq!(
        encode("local s = {1} return {a = s, b = s}"),
        Err("cannot encode recursively nested tables to JSON".into())
    );
    assert_eq!(encode("return {f = print}"), Err("cannot encode function to JSON".into()));
    let deep = "local t = {} local cur = t for i = 1, 500 do cur.next = {} cur = cur.next end return t";
    assert_eq!(encode(deep), Err("cannot encode tables nested deeper than 100 levels".into()));
}

#[test]
fn whole_numbers_come_back_as_integers_others_as_floats() {
    assert_eq!(
        encode("return {a = 2.0, b = 1.5, c = -3, d = 1e300, e = 2^53}"),
        Ok(json!({"a": 2, "b": 1.5, "c": -3, "d": 1e300, "e": 9007199254740992_i64}))
    );
    assert_eq!(number(f64::NAN), Err("json: unsupported value: NaN".into()));
    assert_eq!(number(f64::INFINITY), Err("json: unsupported value: +Inf".into()));
    assert_eq!(encode("return {x = 0/0}"), Err("json: unsupported value: NaN".into()));
    assert_eq!(number(1e21), Ok(json!(1e21)));
}

#[test]
fn json_goes_in_as_upstream_decodes_it() {
    let lua = Lua::new();
    let value = json!({"a": null, "list": [1, null, "x", null], "n": 3, "f": 0.5, "s": "str", "empty": {}, "none": []});
    let table = to_lua(&lua, &value).unwrap();
    lua.globals().set("t", table).unwrap();
    let check = r#"return t.a == nil and #t.list == 2 and t.list[2] == "x" and t.n == 3 and t.f == 0.5
        and t.s == "str" and next(t.empty) == nil and next(t.none) == nil"#;
    assert!(lua.load(check).eval::<bool>().unwrap());
    // Round trip: nulls are gone, empty objects come back as empty arrays (repaired later).
    let back = from_lua(&lua.globals().get::<LuaValue>("t").unwrap()).unwrap();
    assert_eq!(back, json!({"list": [1, "x"], "n": 3, "f": 0.5, "s": "str", "empty": [], "none": []}));
}
