//! The attempts fence of §4, run in ministore: every frame's reply and job hash, every
//! transition's outcome, and the verdict sentences rendered from them. The scripts are also
//! replayed through real Redis 7.0 (the oracle) and must print the same replies.
#![cfg(not(target_arch = "wasm32"))]

use lockdive::scenarios::attempts::{
    self, AttemptsRun, FrameKind, Lane, Transition, JOB_ID, LEASE_MS, PAYLOAD, REAP_AT_MS,
    W1_STALL_MS,
};
use ministore::Reply;

fn run() -> AttemptsRun {
    AttemptsRun::run()
}

fn outcome(transition: Transition) -> attempts::TransitionOutcome {
    run()
        .outcome(transition)
        .cloned()
        .expect("every transition is tried")
}

#[test]
fn the_frames_are_enqueue_w1_claims_w1_stalls_reaper_runs_w2_claims() {
    let run = run();
    let titles: Vec<String> = run.frames.iter().map(|f| f.title()).collect();
    assert_eq!(
        titles,
        [
            "job 42 enqueued",
            "W1 claims",
            "W1 stalls",
            "reaper runs",
            "W2 claims"
        ]
    );
    let numbers: Vec<u8> = run.frames.iter().map(|f| f.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
}

#[test]
fn the_job_waits_with_attempts_0_after_enqueue() {
    let run = run();
    let enqueue = &run.frames[0];
    assert_eq!(enqueue.kind, FrameKind::Enqueue);
    assert_eq!(enqueue.reply, Some(Reply::Integer(1)));
    // Both commands' replies, as the command line joins them: HSET added three fields.
    assert_eq!(enqueue.earlier_replies, [Reply::Integer(3)]);
    assert_eq!(
        enqueue.reply_text().as_deref(),
        Some("(integer) 3 · (integer) 1")
    );
    assert_eq!(enqueue.job_after.state.as_deref(), Some("waiting"));
    assert_eq!(enqueue.job_after.attempts, Some(0));
    assert_eq!(enqueue.job_after.payload.as_deref(), Some(PAYLOAD));
    assert!(enqueue.job_after.waiting);
    assert_eq!(enqueue.job_after.lease_deadline_ms, None);
}

#[test]
fn w1_claims_job_42_and_attempts_becomes_1() {
    let run = run();
    let claim = run.frame(Lane::W1, FrameKind::Claim).expect("W1 claims");
    assert_eq!(
        claim.reply,
        Some(Reply::Array(vec![
            Reply::bulk(JOB_ID),
            Reply::bulk(PAYLOAD),
            Reply::Integer(1)
        ]))
    );
    assert_eq!(run.w1_att, Some(1));
    assert_eq!(claim.job_after.state.as_deref(), Some("active"));
    assert_eq!(claim.job_after.attempts, Some(1));
    assert_eq!(claim.job_after.lease_deadline_ms, Some(LEASE_MS as f64));
    assert!(!claim.job_after.waiting);
    assert_eq!(
        claim.reply_text().as_deref(),
        Some("1) \"42\"\n2) \"send-welcome-email\"\n3) (integer) 1")
    );
    assert!(
        claim.command.as_deref().is_some_and(
            |c| c.starts_with("EVAL <emq_claim.lua> 2 emq:{mail}:wait emq:{mail}:active")
        )
    );
}

#[test]
fn w1_stalls_past_its_lease_and_the_job_still_looks_active() {
    let run = run();
    let stall = run.frame(Lane::W1, FrameKind::Stall).expect("W1 stalls");
    // W1 is stalled until 13 000 ms; the frame shows the store as the reaper finds it.
    assert_eq!((stall.clock_ms, stall.until_ms), (REAP_AT_MS, W1_STALL_MS));
    // The stall is a span, from W1's claim to its end; every other frame takes no time.
    let claim = run.frame(Lane::W1, FrameKind::Claim).expect("W1 claims");
    assert_eq!(stall.started_ms, claim.clock_ms);
    assert_eq!(stall.time_label(), format!("t = 0 → {W1_STALL_MS} ms"));
    assert_eq!(claim.time_label(), "t = 0 ms");
    const { assert!(W1_STALL_MS > LEASE_MS) };
    assert!(run.w1_stalled_past_lease());
    // Nothing has noticed yet: the hash still says active, with W1's count.
    assert_eq!(stall.job_after.state.as_deref(), Some("active"));
    assert_eq!(stall.job_after.attempts, Some(1));
}

/// §4's order: W1 is still stalled while the reaper reaps and W2 re-claims, and every what-if
/// runs as W1 resumes.
#[test]
fn the_reap_and_the_reclaim_happen_while_w1_is_stalled() {
    let run = run();
    let stall = run.frame(Lane::W1, FrameKind::Stall).expect("W1 stalls");
    for frame in [
        run.frame(Lane::Reaper, FrameKind::Reap)
            .expect("reaper runs"),
        run.frame(Lane::W2, FrameKind::Claim).expect("W2 claims"),
    ] {
        assert!(frame.clock_ms < stall.until_ms, "{frame:?}");
        assert_eq!(
            run.still_stalled(Lane::W1, frame).as_deref(),
            Some("still stalled, until t = 13000 ms")
        );
        assert_eq!(run.still_stalled(Lane::W2, frame), None);
    }
    assert_eq!(run.reclaimed_state().now_ms(), stall.until_ms);
}

#[test]
fn the_reaper_moves_the_expired_job_back_to_wait() {
    let run = run();
    let reap = run
        .frame(Lane::Reaper, FrameKind::Reap)
        .expect("reaper runs");
    assert_eq!(reap.reply, Some(Reply::Array(vec![Reply::bulk(JOB_ID)])));
    assert_eq!(run.reaped_ids(), [JOB_ID]);
    assert_eq!(reap.job_after.state.as_deref(), Some("waiting"));
    assert!(reap.job_after.waiting);
    assert_eq!(reap.job_after.lease_deadline_ms, None);
    // Reaping does not touch the fence.
    assert_eq!(reap.job_after.attempts, Some(1));
}

#[test]
fn w2_reclaims_the_job_and_attempts_becomes_2() {
    let run = run();
    let claim = run.frame(Lane::W2, FrameKind::Claim).expect("W2 claims");
    assert_eq!(
        claim.reply,
        Some(Reply::Array(vec![
            Reply::bulk(JOB_ID),
            Reply::bulk(PAYLOAD),
            Reply::Integer(2)
        ]))
    );
    assert_eq!(run.w2_att, Some(2));
    assert_eq!(claim.job_after.state.as_deref(), Some("active"));
    assert_eq!(claim.job_after.attempts, Some(2));
    assert_eq!(
        claim.job_after.lease_deadline_ms,
        Some((claim.clock_ms + LEASE_MS) as f64)
    );
}

#[test]
fn w1s_stale_complete_is_refused_with_emqstale() {
    let o = outcome(Transition::W1Complete);
    assert_eq!(o.presented, Some(1));
    assert_eq!(o.stored, Some(2));
    assert_eq!(
        o.reply,
        Reply::Error("EMQSTALE complete token mismatch".to_string())
    );
    assert!(!o.accepted());
    assert_eq!(
        o.job_after, o.job_before,
        "a refused complete changes nothing"
    );
    assert_eq!(
        o.verdict(),
        "W1 complete (att 1) → att 1 ≠ attempts 2, refused with EMQSTALE complete token mismatch, \
         job 42 stays active"
    );
}

#[test]
fn w1s_stale_retry_is_refused_with_the_retry_fence() {
    let o = outcome(Transition::W1Retry);
    assert_eq!(
        o.reply,
        Reply::Error("EMQSTALE retry token mismatch".to_string())
    );
    assert_eq!(o.job_after, o.job_before);
    assert!(o
        .verdict()
        .contains("refused with EMQSTALE retry token mismatch"));
}

#[test]
fn w2s_complete_succeeds_and_the_job_is_completed() {
    let o = outcome(Transition::W2Complete);
    assert_eq!(o.presented, Some(2));
    assert_eq!(o.reply, Reply::Integer(1));
    assert!(o.accepted());
    assert_eq!(o.job_after.state.as_deref(), Some("completed"));
    assert_eq!(
        o.job_after.lease_deadline_ms, None,
        "completed jobs leave active"
    );
    assert_eq!(o.job_after.attempts, Some(2));
    assert_eq!(
        o.verdict(),
        "W2 complete (att 2) → att 2 = attempts 2, accepted, job 42 is now completed"
    );
}

#[test]
fn the_readout_explains_the_fence_and_shows_the_call_as_redis_cli_prints_it() {
    let o = outcome(Transition::W1Complete);
    assert!(o
        .readout()
        .starts_with("W1 calls @complete: att 1 ≠ attempts 2"));
    assert!(o.readout().contains("fenced out"));
    assert_eq!(
        o.evidence(),
        [
            "W1> EVAL <emq_complete.lua> 2 emq:{mail}:active emq:{mail}:job:42 42 1 → \
             (error) EMQSTALE complete token mismatch",
            "emq:{mail}:job:42 now: state=active attempts=2 · in active until 22500 ms",
        ]
    );
    let w2 = outcome(Transition::W2Complete);
    assert!(!w2.readout().contains("fenced out"));
    assert!(w2.evidence()[0].ends_with("→ (integer) 1"));
}

#[test]
fn the_idle_readout_states_the_setup_and_names_every_alternative() {
    assert_eq!(
        run().idle_readout(),
        "W1 claimed with att 1 and stalled past its lease; the reaper moved job 42 back to wait and \
         W2 re-claimed it with att 2. From there, at t = 13000 ms, W1's complete, W1's retry and \
         W2's complete are each a separate what-if: hover one to run it against the fence."
    );
}

#[test]
fn the_caption_comes_from_the_run() {
    assert_eq!(
        run().caption(),
        "The attempts fence — W1's lease is reaped and W2 re-claims the job. Hover a complete or \
         the retry to light its path and read whether the fence lets it through."
    );
}

#[test]
fn a_refusal_says_it_cannot_guard_side_effects_already_done() {
    for transition in [Transition::W1Complete, Transition::W1Retry] {
        let caveat = outcome(transition)
            .caveat()
            .expect("a refusal has a caveat");
        assert!(
            caveat.contains("not what W1 did before this call"),
            "{caveat}"
        );
        assert!(
            caveat.contains("once a newer grant's token has reached it"),
            "{caveat}"
        );
        assert!(caveat.contains(PAYLOAD), "{caveat}");
        assert_eq!(
            outcome(transition).readout_caveat().as_deref(),
            Some(
                "What the refusal guards is job 42's state in Redis, not what W1 did before \
                 this call. More under the static verdicts."
            )
        );
    }
    assert_eq!(outcome(Transition::W2Complete).caveat(), None);
    assert_eq!(outcome(Transition::W2Complete).readout_caveat(), None);
}

#[test]
fn after_the_reap_and_before_a_re_claim_w1s_matching_att_is_still_refused() {
    let run = run();
    let o = &run.lapsed_before_reclaim;
    assert_eq!(
        (o.presented, o.stored),
        (Some(1), Some(1)),
        "the token alone matches"
    );
    assert_eq!(
        o.reply,
        Reply::Error("EMQSTALE complete job not active".to_string())
    );
    assert_eq!(o.job_after.state.as_deref(), Some("waiting"));
    assert!(o.job_after.waiting);
    assert_eq!(
        run.lease_check_note(),
        "Beyond the quoted lines, this page's @complete and @retry also refuse a worker whose job is \
         no longer in the active set. Had W1 resumed right after the reaper's pass, before W2's \
         claim, att 1 = attempts 1 — the token alone would let W1 through — and its @complete \
         would reply (error) EMQSTALE complete job not active: job 42 would stay waiting."
    );
}

#[test]
fn every_line_section_4_quotes_is_in_the_script_the_figure_runs() {
    use lockdive::content::s4_attempts::{CLAIM_EXCERPT, COMPLETE_EXCERPT};
    for (excerpt, script) in [
        (CLAIM_EXCERPT, attempts::CLAIM_SCRIPT),
        (COMPLETE_EXCERPT, attempts::COMPLETE_SCRIPT),
    ] {
        let script_lines: Vec<&str> = script.lines().collect();
        let mut from = 0;
        for line in excerpt.lines() {
            if line.trim_start().starts_with("--") {
                // The excerpt's own annotations: where it is from, what it leaves out.
                continue;
            }
            let at = script_lines[from..]
                .iter()
                .position(|l| *l == line)
                .unwrap_or_else(|| panic!("{line:?} is not verbatim in the script, in order"));
            from += at + 1;
        }
    }
    // §4's paragraph quotes @retry's error; the retry script replies it.
    assert!(attempts::RETRY_SCRIPT
        .lines()
        .any(|l| l.trim() == "return redis.error_reply('EMQSTALE retry token mismatch')"));
}

#[test]
fn the_briefs_ending_refuses_stale_w1_then_completes_w2() {
    let run = run();
    let (store, outcomes) = run.stale_complete_then_fresh();
    let replies: Vec<&Reply> = outcomes.iter().map(|o| &o.reply).collect();
    assert_eq!(
        replies,
        [
            &Reply::Error("EMQSTALE complete token mismatch".to_string()),
            &Reply::Integer(1)
        ]
    );
    let job = attempts::JobHash::read(&store);
    assert_eq!(job.state.as_deref(), Some("completed"));
    assert_eq!(job.attempts, Some(2));
    // After W2's complete, W1's stale att is still refused: the fence does not reopen.
    let mut after = store.clone();
    let job_key = attempts::job_key();
    let again = after.eval(
        attempts::COMPLETE_SCRIPT,
        &[attempts::active_key().as_str(), job_key.as_str()],
        &[JOB_ID, "1"],
    );
    assert_eq!(
        again,
        Reply::Error("EMQSTALE complete token mismatch".to_string())
    );
}

#[test]
fn every_what_if_starts_from_the_reclaimed_state() {
    let run = run();
    for o in &run.outcomes {
        assert_eq!(o.job_before.attempts, Some(2), "{:?}", o.transition);
        assert_eq!(o.job_before.state.as_deref(), Some("active"));
    }
}

#[test]
fn claim_on_an_empty_queue_replies_nil_and_complete_of_an_unknown_job_replies_0() {
    let mut store = ministore::Store::new();
    let (wait, active, prefix) = (
        attempts::wait_key(),
        attempts::active_key(),
        attempts::job_prefix(),
    );
    let claim = store.eval(
        attempts::CLAIM_SCRIPT,
        &[wait.as_str(), active.as_str()],
        &[prefix.as_str(), "0", "10000"],
    );
    assert_eq!(claim, Reply::Nil);
    let complete = store.eval(
        attempts::COMPLETE_SCRIPT,
        &[active.as_str(), "emq:{mail}:job:7"],
        &["7", "1"],
    );
    assert_eq!(complete, Reply::Integer(0));
}

#[test]
fn the_runs_are_deterministic() {
    let (a, b) = (run(), run());
    assert_eq!(a.frames, b.frames);
    assert_eq!(a.outcomes, b.outcomes);
}

#[test]
fn the_scripts_the_figure_shows_are_the_files_it_runs() {
    let names: Vec<&str> = attempts::SCRIPTS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "emq_claim.lua",
            "emq_complete.lua",
            "emq_retry.lua",
            "emq_reap.lua"
        ]
    );
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/scenarios/lua/");
    for (name, text) in attempts::SCRIPTS {
        let on_disk = std::fs::read_to_string(format!("{dir}{name}")).expect("script file");
        assert_eq!(on_disk, text, "{name}");
    }
    // The §4 excerpt's fence lines are in the complete script as the page shows them.
    for line in lockdive::content::s4_attempts::COMPLETE_EXCERPT
        .lines()
        .skip(1)
    {
        assert!(
            attempts::COMPLETE_SCRIPT.contains(line),
            "emq_complete.lua lacks the excerpt line {line:?}"
        );
    }
}

/// The whole scenario, replayed through real Redis 7.0 and through ministore, must print the
/// same replies. Real Redis runs on wall-clock time, so the clock is passed to the scripts as an
/// argument (as the page does) and never read.
mod against_real_redis {

    use lockdive::scenarios::attempts::{self, JOB_ID, PAYLOAD};
    use lockdive::scenarios::console::quote_word;
    use ministore::Store;

    use redis_oracle::{required, RedisServer};

    #[test]
    fn claim_reap_reclaim_and_both_fences_reply_as_real_redis_does() {
        let Some(redis) = required(RedisServer::start()) else {
            return;
        };
        let (wait, active, job, prefix) = (
            attempts::wait_key(),
            attempts::active_key(),
            attempts::job_key(),
            attempts::job_prefix(),
        );
        let claim = quote_word(attempts::CLAIM_SCRIPT);
        let complete = quote_word(attempts::COMPLETE_SCRIPT);
        let retry = quote_word(attempts::RETRY_SCRIPT);
        let reap = quote_word(attempts::REAP_SCRIPT);
        let lines = vec![
            format!("HSET {job} payload {PAYLOAD} state waiting attempts 0"),
            format!("ZADD {wait} 0 {JOB_ID}"),
            format!("EVAL {claim} 2 {wait} {active} {prefix} 0 10000"),
            format!("EVAL {reap} 2 {active} {wait} {prefix} 5000"),
            format!("EVAL {reap} 2 {active} {wait} {prefix} 12000"),
            format!("HGETALL {job}"),
            format!("EVAL {complete} 2 {active} {job} {JOB_ID} 1"),
            format!("EVAL {retry} 3 {active} {job} {wait} {JOB_ID} 1 12100"),
            format!("EVAL {claim} 2 {wait} {active} {prefix} 12500 10000"),
            format!("EVAL {claim} 2 {wait} {active} {prefix} 12600 10000"),
            format!("EVAL {complete} 2 {active} {job} {JOB_ID} 1"),
            format!("EVAL {retry} 3 {active} {job} {wait} {JOB_ID} 1 13000"),
            format!("EVAL {complete} 2 {active} {job} {JOB_ID} 2"),
            format!("HGETALL {job}"),
            format!("ZRANGE {active} 0 -1 WITHSCORES"),
            format!("EVAL {complete} 2 {active} emq:{{mail}}:job:7 7 1"),
        ];
        let from_redis = redis.replay(&lines);
        let mut store = Store::new();
        let from_ministore: String = lines
            .iter()
            .map(|line| {
                let words = ministore::cli::split_line(line).expect("a well-formed line");
                store.exec(&words).to_cli_text()
            })
            .collect();
        assert_eq!(from_ministore, from_redis);
        assert!(from_redis.contains("(error) EMQSTALE complete token mismatch"));
        assert!(from_redis.contains("(error) EMQSTALE retry token mismatch"));
        assert!(from_redis.contains("\"completed\""));
        assert!(from_redis.contains("(error) EMQSTALE complete job not active"));
        assert!(from_redis.contains("(error) EMQSTALE retry job not active"));
    }
}
