//! Tokens, their names in Lua's messages, the keywords, and lexing errors as data.

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
    /// A byte that starts no token: Lua 5.1 lexes it as a token of its own, which no rule of
    /// the grammar accepts, so the parser's error names what it expected there.
    Char(u8),
    /// Where lexing failed: the tokens stop here, and the parser reports the lexing error when it
    /// reaches this place, as Lua, which lexes a token only when the parser asks for it, does.
    Unlexable,
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
        Tok::Char(_) | Tok::Unlexable => "<char>",
        Tok::Eof => "<eof>",
    }
}

pub(super) fn keyword(word: &str) -> Option<Tok> {
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
