//! Set commands: SADD SREM SCARD SISMEMBER SMISMEMBER SMEMBERS SMOVE SPOP SRANDMEMBER SSCAN,
//! with Redis 7.0's argument checks in Redis's order; the algebra (SINTER and friends) is in
//! `set_algebra.rs`. An all-integer set replies in ascending order as Redis's intset does; a
//! hashtable set replies in ministore's own order, where Redis's depends on a per-process
//! hash seed. SPOP and SRANDMEMBER pick with the store's seeded random source.

use super::hashes::MAX_RANDOM_REPLY;
use super::lists::len_reply;
use super::{scan, CommandResult};
use crate::args::{int_arg, is, parse_int};
use crate::error::CommandError;
use crate::glob;
use crate::keyspace::{Keyspace, SetValue, Value};
use crate::reply::Reply;
use crate::rng::Rng;

fn members_reply(members: Vec<Vec<u8>>) -> Reply {
    Reply::Array(members.into_iter().map(Reply::Bulk).collect())
}

/// `SADD key member [member ...]` — how many were new.
pub(crate) fn sadd(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let set = keyspace.set_or_insert(words[1], words[2])?;
    let added = words[2..].iter().filter(|m| set.insert(m)).count();
    Ok(len_reply(added))
}

/// `SREM key member [member ...]` — how many were removed; an emptied set is deleted.
pub(crate) fn srem(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let Some(set) = keyspace.set_mut(words[1])? else {
        return Ok(Reply::Integer(0));
    };
    let removed = words[2..].iter().filter(|m| set.remove(m)).count();
    keyspace.remove_if_empty(words[1]);
    Ok(len_reply(removed))
}

/// `SCARD key`
pub(crate) fn scard(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(len_reply(keyspace.set(words[1])?.map_or(0, |s| s.len())))
}

/// `SISMEMBER key member`
pub(crate) fn sismember(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let found = keyspace
        .set(words[1])?
        .is_some_and(|s| s.contains(words[2]));
    Ok(Reply::Integer(i64::from(found)))
}

/// `SMISMEMBER key member [member ...]` — 1 or 0 per member.
pub(crate) fn smismember(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let set = keyspace.set(words[1])?;
    let found = words[2..]
        .iter()
        .map(|m| Reply::Integer(i64::from(set.as_ref().is_some_and(|s| s.contains(m)))))
        .collect();
    Ok(Reply::Array(found))
}

/// `SMEMBERS key`
pub(crate) fn smembers(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(members_reply(
        keyspace
            .set(words[1])?
            .map_or_else(Vec::new, |s| s.members()),
    ))
}

/// `SMOVE source destination member` — 1 if it moved. The destination's type is checked
/// only when the source exists, as in Redis.
pub(crate) fn smove(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (source, destination, member) = (words[1], words[2], words[3]);
    if keyspace.set(source)?.is_none() {
        return Ok(Reply::Integer(0));
    }
    keyspace.set(destination)?;
    if source == destination {
        let found = keyspace.set(source)?.is_some_and(|s| s.contains(member));
        return Ok(Reply::Integer(i64::from(found)));
    }
    if !keyspace.set_mut(source)?.is_some_and(|s| s.remove(member)) {
        return Ok(Reply::Integer(0));
    }
    keyspace.remove_if_empty(source);
    keyspace.set_or_insert(destination, member)?.insert(member);
    Ok(Reply::Integer(1))
}

/// Redis's `SPOP_MOVE_STRATEGY_MUL`: SPOP pops one by one while the members that would stay,
/// times this, outnumber the count.
const SPOP_MOVE_STRATEGY_MUL: usize = 5;

/// Removes and returns a random member.
fn pop_random(set: &mut SetValue, rng: &mut Rng) -> Option<Vec<u8>> {
    let member = set.nth(rng.below(set.len()))?;
    set.remove(&member);
    Some(member)
}

/// `SPOP key [count]` — one random member (or nil), or with a count that many as an array, by
/// Redis 7.0's three cases: a count covering the set returns it all as a union into a new set
/// would hold it (ascending when every member is an integer and an intset takes them) and
/// deletes the key; a count smaller than five times what would stay pops random members one
/// by one; a larger one draws the members that stay into a new set (an intset if they allow)
/// and returns the rest in the old set's order.
pub(crate) fn spop(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let count = match words {
        [_, _] => None,
        [_, _, count] => match parse_int(count) {
            Some(n) if n >= 0 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            _ => return Err(CommandError::NotPositive),
        },
        _ => return Err(CommandError::Syntax),
    };
    let Some((set, rng)) = keyspace.set_and_rng(words[1])? else {
        return Ok(count.map_or(Reply::Nil, |_| Reply::Array(Vec::new())));
    };
    let reply = match count {
        None => pop_random(set, rng).map_or(Reply::Nil, Reply::Bulk),
        Some(count) if count >= set.len() => {
            let all = SetValue::union_of([&*set]).members();
            *set = SetValue::empty_intset();
            members_reply(all)
        }
        Some(count) if (set.len() - count).saturating_mul(SPOP_MOVE_STRATEGY_MUL) > count => {
            members_reply((0..count).filter_map(|_| pop_random(set, rng)).collect())
        }
        Some(count) => {
            let mut staying: Option<SetValue> = None;
            for _ in 0..set.len() - count {
                if let Some(member) = pop_random(set, rng) {
                    staying
                        .get_or_insert_with(|| SetValue::for_first_member(&member))
                        .insert(&member);
                }
            }
            let popped = set.members();
            *set = staying.unwrap_or_else(SetValue::empty_intset);
            members_reply(popped)
        }
    };
    keyspace.remove_if_empty(words[1]);
    Ok(reply)
}

/// `SRANDMEMBER key [count]` — one random member, or `count` distinct ones (the whole set, in
/// SMEMBERS order, when it has no more), or for a negative count that many with repeats.
pub(crate) fn srandmember(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let count = match words {
        [_, _] => None,
        [_, _, count] => match int_arg(count)? {
            i64::MIN => return Err(CommandError::CountOutOfRange),
            n => Some(n),
        },
        _ => return Err(CommandError::Syntax),
    };
    let Some((set, rng)) = keyspace.set_and_rng(words[1])? else {
        return Ok(count.map_or(Reply::Nil, |_| Reply::Array(Vec::new())));
    };
    let Some(count) = count else {
        let at = rng.below(set.len());
        return Ok(set.nth(at).map_or(Reply::Nil, Reply::Bulk));
    };
    let wanted = usize::try_from(count.unsigned_abs()).unwrap_or(usize::MAX);
    if count < 0 {
        if wanted > MAX_RANDOM_REPLY {
            return Err(CommandError::ReplyTooLarge);
        }
        let picks = (0..wanted).filter_map(|_| set.nth(rng.below(set.len())));
        return Ok(members_reply(picks.collect()));
    }
    if wanted >= set.len() {
        return Ok(members_reply(set.members()));
    }
    // A partial Fisher–Yates shuffle of the positions picks `wanted` distinct members.
    let mut order: Vec<usize> = (0..set.len()).collect();
    for i in 0..wanted {
        let j = i + rng.below(order.len() - i);
        order.swap(i, j);
    }
    Ok(members_reply(
        order[..wanted]
            .iter()
            .filter_map(|&at| set.nth(at))
            .collect(),
    ))
}

/// `SSCAN key cursor [MATCH pattern] [COUNT count]` — ministore answers every scan in one
/// call with cursor 0, which Redis itself does for intsets; COUNT is only a hint in Redis.
pub(crate) fn sscan(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    scan::parse_cursor(words[2])?;
    let empty_scan = || Reply::Array(vec![Reply::bulk("0"), Reply::Array(Vec::new())]);
    let Some(set) = keyspace.set(words[1])? else {
        return Ok(empty_scan());
    };
    let mut pattern: Option<&[u8]> = None;
    let mut at = 3;
    while at < words.len() {
        let value = words.get(at + 1).ok_or(CommandError::Syntax)?;
        if is(words[at], "count") {
            if int_arg(value)? < 1 {
                return Err(CommandError::Syntax);
            }
        } else if is(words[at], "match") {
            pattern = Some(*value).filter(|p| *p != b"*");
        } else {
            return Err(CommandError::Syntax);
        }
        at += 2;
    }
    let mut members = set.members();
    if let Some(pattern) = pattern {
        members.retain(|m| glob::matches(pattern, m));
    }
    Ok(Reply::Array(vec![Reply::bulk("0"), members_reply(members)]))
}

/// Stores `result` at `destination` (replacing whatever was there, expiry included), or
/// deletes it when empty; the new size.
pub(crate) fn store_set(keyspace: &mut Keyspace, destination: &[u8], result: SetValue) -> Reply {
    let len = result.len();
    if len == 0 {
        keyspace.remove(destination);
    } else {
        keyspace.insert(destination, Value::Set(result), None);
    }
    len_reply(len)
}
