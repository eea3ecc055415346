//! Connection commands: PING and ECHO, which touch no keys.

use super::CommandResult;
use crate::keyspace::Keyspace;
use crate::reply::Reply;

/// `PING [message]` — `PONG`, or the message back as a bulk string.
pub(crate) fn ping(_: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    match words {
        [_] => Ok(Reply::Status("PONG".to_string())),
        [_, message] => Ok(Reply::bulk(*message)),
        _ => Err(crate::error::CommandError::WrongArity { command: "ping" }),
    }
}

/// `ECHO message` — the message back.
pub(crate) fn echo(_: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(Reply::bulk(words[1]))
}
