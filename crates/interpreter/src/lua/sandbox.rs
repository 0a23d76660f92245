//! A sandboxed Lua state, as upstream's `setLib` builds it: the base library without the
//! functions that load code, reach the environment or metatables, or drive the collector
//! (each replaced by one that raises upstream's error), `table`, `math`, the safe subset of
//! `string`, the safe `os` (time and date), and `require` for the `kube` library only. No
//! `io`, `debug`, `package` or `coroutine`.

use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Value as LuaValue, VmState};

use super::budget::{Budget, CHECK_EVERY, Limits};
use super::{kube, os};

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

/// Wraps pcall and xpcall so an error from a spent budget cannot be caught: the script sees
/// its own errors as usual, but once a budget is spent every protected call re-raises.
const PROTECTED_CALLS: &str = r#"
local raw_pcall, raw_xpcall, spent = ...
local function pass(ok, ...)
  if not ok and spent() then error((...), 0) end
  return ok, ...
end
pcall = function(...) return pass(raw_pcall(...)) end
xpcall = function(...) return pass(raw_xpcall(...)) end
"#;

/// The longest pattern `string.find`, `match` and `gsub` take. Lua 5.1's matcher recurses in C
/// about once per pattern item, out of reach of the instruction budget and with no depth limit
/// of its own; a pattern this long keeps the recursion to a few hundred kilobytes of stack.
pub(super) const MAX_PATTERN_BYTES: usize = 1024;

/// Wraps the pattern functions to refuse longer patterns.
const BOUNDED_PATTERNS: &str = r#"
local max = ...
local string, error, type = string, error, type
for _, name in ipairs({"find", "match", "gsub"}) do
  local raw = string[name]
  string[name] = function(s, pattern, ...)
    if type(pattern) == "string" and #pattern > max then
      error("bad argument #2 to '" .. name .. "' (pattern longer than " .. max .. " bytes)", 2)
    end
    return raw(s, pattern, ...)
  end
end
"#;

/// A fresh state with the sandbox's libraries, `limits` on memory, and `budget` counted by a
/// hook.
pub(super) fn new_state(budget: &Budget, limits: &Limits) -> mlua::Result<Lua> {
    let lua = Lua::new_with(StdLib::TABLE | StdLib::STRING | StdLib::MATH, LuaOptions::default())?;
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
    globals.raw_set(
        "require",
        lua.create_function(|lua, name: String| match name.as_str() {
            kube::NAME => kube::library(lua),
            _ => Err(mlua::Error::runtime(format!("module {name} not found"))),
        })?,
    )?;
    let spent_budget = budget.clone();
    let spent = lua.create_function(move |_, ()| Ok(spent_budget.exhausted().is_some()))?;
    let raw_pcall: LuaValue = globals.raw_get("pcall")?;
    let raw_xpcall: LuaValue = globals.raw_get("xpcall")?;
    lua.load(PROTECTED_CALLS).set_name("=sandbox").call::<()>((raw_pcall, raw_xpcall, spent))?;
    lua.load(BOUNDED_PATTERNS).set_name("=sandbox").call::<()>(MAX_PATTERN_BYTES)?;

    lua.set_memory_limit(limits.memory_bytes)?;
    let hook_budget = budget.clone();
    lua.set_hook(HookTriggers::new().every_nth_instruction(CHECK_EVERY), move |_, _| {
        hook_budget.tick().map(|()| VmState::Continue).map_err(|e| mlua::Error::runtime(e.to_string()))
    })?;
    Ok(lua)
}
