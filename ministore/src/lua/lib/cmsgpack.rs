//! `cmsgpack` as Redis ships it (lua-cmsgpack 0.4.0): `pack` with its type choices (the
//! smallest integer form for whole numbers, float32 when exact, str8/16/32, an array for tables
//! whose keys are exactly 1..n, nil past 16 levels of nesting), and `unpack`, `unpack_one`,
//! `unpack_limit` with their offsets and errors.

use super::super::interp::{bare_error, memory_error, Fault, Interp};
use super::args::{one, Args, Site, MAX_C_STACK};
use crate::lua::handle::Builtin;
use crate::lua::lib_tables::make_lib;
use crate::lua::value::{TableRef, Value, MAX_STRING_LEN};

pub use crate::lua::handle::CmsgpackFunc as Func;

/// Tables nested deeper than this are packed as nil (so cycles end).
const MAX_NESTING: usize = 16;
/// How deep `unpack` nests arrays and maps before giving up.
const MAX_DECODE_DEPTH: usize = 1000;

/// Runs a `cmsgpack.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let a = Args::new(&args, Builtin::Cmsgpack(f), site);
    match f {
        Func::Pack => {
            if args.is_empty() {
                return Err(a.bad(0, "MessagePack pack needs input."));
            }
            // `lua_checkstack(L, nargs)` on top of the arguments themselves.
            if 2 * args.len() > MAX_C_STACK {
                return Err(a.bad(0, "Too many arguments for MessagePack pack."));
            }
            let mut out = Vec::new();
            for v in &args {
                encode(&mut out, v, 0, a.line)?;
            }
            it.charge(out.len() as u64 / 64, a.line)?;
            one(Value::str(&out))
        }
        Func::Unpack => unpack(it, &a, 0, 0),
        Func::UnpackOne => {
            let offset = a.opt_int(2, 0)?;
            unpack(it, &a, 1, offset)
        }
        Func::UnpackLimit => {
            let limit = a.int(2)?;
            let offset = a.opt_int(3, 0)?;
            unpack(it, &a, limit, offset)
        }
    }
}

fn encode(out: &mut Vec<u8>, v: &Value, level: usize, line: u32) -> Result<(), Fault> {
    if out.len() > MAX_STRING_LEN {
        return Err(memory_error(line));
    }
    match v {
        Value::Str(s) => encode_bytes(out, s),
        Value::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Value::Num(n) => encode_number(out, *n),
        Value::Table(t) if level < MAX_NESTING => encode_table(out, t, level, line)?,
        Value::Lib(lib) if level < MAX_NESTING => encode_table(out, &make_lib(*lib), level, line)?,
        _ => out.push(0xc0),
    }
    Ok(())
}

fn encode_bytes(out: &mut Vec<u8>, s: &[u8]) {
    let n = s.len();
    if n < 32 {
        out.push(0xa0 | n as u8);
    } else if n <= 0xff {
        out.extend_from_slice(&[0xd9, n as u8]);
    } else if n <= 0xffff {
        out.push(0xda);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(s);
}

fn encode_number(out: &mut Vec<u8>, n: f64) {
    // An int64 when the number is one (C's cast and compare, which 2^63 fails).
    if n.is_finite()
        && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&n)
        && n.trunc() == n
    {
        return encode_int(out, n as i64);
    }
    let f = n as f32;
    if f as f64 == n {
        out.push(0xca);
        out.extend_from_slice(&f.to_bits().to_be_bytes());
    } else {
        out.push(0xcb);
        out.extend_from_slice(&n.to_bits().to_be_bytes());
    }
}

fn encode_int(out: &mut Vec<u8>, n: i64) {
    match n {
        0..=127 => out.push(n as u8),
        128..=0xff => out.extend_from_slice(&[0xcc, n as u8]),
        0x100..=0xffff => {
            out.push(0xcd);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        0x1_0000..=0xffff_ffff => {
            out.push(0xce);
            out.extend_from_slice(&(n as u32).to_be_bytes());
        }
        _ if n > 0 => {
            out.push(0xcf);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
        -32..=-1 => out.push(n as i8 as u8),
        -128..=-33 => out.extend_from_slice(&[0xd0, n as i8 as u8]),
        -32768..=-129 => {
            out.push(0xd1);
            out.extend_from_slice(&(n as i16).to_be_bytes());
        }
        -2_147_483_648..=-32769 => {
            out.push(0xd2);
            out.extend_from_slice(&(n as i32).to_be_bytes());
        }
        _ => {
            out.push(0xd3);
            out.extend_from_slice(&n.to_be_bytes());
        }
    }
}

/// Writes a container header: the fix form, then 16 and 32 bits.
fn header(out: &mut Vec<u8>, n: usize, fix: u8, h16: u8) {
    if n <= 15 {
        out.push(fix | n as u8);
    } else if n <= 0xffff {
        out.push(h16);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(h16 + 1);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
}

fn encode_table(out: &mut Vec<u8>, t: &TableRef, level: usize, line: u32) -> Result<(), Fault> {
    let entries: Vec<(Value, Value)> = {
        let table = t.0.borrow();
        let mut v = Vec::new();
        let mut cursor = 0;
        while let Some((next, k, val)) = table.next_from(cursor) {
            v.push((k, val));
            cursor = next;
        }
        v
    };
    // An array when the keys are exactly 1..n (positive whole numbers that fit a C int).
    let mut max = 0i64;
    let is_array = entries.iter().all(|(k, _)| match k {
        Value::Num(n) if *n > 0.0 && *n < 2_147_483_648.0 && n.trunc() == *n => {
            max = max.max(*n as i64);
            true
        }
        _ => false,
    }) && max == entries.len() as i64;
    if is_array {
        let len = t.len();
        header(out, len, 0x90, 0xdc);
        for i in 1..=len {
            encode(out, &t.get(&Value::Num(i as f64)), level + 1, line)?;
        }
    } else {
        header(out, entries.len(), 0x80, 0xde);
        for (k, v) in &entries {
            encode(out, k, level + 1, line)?;
            encode(out, v, level + 1, line)?;
        }
    }
    Ok(())
}

/// Why decoding stopped.
enum Stop {
    Eof,
    BadFormat,
    /// A `luaL_checkstack` that failed, with its message.
    Stack(&'static str),
    Fault(Fault),
}

/// `luaL_checkstack`'s message when a value would not fit.
const TOO_MANY_VALUES: &str =
    "too many return values at once; use unpack_one or unpack_limit instead.";

struct Decoder<'s> {
    s: &'s [u8],
    pos: usize,
    line: u32,
    steps: u64,
    /// The Lua stack slots the C function would be using: its argument, the values decoded so
    /// far, and each table being filled with the key or index it is filling.
    used: usize,
}

/// `mp_unpack_full`: `limit` and `offset` are C `lua_Integer`s, printed in errors as C ints.
fn unpack(it: &mut Interp, a: &Args, limit: i64, offset: i64) -> Result<Vec<Value>, Fault> {
    let s = a.string(1)?;
    let decode_all = limit == 0 && offset == 0;
    if offset < 0 || limit < 0 {
        return Err(a.error(&format!(
            "Invalid request to unpack with offset of {} and limit of {}.",
            offset as i32,
            s.len() as i32
        )));
    }
    if offset as u64 > s.len() as u64 {
        return Err(a.error(&format!(
            "Start offset {} greater than input length {}.",
            offset as i32,
            s.len() as i32
        )));
    }
    let limit = if decode_all {
        i64::from(i32::MAX)
    } else {
        limit
    };
    let mut d = Decoder {
        s: &s,
        pos: offset as usize,
        line: a.line,
        steps: 0,
        used: 1,
    };
    let stack_error = |msg: &str| a.error(&format!("stack overflow ({msg})"));
    let mut out = Vec::new();
    let mut count = 0;
    while d.pos < s.len() && count < limit {
        let r = d.value(0);
        it.charge(std::mem::take(&mut d.steps), a.line)?;
        match r {
            Ok(v) => out.push(v),
            Err(Stop::Eof) => return Err(a.error("Missing bytes in input.")),
            Err(Stop::BadFormat) => return Err(a.error("Bad data format in input.")),
            Err(Stop::Stack(msg)) => return Err(stack_error(msg)),
            Err(Stop::Fault(f)) => return Err(f),
        }
        count += 1;
        d.used += 1;
    }
    if !decode_all {
        if d.used + 1 > MAX_C_STACK {
            return Err(stack_error("in function mp_unpack_full"));
        }
        let next = if d.pos == s.len() { -1 } else { d.pos as i64 };
        out.insert(0, Value::Num(next as f64));
    }
    Ok(out)
}

impl Decoder<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Stop> {
        if self.s.len() - self.pos < n {
            return Err(Stop::Eof);
        }
        let bytes = &self.s[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    /// A big-endian unsigned number of `n` bytes.
    fn uint(&mut self, n: usize) -> Result<u64, Stop> {
        Ok(self
            .take(n)?
            .iter()
            .fold(0u64, |acc, &b| (acc << 8) | b as u64))
    }

    fn value(&mut self, depth: usize) -> Result<Value, Stop> {
        self.steps += 1;
        let b = *self.s.get(self.pos).ok_or(Stop::Eof)?;
        self.check_stack(1, TOO_MANY_VALUES)?;
        // Every form needs its whole header before any of it is consumed.
        let need = match b {
            0xcc | 0xd0 | 0xd9 => 2,
            0xcd | 0xd1 | 0xda | 0xdc | 0xde => 3,
            0xce | 0xd2 | 0xca | 0xdb | 0xdd | 0xdf => 5,
            0xcf | 0xd3 | 0xcb => 9,
            _ => 1,
        };
        if self.s.len() - self.pos < need {
            return Err(Stop::Eof);
        }
        self.pos += 1;
        let v = match b {
            0xcc..=0xce => Value::Num(self.uint(need - 1)? as f64),
            // Redis's cmsgpack reads a uint 64 as a signed one: 2^64 - 1 comes back as -1.
            0xcf => Value::Num(self.uint(8)? as i64 as f64),
            0xd0 => Value::Num(self.uint(1)? as u8 as i8 as f64),
            0xd1 => Value::Num(self.uint(2)? as u16 as i16 as f64),
            0xd2 => Value::Num(self.uint(4)? as u32 as i32 as f64),
            0xd3 => Value::Num(self.uint(8)? as i64 as f64),
            0xc0 => Value::Nil,
            0xc3 => Value::Bool(true),
            0xc2 => Value::Bool(false),
            0xca => Value::Num(f32::from_bits(self.uint(4)? as u32) as f64),
            0xcb => Value::Num(f64::from_bits(self.uint(8)?)),
            0xd9..=0xdb => {
                let n = self.uint(need - 1)? as usize;
                Value::str(self.take(n)?)
            }
            0xdc | 0xdd => {
                let n = self.uint(need - 1)? as usize;
                self.array(n, depth)?
            }
            0xde | 0xdf => {
                let n = self.uint(need - 1)? as usize;
                self.map(n, depth)?
            }
            0x00..=0x7f => Value::Num(b as f64),
            0xe0..=0xff => Value::Num(b as i8 as f64),
            0xa0..=0xbf => Value::str(self.take((b & 0x1f) as usize)?),
            0x90..=0x9f => self.array((b & 0xf) as usize, depth)?,
            0x80..=0x8f => self.map((b & 0xf) as usize, depth)?,
            _ => return Err(Stop::BadFormat),
        };
        Ok(v)
    }

    fn nest(&self, depth: usize) -> Result<(), Stop> {
        if depth >= MAX_DECODE_DEPTH {
            return Err(Stop::Stack("in function mp_decode_to_lua_array"));
        }
        Ok(())
    }

    /// `luaL_checkstack(L, n, msg)` with the slots in use now.
    fn check_stack(&self, n: usize, msg: &'static str) -> Result<(), Stop> {
        if self.used + n > MAX_C_STACK {
            return Err(Stop::Stack(msg));
        }
        Ok(())
    }

    fn set(&self, t: &TableRef, k: Value, v: Value) -> Result<(), Stop> {
        let msg = match &k {
            Value::Nil => "table index is nil",
            Value::Num(n) if n.is_nan() => "table index is NaN",
            _ => {
                return t
                    .set(k, v)
                    .map_err(|_| Stop::Fault(memory_error(self.line)))
            }
        };
        Err(Stop::Fault(bare_error(self.line, msg)))
    }

    /// An array's items, decoded with the table and each index on the Lua stack.
    fn array(&mut self, n: usize, depth: usize) -> Result<Value, Stop> {
        self.nest(depth)?;
        let t = TableRef::new();
        self.used += 1;
        self.check_stack(1, "in function mp_decode_to_lua_array")?;
        for i in 1..=n {
            self.used += 1;
            let v = self.value(depth + 1)?;
            self.used -= 1;
            self.set(&t, Value::Num(i as f64), v)?;
        }
        self.used -= 1;
        Ok(Value::Table(t))
    }

    /// A map's pairs, each key decoded with the table on the Lua stack and each value with
    /// the table and its key.
    fn map(&mut self, n: usize, depth: usize) -> Result<Value, Stop> {
        self.nest(depth)?;
        let t = TableRef::new();
        self.used += 1;
        for _ in 0..n {
            let k = self.value(depth + 1)?;
            self.used += 1;
            let v = self.value(depth + 1)?;
            self.used -= 1;
            self.set(&t, k, v)?;
        }
        self.used -= 1;
        Ok(Value::Table(t))
    }
}
