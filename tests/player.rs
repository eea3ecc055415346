//! The scenario player of figure 1, frame by frame: every frame is what ministore held at that
//! virtual time, for the brief's lease and stall, for a stall inside the lease, and at the edge.

use lockdive::scenarios::lost_lock::{Client, ReleaseChoice};
use lockdive::scenarios::player::{
    KeyRow, Moment, PlayerSetup, Timeline, TimelineCache, LEASE_RANGE, STALL_RANGE, STEP_COUNT,
};

fn lock(value: &str, ttl_ms: u64) -> Vec<KeyRow> {
    vec![KeyRow {
        key: "resource:lock".to_string(),
        value: format!("\"{value}\""),
        ttl_ms: Some(ttl_ms),
    }]
}

fn moments(timeline: &Timeline) -> Vec<Moment> {
    timeline.frames.iter().map(|f| f.moment).collect()
}

/// Lease 10 s, stall 12.5 s: the brief's run.
fn brief(choice: ReleaseChoice) -> Timeline {
    Timeline::run(PlayerSetup::default(), choice)
}

#[test]
fn the_sliders_start_at_the_briefs_lease_and_stall() {
    assert_eq!(
        PlayerSetup::default(),
        PlayerSetup {
            lease_ms: 10_000,
            stall_ms: 12_500
        }
    );
}

#[test]
fn a_stall_past_the_lease_plays_the_briefs_five_steps_in_order() {
    let run = brief(ReleaseChoice::BlindDel);
    assert_eq!(run.frames.len(), STEP_COUNT);
    assert_eq!(
        moments(&run),
        [
            Moment::AAcquires,
            Moment::AStalls,
            Moment::LeaseEnds,
            Moment::BTries,
            Moment::AReleases
        ]
    );
    let titles: Vec<&str> = run.frames.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "A acquires",
            "A stalls",
            "the lease expires",
            "B acquires",
            "A releases (blind DEL)"
        ]
    );
}

#[test]
fn frame_1_a_acquires_abc_with_the_whole_lease_left() {
    let run = brief(ReleaseChoice::BlindDel);
    let f = &run.frames[0];
    assert_eq!(f.clock_ms, 0);
    assert_eq!(
        f.command.as_deref(),
        Some("SET resource:lock abc NX PX 10000")
    );
    assert_eq!(f.reply.as_deref(), Some("OK"));
    assert_eq!(f.lock_pttl, 10_000);
    assert_eq!(f.keys, lock("abc", 10_000));
    assert_eq!(f.actor, Some(Client::A));
}

#[test]
fn frame_2_a_stalls_while_its_lease_runs_down() {
    let run = brief(ReleaseChoice::BlindDel);
    let f = &run.frames[1];
    assert_eq!(f.clock_ms, 5_000, "halfway through the covered stall");
    assert_eq!(f.command, None);
    assert_eq!(f.lock_pttl, 5_000);
    assert_eq!(f.keys, lock("abc", 5_000));
    assert!(f.note.contains("5000 ms left"), "{}", f.note);
}

#[test]
fn frame_3_the_lease_expires_and_the_store_no_longer_has_the_key() {
    let run = brief(ReleaseChoice::BlindDel);
    let f = &run.frames[2];
    assert_eq!(f.clock_ms, 10_001);
    assert_eq!(f.lock_pttl, -2);
    assert!(f.keys.is_empty());
    assert!(f.note.contains("drops A's lock"), "{}", f.note);
}

#[test]
fn frame_4_b_acquires_xyz_while_a_is_still_stalled() {
    let run = brief(ReleaseChoice::TokenChecked);
    let f = &run.frames[3];
    assert_eq!(f.clock_ms, 12_500);
    assert_eq!(
        f.command.as_deref(),
        Some("SET resource:lock xyz NX PX 10000")
    );
    assert_eq!(f.reply.as_deref(), Some("OK"));
    assert_eq!(f.keys, lock("xyz", 10_000));
    assert!(f.note.contains("still stalled"), "{}", f.note);
}

#[test]
fn frame_5_a_blind_del_after_takeover_deletes_bs_lock() {
    let run = brief(ReleaseChoice::BlindDel);
    let f = &run.frames[4];
    assert_eq!(f.command.as_deref(), Some("DEL resource:lock"));
    assert_eq!(f.reply.as_deref(), Some("(integer) 1"));
    assert_eq!(f.lock_pttl, -2);
    assert!(f.keys.is_empty());
    assert!(f.note.contains("A deletes B's lock"), "{}", f.note);
    assert!(f.note.contains("exclusion broken"), "{}", f.note);
    assert!(!run.safe());
}

#[test]
fn frame_5_the_token_checked_release_after_takeover_returns_0_and_bs_lock_stands() {
    let run = brief(ReleaseChoice::TokenChecked);
    let f = &run.frames[4];
    assert_eq!(
        f.command.as_deref(),
        Some("EVAL <release.lua> 1 resource:lock abc")
    );
    assert_eq!(f.reply.as_deref(), Some("(integer) 0"));
    assert_eq!(f.keys, lock("xyz", 10_000));
    assert_eq!(f.lock_pttl, 10_000);
    assert_eq!(
        f.note,
        "A reads \"xyz\" ≠ \"abc\", the script returns 0: B's lock stands."
    );
    assert!(run.safe());
}

#[test]
fn the_hazard_shows_when_the_stall_outlasts_the_lease_with_either_release() {
    let blind = brief(ReleaseChoice::BlindDel);
    let hazard = blind.hazard.expect("B takes over during A's stall");
    assert_eq!(hazard.takeover_ms, 12_500);
    assert_eq!(hazard.victim, Some(Client::B));
    assert!(hazard.sentence.contains("deleted B's lock"));
    let checked = brief(ReleaseChoice::TokenChecked);
    let hazard = checked
        .hazard
        .expect("the token does not stop the takeover");
    assert_eq!(hazard.victim, None);
    assert!(hazard.sentence.contains("left B's lock alone"));
}

#[test]
fn a_stall_within_the_lease_refuses_b_and_either_release_deletes_as_own_lock() {
    for choice in ReleaseChoice::ALL {
        let run = Timeline::run(PlayerSetup::new(10_000, 6_000), choice);
        assert_eq!(run.hazard, None, "{choice:?}");
        assert!(run.safe());
        assert_eq!(
            moments(&run),
            [
                Moment::AAcquires,
                Moment::AStalls,
                Moment::BTries,
                Moment::AReleases,
                Moment::LeaseEnds
            ]
        );
        let stalls = &run.frames[1];
        assert_eq!((stalls.clock_ms, stalls.lock_pttl), (3_000, 7_000));
        let b = &run.frames[2];
        assert_eq!(b.title, "B tries");
        assert_eq!(b.clock_ms, 6_000);
        assert_eq!(b.reply.as_deref(), Some("(nil)"));
        assert_eq!(b.keys, lock("abc", 4_000), "A's lock is untouched");
        let release = &run.frames[3];
        assert_eq!(release.reply.as_deref(), Some("(integer) 1"));
        assert!(release.keys.is_empty());
        assert!(release.note.contains("A deletes its own lock"));
        let end = &run.frames[4];
        assert_eq!(end.title, "the lease would end");
        assert_eq!((end.clock_ms, end.lock_pttl), (10_001, -2));
    }
}

#[test]
fn a_stall_exactly_as_long_as_the_lease_still_holds_the_key_at_0_ms_left() {
    let run = Timeline::run(PlayerSetup::new(10_000, 10_000), ReleaseChoice::BlindDel);
    assert_eq!(run.hazard, None);
    let b = run.at(Moment::BTries).expect("B tries");
    assert_eq!(b.reply.as_deref(), Some("(nil)"));
    assert_eq!(
        b.lock_pttl, 0,
        "Redis keeps a key until its deadline has passed"
    );
    let release = run.at(Moment::AReleases).expect("A releases");
    assert!(release.note.contains("its own lock"));
}

#[test]
fn half_a_second_past_the_lease_is_enough_for_the_hazard() {
    let run = Timeline::run(PlayerSetup::new(10_000, 10_500), ReleaseChoice::BlindDel);
    assert!(run.hazard.is_some());
    assert_eq!(
        run.at(Moment::BTries).and_then(|f| f.reply.as_deref()),
        Some("OK")
    );
}

#[test]
fn switching_the_release_changes_only_the_frames_from_as_release_on() {
    for setup in [PlayerSetup::default(), PlayerSetup::new(4_000, 2_000)] {
        let blind = Timeline::run(setup, ReleaseChoice::BlindDel);
        let checked = Timeline::run(setup, ReleaseChoice::TokenChecked);
        let release = blind
            .frames
            .iter()
            .position(|f| f.moment == Moment::AReleases)
            .expect("a release");
        assert_eq!(blind.frames[..release], checked.frames[..release]);
        assert_ne!(blind.frames[release], checked.frames[release]);
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
fn every_slider_position_gives_five_frames_in_clock_order_and_a_hazard_iff_stall_outlasts_lease() {
    for lease in (LEASE_RANGE.min..=LEASE_RANGE.max).step_by(1_500) {
        for stall in (STALL_RANGE.min..=STALL_RANGE.max).step_by(1_500) {
            let run = Timeline::run(PlayerSetup::new(lease, stall), ReleaseChoice::BlindDel);
            assert_eq!(run.frames.len(), STEP_COUNT);
            assert!(run
                .frames
                .windows(2)
                .all(|w| w[0].clock_ms <= w[1].clock_ms));
            assert_eq!(
                run.hazard.is_some(),
                stall > lease,
                "lease {lease}, stall {stall}"
            );
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
