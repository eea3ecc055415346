//! The schedule explorer: every interleaving of two or three clients' rounds of a lock (acquire,
//! work, extend, release) and of stalls (the clock moving past every lease), against one
//! `ministore::Store`, breadth-first over deduplicated states, checking the five properties on
//! every step.
//!
//! States are processed in order of progress (every step moves some client's program on, or
//! uses a stall), so each state's predecessors are all done before it is expanded: the number of
//! schedules through it and its shortest path from the start are final by then. Equal states
//! (equal stores by `Store::state_key`, each client's connection by `Store::session_key`, every
//! unfinished client's program counter and beliefs, stalls used) are merged, so the work is
//! proportional to distinct states while the schedule count stays that of the unmerged tree.
//! Steps that commute with every other (inside MULTI, an UNWATCH) are taken first, so their
//! other interleavings are not counted. Many distinct states share one store and differ only in
//! where the clients are; a client's script call on an equal store runs once, and its resulting
//! store and reply are reused (outside a WATCH). Exploration runs in chunks
//! ([`Explorer::run`]) so a browser can show progress between frames, and stops at
//! [`MAX_STATES`] rather than hang.
//!
//! Time moves only in stalls, each a full lease: every lease taken before a stall has lapsed
//! after it, and no time passes between two clients' steps. So an extend that skips the token
//! check and resets another's lease to the length it was just taken with leaves value and TTL as
//! they were; a release or extend that may touch another's lock therefore runs under a WATCH from
//! a connection of the explorer's own, and any write to that lock counts (on a real clock the
//! reset ends later).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use ministore::{KeySnapshot, Reply, Session, Store, ValueSnapshot};

use super::report::{
    CheckReport, Counterexample, PropertyReport, ScheduleStep, ScriptFault, SentCommand,
    StepAction, Verdict,
};
use super::spec::{
    Bound, Call, ClientId, FencingSource, LockSpec, OpKind, OpStep, Property, SpecError, Success,
};
use crate::scenarios::fence::{DATA_KEY, FENCE_KEY};
use crate::scenarios::lost_lock::KeyRow;
use crate::scenarios::{integer_in, FENCED_WRITE_SCRIPT};

/// Exploration stops after this many distinct states, with the report saying so.
pub const MAX_STATES: u64 = 500_000;

/// A client's script call's result by the store it ran on (its [`StoreId`]) and its words.
type StepMemo = HashMap<(StoreId, Vec<Vec<u8>>), (Reply, Store), BuildHasherDefault<StateHasher>>;

/// Names one distinct store of a run: stores with equal [`Store::state_key`]s share an id, so a
/// state's key holds four bytes for its store instead of the store's whole key, and the many
/// states that share a store share its key once.
type StoreId = u32;

/// How many step results the explorer keeps for reuse, each a store and a reply: about nine
/// times the distinct script calls (store, words) of any catalogue lock at the default bound (at
/// most 468; 576 distinct commands of any kind), a few MB at most. Past it, new calls simply run.
const STEP_MEMO_CAP: usize = 4_096;

/// The interpreter steps one script may take: ten times what every catalogue script fits in
/// (1,000), low enough that a runaway script costs well under a millisecond a call (the explorer
/// may call it once per state).
pub const CHECKED_SCRIPT_STEP_BUDGET: u64 = 10_000;

/// How far a run has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Distinct states reached so far.
    pub states: u64,
    /// States expanded so far.
    pub expanded: u64,
    /// Schedules finished so far.
    pub schedules: u64,
    /// True once every state is expanded or the cap is reached.
    pub done: bool,
    /// Progress ranks finished, of [`Progress::ranks`]: a bar that only grows, though not evenly
    /// in time (the middle ranks hold the most states).
    pub ranks_done: u32,
    /// How many progress ranks there are (every step moves a schedule up at least one).
    pub ranks: u32,
}

/// One command line a client sends, resolved for that client.
#[derive(Clone, Debug)]
struct Line {
    /// What the explorer sends: `EVALSHA` for a script, loaded into the starting store so every
    /// state has it (the reply is the one `EVAL` gives, which the report shows and replays).
    exec: Vec<Vec<u8>>,
    /// The script's text, for loading.
    script: Option<String>,
    line: String,
    short: String,
    success: Success,
    /// What the client sends next when the reply does not pass ([`OpStep::on_refusal`]).
    on_refusal: Option<Box<Line>>,
}

/// One client's three operations, resolved.
#[derive(Clone, Debug)]
struct Program {
    token: Vec<u8>,
    acquire: Vec<Line>,
    extend: Vec<Line>,
    release: Vec<Line>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    Acquire,
    Work,
    Extend,
    Release,
    Done,
}

impl Phase {
    /// The operation a client in this phase is running, if it is running one.
    fn op(self) -> Option<OpKind> {
        match self {
            Phase::Acquire => Some(OpKind::Acquire),
            Phase::Extend => Some(OpKind::Extend),
            Phase::Release => Some(OpKind::Release),
            Phase::Work | Phase::Done => None,
        }
    }
}

/// A client's program counter and beliefs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ClientState {
    phase: Phase,
    attempt: u8,
    line: u8,
    /// Believes it holds the lock.
    holds: bool,
    /// Its lease ends here by its own reckoning (virtual ms; valid while now ≤ this).
    lease_until: u64,
    attempt_started: u64,
    /// 1 for the first successful acquire of the schedule, 2 for the next…; 0 before.
    generation: u8,
    fence: Option<i64>,
    /// A refused step's [`Line::on_refusal`], still to be sent: the client's next step, whatever
    /// its program counter has moved on to.
    cleanup: Option<Cleanup>,
}

/// Which refused step's clean-up a client still has to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Cleanup {
    op: OpKind,
    /// The acquire attempt the refused step belonged to, from 1 (0 for extend and release).
    attempt: u8,
    line: u8,
}

impl Cleanup {
    /// The clean-up a client owes after sending `line` (line `at` of `op`): one when the reply
    /// did not pass and the step names one.
    fn after(line: &Line, passes: bool, op: OpKind, attempt: u8, at: u8) -> Option<Cleanup> {
        (!passes && line.on_refusal.is_some()).then_some(Cleanup {
            op,
            attempt,
            line: at,
        })
    }
}

impl ClientState {
    /// Every finished client, whatever it did (see [`Explorer::apply`]).
    const FINISHED: ClientState = ClientState {
        phase: Phase::Done,
        ..ClientState::START
    };

    const START: ClientState = ClientState {
        phase: Phase::Acquire,
        attempt: 0,
        line: 0,
        holds: false,
        lease_until: 0,
        attempt_started: 0,
        generation: 0,
        fence: None,
        cleanup: None,
    };
}

/// One state of the schedule graph.
#[derive(Clone)]
struct State {
    store: Store,
    /// Each client's own connection to `store`: its WATCH list and MULTI block.
    sessions: Vec<Session>,
    clients: Vec<ClientState>,
    stalls: u8,
    last_was_stall: bool,
    next_generation: u8,
    newest_written: u8,
    /// The lock key as it is in `store`.
    lock: Option<KeySnapshot>,
    /// Which store `store` is, by its [`Store::state_key`] (every database's keys, values,
    /// encodings and leases, the clock, the random draws' state, the cached scripts): with the
    /// clients' connections (`sessions`), what decides what the locks' commands answer.
    store_id: StoreId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Client(u8),
    Stall,
}

/// What one step did.
struct Outcome {
    client: Option<ClientId>,
    action: StepAction,
    sent: SentCommand,
    /// Bit `p` set: the step broke property `p`.
    broke: u8,
    /// The lock's own step answered an error.
    fault: Option<String>,
    note: Note,
    /// Another client's lock this step removed or changed (release) or lengthened (extend).
    touched: Option<Touch>,
}

/// What a step did, in words for the report (rendered only there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Note {
    Nothing,
    Takes,
    GoesOn,
    TriesAgain,
    GivesUp,
    Wrote {
        accepted: bool,
    },
    Extends,
    ExtendRefused,
    ReleaseStep {
        step: u8,
    },
    Releases,
    /// The refused step's clean-up went out.
    CleansUp,
    /// A release step's reply failed its rule: the release ends there.
    ReleaseRefused,
    Stall,
}

impl Outcome {
    /// One sentence on what the step did.
    fn describe(&self) -> String {
        let name = self.client.map_or("", ClientId::name);
        let base = match self.note {
            Note::Nothing => format!("{name} has nothing to send"),
            Note::Takes => format!("{name} takes the lock"),
            Note::GoesOn => format!("{name} goes on to its next command"),
            Note::TriesAgain => format!("{name} tries the lock: not taken, it will try again"),
            Note::GivesUp => format!("{name} tries the lock: not taken, it gives up"),
            Note::Wrote { accepted: true } => {
                format!("{name} writes to the resource as holder: accepted")
            }
            Note::Wrote { accepted: false } => {
                format!("{name} writes to the resource as holder: refused")
            }
            Note::Extends => format!("{name} extends its lease"),
            Note::ExtendRefused => {
                format!("{name} tries to extend: refused, so it knows it lost the lock")
            }
            Note::ReleaseStep { step } => format!("{name} releases: command {step} of its release"),
            Note::Releases => format!("{name} releases"),
            Note::CleansUp => format!("{name} sends its library's clean-up after the refused step"),
            Note::ReleaseRefused => format!("{name}'s release stops: the reply fails its check"),
            Note::Stall => "everyone stalls: the clock jumps past every lease".to_string(),
        };
        let Some(Touch { owner, how }) = self.touched else {
            return base;
        };
        let owner = owner.name();
        match how {
            TouchKind::Removed => format!("{base} — and removes {owner}'s lock"),
            TouchKind::Lengthened => format!("{base} — and lengthens {owner}'s lease"),
            TouchKind::Changed => format!("{base} — and changes {owner}'s lock"),
            TouchKind::Rewritten => format!(
                "{base} — and rewrites {owner}'s lock: same value and TTL here, where no time \
passed since {owner} took it; on a real clock a reset lease ends later than {owner}'s"
            ),
        }
    }
}

/// A state waiting to be expanded.
struct Pending {
    id: u32,
    state: State,
    paths: u64,
    broken: [u64; 5],
}

/// FxHash's multiply-rotate over 8-byte words: the state keys are our own bytes, so there is
/// no hash flooding to defend against, and SipHash was a tenth of the explorer's time.
#[derive(Default, Clone, Copy)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(word);
            self.add(u64::from_le_bytes(buf));
        }
        let mut tail = [0u8; 8];
        let rest = words.remainder();
        tail[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(tail) ^ (rest.len() as u64) << 56);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl StateHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Every state of one progress rank.
#[derive(Default)]
struct Bucket {
    index: HashMap<Vec<u8>, usize, BuildHasherDefault<StateHasher>>,
    states: Vec<Option<Pending>>,
}

/// How each state was first reached by a shortest path.
#[derive(Clone, Copy)]
struct Meta {
    parent: u32,
    action: Action,
    depth: u32,
}

const ROOT: u32 = u32::MAX;

/// The explorer for one lock and bound; run it in chunks with [`Explorer::run`].
pub struct Explorer {
    lock_id: String,
    lock_name: String,
    bound: Bound,
    programs: Vec<Program>,
    has_extend: bool,
    fencing: FencingSource,
    key: Vec<u8>,
    ttl_ms: u64,
    stall_seconds: String,
    fenced_write_sha: String,
    start: State,
    buckets: Vec<Bucket>,
    rank: usize,
    position: usize,
    meta: Vec<Meta>,
    expanded: u64,
    schedules: u64,
    broken: [u64; 5],
    /// Per property, the shortest breaking step found: its length and (state, action).
    shortest: [Option<(u32, u32, Action)>; 5],
    fault: Option<(u32, u32, Action, String)>,
    done: bool,
    cap_reached: bool,
    state_cap: u64,
    /// Whether the step memo and the commuting-step rule are on (see [`Explorer::set_shortcuts`]).
    shortcuts: bool,
    /// What a client's script call did to a store, by the store's id and the call's words:
    /// many states share a store and differ only in where the clients are, and each of them
    /// would otherwise run the same script on the same keys again.
    step_memo: RefCell<StepMemo>,
    /// Every distinct store's id, by its [`Store::state_key`].
    store_ids: RefCell<HashMap<Vec<u8>, StoreId, BuildHasherDefault<StateHasher>>>,
    /// Where [`Explorer::store_id`] writes each store's key before looking it up.
    key_buffer: RefCell<Vec<u8>>,
    /// The store id of the state [`Explorer::apply`] is stepping from, taken by the step's one
    /// send ([`Explorer::exec_remembered`] decides whether the memo applies).
    memo_from: RefCell<Option<StoreId>>,
}

impl Explorer {
    /// An explorer for `spec` within `bound`. Fails when the bound is out of range or when one
    /// client running the lock alone gets an error reply from it (a broken or runaway script).
    pub fn new(spec: &LockSpec, bound: Bound) -> Result<Explorer, SpecError> {
        bound.validate()?;
        spec.validate()?;
        let programs: Vec<Program> = ClientId::ALL[..usize::from(bound.clients)]
            .iter()
            .map(|&client| Program::resolve(spec, client))
            .collect();
        let mut store = Store::new();
        store.set_step_budget(CHECKED_SCRIPT_STEP_BUDGET);
        // Every state's store starts from this one: with the scripts compiled here, no branch
        // compiles them again (the cache changes no reply to EVAL).
        for program in &programs {
            for text in program.lines().filter_map(|line| line.script.as_deref()) {
                store.script_load(text);
            }
        }
        if spec.fencing != FencingSource::None {
            store.script_load(FENCED_WRITE_SCRIPT);
        }
        let store_ids = HashMap::from_iter([(store.state_key(), 0)]);
        let start = State {
            store,
            sessions: vec![Session::new(); programs.len()],
            clients: vec![ClientState::START; programs.len()],
            stalls: 0,
            last_was_stall: false,
            next_generation: 1,
            newest_written: 0,
            lock: None,
            store_id: 0,
        };
        let mut explorer = Explorer {
            lock_id: spec.id.clone(),
            lock_name: spec.name.clone(),
            bound,
            has_extend: spec.extend.is_some(),
            fencing: spec.fencing,
            key: spec.key.as_bytes().to_vec(),
            ttl_ms: spec.ttl_ms,
            stall_seconds: stall_seconds(spec.ttl_ms),
            fenced_write_sha: sha_of(FENCED_WRITE_SCRIPT).unwrap_or_default(),
            programs,
            start,
            buckets: Vec::new(),
            rank: 0,
            position: 0,
            meta: Vec::new(),
            expanded: 0,
            schedules: 0,
            broken: [0; 5],
            shortest: [None; 5],
            fault: None,
            done: false,
            cap_reached: false,
            state_cap: MAX_STATES,
            shortcuts: true,
            step_memo: RefCell::new(HashMap::default()),
            store_ids: RefCell::new(store_ids),
            key_buffer: RefCell::new(Vec::new()),
            memo_from: RefCell::new(None),
        };
        explorer.probe_alone()?;
        let ranks = explorer.max_rank() + 1;
        explorer.buckets = (0..ranks).map(|_| Bucket::default()).collect();
        let root = Pending {
            id: 0,
            state: explorer.start.clone(),
            paths: 1,
            broken: [0; 5],
        };
        explorer.meta.push(Meta {
            parent: ROOT,
            action: Action::Stall,
            depth: 0,
        });
        explorer.buckets[0].states.push(Some(root));
        Ok(explorer)
    }

    /// Client A runs its round alone; an error reply from the lock's own steps is the spec's
    /// fault, found before any exploring.
    fn probe_alone(&self) -> Result<(), SpecError> {
        let mut state = self.start.clone();
        while state.clients[0].phase != Phase::Done || state.clients[0].cleanup.is_some() {
            let c = state.clients[0];
            let op = c.cleanup.map(|cleanup| cleanup.op).or(c.phase.op());
            let (next, outcome, _) = self.apply(&state, Action::Client(0), true);
            if let (Some(op), Some(error)) = (op, outcome.fault) {
                return Err(SpecError::ScriptFailed {
                    op,
                    command: outcome.sent.short,
                    error,
                });
            }
            state = next;
        }
        Ok(())
    }

    /// Turns the explorer's two shortcuts off or on: reusing a script call's run on an equal
    /// store, and letting a client inside MULTI or about to UNWATCH act alone. Neither changes a
    /// verdict; off, every command runs and every interleaving is explored, which the tests use
    /// to show it.
    pub fn set_shortcuts(&mut self, on: bool) {
        self.shortcuts = on;
    }

    /// Lowers the state cap below [`MAX_STATES`] (a tighter budget for a slow device); the
    /// report then says the cap ended exploration.
    pub fn set_state_cap(&mut self, cap: u64) {
        self.state_cap = cap.clamp(1, MAX_STATES);
    }

    /// Expands up to `max_states` more states; call again until [`Progress::done`].
    pub fn run(&mut self, max_states: usize) -> Progress {
        let mut budget = max_states;
        while budget > 0 && !self.done {
            let Some(bucket) = self.buckets.get_mut(self.rank) else {
                self.done = true;
                break;
            };
            if self.position == 0 {
                // No successor has this rank or lower any more: the index is not needed.
                bucket.index = HashMap::default();
            }
            let Some(slot) = bucket.states.get_mut(self.position) else {
                bucket.states = Vec::new();
                self.rank += 1;
                self.position = 0;
                continue;
            };
            let pending = slot.take();
            self.position += 1;
            if let Some(pending) = pending {
                self.expand(pending);
                budget -= 1;
            }
            if self.meta.len() as u64 >= self.state_cap {
                self.cap_reached = true;
                self.done = true;
            }
        }
        self.progress()
    }

    /// How far the run has got.
    pub fn progress(&self) -> Progress {
        Progress {
            states: self.meta.len() as u64,
            expanded: self.expanded,
            schedules: self.schedules,
            done: self.done,
            ranks_done: if self.done {
                self.buckets.len() as u32
            } else {
                self.rank as u32
            },
            ranks: self.buckets.len() as u32,
        }
    }

    fn expand(&mut self, pending: Pending) {
        self.expanded += 1;
        let actions = self.actions(&pending.state);
        if actions.is_empty() {
            self.schedules = self.schedules.saturating_add(pending.paths);
            for (total, add) in self.broken.iter_mut().zip(pending.broken) {
                *total = total.saturating_add(add);
            }
            return;
        }
        let depth = self.meta[pending.id as usize].depth + 1;
        for action in actions {
            let (next, outcome, _) = self.apply(&pending.state, action, false);
            let mut broken = pending.broken;
            for property in Property::ALL {
                let p = property.index();
                if outcome.broke & (1 << p) != 0 {
                    broken[p] = pending.paths;
                    if self.shortest[p].is_none_or(|(len, _, _)| depth < len) {
                        self.shortest[p] = Some((depth, pending.id, action));
                    }
                }
            }
            if let Some(error) = outcome.fault {
                if self.fault.as_ref().is_none_or(|f| depth < f.0) {
                    self.fault = Some((depth, pending.id, action, error));
                }
            }
            let reached = Meta {
                parent: pending.id,
                action,
                depth,
            };
            self.insert(next, reached, pending.paths, broken);
        }
    }

    /// Adds `state`, reached by `reached` with `paths` schedules, or merges it into its equal.
    fn insert(&mut self, state: State, reached: Meta, paths: u64, broken: [u64; 5]) {
        let rank = self.rank_of(&state);
        // Every step moves a schedule on: a successor in this rank or below would be expanded
        // out of order, or never.
        debug_assert!(rank > self.rank, "a step from rank {} to {rank}", self.rank);
        let key = state_key(&state);
        let Some(bucket) = self.buckets.get_mut(rank) else {
            return;
        };
        if let Some(&at) = bucket.index.get(&key) {
            if let Some(Some(existing)) = bucket.states.get_mut(at) {
                existing.paths = existing.paths.saturating_add(paths);
                for (total, add) in existing.broken.iter_mut().zip(broken) {
                    *total = total.saturating_add(add);
                }
                let meta = &mut self.meta[existing.id as usize];
                if reached.depth < meta.depth {
                    *meta = reached;
                }
            }
            return;
        }
        let id = self.meta.len() as u32;
        self.meta.push(reached);
        bucket.index.insert(key, bucket.states.len());
        bucket.states.push(Some(Pending {
            id,
            state,
            paths,
            broken,
        }));
    }

    /// The steps possible from `state`: each unfinished client's next step, and a stall. While
    /// a client's connection is inside MULTI, only that client acts: MULTI and the commands it
    /// queues answer OK and QUEUED and touch no key, and EXEC runs the queue against the store
    /// and WATCH lists as they are then, so another client's step or a stall between MULTI and
    /// EXEC leads to the same replies and store as the same step taken just before MULTI, which
    /// is explored. (Where that would put a stall right after another, the two are as one: the
    /// first has already let every lease lapse, which is why no schedule takes two in a row.)
    fn actions(&self, state: &State) -> Vec<Action> {
        let alone = (0..state.clients.len()).find(|&i| self.shortcuts && self.acts_alone(state, i));
        if let Some(i) = alone {
            return vec![Action::Client(i as u8)];
        }
        let mut actions: Vec<Action> = state
            .clients
            .iter()
            .enumerate()
            .filter(|(_, c)| c.phase != Phase::Done || c.cleanup.is_some())
            .map(|(i, _)| Action::Client(i as u8))
            .collect();
        // A stall at the very start, after another stall, or once everyone is done changes
        // nothing a schedule could notice.
        let started = state.clients.iter().any(|c| *c != ClientState::START);
        if !actions.is_empty()
            && started
            && !state.last_was_stall
            && state.stalls < self.bound.stalls
        {
            actions.push(Action::Stall);
        }
        actions
    }

    /// Whether client `i`'s next step commutes with every other step, so the interleavings
    /// with it first stand for all: a step inside MULTI (see [`Explorer::actions`]), or an
    /// `UNWATCH`, which answers OK and changes only the client's own WATCH list, which no other
    /// client's reply depends on.
    fn acts_alone(&self, state: &State, i: usize) -> bool {
        let Some(line) = self.next_line(&state.clients[i], i) else {
            return false;
        };
        state.sessions[i].in_multi()
            || line
                .exec
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case(b"UNWATCH"))
    }

    /// The line client `i` sends next, if it sends one (not its write to the resource).
    fn next_line(&self, c: &ClientState, i: usize) -> Option<&Line> {
        if let Some(cleanup) = c.cleanup {
            return self.cleanup_line(i, cleanup);
        }
        self.programs[i]
            .op_lines(c.phase.op()?)
            .get(usize::from(c.line))
    }

    /// The clean-up client `i` sends after the refused step `cleanup` names.
    fn cleanup_line(&self, i: usize, cleanup: Cleanup) -> Option<&Line> {
        self.programs[i]
            .op_lines(cleanup.op)
            .get(usize::from(cleanup.line))?
            .on_refusal
            .as_deref()
    }

    /// Where a client's program counter stands, counting every step it may take. A clean-up
    /// still to send counts one step short of where the refusal moved the counter: the refused
    /// step is never an operation's last, so that is still past the refused step.
    fn client_rank(&self, c: &ClientState) -> usize {
        self.counter_rank(c) - usize::from(c.cleanup.is_some())
    }

    fn counter_rank(&self, c: &ClientState) -> usize {
        let program = &self.programs[0];
        let acquire = program.acquire.len() * usize::from(self.bound.acquire_attempts);
        let extend = program.extend.len();
        match c.phase {
            Phase::Acquire => usize::from(c.attempt) * program.acquire.len() + usize::from(c.line),
            Phase::Work => acquire,
            Phase::Extend => acquire + 1 + usize::from(c.line),
            Phase::Release => acquire + 1 + extend + usize::from(c.line),
            Phase::Done => acquire + 1 + extend + program.release.len(),
        }
    }

    fn rank_of(&self, state: &State) -> usize {
        state
            .clients
            .iter()
            .map(|c| self.client_rank(c))
            .sum::<usize>()
            + usize::from(state.stalls)
    }

    fn max_rank(&self) -> usize {
        self.client_rank(&ClientState::FINISHED) * self.programs.len()
            + usize::from(self.bound.stalls)
    }

    /// Runs one step from `state`: the new state, what the step did, and database 0's keys after
    /// it (one snapshot serves the checks and the report).
    /// With `record`, the outcome carries the command lines as shown (the report needs them;
    /// exploring does not, and they hold whole scripts).
    fn apply(
        &self,
        state: &State,
        action: Action,
        record: bool,
    ) -> (State, Outcome, Vec<KeySnapshot>) {
        let mut next = state.clone();
        // A step that may change another client's lock runs under a WATCH from a connection of
        // the explorer's own, so a write that leaves value and TTL as they were still shows: a `PEXPIRE`
        // to the lease the owner just took changes nothing on the virtual clock, where no time
        // passes between steps, but on a real one it pushes the owner's deadline later.
        let mut watcher = match action {
            Action::Client(i) if self.may_touch_anothers(state, usize::from(i)) => {
                let mut session = Session::new();
                next.store
                    .exec_in(&mut session, &[b"WATCH".as_slice(), self.key.as_slice()]);
                Some(session)
            }
            _ => None,
        };
        *self.memo_from.borrow_mut() = Some(state.store_id);
        let mut outcome = match action {
            Action::Stall => self.stall(&mut next),
            Action::Client(i) => self.client_step(&mut next, usize::from(i), record),
        };
        self.memo_from.borrow_mut().take();
        let written = watcher
            .as_mut()
            .is_some_and(|session| written_since_watch(&mut next.store, session));
        next.last_was_stall = action == Action::Stall;
        // A finished client sends nothing more, holds nothing, and nothing reads its counters,
        // lease or generation again: states that differ only there are one state.
        for c in &mut next.clients {
            if c.phase == Phase::Done && c.cleanup.is_none() {
                *c = ClientState::FINISHED;
            }
        }
        let snapshot = next.store.snapshot();
        next.lock = snapshot.iter().find(|e| e.key == self.key).cloned();
        next.store_id = self.store_id(&next.store);
        if let Action::Client(i) = action {
            let change = LockChange {
                before: &state.lock,
                after: &next.lock,
                written,
            };
            self.check_lock_change(usize::from(i), change, &mut outcome);
        }
        if self.two_hold(&next) {
            outcome.broke |= 1 << Property::ExclusionWhileLeasesHold.index();
        }
        (next, outcome, snapshot)
    }

    /// A release that changed, or an extend that lengthened, a lock key holding another
    /// client's token.
    fn check_lock_change(&self, actor: usize, change: LockChange<'_>, outcome: &mut Outcome) {
        let LockChange {
            before,
            after,
            written,
        } = change;
        let Some(other) = owner(before, &self.programs).filter(|&o| o != actor) else {
            return;
        };
        let other = ClientId::ALL[other];
        let property = match outcome.action {
            StepAction::Release if before != after || written => Property::NeverDeletesAnothers,
            StepAction::Extend if lengthened(before, after) || written => {
                Property::NeverExtendsAnothers
            }
            _ => return,
        };
        outcome.broke |= 1 << property.index();
        outcome.touched = Some(Touch {
            owner: other,
            how: if after.is_none() {
                TouchKind::Removed
            } else if lengthened(before, after) {
                TouchKind::Lengthened
            } else if before != after {
                TouchKind::Changed
            } else {
                TouchKind::Rewritten
            },
        });
    }

    /// Whether client `i`'s next step is a release or an extend while another client's token
    /// is under the lock key: the only steps the first two properties judge.
    fn may_touch_anothers(&self, state: &State, i: usize) -> bool {
        let c = &state.clients[i];
        c.cleanup.is_none()
            && matches!(c.phase, Phase::Extend | Phase::Release)
            && owner(&state.lock, &self.programs).is_some_and(|o| o != i)
    }

    fn stall(&self, next: &mut State) -> Outcome {
        let words = ["DEBUG", "SLEEP", self.stall_seconds.as_str()];
        let reply = next.store.exec(&words);
        next.stalls += 1;
        let line = words.join(" ");
        Outcome {
            client: None,
            action: StepAction::Stall,
            sent: SentCommand {
                short: line.clone(),
                line,
                reply,
            },
            broke: 0,
            fault: None,
            note: Note::Stall,
            touched: None,
        }
    }

    /// Two clients believe they hold, each lease unexpired by its own reckoning.
    fn two_hold(&self, state: &State) -> bool {
        let now = state.store.now_ms();
        state
            .clients
            .iter()
            .filter(|c| c.holds && now <= c.lease_until)
            .count()
            >= 2
    }

    fn client_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
        let client = ClientId::ALL[i];
        let c = next.clients[i];
        if let Some(cleanup) = c.cleanup {
            return self
                .cleanup_step(next, i, cleanup, record)
                .with_client(client);
        }
        match c.phase {
            Phase::Acquire => self.acquire_step(next, i, record),
            Phase::Work => self.work_step(next, i, record),
            Phase::Extend => self.extend_step(next, i, record),
            Phase::Release | Phase::Done => self.release_step(next, i, record),
        }
        .with_client(client)
    }

    /// The id of `store` by its [`Store::state_key`]: its own if no equal store came before.
    /// The key is written into one buffer kept for the run, and copied only for a new store.
    fn store_id(&self, store: &Store) -> StoreId {
        let mut key = self.key_buffer.borrow_mut();
        key.clear();
        store.write_state_key(&mut key);
        let mut ids = self.store_ids.borrow_mut();
        if let Some(&id) = ids.get(key.as_slice()) {
            return id;
        }
        let id = ids.len() as StoreId;
        ids.insert(key.clone(), id);
        id
    }

    /// Runs `words` on `store` as the client whose connection `session` is, or, when the same
    /// script call already ran on an equal store, puts that run's resulting store in place and
    /// returns its reply. A plain command runs each time: it costs less than keeping and finding
    /// its result. So does any call while a connection watches a key (the resulting store's
    /// WATCH lists are not in its key) or from a connection in a transaction or another database.
    fn exec_remembered(
        &self,
        store: &mut Store,
        session: &mut Session,
        words: &[Vec<u8>],
    ) -> Reply {
        let from = self.memo_from.borrow_mut().take();
        let reusable = self.shortcuts
            && words.first().is_some_and(|w| w == b"EVALSHA")
            && plain(session)
            && !store.watching();
        let Some(from) = from.filter(|_| reusable) else {
            return store.exec_in(session, words);
        };
        let key = (from, words.to_vec());
        if let Some((reply, after)) = self.step_memo.borrow().get(&key) {
            *store = after.clone();
            return reply.clone();
        }
        let reply = store.exec_in(session, words);
        let mut memo = self.step_memo.borrow_mut();
        if memo.len() < STEP_MEMO_CAP {
            memo.insert(key, (reply.clone(), store.clone()));
        }
        reply
    }

    /// Client `i` sends `line` on its own connection.
    fn send(&self, next: &mut State, i: usize, line: &Line, record: bool) -> SentCommand {
        let State {
            store, sessions, ..
        } = next;
        let reply = self.exec_remembered(store, &mut sessions[i], &line.exec);
        if !record {
            return SentCommand {
                line: String::new(),
                short: String::new(),
                reply,
            };
        }
        SentCommand {
            line: line.line.clone(),
            short: line.short.clone(),
            reply,
        }
    }

    fn acquire_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
        let program = &self.programs[i];
        let now = next.store.now_ms();
        let mut c = next.clients[i];
        let Some(line) = program.acquire.get(usize::from(c.line)) else {
            return Outcome::nothing(StepAction::Work);
        };
        if c.line == 0 {
            c.attempt_started = now;
        }
        let sent = self.send(next, i, line, record);
        let action = StepAction::Acquire {
            attempt: c.attempt + 1,
        };
        let passes = line.success.passes(&sent.reply, &program.token);
        c.cleanup = Cleanup::after(line, passes, OpKind::Acquire, c.attempt + 1, c.line);
        let last = usize::from(c.line) + 1 == program.acquire.len();
        let note = if passes && last {
            c.holds = true;
            c.lease_until = c.attempt_started.saturating_add(self.ttl_ms);
            c.generation = next.next_generation;
            next.next_generation = next.next_generation.saturating_add(1);
            c.fence = match self.fencing {
                FencingSource::AcquireReply => integer_in(&sent.reply),
                FencingSource::None => None,
            };
            c.phase = Phase::Work;
            c.line = 0;
            Note::Takes
        } else if passes {
            c.line += 1;
            Note::GoesOn
        } else if c.attempt + 1 < self.bound.acquire_attempts {
            c.attempt += 1;
            c.line = 0;
            Note::TriesAgain
        } else {
            c.phase = Phase::Done;
            Note::GivesUp
        };
        next.clients[i] = c;
        Outcome::new(action, sent)
            .with_note(note)
            .with_fault_from_reply()
    }

    fn work_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
        let now = next.store.now_ms();
        let mut c = next.clients[i];
        let line = self.work_line(ClientId::ALL[i], c.fence, record);
        let mut broke = 0u8;
        let lapsed = now > c.lease_until;
        let other_holds = owner(&next.lock, &self.programs).is_some_and(|o| o != i);
        if c.holds && lapsed && other_holds {
            broke |= 1 << Property::ExclusionAcrossStall.index();
        }
        let sent = self.send(next, i, &line, record);
        let accepted = !sent.reply.is_error();
        let note = if accepted {
            if next.newest_written > c.generation {
                broke |= 1 << Property::FencedWrites.index();
            }
            next.newest_written = next.newest_written.max(c.generation);
            Note::Wrote { accepted: true }
        } else {
            Note::Wrote { accepted: false }
        };
        c.phase = if self.has_extend {
            Phase::Extend
        } else {
            Phase::Release
        };
        c.line = 0;
        next.clients[i] = c;
        let mut outcome = Outcome::new(StepAction::Work, sent).with_note(note);
        outcome.broke = broke;
        outcome
    }

    fn extend_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
        let program = &self.programs[i];
        let now = next.store.now_ms();
        let mut c = next.clients[i];
        let Some(line) = program.extend.get(usize::from(c.line)) else {
            return Outcome::nothing(StepAction::Extend);
        };
        let sent = self.send(next, i, line, record);
        let passes = line.success.passes(&sent.reply, &program.token);
        c.cleanup = Cleanup::after(line, passes, OpKind::Extend, 0, c.line);
        let last = usize::from(c.line) + 1 == program.extend.len();
        let note = if passes && last {
            c.lease_until = now.saturating_add(self.ttl_ms);
            c.phase = Phase::Release;
            c.line = 0;
            Note::Extends
        } else if passes {
            c.line += 1;
            Note::GoesOn
        } else {
            c.holds = false;
            c.phase = Phase::Release;
            c.line = 0;
            Note::ExtendRefused
        };
        next.clients[i] = c;
        Outcome::new(StepAction::Extend, sent)
            .with_note(note)
            .with_fault_from_reply()
    }

    fn release_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
        let program = &self.programs[i];
        let mut c = next.clients[i];
        let Some(line) = program.release.get(usize::from(c.line)) else {
            return Outcome::nothing(StepAction::Release);
        };
        // A client that starts releasing has stopped acting as holder.
        c.holds = false;
        let sent = self.send(next, i, line, record);
        let passes = line.success.passes(&sent.reply, &program.token);
        c.cleanup = Cleanup::after(line, passes, OpKind::Release, 0, c.line);
        let last = usize::from(c.line) + 1 == program.release.len();
        let note = if passes && !last {
            Note::ReleaseStep { step: c.line + 1 }
        } else if !last {
            Note::ReleaseRefused
        } else {
            Note::Releases
        };
        if passes && !last {
            c.line += 1;
        } else {
            c.phase = Phase::Done;
        }
        next.clients[i] = c;
        Outcome::new(StepAction::Release, sent)
            .with_note(note)
            .with_fault_from_reply()
    }

    /// Sends the clean-up of the refused step `cleanup` names; the refusal itself already moved
    /// the client's program on.
    fn cleanup_step(&self, next: &mut State, i: usize, cleanup: Cleanup, record: bool) -> Outcome {
        let action = match cleanup.op {
            OpKind::Acquire => StepAction::Acquire {
                attempt: cleanup.attempt,
            },
            OpKind::Extend => StepAction::Extend,
            OpKind::Release => StepAction::Release,
        };
        next.clients[i].cleanup = None;
        let Some(line) = self.cleanup_line(i, cleanup) else {
            return Outcome::nothing(action);
        };
        let sent = self.send(next, i, line, record);
        Outcome::new(action, sent)
            .with_note(Note::CleansUp)
            .with_fault_from_reply()
    }

    /// The holder's write: through the fenced-write script when it holds a fencing token, a
    /// plain `SET` otherwise (the resource cannot tell writers apart).
    fn work_line(&self, client: ClientId, fence: Option<i64>, record: bool) -> Line {
        let value = format!("written-by-{}", client.letter());
        let Some(token) = fence else {
            let line = format!("SET {DATA_KEY} {value}");
            return Line {
                exec: vec![b"SET".to_vec(), DATA_KEY.into(), value.into_bytes()],
                script: None,
                short: line.clone(),
                line,
                success: Success::Always,
                on_refusal: None,
            };
        };
        let token = token.to_string();
        let tail = format!("2 {FENCE_KEY} {DATA_KEY} {token} {value}");
        let (line, short) = if record {
            (
                format!("EVAL {} {tail}", cli_word(FENCED_WRITE_SCRIPT.as_bytes())),
                format!("EVAL <fenced_write.lua> {tail}"),
            )
        } else {
            (String::new(), String::new())
        };
        Line {
            exec: [
                "EVALSHA",
                self.fenced_write_sha.as_str(),
                "2",
                FENCE_KEY,
                DATA_KEY,
                token.as_str(),
                value.as_str(),
            ]
            .iter()
            .map(|w| w.as_bytes().to_vec())
            .collect(),
            script: None,
            line,
            short,
            success: Success::Always,
            on_refusal: None,
        }
    }

    /// The report so far (complete once [`Progress::done`]).
    pub fn report(&self) -> CheckReport {
        let properties = Property::ALL
            .iter()
            .map(|&property| self.property_report(property))
            .collect();
        let script_error = self
            .fault
            .as_ref()
            .map(|(_, at, action, error)| ScriptFault {
                error: error.clone(),
                schedule: self.replay(*at, *action),
            });
        CheckReport {
            lock_id: self.lock_id.clone(),
            lock_name: self.lock_name.clone(),
            bound: self.bound,
            states: self.meta.len() as u64,
            schedules: self.schedules,
            complete: self.done && !self.cap_reached,
            cap_reached: self.cap_reached,
            properties,
            script_error,
        }
    }

    fn property_report(&self, property: Property) -> PropertyReport {
        let p = property.index();
        let counterexample = self.shortest[p].map(|(_, at, action)| self.replay(at, action));
        let verdict = if counterexample.is_some() {
            Verdict::Broken
        } else {
            Verdict::Holds
        };
        let note = match (property, verdict) {
            (Property::NeverExtendsAnothers, _) if !self.has_extend => {
                Some("the lock has no extend".to_string())
            }
            (Property::ExclusionAcrossStall, Verdict::Broken) => Some(
                "every lease-based lock breaks this: a stalled holder cannot know its lease \
                 lapsed; only a fencing token the resource checks stops its write (#s3)"
                    .to_string(),
            ),
            (Property::FencedWrites, Verdict::Broken) if self.fencing == FencingSource::None => {
                Some(
                    "no fencing token: the resource cannot tell an old holder's write from a \
                     new one (#s3)"
                        .to_string(),
                )
            }
            _ => None,
        };
        PropertyReport {
            property,
            verdict,
            schedules: self.schedules,
            broken_schedules: self.broken[p],
            counterexample,
            note,
        }
    }

    /// The schedule from the start to state `at`, then `last`, rerun step by step.
    fn replay(&self, at: u32, last: Action) -> Counterexample {
        let mut actions = vec![last];
        let mut id = at;
        while id != ROOT {
            let Some(meta) = self.meta.get(id as usize) else {
                break;
            };
            if meta.parent != ROOT {
                actions.push(meta.action);
            }
            id = meta.parent;
        }
        actions.reverse();
        let mut state = self.start.clone();
        let mut steps = Vec::with_capacity(actions.len());
        for action in actions {
            let (next, outcome, snapshot) = self.apply(&state, action, true);
            let note = outcome.describe();
            steps.push(ScheduleStep {
                client: outcome.client,
                action: outcome.action,
                sent: outcome.sent,
                clock_ms: next.store.now_ms(),
                keys_after: key_rows(snapshot),
                note,
            });
            state = next;
        }
        Counterexample { steps }
    }
}

/// Explores `spec` within `bound` to the end (or the state cap).
pub fn check(spec: &LockSpec, bound: Bound) -> Result<CheckReport, SpecError> {
    let mut explorer = Explorer::new(spec, bound)?;
    while !explorer.run(usize::MAX).done {}
    Ok(explorer.report())
}

impl Outcome {
    fn new(action: StepAction, sent: SentCommand) -> Outcome {
        Outcome {
            client: None,
            action,
            sent,
            broke: 0,
            fault: None,
            note: Note::Nothing,
            touched: None,
        }
    }

    fn nothing(action: StepAction) -> Outcome {
        Outcome::new(
            action,
            SentCommand {
                line: String::new(),
                short: String::new(),
                reply: Reply::Nil,
            },
        )
    }

    fn with_client(mut self, client: ClientId) -> Outcome {
        self.client = Some(client);
        self
    }

    fn with_note(mut self, note: Note) -> Outcome {
        self.note = note;
        self
    }

    fn with_fault_from_reply(mut self) -> Outcome {
        if let Reply::Error(text) = &self.sent.reply {
            self.fault = Some(text.clone());
        }
        self
    }
}

impl Program {
    fn resolve(spec: &LockSpec, client: ClientId) -> Program {
        let lines = |kind: OpKind| -> Vec<Line> {
            spec.op(kind)
                .map(|op| {
                    op.steps
                        .iter()
                        .map(|step| Line::resolve_step(spec, client, step))
                        .collect()
                })
                .unwrap_or_default()
        };
        Program {
            token: spec.token(client).as_bytes().to_vec(),
            acquire: lines(OpKind::Acquire),
            extend: lines(OpKind::Extend),
            release: lines(OpKind::Release),
        }
    }
}

impl Program {
    /// The lines of one operation.
    fn op_lines(&self, op: OpKind) -> &[Line] {
        match op {
            OpKind::Acquire => &self.acquire,
            OpKind::Extend => &self.extend,
            OpKind::Release => &self.release,
        }
    }

    /// Every line the client may send, clean-ups included.
    fn lines(&self) -> impl Iterator<Item = &Line> {
        self.acquire
            .iter()
            .chain(&self.extend)
            .chain(&self.release)
            .flat_map(|line| std::iter::once(line).chain(line.on_refusal.as_deref()))
    }
}

impl Line {
    fn resolve_step(spec: &LockSpec, client: ClientId, step: &OpStep) -> Line {
        let mut line = Line::resolve(spec, client, &step.call, step.success);
        line.on_refusal = step
            .on_refusal
            .as_ref()
            .map(|call| Box::new(Line::resolve(spec, client, call, Success::Always)));
        line
    }

    fn resolve(spec: &LockSpec, client: ClientId, call: &Call, success: Success) -> Line {
        match call {
            Call::Command(templates) => {
                let words: Vec<String> =
                    templates.iter().map(|t| t.resolve(spec, client)).collect();
                let line = words
                    .iter()
                    .map(|w| cli_word(w.as_bytes()))
                    .collect::<Vec<_>>()
                    .join(" ");
                Line {
                    short: line.clone(),
                    line,
                    exec: words.into_iter().map(String::into_bytes).collect(),
                    script: None,
                    success,
                    on_refusal: None,
                }
            }
            Call::Script {
                name,
                text,
                keys,
                args,
            } => {
                let mut tail = vec![keys.len().to_string()];
                tail.extend(keys.iter().map(|t| t.resolve(spec, client)));
                tail.extend(args.iter().map(|t| t.resolve(spec, client)));
                let shown = tail
                    .iter()
                    .map(|w| cli_word(w.as_bytes()))
                    .collect::<Vec<_>>()
                    .join(" ");
                // A script that does not compile is sent as EVAL, so the error reply is EVAL's.
                let mut exec = match sha_of(text) {
                    Some(sha) => vec![b"EVALSHA".to_vec(), sha.into_bytes()],
                    None => vec![b"EVAL".to_vec(), text.as_bytes().to_vec()],
                };
                exec.extend(tail.into_iter().map(String::into_bytes));
                Line {
                    line: format!("EVAL {} {shown}", cli_word(text.as_bytes())),
                    short: format!("EVAL <{name}> {shown}"),
                    exec,
                    script: Some(text.to_string()),
                    success,
                    on_refusal: None,
                }
            }
        }
    }
}

/// The SHA1 `SCRIPT LOAD` gives `text`, or `None` if it does not compile.
fn sha_of(text: &str) -> Option<String> {
    match Store::new().script_load(text) {
        Reply::Bulk(sha) => String::from_utf8(sha).ok(),
        _ => None,
    }
}

/// `bytes` as one redis-cli word: bare when that reads back the same, else double-quoted with
/// `\"`, `\\`, `\n`, `\r`, `\t` and `\xHH` escapes (which redis-cli turns back into the bytes).
pub fn cli_word(bytes: &[u8]) -> String {
    let bare = !bytes.is_empty()
        && bytes
            .iter()
            .all(|&b| b.is_ascii_graphic() && b != b'"' && b != b'\'' && b != b'\\');
    if bare {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    out.push('"');
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b' '..=b'~' => out.push(char::from(b)),
            other => out.push_str(&format!("\\x{other:02x}")),
        }
    }
    out.push('"');
    out
}

/// The `DEBUG SLEEP` argument that moves ministore's clock just past a lease of `ttl_ms`
/// (a key set `PX ttl` is gone once the clock is strictly past its deadline).
fn stall_seconds(ttl_ms: u64) -> String {
    for extra in 1..=3u64 {
        let ms = ttl_ms.saturating_add(extra);
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        let mut probe = Store::new();
        probe.exec(&["DEBUG", "SLEEP", text.as_str()]);
        if probe.now_ms() > ttl_ms {
            return text;
        }
    }
    format!("{}", ttl_ms / 1000 + 1)
}

/// The client whose token the lock key's value holds: a string containing it, a hash field or
/// value containing it (Redisson stores `<uuid>:<thread>` as a field), or a sorted-set member,
/// set member or list element containing it (Symfony's lock is a sorted set of tokens).
fn owner(lock: &Option<KeySnapshot>, programs: &[Program]) -> Option<usize> {
    let entry = lock.as_ref()?;
    let holds = |bytes: &[u8], token: &[u8]| {
        !token.is_empty() && bytes.windows(token.len()).any(|w| w == token)
    };
    programs.iter().position(|p| match &entry.value {
        ValueSnapshot::String(bytes) => holds(bytes, &p.token),
        ValueSnapshot::Hash(fields) => fields
            .iter()
            .any(|(f, v)| holds(f, &p.token) || holds(v, &p.token)),
        ValueSnapshot::ZSet(members) => members.iter().any(|(m, _)| holds(m, &p.token)),
        ValueSnapshot::Set(items) | ValueSnapshot::List(items) => {
            items.iter().any(|item| holds(item, &p.token))
        }
    })
}

/// Whether the key's lease is longer after than before (no expiry counts as forever).
fn lengthened(before: &Option<KeySnapshot>, after: &Option<KeySnapshot>) -> bool {
    match (before, after) {
        (Some(b), Some(a)) => match (b.ttl_ms, a.ttl_ms) {
            (Some(old), Some(new)) => new > old,
            (Some(_), None) => true,
            _ => false,
        },
        _ => false,
    }
}

/// The lock key around one client step, and whether the step wrote to it at all (a WATCH from
/// another connection saw it).
struct LockChange<'a> {
    before: &'a Option<KeySnapshot>,
    after: &'a Option<KeySnapshot>,
    written: bool,
}

/// Whose lock a step broke into, and what it did to it.
#[derive(Clone, Copy, Debug)]
struct Touch {
    owner: ClientId,
    how: TouchKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TouchKind {
    /// The key is gone.
    Removed,
    /// Its TTL is longer.
    Lengthened,
    /// Its value or TTL differ otherwise.
    Changed,
    /// Written to (a WATCH saw it) and left as it was: a lease reset to what it already was.
    Rewritten,
}

/// Ends a WATCH taken by `session` before a step: true when EXEC aborts, that is, when the step
/// wrote to the watched key. The session is closed either way, so the store keeps no watcher.
fn written_since_watch(store: &mut Store, session: &mut Session) -> bool {
    store.exec_in(session, &[b"MULTI".as_slice()]);
    let aborted = store.exec_in(session, &[b"EXEC".as_slice()]) == Reply::Nil;
    store.end_session(session);
    aborted
}

fn key_rows(snapshot: Vec<KeySnapshot>) -> Vec<KeyRow> {
    snapshot
        .into_iter()
        .map(|entry| KeyRow {
            key: String::from_utf8_lossy(&entry.key).into_owned(),
            value: entry.value,
            ttl_ms: entry.ttl_ms,
        })
        .collect()
}

/// Whether a connection is as a fresh one: database 0, no MULTI block, no WATCH.
fn plain(session: &Session) -> bool {
    session.db() == 0 && !session.in_multi() && !session.is_watching()
}

/// The bytes two states are equal by: the store's id (equal stores share one), every client's
/// connection, program counter and beliefs, and the stalls used.
fn state_key(state: &State) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 64 * state.clients.len());
    out.extend_from_slice(&state.store_id.to_le_bytes());
    for (c, session) in state.clients.iter().zip(&state.sessions) {
        // The connection's key, length first, written in place.
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        if !plain(session) {
            state.store.write_session_key(session, &mut out);
        }
        let len = (out.len() - at - 4) as u32;
        out[at..at + 4].copy_from_slice(&len.to_le_bytes());
        let mut put = |bytes: &[u8]| {
            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(bytes);
        };
        let phase = c.phase as u8;
        put(&[phase, c.attempt, c.line, u8::from(c.holds), c.generation]);
        match c.cleanup {
            None => put(b""),
            Some(Cleanup { op, attempt, line }) => put(&[op as u8 + 1, attempt, line]),
        }
        put(&c.lease_until.to_le_bytes());
        put(&c.attempt_started.to_le_bytes());
        put(&c.fence.map_or(i64::MIN, |f| f).to_le_bytes());
    }
    out.extend_from_slice(&[
        state.stalls,
        u8::from(state.last_was_stall),
        state.next_generation,
        state.newest_written,
    ]);
    out
}
