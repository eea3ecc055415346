//! Errors and where they happened: the [`Fault`] a run stops with, the call stack of Lua and
//! library activations, and Lua 5.1's positions (`user_script:3:`, `[string "…"]:1:`) for
//! runtime errors, `error` levels and the reply's `on <chunk>:<line>`.

use std::sync::Arc;

use super::Interp;
use crate::lua::value::Value;

/// Why evaluation stopped abnormally.
#[derive(Debug)]
pub enum Fault {
    /// A Lua error: the error value and the line it was raised on (catchable by `pcall`).
    Error { value: Value, line: u32 },
    /// A runtime error whose message still lacks its position: Lua prefixes `chunk:line:` when
    /// the function that raised it was called from Lua code, and not when a library function
    /// was called straight from another (`pcall(string.rep)`). Becomes an `Error` on its way out.
    Runtime { msg: String, line: u32 },
    /// The step budget ran out on this line (not catchable).
    Budget { line: u32 },
    /// The host asked the script to stop (SCRIPT KILL from another client; not catchable).
    Killed { line: u32 },
    /// The running coroutine yields: unwinds to its `resume`, each construct on the way
    /// recording its state (see [`super::coroutine`]). The values wait in the interpreter.
    Yield,
}

/// The chunk index an activation of a library function has on the call stack.
pub(super) const NATIVE: u32 = u32::MAX;

/// One entry of the call stack: which chunk a Lua function came from (or [`NATIVE`]) and the
/// line it is calling from, which error levels and positions report.
#[derive(Debug, Clone, Copy)]
pub(super) struct Activation {
    pub(super) chunk: u32,
    pub(super) line: u32,
}

impl Interp<'_> {
    /// The raw chunk name of the function the unwinding error was raised in (`@user_script`,
    /// or the source of a `loadstring` chunk), as Redis names it after `on`.
    pub fn fault_source(&self) -> Arc<str> {
        let i = self.fault_chunk.unwrap_or(0) as usize;
        self.sources
            .get(i)
            .cloned()
            .unwrap_or_else(|| Arc::from("@user_script"))
    }

    /// What `pcall` hands back for an error: its value, or a runtime error's bare message (the
    /// failed call was made by a library function, so Lua gives it no position). The step
    /// budget is not an error a script can catch.
    pub fn catch(&mut self, fault: Fault) -> Result<Value, Fault> {
        self.fault_chunk = None;
        match fault {
            Fault::Error { value, .. } => Ok(value),
            Fault::Runtime { msg, .. } => Ok(Value::str(msg.as_bytes())),
            budget => Err(budget),
        }
    }

    /// The index of a chunk name in `sources`, adding it the first time.
    pub(super) fn chunk_index(&mut self, source: &Arc<str>) -> u32 {
        if let Some(i) = self.sources.iter().position(|s| Arc::ptr_eq(s, source)) {
            return i as u32;
        }
        self.sources.push(source.clone());
        (self.sources.len() - 1) as u32
    }

    /// The position prefix Lua's `error(msg, level)` and `luaL_where` put before a message:
    /// `user_script:7: ` when the function `level` steps up the stack from the running library
    /// function is Lua code, nothing when it is a library function or beyond the stack.
    pub fn where_prefix(&self, level: usize) -> Option<String> {
        let i = self.stack.len().checked_sub(1 + level)?;
        // A coroutine's own stack ends where it was resumed.
        if i < self.stack_floor() {
            return None;
        }
        let a = self.stack[i];
        if a.chunk == NATIVE {
            return None;
        }
        Some(format!("{}:{}: ", self.chunk_id(a.chunk), a.line))
    }

    /// The line the Lua function `level` steps up the stack is at, as [`Self::where_prefix`]
    /// finds it; none for a library function or beyond the stack.
    pub fn level_line(&self, level: usize) -> Option<u32> {
        let i = self.stack.len().checked_sub(1 + level)?;
        let a = self.stack.get(i).filter(|_| i >= self.stack_floor())?;
        (a.chunk != NATIVE).then_some(a.line)
    }

    /// How Lua 5.1 (as Redis builds it) shows a chunk name in messages: `=name` as `name`,
    /// `@file` as `file`, and source text as `[string "first line..."]`.
    fn chunk_id(&self, chunk: u32) -> String {
        let source = self
            .sources
            .get(chunk as usize)
            .map(|s| &**s)
            .unwrap_or("@user_script");
        chunk_id(source, RUNTIME_ID_SIZE)
    }

    /// Gives a runtime error raised by Lua code in `chunk` its `chunk:line:` prefix.
    pub(super) fn resolve_lua(&mut self, fault: Fault, chunk: u32) -> Fault {
        match fault {
            Fault::Runtime { msg, line } => {
                self.fault_chunk.get_or_insert(chunk);
                let text = format!("{}:{}: {}", self.chunk_id(chunk), line, msg);
                Fault::Error {
                    value: Value::str(text.as_bytes()),
                    line,
                }
            }
            other => other,
        }
    }

    /// Positions a runtime error raised by a library function: like Lua code's when the caller
    /// is Lua, bare (and with the function's name unknown, `'?'`) when it is another library
    /// function.
    pub(super) fn resolve_native(&mut self, fault: Fault, caller: Activation) -> Fault {
        if caller.chunk != NATIVE {
            if !matches!(
                fault,
                Fault::Budget { .. } | Fault::Killed { .. } | Fault::Yield
            ) {
                self.fault_chunk.get_or_insert(caller.chunk);
            }
            return self.resolve_lua(fault, caller.chunk);
        }
        match fault {
            Fault::Runtime { msg, line } => Fault::Error {
                value: Value::str(anonymous_bad_argument(&msg).as_bytes()),
                line,
            },
            other => other,
        }
    }
}

/// `bad argument #1 to 'rep' (…)` as Lua words it when no name is known for the function.
fn anonymous_bad_argument(msg: &str) -> String {
    if let Some(rest) = msg.strip_prefix("bad argument #") {
        if let Some((n, tail)) = rest.split_once(" to '") {
            if let Some((_, after)) = tail.split_once("' ") {
                return format!("bad argument #{} to '?' {}", n, after);
            }
        }
    }
    msg.to_string()
}

/// The room Lua 5.1 gives a chunk name in runtime error positions (`LUA_IDSIZE`).
pub const RUNTIME_ID_SIZE: usize = 60;
/// The room its lexer gives a chunk name in syntax errors (`MAXSRC`).
pub const SYNTAX_ID_SIZE: usize = 80;

/// Lua 5.1's `luaO_chunkid` for a buffer of `size` bytes: `=name` as `name`, `@file` as `file`
/// (its end, after `...`, when too long), and source text as `[string "first line..."]`.
pub fn chunk_id(source: &str, size: usize) -> String {
    if let Some(name) = source.strip_prefix('=') {
        return truncate_bytes(name, size - 1).to_string();
    }
    if let Some(file) = source.strip_prefix('@') {
        let room = size - " '...' ".len() - 1;
        if file.len() > room {
            let mut start = file.len() - room;
            while !file.is_char_boundary(start) {
                start += 1;
            }
            return format!("...{}", &file[start..]);
        }
        return file.to_string();
    }
    let room = size - " [string \"...\"] ".len() - 1;
    let first = source.split(['\n', '\r']).next().unwrap_or("");
    let cut = truncate_bytes(first, room);
    if cut.len() < source.len() {
        format!("[string \"{}...\"]", cut)
    } else {
        format!("[string \"{}\"]", cut)
    }
}

fn truncate_bytes(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// A Lua runtime error raised at `line`; it gets its position (`user_script:N: msg`) from
/// whoever raised it (see [`Fault::Runtime`]).
pub fn runtime_error(line: u32, msg: &str) -> Fault {
    Fault::Runtime {
        msg: msg.to_string(),
        line,
    }
}

/// An error Redis's patched Lua raises without a position (writes to read-only tables from
/// library functions, …).
pub fn bare_error(line: u32, msg: &str) -> Fault {
    Fault::Error {
        value: Value::str(msg.as_bytes()),
        line,
    }
}

/// Lua's out-of-memory error, which carries no position.
pub fn memory_error(line: u32) -> Fault {
    bare_error(line, "not enough memory")
}

/// `attempt to <op> <local 'x'> (a <type> value)`.
pub fn type_error(line: u32, op: &str, desc: Option<&str>, v: &Value) -> Fault {
    match desc {
        Some(d) => runtime_error(
            line,
            &format!("attempt to {} {} (a {} value)", op, d, v.type_name()),
        ),
        None => runtime_error(
            line,
            &format!("attempt to {} a {} value", op, v.type_name()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_names_print_like_redis_lua() {
        let run = |s: &str| chunk_id(s, RUNTIME_ID_SIZE);
        let syntax = |s: &str| chunk_id(s, SYNTAX_ID_SIZE);
        assert_eq!(run("@user_script"), "user_script");
        assert_eq!(run("=name"), "name");
        assert_eq!(run("return 1"), "[string \"return 1\"]");
        assert_eq!(run("a\nb"), "[string \"a...\"]");
        assert_eq!(run("\nb"), "[string \"...\"]");
        let long = "x".repeat(64);
        assert_eq!(syntax(&long), format!("[string \"{}...\"]", &long[..63]));
        assert_eq!(run(&long), format!("[string \"{}...\"]", &long[..43]));
        let exact = "x".repeat(63);
        assert_eq!(syntax(&exact), format!("[string \"{}\"]", exact));
        let file = format!("@{}", "y".repeat(70));
        assert_eq!(run(&file), format!("...{}", "y".repeat(52)));
        assert_eq!(run(&format!("={}", "y".repeat(90))), "y".repeat(59));
    }

    #[test]
    fn bad_argument_errors_lose_the_name_without_a_caller() {
        assert_eq!(
            anonymous_bad_argument("bad argument #1 to 'rep' (string expected, got no value)"),
            "bad argument #1 to '?' (string expected, got no value)"
        );
        assert_eq!(anonymous_bad_argument("boom"), "boom");
    }
}
