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

/// One HSCAN or ZSCAN call on `key`: the next cursor and the fields or members (every other
/// element of the flat reply).
fn scan_collection(
    store: &mut Store,
    command: &str,
    key: &str,
    cursor: &str,
) -> (String, Vec<Vec<u8>>) {
    match store.exec(&[command, key, cursor, "COUNT", "10"]) {
        Reply::Array(mut parts) if parts.len() == 2 => {
            let flat = bulks(parts.pop().unwrap_or(Reply::Nil));
            let cursor = match parts.pop() {
                Some(Reply::Bulk(bytes)) => String::from_utf8(bytes).unwrap_or_default(),
                other => panic!("bad cursor {other:?}"),
            };
            (cursor, flat.into_iter().step_by(2).collect())
        }
        other => panic!("bad {command} reply {other:?}"),
    }
}

#[test]
fn hscan_and_zscan_return_every_element_though_each_page_is_deleted() {
    // The usual clean-up loop: take a page, delete what it held, go on from the cursor.
    let mut store = Store::new();
    for i in 0..600 {
        let name = format!("f{i}");
        store.exec(&["HSET", "h", &name, "v"]);
        store.exec(&["ZADD", "z", &i.to_string(), &name]);
    }
    for (command, delete) in [("HSCAN", "HDEL"), ("ZSCAN", "ZREM")] {
        let key = if command == "HSCAN" { "h" } else { "z" };
        let mut seen = Vec::new();
        let mut cursor = "0".to_string();
        loop {
            let (next, page) = scan_collection(&mut store, command, key, &cursor);
            for element in &page {
                let element = String::from_utf8_lossy(element).into_owned();
                store.exec(&[delete, key, &element]);
            }
            seen.extend(page);
            if next == "0" {
                break;
            }
            cursor = next;
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 600, "{command}");
        assert_eq!(store.exec(&["EXISTS", key]), Reply::Integer(0), "{command}");
    }
}
