//! Sorted-set commands: ZADD (NX XX GT LT CH INCR) and ZINCRBY, ZREM, ZSCORE, ZCARD, ZCOUNT,
//! ZRANK/ZREVRANK, ZRANGE (by rank, BYSCORE or BYLEX, REV, LIMIT, WITHSCORES) with the older
//! ZRANGEBYSCORE/ZREVRANGE/ZREVRANGEBYSCORE, ZPOPMIN, and Redis 7.0's score format (`%.17g`).

use super::CommandResult;
use crate::args::{int_arg, is, parse_int, parse_score_bound, score_arg, ArgCursor};
use crate::error::CommandError;
use crate::keyspace::{Keyspace, Ranked, ScoreRange, SortedSet};
use crate::reply::Reply;

/// A score as Redis 7.0 replies it: C's `%.17g`, so `0.1` is `0.10000000000000001`, whole
/// numbers print without a decimal point, and infinities as `inf` / `-inf`.
pub(crate) fn format_score(score: f64) -> String {
    if score.is_infinite() {
        return if score > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if score.is_nan() {
        return "nan".to_string();
    }
    if score == 0.0 {
        return if score.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    const PRECISION: i32 = 17;
    // `{:e}` with 16 decimals rounds exactly as %.17g does; its exponent picks the style.
    let scientific = format!("{:.*e}", (PRECISION - 1) as usize, score);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..PRECISION).contains(&exponent) {
        let mantissa = trim_fraction(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        let decimals = (PRECISION - 1 - exponent) as usize;
        trim_fraction(&format!("{score:.decimals$}")).to_string()
    }
}

/// Drops trailing zeros after a decimal point, and the point if nothing follows it.
fn trim_fraction(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

fn score_reply(score: f64) -> Reply {
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
    for (pair, &score) in pairs.chunks_exact(2).zip(&scores) {
        let member = pair[1];
        match add_one(set, member, score, &flags) {
            Ok(AddOutcome::Added(score)) => {
                changed += 1;
                last_score = Some(score);
            }
            Ok(AddOutcome::Updated(score)) => {
                if flags.ch {
                    changed += 1;
                }
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
    let Some(set) = keyspace.zset(words[1])? else {
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

/// `ZCARD key`
pub(crate) fn zcard(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let len = keyspace.zset(words[1])?.map_or(0, |set| set.len());
    Ok(Reply::Integer(i64::try_from(len).unwrap_or(i64::MAX)))
}

/// `ZPOPMIN key [count]` — member, score, … for the lowest `count` (default 1) members.
pub(crate) fn zpopmin(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let count = match words {
        [_, _] => 1,
        [_, _, count] => match parse_int(count) {
            Some(n) if n >= 0 => n,
            _ => return Err(CommandError::NotPositive),
        },
        _ => return Err(CommandError::Syntax),
    };
    // The type is checked before a zero count returns nothing, as in Redis.
    let Some(set) = keyspace.zset(words[1])? else {
        return Ok(Reply::Array(Vec::new()));
    };
    let mut popped = Vec::new();
    for _ in 0..count {
        let Some(Ranked { score, member }) = set.pop_min() else {
            break;
        };
        popped.push(Reply::Bulk(member));
        popped.push(score_reply(score));
    }
    keyspace.remove_if_empty(words[1]);
    Ok(Reply::Array(popped))
}

/// Which members a ZRANGE selects.
#[derive(Clone, Copy)]
enum RangeKind {
    Rank,
    Score,
    Lex,
}

/// ZRANGE's options.
struct RangeQuery {
    kind: RangeKind,
    reverse: bool,
    with_scores: bool,
    /// (offset, count); count < 0 means "all the rest".
    limit: Option<(i64, i64)>,
}

/// `ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES]`
pub(crate) fn zrange(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, None, None)
}

/// `ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]`
pub(crate) fn zrangebyscore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, Some(RangeKind::Score), Some(false))
}

/// `ZREVRANGE key start stop [WITHSCORES]`
pub(crate) fn zrevrange(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, Some(RangeKind::Rank), Some(true))
}

/// `ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count]`
pub(crate) fn zrevrangebyscore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, Some(RangeKind::Score), Some(true))
}

/// Redis's `zrangeGenericCommand`: the older range commands fix the kind and direction, and
/// then BYSCORE/BYLEX/REV are syntax errors; ZRANGE takes them as options.
fn ranged(
    keyspace: &mut Keyspace,
    words: &[&[u8]],
    fixed_kind: Option<RangeKind>,
    fixed_reverse: Option<bool>,
) -> CommandResult {
    let mut query = RangeQuery {
        kind: fixed_kind.unwrap_or(RangeKind::Rank),
        reverse: fixed_reverse.unwrap_or(false),
        with_scores: false,
        limit: None,
    };
    let (mut kind_given, mut reverse_given) = (fixed_kind.is_some(), fixed_reverse.is_some());
    let mut cursor = ArgCursor::new(words, 4);
    while let Some(word) = cursor.next_word() {
        if is(word, "withscores") {
            query.with_scores = true;
        } else if is(word, "limit") && cursor.remaining() >= 2 {
            query.limit = Some(parse_limit(&mut cursor)?);
        } else if is(word, "rev") && !reverse_given {
            reverse_given = true;
            query.reverse = true;
        } else if is(word, "byscore") && !kind_given {
            kind_given = true;
            query.kind = RangeKind::Score;
        } else if is(word, "bylex") && !kind_given {
            kind_given = true;
            query.kind = RangeKind::Lex;
        } else {
            return Err(CommandError::Syntax);
        }
    }
    // LIMIT with a count of -1 is Redis's "no limit", which by rank it tolerates.
    if query.limit.is_some_and(|(_, count)| count != -1) && matches!(query.kind, RangeKind::Rank) {
        return Err(CommandError::LimitNeedsByScoreOrByLex);
    }
    if query.with_scores && matches!(query.kind, RangeKind::Lex) {
        return Err(CommandError::WithScoresWithByLex);
    }
    run_range(keyspace, words, query)
}

/// `ZCOUNT key min max` — how many members score within the range.
pub(crate) fn zcount(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let range = score_range(words[2], words[3])?;
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

/// A ZRANGEBYSCORE-style `min max` pair.
fn score_range(min: &[u8], max: &[u8]) -> Result<ScoreRange, CommandError> {
    let ((min, min_exclusive), (max, max_exclusive)) = parse_score_bound(min)
        .zip(parse_score_bound(max))
        .ok_or(CommandError::MinMaxNotFloat)?;
    Ok(ScoreRange {
        min,
        min_exclusive,
        max,
        max_exclusive,
    })
}

fn parse_limit(cursor: &mut ArgCursor<'_>) -> Result<(i64, i64), CommandError> {
    let offset = int_arg(cursor.next_word().unwrap_or_default())?;
    let count = int_arg(cursor.next_word().unwrap_or_default())?;
    Ok((offset, count))
}

/// Parses the range ends (before looking at the key, as Redis does) and emits the members.
fn run_range(keyspace: &mut Keyspace, words: &[&[u8]], query: RangeQuery) -> CommandResult {
    // With REV, BYSCORE and BYLEX take the range as `max min`.
    let (low, high) = if query.reverse && !matches!(query.kind, RangeKind::Rank) {
        (words[3], words[2])
    } else {
        (words[2], words[3])
    };
    let selection = match query.kind {
        RangeKind::Rank => Selection::Rank(int_arg(low)?, int_arg(high)?),
        RangeKind::Score => Selection::Score(score_range(low, high)?),
        RangeKind::Lex => {
            let (min, max) = parse_lex_bound(low)
                .zip(parse_lex_bound(high))
                .ok_or(CommandError::MinMaxNotStringRange)?;
            Selection::Lex(min, max)
        }
    };
    let Some(set) = keyspace.zset(words[1])? else {
        return Ok(Reply::Array(Vec::new()));
    };
    let picked: Vec<&Ranked> = match selection {
        Selection::Rank(start, stop) => by_rank(set, start, stop, query.reverse),
        Selection::Score(range) => {
            let members: Box<dyn Iterator<Item = &Ranked>> = if query.reverse {
                Box::new(set.in_score_range(range).rev())
            } else {
                Box::new(set.in_score_range(range))
            };
            apply_limit(members, query.limit)
        }
        Selection::Lex(min, max) => apply_limit(by_lex(set, min, max, query.reverse), query.limit),
    };
    let mut flat = Vec::with_capacity(picked.len() * if query.with_scores { 2 } else { 1 });
    for ranked in picked {
        flat.push(Reply::bulk(ranked.member.as_slice()));
        if query.with_scores {
            flat.push(score_reply(ranked.score));
        }
    }
    Ok(Reply::Array(flat))
}

enum Selection<'a> {
    Rank(i64, i64),
    Score(ScoreRange),
    Lex(LexBound<'a>, LexBound<'a>),
}

/// Redis's index arithmetic: negatives count from the end, then clamp to the set.
fn by_rank(set: &SortedSet, start: i64, stop: i64, reverse: bool) -> Vec<&Ranked> {
    let len = i64::try_from(set.len()).unwrap_or(i64::MAX);
    let start = if start < 0 {
        len.saturating_add(start).max(0)
    } else {
        start
    };
    let stop = if stop < 0 {
        len.saturating_add(stop)
    } else {
        stop.min(len - 1)
    };
    if start > stop || start >= len {
        return Vec::new();
    }
    let skip = usize::try_from(start).unwrap_or(usize::MAX);
    let take = usize::try_from(stop - start + 1).unwrap_or(usize::MAX);
    if reverse {
        set.iter().rev().skip(skip).take(take).collect()
    } else {
        set.iter().skip(skip).take(take).collect()
    }
}

/// LIMIT offset count: a negative offset selects nothing, a negative count everything left.
fn apply_limit<'a>(
    members: impl Iterator<Item = &'a Ranked>,
    limit: Option<(i64, i64)>,
) -> Vec<&'a Ranked> {
    match limit {
        None => members.collect(),
        Some((offset, _)) if offset < 0 => Vec::new(),
        Some((offset, count)) => {
            let members = members.skip(usize::try_from(offset).unwrap_or(usize::MAX));
            match usize::try_from(count) {
                Ok(count) => members.take(count).collect(),
                Err(_) => members.collect(),
            }
        }
    }
}

/// One end of a BYLEX range.
#[derive(Clone, Copy)]
enum LexBound<'a> {
    Lowest,
    Highest,
    Inclusive(&'a [u8]),
    Exclusive(&'a [u8]),
}

fn parse_lex_bound(word: &[u8]) -> Option<LexBound<'_>> {
    match word.split_first()? {
        (b'-', []) => Some(LexBound::Lowest),
        (b'+', []) => Some(LexBound::Highest),
        (b'[', rest) => Some(LexBound::Inclusive(rest)),
        (b'(', rest) => Some(LexBound::Exclusive(rest)),
        _ => None,
    }
}

fn above_min(member: &[u8], min: LexBound<'_>) -> bool {
    match min {
        LexBound::Lowest => true,
        LexBound::Highest => false,
        LexBound::Inclusive(bound) => member >= bound,
        LexBound::Exclusive(bound) => member > bound,
    }
}

fn below_max(member: &[u8], max: LexBound<'_>) -> bool {
    match max {
        LexBound::Lowest => false,
        LexBound::Highest => true,
        LexBound::Inclusive(bound) => member <= bound,
        LexBound::Exclusive(bound) => member < bound,
    }
}

/// BYLEX as Redis walks it (meant for sets whose members share one score): from the first
/// member past `min`, while members stay below `max` — reversed, from the last below `max`.
fn by_lex<'a>(
    set: &'a SortedSet,
    min: LexBound<'a>,
    max: LexBound<'a>,
    reverse: bool,
) -> Box<dyn Iterator<Item = &'a Ranked> + 'a> {
    // Redis first checks the ends: the last member must reach `min`, the first stay within `max`.
    let reachable = set
        .iter()
        .next_back()
        .is_some_and(|r| above_min(&r.member, min))
        && set.iter().next().is_some_and(|r| below_max(&r.member, max));
    if lex_range_is_empty(min, max) || !reachable {
        return Box::new(std::iter::empty());
    }
    if reverse {
        Box::new(
            set.iter()
                .rev()
                .skip_while(move |r| !below_max(&r.member, max))
                .take_while(move |r| above_min(&r.member, min)),
        )
    } else {
        Box::new(
            set.iter()
                .skip_while(move |r| !above_min(&r.member, min))
                .take_while(move |r| below_max(&r.member, max)),
        )
    }
}

/// Redis's `zslIsInLexRange` shortcut for ranges that can hold nothing.
fn lex_range_is_empty(min: LexBound<'_>, max: LexBound<'_>) -> bool {
    use LexBound::*;
    let (min_key, min_ex) = match min {
        Lowest => return matches!(max, Lowest),
        Highest => return true,
        Inclusive(b) => (b, false),
        Exclusive(b) => (b, true),
    };
    let (max_key, max_ex) = match max {
        Highest => return false,
        Lowest => return true,
        Inclusive(b) => (b, false),
        Exclusive(b) => (b, true),
    };
    min_key > max_key || (min_key == max_key && (min_ex || max_ex))
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
}
