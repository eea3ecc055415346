//! Server commands: DEBUG SLEEP, which here moves the virtual clock instead of blocking, so a
//! conformance file's sleep and the store's clock agree; TIME, read from that clock; and
//! PUBLISH and SPUBLISH, handed to the store's delivery (nobody, unless a server installed
//! subscribers).

use super::CommandResult;
use crate::args::{is, parse_lenient_float};
use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::pubsub::ChannelKind;
use crate::reply::Reply;

/// `DEBUG SLEEP seconds` — advances the virtual clock by the (possibly fractional) seconds.
/// Redis reads the seconds with a bare `strtod`, so garbage sleeps 0 and still replies OK.
pub(crate) fn debug(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    match words {
        [_, sub, seconds] if is(sub, "sleep") => {
            keyspace.advance_micros(sleep_micros(seconds));
            Ok(Reply::ok())
        }
        [_, sub, ..] => Err(CommandError::UnknownDebugSubcommand { sub: sub.to_vec() }),
        _ => Err(CommandError::WrongArity { command: "debug" }),
    }
}

/// How long DEBUG SLEEP sleeps: `(long long)(seconds * 1e6)` microseconds, the seconds read by
/// a bare `strtod`. A negative count sleeps not at all, and so does one past long long's range
/// (and NaN), which x86's conversion makes `LLONG_MIN`.
pub(crate) fn sleep_micros(seconds: &[u8]) -> u64 {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    let micros = parse_lenient_float(seconds) * 1_000_000.0;
    if (0.0..LIMIT).contains(&micros) {
        micros as u64
    } else {
        0
    }
}

/// `TIME` — the virtual clock as Unix seconds and the microseconds within that second.
pub(crate) fn time(keyspace: &mut Keyspace, _: &[&[u8]]) -> CommandResult {
    let now_ms = keyspace.now();
    let seconds = now_ms.div_euclid(1000);
    let micros = now_ms.rem_euclid(1000) * 1000 + i64::from(keyspace.clock_sub_ms());
    Ok(Reply::Array(vec![
        Reply::Bulk(seconds.to_string().into_bytes()),
        Reply::Bulk(micros.to_string().into_bytes()),
    ]))
}

/// `PUBLISH channel message` — how many subscribers received the message.
pub(crate) fn publish(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(Reply::Integer(keyspace.pubsub().publish(
        ChannelKind::Global,
        words[1],
        words[2],
    )))
}

/// `SPUBLISH shardchannel message` — how many shard-channel subscribers received it.
pub(crate) fn spublish(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    Ok(Reply::Integer(keyspace.pubsub().publish(
        ChannelKind::Shard,
        words[1],
        words[2],
    )))
}
