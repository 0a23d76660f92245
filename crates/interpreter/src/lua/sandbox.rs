//! A sandboxed Lua state, as upstream's `setLib` builds it: the base library without the
//! functions that load code, reach the environment or metatables, or drive the collector
//! (each replaced by one that raises upstream's error), `table`, `math`, the safe subset of
//! `string`, the safe `os` (time and date), and `require` for the `kube` library only. No
//! `io`, `debug`, `package` or `coroutine`.

use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Value as LuaValue, VmState};

use super::budget::{Budget, CHECK_EVERY, Limits};
use super::{kube, ordered, os};

/// Base functions upstream replaces with one that raises an error.
const DISABLED: [&str; 14] = [
    "collectgarbage",
    "dofile",
    "getfenv",
    "getmetatable",
    "load",
    "loadfile",
    "loadstring",
    "rawequal",
    "rawget",
    "rawset",
    "setfenv",
    "setmetatable",
    "module",
    "newproxy",
];

/// Globals Lua 5.1's base library opens that upstream's does not have at all.
const ABSENT: [&str; 2] = ["coroutine", "gcinfo"];

/// `string` functions upstream's safe string library leaves out.
const STRING_ABSENT: [&str; 2] = ["dump", "gmatch"];

/// The longest pattern `string.find`, `match` and `gsub` take: the matcher's C recursion stays
/// within a few hundred kilobytes of stack.
pub(super) const MAX_PATTERN_BYTES: usize = 1024;

/// A fresh state with the sandbox's libraries, `limits` on memory, and `budget` counted by a
/// hook.
pub(super) fn new_state(budget: &Budget, limits: &Limits) -> mlua::Result<Lua> {
    // A Rust panic is not the script's to catch with pcall: it ends the call (see Vm::call).
    let options = LuaOptions::new().catch_rust_panics(false);
    let lua = Lua::new_with(StdLib::TABLE | StdLib::STRING | StdLib::MATH, options)?;
    let globals = lua.globals();
    for name in DISABLED {
        let text = format!("call function {name} is not supported in karmada customized resourceinterpreter.");
        globals.raw_set(
            name,
            lua.create_function(move |_, ()| -> mlua::Result<()> { Err(mlua::Error::runtime(&text)) })?,
        )?;
    }
    for name in ABSENT {
        globals.raw_set(name, LuaValue::Nil)?;
    }
    let string: mlua::Table = globals.raw_get("string")?;
    for name in STRING_ABSENT {
        string.raw_set(name, LuaValue::Nil)?;
    }
    // Scripts may print while they are written; the engine has nowhere to show it.
    globals.raw_set("print", lua.create_function(|_, _: mlua::MultiValue| Ok(()))?)?;
    globals.raw_set("os", os::library(&lua)?)?;
    ordered::install(&lua)?;
    globals.raw_set(
        "require",
        lua.create_function(|lua, name: String| match name.as_str() {
            kube::NAME => kube::library(lua),
            _ => Err(mlua::Error::runtime(format!("module {name} not found"))),
        })?,
    )?;
    // pcall and xpcall re-raise once a budget is spent, so a script cannot catch the budget's
    // error and carry on; its own errors it catches as usual. These wrappers (and the pattern
    // bound below) are Rust functions: compiling them as Lua chunks cost a quarter of a fresh
    // state's setup.
    for name in ["pcall", "xpcall"] {
        let raw: mlua::Function = globals.raw_get(name)?;
        let budget = budget.clone();
        let wrapped = lua.create_function(move |_, args: mlua::MultiValue| {
            let out: mlua::MultiValue = raw.call(args)?;
            match budget.exhausted() {
                Some(e) if matches!(out.front(), Some(LuaValue::Boolean(false))) => {
                    Err(mlua::Error::runtime(e.to_string()))
                }
                _ => Ok(out),
            }
        })?;
        globals.raw_set(name, wrapped)?;
    }
    // Lua 5.1's pattern matcher recurses in C about once per pattern item, beyond the
    // instruction budget and with no depth limit of its own; a bounded pattern bounds the stack.
    for name in ["find", "match", "gsub"] {
        let raw: mlua::Function = string.raw_get(name)?;
        let wrapped = lua.create_function(move |_, args: mlua::MultiValue| {
            if let Some(LuaValue::String(p)) = args.get(1)
                && p.as_bytes().len() > MAX_PATTERN_BYTES
            {
                return Err(mlua::Error::runtime(format!(
                    "bad argument #2 to '{name}' (pattern longer than {MAX_PATTERN_BYTES} bytes)"
                )));
            }
            raw.call::<mlua::MultiValue>(args)
        })?;
        string.raw_set(name, wrapped)?;
    }

    lua.set_memory_limit(limits.memory_bytes)?;
    let hook_budget = budget.clone();
    lua.set_hook(HookTriggers::new().every_nth_instruction(CHECK_EVERY), move |_, _| {
        hook_budget.tick().map(|()| VmState::Continue).map_err(|e| mlua::Error::runtime(e.to_string()))
    })?;
    Ok(lua)
}
