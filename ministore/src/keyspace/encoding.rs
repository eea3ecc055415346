//! The names OBJECT ENCODING replies, chosen by Redis 7.0's rules: a string stored whole is
//! `int` when it reads as a 64-bit integer of at most 20 characters, `embstr` up to 44 bytes,
//! `raw` beyond (APPEND, SETRANGE and INCRBYFLOAT build theirs otherwise, see [`StrForm`]);
//! a hash or sorted set is `listpack` until it outgrows Redis's default thresholds (a hash 512
//! fields, a sorted set 128 members; 64-byte fields, values and members) and `hashtable` /
//! `skiplist` from then on.

use super::Value;
use crate::args::parse_int;

/// Redis stores strings up to this many bytes in one allocation with their header.
const EMBSTR_MAX: usize = 44;
/// Redis tries the integer encoding only on strings this short.
const INT_MAX_CHARS: usize = 20;
/// Integers Redis shares between keys (OBJECT REFCOUNT shows them as never freed).
const SHARED_INTEGERS: i64 = 10_000;

/// What a string's encoding depends on besides its bytes: how the command that last wrote it
/// built the object in Redis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StrForm {
    /// Stored whole (SET, MSET, INCR…): Redis's `tryObjectEncoding` picks `int`, `embstr` or
    /// `raw` from the bytes.
    Encoded,
    /// INCRBYFLOAT's result, made by `createStringObject`: `embstr` up to 44 bytes, `raw`
    /// beyond, never `int` (nor a shared integer) even when it reads as one.
    Plain,
    /// Edited in place by APPEND or SETRANGE, which first turn the value into a `raw` string
    /// of its own and leave it so, however short.
    Raw,
    /// COPY's duplicate of a string stored whole (`dupStringObject`): the same encoding, but
    /// an object of its own, never a shared integer.
    Copied,
}

impl Value {
    /// OBJECT ENCODING's answer.
    pub(crate) fn encoding(&self) -> &'static str {
        match self {
            Value::Str(bytes, StrForm::Encoded | StrForm::Copied) => string_encoding(bytes),
            Value::Str(bytes, StrForm::Plain) if bytes.len() <= EMBSTR_MAX => "embstr",
            Value::Str(_, StrForm::Plain | StrForm::Raw) => "raw",
            Value::Hash(table) if table.is_compact() => "listpack",
            Value::Hash(_) => "hashtable",
            Value::ZSet(set) if set.compact => "listpack",
            Value::ZSet(_) => "skiplist",
            // Redis 7.0 keeps every list as a quicklist (listpack lists came in 7.2).
            Value::List(_) => "quicklist",
            Value::Set(set) => set.encoding(),
        }
    }

    /// OBJECT REFCOUNT's answer: shared small integers report `INT_MAX`, anything else 1.
    pub(crate) fn refcount(&self) -> i64 {
        match self {
            Value::Str(bytes, StrForm::Encoded) if bytes.len() <= INT_MAX_CHARS => {
                match parse_int(bytes) {
                    Some(n) if (0..SHARED_INTEGERS).contains(&n) => i64::from(i32::MAX),
                    _ => 1,
                }
            }
            _ => 1,
        }
    }
}

/// The encoding of a string stored whole, from its bytes.
fn string_encoding(bytes: &[u8]) -> &'static str {
    if bytes.len() <= INT_MAX_CHARS && parse_int(bytes).is_some() {
        "int"
    } else if bytes.len() <= EMBSTR_MAX {
        "embstr"
    } else {
        "raw"
    }
}

impl super::SortedSet {
    /// SORT converts a sorted set to a skiplist before reading it, as Redis 7.0 does.
    pub(crate) fn make_skiplist(&mut self) {
        self.compact = false;
    }
}
