//! Taking and sampling sorted-set members: ZPOPMIN/ZPOPMAX, ZMPOP, the blocking forms
//! BZPOPMIN/BZPOPMAX/BZMPOP, ZRANDMEMBER and ZSCAN.
//!
//! The blocking forms read their timeout with the list forms' [`parse_timeout`] and, when every
//! key is empty, leave what happens next to the same [`when_nothing_to_pop`]: nil at once inside
//! MULTI or a script, the virtual clock moved on by the timeout for a plain client.

use super::score_reply;
use crate::args::{is, parse_int};
#[cfg(feature = "full")]
use crate::cmd::blocking::{keys_then_timeout, parse_timeout, when_nothing_to_pop, Wait};
use crate::cmd::hashes::{random_count, random_picks};
use crate::cmd::{scan, CommandResult};
use crate::error::CommandError;
use crate::keyspace::{Keyspace, Ranked};
use crate::reply::Reply;

/// Which end a pop takes from.
#[derive(Clone, Copy, PartialEq)]
enum End {
    Min,
    Max,
}

/// How a pop lays out its reply.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// ZPOPMIN/ZPOPMAX: `member, score, …`.
    Flat,
    /// BZPOPMIN/BZPOPMAX: `key, member, score`.
    KeyFirst,
    /// ZMPOP/BZMPOP: `key, [[member, score], …]`.
    Nested,
}

/// `ZPOPMIN key [count]` — member, score, … for the lowest `count` (default 1) members.
pub(crate) fn zpopmin(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    pop_command(keyspace, words, End::Min)
}

/// `ZPOPMAX key [count]` — member, score, … for the highest `count` (default 1) members.
pub(crate) fn zpopmax(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    pop_command(keyspace, words, End::Max)
}

fn pop_command(keyspace: &mut Keyspace, words: &[&[u8]], end: End) -> CommandResult {
    let count = match words {
        [_, _] => None,
        [_, _, count] => match parse_int(count) {
            Some(n) if n >= 0 => Some(n),
            _ => return Err(CommandError::NotPositive),
        },
        _ => return Err(CommandError::Syntax),
    };
    pop(keyspace, &words[1..2], end, count, Shape::Flat)
}

/// Redis's `genericZpopCommand`: the first key that exists must be a sorted set and is the one
/// popped from; without one the reply is empty (nil for the nested and key-first shapes).
fn pop(
    keyspace: &mut Keyspace,
    keys: &[&[u8]],
    end: End,
    count: Option<i64>,
    shape: Shape,
) -> CommandResult {
    let mut found = None;
    for key in keys {
        if keyspace.zset(key)?.is_some() {
            found = Some(*key);
            break;
        }
    }
    let Some(key) = found else {
        return Ok(match shape {
            Shape::Flat => Reply::Array(Vec::new()),
            _ => Reply::Nil,
        });
    };
    if count == Some(0) {
        return Ok(Reply::Array(Vec::new()));
    }
    let count = count.unwrap_or(1);
    let mut popped = Vec::new();
    if let Some(set) = keyspace.zset_mut(key)? {
        for _ in 0..count {
            let next = match end {
                End::Min => set.pop_min(),
                End::Max => set.pop_max(),
            };
            let Some(Ranked { score, member }) = next else {
                break;
            };
            popped.push((member, score));
        }
    }
    keyspace.remove_if_empty(key);
    Ok(match shape {
        Shape::Flat | Shape::KeyFirst => {
            let mut flat = Vec::with_capacity(popped.len() * 2 + 1);
            if shape == Shape::KeyFirst {
                flat.push(Reply::bulk(key));
            }
            for (member, score) in popped {
                flat.push(Reply::Bulk(member));
                flat.push(score_reply(score));
            }
            Reply::Array(flat)
        }
        Shape::Nested => Reply::Array(vec![
            Reply::bulk(key),
            Reply::Array(
                popped
                    .into_iter()
                    .map(|(member, score)| {
                        Reply::Array(vec![Reply::Bulk(member), score_reply(score)])
                    })
                    .collect(),
            ),
        ]),
    })
}

/// `ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]`
pub(crate) fn zmpop(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (keys, end, count) = parse_mpop(words, 1)?;
    pop(keyspace, keys, end, Some(count), Shape::Nested)
}

/// `BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]` — ZMPOP that may wait; the
/// timeout is read after everything else, as Redis does.
#[cfg(feature = "full")]
pub(crate) fn bzmpop(keyspace: &mut Keyspace, words: &[&[u8]], wait: Wait) -> CommandResult {
    let (keys, end, count) = parse_mpop(words, 2)?;
    let timeout = parse_timeout(words[1])?;
    match pop(keyspace, keys, end, Some(count), Shape::Nested)? {
        Reply::Nil => when_nothing_to_pop(keyspace, wait, timeout, "bzmpop"),
        reply => Ok(reply),
    }
}

/// ZMPOP's arguments from `words[numkeys_at]` on, checked in Redis's order: the keys, the end
/// and the count (default 1).
fn parse_mpop<'w>(
    words: &'w [&'w [u8]],
    numkeys_at: usize,
) -> Result<(&'w [&'w [u8]], End, i64), CommandError> {
    let numkeys = match parse_int(words[numkeys_at]) {
        Some(n) if n >= 1 => usize::try_from(n).unwrap_or(usize::MAX),
        _ => return Err(CommandError::NumkeysNotPositive),
    };
    let where_at = numkeys_at.saturating_add(numkeys).saturating_add(1);
    let end = match words.get(where_at) {
        Some(word) if is(word, "min") => End::Min,
        Some(word) if is(word, "max") => End::Max,
        _ => return Err(CommandError::Syntax),
    };
    let mut count = None;
    let mut at = where_at + 1;
    while at < words.len() {
        if count.is_none() && is(words[at], "count") && at + 1 < words.len() {
            match parse_int(words[at + 1]) {
                Some(n) if n >= 1 => count = Some(n),
                _ => return Err(CommandError::CountNotPositive),
            }
            at += 2;
        } else {
            return Err(CommandError::Syntax);
        }
    }
    Ok((&words[numkeys_at + 1..where_at], end, count.unwrap_or(1)))
}

/// `BZPOPMIN key [key ...] timeout`
#[cfg(feature = "full")]
pub(crate) fn bzpopmin(keyspace: &mut Keyspace, words: &[&[u8]], wait: Wait) -> CommandResult {
    blocking_pop(keyspace, words, End::Min, wait, "bzpopmin")
}

/// `BZPOPMAX key [key ...] timeout`
#[cfg(feature = "full")]
pub(crate) fn bzpopmax(keyspace: &mut Keyspace, words: &[&[u8]], wait: Wait) -> CommandResult {
    blocking_pop(keyspace, words, End::Max, wait, "bzpopmax")
}

#[cfg(feature = "full")]
fn blocking_pop(
    keyspace: &mut Keyspace,
    words: &[&[u8]],
    end: End,
    wait: Wait,
    command: &'static str,
) -> CommandResult {
    let (keys, timeout) = keys_then_timeout(words, command)?;
    match pop(keyspace, keys, end, None, Shape::KeyFirst)? {
        Reply::Nil => when_nothing_to_pop(keyspace, wait, timeout, command),
        reply => Ok(reply),
    }
}

/// `ZRANDMEMBER key [count [WITHSCORES]]` — random members from the store's seeded generator,
/// with HRANDFIELD's rules for positive and negative counts.
pub(crate) fn zrandmember(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (count, with_scores) = match words {
        [_, _] => {
            let Some(set) = keyspace.zset(words[1])? else {
                return Ok(Reply::Nil);
            };
            let len = set.len();
            let pick = keyspace.rng().below(len);
            let member = keyspace
                .zset(words[1])?
                .and_then(|set| set.iter().nth(pick))
                .map_or(Reply::Nil, |r| Reply::bulk(r.member.as_slice()));
            return Ok(member);
        }
        [_, _, count, rest @ ..] => {
            let count = random_count(count)?;
            match rest {
                [] => (count, false),
                [option] if is(option, "withscores") => {
                    if !(-(i64::MAX / 2)..=i64::MAX / 2).contains(&count) {
                        return Err(CommandError::ValueOutOfRange);
                    }
                    (count, true)
                }
                _ => return Err(CommandError::Syntax),
            }
        }
        _ => return Err(CommandError::Syntax),
    };
    let Some(set) = keyspace.zset(words[1])? else {
        return Ok(Reply::Array(Vec::new()));
    };
    let (len, compact) = (set.len(), set.is_compact());
    let whole = usize::try_from(count).is_ok_and(|count| count > 1 && count >= len);
    let picks = if whole {
        // Redis hands a whole sorted set back from its highest member down.
        (0..len).rev().collect()
    } else {
        random_picks(keyspace, len, count, compact)?
    };
    let Some(set) = keyspace.zset(words[1])? else {
        return Ok(Reply::Array(Vec::new()));
    };
    let members: Vec<&Ranked> = set.iter().collect();
    let mut flat = Vec::new();
    for ranked in picks.into_iter().filter_map(|at| members.get(at)) {
        flat.push(Reply::bulk(ranked.member.as_slice()));
        if with_scores {
            flat.push(score_reply(ranked.score));
        }
    }
    Ok(Reply::Array(flat))
}

/// `ZSCAN key cursor [MATCH pattern] [COUNT count]` — member, score pairs: a compact set whole
/// in rank order, a larger one in the walk's order.
pub(crate) fn zscan(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let cursor = scan::parse_cursor(words[2])?;
    let Some(set) = keyspace.zset(words[1])? else {
        return Ok(scan::reply(0, Vec::new()));
    };
    let options = scan::parse_options(words, 3)?;
    let compact = set.is_compact();
    let members = set.iter().map(|ranked| (ranked.member.as_slice(), ranked));
    let (next, page) = if compact {
        (0, members.collect())
    } else {
        scan::hashed_page(members, cursor, options.count)
    };
    let mut flat = Vec::new();
    for (_, ranked) in page {
        if options.keeps(&ranked.member) {
            flat.push(Reply::bulk(ranked.member.as_slice()));
            flat.push(if compact {
                Reply::bulk(super::listpack_score(ranked.score))
            } else {
                score_reply(ranked.score)
            });
        }
    }
    Ok(scan::reply(next, flat))
}

#[cfg(all(test, feature = "full"))]
mod tests {
    use super::*;

    #[test]
    fn a_plain_client_waits_out_the_timeout_on_the_virtual_clock() {
        let mut keyspace = Keyspace::default();
        let min = bzpopmin(&mut keyspace, &[b"bzpopmin", b"z", b"1.5"], Wait::Client);
        assert_eq!(min, Ok(Reply::Nil));
        assert_eq!(keyspace.clock_ms(), 1500);
        let max = bzpopmax(&mut keyspace, &[b"bzpopmax", b"z", b"0.5"], Wait::Client);
        assert_eq!(max, Ok(Reply::Nil));
        assert_eq!(keyspace.clock_ms(), 2000);
        let words: [&[u8]; 5] = [b"bzmpop", b"0.25", b"1", b"z", b"min"];
        assert_eq!(bzmpop(&mut keyspace, &words, Wait::Client), Ok(Reply::Nil));
        assert_eq!(keyspace.clock_ms(), 2250);
        for never in [
            bzpopmin(&mut keyspace, &[b"bzpopmin", b"z", b"0"], Wait::Never),
            bzmpop(
                &mut keyspace,
                &[b"bzmpop", b"9", b"1", b"z", b"max"],
                Wait::Never,
            ),
        ] {
            assert_eq!(never, Ok(Reply::Nil));
        }
        assert_eq!(keyspace.clock_ms(), 2250);
    }

    #[test]
    fn timeout_0_from_a_plain_client_would_block_forever() {
        let mut keyspace = Keyspace::default();
        type Run = fn(&mut Keyspace, &[&[u8]], Wait) -> CommandResult;
        let cases: [(Run, &[&[u8]], &str); 3] = [
            (bzpopmin, &[b"bzpopmin", b"z", b"0"], "bzpopmin"),
            (bzpopmax, &[b"bzpopmax", b"z", b"-0.0001"], "bzpopmax"),
            (bzmpop, &[b"bzmpop", b"0", b"1", b"z", b"min"], "bzmpop"),
        ];
        for (run, words, command) in cases {
            assert_eq!(
                run(&mut keyspace, words, Wait::Client),
                Err(CommandError::WouldBlockForever { command })
            );
        }
        assert_eq!(keyspace.clock_ms(), 0);
    }
}
