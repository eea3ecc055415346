//! The lost-lock deletion of figure 1: A takes `resource:lock`, stalls past its lease, B takes the
//! same key, then A releases — blindly (`DEL`) or token-checked (the §2 script). [`LostLockOutcome`]
//! keeps what the store replied and held at every step; its verdicts are rendered from that record.

use ministore::{Reply, Store};

use super::{cli_text, command_line, count_in_words, integer_in, string_under, RELEASE_SCRIPT};

/// The key both clients lock.
pub const LOCK_KEY: &str = "resource:lock";
/// The lease each `SET … NX PX` asks for, in milliseconds.
pub const LEASE_MS: u64 = 10_000;
/// The token A acquires with.
pub const A_TOKEN: &str = "abc";
/// The token B acquires with.
pub const B_TOKEN: &str = "xyz";
/// The part of A's stall that its lease still covers (step 2).
const STALL_WITHIN_LEASE_MS: u64 = 7_500;
/// The rest of A's stall, which carries the virtual clock past the lease (step 3).
const STALL_PAST_LEASE_MS: u64 = 5_000;
/// The token of the client that tries the key after A's release, to see whether it is free.
const NEXT_TOKEN: &str = "next";

/// A client of the store in this scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Client {
    /// The holder that stalls past its lease.
    A,
    /// The successor that takes the key once A's lease lapses.
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

    /// The client whose token `value` is, if any.
    pub(crate) fn holding(value: &str) -> Option<Client> {
        [
            (Client::A, A_TOKEN),
            (Client::B, B_TOKEN),
            (Client::Next, NEXT_TOKEN),
        ]
        .into_iter()
        .find_map(|(client, token)| (token == value).then_some(client))
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

/// What one of the brief's five steps does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A client runs `SET resource:lock <token> NX PX <lease>`.
    Acquire,
    /// A keeps working while the clock runs on its lease.
    Stall,
    /// The clock passes the end of A's lease.
    LeaseExpires,
    /// A releases the lock with the chosen [`ReleaseChoice`].
    Release,
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

    /// `"xyz" (B's lock, 10000 ms left)`.
    pub fn describe(&self) -> String {
        let owner = self
            .owner
            .map_or_else(|| "nobody's".to_string(), |c| format!("{}'s", c.name()));
        match self.ttl_ms {
            Some(ms) => format!("\"{}\" ({owner} lock, {ms} ms left)", self.value),
            None => format!("\"{}\" ({owner} lock, no expiry)", self.value),
        }
    }
}

/// Describes the key's content, or `(nil)` for an absent key.
pub fn describe_key(holding: Option<&KeyHolding>) -> String {
    holding.map_or_else(|| "(nil)".to_string(), KeyHolding::describe)
}

/// One step of the run, as the store saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct LockStep {
    /// 1 to 5, the brief's numbering.
    pub number: u8,
    /// Who acts; `None` when only the clock moves.
    pub actor: Option<Client>,
    /// What the step does.
    pub kind: StepKind,
    /// The command line sent, if the step sends one.
    pub command: Option<String>,
    /// The store's reply to it.
    pub reply: Option<Reply>,
    /// The virtual clock after the step, in milliseconds.
    pub clock_ms: u64,
    /// What `resource:lock` holds after the step.
    pub key_after: Option<KeyHolding>,
}

impl LockStep {
    /// The step's title in the brief ("A acquires", "the lease expires", …).
    pub fn title(&self) -> String {
        let actor = self.actor.map_or("", Client::name);
        match self.kind {
            StepKind::Acquire => format!("{actor} acquires"),
            StepKind::Stall => format!("{actor} stalls"),
            StepKind::LeaseExpires => "the lease expires".to_string(),
            StepKind::Release => format!("{actor} releases"),
        }
    }

    /// The reply as redis-cli prints it, if the step sent a command.
    pub fn reply_text(&self) -> Option<String> {
        self.reply.as_ref().map(cli_text)
    }

    fn record(
        number: u8,
        actor: Option<Client>,
        kind: StepKind,
        sent: Option<(String, Reply)>,
        store: &Store,
    ) -> LockStep {
        let (command, reply) = sent.map_or((None, None), |(c, r)| (Some(c), Some(r)));
        LockStep {
            number,
            actor,
            kind,
            command,
            reply,
            clock_ms: store.now_ms(),
            key_after: KeyHolding::read(store),
        }
    }
}

/// Everything one run of the lost-lock scenario produced, and the verdicts rendered from it.
#[derive(Clone, Debug, PartialEq)]
pub struct LostLockOutcome {
    /// How A released.
    pub choice: ReleaseChoice,
    /// The brief's five steps, in order.
    pub steps: Vec<LockStep>,
    /// What `resource:lock` held just before A's release (what the token check reads).
    pub found_before_release: Option<KeyHolding>,
    /// What `resource:lock` holds after A's release.
    pub key_after: Option<KeyHolding>,
    /// The probe after the release: the next client's `SET … NX PX`, as sent.
    pub next_command: String,
    /// The store's reply to the probe: `OK` means the key was free for anyone.
    pub next_reply: Reply,
}

impl LostLockOutcome {
    /// Runs the scenario from an empty store with A releasing by `choice`.
    pub fn run(choice: ReleaseChoice) -> LostLockOutcome {
        let mut store = Store::new();
        let acquire = |store: &mut Store, token: &str| {
            let lease = LEASE_MS.to_string();
            let words = ["SET", LOCK_KEY, token, "NX", "PX", lease.as_str()];
            (command_line(&words), store.exec(&words))
        };
        let mut steps = Vec::with_capacity(5);
        let sent = acquire(&mut store, A_TOKEN);
        steps.push(LockStep::record(
            1,
            Some(Client::A),
            StepKind::Acquire,
            Some(sent),
            &store,
        ));
        store.advance(STALL_WITHIN_LEASE_MS);
        steps.push(LockStep::record(
            2,
            Some(Client::A),
            StepKind::Stall,
            None,
            &store,
        ));
        store.advance(STALL_PAST_LEASE_MS);
        steps.push(LockStep::record(
            3,
            None,
            StepKind::LeaseExpires,
            None,
            &store,
        ));
        let sent = acquire(&mut store, B_TOKEN);
        steps.push(LockStep::record(
            4,
            Some(Client::B),
            StepKind::Acquire,
            Some(sent),
            &store,
        ));
        let found_before_release = KeyHolding::read(&store);
        let sent = choice.release(&mut store);
        steps.push(LockStep::record(
            5,
            Some(Client::A),
            StepKind::Release,
            Some(sent),
            &store,
        ));
        let key_after = KeyHolding::read(&store);
        let (next_command, next_reply) = acquire(&mut store, NEXT_TOKEN);
        LostLockOutcome {
            choice,
            steps,
            found_before_release,
            key_after,
            next_command,
            next_reply,
        }
    }

    /// The step A releases in.
    pub fn release_step(&self) -> Option<&LockStep> {
        self.steps.iter().find(|s| s.kind == StepKind::Release)
    }

    /// The integer A's release returned (`DEL` counts deleted keys; the script returns 1 or 0).
    pub fn release_returned(&self) -> Option<i64> {
        self.release_step()
            .and_then(|s| s.reply.as_ref())
            .and_then(integer_in)
    }

    /// True when `client`'s `SET … NX` was answered `OK`.
    pub fn acquired(&self, client: Client) -> bool {
        self.steps.iter().any(|s| {
            s.kind == StepKind::Acquire && s.actor == Some(client) && s.reply == Some(Reply::ok())
        })
    }

    /// True when the key was gone by the time the lease had run out (step 3).
    pub fn lease_lapsed(&self) -> bool {
        self.steps
            .iter()
            .any(|s| s.kind == StepKind::LeaseExpires && s.key_after.is_none())
    }

    /// Whose lock A's release deleted: the key held a lock before and none after.
    pub fn deleted_lock_of(&self) -> Option<Client> {
        match (&self.found_before_release, &self.key_after) {
            (Some(before), None) => before.owner,
            _ => None,
        }
    }

    /// Who holds the lock at the end, going by the token under the key.
    pub fn holder_after(&self) -> Option<Client> {
        self.key_after.as_ref().and_then(|k| k.owner)
    }

    /// The clients that go on as lock holders after A's release: B, which acquired and never
    /// released, and the next client if the key let it in.
    pub fn proceeding(&self) -> Vec<Client> {
        let mut clients = Vec::new();
        if self.acquired(Client::B) {
            clients.push(Client::B);
        }
        if self.next_reply == Reply::ok() {
            clients.push(Client::Next);
        }
        clients
    }

    /// Mutual exclusion broke: more than one client now proceeds as the holder.
    pub fn exclusion_broken(&self) -> bool {
        self.proceeding().len() > 1
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

    /// The readout's evidence: A's command and reply, the key afterwards, the next client's try.
    pub fn evidence(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(step) = self.release_step() {
            let command = step.command.as_deref().unwrap_or_default();
            let reply = step.reply_text().unwrap_or_default();
            lines.push(format!("A> {command} → {reply}"));
        }
        lines.push(format!(
            "{LOCK_KEY} now: {}",
            describe_key(self.key_after.as_ref())
        ));
        lines.push(format!(
            "next> {} → {}",
            self.next_command,
            cli_text(&self.next_reply)
        ));
        lines
    }

    fn clauses(&self, live: bool) -> Vec<String> {
        let releaser = Client::A.name();
        let mut clauses = Vec::new();
        if self.choice == ReleaseChoice::TokenChecked {
            let found = self.found_before_release.as_ref().map(|k| k.value.as_str());
            let sign = if found == Some(A_TOKEN) { "=" } else { "≠" };
            let shown = found.map_or_else(|| "(nil)".to_string(), |v| format!("\"{v}\""));
            clauses.push(format!("{releaser} reads {shown} {sign} \"{A_TOKEN}\""));
            let returned = self.release_returned().map_or_else(
                || {
                    self.release_step()
                        .and_then(LockStep::reply_text)
                        .unwrap_or_default()
                },
                |n| n.to_string(),
            );
            let subject = if live {
                "the script returns"
            } else {
                "returns"
            };
            clauses.push(format!("{subject} {returned}"));
        }
        match self.deleted_lock_of() {
            Some(Client::A) => clauses.push(format!("{releaser} deletes its own lock")),
            Some(victim) => clauses.push(format!("{releaser} deletes {}'s lock", victim.name())),
            None => {}
        }
        if live && self.key_after.is_none() {
            clauses.push("the key is empty".to_string());
        }
        if self.exclusion_broken() {
            clauses.push(format!(
                "{} clients now proceed",
                count_in_words(self.proceeding().len())
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

/// The readout with nothing selected: the setup, then what to try, from both runs.
pub fn idle_readout(blind: &LostLockOutcome, checked: &LostLockOutcome) -> String {
    let stalled = if blind.lease_lapsed() {
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
        None if checked.key_after == checked.found_before_release => "no-op".to_string(),
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
