//! Lua values as the interpreter sees them: nil, booleans, doubles, byte strings, tables (array and
//! hash parts), functions and coroutines, with Lua 5.1's number formatting (`%.14g`) and string→number coercion.
//! Values sit below the interpreter: a suspended coroutine keeps the interpreter's records of
//! where it stopped as an opaque [`Continuation`].

use std::any::Any;
use std::cell::{Ref, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use std::sync::Arc;

use super::ast::FuncBody;
use super::handle::{Builtin, Lib};
use super::number::parse_number;
use crate::numtext::format_number_g;

/// Largest string a script may build; past it the script fails with "not enough memory".
pub const MAX_STRING_LEN: usize = 32 * 1024 * 1024;
/// Largest number of entries one table may hold.
pub const MAX_TABLE_ENTRIES: usize = 4 * 1024 * 1024;

/// A shared, mutable variable slot: locals captured by closures share the same cell.
pub type Cell = Rc<RefCell<Value>>;

/// One Lua value.
#[derive(Clone, Debug, Default)]
pub enum Value {
    #[default]
    Nil,
    Bool(bool),
    Num(f64),
    Str(Arc<[u8]>),
    Table(TableRef),
    Func(Rc<Closure>),
    Builtin(Builtin),
    /// One of the read-only library tables (`redis`, `string`, `table`, `math`).
    Lib(Lib),
    /// The light userdata NULL, the only userdata a script meets (`cjson.null`, JSON's null).
    Null,
    /// A coroutine (`coroutine.create`).
    Thread(Rc<Coroutine>),
}

/// A reference to a table; equality is identity, as in Lua.
#[derive(Clone, Debug)]
pub struct TableRef(pub Rc<RefCell<Table>>);

impl TableRef {
    /// A new empty table.
    pub fn new() -> TableRef {
        TableRef(Rc::new(RefCell::new(Table::default())))
    }

    /// Reads `t[key]` raw (without metamethods).
    pub fn get(&self, key: &Value) -> Value {
        self.0.borrow().get(key)
    }

    /// Reads `t.name` for a string key.
    pub fn get_str(&self, name: &str) -> Value {
        self.0.borrow().get_str(name.as_bytes())
    }

    /// Writes `t[key] = value`; fails on a nil/NaN key or a table grown past its cap.
    pub fn set(&self, key: Value, value: Value) -> Result<(), &'static str> {
        self.0.borrow_mut().set(key, value)
    }

    /// The border `#t` (Lua 5.1 semantics for tables without holes: the array length).
    pub fn len(&self) -> usize {
        self.0.borrow().border()
    }

    /// The metatable's field `event` (`__index`, `__add`, …), nil without a metatable.
    pub fn metamethod(&self, event: &str) -> Value {
        match &self.0.borrow().meta {
            Some(meta) => meta.get_str(event),
            None => Value::Nil,
        }
    }
}

impl Default for TableRef {
    fn default() -> Self {
        TableRef::new()
    }
}

/// A user function: its body and the variable cells it captured when it was created.
#[derive(Debug)]
pub struct Closure {
    pub body: Arc<FuncBody>,
    pub captured: Vec<(Arc<str>, Cell)>,
}

/// A coroutine (`coroutine.create`): the function it runs and how far it got. How a coroutine
/// runs, suspends and resumes is the interpreter's business (`interp/coroutine.rs`).
pub struct Coroutine {
    func: Rc<Closure>,
    progress: RefCell<Progress>,
}

impl std::fmt::Debug for Coroutine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Coroutine({:p})", self)
    }
}

/// Where a coroutine stands.
pub enum Progress {
    /// Created and not yet resumed.
    Fresh,
    /// Stopped at a yield, with what it takes to carry on from there.
    Yielded(Continuation),
    /// Running, or resuming another coroutine (then Lua calls it "normal").
    Active,
    /// Returned or failed.
    Dead,
}

/// What a coroutine stopped at a yield needs to carry on: the interpreter's records of the
/// constructs the yield unwound through. Only the interpreter makes and reads them, in a type
/// of its own; a coroutine just keeps them, without knowing that type.
pub struct Continuation(Box<dyn Any>);

impl Continuation {
    /// Keeps the interpreter's records.
    pub fn new<T: Any>(records: T) -> Continuation {
        Continuation(Box::new(records))
    }

    /// The records, when they are the `T` they were kept as.
    pub fn into_records<T: Any>(self) -> Option<T> {
        self.0.downcast().ok().map(|records| *records)
    }
}

impl Coroutine {
    /// A coroutine that will run `func` when first resumed.
    pub fn new(func: Rc<Closure>) -> Rc<Coroutine> {
        Rc::new(Coroutine {
            func,
            progress: RefCell::new(Progress::Fresh),
        })
    }

    /// A coroutine over `func` that has already returned.
    pub fn finished(func: Rc<Closure>) -> Rc<Coroutine> {
        Rc::new(Coroutine {
            func,
            progress: RefCell::new(Progress::Dead),
        })
    }

    /// The function the coroutine runs.
    pub fn function(&self) -> &Rc<Closure> {
        &self.func
    }

    /// Whether it has not been resumed yet.
    pub fn is_fresh(&self) -> bool {
        matches!(*self.progress.borrow(), Progress::Fresh)
    }

    /// Where it stands.
    pub fn progress(&self) -> Ref<'_, Progress> {
        self.progress.borrow()
    }

    /// Moves it on to `next`, handing back where it stood.
    pub fn advance(&self, next: Progress) -> Progress {
        self.progress.replace(next)
    }
}

/// Dropping a table or closure frees what it holds iteratively: a script can build a chain of a
/// million nested tables (`t = {t}` in a loop), and the default recursive drop of such a chain
/// would overflow the native stack.
impl Drop for Table {
    fn drop(&mut self) {
        if self.array.is_empty() && self.hash.is_empty() && self.meta.is_none() {
            return;
        }
        let mut pending: Vec<Value> = std::mem::take(&mut self.array);
        if let Some(meta) = self.meta.take() {
            pending.push(Value::Table(meta));
        }
        for (k, v) in std::mem::take(&mut self.hash) {
            pending.push(k);
            pending.push(v);
        }
        drain(pending);
    }
}

impl Drop for Closure {
    fn drop(&mut self) {
        let pending: Vec<Value> = self
            .captured
            .drain(..)
            .filter_map(|(_, cell)| Rc::try_unwrap(cell).ok().map(RefCell::into_inner))
            .collect();
        drain(pending);
    }
}

/// Drops values one at a time, first emptying any table or closure that this is the last
/// reference to, so that nested structures never drop recursively.
fn drain(mut pending: Vec<Value>) {
    while let Some(v) = pending.pop() {
        match v {
            Value::Table(t) => {
                if let Ok(cell) = Rc::try_unwrap(t.0) {
                    let mut table = cell.into_inner();
                    pending.append(&mut table.array);
                    if let Some(meta) = table.meta.take() {
                        pending.push(Value::Table(meta));
                    }
                    for (k, v) in std::mem::take(&mut table.hash) {
                        pending.push(k);
                        pending.push(v);
                    }
                }
            }
            Value::Func(f) => {
                if let Ok(mut closure) = Rc::try_unwrap(f) {
                    for (_, cell) in closure.captured.drain(..) {
                        if let Ok(cell) = Rc::try_unwrap(cell) {
                            pending.push(cell.into_inner());
                        }
                    }
                }
            }
            other => drop(other),
        }
    }
}

/// A hashable table key (numbers by bit pattern after normalising -0, objects by address).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Bool(bool),
    Num(u64),
    Str(Arc<[u8]>),
    Obj(usize),
}

/// A fast hasher for table keys (FxHash's multiply-rotate, seeded per thread, with a full
/// avalanche at the end). It saves seeding a SipHash state for every table a script creates, and
/// the final mix matters: integral doubles have all-zero low bits, which without it would send
/// every sparse numeric key to the same bucket.
#[derive(Clone, Copy)]
pub struct KeyHasher(u64);

thread_local! {
    static KEY_SEED: u64 = {
        use std::hash::BuildHasher;
        std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64)
    };
}

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher(KEY_SEED.with(|s| *s))
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        // murmur3's fmix64.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// A table: a dense array part for keys 1..n and an insertion-ordered hash part for the rest,
/// its metatable, and whether scripts may write it (`_G` may not).
#[derive(Debug, Default)]
pub struct Table {
    pub array: Vec<Value>,
    /// The table `setmetatable` gave it.
    pub meta: Option<TableRef>,
    /// A globals table (`_G`): writes fail with "Attempt to modify a readonly table", and reading
    /// a global nobody defined is Redis's error.
    pub readonly: bool,
    /// Writes fail as on `_G`, reads are plain: the metatables Redis locks, the one all strings
    /// share and `_G`'s own.
    pub locked: bool,
    hash_index: HashMap<Key, usize, BuildHasherDefault<KeyHasher>>,
    hash: Vec<(Value, Value)>,
    live_hash: usize,
    /// The longest the array part has been. Lua's array part keeps its slots when values in it
    /// are set to nil, so `next` goes on from a key that was cleared there, as it goes on from
    /// a cleared hash key (whose entry stays, with a nil value).
    array_reach: usize,
}

/// Iteration cursors at or above this are positions in the hash part; below, in the array part.
/// So a hash entry's cursor does not move when the array part shrinks during a traversal.
const HASH_CURSORS: usize = usize::MAX / 2;

impl Table {
    /// Whether a script's writes to this table are refused.
    pub fn refuses_writes(&self) -> bool {
        self.readonly || self.locked
    }

    fn key_of(key: &Value) -> Option<Key> {
        Some(match key {
            Value::Nil => return None,
            Value::Bool(b) => Key::Bool(*b),
            Value::Num(n) => {
                if n.is_nan() {
                    return None;
                }
                Key::Num(if *n == 0.0 { 0 } else { n.to_bits() })
            }
            Value::Str(s) => Key::Str(s.clone()),
            Value::Table(t) => Key::Obj(Rc::as_ptr(&t.0) as *const u8 as usize),
            Value::Func(f) => Key::Obj(Rc::as_ptr(f) as *const u8 as usize),
            Value::Builtin(b) => Key::Num(u64::MAX - b.id()),
            Value::Lib(l) => Key::Num(u64::MAX - 1000 - *l as u64),
            Value::Null => Key::Obj(0),
            Value::Thread(co) => Key::Obj(Rc::as_ptr(co) as *const u8 as usize),
        })
    }

    fn array_slot(key: &Value) -> Option<usize> {
        if let Value::Num(n) = key {
            // The cast round trip is an integer test without a call to `trunc`.
            if *n >= 1.0 && *n <= (usize::MAX / 2) as f64 && (*n as usize) as f64 == *n {
                return Some(*n as usize - 1);
            }
        }
        None
    }

    /// Raw read.
    pub fn get(&self, key: &Value) -> Value {
        if let Some(i) = Self::array_slot(key) {
            if i < self.array.len() {
                return self.array[i].clone();
            }
        }
        match Self::key_of(key) {
            Some(k) => match self.hash_index.get(&k) {
                Some(&i) => self.hash[i].1.clone(),
                None => Value::Nil,
            },
            None => Value::Nil,
        }
    }

    /// Raw read of a string key.
    pub fn get_str(&self, name: &[u8]) -> Value {
        if self.hash.len() <= 8 {
            // Small tables (reply tables, records) are scanned rather than hashed: no allocation.
            return self
                .hash
                .iter()
                .find(|(k, _)| matches!(k, Value::Str(s) if &s[..] == name))
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
        }
        match self.hash_index.get(&Key::Str(Arc::from(name))) {
            Some(&i) => self.hash[i].1.clone(),
            None => Value::Nil,
        }
    }

    fn entries(&self) -> usize {
        self.array.len() + self.live_hash
    }

    /// Raw write.
    pub fn set(&mut self, key: Value, value: Value) -> Result<(), &'static str> {
        if let Some(i) = Self::array_slot(&key) {
            if i < self.array.len() {
                self.array[i] = value;
                if i + 1 == self.array.len() {
                    self.trim_array();
                }
                return Ok(());
            }
            if i == self.array.len() {
                if value.is_nil() {
                    return Ok(());
                }
                if self.entries() >= MAX_TABLE_ENTRIES {
                    return Err("not enough memory");
                }
                self.array.push(value);
                self.migrate_from_hash();
                return Ok(());
            }
        }
        let k = match Self::key_of(&key) {
            Some(k) => k,
            None => {
                return Err(if key.is_nil() {
                    "table index is nil"
                } else {
                    "table index is NaN"
                })
            }
        };
        match self.hash_index.get(&k) {
            Some(&i) => {
                let was_live = !self.hash[i].1.is_nil();
                let now_live = !value.is_nil();
                self.hash[i].1 = value;
                if was_live && !now_live {
                    self.live_hash -= 1;
                } else if !was_live && now_live {
                    self.live_hash += 1;
                }
            }
            None => {
                if value.is_nil() {
                    return Ok(());
                }
                if self.entries() >= MAX_TABLE_ENTRIES {
                    return Err("not enough memory");
                }
                self.hash_index.insert(k, self.hash.len());
                self.hash.push((key, value));
                self.live_hash += 1;
            }
        }
        Ok(())
    }

    /// Drops the array part's trailing nils, remembering how far it reached.
    fn trim_array(&mut self) {
        self.array_reach = self.array_reach.max(self.array.len());
        while matches!(self.array.last(), Some(Value::Nil)) {
            self.array.pop();
        }
    }

    /// Moves keys n+1, n+2, … from the hash part into the array part after the array grew.
    fn migrate_from_hash(&mut self) {
        if self.live_hash == 0 {
            return;
        }
        loop {
            let next = Value::Num((self.array.len() + 1) as f64);
            let Some(k) = Self::key_of(&next) else { return };
            let Some(&i) = self.hash_index.get(&k) else {
                return;
            };
            if self.hash[i].1.is_nil() {
                return;
            }
            let v = std::mem::take(&mut self.hash[i].1);
            self.live_hash -= 1;
            self.array.push(v);
        }
    }

    /// Stores a table constructor's positional items at keys 1..=n. Lua 5.1 sizes the array
    /// part for exactly these items, nils included, so `#{1, nil, 3}` is 3 and `#{nil, 2, nil}`
    /// is 0 (its binary search for a border). The array part here never ends in nil, so it is
    /// cut at the border Lua's `#` finds and any item after it moves to the hash part.
    pub fn set_positional(&mut self, items: Vec<Value>) -> Result<(), &'static str> {
        if items.is_empty() {
            return Ok(());
        }
        if self.entries().saturating_add(items.len()) > MAX_TABLE_ENTRIES {
            return Err("not enough memory");
        }
        // Positional items win over keyed fields for the same keys (`{[1] = 'a', 'b'}`).
        if self.live_hash > 0 {
            for k in 1..=items.len() {
                if let Some(key) = Self::key_of(&Value::Num(k as f64)) {
                    if let Some(&h) = self.hash_index.get(&key) {
                        if !self.hash[h].1.is_nil() {
                            self.hash[h].1 = Value::Nil;
                            self.live_hash -= 1;
                        }
                    }
                }
            }
        }
        let n = items.len();
        if self.array.len() > n {
            for (slot, v) in self.array.iter_mut().zip(items) {
                *slot = v;
            }
            return Ok(());
        }
        self.array = items;
        if self.array[n - 1].is_nil() {
            // luaH_getn's binary search in the array part: a border `i` with t[i] non-nil
            // (or i = 0) and t[i+1] nil.
            let (mut i, mut j) = (0usize, n);
            while j - i > 1 {
                let m = (i + j) / 2;
                if self.array[m - 1].is_nil() {
                    j = m;
                } else {
                    i = m;
                }
            }
            let rest = self.array.split_off(i);
            for (offset, v) in rest.into_iter().enumerate() {
                if !v.is_nil() {
                    self.set(Value::Num((i + offset + 1) as f64), v)?;
                }
            }
        }
        self.migrate_from_hash();
        Ok(())
    }

    /// `#t`: the array part's length (trailing nils are trimmed on write).
    pub fn border(&self) -> usize {
        self.array.len()
    }

    /// The entry after position `pos` in iteration order (array part first, then the hash part),
    /// as (next position, key, value). Positions are opaque cursors used by `pairs`, starting
    /// from 0.
    pub fn next_from(&self, pos: usize) -> Option<(usize, Value, Value)> {
        let mut h = match pos.checked_sub(HASH_CURSORS) {
            Some(h) => h,
            None => {
                let mut p = pos;
                while p < self.array.len() {
                    if !self.array[p].is_nil() {
                        return Some((p + 1, Value::Num((p + 1) as f64), self.array[p].clone()));
                    }
                    p += 1;
                }
                0
            }
        };
        while h < self.hash.len() {
            let (k, v) = &self.hash[h];
            if !v.is_nil() {
                // A key that migrated to the array part is skipped here (its value was taken).
                return Some((HASH_CURSORS + h + 1, k.clone(), v.clone()));
            }
            h += 1;
        }
        None
    }

    /// The live entries of the hash part, in iteration order.
    pub fn hash_entries(&self) -> impl Iterator<Item = &(Value, Value)> {
        self.hash.iter().filter(|(_, v)| !v.is_nil())
    }

    /// A table laid out exactly as given: `hash` as [`Table::hash_entries`] listed it, so that
    /// a rebuilt table iterates in the same order as the one it copies.
    pub fn from_parts(
        array: Vec<Value>,
        hash: Vec<(Value, Value)>,
        meta: Option<TableRef>,
        readonly: bool,
    ) -> Table {
        let hash_index = hash
            .iter()
            .enumerate()
            .filter_map(|(i, (k, _))| Some((Self::key_of(k)?, i)))
            .collect();
        Table {
            array,
            meta,
            readonly,
            hash_index,
            live_hash: hash.len(),
            hash,
            array_reach: 0,
            locked: false,
        }
    }

    /// The iteration cursor just past `key` (for `next`), or None when the key is not in the table.
    pub fn cursor_after(&self, key: &Value) -> Option<usize> {
        let slot = Self::array_slot(key);
        if let Some(i) = slot.filter(|&i| i < self.array.len()) {
            return Some(i + 1);
        }
        // A key set again after the array part shrank lives in the hash part now.
        let k = Self::key_of(key)?;
        if let Some(&h) = self.hash_index.get(&k) {
            return Some(HASH_CURSORS + h + 1);
        }
        // A slot cleared since the array part reached past it.
        slot.filter(|&i| i < self.array_reach).map(|i| i + 1)
    }

    /// Inserts `value` at 1-based `pos` of the array part, shifting the rest up (`table.insert`).
    pub fn insert_at(&mut self, pos: usize, value: Value) -> Result<(), &'static str> {
        if self.entries() >= MAX_TABLE_ENTRIES {
            return Err("not enough memory");
        }
        let idx = pos.saturating_sub(1).min(self.array.len());
        self.array.insert(idx, value);
        self.trim_array();
        self.migrate_from_hash();
        Ok(())
    }

    /// Removes and returns the element at 1-based `pos`, shifting the rest down (`table.remove`).
    pub fn remove_at(&mut self, pos: usize) -> Value {
        if pos == 0 || pos > self.array.len() {
            return Value::Nil;
        }
        self.array_reach = self.array_reach.max(self.array.len());
        self.array.remove(pos - 1)
    }
}

impl Value {
    /// A string value from bytes.
    pub fn str(bytes: &[u8]) -> Value {
        Value::Str(Arc::from(bytes))
    }

    /// Extra steps an operation on this value costs: one per KiB of string, so that a script
    /// cannot do unbounded work per step by handling huge strings.
    pub fn weight(&self) -> u64 {
        match self {
            Value::Str(s) => (s.len() / 1024) as u64,
            _ => 0,
        }
    }

    /// True for nil.
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// Lua truthiness: only nil and false are false.
    pub fn truthy(&self) -> bool {
        !matches!(self, Value::Nil | Value::Bool(false))
    }

    /// The name `type()` returns.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Num(_) => "number",
            Value::Str(_) => "string",
            Value::Table(_) | Value::Lib(_) => "table",
            Value::Func(_) | Value::Builtin(_) => "function",
            Value::Null => "userdata",
            Value::Thread(_) => "thread",
        }
    }

    /// The number this value is or coerces to (numeric strings), as Lua arithmetic sees it.
    pub fn to_number(&self) -> Option<f64> {
        match self {
            Value::Num(n) => Some(*n),
            Value::Str(s) => parse_number(s),
            _ => None,
        }
    }

    /// The string this value is or coerces to (numbers, `%.14g`), as `..` and the string library see it.
    pub fn to_str_bytes(&self) -> Option<Arc<[u8]>> {
        match self {
            Value::Str(s) => Some(s.clone()),
            Value::Num(n) => Some(Arc::from(format_number(*n).as_bytes())),
            _ => None,
        }
    }

    /// Lua's raw equality.
    pub fn raw_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Nil, Value::Nil) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Num(a), Value::Num(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Table(a), Value::Table(b)) => Rc::ptr_eq(&a.0, &b.0),
            (Value::Func(a), Value::Func(b)) => Rc::ptr_eq(a, b),
            (Value::Builtin(a), Value::Builtin(b)) => a == b,
            (Value::Lib(a), Value::Lib(b)) => a == b,
            (Value::Null, Value::Null) => true,
            (Value::Thread(a), Value::Thread(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// What `tostring` prints.
    pub fn to_display(&self) -> Vec<u8> {
        match self {
            Value::Nil => b"nil".to_vec(),
            Value::Bool(b) => {
                if *b {
                    b"true".to_vec()
                } else {
                    b"false".to_vec()
                }
            }
            Value::Num(n) => format_number(*n).into_bytes(),
            Value::Str(s) => s.to_vec(),
            Value::Table(t) => format!("table: {:p}", Rc::as_ptr(&t.0)).into_bytes(),
            Value::Func(f) => format!("function: {:p}", Rc::as_ptr(f)).into_bytes(),
            // Lua prints C functions by address too; a stable pseudo-address per builtin.
            Value::Builtin(b) => {
                format!("function: 0x{:08x}", 0x1000 + b.id() as usize * 16).into_bytes()
            }
            Value::Lib(l) => format!("table: 0x{:08x}", 0x2000 + *l as usize * 16).into_bytes(),
            // glibc prints a null pointer as "(nil)".
            Value::Null => b"userdata: (nil)".to_vec(),
            Value::Thread(co) => format!("thread: {:p}", Rc::as_ptr(co)).into_bytes(),
        }
    }
}

/// Formats a number as Lua 5.1 does (`%.14g`): 3 → "3", 0.1 → "0.1", 1e100 → "1e+100".
pub fn format_number(n: f64) -> String {
    format_number_g(n, 14)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lua::number::number_to_integer;

    #[test]
    fn numbers_print_like_lua_5_1() {
        assert_eq!(format_number(3.0), "3");
        assert_eq!(format_number(0.1), "0.1");
        assert_eq!(format_number(1e100), "1e+100");
        assert_eq!(format_number(1e15), "1e+15");
        assert_eq!(format_number(123456789012345.0), "1.2345678901234e+14");
        assert_eq!(format_number(2f64.powi(53)), "9.007199254741e+15");
        assert_eq!(format_number(1e-5), "1e-05");
        assert_eq!(format_number(-2.5e-10), "-2.5e-10");
        assert_eq!(format_number(0.1 + 0.2), "0.3");
        assert_eq!(format_number(12.5), "12.5");
        assert_eq!(format_number(-0.0), "-0");
        assert_eq!(format_number(f64::INFINITY), "inf");
    }

    #[test]
    fn strings_coerce_to_numbers_like_lua() {
        assert_eq!(parse_number(b"10"), Some(10.0));
        assert_eq!(parse_number(b" 12 "), Some(12.0));
        assert_eq!(parse_number(b"0x10"), Some(16.0));
        assert_eq!(parse_number(b"1e3"), Some(1000.0));
        assert_eq!(parse_number(b"abc"), None);
        assert_eq!(parse_number(b""), None);
        assert_eq!(parse_number(b"1 2"), None);
    }

    #[test]
    fn strings_read_as_glibcs_strtod_reads_them() {
        assert_eq!(parse_number(b"0x1p4"), Some(16.0));
        assert_eq!(parse_number(b"0X1P-2"), Some(0.25));
        assert_eq!(parse_number(b"-0x1.8p1"), Some(-3.0));
        assert_eq!(parse_number(b"\t-inf\n"), Some(f64::NEG_INFINITY));
        assert!(parse_number(b"nan(1)").is_some_and(f64::is_nan));
        assert!(parse_number(b"-nan").is_some_and(|n| n.is_nan() && n.is_sign_negative()));
        // What strtod leaves unread must be whitespace; a NUL ends the C string.
        for rejected in [&b"0x"[..], b"0x1p", b"1e", b"1e+", b".", b"nan(", b"5 x"] {
            assert_eq!(parse_number(rejected), None, "{rejected:?}");
        }
        assert_eq!(parse_number(b"7\0junk"), Some(7.0));
    }

    #[test]
    fn out_of_range_numbers_convert_to_the_minimum_integer() {
        assert_eq!(number_to_integer(3.99), 3);
        assert_eq!(number_to_integer(-3.99), -3);
        assert_eq!(number_to_integer(1e300), i64::MIN);
        assert_eq!(number_to_integer(f64::NAN), i64::MIN);
    }

    #[test]
    fn sparse_numeric_keys_spread_over_the_hash_part() {
        // 20k keys far beyond the array part: quadratic probing would make this take seconds.
        let mut t = Table::default();
        for i in 0..20_000 {
            t.set(Value::Num(1e9 + (i as f64) * 1024.0), Value::Num(i as f64))
                .unwrap();
        }
        assert_eq!(
            t.get(&Value::Num(1e9 + 1024.0 * 19_999.0)).to_number(),
            Some(19_999.0)
        );
    }

    #[test]
    fn a_long_chain_of_nested_tables_drops_without_recursion() {
        let mut t = Value::Table(TableRef::new());
        for _ in 0..1_000_000 {
            let outer = TableRef::new();
            outer.set(Value::Num(1.0), t).unwrap();
            outer.set(Value::str(b"next"), Value::Nil).unwrap();
            t = Value::Table(outer);
        }
        drop(t);
    }

    #[test]
    fn constructor_items_with_holes_give_lua_5_1_borders() {
        let border = |items: Vec<Value>| {
            let mut t = Table::default();
            t.set_positional(items).unwrap();
            t.border()
        };
        let n = |x: f64| Value::Num(x);
        assert_eq!(border(vec![n(1.0), Value::Nil, n(3.0)]), 3);
        assert_eq!(border(vec![Value::Nil, Value::Nil, n(3.0)]), 3);
        assert_eq!(border(vec![Value::Nil, n(2.0), Value::Nil]), 0);
        assert_eq!(border(vec![n(1.0), Value::Nil]), 1);
        // An item cut off by the border stays readable from the hash part.
        let mut t = Table::default();
        t.set_positional(vec![Value::Nil, n(2.0), Value::Nil])
            .unwrap();
        assert_eq!(t.get(&n(2.0)).to_number(), Some(2.0));
    }

    #[test]
    fn array_part_absorbs_hash_keys_when_it_reaches_them() {
        let mut t = Table::default();
        t.set(Value::Num(2.0), Value::str(b"b")).unwrap();
        t.set(Value::Num(1.0), Value::str(b"a")).unwrap();
        assert_eq!(t.border(), 2);
        t.set(Value::Num(2.0), Value::Nil).unwrap();
        assert_eq!(t.border(), 1);
    }
}
