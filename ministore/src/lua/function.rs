//! Redis 7.0 function libraries (FUNCTION LOAD, FCALL): a library's code runs its top level
//! with nothing but a reduced `redis` table (`register_function`, `log`, the log levels and the
//! version), and the functions it registers are what FCALL calls, with `KEYS` and `ARGV` given
//! as the function's two arguments instead of as globals.
//!
//! As in Redis, the top level runs once, at load: the registered functions keep what they
//! captured (the library's top-level locals, the tables they hold) from one FCALL to the next,
//! until the library is replaced, deleted or flushed. Between calls that state is held frozen
//! (see [`Frozen`]), so that a store stays `Send`.

use std::sync::Arc;

use super::ast::FuncBody;
use super::convert;
use super::host::{CommandHost, ScriptInputs};
use super::interp::{array_of, Callee, Fault, Interp, RunKind, C_BOUNDARY, KILLED};
use super::lib;
use super::lib_state::Registered;
use super::parser;
use super::persist::Frozen;
use super::value::Value;
use crate::reply::Reply;

/// The chunk name Redis gives library code: errors read `user_function:2: …`.
const FUNCTION_SOURCE: &str = "@user_function";

/// A loaded library, ready for FCALL.
#[derive(Debug, Clone)]
pub struct Library {
    functions: Vec<FunctionInfo>,
    /// The registered callbacks, in the order of `functions`, with everything they reach.
    state: Frozen,
}

/// What FUNCTION LIST shows of one registered function.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionInfo {
    /// Its name.
    pub name: Vec<u8>,
    /// Its description, if it was registered with one.
    pub description: Option<Vec<u8>>,
    /// Its flags (`no-writes`, `allow-oom`, …), each once, in Redis's order.
    pub flags: Vec<&'static str>,
}

impl FunctionInfo {
    /// True for a function registered with the `no-writes` flag.
    pub fn is_read_only(&self) -> bool {
        self.flags.contains(&"no-writes")
    }
}

/// A host for the load: the top level cannot reach `redis.call`, so this never runs anything.
struct NoCommands;

impl CommandHost for NoCommands {
    fn call(&mut self, _: &[&[u8]]) -> Reply {
        Reply::Error("ERR This Redis command is not allowed from script".into())
    }
}

impl Library {
    /// Compiles `code` (the library's text after its `#!lua` line, that line's newline
    /// included, so line numbers count from the shebang) and runs its top level. The error is
    /// Redis's text without the `ERR ` prefix: `Error compiling function: …`, `Error
    /// registering functions: …` or `No functions registered`.
    pub fn load(code: &[u8], step_budget: u64) -> Result<Library, String> {
        let chunk = parser::parse_chunk(code, FUNCTION_SOURCE)
            .map_err(|e| format!("Error compiling function: user_function:{}: {}", e.line, e))?;
        let mut host = NoCommands;
        let empty: &[&[u8]] = &[];
        let mut interp = Interp::new(&mut host, &empty, &empty, step_budget, lib::NATIVES);
        let registered = register(&mut interp, &chunk)
            .map_err(|text| format!("Error registering functions: {text}"))?;
        if registered.is_empty() {
            return Err("No functions registered".into());
        }
        let (functions, callbacks) = registered
            .into_iter()
            .map(|r| {
                let info = FunctionInfo {
                    name: r.name,
                    description: r.description,
                    flags: r.flags,
                };
                (info, r.callback)
            })
            .unzip();
        Ok(Library {
            functions,
            state: Frozen::take(callbacks),
        })
    }

    /// Appends bytes equal for two libraries' states only if their calls answer the same
    /// (see [`Frozen::write_key`]).
    pub fn write_state_key(&self, out: &mut Vec<u8>) {
        self.state.write_key(out);
    }

    /// The functions the library registered, in registration order.
    pub fn functions(&self) -> &[FunctionInfo] {
        &self.functions
    }

    /// Runs function `name` with `keys` and `args` as its two arguments, converting its result
    /// (or error, which names the function as Redis does) to the reply. What the call changed in
    /// the library's state stays for the next call, even when it failed.
    pub fn call(
        &mut self,
        name: &[u8],
        keys: &dyn ScriptInputs,
        args: &dyn ScriptInputs,
        host: &mut dyn CommandHost,
        step_budget: u64,
    ) -> Reply {
        let label = String::from_utf8_lossy(name).into_owned();
        let Some(at) = self
            .functions
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name))
        else {
            return Reply::Error("ERR Function not found".into());
        };
        let callbacks = self.state.thaw();
        let empty: &[&[u8]] = &[];
        let mut interp = Interp::new(host, &empty, &empty, step_budget, lib::NATIVES);
        interp.kind = RunKind::Function;
        let arguments = vec![Value::Table(array_of(keys)), Value::Table(array_of(args))];
        // A library function registered as the function itself: Redis's error handler finds
        // no Lua code above it, so its errors come back with no place.
        let direct = matches!(callbacks[at], Value::Builtin(_));
        let result = interp.call_value(&callbacks[at], arguments, 0, Callee::Unnamed);
        let reply = match result {
            Ok(values) => {
                convert::value_to_reply(values.first().unwrap_or(&Value::Nil), interp.libs.resp)
            }
            Err(Fault::Error { value, line }) => {
                let (source, line) = interp.fault_place(line);
                if direct && &*source == "=[C]" {
                    convert::unplaced_error_reply(&value)
                } else {
                    convert::raised_error_reply(&value, &source, line, &label)
                }
            }
            Err(Fault::Runtime { msg, .. }) if direct => {
                convert::unplaced_error_reply(&Value::str(msg.as_bytes()))
            }
            Err(Fault::Runtime { msg, line }) => {
                let value = Value::str(format!("user_function:{line}: {msg}").as_bytes());
                convert::raised_error_reply(&value, FUNCTION_SOURCE, i64::from(line), &label)
            }
            Err(Fault::Budget { line }) => {
                super::step_budget_stop(step_budget, &label, FUNCTION_SOURCE, line)
            }
            // A function's kill arrives as the error it raises (`Interp::step`; Redis 7.0 words
            // it as SCRIPT KILL for functions too); only a library's load is stopped outright,
            // so this is that error, unraised.
            Err(Fault::Killed { line }) => {
                let value = convert::error_table(KILLED.into());
                convert::raised_error_reply(&value, FUNCTION_SOURCE, i64::from(line), &label)
            }
            // `yield` refuses outside a coroutine, so no yield gets this far.
            Err(Fault::Yield) => {
                let value = Value::str(C_BOUNDARY.as_bytes());
                convert::raised_error_reply(&value, FUNCTION_SOURCE, 0, &label)
            }
        };
        drop(interp);
        self.state = Frozen::take(callbacks);
        reply
    }
}

/// Runs a library's top level and returns what it registered, or the error text (with its
/// `ERR ` prefix, as Redis words a failed load's cause).
fn register(interp: &mut Interp<'_>, chunk: &Arc<FuncBody>) -> Result<Vec<Registered>, String> {
    interp.kind = RunKind::Load;
    let result = interp.run_chunk(chunk);
    let registered = std::mem::take(&mut interp.libs.registered);
    match result {
        Ok(_) => Ok(registered),
        Err(Fault::Error { value, .. }) => Err(match convert::error_text(&value) {
            Some(text) => String::from_utf8_lossy(&text).into_owned(),
            None => format!(
                "ERR {}",
                String::from_utf8_lossy(&value.to_str_bytes().unwrap_or_default())
            ),
        }),
        Err(Fault::Runtime { msg, line }) => Err(format!("ERR user_function:{line}: {msg}")),
        Err(Fault::Yield) => Err(format!("ERR {C_BOUNDARY}")),
        Err(Fault::Budget { .. } | Fault::Killed { .. }) => Err("ERR FUNCTION LOAD timeout".into()),
    }
}
