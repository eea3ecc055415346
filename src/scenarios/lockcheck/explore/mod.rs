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
//! Steps that commute with every other (inside MULTI, an UNWATCH), where they cannot change
//! what the client believes, are taken first, so their other interleavings are not counted.
//! Many distinct states share one store and differ only in where the clients are; a client's
//! script call on an equal store runs once, and its resulting store and reply are reused
//! (outside a WATCH). Exploration runs in chunks
//! ([`Explorer::run`]) so a browser can show progress between frames, and stops at
//! [`MAX_STATES`] rather than hang.
//!
//! Time moves only in stalls, each a full lease: every lease taken before a stall has lapsed
//! after it, and no time passes between two clients' steps. So an extend that skips the token
//! check and resets another's lease to the length it was just taken with leaves value and TTL as
//! they were; a release or extend that may touch another's lock therefore runs under a WATCH from
//! a connection of the explorer's own. A write to that lock that leaves value and TTL as they
//! were is run again a millisecond later: it counts when that run leaves the lock otherwise (a
//! reset ends later, as on a real clock), and not when it puts back what the lock has on any
//! clock (`PEXPIREAT` to its deadline, `SET … KEEPTTL` of its value).
//!
//! This file holds the search (ranks, merging, which steps a state has, applying one and
//! checking what it did); beside it:
//! - `bucket`: the states of one rank, and the index they are merged by;
//! - `program`: each client's operations resolved into the lines it sends;
//! - `state`: a state and the bytes it is merged by;
//! - `steps`: each kind of client step, sent and judged, with script calls reused;
//! - `outcome`: what a step did, and its sentence in the report;
//! - `replay`: the report, each counterexample run again step by step.

mod bucket;
mod outcome;
mod program;
mod replay;
mod state;
mod steps;

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use ministore::{KeySnapshot, Reply, Session, Store};

use super::report::{CheckReport, SentCommand, StepAction};
use super::spec::{
    Bound, ClientId, FencingSource, LockSpec, OpKind, Property, SpecError,
    CHECKED_SCRIPT_STEP_BUDGET,
};
use crate::scenarios::FENCED_WRITE_SCRIPT;
use bucket::{key_hash, Bucket};
use outcome::{Note, Outcome, Touch, TouchKind};
use program::{sha_of, stall_seconds, Line, Program};
use state::{
    lengthened, owner, write_state_key, Cleanup, ClientState, Phase, State, StateHasher, StoreId,
};
use steps::{written_since_watch, StepMemo};

pub use program::cli_word;

/// Exploration stops after this many distinct states, with the report saying so.
pub const MAX_STATES: u64 = 500_000;

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Client(u8),
    Stall,
}

/// A state waiting to be expanded.
struct Pending {
    id: u32,
    state: State,
    paths: u64,
    broken: [u64; 5],
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
    /// The states of each progress rank.
    buckets: Vec<Bucket<Pending>>,
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
    /// Where [`Explorer::insert`] writes each state's key before looking it up.
    state_key_buffer: Vec<u8>,
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
            state_key_buffer: Vec::new(),
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
        explorer.buckets[0].push_root(root);
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
            // What the client sends after an operation left its connection inside MULTI is
            // queued, not run: its write would never reach the resource.
            let moved_on = next.clients[0].cleanup.is_none() && next.clients[0].phase.op() != op;
            if let Some(op) = op.filter(|_| moved_on && next.sessions[0].in_multi()) {
                return Err(SpecError::EndsInMulti { op });
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
                bucket.drop_index();
            }
            let Some(slot) = bucket.take(self.position) else {
                bucket.clear();
                self.rank += 1;
                self.position = 0;
                continue;
            };
            self.position += 1;
            if let Some(pending) = slot {
                self.expand(*pending);
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
        let key = &mut self.state_key_buffer;
        key.clear();
        write_state_key(&state, key);
        let hash = key_hash(key);
        let Some(bucket) = self.buckets.get_mut(rank) else {
            return;
        };
        match bucket.find(hash, key) {
            Some(at) => {
                if let Some(existing) = bucket.get_mut(at) {
                    existing.paths = existing.paths.saturating_add(paths);
                    for (total, add) in existing.broken.iter_mut().zip(broken) {
                        *total = total.saturating_add(add);
                    }
                    let meta = &mut self.meta[existing.id as usize];
                    if reached.depth < meta.depth {
                        *meta = reached;
                    }
                }
            }
            None => {
                let id = self.meta.len() as u32;
                self.meta.push(reached);
                bucket.add(
                    hash,
                    key,
                    Pending {
                        id,
                        state,
                        paths,
                        broken,
                    },
                );
            }
        }
    }

    /// The steps possible from `state`: each unfinished client's next step, and a stall. While
    /// a client's connection is inside MULTI, only that client acts: MULTI and the commands it
    /// queues answer OK and QUEUED and touch no key, and EXEC runs the queue against the store
    /// and WATCH lists as they are then, so another client's step or a stall between MULTI and
    /// EXEC leads to the same replies and store as the same step taken just before MULTI, which
    /// is explored. (Where that would put a stall right after another, the two are as one: the
    /// first has already let every lease lapse, which is why no schedule takes two in a row.)
    /// A step that could change what the client believes is the exception
    /// ([`Explorer::acts_alone`]).
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
    /// client's reply depends on. Only where the step cannot change what the client believes
    /// (when its attempt started, whether it holds, its lease, its generation) at a time another
    /// step would move: a clean-up; inside a MULTI block that did not start an acquire attempt
    /// or a release (whose first step sets those beliefs), `EXEC` or `DISCARD`, whose effect is
    /// the same with another's step before the `MULTI` as between; or a queued command or an
    /// `UNWATCH` whose sure reply (`QUEUED`, `OK`) passes its rule, on a line that neither
    /// starts an acquire attempt or a release nor ends its operation. A command ministore
    /// refuses to queue answers an error instead, which is a fault whatever the order.
    fn acts_alone(&self, state: &State, i: usize) -> bool {
        let c = &state.clients[i];
        let Some(line) = self.next_line(c, i) else {
            return false;
        };
        let is = |line: &Line, name: &[u8]| {
            line.exec
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case(name))
        };
        let in_multi = state.sessions[i].in_multi();
        if c.cleanup.is_some() {
            return in_multi || is(line, b"UNWATCH");
        }
        let Some(op) = c.phase.op() else {
            return false;
        };
        let lines = self.programs[i].op_lines(op);
        let sets_beliefs_first = op != OpKind::Extend;
        if sets_beliefs_first && c.line == 0 {
            return false;
        }
        if in_multi {
            let opened = lines[..usize::from(c.line).min(lines.len())]
                .iter()
                .rposition(|l| is(l, b"MULTI"));
            match opened {
                Some(0) if sets_beliefs_first => return false,
                None => return false,
                _ => {}
            }
            if is(line, b"EXEC") || is(line, b"DISCARD") {
                return true;
            }
        }
        let sure_reply = if in_multi && !is(line, b"MULTI") && !is(line, b"WATCH") {
            Reply::Status("QUEUED".into())
        } else if !in_multi && is(line, b"UNWATCH") {
            Reply::ok()
        } else {
            return false;
        };
        let ends = usize::from(c.line) + 1 >= lines.len();
        !ends && line.success.passes(&sure_reply, &self.programs[i].token)
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

    /// Runs one step from `state`: the new state, what the step did, and, with `record`,
    /// database 0's keys after it. With `record`, the outcome also carries the command lines as
    /// shown: the report needs both; exploring needs neither (the lines hold whole scripts).
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
        let watch_saw_write = watcher
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
        // Exploring needs only the lock key; a recorded step shows every key.
        let snapshot = if record {
            next.store.snapshot()
        } else {
            Vec::new()
        };
        next.lock = next.store.snapshot_key(0, &self.key);
        next.store_id = self.store_id(&next.store);
        if let Action::Client(i) = action {
            // A write that left the key as it was here is judged by what the same step does a
            // moment later, as it would on a real clock.
            let later = if watch_saw_write && state.lock == next.lock {
                self.a_moment_later(state, usize::from(i))
            } else {
                None
            };
            let change = LockChange {
                before: &state.lock,
                after: &next.lock,
                written: watch_saw_write && (state.lock != next.lock || later.is_some()),
                later,
            };
            self.check_lock_change(usize::from(i), change, &mut outcome);
        }
        if self.two_hold(&next) {
            outcome.broke |= 1 << Property::ExclusionWhileLeasesHold.index();
        }
        (next, outcome, snapshot)
    }

    /// A release or an acquire's clean-up that changed, or an extend (its clean-up included)
    /// that lengthened or wrote, a lock key holding another client's token.
    fn check_lock_change(&self, actor: usize, change: LockChange<'_>, outcome: &mut Outcome) {
        let LockChange {
            before,
            after,
            written,
            later,
        } = change;
        let Some(other) = owner(before, &self.programs).filter(|&o| o != actor) else {
            return;
        };
        let other = ClientId::ALL[other];
        let changed = before != after || written;
        let property = match outcome.action {
            StepAction::Release if changed => Property::NeverDeletesAnothers,
            StepAction::Extend if lengthened(before, after) || written => {
                Property::NeverExtendsAnothers
            }
            // An acquire's clean-up does not take the lock: like a release, it must leave
            // another's alone.
            StepAction::Acquire { .. } if changed && outcome.note == Note::CleansUp => {
                Property::NeverDeletesAnothers
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
                later.unwrap_or(TouchKind::ChangedLater)
            },
        });
    }

    /// What client `i`'s step from `state` does to the lock key when the clock has moved on a
    /// millisecond first, for a step that wrote to the key and left its value and TTL as they
    /// were: `Reset` when the owner's lease would end later (a relative TTL set to the length
    /// the owner just took: here no time passes between steps, on a real clock it does),
    /// `ChangedLater` for any other difference, `None` when the step leaves the key as it was on
    /// any clock (`PEXPIREAT` to the deadline it has, `SET … KEEPTTL` of the value it holds). A
    /// lease with no millisecond left would be gone a millisecond later, so nothing is compared:
    /// `None` (no step starts on one: a stall sleeps past every lease).
    fn a_moment_later(&self, state: &State, i: usize) -> Option<TouchKind> {
        let before = state.lock.as_ref()?;
        if before.ttl_ms == Some(0) {
            return None;
        }
        let mut later = state.clone();
        later.store.advance(1);
        self.client_step(&mut later, i, false);
        let after = later.store.snapshot_key(0, &self.key);
        // Deadlines counted from the step's instant here: the later run's TTL plus its moment.
        let deadline = |ttl: Option<u64>, at: u64| ttl.map(|ttl| ttl + at);
        match &after {
            Some(after) if after.value == before.value => {
                match (deadline(before.ttl_ms, 0), deadline(after.ttl_ms, 1)) {
                    (old, new) if old == new => None,
                    (Some(old), Some(new)) if new > old => Some(TouchKind::Reset),
                    (Some(_), None) => Some(TouchKind::Reset),
                    _ => Some(TouchKind::ChangedLater),
                }
            }
            _ => Some(TouchKind::ChangedLater),
        }
    }

    /// Whether client `i`'s next step is a release, an extend or a clean-up while another
    /// client's token is under the lock key: the only steps the first two properties judge.
    fn may_touch_anothers(&self, state: &State, i: usize) -> bool {
        let c = &state.clients[i];
        // A clean-up belongs to the operation whose step was refused, not to the phase the
        // client has moved on to; an acquire's is judged as a release is.
        let judged =
            c.cleanup.is_some() || matches!(c.phase.op(), Some(OpKind::Extend | OpKind::Release));
        judged && owner(&state.lock, &self.programs).is_some_and(|o| o != i)
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
}

/// Explores `spec` within `bound` to the end (or the state cap).
pub fn check(spec: &LockSpec, bound: Bound) -> Result<CheckReport, SpecError> {
    let mut explorer = Explorer::new(spec, bound)?;
    while !explorer.run(usize::MAX).done {}
    Ok(explorer.report())
}

/// The lock key around one client step, and whether the step wrote to it in a way some clock
/// shows (a WATCH from another connection saw a write, and the key differs after it, here or
/// when the same step runs a moment later).
struct LockChange<'a> {
    before: &'a Option<KeySnapshot>,
    after: &'a Option<KeySnapshot>,
    written: bool,
    /// For a write that left value and TTL as they were: what the same step does a moment later.
    later: Option<TouchKind>,
}
