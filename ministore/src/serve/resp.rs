//! Reading requests off the socket: RESP multibulk (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`) and inline
//! commands (`GET k\r\n`), with Redis 7.0's limits and its exact `Protocol error` texts.
//!
//! The parser reads the bytes received so far: it either finds one whole request at the
//! front, says more bytes are needed (keeping, in a [`Partial`], how far it read a multibulk
//! request, so the next read carries on from there), or names the protocol error after which
//! Redis replies and closes the connection.

use crate::cli::split_line;

/// Longest inline request, or count line, Redis accepts before giving up (64 KiB).
pub const INLINE_MAX: usize = 64 * 1024;

/// Largest bulk argument Redis accepts by default (`proto-max-bulk-len`, 512 MiB).
pub const MAX_BULK_LEN: i64 = 512 * 1024 * 1024;

/// What went wrong in the client's bytes; the connection closes after the error reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProtocolError {
    /// An inline request with no newline within 64 KiB.
    TooBigInline,
    /// A `*N` count line with no CR within 64 KiB.
    TooBigMultibulkCount,
    /// A `$N` length line with no CR within 64 KiB.
    TooBigBulkCount,
    /// `*N` where N is not an integer in Redis's strict form, or is past `i32::MAX`.
    InvalidMultibulkLength,
    /// `$N` where N is not a strict integer, negative, or over 512 MiB.
    InvalidBulkLength,
    /// An element of a multibulk that does not start with `$`; carries the byte found.
    ExpectedDollar(u8),
    /// An inline request with an unclosed quote.
    UnbalancedQuotes,
}

impl ProtocolError {
    /// The error reply's text, as Redis 7.0 sends it (without the leading `-`).
    pub fn message(&self) -> String {
        let what = match self {
            ProtocolError::TooBigInline => "too big inline request".to_string(),
            ProtocolError::TooBigMultibulkCount => "too big mbulk count string".to_string(),
            ProtocolError::TooBigBulkCount => "too big bulk count string".to_string(),
            ProtocolError::InvalidMultibulkLength => "invalid multibulk length".to_string(),
            ProtocolError::InvalidBulkLength => "invalid bulk length".to_string(),
            // Redis turns CR and LF into spaces so the error stays one line.
            ProtocolError::ExpectedDollar(byte) => {
                let shown = match byte {
                    b'\r' | b'\n' => ' ',
                    other => char::from(*other),
                };
                format!("expected '$', got '{shown}'")
            }
            ProtocolError::UnbalancedQuotes => "unbalanced quotes in request".to_string(),
        };
        format!("ERR Protocol error: {what}")
    }
}

/// One request found at the front of the buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The command words; empty for what Redis silently skips (a blank line, `*0`, `*-1`).
    pub args: Vec<Vec<u8>>,
    /// How many bytes of the buffer the request took.
    pub consumed: usize,
}

/// Reads the request at the front of `buf`: `Ok(None)` when it is not complete yet.
pub fn parse_request(buf: &[u8]) -> Result<Option<Request>, ProtocolError> {
    parse_resuming(buf, &mut None)
}

/// What an incomplete multibulk request at the front of the buffer has given so far: its
/// count, its whole arguments, and where the next one starts. Kept between reads so that a
/// request of many arguments arriving over many reads is read once, as Redis reads it
/// (`multibulklen`), not again from its start after every read.
#[derive(Debug, Default)]
pub struct Partial {
    count: usize,
    args: Vec<Vec<u8>>,
    pos: usize,
}

/// [`parse_request`] carrying on from `partial`, which it leaves set when the request is
/// still incomplete; the buffer must start at the same request as when `partial` was set.
pub fn parse_resuming(
    buf: &[u8],
    partial: &mut Option<Partial>,
) -> Result<Option<Request>, ProtocolError> {
    if partial.is_some() {
        return parse_multibulk(buf, partial);
    }
    match buf.first() {
        None => Ok(None),
        Some(b'*') => parse_multibulk(buf, partial),
        Some(_) => parse_inline(buf),
    }
}

/// A line split like redis-cli and Redis's `sdssplitargs` split it.
fn parse_inline(buf: &[u8]) -> Result<Option<Request>, ProtocolError> {
    // Redis finds the line's end with `strchr`, which a zero byte stops: a line with one
    // before its newline waits for more, as one with no newline does.
    let Some(newline) = crate::args::c_string(buf).iter().position(|&b| b == b'\n') else {
        if buf.len() > INLINE_MAX {
            return Err(ProtocolError::TooBigInline);
        }
        return Ok(None);
    };
    let mut line = &buf[..newline];
    if let Some(stripped) = line.strip_suffix(b"\r") {
        line = stripped;
    }
    let args = split_line(line).map_err(|_| ProtocolError::UnbalancedQuotes)?;
    Ok(Some(Request {
        args,
        consumed: newline + 1,
    }))
}

/// `*N\r\n` then N times `$len\r\n<len bytes>\r\n`. Like Redis, the two bytes after each bulk
/// are skipped without being checked.
fn parse_multibulk(
    buf: &[u8],
    partial: &mut Option<Partial>,
) -> Result<Option<Request>, ProtocolError> {
    let Partial {
        count,
        mut args,
        mut pos,
    } = match partial.take() {
        Some(so_far) => so_far,
        None => {
            let Some((count, pos)) = count_line(buf, 0, ProtocolError::TooBigMultibulkCount)?
            else {
                return Ok(None);
            };
            let count = strict_int(count)
                .filter(|&n| n <= i64::from(i32::MAX))
                .ok_or(ProtocolError::InvalidMultibulkLength)?;
            if count <= 0 {
                return Ok(Some(Request {
                    args: Vec::new(),
                    consumed: pos,
                }));
            }
            let count = usize::try_from(count).unwrap_or(0);
            // Never trust the count for an allocation: it may announce two billion elements.
            let args = Vec::with_capacity(count.min(64));
            Partial { count, args, pos }
        }
    };
    while args.len() < count {
        let Some(&first) = buf.get(pos) else {
            *partial = Some(Partial { count, args, pos });
            return Ok(None);
        };
        let Some((len, after)) = count_line(buf, pos, ProtocolError::TooBigBulkCount)? else {
            *partial = Some(Partial { count, args, pos });
            return Ok(None);
        };
        if first != b'$' {
            return Err(ProtocolError::ExpectedDollar(first));
        }
        let len = strict_int(len)
            .filter(|&n| (0..=MAX_BULK_LEN).contains(&n))
            .and_then(|n| usize::try_from(n).ok())
            .ok_or(ProtocolError::InvalidBulkLength)?;
        let end = after + len;
        if buf.len() < end + 2 {
            *partial = Some(Partial { count, args, pos });
            return Ok(None);
        }
        args.push(buf[after..end].to_vec());
        pos = end + 2;
    }
    Ok(Some(Request {
        args,
        consumed: pos,
    }))
}

/// The digits of a `*N` or `$N` line starting at `start` (after its type byte), and where the
/// next line starts; `None` until the CR and the byte after it have arrived.
fn count_line(
    buf: &[u8],
    start: usize,
    too_big: ProtocolError,
) -> Result<Option<(&[u8], usize)>, ProtocolError> {
    let rest = &buf[start..];
    // Redis looks for the CR with `strchr`, which stops at a zero byte: a line with one before
    // its CR is not complete yet.
    let Some(cr) = rest
        .iter()
        .position(|&b| b == b'\r' || b == 0)
        .filter(|&at| rest[at] == b'\r')
    else {
        if rest.len() > INLINE_MAX {
            return Err(too_big);
        }
        return Ok(None);
    };
    if cr + 2 > rest.len() {
        return Ok(None);
    }
    // A CR right at `start` leaves no digits (and the caller reports the missing `$`).
    Ok(Some((rest.get(1..cr).unwrap_or(&[]), start + cr + 2)))
}

/// Redis's `string2ll`: an optional `-`, then digits with no leading zero (or a lone `0`), in
/// the i64 range. No `+`, no spaces.
fn strict_int(digits: &[u8]) -> Option<i64> {
    let (negative, body) = match digits.split_first() {
        Some((b'-', body)) => (true, body),
        _ => (false, digits),
    };
    match body {
        [] => return None,
        [b'0'] => return (!negative).then_some(0),
        [b'1'..=b'9', ..] => {}
        _ => return None,
    }
    let mut value: i64 = 0;
    for &b in body {
        if !b.is_ascii_digit() {
            return None;
        }
        let digit = i64::from(b - b'0');
        value = if negative {
            value.checked_mul(10)?.checked_sub(digit)?
        } else {
            value.checked_mul(10)?.checked_add(digit)?
        };
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(request: &Request) -> Vec<&[u8]> {
        request.args.iter().map(Vec::as_slice).collect()
    }

    #[test]
    fn a_request_read_in_pieces_carries_on_where_it_stopped() {
        let mut full = b"*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nhello\r\n$2\r\nEX".to_vec();
        full.extend_from_slice(b"\r\n*1\r\n$4\r\nPING\r\n");
        let whole = parse_request(&full).unwrap().unwrap();
        for step in 1..8 {
            let mut partial = None;
            let mut got = None;
            for end in (step..=full.len()).step_by(step).chain([full.len()]) {
                if let Some(request) = parse_resuming(&full[..end], &mut partial).unwrap() {
                    got = Some(request);
                    break;
                }
            }
            assert_eq!(got.as_ref(), Some(&whole), "pieces of {step}");
            assert!(partial.is_none());
        }
        assert_eq!(whole.args.len(), 4);
        assert_eq!(&whole.args[3], b"EX");
    }

    #[test]
    fn multibulk_and_inline_requests() {
        let r = parse_request(b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\nrest")
            .unwrap()
            .unwrap();
        assert_eq!(words(&r), [&b"GET"[..], b"k"]);
        assert_eq!(r.consumed, 20);
        let r = parse_request(b"SET \"a b\" c\r\n").unwrap().unwrap();
        assert_eq!(words(&r), [&b"SET"[..], b"a b", b"c"]);
        let r = parse_request(b"PING\n").unwrap().unwrap();
        assert_eq!(words(&r), [&b"PING"[..]]);
    }

    #[test]
    fn half_sent_frames_wait_for_more() {
        let full = b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n";
        for cut in 0..full.len() {
            assert_eq!(parse_request(&full[..cut]), Ok(None), "cut at {cut}");
        }
        assert_eq!(parse_request(b"PIN"), Ok(None));
    }

    #[test]
    fn empty_requests_are_skipped() {
        for raw in [&b"*0\r\n"[..], b"*-5\r\n", b"\r\n", b"   \n"] {
            let r = parse_request(raw).unwrap().unwrap();
            assert!(r.args.is_empty());
            assert_eq!(r.consumed, raw.len());
        }
    }

    // Each expectation below is what redis-server 7.0.15 replied before closing.
    #[test]
    fn protocol_errors_use_redis_words() {
        let cases: &[(&[u8], &str)] = &[
            (b"*abc\r\n", "invalid multibulk length"),
            (b"*+1\r\n", "invalid multibulk length"),
            (b"*01\r\n", "invalid multibulk length"),
            (b"*3000000000\r\n", "invalid multibulk length"),
            (b"*2\r\nfoo\r\n", "expected '$', got 'f'"),
            (b"*1\r\n\r\n", "expected '$', got ' '"),
            (b"*1\r\n$-1\r\n", "invalid bulk length"),
            (b"*1\r\n$04\r\n", "invalid bulk length"),
            (b"*1\r\n$600000000\r\n", "invalid bulk length"),
            (b"*1\r\n$999999999999999999999\r\n", "invalid bulk length"),
            (b"SET \"a b\r\n", "unbalanced quotes in request"),
        ];
        for (raw, want) in cases {
            let err = parse_request(raw).unwrap_err();
            assert_eq!(err.message(), format!("ERR Protocol error: {want}"));
        }
        let long = vec![b'x'; INLINE_MAX + 1];
        assert_eq!(parse_request(&long), Err(ProtocolError::TooBigInline));
        let mut count = b"*".to_vec();
        count.extend(vec![b'1'; INLINE_MAX + 1]);
        assert_eq!(
            parse_request(&count),
            Err(ProtocolError::TooBigMultibulkCount)
        );
        let mut bulk = b"*1\r\n$".to_vec();
        bulk.extend(vec![b'1'; INLINE_MAX + 1]);
        assert_eq!(parse_request(&bulk), Err(ProtocolError::TooBigBulkCount));
    }

    #[test]
    fn bytes_after_a_bulk_are_skipped_unchecked() {
        let r = parse_request(b"*1\r\n$4\r\nPINGxxPING\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(words(&r), [&b"PING"[..]]);
        assert_eq!(r.consumed, 14);
    }
}
