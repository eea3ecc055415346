//! SORT and SORT_RO: sort a collection's elements numerically or (ALPHA) by bytes, by the
//! elements themselves or by other keys (`BY pattern`, `*` replaced by the element, `->field`
//! for a hash field), with LIMIT, GET patterns (`#` is the element) and STORE. What can be
//! sorted comes from [`sortable_elements`]: a type that can be sorted adds its arm there.

use std::cmp::Ordering;

use super::CommandResult;
use crate::args::{c_string, int_arg, is};
use crate::error::CommandError;
use crate::keyspace::{Keyspace, Value};
use crate::order;
use crate::reply::Reply;
use crate::strtod::strtod;

/// The elements SORT reads from a value, in the value's own order; `None` for a type SORT
/// refuses (WRONGTYPE). Lists give their elements, sets their members, sorted sets their
/// members by rank.
fn sortable_elements(value: &mut Value) -> Option<Vec<Vec<u8>>> {
    match value {
        Value::ZSet(set) => {
            set.make_skiplist();
            Some(set.iter().map(|ranked| ranked.member.clone()).collect())
        }
        Value::List(list) => Some(list.iter().cloned().collect()),
        Value::Set(set) => Some(set.members()),
        Value::Str(..) | Value::Hash(_) => None,
    }
}

/// Whether the value's own order is an order (lists, sorted sets) rather than a hash
/// table's (sets), which BY without `*` would otherwise expose.
fn keeps_order(value: &Value) -> bool {
    matches!(value, Value::ZSet(_) | Value::List(_))
}

/// SORT's options.
#[derive(Default)]
struct SortOptions<'a> {
    desc: bool,
    alpha: bool,
    limit: Option<(i64, i64)>,
    by: Option<&'a [u8]>,
    /// BY a pattern without `*`: keep the collection's order.
    dont_sort: bool,
    gets: Vec<&'a [u8]>,
    store: Option<&'a [u8]>,
}

fn parse_options<'a>(words: &[&'a [u8]], read_only: bool) -> Result<SortOptions<'a>, CommandError> {
    let mut options = SortOptions::default();
    let mut at = 2;
    while at < words.len() {
        let word = words[at];
        let left = words.len() - at - 1;
        if is(word, "asc") {
            options.desc = false;
        } else if is(word, "desc") {
            options.desc = true;
        } else if is(word, "alpha") {
            options.alpha = true;
        } else if is(word, "limit") && left >= 2 {
            options.limit = Some((int_arg(words[at + 1])?, int_arg(words[at + 2])?));
            at += 2;
        } else if is(word, "store") && left >= 1 && !read_only {
            options.store = Some(words[at + 1]);
            at += 1;
        } else if is(word, "by") && left >= 1 {
            let pattern = words[at + 1];
            // `strchr`: a `*` after a NUL is not seen. Once a BY without one has said not to
            // sort, a later BY only changes the pattern, as in Redis.
            options.dont_sort |= !c_string(pattern).contains(&b'*');
            options.by = Some(pattern);
            at += 1;
        } else if is(word, "get") && left >= 1 {
            options.gets.push(words[at + 1]);
            at += 1;
        } else {
            return Err(CommandError::Syntax);
        }
        at += 1;
    }
    Ok(options)
}

/// `SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA]
/// [STORE destination]`
pub(crate) fn sort(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    sort_generic(keyspace, words, false)
}

/// `SORT_RO key …` — SORT without STORE.
pub(crate) fn sort_ro(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    sort_generic(keyspace, words, true)
}

/// One element being sorted, with what it sorts by.
struct Item {
    element: Vec<u8>,
    score: f64,
    /// ALPHA BY: the looked-up value, `None` when missing (sorts first).
    by_text: Option<Vec<u8>>,
}

fn sort_generic(keyspace: &mut Keyspace, words: &[&[u8]], read_only: bool) -> CommandResult {
    let mut options = parse_options(words, read_only)?;
    let (elements, ordered) = match keyspace.value_mut(words[1]) {
        None => (Vec::new(), true),
        Some(value) => {
            let ordered = keeps_order(value);
            (
                sortable_elements(value).ok_or(CommandError::WrongType)?,
                ordered,
            )
        }
    };
    // A set (the one sortable value without an order of its own) is in a hash table's order:
    // what SORT stores, or answers a script, must not depend on it, so Redis sorts such a set
    // ALPHA instead, whatever BY said.
    if options.dont_sort && !ordered && (options.store.is_some() || keyspace.in_script()) {
        options.dont_sort = false;
        options.alpha = true;
        options.by = None;
    }
    let len = i64::try_from(elements.len()).unwrap_or(i64::MAX);
    let (start, end) = limit_range(options.limit, len);
    let mut items: Vec<Item> = elements
        .into_iter()
        .map(|element| Item {
            element,
            score: 0.0,
            by_text: None,
        })
        .collect();
    if options.dont_sort {
        if ordered && options.desc {
            items.reverse();
        }
    } else {
        weigh(keyspace, &mut items, &options)?;
        order::sort_by(&mut items, |a, b| compare(a, b, &options));
    }
    let picked: Vec<Item> = if start <= end {
        // Both ends lie in 0..len here.
        items
            .into_iter()
            .skip(start as usize)
            .take((end - start + 1) as usize)
            .collect()
    } else {
        Vec::new()
    };
    let mut output: Vec<Option<Vec<u8>>> = Vec::new();
    for item in picked {
        if options.gets.is_empty() {
            output.push(Some(item.element));
            continue;
        }
        for pattern in &options.gets {
            output.push(lookup_by_pattern(keyspace, pattern, &item.element));
        }
    }
    match options.store {
        None => Ok(Reply::Array(
            output
                .into_iter()
                .map(|value| value.map_or(Reply::Nil, Reply::Bulk))
                .collect(),
        )),
        Some(destination) => store(keyspace, destination, output),
    }
}

/// Redis's LIMIT clamping: the inclusive positions to return out of `len`.
fn limit_range(limit: Option<(i64, i64)>, len: i64) -> (i64, i64) {
    let (offset, count) = limit.unwrap_or((0, -1));
    let mut start = offset.max(0);
    let mut end = if count < 0 {
        len - 1
    } else {
        start.saturating_add(count) - 1
    };
    if start >= len {
        start = len - 1;
        end = len - 2;
    }
    if end >= len {
        end = len - 1;
    }
    (start, end)
}

/// Fills each item's sort key: the number (or ALPHA text) it sorts by.
fn weigh(
    keyspace: &mut Keyspace,
    items: &mut [Item],
    options: &SortOptions,
) -> Result<(), CommandError> {
    let mut not_numbers = false;
    for item in items.iter_mut() {
        let by = match options.by {
            Some(pattern) => match lookup_by_pattern(keyspace, pattern, &item.element) {
                Some(found) => found,
                None => continue,
            },
            None => item.element.clone(),
        };
        if options.alpha {
            if options.by.is_some() {
                item.by_text = Some(by);
            }
        } else {
            // Redis checks `strtod`'s end against the C string (it stops at a NUL) and
            // refuses any ERANGE, which glibc also sets for an inexact subnormal result.
            let parsed = strtod(&by);
            if parsed.consumed != c_string(&by).len()
                || parsed.range_error
                || parsed.tiny_inexact
                || parsed.value.is_nan()
            {
                not_numbers = true;
            }
            item.score = parsed.value;
        }
    }
    if not_numbers {
        return Err(CommandError::SortNotDouble);
    }
    Ok(())
}

fn compare(a: &Item, b: &Item, options: &SortOptions) -> Ordering {
    let order = if !options.alpha {
        a.score
            .partial_cmp(&b.score)
            .unwrap_or(Ordering::Equal)
            .then_with(|| a.element.cmp(&b.element))
    } else if options.by.is_some() {
        match (&a.by_text, &b.by_text) {
            (Some(x), Some(y)) => alpha_cmp(x, y, options),
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
        }
    } else {
        alpha_cmp(&a.element, &b.element, options)
    };
    if options.desc {
        order.reverse()
    } else {
        order
    }
}

/// ALPHA's comparison: byte for byte when SORT stores, else C's `strcoll` (in the C locale the
/// tests run Redis in), which stops at a NUL byte; ties keep their order.
fn alpha_cmp(a: &[u8], b: &[u8], options: &SortOptions) -> Ordering {
    if options.store.is_some() {
        return a.cmp(b);
    }
    c_string(a).cmp(c_string(b))
}

/// Redis's `lookupKeyByPattern`: `#` is the element itself; otherwise the first `*` is
/// replaced by the element and the key read as a string, or, with `->field` after the `*`,
/// as that hash field. A pattern without `*` finds nothing.
fn lookup_by_pattern(keyspace: &mut Keyspace, pattern: &[u8], element: &[u8]) -> Option<Vec<u8>> {
    // Redis finds `#`, the `*` and the `->` with C string functions, which stop at a NUL, but
    // cuts the key and the field by the pattern's whole length.
    let seen = c_string(pattern);
    if seen == b"#" {
        return Some(element.to_vec());
    }
    let star = seen.iter().position(|&b| b == b'*')?;
    let after = &pattern[star + 1..];
    let after_seen = &seen[star + 1..];
    let arrow = after_seen
        .windows(2)
        .position(|pair| pair == b"->")
        .filter(|at| at + 2 < after_seen.len());
    let (suffix, field) = match arrow {
        Some(at) => (&after[..at], Some(&after[at + 2..])),
        None => (after, None),
    };
    let mut key = pattern[..star].to_vec();
    key.extend_from_slice(element);
    key.extend_from_slice(suffix);
    match (keyspace.value(&key)?, field) {
        (Value::Str(bytes, _), None) => Some(bytes.clone()),
        (Value::Hash(table), Some(field)) => table.get(field).map(<[u8]>::to_vec),
        _ => None,
    }
}

/// STORE: the results as a list at `destination` (missing GET values as empty strings); an
/// empty result deletes it. Replies the number of elements stored.
fn store(
    keyspace: &mut Keyspace,
    destination: &[u8],
    output: Vec<Option<Vec<u8>>>,
) -> CommandResult {
    let count = i64::try_from(output.len()).unwrap_or(i64::MAX);
    if output.is_empty() {
        keyspace.remove(destination);
        return Ok(Reply::Integer(0));
    }
    let items = output.into_iter().map(Option::unwrap_or_default).collect();
    keyspace.insert(destination, Value::List(items), None);
    Ok(Reply::Integer(count))
}
