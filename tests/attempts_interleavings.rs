//! The attempts fence has no hole: every interleaving of claim, reap, re-claim, complete and
//! retry by two workers, up to [`DEPTH`] transitions, is run in ministore with the page's own
//! scripts, and each reply is checked against this file's account of which claim is the live
//! grant. A sample of the same sequences is replayed through real Redis 7.0 (the oracle), and
//! the same check is run on what redis-cli printed.
#![cfg(not(target_arch = "wasm32"))]

use lockdive::scenarios::attempts::{self, claimed_attempts, LEASE_MS};
use ministore::{Reply, Store};

/// Transitions per sequence. Six reach every pattern with one job and two workers (claim, reap,
/// re-claim, then a stale complete or retry, and a repeat) and stay quick in a debug build.
const DEPTH: usize = 6;
/// The clock moves this far before every transition but a reap.
const STEP_MS: u64 = 1_000;
/// Every sequence this long or shorter is replayed through real Redis...
const REDIS_ALL_UP_TO: usize = 4;
/// ...and one in this many of the full-length ones.
const REDIS_ONE_IN: usize = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Worker {
    W1,
    W2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Claim(Worker),
    Complete(Worker),
    Retry(Worker),
    /// The clock passes every lease deadline, then the reaper runs.
    Reap,
}

const ACTIONS: [Action; 7] = [
    Action::Claim(Worker::W1),
    Action::Claim(Worker::W2),
    Action::Complete(Worker::W1),
    Action::Complete(Worker::W2),
    Action::Retry(Worker::W1),
    Action::Retry(Worker::W2),
    Action::Reap,
];

/// What a transition's reply said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Claimed(i64),
    NothingToClaim,
    Accepted,
    Refused,
    /// The reaper's pass, and whether it moved job 42.
    Reaped(bool),
}

/// This file's own account of the job: who holds which `att`, which claim is the live grant.
#[derive(Clone, Debug, Default)]
struct Model {
    /// The `att` each worker's last successful claim returned (a worker keeps presenting it).
    held: [Option<i64>; 2],
    /// The claim still in force: not since reaped, completed or retried.
    live: Option<(Worker, i64)>,
    completed: bool,
}

fn slot(w: Worker) -> usize {
    match w {
        Worker::W1 => 0,
        Worker::W2 => 1,
    }
}

impl Model {
    /// A worker can present a token only once a claim gave it one.
    fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Complete(w) | Action::Retry(w) => self.held[slot(w)].is_some(),
            _ => true,
        }
    }

    /// Checks the invariant for one transition and moves the account on.
    fn step(&mut self, action: Action, seen: Seen) -> Result<(), String> {
        match (action, seen) {
            (Action::Claim(w), Seen::Claimed(att)) => {
                if self.live.is_some() || self.completed {
                    return Err(format!("{w:?} claimed a job that was not waiting"));
                }
                self.held[slot(w)] = Some(att);
                self.live = Some((w, att));
            }
            (Action::Claim(w), Seen::NothingToClaim) => {
                if self.live.is_none() && !self.completed {
                    return Err(format!("{w:?} found nothing while the job waited"));
                }
            }
            (Action::Reap, Seen::Reaped(moved)) => {
                if moved != self.live.is_some() {
                    return Err(format!(
                        "the reaper moved {moved}, live grant {:?}",
                        self.live
                    ));
                }
                self.live = None;
            }
            (Action::Complete(w) | Action::Retry(w), seen @ (Seen::Accepted | Seen::Refused)) => {
                let att = self.held[slot(w)].ok_or("a transition without a token")?;
                let rightful = self.live == Some((w, att));
                let accepted = seen == Seen::Accepted;
                if accepted && !rightful {
                    return Err(format!(
                        "{action:?} with att {att} let through; live grant {:?}",
                        self.live
                    ));
                }
                if rightful && !accepted {
                    return Err(format!("{action:?} refused the live grant's holder"));
                }
                if accepted {
                    self.live = None;
                    self.completed |= matches!(action, Action::Complete(_));
                }
            }
            _ => return Err(format!("{action:?} answered {seen:?}")),
        }
        Ok(())
    }
}

/// Runs one transition; returns the command line (scripts by file name) and the reply.
fn perform(store: &mut Store, model: &Model, action: Action) -> (String, Reply) {
    let token = |w: Worker| {
        model.held[slot(w)]
            .map(|a| a.to_string())
            .unwrap_or_default()
    };
    match action {
        Action::Reap => {
            store.advance(LEASE_MS + 1);
            attempts::reap(store)
        }
        Action::Claim(_) => {
            store.advance(STEP_MS);
            attempts::claim(store)
        }
        Action::Complete(w) => {
            store.advance(STEP_MS);
            attempts::complete(store, &token(w))
        }
        Action::Retry(w) => {
            store.advance(STEP_MS);
            attempts::retry(store, &token(w))
        }
    }
}

fn seen_in_reply(action: Action, reply: &Reply) -> Seen {
    match (action, reply) {
        (Action::Claim(_), Reply::Array(_)) => {
            claimed_attempts(reply).map_or(Seen::Refused, Seen::Claimed)
        }
        (Action::Claim(_), _) if !reply.is_error() => Seen::NothingToClaim,
        (Action::Reap, Reply::Array(ids)) => {
            Seen::Reaped(ids.contains(&Reply::bulk(attempts::JOB_ID)))
        }
        (_, Reply::Integer(1)) => Seen::Accepted,
        _ => Seen::Refused,
    }
}

/// The same reading, from the text redis-cli printed for the reply.
fn seen_in_text(action: Action, text: &str) -> Seen {
    let job = format!("\"{}\"", attempts::JOB_ID);
    match action {
        Action::Claim(_) if text.trim() == "(nil)" => Seen::NothingToClaim,
        Action::Claim(_) => text
            .lines()
            .find_map(|l| l.strip_prefix("3) (integer) "))
            .and_then(|n| n.trim().parse().ok())
            .map_or(Seen::Refused, Seen::Claimed),
        Action::Reap => Seen::Reaped(text.lines().any(|l| l.ends_with(&job))),
        _ if text.trim() == "(integer) 1" => Seen::Accepted,
        _ => Seen::Refused,
    }
}

/// A sequence kept for the real-Redis replay.
struct Sampled {
    actions: Vec<Action>,
    lines: Vec<String>,
}

struct Explorer {
    checked: usize,
    sampled: Vec<Sampled>,
    full_length: usize,
    saw_the_hole_refused: bool,
}

impl Explorer {
    fn explore(&mut self, store: &Store, model: &Model, path: &mut Vec<(Action, String)>) {
        if path.len() <= REDIS_ALL_UP_TO
            || (path.len() == DEPTH && self.full_length.is_multiple_of(REDIS_ONE_IN))
        {
            self.sampled.push(Sampled {
                actions: path.iter().map(|(a, _)| *a).collect(),
                lines: path.iter().map(|(_, l)| l.clone()).collect(),
            });
        }
        if path.len() == DEPTH {
            self.full_length += 1;
            return;
        }
        for action in ACTIONS.into_iter().filter(|a| model.enabled(*a)) {
            let (mut store, mut model) = (store.clone(), model.clone());
            let (line, reply) = perform(&mut store, &model, action);
            let seen = seen_in_reply(action, &reply);
            let before = model.clone();
            if let Err(why) = model.step(action, seen) {
                let trail: Vec<Action> = path.iter().map(|(a, _)| *a).collect();
                panic!("after {trail:?} then {action:?}: {why} (reply {reply:?})");
            }
            self.checked += 1;
            // W1 claimed, the reaper moved the job back, nobody re-claimed: W1's att still
            // equals attempts, and its complete must still be refused.
            if action == Action::Complete(Worker::W1)
                && before.held[0].is_some()
                && before.live.is_none()
                && !before.completed
                && seen == Seen::Refused
            {
                self.saw_the_hole_refused = true;
            }
            path.push((action, line));
            self.explore(&store, &model, path);
            path.pop();
        }
    }
}

fn start() -> (Store, Vec<String>) {
    let mut store = Store::new();
    let (enqueued, _) = attempts::enqueue(&mut store);
    (store, enqueued.split(" · ").map(str::to_string).collect())
}

#[test]
fn no_interleaving_of_two_workers_lets_a_lapsed_worker_through() {
    let (store, _) = start();
    let mut explorer = Explorer {
        checked: 0,
        sampled: Vec::new(),
        full_length: 0,
        saw_the_hole_refused: false,
    };
    explorer.explore(&store, &Model::default(), &mut Vec::new());
    assert!(
        explorer.full_length > 5_000,
        "{} sequences",
        explorer.full_length
    );
    assert!(
        explorer.saw_the_hole_refused,
        "the reaped-but-not-re-claimed complete was explored and refused"
    );
}

/// Script placeholders (`<emq_claim.lua>`) become `EVALSHA <sha>` of the loaded script.
fn as_redis_line(line: &str, shas: &[(&str, String)]) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    match words.as_slice() {
        ["EVAL", script, rest @ ..] => {
            let name = script.trim_start_matches('<').trim_end_matches('>');
            let sha = shas
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, sha)| sha.as_str())
                .unwrap_or(name);
            format!("EVALSHA {sha} {}", rest.join(" "))
        }
        _ => line.to_string(),
    }
}

#[test]
fn real_redis_agrees_on_a_sample_and_passes_the_same_check() {
    let mut explorer = Explorer {
        checked: 0,
        sampled: Vec::new(),
        full_length: 0,
        saw_the_hole_refused: false,
    };
    let (store, enqueue_lines) = start();
    explorer.explore(&store, &Model::default(), &mut Vec::new());
    let Some(redis) = redis_oracle::required(redis_oracle::RedisServer::start()) else {
        return;
    };
    let mut shas = Vec::new();
    let mut lines = Vec::new();
    for (name, script) in attempts::SCRIPTS {
        // The quoted word carries the file's text byte for byte, so the SHA is the file's.
        let sha = match Store::new().script_load(script) {
            Reply::Bulk(sha) => String::from_utf8_lossy(&sha).into_owned(),
            other => panic!("SCRIPT LOAD {name}: {other:?}"),
        };
        lines.push(format!(
            "SCRIPT LOAD {}",
            lockdive::scenarios::console::quote_word(script)
        ));
        shas.push((name, sha));
    }
    // Which output belongs to which transition: (sample, index) per line sent.
    let mut owners: Vec<Option<(usize, usize)>> = vec![None; lines.len()];
    for (s, sample) in explorer.sampled.iter().enumerate() {
        lines.push("FLUSHALL".to_string());
        owners.push(None);
        for line in &enqueue_lines {
            lines.push(line.clone());
            owners.push(None);
        }
        for (i, line) in sample.lines.iter().enumerate() {
            lines.push(as_redis_line(line, &shas));
            owners.push(Some((s, i)));
        }
    }
    let from_redis = redis.replay(&lines);
    let mut mini = Store::new();
    let texts: Vec<String> = lines
        .iter()
        .map(|line| {
            let words = ministore::cli::split_line(line).expect("a well-formed line");
            mini.exec(&words).to_cli_text()
        })
        .collect();
    assert_eq!(
        texts.concat(),
        from_redis,
        "ministore and real Redis printed the same"
    );

    // Real Redis's own text, cut into replies by line count, runs through the same check.
    let mut redis_lines = from_redis.lines();
    let mut models: Vec<Model> = vec![Model::default(); explorer.sampled.len()];
    let mut refused_by_redis = 0;
    for (text, owner) in texts.iter().zip(&owners) {
        let reply: Vec<&str> = redis_lines.by_ref().take(text.lines().count()).collect();
        let Some((s, i)) = owner else { continue };
        let action = explorer.sampled[*s].actions[*i];
        let printed = reply.join("\n");
        let seen = seen_in_text(action, &printed);
        refused_by_redis += usize::from(seen == Seen::Refused);
        if let Err(why) = models[*s].step(action, seen) {
            panic!(
                "real Redis, after {:?}: {why} (printed {printed:?})",
                &explorer.sampled[*s].actions[..=*i]
            );
        }
    }
    assert!(
        explorer.sampled.len() > 500,
        "{} sampled",
        explorer.sampled.len()
    );
    assert!(refused_by_redis > 0);
}
