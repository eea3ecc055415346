//! Transactions: MULTI, EXEC, DISCARD, WATCH and UNWATCH. Queuing itself happens in the
//! dispatcher (a command line inside MULTI is checked, then queued); EXEC runs the queue
//! through the same dispatcher, one command after another, each with its own reply.

use super::scripting::ScriptCache;
use super::{dispatch, with_words, CommandResult};
use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::reply::Reply;
use crate::session::{Session, Transaction};

/// `MULTI` — opens a block; nested MULTI is an error that leaves the block as it is.
pub(crate) fn multi(
    _: &mut Keyspace,
    _: &mut ScriptCache,
    session: &mut Session,
    _: &[&[u8]],
) -> CommandResult {
    if session.multi.is_some() {
        return Err(CommandError::MultiNested);
    }
    session.multi = Some(Transaction::default());
    Ok(Reply::ok())
}

/// `DISCARD` — drops the block and the watched keys.
pub(crate) fn discard(
    keyspace: &mut Keyspace,
    _: &mut ScriptCache,
    session: &mut Session,
    _: &[&[u8]],
) -> CommandResult {
    if session.multi.take().is_none() {
        return Err(CommandError::DiscardWithoutMulti);
    }
    unwatch_session(keyspace, session);
    Ok(Reply::ok())
}

/// `EXEC` — EXECABORT if a queued command was refused, a nil reply if a watched key was
/// touched (or expired) since WATCH, otherwise every queued command's reply in order; a
/// command failing at run time does not stop the others.
pub(crate) fn exec(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    session: &mut Session,
    _: &[&[u8]],
) -> CommandResult {
    let Some(transaction) = session.multi.take() else {
        return Err(CommandError::ExecWithoutMulti);
    };
    let spoiled = session.watcher.is_some_and(|id| keyspace.watch_spoiled(id));
    unwatch_session(keyspace, session);
    if transaction.refused {
        return Err(CommandError::ExecAbort);
    }
    if spoiled {
        return Ok(Reply::Nil);
    }
    session.in_exec = true;
    keyspace.fix_expiry_time(true);
    let replies = transaction
        .queued
        .iter()
        .map(|line| with_words(line, |words| dispatch(keyspace, scripts, session, words)))
        .collect();
    keyspace.fix_expiry_time(false);
    session.in_exec = false;
    Ok(Reply::Array(replies))
}

/// EXEC refused before it ran (wrong arity): the block is dropped with the reason.
pub(crate) fn abort_exec(
    keyspace: &mut Keyspace,
    session: &mut Session,
    reason: CommandError,
) -> Reply {
    session.multi = None;
    unwatch_session(keyspace, session);
    CommandError::ExecAbortBecause {
        reason: Box::new(reason),
    }
    .into()
}

/// `WATCH key [key ...]` — not inside MULTI.
pub(crate) fn watch(
    keyspace: &mut Keyspace,
    _: &mut ScriptCache,
    session: &mut Session,
    words: &[&[u8]],
) -> CommandResult {
    if session.multi.is_some() {
        return Err(CommandError::WatchInsideMulti);
    }
    let id = match session.watcher {
        Some(id) => id,
        None => {
            let id = keyspace.new_watcher();
            session.watcher = Some(id);
            id
        }
    };
    for key in &words[1..] {
        keyspace.watch(id, key);
    }
    Ok(Reply::ok())
}

/// `UNWATCH`
pub(crate) fn unwatch(
    keyspace: &mut Keyspace,
    _: &mut ScriptCache,
    session: &mut Session,
    _: &[&[u8]],
) -> CommandResult {
    unwatch_session(keyspace, session);
    Ok(Reply::ok())
}

/// Forgets every key the session watches.
pub(crate) fn unwatch_session(keyspace: &mut Keyspace, session: &mut Session) {
    if let Some(id) = session.watcher.take() {
        keyspace.unwatch_all(id);
    }
}
