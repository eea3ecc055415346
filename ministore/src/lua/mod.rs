//! The script engine: a lexer, parser and tree-walking interpreter for the Lua 5.1 subset that
//! Redis scripts use, the Redis⇄Lua conversion rules, and a step budget for runaway scripts.
//!
//! The engine never touches the keyspace itself: `redis.call` goes through a [`CommandHost`].
//! Pipeline: [`lexer`] → [`parser`] (building the [`ast`]) once per script, then [`interp`] walks
//! the shared tree on every run; [`lib`] holds the library (one file per Lua library) and [`convert`] every Redis⇄Lua rule.
//!
//! Layers, each using only those below it: [`handle`] (which library, which builtin) under
//! [`value`] (Lua values, coroutines included); [`lib_tables`] (what the library tables hold),
//! [`lib_state`] (what the libraries keep during a run) and [`convert`] on values; [`interp`]
//! above them, which runs a builtin only through the [`interp::Natives`] it is handed; [`lib`]
//! on top of the interpreter, handing over [`lib::NATIVES`]; and this file with [`function`],
//! which build an interpreter with the library and run it.

mod ast;
mod convert;
mod function;
mod handle;
mod host;
mod interp;
mod lexer;
mod lib;
mod lib_state;
mod lib_tables;
mod number;
mod parser;
mod pattern;
mod persist;
mod table;
mod value;

use std::sync::Arc;

use crate::reply::Reply;
use ast::FuncBody;
pub use function::{FunctionInfo, Library};
pub use host::{CommandHost, ScriptInputs};
pub use interp::RunBuffers;
use interp::{Fault, Interp};
pub use lib_state::{LuaState, Rand48};

/// The chunk name Redis gives a script: errors read `user_script:3: …`.
const SCRIPT_SOURCE: &str = "@user_script";

/// How many interpreter steps a script may take unless the caller says otherwise: room for a
/// reaper looping over tens of thousands of jobs, while a runaway loop stops after about 0.1 s
/// natively (measured: 1M steps in ~10 ms) and well inside a second in wasm.
pub const DEFAULT_STEP_BUDGET: u64 = 10_000_000;

/// A compiled script, ready to run any number of times.
#[derive(Debug, Clone)]
pub struct Script {
    chunk: Arc<FuncBody>,
    read_only: bool,
}

/// Why a script did not compile; renders as Redis's own `ERR Error compiling script …` reply,
/// or, for a bad `#!` line, as the shebang error Redis gives before compiling anything.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileError {
    line: u32,
    message: String,
    shebang: bool,
}

impl CompileError {
    /// The error reply Redis 7.0 gives for this compile error. Redis names the chunk "new
    /// function" and, unlike runtime errors, does not mention the script's SHA1; CR and LF
    /// become spaces, as Redis's reply for a script's compile error has them (a string's text in
    /// `near '…'` may hold them).
    pub fn to_reply(&self) -> Reply {
        let text = if self.shebang {
            format!("ERR {}", self.message)
        } else {
            format!("ERR Error compiling script (new function): {self}")
        };
        Reply::Error(text.replace(['\r', '\n'], " "))
    }

    /// The source line the error is on.
    pub fn line(&self) -> u32 {
        self.line
    }
}

impl std::fmt::Display for CompileError {
    /// Lua's own wording: `user_script:1: 'end' expected near '<eof>'` (a shebang error is
    /// Redis's text alone).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.shebang {
            return f.write_str(&self.message);
        }
        write!(f, "user_script:{}: {}", self.line, self.message)
    }
}

/// The flags Redis 7.0 accepts after `flags=` on a `#!lua` line.
const SHEBANG_FLAGS: &[&[u8]] = &[
    b"no-writes",
    b"allow-oom",
    b"allow-stale",
    b"no-cluster",
    b"allow-cross-slot-keys",
];

/// Reads a leading `#!lua flags=…` line as Redis 7.0's `evalExtractShebangFlags` does; true
/// when the script declares `no-writes`. A script without a shebang may write.
fn shebang_read_only(source: &[u8]) -> Result<bool, String> {
    if !source.starts_with(b"#!") {
        return Ok(false);
    }
    // `strchr(body, '\n')`: a zero byte before the line's end ends the search.
    let Some(end) = crate::args::c_string(source)
        .iter()
        .position(|&b| b == b'\n')
    else {
        return Err("Invalid script shebang".into());
    };
    let parts = match crate::cli::split_line(&source[..end]) {
        Ok(parts) if !parts.is_empty() => parts,
        _ => return Err("Invalid engine in script shebang".into()),
    };
    // Redis compares each word with `strcmp` (`strncmp` for `flags=`) and prints it with `%s`:
    // a word ends at a zero byte.
    let c_text = |word: &[u8]| String::from_utf8_lossy(crate::args::c_string(word)).into_owned();
    if crate::args::c_string(&parts[0]) != b"#!lua" {
        return Err(format!(
            "Unexpected engine in script shebang: {}",
            c_text(&parts[0])
        ));
    }
    let mut read_only = false;
    for option in &parts[1..] {
        if !crate::args::c_string(option).starts_with(b"flags=") {
            return Err(format!("Unknown lua shebang option: {}", c_text(option)));
        }
        let flags = &option[b"flags=".len()..];
        if flags.is_empty() {
            continue;
        }
        for flag in flags.split(|&b| b == b',') {
            let flag = crate::args::c_string(flag);
            if !SHEBANG_FLAGS.contains(&flag) {
                return Err(format!(
                    "Unexpected flag in script shebang: {}",
                    c_text(flag)
                ));
            }
            read_only |= flag == b"no-writes";
        }
    }
    Ok(read_only)
}

impl Script {
    /// Reads the `#!lua` line if there is one, then lexes and parses the source.
    pub fn compile(source: &[u8]) -> Result<Script, CompileError> {
        let read_only = shebang_read_only(source).map_err(|message| CompileError {
            line: 1,
            message,
            shebang: true,
        })?;
        // The scripting command reads the `#!lua` line's flags and hands Lua the script from
        // the line's `\n` on (a `\r` in the line goes with it), so lines keep their numbers.
        // Only a script's first line is a shebang: `loadstring` compiles `#!` as Lua does, an
        // unexpected symbol.
        let code = if source.starts_with(b"#!") {
            let newline = source.iter().position(|&b| b == b'\n');
            &source[newline.unwrap_or(source.len())..]
        } else {
            source
        };
        match parser::parse_chunk(code, SCRIPT_SOURCE) {
            Ok(chunk) => Ok(Script { chunk, read_only }),
            Err(e) => Err(CompileError {
                line: e.line,
                message: e.to_string(),
                shebang: false,
            }),
        }
    }

    /// True when the script's shebang declares `flags=no-writes`: the host must refuse write
    /// commands from it.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Runs the script with `KEYS` and `ARGV` bound, converting its result (or its error) to
    /// the reply Redis 7.0 would give. `sha` is the script's SHA1, used in error texts.
    /// A script that takes more than `step_budget` steps is stopped with an error reply.
    pub fn run(
        &self,
        sha: &str,
        keys: &[Vec<u8>],
        argv: &[Vec<u8>],
        host: &mut dyn CommandHost,
        step_budget: u64,
    ) -> Reply {
        self.run_inputs(sha, &keys, &argv, host, step_budget)
    }

    /// [`Script::run`] with `KEYS` and `ARGV` read in place from any list of byte strings
    /// (`&[&[u8]]` from a command line, …): nothing is copied until the script reads an item.
    pub fn run_inputs(
        &self,
        sha: &str,
        keys: &dyn ScriptInputs,
        argv: &dyn ScriptInputs,
        host: &mut dyn CommandHost,
        step_budget: u64,
    ) -> Reply {
        self.run_reusing(
            sha,
            keys,
            argv,
            host,
            step_budget,
            &mut RunBuffers::default(),
        )
    }

    /// [`Script::run_inputs`] with the call stack and chunk list `buffers` kept from an
    /// earlier run (and left in it for the next one), so a repeated run does not allocate them.
    pub fn run_reusing(
        &self,
        sha: &str,
        keys: &dyn ScriptInputs,
        argv: &dyn ScriptInputs,
        host: &mut dyn CommandHost,
        step_budget: u64,
        buffers: &mut RunBuffers,
    ) -> Reply {
        let buffers_in = std::mem::take(buffers);
        let mut interp = Interp::reusing(host, keys, argv, step_budget, lib::NATIVES, buffers_in);
        let reply = self.reply_of(&mut interp, sha, step_budget);
        *buffers = interp.into_buffers();
        reply
    }

    /// Runs the main chunk in `interp` and converts its result or error to the reply.
    fn reply_of(&self, interp: &mut Interp, sha: &str, step_budget: u64) -> Reply {
        match interp.run_chunk(&self.chunk) {
            Ok(v) => convert::value_to_reply(&v, interp.libs.resp),
            Err(Fault::Error { value, line }) => {
                let (source, line) = interp.fault_place(line);
                convert::raised_error_reply(&value, &source, line, sha)
            }
            Err(Fault::Runtime { msg, line }) => {
                let value = value::Value::str(format!("user_script:{}: {}", line, msg).as_bytes());
                convert::raised_error_reply(&value, SCRIPT_SOURCE, i64::from(line), sha)
            }
            Err(Fault::Budget { line }) => step_budget_stop(step_budget, sha, SCRIPT_SOURCE, line),
            // A script's kill arrives as the error it raises (`Interp::step`); only a library's
            // load is stopped outright, so this is that error, unraised.
            Err(Fault::Killed { line }) => {
                let value = convert::error_table(interp::KILLED.into());
                convert::raised_error_reply(&value, SCRIPT_SOURCE, i64::from(line), sha)
            }
            // `yield` refuses outside a coroutine, so no yield gets this far.
            Err(Fault::Yield) => {
                let value = value::Value::str(interp::C_BOUNDARY.as_bytes());
                convert::raised_error_reply(&value, SCRIPT_SOURCE, 0, sha)
            }
        }
    }
}

/// How ministore's own error for a script stopped at its step budget begins (Redis has no step
/// budget: its scripts run until SCRIPT KILL); [`Reply::is_step_budget_stop`] reads it.
pub(crate) const STEP_BUDGET_STOP: &str = "ERR script stopped: it ran past its step budget";

/// The error for a script or function stopped at its step budget on `line` of `source`.
pub(crate) fn step_budget_stop(step_budget: u64, name: &str, source: &str, line: u32) -> Reply {
    Reply::Error(format!(
        "{STEP_BUDGET_STOP} of {step_budget} steps (runaway script?) script: {name}, on {source}:{line}."
    ))
}
