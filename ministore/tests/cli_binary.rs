//! The `ministore` binary as a user drives it: stdin in redis-cli syntax, replies printed as
//! `redis-cli --no-raw` prints them (expected texts captured from redis-cli 7.0.15), and no
//! input — however malformed — may crash it.

// The `ministore` binary and `serve` are part of the `full` feature.
#![cfg(feature = "full")]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use proptest::prelude::*;

fn run(input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ministore"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ministore");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("wait for ministore");
    let _ = writer.join();
    output
}

/// Runs `input` and returns stdout, asserting the run ended cleanly.
fn session(input: &str) -> String {
    let output = run(input.as_bytes());
    assert!(output.status.success(), "ministore failed: {output:?}");
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("ministore prints UTF-8")
}

#[test]
fn replies_print_like_redis_cli_no_raw() {
    let out = session("PING\nSET resource:lock abc NX PX 30000\nGET resource:lock\nTTL resource:lock\nGET nolock\n");
    assert_eq!(out, "PONG\nOK\n\"abc\"\n(integer) 30\n(nil)\n");
}

#[test]
fn errors_print_with_the_error_prefix() {
    let out = session("GET\n");
    assert_eq!(
        out,
        "(error) ERR wrong number of arguments for 'get' command\n"
    );
}

#[test]
fn nested_script_replies_are_numbered_and_indented() {
    let out = session("EVAL \"return {1,{2,3},{},{'a',{4,{5}}}}\" 0\n");
    let expected = "1) (integer) 1\n2) 1) (integer) 2\n   2) (integer) 3\n3) (empty array)\n\
                    4) 1) \"a\"\n   2) 1) (integer) 4\n      2) 1) (integer) 5\n";
    assert_eq!(out, expected);
}

#[test]
fn quoted_arguments_round_trip_with_redis_cli_escaping() {
    let out = session("SET k \"x\\\"y\\\\z\\n\\x00\\xff\"\nGET k\nSET s 'it\\'s'\nGET s\n");
    assert_eq!(out, "OK\n\"x\\\"y\\\\z\\n\\x00\\xff\"\nOK\n\"it's\"\n");
}

#[test]
fn blank_lines_are_skipped_and_bad_quoting_is_reported_without_stopping() {
    let out = session("\n   \n\t\nSET b \"unbalanced\nSET d \"ab\"cd\nPING\n");
    assert_eq!(out, "Invalid argument(s)\nInvalid argument(s)\nPONG\n");
}

#[test]
fn repeat_counts_quit_and_crlf_behave_like_the_prompt() {
    let out = session("3 PING\r\n0 PING\nECHO last\nquit\nPING\n");
    assert_eq!(
        out,
        "PONG\nPONG\nPONG\nInvalid redis-cli repeat command option value.\n\"last\"\n"
    );
}

#[test]
fn a_last_line_without_newline_still_runs() {
    assert_eq!(session("PING\nECHO end"), "PONG\n\"end\"\n");
}

#[test]
fn unknown_commands_get_redis_s_reply() {
    let out = session("NOPE x y\n");
    assert_eq!(
        out,
        "(error) ERR unknown command 'NOPE', with args beginning with: 'x' 'y' \n"
    );
}

#[test]
fn every_run_starts_with_an_empty_store_at_time_zero() {
    assert_eq!(session("SET k v EX 10\n"), "OK\n");
    assert_eq!(
        session("GET k\nDEBUG SLEEP 0.5\nSET k v PX 100\nPTTL k\n"),
        "(nil)\nOK\nOK\n(integer) 100\n"
    );
}

#[test]
fn arguments_get_the_usage_and_exit_2() {
    let output = Command::new(env!("CARGO_BIN_EXE_ministore"))
        .arg("--help")
        .output()
        .expect("run ministore");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("usage: ministore"));
}

proptest! {
    // Each case spawns a process, so keep the count small; the in-process fuzzers go wider.
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_input_crashes_the_binary(input in proptest::collection::vec(any::<u8>(), 0..400)) {
        let output = run(&input);
        prop_assert!(output.status.success(), "exit {:?}, stderr {}", output.status, String::from_utf8_lossy(&output.stderr));
        prop_assert!(output.stderr.is_empty());
    }

    #[test]
    fn no_command_soup_crashes_the_binary(
        lines in proptest::collection::vec(
            proptest::string::string_regex(
                "(SET|GET|DEL|EVAL|ZADD|HSET|INCR|PING|DEBUG|SCRIPT|3|quit|:set)( ([a-z0-9]{1,4}|\"[^\"]{0,6}\"|'x|-1|1e9|SLEEP|LOAD|NX|PX)){0,5}"
            ).expect("valid regex"),
            1..20,
        )
    ) {
        let output = run(lines.join("\n").as_bytes());
        prop_assert!(output.status.success(), "exit {:?}, stderr {}", output.status, String::from_utf8_lossy(&output.stderr));
    }
}
