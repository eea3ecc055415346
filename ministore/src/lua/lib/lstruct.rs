//! `struct` as Redis ships it (Roberto Ierusalimschy's struct 0.2 on x86-64): `pack`, `unpack`
//! and `size` with the format letters `> < ! x b B h H l L T i I f d s c` and a space, native
//! little-endian order and alignment, and the library's errors.

use super::super::interp::{memory_error, Fault, Interp};
use super::args::{one, Args, Site};
use crate::lua::handle::Builtin;
use crate::lua::number::number_to_integer;
use crate::lua::value::{Value, MAX_STRING_LEN};

pub use crate::lua::handle::StructFunc as Func;

/// Largest integer size in bytes.
const MAX_INT_SIZE: usize = 32;
/// `!` without a number: the platform's largest alignment.
const MAX_ALIGN: usize = 8;

/// The byte order and alignment in force.
struct Header {
    little: bool,
    align: usize,
}

/// A format being read: the text (up to its first NUL, as C reads it) and the position.
struct Format<'f> {
    f: &'f [u8],
    i: usize,
}

impl Format<'_> {
    fn peek(&self) -> u8 {
        self.f.get(self.i).copied().unwrap_or(0)
    }

    /// A number in the format, or `default` when none follows.
    fn num(&mut self, a: &Args, default: usize) -> Result<usize, Fault> {
        if !self.peek().is_ascii_digit() {
            return Ok(default);
        }
        let mut n: i64 = 0;
        while self.peek().is_ascii_digit() {
            let d = (self.peek() - b'0') as i64;
            if n > i32::MAX as i64 / 10 || n * 10 > i32::MAX as i64 - d {
                return Err(a.error("integral size overflow"));
            }
            n = n * 10 + d;
            self.i += 1;
        }
        Ok(n as usize)
    }

    /// The size of the item `opt` (reading its count).
    fn size(&mut self, a: &Args, opt: u8) -> Result<usize, Fault> {
        Ok(match opt {
            b'B' | b'b' | b'x' => 1,
            b'H' | b'h' => 2,
            b'L' | b'l' | b'T' | b'd' => 8,
            b'f' => 4,
            b'c' => self.num(a, 1)?,
            b'i' | b'I' => {
                let sz = self.num(a, 4)?;
                if sz > MAX_INT_SIZE {
                    return Err(a.error(&format!(
                        "integral size {} is larger than limit of {}",
                        sz, MAX_INT_SIZE
                    )));
                }
                sz
            }
            _ => 0,
        })
    }
}

/// Padding needed before an item of `size` at `len`.
fn to_align(len: usize, h: &Header, opt: u8, size: usize) -> usize {
    if size == 0 || opt == b'c' {
        return 0;
    }
    let size = size.min(h.align);
    (size - (len & (size - 1))) & (size - 1)
}

/// The options that set byte order and alignment; any other letter is an error.
fn control(a: &Args, opt: u8, fmt: &mut Format, h: &mut Header) -> Result<(), Fault> {
    match opt {
        b' ' => {}
        b'>' => h.little = false,
        b'<' => h.little = true,
        b'!' => {
            let n = fmt.num(a, MAX_ALIGN)?;
            if !n.is_power_of_two() {
                return Err(a.error(&format!("alignment {} is not a power of 2", n)));
            }
            h.align = n;
        }
        _ => {
            let mut msg = b"invalid format option '".to_vec();
            msg.push(opt);
            msg.extend_from_slice(b"'");
            return Err(a.bad(1, &String::from_utf8_lossy(&msg)));
        }
    }
    Ok(())
}

/// Runs a `struct.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let a = Args::new(&args, Builtin::Struct(f), site);
    let fmt = a.string(1)?;
    let fmt = fmt.split(|&c| c == 0).next().unwrap_or_default();
    it.charge(fmt.len() as u64, a.line)?;
    let mut fmt = Format { f: fmt, i: 0 };
    let mut h = Header {
        little: true,
        align: 1,
    };
    match f {
        Func::Pack => pack(&a, &mut fmt, &mut h),
        Func::Unpack => unpack(&a, &mut fmt, &mut h),
        Func::Size => {
            let mut pos = 0usize;
            while fmt.i < fmt.f.len() {
                let opt = fmt.f[fmt.i];
                fmt.i += 1;
                let size = fmt.size(&a, opt)?;
                pos = pos.saturating_add(to_align(pos, &h, opt, size));
                if opt == b's' {
                    return Err(a.bad(1, "option 's' has no fixed size"));
                }
                if opt == b'c' && size == 0 {
                    return Err(a.bad(1, "option 'c0' has no fixed size"));
                }
                if !opt.is_ascii_alphanumeric() {
                    control(&a, opt, &mut fmt, &mut h)?;
                }
                pos = pos.saturating_add(size);
            }
            one(Value::Num(pos as f64))
        }
    }
}

/// C's `(unsigned long)` of a double as x86-64 code computes it.
fn double_to_u64(x: f64) -> u64 {
    const TWO63: f64 = 9_223_372_036_854_775_808.0;
    if x.is_nan() || x < TWO63 {
        number_to_integer(x) as u64
    } else {
        (number_to_integer(x - TWO63) as u64) ^ (1 << 63)
    }
}

/// Argument `n` of `pack` must be there: the first one past the end reads as nil (pack keeps a
/// nil on the stack after its arguments).
fn present(a: &Args, n: usize, what: &str) -> Result<(), Fault> {
    if n == a.v.len() + 1 {
        return Err(a.bad(n, &format!("{} expected, got nil", what)));
    }
    Ok(())
}

fn pack(a: &Args, fmt: &mut Format, h: &mut Header) -> Result<Vec<Value>, Fault> {
    let mut out: Vec<u8> = Vec::new();
    let mut arg = 2;
    while fmt.i < fmt.f.len() {
        let opt = fmt.f[fmt.i];
        fmt.i += 1;
        let size = fmt.size(a, opt)?;
        let pad = to_align(out.len(), h, opt, size);
        out.resize(out.len() + pad, 0);
        match opt {
            b'b' | b'B' | b'h' | b'H' | b'l' | b'L' | b'T' | b'i' | b'I' => {
                present(a, arg, "number")?;
                let n = a.number(arg)?;
                arg += 1;
                let mut v = if n < 0.0 {
                    number_to_integer(n) as u64
                } else {
                    double_to_u64(n)
                };
                let mut bytes = vec![0u8; size];
                for k in 0..size {
                    let slot = if h.little { k } else { size - 1 - k };
                    bytes[slot] = v as u8;
                    v = v.checked_shr(8).unwrap_or(0);
                }
                out.extend_from_slice(&bytes);
            }
            b'x' => out.push(0),
            b'f' | b'd' => {
                present(a, arg, "number")?;
                let n = a.number(arg)?;
                arg += 1;
                let bytes = if opt == b'f' {
                    (n as f32).to_bits().to_le_bytes().to_vec()
                } else {
                    n.to_bits().to_le_bytes().to_vec()
                };
                if h.little {
                    out.extend_from_slice(&bytes);
                } else {
                    out.extend(bytes.iter().rev());
                }
            }
            b'c' | b's' => {
                present(a, arg, "string")?;
                let s = a.string(arg)?;
                arg += 1;
                let size = if size == 0 { s.len() } else { size };
                if s.len() < size {
                    // Lua reports the argument after the string (its counter moved on).
                    return Err(a.bad(arg, "string too short"));
                }
                out.extend_from_slice(&s[..size]);
                if opt == b's' {
                    out.push(0);
                }
            }
            _ => control(a, opt, fmt, h)?,
        }
        if out.len() > MAX_STRING_LEN {
            return Err(memory_error(a.line));
        }
    }
    one(Value::str(&out))
}

/// An integer of `bytes` in the given order, sign-extended as struct does (its mask shifts
/// wrap at 64 bits as x86 shifts do).
fn get_integer(bytes: &[u8], little: bool, signed: bool) -> f64 {
    let mut l: u64 = 0;
    let mut push = |b: u8| l = (l << 8) | b as u64;
    if little {
        bytes.iter().rev().for_each(|&b| push(b));
    } else {
        bytes.iter().for_each(|&b| push(b));
    }
    if !signed {
        return l as f64;
    }
    let mask = u64::MAX << ((bytes.len() * 8).wrapping_sub(1) % 64);
    if l & mask != 0 {
        l |= mask;
    }
    l as i64 as f64
}

/// Lua 5.1's `LUAI_MAXCSTACK`: the most stack slots a C function may use.
const MAX_C_STACK: usize = 8000;

fn unpack(a: &Args, fmt: &mut Format, h: &mut Header) -> Result<Vec<Value>, Fault> {
    let data = a.string(2)?;
    let start = a.opt_int(3, 1)?;
    // The position is a C size_t: only 0 is refused here, the rest wrap and fail below.
    if start == 0 {
        return Err(a.bad(3, "offset must be 1 or greater"));
    }
    let ld = data.len() as u64;
    let mut pos = (start as u64).wrapping_sub(1);
    let fits = |pos: u64, size: u64| size <= ld && pos <= ld - size;
    let mut out: Vec<Value> = Vec::new();
    while fmt.i < fmt.f.len() {
        let opt = fmt.f[fmt.i];
        fmt.i += 1;
        let mut size = fmt.size(a, opt)? as u64;
        pos = pos.wrapping_add(to_align(pos as usize, h, opt, size as usize) as u64);
        if !fits(pos, size) {
            return Err(a.bad(2, "data string too short"));
        }
        // `luaL_checkstack(L, 2, …)`: the arguments and the results so far, with room for
        // this item and the position, must fit Lua's C stack.
        if a.v.len() + out.len() + 2 > MAX_C_STACK {
            return Err(a.error("stack overflow (too many results)"));
        }
        let at = pos as usize;
        match opt {
            b'b' | b'B' | b'h' | b'H' | b'l' | b'L' | b'T' | b'i' | b'I' => {
                let signed = opt.is_ascii_lowercase();
                let bytes = &data[at..at + size as usize];
                out.push(Value::Num(get_integer(bytes, h.little, signed)));
            }
            b'x' => {}
            b'f' | b'd' => {
                let mut bytes = data[at..at + size as usize].to_vec();
                if !h.little {
                    bytes.reverse();
                }
                let n = if opt == b'f' {
                    f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f64
                } else {
                    let mut b8 = [0u8; 8];
                    b8.copy_from_slice(&bytes);
                    f64::from_le_bytes(b8)
                };
                out.push(Value::Num(n));
            }
            b'c' => {
                if size == 0 {
                    let Some(n) = out.last().and_then(Value::to_number) else {
                        return Err(a.error("format 'c0' needs a previous size"));
                    };
                    out.pop();
                    size = double_to_u64(n);
                    if !fits(pos, size) {
                        return Err(a.bad(2, "data string too short"));
                    }
                }
                out.push(Value::str(&data[at..at + size as usize]));
            }
            b's' => {
                let Some(end) = data[at..].iter().position(|&c| c == 0) else {
                    return Err(a.error("unfinished string in data"));
                };
                out.push(Value::str(&data[at..at + end]));
                size = end as u64 + 1;
            }
            _ => control(a, opt, fmt, h)?,
        }
        pos = pos.wrapping_add(size);
    }
    out.push(Value::Num(pos.wrapping_add(1) as i64 as f64));
    Ok(out)
}
