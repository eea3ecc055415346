//! Where an error happened: Lua 5.1's positions (`user_script:3:`, `[string "…"]:1:`) for
//! runtime errors raised by Lua code and by library functions, `error` levels, what `pcall`
//! catches, and the chunk the reply names after `on`.

use std::sync::Arc;

use super::fault::{
    bare_error, chunk_id, runtime_error, type_error, Activation, Fault, NATIVE, RUNTIME_ID_SIZE,
};
use super::Interp;
use crate::lua::value::Value;

impl Interp<'_> {
    /// Where Redis's error handler places the unwinding error after `on`: the raw chunk name
    /// of the function it was raised in (`@user_script`, or the source of a `loadstring`
    /// chunk) and `line`; or `=[C]` and -1 when a library function raised it while another
    /// library function called it (the handler looks one frame past a C function only).
    pub fn fault_place(&self, line: u32) -> (Arc<str>, i64) {
        if self.fault_chunk == Some(NATIVE) {
            return (Arc::from("=[C]"), -1);
        }
        let i = self.fault_chunk.unwrap_or(0) as usize;
        let source = self
            .sources
            .get(i)
            .cloned()
            .unwrap_or_else(|| Arc::from("@user_script"));
        (source, i64::from(line))
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
        let a = self.lua_level(level)?;
        Some(format!("{}:{}: ", self.chunk_id(a.chunk), a.line))
    }

    /// A type error the VM raises (`attempt to call a number value`): placed at `line` when Lua
    /// code is running, bare while a library function is (its call of a metamethod, of a
    /// `__tostring`, of a sort's `__lt`), as Lua's `luaG_typeerror` places it by the running
    /// function.
    pub(super) fn vm_type_error(
        &self,
        line: u32,
        op: &str,
        desc: Option<&str>,
        v: &Value,
    ) -> Fault {
        if self.in_library() {
            let msg = format!("attempt to {} a {} value", op, v.type_name());
            return bare_error(line, &msg);
        }
        type_error(line, op, desc, v)
    }

    /// Any other error the VM raises (`attempt to compare two table values`), placed as
    /// [`Self::vm_type_error`] places its own.
    pub(super) fn vm_error(&self, line: u32, msg: &str) -> Fault {
        if self.in_library() {
            bare_error(line, msg)
        } else {
            runtime_error(line, msg)
        }
    }

    /// A library function is the running function.
    fn in_library(&self) -> bool {
        self.stack.last().is_some_and(|a| a.chunk == NATIVE)
    }

    /// The line the Lua function `level` steps up the stack is at, as [`Self::where_prefix`]
    /// finds it; none for a library function or beyond the stack.
    pub fn level_line(&self, level: usize) -> Option<u32> {
        self.lua_level(level).map(|a| a.line)
    }

    /// The Lua function `level` steps up the stack, as Lua's `lua_getstack` counts: a function
    /// entered by a tail call stands in for the callers it replaced, each of which counts as a
    /// level with nothing to show. None for a library function, a lost tail call, or beyond
    /// the stack (a coroutine's own stack ends where it was resumed).
    fn lua_level(&self, level: usize) -> Option<Activation> {
        let floor = self.stack_floor();
        let mut left = level;
        let mut i = self.stack.len();
        while i > floor {
            i -= 1;
            let a = self.stack[i];
            if left == 0 {
                return (a.chunk != NATIVE).then_some(a);
            }
            left -= 1;
            // The callers this function replaced: levels in Lua's count, frames only here.
            let mut replaced = a;
            while replaced.tail && i > floor {
                if left == 0 {
                    return None;
                }
                left -= 1;
                i -= 1;
                replaced = self.stack[i];
            }
        }
        None
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
        if matches!(fault, Fault::Runtime { .. } | Fault::Error { .. }) {
            self.fault_chunk.get_or_insert(NATIVE);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_argument_errors_lose_the_name_without_a_caller() {
        assert_eq!(
            anonymous_bad_argument("bad argument #1 to 'rep' (string expected, got no value)"),
            "bad argument #1 to '?' (string expected, got no value)"
        );
        assert_eq!(anonymous_bad_argument("boom"), "boom");
    }
}
