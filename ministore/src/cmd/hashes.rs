//! Hash commands: HSET, HSETNX, HGET, HDEL, HEXISTS, HGETALL, HKEYS, HVALS, HINCRBY, HMGET and
//! HLEN. Fields keep insertion order, as Redis's listpack encoding shows them for small hashes.

use super::CommandResult;
use crate::args::{int_arg, parse_int};
use crate::error::CommandError;
use crate::keyspace::Keyspace;
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
    let Some(table) = keyspace.hash(words[1])? else {
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
