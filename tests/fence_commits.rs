//! The cumulative fence of figure 2: committed writes run the fenced-write script one after the
//! other against the same store, so the max seen evolves; what-ifs never change it.

use lockdive::scenarios::fence::{FenceLedger, FenceOutcome, LogFull, Writer, MAX_FENCE_COMMITS};
use ministore::Reply;

fn writer(token: i64) -> Writer {
    Writer::with_token(token).expect("one of the figure's writers")
}

#[test]
fn a_fresh_ledger_has_seen_34_and_an_empty_log() {
    let ledger = FenceLedger::new();
    assert_eq!(ledger.max_seen(), Some(34));
    assert!(ledger.log().is_empty());
}

#[test]
fn after_35_is_accepted_34_is_rejected() {
    let mut ledger = FenceLedger::new();
    let first = ledger.commit(writer(35)).expect("room in the log").clone();
    assert!(first.accepted);
    assert_eq!(first.reply, Reply::Integer(35));
    assert_eq!(
        first.log_line(),
        "token 35: 35 > 34, accepted, max seen becomes 35"
    );
    assert_eq!(ledger.max_seen(), Some(35));

    let second = ledger.commit(writer(34)).expect("room in the log").clone();
    assert!(!second.accepted);
    assert_eq!(second.max_seen_before, Some(35));
    assert_eq!(second.reply_text(), "(error) FENCED token 34 < max seen 35");
    assert_eq!(second.log_line(), "token 34: 34 < 35, rejected");
    assert_eq!(
        ledger.max_seen(),
        Some(35),
        "a rejected write leaves the max"
    );
    assert_eq!(ledger.log().len(), 2);
}

#[test]
fn a_rejected_write_leaves_the_resources_data_as_the_last_accepted_write_left_it() {
    let mut ledger = FenceLedger::new();
    ledger.commit(writer(35)).expect("room in the log");
    let rejected = ledger.commit(writer(33)).expect("room in the log").clone();
    assert_eq!(rejected.data_after.as_deref(), Some("payload-35"));
}

#[test]
fn committing_34_on_seen_34_is_accepted_and_the_max_stays() {
    let mut ledger = FenceLedger::new();
    let outcome = ledger.commit(writer(34)).expect("room in the log").clone();
    assert!(outcome.accepted);
    assert_eq!(outcome.log_line(), "token 34: 34 ≥ 34, accepted");
    assert_eq!(ledger.max_seen(), Some(34));
}

#[test]
fn a_what_if_runs_against_the_committed_state_and_changes_nothing() {
    let mut ledger = FenceLedger::new();
    ledger.commit(writer(35)).expect("room in the log");
    let what_if = ledger.what_if(writer(34));
    assert!(!what_if.accepted);
    assert_eq!(what_if.comparison(), "34 < 35");
    let again = ledger.what_if(writer(35));
    assert!(again.accepted);
    assert_eq!(again.comparison(), "35 ≥ 35");
    assert_eq!(ledger.log().len(), 1);
    assert_eq!(ledger.max_seen(), Some(35));
}

#[test]
fn the_board_gives_each_writers_what_if_against_the_committed_state() {
    let board = FenceLedger::replay(&[35]).board();
    assert_eq!(board.max_seen, Some(35));
    assert_eq!(board.log.len(), 1);
    let verdicts: Vec<(i64, bool)> = board
        .what_ifs
        .iter()
        .map(|o| (o.token, o.accepted))
        .collect();
    assert_eq!(verdicts, [(33, false), (34, false), (35, true)]);
    assert_eq!(board.what_if(34).map(|o| o.max_seen_before), Some(Some(35)));
}

#[test]
fn replay_commits_each_token_in_order_and_skips_tokens_no_writer_holds() {
    let ledger = FenceLedger::replay(&[35, 99, 34, 33]);
    let log: Vec<(i64, bool)> = ledger.log().iter().map(|o| (o.token, o.accepted)).collect();
    assert_eq!(log, [(35, true), (34, false), (33, false)]);
}

#[test]
fn a_reset_ledger_is_seen_34_again_and_its_what_ifs_are_the_static_verdicts() {
    let pushed = FenceLedger::replay(&[35]);
    assert_eq!(pushed.max_seen(), Some(35));
    let ledger = FenceLedger::replay(&[]);
    assert_eq!(ledger.max_seen(), Some(34));
    for w in Writer::ALL {
        assert_eq!(ledger.what_if(w), FenceOutcome::run(w));
    }
}

#[test]
fn after_any_commits_the_board_holds_each_writers_what_if_against_the_store_as_it_is() {
    // Every order of up to four commits: the board's what-ifs are run again only when a commit
    // changed the store, and must still be what a write run now would do.
    let mut level: Vec<Vec<i64>> = vec![Vec::new()];
    let mut orders = level.clone();
    for _ in 0..4 {
        level = level
            .iter()
            .flat_map(|order| [33, 34, 35].map(|token| [order.clone(), vec![token]].concat()))
            .collect();
        orders.extend(level.iter().cloned());
    }
    assert_eq!(orders.len(), 1 + 3 + 9 + 27 + 81);
    for order in orders {
        let ledger = FenceLedger::replay(&order);
        let board = ledger.board();
        let fresh: Vec<FenceOutcome> = Writer::ALL.into_iter().map(|w| ledger.what_if(w)).collect();
        assert_eq!(board.what_ifs, fresh, "after {order:?}");
        let last_accepted = order.iter().copied().fold(34, i64::max);
        assert_eq!(board.max_seen, Some(last_accepted), "after {order:?}");
        assert_eq!(ledger.max_seen(), Some(last_accepted), "after {order:?}");
    }
}

#[test]
fn a_full_log_refuses_the_next_commit_and_sends_nothing_to_the_store() {
    let tokens: Vec<i64> = [35, 33, 34]
        .into_iter()
        .cycle()
        .take(MAX_FENCE_COMMITS)
        .collect();
    let mut ledger = FenceLedger::replay(&tokens);
    assert!(ledger.is_full());
    let before = ledger.board();
    assert_eq!(ledger.commit(writer(35)).map(|o| o.token), Err(LogFull));
    assert_eq!(
        ledger.board(),
        before,
        "nothing ran: the log, max seen and what-ifs stand"
    );
    assert_eq!(
        LogFull::note(),
        "This figure keeps at most 32 committed writes: reset to start again."
    );
    assert_eq!(
        LogFull::refusal("34 (stale)"),
        "This figure keeps at most 32 committed writes, so the write of writer 34 (stale) was not \
         sent to the store. Reset to commit more."
    );
    // A link cannot carry more than the log holds.
    let longer = FenceLedger::replay(&[tokens.clone(), vec![35]].concat());
    assert_eq!(longer.log().len(), MAX_FENCE_COMMITS);
}
