//! The orders ministore gives KEYS, SCAN and RANDOMKEY where Redis uses its hash table's:
//! KEYS sorted by bytes, SCAN walking a fixed hash order whose cursor survives keys coming and
//! going, RANDOMKEY reproducible from the store's seed.

use ministore::{Reply, Store};

fn bulks(reply: Reply) -> Vec<Vec<u8>> {
    match reply {
        Reply::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Reply::Bulk(bytes) => bytes,
                other => panic!("not a bulk: {other:?}"),
            })
            .collect(),
        other => panic!("not an array: {other:?}"),
    }
}

/// One SCAN call: the next cursor and the keys.
fn scan(store: &mut Store, cursor: &str, count: &str) -> (String, Vec<Vec<u8>>) {
    match store.exec(&["SCAN", cursor, "COUNT", count]) {
        Reply::Array(mut parts) if parts.len() == 2 => {
            let keys = bulks(parts.pop().unwrap_or(Reply::Nil));
            let cursor = match parts.pop() {
                Some(Reply::Bulk(bytes)) => String::from_utf8(bytes).unwrap_or_default(),
                other => panic!("bad cursor {other:?}"),
            };
            (cursor, keys)
        }
        other => panic!("bad SCAN reply {other:?}"),
    }
}

fn store_with(keys: usize) -> Store {
    let mut store = Store::new();
    for i in 0..keys {
        store.exec(&["SET", &format!("key:{i}"), "v"]);
    }
    store
}

#[test]
fn keys_are_listed_sorted_by_bytes() {
    let mut store = Store::new();
    for key in ["b", "a", "c", "ab", "B"] {
        store.exec(&["SET", key, "1"]);
    }
    let listed = bulks(store.exec(&["KEYS", "*"]));
    assert_eq!(listed, [&b"B"[..], b"a", b"ab", b"b", b"c"]);
}

#[test]
fn a_scan_walk_returns_every_key_once_when_nothing_changes() {
    let mut store = store_with(57);
    let mut seen = Vec::new();
    let mut cursor = "0".to_string();
    let mut calls = 0;
    loop {
        let (next, keys) = scan(&mut store, &cursor, "5");
        assert!(keys.len() <= 5);
        seen.extend(keys);
        calls += 1;
        if next == "0" {
            break;
        }
        cursor = next;
    }
    assert_eq!(calls, 12);
    let total = seen.len();
    seen.sort();
    seen.dedup();
    assert_eq!((seen.len(), total), (57, 57));
}

#[test]
fn keys_present_for_the_whole_walk_are_returned_despite_changes() {
    let mut store = store_with(40);
    let mut seen = Vec::new();
    let mut cursor = "0".to_string();
    let mut round = 0;
    loop {
        let (next, keys) = scan(&mut store, &cursor, "3");
        seen.extend(keys);
        // Between calls, delete some keys that are not checked and add new ones.
        store.exec(&["DEL", &format!("key:{}", 30 + round % 10)]);
        store.exec(&["SET", &format!("new:{round}"), "v"]);
        round += 1;
        if next == "0" {
            break;
        }
        cursor = next;
    }
    for i in 0..30 {
        let key = format!("key:{i}").into_bytes();
        assert!(seen.contains(&key), "key:{i} was never returned");
    }
}

#[test]
fn randomkey_is_reproducible_and_picks_live_keys() {
    let draws =
        |store: &mut Store| -> Vec<Reply> { (0..20).map(|_| store.exec(&["RANDOMKEY"])).collect() };
    let (mut a, mut b) = (store_with(10), store_with(10));
    let first = draws(&mut a);
    assert_eq!(first, draws(&mut b));
    for reply in &first {
        let Reply::Bulk(key) = reply else {
            panic!("RANDOMKEY gave {reply:?}");
        };
        assert!(key.starts_with(b"key:"));
    }
    let distinct: std::collections::BTreeSet<String> =
        first.iter().map(|r| format!("{r:?}")).collect();
    assert!(distinct.len() > 1, "twenty draws out of ten keys all alike");
}
