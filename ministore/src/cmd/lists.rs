//! List commands that never block: LPUSH RPUSH LPUSHX RPUSHX LPOP RPOP LLEN LRANGE LINDEX LSET
//! LINSERT LREM LTRIM LMOVE RPOPLPUSH LMPOP, with Redis 7.0's argument checks in Redis's order
//! (which decides which error a bad line gets). The pops and moves the blocking forms share
//! are here too; `blocking.rs` adds only the waiting, `list_search.rs` has LPOS.

use std::collections::VecDeque;

use super::CommandResult;
use crate::args::{int_arg, is, parse_int};
use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::reply::Reply;

/// Which end of a list.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum End {
    /// The head (`LEFT`).
    Left,
    /// The tail (`RIGHT`).
    Right,
}

/// `LEFT` or `RIGHT` in any case, else a syntax error.
pub(crate) fn parse_end(word: &[u8]) -> Result<End, CommandError> {
    if is(word, "left") {
        Ok(End::Left)
    } else if is(word, "right") {
        Ok(End::Right)
    } else {
        Err(CommandError::Syntax)
    }
}

fn push_at(list: &mut VecDeque<Vec<u8>>, end: End, value: Vec<u8>) {
    match end {
        End::Left => list.push_front(value),
        End::Right => list.push_back(value),
    }
}

fn pop_at(list: &mut VecDeque<Vec<u8>>, end: End) -> Option<Vec<u8>> {
    match end {
        End::Left => list.pop_front(),
        End::Right => list.pop_back(),
    }
}

pub(crate) fn len_reply(n: usize) -> Reply {
    Reply::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}

/// `LPUSH key element [element ...]` — the new length.
pub(crate) fn lpush(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    push(keyspace, words, End::Left, false)
}

/// `RPUSH key element [element ...]` — the new length.
pub(crate) fn rpush(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    push(keyspace, words, End::Right, false)
}

/// `LPUSHX key element [element ...]` — like LPUSH, but only onto an existing list (else 0).
pub(crate) fn lpushx(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    push(keyspace, words, End::Left, true)
}

/// `RPUSHX key element [element ...]` — like RPUSH, but only onto an existing list (else 0).
pub(crate) fn rpushx(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    push(keyspace, words, End::Right, true)
}

fn push(keyspace: &mut Keyspace, words: &[&[u8]], end: End, existing: bool) -> CommandResult {
    let list = if existing {
        match keyspace.list_mut(words[1])? {
            Some(list) => list,
            None => return Ok(Reply::Integer(0)),
        }
    } else {
        keyspace.list_or_insert(words[1])?
    };
    for value in &words[2..] {
        push_at(list, end, value.to_vec());
    }
    Ok(len_reply(list.len()))
}

/// `LPOP key [count]` — one element (or nil), or with a count an array (nil if the key is
/// missing).
pub(crate) fn lpop(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    pop(keyspace, words, End::Left)
}

/// `RPOP key [count]` — as LPOP, from the tail.
pub(crate) fn rpop(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    pop(keyspace, words, End::Right)
}

fn pop(keyspace: &mut Keyspace, words: &[&[u8]], end: End) -> CommandResult {
    let count = match words {
        [_, _] => None,
        [_, _, count] => Some(positive_count(count)?),
        _ => {
            return Err(CommandError::WrongArity {
                command: arity_name(end),
            })
        }
    };
    let Some(list) = keyspace.list_mut(words[1])? else {
        return Ok(Reply::Nil);
    };
    let reply = match count {
        None => pop_at(list, end).map_or(Reply::Nil, Reply::Bulk),
        Some(count) => {
            let take = count.min(list.len());
            Reply::Array(
                (0..take)
                    .filter_map(|_| pop_at(list, end))
                    .map(Reply::Bulk)
                    .collect(),
            )
        }
    };
    keyspace.remove_if_empty(words[1]);
    Ok(reply)
}

fn arity_name(end: End) -> &'static str {
    match end {
        End::Left => "lpop",
        End::Right => "rpop",
    }
}

/// A count that must be zero or more; anything else (words too) is "must be positive".
fn positive_count(word: &[u8]) -> Result<usize, CommandError> {
    match parse_int(word) {
        Some(n) if n >= 0 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        _ => Err(CommandError::NotPositive),
    }
}

/// `LLEN key`
pub(crate) fn llen(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(len_reply(keyspace.list(words[1])?.map_or(0, |l| l.len())))
}

/// The positions `start..=stop` select in a list of `len`, as LRANGE and LTRIM read them
/// (negative counts from the tail, ends clamped); `None` when they select nothing.
fn span(start: i64, stop: i64, len: usize) -> Option<(usize, usize)> {
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    let start = if start < 0 {
        (start + len).max(0)
    } else {
        start
    };
    let stop = if stop < 0 { stop + len } else { stop };
    if start > stop || start >= len {
        return None;
    }
    let stop = stop.min(len - 1);
    Some((usize::try_from(start).ok()?, usize::try_from(stop).ok()?))
}

/// `LRANGE key start stop`
pub(crate) fn lrange(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (start, stop) = (int_arg(words[2])?, int_arg(words[3])?);
    let Some(list) = keyspace.list(words[1])? else {
        return Ok(Reply::Array(Vec::new()));
    };
    let items = match span(start, stop, list.len()) {
        Some((from, to)) => list
            .range(from..=to)
            .map(|v| Reply::bulk(v.as_slice()))
            .collect(),
        None => Vec::new(),
    };
    Ok(Reply::Array(items))
}

/// `LTRIM key start stop` — keeps only that span; an emptied list is deleted.
pub(crate) fn ltrim(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (start, stop) = (int_arg(words[2])?, int_arg(words[3])?);
    if let Some(list) = keyspace.list_mut(words[1])? {
        match span(start, stop, list.len()) {
            Some((from, to)) => {
                list.truncate(to + 1);
                list.drain(..from);
            }
            None => list.clear(),
        }
        keyspace.remove_if_empty(words[1]);
        // Signalled even when the range kept every element.
        keyspace.signal_modified(words[1]);
    }
    Ok(Reply::ok())
}

/// A list index (negative from the tail) as a position, if it is inside the list.
fn position(index: i64, len: usize) -> Option<usize> {
    let len_i = i64::try_from(len).ok()?;
    let at = if index < 0 {
        index.checked_add(len_i)?
    } else {
        index
    };
    usize::try_from(at).ok().filter(|&at| at < len)
}

/// `LINDEX key index` — the key is looked up before the index is read, as in Redis.
pub(crate) fn lindex(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let Some(list) = keyspace.list(words[1])? else {
        return Ok(Reply::Nil);
    };
    let index = int_arg(words[2])?;
    Ok(position(index, list.len())
        .and_then(|at| list.get(at))
        .map_or(Reply::Nil, |v| Reply::bulk(v.as_slice())))
}

/// `LSET key index element`
pub(crate) fn lset(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let list = keyspace
        .list_mut(words[1])?
        .ok_or(CommandError::NoSuchKey)?;
    let index = int_arg(words[2])?;
    let slot = position(index, list.len())
        .and_then(|at| list.get_mut(at))
        .ok_or(CommandError::IndexOutOfRange)?;
    *slot = words[3].to_vec();
    // Signalled even when the element was already this value.
    keyspace.signal_modified(words[1]);
    Ok(Reply::ok())
}

/// `LINSERT key BEFORE|AFTER pivot element` — the new length, -1 without the pivot, 0
/// without the key.
pub(crate) fn linsert(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let after = if is(words[2], "after") {
        true
    } else if is(words[2], "before") {
        false
    } else {
        return Err(CommandError::Syntax);
    };
    let Some(list) = keyspace.list_mut(words[1])? else {
        return Ok(Reply::Integer(0));
    };
    let Some(at) = list.iter().position(|v| v.as_slice() == words[3]) else {
        return Ok(Reply::Integer(-1));
    };
    list.insert(at + usize::from(after), words[4].to_vec());
    Ok(len_reply(list.len()))
}

/// `LREM key count element` — removes `count` matches from the head (from the tail if
/// negative, all if 0); how many went.
pub(crate) fn lrem(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let count = int_arg(words[2])?;
    let Some(list) = keyspace.list_mut(words[1])? else {
        return Ok(Reply::Integer(0));
    };
    let limit = usize::try_from(count.unsigned_abs()).unwrap_or(usize::MAX);
    let limit = if count == 0 { usize::MAX } else { limit };
    let target = words[3];
    let mut removed = 0;
    if count < 0 {
        let mut at = list.len();
        while at > 0 && removed < limit {
            at -= 1;
            if list[at].as_slice() == target {
                list.remove(at);
                removed += 1;
            }
        }
    } else {
        let mut at = 0;
        while at < list.len() && removed < limit {
            if list[at].as_slice() == target {
                list.remove(at);
                removed += 1;
            } else {
                at += 1;
            }
        }
    }
    keyspace.remove_if_empty(words[1]);
    Ok(len_reply(removed))
}

/// `LMOVE source destination LEFT|RIGHT LEFT|RIGHT` — the element moved, or nil.
pub(crate) fn lmove(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (from, to) = (parse_end(words[3])?, parse_end(words[4])?);
    Ok(move_element(keyspace, words[1], words[2], from, to)?.map_or(Reply::Nil, Reply::Bulk))
}

/// `RPOPLPUSH source destination` — LMOVE source destination RIGHT LEFT.
pub(crate) fn rpoplpush(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(
        move_element(keyspace, words[1], words[2], End::Right, End::Left)?
            .map_or(Reply::Nil, Reply::Bulk),
    )
}

/// Pops from `source`'s `from` end and pushes onto `destination`'s `to` end (the same list
/// rotates). `None` without a source; the destination's type is checked only then, as Redis.
pub(crate) fn move_element(
    keyspace: &mut Keyspace,
    source: &[u8],
    destination: &[u8],
    from: End,
    to: End,
) -> Result<Option<Vec<u8>>, CommandError> {
    if keyspace.list(source)?.is_none() {
        return Ok(None);
    }
    keyspace.list(destination)?;
    let Some(value) = keyspace
        .list_mut(source)?
        .and_then(|list| pop_at(list, from))
    else {
        return Ok(None);
    };
    push_at(keyspace.list_or_insert(destination)?, to, value.clone());
    keyspace.remove_if_empty(source);
    // A list moved onto itself may come out as it was (one element, or the same end); Redis
    // signals both keys all the same.
    keyspace.signal_modified(source);
    keyspace.signal_modified(destination);
    Ok(Some(value))
}

/// What LMPOP and BLMPOP read after their numkeys.
pub(crate) struct MultiPop<'a> {
    /// The keys to try, in order.
    pub(crate) keys: &'a [&'a [u8]],
    /// The end to pop from.
    pub(crate) end: End,
    /// How many elements at most.
    pub(crate) count: usize,
}

/// Parses `numkeys key... LEFT|RIGHT [COUNT count]` starting at `words[at]`, with Redis's
/// errors in Redis's order.
pub(crate) fn parse_multi_pop<'a>(
    words: &'a [&'a [u8]],
    at: usize,
) -> Result<MultiPop<'a>, CommandError> {
    let numkeys = match words.get(at).and_then(|w| parse_int(w)) {
        Some(n) if n > 0 => usize::try_from(n).unwrap_or(usize::MAX),
        _ => return Err(CommandError::NumkeysNotPositive),
    };
    let keys_at = at + 1;
    let end_at = keys_at
        .checked_add(numkeys)
        .filter(|&i| i < words.len())
        .ok_or(CommandError::Syntax)?;
    let end = parse_end(words[end_at])?;
    let mut count = None;
    let mut next = end_at + 1;
    while next < words.len() {
        if is(words[next], "count") && next + 1 < words.len() && count.is_none() {
            count = match parse_int(words[next + 1]) {
                Some(n) if n > 0 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
                _ => return Err(CommandError::CountNotPositive),
            };
            next += 2;
        } else {
            return Err(CommandError::Syntax);
        }
    }
    Ok(MultiPop {
        keys: &words[keys_at..end_at],
        end,
        count: count.unwrap_or(1),
    })
}

/// Pops up to `count` elements from the first of `keys` that holds a list: `[key, [elements]]`,
/// or `None` when none does. A key of another type met on the way is an error.
pub(crate) fn pop_from_first(
    keyspace: &mut Keyspace,
    pop: &MultiPop<'_>,
) -> Result<Option<Reply>, CommandError> {
    for &key in pop.keys {
        let Some(list) = keyspace.list_mut(key)? else {
            continue;
        };
        let take = pop.count.min(list.len());
        let popped: Vec<Reply> = (0..take)
            .filter_map(|_| pop_at(list, pop.end))
            .map(Reply::Bulk)
            .collect();
        keyspace.remove_if_empty(key);
        return Ok(Some(Reply::Array(vec![
            Reply::bulk(key),
            Reply::Array(popped),
        ])));
    }
    Ok(None)
}

/// `LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]`
pub(crate) fn lmpop(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let pop = parse_multi_pop(words, 1)?;
    Ok(pop_from_first(keyspace, &pop)?.unwrap_or(Reply::Nil))
}

/// Pops one element from the first of `keys` that holds a list: `[key, element]` (BLPOP's
/// reply), or `None`.
pub(crate) fn pop_one_from_first(
    keyspace: &mut Keyspace,
    keys: &[&[u8]],
    end: End,
) -> Result<Option<Reply>, CommandError> {
    for &key in keys {
        let Some(value) = keyspace.list_mut(key)?.and_then(|list| pop_at(list, end)) else {
            continue;
        };
        keyspace.remove_if_empty(key);
        return Ok(Some(Reply::Array(vec![
            Reply::bulk(key),
            Reply::Bulk(value),
        ])));
    }
    Ok(None)
}
