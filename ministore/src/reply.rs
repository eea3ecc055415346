//! The RESP-style reply every command and script returns, and its rendering exactly as
//! `redis-cli --no-raw` prints it (the only place protocol formatting lives).

/// A reply as Redis would put it on the wire.
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
}

impl Reply {
    /// `OK`, the commonest status.
    pub fn ok() -> Reply {
        Reply::Status("OK".to_string())
    }

    /// A bulk reply from anything byte-like.
    pub fn bulk(bytes: impl Into<Vec<u8>>) -> Reply {
        Reply::Bulk(bytes.into())
    }

    /// True for [`Reply::Error`].
    pub fn is_error(&self) -> bool {
        matches!(self, Reply::Error(_))
    }
}
