//! Hash commands: HSET, HMSET, HSETNX, HGET, HDEL, HEXISTS, HGETALL, HKEYS, HVALS, HINCRBY,
//! HINCRBYFLOAT, HMGET, HLEN, HSTRLEN, HRANDFIELD and HSCAN. Fields keep insertion order, as
//! Redis's listpack encoding shows them for small hashes.

use super::{scan, CommandResult};
use crate::args::{int_arg, is, parse_int};
use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::longdouble::{LongDouble, LongDoubleError};
use crate::reply::Reply;

/// `HSET key field value [field value ...]` — how many fields are new.
pub(crate) fn hset(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    if words.len() % 2 == 1 {
        return Err(CommandError::WrongArity { command: "hset" });
    }
    let table = keyspace.hash_or_insert(words[1])?;
    let added = words[2..]
        .chunks_exact(2)
        .filter(|pair| table.set(pair[0], pair[1]))
        .count();
    // Signalled even when every field already held its value.
    keyspace.signal_modified(words[1]);
    Ok(Reply::Integer(i64::try_from(added).unwrap_or(i64::MAX)))
}

/// `HGET key field`
pub(crate) fn hget(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let value = keyspace
        .hash(words[1])?
        .and_then(|table| table.get(words[2]));
    Ok(value.map_or(Reply::Nil, Reply::bulk))
}

/// `HDEL key field [field ...]` — how many fields were removed; an emptied hash is deleted.
pub(crate) fn hdel(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let Some(table) = keyspace.hash_mut(words[1])? else {
        return Ok(Reply::Integer(0));
    };
    let removed = words[2..]
        .iter()
        .filter(|field| table.remove(field))
        .count();
    keyspace.remove_if_empty(words[1]);
    Ok(Reply::Integer(i64::try_from(removed).unwrap_or(i64::MAX)))
}

/// `HEXISTS key field`
pub(crate) fn hexists(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let found = keyspace
        .hash(words[1])?
        .is_some_and(|table| table.get(words[2]).is_some());
    Ok(Reply::Integer(i64::from(found)))
}

/// `HGETALL key` — field, value, field, value… in insertion order.
pub(crate) fn hgetall(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let Some(table) = keyspace.hash(words[1])? else {
        return Ok(Reply::Array(Vec::new()));
    };
    let mut flat = Vec::with_capacity(table.len() * 2);
    for (field, value) in table.iter() {
        flat.push(Reply::bulk(field));
        flat.push(Reply::bulk(value));
    }
    Ok(Reply::Array(flat))
}

/// `HMGET key field [field ...]` — one value or nil per field.
pub(crate) fn hmget(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let table = keyspace.hash(words[1])?;
    let values = words[2..]
        .iter()
        .map(|field| {
            table
                .as_ref()
                .and_then(|t| t.get(field))
                .map_or(Reply::Nil, Reply::bulk)
        })
        .collect();
    Ok(Reply::Array(values))
}

/// `HLEN key`
pub(crate) fn hlen(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let len = keyspace.hash(words[1])?.map_or(0, |table| table.len());
    Ok(Reply::Integer(i64::try_from(len).unwrap_or(i64::MAX)))
}

/// `HINCRBY key field increment` — the new value; a missing field counts as 0.
pub(crate) fn hincrby(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let by = int_arg(words[3])?;
    let table = keyspace.hash_or_insert(words[1])?;
    let current = match table.get(words[2]) {
        Some(bytes) => parse_int(bytes).ok_or(CommandError::HashValueNotInteger)?,
        None => 0,
    };
    let sum = current
        .checked_add(by)
        .ok_or(CommandError::IncrementOverflow)?;
    table.set(words[2], sum.to_string().as_bytes());
    // Signalled even for an increment of 0.
    keyspace.signal_modified(words[1]);
    Ok(Reply::Integer(sum))
}

/// `HSETNX key field value` — sets the field only if it is missing; 1 if it did.
pub(crate) fn hsetnx(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let table = keyspace.hash_or_insert(words[1])?;
    let added = table.get(words[2]).is_none() && table.set(words[2], words[3]);
    Ok(Reply::Integer(i64::from(added)))
}

/// `HKEYS key` — the field names in order.
pub(crate) fn hkeys(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let names = keyspace.hash(words[1])?.map_or_else(Vec::new, |table| {
        table.iter().map(|(field, _)| Reply::bulk(field)).collect()
    });
    Ok(Reply::Array(names))
}

/// `HVALS key` — the values in field order.
pub(crate) fn hvals(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let values = keyspace.hash(words[1])?.map_or_else(Vec::new, |table| {
        table.iter().map(|(_, value)| Reply::bulk(value)).collect()
    });
    Ok(Reply::Array(values))
}

/// `HMSET key field value [field value ...]` — HSET under its older name, replying OK.
pub(crate) fn hmset(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    if words.len() % 2 == 1 {
        return Err(CommandError::WrongArity { command: "hmset" });
    }
    hset(keyspace, words)?;
    Ok(Reply::ok())
}

/// `HSTRLEN key field` — the length of the field's value, 0 when it is missing.
pub(crate) fn hstrlen(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let len = keyspace
        .hash(words[1])?
        .and_then(|table| table.get(words[2]))
        .map_or(0, <[u8]>::len);
    Ok(Reply::Integer(i64::try_from(len).unwrap_or(i64::MAX)))
}

/// `HINCRBYFLOAT key field increment` — the new value, computed in x87 `long double` and
/// printed as Redis prints it (`1.1`, not `1.10000000000000009`).
pub(crate) fn hincrbyfloat(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let by = match LongDouble::parse(words[3]) {
        Ok(by) => by,
        Err(LongDoubleError::Infinite) => return Err(CommandError::NaNOrInfinity),
        Err(LongDoubleError::NotANumber) => return Err(CommandError::NotFloat),
    };
    let table = keyspace.hash_or_insert(words[1])?;
    let current = match table.get(words[2]) {
        // Redis reads a stored `inf` as a number; only the sum is refused then.
        Some(bytes) => match LongDouble::parse(bytes) {
            Ok(value) => value,
            Err(LongDoubleError::Infinite) => return Err(CommandError::IncrementNaNOrInfinity),
            Err(LongDoubleError::NotANumber) => return Err(CommandError::HashValueNotFloat),
        },
        None => LongDouble::from_i64(0),
    };
    let sum = current
        .add(by)
        .map_err(|_| CommandError::IncrementNaNOrInfinity)?
        .to_human();
    table.set(words[2], sum.as_bytes());
    // Signalled even for an increment of 0.
    keyspace.signal_modified(words[1]);
    Ok(Reply::Bulk(sum.into_bytes()))
}

/// `HRANDFIELD key [count [WITHVALUES]]` — random fields from the store's seeded generator: a
/// positive count picks distinct fields (the whole hash, in order, when it asks for as many
/// or more), a negative one may repeat.
pub(crate) fn hrandfield(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let (count, with_values) = match words {
        [_, _] => {
            let Some(table) = keyspace.hash(words[1])? else {
                return Ok(Reply::Nil);
            };
            let len = table.len();
            let pick = keyspace.rng().below(len);
            let field = keyspace
                .hash(words[1])?
                .and_then(|table| table.entry_at(pick))
                .map_or(Reply::Nil, |(field, _)| Reply::bulk(field));
            return Ok(field);
        }
        [_, _, count, rest @ ..] => {
            let count = random_count(count)?;
            match rest {
                [] => (count, false),
                [option] if is(option, "withvalues") => {
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
    let Some(table) = keyspace.hash(words[1])? else {
        return Ok(Reply::Array(Vec::new()));
    };
    let (len, compact) = (table.len(), table.is_compact());
    let picks = random_picks(keyspace, len, count, compact)?;
    let Some(table) = keyspace.hash(words[1])? else {
        return Ok(Reply::Array(Vec::new()));
    };
    let mut flat = Vec::new();
    for (field, value) in picks.into_iter().filter_map(|at| table.entry_at(at)) {
        flat.push(Reply::bulk(field));
        if with_values {
            flat.push(Reply::bulk(value));
        }
    }
    Ok(Reply::Array(flat))
}

/// A HRANDFIELD/ZRANDMEMBER count: an integer in `-LONG_MAX..=LONG_MAX`.
pub(crate) fn random_count(word: &[u8]) -> Result<i64, CommandError> {
    match int_arg(word)? {
        i64::MIN => Err(CommandError::CountOutOfRange),
        count => Ok(count),
    }
}

/// Which positions (of `len`) a random-member command with `count` returns: `count` draws
/// with repetition when negative (or 1), the whole collection in order when a positive count
/// covers it, else distinct positions. From a listpack (`compact`) with at least three times
/// `count` entries, Redis samples in one pass from the front (`lpRandomPairsUnique`), so the
/// distinct positions come in stored order.
pub(crate) fn random_picks(
    keyspace: &mut Keyspace,
    len: usize,
    count: i64,
    compact: bool,
) -> Result<Vec<usize>, CommandError> {
    if count == 0 || len == 0 {
        return Ok(Vec::new());
    }
    let wanted = usize::try_from(count.unsigned_abs()).unwrap_or(usize::MAX);
    if count < 0 || wanted == 1 {
        // Redis would build the reply, whatever it costs; here it stops short of that, with
        // an error rather than a shorter reply, as SRANDMEMBER does.
        if wanted > MAX_RANDOM_REPLY {
            return Err(CommandError::ReplyTooLarge);
        }
        return Ok((0..wanted).map(|_| keyspace.rng().below(len)).collect());
    }
    if wanted >= len {
        return Ok((0..len).collect());
    }
    let mut picks = keyspace.rng().distinct(len, wanted);
    if compact && wanted.saturating_mul(RANDOM_SUB_STRATEGY_MUL) <= len {
        crate::order::sort_by(&mut picks, |a, b| a.cmp(b));
    }
    Ok(picks)
}

/// `HRANDFIELD_SUB_STRATEGY_MUL` and `ZRANDMEMBER_SUB_STRATEGY_MUL`: below this many entries per
/// one asked for, Redis copies the whole collection and removes from it instead.
const RANDOM_SUB_STRATEGY_MUL: usize = 3;

/// The most draws a negative count may ask for here, in HRANDFIELD, ZRANDMEMBER and
/// SRANDMEMBER (`ERR reply too large for this store` beyond): Redis has no limit, but a page
/// cannot hold a reply of billions of members.
pub(crate) const MAX_RANDOM_REPLY: usize = 1 << 20;

/// `HSCAN key cursor [MATCH pattern] [COUNT count]`
pub(crate) fn hscan(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let cursor = scan::parse_cursor(words[2])?;
    let Some(table) = keyspace.hash(words[1])? else {
        return Ok(scan::reply(0, Vec::new()));
    };
    let options = scan::parse_options(words, 3)?;
    let entries = (0..table.len()).filter_map(|at| table.entry_at(at));
    let (next, page) = if table.is_compact() {
        (0, entries.collect())
    } else {
        scan::hashed_page(entries, cursor, options.count)
    };
    let mut flat = Vec::new();
    for (field, value) in page {
        if options.keeps(field) {
            flat.push(Reply::bulk(field));
            flat.push(Reply::bulk(value));
        }
    }
    Ok(scan::reply(next, flat))
}
