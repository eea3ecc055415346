//! The set value: Redis 7.0's two encodings, kept apart because their orders differ. A set of
//! at most 512 integers is an *intset*, sorted ascending, which is the order SMEMBERS, SSCAN and
//! SPOP-everything print on a real server; anything else is a *hashtable*, whose order on a real
//! server depends on a hash seed Redis draws at start-up and so is not reproducible at all.
//! ministore's hashtable keeps members in a dense vector (insertion order until a removal swaps
//! the last member into the gap): deterministic, O(1) to add, remove and pick at random.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::KeyHasher;
use crate::args::parse_int;

/// Redis 7.0's `set-max-intset-entries`: an integer set past this size becomes a hashtable.
pub(crate) const INTSET_MAX_ENTRIES: usize = 512;

/// A set of binary-safe members.
#[derive(Debug, Clone)]
pub(crate) enum SetValue {
    /// Only integers in `string2ll`'s strict form, at most [`INTSET_MAX_ENTRIES`], ascending.
    Ints(Vec<i64>),
    /// Anything else; once a set is a hashtable it never turns back into an intset (as Redis).
    Table(MemberTable),
}

impl SetValue {
    /// An empty set in the encoding Redis's `setTypeCreate` picks for its first member.
    pub(crate) fn for_first_member(member: &[u8]) -> SetValue {
        if parse_int(member).is_some() {
            SetValue::Ints(Vec::new())
        } else {
            SetValue::Table(MemberTable::default())
        }
    }

    /// An empty intset, where SINTERSTORE and friends start their result (as Redis does).
    pub(crate) fn empty_intset() -> SetValue {
        SetValue::Ints(Vec::new())
    }

    /// The union of `sets` as Redis builds one (SUNION, and SPOP taking a whole set): every
    /// member into an empty intset, which becomes a hashtable once a member needs it.
    pub(crate) fn union_of<'a>(sets: impl IntoIterator<Item = &'a SetValue>) -> SetValue {
        let mut union = SetValue::empty_intset();
        for set in sets {
            for member in set.members() {
                union.insert(&member);
            }
        }
        union
    }

    /// What OBJECT ENCODING replies.
    pub(crate) fn encoding(&self) -> &'static str {
        match self {
            SetValue::Ints(_) => "intset",
            SetValue::Table(_) => "hashtable",
        }
    }

    /// Number of members.
    pub(crate) fn len(&self) -> usize {
        match self {
            SetValue::Ints(ints) => ints.len(),
            SetValue::Table(table) => table.members.len(),
        }
    }

    /// True without members.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `member` is in the set.
    pub(crate) fn contains(&self, member: &[u8]) -> bool {
        match self {
            SetValue::Ints(ints) => {
                parse_int(member).is_some_and(|n| ints.binary_search(&n).is_ok())
            }
            SetValue::Table(table) => table.index.contains_key(member),
        }
    }

    /// Adds `member`; true if it is new. An intset turns into a hashtable when the member is
    /// not an integer or the set grows past [`INTSET_MAX_ENTRIES`].
    pub(crate) fn insert(&mut self, member: &[u8]) -> bool {
        if let SetValue::Ints(ints) = self {
            match parse_int(member) {
                Some(n) => {
                    let Err(at) = ints.binary_search(&n) else {
                        return false;
                    };
                    ints.insert(at, n);
                    if ints.len() > INTSET_MAX_ENTRIES {
                        self.convert_to_table();
                    }
                    return true;
                }
                None => self.convert_to_table(),
            }
        }
        match self {
            SetValue::Table(table) => table.insert(member),
            SetValue::Ints(_) => false,
        }
    }

    /// Removes `member`; true if it was there.
    pub(crate) fn remove(&mut self, member: &[u8]) -> bool {
        match self {
            SetValue::Ints(ints) => match parse_int(member).map(|n| ints.binary_search(&n)) {
                Some(Ok(at)) => {
                    ints.remove(at);
                    true
                }
                _ => false,
            },
            SetValue::Table(table) => table.remove(member),
        }
    }

    /// The member at `at` in iteration order (for random picks).
    pub(crate) fn nth(&self, at: usize) -> Option<Vec<u8>> {
        match self {
            SetValue::Ints(ints) => ints.get(at).map(|n| n.to_string().into_bytes()),
            SetValue::Table(table) => table.members.get(at).cloned(),
        }
    }

    /// Every member in iteration order (ascending for an intset).
    pub(crate) fn members(&self) -> Vec<Vec<u8>> {
        match self {
            SetValue::Ints(ints) => ints.iter().map(|n| n.to_string().into_bytes()).collect(),
            SetValue::Table(table) => table.members.clone(),
        }
    }

    fn convert_to_table(&mut self) {
        if let SetValue::Ints(ints) = self {
            let mut table = MemberTable::default();
            for n in ints.iter() {
                table.insert(n.to_string().as_bytes());
            }
            *self = SetValue::Table(table);
        }
    }
}

/// A hashtable set: members in a dense vector plus an index of their positions.
#[derive(Debug, Clone, Default)]
pub(crate) struct MemberTable {
    members: Vec<Vec<u8>>,
    index: HashMap<Vec<u8>, usize, BuildHasherDefault<KeyHasher>>,
}

impl MemberTable {
    fn insert(&mut self, member: &[u8]) -> bool {
        if self.index.contains_key(member) {
            return false;
        }
        self.index.insert(member.to_vec(), self.members.len());
        self.members.push(member.to_vec());
        true
    }

    fn remove(&mut self, member: &[u8]) -> bool {
        let Some(at) = self.index.remove(member) else {
            return false;
        };
        self.members.swap_remove(at);
        if let Some(moved) = self.members.get(at) {
            self.index.insert(moved.clone(), at);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(set: &SetValue) -> Vec<String> {
        set.members()
            .into_iter()
            .map(|m| String::from_utf8_lossy(&m).into_owned())
            .collect()
    }

    #[test]
    fn integers_stay_an_ascending_intset() {
        let mut set = SetValue::for_first_member(b"3");
        for m in ["3", "-1", "10", "3", "0"] {
            set.insert(m.as_bytes());
        }
        assert_eq!(set.encoding(), "intset");
        assert_eq!(texts(&set), ["-1", "0", "3", "10"]);
        assert!(set.contains(b"10") && !set.contains(b"010") && !set.contains(b"x"));
    }

    #[test]
    fn a_non_integer_or_the_513th_member_makes_a_hashtable_for_good() {
        let mut set = SetValue::for_first_member(b"1");
        set.insert(b"1");
        set.insert(b"01");
        assert_eq!(set.encoding(), "hashtable");
        assert!(set.remove(b"01"));
        assert_eq!(set.encoding(), "hashtable");

        let mut big = SetValue::empty_intset();
        for n in 0..INTSET_MAX_ENTRIES {
            big.insert(n.to_string().as_bytes());
        }
        assert_eq!(big.encoding(), "intset");
        big.insert(b"100000");
        assert_eq!(big.encoding(), "hashtable");
        assert_eq!(big.len(), INTSET_MAX_ENTRIES + 1);
        assert!(big.contains(b"511") && big.contains(b"100000"));
    }

    #[test]
    fn removing_from_a_table_keeps_every_other_member_findable() {
        let mut set = SetValue::for_first_member(b"a");
        for m in ["a", "b", "c", "d"] {
            set.insert(m.as_bytes());
        }
        assert!(set.remove(b"a"));
        assert!(!set.remove(b"a"));
        assert_eq!(texts(&set), ["d", "b", "c"]);
        assert!(set.remove(b"d") && set.contains(b"c") && set.contains(b"b"));
        assert_eq!(set.len(), 2);
    }
}
