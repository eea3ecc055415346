//! The command table and dispatch: looks a command line's name up case-insensitively, checks
//! its arity as Redis does, and runs it — from a client, or from a script via `redis.call`,
//! where EVAL, SCRIPT and DEBUG are refused and errors take the scripting wording.

mod connection;
mod hashes;
mod keys;
pub(crate) mod scripting;
mod server;
mod strings;
mod zsets;

use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::reply::Reply;
use scripting::ScriptCache;

/// What a command returns: its reply, or the error it replies with.
pub(crate) type CommandResult = Result<Reply, CommandError>;

/// How a command runs.
#[derive(Clone, Copy)]
enum Handler {
    /// Reads or writes keys only; scripts may call it.
    Keys(fn(&mut Keyspace, &[&[u8]]) -> CommandResult),
    /// Needs the script cache too (EVAL, EVALSHA, SCRIPT).
    Scripting(fn(&mut Keyspace, &mut ScriptCache, &[&[u8]]) -> CommandResult),
}

/// One entry of the command table.
struct CommandSpec {
    /// Lowercase name, as arity errors print it.
    name: &'static str,
    /// Redis's arity: `n` exactly n words (name included), `-n` at least n.
    arity: i32,
    /// False for commands Redis flags `noscript`.
    allowed_in_scripts: bool,
    handler: Handler,
}

impl CommandSpec {
    fn accepts(&self, words: usize) -> bool {
        let words = i64::try_from(words).unwrap_or(i64::MAX);
        let arity = i64::from(self.arity);
        if arity >= 0 {
            words == arity
        } else {
            words >= -arity
        }
    }
}

const fn keys(
    name: &'static str,
    arity: i32,
    run: fn(&mut Keyspace, &[&[u8]]) -> CommandResult,
) -> CommandSpec {
    CommandSpec {
        name,
        arity,
        allowed_in_scripts: true,
        handler: Handler::Keys(run),
    }
}

/// Every command the store knows, with Redis 7.0's arities.
static COMMANDS: &[CommandSpec] = &[
    keys("get", 2, strings::get),
    keys("set", -3, strings::set),
    keys("mget", -2, strings::mget),
    keys("setnx", 3, strings::setnx),
    keys("incr", 2, strings::incr),
    keys("incrby", 3, strings::incrby),
    keys("decr", 2, strings::decr),
    keys("decrby", 3, strings::decrby),
    keys("del", -2, keys::del),
    keys("exists", -2, keys::exists),
    keys("type", 2, keys::type_of),
    keys("expire", -3, keys::expire),
    keys("pexpire", -3, keys::pexpire),
    keys("ttl", 2, keys::ttl),
    keys("pttl", 2, keys::pttl),
    keys("persist", 2, keys::persist),
    keys("hset", -4, hashes::hset),
    keys("hget", 3, hashes::hget),
    keys("hdel", -3, hashes::hdel),
    keys("hexists", 3, hashes::hexists),
    keys("hgetall", 2, hashes::hgetall),
    keys("hincrby", 4, hashes::hincrby),
    keys("hmget", -3, hashes::hmget),
    keys("hlen", 2, hashes::hlen),
    keys("hkeys", 2, hashes::hkeys),
    keys("hvals", 2, hashes::hvals),
    keys("hsetnx", 4, hashes::hsetnx),
    keys("zadd", -4, zsets::zadd),
    keys("zrem", -3, zsets::zrem),
    keys("zscore", 3, zsets::zscore),
    keys("zcard", 2, zsets::zcard),
    keys("zrange", -4, zsets::zrange),
    keys("zrangebyscore", -4, zsets::zrangebyscore),
    keys("zpopmin", -2, zsets::zpopmin),
    keys("zincrby", 4, zsets::zincrby),
    keys("zcount", 4, zsets::zcount),
    keys("zrank", 3, zsets::zrank),
    keys("zrevrank", 3, zsets::zrevrank),
    keys("zrevrange", -4, zsets::zrevrange),
    keys("zrevrangebyscore", -4, zsets::zrevrangebyscore),
    keys("ping", -1, connection::ping),
    keys("echo", 2, connection::echo),
    keys("flushall", -1, server::flushall),
    CommandSpec {
        name: "debug",
        arity: -2,
        allowed_in_scripts: false,
        handler: Handler::Keys(server::debug),
    },
    CommandSpec {
        name: "eval",
        arity: -3,
        allowed_in_scripts: false,
        handler: Handler::Scripting(scripting::eval),
    },
    CommandSpec {
        name: "evalsha",
        arity: -3,
        allowed_in_scripts: false,
        handler: Handler::Scripting(scripting::evalsha),
    },
    CommandSpec {
        name: "script",
        arity: -2,
        allowed_in_scripts: false,
        handler: Handler::Scripting(scripting::script),
    },
];

fn lookup(name: &[u8]) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|spec| {
        spec.name.len() == name.len() && name.eq_ignore_ascii_case(spec.name.as_bytes())
    })
}

/// Calls `run` with the arguments as byte slices, kept on the stack for short command lines
/// (nearly all of them), so a command costs no allocation before it runs.
pub(crate) fn with_words<A: AsRef<[u8]>, R>(args: &[A], run: impl FnOnce(&[&[u8]]) -> R) -> R {
    const INLINE: usize = 8;
    if args.len() <= INLINE {
        let mut words: [&[u8]; INLINE] = [&[]; INLINE];
        for (slot, arg) in words.iter_mut().zip(args) {
            *slot = arg.as_ref();
        }
        run(&words[..args.len()])
    } else {
        let words: Vec<&[u8]> = args.iter().map(AsRef::as_ref).collect();
        run(&words)
    }
}

/// Runs one command line from a client.
pub(crate) fn dispatch(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> Reply {
    let Some((name, args)) = words.split_first() else {
        return CommandError::UnknownCommand {
            name: Vec::new(),
            args: Vec::new(),
        }
        .into();
    };
    let Some(spec) = lookup(name) else {
        return CommandError::UnknownCommand {
            name: name.to_vec(),
            args: args.iter().map(|arg| arg.to_vec()).collect(),
        }
        .into();
    };
    if !spec.accepts(words.len()) {
        return CommandError::WrongArity { command: spec.name }.into();
    }
    let result = match spec.handler {
        Handler::Keys(run) => run(keyspace, words),
        Handler::Scripting(run) => run(keyspace, scripts, words),
    };
    result.unwrap_or_else(Reply::from)
}

/// Runs one `redis.call` from a script: same commands on the same keyspace, but EVAL, SCRIPT
/// and DEBUG are refused, and unknown commands and bad arity get the scripting wording.
pub(crate) fn dispatch_from_script(keyspace: &mut Keyspace, words: &[&[u8]]) -> Reply {
    let Some(spec) = words.first().and_then(|name| lookup(name)) else {
        return CommandError::UnknownFromScript.into();
    };
    if !spec.accepts(words.len()) {
        return CommandError::WrongArityFromScript.into();
    }
    match spec.handler {
        Handler::Keys(run) if spec.allowed_in_scripts => {
            run(keyspace, words).unwrap_or_else(Reply::from)
        }
        _ => CommandError::NotAllowedFromScript.into(),
    }
}
