//! The report: each property's verdict, and the shortest schedule that broke it, run again
//! step by step with every command, reply and key shown.

use ministore::KeySnapshot;

use super::super::report::{
    CheckReport, Counterexample, PropertyReport, ScheduleStep, ScriptFault, Verdict,
};
use super::super::spec::{FencingSource, Property};
use super::{Action, Explorer, ROOT};
use crate::scenarios::lost_lock::KeyRow;

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

impl Explorer {
    /// The report so far (complete once [`super::Progress::done`]).
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
                 lapsed; only a fencing token the resource checks refuses its write, once a \
                 newer holder has written (#s3)"
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
    pub(super) fn replay(&self, at: u32, last: Action) -> Counterexample {
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
