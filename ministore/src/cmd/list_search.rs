//! LPOS: where an element sits in a list, with RANK, COUNT and MAXLEN checked in Redis's
//! order and Redis's own errors for each.

use std::collections::VecDeque;

use super::lists::len_reply;
use super::CommandResult;
use crate::args::{int_arg, is, parse_int};
use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::reply::Reply;

/// `LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]`
pub(crate) fn lpos(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (mut rank, mut count, mut maxlen) = (1i64, None, 0usize);
    let mut at = 3;
    while at < words.len() {
        let more = at + 1 < words.len();
        let option = words[at];
        if is(option, "rank") && more {
            rank = int_arg(words[at + 1])?;
            if rank == 0 {
                return Err(CommandError::LposRankZero);
            }
        } else if is(option, "count") && more {
            count = Some(non_negative(
                words[at + 1],
                CommandError::LposCountNegative,
            )?);
        } else if is(option, "maxlen") && more {
            maxlen = non_negative(words[at + 1], CommandError::LposMaxlenNegative)?;
        } else {
            return Err(CommandError::Syntax);
        }
        at += 2;
    }
    let Some(list) = keyspace.list(words[1])? else {
        return Ok(count.map_or(Reply::Nil, |_| Reply::Array(Vec::new())));
    };
    let found = matches(list, words[2], rank, count.unwrap_or(1), maxlen);
    Ok(match count {
        Some(_) => Reply::Array(found.into_iter().map(len_reply).collect()),
        None => found.first().map_or(Reply::Nil, |&at| len_reply(at)),
    })
}

fn non_negative(word: &[u8], error: CommandError) -> Result<usize, CommandError> {
    match parse_int(word) {
        Some(n) if n >= 0 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        _ => Err(error),
    }
}

/// LPOS's scan: positions (from the head) of the matches from the `rank`-th on (from the tail
/// if negative), at most `count` of them (0: all), looking at no more than `maxlen` elements
/// (0: all). `i64::MIN` cannot be negated in C and there behaves as -1; so it does here.
fn matches(
    list: &VecDeque<Vec<u8>>,
    target: &[u8],
    rank: i64,
    count: usize,
    maxlen: usize,
) -> Vec<usize> {
    let skip = usize::try_from(rank.unsigned_abs().saturating_sub(1)).unwrap_or(usize::MAX);
    let skip = if rank == i64::MIN { 0 } else { skip };
    let limit = if maxlen == 0 {
        list.len()
    } else {
        maxlen.min(list.len())
    };
    let len = list.len();
    let positions: Box<dyn Iterator<Item = usize>> = if rank < 0 {
        Box::new((0..len).rev().take(limit))
    } else {
        Box::new((0..len).take(limit))
    };
    let hits = positions
        .filter(|&at| list[at].as_slice() == target)
        .skip(skip);
    if count == 0 {
        hits.collect()
    } else {
        hits.take(count).collect()
    }
}
