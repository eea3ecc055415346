//! Redis's numbered databases: switching the selected one, and the commands that reach past it
//! (FLUSHALL, SWAPDB, MOVE, COPY … DB). Only the selected database's map is in use at a time;
//! the others wait in `parked`, which is made the first time a database other than 0 is used,
//! so an empty store (and its clone) carries no per-database maps.

use super::{Db, Entry, KeyMap, Keyspace, Readied};

/// How many databases a store has (Redis's default `databases 16`).
pub(crate) const DATABASES: usize = 16;

impl Keyspace {
    /// Index of the selected database.
    pub(crate) fn selected(&self) -> usize {
        self.selected
    }

    /// Makes `db` the database commands work on; an index out of range is ignored (callers
    /// check it against [`DATABASES`] first, with Redis's error).
    pub(crate) fn select(&mut self, db: usize) {
        if db == self.selected || db >= DATABASES {
            return;
        }
        if self.parked.len() < DATABASES {
            self.parked.resize_with(DATABASES, Db::default);
        }
        std::mem::swap(&mut self.entries, &mut self.parked[self.selected]);
        std::mem::swap(&mut self.entries, &mut self.parked[db]);
        self.selected = db;
    }

    /// Runs `work` with `db` selected, then selects the database that was selected before.
    pub(crate) fn in_db<R>(&mut self, db: usize, work: impl FnOnce(&mut Keyspace) -> R) -> R {
        let back = self.selected;
        self.select(db);
        let result = work(self);
        self.select(back);
        result
    }

    /// The raw map of `db` (expired keys included), if it was ever made.
    pub(crate) fn db_map(&self, db: usize) -> Option<&KeyMap<Entry>> {
        if db == self.selected {
            Some(&self.entries)
        } else {
            self.parked.get(db).map(|map| &**map)
        }
    }

    /// Every live entry of `db`, in no particular order.
    pub(crate) fn live_entries_of(&self, db: usize) -> impl Iterator<Item = (&[u8], &Entry)> {
        let now = self.expiry_now();
        self.db_map(db)
            .into_iter()
            .flat_map(|map| map.iter())
            .filter(move |(_, entry)| !entry.is_expired(now))
            .map(|(key, entry)| (key.as_slice(), entry))
    }

    /// The live entry of `key` in `db`, read without touching anything.
    pub(crate) fn live_entry_of(&self, db: usize, key: &[u8]) -> Option<&Entry> {
        let now = self.expiry_now();
        self.db_map(db)?
            .get(key)
            .filter(|entry| !entry.is_expired(now))
    }

    /// How many live keys the selected database holds.
    pub(crate) fn db_len(&self) -> usize {
        self.live_entries_of(self.selected).count()
    }

    /// FLUSHDB: drops every key of the selected database.
    pub(crate) fn flush_selected(&mut self) {
        self.touch_all_in_db(self.selected, None);
        // A fresh map, not the shared one copied and then emptied.
        self.entries = Db::default();
    }

    /// FLUSHALL: drops every key of every database.
    pub(crate) fn clear(&mut self) {
        for db in 0..DATABASES {
            self.touch_all_in_db(db, None);
        }
        self.entries = Db::default();
        self.parked.clear();
    }

    /// SWAPDB: exchanges the contents of two databases (both in range).
    pub(crate) fn swap_dbs(&mut self, a: usize, b: usize) {
        if a == b || a >= DATABASES || b >= DATABASES {
            return;
        }
        self.touch_all_in_db(a, Some(b));
        self.touch_all_in_db(b, Some(a));
        let back = self.selected;
        // With database 0 selected, both maps are parked and swap in place.
        self.select(0);
        if self.parked.len() < DATABASES {
            self.parked.resize_with(DATABASES, Db::default);
        }
        let map_of = |keyspace: &mut Keyspace, db: usize| {
            if db == 0 {
                std::mem::take(&mut keyspace.entries)
            } else {
                std::mem::take(&mut keyspace.parked[db])
            }
        };
        let (map_a, map_b) = (map_of(self, a), map_of(self, b));
        for (db, map) in [(a, map_b), (b, map_a)] {
            if db == 0 {
                self.entries = map;
            } else {
                self.parked[db] = map;
            }
        }
        self.select(back);
        self.mark_readied(Readied::Database(a));
        self.mark_readied(Readied::Database(b));
    }
}
