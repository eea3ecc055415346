//! String commands that work inside a value: APPEND, STRLEN, GETRANGE (and its old name
//! SUBSTR) and SETRANGE, with Redis's index clamping and its 512 MB size limit.

use super::CommandResult;
use crate::args::int_arg;
use crate::error::CommandError;
use crate::keyspace::{Keyspace, StrForm, Value};
use crate::reply::Reply;

/// Redis's `proto-max-bulk-len`: no string may grow past 512 MB.
const MAX_STRING: i64 = 512 * 1024 * 1024;

/// Redis's `checkStringLength`: `size + append` bytes must fit in [`MAX_STRING`].
fn check_length(size: i64, append: usize) -> Result<(), CommandError> {
    let append = i64::try_from(append).unwrap_or(i64::MAX);
    if size.saturating_add(append) > MAX_STRING {
        return Err(CommandError::StringTooLong);
    }
    Ok(())
}

fn length_reply(len: usize) -> Reply {
    Reply::Integer(i64::try_from(len).unwrap_or(i64::MAX))
}

/// `APPEND key value` — the new length; a missing key starts empty, the expiry stays.
pub(crate) fn append(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (key, tail) = (words[1], words[2]);
    let Some(bytes) = keyspace.string(key)? else {
        keyspace.insert(key, Value::string(tail.to_vec()), None);
        return Ok(length_reply(tail.len()));
    };
    check_length(i64::try_from(bytes.len()).unwrap_or(i64::MAX), tail.len())?;
    // Even an empty tail makes the value a raw string of its own, as in Redis.
    match keyspace.string_to_edit(key, StrForm::Raw)? {
        Some(bytes) => {
            bytes.extend_from_slice(tail);
            Ok(length_reply(bytes.len()))
        }
        None => Ok(length_reply(0)),
    }
}

/// `STRLEN key` — 0 for a missing key.
pub(crate) fn strlen(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let len = keyspace.string(words[1])?.map_or(0, |bytes| bytes.len());
    Ok(length_reply(len))
}

/// `GETRANGE key start end` (and `SUBSTR`) — inclusive byte range, negative indexes from the
/// end, clamped to the string; an empty string where nothing is left.
pub(crate) fn getrange(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let start = int_arg(words[2])?;
    let end = int_arg(words[3])?;
    let Some(bytes) = keyspace.string(words[1])? else {
        return Ok(Reply::bulk(""));
    };
    let len = i64::try_from(bytes.len()).unwrap_or(i64::MAX);
    if start < 0 && end < 0 && start > end {
        return Ok(Reply::bulk(""));
    }
    let from_end = |index: i64| if index < 0 { len + index } else { index };
    let start = from_end(start).max(0);
    let end = from_end(end).max(0).min(len - 1);
    if start > end || len == 0 {
        return Ok(Reply::bulk(""));
    }
    // Both ends now lie inside the string.
    let (start, end) = (start as usize, end as usize);
    Ok(Reply::bulk(&bytes[start..=end]))
}

/// `SETRANGE key offset value` — overwrites from `offset`, padding with zero bytes; the new
/// length. An empty value changes nothing (and creates no key).
pub(crate) fn setrange(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (key, patch) = (words[1], words[3]);
    let offset = int_arg(words[2])?;
    if offset < 0 {
        return Err(CommandError::OffsetOutOfRange);
    }
    let existing_len = keyspace.string(key)?.map(|bytes| bytes.len());
    if patch.is_empty() {
        return Ok(length_reply(existing_len.unwrap_or(0)));
    }
    check_length(offset, patch.len())?;
    // Within 512 MB, so the offset fits in memory terms.
    let offset = usize::try_from(offset).map_err(|_| CommandError::StringTooLong)?;
    let write = |bytes: &mut Vec<u8>| {
        let end = offset + patch.len();
        if bytes.len() < end {
            bytes.resize(end, 0);
        }
        bytes[offset..end].copy_from_slice(patch);
        bytes.len()
    };
    match keyspace.string_to_edit(key, StrForm::Raw)? {
        Some(bytes) => Ok(length_reply(write(bytes))),
        None => {
            let mut bytes = Vec::new();
            let len = write(&mut bytes);
            keyspace.insert(key, Value::Str(bytes, StrForm::Raw), None);
            Ok(length_reply(len))
        }
    }
}
