//! The shareable state in the URL fragment: what a link carries, read back the same, and any
//! mangled, hostile or foreign fragment (a section anchor) falling back to the defaults.

use lockdive::scenarios::fence::MAX_FENCE_COMMITS;
use lockdive::scenarios::lost_lock::ReleaseChoice;
use lockdive::scenarios::player::PlayerSetup;
use lockdive::scenarios::share::SharedState;

fn full() -> SharedState {
    SharedState {
        step: Some(3),
        lease_ms: Some(10_000),
        stall_ms: Some(12_500),
        release: Some(ReleaseChoice::TokenChecked),
        fence: vec![35, 34],
    }
}

#[test]
fn the_issues_example_link_reads_as_written() {
    let state = SharedState::parse("#play=3&lease=10000&stall=12500&release=token&fence=35,34");
    assert_eq!(state, full());
}

#[test]
fn a_state_writes_the_fragment_it_was_read_from() {
    assert_eq!(
        full().to_fragment(),
        "#play=3&lease=10000&stall=12500&release=token&fence=35,34"
    );
    assert_eq!(SharedState::parse(&full().to_fragment()), full());
}

#[test]
fn nothing_to_share_writes_no_fragment() {
    assert_eq!(SharedState::default().to_fragment(), "");
}

#[test]
fn section_anchors_are_not_state() {
    for anchor in ["#s1", "#s6", "s3", "#", ""] {
        assert_eq!(
            SharedState::parse(anchor),
            SharedState::default(),
            "{anchor}"
        );
    }
}

#[test]
fn only_the_fields_a_link_names_are_set() {
    let state = SharedState::parse("fence=35");
    assert_eq!(state.fence, [35]);
    assert_eq!(state.step, None);
    assert_eq!(state.player_setup(), PlayerSetup::default());
}

#[test]
fn out_of_range_numbers_are_clamped_onto_the_sliders_and_the_timeline() {
    let state = SharedState::parse("#play=99&lease=1&stall=99999999&release=blind");
    assert_eq!(state.step, Some(4));
    assert_eq!(state.lease_ms, Some(1_000));
    assert_eq!(state.stall_ms, Some(30_000));
    assert_eq!(state.release, Some(ReleaseChoice::BlindDel));
    assert_eq!(SharedState::parse("lease=10260").lease_ms, Some(10_500));
}

#[test]
fn malformed_values_are_ignored_field_by_field() {
    let state = SharedState::parse(
        "#play=-1&lease=ten&stall=18446744073709551616&release=rm%20-rf&fence=35,x,;,34",
    );
    assert_eq!(state.step, None);
    assert_eq!(state.lease_ms, None);
    assert_eq!(state.stall_ms, None);
    assert_eq!(state.release, None);
    assert_eq!(state.fence, [35, 34]);
}

#[test]
fn tokens_no_writer_holds_are_dropped_and_the_log_is_bounded() {
    assert_eq!(SharedState::parse("fence=1,33,-34,340,35").fence, [33, 35]);
    let many = vec!["35"; 100].join(",");
    assert_eq!(
        SharedState::parse(&format!("fence={many}")).fence.len(),
        MAX_FENCE_COMMITS
    );
}

#[test]
fn escaped_commas_and_hook_names_are_understood() {
    let state = SharedState::parse("release=token-checked&fence=35%2C34%2c33");
    assert_eq!(state.release, Some(ReleaseChoice::TokenChecked));
    assert_eq!(state.fence, [35, 34, 33]);
}

#[test]
fn unknown_keys_stray_ampersands_and_repeats_do_not_disturb_the_rest() {
    let state = SharedState::parse("&&utm=x&play=2&=&play&lease=5000&lease=6000&");
    assert_eq!(state.step, Some(2));
    assert_eq!(state.lease_ms, Some(6_000), "the last value wins");
}

#[test]
fn an_overlong_fragment_is_ignored_whole() {
    let long = format!("play=1&junk={}", "x".repeat(5_000));
    assert_eq!(SharedState::parse(&long), SharedState::default());
}

#[test]
fn every_fragment_that_carries_state_sends_the_first_wasm_for_the_lab() {
    // The first wasm cannot read the values (that needs the scenarios); it goes by the keys. It may
    // load the lab for a value the page will not take, never miss one it will.
    let mut fragments = vec![full().to_fragment()];
    fragments.extend(
        [
            "#play=0",
            "#lease=1",
            "#stall=99999999",
            "#release=blind",
            "#release=token-checked",
            "#fence=33",
            "#s3&fence=35",
            "#play=x",
            "#fence=1,2",
            "#s3",
            "#",
            "",
            "#x=1",
        ]
        .map(String::from),
    );
    for fragment in fragments {
        if SharedState::parse(&fragment) != SharedState::default() {
            assert!(
                lockdive_contract::fragment::carries_store_state(&fragment),
                "{fragment:?} carries state the first wasm would not load the lab for"
            );
        }
    }
    assert!(!lockdive_contract::fragment::carries_store_state("#s3"));
}
