//! Property tests over redis-cli's line syntax: arbitrary bytes never panic the splitter or the
//! prompt, and any words quoted the way redis-cli's own `sdscatrepr` quotes them split back
//! to exactly those words.

use ministore::cli::{prompt_action, split_line, PromptAction};
use ministore::Reply;
use proptest::prelude::*;

/// Quotes a word the way redis-cli prints a bulk string, which its splitter reads back.
fn quote(word: &[u8]) -> String {
    let rendered = Reply::Bulk(word.to_vec()).to_cli_text();
    rendered.trim_end_matches('\n').to_string()
}

fn token_soup() -> impl Strategy<Value = String> {
    let tokens = prop::sample::select(vec![
        "SET", "GET", " ", "  ", "\t", "\"", "'", "\\", "\\x", "\\x4", "\\x41", "\\xzz", "\\n",
        "\\'", "\\\"", "a", "é", "\u{0b}", "\r", "\0", "3", "-1", "quit", ":set", "help", "x\"y\"",
        "'it\\'s'",
    ]);
    proptest::collection::vec(tokens, 0..24).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic_the_splitter(line in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = split_line(&line);
        let _ = prompt_action(&line);
    }

    #[test]
    fn quote_soups_never_panic_and_words_never_hold_a_raw_nul(line in token_soup()) {
        if let Ok(words) = split_line(&line) {
            // A raw NUL ends redis-cli's C string, so it can only reach a word as `\x00`.
            if !line.contains("\\x00") {
                prop_assert!(words.iter().all(|w| !w.contains(&0)), "{words:?}");
            }
        }
        let _ = prompt_action(&line);
    }

    #[test]
    fn words_quoted_like_redis_cli_split_back_to_themselves(
        words in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..16), 1..8),
        gaps in proptest::collection::vec(prop::sample::select(vec![" ", "  ", "\t", " \t "]), 8),
    ) {
        let mut line = String::new();
        for (word, gap) in words.iter().zip(gaps.iter().cycle()) {
            line.push_str(&quote(word));
            line.push_str(gap);
        }
        prop_assert_eq!(split_line(&line), Ok(words));
    }

    #[test]
    fn plain_words_split_on_any_run_of_whitespace(
        words in proptest::collection::vec("[A-Za-z0-9:{}_.-]{1,10}", 1..8),
    ) {
        let line = format!("  {}\r", words.join(" \t "));
        let split = split_line(&line).expect("plain words always split");
        let expected: Vec<Vec<u8>> = words.iter().map(|w| w.as_bytes().to_vec()).collect();
        prop_assert_eq!(split, expected);
    }

    #[test]
    fn a_leading_positive_count_repeats_the_command(count in 1u64..1000, word in "[A-Z]{1,8}") {
        prop_assume!(word != "HELP", "help is answered by the prompt, not sent");
        let action = prompt_action(format!("{count} {word}"));
        prop_assert_eq!(action, PromptAction::Send { times: count, command: vec![word.into_bytes()] });
    }
}
