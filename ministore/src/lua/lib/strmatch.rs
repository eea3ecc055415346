//! The pattern functions of the `string` library — find, match, gmatch (and its 5.0 name
//! gfind), gsub — on top of the matcher in [`crate::lua::pattern`], with Lua 5.1's argument
//! handling and errors.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::super::ast::FuncBody;
use super::super::interp::{memory_error, runtime_error, Fault, Interp};
use super::super::pattern::{has_specials, until_nul, Capture, Matcher, PatternError};
use super::args::{call_from_lib, one, posrelat, string_result, Args};
use crate::lua::handle::Builtin;
use crate::lua::handle::StringFunc as Func;
use crate::lua::value::{Closure, TableRef, Value, MAX_STRING_LEN};

/// Runs `f` on a fresh matcher allowed the script's remaining steps, then charges the steps it
/// took; pattern errors become Lua errors on `line`.
fn with_matcher<T>(
    it: &mut Interp,
    line: u32,
    src: &[u8],
    pat: &[u8],
    f: impl FnOnce(&mut Matcher) -> Result<T, PatternError>,
) -> Result<T, Fault> {
    let mut m = Matcher::new(src, pat, it.remaining());
    let r = f(&mut m);
    it.charge(m.steps(), line)?;
    r.map_err(|e| match e {
        PatternError::Bad(msg) => runtime_error(line, msg),
        PatternError::Budget => Fault::Budget { line },
    })
}

fn capture_value(src: &[u8], c: Capture) -> Value {
    match c {
        Capture::Text(a, b) => Value::str(&src[a..b]),
        Capture::Position(n) => Value::Num(n as f64),
    }
}

/// A plain substring search from `init`, charging the comparisons it makes.
fn plain_find(
    it: &mut Interp,
    line: u32,
    s: &[u8],
    p: &[u8],
    init: usize,
) -> Result<Option<usize>, Fault> {
    if p.is_empty() {
        return Ok(Some(init));
    }
    if p.len() > s.len() - init {
        return Ok(None);
    }
    let mut work = 0u64;
    let mut found = None;
    for i in init..=s.len() - p.len() {
        if s[i] == p[0] {
            work += 1 + p.len() as u64 / 32;
            if &s[i..i + p.len()] == p {
                found = Some(i);
                break;
            }
        }
    }
    it.charge(work + (s.len() - init) as u64 / 1024, line)?;
    Ok(found)
}

/// `string.find` (`find` set) and `string.match`.
pub fn find(it: &mut Interp, a: &Args, find: bool) -> Result<Vec<Value>, Fault> {
    let s = a.string(1)?;
    let p = a.string(2)?;
    let init = (posrelat(a.opt_int(3, 1)?, s.len()) - 1).clamp(0, s.len() as i64) as usize;
    if find && (a.v.get(3).is_some_and(Value::truthy) || !has_specials(&p)) {
        return Ok(match plain_find(it, a.line, &s, &p, init)? {
            Some(i) => vec![Value::Num((i + 1) as f64), Value::Num((i + p.len()) as f64)],
            None => vec![Value::Nil],
        });
    }
    let pat = until_nul(&p);
    let (pat, anchor) = match pat.first() {
        Some(b'^') => (&pat[1..], true),
        _ => (pat, false),
    };
    with_matcher(it, a.line, &s, pat, |m| {
        let mut s1 = init;
        loop {
            if let Some(e) = m.match_at(s1, 0)? {
                let caps = m.captures(s1, e, !find)?;
                let mut out = Vec::with_capacity(caps.len() + 2);
                if find {
                    out.push(Value::Num((s1 + 1) as f64));
                    out.push(Value::Num(e as f64));
                }
                out.extend(caps.into_iter().map(|c| capture_value(&s, c)));
                return Ok(out);
            }
            if anchor || s1 >= s.len() {
                return Ok(vec![Value::Nil]);
            }
            s1 += 1;
        }
    })
}

thread_local! {
    /// The body of every gmatch iterator: `return step(state)`, with both names captured.
    /// It is named like the script, so errors raised in `step` read `user_script:<line>:`.
    static GMATCH_BODY: Option<Arc<FuncBody>> =
        super::super::parser::parse_chunk(b"return step(state)", "@user_script").ok();
}

/// True for the body of gmatch's iterators (a C function in Lua).
pub fn is_gmatch_body(body: &Arc<FuncBody>) -> bool {
    GMATCH_BODY.with(|b| b.as_ref().is_some_and(|b| Arc::ptr_eq(b, body)))
}

/// `string.gmatch`: an iterator function over the matches, its state (subject, pattern, next
/// position, the caller's line) in a table only the iterator can reach.
pub fn gmatch(a: &Args) -> Result<Vec<Value>, Fault> {
    let s = a.string(1)?;
    let p = a.string(2)?;
    let state = TableRef::new();
    for (i, v) in [
        Value::Str(s),
        Value::Str(p),
        Value::Num(0.0),
        Value::Num(a.line as f64),
    ]
    .into_iter()
    .enumerate()
    {
        // A fresh four-entry table cannot exceed its size cap.
        let _ = state.set(Value::Num((i + 1) as f64), v);
    }
    let Some(body) = GMATCH_BODY.with(Clone::clone) else {
        return Err(runtime_error(a.line, "gmatch unavailable"));
    };
    let cell = |v: Value| Rc::new(RefCell::new(v));
    let step = Value::Builtin(Builtin::String(Func::GmatchStep));
    one(Value::Func(Rc::new(Closure {
        body,
        captured: vec![
            (Arc::from("step"), cell(step)),
            (Arc::from("state"), cell(Value::Table(state))),
        ],
    })))
}

/// One step of a gmatch iterator: the next match's captures, or nothing at the end.
pub fn gmatch_step(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let state = a.table(1)?;
    let field = |i: f64| state.get(&Value::Num(i));
    let (Value::Str(s), Value::Str(p), Value::Num(pos), Value::Num(line)) =
        (field(1.0), field(2.0), field(3.0), field(4.0))
    else {
        return Ok(Vec::new());
    };
    let line = line as u32;
    let pat = until_nul(&p);
    let found = with_matcher(it, line, &s, pat, |m| {
        let mut src = pos as usize;
        while src <= s.len() {
            if let Some(e) = m.match_at(src, 0)? {
                let caps = m.captures(src, e, true)?;
                return Ok(Some((src, e, caps)));
            }
            src += 1;
        }
        Ok(None)
    })?;
    let Some((src, e, caps)) = found else {
        return Ok(Vec::new());
    };
    let next = if e == src { e + 1 } else { e };
    let _ = state.set(Value::Num(3.0), Value::Num(next as f64));
    Ok(caps.into_iter().map(|c| capture_value(&s, c)).collect())
}

/// Appends a string replacement with its `%0`–`%9` and `%%` escapes expanded.
fn add_escaped(
    out: &mut Vec<u8>,
    news: &[u8],
    m: &Matcher,
    src: &[u8],
    (s, e): (usize, usize),
) -> Result<(), PatternError> {
    let mut i = 0;
    while i < news.len() {
        let c = news[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        // Lua reads the replacement as a C string: a lone '%' at the end escapes its NUL.
        let d = news.get(i).copied().unwrap_or(0);
        i += 1;
        if !d.is_ascii_digit() {
            out.push(d);
        } else if d == b'0' {
            out.extend_from_slice(&src[s..e]);
        } else {
            match m.capture((d - b'1') as usize, s, e)? {
                Capture::Text(a, b) => out.extend_from_slice(&src[a..b]),
                Capture::Position(n) => out.extend_from_slice(n.to_string().as_bytes()),
            }
        }
    }
    Ok(())
}

/// What replaces one match in `gsub`.
enum Replacement {
    Text(Arc<[u8]>),
    Table(TableRef),
    Call(Value),
}

/// `string.gsub`.
pub fn gsub(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let line = a.line;
    let src = a.string(1)?;
    let p = a.string(2)?;
    let max_n = match a.v.get(3) {
        None | Some(Value::Nil) => src.len() as i64 + 1,
        Some(_) => a.int(4)? as i32 as i64,
    };
    let repl = match a.v.get(2) {
        Some(v @ (Value::Str(_) | Value::Num(_))) => {
            Replacement::Text(v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])))
        }
        Some(Value::Table(_) | Value::Lib(_)) => Replacement::Table(a.table(3)?),
        Some(f @ (Value::Func(_) | Value::Builtin(_))) => Replacement::Call(f.clone()),
        _ => return Err(a.bad(3, "string/function/table expected")),
    };
    let pat = until_nul(&p);
    let (pat, anchor) = match pat.first() {
        Some(b'^') => (&pat[1..], true),
        _ => (pat, false),
    };
    let mut out = Vec::new();
    let mut pos = 0;
    let mut n = 0i64;
    while n < max_n {
        let mut m = Matcher::new(&src, pat, it.remaining());
        let found = m.match_at(pos, 0);
        it.charge(m.steps(), line)?;
        let found = found.map_err(|e| pattern_fault(e, line))?;
        if let Some(e) = found {
            n += 1;
            add_value(it, line, &mut out, &m, &src, (pos, e), &repl)?;
        }
        match found {
            Some(e) if e > pos => pos = e,
            _ if pos < src.len() => {
                out.push(src[pos]);
                pos += 1;
            }
            _ => break,
        }
        if out.len() > MAX_STRING_LEN {
            return Err(memory_error(line));
        }
        if anchor {
            break;
        }
    }
    out.extend_from_slice(&src[pos..]);
    let mut result = string_result(out, line)?;
    result.push(Value::Num(n as f64));
    Ok(result)
}

fn pattern_fault(e: PatternError, line: u32) -> Fault {
    match e {
        PatternError::Bad(msg) => runtime_error(line, msg),
        PatternError::Budget => Fault::Budget { line },
    }
}

/// Appends what replaces the match `span` (`add_value` in Lua's gsub).
fn add_value(
    it: &mut Interp,
    line: u32,
    out: &mut Vec<u8>,
    m: &Matcher,
    src: &[u8],
    span: (usize, usize),
    repl: &Replacement,
) -> Result<(), Fault> {
    let value = match repl {
        Replacement::Text(news) => {
            it.charge(news.len() as u64 / 64, line)?;
            return add_escaped(out, news, m, src, span).map_err(|e| pattern_fault(e, line));
        }
        Replacement::Table(t) => {
            let key = m
                .capture(0, span.0, span.1)
                .map_err(|e| pattern_fault(e, line))?;
            // Read as `t[key]` is, through the table's `__index` (Lua's `lua_gettable`).
            it.index(
                &Value::Table(t.clone()),
                capture_value(src, key),
                line,
                || None,
            )?
        }
        Replacement::Call(f) => {
            let caps = m
                .captures(span.0, span.1, true)
                .map_err(|e| pattern_fault(e, line))?;
            let args = caps.into_iter().map(|c| capture_value(src, c)).collect();
            call_from_lib(it, f, args, line)?
                .into_iter()
                .next()
                .unwrap_or_default()
        }
    };
    match value {
        Value::Nil | Value::Bool(false) => out.extend_from_slice(&src[span.0..span.1]),
        v @ (Value::Str(_) | Value::Num(_)) => {
            out.extend_from_slice(&v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])))
        }
        other => {
            return Err(runtime_error(
                line,
                &format!("invalid replacement value (a {})", other.type_name()),
            ))
        }
    }
    Ok(())
}
