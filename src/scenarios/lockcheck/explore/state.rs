//! A state of the schedule graph and the bytes it is merged by: the store (by id), each
//! client's connection, program counter and beliefs, and the stalls used.

use std::hash::Hasher;

use ministore::{KeySnapshot, Session, Store, ValueSnapshot};

use super::super::spec::OpKind;
use super::program::{Line, Program};

/// Names one distinct store of a run: stores with equal [`Store::state_key`]s share an id, so a
/// state's key holds four bytes for its store instead of the store's whole key, and the many
/// states that share a store share its key once.
pub(super) type StoreId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Phase {
    Acquire,
    Work,
    Extend,
    Release,
    Done,
}

impl Phase {
    /// The operation a client in this phase is running, if it is running one.
    pub(super) fn op(self) -> Option<OpKind> {
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
pub(super) struct ClientState {
    pub(super) phase: Phase,
    pub(super) attempt: u8,
    pub(super) line: u8,
    /// Believes it holds the lock.
    pub(super) holds: bool,
    /// Its lease ends here by its own reckoning (virtual ms; valid while now ≤ this).
    pub(super) lease_until: u64,
    pub(super) attempt_started: u64,
    /// 1 for the first successful acquire of the schedule, 2 for the next…; 0 before.
    pub(super) generation: u8,
    pub(super) fence: Option<i64>,
    /// A refused step's [`Line::on_refusal`], still to be sent: the client's next step, whatever
    /// its program counter has moved on to.
    pub(super) cleanup: Option<Cleanup>,
}

/// Which refused step's clean-up a client still has to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Cleanup {
    pub(super) op: OpKind,
    /// The acquire attempt the refused step belonged to, from 1 (0 for extend and release).
    pub(super) attempt: u8,
    pub(super) line: u8,
}

impl Cleanup {
    /// The clean-up a client owes after sending `line` (line `at` of `op`): one when the reply
    /// did not pass and the step names one.
    pub(super) fn after(
        line: &Line,
        passes: bool,
        op: OpKind,
        attempt: u8,
        at: u8,
    ) -> Option<Cleanup> {
        (!passes && line.on_refusal.is_some()).then_some(Cleanup {
            op,
            attempt,
            line: at,
        })
    }
}

impl ClientState {
    /// Every finished client, whatever it did (see [`super::Explorer::apply`]).
    pub(super) const FINISHED: ClientState = ClientState {
        phase: Phase::Done,
        ..ClientState::START
    };

    pub(super) const START: ClientState = ClientState {
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
pub(super) struct State {
    pub(super) store: Store,
    /// Each client's own connection to `store`: its WATCH list and MULTI block.
    pub(super) sessions: Vec<Session>,
    pub(super) clients: Vec<ClientState>,
    pub(super) stalls: u8,
    pub(super) last_was_stall: bool,
    pub(super) next_generation: u8,
    pub(super) newest_written: u8,
    /// The lock key as it is in `store`.
    pub(super) lock: Option<KeySnapshot>,
    /// Which store `store` is, by its [`Store::state_key`] (every database's keys, values,
    /// encodings and leases, the clock, the random draws' state, the cached scripts): with the
    /// clients' connections (`sessions`), what decides what the locks' commands answer.
    pub(super) store_id: StoreId,
}

/// FxHash's multiply-rotate over 8-byte words: the state keys are our own bytes, so there is
/// no hash flooding to defend against, and SipHash was a tenth of the explorer's time.
#[derive(Default, Clone, Copy)]
pub(super) struct StateHasher(u64);

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
    pub(super) fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Whether a connection is as a fresh one: database 0, no MULTI block, no WATCH.
pub(super) fn plain(session: &Session) -> bool {
    session.db() == 0 && !session.in_multi() && !session.is_watching()
}

/// The bytes two states are equal by: the store's id (equal stores share one), every client's
/// connection, program counter and beliefs, and the stalls used; appended to `out`.
pub(super) fn write_state_key(state: &State, out: &mut Vec<u8>) {
    out.extend_from_slice(&state.store_id.to_le_bytes());
    for (c, session) in state.clients.iter().zip(&state.sessions) {
        // The connection's key, length first, written in place.
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        if !plain(session) {
            state.store.write_session_key(session, out);
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
}

/// The client whose token the lock key's value holds: a string containing it, a hash field or
/// value containing it (Redisson stores `<uuid>:<thread>` as a field), or a sorted-set member,
/// set member or list element containing it (Symfony's lock is a sorted set of tokens).
pub(super) fn owner(lock: &Option<KeySnapshot>, programs: &[Program]) -> Option<usize> {
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
pub(super) fn lengthened(before: &Option<KeySnapshot>, after: &Option<KeySnapshot>) -> bool {
    match (before, after) {
        (Some(b), Some(a)) => match (b.ttl_ms, a.ttl_ms) {
            (Some(old), Some(new)) => new > old,
            (Some(_), None) => true,
            _ => false,
        },
        _ => false,
    }
}
