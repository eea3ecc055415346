//! A function library's live Lua values, kept between FCALLs as plain `Send` data.
//!
//! Lua values share tables, closures and captured variables through `Rc`, which may not cross
//! threads, while a store (and every library in it) moves between a server's connection
//! threads. So between calls a library holds its registered functions as a [`Frozen`] graph:
//! each table, closure and captured variable once, by index, so that sharing (two functions
//! capturing one local) and cycles survive. A call thaws the graph into fresh objects, runs, and
//! freezes it again; cloning a store clones the graph, so the copies do not share state.
//!
//! A coroutine in that state is kept as its function and whether it was ever resumed: one not yet
//! resumed comes back ready to start, any other comes back dead. Freezing a suspended
//! coroutine's continuation is not supported (Redis keeps it suspended between calls).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use super::ast::FuncBody;
use super::handle::{Builtin, Lib};
use super::value::{Cell, Closure, Coroutine, Table, TableRef, Value};

/// A value with its tables, closures and cells replaced by indices into the graph.
#[derive(Debug, Clone)]
enum Slot {
    Nil,
    Bool(bool),
    Num(f64),
    Str(Arc<[u8]>),
    Table(usize),
    Func(usize),
    Builtin(Builtin),
    Lib(Lib),
    Null,
    Thread(usize),
}

#[derive(Debug, Clone, Default)]
struct FrozenTable {
    array: Vec<Slot>,
    /// The node part as laid out: each node's key, value and next node in its chain.
    nodes: Vec<(Slot, Slot, Option<usize>)>,
    /// Where the search for a free node stands.
    last_free: usize,
    meta: Option<usize>,
    readonly: bool,
}

#[derive(Debug, Clone)]
struct FrozenClosure {
    body: Arc<FuncBody>,
    /// Each captured variable's name and its index among the graph's cells.
    captured: Vec<(Arc<str>, usize)>,
}

/// A coroutine: the index of its function among the graph's closures, and whether it was
/// not resumed yet.
#[derive(Debug, Clone)]
struct FrozenThread {
    func: usize,
    fresh: bool,
}

/// A graph of Lua values reachable from some roots, with no `Rc` in it.
#[derive(Debug, Clone, Default)]
pub struct Frozen {
    roots: Vec<Slot>,
    tables: Vec<FrozenTable>,
    closures: Vec<FrozenClosure>,
    cells: Vec<Slot>,
    threads: Vec<FrozenThread>,
}

impl Frozen {
    /// Appends bytes equal for two graphs only if a call answers the same on both: each
    /// value, table (laid out as it is), closure (its function named by its chunk and its
    /// place there, so that libraries loaded apart from the same code are equal), captured
    /// variable and coroutine, by index. Two `loadstring` chunks given one name and different
    /// code would name their functions alike.
    pub fn write_key(&self, out: &mut Vec<u8>) {
        fn n(out: &mut Vec<u8>, v: u64) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        fn slot(out: &mut Vec<u8>, s: &Slot) {
            match s {
                Slot::Nil => out.push(0),
                Slot::Bool(b) => out.extend_from_slice(&[1, u8::from(*b)]),
                Slot::Num(x) => {
                    out.push(2);
                    n(out, x.to_bits());
                }
                Slot::Str(bytes) => {
                    out.push(3);
                    n(out, bytes.len() as u64);
                    out.extend_from_slice(bytes);
                }
                Slot::Table(i) => {
                    out.push(4);
                    n(out, *i as u64);
                }
                Slot::Func(i) => {
                    out.push(5);
                    n(out, *i as u64);
                }
                Slot::Builtin(b) => {
                    out.push(6);
                    n(out, b.id());
                }
                Slot::Lib(l) => out.extend_from_slice(&[7, *l as u8]),
                Slot::Null => out.push(8),
                Slot::Thread(i) => {
                    out.push(9);
                    n(out, *i as u64);
                }
            }
        }
        n(out, self.roots.len() as u64);
        self.roots.iter().for_each(|s| slot(out, s));
        n(out, self.tables.len() as u64);
        for t in &self.tables {
            n(out, t.array.len() as u64);
            t.array.iter().for_each(|s| slot(out, s));
            n(out, t.nodes.len() as u64);
            for (key, val, next) in &t.nodes {
                slot(out, key);
                slot(out, val);
                n(out, next.map_or(u64::MAX, |i| i as u64));
            }
            n(out, t.last_free as u64);
            n(out, t.meta.map_or(u64::MAX, |i| i as u64));
            out.push(u8::from(t.readonly));
        }
        n(out, self.closures.len() as u64);
        for c in &self.closures {
            n(out, c.body.source.len() as u64);
            out.extend_from_slice(c.body.source.as_bytes());
            n(out, u64::from(c.body.ordinal));
            n(out, c.captured.len() as u64);
            for (name, cell) in &c.captured {
                n(out, name.len() as u64);
                out.extend_from_slice(name.as_bytes());
                n(out, *cell as u64);
            }
        }
        n(out, self.cells.len() as u64);
        self.cells.iter().for_each(|s| slot(out, s));
        n(out, self.threads.len() as u64);
        for t in &self.threads {
            n(out, t.func as u64);
            out.push(u8::from(t.fresh));
        }
    }

    /// Freezes everything reachable from `roots`, then empties those live tables and cells:
    /// the graph may hold cycles (`t.self = t`), which `Rc` alone would never free, and after
    /// this the live objects are no longer used.
    pub fn take(roots: Vec<Value>) -> Frozen {
        let mut freezer = Freezer::default();
        freezer.out.roots = roots.iter().map(|v| freezer.slot(v)).collect();
        while let Some(pending) = freezer.pending.pop() {
            freezer.freeze(pending);
        }
        for table in &freezer.live_tables {
            drop(std::mem::take(&mut *table.0.borrow_mut()));
        }
        for cell in &freezer.live_cells {
            drop(std::mem::take(&mut *cell.borrow_mut()));
        }
        freezer.out
    }

    /// Fresh live values for the roots, sharing among themselves what the frozen roots shared.
    pub fn thaw(&self) -> Vec<Value> {
        let tables: Vec<TableRef> = self.tables.iter().map(|_| TableRef::new()).collect();
        let cells: Vec<Cell> = self
            .cells
            .iter()
            .map(|_| Rc::new(RefCell::new(Value::Nil)))
            .collect();
        let closures: Vec<Rc<Closure>> = self
            .closures
            .iter()
            .map(|c| {
                Rc::new(Closure {
                    body: c.body.clone(),
                    captured: c
                        .captured
                        .iter()
                        .map(|(name, at)| (name.clone(), cells[*at].clone()))
                        .collect(),
                })
            })
            .collect();
        let threads: Vec<Rc<Coroutine>> = self
            .threads
            .iter()
            .map(|t| {
                let func = closures[t.func].clone();
                if t.fresh {
                    Coroutine::new(func)
                } else {
                    Coroutine::finished(func)
                }
            })
            .collect();
        let value = |slot: &Slot| match slot {
            Slot::Nil => Value::Nil,
            Slot::Bool(b) => Value::Bool(*b),
            Slot::Num(n) => Value::Num(*n),
            Slot::Str(s) => Value::Str(s.clone()),
            Slot::Table(at) => Value::Table(tables[*at].clone()),
            Slot::Func(at) => Value::Func(closures[*at].clone()),
            Slot::Builtin(b) => Value::Builtin(*b),
            Slot::Lib(l) => Value::Lib(*l),
            Slot::Null => Value::Null,
            Slot::Thread(at) => Value::Thread(threads[*at].clone()),
        };
        for (cell, slot) in cells.iter().zip(&self.cells) {
            *cell.borrow_mut() = value(slot);
        }
        for (table, frozen) in tables.iter().zip(&self.tables) {
            *table.0.borrow_mut() = Table::from_layout(
                frozen.array.iter().map(value).collect(),
                frozen
                    .nodes
                    .iter()
                    .map(|(k, v, next)| (value(k), value(v), *next))
                    .collect(),
                frozen.last_free,
                frozen.meta.map(|at| tables[at].clone()),
                frozen.readonly,
            );
        }
        self.roots.iter().map(value).collect()
    }
}

/// A live object found but not yet frozen, with its index in the graph.
enum Pending {
    Table(TableRef, usize),
    Closure(Rc<Closure>, usize),
    Cell(Cell, usize),
}

/// The walk behind [`Frozen::take`]: an explicit work list, as a chain of a million nested
/// tables is a valid library state and must not overflow the native stack.
#[derive(Default)]
struct Freezer {
    out: Frozen,
    tables: HashMap<*const RefCell<Table>, usize>,
    closures: HashMap<*const Closure, usize>,
    threads: HashMap<*const Coroutine, usize>,
    cells: HashMap<*const RefCell<Value>, usize>,
    pending: Vec<Pending>,
    live_tables: Vec<TableRef>,
    live_cells: Vec<Cell>,
}

impl Freezer {
    fn slot(&mut self, v: &Value) -> Slot {
        match v {
            Value::Nil => Slot::Nil,
            Value::Bool(b) => Slot::Bool(*b),
            Value::Num(n) => Slot::Num(*n),
            Value::Str(s) => Slot::Str(s.clone()),
            Value::Builtin(b) => Slot::Builtin(*b),
            Value::Lib(l) => Slot::Lib(*l),
            Value::Null => Slot::Null,
            Value::Table(t) => Slot::Table(self.table(t)),
            Value::Func(f) => Slot::Func(self.closure(f)),
            Value::Thread(co) => {
                let next = self.out.threads.len();
                let at = *self.threads.entry(Rc::as_ptr(co)).or_insert(next);
                if at == next {
                    // Reserve the slot first: the function may reach this coroutine again.
                    self.out.threads.push(FrozenThread {
                        func: 0,
                        fresh: co.is_fresh(),
                    });
                    self.out.threads[at].func = self.closure(co.function());
                }
                Slot::Thread(at)
            }
        }
    }

    fn closure(&mut self, f: &Rc<Closure>) -> usize {
        let next = self.out.closures.len();
        let at = *self.closures.entry(Rc::as_ptr(f)).or_insert(next);
        if at == next {
            self.out.closures.push(FrozenClosure {
                body: f.body.clone(),
                captured: Vec::new(),
            });
            self.pending.push(Pending::Closure(f.clone(), at));
        }
        at
    }

    fn table(&mut self, t: &TableRef) -> usize {
        let next = self.out.tables.len();
        let at = *self.tables.entry(Rc::as_ptr(&t.0)).or_insert(next);
        if at == next {
            self.out.tables.push(FrozenTable::default());
            self.pending.push(Pending::Table(t.clone(), at));
        }
        at
    }

    fn cell(&mut self, cell: &Cell) -> usize {
        let next = self.out.cells.len();
        let at = *self.cells.entry(Rc::as_ptr(cell)).or_insert(next);
        if at == next {
            self.out.cells.push(Slot::Nil);
            self.pending.push(Pending::Cell(cell.clone(), at));
        }
        at
    }

    fn freeze(&mut self, pending: Pending) {
        match pending {
            Pending::Table(t, at) => {
                let (array, nodes, last_free, meta, readonly) = {
                    let table = t.0.borrow();
                    let (nodes, last_free) = table.node_part();
                    (
                        table.array_part().to_vec(),
                        nodes.to_vec(),
                        last_free,
                        table.meta.clone(),
                        table.readonly,
                    )
                };
                let frozen = FrozenTable {
                    array: array.iter().map(|v| self.slot(v)).collect(),
                    nodes: nodes
                        .iter()
                        .map(|node| (self.slot(&node.key), self.slot(&node.val), node.next()))
                        .collect(),
                    last_free,
                    meta: meta.as_ref().map(|m| self.table(m)),
                    readonly,
                };
                self.out.tables[at] = frozen;
                self.live_tables.push(t);
            }
            Pending::Closure(f, at) => {
                let captured = f
                    .captured
                    .iter()
                    .map(|(name, cell)| (name.clone(), self.cell(cell)))
                    .collect();
                self.out.closures[at].captured = captured;
            }
            Pending::Cell(cell, at) => {
                let value = cell.borrow().clone();
                self.out.cells[at] = self.slot(&value);
                self.live_cells.push(cell);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharing_and_cycles_survive_a_round_trip() {
        let t = TableRef::new();
        t.set(Value::str(b"self"), Value::Table(t.clone())).unwrap();
        t.set(Value::Num(1.0), Value::str(b"a")).unwrap();
        let frozen = Frozen::take(vec![Value::Table(t.clone()), Value::Table(t.clone())]);
        // The live table was emptied, so the cycle no longer keeps it alive.
        assert!(t.get(&Value::Num(1.0)).is_nil());
        let thawed = frozen.thaw();
        let (Value::Table(a), Value::Table(b)) = (&thawed[0], &thawed[1]) else {
            panic!("tables expected");
        };
        assert!(Rc::ptr_eq(&a.0, &b.0));
        assert!(matches!(a.get_str("self"), Value::Table(s) if Rc::ptr_eq(&s.0, &a.0)));
        assert!(matches!(a.get(&Value::Num(1.0)), Value::Str(s) if &s[..] == b"a"));
    }
}
