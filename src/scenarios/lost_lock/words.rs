//! Every sentence the page says about a lost-lock run — step titles and times, the player's
//! notes, the hazard line, figure 1's verdicts, readouts and caveat — rendered from the run's
//! replies and key holdings, never typed in.

use super::{
    Client, Exclusion, KeyHolding, LockStep, LostLockOutcome, ReleaseChoice, StepKind, A_TOKEN,
    LOCK_KEY,
};
use crate::scenarios::{cli_text, count_in_words, still_stalled_until, time_span};

/// What a broken mutual exclusion means wherever the page says it.
pub const EXCLUSION_BROKEN_MEANS: &str = "two clients believe they hold the lock at once";
/// The same definition, told of a run that has happened.
pub const EXCLUSION_BROKE: &str = "two clients believed they held the lock at once";

/// `"xyz" (B's lock, 10000 ms left)`.
pub fn describe_holding(holding: &KeyHolding) -> String {
    let owner = possessive(holding);
    match holding.ttl_ms {
        Some(ms) => format!("\"{}\" ({owner} lock, {ms} ms left)", holding.value),
        None => format!("\"{}\" ({owner} lock, no expiry)", holding.value),
    }
}

/// `A's lock "abc"`: a lock as the store expires it, when no time is left on it to tell.
pub fn describe_expired(holding: &KeyHolding) -> String {
    format!("{} lock \"{}\"", possessive(holding), holding.value)
}

/// `A's`, or `nobody's` for a value no client set.
fn possessive(holding: &KeyHolding) -> String {
    holding
        .owner
        .map_or_else(|| "nobody's".to_string(), |c| format!("{}'s", c.name()))
}

/// Describes the key's content, or `(nil)` for an absent key.
pub fn describe_key(holding: Option<&KeyHolding>) -> String {
    holding.map_or_else(|| "(nil)".to_string(), describe_holding)
}

fn owner_name(holding: Option<&KeyHolding>) -> &'static str {
    holding
        .and_then(|h| h.owner)
        .map_or("someone", Client::name)
}

impl LockStep {
    /// The step's name as §1 gives it, or what the store made of it instead (`B tries` when B's
    /// `SET NX` was refused). Step 5 is named after the release before it: ask the run
    /// ([`LostLockOutcome::title_of`]); on its own it says what it does.
    pub fn title(&self) -> String {
        let actor = self.actor.map_or("", Client::name);
        let ok = self
            .reply
            .as_ref()
            .is_some_and(|r| *r == ministore::Reply::ok());
        match self.kind {
            StepKind::Acquire if ok => format!("{actor} acquires"),
            StepKind::Acquire => format!("{actor} tries"),
            StepKind::Stall => format!("{actor} stalls"),
            StepKind::Release => format!("{actor} releases"),
            StepKind::Aftermath => format!("{actor} tries"),
        }
    }

    /// `t = 12500 ms`, or `t = 0 → 12500 ms` for the stall.
    pub fn time_label(&self) -> String {
        time_span(self.started_ms, self.until_ms)
    }

    /// The reply as redis-cli prints it, if the step sent a command.
    pub fn reply_text(&self) -> Option<String> {
        self.reply.as_ref().map(cli_text)
    }
}

impl LostLockOutcome {
    /// Step 5's name: `wrong lock` when A's release removed another client's lock, `right lock`
    /// when it removed A's own, `B's lock stands` when it changed nothing.
    pub fn aftermath_title(&self) -> String {
        match (self.found_before_release(), self.deleted_lock_of()) {
            (_, Some(Client::A)) => "right lock".to_string(),
            (_, Some(_)) => "wrong lock".to_string(),
            (Some(held), None) => format!("{}'s lock stands", owner_name(Some(held))),
            (None, None) => "no lock to release".to_string(),
        }
    }

    /// What `client`'s lane says beside another client's `step` while `client` is stalled:
    /// `still stalled, until t = 12500 ms` when B takes the key inside A's stall.
    pub fn still_stalled(&self, client: Client, step: &LockStep) -> Option<String> {
        let stall = self.step_of(StepKind::Stall)?;
        let inside = stall.actor == Some(client)
            && step.actor != Some(client)
            && step.number > stall.number
            && step.clock_ms < stall.until_ms;
        inside.then(|| still_stalled_until(stall.until_ms))
    }

    /// Each step's name: [`LockStep::title`], with step 5 named by [`Self::aftermath_title`].
    pub fn title_of(&self, step: &LockStep) -> String {
        match step.kind {
            StepKind::Aftermath => self.aftermath_title(),
            _ => step.title(),
        }
    }

    /// What happened in `step`, in a sentence the player shows under the store.
    pub fn note(&self, step: &LockStep) -> String {
        let actor = step.actor.map_or("", Client::name);
        let ok = step.reply == Some(ministore::Reply::ok());
        match step.kind {
            StepKind::Acquire | StepKind::Aftermath if ok => {
                let believers: Vec<&str> = self
                    .believing_before(step)
                    .into_iter()
                    .map(Client::name)
                    .collect();
                let beside = if believers.is_empty() {
                    String::new()
                } else {
                    format!(
                        " — while {} still believes it holds the lock: {}",
                        believers.join(" and "),
                        EXCLUSION_BROKEN_MEANS
                    )
                };
                format!(
                    "The key was free: {actor} holds it with \"{}\" for {} ms{beside}.",
                    step.actor.map_or("", Client::token),
                    step.lock_pttl
                )
            }
            StepKind::Acquire | StepKind::Aftermath => format!(
                "SET NX refused: {}'s lock still stands with {} ms left.",
                owner_name(step.key_after.as_ref()),
                step.lock_pttl
            ),
            StepKind::Stall => match &step.expired {
                // The frame shows the store when B tries the key, which in a stall longer than
                // two leases is later than the expiry: the note says when each happened.
                Some(expiry) => format!(
                    "A is paused until t = {} ms. At t = {} ms, inside the stall, the store expired \
                     {}'s lock: PTTL {LOCK_KEY} is {} when B tries the key at t = {} ms.",
                    step.until_ms,
                    expiry.at_ms,
                    owner_name(Some(&expiry.lock)),
                    step.lock_pttl,
                    step.clock_ms
                ),
                None => format!(
                    "A is paused until t = {} ms; when it resumes, PTTL {LOCK_KEY} is {}.",
                    step.until_ms, step.lock_pttl
                ),
            },
            StepKind::Release => self.release_note(),
        }
    }

    /// The clients that believe they hold the lock just before `step`.
    fn believing_before(&self, step: &LockStep) -> Vec<Client> {
        let mut believing = Vec::new();
        for earlier in self.steps.iter().take_while(|s| s.number < step.number) {
            match (earlier.kind, earlier.actor) {
                (StepKind::Release, Some(c)) => believing.retain(|b| *b != c),
                (_, Some(c)) if earlier.reply == Some(ministore::Reply::ok()) => believing.push(c),
                _ => {}
            }
        }
        believing
    }

    /// A's release in a sentence: whose lock it deleted, or what the script compared.
    fn release_note(&self) -> String {
        let returned = self.returned_text();
        match (self.found_before_release(), self.deleted_lock_of()) {
            (_, Some(Client::A)) => format!("A deletes its own lock: the reply is {returned}."),
            (Some(_), Some(victim)) => format!(
                "A deletes {}'s lock: the key is empty while {} still believes it holds it.",
                victim.name(),
                victim.name()
            ),
            (Some(held), None) if self.choice == ReleaseChoice::TokenChecked => format!(
                "A reads \"{}\" {} \"{A_TOKEN}\", the script returns {returned}: A's release is a \
                 no-op, {}'s lock stands.",
                held.value,
                sign(&held.value),
                owner_name(Some(held))
            ),
            (Some(held), None) => format!("The key still holds \"{}\".", held.value),
            (None, _) => format!("There was no lock left to release; the reply is {returned}."),
        }
    }

    fn returned_text(&self) -> String {
        self.release_returned().map_or_else(
            || {
                self.release_step()
                    .and_then(LockStep::reply_text)
                    .unwrap_or_default()
            },
            |n| n.to_string(),
        )
    }

    /// The player's hazard line when two clients believed they held the lock at once.
    pub fn hazard(&self) -> Option<String> {
        let (at_ms, first, second) = self.two_believed()?;
        let lapsed = self.expiry().map_or_else(String::new, |e| {
            format!(
                "{}'s lease ran out while A was stalled (the store expired it at t = {} ms), and ",
                owner_name(Some(&e.lock)),
                e.at_ms
            )
        });
        let then = match (self.deleted_lock_of(), self.acquired(Client::Next)) {
            (Some(victim), true) if victim != Client::A => format!(
                " A's release then deleted {}'s lock, and the next client's SET NX got in too.",
                victim.name()
            ),
            (Some(victim), false) if victim != Client::A => {
                format!(" A's release then deleted {}'s lock.", victim.name())
            }
            _ => format!(" {}", self.release_note()),
        };
        let when = match self.expiry() {
            Some(e) if e.at_ms == at_ms => "in that millisecond".to_string(),
            _ => format!("at t = {at_ms} ms"),
        };
        Some(format!(
            "{lapsed}{when} {} acquired {LOCK_KEY} while {} still believed it held it: \
             {}.{then}",
            second.name(),
            first.name(),
            EXCLUSION_BROKE
        ))
    }

    /// The player's line when nobody's belief overlapped: what the store held when A resumed.
    pub fn no_hazard(&self) -> String {
        let resumed = self.step_of(StepKind::Stall);
        let at = resumed.map_or(0, |s| s.until_ms);
        let pttl = resumed.map_or(-2, |s| s.lock_pttl);
        let held = match pttl {
            0 => "still held A's lock with PTTL 0, the last millisecond of its lease".to_string(),
            n if n > 0 => format!("still held A's lock with PTTL {n}"),
            _ => "no longer held A's lock".to_string(),
        };
        let b = self
            .steps
            .iter()
            .find(|s| s.actor == Some(Client::B))
            .map_or_else(String::new, |s| {
                if s.reply == Some(ministore::Reply::ok()) {
                    ", and B's SET NX got the key".to_string()
                } else {
                    ", so B's SET NX was refused".to_string()
                }
            });
        format!(
            "When A resumed at t = {at} ms the store {held}{b}. {}",
            self.release_note()
        )
    }

    /// The static verdict: `blind DEL → A deletes B's lock, two clients now proceed, exclusion broken`.
    pub fn verdict(&self) -> String {
        format!(
            "{} → {}",
            self.choice.label(),
            self.clauses(false).join(", ")
        )
    }

    /// The live readout's sentence, which also says what the key and the script ended with.
    pub fn readout(&self) -> String {
        let mut sentence = self.clauses(true).join(", ");
        sentence.push('.');
        sentence
    }

    /// What the release does not fix, when two clients believed they held the lock at once
    /// before it ran; `None` when the release itself broke exclusion or nothing overlapped.
    pub fn caveat(&self) -> Option<String> {
        let (at_ms, first, second) = self.two_believed()?;
        if self.exclusion() == Exclusion::BrokenByRelease {
            return None;
        }
        // The overlap can last no time on the virtual clock: then say which came first.
        let same_moment = match self.release_step() {
            Some(release) if release.clock_ms == at_ms => format!(
                " (here in the same millisecond, {}'s SET first)",
                second.name()
            ),
            _ => String::new(),
        };
        Some(format!(
            "What it does not fix: {first} ran past its lease, and {second} took the lock at \
             t = {at_ms} ms. From {second}'s SET until {first}'s release{same_moment}, \
             {EXCLUSION_BROKE}: exclusion broke before the release ran. Had {first} written to \
             the resource after resuming and before releasing, nothing in the store would have \
             stopped it. A fencing \
             token checked by the resource refuses that write once {second} has written with its \
             newer fencing token:",
            first = first.name(),
            second = second.name(),
        ))
    }

    /// What the release does not fix, as the readout says it: the moment exclusion broke, and
    /// where the figure says the rest ([`Self::caveat`], under its static verdicts, which stay
    /// visible while the readout shows this). `None` whenever [`Self::caveat`] is.
    pub fn readout_caveat(&self) -> Option<String> {
        self.caveat()?;
        let (at_ms, first, second) = self.two_believed()?;
        Some(format!(
            "What it does not fix: {second} took the lock at t = {at_ms} ms, so \
             {EXCLUSION_BROKE} before {first}'s release ran. More under the static verdicts.",
            first = first.name(),
            second = second.name(),
        ))
    }

    /// The readout's evidence: A's command and reply, the key afterwards, the next client's try.
    pub fn evidence(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(step) = self.release_step() {
            let command = step.command.as_deref().unwrap_or_default();
            let reply = step.reply_text().unwrap_or_default();
            lines.push(format!("A> {command} → {reply}"));
            lines.push(format!(
                "{LOCK_KEY} now: {}",
                describe_key(step.key_after.as_ref())
            ));
        }
        if let Some(probe) = self.probe_step() {
            lines.push(format!(
                "next> {} → {}",
                probe.command.as_deref().unwrap_or_default(),
                probe.reply_text().unwrap_or_default()
            ));
        }
        lines
    }

    fn clauses(&self, live: bool) -> Vec<String> {
        let releaser = Client::A.name();
        let mut clauses = Vec::new();
        if self.choice == ReleaseChoice::TokenChecked {
            let found = self.found_before_release().map(|k| k.value.as_str());
            let shown = found.map_or_else(|| "(nil)".to_string(), |v| format!("\"{v}\""));
            let sign = found.map_or("≠", sign);
            clauses.push(format!("{releaser} reads {shown} {sign} \"{A_TOKEN}\""));
            let subject = if live {
                "the script returns"
            } else {
                "returns"
            };
            clauses.push(format!("{subject} {}", self.returned_text()));
            if live && self.key_after_release() == self.found_before_release() {
                clauses.push(format!("{releaser}'s release is a no-op"));
            }
        }
        match self.deleted_lock_of() {
            Some(Client::A) => clauses.push(format!("{releaser} deletes its own lock")),
            Some(victim) => clauses.push(format!("{releaser} deletes {}'s lock", victim.name())),
            None => {}
        }
        if live && self.key_after_release().is_none() {
            clauses.push("the key is empty".to_string());
        }
        let proceeding = self.proceeding();
        if proceeding.len() > 1 {
            clauses.push(format!(
                "{} clients now proceed",
                count_in_words(proceeding.len())
            ));
            clauses.push("exclusion broken".to_string());
        } else if let Some(holder) = self.holder_after() {
            clauses.push(format!("{}'s lock stands", holder.name()));
        } else {
            clauses.push("no client holds the lock".to_string());
        }
        clauses
    }
}

/// `=` when the stored value is A's token, `≠` otherwise.
fn sign(found: &str) -> &'static str {
    if found == A_TOKEN {
        "="
    } else {
        "≠"
    }
}

/// The readout with nothing selected: the setup, then what to try, from both runs.
pub fn idle_readout(blind: &LostLockOutcome, checked: &LostLockOutcome) -> String {
    let stalled = if blind.expiry().is_some() {
        "past"
    } else {
        "within"
    };
    let took = if blind.acquired(Client::B) {
        "took"
    } else {
        "could not take"
    };
    let blind_does = match blind.deleted_lock_of() {
        Some(Client::A) => "delete its own lock".to_string(),
        Some(victim) => format!("delete {}'s lock", victim.name()),
        None => "leave the key alone".to_string(),
    };
    let checked_does = match checked.deleted_lock_of() {
        None if checked.key_after_release() == checked.found_before_release() => {
            "no-op".to_string()
        }
        Some(victim) => format!("delete {}'s lock", victim.name()),
        None => "change the key".to_string(),
    };
    format!(
        "A stalled {stalled} its lease, B {took} the same key. Hover {} to watch A {blind_does}, \
         then the {} to watch A's release {checked_does}.",
        blind.choice.label(),
        checked.choice.label(),
    )
}
