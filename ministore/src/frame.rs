//! The wire form of a reply: [`Frame`] has every RESP3 type Redis 7.0 sends, and
//! [`Frame::encode`] writes it for a RESP2 client (maps flattened, doubles as bulk strings,
//! push messages as arrays) or a RESP3 one.

use crate::reply::{double_text, Reply};

/// A reply as it goes on the wire, in RESP3's vocabulary.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// `+text`
    Simple(String),
    /// `-text` (the text starts with its class, `ERR`, `WRONGTYPE`…).
    Error(String),
    /// `:n`
    Integer(i64),
    /// `$len` and the bytes.
    Bulk(Vec<u8>),
    /// The nil bulk: `$-1` in RESP2, `_` in RESP3.
    NullBulk,
    /// The nil array (BLPOP's timeout, an aborted EXEC): `*-1` in RESP2, `_` in RESP3.
    NullArray,
    /// `*n` elements.
    Array(Vec<Frame>),
    /// `%n` key/value pairs (HGETALL, CONFIG GET, HELLO); a flat array in RESP2.
    Map(Vec<(Frame, Frame)>),
    /// Pairs (ZRANGE … WITHSCORES): an array of two-element arrays in RESP3, one flat array of
    /// both halves in RESP2.
    Pairs(Vec<(Frame, Frame)>),
    /// `~n` members (SMEMBERS); an array in RESP2.
    Set(Vec<Frame>),
    /// `,text` with the text Redis 7.0 prints (`%.17g`, `inf`); a bulk string in RESP2.
    Double(Vec<u8>),
    /// `#t` / `#f`; the integers 1 and 0 in RESP2.
    Boolean(bool),
    /// `=len` with a three-letter format (`txt`, `mkd`); a bulk string of the text in RESP2.
    Verbatim { format: [u8; 3], text: Vec<u8> },
    /// `(digits`, a big number; a bulk string of the digits in RESP2.
    BigNumber(Vec<u8>),
    /// `>n`, an out-of-band message (pub/sub); an array in RESP2.
    Push(Vec<Frame>),
}

impl Frame {
    /// The structural translation of a reply, with no RESP3 shaping by command: RESP3 types
    /// appear only where the reply already has them (a script's).
    pub fn from_reply(reply: Reply) -> Frame {
        match reply {
            Reply::Status(text) => Frame::Simple(text),
            Reply::Error(text) => Frame::Error(text),
            Reply::Integer(n) => Frame::Integer(n),
            Reply::Bulk(bytes) => Frame::Bulk(bytes),
            Reply::Nil => Frame::NullBulk,
            Reply::Array(items) => Frame::Array(items.into_iter().map(Frame::from_reply).collect()),
            Reply::Map(pairs) => Frame::Map(
                pairs
                    .into_iter()
                    .map(|(k, v)| (Frame::from_reply(k), Frame::from_reply(v)))
                    .collect(),
            ),
            Reply::Set(items) => Frame::Set(items.into_iter().map(Frame::from_reply).collect()),
            Reply::Double(d) => Frame::Double(double_text(d)),
            Reply::Bool(b) => Frame::Boolean(b),
            Reply::BigNumber(digits) => Frame::BigNumber(digits),
            Reply::Verbatim { format, text } => Frame::Verbatim { format, text },
        }
    }

    /// A verbatim string of plain text (`txt`), as INFO and CLIENT INFO send.
    pub fn verbatim_text(text: Vec<u8>) -> Frame {
        Frame::Verbatim {
            format: *b"txt",
            text,
        }
    }

    /// Appends the frame to `out` in RESP2 (`resp3 == false`) or RESP3.
    pub fn encode(&self, resp3: bool, out: &mut Vec<u8>) {
        match self {
            Frame::Simple(text) => line(out, b'+', text.as_bytes()),
            Frame::Error(text) => line(out, b'-', text.as_bytes()),
            Frame::Integer(n) => line(out, b':', n.to_string().as_bytes()),
            Frame::Bulk(bytes) => bulk(out, bytes),
            Frame::NullBulk if resp3 => out.extend_from_slice(b"_\r\n"),
            Frame::NullBulk => out.extend_from_slice(b"$-1\r\n"),
            Frame::NullArray if resp3 => out.extend_from_slice(b"_\r\n"),
            Frame::NullArray => out.extend_from_slice(b"*-1\r\n"),
            Frame::Array(items) => sequence(out, b'*', items, resp3),
            Frame::Set(items) => sequence(out, if resp3 { b'~' } else { b'*' }, items, resp3),
            Frame::Push(items) => sequence(out, if resp3 { b'>' } else { b'*' }, items, resp3),
            Frame::Map(pairs) => {
                if resp3 {
                    line(out, b'%', pairs.len().to_string().as_bytes());
                } else {
                    line(out, b'*', (pairs.len() * 2).to_string().as_bytes());
                }
                for (key, value) in pairs {
                    key.encode(resp3, out);
                    value.encode(resp3, out);
                }
            }
            Frame::Pairs(pairs) if resp3 => {
                line(out, b'*', pairs.len().to_string().as_bytes());
                for (first, second) in pairs {
                    out.extend_from_slice(b"*2\r\n");
                    first.encode(resp3, out);
                    second.encode(resp3, out);
                }
            }
            Frame::Pairs(pairs) => {
                line(out, b'*', (pairs.len() * 2).to_string().as_bytes());
                for (first, second) in pairs {
                    first.encode(resp3, out);
                    second.encode(resp3, out);
                }
            }
            Frame::Double(text) if resp3 => line(out, b',', text),
            Frame::Double(text) => bulk(out, text),
            Frame::Boolean(b) if resp3 => {
                out.extend_from_slice(if *b { b"#t\r\n" } else { b"#f\r\n" })
            }
            Frame::Boolean(b) => line(out, b':', if *b { b"1" } else { b"0" }),
            Frame::Verbatim { format, text } if resp3 => {
                line(out, b'=', (text.len() + 4).to_string().as_bytes());
                out.extend_from_slice(format);
                out.push(b':');
                out.extend_from_slice(text);
                out.extend_from_slice(b"\r\n");
            }
            Frame::Verbatim { text, .. } => bulk(out, text),
            Frame::BigNumber(digits) if resp3 => line(out, b'(', digits),
            Frame::BigNumber(digits) => bulk(out, digits),
        }
    }
}

fn line(out: &mut Vec<u8>, kind: u8, body: &[u8]) {
    out.push(kind);
    out.extend_from_slice(body);
    out.extend_from_slice(b"\r\n");
}

fn bulk(out: &mut Vec<u8>, bytes: &[u8]) {
    line(out, b'$', bytes.len().to_string().as_bytes());
    out.extend_from_slice(bytes);
    out.extend_from_slice(b"\r\n");
}

fn sequence(out: &mut Vec<u8>, kind: u8, items: &[Frame], resp3: bool) {
    line(out, kind, items.len().to_string().as_bytes());
    for item in items {
        item.encode(resp3, out);
    }
}

#[cfg(test)]
mod tests {
    use super::Frame;

    fn both(frame: Frame) -> (String, String) {
        let (mut two, mut three) = (Vec::new(), Vec::new());
        frame.encode(false, &mut two);
        frame.encode(true, &mut three);
        (
            String::from_utf8(two).unwrap(),
            String::from_utf8(three).unwrap(),
        )
    }

    #[test]
    fn resp2_flattens_what_resp3_types() {
        let map = Frame::Map(vec![(
            Frame::Bulk(b"a".to_vec()),
            Frame::Bulk(b"1".to_vec()),
        )]);
        assert_eq!(
            both(map),
            (
                "*2\r\n$1\r\na\r\n$1\r\n1\r\n".into(),
                "%1\r\n$1\r\na\r\n$1\r\n1\r\n".into()
            )
        );
        assert_eq!(
            both(Frame::Double(b"0.10000000000000001".to_vec())),
            (
                "$19\r\n0.10000000000000001\r\n".into(),
                ",0.10000000000000001\r\n".into()
            )
        );
        assert_eq!(both(Frame::NullArray), ("*-1\r\n".into(), "_\r\n".into()));
        assert_eq!(both(Frame::NullBulk), ("$-1\r\n".into(), "_\r\n".into()));
        assert_eq!(
            both(Frame::Verbatim {
                format: *b"txt",
                text: b"id=1\n".to_vec()
            }),
            ("$5\r\nid=1\n\r\n".into(), "=9\r\ntxt:id=1\n\r\n".into())
        );
        assert_eq!(
            both(Frame::BigNumber(b"12345678901234567890".to_vec())),
            (
                "$20\r\n12345678901234567890\r\n".into(),
                "(12345678901234567890\r\n".into()
            )
        );
        assert_eq!(
            both(Frame::Boolean(true)),
            (":1\r\n".into(), "#t\r\n".into())
        );
        assert_eq!(
            both(Frame::Set(vec![Frame::Integer(1)])),
            ("*1\r\n:1\r\n".into(), "~1\r\n:1\r\n".into())
        );
        assert_eq!(
            both(Frame::Push(vec![Frame::Integer(1)])),
            ("*1\r\n:1\r\n".into(), ">1\r\n:1\r\n".into())
        );
    }
}
