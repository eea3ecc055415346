//! The command table and dispatch: looks a command line's name up case-insensitively, checks
//! its arity as Redis does, and runs it — from a client (in its session's database, queued
//! while the session is in MULTI), or from a script via `redis.call`, where EVAL, SCRIPT,
//! DEBUG and the transaction commands are refused and errors take the scripting wording.

#[cfg(feature = "full")]
pub(crate) mod blocking;
#[cfg(feature = "full")]
mod connection;
#[cfg(feature = "full")]
mod databases;
#[cfg(feature = "full")]
pub(crate) mod functions;
#[cfg(feature = "full")]
pub(crate) mod hashes;
#[cfg(feature = "full")]
mod key_listing;
mod keys;
#[cfg(feature = "full")]
mod lcs;
#[cfg(feature = "full")]
pub(crate) mod libraries;
#[cfg(feature = "full")]
mod list_search;
#[cfg(feature = "full")]
mod lists;
#[cfg(feature = "full")]
mod object;
#[cfg(feature = "full")]
pub(crate) mod scan;
pub(crate) mod scripting;
#[cfg(feature = "full")]
pub(crate) mod server;
#[cfg(feature = "full")]
mod set_algebra;
#[cfg(feature = "full")]
mod sets;
#[cfg(feature = "full")]
mod sort;
#[cfg(feature = "full")]
mod string_ranges;
mod strings;
#[cfg(feature = "full")]
mod transactions;
#[cfg(feature = "full")]
mod zsets;

use std::sync::OnceLock;

use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::reply::Reply;
use crate::session::Session;
#[cfg(feature = "full")]
use blocking::Wait;
use scripting::ScriptCache;

/// What a command returns: its reply, or the error it replies with.
pub(crate) type CommandResult = Result<Reply, CommandError>;

/// How a command runs.
#[derive(Clone, Copy)]
enum Handler {
    /// Reads or writes keys only; scripts may call it.
    Keys(fn(&mut Keyspace, &[&[u8]]) -> CommandResult),
    /// Needs the script cache too (EVAL, EVALSHA, SCRIPT, FUNCTION, FCALL: all `full`'s).
    Scripting(fn(&mut Keyspace, &mut ScriptCache, &[&[u8]]) -> CommandResult),
    /// May block (BLPOP…, BZPOPMIN…): told whether it may wait, see `blocking.rs`.
    #[cfg(feature = "full")]
    Blocking(fn(&mut Keyspace, &[&[u8]], Wait) -> CommandResult),
    /// Works on the client's session (MULTI, EXEC, DISCARD, WATCH, UNWATCH); inside MULTI
    /// only UNWATCH is queued (see [`runs_inside_multi`]).
    #[cfg(feature = "full")]
    Session(fn(&mut Keyspace, &mut ScriptCache, &mut Session, &[&[u8]]) -> CommandResult),
}

/// One entry of the command table.
struct CommandSpec {
    /// Lowercase name, as arity errors print it.
    name: &'static str,
    /// Redis's arity: `n` exactly n words (name included), `-n` at least n.
    arity: i32,
    /// False for commands Redis flags `noscript`.
    allowed_in_scripts: bool,
    /// True for commands Redis flags `write`: a `no-writes` script may not call them.
    writes: bool,
    handler: Handler,
}

impl CommandSpec {
    fn accepts(&self, words: usize) -> bool {
        arity_fits(self.arity, words)
    }
}

/// One subcommand of a container command (OBJECT, SCRIPT, FUNCTION), as Redis's command table
/// has it: Redis looks it up, checks its arity and its flags before running anything, so an
/// unknown one or a wrong count is refused while MULTI queues and before a script's call runs.
#[cfg(feature = "full")]
pub(crate) struct Subcommand {
    /// Lowercase, as it is matched.
    pub(crate) name: &'static str,
    /// `container|name`, as arity errors print it.
    pub(crate) full: &'static str,
    /// Redis's arity, counting the container and the subcommand.
    pub(crate) arity: i32,
    /// False for subcommands Redis flags `noscript`.
    pub(crate) allowed_in_scripts: bool,
}

/// The subcommand `words` names in `container`'s `table`, with Redis's errors for an unknown
/// one and for the wrong number of arguments.
#[cfg(feature = "full")]
pub(crate) fn subcommand(
    container: &'static str,
    table: &'static [Subcommand],
    words: &[&[u8]],
) -> Result<&'static Subcommand, CommandError> {
    let sub = words.get(1).copied().unwrap_or_default();
    let found = find_subcommand(table, sub).ok_or_else(|| CommandError::UnknownSubcommand {
        container,
        sub: sub.to_vec(),
    })?;
    if !arity_fits(found.arity, words.len()) {
        return Err(CommandError::WrongArity {
            command: found.full,
        });
    }
    Ok(found)
}

/// The subcommand named `sub` (any case) in `table`.
#[cfg(feature = "full")]
fn find_subcommand(table: &'static [Subcommand], sub: &[u8]) -> Option<&'static Subcommand> {
    table
        .iter()
        .find(|s| sub.eq_ignore_ascii_case(s.name.as_bytes()))
}

/// A container's HELP: its lines as status replies.
#[cfg(feature = "full")]
pub(crate) fn help_reply(lines: &[&str]) -> Reply {
    Reply::Array(
        lines
            .iter()
            .map(|line| Reply::Status(line.to_string()))
            .collect(),
    )
}

/// A container command's name in its errors (`OBJECT`) and its subcommands.
#[cfg(feature = "full")]
fn container_of(spec: &CommandSpec) -> Option<(&'static str, &'static [Subcommand])> {
    match spec.name {
        "object" => Some(("OBJECT", object::SUBCOMMANDS)),
        "script" => Some(("SCRIPT", scripting::SUBCOMMANDS)),
        "function" => Some(("FUNCTION", functions::SUBCOMMANDS)),
        _ => None,
    }
}

/// Whether a line of `words` words (name included) fits Redis's `arity`.
fn arity_fits(arity: i32, words: usize) -> bool {
    let words = i64::try_from(words).unwrap_or(i64::MAX);
    let arity = i64::from(arity);
    if arity >= 0 {
        words == arity
    } else {
        words >= -arity
    }
}

/// A container's subcommands with their arities (counting the container and the subcommand).
#[cfg(feature = "full")]
type Subcommands = &'static [(&'static str, i32)];

/// Redis 7.0 commands ministore does not run and Redis flags `noscript`, with their arities:
/// a script calling one gets Redis's refusal rather than "unknown command". A container lists
/// the subcommands Redis refuses; its others, which Redis runs from a script (HELP, and every
/// CLUSTER subcommand but RESET), are unknown here, as the whole command is to a client.
#[cfg(feature = "full")]
const REFUSED_FROM_SCRIPTS: &[(&str, i32, Subcommands)] = &[
    (
        "acl",
        -2,
        &[
            ("cat", -2),
            ("deluser", -3),
            ("dryrun", -4),
            ("genpass", -2),
            ("getuser", 3),
            ("list", 2),
            ("load", 2),
            ("log", -2),
            ("save", 2),
            ("setuser", -3),
            ("users", 2),
            ("whoami", 2),
        ],
    ),
    ("auth", -2, &[]),
    ("bgrewriteaof", 1, &[]),
    ("bgsave", -1, &[]),
    ("cluster", -2, &[("reset", -2)]),
    (
        "client",
        -2,
        &[
            ("caching", 3),
            ("getname", 2),
            ("getredir", 2),
            ("id", 2),
            ("info", 2),
            ("kill", -3),
            ("list", -2),
            ("no-evict", 3),
            ("pause", -3),
            ("reply", 3),
            ("setname", 3),
            ("tracking", -3),
            ("trackinginfo", 2),
            ("unblock", -3),
            ("unpause", 2),
        ],
    ),
    (
        "config",
        -2,
        &[("get", -3), ("resetstat", 2), ("rewrite", 2), ("set", -4)],
    ),
    ("failover", -1, &[]),
    ("hello", -1, &[]),
    (
        "latency",
        -2,
        &[
            ("doctor", 2),
            ("graph", 3),
            ("histogram", -2),
            ("history", 3),
            ("latest", 2),
            ("reset", -2),
        ],
    ),
    (
        "module",
        -2,
        &[("list", 2), ("load", -3), ("loadex", -3), ("unload", 3)],
    ),
    ("monitor", 1, &[]),
    ("psubscribe", -2, &[]),
    ("psync", -3, &[]),
    ("punsubscribe", -1, &[]),
    ("quit", -1, &[]),
    ("replconf", -1, &[]),
    ("replicaof", 3, &[]),
    ("reset", 1, &[]),
    ("role", 1, &[]),
    ("save", 1, &[]),
    ("shutdown", -1, &[]),
    ("slaveof", 3, &[]),
    ("ssubscribe", -2, &[]),
    ("subscribe", -2, &[]),
    ("sunsubscribe", -1, &[]),
    ("sync", 1, &[]),
    ("unsubscribe", -1, &[]),
    ("wait", 3, &[]),
];

/// A script's `redis.call` of a command ministore lacks: Redis's arity error or refusal for a
/// command it refuses in scripts, "unknown command" otherwise (as Redis looks a container's
/// subcommand up before its arity).
fn missing_from_script(words: &[&[u8]]) -> Reply {
    #[cfg(feature = "full")]
    {
        let refused = words.first().and_then(|name| {
            REFUSED_FROM_SCRIPTS
                .iter()
                .find(|(known, ..)| name.eq_ignore_ascii_case(known.as_bytes()))
        });
        if let Some(&(_, arity, subcommands)) = refused {
            let arity = match words.get(1) {
                Some(sub) if !subcommands.is_empty() => {
                    match subcommands
                        .iter()
                        .find(|(known, _)| sub.eq_ignore_ascii_case(known.as_bytes()))
                    {
                        Some(&(_, arity)) => arity,
                        None => return CommandError::UnknownFromScript.into(),
                    }
                }
                _ => arity,
            };
            return if arity_fits(arity, words.len()) {
                CommandError::NotAllowedFromScript.into()
            } else {
                CommandError::WrongArityFromScript.into()
            };
        }
    }
    let _ = words;
    CommandError::UnknownFromScript.into()
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
        writes: false,
        handler: Handler::Keys(run),
    }
}

/// A table entry for a command that writes keys (Redis's `write` flag).
const fn writing(
    name: &'static str,
    arity: i32,
    run: fn(&mut Keyspace, &[&[u8]]) -> CommandResult,
) -> CommandSpec {
    CommandSpec {
        writes: true,
        ..keyed(name, arity, run)
    }
}

/// A table entry for a transaction command: runs on the session, never from a script.
#[cfg(feature = "full")]
const fn transaction(
    name: &'static str,
    arity: i32,
    run: fn(&mut Keyspace, &mut ScriptCache, &mut Session, &[&[u8]]) -> CommandResult,
) -> CommandSpec {
    CommandSpec {
        name,
        arity,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Session(run),
    }
}

/// A table entry for a blocking command (`write` and `blocking` in Redis); `in_scripts` is
/// false for the ones Redis 7.0 also flags `noscript` (all but BLMPOP and BZMPOP).
#[cfg(feature = "full")]
const fn blocking(
    name: &'static str,
    arity: i32,
    in_scripts: bool,
    run: fn(&mut Keyspace, &[&[u8]], Wait) -> CommandResult,
) -> CommandSpec {
    CommandSpec {
        name,
        arity,
        allowed_in_scripts: in_scripts,
        writes: true,
        handler: Handler::Blocking(run),
    }
}

/// Every command the store knows, with Redis 7.0's arities. Without the `full` feature only what
/// the page's figures send is here — GET, SET, DEL and PTTL, from figure 1 and from the two
/// scripts the figures run through `Store::eval` (not EVAL): any other name is an unknown
/// command, as in Redis.
static COMMANDS: &[CommandSpec] = &[
    keyed("get", 2, strings::get),
    writing("set", -3, strings::set),
    #[cfg(feature = "full")]
    keyed("mget", -2, strings::mget),
    #[cfg(feature = "full")]
    writing("setnx", 3, strings::setnx),
    #[cfg(feature = "full")]
    writing("incr", 2, strings::incr),
    #[cfg(feature = "full")]
    writing("incrby", 3, strings::incrby),
    #[cfg(feature = "full")]
    writing("decr", 2, strings::decr),
    #[cfg(feature = "full")]
    writing("decrby", 3, strings::decrby),
    #[cfg(feature = "full")]
    writing("setex", 4, strings::setex),
    #[cfg(feature = "full")]
    writing("psetex", 4, strings::psetex),
    #[cfg(feature = "full")]
    writing("mset", -3, strings::mset),
    #[cfg(feature = "full")]
    writing("msetnx", -3, strings::msetnx),
    #[cfg(feature = "full")]
    writing("getset", 3, strings::getset),
    #[cfg(feature = "full")]
    writing("getdel", 2, strings::getdel),
    #[cfg(feature = "full")]
    writing("getex", -2, strings::getex),
    #[cfg(feature = "full")]
    writing("incrbyfloat", 3, strings::incrbyfloat),
    #[cfg(feature = "full")]
    writing("append", 3, string_ranges::append),
    #[cfg(feature = "full")]
    keyed("strlen", 2, string_ranges::strlen),
    #[cfg(feature = "full")]
    keyed("getrange", 4, string_ranges::getrange),
    #[cfg(feature = "full")]
    keyed("substr", 4, string_ranges::getrange),
    #[cfg(feature = "full")]
    writing("setrange", 4, string_ranges::setrange),
    #[cfg(feature = "full")]
    keyed("lcs", -3, lcs::lcs),
    writing("del", -2, keys::del),
    #[cfg(feature = "full")]
    keyed("exists", -2, keys::exists),
    #[cfg(feature = "full")]
    keyed("type", 2, keys::type_of),
    #[cfg(feature = "full")]
    writing("expire", -3, keys::expire),
    #[cfg(feature = "full")]
    writing("pexpire", -3, keys::pexpire),
    #[cfg(feature = "full")]
    keyed("ttl", 2, keys::ttl),
    keyed("pttl", 2, keys::pttl),
    #[cfg(feature = "full")]
    writing("persist", 2, keys::persist),
    #[cfg(feature = "full")]
    writing("unlink", -2, keys::del),
    #[cfg(feature = "full")]
    keyed("touch", -2, keys::touch),
    #[cfg(feature = "full")]
    writing("rename", 3, keys::rename),
    #[cfg(feature = "full")]
    writing("renamenx", 3, keys::renamenx),
    #[cfg(feature = "full")]
    writing("copy", -3, keys::copy),
    #[cfg(feature = "full")]
    writing("expireat", -3, keys::expireat),
    #[cfg(feature = "full")]
    writing("pexpireat", -3, keys::pexpireat),
    #[cfg(feature = "full")]
    keyed("expiretime", 2, keys::expiretime),
    #[cfg(feature = "full")]
    keyed("pexpiretime", 2, keys::pexpiretime),
    #[cfg(feature = "full")]
    keyed("keys", 2, key_listing::keys),
    #[cfg(feature = "full")]
    keyed("scan", -2, key_listing::scan),
    #[cfg(feature = "full")]
    keyed("randomkey", 1, key_listing::randomkey),
    #[cfg(feature = "full")]
    keyed("object", -2, object::object),
    #[cfg(feature = "full")]
    writing("sort", -2, sort::sort),
    #[cfg(feature = "full")]
    keyed("sort_ro", -2, sort::sort_ro),
    #[cfg(feature = "full")]
    writing("hset", -4, hashes::hset),
    #[cfg(feature = "full")]
    keyed("hget", 3, hashes::hget),
    #[cfg(feature = "full")]
    writing("hdel", -3, hashes::hdel),
    #[cfg(feature = "full")]
    keyed("hexists", 3, hashes::hexists),
    #[cfg(feature = "full")]
    keyed("hgetall", 2, hashes::hgetall),
    #[cfg(feature = "full")]
    writing("hincrby", 4, hashes::hincrby),
    #[cfg(feature = "full")]
    keyed("hmget", -3, hashes::hmget),
    #[cfg(feature = "full")]
    keyed("hlen", 2, hashes::hlen),
    #[cfg(feature = "full")]
    keyed("hkeys", 2, hashes::hkeys),
    #[cfg(feature = "full")]
    keyed("hvals", 2, hashes::hvals),
    #[cfg(feature = "full")]
    writing("hsetnx", 4, hashes::hsetnx),
    #[cfg(feature = "full")]
    writing("hmset", -4, hashes::hmset),
    #[cfg(feature = "full")]
    keyed("hstrlen", 3, hashes::hstrlen),
    #[cfg(feature = "full")]
    writing("hincrbyfloat", 4, hashes::hincrbyfloat),
    #[cfg(feature = "full")]
    keyed("hrandfield", -2, hashes::hrandfield),
    #[cfg(feature = "full")]
    keyed("hscan", -3, hashes::hscan),
    #[cfg(feature = "full")]
    writing("lpush", -3, lists::lpush),
    #[cfg(feature = "full")]
    writing("rpush", -3, lists::rpush),
    #[cfg(feature = "full")]
    writing("lpushx", -3, lists::lpushx),
    #[cfg(feature = "full")]
    writing("rpushx", -3, lists::rpushx),
    #[cfg(feature = "full")]
    writing("lpop", -2, lists::lpop),
    #[cfg(feature = "full")]
    writing("rpop", -2, lists::rpop),
    #[cfg(feature = "full")]
    keyed("llen", 2, lists::llen),
    #[cfg(feature = "full")]
    keyed("lrange", 4, lists::lrange),
    #[cfg(feature = "full")]
    keyed("lindex", 3, lists::lindex),
    #[cfg(feature = "full")]
    writing("lset", 4, lists::lset),
    #[cfg(feature = "full")]
    writing("linsert", 5, lists::linsert),
    #[cfg(feature = "full")]
    writing("lrem", 4, lists::lrem),
    #[cfg(feature = "full")]
    writing("ltrim", 4, lists::ltrim),
    #[cfg(feature = "full")]
    keyed("lpos", -3, list_search::lpos),
    #[cfg(feature = "full")]
    writing("lmove", 5, lists::lmove),
    #[cfg(feature = "full")]
    writing("rpoplpush", 3, lists::rpoplpush),
    #[cfg(feature = "full")]
    writing("lmpop", -4, lists::lmpop),
    #[cfg(feature = "full")]
    blocking("blpop", -3, false, blocking::blpop),
    #[cfg(feature = "full")]
    blocking("brpop", -3, false, blocking::brpop),
    #[cfg(feature = "full")]
    blocking("blmove", 6, false, blocking::blmove),
    #[cfg(feature = "full")]
    blocking("brpoplpush", 4, false, blocking::brpoplpush),
    #[cfg(feature = "full")]
    blocking("blmpop", -5, true, blocking::blmpop),
    #[cfg(feature = "full")]
    writing("sadd", -3, sets::sadd),
    #[cfg(feature = "full")]
    writing("srem", -3, sets::srem),
    #[cfg(feature = "full")]
    keyed("scard", 2, sets::scard),
    #[cfg(feature = "full")]
    keyed("sismember", 3, sets::sismember),
    #[cfg(feature = "full")]
    keyed("smismember", -3, sets::smismember),
    #[cfg(feature = "full")]
    keyed("smembers", 2, sets::smembers),
    #[cfg(feature = "full")]
    keyed("sinter", -2, set_algebra::sinter),
    #[cfg(feature = "full")]
    keyed("sunion", -2, set_algebra::sunion),
    #[cfg(feature = "full")]
    keyed("sdiff", -2, set_algebra::sdiff),
    #[cfg(feature = "full")]
    writing("sinterstore", -3, set_algebra::sinterstore),
    #[cfg(feature = "full")]
    writing("sunionstore", -3, set_algebra::sunionstore),
    #[cfg(feature = "full")]
    writing("sdiffstore", -3, set_algebra::sdiffstore),
    #[cfg(feature = "full")]
    keyed("sintercard", -3, set_algebra::sintercard),
    #[cfg(feature = "full")]
    writing("smove", 4, sets::smove),
    #[cfg(feature = "full")]
    writing("spop", -2, sets::spop),
    #[cfg(feature = "full")]
    keyed("srandmember", -2, sets::srandmember),
    #[cfg(feature = "full")]
    keyed("sscan", -3, sets::sscan),
    #[cfg(feature = "full")]
    writing("zadd", -4, zsets::zadd),
    #[cfg(feature = "full")]
    writing("zrem", -3, zsets::zrem),
    #[cfg(feature = "full")]
    keyed("zscore", 3, zsets::zscore),
    #[cfg(feature = "full")]
    keyed("zmscore", -3, zsets::zmscore),
    #[cfg(feature = "full")]
    keyed("zcard", 2, zsets::zcard),
    #[cfg(feature = "full")]
    writing("zincrby", 4, zsets::zincrby),
    #[cfg(feature = "full")]
    keyed("zcount", 4, zsets::zcount),
    #[cfg(feature = "full")]
    keyed("zrank", 3, zsets::zrank),
    #[cfg(feature = "full")]
    keyed("zrevrank", 3, zsets::zrevrank),
    #[cfg(feature = "full")]
    keyed("zrange", -4, zsets::range::zrange),
    #[cfg(feature = "full")]
    keyed("zrangebyscore", -4, zsets::range::zrangebyscore),
    #[cfg(feature = "full")]
    keyed("zrevrange", -4, zsets::range::zrevrange),
    #[cfg(feature = "full")]
    keyed("zrevrangebyscore", -4, zsets::range::zrevrangebyscore),
    #[cfg(feature = "full")]
    keyed("zrangebylex", -4, zsets::range::zrangebylex),
    #[cfg(feature = "full")]
    keyed("zrevrangebylex", -4, zsets::range::zrevrangebylex),
    #[cfg(feature = "full")]
    writing("zrangestore", -5, zsets::range::zrangestore),
    #[cfg(feature = "full")]
    keyed("zlexcount", 4, zsets::range::zlexcount),
    #[cfg(feature = "full")]
    writing("zremrangebyrank", 4, zsets::range::zremrangebyrank),
    #[cfg(feature = "full")]
    writing("zremrangebyscore", 4, zsets::range::zremrangebyscore),
    #[cfg(feature = "full")]
    writing("zremrangebylex", 4, zsets::range::zremrangebylex),
    #[cfg(feature = "full")]
    writing("zpopmin", -2, zsets::pop::zpopmin),
    #[cfg(feature = "full")]
    writing("zpopmax", -2, zsets::pop::zpopmax),
    #[cfg(feature = "full")]
    writing("zmpop", -4, zsets::pop::zmpop),
    #[cfg(feature = "full")]
    blocking("bzpopmin", -3, false, zsets::pop::bzpopmin),
    #[cfg(feature = "full")]
    blocking("bzpopmax", -3, false, zsets::pop::bzpopmax),
    #[cfg(feature = "full")]
    blocking("bzmpop", -5, true, zsets::pop::bzmpop),
    #[cfg(feature = "full")]
    keyed("zrandmember", -2, zsets::pop::zrandmember),
    #[cfg(feature = "full")]
    keyed("zscan", -3, zsets::pop::zscan),
    #[cfg(feature = "full")]
    keyed("zunion", -3, zsets::setops::zunion),
    #[cfg(feature = "full")]
    keyed("zinter", -3, zsets::setops::zinter),
    #[cfg(feature = "full")]
    keyed("zdiff", -3, zsets::setops::zdiff),
    #[cfg(feature = "full")]
    keyed("zintercard", -3, zsets::setops::zintercard),
    #[cfg(feature = "full")]
    writing("zunionstore", -4, zsets::setops::zunionstore),
    #[cfg(feature = "full")]
    writing("zinterstore", -4, zsets::setops::zinterstore),
    #[cfg(feature = "full")]
    writing("zdiffstore", -4, zsets::setops::zdiffstore),
    #[cfg(feature = "full")]
    keyed("time", 1, server::time),
    // PUBLISH and SPUBLISH are not writes, but Redis flags them `may-replicate`, which
    // read-only scripts refuse.
    #[cfg(feature = "full")]
    writing("publish", 3, server::publish),
    #[cfg(feature = "full")]
    writing("spublish", 3, server::spublish),
    #[cfg(feature = "full")]
    keyed("ping", -1, connection::ping),
    #[cfg(feature = "full")]
    keyed("echo", 2, connection::echo),
    #[cfg(feature = "full")]
    writing("flushall", -1, databases::flushall),
    #[cfg(feature = "full")]
    writing("flushdb", -1, databases::flushdb),
    #[cfg(feature = "full")]
    keyed("select", 2, databases::select),
    #[cfg(feature = "full")]
    keyed("dbsize", 1, databases::dbsize),
    #[cfg(feature = "full")]
    writing("swapdb", 3, databases::swapdb),
    #[cfg(feature = "full")]
    writing("move", 3, databases::move_key),
    #[cfg(feature = "full")]
    transaction("multi", 1, transactions::multi),
    #[cfg(feature = "full")]
    transaction("exec", 1, transactions::exec),
    #[cfg(feature = "full")]
    transaction("discard", 1, transactions::discard),
    #[cfg(feature = "full")]
    transaction("watch", -2, transactions::watch),
    #[cfg(feature = "full")]
    transaction("unwatch", 1, transactions::unwatch),
    #[cfg(feature = "full")]
    CommandSpec {
        name: "debug",
        arity: -2,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Keys(server::debug),
    },
    #[cfg(feature = "full")]
    CommandSpec {
        name: "eval",
        arity: -3,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Scripting(scripting::eval),
    },
    #[cfg(feature = "full")]
    CommandSpec {
        name: "function",
        arity: -2,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Scripting(functions::function),
    },
    #[cfg(feature = "full")]
    CommandSpec {
        name: "fcall",
        arity: -3,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Scripting(functions::fcall),
    },
    #[cfg(feature = "full")]
    CommandSpec {
        name: "fcall_ro",
        arity: -3,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Scripting(functions::fcall_ro),
    },
    #[cfg(feature = "full")]
    CommandSpec {
        name: "eval_ro",
        arity: -3,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Scripting(scripting::eval_ro),
    },
    #[cfg(feature = "full")]
    CommandSpec {
        name: "evalsha_ro",
        arity: -3,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Scripting(scripting::evalsha_ro),
    },
    #[cfg(feature = "full")]
    CommandSpec {
        name: "evalsha",
        arity: -3,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Scripting(scripting::evalsha),
    },
    #[cfg(feature = "full")]
    CommandSpec {
        name: "script",
        arity: -2,
        allowed_in_scripts: false,
        writes: false,
        handler: Handler::Scripting(scripting::script),
    },
];

/// Open-addressed slots over [`COMMANDS`] (index + 1; 0 is empty), built on first use: a
/// lookup is one short probe sequence instead of a scan or a general-purpose hash.
struct CommandIndex {
    slots: [u16; INDEX_SLOTS],
}

/// Room for the command table at most half full, so probe runs stay short.
const INDEX_SLOTS: usize = 1024;

/// Where a (lowercase, non-empty) name starts probing: its first and last bytes and its length
/// already tell the table's names apart almost everywhere.
fn first_slot(name: &[u8]) -> usize {
    let first = usize::from(name[0]);
    let last = usize::from(name[name.len() - 1]);
    (first * 31 + last * 7 + name.len() * 131) % INDEX_SLOTS
}

impl CommandIndex {
    fn build() -> CommandIndex {
        let mut slots = [0u16; INDEX_SLOTS];
        for (i, spec) in COMMANDS.iter().enumerate() {
            let mut slot = first_slot(spec.name.as_bytes());
            while slots[slot] != 0 {
                slot = (slot + 1) % INDEX_SLOTS;
            }
            // The table has far fewer than 65535 commands.
            slots[slot] = u16::try_from(i + 1).unwrap_or(0);
        }
        CommandIndex { slots }
    }

    fn get(&self, lower: &[u8]) -> Option<&'static CommandSpec> {
        let mut slot = first_slot(lower);
        loop {
            let spec = COMMANDS.get(usize::from(self.slots[slot]).checked_sub(1)?)?;
            if spec.name.as_bytes() == lower {
                return Some(spec);
            }
            slot = (slot + 1) % INDEX_SLOTS;
        }
    }
}

/// Whether `words` name a command that exists (any case): for a container, with a subcommand
/// it has, as `redis.acl_check_cmd` asks.
pub(crate) fn command_known(words: &[&[u8]]) -> bool {
    let Some(spec) = words.first().and_then(|name| lookup(name)) else {
        return false;
    };
    #[cfg(feature = "full")]
    if let (Some((_, table)), Some(sub)) = (container_of(spec), words.get(1)) {
        return find_subcommand(table, sub).is_some();
    }
    let _ = spec;
    true
}

fn lookup(name: &[u8]) -> Option<&'static CommandSpec> {
    static INDEX: OnceLock<CommandIndex> = OnceLock::new();
    if name.is_empty() {
        return None;
    }
    // Lowercased into a stack buffer (no command name is longer): every command line and
    // every `redis.call` goes through here.
    let mut lower = [0u8; 16];
    let lower = lower.get_mut(..name.len())?;
    for (slot, byte) in lower.iter_mut().zip(name) {
        *slot = byte.to_ascii_lowercase();
    }
    INDEX.get_or_init(CommandIndex::build).get(lower)
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

/// The error Redis answers `words` with before it would run them (an unknown command or
/// subcommand, a wrong number of arguments), if any. For the server, which checks a command
/// before it refuses it in a subscribed connection.
#[cfg(all(not(target_arch = "wasm32"), feature = "full"))]
pub(crate) fn refusal(words: &[&[u8]]) -> Option<Reply> {
    checked(words).err().map(|(_, error)| error.into())
}

/// Looks a command line up and checks its arity, with Redis's errors.
fn checked(
    words: &[&[u8]],
) -> Result<&'static CommandSpec, (Option<&'static CommandSpec>, CommandError)> {
    let Some((name, args)) = words.split_first() else {
        let unknown = CommandError::UnknownCommand {
            name: Vec::new(),
            args: Vec::new(),
        };
        return Err((None, unknown));
    };
    let Some(spec) = lookup(name) else {
        let unknown = CommandError::UnknownCommand {
            name: name.to_vec(),
            args: args.iter().map(|arg| arg.to_vec()).collect(),
        };
        return Err((None, unknown));
    };
    if !spec.accepts(words.len()) {
        return Err((Some(spec), CommandError::WrongArity { command: spec.name }));
    }
    #[cfg(feature = "full")]
    if let Some((container, table)) = container_of(spec) {
        subcommand(container, table, words).map_err(|error| (Some(spec), error))?;
    }
    Ok(spec)
}

/// Runs one command line from a client, in its session's database. Inside MULTI a command
/// is queued (all but EXEC, DISCARD, MULTI and WATCH); one refused while queuing dooms the
/// block to EXECABORT.
pub(crate) fn dispatch(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    session: &mut Session,
    words: &[&[u8]],
) -> Reply {
    keyspace.select(session.db);
    let spec = match checked(words) {
        Ok(spec) => spec,
        Err((spec, error)) => {
            if let Some(transaction) = &mut session.multi {
                transaction.refused = true;
            }
            return match spec {
                #[cfg(feature = "full")]
                Some(spec) if spec.name == "exec" => {
                    transactions::abort_exec(keyspace, session, error)
                }
                _ => error.into(),
            };
        }
    };
    if let Some(transaction) = &mut session.multi {
        if !runs_inside_multi(spec) {
            transaction
                .queued
                .push(words.iter().map(|word| word.to_vec()).collect());
            return Reply::Status("QUEUED".to_string());
        }
    }
    let result = match spec.handler {
        Handler::Keys(run) if spec.writes => keyspace.observe_writes(|keys| run(keys, words)),
        Handler::Keys(run) => run(keyspace, words),
        #[cfg(feature = "full")]
        Handler::Blocking(run) => {
            // Inside EXEC a blocking command never waits, as in Redis; a server that waits
            // itself (`ministore serve`) wants the same nil so it can wait for real.
            let wait = if session.in_exec || keyspace.caller_waits() {
                Wait::Never
            } else {
                Wait::Client
            };
            keyspace.observe_writes(|keys| run(keys, words, wait))
        }
        Handler::Scripting(run) => run(keyspace, scripts, words),
        #[cfg(feature = "full")]
        Handler::Session(run) => run(keyspace, scripts, session, words),
    };
    // A key command's SELECT stays with the client; a script's does not outlive the script.
    match spec.handler {
        Handler::Keys(_) => session.db = keyspace.selected(),
        #[cfg(feature = "full")]
        Handler::Blocking(_) => session.db = keyspace.selected(),
        _ => keyspace.select(session.db),
    }
    result.unwrap_or_else(Reply::from)
}

/// The commands MULTI does not queue, as Redis's `processCommand` lists them: UNWATCH is
/// queued like any other and, run by EXEC after EXEC has dropped the watched keys, replies OK.
fn runs_inside_multi(spec: &CommandSpec) -> bool {
    matches!(spec.name, "multi" | "exec" | "discard" | "watch")
}

/// Whether `name` is a command Redis flags `write` (unknown names are not).
pub(crate) fn is_write_command(name: &[u8]) -> bool {
    lookup(name).is_some_and(|spec| spec.writes)
}

/// Runs one `redis.call` from a script: same commands on the same keyspace, checked in the
/// order of Redis's `scriptCall` — unknown command or subcommand, arity (from the command and
/// subcommand tables), commands scripts may not run (EVAL, DEBUG, every SCRIPT and FUNCTION
/// subcommand but HELP), then writes from a `no-writes` script — with the scripting wording. A
/// command's own errors (HSET's odd field count) keep their own text.
pub(crate) fn dispatch_from_script(
    keyspace: &mut Keyspace,
    words: &[&[u8]],
    read_only: bool,
) -> Reply {
    let Some(spec) = words.first().and_then(|name| lookup(name)) else {
        return missing_from_script(words);
    };
    if !spec.accepts(words.len()) {
        return CommandError::WrongArityFromScript.into();
    }
    #[cfg(feature = "full")]
    if let Some((_, table)) = container_of(spec) {
        // As Redis: the subcommand is looked up, then its arity and its flags are checked.
        let Some(sub) = find_subcommand(table, words[1]) else {
            return CommandError::UnknownFromScript.into();
        };
        if !arity_fits(sub.arity, words.len()) {
            return CommandError::WrongArityFromScript.into();
        }
        if !sub.allowed_in_scripts {
            return CommandError::NotAllowedFromScript.into();
        }
        // The one SCRIPT and FUNCTION subcommand a script may run, which needs no script cache.
        if sub.name == "help" {
            match spec.name {
                "script" => return scripting::help(),
                "function" => return functions::help(),
                _ => {}
            }
        }
    }
    if !spec.allowed_in_scripts {
        return CommandError::NotAllowedFromScript.into();
    }
    let run = match spec.handler {
        Handler::Keys(run) => run,
        // Scripts never block (Redis denies blocking to them).
        #[cfg(feature = "full")]
        Handler::Blocking(run) => return blocking_from_script(keyspace, words, read_only, run),
        Handler::Scripting(_) => return CommandError::NotAllowedFromScript.into(),
        #[cfg(feature = "full")]
        Handler::Session(_) => return CommandError::NotAllowedFromScript.into(),
    };
    if read_only && spec.writes {
        return CommandError::WriteFromReadOnlyScript.into();
    }
    let result = keyspace.as_script(|keyspace| {
        if spec.writes {
            keyspace.observe_writes(|keys| run(keys, words))
        } else {
            run(keyspace, words)
        }
    });
    result.unwrap_or_else(Reply::from)
}

/// A blocking command from `redis.call`: it writes, and it never waits.
#[cfg(feature = "full")]
fn blocking_from_script(
    keyspace: &mut Keyspace,
    words: &[&[u8]],
    read_only: bool,
    run: fn(&mut Keyspace, &[&[u8]], Wait) -> CommandResult,
) -> Reply {
    if read_only {
        return CommandError::WriteFromReadOnlyScript.into();
    }
    keyspace
        .observe_writes(|keys| run(keys, words, Wait::Never))
        .unwrap_or_else(Reply::from)
}
