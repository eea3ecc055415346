//! The RESP-style reply every command and script returns, and its rendering exactly as
//! `redis-cli --no-raw` prints it (the wire format, RESP2 and RESP3, is `frame.rs`'s).

/// A reply as Redis would put it on the wire.
///
/// Commands reply in RESP2's six types; which of their replies a RESP3 client gets as a map, a
/// set or a double is decided by command (the crate's `shape`). Only a script's reply carries
/// RESP3's types itself ([`Reply::Map`] to [`Reply::Verbatim`]), from the Lua values it
/// returns; a RESP2 client gets them as [`Reply::to_resp2`] downgrades them.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A simple string such as `OK` or `PONG`.
    Status(String),
    /// An error reply; the text starts with its class (`ERR`, `WRONGTYPE`, `NOSCRIPT`, …).
    Error(String),
    /// A signed 64-bit integer.
    Integer(i64),
    /// A binary-safe bulk string.
    Bulk(Vec<u8>),
    /// The nil bulk (or nil array) reply.
    Nil,
    /// A multi-bulk reply, possibly nested.
    Array(Vec<Reply>),
    /// RESP3's map (a script's `{map=…}`), in the order given.
    Map(Vec<(Reply, Reply)>),
    /// RESP3's set (a script's `{set=…}`).
    Set(Vec<Reply>),
    /// RESP3's double (a script's `{double=…}`).
    Double(f64),
    /// RESP3's boolean (a Lua boolean a script returns after `redis.setresp(3)`).
    Bool(bool),
    /// RESP3's big number (a script's `{big_number=…}`): its text, CR and LF made spaces.
    BigNumber(Vec<u8>),
    /// RESP3's verbatim string (a script's `{verbatim_string={format=…, string=…}}`), with
    /// its format cut or padded with spaces to three bytes.
    Verbatim { format: [u8; 3], text: Vec<u8> },
}

/// A double as Redis 7.0 writes it in a reply: `%.17g`, and `inf`/`-inf`.
pub(crate) fn double_text(d: f64) -> Vec<u8> {
    crate::numtext::format_number_g(d, 17).into_bytes()
}

impl Reply {
    /// `OK`, the commonest status.
    pub fn ok() -> Reply {
        Reply::Status("OK".to_string())
    }

    /// Whether this is Redis's error for a command it does not know (`ERR unknown command …`).
    pub fn is_unknown_command(&self) -> bool {
        matches!(self, Reply::Error(text) if text.starts_with(crate::error::UNKNOWN_COMMAND))
    }

    /// Whether this is ministore's own error for a script it stopped at its step budget, which
    /// real Redis never replies.
    pub fn is_step_budget_stop(&self) -> bool {
        matches!(self, Reply::Error(text) if text.starts_with(crate::lua::STEP_BUDGET_STOP))
    }

    /// A bulk reply from anything byte-like.
    pub fn bulk(bytes: impl Into<Vec<u8>>) -> Reply {
        Reply::Bulk(bytes.into())
    }

    /// True for [`Reply::Error`].
    pub fn is_error(&self) -> bool {
        matches!(self, Reply::Error(_))
    }

    /// The reply a RESP2 client gets, as Redis 7.0 downgrades RESP3's types: a map becomes a
    /// flat array of its keys and values, a set an array, a double its text as a bulk string,
    /// a boolean the integer 1 or 0, a big number or verbatim string its text as a bulk string.
    pub fn to_resp2(self) -> Reply {
        match self {
            Reply::Array(items) => Reply::Array(items.into_iter().map(Reply::to_resp2).collect()),
            Reply::Map(pairs) => Reply::Array(
                pairs
                    .into_iter()
                    .flat_map(|(k, v)| [k.to_resp2(), v.to_resp2()])
                    .collect(),
            ),
            Reply::Set(items) => Reply::Array(items.into_iter().map(Reply::to_resp2).collect()),
            Reply::Double(d) => Reply::Bulk(double_text(d)),
            Reply::Bool(b) => Reply::Integer(i64::from(b)),
            Reply::BigNumber(text) | Reply::Verbatim { text, .. } => Reply::Bulk(text),
            other => other,
        }
    }
}

impl Reply {
    /// The reply exactly as `redis-cli --no-raw` 7.0 prints it, one line per scalar and a
    /// trailing newline: `OK`, `(integer) 1`, `"abc"`, `(nil)`, `(error) ERR …`,
    /// `(empty array)`, and nested arrays numbered and indented the way redis-cli does.
    ///
    /// Bulk strings are quoted and escaped like redis-cli's `sdscatrepr`, so arbitrary bytes
    /// come out as `\xHH`; status and error texts are printed as they are.
    pub fn to_cli_text(&self) -> String {
        let mut out = String::new();
        render_tty(self, "", &mut out);
        out
    }
}

impl Reply {
    /// The reply as redis-cli 7.0 prints it raw (`cliFormatReplyRaw`), which it does whatever
    /// `--no-raw` says for a few commands ([`crate::cli::prints_raw`]): a status, bulk string
    /// or integer as its bytes with no newline, an error's text and a newline, nil as nothing,
    /// an array's elements one per line with no newline after the last.
    pub fn to_cli_raw_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        render_raw(&self.clone().to_resp2(), &mut out);
        out
    }
}

fn render_raw(reply: &Reply, out: &mut Vec<u8>) {
    match reply {
        Reply::Nil => {}
        Reply::Error(text) => {
            out.extend_from_slice(text.as_bytes());
            out.push(b'\n');
        }
        Reply::Status(text) => out.extend_from_slice(text.as_bytes()),
        Reply::Bulk(bytes) => out.extend_from_slice(bytes),
        Reply::Integer(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Reply::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b'\n');
                }
                render_raw(item, out);
            }
        }
        // `to_resp2` leaves none of RESP3's types.
        other => render_raw(&other.clone().to_resp2(), out),
    }
}

/// A status or an error as redis-cli prints it in a terminal, as a C string (`sdscat`, `%s`):
/// up to a zero byte.
fn up_to_nul(text: &str) -> &str {
    text.split('\0').next().unwrap_or_default()
}

/// redis-cli's `cliFormatReplyTTY`: `prefix` is the indentation of the enclosing arrays,
/// which every element after the first repeats (the first sits right after its parent's
/// `N) ` label).
fn render_tty(reply: &Reply, prefix: &str, out: &mut String) {
    match reply {
        Reply::Status(text) => {
            out.push_str(up_to_nul(text));
            out.push('\n');
        }
        Reply::Error(text) => {
            out.push_str("(error) ");
            out.push_str(up_to_nul(text));
            out.push('\n');
        }
        Reply::Integer(n) => {
            out.push_str("(integer) ");
            out.push_str(&n.to_string());
            out.push('\n');
        }
        Reply::Bulk(bytes) => {
            push_repr(bytes, out);
            out.push('\n');
        }
        Reply::Nil => out.push_str("(nil)\n"),
        Reply::Array(items) if items.is_empty() => out.push_str("(empty array)\n"),
        Reply::Map(_)
        | Reply::Set(_)
        | Reply::Double(_)
        | Reply::Bool(_)
        | Reply::BigNumber(_)
        | Reply::Verbatim { .. } => {
            // redis-cli speaks RESP2 here, so it is sent these as RESP2 has them.
            render_tty(&reply.clone().to_resp2(), prefix, out)
        }
        Reply::Array(items) => {
            // Labels are right-aligned to the width of the largest index, and nested
            // elements are indented by that width plus the two characters of ") ".
            let width = items.len().to_string().len();
            let child_prefix = format!("{prefix}{}", " ".repeat(width + 2));
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(prefix);
                }
                out.push_str(&format!("{:>width$}) ", i + 1));
                render_tty(item, &child_prefix, out);
            }
        }
    }
}

/// redis-cli's `sdscatrepr` in the C locale: a double-quoted string where `\` and `"` are
/// backslash-escaped, `\n \r \t \a \b` use their short escapes, printable ASCII stays as
/// it is and every other byte becomes `\xHH` (lower-case hex).
fn push_repr(bytes: &[u8], out: &mut String) {
    out.push('"');
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::Reply;

    // Every expectation below was printed by redis-cli 7.0.15 `--no-raw` against redis-server 7.0.15.

    #[test]
    fn scalars_render_like_redis_cli() {
        assert_eq!(Reply::ok().to_cli_text(), "OK\n");
        assert_eq!(Reply::Integer(-3).to_cli_text(), "(integer) -3\n");
        assert_eq!(Reply::Nil.to_cli_text(), "(nil)\n");
        assert_eq!(
            Reply::Error("ERR boom".into()).to_cli_text(),
            "(error) ERR boom\n"
        );
        assert_eq!(Reply::Array(vec![]).to_cli_text(), "(empty array)\n");
    }

    #[test]
    fn raw_printing_adds_a_newline_to_errors_alone() {
        assert_eq!(Reply::Error("ERR x".into()).to_cli_raw_bytes(), b"ERR x\n");
        assert_eq!(Reply::Status("QUEUED".into()).to_cli_raw_bytes(), b"QUEUED");
        assert_eq!(Reply::Nil.to_cli_raw_bytes(), b"");
        assert_eq!(
            Reply::Array(vec![
                Reply::Integer(1),
                Reply::Array(vec![Reply::bulk(&b"a\xff"[..]), Reply::Nil]),
                Reply::Error("E".into()),
            ])
            .to_cli_raw_bytes(),
            b"1\na\xff\n\nE\n"
        );
    }

    #[test]
    fn bulk_strings_are_escaped_like_sdscatrepr() {
        let raw = b"x\"y\\z\n\r\t\x08\x07\x01\xff\x7f \xc3\xa9".to_vec();
        assert_eq!(
            Reply::Bulk(raw).to_cli_text(),
            "\"x\\\"y\\\\z\\n\\r\\t\\b\\a\\x01\\xff\\x7f \\xc3\\xa9\"\n"
        );
        assert_eq!(Reply::bulk("").to_cli_text(), "\"\"\n");
        assert_eq!(Reply::bulk("\x0b").to_cli_text(), "\"\\x0b\"\n");
    }

    #[test]
    fn nested_arrays_are_numbered_and_indented() {
        // EVAL "return {1,{2,3},{},{\"a\",{4,{5}}}}" 0
        let reply = Reply::Array(vec![
            Reply::Integer(1),
            Reply::Array(vec![Reply::Integer(2), Reply::Integer(3)]),
            Reply::Array(vec![]),
            Reply::Array(vec![
                Reply::bulk("a"),
                Reply::Array(vec![
                    Reply::Integer(4),
                    Reply::Array(vec![Reply::Integer(5)]),
                ]),
            ]),
        ]);
        let expected = "1) (integer) 1\n\
                        2) 1) (integer) 2\n   2) (integer) 3\n\
                        3) (empty array)\n\
                        4) 1) \"a\"\n   2) 1) (integer) 4\n      2) 1) (integer) 5\n";
        assert_eq!(reply.to_cli_text(), expected);
    }

    #[test]
    fn resp3_types_print_as_their_resp2_downgrades() {
        // EVAL "redis.setresp(3) return {{map={a={double=0.1}}}, false, {set={}},
        //   {big_number='12'}, {verbatim_string={format='txt', string='t'}}}" 0
        let reply = Reply::Array(vec![
            Reply::Map(vec![(Reply::bulk("a"), Reply::Double(0.1))]),
            Reply::Bool(false),
            Reply::Set(vec![]),
            Reply::BigNumber(b"12".to_vec()),
            Reply::Verbatim {
                format: *b"txt",
                text: b"t".to_vec(),
            },
        ]);
        let expected = "1) 1) \"a\"\n   2) \"0.10000000000000001\"\n\
                        2) (integer) 0\n\
                        3) (empty array)\n\
                        4) \"12\"\n\
                        5) \"t\"\n";
        assert_eq!(reply.to_cli_text(), expected);
    }

    #[test]
    fn wide_arrays_right_align_their_labels() {
        // EVAL "local t={} for i=1,12 do t[i]=i end return {t, t}" 0 (first element shown)
        let twelve = Reply::Array((1..=12).map(Reply::Integer).collect());
        let text = Reply::Array(vec![twelve]).to_cli_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "1)  1) (integer) 1");
        assert_eq!(lines[1], "    2) (integer) 2");
        assert_eq!(lines[9], "   10) (integer) 10");
        assert_eq!(lines[11], "   12) (integer) 12");
    }
}
