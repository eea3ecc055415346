//! Generic key commands: DEL, UNLINK, EXISTS, TOUCH, TYPE, RENAME, RENAMENX, COPY, and the
//! expiry family EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (with NX/XX/GT/LT), TTL, PTTL,
//! EXPIRETIME, PEXPIRETIME and PERSIST, all measured on the virtual clock. Without `full` only
//! DEL and PTTL are here.

use super::CommandResult;
#[cfg(feature = "full")]
use crate::args::{int_arg, is};
#[cfg(feature = "full")]
use crate::error::CommandError;
use crate::keyspace::Keyspace;
#[cfg(feature = "full")]
use crate::keyspace::{StrForm, Value, DATABASES};
use crate::reply::Reply;

/// `DEL key [key ...]` — how many live keys were deleted.
pub(crate) fn del(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let deleted = words[1..].iter().filter(|key| keyspace.remove(key)).count();
    Ok(count(deleted))
}

/// `TOUCH key [key ...]` — how many of the keys are live, counting repeats (there is no
/// access time to update here).
#[cfg(feature = "full")]
pub(crate) fn touch(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    exists(keyspace, words)
}

/// `RENAME key newkey` — moves the value and its expiry; "no such key" if missing.
#[cfg(feature = "full")]
pub(crate) fn rename(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    rename_key(keyspace, words, false).map(|_| Reply::ok())
}

/// `RENAMENX key newkey` — as RENAME, but only onto a missing key: 1 or 0.
#[cfg(feature = "full")]
pub(crate) fn renamenx(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    rename_key(keyspace, words, true).map(|done| Reply::Integer(i64::from(done)))
}

/// Redis's `renameGenericCommand`: renaming onto itself changes nothing (RENAMENX says 0).
#[cfg(feature = "full")]
fn rename_key(
    keyspace: &mut Keyspace,
    words: &[&[u8]],
    only_new: bool,
) -> Result<bool, CommandError> {
    let (from, to) = (words[1], words[2]);
    let Some(entry) = keyspace.entry(from).cloned() else {
        return Err(CommandError::NoSuchKey);
    };
    if from == to {
        return Ok(!only_new);
    }
    if only_new && keyspace.contains(to) {
        return Ok(false);
    }
    // Redis deletes the destination and adds the key anew (`dbDelete`, `dbAdd`), which
    // readies it for a blocked client even where a key stood.
    keyspace.remove(to);
    keyspace.insert(to, entry.value, entry.expires_at);
    keyspace.remove(from);
    Ok(true)
}

/// `COPY source destination [DB destination-db] [REPLACE]` — 1 if copied (value and
/// expiry); 0 if the source is missing or the destination exists without REPLACE.
#[cfg(feature = "full")]
pub(crate) fn copy(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (from, to) = (words[1], words[2]);
    let mut replace = false;
    let mut target = keyspace.selected();
    let mut at = 3;
    while let Some(word) = words.get(at) {
        if is(word, "replace") {
            replace = true;
        } else if is(word, "db") && at + 1 < words.len() {
            // Redis reads the index as a C int first (`getIntFromObjectOrReply`).
            let db = int_arg(words[at + 1])?;
            if i32::try_from(db).is_err() {
                return Err(CommandError::NotInt32);
            }
            target = usize::try_from(db)
                .ok()
                .filter(|db| *db < DATABASES)
                .ok_or(CommandError::DbIndexOutOfRange)?;
            at += 1;
        } else {
            return Err(CommandError::Syntax);
        }
        at += 1;
    }
    if target == keyspace.selected() && from == to {
        return Err(CommandError::SameObject);
    }
    let Some(mut entry) = keyspace.entry(from).cloned() else {
        return Ok(Reply::Integer(0));
    };
    if let Value::Str(_, form @ StrForm::Encoded) = &mut entry.value {
        *form = StrForm::Copied;
    }
    let copied = keyspace.in_db(target, |there| {
        if there.contains(to) && !replace {
            return false;
        }
        // As RENAME: the replaced key is deleted and the copy added anew.
        there.remove(to);
        there.insert(to, entry.value, entry.expires_at);
        true
    });
    Ok(Reply::Integer(i64::from(copied)))
}

/// `EXISTS key [key ...]` — how many of the keys are live, counting repeats.
#[cfg(feature = "full")]
pub(crate) fn exists(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let live = words[1..]
        .iter()
        .filter(|key| keyspace.contains(key))
        .count();
    Ok(count(live))
}

/// `TYPE key` — `string`, `hash`, `zset`, or `none`.
#[cfg(feature = "full")]
pub(crate) fn type_of(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let name = keyspace.value(words[1]).map_or("none", |v| v.type_name());
    Ok(Reply::Status(name.to_string()))
}

/// `EXPIRE key seconds [NX|XX|GT|LT]`
#[cfg(feature = "full")]
pub(crate) fn expire(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    set_expiry(keyspace, words, Unit::Seconds, false)
}

/// `PEXPIRE key milliseconds [NX|XX|GT|LT]`
#[cfg(feature = "full")]
pub(crate) fn pexpire(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    set_expiry(keyspace, words, Unit::Millis, false)
}

/// `EXPIREAT key unix-seconds [NX|XX|GT|LT]`
#[cfg(feature = "full")]
pub(crate) fn expireat(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    set_expiry(keyspace, words, Unit::Seconds, true)
}

/// `PEXPIREAT key unix-milliseconds [NX|XX|GT|LT]`
#[cfg(feature = "full")]
pub(crate) fn pexpireat(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    set_expiry(keyspace, words, Unit::Millis, true)
}

#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Seconds,
    Millis,
}

/// EXPIRE's conditions.
#[cfg(feature = "full")]
#[derive(Default)]
struct ExpireConditions {
    only_without_ttl: bool,
    only_with_ttl: bool,
    only_later: bool,
    only_sooner: bool,
}

#[cfg(feature = "full")]
fn parse_conditions(options: &[&[u8]]) -> Result<ExpireConditions, CommandError> {
    let mut conditions = ExpireConditions::default();
    for option in options {
        if is(option, "nx") {
            conditions.only_without_ttl = true;
        } else if is(option, "xx") {
            conditions.only_with_ttl = true;
        } else if is(option, "gt") {
            conditions.only_later = true;
        } else if is(option, "lt") {
            conditions.only_sooner = true;
        } else {
            return Err(CommandError::UnsupportedExpireOption {
                option: option.to_vec(),
            });
        }
    }
    let c = &conditions;
    if c.only_without_ttl && (c.only_with_ttl || c.only_later || c.only_sooner) {
        return Err(CommandError::ExpireNxConflict);
    }
    if c.only_later && c.only_sooner {
        return Err(CommandError::ExpireGtLtConflict);
    }
    Ok(conditions)
}

/// Redis's `expireGenericCommand`: the amount counts from now, or from the Unix epoch when
/// `absolute`; a deadline in the past deletes the key at once; GT treats "no expiry" as
/// infinitely late and LT as never sooner.
#[cfg(feature = "full")]
fn set_expiry(
    keyspace: &mut Keyspace,
    words: &[&[u8]],
    unit: Unit,
    absolute: bool,
) -> CommandResult {
    let conditions = parse_conditions(&words[3..])?;
    let amount = int_arg(words[2])?;
    let command = match (unit, absolute) {
        (Unit::Seconds, false) => "expire",
        (Unit::Millis, false) => "pexpire",
        (Unit::Seconds, true) => "expireat",
        (Unit::Millis, true) => "pexpireat",
    };
    let invalid = || CommandError::InvalidExpireTime { command };
    let millis = match unit {
        Unit::Seconds => amount.checked_mul(1000).ok_or_else(invalid)?,
        Unit::Millis => amount,
    };
    let now = keyspace.now();
    let base = if absolute { 0 } else { now };
    let deadline = base.checked_add(millis).ok_or_else(invalid)?;
    let key = words[1];
    let Some(entry) = keyspace.entry_mut(key) else {
        return Ok(Reply::Integer(0));
    };
    let current = entry.expires_at;
    let refused = (conditions.only_without_ttl && current.is_some())
        || (conditions.only_with_ttl && current.is_none())
        || (conditions.only_later && current.is_none_or(|at| deadline <= at))
        || (conditions.only_sooner && current.is_some_and(|at| deadline >= at));
    if refused {
        return Ok(Reply::Integer(0));
    }
    if deadline <= now {
        keyspace.remove(key);
    } else {
        entry.expires_at = Some(deadline);
        // Signalled even when the deadline is the one the key had.
        keyspace.signal_modified(key);
    }
    Ok(Reply::Integer(1))
}

/// `TTL key` — seconds left, rounded to nearest; -2 if missing, -1 without expiry.
#[cfg(feature = "full")]
pub(crate) fn ttl(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(Reply::Integer(remaining(keyspace, words[1], Unit::Seconds)))
}

/// `PTTL key` — milliseconds left; -2 if missing, -1 without expiry.
pub(crate) fn pttl(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(Reply::Integer(remaining(keyspace, words[1], Unit::Millis)))
}

fn remaining(keyspace: &mut Keyspace, key: &[u8], unit: Unit) -> i64 {
    let now = keyspace.now();
    match keyspace.entry(key) {
        None => -2,
        Some(entry) => match entry.expires_at {
            None => -1,
            Some(at) => {
                let left = at.saturating_sub(now).max(0);
                match unit {
                    Unit::Millis => left,
                    Unit::Seconds => left.saturating_add(500) / 1000,
                }
            }
        },
    }
}

/// `EXPIRETIME key` — the Unix time (seconds, rounded) the key expires at; -2 if missing, -1
/// without expiry.
#[cfg(feature = "full")]
pub(crate) fn expiretime(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(Reply::Integer(deadline(keyspace, words[1], Unit::Seconds)))
}

/// `PEXPIRETIME key` — the Unix time in ms the key expires at; -2 if missing, -1 without.
#[cfg(feature = "full")]
pub(crate) fn pexpiretime(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(Reply::Integer(deadline(keyspace, words[1], Unit::Millis)))
}

#[cfg(feature = "full")]
fn deadline(keyspace: &mut Keyspace, key: &[u8], unit: Unit) -> i64 {
    match keyspace.entry(key) {
        None => -2,
        Some(entry) => match (entry.expires_at, unit) {
            (None, _) => -1,
            (Some(at), Unit::Millis) => at.max(0),
            // Redis rounds with `(ttl + 500) / 1000`, which its build computes without overflow
            // even next to the largest deadline.
            (Some(at), Unit::Seconds) => ((i128::from(at.max(0)) + 500) / 1000) as i64,
        },
    }
}

/// `PERSIST key` — 1 if an expiry was removed.
#[cfg(feature = "full")]
pub(crate) fn persist(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let removed = keyspace
        .entry_mut(words[1])
        .and_then(|entry| entry.expires_at.take())
        .is_some();
    Ok(Reply::Integer(i64::from(removed)))
}

fn count(n: usize) -> Reply {
    Reply::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}
