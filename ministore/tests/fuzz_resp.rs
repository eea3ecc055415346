//! Property tests over the server's request parser: arbitrary bytes (and RESP-like token soup)
//! never panic it, it never claims more bytes than it was given, any request encoded as a
//! multibulk parses back to exactly its words, and feeding a stream of requests cut at any
//! points yields the same requests as feeding it whole.

// The `ministore` binary and `serve` are part of the `full` feature.
#![cfg(feature = "full")]

use ministore::serve::resp::{parse_request, Request};
use proptest::prelude::*;

fn encode(words: &[Vec<u8>]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", words.len()).into_bytes();
    for word in words {
        out.extend_from_slice(format!("${}\r\n", word.len()).as_bytes());
        out.extend_from_slice(word);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Every request in `stream` as the server reads it when the bytes arrive in `cuts` pieces.
fn parse_in_pieces(stream: &[u8], cuts: &[usize]) -> (Vec<Vec<Vec<u8>>>, bool) {
    let mut buf = Vec::new();
    let mut requests = Vec::new();
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
    points.push(stream.len());
    points.sort_unstable();
    let mut sent = 0;
    for point in points {
        buf.extend_from_slice(&stream[sent..point]);
        sent = point;
        loop {
            match parse_request(&buf) {
                Ok(Some(Request { args, consumed })) => {
                    assert!(consumed > 0 && consumed <= buf.len());
                    buf.drain(..consumed);
                    if !args.is_empty() {
                        requests.push(args);
                    }
                }
                Ok(None) => break,
                Err(_) => return (requests, true),
            }
        }
    }
    (requests, false)
}

fn resp_soup() -> impl Strategy<Value = Vec<u8>> {
    let tokens = prop::sample::select(vec![
        "*",
        "$",
        "\r\n",
        "\r",
        "\n",
        "1",
        "2",
        "3",
        "-1",
        "0",
        "-",
        "+",
        "99999999999",
        "PING",
        "GET",
        "\"",
        "'",
        " ",
        "a",
        "*2\r\n",
        "$3\r\n",
        "SET\r\n",
        "\0",
        "\\x41",
    ]);
    proptest::collection::vec(tokens, 0..40).prop_map(|parts| parts.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(Some(request)) = parse_request(&bytes) {
            prop_assert!(request.consumed <= bytes.len());
        }
    }

    #[test]
    fn token_soup_never_panics_and_splits_consistently(
        soup in resp_soup(),
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
    ) {
        let whole = parse_in_pieces(&soup, &[]);
        let pieces = parse_in_pieces(&soup, &cuts);
        prop_assert_eq!(whole, pieces);
    }

    #[test]
    fn multibulk_requests_round_trip(
        requests in proptest::collection::vec(
            proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 1..6),
            1..5,
        ),
        cuts in proptest::collection::vec(any::<usize>(), 0..8),
    ) {
        let stream: Vec<u8> = requests.iter().flat_map(|r| encode(r)).collect();
        let (parsed, failed) = parse_in_pieces(&stream, &cuts);
        prop_assert!(!failed);
        prop_assert_eq!(parsed, requests);
    }
}
