//! What the explorer hands back: a [`CheckReport`] with one [`PropertyReport`] per property,
//! each broken one with its shortest [`Counterexample`] — the steps, the exact command lines in
//! redis-cli syntax, the replies, the clock and the keys after each step — and the rendering of
//! a counterexample as a replayable redis-cli script with `#` comments.

use ministore::cli::split_line;
use ministore::{Reply, Store};

use super::spec::{Bound, CHECKED_SCRIPT_STEP_BUDGET};
use super::spec::{ClientId, Property};
use crate::scenarios::cli_text;
use crate::scenarios::lost_lock::KeyRow;

/// What a step of a schedule does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepAction {
    /// A step of an acquire attempt (1-based attempt number).
    Acquire {
        /// Which attempt, from 1.
        attempt: u8,
    },
    /// The holder's write to the resource.
    Work,
    /// A step of the extend.
    Extend,
    /// A step of the release.
    Release,
    /// The clock moves on by a full lease: every lease taken so far lapses.
    Stall,
}

impl StepAction {
    /// The action's hook (`data-action`, CLI output).
    pub fn hook(self) -> &'static str {
        match self {
            StepAction::Acquire { .. } => "acquire",
            StepAction::Work => "work",
            StepAction::Extend => "extend",
            StepAction::Release => "release",
            StepAction::Stall => "stall",
        }
    }
}

/// One command a step sent and what the store answered.
#[derive(Clone, Debug, PartialEq)]
pub struct SentCommand {
    /// The line exactly as redis-cli takes it (a script's whole text quoted in the line).
    pub line: String,
    /// The figure's short form: a script shown by its file name (`EVAL <release.lua> 1 …`).
    pub short: String,
    /// The store's reply.
    pub reply: Reply,
}

/// One step of a counterexample.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleStep {
    /// Who acts; `None` for a stall.
    pub client: Option<ClientId>,
    /// What the step does.
    pub action: StepAction,
    /// The command sent (a stall is `DEBUG SLEEP <seconds>`, which moves ministore's clock).
    pub sent: SentCommand,
    /// The virtual clock after the step, in ms.
    pub clock_ms: u64,
    /// Every live key after the step.
    pub keys_after: Vec<KeyRow>,
    /// One sentence on what happened ("B takes the lock").
    pub note: String,
}

/// A schedule that breaks a property: the shortest one found (breadth-first).
#[derive(Clone, Debug, PartialEq)]
pub struct Counterexample {
    /// The steps, the breaking one last.
    pub steps: Vec<ScheduleStep>,
}

impl Counterexample {
    /// The command lines alone, in order. Each client has its own connection in the explorer;
    /// the lines replay on one connection to a fresh store to the same replies when
    /// [`Counterexample::replays_on_one_connection`] says so, as it does for every catalogue
    /// counterexample (the tests replay them all).
    pub fn lines(&self) -> Vec<String> {
        self.steps.iter().map(|s| s.sent.line.clone()).collect()
    }

    /// Whether the lines, sent in order on one connection to a fresh store (with the explorer's
    /// step budget for scripts), get the replies the clients got on their own connections.
    /// They do unless a client's WATCH or MULTI carries over to another's commands on one
    /// connection: two clients' WATCHes outstanding at once (one's EXEC or UNWATCH would end
    /// the other's), another's EXEC, UNWATCH or DISCARD while one watches, or a client whose
    /// operation ended inside MULTI; or unless a line relies on what only the explorer's store
    /// had (the scripts it loaded, for a pasted `EVALSHA`).
    pub fn replays_on_one_connection(&self) -> bool {
        let mut store = Store::new();
        store.set_step_budget(CHECKED_SCRIPT_STEP_BUDGET);
        self.steps.iter().all(|step| {
            split_line(&step.sent.line).is_ok_and(|words| store.exec(&words) == step.sent.reply)
        })
    }

    /// The counterexample as a redis-cli script: a `#` comment before each line says who does
    /// what (and, for a script, shows the line's short form), and one after it what the store
    /// answered.
    pub fn to_cli_script(&self) -> String {
        let mut out = String::new();
        if !self.replays_on_one_connection() {
            out.push_str(
                "# Each client sent on a connection of its own: on one connection these lines\n\
                 # answer otherwise (a client's WATCH or MULTI would carry over to another's\n\
                 # commands). Send each client's lines on its own redis-cli, in this order.\n",
            );
        }
        if self.steps.iter().any(|s| s.action == StepAction::Stall) {
            out.push_str(
                "# A stall is DEBUG SLEEP, which ministore takes as a jump of its clock. Redis 7\n\
                 # refuses DEBUG unless started with --enable-debug-command local (or yes), and\n\
                 # its DEBUG SLEEP pauses the whole server, as if every client stalled at once.\n",
            );
        }
        for (n, step) in self.steps.iter().enumerate() {
            out.push_str(&format!("# {}. {}\n", n + 1, step.note));
            if step.sent.short != step.sent.line {
                out.push_str(&format!("#    {}\n", step.sent.short));
            }
            out.push_str(&step.sent.line);
            out.push('\n');
            let reply = cli_text(&step.sent.reply).replace('\n', "\n#   ");
            out.push_str(&format!("#   -> {reply}   (clock {} ms)\n", step.clock_ms));
        }
        out
    }
}

/// Whether a property held in every schedule explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// No schedule broke it.
    Holds,
    /// Some schedule broke it; the report carries the shortest.
    Broken,
}

impl Verdict {
    /// `holds` or `broken`.
    pub fn hook(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Broken => "broken",
        }
    }
}

/// One property's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct PropertyReport {
    /// Which property.
    pub property: Property,
    /// Held or broken.
    pub verdict: Verdict,
    /// Schedules explored (complete runs of every client, through the deduplicated graph).
    pub schedules: u64,
    /// How many of them break the property.
    pub broken_schedules: u64,
    /// The shortest schedule that breaks it.
    pub counterexample: Option<Counterexample>,
    /// What the verdict means here, when that needs saying ("no fencing token").
    pub note: Option<String>,
}

/// A step of the lock itself that answered an error (a bad script), with the schedule that
/// reached it.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptFault {
    /// The error reply's text.
    pub error: String,
    /// The steps up to and including the failing one.
    pub schedule: Counterexample,
}

/// Everything the explorer found for one lock.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// The lock's id.
    pub lock_id: String,
    /// The lock's name.
    pub lock_name: String,
    /// The bound explored.
    pub bound: Bound,
    /// Distinct states reached.
    pub states: u64,
    /// Distinct schedules (paths through the deduplicated graph to every client's end).
    pub schedules: u64,
    /// False while exploring, or when the state cap ended exploration early.
    pub complete: bool,
    /// True when the state cap ended exploration: verdicts cover only what was explored.
    pub cap_reached: bool,
    /// One report per property, in [`Property::ALL`] order.
    pub properties: Vec<PropertyReport>,
    /// The first error a step of the lock answered, if any.
    pub script_error: Option<ScriptFault>,
}

impl PropertyReport {
    /// Why the property holds without being put to the test, when it does: the lock lacks the
    /// operation it judges ("the lock has no extend"). A note on a property that holds says
    /// nothing else.
    pub fn holds_only_because(&self) -> Option<&str> {
        (self.verdict == Verdict::Holds)
            .then_some(self.note.as_deref())
            .flatten()
    }
}

impl CheckReport {
    /// The report on `property`.
    pub fn property(&self, property: Property) -> &PropertyReport {
        // The list is built from Property::ALL, so the index is always in range.
        &self.properties[property.index()]
    }

    /// The verdict on `property`.
    pub fn verdict(&self, property: Property) -> Verdict {
        self.property(property).verdict
    }

    /// Whether a property whose breaking is the lock's own fault broke.
    pub fn fatal(&self) -> bool {
        self.properties
            .iter()
            .any(|p| p.property.fatal() && p.verdict == Verdict::Broken)
    }
}
