//! The console's line handling, natively: commands against each figure's store, replies as
//! redis-cli prints them, errors, history with ↑/↓, multi-line pastes, and the step budget that
//! stops a runaway script.
#![cfg(not(target_arch = "wasm32"))]

use lockdive::scenarios::console::{
    paste, quote_word, reply_lines, Console, ConsoleSeed, OutputLine, Paste, Tone, MAX_REPEAT,
    MAX_REPLY_LINES,
};
use lockdive::scenarios::lost_lock::{LostLockOutcome, ReleaseChoice, LOCK_KEY};
use lockdive::scenarios::RELEASE_SCRIPT;
use ministore::Reply;

/// What `line` printed, without the tones.
fn texts(console: &mut Console, line: &str) -> Vec<String> {
    console.run(line).into_iter().map(|l| l.text).collect()
}

/// An error reply's line, as the console prints it.
fn error(text: &str) -> OutputLine {
    OutputLine {
        text: text.to_string(),
        tone: Tone::Error,
    }
}

#[test]
fn the_lost_lock_console_starts_where_figure_1s_token_checked_run_ended() {
    let mut console = Console::new(ConsoleSeed::LostLock);
    assert_eq!(texts(&mut console, "GET resource:lock"), ["\"xyz\""]);
    let run = LostLockOutcome::run(ReleaseChoice::TokenChecked);
    let held = run
        .key_at_end()
        .cloned()
        .expect("B's lock stands at the end of the run");
    assert_eq!(
        texts(&mut console, "PTTL resource:lock"),
        [format!(
            "(integer) {}",
            held.ttl_ms.expect("B's lock has a lease")
        )]
    );
}

#[test]
fn pasting_the_release_script_on_one_line_with_as_token_returns_0() {
    let mut console = Console::new(ConsoleSeed::LostLock);
    let line = format!("EVAL {} 1 {LOCK_KEY} abc", quote_word(RELEASE_SCRIPT));
    assert!(!line.contains('\n'));
    assert_eq!(texts(&mut console, &line), ["(integer) 0"]);
    assert_eq!(texts(&mut console, "GET resource:lock"), ["\"xyz\""]);
    let line = format!("EVAL {} 1 {LOCK_KEY} xyz", quote_word(RELEASE_SCRIPT));
    assert_eq!(texts(&mut console, &line), ["(integer) 1"]);
    assert_eq!(texts(&mut console, "GET resource:lock"), ["(nil)"]);
}

#[test]
fn the_eval_example_runs_the_release_script_as_the_file_holds_it() {
    // Byte for byte, so the script the example caches is the one the EVALSHA example names.
    let mut console = Console::new(ConsoleSeed::LostLock);
    let examples = ConsoleSeed::LostLock.examples();
    let eval = examples.iter().find(|l| l.starts_with("EVAL ")).unwrap();
    let words = ministore::cli::split_line(eval).unwrap();
    assert_eq!(words[1], RELEASE_SCRIPT.as_bytes());
    let evalsha = examples.iter().find(|l| l.starts_with("EVALSHA ")).unwrap();
    let sha = evalsha.split(' ').nth(1).unwrap();
    assert_eq!(texts(&mut console, "SCRIPT FLUSH"), ["OK"]);
    assert_eq!(texts(&mut console, eval), ["(integer) 0"]);
    assert_eq!(
        texts(&mut console, &format!("SCRIPT EXISTS {sha}")),
        ["1) (integer) 1"]
    );
}

#[test]
fn a_hand_written_one_line_release_works_too() {
    let mut console = Console::new(ConsoleSeed::LostLock);
    let line = "EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end\" 1 resource:lock abc";
    assert_eq!(texts(&mut console, line), ["(integer) 0"]);
}

#[test]
fn the_fence_console_has_seen_34_and_its_script_loaded() {
    let mut console = Console::new(ConsoleSeed::Fence);
    assert_eq!(texts(&mut console, "GET resource:fence"), ["\"34\""]);
    let examples = ConsoleSeed::Fence.examples();
    let late = examples
        .iter()
        .find(|e| e.contains(" 33 "))
        .expect("an example with token 33");
    let out = console.run(late);
    assert_eq!(out, [error("(error) FENCED token 33 < max seen 34")]);
    let next = examples
        .iter()
        .find(|e| e.contains(" 35 "))
        .expect("an example with token 35");
    assert_eq!(texts(&mut console, next), ["(integer) 35"]);
}

#[test]
fn the_attempts_console_holds_the_completed_job_and_refuses_w1_again() {
    let mut console = Console::new(ConsoleSeed::Attempts);
    assert_eq!(
        texts(&mut console, "HGET emq:{mail}:job:42 state"),
        ["\"completed\""]
    );
    assert_eq!(
        texts(&mut console, "HGET emq:{mail}:job:42 attempts"),
        ["\"2\""]
    );
    let stale = ConsoleSeed::Attempts
        .examples()
        .into_iter()
        .find(|e| e.starts_with("EVALSHA") && e.ends_with(" 42 1"))
        .expect("a stale complete example");
    assert_eq!(
        console.run(&stale),
        [error("(error) EMQSTALE complete token mismatch")]
    );
}

#[test]
fn every_example_runs_without_an_unknown_command_or_noscript() {
    for seed in [
        ConsoleSeed::LostLock,
        ConsoleSeed::Fence,
        ConsoleSeed::Attempts,
    ] {
        let mut console = Console::new(seed);
        for example in seed.examples() {
            for line in texts(&mut console, &example) {
                assert!(
                    !line.contains("NOSCRIPT") && !line.contains("unknown command"),
                    "{seed:?}: {example} printed {line}"
                );
            }
        }
    }
}

#[test]
fn bad_input_gets_an_error_reply_never_a_panic() {
    let mut console = Console::new(ConsoleSeed::LostLock);
    let cases = [
        ("FOO bar", "(error) ERR unknown command 'FOO'"),
        (
            "GET",
            "(error) ERR wrong number of arguments for 'get' command",
        ),
        ("SET k \"unbalanced", "Invalid argument(s)"),
        ("EVAL \"return +\" 0", "(error) ERR Error compiling script"),
        (
            "EVAL \"return 1\" notanumber",
            "(error) ERR value is not an integer",
        ),
        ("EVALSHA deadbeef 0", "(error) NOSCRIPT"),
        ("HGET resource:lock f", "(error) WRONGTYPE"),
    ];
    for (line, starts) in cases {
        let out = texts(&mut console, line);
        assert!(
            out.first().is_some_and(|l| l.starts_with(starts)),
            "{line}: {out:?}"
        );
    }
    let out = console.run("FOO");
    assert!(out.iter().all(|l| l.tone == Tone::Error));
}

#[test]
fn a_runaway_script_is_stopped_by_the_step_budget_and_a_note_says_what_redis_does() {
    let mut console = Console::new(ConsoleSeed::LostLock);
    let out = console.run("EVAL \"while true do end\" 0");
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0].tone, Tone::Error);
    assert!(out[0].text.starts_with("(error) "), "{out:?}");
    // Visibly not a reply: its own tone, and it says so first.
    assert_eq!(out[1].tone, Tone::Note);
    assert_eq!(out[1].text, lockdive::scenarios::console::RUNAWAY_NOTE);
    for words in ["not a reply", "keeps running", "5 s", "BUSY", "SCRIPT KILL"] {
        assert!(out[1].text.contains(words), "{words}: {}", out[1].text);
    }
    // Repeated, it is stopped once and noted once.
    assert_eq!(console.run("3 EVAL \"while true do end\" 0").len(), 2);
    // The store still answers afterwards.
    assert_eq!(texts(&mut console, "GET resource:lock"), ["\"xyz\""]);
}

#[test]
fn each_console_label_comes_from_its_figures_run() {
    assert_eq!(
        ConsoleSeed::LostLock.label(),
        "Console — the lost-lock figure's store after the token-checked release (B holds the lock)"
    );
    assert_eq!(
        ConsoleSeed::Fence.label(),
        "Console — the fenced resource that has seen token 34"
    );
    assert_eq!(
        ConsoleSeed::Attempts.label(),
        "Console — EchoMQ's queue after W1's complete (refused) and W2's complete (accepted)"
    );
}

#[test]
fn the_fence_console_refuses_a_token_that_is_not_a_plain_integer() {
    let mut console = Console::new(ConsoleSeed::Fence);
    let sha = ConsoleSeed::Fence.examples()[1]
        .split(' ')
        .nth(1)
        .expect("the example's sha")
        .to_string();
    for token in ["1e3", "0x22", "\" 34\"", "34.0"] {
        assert_eq!(
            texts(
                &mut console,
                &format!("EVALSHA {sha} 2 resource:fence resource:data {token} x")
            ),
            ["(error) ERR fencing tokens must be decimal integers of at most 15 digits"],
            "{token}"
        );
    }
    assert_eq!(texts(&mut console, "GET resource:fence"), ["\"34\""]);
}

#[test]
fn a_huge_repeat_count_is_cut_down() {
    let mut console = Console::new(ConsoleSeed::LostLock);
    let out = console.run("1000000000 PING");
    assert_eq!(out[0].tone, Tone::Note);
    assert!(out[0].text.contains(&MAX_REPEAT.to_string()));
    assert_eq!(out.len() as u64, MAX_REPEAT + 1);
    assert_eq!(texts(&mut console, "2 PING"), ["PONG", "PONG"]);
}

#[test]
fn a_long_reply_is_cut_short_with_a_note() {
    let reply = Reply::Array((0..1000).map(Reply::Integer).collect());
    let lines = reply_lines(&reply);
    assert_eq!(lines.len(), MAX_REPLY_LINES + 1);
    assert_eq!(lines[MAX_REPLY_LINES].tone, Tone::Note);
    assert!(lines[MAX_REPLY_LINES].text.contains("800 more lines"));
}

#[test]
fn history_walks_back_with_up_and_forward_with_down_to_the_draft() {
    let mut console = Console::new(ConsoleSeed::Fence);
    assert_eq!(console.history_up("x"), None, "no history yet");
    for line in [
        "GET resource:fence",
        "GET resource:data",
        "GET resource:data",
        "  ",
    ] {
        let _ = console.submit(line);
    }
    assert_eq!(
        console.history(),
        ["GET resource:fence", "GET resource:data"],
        "repeats and blank lines are not kept"
    );
    assert_eq!(
        console.history_up("PTT").as_deref(),
        Some("GET resource:data")
    );
    assert_eq!(
        console.history_up("ignored").as_deref(),
        Some("GET resource:fence")
    );
    assert_eq!(console.history_up("ignored"), None, "the oldest is the end");
    assert_eq!(console.history_down().as_deref(), Some("GET resource:data"));
    assert_eq!(console.history_down().as_deref(), Some("PTT"), "the draft");
    assert_eq!(console.history_down(), None, "no longer browsing");
}

#[test]
fn clear_empties_the_log_and_reset_restores_the_seed() {
    let mut console = Console::new(ConsoleSeed::LostLock);
    let _ = console.submit("DEL resource:lock");
    assert_eq!(console.log().len(), 1);
    assert!(console.submit("clear").is_none());
    assert!(console.log().is_empty());
    assert_eq!(texts(&mut console, "GET resource:lock"), ["(nil)"]);
    console.reset();
    assert!(console.log().is_empty());
    assert_eq!(texts(&mut console, "GET resource:lock"), ["\"xyz\""]);
    assert_eq!(console.history().len(), 3, "history survives a reset");
}

#[test]
fn quit_and_help_are_answered_by_the_console() {
    let mut console = Console::new(ConsoleSeed::LostLock);
    let out = console.run("quit");
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].tone, Tone::Note);
    let help = texts(&mut console, "help");
    assert!(help.iter().any(|l| l.contains("redis-cli")));
}

#[test]
fn a_multi_line_paste_inside_quotes_is_escaped_into_them() {
    let Paste::Insert(text) = paste("EVAL \"", RELEASE_SCRIPT) else {
        panic!("a paste inside quotes is inserted");
    };
    assert!(!text.contains('\n'));
    let line = format!("EVAL \"{text}\" 1 resource:lock abc");
    let mut console = Console::new(ConsoleSeed::LostLock);
    assert_eq!(texts(&mut console, &line), ["(integer) 0"]);
}

#[test]
fn a_multi_line_paste_after_eval_becomes_one_quoted_word() {
    let Paste::Insert(text) = paste("EVAL", RELEASE_SCRIPT) else {
        panic!("a paste after a word is inserted");
    };
    let line = format!("EVAL{text}1 resource:lock xyz");
    let mut console = Console::new(ConsoleSeed::LostLock);
    assert_eq!(texts(&mut console, &line), ["(integer) 1"]);
}

#[test]
fn a_multi_line_paste_at_an_empty_prompt_runs_each_line() {
    let Paste::RunLines(lines) = paste("", "GET resource:lock\r\n\r\nPTTL resource:lock\n") else {
        panic!("pasted command lines run one by one");
    };
    assert_eq!(lines, ["GET resource:lock", "PTTL resource:lock"]);
    let mut console = Console::new(ConsoleSeed::LostLock);
    console.submit_lines(&lines);
    assert_eq!(console.log().len(), 2);
    assert_eq!(console.log()[0].output[0].text, "\"xyz\"");
}

#[test]
fn a_script_pasted_at_an_empty_prompt_is_wrapped_in_eval() {
    let Paste::Insert(text) = paste("", RELEASE_SCRIPT) else {
        panic!("a pasted script is inserted, not run line by line");
    };
    assert!(text.starts_with("EVAL \""), "{text}");
    let mut console = Console::new(ConsoleSeed::LostLock);
    assert_eq!(
        texts(&mut console, &format!("{text}1 resource:lock abc")),
        ["(integer) 0"]
    );
}

#[test]
fn a_one_line_paste_is_inserted_as_it_is() {
    assert_eq!(
        paste("GET ", "resource:lock\n"),
        Paste::Insert("resource:lock".to_string())
    );
}

#[test]
fn the_log_keeps_the_typed_line_and_unique_ids() {
    let mut console = Console::new(ConsoleSeed::Fence);
    let _ = console.submit("PING");
    let _ = console.submit("ECHO \"a b\"");
    let log = console.log();
    assert_eq!(log[0].input, "PING");
    assert_eq!(log[1].input, "ECHO \"a b\"");
    assert_eq!(log[1].output[0].text, "\"a b\"");
    assert_ne!(log[0].id, log[1].id);
}
