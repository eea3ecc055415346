//! The lost-lock scenario, the one model behind figure 1, its scenario player and its console:
//! A takes `resource:lock` and stalls; B, waiting for the key, tries it inside the stall once the
//! store has expired A's lock (or as A resumes, if the lease outlasts it), late enough that B's own
//! lease still runs when A resumes; A resumes and releases — blindly (`DEL`) or token-checked (the
//! §2 script) — and the next client tries the key. [`LostLockOutcome::run_with`]
//! runs it for any lease and stall and keeps, per step of §1, what the store replied and held;
//! `words` renders every sentence the page says about it from that record.

mod words;

use ministore::{Reply, Store, ValueSnapshot};

use super::{command_line, integer_in, string_under, RELEASE_SCRIPT};
pub use words::{
    describe_expired, describe_holding, describe_key, idle_readout, EXCLUSION_BROKE,
    EXCLUSION_BROKEN_MEANS,
};

/// The key both clients lock.
pub const LOCK_KEY: &str = "resource:lock";
/// The lease each `SET … NX PX` asks for in figure 1 (and the player's default), in milliseconds.
pub const LEASE_MS: u64 = 10_000;
/// How long A stalls after acquiring in figure 1 (and the player's default): past its lease.
pub const STALL_MS: u64 = 12_500;
/// The token A acquires with.
pub const A_TOKEN: &str = "abc";
/// The token B acquires with.
pub const B_TOKEN: &str = "xyz";
/// The token of the client that tries the key after A's release, to see whether it is free.
pub const NEXT_TOKEN: &str = "next";

/// A client of the store in this scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Client {
    /// The holder that stalls.
    A,
    /// The client that waits for the key and takes it inside A's stall once it is free.
    B,
    /// Whoever tries the key after A's release; it shows whether the key is up for grabs.
    Next,
}

impl Client {
    /// How the page names the client.
    pub fn name(self) -> &'static str {
        match self {
            Client::A => "A",
            Client::B => "B",
            Client::Next => "the next client",
        }
    }

    /// The token the client acquires with.
    pub fn token(self) -> &'static str {
        match self {
            Client::A => A_TOKEN,
            Client::B => B_TOKEN,
            Client::Next => NEXT_TOKEN,
        }
    }

    /// The client whose token `value` is, if any.
    pub(crate) fn holding(value: &str) -> Option<Client> {
        [Client::A, Client::B, Client::Next]
            .into_iter()
            .find(|client| client.token() == value)
    }
}

/// How A releases the lock once it resumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReleaseChoice {
    /// `DEL resource:lock`: deletes whatever lock is under the key.
    BlindDel,
    /// `EVAL` of [`RELEASE_SCRIPT`]: deletes only if the stored token is still A's.
    TokenChecked,
}

impl ReleaseChoice {
    /// Both choices, in the order the figure offers them.
    pub const ALL: [ReleaseChoice; 2] = [ReleaseChoice::BlindDel, ReleaseChoice::TokenChecked];

    /// The value of the figure's `data-release` hook.
    pub fn hook(self) -> &'static str {
        match self {
            ReleaseChoice::BlindDel => "blind-del",
            ReleaseChoice::TokenChecked => "token-checked",
        }
    }

    /// The choice's name in the brief.
    pub fn label(self) -> &'static str {
        match self {
            ReleaseChoice::BlindDel => "blind DEL",
            ReleaseChoice::TokenChecked => "token-checked release",
        }
    }

    /// Runs A's release against the store; returns the command line as shown and the reply.
    pub(crate) fn release(self, store: &mut Store) -> (String, Reply) {
        match self {
            ReleaseChoice::BlindDel => {
                let words = ["DEL", LOCK_KEY];
                (command_line(&words), store.exec(&words))
            }
            ReleaseChoice::TokenChecked => (
                command_line(&["EVAL", "<release.lua>", "1", LOCK_KEY, A_TOKEN]),
                store.eval(RELEASE_SCRIPT, &[LOCK_KEY], &[A_TOKEN]),
            ),
        }
    }
}

/// The scenario's knobs: the lease every `SET … PX` asks for and how long A stalls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LockSetup {
    /// The lease A and B ask for, in ms.
    pub lease_ms: u64,
    /// How long A stalls after acquiring, in ms.
    pub stall_ms: u64,
}

impl Default for LockSetup {
    /// Figure 1's setup: a 10 s lease and a 12.5 s stall.
    fn default() -> Self {
        LockSetup {
            lease_ms: LEASE_MS,
            stall_ms: STALL_MS,
        }
    }
}

/// What one of §1's five steps does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A client runs `SET resource:lock <token> NX PX <lease>` (steps 1 and 3).
    Acquire,
    /// A is paused while the clock runs on its lease (step 2).
    Stall,
    /// A releases the lock with the chosen [`ReleaseChoice`] (step 4).
    Release,
    /// What the release left: the next client tries the key (step 5).
    Aftermath,
}

/// What `resource:lock` holds at some moment, read from the store's snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyHolding {
    /// The token stored under the key.
    pub value: String,
    /// Milliseconds of lease left, `None` for a key without expiry.
    pub ttl_ms: Option<u64>,
    /// Whose token it is.
    pub owner: Option<Client>,
}

impl KeyHolding {
    /// What the key holds in `store` now, if it is live.
    pub(crate) fn read(store: &Store) -> Option<KeyHolding> {
        string_under(store, LOCK_KEY).map(|(value, ttl_ms)| KeyHolding {
            owner: Client::holding(&value),
            value,
            ttl_ms,
        })
    }
}

/// One live key as the store's snapshot shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyRow {
    /// The key's name.
    pub key: String,
    /// Its value.
    pub value: ValueSnapshot,
    /// Milliseconds left, `None` for a key without expiry.
    pub ttl_ms: Option<u64>,
}

/// The moment, inside A's stall, at which the store expired the lock.
#[derive(Clone, Debug, PartialEq)]
pub struct Expiry {
    /// The first virtual millisecond at which the store no longer had the key.
    pub at_ms: u64,
    /// The lock that expired.
    pub lock: KeyHolding,
}

/// One of §1's five steps, as the store saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct LockStep {
    /// 1 to 5, §1's numbering.
    pub number: u8,
    /// Who acts; `None` when only the clock moves.
    pub actor: Option<Client>,
    /// What the step does.
    pub kind: StepKind,
    /// The command line sent, if the step sends one.
    pub command: Option<String>,
    /// The store's reply to it.
    pub reply: Option<Reply>,
    /// The virtual clock when the step began, in milliseconds.
    pub started_ms: u64,
    /// The virtual clock when it was recorded: what the store held then is what the step shows.
    pub clock_ms: u64,
    /// When the actor is done: the end of A's stall, which runs on past the moment B tries the
    /// key inside it; `clock_ms` for every other step.
    pub until_ms: u64,
    /// What `resource:lock` held before the step.
    pub key_before: Option<KeyHolding>,
    /// What `resource:lock` holds after it.
    pub key_after: Option<KeyHolding>,
    /// `PTTL resource:lock` after the step (`-2` when the key is gone).
    pub lock_pttl: i64,
    /// Every live key after the step, from the store's snapshot.
    pub keys: Vec<KeyRow>,
    /// For the stall: the moment inside it at which the store expired the lock, if it did.
    pub expired: Option<Expiry>,
}

/// How a run stands with mutual exclusion: what figure 1's ✓, ⚠ and ✗ mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exclusion {
    /// No two clients ever believed they held the lock at once.
    Held,
    /// Two did, before A's release, which then did its part: it deleted no other client's lock.
    BrokenBeforeRelease,
    /// A's release broke it: it deleted another client's lock, or left two clients proceeding.
    BrokenByRelease,
}

/// Everything one run of the lost-lock scenario produced.
#[derive(Clone)]
pub struct LostLockOutcome {
    /// The knobs it ran with.
    pub setup: LockSetup,
    /// How A released.
    pub choice: ReleaseChoice,
    /// §1's five steps, in order.
    pub steps: Vec<LockStep>,
    store: Store,
}

impl std::fmt::Debug for LostLockOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LostLockOutcome")
            .field("setup", &self.setup)
            .field("choice", &self.choice)
            .field("steps", &self.steps)
            .finish_non_exhaustive()
    }
}

impl PartialEq for LostLockOutcome {
    fn eq(&self, other: &Self) -> bool {
        (self.setup, self.choice, &self.steps) == (other.setup, other.choice, &other.steps)
    }
}

/// A run in progress: the store and the steps recorded so far.
struct Recorder {
    store: Store,
    steps: Vec<LockStep>,
    lease_ms: u64,
}

impl Recorder {
    fn pttl(&self) -> i64 {
        integer_in(&self.store.clone().exec(&["PTTL", LOCK_KEY])).unwrap_or(-2)
    }

    fn record(
        &mut self,
        (actor, kind): (Option<Client>, StepKind),
        sent: Option<(String, Reply)>,
        (started_ms, key_before): (u64, Option<KeyHolding>),
        expired: Option<Expiry>,
    ) {
        let (command, reply) = sent.map_or((None, None), |(c, r)| (Some(c), Some(r)));
        let keys = self
            .store
            .snapshot()
            .into_iter()
            .map(|entry| KeyRow {
                key: String::from_utf8_lossy(&entry.key).into_owned(),
                value: entry.value,
                ttl_ms: entry.ttl_ms,
            })
            .collect();
        let step = LockStep {
            number: u8::try_from(self.steps.len() + 1).unwrap_or(u8::MAX),
            actor,
            kind,
            command,
            reply,
            started_ms,
            clock_ms: self.store.now_ms(),
            until_ms: self.store.now_ms(),
            key_before,
            key_after: KeyHolding::read(&self.store),
            lock_pttl: self.pttl(),
            keys,
            expired,
        };
        self.steps.push(step);
    }

    /// `client` runs `SET resource:lock <token> NX PX <lease>`.
    fn acquire(&mut self, client: Client, kind: StepKind) {
        let before = (self.store.now_ms(), KeyHolding::read(&self.store));
        let lease = self.lease_ms.to_string();
        let words = ["SET", LOCK_KEY, client.token(), "NX", "PX", lease.as_str()];
        let reply = self.store.exec(&words);
        self.record(
            (Some(client), kind),
            Some((command_line(&words), reply)),
            before,
            None,
        );
    }

    /// A is paused for `stall_ms`, and the store may expire its lock on the way. The record is
    /// the store at the moment B tries the key: the first millisecond it is free, or, in a stall
    /// longer than two leases, the first from which B's own lease outlasts the stall (so the lock
    /// A's release finds is B's, as §1 tells it); the stall's end if the lease outlasts it.
    /// Returns when A resumes.
    fn stall(&mut self, stall_ms: u64) -> u64 {
        let before = (self.store.now_ms(), KeyHolding::read(&self.store));
        let resumes_ms = before.0 + stall_ms;
        let expired = self.expiry_within(stall_ms);
        let lease_runs_from = (resumes_ms + 1).saturating_sub(self.lease_ms);
        let b_tries_ms = expired
            .as_ref()
            .map_or(resumes_ms, |e| e.at_ms.max(lease_runs_from));
        self.store.advance(b_tries_ms - before.0);
        self.record((Some(Client::A), StepKind::Stall), None, before, expired);
        if let Some(stall) = self.steps.last_mut() {
            stall.until_ms = resumes_ms;
        }
        resumes_ms
    }

    /// The clock runs on to `at_ms`, when A resumes (nothing is recorded: A is still stalled).
    fn resume_at(&mut self, at_ms: u64) {
        self.store
            .advance(at_ms.saturating_sub(self.store.now_ms()));
    }

    /// The first millisecond within the next `span_ms` at which the store no longer has the
    /// lock, found by asking copies of the store (nothing else touches the key meanwhile).
    fn expiry_within(&self, span_ms: u64) -> Option<Expiry> {
        let lock = KeyHolding::read(&self.store)?;
        let gone_after = |ms: u64| {
            let mut probe = self.store.clone();
            probe.advance(ms);
            KeyHolding::read(&probe).is_none()
        };
        if !gone_after(span_ms) {
            return None;
        }
        let (mut live, mut gone) = (0, span_ms);
        while gone - live > 1 {
            let mid = live + (gone - live) / 2;
            if gone_after(mid) {
                gone = mid;
            } else {
                live = mid;
            }
        }
        Some(Expiry {
            at_ms: self.store.now_ms() + gone,
            lock,
        })
    }

    fn release(&mut self, choice: ReleaseChoice) {
        let before = (self.store.now_ms(), KeyHolding::read(&self.store));
        let sent = choice.release(&mut self.store);
        self.record(
            (Some(Client::A), StepKind::Release),
            Some(sent),
            before,
            None,
        );
    }
}

impl LostLockOutcome {
    /// Figure 1's run: the default setup, A releasing by `choice`.
    pub fn run(choice: ReleaseChoice) -> LostLockOutcome {
        LostLockOutcome::run_with(LockSetup::default(), choice)
    }

    /// Runs the scenario in a fresh store: A acquires at t = 0 and stalls for `stall_ms`; B tries
    /// the key inside the stall once it is free, late enough that its lease outlasts the stall (or
    /// as A resumes, if A's lease outlasts it); A resumes and releases, then the next client
    /// tries the key.
    pub fn run_with(setup: LockSetup, choice: ReleaseChoice) -> LostLockOutcome {
        let mut run = Recorder {
            store: Store::new(),
            steps: Vec::with_capacity(5),
            lease_ms: setup.lease_ms,
        };
        run.acquire(Client::A, StepKind::Acquire);
        let resumes_ms = run.stall(setup.stall_ms);
        run.acquire(Client::B, StepKind::Acquire);
        run.resume_at(resumes_ms);
        run.release(choice);
        run.acquire(Client::Next, StepKind::Aftermath);
        LostLockOutcome {
            setup,
            choice,
            steps: run.steps,
            store: run.store,
        }
    }

    /// The store as the run left it (the console under the figure starts from a copy).
    pub fn store_after(&self) -> Store {
        self.store.clone()
    }

    /// The step of `kind` (the first one: B's acquire for [`StepKind::Acquire`] is `step(3)`).
    pub fn step_of(&self, kind: StepKind) -> Option<&LockStep> {
        self.steps.iter().find(|s| s.kind == kind)
    }

    /// Step `number` (1 to 5).
    pub fn step(&self, number: u8) -> Option<&LockStep> {
        self.steps.iter().find(|s| s.number == number)
    }

    /// The step A releases in.
    pub fn release_step(&self) -> Option<&LockStep> {
        self.step_of(StepKind::Release)
    }

    /// The next client's try after the release (step 5).
    pub fn probe_step(&self) -> Option<&LockStep> {
        self.step_of(StepKind::Aftermath)
    }

    /// The moment inside A's stall at which the store expired A's lock, if it did.
    pub fn expiry(&self) -> Option<&Expiry> {
        self.step_of(StepKind::Stall)
            .and_then(|s| s.expired.as_ref())
    }

    /// The integer A's release returned (`DEL` counts deleted keys; the script returns 1 or 0).
    pub fn release_returned(&self) -> Option<i64> {
        self.release_step()
            .and_then(|s| s.reply.as_ref())
            .and_then(integer_in)
    }

    /// When `client`'s `SET … NX` was answered `OK`, if it was.
    pub fn acquired_at(&self, client: Client) -> Option<u64> {
        self.steps
            .iter()
            .find(|s| {
                s.actor == Some(client)
                    && matches!(s.kind, StepKind::Acquire | StepKind::Aftermath)
                    && s.reply == Some(Reply::ok())
            })
            .map(|s| s.clock_ms)
    }

    /// True when `client`'s `SET … NX` was answered `OK`.
    pub fn acquired(&self, client: Client) -> bool {
        self.acquired_at(client).is_some()
    }

    /// What `resource:lock` held just before A's release (what the token check reads).
    pub fn found_before_release(&self) -> Option<&KeyHolding> {
        self.release_step().and_then(|s| s.key_before.as_ref())
    }

    /// What `resource:lock` held right after A's release.
    pub fn key_after_release(&self) -> Option<&KeyHolding> {
        self.release_step().and_then(|s| s.key_after.as_ref())
    }

    /// What `resource:lock` holds at the end of the run.
    pub fn key_at_end(&self) -> Option<&KeyHolding> {
        self.steps.last().and_then(|s| s.key_after.as_ref())
    }

    /// Whose lock A's release deleted: the key held a lock before and none after.
    pub fn deleted_lock_of(&self) -> Option<Client> {
        match (self.found_before_release(), self.key_after_release()) {
            (Some(before), None) => before.owner,
            _ => None,
        }
    }

    /// Who holds the lock right after A's release, going by the token under the key.
    pub fn holder_after(&self) -> Option<Client> {
        self.key_after_release().and_then(|k| k.owner)
    }

    /// The clients that believe they hold the lock at the end: each whose `SET … NX` was
    /// answered `OK` and that has not released since (only A releases in this scenario).
    pub fn proceeding(&self) -> Vec<Client> {
        [Client::B, Client::Next]
            .into_iter()
            .filter(|c| self.acquired(*c))
            .collect()
    }

    /// The first moment two clients believed they held the lock at once, and who: a client
    /// believes from its `SET … NX` answered `OK` until it releases.
    pub fn two_believed(&self) -> Option<(u64, Client, Client)> {
        let mut believing: Vec<Client> = Vec::new();
        for step in &self.steps {
            match (step.kind, step.actor) {
                (StepKind::Release, Some(client)) => believing.retain(|c| *c != client),
                (_, Some(client)) if step.reply == Some(Reply::ok()) => {
                    if let Some(first) = believing.first() {
                        return Some((step.clock_ms, *first, client));
                    }
                    believing.push(client);
                }
                _ => {}
            }
        }
        None
    }

    /// Mutual exclusion broke: at some moment two clients believed they held the lock at once.
    pub fn exclusion_broken(&self) -> bool {
        self.two_believed().is_some()
    }

    /// A's release deleted another client's lock.
    pub fn released_other(&self) -> bool {
        self.deleted_lock_of().is_some_and(|c| c != Client::A)
    }

    /// How the run stands with mutual exclusion, and whether A's release is to blame.
    pub fn exclusion(&self) -> Exclusion {
        if self.released_other() || self.proceeding().len() > 1 {
            Exclusion::BrokenByRelease
        } else if self.exclusion_broken() {
            Exclusion::BrokenBeforeRelease
        } else {
            Exclusion::Held
        }
    }
}
