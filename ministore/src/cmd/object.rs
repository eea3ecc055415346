//! OBJECT ENCODING, REFCOUNT, IDLETIME, FREQ and HELP: what Redis says about how it keeps a
//! key's value. ministore keeps no access clock, so IDLETIME is always 0 (what a key just
//! used shows in Redis), and there is no LFU policy, so FREQ is Redis's refusal.

use super::CommandResult;
use crate::args::is;
use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::reply::Reply;

/// OBJECT's subcommands, each taking exactly one key except HELP.
const SUBCOMMANDS: &[(&str, &str)] = &[
    ("encoding", "object|encoding"),
    ("refcount", "object|refcount"),
    ("idletime", "object|idletime"),
    ("freq", "object|freq"),
    ("help", "object|help"),
];

/// The lines of `OBJECT HELP`, as Redis 7.0 prints them.
const HELP: &[&str] = &[
    "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "ENCODING <key>",
    "    Return the kind of internal representation used in order to store the value",
    "    associated with a <key>.",
    "FREQ <key>",
    "    Return the access frequency index of the <key>. The returned integer is",
    "    proportional to the logarithm of the recent access frequency of the key.",
    "IDLETIME <key>",
    "    Return the idle time of the <key>, that is the approximated number of",
    "    seconds elapsed since the last access to the key.",
    "REFCOUNT <key>",
    "    Return the number of references of the value associated with the specified",
    "    <key>.",
    "HELP",
    "    Prints this help.",
];

/// `OBJECT ENCODING|REFCOUNT|IDLETIME|FREQ key`, `OBJECT HELP`
pub(crate) fn object(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let sub = words[1];
    let Some(&(name, full_name)) = SUBCOMMANDS.iter().find(|(name, _)| is(sub, name)) else {
        return Err(CommandError::UnknownSubcommand {
            container: "OBJECT",
            sub: sub.to_vec(),
        });
    };
    let wanted = if name == "help" { 2 } else { 3 };
    if words.len() != wanted {
        return Err(CommandError::WrongArity { command: full_name });
    }
    if name == "help" {
        return Ok(Reply::Array(
            HELP.iter()
                .map(|line| Reply::Status(line.to_string()))
                .collect(),
        ));
    }
    let Some(value) = keyspace.value(words[2]) else {
        return Ok(Reply::Nil);
    };
    match name {
        "encoding" => Ok(Reply::bulk(value.encoding())),
        "refcount" => Ok(Reply::Integer(value.refcount())),
        "idletime" => Ok(Reply::Integer(0)),
        _ => Err(CommandError::NoLfuPolicy),
    }
}
