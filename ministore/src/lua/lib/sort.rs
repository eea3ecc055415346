//! `table.sort`: Lua 5.1's own quicksort, step for step — the same comparisons in the same order
//! and the same swaps — so that unstable orders, comparators with side effects and inconsistent
//! comparators ("invalid order function for sorting") behave exactly as in Redis.

use super::super::interp::{memory_error, runtime_error, Fault, Interp};
use super::args::{call_from_lib, Args};
use crate::lua::value::{TableRef, Value};

fn geti(t: &TableRef, i: i64) -> Value {
    t.get(&Value::Num(i as f64))
}

struct Sorter<'t> {
    t: &'t TableRef,
    cmp: Option<Value>,
    line: u32,
}

impl Sorter<'_> {
    fn set(&self, i: i64, v: Value) -> Result<(), Fault> {
        self.t
            .set(Value::Num(i as f64), v)
            .map_err(|_| memory_error(self.line))
    }

    /// Sets `t[i] = vi` and `t[j] = vj` (Lua's `set2` with the values it had on its stack).
    fn set2(&self, i: i64, vi: Value, j: i64, vj: Value) -> Result<(), Fault> {
        self.set(i, vi)?;
        self.set(j, vj)
    }

    /// `a < b` by the comparator, or by Lua's `<` without one.
    fn lt(&self, it: &mut Interp, a: &Value, b: &Value) -> Result<bool, Fault> {
        if let Some(f) = &self.cmp {
            let r = call_from_lib(it, f, vec![a.clone(), b.clone()], self.line)?;
            return Ok(r.first().is_some_and(Value::truthy));
        }
        it.step(self.line)?;
        // Raised inside the C function sort, its errors have no position.
        it.less_than(a, b, self.line)
    }

    fn invalid(&self) -> Fault {
        runtime_error(self.line, "invalid order function for sorting")
    }

    /// Orders `t[l]`, `t[(l+u)/2]` and `t[u]`; false when that sorted the whole range.
    fn median_of_three(&self, it: &mut Interp, l: i64, u: i64) -> Result<bool, Fault> {
        let (al, au) = (geti(self.t, l), geti(self.t, u));
        if self.lt(it, &au, &al)? {
            self.set2(l, au, u, al)?;
        }
        if u - l == 1 {
            return Ok(false);
        }
        let i = (l + u) / 2;
        let (ai, al) = (geti(self.t, i), geti(self.t, l));
        if self.lt(it, &ai, &al)? {
            self.set2(i, al, l, ai)?;
        } else {
            let au = geti(self.t, u);
            if self.lt(it, &au, &ai)? {
                self.set2(i, au, u, ai)?;
            }
        }
        Ok(u - l != 2)
    }

    /// Partitions `l..=u` around the pivot: the pivot's final position.
    fn partition(&self, it: &mut Interp, l: i64, u: i64) -> Result<i64, Fault> {
        let mid = (l + u) / 2;
        let p = geti(self.t, mid);
        self.set2(mid, geti(self.t, u - 1), u - 1, p.clone())?;
        let (mut i, mut j) = (l, u - 1);
        loop {
            let ai = loop {
                i += 1;
                let ai = geti(self.t, i);
                if !self.lt(it, &ai, &p)? {
                    break ai;
                }
                if i > u {
                    return Err(self.invalid());
                }
            };
            let aj = loop {
                j -= 1;
                let aj = geti(self.t, j);
                if !self.lt(it, &p, &aj)? {
                    break aj;
                }
                if j < l {
                    return Err(self.invalid());
                }
            };
            if j < i {
                break;
            }
            self.set2(i, aj, j, ai)?;
        }
        self.set2(u - 1, geti(self.t, i), i, geti(self.t, u - 1))?;
        Ok(i)
    }

    fn auxsort(&self, it: &mut Interp, mut l: i64, mut u: i64) -> Result<(), Fault> {
        while l < u {
            if !self.median_of_three(it, l, u)? {
                break;
            }
            let i = self.partition(it, l, u)?;
            // Recurse into the smaller side, loop on the larger one.
            let (lo, hi);
            if i - l < u - i {
                (lo, hi) = (l, i - 1);
                l = i + 1;
            } else {
                (lo, hi) = (i + 1, u);
                u = i - 1;
            }
            self.auxsort(it, lo, hi)?;
        }
        Ok(())
    }
}

/// `table.sort(t [, comp])`.
pub fn sort(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let t = a.table(1)?;
    let n = t.len() as i64;
    let cmp = match a.v.get(1) {
        None | Some(Value::Nil) => None,
        Some(_) => Some(a.function(2)?),
    };
    let sorter = Sorter {
        t: &t,
        cmp,
        line: a.line,
    };
    sorter.auxsort(it, 1, n)?;
    Ok(Vec::new())
}
