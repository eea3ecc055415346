//! The lexer: turns script bytes into tokens with line numbers, and reports malformed input with
//! Lua 5.1's own messages (`unfinished string near '"abc'`, `malformed number near '3x'`, …).

use std::sync::Arc;

/// A token.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Name(Arc<str>),
    Number(f64),
    Str(Arc<[u8]>),
    // keywords
    And,
    Break,
    Do,
    Else,
    Elseif,
    End,
    False,
    For,
    Function,
    If,
    In,
    Local,
    Nil,
    Not,
    Or,
    Repeat,
    Return,
    Then,
    True,
    Until,
    While,
    // symbols
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    Hash,
    EqEq,
    NotEq,
    LtEq,
    GtEq,
    Lt,
    Gt,
    Assign,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Semi,
    Colon,
    Comma,
    Dot,
    DotDot,
    Ellipsis,
    Eof,
}

/// A token, the line it is on, and its source text (for `near '…'` in error messages).
#[derive(Debug, Clone)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub text: String,
}

/// What went wrong while lexing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LexErrorKind {
    UnfinishedString,
    UnfinishedLongString,
    UnfinishedLongComment,
    EscapeTooLarge,
    MalformedNumber,
    InvalidLongDelimiter,
    /// A byte that starts no token.
    UnexpectedSymbol,
}

impl LexErrorKind {
    /// Lua 5.1's wording of this error.
    pub fn text(self) -> &'static str {
        match self {
            LexErrorKind::UnfinishedString => "unfinished string",
            LexErrorKind::UnfinishedLongString => "unfinished long string",
            LexErrorKind::UnfinishedLongComment => "unfinished long comment",
            LexErrorKind::EscapeTooLarge => "escape sequence too large",
            LexErrorKind::MalformedNumber => "malformed number",
            LexErrorKind::InvalidLongDelimiter => "invalid long string delimiter",
            LexErrorKind::UnexpectedSymbol => "unexpected symbol",
        }
    }
}

/// A lexing error: its kind, its line and the text it is near. It displays as Lua 5.1 words it,
/// without the chunk prefix (`unfinished string near '"abc'`).
#[derive(Debug, Clone, PartialEq)]
pub struct LexError {
    pub kind: LexErrorKind,
    pub line: u32,
    pub near: String,
}

impl std::fmt::Display for LexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} near '{}'", self.kind.text(), self.near)
    }
}

/// The text Lua shows for a token kind in "expected" messages.
pub fn tok_name(t: &Tok) -> &'static str {
    match t {
        Tok::Name(_) => "<name>",
        Tok::Number(_) => "<number>",
        Tok::Str(_) => "<string>",
        Tok::And => "and",
        Tok::Break => "break",
        Tok::Do => "do",
        Tok::Else => "else",
        Tok::Elseif => "elseif",
        Tok::End => "end",
        Tok::False => "false",
        Tok::For => "for",
        Tok::Function => "function",
        Tok::If => "if",
        Tok::In => "in",
        Tok::Local => "local",
        Tok::Nil => "nil",
        Tok::Not => "not",
        Tok::Or => "or",
        Tok::Repeat => "repeat",
        Tok::Return => "return",
        Tok::Then => "then",
        Tok::True => "true",
        Tok::Until => "until",
        Tok::While => "while",
        Tok::Plus => "+",
        Tok::Minus => "-",
        Tok::Star => "*",
        Tok::Slash => "/",
        Tok::Percent => "%",
        Tok::Caret => "^",
        Tok::Hash => "#",
        Tok::EqEq => "==",
        Tok::NotEq => "~=",
        Tok::LtEq => "<=",
        Tok::GtEq => ">=",
        Tok::Lt => "<",
        Tok::Gt => ">",
        Tok::Assign => "=",
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::LBracket => "[",
        Tok::RBracket => "]",
        Tok::Semi => ";",
        Tok::Colon => ":",
        Tok::Comma => ",",
        Tok::Dot => ".",
        Tok::DotDot => "..",
        Tok::Ellipsis => "...",
        Tok::Eof => "<eof>",
    }
}

fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "and" => Tok::And,
        "break" => Tok::Break,
        "do" => Tok::Do,
        "else" => Tok::Else,
        "elseif" => Tok::Elseif,
        "end" => Tok::End,
        "false" => Tok::False,
        "for" => Tok::For,
        "function" => Tok::Function,
        "if" => Tok::If,
        "in" => Tok::In,
        "local" => Tok::Local,
        "nil" => Tok::Nil,
        "not" => Tok::Not,
        "or" => Tok::Or,
        "repeat" => Tok::Repeat,
        "return" => Tok::Return,
        "then" => Tok::Then,
        "true" => Tok::True,
        "until" => Tok::Until,
        "while" => Tok::While,
        _ => return None,
    })
}

/// Lexes the whole source into tokens ending with [`Tok::Eof`].
pub fn tokenize(src: &[u8]) -> Result<Vec<Token>, LexError> {
    let mut lx = Lexer {
        src,
        pos: 0,
        line: 1,
    };
    // Redis 7 scripts may open with a `#!lua flags=…` line; the scripting command reads the
    // flags, and the line itself is skipped like a comment (lines keep their numbers).
    if src.starts_with(b"#!") {
        while !lx.at_end() && !matches!(lx.peek(), b'\n' | b'\r') {
            lx.pos += 1;
        }
    }
    let mut out = Vec::new();
    loop {
        let t = lx.next_token()?;
        let eof = t.tok == Tok::Eof;
        out.push(t);
        if eof {
            return Ok(out);
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
        let so_far =
            |lx: &Lexer, end: usize| String::from_utf8_lossy(&lx.src[start..end]).into_owned();
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
                    let near = so_far(self, self.pos);
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
                                let near = so_far(self, self.pos);
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
        // Lua 5.1 reads digits, dots, exponent signs and any alphanumerics, then converts.
        loop {
            let c = self.peek();
            if c.is_ascii_alphanumeric() || c == b'.' || c == b'_' {
                if (c == b'e' || c == b'E') && matches!(self.peek_at(1), b'+' | b'-') {
                    self.pos += 2;
                } else {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
        let text = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
        match super::value::parse_number(text.as_bytes()) {
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
                // `[=` without a second bracket: Lua reports an invalid long string delimiter.
                return Err(self.err(LexErrorKind::InvalidLongDelimiter, "[="));
            }
        }
        let two = [c, self.peek_at(1)];
        let (tok, len) = match &two {
            b"==" => (Tok::EqEq, 2),
            b"~=" => (Tok::NotEq, 2),
            b"<=" => (Tok::LtEq, 2),
            b">=" => (Tok::GtEq, 2),
            b".." => {
                if self.peek_at(2) == b'.' {
                    (Tok::Ellipsis, 3)
                } else {
                    (Tok::DotDot, 2)
                }
            }
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
                        // Lua 5.1 turns any other byte into a one-char token that the parser rejects.
                        let text = if c.is_ascii_graphic() {
                            (c as char).to_string()
                        } else {
                            format!("char({})", c)
                        };
                        self.pos += 1;
                        return Err(LexError {
                            kind: LexErrorKind::UnexpectedSymbol,
                            line,
                            near: text,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        tokenize(src.as_bytes())
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn keywords_names_and_symbols() {
        assert_eq!(
            toks("local x = a.b .. c ~= d"),
            vec![
                Tok::Local,
                Tok::Name("x".into()),
                Tok::Assign,
                Tok::Name("a".into()),
                Tok::Dot,
                Tok::Name("b".into()),
                Tok::DotDot,
                Tok::Name("c".into()),
                Tok::NotEq,
                Tok::Name("d".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn numbers_in_every_form() {
        assert_eq!(
            toks("3 0.5 1e3 0x1F .5"),
            vec![
                Tok::Number(3.0),
                Tok::Number(0.5),
                Tok::Number(1000.0),
                Tok::Number(31.0),
                Tok::Number(0.5),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn string_escapes_decode() {
        assert_eq!(
            toks(r#""a\n\t\\\"\65\066x" 'it''s'"#)[0],
            Tok::Str(Arc::from(&b"a\n\t\\\"ABx"[..]))
        );
    }

    #[test]
    fn long_strings_and_comments() {
        assert_eq!(
            toks("--[[ gone\n ]] [[\nline1\nline2]] --rest\n[==[a]]b]==]"),
            vec![
                Tok::Str(Arc::from(&b"line1\nline2"[..])),
                Tok::Str(Arc::from(&b"a]]b"[..])),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn a_shebang_line_is_skipped_but_counted() {
        let t = tokenize(b"#!lua flags=no-writes\nreturn x").unwrap();
        assert_eq!(t[0].tok, Tok::Return);
        assert_eq!(t[0].line, 2);
    }

    #[test]
    fn tokens_carry_their_line() {
        let t = tokenize(b"a\nb\r\n\nc").unwrap();
        assert_eq!(
            t.iter().map(|t| t.line).collect::<Vec<_>>(),
            vec![1, 2, 4, 4]
        );
    }

    #[test]
    fn errors_are_worded_like_lua() {
        let e = tokenize(b"return 'abc").unwrap_err();
        assert_eq!(e.to_string(), "unfinished string near '<eof>'");
        let e = tokenize(b"return \"abc\ndef\"").unwrap_err();
        assert_eq!(e.to_string(), "unfinished string near '\"abc'");
        let e = tokenize(b"return 3x").unwrap_err();
        assert_eq!(e.to_string(), "malformed number near '3x'");
        let e = tokenize(b"return [[abc").unwrap_err();
        assert_eq!(e.to_string(), "unfinished long string near '<eof>'");
        let e = tokenize(b"--[[ abc").unwrap_err();
        assert_eq!(e.to_string(), "unfinished long comment near '<eof>'");
    }
}
