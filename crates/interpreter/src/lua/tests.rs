//! The sandbox: what scripts can reach, the budgets, and isolation between calls.

mod convert;
mod kube;
mod operations;
mod ordered;

use std::time::Duration;

use serde_json::json;

use super::{CallError, Limits, Vm};

fn health(vm: &Vm, script: &str) -> Result<bool, CallError> {
    vm.interpret_health(script, &json!({"kind": "Thing"}))
}

fn small() -> Vm {
    Vm::new(Limits { instructions: 2_000_000, memory_bytes: 8 << 20, timeout: Duration::from_secs(30) })
}

fn runtime(result: Result<bool, CallError>) -> String {
    match result {
        Err(CallError::Runtime(m)) => m,
        other => panic!("expected a runtime error, got {other:?}"),
    }
}

#[test]
fn unsafe_libraries_are_absent_and_safe_ones_present() {
    let script = r#"
        function InterpretHealth(obj)
          return io == nil and debug == nil and package == nil and coroutine == nil and gcinfo == nil
            and os.execute == nil and os.exit == nil and os.getenv == nil and os.remove == nil
            and string.dump == nil and type(os.time()) == "number" and type(os.date("!%Y")) == "string"
            and string.upper("a") == "A" and math.max(1, 2) == 2 and table.concat({"a", "b"}, ",") == "a,b"
            and type(require("kube").accuratePodRequirements) == "function"
        end"#;
    assert_eq!(health(&Vm::default(), script), Ok(true));
}

#[test]
fn disabled_functions_raise_upstreams_error() {
    for name in ["loadstring", "dofile", "setmetatable", "getmetatable", "rawset", "setfenv", "collectgarbage"] {
        let script = format!("function InterpretHealth(obj) {name}() return true end");
        let message = runtime(health(&Vm::default(), &script));
        assert!(
            message
                .contains(&format!("call function {name} is not supported in karmada customized resourceinterpreter.")),
            "{name}: {message}"
        );
    }
    let message =
        runtime(health(&Vm::default(), r#"local os = require("os") function InterpretHealth() return true end"#));
    assert_eq!(message, "module os not found");
}

#[test]
fn an_endless_loop_stops_at_the_instruction_budget() {
    let message = runtime(health(&small(), "function InterpretHealth(obj) while true do end end"));
    assert_eq!(message, "the script ran out of its instruction budget (2000000 instructions)");
}

#[test]
fn pcall_cannot_swallow_a_spent_budget() {
    let script = "function InterpretHealth(obj) while true do pcall(function() while true do end end) end end";
    assert!(runtime(health(&small(), script)).contains("instruction budget"));
    // Ordinary errors are still the script's to catch.
    let script = "function InterpretHealth(obj) local ok = pcall(error, 'x') return not ok end";
    assert_eq!(health(&small(), script), Ok(true));
}

#[test]
fn a_top_level_loop_is_stopped_too() {
    let message = runtime(health(&small(), "while true do end function InterpretHealth(obj) return true end"));
    assert!(message.contains("instruction budget"), "{message}");
}

#[test]
fn a_memory_bomb_stops_at_the_memory_budget() {
    let vm = Vm::new(Limits { instructions: u64::MAX, memory_bytes: 8 << 20, timeout: Duration::from_secs(30) });
    let grow = "function InterpretHealth(obj) local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 100) .. i end end";
    assert_eq!(runtime(health(&vm, grow)), "the script ran out of its memory budget (8388608 bytes)");
    let one_string = "function InterpretHealth(obj) local s = string.rep('x', 1e9) return #s > 0 end";
    assert_eq!(runtime(health(&vm, one_string)), "the script ran out of its memory budget (8388608 bytes)");
}

#[test]
fn a_slow_script_stops_at_the_time_budget() {
    let vm = Vm::new(Limits { instructions: u64::MAX, memory_bytes: 8 << 20, timeout: Duration::from_millis(50) });
    let message = runtime(health(&vm, "function InterpretHealth(obj) while true do end end"));
    assert_eq!(message, "the script ran out of its time budget (50ms)");
}

#[test]
fn globals_do_not_leak_between_calls() {
    let vm = Vm::default();
    let counting = "calls = (calls or 0) + 1 function InterpretHealth(obj) leaked = true return calls == 1 end";
    assert_eq!(health(&vm, counting), Ok(true));
    assert_eq!(health(&vm, counting), Ok(true));
    let reading = "function InterpretHealth(obj) return leaked == nil and calls == nil end";
    assert_eq!(health(&vm, reading), Ok(true));
    // A script that overwrites a library sees it whole again on the next call.
    assert_eq!(health(&vm, "string = nil function InterpretHealth(obj) return true end"), Ok(true));
    assert_eq!(health(&vm, "function InterpretHealth(obj) return string.lower('A') == 'a' end"), Ok(true));
}

#[test]
fn scripts_that_do_not_compile_or_define_the_function_are_script_errors() {
    let vm = Vm::default();
    assert_eq!(
        health(&vm, "function Other(obj) return true end"),
        Err(CallError::Script("not found function InterpretHealth".into()))
    );
    assert_eq!(
        health(&vm, "InterpretHealth = 3"),
        Err(CallError::Script("InterpretHealth is not a function: number".into()))
    );
    match health(&vm, "function InterpretHealth(obj) return true") {
        Err(CallError::Script(m)) => assert!(m.starts_with("<string>:1:") && m.contains("'end' expected"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(vm.check("function GetReplicas(obj) return 1 end", "GetReplicas"), Ok(()));
    assert_eq!(vm.check("x = ", "GetReplicas").map_err(|e| e.contains("unexpected symbol")), Err(true));
}

#[test]
fn results_of_the_wrong_shape_are_invalid_results() {
    let vm = Vm::default();
    assert_eq!(
        health(&vm, "function InterpretHealth(obj) return 'yes' end"),
        Err(CallError::Result("result type string is not bool".into()))
    );
    let object = json!({"kind": "Thing", "spec": {"replicas": 2}});
    let r = vm.get_replicas("function GetReplicas(obj) return obj.spec end", &object);
    assert_eq!(r, Err(CallError::Result("result type table is not number".into())));
    let r = vm.revise_replica("function ReviseReplica(obj, n) return {spec = {replicas = n}} end", &object, 3);
    assert_eq!(r, Err(CallError::Result(r#"Object 'Kind' is missing in '{"spec":{"replicas":3}}'"#.into())));
    let r = vm.reflect_status("function ReflectStatus(obj) return nil end", &object);
    assert_eq!(r, Err(CallError::Result("expect the returned replica type is table but got nil".into())));
}

#[test]
fn patterns_are_bounded_so_the_matcher_cannot_exhaust_the_stack() {
    let script =
        "function InterpretHealth(obj) return string.find(string.rep('a', 5000), string.rep('a?', 100000)) ~= nil end";
    let message = runtime(health(&Vm::default(), script));
    assert_eq!(message, "bad argument #2 to 'find' (pattern longer than 1024 bytes)");
    let script =
        "function InterpretHealth(obj) return ('a.b'):find('.', 1, true) == 2 and ('xyz'):match('y(z)') == 'z' end";
    assert_eq!(health(&Vm::default(), script), Ok(true));
}

#[test]
fn a_panic_inside_a_call_becomes_the_calls_error() {
    let vm = Vm::default();
    let result: Result<(), CallError> =
        vm.call("function F() return 1 end", "F", &[], 1, |_, _| panic!("converter bug"));
    assert_eq!(result, Err(CallError::Runtime("the interpreter failed internally: converter bug".into())));
    // A panic in a Rust function that Lua called crosses the Lua frames and ends the same way.
    let result: Result<(), CallError> = vm.call("function F() return 1 end", "F", &[], 1, |lua, _| {
        let bad = lua.create_function(|_, ()| -> mlua::Result<()> { panic!("library bug") }).unwrap();
        let protected = lua.load("return function(f) return pcall(f) end").eval::<mlua::Function>().unwrap();
        protected.call::<()>(bad).map_err(|e| CallError::Runtime(e.to_string()))
    });
    assert_eq!(result, Err(CallError::Runtime("the interpreter failed internally: library bug".into())));
    // The VM is unharmed.
    assert_eq!(health(&vm, "function InterpretHealth(obj) return true end"), Ok(true));
}
