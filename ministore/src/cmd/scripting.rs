//! Scripting: EVAL, EVALSHA, their read-only forms EVAL_RO and EVALSHA_RO, and SCRIPT LOAD/EXISTS/FLUSH/KILL/HELP, the script cache keyed by
//! SHA1 hex, and the bridge that lets a running script's `redis.call` reach the same keyspace
//! (through [`CommandHost`]) while the cache itself stays out of the script's reach. Without
//! `full` the commands are left out: scripts run through the cache alone (`Store::eval`).

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

#[cfg(feature = "full")]
use super::libraries::Libraries;
#[cfg(feature = "full")]
use super::CommandResult;
#[cfg(feature = "full")]
use super::Subcommand;
use super::{dispatch_from_script, is_write_command};
#[cfg(feature = "full")]
use crate::args::{int_arg, is};
use crate::error::CommandError;
use crate::interrupt::ScriptInterrupt;
use crate::keybytes::put;
use crate::keyspace::{KeyHasher, Keyspace};
use crate::lua::{
    CommandHost, LuaState, Rand48, RunBuffers, Script, ScriptInputs, DEFAULT_STEP_BUDGET,
};
use crate::reply::Reply;

/// A SHA1 as 40 lowercase hex digits.
type ShaHex = [u8; 40];

/// Compiled scripts by SHA1 (lowercase hex, with the name as text beside each script for error
/// replies), and the step budget each run gets. The table is shared between clones of a store
/// (a schedule explorer clones one per step) and copied only when a clone caches a new script.
#[derive(Clone)]
pub(crate) struct ScriptCache {
    scripts: Arc<HashMap<ShaHex, Cached, BuildHasherDefault<KeyHasher>>>,
    step_budget: u64,
    /// The short KEYS and ARGV strings of the last run, by position.
    recent: [RecentInputs; 2],
    /// The call stack and chunk list of the last run, kept for their capacity.
    buffers: RunBuffers,
    /// Set when a server may stop running scripts from another thread.
    interrupt: Option<Arc<ScriptInterrupt>>,
    /// The function libraries (FUNCTION LOAD); SCRIPT FLUSH leaves them alone.
    #[cfg(feature = "full")]
    pub(crate) functions: Libraries,
    /// What EVAL's Lua interpreter keeps from one script to the next; SCRIPT FLUSH starts a
    /// new one.
    eval_lua: LuaState,
    /// The same for the function libraries' interpreter, which nothing resets.
    #[cfg(feature = "full")]
    functions_lua: LuaState,
    /// `math.random`'s generator, one for the store as Redis has one for the server: carried
    /// from script to script and function to function, and never reset.
    rand: Rand48,
}

impl ScriptCache {
    /// How many scripts are cached (INFO's `number_of_cached_scripts`).
    #[cfg(all(not(target_arch = "wasm32"), feature = "full"))]
    pub(crate) fn cached(&self) -> usize {
        self.scripts.len()
    }
}

impl Default for ScriptCache {
    fn default() -> Self {
        ScriptCache {
            scripts: Arc::default(),
            step_budget: DEFAULT_STEP_BUDGET,
            recent: Default::default(),
            buffers: RunBuffers::default(),
            interrupt: None,
            #[cfg(feature = "full")]
            functions: Default::default(),
            eval_lua: LuaState::default(),
            #[cfg(feature = "full")]
            functions_lua: LuaState::default(),
            rand: Rand48::default(),
        }
    }
}

/// One cached script: its SHA1 as text (for error replies), the compiled script, and whether
/// it starts with a `#!` line (then Redis holds it to its declared flags under EVAL_RO).
#[derive(Clone)]
struct Cached {
    sha: String,
    script: Script,
    shebang: bool,
}

/// Positions of KEYS/ARGV whose strings are kept between runs…
const RECENT_POSITIONS: usize = 8;
/// …when they are at most this long.
const RECENT_MAX_LEN: usize = 64;

/// The short strings a script was last given at each of the first KEYS or ARGV positions. Lua
/// interns its strings; here a run that passes the same bytes again (the same lock key and
/// token, the same queue names) gets the kept string instead of a fresh copy, so repeated
/// calls allocate nothing for their inputs.
type RecentInputs = Vec<Arc<[u8]>>;

/// KEYS or ARGV of one run, read in place, handing out kept strings where the bytes repeat.
struct InternedInputs<'a, A> {
    items: &'a [A],
    /// Moved in for the run and back out after it (a `Cell`: no borrow can fail).
    recent: Cell<RecentInputs>,
}

impl<A: AsRef<[u8]>> ScriptInputs for InternedInputs<'_, A> {
    fn count(&self) -> usize {
        self.items.len()
    }

    fn item(&self, i: usize) -> &[u8] {
        self.items[i].as_ref()
    }

    fn shared_item(&self, i: usize) -> Arc<[u8]> {
        let bytes = self.item(i);
        if i >= RECENT_POSITIONS || bytes.len() > RECENT_MAX_LEN {
            return Arc::from(bytes);
        }
        let mut recent = self.recent.take();
        let shared = match recent.get(i) {
            Some(kept) if **kept == *bytes => kept.clone(),
            _ => {
                let fresh: Arc<[u8]> = Arc::from(bytes);
                if recent.len() <= i {
                    recent.resize(i + 1, Arc::from(&[][..]));
                }
                recent[i] = fresh.clone();
                fresh
            }
        };
        self.recent.set(recent);
        shared
    }
}

/// The keyspace as a running script sees it: every `redis.call` is one command against it,
/// checked as Redis's scripting bridge checks it (see [`dispatch_from_script`]).
struct KeyspaceHost<'a> {
    keyspace: &'a mut Keyspace,
    /// The script declared `#!lua flags=no-writes`.
    read_only: bool,
    interrupt: Option<&'a ScriptInterrupt>,
    /// The state kept by the interpreter the run stands for (EVAL's or the functions').
    lua: &'a mut LuaState,
    /// The store's one `math.random` generator.
    rand: &'a mut Rand48,
}

impl CommandHost for KeyspaceHost<'_> {
    fn call(&mut self, words: &[&[u8]]) -> Reply {
        if let Some(interrupt) = self.interrupt {
            if words.first().is_some_and(|name| is_write_command(name)) {
                interrupt.mark_written();
            }
        }
        dispatch_from_script(self.keyspace, words, self.read_only)
    }

    fn lua_state(&mut self) -> Option<&mut LuaState> {
        Some(self.lua)
    }

    fn rand48(&mut self) -> Option<&mut Rand48> {
        Some(self.rand)
    }

    fn command_exists(&mut self, words: &[&[u8]]) -> bool {
        super::command_known(words)
    }

    fn interrupted(&mut self) -> bool {
        self.interrupt.is_some_and(ScriptInterrupt::kill_requested)
    }
}

/// The SHA1 of a script body in lowercase hex, as Redis names scripts.
fn script_sha(source: &[u8]) -> ShaHex {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut hex: ShaHex = [0; 40];
    let digest = sha1_smol::Sha1::from(source).digest().bytes();
    for (pair, byte) in hex.chunks_exact_mut(2).zip(digest) {
        pair[0] = HEX[usize::from(byte >> 4)];
        pair[1] = HEX[usize::from(byte & 0x0f)];
    }
    hex
}

impl ScriptCache {
    /// Sets the step budget of later runs.
    pub(crate) fn set_step_budget(&mut self, steps: u64) {
        self.step_budget = steps;
    }

    /// Lets another thread stop later runs through `interrupt`.
    pub(crate) fn set_interrupt(&mut self, interrupt: Arc<ScriptInterrupt>) {
        self.interrupt = Some(interrupt);
    }

    /// Compiles and caches `source` unless it is cached; its SHA1, or the compile error reply.
    pub(crate) fn load(&mut self, source: &[u8]) -> Result<String, Reply> {
        let key = script_sha(source);
        let sha: String = key.iter().copied().map(char::from).collect();
        if !self.scripts.contains_key(&key) {
            let script = Script::compile(source).map_err(|error| error.to_reply())?;
            // Copies the table only if a cloned store still shares it.
            Arc::make_mut(&mut self.scripts).insert(
                key,
                Cached {
                    sha: sha.clone(),
                    script,
                    shebang: source.starts_with(b"#!"),
                },
            );
        }
        Ok(sha)
    }

    /// Appends what later runs depend on: every cached script's SHA1, sorted; with `full` each
    /// function library's name, code and the state its calls keep, in load order (FUNCTION
    /// LIST's order), and what the functions' interpreter keeps; what EVAL's interpreter keeps;
    /// and `math.random`'s state.
    pub(crate) fn write_state_key(&self, out: &mut Vec<u8>) {
        let mut shas: Vec<&ShaHex> = self.scripts.keys().collect();
        crate::order::sort_by(&mut shas, |a, b| a.cmp(b));
        put(out, &(shas.len() as u64).to_le_bytes());
        for sha in shas {
            put(out, sha);
        }
        #[cfg(feature = "full")]
        {
            put(out, &(self.functions.loaded.len() as u64).to_le_bytes());
            for loaded in &self.functions.loaded {
                put(out, &loaded.name);
                put(out, &loaded.code);
                loaded.library.write_state_key(out);
            }
            self.functions_lua.write_key(out);
        }
        self.eval_lua.write_key(out);
        out.extend_from_slice(&self.rand.state().to_le_bytes());
    }

    /// SCRIPT FLUSH: forgets every cached script, and starts EVAL's interpreter afresh, as
    /// Redis makes a new one (`math.random`'s generator is not the interpreter's).
    #[cfg(feature = "full")]
    fn flush(&mut self) {
        self.scripts = Arc::default();
        self.eval_lua = LuaState::default();
    }

    /// Whether a script with this SHA1 (any case) is cached.
    #[cfg(feature = "full")]
    pub(crate) fn contains(&self, sha: &[u8]) -> bool {
        lowercase_sha(sha).is_some_and(|key| self.scripts.contains_key(&key))
    }

    /// Runs the cached script `sha` (any case) against `keyspace`; NOSCRIPT if it is not cached.
    /// `keys` and `argv` are passed through as borrowed: nothing is copied per call.
    pub(crate) fn run_cached<K: AsRef<[u8]>, V: AsRef<[u8]>>(
        &mut self,
        keyspace: &mut Keyspace,
        sha: &[u8],
        keys: &[K],
        argv: &[V],
    ) -> Reply {
        self.run_cached_as(keyspace, sha, keys, argv, false)
    }

    /// [`ScriptCache::run_cached`], read-only when `ro_command` (EVAL_RO, EVALSHA_RO): writes
    /// are refused, and a script whose `#!` line does not declare `no-writes` does not run.
    pub(crate) fn run_cached_as<K: AsRef<[u8]>, V: AsRef<[u8]>>(
        &mut self,
        keyspace: &mut Keyspace,
        sha: &[u8],
        keys: &[K],
        argv: &[V],
        ro_command: bool,
    ) -> Reply {
        let Some(cached) = lowercase_sha(sha).and_then(|key| self.scripts.get(&key)) else {
            return CommandError::NoScript.into();
        };
        let (sha, script) = (&cached.sha, &cached.script);
        if ro_command && cached.shebang && !script.is_read_only() {
            return CommandError::WriteFlagWithRoCommand.into();
        }
        let [recent_keys, recent_argv] = &mut self.recent;
        let keys = InternedInputs {
            items: keys,
            recent: Cell::new(std::mem::take(recent_keys)),
        };
        let argv = InternedInputs {
            items: argv,
            recent: Cell::new(std::mem::take(recent_argv)),
        };
        let mut host = KeyspaceHost {
            keyspace,
            read_only: script.is_read_only() || ro_command,
            interrupt: self.interrupt.as_deref(),
            lua: &mut self.eval_lua,
            rand: &mut self.rand,
        };
        let reply = script.run_reusing(
            sha,
            &keys,
            &argv,
            &mut host,
            self.step_budget,
            &mut self.buffers,
        );
        *recent_keys = keys.recent.into_inner();
        *recent_argv = argv.recent.into_inner();
        reply
    }

    /// Runs `function` of the library at position `library` (FCALL), read-only when the
    /// function is registered `no-writes` or `ro_command` (FCALL_RO).
    #[cfg(feature = "full")]
    pub(crate) fn run_function(
        &mut self,
        keyspace: &mut Keyspace,
        library: usize,
        function: &[u8],
        keys: &[&[u8]],
        argv: &[&[u8]],
        read_only: bool,
    ) -> Reply {
        let mut host = KeyspaceHost {
            keyspace,
            read_only,
            interrupt: self.interrupt.as_deref(),
            lua: &mut self.functions_lua,
            rand: &mut self.rand,
        };
        self.functions.library_mut(library).call(
            function,
            &keys,
            &argv,
            &mut host,
            self.step_budget,
        )
    }

    /// The step budget of a run (a library's load gets the same).
    #[cfg(feature = "full")]
    pub(crate) fn step_budget(&self) -> u64 {
        self.step_budget
    }

    /// Compiles (or finds) `source`, caches it, and runs it, as EVAL does.
    pub(crate) fn run_source<K: AsRef<[u8]>, V: AsRef<[u8]>>(
        &mut self,
        keyspace: &mut Keyspace,
        source: &[u8],
        keys: &[K],
        argv: &[V],
    ) -> Reply {
        self.run_source_as(keyspace, source, keys, argv, false)
    }

    /// [`ScriptCache::run_source`], read-only when `ro_command` (EVAL_RO).
    fn run_source_as<K: AsRef<[u8]>, V: AsRef<[u8]>>(
        &mut self,
        keyspace: &mut Keyspace,
        source: &[u8],
        keys: &[K],
        argv: &[V],
        ro_command: bool,
    ) -> Reply {
        match self.load(source) {
            Ok(sha) => self.run_cached_as(keyspace, sha.as_bytes(), keys, argv, ro_command),
            Err(compile_error) => compile_error,
        }
    }
}

/// `sha` lowercased into a fixed array, if it is 40 bytes long.
fn lowercase_sha(sha: &[u8]) -> Option<ShaHex> {
    let mut lower: ShaHex = [0; 40];
    if sha.len() != lower.len() {
        return None;
    }
    for (slot, byte) in lower.iter_mut().zip(sha) {
        *slot = byte.to_ascii_lowercase();
    }
    Some(lower)
}

/// A script's `KEYS` and `ARGV`, borrowed from the command line.
#[cfg(feature = "full")]
type KeysAndArgv<'w, 'b> = (&'w [&'b [u8]], &'w [&'b [u8]]);

/// Splits `numkeys key... arg...` (from `words[2]` on) into KEYS and ARGV, without copying.
#[cfg(feature = "full")]
fn keys_and_argv<'w, 'b>(words: &'w [&'b [u8]]) -> Result<KeysAndArgv<'w, 'b>, CommandError> {
    let numkeys = int_arg(words[2])?;
    let available = words.len() - 3;
    if numkeys < 0 {
        return Err(CommandError::NegativeKeyCount);
    }
    let numkeys = usize::try_from(numkeys).map_err(|_| CommandError::TooManyKeys)?;
    if numkeys > available {
        return Err(CommandError::TooManyKeys);
    }
    Ok(words[3..].split_at(numkeys))
}

/// `EVAL script numkeys [key ...] [arg ...]`
#[cfg(feature = "full")]
pub(crate) fn eval(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> CommandResult {
    let (keys, argv) = keys_and_argv(words)?;
    Ok(scripts.run_source(keyspace, words[1], keys, argv))
}

/// `EVALSHA sha1 numkeys [key ...] [arg ...]` — a SHA that is not 40 characters long is
/// NOSCRIPT before anything else is checked.
#[cfg(feature = "full")]
pub(crate) fn evalsha(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> CommandResult {
    if words[1].len() != 40 {
        return Err(CommandError::NoScript);
    }
    let (keys, argv) = keys_and_argv(words)?;
    Ok(scripts.run_cached(keyspace, words[1], keys, argv))
}

/// `EVAL_RO script numkeys [key ...] [arg ...]` — EVAL whose script may not write.
#[cfg(feature = "full")]
pub(crate) fn eval_ro(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> CommandResult {
    let (keys, argv) = keys_and_argv(words)?;
    Ok(scripts.run_source_as(keyspace, words[1], keys, argv, true))
}

/// `EVALSHA_RO sha1 numkeys [key ...] [arg ...]` — EVALSHA whose script may not write.
#[cfg(feature = "full")]
pub(crate) fn evalsha_ro(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> CommandResult {
    if words[1].len() != 40 {
        return Err(CommandError::NoScript);
    }
    let (keys, argv) = keys_and_argv(words)?;
    Ok(scripts.run_cached_as(keyspace, words[1], keys, argv, true))
}

/// SCRIPT's subcommands with their arities; a script may call only HELP. SCRIPT DEBUG (Lua's
/// debugger) is not implemented: it is here so that MULTI queues it and a script is refused it
/// as in Redis, and when run it answers as an unknown subcommand.
#[cfg(feature = "full")]
pub(super) const SUBCOMMANDS: &[Subcommand] = &[
    Subcommand {
        name: "debug",
        full: "script|debug",
        arity: 3,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "load",
        full: "script|load",
        arity: 3,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "exists",
        full: "script|exists",
        arity: -3,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "flush",
        full: "script|flush",
        arity: -2,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "kill",
        full: "script|kill",
        arity: 2,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "help",
        full: "script|help",
        arity: 2,
        allowed_in_scripts: true,
    },
];

/// The lines of `SCRIPT HELP`, as Redis 7.0 prints them.
#[cfg(feature = "full")]
const HELP: &[&str] = &[
    "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "DEBUG (YES|SYNC|NO)",
    "    Set the debug mode for subsequent scripts executed.",
    "EXISTS <sha1> [<sha1> ...]",
    "    Return information about the existence of the scripts in the script cache.",
    "FLUSH [ASYNC|SYNC]",
    "    Flush the Lua scripts cache. Very dangerous on replicas.",
    "    When called without the optional mode argument, the behavior is determined by the",
    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
    "    * ASYNC: Asynchronously flush the scripts cache.",
    "    * SYNC: Synchronously flush the scripts cache.",
    "KILL",
    "    Kill the currently executing Lua script.",
    "LOAD <script>",
    "    Load a script into the scripts cache without executing it.",
    "HELP",
    "    Prints this help.",
];

/// `SCRIPT LOAD|EXISTS|FLUSH|KILL|HELP …`
#[cfg(feature = "full")]
pub(crate) fn script(
    _: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> CommandResult {
    match super::subcommand("SCRIPT", SUBCOMMANDS, words)?.name {
        "load" => Ok(match scripts.load(words[2]) {
            Ok(sha) => Reply::Bulk(sha.into_bytes()),
            Err(compile_error) => compile_error,
        }),
        "exists" => Ok(Reply::Array(
            words[2..]
                .iter()
                .map(|sha| Reply::Integer(i64::from(scripts.contains(sha))))
                .collect(),
        )),
        "flush" => match words {
            [_, _] => {
                scripts.flush();
                Ok(Reply::ok())
            }
            [_, _, mode] if is(mode, "sync") || is(mode, "async") => {
                scripts.flush();
                Ok(Reply::ok())
            }
            _ => Err(CommandError::ScriptFlushOption),
        },
        "kill" => Err(CommandError::NotBusy),
        "debug" => Err(CommandError::UnknownSubcommand {
            container: "SCRIPT",
            sub: words[1].to_vec(),
        }),
        _ => Ok(help()),
    }
}

/// `SCRIPT HELP`'s reply.
#[cfg(feature = "full")]
pub(super) fn help() -> Reply {
    super::help_reply(HELP)
}
