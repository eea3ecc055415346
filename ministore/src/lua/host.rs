//! What the engine asks of whoever runs a script: a [`CommandHost`] to send `redis.call`'s
//! commands to (and to answer a few questions Redis's scripting bridge answers), and the
//! script's `KEYS` and `ARGV` as [`ScriptInputs`].

use std::sync::Arc;

use super::lib_state::{LuaState, Rand48};
use crate::reply::Reply;

/// What a running script calls `redis.call` / `redis.pcall` through.
///
/// The host plays Redis's scripting bridge: it checks that the command exists, that it may run
/// from a script, its argument count and (for read-only scripts) that it does not write, and
/// answers those refusals with the bridge's own wording (`ERR Unknown Redis command called from
/// script`, …). The engine passes every reply through as it is, so a command's own error — HSET
/// with an odd number of field/value words says `ERR wrong number of arguments for 'hset'
/// command` — reaches the script unchanged, as in Redis.
pub trait CommandHost {
    /// Runs one command line issued by the script and returns its reply (errors included).
    fn call(&mut self, args: &[&[u8]]) -> Reply;

    /// What the interpreter this run stands for keeps between runs (cjson's and the
    /// collector's settings), when the host carries it; otherwise the run starts from the
    /// defaults and keeps nothing.
    fn lua_state(&mut self) -> Option<&mut LuaState> {
        None
    }

    /// `math.random`'s generator, when the host carries one from run to run (Redis has one
    /// for the whole server); otherwise each run starts from rand48's first state.
    fn rand48(&mut self) -> Option<&mut Rand48> {
        None
    }

    /// Whether a command line names a command this host knows (`redis.acl_check_cmd`); only
    /// the name is looked at unless the host knows subcommands.
    fn command_exists(&mut self, words: &[&[u8]]) -> bool {
        let _ = words;
        false
    }

    /// Asked every so many steps: true stops the script with Redis's "killed by user" error.
    /// A server answers SCRIPT KILL through it; in-process hosts never interrupt.
    fn interrupted(&mut self) -> bool {
        false
    }
}

/// The script's `KEYS` or `ARGV` as the caller passed them: read in place, without a copy,
/// until the script needs them as a real table.
pub trait ScriptInputs {
    /// How many items there are.
    fn count(&self) -> usize;
    /// Item `i` (0-based), `i < count()`.
    fn item(&self, i: usize) -> &[u8];

    /// Item `i` as a shared string for the script; a caller that keeps strings from earlier
    /// runs may hand back one with the same bytes instead of a fresh copy.
    fn shared_item(&self, i: usize) -> Arc<[u8]> {
        Arc::from(self.item(i))
    }
}

impl<A: AsRef<[u8]>> ScriptInputs for &[A] {
    fn count(&self) -> usize {
        self.len()
    }

    fn item(&self, i: usize) -> &[u8] {
        self[i].as_ref()
    }
}
