//! The lock checker, read like the brief's scenarios: the explorer runs every schedule of two or
//! three clients and a stall against ministore, and each assertion is on what it found — which
//! property broke, and the shortest schedule that broke it, replayed line by line.

use lockdive::scenarios::lockcheck::{
    catalogue, check, AfterRefusedExtend, Bound, Call, CheckReport, ClientId, Counterexample,
    Explorer, Extend, LockSpec, Op, OpKind, Property, SpecError, StepAction, Success, Template,
    Verdict,
};
use lockdive::scenarios::RELEASE_SCRIPT;
use ministore::cli::split_line;
use ministore::{Session, Store};

/// The small bound most pasted-lock cases need: two clients, one stall, one acquire attempt.
const TWO_CLIENTS_ONE_STALL: Bound = Bound {
    clients: 2,
    stalls: 1,
    acquire_attempts: 1,
};

fn report(id: &str) -> CheckReport {
    let spec = catalogue::by_id(id).expect("a catalogue entry");
    check(&spec, Bound::default()).expect("the catalogue's locks check")
}

fn verdicts(report: &CheckReport) -> Vec<Verdict> {
    report.properties.iter().map(|p| p.verdict).collect()
}

/// Replays a counterexample's lines in a fresh store, parsed as redis-cli parses them.
fn assert_replays(counterexample: &Counterexample) {
    let mut store = Store::new();
    for step in &counterexample.steps {
        let words = split_line(&step.sent.line).expect("a redis-cli line");
        assert_eq!(store.exec(&words), step.sent.reply, "{}", step.sent.line);
        assert_eq!(store.now_ms(), step.clock_ms, "{}", step.sent.line);
    }
    assert!(counterexample.replays_on_one_connection());
}

/// Replays a counterexample as the explorer ran it: each client's lines on a connection of its
/// own, the stalls on the store's. Where the lines do not replay on one connection, the
/// counterexample says so.
fn assert_replays_per_client(counterexample: &Counterexample) {
    let mut store = Store::new();
    let mut sessions = [Session::new(), Session::new(), Session::new()];
    for step in &counterexample.steps {
        let words = split_line(&step.sent.line).expect("a redis-cli line");
        let reply = match step.client {
            Some(client) => store.exec_in(&mut sessions[client.index()], &words),
            None => store.exec(&words),
        };
        assert_eq!(reply, step.sent.reply, "{}", step.sent.line);
        assert_eq!(store.now_ms(), step.clock_ms, "{}", step.sent.line);
    }
    if counterexample.replays_on_one_connection() {
        assert_replays(counterexample);
    }
}

/// The counterexample's last step sent `line`, which deleted one key (another client's lock),
/// and the whole schedule replays.
fn assert_ends_deleting(counterexample: &Counterexample, line: &str) {
    let last = counterexample.steps.last().expect("a step");
    assert_eq!(last.sent.line, line);
    assert_eq!(last.sent.reply, ministore::Reply::Integer(1));
    assert_replays(counterexample);
}

fn shortest(report: &CheckReport, property: Property) -> &Counterexample {
    report
        .property(property)
        .counterexample
        .as_ref()
        .expect("a broken property has its counterexample")
}

/// The words `client` sends for `call` (a script as `EVAL`).
fn words_of(spec: &LockSpec, client: ClientId, call: &Call) -> Vec<String> {
    let resolve = |templates: &[Template]| -> Vec<String> {
        templates.iter().map(|t| t.resolve(spec, client)).collect()
    };
    match call {
        Call::Command(templates) => resolve(templates),
        Call::Script {
            text, keys, args, ..
        } => [
            vec!["EVAL".to_string(), text.to_string(), keys.len().to_string()],
            resolve(keys),
            resolve(args),
        ]
        .concat(),
    }
}

/// Sends the steps of `op` as `client` sends them (a script as `EVAL`) on a connection of its
/// own, stopping after the first reply its step's success rule refuses, as the library and the
/// explorer do, once that step's clean-up (if any) is sent; returns the replies.
fn send(store: &mut Store, spec: &LockSpec, op: &Op, client: ClientId) -> Vec<ministore::Reply> {
    let words = |call: &Call| words_of(spec, client, call);
    let mut session = Session::new();
    let mut replies = Vec::new();
    for step in &op.steps {
        let reply = store.exec_in(&mut session, &words(&step.call));
        let goes_on = step.success.passes(&reply, spec.token(client).as_bytes());
        replies.push(reply);
        if !goes_on {
            if let Some(cleanup) = &step.on_refusal {
                replies.push(store.exec_in(&mut session, &words(cleanup)));
            }
            break;
        }
    }
    store.end_session(&mut session);
    replies
}

fn shape(counterexample: &Counterexample) -> Vec<(Option<ClientId>, &'static str)> {
    counterexample
        .steps
        .iter()
        .map(|s| (s.client, s.action.hook()))
        .collect()
}

#[test]
fn blind_del_deletes_anothers_lock_and_lets_two_hold() {
    let report = report("blind-del");
    assert!(report.complete);
    assert_eq!(
        report.verdict(Property::NeverDeletesAnothers),
        Verdict::Broken
    );
    assert_eq!(
        report.verdict(Property::ExclusionWhileLeasesHold),
        Verdict::Broken
    );
    let deletes = shortest(&report, Property::NeverDeletesAnothers);
    let last = deletes.steps.last().expect("a step");
    assert_eq!(last.action, StepAction::Release);
    assert!(last.sent.line.starts_with("DEL "), "{}", last.sent.line);
    assert!(deletes.steps.iter().any(|s| s.action == StepAction::Stall));
    assert_replays(deletes);
    assert_replays(shortest(&report, Property::ExclusionWhileLeasesHold));
}

#[test]
fn get_then_del_loses_the_lock_between_its_two_commands() {
    let report = report("get-then-del");
    assert_eq!(
        report.verdict(Property::NeverDeletesAnothers),
        Verdict::Broken
    );
    let counterexample = shortest(&report, Property::NeverDeletesAnothers);
    let a = Some(ClientId::A);
    let b = Some(ClientId::B);
    // A takes and works; A GETs its own token; the lease lapses; B takes; A DELs B's lock.
    assert_eq!(
        shape(counterexample),
        vec![
            (a, "acquire"),
            (a, "work"),
            (a, "release"),
            (None, "stall"),
            (b, "acquire"),
            (a, "release"),
        ]
    );
    let lines = counterexample.lines();
    assert_eq!(lines[2], "GET resource:lock");
    assert_eq!(lines[5], "DEL resource:lock");
    assert_replays(counterexample);
}

#[test]
fn shedlocks_default_extend_takes_over_and_its_unlock_deletes_the_lock_another_node_took() {
    let report = report("shedlock");
    let a = Some(ClientId::A);
    let b = Some(ClientId::B);
    // A's task outlives lockAtMostFor; B locks; A's extend (SET XX) puts A's value on B's key.
    let extends = shortest(&report, Property::NeverExtendsAnothers);
    assert_eq!(
        shape(extends),
        vec![
            (a, "acquire"),
            (a, "work"),
            (None, "stall"),
            (b, "acquire"),
            (a, "extend"),
        ]
    );
    let last = extends.steps.last().expect("a step");
    assert!(last.sent.line.contains(" XX PX "), "{}", last.sent.line);
    assert_eq!(last.sent.reply, ministore::Reply::ok());
    assert_replays(extends);
    // A's unlock, after the same stall and B's lock, is a DEL of B's lock.
    let deletes = shortest(&report, Property::NeverDeletesAnothers);
    let shape = shape(deletes);
    let (before, unlock) = shape.split_at(shape.len() - 3);
    assert!(before.contains(&(a, "acquire")), "{shape:?}");
    assert_eq!(unlock, [(None, "stall"), (b, "acquire"), (a, "release")]);
    assert_ends_deleting(deletes, "DEL job-lock:default:reportTask");
}

#[test]
fn rqs_scheduler_heartbeat_renews_the_lock_a_second_scheduler_took_and_its_stop_deletes_it() {
    let report = report("rq-scheduler");
    let a = Some(ClientId::A);
    let b = Some(ClientId::B);
    let renews = shortest(&report, Property::NeverExtendsAnothers);
    let renewing = shape(renews);
    assert_eq!(
        renewing[renewing.len() - 3..],
        [(None, "stall"), (b, "acquire"), (a, "extend")]
    );
    assert_eq!(
        renews.lines().last().map(String::as_str),
        Some("EXPIRE rq:scheduler-lock:default 61")
    );
    assert_replays(renews);
    let deletes = shortest(&report, Property::NeverDeletesAnothers);
    let deleting = shape(deletes);
    assert_eq!(deleting[0], (a, "acquire"));
    assert_eq!(
        deleting[deleting.len() - 3..],
        [(None, "stall"), (b, "acquire"), (a, "release")]
    );
    assert_ends_deleting(deletes, "DEL rq:scheduler-lock:default");
}

#[test]
fn resque_schedulers_release_checks_in_a_script_and_deletes_in_a_command_of_its_own() {
    let report = report("resque-scheduler");
    let a = Some(ClientId::A);
    let b = Some(ClientId::B);
    // Its extend is token-checked; its release is not one atomic step.
    assert_eq!(
        report.verdict(Property::NeverExtendsAnothers),
        Verdict::Holds
    );
    let deletes = shortest(&report, Property::NeverDeletesAnothers);
    let deleting = shape(deletes);
    assert_eq!(
        deleting[deleting.len() - 4..],
        [
            (a, "release"),
            (None, "stall"),
            (b, "acquire"),
            (a, "release")
        ]
    );
    let del = "DEL resque:resque:resque_scheduler_master_lock";
    let check = &deletes.steps[deletes.steps.len() - 4];
    assert!(
        check.sent.short.starts_with("EVAL <locked.lua> 1 "),
        "{}",
        check.sent.short
    );
    assert_eq!(check.sent.reply, ministore::Reply::Integer(1));
    assert_ends_deleting(deletes, del);
    // With B's lock deleted, a third scheduler takes the lock while B's lease holds.
    let two_hold = shortest(&report, Property::ExclusionWhileLeasesHold);
    let holding = shape(two_hold);
    let (took, before) = holding.split_last().expect("steps");
    assert_ne!(took.0, None);
    let deleter = two_hold.steps.len() - 2;
    assert_eq!(two_hold.steps[deleter].sent.line, del);
    assert_eq!(before[deleter].1, "release");
    let robbed = before[..deleter]
        .iter()
        .rev()
        .find(|(_, action)| *action == "acquire")
        .and_then(|(client, _)| *client);
    assert!(robbed.is_some() && robbed != took.0 && robbed != before[deleter].0);
    assert_replays(two_hold);
}

#[test]
fn celery_onces_clear_lock_is_the_blind_del_of_section_1() {
    // The same verdicts and the same counterexample as the brief's blind DEL, on a real library's
    // key and tokens: the first task returns after its hour and deletes the second's lock.
    let library = report("celery-once");
    let foil = report("blind-del");
    assert_eq!(verdicts(&library), verdicts(&foil));
    let deletes = shortest(&library, Property::NeverDeletesAnothers);
    assert_eq!(
        shape(deletes),
        shape(shortest(&foil, Property::NeverDeletesAnothers))
    );
    assert_ends_deleting(deletes, "DEL qo_reports.build_report_report_id-7");
}

#[test]
fn stackexchange_redis_release_after_a_stall_sees_bs_token_unwatches_and_bs_lock_stands() {
    use ministore::Reply::{Bulk, Integer, Nil};
    let spec = catalogue::by_id("stackexchange-redis").expect("an entry");
    let b_token = &spec.tokens[1];
    let ok = || ministore::Reply::Status("OK".into());
    let mut store = Store::new();
    assert_eq!(send(&mut store, &spec, &spec.acquire, ClientId::A), [ok()]);
    store.exec(&["DEBUG", "SLEEP", "30.001"]);
    assert_eq!(send(&mut store, &spec, &spec.acquire, ClientId::B), [ok()]);
    // WATCH, GET (B's token: the compare fails), UNWATCH; no MULTI, no DEL.
    assert_eq!(
        send(&mut store, &spec, &spec.release, ClientId::A),
        [ok(), Bulk(b_token.clone().into_bytes()), ok()]
    );
    assert_eq!(
        store.exec(&["GET", spec.key.as_str()]),
        Bulk(b_token.clone().into_bytes())
    );
    // B's own release: the compare passes and EXEC runs the DEL.
    let queued = ministore::Reply::Status("QUEUED".into());
    assert_eq!(
        send(&mut store, &spec, &spec.release, ClientId::B),
        [
            ok(),
            Bulk(b_token.clone().into_bytes()),
            ok(),
            queued,
            ministore::Reply::Array(vec![Integer(1)])
        ]
    );
    assert_eq!(store.exec(&["GET", spec.key.as_str()]), Nil);
}

#[test]
fn stackexchange_redis_release_whose_lease_runs_out_after_the_compare_deletes_nothing() {
    // A's WATCH and GET (its own token: the compare passes), then a stall past the lease and B
    // taking the key, then A's MULTI, DEL and EXEC: the watched key expired and was written, so
    // EXEC answers nil and B's lock stands.
    use ministore::Reply::{Bulk, Nil, Status};
    let spec = catalogue::by_id("stackexchange-redis").expect("an entry");
    let [a_token, b_token, _] = &spec.tokens;
    let release: Vec<Vec<String>> = spec
        .release
        .steps
        .iter()
        .map(|step| words_of(&spec, ClientId::A, &step.call))
        .collect();
    let mut store = Store::new();
    let (mut a, mut b) = (Session::new(), Session::new());
    let take = |client| words_of(&spec, client, &spec.acquire.steps[0].call);
    assert_eq!(
        store.exec_in(&mut a, &take(ClientId::A)),
        Status("OK".into())
    );
    assert_eq!(store.exec_in(&mut a, &release[0]), Status("OK".into()));
    assert_eq!(
        store.exec_in(&mut a, &release[1]),
        Bulk(a_token.clone().into_bytes())
    );
    store.exec(&["DEBUG", "SLEEP", "30.001"]);
    assert_eq!(
        store.exec_in(&mut b, &take(ClientId::B)),
        Status("OK".into())
    );
    assert_eq!(store.exec_in(&mut a, &release[2]), Status("OK".into()));
    assert_eq!(store.exec_in(&mut a, &release[3]), Status("QUEUED".into()));
    assert_eq!(store.exec_in(&mut a, &release[4]), Nil);
    assert_eq!(
        store.exec(&["GET", spec.key.as_str()]),
        Bulk(b_token.clone().into_bytes())
    );
}

#[test]
fn stackexchange_redis_release_whose_lease_runs_out_with_no_one_writing_deletes_nothing() {
    // The lease alone: A compares, stalls past its lease, and nobody takes the key; the expiry
    // of the watched key is enough for EXEC to answer nil.
    use ministore::Reply::{Nil, Status};
    let spec = catalogue::by_id("stackexchange-redis").expect("an entry");
    let line = |step: usize| words_of(&spec, ClientId::A, &spec.release.steps[step].call);
    let mut store = Store::new();
    let mut a = Session::new();
    let take = words_of(&spec, ClientId::A, &spec.acquire.steps[0].call);
    assert_eq!(store.exec_in(&mut a, &take), Status("OK".into()));
    store.exec_in(&mut a, &line(0));
    store.exec_in(&mut a, &line(1));
    store.exec(&["DEBUG", "SLEEP", "30.001"]);
    store.exec_in(&mut a, &line(2));
    store.exec_in(&mut a, &line(3));
    assert_eq!(store.exec_in(&mut a, &line(4)), Nil);
}

#[test]
fn a_clean_up_on_an_operations_last_step_is_refused() {
    let mut spec = catalogue::by_id("stackexchange-redis").expect("an entry");
    spec.release = Op::command("GET {key}", Success::EqualsToken).on_refusal("UNWATCH");
    assert!(matches!(
        Explorer::new(&spec, Bound::default()),
        Err(SpecError::RefusalStepLast {
            op: lockdive::scenarios::lockcheck::OpKind::Release
        })
    ));
}

fn explored(spec: &LockSpec, bound: Bound, shortcuts: bool) -> CheckReport {
    let mut explorer = Explorer::new(spec, bound).expect("explores");
    explorer.set_shortcuts(shortcuts);
    while !explorer.run(usize::MAX).done {}
    explorer.report()
}

#[test]
fn the_explorers_shortcuts_change_no_verdict() {
    // Reusing a script call's run on an equal store changes nothing in the report at all.
    for id in ["redisson", "laravel"] {
        let spec = catalogue::by_id(id).expect("an entry");
        let bound = Bound::default();
        assert_eq!(
            explored(&spec, bound, true),
            explored(&spec, bound, false),
            "{id}"
        );
    }
    // Letting a client inside MULTI or about to UNWATCH act alone explores fewer interleavings,
    // to the same verdicts; at a smaller bound, so the unreduced run stays short.
    let mut without_watch = catalogue::by_id("stackexchange-redis").expect("an entry");
    without_watch.release.steps.remove(0);
    without_watch.extend = None;
    let bound = TWO_CLIENTS_ONE_STALL;
    // Pasted locks whose acquire or release starts with an UNWATCH or a MULTI: the first step
    // of an acquire attempt or a release is where a client notes when it started or stops
    // believing it holds, so it never acts alone.
    let pasted = |acquire: &str, release: &str| {
        LockSpec::custom(Some(acquire), release, None, 10_000).expect("parses")
    };
    let unwatch_first = pasted(
        "UNWATCH\nSET {key} {token} NX PX {ttl_ms}",
        "UNWATCH\nDEL {key}",
    );
    let three = Bound {
        clients: 3,
        ..bound
    };
    let (short, full) = (
        explored(&unwatch_first, three, true),
        explored(&unwatch_first, three, false),
    );
    assert_eq!(verdicts(&short), verdicts(&full));
    // A takes the lock, stalls past it, B takes it, A's DEL removes it, C takes it: B and C
    // both hold.
    assert_eq!(
        short.verdict(Property::ExclusionWhileLeasesHold),
        Verdict::Broken
    );
    // A transaction extend with a last, defensive UNWATCH: that step sets the lease A believes
    // in, so a stall just before it, once the key has expired, leaves A believing it holds
    // while B takes the key.
    let unwatch_last = LockSpec::custom(
        None,
        PASTED_TRANSACTION_RELEASE,
        Some(
            &PASTED_TRANSACTION_RELEASE
                .replace("DEL {key}\nEXEC", "PEXPIRE {key} {ttl_ms}\nEXEC\nUNWATCH"),
        ),
        10_000,
    )
    .expect("parses");
    let (short, full) = (
        explored(&unwatch_last, bound, true),
        explored(&unwatch_last, bound, false),
    );
    assert_eq!(verdicts(&short), verdicts(&full));
    assert_eq!(
        short.verdict(Property::ExclusionWhileLeasesHold),
        Verdict::Broken
    );
    let multi_first = pasted(
        "MULTI\nSET {key} {token} NX PX {ttl_ms}\nEXEC",
        PASTED_TRANSACTION_RELEASE,
    );
    for spec in [
        catalogue::by_id("stackexchange-redis").expect("an entry"),
        without_watch,
        multi_first,
    ] {
        let (short, full) = (explored(&spec, bound, true), explored(&spec, bound, false));
        assert_eq!(verdicts(&short), verdicts(&full));
        assert!(short.states < full.states);
        // Moving a commuting step keeps a schedule's length: the shortest are as short.
        let lengths = |report: &CheckReport| -> Vec<Option<usize>> {
            report
                .properties
                .iter()
                .map(|p| p.counterexample.as_ref().map(|c| c.steps.len()))
                .collect()
        };
        assert_eq!(lengths(&short), lengths(&full));
        for property in &short.properties {
            if let Some(counterexample) = &property.counterexample {
                assert_replays_per_client(counterexample);
            }
        }
    }
}

#[test]
fn without_its_watch_stackexchange_redis_transaction_would_delete_anothers_lock() {
    // The same release with the WATCH taken out: GET, compare, MULTI, DEL, EXEC. A compares,
    // stalls past its lease, B takes the key, and A's EXEC deletes B's lock. With the WATCH,
    // the key's expiry spoils A's transaction and EXEC answers nil: the catalogue entry holds
    // (pinned below).
    let mut spec = catalogue::by_id("stackexchange-redis").expect("an entry");
    spec.release.steps.remove(0);
    spec.extend = None;
    spec.id = "stackexchange-redis-without-watch".into();
    let report = check(&spec, Bound::default()).expect("checks");
    assert_eq!(
        report.verdict(Property::NeverDeletesAnothers),
        Verdict::Broken
    );
    let deletes = shortest(&report, Property::NeverDeletesAnothers);
    let lines: Vec<&str> = deletes
        .steps
        .iter()
        .map(|s| s.sent.short.as_str())
        .collect();
    let last = lines.len() - 1;
    assert_eq!(
        &lines[last - 2..],
        ["MULTI", "DEL lock:nightly-invoice-export", "EXEC"]
    );
    assert!(lines.iter().any(|l| l.starts_with("DEBUG SLEEP")));
    assert_eq!(
        deletes.steps[last].sent.reply,
        ministore::Reply::Array(vec![ministore::Reply::Integer(1)])
    );
    assert_replays(deletes);
}

#[test]
fn python_redis_locks_extend_answers_1_on_a_lock_another_client_took_and_counts_as_refused() {
    use ministore::Reply::{Bulk, Integer};
    let spec = catalogue::by_id("python-redis-lock").expect("an entry");
    let [a_token, b_token, _] = &spec.tokens;
    let Some(Extend { op: extend, .. }) = spec.extend.as_ref() else {
        panic!("python-redis-lock extends");
    };
    let mut store = Store::new();
    let ok = || ministore::Reply::Status("OK".into());
    assert_eq!(send(&mut store, &spec, &spec.acquire, ClientId::A), [ok()]);
    store.exec(&["DEBUG", "SLEEP", "10.001"]);
    assert_eq!(send(&mut store, &spec, &spec.acquire, ClientId::B), [ok()]);
    // A's extend, with the spec's own keys and arguments: 1, which the success rule refuses.
    assert_eq!(send(&mut store, &spec, extend, ClientId::A), [Integer(1)]);
    let step = &extend.steps[0];
    assert!(!step.success.passes(&Integer(1), a_token.as_bytes()));
    assert!(step.success.passes(&Integer(0), a_token.as_bytes()));
    assert_eq!(
        store.exec(&["GET", &spec.key]),
        Bulk(b_token.clone().into_bytes())
    );
    assert_eq!(
        report("python-redis-lock").verdict(Property::ExclusionWhileLeasesHold),
        Verdict::Holds
    );
}

#[test]
fn symfonys_lock_is_a_sorted_set_of_tokens_and_a_stalled_holder_leaves_the_next_ones_alone() {
    use ministore::Reply::{Array, Bulk, Integer, Nil};
    let spec = catalogue::by_id("symfony-lock").expect("an entry");
    let Some(Extend { op: extend, .. }) = spec.extend.as_ref() else {
        panic!("Symfony's lock extends");
    };
    let (a, b) = (ClientId::A, ClientId::B);
    let mut store = Store::new();
    // A: save, then putOffExpiration; the key is a sorted set expiring with its lease.
    assert_eq!(
        send(&mut store, &spec, &spec.acquire, a),
        [Integer(1), Integer(1)]
    );
    assert_eq!(
        store.exec(&["TYPE", &spec.key]),
        ministore::Reply::Status("zset".into())
    );
    assert_eq!(store.exec(&["PTTL", &spec.key]), Integer(300_000));
    // B is refused while A's lease holds, at its first script.
    assert_eq!(send(&mut store, &spec, &spec.acquire, b), [Nil]);
    // A stalls past its lease; B takes the lock.
    store.exec(&["DEBUG", "SLEEP", "300.001"]);
    assert_eq!(
        send(&mut store, &spec, &spec.acquire, b),
        [Integer(1), Integer(1)]
    );
    let b_lock = Array(vec![
        Bulk(b"__write__".to_vec()),
        Bulk(spec.tokens[1].clone().into_bytes()),
    ]);
    assert_eq!(store.exec(&["ZRANGE", &spec.key, "0", "-1"]), b_lock);
    // A wakes: its refresh, its delete and its exists all answer nil, and B's lock stands.
    assert_eq!(send(&mut store, &spec, extend, a), [Nil]);
    assert_eq!(send(&mut store, &spec, &spec.release, a), [Nil, Nil]);
    assert_eq!(store.exec(&["ZRANGE", &spec.key, "0", "-1"]), b_lock);
    assert_eq!(store.exec(&["PTTL", &spec.key]), Integer(300_000));
    // B's own release empties the set, so the key is gone.
    assert_eq!(send(&mut store, &spec, &spec.release, b), [Integer(1), Nil]);
    assert_eq!(store.exec(&["EXISTS", &spec.key]), Integer(0));
}

#[test]
fn a_blind_del_of_symfonys_sorted_set_is_caught_deleting_anothers_lock() {
    // The checker reads a sorted set's members for the owner's token, so the same lock released
    // with a plain DEL breaks the first property where Symfony's own delete keeps it.
    let mut spec = catalogue::by_id("symfony-lock").expect("an entry");
    spec.id = "symfony-blind-del".into();
    spec.extend = None;
    spec.release = Op::command("DEL {key}", Success::Always);
    let report = check(&spec, Bound::default()).expect("checks");
    assert_eq!(
        report.verdict(Property::NeverDeletesAnothers),
        Verdict::Broken
    );
    let deletes = shortest(&report, Property::NeverDeletesAnothers);
    let deleting = shape(deletes);
    assert_eq!(
        deleting[deleting.len() - 2..],
        [
            (Some(ClientId::B), "acquire"),
            (Some(ClientId::A), "release")
        ]
    );
    assert_replays(deletes);
    assert_eq!(
        self::report("symfony-lock").verdict(Property::NeverDeletesAnothers),
        Verdict::Holds
    );
}

#[test]
fn a_token_kept_in_a_list_or_a_set_is_read_as_its_clients_lock() {
    // A learner's lock that pushes its token into a list or adds it to a set, and a blind DEL:
    // the checker finds B's token among the members and reports the DEL as deleting B's lock.
    for push in ["RPUSH", "SADD"] {
        let acquire = format!(
            "if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('{push}', KEYS[1], ARGV[1]) \
             redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end return 0"
        );
        let spec = LockSpec::custom(Some(&acquire), "DEL {key}", None, 10_000).expect("a spec");
        let report = check(&spec, Bound::default()).expect("checks");
        assert_eq!(
            report.verdict(Property::NeverDeletesAnothers),
            Verdict::Broken,
            "{push}"
        );
        assert_replays(shortest(&report, Property::NeverDeletesAnothers));
    }
}

#[test]
fn shedlock_with_safe_update_spares_the_other_nodes_lock() {
    let report = report("shedlock-safe");
    for property in [
        Property::NeverDeletesAnothers,
        Property::NeverExtendsAnothers,
        Property::ExclusionWhileLeasesHold,
    ] {
        assert_eq!(report.verdict(property), Verdict::Holds, "{property:?}");
    }
    // The default's takeover, replayed up to A's extend, which safeUpdate's script refuses.
    let default = self::report("shedlock");
    let takeover = shortest(&default, Property::NeverExtendsAnothers);
    let mut store = Store::new();
    let (extend, before) = takeover.steps.split_last().expect("steps");
    for step in before {
        store.exec(&split_line(&step.sent.line).expect("a redis-cli line"));
    }
    let safe = catalogue::by_id("shedlock-safe").expect("an entry");
    let Some(Extend {
        op: safe_extend, ..
    }) = safe.extend.as_ref()
    else {
        panic!("safeUpdate extends");
    };
    assert!(matches!(safe_extend.steps[0].call, Call::Script { .. }));
    assert!(extend.sent.line.contains(safe.tokens[0].as_str()));
    assert_eq!(
        send(&mut store, &safe, safe_extend, ClientId::A),
        [ministore::Reply::Integer(0)]
    );
    assert_eq!(
        store.exec(&["GET", &safe.key]),
        ministore::Reply::Bulk(safe.tokens[1].clone().into_bytes())
    );
}

#[test]
fn the_token_checked_release_holds_the_first_three() {
    let report = report("token-checked");
    for property in [
        Property::NeverDeletesAnothers,
        Property::NeverExtendsAnothers,
        Property::ExclusionWhileLeasesHold,
    ] {
        assert_eq!(report.verdict(property), Verdict::Holds, "{property:?}");
    }
    assert!(!report.fatal());
    assert!(report.schedules >= 10_000, "{}", report.schedules);
}

#[test]
fn every_lock_breaks_exclusion_across_a_stall() {
    for spec in catalogue::all() {
        let report = check(&spec, Bound::default()).expect("checks");
        let stall = report.property(Property::ExclusionAcrossStall);
        assert_eq!(stall.verdict, Verdict::Broken, "{}", spec.id);
        assert!(stall.note.as_deref().is_some_and(|n| n.contains("#s3")));
        assert_replays(shortest(&report, Property::ExclusionAcrossStall));
    }
}

#[test]
fn only_the_fenced_lock_keeps_stale_writes_out() {
    for spec in catalogue::all() {
        let report = check(&spec, Bound::default()).expect("checks");
        let fenced = report.property(Property::FencedWrites);
        if spec.id == "fenced" {
            assert_eq!(fenced.verdict, Verdict::Holds);
        } else {
            assert_eq!(fenced.verdict, Verdict::Broken, "{}", spec.id);
            assert!(fenced
                .note
                .as_deref()
                .is_some_and(|n| n.contains("no fencing token")));
            assert_replays(shortest(&report, Property::FencedWrites));
        }
    }
}

#[test]
fn every_catalogue_entry_runs_without_a_script_error_and_its_verdicts_are_pinned() {
    use Verdict::{Broken as B, Holds as H};
    // never-deletes, never-extends, exclusion-while-leases-hold, across-stall, fenced-writes
    let pinned: [(&str, [Verdict; 5]); 20] = [
        ("token-checked", [H, H, H, B, B]),
        ("blind-del", [B, H, B, B, B]),
        ("get-then-del", [B, H, B, B, B]),
        ("fenced", [H, H, H, B, H]),
        ("redsync", [H, H, H, B, B]),
        ("redis-py", [H, H, H, B, B]),
        ("node-redlock", [H, H, H, B, B]),
        ("redisson", [H, H, H, B, B]),
        ("bsm-redislock", [H, H, H, B, B]),
        ("spring", [H, H, H, B, B]),
        ("bullmq", [H, H, H, B, B]),
        ("python-redis-lock", [H, H, H, B, B]),
        ("laravel", [H, H, H, B, B]),
        ("symfony-lock", [H, H, H, B, B]),
        ("shedlock", [B, B, B, B, B]),
        ("shedlock-safe", [H, H, H, B, B]),
        ("rq-scheduler", [B, B, B, B, B]),
        ("resque-scheduler", [B, H, B, B, B]),
        ("celery-once", [B, H, B, B, B]),
        ("stackexchange-redis", [H, H, H, B, B]),
    ];
    assert_eq!(pinned.len(), catalogue::IDS.len());
    for (id, expected) in pinned {
        let report = report(id);
        assert!(
            report.script_error.is_none(),
            "{id}: {:?}",
            report.script_error
        );
        assert!(report.complete, "{id}");
        assert_eq!(verdicts(&report), expected, "{id}");
        for property in &report.properties {
            if let Some(counterexample) = &property.counterexample {
                assert_replays(counterexample);
            }
        }
    }
}

#[test]
fn a_pasted_token_checked_release_matches_the_catalogue() {
    let pasted = LockSpec::custom(None, RELEASE_SCRIPT, None, 10_000).expect("valid");
    let mine = check(&pasted, Bound::default()).expect("checks");
    let theirs = report("token-checked");
    assert_eq!(verdicts(&mine), verdicts(&theirs));
    assert_eq!(mine.schedules, theirs.schedules);
}

#[test]
fn pasted_command_templates_run_each_line_as_a_step() {
    let spec = LockSpec::custom(None, "GET {key}\nDEL {key}", None, 10_000).expect("valid");
    assert_eq!(spec.release.steps.len(), 2);
    let report = check(&spec, Bound::default()).expect("checks");
    assert_eq!(
        report.verdict(Property::NeverDeletesAnothers),
        Verdict::Broken
    );
}

/// A transaction lock pasted as command lines: StackExchange.Redis's release written by hand.
const PASTED_TRANSACTION_RELEASE: &str = "\
WATCH {key}
GET {key} == {token} else UNWATCH
MULTI
DEL {key}
EXEC";

#[test]
fn a_pasted_line_compares_with_the_token_and_names_what_the_client_sends_when_it_fails() {
    let spec = LockSpec::custom(None, PASTED_TRANSACTION_RELEASE, None, 10_000).expect("parses");
    let truthy = |line: &str| Op::command(line, Success::Truthy);
    let expected = truthy("WATCH {key}")
        .then(Op::command("GET {key}", Success::EqualsToken).on_refusal("UNWATCH"))
        .then(truthy("MULTI"))
        .then(truthy("DEL {key}"))
        .then(truthy("EXEC"));
    assert_eq!(spec.release, expected);
    // Quoted, `==` and `else` are words the command sends.
    let quoted = LockSpec::custom(None, "SET {key} \"==\" \"else\"", None, 10_000).expect("parses");
    assert_eq!(
        quoted.release,
        Op::command("SET {key} == else", Success::Truthy)
    );
    let err = |release: &str| LockSpec::custom(None, release, None, 10_000).unwrap_err();
    assert!(matches!(
        err("GET {key} == abc\nDEL {key}"),
        SpecError::BadCompare { line: 1, .. }
    ));
    assert!(matches!(
        err("GET {key}\n== {token}\nDEL {key}"),
        SpecError::BadCompare { line: 2, .. }
    ));
    assert!(matches!(
        err("GET {key} == {token} else\nDEL {key}"),
        SpecError::BadElse { line: 1, .. }
    ));
    assert!(matches!(
        err("GET {key} == {token} else SELECT 1\nDEL {key}"),
        SpecError::UnsupportedCommand { line: 1, .. }
    ));
    assert!(matches!(
        err("DEL {key} else UNWATCH"),
        SpecError::RefusalStepLast { .. }
    ));
    assert!(matches!(
        err("GET {key} == {token} else GET {key} == {token}\nDEL {key}"),
        SpecError::BadCompare { line: 1, .. }
    ));
    // As redis-cli splits: a closing quote must end its word; a quote may open inside one.
    assert!(matches!(
        err("GET {key} \"a\"== {token}\nDEL {key}"),
        SpecError::UnbalancedQuotes { line: 1, .. }
    ));
    let inside = LockSpec::custom(None, "SET k x\" else \"", None, 10_000).expect("parses");
    assert_eq!(
        inside.release.steps[0].call,
        Call::Command(["SET", "k", "x else "].map(Template::literal).to_vec())
    );
    assert_eq!(inside.release.steps[0].on_refusal, None);
    // `else` in any case; its command takes placeholders.
    let renews = LockSpec::custom(
        None,
        "GET {key} == {token} ELSE PEXPIRE {key} {ttl_ms}\nDEL {key}",
        None,
        10_000,
    )
    .expect("parses");
    assert_eq!(
        renews.release,
        Op::command("GET {key}", Success::EqualsToken)
            .on_refusal("PEXPIRE {key} {ttl_ms}")
            .then(truthy("DEL {key}"))
    );
    // An operation that leaves the connection inside MULTI is refused by the solo run.
    for (acquire, release, op) in [
        (None, "MULTI\nDEL {key}", OpKind::Release),
        (
            Some("MULTI\nSET {key} {token} NX PX {ttl_ms}"),
            "DEL {key}",
            OpKind::Acquire,
        ),
    ] {
        let spec = LockSpec::custom(acquire, release, None, 10_000).expect("parses");
        assert_eq!(
            check(&spec, Bound::default()).unwrap_err(),
            SpecError::EndsInMulti { op }
        );
    }
}

/// A clean-up belongs to the operation whose step was refused: the pasted transaction release
/// with a `PEXPIRE` in place of its `UNWATCH` resets B's lease after a failed compare, which
/// the checker sees although value and TTL read as before on the virtual clock.
#[test]
fn a_release_clean_up_that_resets_bs_lease_breaks_never_deletes_anothers() {
    let release = PASTED_TRANSACTION_RELEASE.replace("else UNWATCH", "else PEXPIRE {key} {ttl_ms}");
    let spec = LockSpec::custom(None, &release, None, 10_000).expect("parses");
    let bound = TWO_CLIENTS_ONE_STALL;
    let report = check(&spec, bound).expect("checks");
    let resets = shortest(&report, Property::NeverDeletesAnothers);
    let last = resets.steps.last().expect("a step");
    assert_eq!(last.sent.line, "PEXPIRE resource:lock 10000");
    assert_eq!(last.client, Some(ClientId::A));
    assert!(last.note.contains("resets B's lease"), "{}", last.note);
    assert_replays(resets);
}

/// Each client sends on its own connection, so a pasted WATCH guards the client's own
/// transaction: no schedule deletes B's lock. Without the WATCH, A's EXEC deletes it.
#[test]
fn a_pasted_watch_multi_exec_release_keeps_bs_lock_and_without_its_watch_deletes_it() {
    let bound = TWO_CLIENTS_ONE_STALL;
    let run = |release: &str| {
        let spec = LockSpec::custom(None, release, None, 10_000).expect("parses");
        check(&spec, bound).expect("checks")
    };
    let watched = run(PASTED_TRANSACTION_RELEASE);
    assert_eq!(
        watched.verdict(Property::NeverDeletesAnothers),
        Verdict::Holds
    );
    assert_eq!(
        watched.verdict(Property::ExclusionWhileLeasesHold),
        Verdict::Holds
    );
    let unwatched = run("GET {key} == {token}\nMULTI\nDEL {key}\nEXEC");
    let deletes = shortest(&unwatched, Property::NeverDeletesAnothers);
    let lines = deletes.lines();
    assert_eq!(
        lines[lines.len() - 3..],
        ["MULTI", "DEL resource:lock", "EXEC"]
    );
    let last = deletes.steps.last().expect("a step");
    assert_eq!(
        last.sent.reply,
        ministore::Reply::Array(vec![ministore::Reply::Integer(1)])
    );
    assert_replays(deletes);
}

/// Two clients' WATCHes outstanding at once: on their own connections B's EXEC fails (A's
/// transaction wrote the key B watched), while on one connection A's EXEC ends every WATCH
/// and B's transaction runs. The counterexample says so, and its script tells the reader.
#[test]
fn a_schedule_of_overlapping_watches_does_not_replay_on_one_connection() {
    use lockdive::scenarios::lockcheck::{ScheduleStep, SentCommand};
    use ministore::Reply;
    let step = |client: ClientId, line: &str, reply: Reply| ScheduleStep {
        client: Some(client),
        action: StepAction::Release,
        sent: SentCommand {
            line: line.to_string(),
            short: line.to_string(),
            reply,
        },
        clock_ms: 0,
        keys_after: Vec::new(),
        note: String::new(),
    };
    let queued = || Reply::Status("QUEUED".into());
    let counterexample = Counterexample {
        steps: vec![
            step(ClientId::A, "WATCH k", Reply::ok()),
            step(ClientId::B, "WATCH k", Reply::ok()),
            step(ClientId::A, "MULTI", Reply::ok()),
            step(ClientId::A, "SET k a", queued()),
            step(ClientId::A, "EXEC", Reply::Array(vec![Reply::ok()])),
            step(ClientId::B, "MULTI", Reply::ok()),
            step(ClientId::B, "DEL k", queued()),
            step(ClientId::B, "EXEC", Reply::Nil),
        ],
    };
    // Their own connections, as the explorer runs them, give those replies.
    let mut store = Store::new();
    let (mut a, mut b) = (Session::new(), Session::new());
    for (i, s) in counterexample.steps.iter().enumerate() {
        let session = if s.client == Some(ClientId::A) {
            &mut a
        } else {
            &mut b
        };
        let words = split_line(&s.sent.line).expect("a redis-cli line");
        assert_eq!(
            store.exec_in(session, &words),
            s.sent.reply,
            "step {}",
            i + 1
        );
    }
    assert!(!counterexample.replays_on_one_connection());
    assert!(counterexample
        .to_cli_script()
        .starts_with("# Each client sent on a connection of its own"));
}

#[test]
fn garbage_input_is_a_spec_error() {
    let err = |release: &str| LockSpec::custom(None, release, None, 10_000).unwrap_err();
    assert!(matches!(err(""), SpecError::Empty { .. }));
    assert!(matches!(
        err("   \n# only a comment\n"),
        SpecError::Empty { .. }
    ));
    assert!(matches!(
        err("DEL {owner}"),
        SpecError::UnknownPlaceholder { line: 1, .. }
    ));
    assert!(matches!(
        err("DEL \"{key}"),
        SpecError::UnbalancedQuotes { line: 1, .. }
    ));
    assert!(matches!(
        err("DEL {key"),
        SpecError::UnclosedPlaceholder { .. }
    ));
    assert!(matches!(
        err("SELECT 1"),
        SpecError::UnsupportedCommand { .. }
    ));
    match err("return redis.call('DEL', KEYS[1]") {
        SpecError::ScriptCompile { error, .. } => {
            assert!(error.starts_with("ERR Error compiling script"), "{error}")
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    assert!(matches!(
        LockSpec::custom(None, "DEL {key}", None, 0),
        Err(SpecError::BadTtl(0))
    ));
    // A well-formed command the store refuses is caught by the solo run.
    let spec = LockSpec::custom(None, "DEL", None, 10_000).expect("parses");
    assert!(matches!(
        check(&spec, Bound::default()),
        Err(SpecError::ScriptFailed { .. })
    ));
}

#[test]
fn a_runaway_release_is_an_error_not_a_hang() {
    let spec = LockSpec::custom(None, "while true do end return 0", None, 10_000).expect("valid");
    match check(&spec, Bound::default()) {
        Err(SpecError::ScriptFailed { error, command, .. }) => {
            assert!(!error.is_empty());
            // The reader's script is named as theirs, not as §2's release.lua.
            assert!(
                command.starts_with("EVAL <your-release.lua> 1 "),
                "{command}"
            );
        }
        other => panic!("expected a script error, got {other:?}"),
    }
}

#[test]
fn a_run_in_chunks_reports_what_one_run_does() {
    let spec = catalogue::by_id("get-then-del").expect("entry");
    let whole = check(&spec, Bound::default()).expect("checks");
    let mut explorer = Explorer::new(&spec, Bound::default()).expect("valid");
    let mut chunks = 0;
    while !explorer.run(97).done {
        chunks += 1;
    }
    assert!(chunks > 3);
    assert_eq!(explorer.report(), whole);
}

#[test]
fn bounds_out_of_range_are_refused() {
    let spec = catalogue::token_checked();
    for bound in [
        Bound {
            clients: 4,
            ..Bound::default()
        },
        Bound {
            acquire_attempts: 0,
            ..Bound::default()
        },
    ] {
        assert!(matches!(
            Explorer::new(&spec, bound),
            Err(SpecError::BadBound(_))
        ));
    }
}

mod cli {
    use std::process::Command;

    fn run(args: &[&str]) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_lockcheck"))
            .args(args)
            .output()
            .expect("the lockcheck binary runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// A file the binary reads, in a folder of its own that is removed on drop.
    struct Scratch {
        folder: std::path::PathBuf,
        path: String,
    }

    impl std::ops::Deref for Scratch {
        type Target = str;
        fn deref(&self) -> &str {
            &self.path
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.folder);
        }
    }

    fn scratch(name: &str, text: &str) -> Scratch {
        let folder =
            std::env::temp_dir().join(format!("lockcheck-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a temp dir");
        let path = folder.join(name);
        std::fs::write(&path, text).expect("writes");
        let path = path.to_string_lossy().into_owned();
        Scratch { folder, path }
    }

    #[test]
    fn the_token_checked_release_exits_0() {
        let release = scratch("release.lua", lockdive::scenarios::RELEASE_SCRIPT);
        let (code, out, _) = run(&["--release", &release]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("[holds ] never-deletes-anothers"), "{out}");
        assert!(out.contains("[BROKEN] exclusion-across-stall"), "{out}");
    }

    #[test]
    fn a_scripts_steps_are_named_after_its_file() {
        let release = scratch("mine.lua", "return redis.call('FOO', KEYS[1])");
        let (code, out, err) = run(&["--release", &release]);
        assert_eq!(code, 2, "{out}");
        assert!(err.contains("EVAL <mine.lua> 1 resource:lock"), "{err}");
    }

    #[test]
    fn a_blind_del_exits_1_with_its_counterexample() {
        let release = scratch("blind.txt", "DEL {key}\n");
        let (code, out, _) = run(&["--release", &release, "--stalls", "1"]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("[BROKEN] never-deletes-anothers"), "{out}");
        assert!(out.contains("DEBUG SLEEP 10.001"), "{out}");
        let (code, _, _) = run(&["--lock", "blind-del"]);
        assert_eq!(code, 1);
    }

    #[test]
    fn a_reader_that_stops_reading_leaves_the_verdict_as_the_exit_status() {
        use std::io::Read;
        use std::process::Stdio;
        // The reader closes its end at once, long before blind-del's schedules are explored and
        // the report is written.
        let mut child = Command::new(env!("CARGO_BIN_EXE_lockcheck"))
            .args(["--lock", "blind-del"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the lockcheck binary runs");
        // Closes the reading end: the child's writes now fail with a broken pipe.
        child.stdout = None;
        let mut err = String::new();
        child
            .stderr
            .take()
            .expect("piped")
            .read_to_string(&mut err)
            .expect("reads stderr");
        let status = child.wait().expect("exits");
        assert_eq!(status.code(), Some(1), "{err}");
        assert_eq!(err, "");
    }

    #[test]
    fn help_is_the_usage_on_standard_output() {
        for flag in ["--help", "-h"] {
            // After a whole command, and where another flag expects its value.
            for args in [
                &["--lock", "blind-del", flag][..],
                &["--lock", "blind-del", "--clients", flag],
            ] {
                let (code, out, err) = run(args);
                assert_eq!(code, 0, "{args:?}: {err}");
                assert!(out.starts_with("usage: lockcheck"), "{out}");
                assert_eq!(err, "");
            }
        }
    }

    #[test]
    fn bad_arguments_and_bad_scripts_exit_2() {
        assert_eq!(run(&[]).0, 2);
        assert_eq!(run(&["--clients", "7", "--lock", "token-checked"]).0, 2);
        assert_eq!(run(&["--lock", "no-such-lock"]).0, 2);
        assert_eq!(run(&["--release"]).0, 2);
        assert_eq!(run(&["--release", "/no/such/file.lua"]).0, 2);
        let release = scratch("release.lua", lockdive::scenarios::RELEASE_SCRIPT);
        // An option the tool would otherwise ignore, or a value it would replace, is refused
        // before anything runs: the reader would not be checking what they asked for.
        for (args, says) in [
            (
                &["--release", &release, "--bogus"][..],
                "unknown option --bogus",
            ),
            (&["--bogus", "1"], "unknown option --bogus"),
            (
                &["--release", &release, "--release", &release],
                "--release is given twice",
            ),
            (
                &["--lock", "token-checked", "--extend", &release],
                "leave out --release, --acquire and --extend",
            ),
            (
                &["--list", "--release", &release],
                "--list prints the catalogue",
            ),
            (
                &["--release", &release, "--ttl-ms", "-5"],
                "--ttl-ms must be a whole number of milliseconds",
            ),
        ] {
            let (code, out, err) = run(args);
            assert_eq!(code, 2, "{args:?}: {out}");
            assert!(err.contains(says), "{args:?}: {err}");
            assert_eq!(out, "", "{args:?}");
        }
        let broken = scratch("broken.lua", "return redis.call('DEL', KEYS[1]");
        let (code, _, err) = run(&["--release", &broken]);
        assert_eq!(code, 2);
        assert!(err.contains("does not compile"), "{err}");
    }

    #[test]
    fn the_list_names_every_catalogue_entry() {
        let (code, out, _) = run(&["--list"]);
        assert_eq!(code, 0);
        for id in lockdive::scenarios::lockcheck::catalogue::IDS {
            assert!(out.contains(id), "{id}");
        }
        // One column for the ids, as wide as the longest: every name starts at the same place.
        let name_column = |line: &str| {
            let id_end = line.find(' ').unwrap_or(line.len());
            line.len() - line[id_end..].trim_start().len()
        };
        let starts: Vec<usize> = out.lines().map(name_column).collect();
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "{out}");
    }
}

/// Random bytes and random template lines into `LockSpec::custom`, checked with a tiny bound:
/// every input gives a spec error or a report, never a panic.
#[test]
fn fuzzed_custom_input_never_panics() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const WORDS: [&str; 36] = [
        "==",
        "else",
        "ELSE",
        "\"==\"",
        "x\"",
        "'a b'",
        "é",
        "WATCH",
        "MULTI",
        "EXEC",
        "UNWATCH",
        "DISCARD",
        "SET",
        "DEL",
        "GET",
        "PEXPIRE",
        "EXPIRE",
        "HSET",
        "EVAL",
        "{key}",
        "{token}",
        "{ttl_ms}",
        "{ttl_s}",
        "{client}",
        "{nope}",
        "NX",
        "PX",
        "\"",
        "'",
        "{",
        "}}",
        "0",
        "-1",
        "\\x00",
        "return",
        "redis.call(",
    ];
    let tiny = TWO_CLIENTS_ONE_STALL;
    for round in 0..300 {
        let text: String = if round % 3 == 0 {
            let len = (next() % 40) as usize;
            (0..len).map(|_| char::from((next() % 128) as u8)).collect()
        } else {
            let lines = 1 + next() % 3;
            (0..lines)
                .map(|_| {
                    let n = 1 + next() % 5;
                    (0..n)
                        .map(|_| WORDS[(next() % WORDS.len() as u64) as usize])
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let as_acquire = round % 2 == 0;
        let spec = if as_acquire {
            LockSpec::custom(Some(&text), "DEL {key}", Some(&text), 1_000)
        } else {
            LockSpec::custom(None, &text, None, 1 + next() % 100_000)
        };
        if let Ok(spec) = spec {
            let _ = check(&spec, tiny);
        }
    }
}

#[test]
fn the_state_cap_ends_exploration_and_the_report_says_so() {
    let spec = catalogue::by_id("redisson").expect("entry");
    let mut explorer = Explorer::new(&spec, Bound::default()).expect("valid");
    explorer.set_state_cap(500);
    while !explorer.run(64).done {}
    let report = explorer.report();
    assert!(report.cap_reached);
    assert!(!report.complete);
    assert!(
        report.states >= 500 && report.states < 600,
        "{}",
        report.states
    );
}

#[test]
fn a_spec_built_by_hand_is_validated_before_exploring() {
    let mut spec = catalogue::token_checked();
    spec.tokens[1] = spec.tokens[0].clone();
    assert_eq!(
        Explorer::new(&spec, Bound::default()).err(),
        Some(SpecError::BadTokens)
    );
    let mut spec = catalogue::token_checked();
    spec.release.steps.clear();
    assert!(matches!(
        Explorer::new(&spec, Bound::default()),
        Err(SpecError::BadOpLength { steps: 0, .. })
    ));
    let mut spec = catalogue::blind_del();
    spec.release.steps[0].call = lockdive::scenarios::lockcheck::Call::Command(Vec::new());
    assert!(matches!(
        Explorer::new(&spec, Bound::default()),
        Err(SpecError::Empty { .. })
    ));
}

/// The clock moves only in full-lease stalls, so an unchecked extend that sets the same lease the
/// other client just took changes nothing; one that adds to the remaining time lengthens it.
#[test]
fn an_extend_that_does_not_check_the_token_lengthens_anothers_lease() {
    let adds = "return redis.call('PEXPIRE', KEYS[1], redis.call('PTTL', KEYS[1]) + ARGV[2])";
    let spec = LockSpec::custom(None, RELEASE_SCRIPT, Some(adds), 10_000).expect("valid");
    let report = check(&spec, Bound::default()).expect("checks");
    assert_eq!(
        report.verdict(Property::NeverExtendsAnothers),
        Verdict::Broken
    );
    assert!(report.fatal());
    let counterexample = shortest(&report, Property::NeverExtendsAnothers);
    let last = counterexample.steps.last().expect("a step");
    assert_eq!(last.action, StepAction::Extend);
    assert!(last.note.contains("lengthens"), "{}", last.note);
    assert_replays(counterexample);
}

/// The classic unchecked extend resets the lease to what the owner just took: on the virtual
/// clock its TTL does not change, yet the step writes to another's lock, and the same step a
/// millisecond later moves the owner's deadline later, as a real clock would.
#[test]
fn an_extend_that_resets_anothers_lease_is_caught_though_its_ttl_is_unchanged() {
    for extend in [
        "return redis.call('PEXPIRE', KEYS[1], ARGV[2])",
        "PEXPIRE {key} {ttl_ms}",
    ] {
        let spec = LockSpec::custom(None, RELEASE_SCRIPT, Some(extend), 10_000).expect("valid");
        let report = check(&spec, Bound::default()).expect("checks");
        assert_eq!(
            report.verdict(Property::NeverExtendsAnothers),
            Verdict::Broken,
            "{extend}"
        );
        let counterexample = shortest(&report, Property::NeverExtendsAnothers);
        let last = counterexample.steps.last().expect("a step");
        assert_eq!(last.action, StepAction::Extend);
        assert!(
            last.note.contains("resets B's lease")
                && last
                    .note
                    .contains("a millisecond later leaves B's lease ending later"),
            "{}",
            last.note
        );
        assert_replays(counterexample);
    }
    // The checked extends of the catalogue still hold: a WATCH sees only writes.
    assert_eq!(
        report("redsync").verdict(Property::NeverExtendsAnothers),
        Verdict::Holds
    );
}

/// An extend that leaves another's lock as it was here but, run a millisecond later, sets its
/// deadline earlier rewrites it, and the note says what the later run does.
#[test]
fn an_extend_that_changes_anothers_lock_only_a_moment_later_rewrites_it() {
    let extend = "return redis.call('PEXPIRE', KEYS[1], 2 * redis.call('PTTL', KEYS[1]) - ARGV[2])";
    let spec = LockSpec::custom(None, RELEASE_SCRIPT, Some(extend), 10_000).expect("valid");
    let report = check(&spec, TWO_CLIENTS_ONE_STALL).expect("checks");
    let breaks = shortest(&report, Property::NeverExtendsAnothers);
    let last = breaks.steps.last().expect("a step");
    assert_eq!(last.action, StepAction::Extend);
    assert_eq!(last.sent.reply, ministore::Reply::Integer(1));
    assert!(
        last.note.contains("rewrites B's lock")
            && last.note.contains("a millisecond later changes them"),
        "{}",
        last.note
    );
    assert_replays(breaks);
}

/// A write that puts back the deadline and value the owner's lock already has leaves it as it
/// was on any clock: the same step a moment later sets the same deadline, so nothing is
/// lengthened, reset or changed, and the extend is not flagged for it.
#[test]
fn an_extend_that_writes_back_anothers_deadline_and_value_leaves_the_lock_alone() {
    for extend in [
        "return redis.call('PEXPIRE', KEYS[1], redis.call('PTTL', KEYS[1]))",
        "return redis.call('SET', KEYS[1], redis.call('GET', KEYS[1]), 'KEEPTTL')",
    ] {
        let spec = LockSpec::custom(None, RELEASE_SCRIPT, Some(extend), 10_000).expect("valid");
        let report = check(&spec, TWO_CLIENTS_ONE_STALL).expect("checks");
        assert_eq!(
            report.verdict(Property::NeverExtendsAnothers),
            Verdict::Holds,
            "{extend}"
        );
    }
}

#[test]
fn a_script_step_shows_its_short_form_beside_the_replayable_line() {
    let report = report("token-checked");
    let counterexample = shortest(&report, Property::ExclusionAcrossStall);
    let script = counterexample.to_cli_script();
    assert!(
        script.contains("SET resource:lock abc NX PX 10000"),
        "{script}"
    );
    // The schedule stalls, so the script says what its DEBUG SLEEP needs from a real Redis.
    assert!(script.contains("\nDEBUG SLEEP "), "{script}");
    assert!(
        script.starts_with("# A stall is DEBUG SLEEP")
            && script.contains("--enable-debug-command local"),
        "{script}"
    );
    let pasted = report
        .properties
        .iter()
        .filter_map(|p| p.counterexample.as_ref())
        .flat_map(|c| &c.steps)
        .find(|s| s.sent.short.starts_with("EVAL <release.lua>"));
    if let Some(step) = pasted {
        assert!(
            step.sent.line.starts_with("EVAL \"-- safe release"),
            "{}",
            step.sent.line
        );
    }
}

/// An extend that deletes the lock it failed to extend is an extend that deletes another's
/// lock, and the property's own words say so.
#[test]
fn an_extend_that_deletes_anothers_lock_breaks_never_extends_anothers_in_its_own_words() {
    let extend = "if redis.call('GET', KEYS[1]) == ARGV[1] then\n\
                  return redis.call('PEXPIRE', KEYS[1], ARGV[2])\n\
                  end\n\
                  return redis.call('DEL', KEYS[1])";
    let spec = LockSpec::custom(None, RELEASE_SCRIPT, Some(extend), 10_000).expect("parses");
    let bound = TWO_CLIENTS_ONE_STALL;
    let report = check(&spec, bound).expect("checks");
    let breaks = shortest(&report, Property::NeverExtendsAnothers);
    let last = breaks.steps.last().expect("a step");
    assert_eq!(last.client, Some(ClientId::A));
    assert_eq!(last.sent.reply, ministore::Reply::Integer(1));
    assert!(last.note.contains("removes B's lock"), "{}", last.note);
    assert!(
        Property::NeverExtendsAnothers.label().contains("deletes"),
        "{}",
        Property::NeverExtendsAnothers.label()
    );
    assert_replays(breaks);
}

/// An acquire's clean-up does not take the lock, so it is judged as a release is: a pasted
/// acquire that deletes the key when its `SET … NX` is refused (then reads it back) deletes
/// A's lock at B's clean-up, and one that resets the lease there resets A's (value and TTL
/// read as before on the virtual clock: the explorer's watch sees the write, and the same step a
/// millisecond later ends A's lease later); one that sends
/// `UNWATCH` instead leaves it alone.
#[test]
fn an_acquire_clean_up_that_deletes_or_resets_anothers_lock_breaks_never_deletes_anothers() {
    let bound = TWO_CLIENTS_ONE_STALL;
    let run = |clean_up: &str| {
        let acquire = format!(
            "SET {{key}} {{token}} NX PX {{ttl_ms}} else {clean_up}\nGET {{key}} == {{token}}"
        );
        let spec = LockSpec::custom(Some(&acquire), RELEASE_SCRIPT, None, 10_000).expect("parses");
        check(&spec, bound).expect("checks")
    };
    for (clean_up, reply, note) in [
        ("DEL {key}", 1, "removes A's lock"),
        ("PEXPIRE {key} {ttl_ms}", 1, "resets A's lease"),
    ] {
        let report = run(clean_up);
        let breaks = shortest(&report, Property::NeverDeletesAnothers);
        let steps: Vec<(Option<ClientId>, &str)> = breaks
            .steps
            .iter()
            .map(|step| (step.client, step.sent.line.as_str()))
            .collect();
        let clean_up = clean_up
            .replace("{key}", "resource:lock")
            .replace("{ttl_ms}", "10000");
        assert_eq!(
            steps,
            [
                (Some(ClientId::A), "SET resource:lock abc NX PX 10000"),
                (Some(ClientId::B), "SET resource:lock xyz NX PX 10000"),
                (Some(ClientId::B), clean_up.as_str()),
            ]
        );
        let last = breaks.steps.last().expect("a step");
        assert_eq!(last.sent.reply, ministore::Reply::Integer(reply));
        assert!(
            last.note.contains("clean-up") && last.note.contains(note),
            "{}",
            last.note
        );
        assert_replays(breaks);
    }
    assert_eq!(
        run("UNWATCH").verdict(Property::NeverDeletesAnothers),
        Verdict::Holds
    );
}

/// A client whose extend is refused releases next, unless the lock says it sends nothing more
/// (ShedLock's): with an extend that is always refused and a blind `DEL` release, only the
/// releasing client can delete another's lock.
#[test]
fn a_client_that_sends_nothing_after_a_refused_extend_never_reaches_its_release() {
    let releases =
        LockSpec::custom(None, "DEL {key}", Some("GET {key}:never-set"), 10_000).expect("valid");
    let report = check(&releases, TWO_CLIENTS_ONE_STALL).expect("checks");
    assert_eq!(
        report.verdict(Property::NeverDeletesAnothers),
        Verdict::Broken
    );
    let breaks = shortest(&report, Property::NeverDeletesAnothers);
    assert!(
        breaks.steps.iter().any(|s| s.note.contains("refused")),
        "the DEL comes after the refused extend: {breaks:?}"
    );

    let mut stops = releases.clone();
    stops.extend = stops
        .extend
        .map(|extend| Extend::then_sends_nothing(extend.op));
    let report = check(&stops, TWO_CLIENTS_ONE_STALL).expect("checks");
    assert_eq!(
        report.verdict(Property::NeverDeletesAnothers),
        Verdict::Holds
    );
    // The catalogue's ShedLock entries are built that way.
    for id in ["shedlock", "shedlock-safe"] {
        let spec = catalogue::by_id(id).expect("in the catalogue");
        assert_eq!(
            spec.extend.map(|extend| extend.after_refusal),
            Some(AfterRefusedExtend::SendsNothing),
            "{id}"
        );
    }
}
