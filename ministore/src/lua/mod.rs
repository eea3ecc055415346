//! The script engine: a lexer, parser and tree-walking interpreter for the Lua 5.1 subset that
//! Redis scripts use, the Redis⇄Lua conversion rules, and a step budget for runaway scripts.
//!
//! The engine never touches the keyspace itself: `redis.call` goes through a [`CommandHost`].
//! Pipeline: [`lexer`] → [`parser`] (building the [`ast`]) once per script, then [`interp`] walks
//! the shared tree on every run; [`stdlib`] holds the library and [`convert`] every Redis⇄Lua rule.

mod ast;
mod convert;
mod interp;
mod lexer;
mod parser;
mod stdlib;
mod value;

use std::sync::Arc;

use crate::reply::Reply;
use ast::FuncBody;
use interp::{Fault, Interp};

/// A step budget generous for any real Redis script yet short enough (well under a second
/// natively) that a runaway loop cannot hang a browser tab.
pub const DEFAULT_STEP_BUDGET: u64 = 5_000_000;

/// What a running script calls `redis.call` / `redis.pcall` through.
pub trait CommandHost {
    /// Runs one command issued by the script and returns Redis's reply (errors included).
    fn call(&mut self, args: &[Vec<u8>]) -> Reply;
}

/// A compiled script, ready to run any number of times.
#[derive(Debug, Clone)]
pub struct Script {
    chunk: Arc<FuncBody>,
}

/// Why a script did not compile; renders as Redis's own `ERR Error compiling script …` reply.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileError {
    line: u32,
    message: String,
}

impl CompileError {
    /// The error reply Redis 7.0 gives for this compile error of the script with this SHA1.
    /// (Redis 7.0 names the chunk "new function" for EVAL and does not mention the SHA.)
    pub fn to_reply(&self, sha: &str) -> Reply {
        let _ = sha;
        Reply::Error(format!(
            "ERR Error compiling script (new function): {}",
            self
        ))
    }

    /// The source line the error is on.
    pub fn line(&self) -> u32 {
        self.line
    }
}

impl std::fmt::Display for CompileError {
    /// Lua's own wording: `user_script:1: 'end' expected near '<eof>'`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "user_script:{}: {}", self.line, self.message)
    }
}

impl Script {
    /// Lexes and parses the source.
    pub fn compile(source: &[u8]) -> Result<Script, CompileError> {
        match parser::parse(source) {
            Ok(body) => Ok(Script {
                chunk: Arc::new(FuncBody {
                    params: Vec::new(),
                    body,
                }),
            }),
            Err(e) => Err(CompileError {
                line: e.line,
                message: e.message,
            }),
        }
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
        let mut interp = Interp::new(host, keys, argv, step_budget);
        match interp.run_chunk(&self.chunk) {
            Ok(v) => convert::value_to_reply(&v),
            Err(Fault::Error { value, line }) => convert::raised_error_reply(&value, line, sha),
            Err(Fault::Budget { line }) => Reply::Error(format!(
                "ERR script stopped: it ran past its step budget of {} steps (runaway script?) script: {}, on @user_script:{}.",
                step_budget, sha, line
            )),
        }
    }
}
