//! The brief's two scenarios, run in ministore: every assertion is on what the store replied and
//! held, and on the verdict sentences rendered from that record.

use lockdive::scenarios::fence::{self, FenceLedger, FenceOutcome, Writer, WriterRole, FENCE_KEY};
use lockdive::scenarios::lost_lock::{
    self, Client, LostLockOutcome, ReleaseChoice, StepKind, A_TOKEN, B_TOKEN, LEASE_MS, STALL_MS,
};
use lockdive::scenarios::RELEASE_SCRIPT;
use ministore::{Reply, Store};

fn blind() -> LostLockOutcome {
    LostLockOutcome::run(ReleaseChoice::BlindDel)
}

fn checked() -> LostLockOutcome {
    LostLockOutcome::run(ReleaseChoice::TokenChecked)
}

fn writer(token: i64) -> Writer {
    Writer::ALL
        .into_iter()
        .find(|w| w.token == token)
        .expect("the figure has this writer")
}

#[test]
fn the_release_script_is_the_one_section_2_shows() {
    let expected = "-- safe release: DEL only if the stored token is still ours\n\
                    if redis.call(\"GET\", KEYS[1]) == ARGV[1] then\n  \
                    return redis.call(\"DEL\", KEYS[1])\nelse\n  return 0\nend\n";
    assert_eq!(RELEASE_SCRIPT, expected);
}

#[test]
fn the_scenario_has_section_1s_five_steps_in_order() {
    let run = blind();
    let titles: Vec<String> = run.steps.iter().map(|s| run.title_of(s)).collect();
    assert_eq!(
        titles,
        [
            "A acquires",
            "A stalls",
            "B acquires",
            "A releases",
            "wrong lock"
        ]
    );
    let numbers: Vec<u8> = run.steps.iter().map(|s| s.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
    let times: Vec<String> = run.steps.iter().map(|s| s.time_label()).collect();
    assert_eq!(
        times,
        [
            "t = 0 ms",
            "t = 0 → 12500 ms",
            "t = 10001 ms",
            "t = 12500 ms",
            "t = 12500 ms"
        ]
    );
}

#[test]
fn a_acquires_with_abc_and_stalls_past_its_lease() {
    let run = blind();
    let acquire = &run.steps[0];
    assert_eq!(
        acquire.command.as_deref(),
        Some("SET resource:lock abc NX PX 10000")
    );
    assert_eq!(acquire.reply, Some(Reply::ok()));
    assert_eq!(acquire.reply_text().as_deref(), Some("OK"));
    let held = acquire
        .key_after
        .as_ref()
        .expect("A's SET NX stored the key");
    assert_eq!(
        (held.value.as_str(), held.owner, held.ttl_ms),
        (A_TOKEN, Some(Client::A), Some(LEASE_MS))
    );
    let stall = &run.steps[1];
    assert_eq!(stall.kind, StepKind::Stall);
    assert_eq!((stall.started_ms, stall.until_ms), (0, STALL_MS));
    // What the stall shows is the store as B finds it, the moment the key is free.
    assert_eq!(stall.clock_ms, LEASE_MS + 1);
    assert_eq!(
        stall.key_after, None,
        "the store expired A's lock inside the stall"
    );
    assert_eq!(stall.lock_pttl, -2);
}

#[test]
fn the_expiry_is_shown_at_the_millisecond_the_store_drops_the_key_inside_as_stall() {
    let run = blind();
    let expiry = run
        .expiry()
        .expect("the store expired A's lock during the stall");
    assert_eq!(expiry.lock.owner, Some(Client::A));
    assert!(
        expiry.at_ms > 0 && expiry.at_ms < STALL_MS,
        "inside the stall"
    );
    // Ask the store itself: live one millisecond before, gone at that millisecond.
    let mut store = Store::new();
    store.exec(&["SET", lost_lock::LOCK_KEY, A_TOKEN, "NX", "PX", "10000"]);
    let mut before = store.clone();
    before.advance(expiry.at_ms - 1);
    assert_eq!(
        before.exec(&["EXISTS", lost_lock::LOCK_KEY]),
        Reply::Integer(1)
    );
    store.advance(expiry.at_ms);
    assert_eq!(
        store.exec(&["EXISTS", lost_lock::LOCK_KEY]),
        Reply::Integer(0)
    );
    assert_eq!(expiry.at_ms, LEASE_MS + 1);
}

#[test]
fn b_takes_the_same_key_with_xyz_while_a_still_believes_it_holds_it() {
    let run = blind();
    let b = &run.steps[2];
    assert_eq!(
        b.command.as_deref(),
        Some("SET resource:lock xyz NX PX 10000")
    );
    assert_eq!(b.reply, Some(Reply::ok()));
    assert!(run.acquired(Client::A) && run.acquired(Client::B));
    assert_eq!(
        run.found_before_release().map(|k| k.value.as_str()),
        Some(B_TOKEN)
    );
    // B took the key inside A's stall, the millisecond it was free.
    assert_eq!(
        run.two_believed(),
        Some((LEASE_MS + 1, Client::A, Client::B))
    );
    const { assert!(LEASE_MS + 1 < STALL_MS) };
}

#[test]
fn a_blind_del_after_takeover_deletes_bs_lock() {
    let run = blind();
    let release = run.release_step().expect("A releases");
    assert_eq!(release.command.as_deref(), Some("DEL resource:lock"));
    assert_eq!(release.reply_text().as_deref(), Some("(integer) 1"));
    assert_eq!(run.deleted_lock_of(), Some(Client::B));
    assert_eq!(run.key_after_release(), None);
    assert_eq!(run.holder_after(), None);
}

#[test]
fn after_the_blind_del_the_next_client_gets_in_beside_b_and_exclusion_breaks() {
    let run = blind();
    let probe = run.probe_step().expect("the next client tries");
    assert_eq!(probe.reply, Some(Reply::ok()));
    assert_eq!(run.proceeding(), [Client::B, Client::Next]);
    assert!(run.exclusion_broken());
    assert_eq!(
        run.verdict(),
        "blind DEL → A deletes B's lock, two clients now proceed, exclusion broken"
    );
    assert_eq!(
        run.readout(),
        "A deletes B's lock, the key is empty, two clients now proceed, exclusion broken."
    );
    assert_eq!(
        run.caveat(),
        None,
        "the verdict already says exclusion broke"
    );
}

#[test]
fn the_token_checked_release_is_a_no_op_and_bs_lock_stands() {
    let run = checked();
    let release = run.release_step().expect("A releases");
    assert_eq!(
        release.command.as_deref(),
        Some("EVAL <release.lua> 1 resource:lock abc")
    );
    assert_eq!(release.reply, Some(Reply::Integer(0)));
    assert_eq!(run.release_returned(), Some(0));
    assert_eq!(run.deleted_lock_of(), None);
    let after = run
        .key_after_release()
        .expect("B's lock is still under the key");
    assert_eq!(
        (after.value.as_str(), after.owner),
        (B_TOKEN, Some(Client::B))
    );
    assert_eq!(
        run.key_after_release(),
        run.found_before_release(),
        "the release was a no-op"
    );
    let probe = run.probe_step().expect("the next client tries");
    assert_eq!(probe.reply, Some(Reply::Nil), "the key is still taken");
    assert_eq!(run.proceeding(), [Client::B]);
    assert_eq!(run.title_of(probe), "B's lock stands");
    assert_eq!(
        run.verdict(),
        "token-checked release → A reads \"xyz\" ≠ \"abc\", returns 0, B's lock stands"
    );
    assert_eq!(
        run.readout(),
        "A reads \"xyz\" ≠ \"abc\", the script returns 0, A's release is a no-op, B's lock stands."
    );
}

#[test]
fn the_token_checked_release_does_not_fix_that_a_ran_past_its_lease() {
    let run = checked();
    // Two clients believed they held the lock at once: B from its SET, A until its release.
    assert_eq!(
        run.two_believed(),
        Some((LEASE_MS + 1, Client::A, Client::B))
    );
    assert!(run.exclusion_broken());
    let caveat = run.caveat().expect("the readout says what it does not fix");
    assert!(caveat.starts_with("What it does not fix: A ran past its lease, and B took the lock"));
    assert!(caveat.contains("refuses that write once B has written with its newer fencing token"));
    // B's SET came 2 499 ms before A resumed and released.
    assert!(caveat.contains("From B's SET until A's release, two clients believed"));
    assert!(caveat.contains("exclusion broke before the release ran"));
    assert!(caveat.contains(&format!("t = {} ms", LEASE_MS + 1)));
    assert!(caveat.contains(lost_lock::EXCLUSION_BROKE));
    // The readout says when exclusion broke and sends the reader to the rest, under the verdicts.
    assert_eq!(
        run.readout_caveat().as_deref(),
        Some(
            format!(
                "What it does not fix: B took the lock at t = {} ms, so two clients \
                 believed they held the lock at once before A's release ran. More under the \
                 static verdicts.",
                LEASE_MS + 1
            )
            .as_str()
        )
    );
}

#[test]
fn a_release_that_broke_exclusion_itself_has_no_caveat() {
    let run = blind();
    assert_eq!(run.caveat(), None);
    assert_eq!(run.readout_caveat(), None);
}

#[test]
fn no_choice_is_called_safe() {
    for run in [blind(), checked()] {
        for text in [
            run.verdict(),
            run.readout(),
            run.caveat().unwrap_or_default(),
            run.readout_caveat().unwrap_or_default(),
        ] {
            assert!(!text.contains("safe"), "{text}");
        }
    }
}

#[test]
fn the_evidence_shows_each_release_as_redis_cli_prints_it() {
    assert_eq!(
        blind().evidence(),
        [
            "A> DEL resource:lock → (integer) 1",
            "resource:lock now: (nil)",
            "next> SET resource:lock next NX PX 10000 → OK",
        ]
    );
    assert_eq!(
        checked().evidence(),
        [
            "A> EVAL <release.lua> 1 resource:lock abc → (integer) 0",
            "resource:lock now: \"xyz\" (B's lock, 7501 ms left)",
            "next> SET resource:lock next NX PX 10000 → (nil)",
        ]
    );
}

#[test]
fn the_idle_readout_states_the_setup_and_what_to_hover() {
    assert_eq!(
        lost_lock::idle_readout(&blind(), &checked()),
        "A stalled past its lease, B took the same key. Hover blind DEL to watch A delete B's lock, \
         then the token-checked release to watch A's release no-op."
    );
}

#[test]
fn the_runs_are_deterministic() {
    assert_eq!(blind(), blind());
    assert_eq!(checked(), checked());
    assert_eq!(FenceOutcome::run_all(), FenceOutcome::run_all());
}

#[test]
fn the_resource_has_seen_34_because_the_fenced_write_of_34_went_through() {
    assert_eq!(fence::max_seen_in_setup(), Some(34));
    let mut store = fence::seen_state();
    assert_eq!(store.exec(&["GET", FENCE_KEY]), Reply::bulk("34"));
    assert_eq!(
        fence::idle_readout(fence::max_seen_in_setup()),
        "The resource has accepted token 34. Hover a writer to read whether its token clears the fence."
    );
    assert!(fence::caption(Some(34))
        .starts_with("Run a fenced write — the resource has seen token 34."));
}

#[test]
fn writer_33_is_rejected_by_a_resource_that_has_seen_34() {
    let out = FenceOutcome::run(writer(33));
    assert_eq!(out.writer.role, WriterRole::Paused);
    assert_eq!(
        (
            out.token,
            out.max_seen_before,
            out.accepted,
            out.max_seen_after
        ),
        (33, Some(34), false, Some(34))
    );
    assert_eq!(
        cli_line(&out.reply),
        "(error) FENCED token 33 < max seen 34"
    );
    assert_eq!(
        out.data_after.as_deref(),
        Some("payload-34"),
        "the current holder's data stands"
    );
    assert_eq!(out.verdict(), "33 (paused) → 33 < 34, rejected");
    assert_eq!(out.readout(), "Writer 33 (paused): 33 < 34, rejected.");
}

#[test]
fn writer_34_clears_the_fence_it_set() {
    let out = FenceOutcome::run(writer(34));
    assert_eq!(
        (
            out.token,
            out.max_seen_before,
            out.accepted,
            out.max_seen_after
        ),
        (34, Some(34), true, Some(34))
    );
    assert_eq!(out.reply, Reply::Integer(34));
    assert_eq!(out.verdict(), "34 (current) → 34 ≥ 34, accepted");
}

#[test]
fn writer_35_is_accepted_and_raises_the_max_seen_to_35() {
    let out = FenceOutcome::run(writer(35));
    assert_eq!(
        (
            out.token,
            out.max_seen_before,
            out.accepted,
            out.max_seen_after
        ),
        (35, Some(34), true, Some(35))
    );
    assert_eq!(out.data_after.as_deref(), Some("payload-35"));
    assert_eq!(
        out.verdict(),
        "35 (next) → 35 > 34, accepted, max seen becomes 35"
    );
    assert_eq!(
        out.evidence(),
        [
            "35> EVAL <fenced_write.lua> 2 resource:fence resource:data 35 payload-35 → (integer) 35",
            "resource:fence now: \"35\" · resource:data now: \"payload-35\"",
        ]
    );
}

#[test]
fn every_what_if_starts_from_seen_34_not_from_the_previous_write() {
    let outcomes = FenceOutcome::run_all();
    assert!(outcomes.iter().all(|o| o.max_seen_before == Some(34)));
    let verdicts: Vec<String> = outcomes.iter().map(FenceOutcome::verdict).collect();
    assert_eq!(
        verdicts,
        [
            "33 (paused) → 33 < 34, rejected",
            "34 (current) → 34 ≥ 34, accepted",
            "35 (next) → 35 > 34, accepted, max seen becomes 35",
        ]
    );
}

#[test]
fn after_35_is_committed_35_is_the_current_writer_and_34_a_stale_one() {
    let mut ledger = FenceLedger::new();
    ledger.commit(writer(35)).expect("room in the log");
    let board = ledger.board();
    assert_eq!(board.max_seen, Some(35));
    let labels: Vec<String> = [33, 34, 35]
        .map(|t| writer(t).label(board.max_seen))
        .to_vec();
    assert_eq!(labels, ["33 (paused)", "34 (stale)", "35 (current)"]);
    let readouts: Vec<String> = board.what_ifs.iter().map(FenceOutcome::readout).collect();
    assert_eq!(
        readouts,
        [
            "Writer 33 (paused): 33 < 35, rejected.",
            "Writer 34 (stale): 34 < 35, rejected.",
            "Writer 35 (current): 35 ≥ 35, accepted.",
        ]
    );
    // The commit itself is read against the fence it met: 35 was the next grant then.
    assert!(ledger.log()[0]
        .readout()
        .starts_with("Writer 35 (next): 35 > 34"));
}

#[test]
fn the_fence_answers_a_token_or_max_seen_that_is_not_a_number_with_an_error_reply() {
    let refused = Reply::Error(
        "ERR fencing tokens must be decimal integers of at most 15 digits".to_string(),
    );
    let mut store = fence::seen_state();
    let reply = store.eval(
        lockdive::scenarios::FENCED_WRITE_SCRIPT,
        &[FENCE_KEY, fence::DATA_KEY],
        &["thirty-three", "payload"],
    );
    assert_eq!(reply, refused);
    assert_eq!(store.exec(&["GET", FENCE_KEY]), Reply::bulk("34"));

    store.exec(&["SET", FENCE_KEY, "not-a-token"]);
    let reply = store.eval(
        lockdive::scenarios::FENCED_WRITE_SCRIPT,
        &[FENCE_KEY, fence::DATA_KEY],
        &["35", "payload"],
    );
    assert_eq!(reply, refused);
}

#[test]
fn the_fence_takes_only_plain_decimal_integers() {
    let writes = fence::not_plain_integer_writes();
    let tokens: Vec<&str> = writes.iter().map(|(t, _, _)| *t).collect();
    assert_eq!(tokens, ["1e3", "0x22", " 34", "34.0", "1234567890123456"]);
    for (token, reply, kept) in &writes {
        assert_eq!(
            reply,
            &Reply::Error(
                "ERR fencing tokens must be decimal integers of at most 15 digits".to_string()
            ),
            "{token:?}"
        );
        assert!(kept, "{token:?} left the max seen as it was");
    }
    // A stored "1e3" is not a token either: it never compares as 999 < 1000.
    let mut store = fence::seen_state();
    store.exec(&["SET", FENCE_KEY, "1e3"]);
    let reply = store.eval(
        lockdive::scenarios::FENCED_WRITE_SCRIPT,
        &[FENCE_KEY, fence::DATA_KEY],
        &["999", "payload"],
    );
    assert!(reply.is_error());
    // The largest 15-digit token is one: the note's bound holds.
    let mut store = fence::seen_state();
    let reply = store.eval(
        lockdive::scenarios::FENCED_WRITE_SCRIPT,
        &[FENCE_KEY, fence::DATA_KEY],
        &["999999999999999", "payload"],
    );
    assert_eq!(reply, Reply::Integer(999_999_999_999_999));
    let refused = "(error) ERR fencing tokens must be decimal integers of at most 15 digits";
    assert_eq!(
        fence::not_plain_integer_note(),
        format!(
            "Only plain decimal integers of at most 15 digits are tokens; a write with any other \
             token gets an error reply and leaves the max seen as it was: \"1e3\" → {refused} · \
             \"0x22\" → {refused} · \" 34\" → {refused} · \"34.0\" → {refused} · \
             \"1234567890123456\" → {refused}."
        )
    );
}

fn cli_line(reply: &Reply) -> String {
    lockdive::scenarios::cli_text(reply)
}

/// The scenarios' commands and both Lua scripts, replayed through real Redis 7.0 (the oracle)
/// and through ministore, must print the same replies. Real Redis runs on wall-clock time, so the
/// transcript uses a 100 ms lease and `DEBUG SLEEP` (which ministore turns into a clock advance).
mod against_real_redis {

    use lockdive::scenarios::fence::{DATA_KEY, FENCE_KEY};
    use lockdive::scenarios::lost_lock::{A_TOKEN, B_TOKEN, LOCK_KEY};
    use lockdive::scenarios::{FENCED_WRITE_SCRIPT, RELEASE_SCRIPT};
    use ministore::Store;

    use redis_oracle::{required, RedisServer};

    /// The same lines through ministore, printed the way redis-cli prints them.
    fn replay_in_ministore(lines: &[String]) -> String {
        let mut store = Store::new();
        lines
            .iter()
            .map(|line| {
                let args = ministore::cli::split_line(line).expect("a well-formed command line");
                store.exec(&args).to_cli_text()
            })
            .collect()
    }

    /// A redis-cli double-quoted argument.
    fn quoted(text: &str) -> String {
        let escaped = text
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n");
        format!("\"{escaped}\"")
    }

    fn lost_lock_lines(release: &str) -> Vec<String> {
        vec![
            format!("SET {LOCK_KEY} {A_TOKEN} NX PX 100"),
            "DEBUG SLEEP 0.2".to_string(),
            format!("GET {LOCK_KEY}"),
            format!("SET {LOCK_KEY} {B_TOKEN} NX PX 100000"),
            release.to_string(),
            format!("GET {LOCK_KEY}"),
            format!("SET {LOCK_KEY} next NX PX 100000"),
            "FLUSHALL".to_string(),
        ]
    }

    fn fenced_write(token: &str) -> String {
        let script = quoted(FENCED_WRITE_SCRIPT);
        format!("EVAL {script} 2 {FENCE_KEY} {DATA_KEY} {token} payload-{token}")
    }

    #[test]
    fn both_releases_and_every_fenced_write_reply_as_real_redis_does() {
        let Some(redis) = required(RedisServer::start()) else {
            return;
        };
        let mut lines = lost_lock_lines(&format!("DEL {LOCK_KEY}"));
        let token_checked = format!("EVAL {} 1 {LOCK_KEY} {A_TOKEN}", quoted(RELEASE_SCRIPT));
        lines.extend(lost_lock_lines(&token_checked));
        for token in ["34", "33", "34", "35", "34", "thirty-three"] {
            lines.push(fenced_write(token));
            lines.push(format!("GET {FENCE_KEY}"));
            lines.push(format!("GET {DATA_KEY}"));
        }
        let script = quoted(FENCED_WRITE_SCRIPT);
        for token in lockdive::scenarios::fence::NOT_PLAIN_INTEGERS {
            let token = quoted(token);
            lines.push(format!(
                "EVAL {script} 2 {FENCE_KEY} {DATA_KEY} {token} late"
            ));
            lines.push(format!("GET {FENCE_KEY}"));
        }
        lines.push(format!("SET {FENCE_KEY} 1e3"));
        lines.push(format!("EVAL {script} 2 {FENCE_KEY} {DATA_KEY} 999 late"));
        let from_redis = redis.replay(&lines);
        let from_ministore = replay_in_ministore(&lines);
        assert_eq!(
            from_redis.lines().count(),
            lines.len(),
            "one reply per line:\n{from_redis}"
        );
        for ((line, want), got) in lines
            .iter()
            .zip(from_redis.lines())
            .zip(from_ministore.lines())
        {
            assert_eq!(got, want, "ministore differs from Redis on: {line}");
        }
        assert!(from_redis.contains("(error) FENCED token 33 < max seen 34"));
        assert!(from_redis.contains("(error) FENCED token 34 < max seen 35"));
        assert_eq!(
            from_redis
                .matches("(error) ERR fencing tokens must be decimal integers of at most 15 digits")
                .count(),
            7,
            "thirty-three, the four near-numbers, a 16-digit token and a stored 1e3 are refused"
        );
    }
}
