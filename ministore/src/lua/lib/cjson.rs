//! `cjson` as Redis 7.0 ships it (lua-cjson 2.1.0): `encode` with its array detection, sparse
//! array rule, `%.14g` numbers and `Cannot serialise …` errors, `decode` (in
//! [`super::json_decode`]), `null`, and the settings functions. The settings last for one
//! script run here (in Redis they last until the scripting engine restarts).

use super::super::interp::{Fault, Interp};
use super::args::{one, string_result, Args, Site};
use super::json_decode;
use crate::lua::handle::Builtin;
use crate::lua::handle::Lib;
use crate::lua::lib_state::CjsonConfig;
use crate::lua::lib_tables::make_lib;
use crate::lua::number::number_to_i32;
use crate::lua::value::{TableRef, Value, MAX_STRING_LEN};
use crate::numtext::format_number_g;

pub use crate::lua::handle::CjsonFunc as Func;

/// Runs a `cjson.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let a = Args::new(&args, Builtin::Cjson(f), site);
    let cfg = &mut it.lua_state().cjson;
    match f {
        Func::Encode => {
            if args.len() != 1 {
                return Err(a.bad(1, "expected 1 argument"));
            }
            let cfg = cfg.clone();
            let mut enc = Encoder {
                cfg: &cfg,
                out: Vec::new(),
                a: &a,
            };
            enc.value(&args[0], 0)?;
            it.charge(enc.out.len() as u64 / 64, a.line)?;
            string_result(enc.out, a.line)
        }
        Func::Decode => json_decode::decode(it, &a),
        Func::New => one(Value::Lib(Lib::Cjson)),
        Func::EncodeSparseArray => {
            settings_args(&a, 3)?;
            let convert = enum_option(&a, 1, &mut cfg.sparse_convert, &["off", "on"])?;
            let ratio = integer_option(&a, 2, &mut cfg.sparse_ratio, 0, i32::MAX as i64)?;
            let safe = integer_option(&a, 3, &mut cfg.sparse_safe, 0, i32::MAX as i64)?;
            Ok(vec![convert, ratio, safe])
        }
        Func::EncodeMaxDepth => {
            settings_args(&a, 1)?;
            one(integer_option(
                &a,
                1,
                &mut cfg.encode_max_depth,
                1,
                i32::MAX as i64,
            )?)
        }
        Func::DecodeMaxDepth => {
            settings_args(&a, 1)?;
            one(integer_option(
                &a,
                1,
                &mut cfg.decode_max_depth,
                1,
                i32::MAX as i64,
            )?)
        }
        Func::EncodeNumberPrecision => {
            settings_args(&a, 1)?;
            one(integer_option(&a, 1, &mut cfg.precision, 1, 14)?)
        }
        Func::EncodeKeepBuffer => {
            settings_args(&a, 1)?;
            one(enum_option(&a, 1, &mut cfg.keep_buffer, &["off", "on"])?)
        }
        Func::EncodeInvalidNumbers => {
            settings_args(&a, 1)?;
            one(enum_option(
                &a,
                1,
                &mut cfg.encode_invalid,
                &["off", "on", "null"],
            )?)
        }
        Func::DecodeInvalidNumbers => {
            settings_args(&a, 1)?;
            one(enum_option(&a, 1, &mut cfg.decode_invalid, &["off", "on"])?)
        }
    }
}

fn settings_args(a: &Args, max: usize) -> Result<(), Fault> {
    if a.v.len() > max {
        return Err(a.bad(max + 1, "found too many arguments"));
    }
    Ok(())
}

/// An integer setting: changed when the argument is given (within `min..=max`), then reported.
fn integer_option(
    a: &Args,
    n: usize,
    setting: &mut i64,
    min: i64,
    max: i64,
) -> Result<Value, Fault> {
    if !matches!(a.v.get(n - 1), None | Some(Value::Nil)) {
        // lua-cjson keeps the setting in a C int, cut before it is checked.
        let v = a.int(n)? as i32 as i64;
        if !(min..=max).contains(&v) {
            return Err(a.bad(1, &format!("expected integer between {} and {}", min, max)));
        }
        *setting = v;
    }
    Ok(Value::Num(*setting as f64))
}

/// An option setting: a boolean (off/on) or one of `options` by name; reported as a boolean
/// for off/on and by name otherwise.
fn enum_option(a: &Args, n: usize, setting: &mut u8, options: &[&str]) -> Result<Value, Fault> {
    match a.v.get(n - 1) {
        None | Some(Value::Nil) => {}
        Some(Value::Bool(b)) => *setting = *b as u8,
        Some(_) => {
            let s = a.string(n)?;
            // `luaL_checkoption` compares the option as a C string, up to a NUL.
            let s = crate::args::c_string(&s);
            match options.iter().position(|o| o.as_bytes() == s) {
                Some(i) => *setting = i as u8,
                None => {
                    return Err(a.bad(
                        n,
                        &format!("invalid option '{}'", String::from_utf8_lossy(s)),
                    ))
                }
            }
        }
    }
    Ok(match *setting {
        0 => Value::Bool(false),
        1 => Value::Bool(true),
        i => Value::str(options[i as usize].as_bytes()),
    })
}

struct Encoder<'c, 'a> {
    cfg: &'c CjsonConfig,
    out: Vec<u8>,
    a: &'c Args<'a>,
}

impl Encoder<'_, '_> {
    fn fail(&self, v: &Value, reason: &str) -> Fault {
        self.a
            .error(&format!("Cannot serialise {}: {}", v.type_name(), reason))
    }

    fn value(&mut self, v: &Value, depth: i64) -> Result<(), Fault> {
        if self.out.len() > MAX_STRING_LEN {
            return Err(crate::lua::interp::memory_error(self.a.line));
        }
        match v {
            Value::Str(s) => self.string(s),
            Value::Num(n) => self.number(v, *n)?,
            Value::Bool(b) => self
                .out
                .extend_from_slice(if *b { b"true" } else { b"false" }),
            Value::Nil | Value::Null => self.out.extend_from_slice(b"null"),
            Value::Table(t) => self.table(t, depth + 1)?,
            Value::Lib(lib) => self.table(&make_lib(*lib), depth + 1)?,
            Value::Func(_) | Value::Builtin(_) | Value::Thread(_) => {
                return Err(self.fail(v, "type not supported"))
            }
        }
        Ok(())
    }

    fn number(&mut self, v: &Value, n: f64) -> Result<(), Fault> {
        if !n.is_finite() {
            match self.cfg.encode_invalid {
                0 => return Err(self.fail(v, "must not be NaN or Inf")),
                1 if n.is_nan() => {
                    self.out.extend_from_slice(b"nan");
                    return Ok(());
                }
                1 => {}
                _ => {
                    self.out.extend_from_slice(b"null");
                    return Ok(());
                }
            }
        }
        self.out
            .extend_from_slice(format_number_g(n, self.cfg.precision as i32).as_bytes());
        Ok(())
    }

    fn string(&mut self, s: &[u8]) {
        self.out.push(b'"');
        for &c in s {
            match c {
                b'"' => self.out.extend_from_slice(b"\\\""),
                b'\\' => self.out.extend_from_slice(b"\\\\"),
                b'/' => self.out.extend_from_slice(b"\\/"),
                b'\n' => self.out.extend_from_slice(b"\\n"),
                b'\r' => self.out.extend_from_slice(b"\\r"),
                b'\t' => self.out.extend_from_slice(b"\\t"),
                0x08 => self.out.extend_from_slice(b"\\b"),
                0x0c => self.out.extend_from_slice(b"\\f"),
                0..=0x1f | 0x7f => {
                    self.out
                        .extend_from_slice(format!("\\u{:04x}", c).as_bytes());
                }
                _ => self.out.push(c),
            }
        }
        self.out.push(b'"');
    }

    /// The array length lua-cjson gives a table, or None when it is encoded as an object.
    fn array_length(&self, t: &TableRef) -> Result<Option<i64>, Fault> {
        let table = t.0.borrow();
        // lua-cjson keeps the largest index in a C int.
        let (mut max, mut items) = (0i32, 0i64);
        let mut cursor = 0;
        while let Some((next, k, _)) = table.next_from(cursor) {
            cursor = next;
            match k {
                Value::Num(k) if k != 0.0 && k.floor() == k && k >= 1.0 => {
                    if k > max as f64 {
                        max = number_to_i32(k);
                    }
                    items += 1;
                }
                _ => return Ok(None),
            }
        }
        let ratio = self.cfg.sparse_ratio as f64;
        let max = max as f64;
        if ratio > 0.0 && max > items as f64 * ratio && max > self.cfg.sparse_safe as f64 {
            if self.cfg.sparse_convert == 0 {
                return Err(self.fail(&Value::Table(t.clone()), "excessively sparse array"));
            }
            return Ok(None);
        }
        Ok(Some(max as i64))
    }

    fn table(&mut self, t: &TableRef, depth: i64) -> Result<(), Fault> {
        // The hard cap keeps native recursion bounded whatever the script configured.
        if depth > self.cfg.encode_max_depth.min(1000) {
            return Err(self
                .a
                .error(&format!("Cannot serialise, excessive nesting ({})", depth)));
        }
        match self.array_length(t)? {
            Some(len) if len > 0 => {
                self.out.push(b'[');
                for i in 1..=len {
                    if i > 1 {
                        self.out.push(b',');
                    }
                    let v = t.get(&Value::Num(i as f64));
                    self.value(&v, depth)?;
                }
                self.out.push(b']');
            }
            _ => self.object(t, depth)?,
        }
        Ok(())
    }

    fn object(&mut self, t: &TableRef, depth: i64) -> Result<(), Fault> {
        self.out.push(b'{');
        let mut cursor = 0;
        let mut first = true;
        loop {
            let entry = t.0.borrow().next_from(cursor);
            let Some((next, k, v)) = entry else { break };
            cursor = next;
            if !first {
                self.out.push(b',');
            }
            first = false;
            match &k {
                Value::Num(n) => {
                    self.out.push(b'"');
                    self.number(&k, *n)?;
                    self.out.extend_from_slice(b"\":");
                }
                Value::Str(s) => {
                    self.string(s);
                    self.out.push(b':');
                }
                other => return Err(self.fail(other, "table key must be a number or string")),
            }
            self.value(&v, depth)?;
        }
        self.out.push(b'}');
        Ok(())
    }
}
