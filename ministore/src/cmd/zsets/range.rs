//! Sorted-set ranges: ZRANGE in its 7.0 form (by rank, BYSCORE or BYLEX, REV, LIMIT,
//! WITHSCORES) and ZRANGESTORE, the older ZRANGEBYSCORE/ZREVRANGE/ZREVRANGEBYSCORE and
//! ZRANGEBYLEX/ZREVRANGEBYLEX, ZLEXCOUNT, and ZREMRANGEBYRANK/BYSCORE/BYLEX.

use super::score_reply;
use crate::args::{int_arg, is, parse_score_bound, ArgCursor};
use crate::cmd::CommandResult;
use crate::error::CommandError;
use crate::keyspace::{Keyspace, Ranked, ScoreRange, SortedSet, Value};
use crate::reply::Reply;

/// Which members a range selects.
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
    ranged(keyspace, words, Fixed::default())
}

/// `ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]`
pub(crate) fn zrangebyscore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, Fixed::new(RangeKind::Score, false))
}

/// `ZREVRANGE key start stop [WITHSCORES]`
pub(crate) fn zrevrange(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, Fixed::new(RangeKind::Rank, true))
}

/// `ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count]`
pub(crate) fn zrevrangebyscore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, Fixed::new(RangeKind::Score, true))
}

/// `ZRANGEBYLEX key min max [LIMIT offset count]`
pub(crate) fn zrangebylex(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, Fixed::new(RangeKind::Lex, false))
}

/// `ZREVRANGEBYLEX key max min [LIMIT offset count]`
pub(crate) fn zrevrangebylex(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    ranged(keyspace, words, Fixed::new(RangeKind::Lex, true))
}

/// `ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]` — how many members
/// were stored; an empty result deletes `dst`.
pub(crate) fn zrangestore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let fixed = Fixed {
        store: true,
        ..Fixed::default()
    };
    ranged(keyspace, words, fixed)
}

/// What a range command fixes before its options are read.
#[derive(Default, Clone, Copy)]
struct Fixed {
    kind: Option<RangeKind>,
    reverse: Option<bool>,
    /// ZRANGESTORE: `words[1]` is the destination and the rest moves one word right.
    store: bool,
}

impl Fixed {
    fn new(kind: RangeKind, reverse: bool) -> Fixed {
        Fixed {
            kind: Some(kind),
            reverse: Some(reverse),
            store: false,
        }
    }
}

/// Redis's `zrangeGenericCommand`: the older range commands fix the kind and direction, and
/// then BYSCORE/BYLEX/REV are syntax errors; ZRANGE and ZRANGESTORE take them as options.
/// Options, then the range ends, are checked before the key is looked at.
fn ranged(keyspace: &mut Keyspace, words: &[&[u8]], fixed: Fixed) -> CommandResult {
    let mut query = RangeQuery {
        kind: fixed.kind.unwrap_or(RangeKind::Rank),
        reverse: fixed.reverse.unwrap_or(false),
        with_scores: false,
        limit: None,
    };
    let (mut kind_given, mut reverse_given) = (fixed.kind.is_some(), fixed.reverse.is_some());
    let first = usize::from(fixed.store) + 1;
    let mut cursor = ArgCursor::new(words, first + 3);
    while let Some(word) = cursor.next_word() {
        if is(word, "withscores") && !fixed.store {
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
    let selection = parse_selection(
        [words[first + 1], words[first + 2]],
        query.kind,
        query.reverse,
    )?;
    let picked: Vec<Ranked> = match keyspace.zset(words[first])? {
        Some(set) => select(set, selection, query.reverse, query.limit)
            .into_iter()
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    if fixed.store {
        return Ok(store_members(keyspace, words[1], picked));
    }
    let mut flat = Vec::with_capacity(picked.len() * if query.with_scores { 2 } else { 1 });
    for ranked in picked {
        flat.push(Reply::Bulk(ranked.member));
        if query.with_scores {
            flat.push(score_reply(ranked.score));
        }
    }
    Ok(Reply::Array(flat))
}

/// Replaces `dst` with a sorted set of `members` (deleting it when there are none; either way
/// any expiry goes), replying how many there are.
pub(crate) fn store_members(keyspace: &mut Keyspace, dst: &[u8], members: Vec<Ranked>) -> Reply {
    let count = members.len();
    if count == 0 {
        keyspace.remove(dst);
        return Reply::Integer(0);
    }
    let compact = count <= COMPACT_MAX_ENTRIES
        && members.iter().all(|r| r.member.len() <= COMPACT_MAX_MEMBER);
    let mut set = SortedSet::new(compact);
    for ranked in &members {
        set.insert(&ranked.member, ranked.score);
    }
    keyspace.insert(dst, Value::ZSet(set), None);
    Reply::Integer(i64::try_from(count).unwrap_or(i64::MAX))
}

/// A result set Redis would build as a listpack has at most this many members…
const COMPACT_MAX_ENTRIES: usize = 128;
/// …none longer than this.
const COMPACT_MAX_MEMBER: usize = 64;

/// `ZLEXCOUNT key min max` — how many members lie in the lex range.
pub(crate) fn zlexcount(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (min, max) = lex_range(words[2], words[3])?;
    let count = match keyspace.zset(words[1])? {
        None => 0,
        Some(set) if set.is_compact() => {
            i64::try_from(by_lex(set, min, max, false, 0).count()).unwrap_or(i64::MAX)
        }
        Some(set) => skiplist_lex_count(set, min, max),
    };
    Ok(Reply::Integer(count))
}

/// Redis's first check of a lex range: not empty by its bounds, the last member reaching `min`
/// and the first staying within `max`.
fn lex_range_may_match(set: &SortedSet, min: LexBound<'_>, max: LexBound<'_>) -> bool {
    !lex_range_is_empty(min, max)
        && set
            .iter()
            .next_back()
            .is_some_and(|r| above_min(&r.member, min))
        && set.iter().next().is_some_and(|r| below_max(&r.member, max))
}

/// ZLEXCOUNT on a skiplist, as Redis counts it: not by walking, but as the distance in rank
/// between the first member reaching `min` and the last member of the leading run that stays
/// within `max`. The two agree when all members share a score; with mixed scores Redis's
/// answer can count members outside the range, or run to the end of the set when no last
/// member qualifies, and ministore gives the same. (Redis finds both ends by descending its
/// skiplist's random levels; walking the bottom level, as here, is what it does for small
/// sets and whenever the members in question sit in lex order.)
fn skiplist_lex_count(set: &SortedSet, min: LexBound<'_>, max: LexBound<'_>) -> i64 {
    if !lex_range_may_match(set, min, max) {
        return 0;
    }
    let Some(first) = set.iter().position(|r| above_min(&r.member, min)) else {
        return 0;
    };
    let first_in_range = set
        .iter()
        .nth(first)
        .is_some_and(|r| below_max(&r.member, max));
    if !first_in_range {
        return 0;
    }
    let len = i64::try_from(set.len()).unwrap_or(i64::MAX);
    // Ranks from 1, as zslGetRank gives them.
    let first_rank = i64::try_from(first).unwrap_or(i64::MAX) + 1;
    let mut count = len - (first_rank - 1);
    let leading = set.iter().take_while(|r| below_max(&r.member, max)).count();
    let last = leading
        .checked_sub(1)
        .and_then(|at| set.iter().nth(at))
        .filter(|r| above_min(&r.member, min));
    if last.is_some() {
        let last_rank = i64::try_from(leading).unwrap_or(i64::MAX);
        count -= len - last_rank;
    }
    count
}

/// `ZREMRANGEBYRANK key start stop` — how many members were removed.
pub(crate) fn zremrangebyrank(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    remove_range(keyspace, words, RangeKind::Rank)
}

/// `ZREMRANGEBYSCORE key min max` — how many members were removed.
pub(crate) fn zremrangebyscore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    remove_range(keyspace, words, RangeKind::Score)
}

/// `ZREMRANGEBYLEX key min max` — how many members were removed.
pub(crate) fn zremrangebylex(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    remove_range(keyspace, words, RangeKind::Lex)
}

/// The range is parsed before the key is looked at, as in Redis; an emptied set is deleted.
fn remove_range(keyspace: &mut Keyspace, words: &[&[u8]], kind: RangeKind) -> CommandResult {
    let selection = parse_selection([words[2], words[3]], kind, false)?;
    let Some(set) = keyspace.zset_mut(words[1])? else {
        return Ok(Reply::Integer(0));
    };
    let doomed: Vec<Vec<u8>> = match selection {
        Selection::Lex(min, max) if !set.is_compact() => skiplist_lex_doomed(set, min, max),
        selection => select(set, selection, false, None),
    }
    .into_iter()
    .map(|r| r.member.clone())
    .collect();
    for member in &doomed {
        set.remove(member);
    }
    keyspace.remove_if_empty(words[1]);
    Ok(Reply::Integer(
        i64::try_from(doomed.len()).unwrap_or(i64::MAX),
    ))
}

/// What ZREMRANGEBYLEX removes from a skiplist: Redis's `zslDeleteRangeByLex` goes straight to
/// the first member reaching `min` and removes members while they stay within `max`, without
/// the first-and-last check its range reads and its listpack removal make. With mixed scores that
/// can remove members the check would have refused (walking the bottom level, as ZLEXCOUNT
/// does here).
fn skiplist_lex_doomed<'s>(
    set: &'s SortedSet,
    min: LexBound<'s>,
    max: LexBound<'s>,
) -> Vec<&'s Ranked> {
    set.iter()
        .skip_while(|r| !above_min(&r.member, min))
        .take_while(|r| below_max(&r.member, max))
        .collect()
}

/// Reads the two range ends for `kind` (given as `max min` when reversed by score or lex).
fn parse_selection(
    bounds: [&[u8]; 2],
    kind: RangeKind,
    reverse: bool,
) -> Result<Selection<'_>, CommandError> {
    let [low, high] = if reverse && !matches!(kind, RangeKind::Rank) {
        [bounds[1], bounds[0]]
    } else {
        bounds
    };
    Ok(match kind {
        RangeKind::Rank => Selection::Rank(int_arg(low)?, int_arg(high)?),
        RangeKind::Score => Selection::Score(score_range(low, high)?),
        RangeKind::Lex => {
            let (min, max) = lex_range(low, high)?;
            Selection::Lex(min, max)
        }
    })
}

/// A BYLEX `min max` pair.
fn lex_range<'a>(
    min: &'a [u8],
    max: &'a [u8],
) -> Result<(LexBound<'a>, LexBound<'a>), CommandError> {
    parse_lex_bound(min)
        .zip(parse_lex_bound(max))
        .ok_or(CommandError::MinMaxNotStringRange)
}

/// The members a parsed range selects, in the order a reply lists them.
fn select<'s>(
    set: &'s SortedSet,
    selection: Selection<'s>,
    reverse: bool,
    limit: Option<(i64, i64)>,
) -> Vec<&'s Ranked> {
    match selection {
        Selection::Rank(start, stop) => by_rank(set, start, stop, reverse),
        Selection::Score(range) => {
            let members: Box<dyn Iterator<Item = &Ranked>> = if reverse {
                Box::new(set.in_score_range(range).rev())
            } else {
                Box::new(set.in_score_range(range))
            };
            apply_limit(members, limit)
        }
        // Redis steps over a BYLEX offset without looking at the range, so the offset goes
        // into the walk; the count is taken from what follows.
        Selection::Lex(min, max) => match limit {
            None => by_lex(set, min, max, reverse, 0).collect(),
            Some((offset, _)) if offset < 0 => Vec::new(),
            Some((offset, count)) => {
                let offset = usize::try_from(offset).unwrap_or(usize::MAX);
                apply_limit(by_lex(set, min, max, reverse, offset), Some((0, count)))
            }
        },
    }
}

/// A ZRANGEBYSCORE-style `min max` pair.
pub(crate) fn score_range(min: &[u8], max: &[u8]) -> Result<ScoreRange, CommandError> {
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

#[derive(Clone, Copy)]
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

/// A lex bound as `zslParseLexRangeItem` reads it: `-` and `+` must end the C string (what
/// follows a NUL is not looked at), `[` and `(` take the rest of the word, bytes and all.
fn parse_lex_bound(word: &[u8]) -> Option<LexBound<'_>> {
    let ends = |rest: &[u8]| rest.first().is_none_or(|&b| b == 0);
    match word.split_first()? {
        (b'-', rest) if ends(rest) => Some(LexBound::Lowest),
        (b'+', rest) if ends(rest) => Some(LexBound::Highest),
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
/// member past `min` (reversed, the last below `max`), nothing if that one is already beyond
/// the other end; then `offset` members stepped over without looking at the range, as Redis
/// does; then members while they stay below `max` (above `min`). With mixed scores the step
/// over can land on a member in range again past one that is not.
fn by_lex<'a>(
    set: &'a SortedSet,
    min: LexBound<'a>,
    max: LexBound<'a>,
    reverse: bool,
    offset: usize,
) -> Box<dyn Iterator<Item = &'a Ranked> + 'a> {
    if !lex_range_may_match(set, min, max) {
        return Box::new(std::iter::empty());
    }
    let within_far_end = move |r: &&Ranked| {
        if reverse {
            above_min(&r.member, min)
        } else {
            below_max(&r.member, max)
        }
    };
    let walk: Box<dyn Iterator<Item = &'a Ranked> + 'a> = if reverse {
        Box::new(
            set.iter()
                .rev()
                .skip_while(move |r| !below_max(&r.member, max)),
        )
    } else {
        Box::new(set.iter().skip_while(move |r| !above_min(&r.member, min)))
    };
    let mut walk = walk.peekable();
    if !walk.peek().is_some_and(within_far_end) {
        return Box::new(std::iter::empty());
    }
    Box::new(walk.skip(offset).take_while(within_far_end))
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
