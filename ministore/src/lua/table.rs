//! A Lua table laid out as Lua 5.1's `ltable.c` lays it out, so that what depends on the layout
//! reads as in Redis: the order `next`, `pairs`, `cjson.encode` and map replies go through a
//! table's keys, and the border `#t` finds in a table with holes.
//!
//! The array part holds keys 1..=n for an n that only a rehash changes; the node part is a
//! power-of-two vector of nodes, each key at its main position (the key's hash modulo the size)
//! or chained from it through a free node taken from the top down. A key set to nil keeps its
//! node ("dead") until the next rehash, which happens only when a new key finds no free node,
//! and then sizes both parts again from the integer keys in use. Hashes are Lua's: Redis's
//! string hash over every byte, a double's two words added, booleans as 0/1, and an object's
//! address.

use std::rc::Rc;

use super::value::{TableRef, Value};

/// Largest number of slots (array part and nodes) one table may hold.
pub const MAX_TABLE_ENTRIES: usize = 4 * 1024 * 1024;

/// Lua's `MAXBITS`: array indices counted per power of two.
const MAXBITS: usize = 26;

/// The end of a node chain.
const NO_NEXT: u32 = u32::MAX;

/// One node of the hash part. A free node has a nil key; a dead one a key and a nil value.
#[derive(Debug, Clone, Default)]
pub struct Node {
    pub key: Value,
    pub val: Value,
    next: u32,
    /// The key's hash ([`key_hash`]), kept as Lua keeps a string's: a long string key is hashed
    /// once, not at every lookup, collision and rehash.
    hash: u32,
}

impl Node {
    fn free() -> Node {
        Node {
            key: Value::Nil,
            val: Value::Nil,
            next: NO_NEXT,
            hash: 0,
        }
    }

    /// The node after this one in its chain.
    pub fn next(&self) -> Option<usize> {
        (self.next != NO_NEXT).then_some(self.next as usize)
    }
}

/// A table: its array and node parts, its metatable, and whether scripts may write it.
#[derive(Debug, Default)]
pub struct Table {
    array: Vec<Value>,
    /// Empty for Lua's shared `dummynode` (no hash part).
    nodes: Vec<Node>,
    /// Free nodes are searched for below this index.
    last_free: usize,
    /// The table `setmetatable` gave it.
    pub meta: Option<TableRef>,
    /// A globals table (`_G`): writes fail with "Attempt to modify a readonly table", and reading
    /// a global nobody defined is Redis's error.
    pub readonly: bool,
    /// Writes fail as on `_G`, reads are plain: the metatables Redis locks, the one all strings
    /// share and `_G`'s own.
    pub locked: bool,
}

/// Where a key lives.
enum Slot {
    Array(usize),
    Node(usize),
}

/// Redis's Lua string hash (`luaS_newlstr`, every byte hashed).
fn string_hash(s: &[u8]) -> u32 {
    let mut h = s.len() as u32;
    for &b in s.iter().rev() {
        h ^= (h << 5).wrapping_add(h >> 2).wrapping_add(u32::from(b));
    }
    h
}

/// The address Lua would hash an object by. Builtins and library tables have none of their
/// own here: they take the pseudo-addresses `tostring` prints for them.
fn address(key: &Value) -> u32 {
    match key {
        Value::Table(t) => Rc::as_ptr(&t.0) as *const u8 as usize as u32,
        Value::Func(f) => Rc::as_ptr(f) as *const u8 as usize as u32,
        Value::Thread(co) => Rc::as_ptr(co) as *const u8 as usize as u32,
        Value::Builtin(b) => 0x1000 + b.id() as u32 * 16,
        Value::Lib(l) => 0x2000 + *l as u32 * 16,
        _ => 0,
    }
}

/// A key's hash before it is reduced to a node: Redis's string hash, a double's two words
/// added (0 for both zeros, which Lua sends to node 0), a boolean as 0/1, an object's address.
fn key_hash(key: &Value) -> u32 {
    match key {
        Value::Num(n) if *n == 0.0 => 0,
        Value::Num(n) => {
            let bits = n.to_bits();
            (bits as u32).wrapping_add((bits >> 32) as u32)
        }
        Value::Str(s) => string_hash(s),
        Value::Bool(b) => u32::from(*b),
        other => address(other),
    }
}

/// The 1-based array index `key` is, if it is an integer in C int range (`arrayindex`).
fn array_index(key: &Value) -> Option<u32> {
    match key {
        // The cast round trip is an integer test without a call to `trunc`.
        Value::Num(n) if *n >= 1.0 && *n <= i32::MAX as f64 && (*n as u32) as f64 == *n => {
            Some(*n as u32)
        }
        _ => None,
    }
}

/// `ceil(log2(x))` for x ≥ 1.
fn ceil_log2(x: usize) -> usize {
    (usize::BITS - (x - 1).leading_zeros()) as usize
}

/// Lua 5.1's `computesizes`: the largest power of two n such that more than half of 1..=n are
/// in use, and how many keys go to an array part of that size.
fn compute_sizes(nums: &[usize; MAXBITS + 1], narray: &mut usize) -> usize {
    let (mut a, mut na, mut n) = (0, 0, 0);
    let mut twotoi = 1usize;
    let mut i = 0;
    while i <= MAXBITS && twotoi / 2 < *narray {
        if nums[i] > 0 {
            a += nums[i];
            if a > twotoi / 2 {
                n = twotoi;
                na = a;
            }
        }
        if a == *narray {
            break;
        }
        i += 1;
        twotoi *= 2;
    }
    *narray = n;
    na
}

/// `countint`: counts `key` in `nums` if it is an array index.
fn count_int(key: &Value, nums: &mut [usize; MAXBITS + 1]) -> usize {
    match array_index(key) {
        Some(k) if (k as usize) <= 1 << MAXBITS => {
            nums[ceil_log2(k as usize)] += 1;
            1
        }
        _ => 0,
    }
}

/// The "floating point byte" Lua's compiler stores a constructor's sizes in
/// (`luaO_int2fb` then `luaO_fb2int`): sizes of 8 and more round up to a 3-bit mantissa.
pub fn constructor_size(x: usize) -> usize {
    let (mut x, mut e) = (x.min(i32::MAX as usize), 0u32);
    while x >= 16 {
        x = (x + 1) >> 1;
        e += 1;
    }
    x << e
}

impl Table {
    /// A table sized as `lua_createtable(narray, nhash)` sizes it.
    pub fn with_sizes(narray: usize, nhash: usize) -> Result<Table, &'static str> {
        let mut t = Table::default();
        if narray + nhash > MAX_TABLE_ENTRIES {
            return Err("not enough memory");
        }
        t.array.resize(narray, Value::Nil);
        t.set_node_vector(nhash);
        Ok(t)
    }

    /// A table holding `items` at 1..=n, each set in turn as Redis's `lua_rawseti` loops do.
    /// With no nil among them, each rehash on the way moves every key into the array part, so
    /// the table ends with an array part of the next power of two and no nodes: it is built
    /// that way at once. The items came from a reply or a list of arguments, which the store
    /// already holds: the cap on a script's tables does not apply.
    pub fn from_sequence(items: impl IntoIterator<Item = Value>) -> Table {
        let items = items.into_iter();
        let mut array = Vec::with_capacity(items.size_hint().0.next_power_of_two());
        array.extend(items);
        let mut t = Table::default();
        if array.is_empty() {
            return t;
        }
        if array.iter().all(|v| !v.is_nil()) {
            array.resize(array.len().next_power_of_two(), Value::Nil);
            t.array = array;
            return t;
        }
        for (i, v) in array.into_iter().enumerate() {
            // A RESP3 reply's nulls: set one by one, as Redis sets them.
            let _ = t.set(Value::Num((i + 1) as f64), v);
        }
        t
    }

    /// Whether a script's writes to this table are refused.
    pub fn refuses_writes(&self) -> bool {
        self.readonly || self.locked
    }

    /// The number of nodes as Lua counts them (the dummy node counts as one).
    fn size_node(&self) -> usize {
        self.nodes.len().max(1)
    }

    /// The node `key`, of hash `hash`, belongs in: Lua masks a string's or a boolean's hash to
    /// the power-of-two size, and takes the others modulo an odd number.
    fn main_position(&self, key: &Value, hash: u32) -> usize {
        let size = self.size_node();
        match key {
            Value::Str(_) | Value::Bool(_) => hash as usize & (size - 1),
            _ => (hash % ((size as u32 - 1) | 1)) as usize,
        }
    }

    /// The node holding `key` of hash `hash` (dead or alive), searched along its chain.
    fn find_node(&self, key: &Value, hash: u32) -> Option<usize> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut n = self.main_position(key, hash);
        loop {
            let node = &self.nodes[n];
            if node.hash == hash && node.key.raw_eq(key) {
                return Some(n);
            }
            n = node.next()?;
        }
    }

    fn find_str(&self, name: &[u8]) -> Option<usize> {
        if self.nodes.is_empty() {
            return None;
        }
        let hash = string_hash(name);
        let mut n = hash as usize & (self.nodes.len() - 1);
        loop {
            let node = &self.nodes[n];
            if node.hash == hash && matches!(&node.key, Value::Str(s) if &s[..] == name) {
                return Some(n);
            }
            n = node.next()?;
        }
    }

    /// Where `key` lives now (`luaH_get`), an array slot whatever its value.
    fn slot(&self, key: &Value) -> Option<Slot> {
        match self.array_slot(key) {
            Some(slot) => Some(slot),
            None if key.is_nil() || self.nodes.is_empty() => None,
            None => self.find_node(key, key_hash(key)).map(Slot::Node),
        }
    }

    /// The array slot `key` names, if it names one.
    fn array_slot(&self, key: &Value) -> Option<Slot> {
        let i = array_index(key)? as usize;
        (i <= self.array.len()).then(|| Slot::Array(i - 1))
    }

    /// Raw read.
    pub fn get(&self, key: &Value) -> Value {
        match self.slot(key) {
            Some(Slot::Array(i)) => self.array[i].clone(),
            Some(Slot::Node(n)) => self.nodes[n].val.clone(),
            None => Value::Nil,
        }
    }

    /// Raw read of a string key.
    pub fn get_str(&self, name: &[u8]) -> Value {
        self.find_str(name)
            .map(|n| self.nodes[n].val.clone())
            .unwrap_or_default()
    }

    /// Raw write (`luaH_set` then the store): a key not in the table gets a node even when the
    /// value is nil, as in Lua.
    pub fn set(&mut self, key: Value, value: Value) -> Result<(), &'static str> {
        match self.claim(key)? {
            Slot::Array(i) => self.array[i] = value,
            Slot::Node(n) => self.nodes[n].val = value,
        }
        Ok(())
    }

    /// `luaH_set` without the store: makes a node for `key` if it has no slot. Lua's `t[k] = v`
    /// makes it before it looks for `__newindex`, so a key handed to `__newindex` has one.
    pub fn touch(&mut self, key: Value) -> Result<(), &'static str> {
        self.claim(key).map(|_| ())
    }

    /// `luaH_set` without the store: the slot for `key`, made if the key is not in the table.
    fn claim(&mut self, key: Value) -> Result<Slot, &'static str> {
        if let Some(slot) = self.array_slot(&key) {
            return Ok(slot);
        }
        match &key {
            Value::Nil => Err("table index is nil"),
            Value::Num(n) if n.is_nan() => Err("table index is NaN"),
            _ => {
                let hash = key_hash(&key);
                self.claim_hashed(key, hash)
            }
        }
    }

    /// [`Table::claim`] for a key that is not an array slot and whose hash is known.
    fn claim_hashed(&mut self, key: Value, hash: u32) -> Result<Slot, &'static str> {
        if let Some(slot) = self.array_slot(&key) {
            return Ok(slot);
        }
        match self.find_node(&key, hash) {
            Some(n) => Ok(Slot::Node(n)),
            None => self.new_key(key, hash),
        }
    }

    /// Lua 5.1's `newkey`: `key` at its main position, or in a free node chained from there;
    /// with no free node left, the table is rehashed and the key set again.
    fn new_key(&mut self, key: Value, hash: u32) -> Result<Slot, &'static str> {
        if self.nodes.is_empty() {
            self.rehash(&key)?;
            return self.claim_hashed(key, hash);
        }
        let mut mp = self.main_position(&key, hash);
        if !self.nodes[mp].val.is_nil() {
            let Some(free) = self.free_position() else {
                self.rehash(&key)?;
                return self.claim_hashed(key, hash);
            };
            let colliding = &self.nodes[mp];
            let other = self.main_position(&colliding.key, colliding.hash);
            if other != mp {
                // The colliding node is out of its main position: move it to the free node.
                let mut prev = other;
                while self.nodes[prev].next != mp as u32 {
                    prev = self.nodes[prev].next as usize;
                }
                self.nodes[prev].next = free as u32;
                self.nodes[free] = std::mem::replace(&mut self.nodes[mp], Node::free());
            } else {
                // The colliding node is in its main position: the new key goes to the free node.
                self.nodes[free].next = self.nodes[mp].next;
                self.nodes[mp].next = free as u32;
                mp = free;
            }
        }
        // A dead node at the main position is taken over, its chain kept.
        let node = &mut self.nodes[mp];
        node.key = key;
        node.val = Value::Nil;
        node.hash = hash;
        Ok(Slot::Node(mp))
    }

    /// `getfreepos`: the next node down whose key is nil.
    fn free_position(&mut self) -> Option<usize> {
        while self.last_free > 0 {
            self.last_free -= 1;
            if self.nodes[self.last_free].key.is_nil() {
                return Some(self.last_free);
            }
        }
        None
    }

    fn set_node_vector(&mut self, size: usize) {
        if size == 0 {
            self.nodes = Vec::new();
            self.last_free = 0;
        } else {
            let size = 1 << ceil_log2(size);
            self.nodes = (0..size).map(|_| Node::free()).collect();
            self.last_free = size;
        }
    }

    /// `rehash`: sizes both parts from the keys in use and `extra`, the key being added.
    fn rehash(&mut self, extra: &Value) -> Result<(), &'static str> {
        let mut nums = [0usize; MAXBITS + 1];
        // `numusearray`: the array part's keys in use, per slice (2^(lg-1), 2^lg].
        let mut in_array = 0;
        let (mut i, mut ttlg) = (1usize, 1usize);
        for slice in nums.iter_mut() {
            let lim = ttlg.min(self.array.len());
            if i > lim {
                break;
            }
            let mut lc = 0;
            while i <= lim {
                if !self.array[i - 1].is_nil() {
                    lc += 1;
                }
                i += 1;
            }
            *slice += lc;
            in_array += lc;
            ttlg *= 2;
        }
        let mut total = in_array;
        let mut nasize = in_array;
        for node in self.nodes.iter().rev() {
            if !node.val.is_nil() {
                nasize += count_int(&node.key, &mut nums);
                total += 1;
            }
        }
        nasize += count_int(extra, &mut nums);
        total += 1;
        let na = compute_sizes(&nums, &mut nasize);
        self.resize(nasize, total - na)
    }

    /// `luaH_resizearray`: the array part to `nasize`, the node part kept at its size.
    pub fn resize_array(&mut self, nasize: usize) -> Result<(), &'static str> {
        let nhsize = self.nodes.len();
        self.resize(nasize, nhsize)
    }

    /// `resize`: new parts, the array's vanishing slice and every live node set again (the
    /// nodes from the last down).
    fn resize(&mut self, nasize: usize, nhsize: usize) -> Result<(), &'static str> {
        if nasize.saturating_add(nhsize) > MAX_TABLE_ENTRIES {
            return Err("not enough memory");
        }
        if nasize > self.array.len() {
            self.array.resize(nasize, Value::Nil);
        }
        let old_nodes = std::mem::take(&mut self.nodes);
        self.set_node_vector(nhsize);
        if nasize < self.array.len() {
            let vanishing = self.array.split_off(nasize);
            for (offset, v) in vanishing.into_iter().enumerate() {
                if !v.is_nil() {
                    self.set(Value::Num((nasize + offset + 1) as f64), v)?;
                }
            }
        }
        for node in old_nodes.into_iter().rev() {
            if !node.val.is_nil() {
                match self.claim_hashed(node.key, node.hash)? {
                    Slot::Array(i) => self.array[i] = node.val,
                    Slot::Node(n) => self.nodes[n].val = node.val,
                }
            }
        }
        Ok(())
    }

    /// `#t` (`luaH_getn`): a border found by binary search in the array part when it ends in
    /// nil, else by an unbounded search through the node part.
    pub fn border(&self) -> usize {
        let j = self.array.len();
        if j > 0 && self.array[j - 1].is_nil() {
            let (mut i, mut j) = (0, j);
            while j - i > 1 {
                let m = (i + j) / 2;
                if self.array[m - 1].is_nil() {
                    j = m;
                } else {
                    i = m;
                }
            }
            return i;
        }
        if self.nodes.is_empty() {
            return j;
        }
        self.unbound_search(j)
    }

    fn unbound_search(&self, j: usize) -> usize {
        let present = |k: usize| !self.get(&Value::Num(k as f64)).is_nil();
        let (mut i, mut j) = (j, j + 1);
        while present(j) {
            i = j;
            j *= 2;
            if j > i32::MAX as usize {
                // A table built to defeat the search: Lua counts up from 1.
                let mut i = 1;
                while present(i) {
                    i += 1;
                }
                return i - 1;
            }
        }
        while j - i > 1 {
            let m = (i + j) / 2;
            if present(m) {
                i = m;
            } else {
                j = m;
            }
        }
        i
    }

    /// The entry after cursor `pos` in Lua's traversal order (the array part, then the nodes),
    /// as (next cursor, key, value). Cursor 0 starts a traversal.
    pub fn next_from(&self, pos: usize) -> Option<(usize, Value, Value)> {
        let mut i = pos;
        while i < self.array.len() {
            if !self.array[i].is_nil() {
                return Some((i + 1, Value::Num((i + 1) as f64), self.array[i].clone()));
            }
            i += 1;
        }
        let mut n = i - self.array.len();
        while n < self.nodes.len() {
            let node = &self.nodes[n];
            if !node.val.is_nil() {
                return Some((self.array.len() + n + 1, node.key.clone(), node.val.clone()));
            }
            n += 1;
        }
        None
    }

    /// The cursor just past `key` (`findindex`, for `next`), or None when the key has no slot
    /// in the table ("invalid key to 'next'").
    pub fn cursor_after(&self, key: &Value) -> Option<usize> {
        match self.slot(key)? {
            Slot::Array(i) => Some(i + 1),
            Slot::Node(n) => Some(self.array.len() + n + 1),
        }
    }

    /// `SETLIST`: `items` at keys `first`, `first + 1`, …, the array part grown to hold them,
    /// stored from the last down.
    pub fn set_list(&mut self, first: usize, items: Vec<Value>) -> Result<(), &'static str> {
        if items.is_empty() {
            return Ok(());
        }
        let last = first + items.len() - 1;
        if last > self.array.len() {
            self.resize_array(last)?;
        }
        // Every key now falls in the array part, where the order of the stores leaves no trace.
        for (slot, v) in self.array[first - 1..last].iter_mut().zip(items) {
            *slot = v;
        }
        Ok(())
    }

    /// The array part, slot by slot.
    pub fn array_part(&self) -> &[Value] {
        &self.array
    }

    /// The node part, node by node, and where the search for a free node stands.
    pub fn node_part(&self) -> (&[Node], usize) {
        (&self.nodes, self.last_free)
    }

    /// A table laid out exactly as given, as [`Table::array_part`] and [`Table::node_part`]
    /// described another. A key hashed by its address (a table, function or coroutine) sits
    /// where the old address put it, so a table holding one is laid out again from its keys.
    pub fn from_layout(
        array: Vec<Value>,
        nodes: Vec<(Value, Value, Option<usize>)>,
        last_free: usize,
        meta: Option<TableRef>,
        readonly: bool,
    ) -> Table {
        let by_address = nodes
            .iter()
            .any(|(k, _, _)| matches!(k, Value::Table(_) | Value::Func(_) | Value::Thread(_)));
        let mut t = Table {
            array,
            nodes: nodes
                .into_iter()
                .map(|(key, val, next)| Node {
                    hash: key_hash(&key),
                    key,
                    val,
                    next: next.map_or(NO_NEXT, |n| n as u32),
                })
                .collect(),
            last_free,
            meta,
            readonly,
            locked: false,
        };
        if by_address {
            let (nasize, nhsize) = (t.array.len(), t.nodes.len());
            // The sizes are the ones the table had, so within the cap: this cannot fail.
            let _ = t.resize(nasize, nhsize);
        }
        t
    }

    /// Takes every value out (for dropping without recursion); `into` may be empty or hold
    /// other values still to drop.
    pub fn take_values(&mut self, into: &mut Vec<Value>) {
        if into.is_empty() {
            std::mem::swap(into, &mut self.array);
        } else {
            into.append(&mut self.array);
        }
        if let Some(meta) = self.meta.take() {
            into.push(Value::Table(meta));
        }
        for node in std::mem::take(&mut self.nodes) {
            into.push(node.key);
            into.push(node.val);
        }
    }

    fn is_empty_shell(&self) -> bool {
        self.array.is_empty() && self.nodes.is_empty() && self.meta.is_none()
    }
}

/// Dropping a table frees what it holds iteratively: a script can build a chain of a million
/// nested tables (`t = {t}` in a loop), and the default recursive drop of such a chain would
/// overflow the native stack.
impl Drop for Table {
    fn drop(&mut self) {
        if self.is_empty_shell() {
            return;
        }
        let mut pending = Vec::new();
        self.take_values(&mut pending);
        super::value::drain(pending);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: f64) -> Value {
        Value::Num(x)
    }

    fn keys(t: &Table) -> Vec<Value> {
        let mut out = Vec::new();
        let mut at = 0;
        while let Some((next, k, _)) = t.next_from(at) {
            out.push(k);
            at = next;
        }
        out
    }

    fn names(t: &Table) -> String {
        keys(t)
            .iter()
            .map(|k| String::from_utf8_lossy(&k.to_display()).into_owned())
            .collect::<Vec<_>>()
            .join(",")
    }

    #[test]
    fn string_hash_is_redis_lua_hash_over_every_byte() {
        // h = len; for each byte from the last: h ^= (h << 5) + (h >> 2) + byte.
        assert_eq!(string_hash(b""), 0);
        // "a": h = 1, then 1 ^ (32 + 0 + 97).
        assert_eq!(string_hash(b"a"), 1 ^ 129);
        // "ab": h = 2, then 'b' (98) and 'a' (97), last byte first: 2 ^ (64 + 0 + 98).
        let h = 2u32 ^ 162;
        assert_eq!(string_hash(b"ab"), h ^ ((h << 5) + (h >> 2) + 97));
    }

    #[test]
    fn constructor_sizes_round_up_as_lua_stores_them() {
        let sizes: Vec<usize> = [0, 7, 8, 15, 16, 17, 18, 19, 50, 100]
            .iter()
            .map(|&x| constructor_size(x))
            .collect();
        assert_eq!(sizes, [0, 7, 8, 15, 16, 18, 18, 20, 52, 104]);
    }

    #[test]
    fn sequential_integer_keys_fill_a_growing_array_part() {
        let t = Table::from_sequence((1..=5).map(|i| n(i as f64)));
        assert_eq!(t.array_part().len(), 8);
        assert!(t.node_part().0.is_empty());
        assert_eq!(t.border(), 5);
    }

    #[test]
    fn a_sequence_is_laid_out_as_its_sets_one_by_one_would_lay_it_out() {
        for n in 0..40 {
            let items = || (1..=n).map(|i| Value::Num(f64::from(i)));
            let built = Table::from_sequence(items());
            let mut set = Table::default();
            for (i, v) in items().enumerate() {
                set.set(Value::Num((i + 1) as f64), v).unwrap();
            }
            assert_eq!(built.array_part().len(), set.array_part().len(), "{n}");
            assert_eq!(built.node_part().0.len(), set.node_part().0.len(), "{n}");
            assert_eq!(names(&built), names(&set), "{n}");
            assert_eq!(built.border(), set.border(), "{n}");
        }
    }

    #[test]
    fn string_keys_iterate_in_node_order() {
        // As Redis 7.0's Lua: cjson.encode({a = 1, b = 2, c = 3}) is {"a":1,"c":3,"b":2}.
        let mut t = Table::with_sizes(0, constructor_size(3)).unwrap();
        for k in ["a", "b", "c"] {
            t.set(Value::str(k.as_bytes()), n(1.0)).unwrap();
        }
        assert_eq!(names(&t), "a,c,b");
    }

    #[test]
    fn a_hole_moves_the_border_as_luas_search_finds_it() {
        // local t = {1, 2} t[4] = 4 return #t  →  4 in Redis.
        let mut t = Table::with_sizes(2, 0).unwrap();
        t.set_list(1, vec![n(1.0), n(2.0)]).unwrap();
        t.set(n(4.0), n(4.0)).unwrap();
        assert_eq!(t.border(), 4);
    }

    #[test]
    fn a_cleared_key_keeps_its_node_for_next() {
        let mut t = Table::default();
        for k in ["x", "y", "z"] {
            t.set(Value::str(k.as_bytes()), n(1.0)).unwrap();
        }
        let before = names(&t);
        t.set(Value::str(b"y"), Value::Nil).unwrap();
        assert!(t.cursor_after(&Value::str(b"y")).is_some());
        t.set(Value::str(b"y"), n(2.0)).unwrap();
        assert_eq!(names(&t), before);
    }

    #[test]
    fn sparse_numeric_keys_are_all_found_and_all_traversed() {
        // 20k keys far beyond the array part, all in the node part.
        let mut t = Table::default();
        for i in 0..20_000 {
            t.set(n(1e9 + (i as f64) * 1024.0), n(i as f64)).unwrap();
        }
        assert_eq!(
            t.get(&n(1e9 + 1024.0 * 19_999.0)).to_number(),
            Some(19_999.0)
        );
        assert_eq!(keys(&t).len(), 20_000);
    }

    #[test]
    fn the_cap_refuses_a_table_grown_past_it() {
        assert_eq!(
            Table::with_sizes(MAX_TABLE_ENTRIES + 1, 0).err(),
            Some("not enough memory")
        );
    }
}
