//! OBJECT ENCODING, REFCOUNT, IDLETIME, FREQ and HELP: what Redis says about how it keeps a
//! key's value. ministore keeps no access clock, so IDLETIME is always 0 (what a key just
//! used shows in Redis), and there is no LFU policy, so FREQ is Redis's refusal.

use super::{help_reply, subcommand, CommandResult, Subcommand};
use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::reply::Reply;

/// OBJECT's subcommands, each taking exactly one key except HELP; a script may call them all.
pub(super) const SUBCOMMANDS: &[Subcommand] = &[
    Subcommand {
        name: "encoding",
        full: "object|encoding",
        arity: 3,
        allowed_in_scripts: true,
    },
    Subcommand {
        name: "refcount",
        full: "object|refcount",
        arity: 3,
        allowed_in_scripts: true,
    },
    Subcommand {
        name: "idletime",
        full: "object|idletime",
        arity: 3,
        allowed_in_scripts: true,
    },
    Subcommand {
        name: "freq",
        full: "object|freq",
        arity: 3,
        allowed_in_scripts: true,
    },
    Subcommand {
        name: "help",
        full: "object|help",
        arity: 2,
        allowed_in_scripts: true,
    },
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
    let name = subcommand("OBJECT", SUBCOMMANDS, words)?.name;
    if name == "help" {
        return Ok(help_reply(HELP));
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
