//! `pairs` walks tables in gopher-lua's order: integer keys ascending, then other keys in the
//! order the script first set them.

use serde_json::{Value, json};

use super::super::{CallError, Vm};

/// The keys `pairs` yields over the table `body` builds in `t`, joined by spaces.
fn order(body: &str) -> Result<Value, CallError> {
    let script = format!(
        "function ReflectStatus(obj) {body} local seen = {{}} for k, v in pairs(t) do \
         table.insert(seen, tostring(k)) end return {{order = table.concat(seen, ' ')}} end"
    );
    Vm::default().reflect_status(&script, &json!({})).map(|v| v["order"].clone())
}

#[test]
fn keys_come_in_first_set_order_after_the_array_part() {
    let built = "local t = {} t.zeta = 1 t.alpha = 2 t[2] = 'b' t.mid = 3 t[1] = 'a'";
    assert_eq!(order(built), Ok(json!("1 2 zeta alpha mid")));
    // A key removed and set again keeps its first place, as gopher-lua keeps it.
    let reset = "local t = {} t.b = 1 t.a = 2 t.b = nil t.c = 3 t.b = 4";
    assert_eq!(order(reset), Ok(json!("b a c")));
    // Keys removed while walking are skipped.
    let removed = "local t = {} t.x = 1 t.y = 2 t.z = 3 for k in pairs(t) do t.y = nil end";
    assert_eq!(order(removed), Ok(json!("x z")));
}

#[test]
fn tables_made_otherwise_still_list_their_array_part_first() {
    // A constructor with fields records nothing: after the array part, Lua's own order.
    let mixed = order("local t = {3, 4, k = 'v'} t[0] = 0").unwrap();
    assert!(mixed == json!("1 2 0 k") || mixed == json!("1 2 k 0"), "{mixed}");
    assert_eq!(order("local t = {[3] = 'c', [1] = 'a', [2] = 'b'}"), Ok(json!("1 2 3")));
    match order("t = nil") {
        Err(CallError::Runtime(m)) => assert_eq!(m, "bad argument #1 to 'pairs' (table expected, got nil)"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn rewritten_scripts_keep_their_line_numbers() {
    let script = "local t = {}\nlocal u = {\n}\nfunction InterpretHealth(obj)\n  local v = {} error('on five') end";
    match Vm::default().interpret_health(script, &json!({})) {
        Err(CallError::Runtime(m)) => assert_eq!(m, "<string>:5: on five"),
        other => panic!("{other:?}"),
    }
}
