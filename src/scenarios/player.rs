//! The scenario player behind figure 1: the lost-lock run replayed for any lease and stall, one
//! [`Frame`] per step holding what the store held at that virtual time (keys, values, `PTTL`).
//! [`TimelineCache`] keeps each (lease, stall, release) run, so scrubbing a slider reruns nothing twice.

use std::collections::HashMap;
use std::sync::Arc;

use ministore::{Reply, Store, ValueSnapshot};

use super::lost_lock::{Client, KeyHolding, ReleaseChoice, A_TOKEN, B_TOKEN, LOCK_KEY};
use super::{cli_text, command_line, integer_in};

/// A slider's range: what the `<input type=range>` offers, and what a shared link is clamped to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliderRange {
    /// The smallest value, in milliseconds.
    pub min: u64,
    /// The largest value, in milliseconds.
    pub max: u64,
    /// The slider's step, in milliseconds.
    pub step: u64,
    /// Where the slider starts: the brief's numbers.
    pub default: u64,
}

impl SliderRange {
    /// `value` clamped into the range and snapped to the nearest step, as the slider would show it.
    pub fn clamp(self, value: u64) -> u64 {
        let inside = value.clamp(self.min, self.max);
        let steps = (inside - self.min + self.step / 2) / self.step;
        self.min
            .saturating_add(steps.saturating_mul(self.step))
            .min(self.max)
    }
}

/// The lease each `SET … NX PX` asks for.
pub const LEASE_RANGE: SliderRange = SliderRange {
    min: 1_000,
    max: 20_000,
    step: 500,
    default: 10_000,
};

/// How long A stays paused after acquiring, before it resumes and releases.
pub const STALL_RANGE: SliderRange = SliderRange {
    min: 500,
    max: 30_000,
    step: 500,
    default: 12_500,
};

/// Every run has the brief's five steps; only their order and outcomes change.
pub const STEP_COUNT: usize = 5;

/// The two knobs a learner turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerSetup {
    /// The lease A and B ask for, in ms.
    pub lease_ms: u64,
    /// How long A stalls after acquiring, in ms.
    pub stall_ms: u64,
}

impl Default for PlayerSetup {
    fn default() -> Self {
        PlayerSetup {
            lease_ms: LEASE_RANGE.default,
            stall_ms: STALL_RANGE.default,
        }
    }
}

impl PlayerSetup {
    /// A setup with both values clamped onto their sliders.
    pub fn new(lease_ms: u64, stall_ms: u64) -> PlayerSetup {
        PlayerSetup {
            lease_ms: LEASE_RANGE.clamp(lease_ms),
            stall_ms: STALL_RANGE.clamp(stall_ms),
        }
    }
}

/// Which of the five steps a frame shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Moment {
    /// `SET resource:lock abc NX PX <lease>` at t = 0.
    AAcquires,
    /// Halfway through the part of A's stall its lease covers.
    AStalls,
    /// One millisecond past the end of A's lease, when the store no longer has the key.
    LeaseEnds,
    /// B's `SET resource:lock xyz NX PX <lease>`, just as A wakes up.
    BTries,
    /// A's release, blind or token-checked, right after B's try.
    AReleases,
}

/// One key as the store's snapshot shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRow {
    /// The key's name.
    pub key: String,
    /// Its value as redis-cli would quote it.
    pub value: String,
    /// Milliseconds left, `None` for a key without expiry.
    pub ttl_ms: Option<u64>,
}

/// The store at one step of the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Which step this is.
    pub moment: Moment,
    /// Who acts; `None` when only the clock moves.
    pub actor: Option<Client>,
    /// The step's title, chosen by what the store replied (`B acquires` / `B tries`).
    pub title: String,
    /// The command line sent, if any.
    pub command: Option<String>,
    /// The reply as redis-cli prints it.
    pub reply: Option<String>,
    /// The virtual clock, in ms.
    pub clock_ms: u64,
    /// `PTTL resource:lock` at this moment (`-2` when the key is gone).
    pub lock_pttl: i64,
    /// Every live key, from the store's snapshot.
    pub keys: Vec<KeyRow>,
    /// What happened, in a sentence rendered from the replies.
    pub note: String,
}

/// Why the run is dangerous: B took the key while A still believed it held it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hazard {
    /// When B's `SET … NX` was answered `OK`.
    pub takeover_ms: u64,
    /// Whose lock A's release deleted, if it deleted another client's.
    pub victim: Option<Client>,
    /// The hazard in words, with what A's release then did.
    pub sentence: String,
}

/// One full run of the player for a setup and a release choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    /// The knobs it ran with.
    pub setup: PlayerSetup,
    /// How A released.
    pub choice: ReleaseChoice,
    /// The five steps, in virtual-time order.
    pub frames: Vec<Frame>,
    /// Present only when B took over during A's stall.
    pub hazard: Option<Hazard>,
}

impl Timeline {
    /// Runs the scenario in a fresh store, ordering the steps by virtual time: the lease ends
    /// before B's try only when A stalls longer than its lease.
    pub fn run(setup: PlayerSetup, choice: ReleaseChoice) -> Timeline {
        let mut run = Run {
            store: Store::new(),
            frames: Vec::with_capacity(STEP_COUNT),
            lease_ms: setup.lease_ms,
        };
        run.acquire(Client::A, A_TOKEN, Moment::AAcquires);
        run.advance_to(setup.stall_ms.min(setup.lease_ms) / 2);
        let pttl = run.pttl();
        run.record(
            Moment::AStalls,
            Some(Client::A),
            "A stalls".to_string(),
            None,
            format!(
                "A is paused mid-work until t = {} ms; its lease has {pttl} ms left.",
                setup.stall_ms
            ),
        );
        let lease_end = setup.lease_ms + 1;
        if lease_end <= setup.stall_ms {
            run.lease_ends(lease_end);
        }
        run.advance_to(setup.stall_ms);
        run.acquire(Client::B, B_TOKEN, Moment::BTries);
        run.release(choice);
        if lease_end > setup.stall_ms {
            run.lease_ends(lease_end);
        }
        let hazard = Hazard::find(&run.frames);
        Timeline {
            setup,
            choice,
            frames: run.frames,
            hazard,
        }
    }

    /// The frame at `index`, clamped to the last one.
    pub fn frame(&self, index: usize) -> Option<&Frame> {
        self.frames.get(index).or_else(|| self.frames.last())
    }

    /// The frame of `moment`.
    pub fn at(&self, moment: Moment) -> Option<&Frame> {
        self.frames.iter().find(|f| f.moment == moment)
    }

    /// Mutual exclusion held: A's release deleted no other client's lock.
    pub fn safe(&self) -> bool {
        self.hazard.as_ref().and_then(|h| h.victim).is_none()
    }

    /// The run's outcome in one line, from the release frame.
    pub fn outcome(&self) -> String {
        self.at(Moment::AReleases)
            .map(|f| f.note.clone())
            .unwrap_or_default()
    }
}

impl Hazard {
    fn find(frames: &[Frame]) -> Option<Hazard> {
        let b = frames.iter().find(|f| f.moment == Moment::BTries)?;
        let release = frames.iter().position(|f| f.moment == Moment::AReleases)?;
        let b_index = frames.iter().position(|f| f.moment == Moment::BTries)?;
        if b.reply.as_deref() != Some("OK") || b_index > release {
            return None;
        }
        let victim = frames[release]
            .deleted_since(frames[..release].last())
            .filter(|c| *c != Client::A);
        let then = match victim {
            Some(c) => format!(" A's release then deleted {}'s lock.", c.name()),
            None => " A's release then left B's lock alone.".to_string(),
        };
        Some(Hazard {
            takeover_ms: b.clock_ms,
            victim,
            sentence: format!(
                "A's lease ran out while A was stalled, and at t = {} ms B acquired {LOCK_KEY} \
                 while A still believed it held it.{then}",
                b.clock_ms
            ),
        })
    }
}

impl Frame {
    /// The token under the lock key in this frame, if any.
    fn lock_value(&self) -> Option<&str> {
        self.keys
            .iter()
            .find(|k| k.key == LOCK_KEY)
            .map(|k| k.value.trim_matches('"'))
    }

    /// Whose lock vanished between `before` and this frame.
    fn deleted_since(&self, before: Option<&Frame>) -> Option<Client> {
        match (before.and_then(Frame::lock_value), self.lock_value()) {
            (Some(token), None) => Client::holding(token),
            _ => None,
        }
    }
}

/// A run in progress: the store and the frames recorded so far.
struct Run {
    store: Store,
    frames: Vec<Frame>,
    lease_ms: u64,
}

impl Run {
    fn advance_to(&mut self, clock_ms: u64) {
        let now = self.store.now_ms();
        self.store.advance(clock_ms.saturating_sub(now));
    }

    /// `PTTL resource:lock`, asked of a copy so reading never changes the run.
    fn pttl(&self) -> i64 {
        integer_in(&self.store.clone().exec(&["PTTL", LOCK_KEY])).unwrap_or(-2)
    }

    fn holding(&self) -> Option<KeyHolding> {
        KeyHolding::read(&self.store)
    }

    fn record(
        &mut self,
        moment: Moment,
        actor: Option<Client>,
        title: String,
        sent: Option<(String, Reply)>,
        note: String,
    ) {
        let (command, reply) = sent.map_or((None, None), |(c, r)| (Some(c), Some(cli_text(&r))));
        let keys = self
            .store
            .snapshot()
            .into_iter()
            .map(|entry| KeyRow {
                key: String::from_utf8_lossy(&entry.key).into_owned(),
                value: match entry.value {
                    ValueSnapshot::String(bytes) => {
                        format!("\"{}\"", String::from_utf8_lossy(&bytes))
                    }
                    ValueSnapshot::Hash(fields) => format!("hash of {}", fields.len()),
                    ValueSnapshot::ZSet(members) => format!("zset of {}", members.len()),
                    ValueSnapshot::List(items) => format!("list of {}", items.len()),
                    ValueSnapshot::Set(members) => format!("set of {}", members.len()),
                },
                ttl_ms: entry.ttl_ms,
            })
            .collect();
        let frame = Frame {
            moment,
            actor,
            title,
            command,
            reply,
            clock_ms: self.store.now_ms(),
            lock_pttl: self.pttl(),
            keys,
            note,
        };
        self.frames.push(frame);
    }

    fn acquire(&mut self, client: Client, token: &str, moment: Moment) {
        let lease = self.lease_ms.to_string();
        let words = ["SET", LOCK_KEY, token, "NX", "PX", lease.as_str()];
        let reply = self.store.exec(&words);
        let who = client.name();
        let (title, note) = if reply == Reply::ok() {
            let others_think = if client == Client::B && !self.released() {
                " — while A, still stalled, believes it holds the lock"
            } else {
                ""
            };
            (
                format!("{who} acquires"),
                format!(
                    "The key was free: {who} holds it with \"{token}\" for {} ms{others_think}.",
                    self.pttl()
                ),
            )
        } else {
            let holder = self.holding().map_or_else(
                || "someone".to_string(),
                |h| h.owner.map_or("someone", Client::name).to_string(),
            );
            (
                format!("{who} tries"),
                format!(
                    "SET NX refused: {holder}'s lock still stands with {} ms left.",
                    self.pttl()
                ),
            )
        };
        self.record(
            moment,
            Some(client),
            title,
            Some((command_line(&words), reply)),
            note,
        );
    }

    fn released(&self) -> bool {
        self.frames.iter().any(|f| f.moment == Moment::AReleases)
    }

    fn lease_ends(&mut self, clock_ms: u64) {
        let before = self.holding();
        self.advance_to(clock_ms);
        let after = self.holding();
        let (title, note) = match (before, after) {
            (Some(gone), None) => (
                "the lease expires".to_string(),
                format!(
                    "{} ms after A's SET, the store drops {}'s lock: PTTL {}.",
                    self.lease_ms,
                    gone.owner.map_or("the", Client::name),
                    self.pttl()
                ),
            ),
            (None, None) => (
                "the lease would end".to_string(),
                "A already released, so nothing is left to expire.".to_string(),
            ),
            (_, Some(kept)) => (
                "the lease runs".to_string(),
                format!("The key still holds \"{}\".", kept.value),
            ),
        };
        self.record(Moment::LeaseEnds, None, title, None, note);
    }

    fn release(&mut self, choice: ReleaseChoice) {
        let before = self.holding();
        let sent = choice.release(&mut self.store);
        let after = self.holding();
        let returned = integer_in(&sent.1).map_or_else(|| cli_text(&sent.1), |n| n.to_string());
        let note = match (&before, &after) {
            (Some(b), None) if b.owner == Some(Client::A) => {
                "A deletes its own lock — correct: A finished within its lease.".to_string()
            }
            (Some(b), None) => format!(
                "A deletes {}'s lock: the key is empty while {} still works, so a third client \
                 can get in — exclusion broken.",
                b.owner.map_or("another client", Client::name),
                b.owner.map_or("that client", Client::name),
            ),
            (Some(b), Some(a)) if a == b => format!(
                "A reads \"{}\" ≠ \"{A_TOKEN}\", the script returns {returned}: {}'s lock stands.",
                b.value,
                b.owner.map_or("the", Client::name)
            ),
            (None, _) => format!("There was no lock left to release; the reply is {returned}."),
            (Some(_), Some(a)) => format!("The key now holds \"{}\".", a.value),
        };
        self.record(
            Moment::AReleases,
            Some(Client::A),
            format!("A releases ({})", choice.label()),
            Some(sent),
            note,
        );
    }
}

/// Runs already made, keyed by setup and release choice. Bounded: when full it starts over, so a
/// learner scrubbing sliders for an hour does not grow the page's memory.
#[derive(Debug, Default)]
pub struct TimelineCache {
    runs: HashMap<(PlayerSetup, ReleaseChoice), Arc<Timeline>>,
}

impl TimelineCache {
    /// At most this many runs are kept.
    pub const CAPACITY: usize = 256;

    /// The run for `setup` and `choice`, made now if it was not made before.
    pub fn get(&mut self, setup: PlayerSetup, choice: ReleaseChoice) -> Arc<Timeline> {
        if let Some(run) = self.runs.get(&(setup, choice)) {
            return Arc::clone(run);
        }
        if self.runs.len() >= Self::CAPACITY {
            self.runs.clear();
        }
        let run = Arc::new(Timeline::run(setup, choice));
        self.runs.insert((setup, choice), Arc::clone(&run));
        run
    }

    /// How many runs are kept now.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// True when no run is kept.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}
