//! `cjson.decode`: lua-cjson 2.1.0's tokenizer and parser, with its tokens, its leniency (a
//! NUL ends the text, `nan`/`inf`/hex numbers through `strtod`) and its error texts
//! (`Expected value but found invalid token at character 1`).

use super::super::interp::{Fault, Interp};
use super::args::{one, Args};
use crate::lua::value::{TableRef, Value};
use crate::strtod::strtod;

/// A token, as lua-cjson names them in errors.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    ObjBegin,
    ObjEnd,
    ArrBegin,
    ArrEnd,
    Str(Vec<u8>),
    Num(f64),
    Bool(bool),
    Null,
    Colon,
    Comma,
    End,
    /// A bad token, with lua-cjson's description of it.
    Error(&'static str),
}

impl Token {
    fn name(&self) -> &'static str {
        match self {
            Token::ObjBegin => "T_OBJ_BEGIN",
            Token::ObjEnd => "T_OBJ_END",
            Token::ArrBegin => "T_ARR_BEGIN",
            Token::ArrEnd => "T_ARR_END",
            Token::Str(_) => "T_STRING",
            Token::Num(_) => "T_NUMBER",
            Token::Bool(_) => "T_BOOLEAN",
            Token::Null => "T_NULL",
            Token::Colon => "T_COLON",
            Token::Comma => "T_COMMA",
            Token::End => "T_END",
            Token::Error(e) => e,
        }
    }
}

struct Parser<'s, 'a> {
    s: &'s [u8],
    pos: usize,
    depth: i64,
    max_depth: i64,
    invalid_numbers: bool,
    a: &'s Args<'a>,
}

/// `cjson.decode(text)`.
pub fn decode(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    if a.v.len() != 1 {
        return Err(a.bad(1, "expected 1 argument"));
    }
    let text = a.string(1)?;
    if text.len() >= 2 && (text[0] == 0 || text[1] == 0) {
        return Err(a.error("JSON parser does not support UTF-16 or UTF-32"));
    }
    it.charge(text.len() as u64 / 16, a.line)?;
    let cfg = &it.lua_state().cjson;
    // The hard cap keeps native recursion bounded whatever the script configured.
    let mut p = Parser {
        s: &text,
        pos: 0,
        depth: 0,
        max_depth: cfg.decode_max_depth.min(1000),
        invalid_numbers: cfg.decode_invalid != 0,
        a,
    };
    let (tok, at) = p.next();
    let v = p.value(tok, at)?;
    let (tok, at) = p.next();
    if tok != Token::End {
        return Err(p.expected("the end", &tok, at));
    }
    one(v)
}

impl Parser<'_, '_> {
    fn at(&self, i: usize) -> u8 {
        self.s.get(i).copied().unwrap_or(0)
    }

    fn expected(&self, what: &str, tok: &Token, at: usize) -> Fault {
        self.a.error(&format!(
            "Expected {} but found {} at character {}",
            what,
            tok.name(),
            at + 1
        ))
    }

    /// The next token and where it starts.
    fn next(&mut self) -> (Token, usize) {
        while matches!(self.at(self.pos), b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
        let start = self.pos;
        let c = self.at(start);
        let single = match c {
            b'{' => Some(Token::ObjBegin),
            b'}' => Some(Token::ObjEnd),
            b'[' => Some(Token::ArrBegin),
            b']' => Some(Token::ArrEnd),
            b',' => Some(Token::Comma),
            b':' => Some(Token::Colon),
            0 => return (Token::End, start),
            _ => None,
        };
        if let Some(t) = single {
            self.pos += 1;
            return (t, start);
        }
        if !matches!(
            c,
            b'f' | b'i' | b'I' | b'n' | b'N' | b't' | b'"' | b'+' | b'-' | b'0'..=b'9'
        ) {
            return (Token::Error("invalid token"), start);
        }
        if c == b'"' {
            return self.string();
        }
        let rest = &self.s[start..];
        if c == b'-' || c.is_ascii_digit() {
            if !self.invalid_numbers && self.is_invalid_number() {
                return (Token::Error("invalid number"), start);
            }
            return self.number();
        }
        for (word, tok) in [
            (&b"true"[..], Token::Bool(true)),
            (b"false", Token::Bool(false)),
            (b"null", Token::Null),
        ] {
            if rest.starts_with(word) {
                self.pos += word.len();
                return (tok, start);
            }
        }
        if self.invalid_numbers && self.is_invalid_number() {
            return self.number();
        }
        (Token::Error("invalid token"), start)
    }

    /// Numbers JSON does not allow: a leading `+`, hex, leading zeros, inf and nan.
    fn is_invalid_number(&self) -> bool {
        let mut p = self.pos;
        match self.at(p) {
            b'+' => return true,
            b'-' => p += 1,
            _ => {}
        }
        if self.at(p) == b'0' {
            let c2 = self.at(p + 1);
            return c2 | 0x20 == b'x' || c2.is_ascii_digit();
        }
        if self.at(p) <= b'9' {
            return false;
        }
        let word = self
            .s
            .get(p..p + 3)
            .unwrap_or_default()
            .to_ascii_lowercase();
        word == b"inf" || word == b"nan"
    }

    fn number(&mut self) -> (Token, usize) {
        let start = self.pos;
        let read = strtod(&self.s[start..]);
        if read.consumed == 0 {
            return (Token::Error("invalid number"), start);
        }
        self.pos += read.consumed;
        (Token::Num(read.value), start)
    }

    fn hex4(&self, i: usize) -> Option<u32> {
        let digits = self.s.get(i..i + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(text, 16).ok()
    }

    /// `\uXXXX` (a surrogate pair taking two) at `self.pos`, appended as UTF-8.
    fn unicode_escape(&mut self, out: &mut Vec<u8>) -> Option<()> {
        let mut cp = self.hex4(self.pos + 2)?;
        let mut len = 6;
        if cp & 0xf800 == 0xd800 {
            if cp & 0x400 != 0 || self.at(self.pos + 6) != b'\\' || self.at(self.pos + 7) != b'u' {
                return None;
            }
            let low = self.hex4(self.pos + 8)?;
            if low & 0xfc00 != 0xdc00 {
                return None;
            }
            cp = (((cp & 0x3ff) << 10) | (low & 0x3ff)) + 0x10000;
            len = 12;
        }
        let mut buf = [0u8; 4];
        out.extend_from_slice(char::from_u32(cp)?.encode_utf8(&mut buf).as_bytes());
        self.pos += len;
        Some(())
    }

    fn string(&mut self) -> (Token, usize) {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let c = self.at(self.pos);
            match c {
                b'"' => break,
                0 => return (Token::Error("unexpected end of string"), self.pos),
                b'\\' => {
                    let e = match self.at(self.pos + 1) {
                        b'"' => b'"',
                        b'\\' => b'\\',
                        b'/' => b'/',
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'u' => {
                            if self.unicode_escape(&mut out).is_none() {
                                return (Token::Error("invalid unicode escape code"), self.pos);
                            }
                            continue;
                        }
                        _ => return (Token::Error("invalid escape code"), self.pos),
                    };
                    out.push(e);
                    self.pos += 2;
                }
                _ => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
        self.pos += 1;
        (Token::Str(out), start)
    }

    fn descend(&mut self) -> Result<(), Fault> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.a.error(&format!(
                "Found too many nested data structures ({}) at character {}",
                self.depth, self.pos
            )));
        }
        Ok(())
    }

    fn value(&mut self, tok: Token, at: usize) -> Result<Value, Fault> {
        Ok(match tok {
            Token::Str(s) => Value::str(&s),
            Token::Num(n) => Value::Num(n),
            Token::Bool(b) => Value::Bool(b),
            Token::Null => Value::Null,
            Token::ObjBegin => self.object()?,
            Token::ArrBegin => self.array()?,
            other => return Err(self.expected("value", &other, at)),
        })
    }

    fn set(&self, t: &TableRef, k: Value, v: Value) -> Result<(), Fault> {
        t.set(k, v)
            .map_err(|_| crate::lua::interp::memory_error(self.a.line))
    }

    fn object(&mut self) -> Result<Value, Fault> {
        self.descend()?;
        let t = TableRef::new();
        let (mut tok, mut at) = self.next();
        if tok == Token::ObjEnd {
            self.depth -= 1;
            return Ok(Value::Table(t));
        }
        loop {
            let Token::Str(key) = tok else {
                return Err(self.expected("object key string", &tok, at));
            };
            let (colon, at_colon) = self.next();
            if colon != Token::Colon {
                return Err(self.expected("colon", &colon, at_colon));
            }
            let (vt, vat) = self.next();
            let v = self.value(vt, vat)?;
            self.set(&t, Value::str(&key), v)?;
            let (sep, at_sep) = self.next();
            match sep {
                Token::ObjEnd => {
                    self.depth -= 1;
                    return Ok(Value::Table(t));
                }
                Token::Comma => {}
                other => return Err(self.expected("comma or object end", &other, at_sep)),
            }
            (tok, at) = self.next();
        }
    }

    fn array(&mut self) -> Result<Value, Fault> {
        self.descend()?;
        let t = TableRef::new();
        let (mut tok, mut at) = self.next();
        if tok == Token::ArrEnd {
            self.depth -= 1;
            return Ok(Value::Table(t));
        }
        for i in 1.. {
            let v = self.value(tok, at)?;
            self.set(&t, Value::Num(i as f64), v)?;
            let (sep, at_sep) = self.next();
            match sep {
                Token::ArrEnd => break,
                Token::Comma => {}
                other => return Err(self.expected("comma or array end", &other, at_sep)),
            }
            (tok, at) = self.next();
        }
        self.depth -= 1;
        Ok(Value::Table(t))
    }
}
