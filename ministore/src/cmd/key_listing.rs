//! Commands that list the keyspace: KEYS, SCAN and RANDOMKEY. Redis answers them in its hash
//! table's order, which a server restart reshuffles; ministore picks orders that are fixed
//! and still keep Redis's guarantees:
//! - KEYS lists the matching keys sorted by their bytes.
//! - SCAN walks the keys in the order of a fixed 64-bit hash of each key (`scan::hashed_page`);
//!   a key present for the whole walk is returned at least once, whatever is added or deleted
//!   meanwhile, as with Redis. COUNT is how many keys one call looks at before MATCH and TYPE
//!   filter.
//! - RANDOMKEY draws from the sorted keys with the store's seeded generator.

use super::scan::{hashed_page, parse_cursor, reply as scan_reply};
use super::CommandResult;
use crate::args::{c_string, int_arg, is};
use crate::error::CommandError;
use crate::glob;
use crate::keyspace::Keyspace;
use crate::order;
use crate::reply::Reply;

/// The live keys of the selected database, sorted by bytes.
fn sorted_keys(keyspace: &Keyspace) -> Vec<Vec<u8>> {
    let mut keys: Vec<Vec<u8>> = keyspace
        .live_entries_of(keyspace.selected())
        .map(|(key, _)| key.to_vec())
        .collect();
    order::sort_by(&mut keys, Ord::cmp);
    keys
}

/// `KEYS pattern` — every live key matching the glob, sorted.
pub(crate) fn keys(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let pattern = words[1];
    let everything = pattern == b"*";
    let found = sorted_keys(keyspace)
        .into_iter()
        .filter(|key| everything || glob::matches(pattern, key))
        .map(Reply::Bulk)
        .collect();
    Ok(Reply::Array(found))
}

/// `RANDOMKEY` — a live key picked by the store's generator, nil when there is none.
pub(crate) fn randomkey(keyspace: &mut Keyspace, _: &[&[u8]]) -> CommandResult {
    let keys = sorted_keys(keyspace);
    if keys.is_empty() {
        return Ok(Reply::Nil);
    }
    let pick = keyspace.rng().below(keys.len());
    Ok(keys
        .get(pick)
        .map_or(Reply::Nil, |key| Reply::bulk(key.as_slice())))
}

/// SCAN's options: `[MATCH pattern] [COUNT count] [TYPE type]`, in any order, repeated.
struct KeyScanOptions<'a> {
    count: usize,
    pattern: Option<&'a [u8]>,
    type_name: Option<&'a [u8]>,
}

fn parse_scan_options<'a>(words: &[&'a [u8]]) -> Result<KeyScanOptions<'a>, CommandError> {
    let mut options = KeyScanOptions {
        count: 10,
        pattern: None,
        type_name: None,
    };
    let mut at = 2;
    while at < words.len() {
        let value = words.get(at + 1).copied();
        match value {
            Some(count) if is(words[at], "count") => {
                let count = int_arg(count)?;
                if count < 1 {
                    return Err(CommandError::Syntax);
                }
                options.count = usize::try_from(count).unwrap_or(usize::MAX);
            }
            Some(pattern) if is(words[at], "match") => {
                options.pattern = (pattern != b"*").then_some(pattern);
            }
            Some(type_name) if is(words[at], "type") => options.type_name = Some(type_name),
            _ => return Err(CommandError::Syntax),
        }
        at += 2;
    }
    Ok(options)
}

/// `SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]`
pub(crate) fn scan(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let cursor = parse_cursor(words[1])?;
    let options = parse_scan_options(words)?;
    let keys = keyspace
        .live_entries_of(keyspace.selected())
        .map(|(key, entry)| (key, entry.value.type_name()));
    let (next, page) = hashed_page(keys, cursor, options.count);
    let found = page
        .into_iter()
        .filter(|(key, _)| options.pattern.is_none_or(|p| glob::matches(p, key)))
        .filter(|(_, type_name)| {
            options
                .type_name
                .is_none_or(|wanted| c_string(wanted).eq_ignore_ascii_case(type_name.as_bytes()))
        })
        .map(|(key, _)| Reply::bulk(key))
        .collect();
    Ok(scan_reply(next, found))
}
