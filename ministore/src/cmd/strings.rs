//! String commands that read or replace whole values: GET, MGET, SET with all its options,
//! SETNX, SETEX, PSETEX, MSET, MSETNX, GETSET, GETDEL, GETEX, INCR/INCRBY/DECR/DECRBY and
//! INCRBYFLOAT (in x87 `long double`, as Redis computes it). Edits inside a value (APPEND,
//! GETRANGE, SETRANGE…) are in `string_ranges`, LCS in `lcs`. Without `full` only GET and SET
//! are here.

use super::CommandResult;
#[cfg(feature = "full")]
use crate::args::parse_int;
use crate::args::{int_arg, is, ArgCursor};
use crate::error::CommandError;
#[cfg(feature = "full")]
use crate::keyspace::StrForm;
use crate::keyspace::{Keyspace, Value};
#[cfg(feature = "full")]
use crate::longdouble::{LongDouble, LongDoubleError};
use crate::reply::Reply;

/// `GET key`
pub(crate) fn get(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(match keyspace.string(words[1])? {
        Some(bytes) => Reply::bulk(bytes.as_slice()),
        None => Reply::Nil,
    })
}

/// `MGET key [key ...]` — each value, or nil for a missing key or one that is not a string.
#[cfg(feature = "full")]
pub(crate) fn mget(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let values = words[1..]
        .iter()
        .map(|key| match keyspace.value(key) {
            Some(Value::Str(bytes, _)) => Reply::bulk(bytes.as_slice()),
            _ => Reply::Nil,
        })
        .collect();
    Ok(Reply::Array(values))
}

/// `SETNX key value` — SET NX answering 1 or 0.
#[cfg(feature = "full")]
pub(crate) fn setnx(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    if keyspace.contains(words[1]) {
        return Ok(Reply::Integer(0));
    }
    keyspace.insert(words[1], Value::string(words[2].to_vec()), None);
    Ok(Reply::Integer(1))
}

/// How SET's expiry option was given.
#[derive(Clone, Copy, PartialEq)]
enum ExpiryOption {
    None,
    Seconds,
    Millis,
    UnixSeconds,
    UnixMillis,
    KeepTtl,
}

/// SET's options once parsed.
struct SetOptions<'a> {
    only_if_missing: bool,
    only_if_present: bool,
    return_old: bool,
    expiry: ExpiryOption,
    expiry_arg: &'a [u8],
}

/// Parses SET's options with Redis's acceptance rules: NX excludes XX, one kind of expiry at
/// a time (though EX may repeat), KEEPTTL excludes any expiry; anything else is a syntax error.
fn parse_set_options<'a>(words: &'a [&'a [u8]]) -> Result<SetOptions<'a>, CommandError> {
    let mut options = SetOptions {
        only_if_missing: false,
        only_if_present: false,
        return_old: false,
        expiry: ExpiryOption::None,
        expiry_arg: b"",
    };
    let mut cursor = ArgCursor::new(words, 3);
    while let Some(word) = cursor.next_word() {
        let has_next = cursor.peek().is_some();
        let timed =
            |kind: ExpiryOption| options.expiry == ExpiryOption::None || options.expiry == kind;
        if is(word, "nx") && !options.only_if_present {
            options.only_if_missing = true;
        } else if is(word, "xx") && !options.only_if_missing {
            options.only_if_present = true;
        } else if is(word, "get") {
            options.return_old = true;
        } else if is(word, "keepttl") && timed(ExpiryOption::KeepTtl) {
            options.expiry = ExpiryOption::KeepTtl;
        } else if let Some(kind) = expiry_kind(word).filter(|k| timed(*k) && has_next) {
            options.expiry = kind;
            options.expiry_arg = cursor.next_word().unwrap_or_default();
        } else {
            return Err(CommandError::Syntax);
        }
    }
    Ok(options)
}

fn expiry_kind(word: &[u8]) -> Option<ExpiryOption> {
    [
        ("ex", ExpiryOption::Seconds),
        ("px", ExpiryOption::Millis),
        ("exat", ExpiryOption::UnixSeconds),
        ("pxat", ExpiryOption::UnixMillis),
    ]
    .into_iter()
    .find(|(name, _)| is(word, name))
    .map(|(_, kind)| kind)
}

/// The absolute deadline an expiry option asks for, checked as Redis's
/// `getExpireMillisecondsOrReply` does (positive, no overflow in units or in `now + ttl`);
/// `command` names the command in the error.
fn deadline_for(
    keyspace: &Keyspace,
    kind: ExpiryOption,
    arg: &[u8],
    command: &'static str,
) -> Result<i64, CommandError> {
    let invalid = || CommandError::InvalidExpireTime { command };
    let amount = int_arg(arg)?;
    if amount <= 0 {
        return Err(invalid());
    }
    let millis = match kind {
        ExpiryOption::Seconds | ExpiryOption::UnixSeconds => {
            amount.checked_mul(1000).ok_or_else(invalid)?
        }
        _ => amount,
    };
    match kind {
        ExpiryOption::Seconds | ExpiryOption::Millis => {
            keyspace.now().checked_add(millis).ok_or_else(invalid)
        }
        _ => Ok(millis),
    }
}

/// `SET key value [NX|XX] [GET] [EX s|PX ms|EXAT t|PXAT t|KEEPTTL]`
pub(crate) fn set(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (key, value) = (words[1], words[2]);
    let options = parse_set_options(words)?;
    let deadline = match options.expiry {
        ExpiryOption::None | ExpiryOption::KeepTtl => None,
        kind => Some(deadline_for(keyspace, kind, options.expiry_arg, "set")?),
    };
    let old = if options.return_old {
        Some(match keyspace.string(key)? {
            Some(bytes) => Reply::bulk(bytes.as_slice()),
            None => Reply::Nil,
        })
    } else {
        None
    };
    let entry = keyspace.entry(key);
    let found = entry.is_some();
    if (options.only_if_missing && found) || (options.only_if_present && !found) {
        return Ok(old.unwrap_or(Reply::Nil));
    }
    let kept = if options.expiry == ExpiryOption::KeepTtl {
        entry.and_then(|e| e.expires_at)
    } else {
        None
    };
    keyspace.insert(key, Value::string(value.to_vec()), deadline.or(kept));
    Ok(old.unwrap_or_else(Reply::ok))
}

/// `INCR key`
#[cfg(feature = "full")]
pub(crate) fn incr(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    increment(keyspace, words[1], 1)
}

/// `DECR key`
#[cfg(feature = "full")]
pub(crate) fn decr(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    increment(keyspace, words[1], -1)
}

/// `INCRBY key increment` — the increment is checked before the key is looked at.
#[cfg(feature = "full")]
pub(crate) fn incrby(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let by = int_arg(words[2])?;
    increment(keyspace, words[1], by)
}

/// `DECRBY key decrement`
#[cfg(feature = "full")]
pub(crate) fn decrby(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let by = int_arg(words[2])?;
    let by = by.checked_neg().ok_or(CommandError::DecrementOverflow)?;
    increment(keyspace, words[1], by)
}

/// Adds `by` to the integer at `key` (0 if missing), keeping the key's expiry.
#[cfg(feature = "full")]
fn increment(keyspace: &mut Keyspace, key: &[u8], by: i64) -> CommandResult {
    let Some(bytes) = keyspace.string(key)? else {
        keyspace.insert(key, Value::string(by.to_string().into_bytes()), None);
        return Ok(Reply::Integer(by));
    };
    let current = parse_int(bytes).ok_or(CommandError::NotInteger)?;
    let sum = current
        .checked_add(by)
        .ok_or(CommandError::IncrementOverflow)?;
    if let Some(bytes) = keyspace.string_to_edit(key, StrForm::Encoded)? {
        bytes.clear();
        bytes.extend_from_slice(sum.to_string().as_bytes());
    }
    Ok(Reply::Integer(sum))
}

/// `SETEX key seconds value`
#[cfg(feature = "full")]
pub(crate) fn setex(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let deadline = deadline_for(keyspace, ExpiryOption::Seconds, words[2], "setex")?;
    keyspace.insert(words[1], Value::string(words[3].to_vec()), Some(deadline));
    Ok(Reply::ok())
}

/// `PSETEX key milliseconds value`
#[cfg(feature = "full")]
pub(crate) fn psetex(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let deadline = deadline_for(keyspace, ExpiryOption::Millis, words[2], "psetex")?;
    keyspace.insert(words[1], Value::string(words[3].to_vec()), Some(deadline));
    Ok(Reply::ok())
}

/// `MSET key value [key value ...]` — sets every pair, dropping their expiries.
#[cfg(feature = "full")]
pub(crate) fn mset(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    if words.len().is_multiple_of(2) {
        return Err(CommandError::WrongArity { command: "mset" });
    }
    for pair in words[1..].chunks_exact(2) {
        keyspace.insert(pair[0], Value::string(pair[1].to_vec()), None);
    }
    Ok(Reply::ok())
}

/// `MSETNX key value [key value ...]` — all pairs, or none if any key exists; 1 or 0.
#[cfg(feature = "full")]
pub(crate) fn msetnx(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    if words.len().is_multiple_of(2) {
        return Err(CommandError::WrongArity { command: "msetnx" });
    }
    if words[1..]
        .iter()
        .step_by(2)
        .any(|key| keyspace.contains(key))
    {
        return Ok(Reply::Integer(0));
    }
    mset(keyspace, words)?;
    Ok(Reply::Integer(1))
}

/// The string at `key` as a bulk reply, nil if missing, WRONGTYPE if not a string.
#[cfg(feature = "full")]
fn current(keyspace: &mut Keyspace, key: &[u8]) -> CommandResult {
    Ok(match keyspace.string(key)? {
        Some(bytes) => Reply::bulk(bytes.as_slice()),
        None => Reply::Nil,
    })
}

/// `GETSET key value` — the old value; the new one has no expiry.
#[cfg(feature = "full")]
pub(crate) fn getset(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let old = current(keyspace, words[1])?;
    keyspace.insert(words[1], Value::string(words[2].to_vec()), None);
    Ok(old)
}

/// `GETDEL key` — the value, and the key is gone.
#[cfg(feature = "full")]
pub(crate) fn getdel(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let old = current(keyspace, words[1])?;
    if old != Reply::Nil {
        keyspace.remove(words[1]);
    }
    Ok(old)
}

/// GETEX's one option: a new expiry, or PERSIST.
#[cfg(feature = "full")]
#[derive(Clone, Copy, PartialEq)]
enum GetExOption {
    Keep,
    Expire(ExpiryOption),
    Persist,
}

/// `[EX s|PX ms|EXAT t|PXAT t|PERSIST]`: one kind only (the same one may repeat, the last
/// amount wins); a missing amount is a syntax error.
#[cfg(feature = "full")]
fn parse_getex<'a>(words: &'a [&'a [u8]]) -> Result<(GetExOption, &'a [u8]), CommandError> {
    let mut option = GetExOption::Keep;
    let mut amount: &[u8] = b"";
    let mut cursor = ArgCursor::new(words, 2);
    while let Some(word) = cursor.next_word() {
        let has_next = cursor.peek().is_some();
        let free = |wanted: GetExOption| option == GetExOption::Keep || option == wanted;
        if is(word, "persist") && free(GetExOption::Persist) {
            option = GetExOption::Persist;
        } else if let Some(kind) =
            expiry_kind(word).filter(|k| free(GetExOption::Expire(*k)) && has_next)
        {
            option = GetExOption::Expire(kind);
            amount = cursor.next_word().unwrap_or_default();
        } else {
            return Err(CommandError::Syntax);
        }
    }
    Ok((option, amount))
}

/// `GETEX key [EX s|PX ms|EXAT t|PXAT t|PERSIST]` — the value, with its expiry changed. The
/// options are checked first, the key's type next, the amount last; a deadline already
/// past deletes the key (after replying its value).
#[cfg(feature = "full")]
pub(crate) fn getex(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (option, amount) = parse_getex(words)?;
    let key = words[1];
    let value = current(keyspace, key)?;
    if value == Reply::Nil {
        return Ok(value);
    }
    match option {
        GetExOption::Keep => {}
        GetExOption::Persist => {
            if let Some(entry) = keyspace.entry_mut(key) {
                entry.expires_at = None;
            }
        }
        GetExOption::Expire(kind) => {
            let deadline = deadline_for(keyspace, kind, amount, "getex")?;
            if deadline <= keyspace.now() {
                keyspace.remove(key);
            } else if let Some(entry) = keyspace.entry_mut(key) {
                entry.expires_at = Some(deadline);
                // Signalled even when the deadline is the one the key had.
                keyspace.signal_modified(key);
            }
        }
    }
    Ok(value)
}

/// `INCRBYFLOAT key increment` — the sum in x87 `long double`, printed with 17 decimals
/// and trailing zeros dropped; the key keeps its expiry. The key's type is checked first,
/// then its value, then the increment.
#[cfg(feature = "full")]
pub(crate) fn incrbyfloat(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    // Redis's order: the key's type, then the stored value, then the increment.
    let stored = keyspace.string(words[1])?;
    let current = match stored {
        Some(bytes) => match LongDouble::parse(bytes) {
            Ok(value) => Some(value),
            Err(LongDoubleError::Infinite) => None,
            Err(LongDoubleError::NotANumber) => return Err(CommandError::NotFloat),
        },
        None => Some(LongDouble::from_i64(0)),
    };
    let increment = match LongDouble::parse(words[2]) {
        Ok(by) => Some(by),
        Err(LongDoubleError::Infinite) => None,
        Err(LongDoubleError::NotANumber) => return Err(CommandError::NotFloat),
    };
    let sum = match (current, increment) {
        (Some(current), Some(by)) => current
            .add(by)
            .map_err(|_| CommandError::IncrementNaNOrInfinity)?,
        _ => return Err(CommandError::IncrementNaNOrInfinity),
    };
    let text = sum.to_human().into_bytes();
    match keyspace.string_to_edit(words[1], StrForm::Plain)? {
        Some(bytes) => {
            bytes.clear();
            bytes.extend_from_slice(&text);
        }
        None => keyspace.insert(words[1], Value::Str(text.clone(), StrForm::Plain), None),
    }
    Ok(Reply::Bulk(text))
}
