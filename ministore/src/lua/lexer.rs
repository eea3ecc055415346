//! The lexer: turns script bytes into tokens with line numbers, and reports malformed input with
//! Lua 5.1's own messages (`unfinished string near '"abc'`, `malformed number near '3x'`, …).

use std::sync::Arc;

mod token;

use token::keyword;
pub use token::{tok_name, LexError, LexErrorKind, Tok, Token};

/// Lexes the whole source into tokens ending with [`Tok::Eof`], or fails with the first error.
#[cfg(test)]
pub fn tokenize(src: &[u8]) -> Result<Vec<Token>, LexError> {
    match tokens_until_error(src) {
        (tokens, None) => Ok(tokens),
        (_, Some(error)) => Err(error),
    }
}

/// Lexes `src` as far as it lexes: the tokens, ending in `Eof`, or ending in `Unlexable` with
/// the error that stopped the lexer there, for the parser to report if it gets that far.
pub fn tokens_until_error(src: &[u8]) -> (Vec<Token>, Option<LexError>) {
    let mut lx = Lexer {
        src,
        pos: 0,
        line: 1,
    };
    let mut out = Vec::new();
    loop {
        match lx.next_token() {
            Ok(t) => {
                let eof = t.tok == Tok::Eof;
                out.push(t);
                if eof {
                    return (out, None);
                }
            }
            Err(error) => {
                out.push(Token {
                    tok: Tok::Unlexable,
                    line: error.line,
                    text: String::new(),
                });
                return (out, Some(error));
            }
        }
    }
}

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> u8 {
        self.src.get(self.pos).copied().unwrap_or(0)
    }

    fn peek_at(&self, off: usize) -> u8 {
        self.src.get(self.pos + off).copied().unwrap_or(0)
    }

    /// Lua's `check_next` test: the next byte is one of `set`, or a zero byte (`strchr` finds
    /// the set's terminator); never true at the end of the source.
    fn next_is(&self, set: &[u8]) -> bool {
        self.src
            .get(self.pos)
            .is_some_and(|b| *b == 0 || set.contains(b))
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    fn err(&self, kind: LexErrorKind, near: &str) -> LexError {
        LexError {
            kind,
            line: self.line,
            near: near.to_string(),
        }
    }

    /// Consumes a newline sequence (\n, \r, \r\n, \n\r) and counts it as one line.
    fn newline(&mut self) {
        let c = self.peek();
        self.pos += 1;
        let d = self.peek();
        if (d == b'\n' || d == b'\r') && d != c {
            self.pos += 1;
        }
        self.line += 1;
    }

    fn skip_space_and_comments(&mut self) -> Result<(), LexError> {
        loop {
            if self.at_end() {
                return Ok(());
            }
            match self.peek() {
                b'\n' | b'\r' => self.newline(),
                b' ' | b'\t' | 0x0b | 0x0c => self.pos += 1,
                b'-' if self.peek_at(1) == b'-' => {
                    self.pos += 2;
                    if self.peek() == b'[' {
                        if let Some(level) = self.long_bracket_level() {
                            self.long_string(level, true)?;
                            continue;
                        }
                    }
                    while !self.at_end() && !matches!(self.peek(), b'\n' | b'\r') {
                        self.pos += 1;
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// At a `[`, returns the level of a long bracket `[==[` opening here, without consuming it.
    fn long_bracket_level(&self) -> Option<usize> {
        let mut i = 1;
        while self.peek_at(i) == b'=' {
            i += 1;
        }
        if self.peek_at(i) == b'[' {
            Some(i - 1)
        } else {
            None
        }
    }

    /// Reads a long string or comment body whose opening bracket of `level` starts here.
    fn long_string(&mut self, level: usize, comment: bool) -> Result<Vec<u8>, LexError> {
        self.pos += level + 2;
        if matches!(self.peek(), b'\n' | b'\r') {
            self.newline();
        }
        let mut out = Vec::new();
        loop {
            if self.at_end() {
                let what = if comment {
                    LexErrorKind::UnfinishedLongComment
                } else {
                    LexErrorKind::UnfinishedLongString
                };
                return Err(self.err(what, "<eof>"));
            }
            let c = self.peek();
            if c == b']' {
                let mut i = 1;
                while self.peek_at(i) == b'=' {
                    i += 1;
                }
                if i - 1 == level && self.peek_at(i) == b']' {
                    self.pos += i + 1;
                    return Ok(out);
                }
                out.push(c);
                self.pos += 1;
            } else if c == b'\n' || c == b'\r' {
                self.newline();
                out.push(b'\n');
            } else {
                out.push(c);
                self.pos += 1;
            }
        }
    }

    fn quoted_string(&mut self, quote: u8) -> Result<Token, LexError> {
        let start = self.pos;
        let line = self.line;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            if self.at_end() {
                return Err(self.err(LexErrorKind::UnfinishedString, "<eof>"));
            }
            let c = self.peek();
            if c == quote {
                self.pos += 1;
                break;
            }
            match c {
                b'\n' | b'\r' => {
                    let near = string_so_far(quote, &out);
                    return Err(self.err(LexErrorKind::UnfinishedString, &near));
                }
                b'\\' => {
                    self.pos += 1;
                    if self.at_end() {
                        return Err(self.err(LexErrorKind::UnfinishedString, "<eof>"));
                    }
                    let e = self.peek();
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'a' => out.push(0x07),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'v' => out.push(0x0b),
                        b'\n' | b'\r' => {
                            self.newline();
                            out.push(b'\n');
                            continue;
                        }
                        b'0'..=b'9' => {
                            let mut v: u32 = 0;
                            let mut n = 0;
                            while n < 3 && self.peek().is_ascii_digit() {
                                v = v * 10 + (self.peek() - b'0') as u32;
                                self.pos += 1;
                                n += 1;
                            }
                            if v > 255 {
                                let near = string_so_far(quote, &out);
                                return Err(self.err(LexErrorKind::EscapeTooLarge, &near));
                            }
                            out.push(v as u8);
                            continue;
                        }
                        other => out.push(other),
                    }
                    self.pos += 1;
                }
                _ => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
        Ok(Token {
            tok: Tok::Str(Arc::from(out)),
            line,
            text: String::from_utf8_lossy(&self.src[start..self.pos]).into_owned(),
        })
    }

    fn number(&mut self) -> Result<Token, LexError> {
        let start = self.pos;
        // Lua 5.1's `read_numeral`: digits and dots, then one exponent mark with its sign, then
        // letters, digits and underscores; the run converts whole or is a malformed number. So
        // `0xA.8` is the numeral `0xA` and then `.8`, and in `1e+5e+3` the numeral is `1e+5e`.
        while self.peek().is_ascii_digit() || self.peek() == b'.' {
            self.pos += 1;
        }
        // Lua's `check_next` looks the byte up with `strchr`, which also finds a zero byte: a NUL
        // passes for the exponent mark and for its sign, and the numeral reads as a C string.
        if self.next_is(b"eE") {
            self.pos += 1;
            if self.next_is(b"+-") {
                self.pos += 1;
            }
        }
        while self.peek().is_ascii_alphanumeric() || self.peek() == b'_' {
            self.pos += 1;
        }
        let numeral = crate::args::c_string(&self.src[start..self.pos]);
        let text = String::from_utf8_lossy(numeral).into_owned();
        match super::number::parse_number(text.as_bytes()) {
            Some(v) => Ok(Token {
                tok: Tok::Number(v),
                line: self.line,
                text,
            }),
            None => Err(self.err(LexErrorKind::MalformedNumber, &text)),
        }
    }

    fn next_token(&mut self) -> Result<Token, LexError> {
        self.skip_space_and_comments()?;
        let line = self.line;
        if self.at_end() {
            return Ok(Token {
                tok: Tok::Eof,
                line,
                text: "<eof>".into(),
            });
        }
        let c = self.peek();
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = self.pos;
            while self.peek().is_ascii_alphanumeric() || self.peek() == b'_' {
                self.pos += 1;
            }
            let word = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
            let tok = keyword(&word).unwrap_or_else(|| Tok::Name(Arc::from(word.as_str())));
            return Ok(Token {
                tok,
                line,
                text: word,
            });
        }
        if c.is_ascii_digit() || (c == b'.' && self.peek_at(1).is_ascii_digit()) {
            return self.number();
        }
        if c == b'"' || c == b'\'' {
            return self.quoted_string(c);
        }
        if c == b'[' {
            if let Some(level) = self.long_bracket_level() {
                let start = self.pos;
                let s = self.long_string(level, false)?;
                let text = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
                return Ok(Token {
                    tok: Tok::Str(Arc::from(s)),
                    line,
                    text,
                });
            }
            if self.peek_at(1) == b'=' {
                // `[=` without a second bracket: Lua reports an invalid long string delimiter,
                // near the bracket and every `=` it read.
                let mut near = String::from("[");
                while self.peek_at(near.len()) == b'=' {
                    near.push('=');
                }
                return Err(self.err(LexErrorKind::InvalidLongDelimiter, &near));
            }
        }
        if c == b'.'
            && self
                .src
                .get(self.pos + 1)
                .is_some_and(|b| matches!(b, b'.' | 0))
        {
            // `check_next(ls, ".")`, twice: a zero byte passes for a dot.
            self.pos += 2;
            let (tok, text) = if self.next_is(b".") {
                self.pos += 1;
                (Tok::Ellipsis, "...")
            } else {
                (Tok::DotDot, "..")
            };
            return Ok(Token {
                tok,
                line,
                text: text.into(),
            });
        }
        let two = [c, self.peek_at(1)];
        let (tok, len) = match &two {
            b"==" => (Tok::EqEq, 2),
            b"~=" => (Tok::NotEq, 2),
            b"<=" => (Tok::LtEq, 2),
            b">=" => (Tok::GtEq, 2),
            _ => {
                let t = match c {
                    b'+' => Tok::Plus,
                    b'-' => Tok::Minus,
                    b'*' => Tok::Star,
                    b'/' => Tok::Slash,
                    b'%' => Tok::Percent,
                    b'^' => Tok::Caret,
                    b'#' => Tok::Hash,
                    b'<' => Tok::Lt,
                    b'>' => Tok::Gt,
                    b'=' => Tok::Assign,
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b'{' => Tok::LBrace,
                    b'}' => Tok::RBrace,
                    b'[' => Tok::LBracket,
                    b']' => Tok::RBracket,
                    b';' => Tok::Semi,
                    b':' => Tok::Colon,
                    b',' => Tok::Comma,
                    b'.' => Tok::Dot,
                    _ => {
                        // Lua 5.1 turns any other byte into a one-char token that the parser
                        // rejects, named as `luaX_token2str` names an ASCII byte. Lua prints a
                        // byte above 0x7F raw; an error text here is UTF-8, so it is `char(N)`.
                        let text = if c.is_ascii_graphic() {
                            (c as char).to_string()
                        } else {
                            format!("char({})", c)
                        };
                        self.pos += 1;
                        return Ok(Token {
                            tok: Tok::Char(c),
                            line,
                            text,
                        });
                    }
                };
                (t, 1)
            }
        };
        let text = String::from_utf8_lossy(&self.src[self.pos..self.pos + len]).into_owned();
        self.pos += len;
        Ok(Token { tok, line, text })
    }
}

/// A string's text as Lua's lexer holds it when it fails inside the string: the opening quote
/// and the bytes read so far, escapes already turned into what they stand for, up to a NUL (the
/// message is a C string).
fn string_so_far(quote: u8, read: &[u8]) -> String {
    let read = read.split(|&b| b == 0).next().unwrap_or_default();
    format!("{}{}", quote as char, String::from_utf8_lossy(read))
}

#[cfg(test)]
mod tests;
