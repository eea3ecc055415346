//! Sorted-set commands. This file: ZADD (NX XX GT LT CH INCR) and ZINCRBY, ZREM, ZSCORE,
//! ZMSCORE, ZCARD, ZCOUNT, ZRANK/ZREVRANK, and Redis 7.0's score formats (`%.17g`, and a
//! listpack's for ZSCAN). Ranges live
//! in [`range`], pops, sampling and ZSCAN in [`pop`], unions and intersections in [`setops`].

pub(crate) mod pop;
pub(crate) mod range;
pub(crate) mod setops;

use super::CommandResult;
use crate::args::{is, score_arg, ArgCursor};
use crate::error::CommandError;
use crate::keyspace::{Keyspace, SortedSet};
use crate::numtext::format_number_g;
use crate::reply::Reply;

/// A score as Redis 7.0 replies it: C's `%.17g`, so `0.1` is `0.10000000000000001`, whole
/// numbers print without a decimal point, infinities as `inf` / `-inf`, and a NaN (which no
/// stored score is) as `nan` whatever its sign.
pub(crate) fn format_score(score: f64) -> String {
    if score.is_nan() {
        return "nan".to_string();
    }
    format_number_g(score, 17)
}

/// A score as a listpack-encoded set keeps it, which ZSCAN replies as it is: a whole number
/// within ±`LLONG_MAX / 2` as an integer (`double2ll`), so `1e17` is `100000000000000000` and
/// `-0` is `0`; any other score as [`format_score`] writes it.
pub(crate) fn listpack_score(score: f64) -> String {
    const HALF: f64 = (i64::MAX / 2) as f64;
    if (-HALF..=HALF).contains(&score) {
        // In range, so the cast truncates without saturating; equal means nothing was cut.
        let whole = score as i64;
        if whole as f64 == score {
            return whole.to_string();
        }
    }
    format_score(score)
}

/// A score as a bulk reply.
pub(crate) fn score_reply(score: f64) -> Reply {
    Reply::Bulk(format_score(score).into_bytes())
}

/// ZADD's flags.
#[derive(Default)]
struct ZAddFlags {
    nx: bool,
    xx: bool,
    gt: bool,
    lt: bool,
    ch: bool,
    incr: bool,
}

/// `ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]`
pub(crate) fn zadd(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    zadd_with(keyspace, words, ZAddFlags::default())
}

/// ZADD with some flags already set (ZINCRBY sets INCR); the words may add more.
fn zadd_with(keyspace: &mut Keyspace, words: &[&[u8]], mut flags: ZAddFlags) -> CommandResult {
    let mut cursor = ArgCursor::new(words, 2);
    while let Some(word) = cursor.peek() {
        let flag = match () {
            _ if is(word, "nx") => &mut flags.nx,
            _ if is(word, "xx") => &mut flags.xx,
            _ if is(word, "ch") => &mut flags.ch,
            _ if is(word, "incr") => &mut flags.incr,
            _ if is(word, "gt") => &mut flags.gt,
            _ if is(word, "lt") => &mut flags.lt,
            _ => break,
        };
        *flag = true;
        cursor.skip(1);
    }
    let pairs = cursor.rest();
    if pairs.is_empty() || pairs.len() % 2 == 1 {
        return Err(CommandError::Syntax);
    }
    if flags.nx && flags.xx {
        return Err(CommandError::ZAddXxNxConflict);
    }
    if (flags.gt || flags.lt) && flags.nx || (flags.gt && flags.lt) {
        return Err(CommandError::ZAddGtLtNxConflict);
    }
    if flags.incr && pairs.len() > 2 {
        return Err(CommandError::ZAddIncrSinglePair);
    }
    // Every score is checked before anything changes: ZADD applies all pairs or none.
    let scores = pairs
        .chunks_exact(2)
        .map(|pair| score_arg(pair[0]))
        .collect::<Result<Vec<f64>, _>>()?;
    let key = words[1];
    let set = match keyspace.zset(key)? {
        Some(_) => keyspace.zset_or_insert(key, true)?,
        None if flags.xx => return Ok(zadd_reply(&flags, 0, None)),
        None => {
            // Redis 7.0 picks the new set's encoding from the first member alone.
            keyspace.zset_or_insert(key, SortedSet::starts_compact(pairs[1].len()))?
        }
    };
    let mut changed = 0;
    let mut last_score = None;
    // Redis signals the key once anything was added or updated, even when a later pair puts a
    // score back (`ZADD z 2 a 1 a`), so a WATCH sees the write though the set ends as it was.
    let mut wrote = false;
    for (pair, &score) in pairs.chunks_exact(2).zip(&scores) {
        let member = pair[1];
        match add_one(set, member, score, &flags) {
            Ok(AddOutcome::Added(score)) => {
                changed += 1;
                wrote = true;
                last_score = Some(score);
            }
            Ok(AddOutcome::Updated(score)) => {
                if flags.ch {
                    changed += 1;
                }
                wrote = true;
                last_score = Some(score);
            }
            Ok(AddOutcome::Unchanged(score)) => last_score = Some(score),
            Ok(AddOutcome::Skipped) => last_score = None,
            Err(error) => {
                keyspace.remove_if_empty(key);
                return Err(error);
            }
        }
    }
    if wrote {
        keyspace.signal_modified(key);
    }
    Ok(zadd_reply(&flags, changed, last_score))
}

fn zadd_reply(flags: &ZAddFlags, changed: i64, last_score: Option<f64>) -> Reply {
    if flags.incr {
        last_score.map_or(Reply::Nil, score_reply)
    } else {
        Reply::Integer(changed)
    }
}

/// What ZADD did with one pair (Redis's `zsetAdd` out-flags), with the member's score after.
enum AddOutcome {
    Added(f64),
    Updated(f64),
    Unchanged(f64),
    Skipped,
}

fn add_one(
    set: &mut SortedSet,
    member: &[u8],
    score: f64,
    flags: &ZAddFlags,
) -> Result<AddOutcome, CommandError> {
    match set.score(member) {
        Some(current) => {
            if flags.nx {
                return Ok(AddOutcome::Skipped);
            }
            let target = if flags.incr { score + current } else { score };
            if target.is_nan() {
                return Err(CommandError::ScoreIsNaN);
            }
            if (flags.lt && target >= current) || (flags.gt && target <= current) {
                return Ok(AddOutcome::Skipped);
            }
            if target == current {
                return Ok(AddOutcome::Unchanged(target));
            }
            set.insert(member, target);
            Ok(AddOutcome::Updated(target))
        }
        None if flags.xx => Ok(AddOutcome::Skipped),
        None => {
            set.insert(member, score);
            Ok(AddOutcome::Added(score))
        }
    }
}

/// `ZREM key member [member ...]` — how many were removed; an emptied set is deleted.
pub(crate) fn zrem(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let Some(set) = keyspace.zset_mut(words[1])? else {
        return Ok(Reply::Integer(0));
    };
    let removed = words[2..]
        .iter()
        .filter(|member| set.remove(member))
        .count();
    keyspace.remove_if_empty(words[1]);
    Ok(Reply::Integer(i64::try_from(removed).unwrap_or(i64::MAX)))
}

/// `ZSCORE key member`
pub(crate) fn zscore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let score = keyspace.zset(words[1])?.and_then(|set| set.score(words[2]));
    Ok(score.map_or(Reply::Nil, score_reply))
}

/// `ZMSCORE key member [member ...]` — one score or nil per member.
pub(crate) fn zmscore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let set = keyspace.zset(words[1])?;
    let scores = words[2..]
        .iter()
        .map(|member| {
            set.as_ref()
                .and_then(|set| set.score(member))
                .map_or(Reply::Nil, score_reply)
        })
        .collect();
    Ok(Reply::Array(scores))
}

/// `ZCARD key`
pub(crate) fn zcard(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let len = keyspace.zset(words[1])?.map_or(0, |set| set.len());
    Ok(Reply::Integer(i64::try_from(len).unwrap_or(i64::MAX)))
}

/// `ZCOUNT key min max` — how many members score within the range.
pub(crate) fn zcount(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let range = range::score_range(words[2], words[3])?;
    let count = keyspace
        .zset(words[1])?
        .map_or(0, |set| set.in_score_range(range).count());
    Ok(Reply::Integer(i64::try_from(count).unwrap_or(i64::MAX)))
}

/// `ZRANK key member` — the member's 0-based rank from the lowest score, or nil.
pub(crate) fn zrank(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    rank(keyspace, words, false)
}

/// `ZREVRANK key member` — the member's 0-based rank from the highest score, or nil.
pub(crate) fn zrevrank(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    rank(keyspace, words, true)
}

fn rank(keyspace: &mut Keyspace, words: &[&[u8]], reverse: bool) -> CommandResult {
    let Some(set) = keyspace.zset(words[1])? else {
        return Ok(Reply::Nil);
    };
    let Some(score) = set.score(words[2]) else {
        return Ok(Reply::Nil);
    };
    let below = set
        .iter()
        .take_while(|r| r.score < score || (r.score == score && r.member.as_slice() < words[2]))
        .count();
    let rank = if reverse {
        set.len() - 1 - below
    } else {
        below
    };
    Ok(Reply::Integer(i64::try_from(rank).unwrap_or(i64::MAX)))
}

/// `ZINCRBY key increment member` — ZADD INCR under its own name.
pub(crate) fn zincrby(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    zadd_with(
        keyspace,
        words,
        ZAddFlags {
            incr: true,
            ..ZAddFlags::default()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::format_score;

    #[test]
    fn scores_print_like_percent_17g() {
        assert_eq!(format_score(0.1), "0.10000000000000001");
        assert_eq!(format_score(16.0), "16");
        assert_eq!(format_score(2.5), "2.5");
        assert_eq!(format_score(1e16), "10000000000000000");
        assert_eq!(format_score(1e17), "1e+17");
        assert_eq!(format_score(1.5e-7), "1.4999999999999999e-07");
        assert_eq!(format_score(-1.5e-10), "-1.5e-10");
        assert_eq!(
            format_score(12345678901234567890.0),
            "1.2345678901234567e+19"
        );
        assert_eq!(format_score(0.30000000000000004), "0.30000000000000004");
        assert_eq!(format_score(123456789.125), "123456789.125");
        assert_eq!(format_score(4.9e-324), "4.9406564584124654e-324");
        assert_eq!(format_score(0.0001), "0.0001");
        assert_eq!(format_score(f64::INFINITY), "inf");
        assert_eq!(format_score(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_score(-0.0), "-0");
    }

    #[test]
    fn whole_scores_take_the_short_path_to_the_same_text() {
        let edge = 1e17 - 16.0; // the largest double below 10^17
        for score in [
            1.0,
            -1.0,
            42.0,
            10000.0,
            1.7e12,
            9007199254740993.0,
            -9007199254740992.0,
            1e16 + 2.0,
            edge,
            -edge,
        ] {
            let general = crate::numtext::general(score, 17, false);
            assert_eq!(format_score(score), general, "{score}");
        }
        assert_eq!(format_score(edge), "99999999999999984");
    }
}
