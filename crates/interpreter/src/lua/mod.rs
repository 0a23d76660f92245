//! The embedded Lua (upstream's `luavm`): Lua 5.1, as upstream's gopher-lua speaks it, in a
//! sandbox with an instruction, memory and time budget per call.
//!
//! Every call gets a fresh state: the script is loaded, its function called with the
//! arguments converted from JSON, and the results handed to a converter while the state is
//! alive. A fresh sandboxed state costs about 45 µs (measured: 28 µs for mlua's state with three
//! libraries, the rest for the sandbox's functions and ordered tables), under half of a typical
//! call (110-170 µs for CloneSet's scripts, benches/lua_calls.rs), which compiles the script
//! anyway as upstream does on every call. A pooled state would save that but must have every
//! global and library table restored after each call, which scripts can replace or mutate in
//! place; a fresh state is isolation by construction, and a budget that ran out cannot leave it
//! half-broken for the next call.

mod budget;
pub(crate) mod convert;
mod empty_fields;
mod kube;
pub(crate) mod operations;
mod ordered;
mod os;
mod rewrite;
mod sandbox;

use mlua::{Lua, MultiValue, Value as LuaValue};
use serde_json::Value;

pub use budget::Limits;
use budget::{Budget, Exhausted};

/// Why a call did not produce a result, before the operation and rule are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CallError {
    /// The script does not compile, or does not define the function.
    Script(String),
    /// The script raised an error, or ran out of a budget.
    Runtime(String),
    /// The function returned something the operation cannot use.
    Result(String),
}

impl CallError {
    /// The error of `operation` run from the script of `source`.
    pub(crate) fn into_error(self, operation: crate::Operation, source_name: String) -> crate::InterpretError {
        use crate::InterpretError as E;
        match self {
            Self::Script(message) => E::Script { operation, source_name, message },
            Self::Runtime(message) => E::Runtime { operation, source_name, message },
            Self::Result(message) => E::InvalidResult { operation, source_name, message },
        }
    }
}

/// One argument of a script function.
pub(crate) enum Arg<'a> {
    /// An object or list, converted as upstream's `decodeValue` converts it.
    Json(&'a Value),
    /// A number (the desired replica count).
    Int(i64),
}

/// Runs scripts under [`Limits`].
#[derive(Clone, Debug, Default)]
pub struct Vm {
    limits: Limits,
}

impl Vm {
    /// A VM whose calls run under `limits`.
    pub fn new(limits: Limits) -> Self {
        Self { limits }
    }

    /// Loads `script`, calls its global `function` with `args`, and gives the first `returns`
    /// results (missing ones are nil, as upstream pads them) to `convert`.
    pub(crate) fn call<R>(
        &self,
        script: &str,
        function: &str,
        args: &[Arg<'_>],
        returns: usize,
        convert: impl FnOnce(&Lua, Vec<LuaValue>) -> Result<R, CallError>,
    ) -> Result<R, CallError> {
        // A panic in a library function or a converter is a bug, but must not take the
        // engine's thread with it: the call's state is dropped whole, so nothing it touched
        // survives, and the panic becomes the call's error.
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let budget = Budget::new(&self.limits);
            let lua = sandbox::new_state(&budget, &self.limits).map_err(|e| CallError::Runtime(message(&e)))?;
            let outcome = run(&lua, script, function, args, returns);
            // A budget that ran out names itself, whatever the script made of the error on the way.
            if let Some(exhausted) = budget.exhausted() {
                return Err(CallError::Runtime(exhausted.to_string()));
            }
            let rets = outcome.map_err(|e| match e {
                Failure::Script(m) => CallError::Script(m),
                Failure::Lua(e) if is_memory(&e) => {
                    CallError::Runtime(Exhausted::Memory(self.limits.memory_bytes).to_string())
                }
                Failure::Lua(e) => CallError::Runtime(message(&e)),
            })?;
            budget.stop();
            convert(&lua, rets)
        }));
        attempt.unwrap_or_else(|panic| {
            let text = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(CallError::Runtime(format!("the interpreter failed internally: {text}")))
        })
    }

    /// Whether `script` compiles in the sandbox and defines `function` (upstream's admission
    /// check loads the script; defining the function is checked by running its top level).
    pub(crate) fn check(&self, script: &str, function: &str) -> Result<(), String> {
        let budget = Budget::new(&self.limits);
        let lua = sandbox::new_state(&budget, &self.limits).map_err(|e| message(&e))?;
        let result = lua.load(&*rewrite::ordered_constructors(script)).set_name("=<string>").exec();
        if let Some(exhausted) = budget.exhausted() {
            return Err(exhausted.to_string());
        }
        result.map_err(|e| match e {
            e if is_memory(&e) => Exhausted::Memory(self.limits.memory_bytes).to_string(),
            e => message(&e),
        })?;
        match lua.globals().raw_get::<LuaValue>(function) {
            Ok(LuaValue::Function(_)) => Ok(()),
            Ok(LuaValue::Nil) => Err(format!("not found function {function}")),
            Ok(other) => Err(format!("{function} is not a function: {}", convert::type_name(&other))),
            Err(e) => Err(message(&e)),
        }
    }
}

enum Failure {
    Script(String),
    Lua(mlua::Error),
}

fn run(lua: &Lua, script: &str, function: &str, args: &[Arg<'_>], returns: usize) -> Result<Vec<LuaValue>, Failure> {
    lua.load(&*rewrite::ordered_constructors(script)).set_name("=<string>").exec().map_err(|e| match e {
        mlua::Error::SyntaxError { message, .. } => Failure::Script(message),
        other => Failure::Lua(other),
    })?;
    let mut values = Vec::with_capacity(args.len());
    for arg in args {
        let value = match arg {
            Arg::Json(v) => convert::to_lua(lua, v).map_err(Failure::Lua)?,
            Arg::Int(n) => LuaValue::Number(*n as f64),
        };
        values.push(value);
    }
    let f = match lua.globals().raw_get::<LuaValue>(function).map_err(Failure::Lua)? {
        LuaValue::Function(f) => f,
        LuaValue::Nil => return Err(Failure::Script(format!("not found function {function}"))),
        other => return Err(Failure::Script(format!("{function} is not a function: {}", convert::type_name(&other)))),
    };
    let mut rets: Vec<LuaValue> = f.call::<MultiValue>(MultiValue::from_vec(values)).map_err(Failure::Lua)?.into_vec();
    rets.resize(returns, LuaValue::Nil);
    Ok(rets)
}

fn is_memory(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } => is_memory(cause),
        _ => false,
    }
}

/// The Lua error's own text, without mlua's "runtime error:" prefix and traceback.
pub(crate) fn message(e: &mlua::Error) -> String {
    match e {
        // mlua appends the traceback to an error raised in Lua; the script's author needs the
        // message and its line, which the message carries.
        mlua::Error::RuntimeError(m) | mlua::Error::MemoryError(m) => {
            m.split("\nstack traceback:").next().unwrap_or_default().to_string()
        }
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::CallbackError { cause, .. } => message(cause),
        mlua::Error::WithContext { cause, .. } => message(cause),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests;
