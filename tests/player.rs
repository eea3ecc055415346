//! The scenario player of figure 1, step by step: the lost-lock model's own run, for the brief's
//! lease and stall, for a stall inside the lease, and at the edge. Every step is what ministore
//! held at that virtual time.

use lockdive::scenarios::lost_lock::{
    Client, KeyRow, LockSetup, LostLockOutcome, ReleaseChoice, StepKind, EXCLUSION_BROKEN_MEANS,
};
use lockdive::scenarios::player::{
    PlayerSetup, TimelineCache, LEASE_RANGE, STALL_RANGE, STEP_COUNT,
};
use ministore::{Reply, ValueSnapshot};

fn lock(value: &str, ttl_ms: u64) -> Vec<KeyRow> {
    vec![KeyRow {
        key: "resource:lock".to_string(),
        value: ValueSnapshot::String(value.as_bytes().to_vec()),
        ttl_ms: Some(ttl_ms),
    }]
}

fn run(lease: u64, stall: u64, choice: ReleaseChoice) -> LostLockOutcome {
    LostLockOutcome::run_with(PlayerSetup::new(lease, stall), choice)
}

/// Lease 10 s, stall 12.5 s: the brief's run, figure 1's.
fn brief(choice: ReleaseChoice) -> LostLockOutcome {
    LostLockOutcome::run_with(PlayerSetup::default(), choice)
}

fn titles(run: &LostLockOutcome) -> Vec<String> {
    run.steps.iter().map(|s| run.title_of(s)).collect()
}

#[test]
fn the_sliders_start_at_figure_1s_lease_and_stall() {
    assert_eq!(
        PlayerSetup::default(),
        PlayerSetup {
            lease_ms: 10_000,
            stall_ms: 12_500
        }
    );
    assert_eq!(
        brief(ReleaseChoice::BlindDel),
        LostLockOutcome::run(ReleaseChoice::BlindDel)
    );
}

#[test]
fn a_stall_past_the_lease_plays_section_1s_five_steps_in_order() {
    let run = brief(ReleaseChoice::BlindDel);
    assert_eq!(run.steps.len(), STEP_COUNT);
    assert_eq!(
        titles(&run),
        [
            "A acquires",
            "A stalls",
            "B acquires",
            "A releases",
            "wrong lock"
        ]
    );
}

#[test]
fn step_1_a_acquires_abc_with_the_whole_lease_left() {
    let run = brief(ReleaseChoice::BlindDel);
    let s = &run.steps[0];
    assert_eq!(s.clock_ms, 0);
    assert_eq!(
        s.command.as_deref(),
        Some("SET resource:lock abc NX PX 10000")
    );
    assert_eq!(s.reply, Some(Reply::ok()));
    assert_eq!(s.lock_pttl, 10_000);
    assert_eq!(s.keys, lock("abc", 10_000));
    assert_eq!(s.actor, Some(Client::A));
}

#[test]
fn step_2_the_store_expires_as_lock_inside_the_stall() {
    let run = brief(ReleaseChoice::BlindDel);
    let s = &run.steps[1];
    // A is stalled until 12 500 ms; the step shows the store when B tries the key inside it.
    assert_eq!((s.started_ms, s.clock_ms, s.until_ms), (0, 10_001, 12_500));
    assert_eq!(s.time_label(), "t = 0 → 12500 ms");
    assert_eq!(s.command, None);
    assert_eq!(s.lock_pttl, -2);
    assert!(s.keys.is_empty());
    let expiry = s.expired.as_ref().expect("the lease ran out mid-stall");
    assert_eq!(expiry.at_ms, 10_001);
    assert_eq!(
        run.note(s),
        "A is paused until t = 12500 ms. At t = 10001 ms, inside the stall, the store expired A's \
         lock: PTTL resource:lock is -2 when B tries the key at t = 10001 ms."
    );
}

/// In a stall longer than two leases, B tries the key once its own lease would outlast the stall,
/// well after the expiry: the note gives both moments, and the one it gives for B is B's `SET`.
#[test]
fn a_stall_of_three_leases_expires_as_lock_long_before_b_tries_the_key() {
    let run = run(10_000, 30_000, ReleaseChoice::TokenChecked);
    let (stall, b) = (&run.steps[1], &run.steps[2]);
    assert_eq!(stall.expired.as_ref().map(|e| e.at_ms), Some(10_001));
    assert_eq!((stall.clock_ms, b.clock_ms), (20_001, 20_001));
    assert_eq!(b.reply, Some(Reply::ok()));
    assert_eq!(
        run.note(stall),
        "A is paused until t = 30000 ms. At t = 10001 ms, inside the stall, the store expired A's \
         lock: PTTL resource:lock is -2 when B tries the key at t = 20001 ms."
    );
}

#[test]
fn step_3_b_acquires_xyz_while_a_still_believes_it_holds_the_lock() {
    let run = brief(ReleaseChoice::TokenChecked);
    let s = &run.steps[2];
    // B takes the key the millisecond it is free, while A is still stalled.
    assert_eq!(s.clock_ms, 10_001);
    assert!(s.clock_ms < run.steps[1].until_ms);
    assert_eq!(
        s.command.as_deref(),
        Some("SET resource:lock xyz NX PX 10000")
    );
    assert_eq!(s.reply, Some(Reply::ok()));
    assert_eq!(s.keys, lock("xyz", 10_000));
    assert_eq!(
        run.note(s),
        format!(
            "The key was free: B holds it with \"xyz\" for 10000 ms — while A still believes it \
             holds the lock: {EXCLUSION_BROKEN_MEANS}."
        )
    );
}

#[test]
fn steps_4_and_5_a_blind_del_deletes_bs_lock_and_a_third_client_gets_in() {
    let run = brief(ReleaseChoice::BlindDel);
    let release = &run.steps[3];
    assert_eq!(release.command.as_deref(), Some("DEL resource:lock"));
    assert_eq!(release.reply, Some(Reply::Integer(1)));
    assert_eq!(release.lock_pttl, -2);
    assert!(release.keys.is_empty());
    assert_eq!(
        run.note(release),
        "A deletes B's lock: the key is empty while B still believes it holds it."
    );
    // The probe the hazard line speaks of runs here, in the player's own run.
    let probe = &run.steps[4];
    assert_eq!(probe.kind, StepKind::Aftermath);
    assert_eq!(
        probe.command.as_deref(),
        Some("SET resource:lock next NX PX 10000")
    );
    assert_eq!(probe.reply, Some(Reply::ok()));
    assert!(run
        .note(probe)
        .contains("while B still believes it holds the lock"));
}

#[test]
fn step_4_the_token_checked_release_is_a_no_op_and_step_5_finds_bs_lock() {
    let run = brief(ReleaseChoice::TokenChecked);
    let release = &run.steps[3];
    assert_eq!(
        release.command.as_deref(),
        Some("EVAL <release.lua> 1 resource:lock abc")
    );
    assert_eq!(release.reply, Some(Reply::Integer(0)));
    // A resumes at 12 500 ms, 2 499 ms into B's lease.
    assert_eq!(release.clock_ms, 12_500);
    assert_eq!(release.keys, lock("xyz", 7_501));
    assert_eq!(
        run.note(release),
        "A reads \"xyz\" ≠ \"abc\", the script returns 0: A's release is a no-op, B's lock stands."
    );
    assert_eq!(run.steps[4].reply, Some(Reply::Nil));
    assert_eq!(run.title_of(&run.steps[4]), "B's lock stands");
}

#[test]
fn the_hazard_shows_with_either_release_when_the_stall_outlasts_the_lease() {
    let blind = brief(ReleaseChoice::BlindDel)
        .hazard()
        .expect("B takes over");
    assert_eq!(
        blind,
        "A's lease ran out while A was stalled (the store expired it at t = 10001 ms), and in \
         that millisecond B acquired resource:lock while A still believed it held it: two \
         clients believed they held the lock at once. A's release then deleted B's lock, and \
         the next client's SET NX got in too."
    );
    let checked = brief(ReleaseChoice::TokenChecked)
        .hazard()
        .expect("the token does not stop the takeover");
    assert!(checked.ends_with(
        "A reads \"xyz\" ≠ \"abc\", the script returns 0: A's release is a no-op, B's lock stands."
    ));
}

/// A stall that ends the millisecond the store expires A's lock: B takes the key as A resumes,
/// and the caveat says which came first in that millisecond.
#[test]
fn a_stall_ending_as_the_lease_lapses_puts_bs_set_and_as_release_in_one_millisecond() {
    // The player's sliders move in whole steps; the model takes any stall.
    let setup = LockSetup {
        lease_ms: 10_000,
        stall_ms: 10_001,
    };
    let run = LostLockOutcome::run_with(setup, ReleaseChoice::TokenChecked);
    let (b, release) = (&run.steps[2], &run.steps[3]);
    assert_eq!((b.clock_ms, release.clock_ms), (10_001, 10_001));
    assert_eq!(b.reply, Some(Reply::ok()));
    let caveat = run.caveat().expect("B's SET came before A's release");
    assert!(
        caveat.contains(
            "From B's SET until A's release (here in the same millisecond, B's SET first)"
        ),
        "{caveat}"
    );
}

#[test]
fn a_stall_within_the_lease_refuses_b_and_either_release_deletes_as_own_lock() {
    for choice in ReleaseChoice::ALL {
        let run = run(10_000, 6_000, choice);
        assert_eq!(run.hazard(), None, "{choice:?}");
        assert_eq!(
            titles(&run),
            [
                "A acquires",
                "A stalls",
                "B tries",
                "A releases",
                "right lock"
            ]
        );
        let stall = &run.steps[1];
        assert_eq!((stall.clock_ms, stall.lock_pttl), (6_000, 4_000));
        assert_eq!(stall.expired, None);
        let b = &run.steps[2];
        assert_eq!(b.reply, Some(Reply::Nil));
        assert_eq!(b.keys, lock("abc", 4_000), "A's lock is untouched");
        assert_eq!(run.steps[3].reply, Some(Reply::Integer(1)));
        assert_eq!(
            run.steps[4].reply,
            Some(Reply::ok()),
            "the key is free after A"
        );
        assert_eq!(
            run.no_hazard(),
            "When A resumed at t = 6000 ms the store still held A's lock with PTTL 4000, so B's \
             SET NX was refused. A deletes its own lock: the reply is 1."
        );
    }
}

#[test]
fn a_stall_exactly_as_long_as_the_lease_is_told_apart_by_what_the_store_held() {
    let run = run(10_000, 10_000, ReleaseChoice::BlindDel);
    assert_eq!(run.hazard(), None);
    assert_eq!(
        run.steps[1].lock_pttl, 0,
        "Redis keeps a key until its deadline has passed"
    );
    assert_eq!(run.steps[2].reply, Some(Reply::Nil));
    assert_eq!(
        run.no_hazard(),
        "When A resumed at t = 10000 ms the store still held A's lock with PTTL 0, the last \
         millisecond of its lease, so B's SET NX was refused. A deletes its own lock: the reply is 1."
    );
}

#[test]
fn half_a_second_past_the_lease_is_enough_for_the_hazard() {
    let run = run(10_000, 10_500, ReleaseChoice::BlindDel);
    assert!(run.hazard().is_some());
    assert_eq!(run.steps[2].reply, Some(Reply::ok()));
}

#[test]
fn switching_the_release_changes_only_the_steps_from_as_release_on() {
    for setup in [PlayerSetup::default(), PlayerSetup::new(4_000, 2_000)] {
        let blind = LostLockOutcome::run_with(setup, ReleaseChoice::BlindDel);
        let checked = LostLockOutcome::run_with(setup, ReleaseChoice::TokenChecked);
        assert_eq!(blind.steps[..3], checked.steps[..3]);
        assert_ne!(blind.steps[3], checked.steps[3]);
    }
}

#[test]
fn the_sliders_clamp_and_snap_what_they_are_given() {
    assert_eq!(LEASE_RANGE.clamp(0), 1_000);
    assert_eq!(LEASE_RANGE.clamp(u64::MAX), 20_000);
    assert_eq!(LEASE_RANGE.clamp(10_249), 10_000);
    assert_eq!(LEASE_RANGE.clamp(10_250), 10_500);
    assert_eq!(STALL_RANGE.clamp(1), 500);
    assert_eq!(
        PlayerSetup::new(99, 99_999),
        PlayerSetup {
            lease_ms: 1_000,
            stall_ms: 30_000
        }
    );
}

#[test]
fn every_slider_position_gives_five_steps_in_clock_order_and_a_hazard_iff_stall_outlasts_lease() {
    for lease in (LEASE_RANGE.min..=LEASE_RANGE.max).step_by(1_500) {
        for stall in (STALL_RANGE.min..=STALL_RANGE.max).step_by(1_500) {
            let run = run(lease, stall, ReleaseChoice::BlindDel);
            assert_eq!(run.steps.len(), STEP_COUNT);
            assert!(run.steps.windows(2).all(|w| w[0].clock_ms <= w[1].clock_ms));
            assert_eq!(
                run.hazard().is_some(),
                stall > lease,
                "lease {lease}, stall {stall}"
            );
            // The expiry, when there is one, is the first millisecond after the lease.
            assert_eq!(
                run.expiry().map(|e| e.at_ms),
                (stall > lease).then_some(lease + 1),
                "lease {lease}, stall {stall}"
            );
        }
    }
}

/// §1's story at every slider position where A stalls past its lease: B takes the key inside the
/// stall, its lock is what A's release finds, and only the blind DEL deletes it — the
/// token-checked release is never the one that breaks exclusion.
#[test]
fn at_every_stall_past_the_lease_b_holds_the_key_when_a_releases() {
    use lockdive::scenarios::lost_lock::Exclusion;
    for lease in (LEASE_RANGE.min..=LEASE_RANGE.max).step_by(LEASE_RANGE.step as usize) {
        for stall in (STALL_RANGE.min..=STALL_RANGE.max).step_by(STALL_RANGE.step as usize) {
            if stall <= lease {
                continue;
            }
            let at = format!("lease {lease}, stall {stall}");
            let checked = run(lease, stall, ReleaseChoice::TokenChecked);
            let b = &checked.steps[2];
            assert_eq!(b.reply, Some(Reply::ok()), "{at}");
            assert!(b.clock_ms > lease && b.clock_ms <= stall, "{at}");
            assert_eq!(
                checked.found_before_release().and_then(|k| k.owner),
                Some(Client::B),
                "{at}"
            );
            assert_eq!(checked.exclusion(), Exclusion::BrokenBeforeRelease, "{at}");
            assert!(checked.caveat().is_some(), "{at}");
            let blind = run(lease, stall, ReleaseChoice::BlindDel);
            assert_eq!(blind.deleted_lock_of(), Some(Client::B), "{at}");
            assert_eq!(blind.exclusion(), Exclusion::BrokenByRelease, "{at}");
        }
    }
}

#[test]
fn the_cache_runs_each_setup_and_release_once() {
    let mut cache = TimelineCache::default();
    let first = cache.get(PlayerSetup::default(), ReleaseChoice::BlindDel);
    let again = cache.get(PlayerSetup::default(), ReleaseChoice::BlindDel);
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    assert_eq!(cache.len(), 1);
    let other = cache.get(PlayerSetup::default(), ReleaseChoice::TokenChecked);
    assert_eq!(cache.len(), 2);
    assert_eq!(other.choice, ReleaseChoice::TokenChecked);
    for stall in 0..(TimelineCache::CAPACITY as u64 + 10) {
        cache.get(
            PlayerSetup::new(10_000, 500 + stall * 500),
            ReleaseChoice::BlindDel,
        );
    }
    assert!(cache.len() <= TimelineCache::CAPACITY);
}

#[test]
fn the_players_pttl_says_what_a_negative_answer_means() {
    use lockdive::components::figures::player_frame::pttl_text;
    let run = brief(ReleaseChoice::TokenChecked);
    let acquire = run.step_of(StepKind::Acquire).expect("A acquires");
    assert_eq!(
        pttl_text(Some(acquire)),
        format!("{} ms", acquire.lock_pttl)
    );
    // The store expired A's lock inside the stall: PTTL answers -2, no such key.
    let stall = run.step_of(StepKind::Stall).expect("A stalls");
    assert_eq!(stall.lock_pttl, -2);
    assert_eq!(pttl_text(Some(stall)), "-2 (no key)");
}

#[test]
fn the_players_status_marks_a_release_as_figure_1_does() {
    use lockdive::components::figures::player_status::status;
    use lockdive::scenarios::lost_lock::Exclusion;
    // The blind DEL broke exclusion itself: ✗. The token-checked release did its part, after
    // two clients had believed they held the lock at once: ⚠.
    for (choice, exclusion, tone, icon) in [
        (
            ReleaseChoice::BlindDel,
            Exclusion::BrokenByRelease,
            "bad",
            '✗',
        ),
        (
            ReleaseChoice::TokenChecked,
            Exclusion::BrokenBeforeRelease,
            "warn",
            '⚠',
        ),
    ] {
        let run = brief(choice);
        assert_eq!(run.exclusion(), exclusion);
        let shown = status(&run).finish();
        assert!(
            shown.contains(&format!("data-tone=\"{tone}\"")) && shown.contains(icon),
            "{shown}"
        );
    }
    // A stall inside the lease: nothing overlapped.
    let within = run(10_000, 5_000, ReleaseChoice::TokenChecked);
    assert_eq!(within.exclusion(), Exclusion::Held);
    assert!(status(&within).finish().contains("data-tone=\"ok\""));
}
