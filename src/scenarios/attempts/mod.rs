//! The attempts fence of §4, run in ministore with EchoMQ-like claim / complete / retry / reap
//! scripts: W1 claims job 42 and stalls past its lease, the reaper moves the job back, W2 claims
//! it, then W1's stale `att` meets the fence. This file owns the run: the scripts, the keys, the
//! frames and the what-ifs, each read back from the store's replies and hashes; `words` turns
//! them into the figure's sentences.

mod words;

use ministore::{Reply, Store, ValueSnapshot};

use super::{command_line, integer_in};

/// `@claim`: pop the oldest waiting job, `HINCRBY attempts 1`, lease it; returns `{id, payload, att}`.
pub const CLAIM_SCRIPT: &str = include_str!("../lua/emq_claim.lua");
/// `@complete`: refuses a stale `att` with `EMQSTALE complete token mismatch`.
pub const COMPLETE_SCRIPT: &str = include_str!("../lua/emq_complete.lua");
/// `@retry`: the same fence, `EMQSTALE retry token mismatch`.
pub const RETRY_SCRIPT: &str = include_str!("../lua/emq_retry.lua");
/// The reaper: every job whose lease deadline has passed goes back to the wait queue.
pub const REAP_SCRIPT: &str = include_str!("../lua/emq_reap.lua");

/// The four scripts by file name, as the figure's disclosure lists them.
pub const SCRIPTS: [(&str, &str); 4] = [
    ("emq_claim.lua", CLAIM_SCRIPT),
    ("emq_complete.lua", COMPLETE_SCRIPT),
    ("emq_retry.lua", RETRY_SCRIPT),
    ("emq_reap.lua", REAP_SCRIPT),
];

/// The queue's name, inside Redis hash-tag braces so all its keys share a slot.
pub const QUEUE: &str = "mail";
/// The one job the scenario moves.
pub const JOB_ID: &str = "42";
/// What the job carries.
pub const PAYLOAD: &str = "send-welcome-email";
/// The lease every claim takes, in milliseconds.
pub const LEASE_MS: u64 = 10_000;
/// How long W1 stalls after claiming: longer than its lease, and long enough for the reaper's
/// pass and W2's re-claim to happen while it is stalled.
pub const W1_STALL_MS: u64 = 13_000;
/// When the reaper's pass runs: past W1's lease, inside W1's stall.
pub const REAP_AT_MS: u64 = 12_000;
/// The gap between the reaper's pass and W2's claim, and between that and W1 resuming.
const BEAT_MS: u64 = 500;
const _: () = assert!(LEASE_MS < REAP_AT_MS && REAP_AT_MS + 2 * BEAT_MS == W1_STALL_MS);

/// `emq:{mail}:wait`, a sorted set of job ids scored by when they became ready.
pub fn wait_key() -> String {
    format!("emq:{{{QUEUE}}}:wait")
}

/// `emq:{mail}:active`, a sorted set of job ids scored by lease deadline.
pub fn active_key() -> String {
    format!("emq:{{{QUEUE}}}:active")
}

/// `emq:{mail}:job:`, the prefix the scripts append a job id to.
pub fn job_prefix() -> String {
    format!("emq:{{{QUEUE}}}:job:")
}

/// `emq:{mail}:job:42`, the job's hash (payload, state, attempts).
pub fn job_key() -> String {
    format!("{}{JOB_ID}", job_prefix())
}

/// The figure's lanes: two workers and the reaper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    /// The worker that claims first and stalls.
    W1,
    /// The worker that re-claims the reaped job.
    W2,
    /// The process that returns expired leases to the wait queue.
    Reaper,
}

impl Lane {
    /// `W1`, `W2`, `reaper`.
    pub fn name(self) -> &'static str {
        match self {
            Lane::W1 => "W1",
            Lane::W2 => "W2",
            Lane::Reaper => "reaper",
        }
    }

    /// `w1`, `w2`: the value of the figure's data hooks.
    pub fn hook(self) -> &'static str {
        match self {
            Lane::W1 => "w1",
            Lane::W2 => "w2",
            Lane::Reaper => "reaper",
        }
    }
}

/// What one frame of the run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// The job is written and put on the wait queue.
    Enqueue,
    /// A worker runs `@claim`.
    Claim,
    /// W1 keeps working while the clock passes its lease deadline.
    Stall,
    /// The reaper runs over the active set.
    Reap,
}

/// Job 42 as the store holds it at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobHash {
    /// `HGET … state`.
    pub state: Option<String>,
    /// `HGET … attempts`, the fence.
    pub attempts: Option<i64>,
    /// `HGET … payload`.
    pub payload: Option<String>,
    /// The job's score in the active set (its lease deadline, ms), if it is there.
    pub lease_deadline_ms: Option<f64>,
    /// Whether the job id is in the wait set.
    pub waiting: bool,
}

impl JobHash {
    /// Reads job 42 and its place in the two sets from the store's snapshot.
    pub fn read(store: &Store) -> JobHash {
        let (job, wait, active) = (job_key(), wait_key(), active_key());
        let mut hash = JobHash::default();
        for entry in store.snapshot() {
            match entry.value {
                ValueSnapshot::Hash(fields) if entry.key == job.as_bytes() => {
                    for (field, value) in fields {
                        let value = String::from_utf8_lossy(&value).into_owned();
                        match field.as_slice() {
                            b"state" => hash.state = Some(value),
                            b"attempts" => hash.attempts = value.parse().ok(),
                            b"payload" => hash.payload = Some(value),
                            _ => {}
                        }
                    }
                }
                ValueSnapshot::ZSet(members) if entry.key == active.as_bytes() => {
                    hash.lease_deadline_ms = members
                        .iter()
                        .find(|(m, _)| m == JOB_ID.as_bytes())
                        .map(|(_, score)| *score);
                }
                ValueSnapshot::ZSet(members) if entry.key == wait.as_bytes() => {
                    hash.waiting = members.iter().any(|(m, _)| m == JOB_ID.as_bytes());
                }
                _ => {}
            }
        }
        hash
    }
}

/// One frame of the run before the fence is tested, as the store saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptsFrame {
    /// 1, 2, …: the order in the drawing.
    pub number: u8,
    /// Who acts; `None` for the enqueue.
    pub actor: Option<Lane>,
    /// What the frame does.
    pub kind: FrameKind,
    /// The command line sent, if the frame sends one (scripts shown by file name).
    pub command: Option<String>,
    /// The store's reply to the frame's command, or to the last of its commands.
    pub reply: Option<Reply>,
    /// The replies to the commands before the last, in order (the enqueue's `HSET`).
    pub earlier_replies: Vec<Reply>,
    /// The virtual clock when the frame began, in milliseconds: before the stall, for W1's stall;
    /// `clock_ms` for a frame that takes no time.
    pub started_ms: u64,
    /// The virtual clock when the frame was recorded: what the store held then is what the
    /// frame shows.
    pub clock_ms: u64,
    /// When the actor is done: the end of W1's stall, which runs on past the reaper's pass and
    /// W2's re-claim; `clock_ms` for every other frame.
    pub until_ms: u64,
    /// Job 42 after the frame.
    pub job_after: JobHash,
}

/// A state transition a worker attempts after W2's re-claim; each is the figure's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transition {
    /// W1, resumed, calls `@complete` with the `att` of its own (reaped) claim.
    W1Complete,
    /// W1, resumed, calls `@retry` with that same `att`.
    W1Retry,
    /// W2 calls `@complete` with the `att` of its claim.
    W2Complete,
}

impl Transition {
    /// The figure's choices, in the order they are offered.
    pub const ALL: [Transition; 3] = [
        Transition::W1Complete,
        Transition::W1Retry,
        Transition::W2Complete,
    ];

    /// Who calls it.
    pub fn worker(self) -> Lane {
        match self {
            Transition::W1Complete | Transition::W1Retry => Lane::W1,
            Transition::W2Complete => Lane::W2,
        }
    }

    /// `complete` or `retry`.
    pub fn verb(self) -> &'static str {
        match self {
            Transition::W1Complete | Transition::W2Complete => "complete",
            Transition::W1Retry => "retry",
        }
    }

    /// `W1 complete`.
    pub fn label(self) -> String {
        format!("{} {}", self.worker().name(), self.verb())
    }

    /// The transition's hook in the page (its row's `data-path`): `w1-complete`.
    pub fn hook(self) -> String {
        format!("{}-{}", self.worker().hook(), self.verb())
    }

    fn run(self, store: &mut Store, att: &str) -> (String, Reply) {
        match self {
            Transition::W1Complete | Transition::W2Complete => complete(store, att),
            Transition::W1Retry => retry(store, att),
        }
    }
}

/// `@claim` at the store's clock: `EVAL <emq_claim.lua> 2 <wait> <active> <prefix> <now> <lease>`.
/// Returns the command line as the figure shows it and the reply (`{id, payload, att}` or nil).
pub fn claim(store: &mut Store) -> (String, Reply) {
    let (wait, active, prefix) = (wait_key(), active_key(), job_prefix());
    let now = store.now_ms().to_string();
    let lease = LEASE_MS.to_string();
    (
        command_line(&[
            "EVAL",
            "<emq_claim.lua>",
            "2",
            &wait,
            &active,
            &prefix,
            &now,
            &lease,
        ]),
        store.eval(CLAIM_SCRIPT, &[&wait, &active], &[&prefix, &now, &lease]),
    )
}

/// The reaper at the store's clock: every job whose lease deadline is not after now goes back.
pub fn reap(store: &mut Store) -> (String, Reply) {
    let (wait, active, prefix) = (wait_key(), active_key(), job_prefix());
    let now = store.now_ms().to_string();
    (
        command_line(&["EVAL", "<emq_reap.lua>", "2", &active, &wait, &prefix, &now]),
        store.eval(REAP_SCRIPT, &[&active, &wait], &[&prefix, &now]),
    )
}

/// `@complete` of job 42 presenting `att`.
pub fn complete(store: &mut Store, att: &str) -> (String, Reply) {
    let (active, job) = (active_key(), job_key());
    (
        command_line(&[
            "EVAL",
            "<emq_complete.lua>",
            "2",
            &active,
            &job,
            JOB_ID,
            att,
        ]),
        store.eval(COMPLETE_SCRIPT, &[&active, &job], &[JOB_ID, att]),
    )
}

/// `@retry` of job 42 presenting `att`, back to wait at the store's clock.
pub fn retry(store: &mut Store, att: &str) -> (String, Reply) {
    let (active, job, wait) = (active_key(), job_key(), wait_key());
    let now = store.now_ms().to_string();
    (
        command_line(&[
            "EVAL",
            "<emq_retry.lua>",
            "3",
            &active,
            &job,
            &wait,
            JOB_ID,
            att,
            &now,
        ]),
        store.eval(RETRY_SCRIPT, &[&active, &job, &wait], &[JOB_ID, att, &now]),
    )
}

/// Job 42 written and put on the wait queue: `HSET … attempts 0` and `ZADD <wait> 0 42`.
pub fn enqueue(store: &mut Store) -> (String, Vec<Reply>) {
    let (job, wait) = (job_key(), wait_key());
    let hset = [
        "HSET", &job, "payload", PAYLOAD, "state", "waiting", "attempts", "0",
    ];
    let zadd = ["ZADD", &wait, "0", JOB_ID];
    let replies = vec![store.exec(&hset), store.exec(&zadd)];
    (
        format!("{} · {}", command_line(&hset), command_line(&zadd)),
        replies,
    )
}

/// What `@claim` handed a worker: the attempts count (`att`) it must present back.
pub fn claimed_attempts(reply: &Reply) -> Option<i64> {
    match reply {
        Reply::Array(items) => items.get(2).and_then(integer_in),
        _ => None,
    }
}

/// One transition's what-if against the re-claimed state.
#[derive(Clone, Debug, PartialEq)]
pub struct TransitionOutcome {
    /// What was attempted.
    pub transition: Transition,
    /// The `att` the worker presented (from its own claim's reply).
    pub presented: Option<i64>,
    /// The job's `attempts` when the script ran.
    pub stored: Option<i64>,
    /// The `EVAL` as sent.
    pub command: String,
    /// The script's reply: `1`, or the `EMQSTALE` error.
    pub reply: Reply,
    /// Job 42 before the transition.
    pub job_before: JobHash,
    /// Job 42 afterwards.
    pub job_after: JobHash,
}

impl TransitionOutcome {
    /// The fence let the transition through (the script replied no error).
    pub fn accepted(&self) -> bool {
        !self.reply.is_error()
    }

    /// The error text the script replied, if it refused.
    pub fn error_text(&self) -> Option<&str> {
        match &self.reply {
            Reply::Error(text) => Some(text),
            _ => None,
        }
    }
}

/// Everything the attempts scenario produced.
#[derive(Clone)]
pub struct AttemptsRun {
    /// Enqueue, W1's claim, its stall, the reaper's pass, W2's claim.
    pub frames: Vec<AttemptsFrame>,
    /// The `att` W1's claim returned.
    pub w1_att: Option<i64>,
    /// The `att` W2's claim returned.
    pub w2_att: Option<i64>,
    /// Each transition tried against the re-claimed state, in [`Transition::ALL`] order.
    pub outcomes: Vec<TransitionOutcome>,
    /// W1's complete as a what-if right after the reaper's pass, before W2's claim (W1 is still
    /// stalled then in the figure): `attempts` still equals W1's `att`, so only the scripts' check
    /// that the job is still active refuses it.
    pub lapsed_before_reclaim: TransitionOutcome,
    reclaimed: Store,
}

impl AttemptsRun {
    /// Runs the scenario from an empty store.
    pub fn run() -> AttemptsRun {
        let mut store = Store::new();
        let mut frames: Vec<AttemptsFrame> = Vec::with_capacity(5);
        // A frame takes no time unless it is given its span (W1's stall: from its claim until it
        // resumes).
        let mut record = |store: &Store,
                          actor,
                          kind,
                          sent: Option<(String, Vec<Reply>)>,
                          span: Option<(u64, u64)>| {
            let (command, mut replies) = sent.map_or((None, Vec::new()), |(c, r)| (Some(c), r));
            let reply = replies.pop();
            let now = store.now_ms();
            let (started_ms, until_ms) = span.unwrap_or((now, now));
            frames.push(AttemptsFrame {
                number: u8::try_from(frames.len() + 1).unwrap_or(u8::MAX),
                actor,
                kind,
                command,
                reply,
                earlier_replies: replies,
                started_ms,
                clock_ms: now,
                until_ms,
                job_after: JobHash::read(store),
            });
        };

        // A frame that sends one command has one reply.
        let one = |(command, reply): (String, Reply)| Some((command, vec![reply]));

        let queued = enqueue(&mut store);
        record(&store, None, FrameKind::Enqueue, Some(queued), None);

        let w1_claim = claim(&mut store);
        let w1_att = claimed_attempts(&w1_claim.1);
        record(
            &store,
            Some(Lane::W1),
            FrameKind::Claim,
            one(w1_claim),
            None,
        );

        // The stall frame shows the store as the reaper finds it; W1 stays stalled until it resumes.
        let w1_stalls_ms = store.now_ms();
        let w1_resumes_ms = w1_stalls_ms + W1_STALL_MS;
        store.advance(REAP_AT_MS);
        let stall = Some((w1_stalls_ms, w1_resumes_ms));
        record(&store, Some(Lane::W1), FrameKind::Stall, None, stall);

        let reaped = reap(&mut store);
        record(
            &store,
            Some(Lane::Reaper),
            FrameKind::Reap,
            one(reaped),
            None,
        );
        // What if W1 completed before anyone re-claimed: attempts still equals W1's att, so only
        // the lease check refuses.
        let lapsed_before_reclaim = try_transition(store.clone(), Transition::W1Complete, w1_att);

        store.advance(BEAT_MS);
        let w2_claim = claim(&mut store);
        let w2_att = claimed_attempts(&w2_claim.1);
        record(
            &store,
            Some(Lane::W2),
            FrameKind::Claim,
            one(w2_claim),
            None,
        );

        store.advance(w1_resumes_ms.saturating_sub(store.now_ms()));
        let reclaimed = store;
        let outcomes = Transition::ALL
            .into_iter()
            .map(|transition| {
                let att = match transition.worker() {
                    Lane::W1 => w1_att,
                    _ => w2_att,
                };
                try_transition(reclaimed.clone(), transition, att)
            })
            .collect();
        AttemptsRun {
            frames,
            w1_att,
            w2_att,
            outcomes,
            lapsed_before_reclaim,
            reclaimed,
        }
    }

    /// The store when W1 resumes, after W2's re-claim: the state every what-if starts from.
    pub fn reclaimed_state(&self) -> Store {
        self.reclaimed.clone()
    }

    /// The brief's ending, in order: W1's stale complete is refused, then W2's succeeds.
    /// Returns the store afterwards (the console under the figure starts from it) and both outcomes.
    pub fn stale_complete_then_fresh(&self) -> (Store, Vec<TransitionOutcome>) {
        let mut store = self.reclaimed_state();
        let mut outcomes = Vec::with_capacity(2);
        for (transition, att) in [
            (Transition::W1Complete, self.w1_att),
            (Transition::W2Complete, self.w2_att),
        ] {
            let outcome = try_transition(store.clone(), transition, att);
            let _reply = transition.run(&mut store, &att_word(att));
            outcomes.push(outcome);
        }
        (store, outcomes)
    }

    /// The outcome of one transition.
    pub fn outcome(&self, transition: Transition) -> Option<&TransitionOutcome> {
        self.outcomes.iter().find(|o| o.transition == transition)
    }

    /// The frame in which `lane` acted with `kind`.
    pub fn frame(&self, lane: Lane, kind: FrameKind) -> Option<&AttemptsFrame> {
        self.frames
            .iter()
            .find(|f| f.actor == Some(lane) && f.kind == kind)
    }

    /// The job ids the reaper's pass moved back to wait.
    pub fn reaped_ids(&self) -> Vec<String> {
        match self
            .frame(Lane::Reaper, FrameKind::Reap)
            .and_then(|f| f.reply.as_ref())
        {
            Some(Reply::Array(items)) => items
                .iter()
                .filter_map(|item| match item {
                    Reply::Bulk(id) => Some(String::from_utf8_lossy(id).into_owned()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// W1's stall outlasted its lease: its lease deadline is before the clock after the stall.
    pub fn w1_stalled_past_lease(&self) -> bool {
        let deadline = self
            .frame(Lane::W1, FrameKind::Claim)
            .and_then(|f| f.job_after.lease_deadline_ms);
        let stalled_to = self.frame(Lane::W1, FrameKind::Stall).map(|f| f.until_ms);
        matches!((deadline, stalled_to), (Some(d), Some(t)) if d < t as f64)
    }
}

fn att_word(att: Option<i64>) -> String {
    att.map(|n| n.to_string()).unwrap_or_default()
}

/// Runs `transition` with `att` against `store` (a copy of the re-claimed state).
fn try_transition(mut store: Store, transition: Transition, att: Option<i64>) -> TransitionOutcome {
    let job_before = JobHash::read(&store);
    let (command, reply) = transition.run(&mut store, &att_word(att));
    TransitionOutcome {
        transition,
        presented: att,
        stored: job_before.attempts,
        command,
        reply,
        job_before,
        job_after: JobHash::read(&store),
    }
}
