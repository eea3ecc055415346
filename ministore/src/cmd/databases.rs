//! The numbered databases: SELECT, DBSIZE, FLUSHDB, FLUSHALL, SWAPDB and MOVE. SELECT changes
//! the selected database of whoever runs it: a client's session, or only the running script.

use super::CommandResult;
use crate::args::{int_arg, is, parse_int};
use crate::error::CommandError;
use crate::keyspace::{Keyspace, DATABASES};
use crate::reply::Reply;

/// A database index as Redis reads it: an integer (else "not an integer"), then in range.
fn db_index(word: &[u8]) -> Result<usize, CommandError> {
    let index = int_arg(word)?;
    if i32::try_from(index).is_err() {
        return Err(CommandError::NotInt32);
    }
    usize::try_from(index)
        .ok()
        .filter(|db| *db < DATABASES)
        .ok_or(CommandError::DbIndexOutOfRange)
}

/// `SELECT index`
pub(crate) fn select(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let db = db_index(words[1])?;
    keyspace.select(db);
    Ok(Reply::ok())
}

/// `DBSIZE` — live keys in the selected database. Redis's active expiry collects expired keys
/// within milliseconds of their deadline, so they are not counted here either.
pub(crate) fn dbsize(keyspace: &mut Keyspace, _: &[&[u8]]) -> CommandResult {
    Ok(Reply::Integer(
        i64::try_from(keyspace.db_len()).unwrap_or(i64::MAX),
    ))
}

/// FLUSHDB's and FLUSHALL's optional `ASYNC|SYNC`.
fn flush_mode(words: &[&[u8]]) -> Result<(), CommandError> {
    match words {
        [_] => Ok(()),
        [_, mode] if is(mode, "sync") || is(mode, "async") => Ok(()),
        _ => Err(CommandError::Syntax),
    }
}

/// `FLUSHDB [ASYNC|SYNC]` — drops the selected database's keys.
pub(crate) fn flushdb(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    flush_mode(words)?;
    keyspace.flush_selected();
    Ok(Reply::ok())
}

/// `FLUSHALL [ASYNC|SYNC]` — drops every key of every database (scripts stay cached).
pub(crate) fn flushall(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    flush_mode(words)?;
    keyspace.clear();
    Ok(Reply::ok())
}

/// `SWAPDB index1 index2`
pub(crate) fn swapdb(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let first = parse_int(words[1])
        .filter(|n| i32::try_from(*n).is_ok())
        .ok_or(CommandError::InvalidFirstDbIndex)?;
    let second = parse_int(words[2])
        .filter(|n| i32::try_from(*n).is_ok())
        .ok_or(CommandError::InvalidSecondDbIndex)?;
    let in_range = |n: i64| usize::try_from(n).ok().filter(|db| *db < DATABASES);
    let (Some(a), Some(b)) = (in_range(first), in_range(second)) else {
        return Err(CommandError::DbIndexOutOfRange);
    };
    keyspace.swap_dbs(a, b);
    Ok(Reply::ok())
}

/// `MOVE key db` — 1 if the key moved; 0 if it is missing here or already exists there.
pub(crate) fn move_key(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let key = words[1];
    let target = db_index(words[2])?;
    if target == keyspace.selected() {
        return Err(CommandError::SameObject);
    }
    let Some(entry) = keyspace.entry(key).cloned() else {
        return Ok(Reply::Integer(0));
    };
    let moved = keyspace.in_db(target, |there| {
        if there.contains(key) {
            return false;
        }
        there.insert(key, entry.value, entry.expires_at);
        true
    });
    if moved {
        keyspace.remove(key);
    }
    Ok(Reply::Integer(i64::from(moved)))
}
