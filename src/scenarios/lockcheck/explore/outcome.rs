//! What one step did, kept for the checks and, in words, for the report.

use ministore::Reply;

use super::super::report::{SentCommand, StepAction};
use super::super::spec::ClientId;

/// What one step did.
pub(super) struct Outcome {
    pub(super) client: Option<ClientId>,
    pub(super) action: StepAction,
    pub(super) sent: SentCommand,
    /// Bit `p` set: the step broke property `p`.
    pub(super) broke: u8,
    /// The lock's own step answered an error.
    pub(super) fault: Option<String>,
    pub(super) note: Note,
    /// Another client's lock this step removed or changed (a release, or an acquire's clean-up)
    /// or lengthened or wrote (an extend).
    pub(super) touched: Option<Touch>,
}

/// What a step did, in words for the report (rendered only there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Note {
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
    pub(super) fn describe(&self) -> String {
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
            Note::CleansUp => format!("{name} sends its clean-up after the refused step"),
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
            TouchKind::Reset => format!(
                "{base} — and resets {owner}'s lease: value and TTL read as before here, where \
no time passes between steps, but the same step a millisecond later leaves {owner}'s lease \
ending later"
            ),
            TouchKind::ChangedLater => format!(
                "{base} — and rewrites {owner}'s lock: value and TTL read as before here, where \
no time passes between steps, but the same step a millisecond later changes them"
            ),
        }
    }

    pub(super) fn new(action: StepAction, sent: SentCommand) -> Outcome {
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

    pub(super) fn nothing(action: StepAction) -> Outcome {
        Outcome::new(
            action,
            SentCommand {
                line: String::new(),
                short: String::new(),
                reply: Reply::Nil,
            },
        )
    }

    pub(super) fn with_client(mut self, client: ClientId) -> Outcome {
        self.client = Some(client);
        self
    }

    pub(super) fn with_note(mut self, note: Note) -> Outcome {
        self.note = note;
        self
    }

    pub(super) fn with_fault_from_reply(mut self) -> Outcome {
        if let Reply::Error(text) = &self.sent.reply {
            self.fault = Some(text.clone());
        }
        self
    }
}

/// Whose lock a step broke into, and what it did to it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Touch {
    pub(super) owner: ClientId,
    pub(super) how: TouchKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TouchKind {
    /// The key is gone.
    Removed,
    /// Its TTL is longer.
    Lengthened,
    /// Its value or TTL differ otherwise.
    Changed,
    /// Written to (a WATCH saw it) and left as it was, where the same step a moment later
    /// leaves the lease ending later: a relative TTL reset to what the owner just took.
    Reset,
    /// Written to and left as it was, where the same step a moment later changes it otherwise.
    ChangedLater,
}
