//! What errors are: the [`Fault`] a run stops with, the makers of Lua's errors, an entry of the
//! call stack that positions them ([`Activation`]), and how Lua 5.1 names a chunk in a message
//! (`user_script`, `[string "…"]`). Where an error happened is worked out in `position.rs`.

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
    /// The host stopped a library's load (not catchable). A script or function that SCRIPT KILL
    /// or FUNCTION KILL stops raises Redis's catchable error instead (`Interp::step`).
    Killed { line: u32 },
    /// The running coroutine yields: unwinds to its `resume`, each construct on the way
    /// recording its state (see [`super::coroutine`]). The values wait in the interpreter.
    Yield,
}

/// Lua 5.1's refusal to yield across a C call, also what a yield in the main script gets.
pub const C_BOUNDARY: &str = "attempt to yield across metamethod/C-call boundary";

/// The chunk index an activation of a library function has on the call stack.
pub(super) const NATIVE: u32 = u32::MAX;

/// One entry of the call stack: which chunk a Lua function came from (or [`NATIVE`]) and the
/// line it is calling from, which error levels and positions report.
#[derive(Debug, Clone, Copy)]
pub(super) struct Activation {
    pub(super) chunk: u32,
    pub(super) line: u32,
    /// A Lua function entered by a tail call (`return f(…)`): Lua reuses its caller's frame
    /// for it, so the caller is no longer a level of the stack, only a lost "tail call".
    pub(super) tail: bool,
}

/// The room Lua 5.1 gives a chunk name in runtime error positions (`LUA_IDSIZE`).
pub const RUNTIME_ID_SIZE: usize = 60;
/// The room its lexer gives a chunk name in syntax errors (`MAXSRC`).
pub const SYNTAX_ID_SIZE: usize = 80;

/// Lua 5.1's `luaO_chunkid` for a buffer of `size` bytes: `=name` as `name`, `@file` as `file`
/// (its end, after `...`, when too long), and source text as `[string "first line..."]`.
pub fn chunk_id(source: &str, size: usize) -> String {
    // Lua reads the name as a C string.
    let source = source.split('\0').next().unwrap_or_default();
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
}
