//! The protocol layer between the store's RESP2-shaped [`Reply`] and the wire: which commands
//! Redis 7.0 answers with a map, a set, a double or a nil *array*, by command name and options.
//! In RESP2 the shaped [`Frame`] flattens back to exactly what the store replied (bar the nil
//! array's `*-1`); in RESP3 it carries the types Redis 7.0 sends (checked against redis-server).
//! The one table of it: `ministore serve` shapes for its RESP3 clients here, and a script that
//! chose RESP3 (`redis.setresp(3)`) gets `redis.call`'s replies shaped here too.

use super::frame::Frame;
use crate::reply::Reply;

/// The frame Redis 7.0 sends for `words`, given the store's reply.
pub fn shape<W: AsRef<[u8]>>(words: &[W], reply: Reply) -> Frame {
    let Some(name) = words.first() else {
        return Frame::from_reply(reply);
    };
    if let Reply::Error(text) = reply {
        return Frame::Error(text);
    }
    let name = name.as_ref().to_ascii_lowercase();
    let sub = |i: usize| words.get(i).map(|w| w.as_ref().to_ascii_lowercase());
    // An option is looked for only where the command reads its options (a key named
    // `withscores` is not one), and matched as Redis's `strcasecmp` matches it, up to a NUL.
    let option_from = |first: usize, option: &str| {
        words
            .iter()
            .skip(first)
            .any(|w| crate::args::is(w.as_ref(), option))
    };
    let last_is = |at: usize, option: &str| {
        words.len() == at + 1 && crate::args::is(words[at].as_ref(), option)
    };
    // ZUNION, ZINTER and ZDIFF: `numkeys`, its keys, then the options.
    let after_keys = || {
        let numkeys = sub(1).and_then(|n| crate::args::parse_int(&n))?;
        usize::try_from(numkeys).ok()?.checked_add(2)
    };
    match name.as_slice() {
        b"hgetall" => map_of(reply, Frame::from_reply),
        b"lcs" if option_from(3, "idx") => map_of(reply, Frame::from_reply),
        b"config" if sub(1).as_deref() == Some(b"get") => map_of(reply, Frame::from_reply),
        b"smembers" | b"sinter" | b"sunion" | b"sdiff" => set_of(reply),
        b"spop" if words.len() == 3 => set_of(reply),
        b"zscore" | b"zincrby" | b"zadd" => double(reply),
        b"zmscore" => each(reply, double),
        b"zrange" | b"zrangebyscore" | b"zrevrange" | b"zrevrangebyscore"
            if option_from(4, "withscores") =>
        {
            pairs(reply, double)
        }
        b"zunion" | b"zinter" | b"zdiff"
            if after_keys().is_some_and(|first| option_from(first, "withscores")) =>
        {
            pairs(reply, double)
        }
        b"zrandmember" if last_is(3, "withscores") => pairs(reply, double),
        b"zpopmin" | b"zpopmax" if words.len() == 2 => scores_at_odd(reply),
        b"zpopmin" | b"zpopmax" => pairs(reply, double),
        b"bzpopmin" | b"bzpopmax" => nil_array_or(reply, scores_at_odd_from(2)),
        b"zmpop" | b"bzmpop" => nil_array_or(reply, |items| {
            key_and(items, |inner| each(inner, member_score))
        }),
        b"hrandfield" if last_is(3, "withvalues") => pairs(reply, Frame::from_reply),
        b"blpop" | b"brpop" | b"brpoplpush" | b"blmove" | b"blmpop" | b"lmpop" | b"exec" => {
            nil_array_or(reply, |items| {
                Frame::Array(items.into_iter().map(Frame::from_reply).collect())
            })
        }
        b"lpop" | b"rpop" if words.len() == 3 => nil_array_or(reply, |items| {
            Frame::Array(items.into_iter().map(Frame::from_reply).collect())
        }),
        b"function" if sub(1).as_deref() == Some(b"list") => each(reply, library),
        b"function" if sub(1).as_deref() == Some(b"stats") => {
            map_by(reply, |field, value| match field {
                b"running_script" => map_of(value, Frame::from_reply),
                b"engines" => map_of(value, |engine| map_of(engine, Frame::from_reply)),
                _ => Frame::from_reply(value),
            })
        }
        b"info" => verbatim(reply),
        b"client" if matches!(sub(1).as_deref(), Some(b"info" | b"list")) => verbatim(reply),
        _ => Frame::from_reply(reply),
    }
}

/// EXEC's reply, each element shaped by the command queued at its position (only a server
/// keeps the queue to shape by).
#[cfg(not(target_arch = "wasm32"))]
pub fn shape_exec(queued: &[Vec<Vec<u8>>], reply: Reply) -> Frame {
    match reply {
        Reply::Array(items) if items.len() == queued.len() => Frame::Array(
            queued
                .iter()
                .zip(items)
                .map(|(words, item)| match item {
                    // Inside MULTI, BLMOVE and BRPOPLPUSH answer as LMOVE and RPOPLPUSH do: a
                    // nil bulk, not the nil array of a timeout.
                    Reply::Nil
                        if words.first().is_some_and(|name| {
                            name.eq_ignore_ascii_case(b"blmove")
                                || name.eq_ignore_ascii_case(b"brpoplpush")
                        }) =>
                    {
                        Frame::NullBulk
                    }
                    item => shape(words, item),
                })
                .collect(),
        ),
        Reply::Nil => Frame::NullArray,
        other => Frame::from_reply(other),
    }
}

/// A flat `k1 v1 k2 v2` array as a map.
fn map_of(reply: Reply, value: fn(Reply) -> Frame) -> Frame {
    match reply {
        Reply::Array(items) if items.len().is_multiple_of(2) => {
            let mut pairs = Vec::with_capacity(items.len() / 2);
            let mut items = items.into_iter();
            while let (Some(k), Some(v)) = (items.next(), items.next()) {
                pairs.push((Frame::from_reply(k), value(v)));
            }
            Frame::Map(pairs)
        }
        other => Frame::from_reply(other),
    }
}

/// A flat `k1 v1 k2 v2` array as a map, each value shaped by its key.
fn map_by(reply: Reply, value: fn(&[u8], Reply) -> Frame) -> Frame {
    match reply {
        Reply::Array(items) if items.len().is_multiple_of(2) => {
            let mut pairs = Vec::with_capacity(items.len() / 2);
            let mut items = items.into_iter();
            while let (Some(k), Some(v)) = (items.next(), items.next()) {
                let shaped = match &k {
                    Reply::Bulk(name) => value(name, v),
                    _ => Frame::from_reply(v),
                };
                pairs.push((Frame::from_reply(k), shaped));
            }
            Frame::Map(pairs)
        }
        other => Frame::from_reply(other),
    }
}

/// One library of FUNCTION LIST: a map whose functions are maps with their flags as a set.
fn library(reply: Reply) -> Frame {
    map_by(reply, |field, value| match field {
        b"functions" => each(value, |function| {
            map_by(function, |field, value| match field {
                b"flags" => set_of(value),
                _ => Frame::from_reply(value),
            })
        }),
        _ => Frame::from_reply(value),
    })
}

/// A flat `m1 s1 m2 s2` array as pairs (`[[m1, s1], [m2, s2]]` in RESP3), the second of each
/// pair shaped by `second`.
fn pairs(reply: Reply, second: fn(Reply) -> Frame) -> Frame {
    match reply {
        Reply::Array(items) if items.len().is_multiple_of(2) => {
            let mut out = Vec::with_capacity(items.len() / 2);
            let mut items = items.into_iter();
            while let (Some(m), Some(s)) = (items.next(), items.next()) {
                out.push((Frame::from_reply(m), second(s)));
            }
            Frame::Pairs(out)
        }
        other => Frame::from_reply(other),
    }
}

/// One `[member, score]` element with the score as a double.
fn member_score(pair: Reply) -> Frame {
    match pair {
        Reply::Array(items) if items.len() == 2 => scores_at_odd_from(1)(items),
        other => Frame::from_reply(other),
    }
}

fn set_of(reply: Reply) -> Frame {
    match reply {
        Reply::Array(items) => Frame::Set(items.into_iter().map(Frame::from_reply).collect()),
        other => Frame::from_reply(other),
    }
}

/// A score the store formatted as a bulk string, as a double.
fn double(reply: Reply) -> Frame {
    match reply {
        Reply::Bulk(text) => Frame::Double(text),
        other => Frame::from_reply(other),
    }
}

fn each(reply: Reply, item: fn(Reply) -> Frame) -> Frame {
    match reply {
        Reply::Array(items) => Frame::Array(items.into_iter().map(item).collect()),
        other => Frame::from_reply(other),
    }
}

/// `member score member score…` with every score a double.
fn scores_at_odd(reply: Reply) -> Frame {
    match reply {
        Reply::Array(items) => scores_at_odd_from(1)(items),
        other => Frame::from_reply(other),
    }
}

/// Every element from `first` on at odd distance 0, 2, 4… from it is a score.
fn scores_at_odd_from(first: usize) -> impl Fn(Vec<Reply>) -> Frame {
    move |items| {
        Frame::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| {
                    if i >= first && (i - first).is_multiple_of(2) {
                        double(item)
                    } else {
                        Frame::from_reply(item)
                    }
                })
                .collect(),
        )
    }
}

/// `[key, rest]`, the rest shaped by `rest`.
fn key_and(items: Vec<Reply>, rest: fn(Reply) -> Frame) -> Frame {
    let mut items = items.into_iter();
    match (items.next(), items.next(), items.next()) {
        (Some(key), Some(inner), None) => Frame::Array(vec![Frame::from_reply(key), rest(inner)]),
        (a, b, c) => Frame::Array(
            [a, b, c]
                .into_iter()
                .flatten()
                .chain(items)
                .map(Frame::from_reply)
                .collect(),
        ),
    }
}

/// The store's nil as the nil array these commands send; an array shaped by `array`.
fn nil_array_or(reply: Reply, array: impl Fn(Vec<Reply>) -> Frame) -> Frame {
    match reply {
        Reply::Nil => Frame::NullArray,
        Reply::Array(items) => array(items),
        other => Frame::from_reply(other),
    }
}

fn verbatim(reply: Reply) -> Frame {
    match reply {
        Reply::Bulk(text) => Frame::verbatim_text(text),
        other => Frame::from_reply(other),
    }
}
