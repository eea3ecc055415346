//! Property tests of the glob matcher behind KEYS, SCAN MATCH and the other MATCH options,
//! driven through KEYS: arbitrary patterns never panic (nor run away), a pattern with every
//! special byte escaped matches exactly its own text, `*` matches every key, and a `?` per
//! byte matches every key of that length.

use ministore::{Reply, Store};
use proptest::prelude::*;

fn keys(store: &mut Store, pattern: &[u8]) -> Vec<Vec<u8>> {
    match store.exec(&[b"KEYS".to_vec(), pattern.to_vec()]) {
        Reply::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Reply::Bulk(key) => key,
                other => panic!("KEYS returned {other:?}"),
            })
            .collect(),
        other => panic!("KEYS returned {other:?}"),
    }
}

/// Bytes rich in the glob's special characters.
fn glob_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        3 => prop::sample::select(&b"*?[]^-\\ab"[..]),
        1 => any::<u8>(),
    ];
    proptest::collection::vec(byte, 0..24)
}

fn escaped(text: &[u8]) -> Vec<u8> {
    let mut pattern = Vec::new();
    for &byte in text {
        if matches!(byte, b'*' | b'?' | b'[' | b']' | b'\\') {
            pattern.push(b'\\');
        }
        pattern.push(byte);
    }
    pattern
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_pattern_answers_and_escaped_text_matches_itself(
        pattern in glob_bytes(),
        texts in proptest::collection::vec(glob_bytes(), 1..6),
    ) {
        let mut store = Store::new();
        for text in &texts {
            store.exec(&[b"SET".to_vec(), text.clone(), b"v".to_vec()]);
        }
        let mut all = texts.clone();
        all.sort();
        all.dedup();
        let found = keys(&mut store, &pattern);
        prop_assert!(found.iter().all(|key| all.contains(key)));
        prop_assert_eq!(keys(&mut store, b"*"), all.clone());
        for text in &all {
            prop_assert_eq!(keys(&mut store, &escaped(text)), vec![text.clone()]);
            let same_length: Vec<Vec<u8>> =
                all.iter().filter(|key| key.len() == text.len()).cloned().collect();
            if !text.is_empty() {
                prop_assert_eq!(keys(&mut store, &vec![b'?'; text.len()]), same_length);
            }
        }
    }
}

#[test]
fn many_stars_against_a_long_key_finish() {
    let mut store = Store::new();
    let key = vec![b'a'; 4000];
    store.exec(&[b"SET".to_vec(), key.clone(), b"v".to_vec()]);
    let mut pattern = b"*a".repeat(60);
    pattern.extend_from_slice(b"*b");
    assert!(keys(&mut store, &pattern).is_empty());
}
