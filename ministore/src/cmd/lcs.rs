//! LCS: the longest common subsequence of two strings, its length (LEN), or the matching
//! ranges (IDX, with MINMATCHLEN and WITHMATCHLEN), walked back from the strings' ends the
//! way Redis walks its table, so ties pick the same subsequence and ranges come last-first.

use super::CommandResult;
use crate::args::{int_arg, is};
use crate::error::CommandError;
use crate::keyspace::{Keyspace, Value};
use crate::reply::Reply;

/// Redis refuses a table larger than `proto-max-bulk-len` (512 MB of u32 cells).
const MAX_TABLE_BYTES: u64 = 512 * 1024 * 1024;

/// LCS's options.
#[derive(Default)]
struct LcsOptions {
    len: bool,
    idx: bool,
    with_match_len: bool,
    min_match_len: u64,
}

fn parse_options(words: &[&[u8]]) -> Result<LcsOptions, CommandError> {
    let mut options = LcsOptions::default();
    let mut at = 3;
    while let Some(word) = words.get(at) {
        let more = at + 1 < words.len();
        if is(word, "idx") {
            options.idx = true;
        } else if is(word, "len") {
            options.len = true;
        } else if is(word, "withmatchlen") {
            options.with_match_len = true;
        } else if is(word, "minmatchlen") && more {
            options.min_match_len = u64::try_from(int_arg(words[at + 1])?).unwrap_or(0);
            at += 1;
        } else {
            return Err(CommandError::Syntax);
        }
        at += 1;
    }
    if options.idx && options.len {
        return Err(CommandError::LcsLenAndIdx);
    }
    Ok(options)
}

/// The string at `key` (empty if missing); an error for another type.
fn string_of(keyspace: &mut Keyspace, key: &[u8]) -> Result<Vec<u8>, CommandError> {
    match keyspace.value(key) {
        None => Ok(Vec::new()),
        Some(Value::Str(bytes, _)) => Ok(bytes.clone()),
        Some(_) => Err(CommandError::LcsNeedsStrings),
    }
}

/// `LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]`
pub(crate) fn lcs(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    let first = keyspace
        .value(words[1])
        .is_some_and(|v| !matches!(v, Value::Str(..)));
    let second = keyspace
        .value(words[2])
        .is_some_and(|v| !matches!(v, Value::Str(..)));
    if first || second {
        return Err(CommandError::LcsNeedsStrings);
    }
    let a = string_of(keyspace, words[1])?;
    let b = string_of(keyspace, words[2])?;
    let options = parse_options(words)?;
    let cells = (a.len() as u64 + 1).saturating_mul(b.len() as u64 + 1);
    if cells.saturating_mul(4) > MAX_TABLE_BYTES {
        return Err(CommandError::LcsTooLarge);
    }
    let table = Table::build(&a, &b);
    let total = table.at(a.len(), b.len());
    if options.len {
        return Ok(Reply::Integer(i64::from(total)));
    }
    let (subsequence, ranges) = table.walk_back(&a, &b, &options);
    if !options.idx {
        return Ok(Reply::Bulk(subsequence));
    }
    Ok(Reply::Array(vec![
        Reply::bulk("matches"),
        Reply::Array(ranges),
        Reply::bulk("len"),
        Reply::Integer(i64::from(total)),
    ]))
}

/// `cells[i * (b + 1) + j]` is the LCS length of `a[..i]` and `b[..j]`.
struct Table {
    cells: Vec<u32>,
    width: usize,
}

impl Table {
    fn build(a: &[u8], b: &[u8]) -> Table {
        let width = b.len() + 1;
        let mut cells = vec![0u32; (a.len() + 1) * width];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                cells[i * width + j] = if a[i - 1] == b[j - 1] {
                    cells[(i - 1) * width + j - 1] + 1
                } else {
                    cells[(i - 1) * width + j].max(cells[i * width + j - 1])
                };
            }
        }
        Table { cells, width }
    }

    fn at(&self, i: usize, j: usize) -> u32 {
        self.cells[i * self.width + j]
    }

    /// From the ends back: the subsequence, and each contiguous matching range as
    /// `[[a_start, a_end], [b_start, b_end](, len)]`, last range first.
    fn walk_back(&self, a: &[u8], b: &[u8], options: &LcsOptions) -> (Vec<u8>, Vec<Reply>) {
        let mut subsequence = vec![0u8; self.at(a.len(), b.len()) as usize];
        let mut fill = subsequence.len();
        let mut ranges = Vec::new();
        // `None` while no range is open; else (a_start, a_end, b_start, b_end).
        let mut open: Option<(usize, usize, usize, usize)> = None;
        let (mut i, mut j) = (a.len(), b.len());
        while i > 0 && j > 0 {
            let mut emit = false;
            if a[i - 1] == b[j - 1] {
                fill -= 1;
                subsequence[fill] = a[i - 1];
                open = Some(match open {
                    Some((a_start, a_end, b_start, b_end)) if a_start == i && b_start == j => {
                        (a_start - 1, a_end, b_start - 1, b_end)
                    }
                    Some(range) => {
                        emit = true;
                        range
                    }
                    None => (i - 1, i - 1, j - 1, j - 1),
                });
                if open.is_some_and(|(a_start, _, b_start, _)| a_start == 0 || b_start == 0) {
                    emit = true;
                }
                i -= 1;
                j -= 1;
            } else {
                if self.at(i - 1, j) > self.at(i, j - 1) {
                    i -= 1;
                } else {
                    j -= 1;
                }
                emit = open.is_some();
            }
            if let Some((a_start, a_end, b_start, b_end)) = open.filter(|_| emit) {
                let len = a_end - a_start + 1;
                if options.idx && len as u64 >= options.min_match_len {
                    ranges.push(range_reply(a_start, a_end, b_start, b_end, len, options));
                }
                open = None;
            }
        }
        (subsequence, ranges)
    }
}

fn range_reply(
    a_start: usize,
    a_end: usize,
    b_start: usize,
    b_end: usize,
    len: usize,
    options: &LcsOptions,
) -> Reply {
    let int = |n: usize| Reply::Integer(i64::try_from(n).unwrap_or(i64::MAX));
    let mut items = vec![
        Reply::Array(vec![int(a_start), int(a_end)]),
        Reply::Array(vec![int(b_start), int(b_end)]),
    ];
    if options.with_match_len {
        items.push(int(len));
    }
    Reply::Array(items)
}
