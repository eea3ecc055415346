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

/// A table entry for a command that works on keys only and that scripts may call.
const fn keyed(
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
    keyed("get", 2, strings::get),
    keyed("set", -3, strings::set),
    keyed("mget", -2, strings::mget),
    keyed("setnx", 3, strings::setnx),
    keyed("incr", 2, strings::incr),
    keyed("incrby", 3, strings::incrby),
    keyed("decr", 2, strings::decr),
    keyed("decrby", 3, strings::decrby),
    keyed("del", -2, keys::del),
    keyed("exists", -2, keys::exists),
    keyed("type", 2, keys::type_of),
    keyed("expire", -3, keys::expire),
    keyed("pexpire", -3, keys::pexpire),
    keyed("ttl", 2, keys::ttl),
    keyed("pttl", 2, keys::pttl),
    keyed("persist", 2, keys::persist),
    keyed("hset", -4, hashes::hset),
    keyed("hget", 3, hashes::hget),
    keyed("hdel", -3, hashes::hdel),
    keyed("hexists", 3, hashes::hexists),
    keyed("hgetall", 2, hashes::hgetall),
    keyed("hincrby", 4, hashes::hincrby),
    keyed("hmget", -3, hashes::hmget),
    keyed("hlen", 2, hashes::hlen),
    keyed("hkeys", 2, hashes::hkeys),
    keyed("hvals", 2, hashes::hvals),
    keyed("hsetnx", 4, hashes::hsetnx),
    keyed("zadd", -4, zsets::zadd),
    keyed("zrem", -3, zsets::zrem),
    keyed("zscore", 3, zsets::zscore),
    keyed("zcard", 2, zsets::zcard),
    keyed("zrange", -4, zsets::zrange),
    keyed("zrangebyscore", -4, zsets::zrangebyscore),
    keyed("zpopmin", -2, zsets::zpopmin),
    keyed("zincrby", 4, zsets::zincrby),
    keyed("zcount", 4, zsets::zcount),
    keyed("zrank", 3, zsets::zrank),
    keyed("zrevrank", 3, zsets::zrevrank),
    keyed("zrevrange", -4, zsets::zrevrange),
    keyed("zrevrangebyscore", -4, zsets::zrevrangebyscore),
    keyed("ping", -1, connection::ping),
    keyed("echo", 2, connection::echo),
    keyed("flushall", -1, server::flushall),
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
