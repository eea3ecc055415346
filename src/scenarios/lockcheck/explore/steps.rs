//! A client's steps: each operation's lines sent in turn, their replies judged by the step's
//! success rule, and script calls on an equal store reused.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use ministore::{Reply, Session, Store};

use super::super::report::{SentCommand, StepAction};
use super::super::spec::{ClientId, FencingSource, OpKind, Property, Success};
use super::outcome::{Note, Outcome};
use super::program::{cli_word, Line};
use super::state::{owner, plain, Cleanup, Phase, State, StateHasher, StoreId};
use super::Explorer;
use crate::scenarios::fence::{DATA_KEY, FENCE_KEY};
use crate::scenarios::{integer_in, FENCED_WRITE_SCRIPT};

/// A client's script call's result by the store it ran on (its [`StoreId`]) and its words.
pub(super) type StepMemo =
    HashMap<(StoreId, Vec<Vec<u8>>), (Reply, Store), BuildHasherDefault<StateHasher>>;

/// How many step results the explorer keeps for reuse, each a store and a reply: about nine
/// times the distinct script calls (store, words) of any catalogue lock at the default bound (at
/// most 468; 576 distinct commands of any kind), a few MB at most. Past it, new calls simply run.
const STEP_MEMO_CAP: usize = 4_096;

/// Ends a WATCH taken by `session` before a step: true when EXEC aborts, that is, when the step
/// wrote to the watched key. The session is closed either way, so the store keeps no watcher.
pub(super) fn written_since_watch(store: &mut Store, session: &mut Session) -> bool {
    store.exec_in(session, &[b"MULTI".as_slice()]);
    let aborted = store.exec_in(session, &[b"EXEC".as_slice()]) == Reply::Nil;
    store.end_session(session);
    aborted
}

impl Explorer {
    /// Runs `words` on `store` as the client whose connection `session` is, or, when the same
    /// script call already ran on an equal store, puts that run's resulting store in place and
    /// returns its reply. A plain command runs each time: it costs less than keeping and finding
    /// its result. So does any call while a connection watches a key (the resulting store's
    /// WATCH lists are not in its key) or from a connection in a transaction or another database.
    pub(super) fn exec_remembered(
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
    pub(super) fn send(
        &self,
        next: &mut State,
        i: usize,
        line: &Line,
        record: bool,
    ) -> SentCommand {
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

    pub(super) fn acquire_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
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

    pub(super) fn work_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
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

    pub(super) fn extend_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
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
            c.phase = if program.releases_after_refused_extend {
                Phase::Release
            } else {
                Phase::Done
            };
            c.line = 0;
            Note::ExtendRefused
        };
        next.clients[i] = c;
        Outcome::new(StepAction::Extend, sent)
            .with_note(note)
            .with_fault_from_reply()
    }

    pub(super) fn release_step(&self, next: &mut State, i: usize, record: bool) -> Outcome {
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
    pub(super) fn cleanup_step(
        &self,
        next: &mut State,
        i: usize,
        cleanup: Cleanup,
        record: bool,
    ) -> Outcome {
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
}
