//! The blocking list commands — BLPOP BRPOP BLMOVE BRPOPLPUSH BLMPOP — and the one decision
//! about what "blocking" means in this store, [`when_nothing_to_pop`], with the timeout reader
//! [`parse_timeout`]; the sorted-set forms (BZPOPMIN BZPOPMAX BZMPOP, in `zsets/pop.rs`) use both.
//!
//! With something to pop they behave as their non-blocking forms. With nothing:
//! - inside MULTI, from a script (BLMPOP and BZMPOP; Redis refuses the others to scripts, and
//!   so does the command table), or when the caller waits itself ([`Wait::Never`]) they reply
//!   nil at once, as Redis does in the first two; `ministore serve` sets
//!   `Store::set_caller_waits` and parks the connection until a push or the timeout;
//! - from any other client ([`Wait::Client`]) no one else can push while the command runs, so
//!   waiting out a timeout ends the way it would on a real server: the virtual clock moves
//!   forward by the timeout and the reply is nil. A timeout of 0 would wait forever; instead of
//!   hanging the page, that gets an error saying so.

use super::lists::{
    move_element, parse_end, parse_multi_pop, pop_from_first, pop_one_from_first, End,
};
use super::CommandResult;
use crate::error::CommandError;
use crate::keyspace::Keyspace;
use crate::longdouble::{LongDouble, LongDoubleError};
use crate::reply::Reply;

/// Where a blocking command's timeout argument is, if `name` (lowercase) with these words is a
/// blocking command a server should wait on; arities that the command would refuse give `None`.
/// Only `ministore serve` waits, so the wasm build has no use for it.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn timeout_position(name: &[u8], words: &[Vec<u8>]) -> Option<usize> {
    let n = words.len();
    match name {
        b"blpop" | b"brpop" | b"bzpopmin" | b"bzpopmax" if n >= 3 => Some(n - 1),
        b"brpoplpush" if n == 4 => Some(3),
        b"blmove" if n == 6 => Some(5),
        b"blmpop" | b"bzmpop" if n >= 5 => Some(1),
        _ => None,
    }
}

/// Who runs a blocking command, which decides what happens when it finds nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Wait {
    /// Inside MULTI/EXEC or a script: never block (Redis's `CLIENT_DENY_BLOCKING`).
    Never,
    /// A plain client: wait out the timeout on the virtual clock.
    Client,
}

/// A blocking command's timeout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Timeout {
    /// 0: wait until something arrives.
    Forever,
    /// This many milliseconds.
    Ms(u64),
}

/// Seconds as Redis 7.0 reads them (`getTimeoutFromObjectOrReply`): a whole-word `long
/// double` (no leading space, not NaN, not past its range), then `(long long) ceill(seconds *
/// 1000)` in `long double` arithmetic, so `-0.001` is a timeout of 0 (the long double nearest
/// it is a shade above -0.001) and `9223372036854775` seconds still fit. A result beyond
/// `long long`'s range is `LLONG_MIN` in C, so `inf` and `1e20` are "negative" there, and here.
pub(crate) fn parse_timeout(word: &[u8]) -> Result<Timeout, CommandError> {
    let seconds = match LongDouble::parse(word) {
        Ok(seconds) => seconds,
        Err(LongDoubleError::Infinite) => return Err(CommandError::TimeoutNegative),
        Err(LongDoubleError::NotANumber) => return Err(CommandError::TimeoutNotFloat),
    };
    match seconds.mul_ceil_to_i64(1000) {
        Some(0) => Ok(Timeout::Forever),
        Some(ms) if ms > 0 => Ok(Timeout::Ms(ms.unsigned_abs())),
        _ => Err(CommandError::TimeoutNegative),
    }
}

/// What a blocking command replies when every key it watches is empty.
pub(crate) fn when_nothing_to_pop(
    keyspace: &mut Keyspace,
    wait: Wait,
    timeout: Timeout,
    command: &'static str,
) -> CommandResult {
    match (wait, timeout) {
        (Wait::Never, _) => Ok(Reply::Nil),
        (Wait::Client, Timeout::Ms(ms)) => {
            keyspace.advance(ms);
            Ok(Reply::Nil)
        }
        (Wait::Client, Timeout::Forever) => Err(CommandError::WouldBlockForever { command }),
    }
}

/// The keys and the timeout of `COMMAND key [key ...] timeout` (BLPOP, BRPOP, BZPOPMIN,
/// BZPOPMAX).
pub(crate) fn keys_then_timeout<'w>(
    words: &'w [&'w [u8]],
    command: &'static str,
) -> Result<(&'w [&'w [u8]], Timeout), CommandError> {
    match words.split_last() {
        Some((timeout, [_, keys @ ..])) => Ok((keys, parse_timeout(timeout)?)),
        _ => Err(CommandError::WrongArity { command }),
    }
}

/// `BLPOP key [key ...] timeout` — `[key, element]` from the first non-empty list.
pub(crate) fn blpop(keyspace: &mut Keyspace, words: &[&[u8]], wait: Wait) -> CommandResult {
    blocking_pop(keyspace, words, End::Left, wait, "blpop")
}

/// `BRPOP key [key ...] timeout` — as BLPOP, from the tail.
pub(crate) fn brpop(keyspace: &mut Keyspace, words: &[&[u8]], wait: Wait) -> CommandResult {
    blocking_pop(keyspace, words, End::Right, wait, "brpop")
}

fn blocking_pop(
    keyspace: &mut Keyspace,
    words: &[&[u8]],
    end: End,
    wait: Wait,
    command: &'static str,
) -> CommandResult {
    let (keys, timeout) = keys_then_timeout(words, command)?;
    match pop_one_from_first(keyspace, keys, end)? {
        Some(reply) => Ok(reply),
        None => when_nothing_to_pop(keyspace, wait, timeout, command),
    }
}

/// `BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout`
pub(crate) fn blmove(keyspace: &mut Keyspace, words: &[&[u8]], wait: Wait) -> CommandResult {
    let (from, to) = (parse_end(words[3])?, parse_end(words[4])?);
    let timeout = parse_timeout(words[5])?;
    blocking_move(
        keyspace,
        words[1],
        words[2],
        (from, to),
        timeout,
        wait,
        "blmove",
    )
}

/// `BRPOPLPUSH source destination timeout` — BLMOVE source destination RIGHT LEFT.
pub(crate) fn brpoplpush(keyspace: &mut Keyspace, words: &[&[u8]], wait: Wait) -> CommandResult {
    let timeout = parse_timeout(words[3])?;
    let ends = (End::Right, End::Left);
    blocking_move(
        keyspace,
        words[1],
        words[2],
        ends,
        timeout,
        wait,
        "brpoplpush",
    )
}

fn blocking_move(
    keyspace: &mut Keyspace,
    source: &[u8],
    destination: &[u8],
    (from, to): (End, End),
    timeout: Timeout,
    wait: Wait,
    command: &'static str,
) -> CommandResult {
    match move_element(keyspace, source, destination, from, to)? {
        Some(value) => Ok(Reply::Bulk(value)),
        None => when_nothing_to_pop(keyspace, wait, timeout, command),
    }
}

/// `BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]` — the timeout is read
/// after everything else, as Redis does.
pub(crate) fn blmpop(keyspace: &mut Keyspace, words: &[&[u8]], wait: Wait) -> CommandResult {
    let pop = parse_multi_pop(words, 2)?;
    let timeout = parse_timeout(words[1])?;
    match pop_from_first(keyspace, &pop)? {
        Some(reply) => Ok(reply),
        None => when_nothing_to_pop(keyspace, wait, timeout, "blmpop"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_read_like_redis_7_0() {
        assert_eq!(parse_timeout(b"0"), Ok(Timeout::Forever));
        assert_eq!(parse_timeout(b"-0"), Ok(Timeout::Forever));
        assert_eq!(parse_timeout(b"-0.0001"), Ok(Timeout::Forever));
        assert_eq!(parse_timeout(b"0.0001"), Ok(Timeout::Ms(1)));
        assert_eq!(parse_timeout(b"1e-400"), Ok(Timeout::Ms(1)));
        assert_eq!(parse_timeout(b"1.5"), Ok(Timeout::Ms(1500)));
        assert_eq!(parse_timeout(b"+1"), Ok(Timeout::Ms(1000)));
        assert_eq!(parse_timeout(b"0x10"), Ok(Timeout::Ms(16_000)));
        for negative in [
            &b"-1"[..],
            b"inf",
            b"-inf",
            b"1e20",
            b"1e400",
            b"9223372036854776",
        ] {
            assert_eq!(parse_timeout(negative), Err(CommandError::TimeoutNegative));
        }
        for bad in [&b""[..], b"nan", b"abc", b" 1", b"1 ", b"1s"] {
            assert_eq!(parse_timeout(bad), Err(CommandError::TimeoutNotFloat));
        }
    }

    #[test]
    fn a_plain_client_waits_out_the_timeout_on_the_virtual_clock() {
        let mut keyspace = Keyspace::default();
        let reply = blpop(&mut keyspace, &[b"blpop", b"q", b"1.5"], Wait::Client);
        assert_eq!(reply, Ok(Reply::Nil));
        assert_eq!(keyspace.clock_ms(), 1500);
        let forever = blpop(&mut keyspace, &[b"blpop", b"q", b"0"], Wait::Client);
        assert!(matches!(
            forever,
            Err(CommandError::WouldBlockForever { .. })
        ));
        let never = blpop(&mut keyspace, &[b"blpop", b"q", b"0"], Wait::Never);
        assert_eq!(never, Ok(Reply::Nil));
        assert_eq!(keyspace.clock_ms(), 1500);
    }
}
