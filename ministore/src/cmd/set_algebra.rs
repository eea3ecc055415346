//! Set algebra: SINTER SUNION SDIFF, their STORE forms, and SINTERCARD. Every key is
//! type-checked before anything is computed (a missing key is an empty set), as in Redis.
//! SINTER replies in the order of its smallest set; the others build their result as Redis
//! 7.0 does — starting as an intset, so an all-integer result replies ascending — and reply
//! in that result's order.

use super::lists::len_reply;
use super::sets::store_set;
use super::CommandResult;
use crate::args::{is, parse_int};
use crate::error::CommandError;
use crate::keyspace::{Keyspace, SetValue};
use crate::order;
use crate::reply::Reply;

/// Which operation.
#[derive(Clone, Copy)]
enum Op {
    Inter,
    Union,
    Diff,
}

/// Checks that every key is a set or missing (`WRONGTYPE` otherwise).
fn check_types(keyspace: &mut Keyspace, keys: &[&[u8]]) -> Result<(), CommandError> {
    for key in keys {
        keyspace.set(key)?;
    }
    Ok(())
}

/// The members of the intersection, in the order of the smallest set (the earliest of equal
/// sizes), at most `limit` of them.
fn intersection(keyspace: &Keyspace, keys: &[&[u8]], limit: usize) -> Vec<Vec<u8>> {
    let mut sets = Vec::with_capacity(keys.len());
    for key in keys {
        match keyspace.peek_set(key) {
            Some(set) => sets.push(set),
            None => return Vec::new(),
        }
    }
    order::sort_by(&mut sets, |a, b| a.len().cmp(&b.len()));
    let Some((smallest, others)) = sets.split_first() else {
        return Vec::new();
    };
    smallest
        .members()
        .into_iter()
        .filter(|m| others.iter().all(|set| set.contains(m)))
        .take(limit)
        .collect()
}

/// The result set of `op` over `keys`, built the way Redis 7.0 builds it.
fn compute(keyspace: &Keyspace, keys: &[&[u8]], op: Op) -> SetValue {
    let mut result = SetValue::empty_intset();
    match op {
        Op::Inter => {
            for member in intersection(keyspace, keys, usize::MAX) {
                result.insert(&member);
            }
        }
        Op::Union => {
            return SetValue::union_of(keys.iter().filter_map(|key| keyspace.peek_set(key)));
        }
        Op::Diff => {
            let Some((first, others)) = keys.split_first() else {
                return result;
            };
            let others: Vec<&SetValue> =
                others.iter().filter_map(|k| keyspace.peek_set(k)).collect();
            for member in keyspace
                .peek_set(first)
                .map_or_else(Vec::new, |s| s.members())
            {
                if !others.iter().any(|set| set.contains(&member)) {
                    result.insert(&member);
                }
            }
        }
    }
    result
}

fn reply_members(members: Vec<Vec<u8>>) -> Reply {
    Reply::Array(members.into_iter().map(Reply::Bulk).collect())
}

fn run(keyspace: &mut Keyspace, keys: &[&[u8]], op: Op) -> CommandResult {
    check_types(keyspace, keys)?;
    Ok(match op {
        Op::Inter => reply_members(intersection(keyspace, keys, usize::MAX)),
        _ => reply_members(compute(keyspace, keys, op).members()),
    })
}

fn run_store(keyspace: &mut Keyspace, words: &[&[u8]], op: Op) -> CommandResult {
    let keys = &words[2..];
    check_types(keyspace, keys)?;
    let result = compute(keyspace, keys, op);
    Ok(store_set(keyspace, words[1], result))
}

/// `SINTER key [key ...]`
pub(crate) fn sinter(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    run(keyspace, &words[1..], Op::Inter)
}

/// `SUNION key [key ...]`
pub(crate) fn sunion(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    run(keyspace, &words[1..], Op::Union)
}

/// `SDIFF key [key ...]` — the first set without the members of the others.
pub(crate) fn sdiff(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    run(keyspace, &words[1..], Op::Diff)
}

/// `SINTERSTORE destination key [key ...]` — the size stored.
pub(crate) fn sinterstore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    run_store(keyspace, words, Op::Inter)
}

/// `SUNIONSTORE destination key [key ...]`
pub(crate) fn sunionstore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    run_store(keyspace, words, Op::Union)
}

/// `SDIFFSTORE destination key [key ...]`
pub(crate) fn sdiffstore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    run_store(keyspace, words, Op::Diff)
}

/// `SINTERCARD numkeys key [key ...] [LIMIT limit]` — the intersection's size, counting
/// no further than `limit` (0: no limit).
pub(crate) fn sintercard(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let numkeys = match parse_int(words[1]) {
        Some(n) if n > 0 => usize::try_from(n).unwrap_or(usize::MAX),
        _ => return Err(CommandError::NumkeysNotPositive),
    };
    if numkeys > words.len() - 2 {
        return Err(CommandError::TooManyKeys);
    }
    let keys = &words[2..2 + numkeys];
    let mut limit = 0usize;
    let mut at = 2 + numkeys;
    while at < words.len() {
        if is(words[at], "limit") && at + 1 < words.len() {
            limit = match parse_int(words[at + 1]) {
                Some(n) if n >= 0 => usize::try_from(n).unwrap_or(usize::MAX),
                _ => return Err(CommandError::LimitNegative),
            };
            at += 2;
        } else {
            return Err(CommandError::Syntax);
        }
    }
    check_types(keyspace, keys)?;
    let limit = if limit == 0 { usize::MAX } else { limit };
    Ok(len_reply(intersection(keyspace, keys, limit).len()))
}
