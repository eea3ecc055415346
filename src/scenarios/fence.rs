//! The fenced write of figure 2: a resource whose store key holds the highest fencing token it has
//! accepted (34, put there by running the fenced-write script), and three writers whose writes are
//! each a what-if against that state. [`FenceOutcome`] is read from the store's replies.

use ministore::{KeySnapshot, Reply, Store};

use super::{cli_text, command_line, integer_in, FENCED_WRITE_SCRIPT};

/// The key holding the highest token the resource has accepted.
pub const FENCE_KEY: &str = "resource:fence";
/// The key holding the resource's data, which only an accepted write changes.
pub const DATA_KEY: &str = "resource:data";
/// The token of the write that set the fence up: the resource "has seen" it.
pub const SETUP_TOKEN: i64 = 34;

/// Where a writer stands in the sequence of lock grants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriterRole {
    /// Granted before the current holder, then paused past its lease.
    Paused,
    /// A holder the resource has since seen a newer grant write past (its lease lapsed).
    Stale,
    /// The current holder, whose write the resource has already accepted.
    Current,
    /// The next grant.
    Next,
}

impl WriterRole {
    /// The role's word in a writer's label.
    pub fn label(self) -> &'static str {
        match self {
            WriterRole::Paused => "paused",
            WriterRole::Stale => "stale",
            WriterRole::Current => "current",
            WriterRole::Next => "next",
        }
    }
}

/// A writer: the fencing token its lock grant gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Writer {
    /// The fencing token it presents with every write.
    pub token: i64,
    /// Its place in the grant sequence.
    pub role: WriterRole,
}

impl Writer {
    /// The figure's three writers, in token order.
    pub const ALL: [Writer; 3] = [
        Writer {
            token: SETUP_TOKEN - 1,
            role: WriterRole::Paused,
        },
        Writer {
            token: SETUP_TOKEN,
            role: WriterRole::Current,
        },
        Writer {
            token: SETUP_TOKEN + 1,
            role: WriterRole::Next,
        },
    ];

    /// The figure's writer holding `token`, if there is one.
    pub fn with_token(token: i64) -> Option<Writer> {
        Writer::ALL.into_iter().find(|w| w.token == token)
    }

    /// The value of the figure's `data-writer` hook.
    pub fn hook(self) -> String {
        self.token.to_string()
    }

    /// The writer's role against a resource that has seen `max_seen`: the brief's roles while
    /// it has seen the setup's 34; once a commit has moved the fence, the writer whose token it
    /// holds is the current one, a higher token the next, and a lower one stale (the brief's
    /// paused writer stays paused).
    pub fn role_against(self, max_seen: Option<i64>) -> WriterRole {
        match max_seen {
            Some(max) if self.token > max => WriterRole::Next,
            Some(max) if self.token == max => WriterRole::Current,
            Some(_) if self.role == WriterRole::Paused => WriterRole::Paused,
            Some(_) => WriterRole::Stale,
            None => self.role,
        }
    }

    /// `33 (paused)`: the token and its role against a resource that has seen `max_seen`.
    pub fn label(self, max_seen: Option<i64>) -> String {
        format!("{} ({})", self.token, self.role_against(max_seen).label())
    }

    /// The data this writer's write carries.
    fn payload(self) -> String {
        format!("payload-{}", self.token)
    }
}

/// Runs the fenced-write script for `token`; returns the command line as shown and the reply.
fn fenced_write(store: &mut Store, token: i64, payload: &str) -> (String, Reply) {
    let token = token.to_string();
    let command = command_line(&[
        "EVAL",
        "<fenced_write.lua>",
        "2",
        FENCE_KEY,
        DATA_KEY,
        &token,
        payload,
    ]);
    (
        command,
        store.eval(
            FENCED_WRITE_SCRIPT,
            &[FENCE_KEY, DATA_KEY],
            &[token.as_str(), payload],
        ),
    )
}

/// The highest token the resource has accepted, as `GET resource:fence` replies it.
fn max_seen(store: &mut Store) -> Option<i64> {
    integer_in(&store.exec(&["GET", FENCE_KEY]))
}

/// The state every what-if starts from: a fresh store in which the current holder's write
/// (token [`SETUP_TOKEN`]) went through the fence.
pub fn seen_state() -> Store {
    let mut store = Store::new();
    let current = Writer::ALL[1];
    let _setup_reply = fenced_write(&mut store, current.token, &current.payload());
    store
}

/// The token the resource has accepted in [`seen_state`], read back from the store.
pub fn max_seen_in_setup() -> Option<i64> {
    max_seen(&mut seen_state())
}

/// Tokens `tonumber` would read as numbers that the fenced-write script must refuse: a fencing
/// token is a plain decimal integer, so a stored "1e3" can never compare as 1000.
pub const NOT_PLAIN_INTEGERS: [&str; 5] = ["1e3", "0x22", " 34", "34.0", "1234567890123456"];

/// Each of [`NOT_PLAIN_INTEGERS`] written against the "seen 34" state: the token, the reply, and
/// whether the max seen was left as it was.
pub fn not_plain_integer_writes() -> Vec<(&'static str, Reply, bool)> {
    NOT_PLAIN_INTEGERS
        .into_iter()
        .map(|token| {
            let mut store = seen_state();
            let before = max_seen(&mut store);
            let reply = store.eval(
                FENCED_WRITE_SCRIPT,
                &[FENCE_KEY, DATA_KEY],
                &[token, "payload"],
            );
            (token, reply, max_seen(&mut store) == before)
        })
        .collect()
}

/// The figure's note on those writes, rendered from them: `"1e3" → (error) ERR …`.
pub fn not_plain_integer_note() -> String {
    let writes = not_plain_integer_writes();
    let replies: Vec<String> = writes
        .iter()
        .map(|(token, reply, _)| format!("\"{token}\" → {}", cli_text(reply)))
        .collect();
    let unchanged = writes
        .iter()
        .all(|(_, reply, kept)| reply.is_error() && *kept);
    let effect = if unchanged {
        "a write with any other token gets an error reply and leaves the max seen as it was"
    } else {
        "not every one of them is refused"
    };
    format!(
        "Only plain decimal integers of at most 15 digits are tokens; {effect}: {}.",
        replies.join(" · ")
    )
}

/// One writer's what-if against the "seen 34" state.
#[derive(Clone, Debug, PartialEq)]
pub struct FenceOutcome {
    /// The writer that tried.
    pub writer: Writer,
    /// The token it presented.
    pub token: i64,
    /// The highest token accepted before this write (`GET resource:fence`).
    pub max_seen_before: Option<i64>,
    /// The fence let the write through (the script did not reply an error).
    pub accepted: bool,
    /// The highest token accepted after this write.
    pub max_seen_after: Option<i64>,
    /// The `EVAL` as sent.
    pub command: String,
    /// The script's reply: the new max seen, or a `FENCED` error.
    pub reply: Reply,
    /// What `resource:data` holds afterwards.
    pub data_after: Option<String>,
}

impl FenceOutcome {
    /// Runs `writer`'s write against a fresh copy of the "seen 34" state.
    pub fn run(writer: Writer) -> FenceOutcome {
        FenceOutcome::run_against(&mut seen_state(), writer)
    }

    /// Runs `writer`'s write against `store`, which keeps whatever the script wrote.
    pub fn run_against(store: &mut Store, writer: Writer) -> FenceOutcome {
        let max_seen_before = max_seen(store);
        let (command, reply) = fenced_write(store, writer.token, &writer.payload());
        let max_seen_after = max_seen(store);
        let data_after = super::string_under(store, DATA_KEY).map(|(value, _)| value);
        FenceOutcome {
            writer,
            token: writer.token,
            max_seen_before,
            accepted: !reply.is_error(),
            max_seen_after,
            command,
            reply,
            data_after,
        }
    }

    /// All three writers' what-ifs, in token order.
    pub fn run_all() -> Vec<FenceOutcome> {
        Writer::ALL.into_iter().map(FenceOutcome::run).collect()
    }

    /// `33 < 34`, with the sign computed from the numbers (`≥` when they are equal, as the
    /// resource's rule is "at least the highest seen").
    pub fn comparison(&self) -> String {
        match self.max_seen_before {
            Some(max) if self.token < max => format!("{} < {max}", self.token),
            Some(max) if self.token == max => format!("{} ≥ {max}", self.token),
            Some(max) => format!("{} > {max}", self.token),
            None => format!("{}, no token seen yet", self.token),
        }
    }

    /// `accepted` or `rejected`.
    pub fn word(&self) -> &'static str {
        if self.accepted {
            "accepted"
        } else {
            "rejected"
        }
    }

    fn clauses(&self) -> Vec<String> {
        let mut clauses = vec![self.comparison(), self.word().to_string()];
        if self.max_seen_after != self.max_seen_before {
            if let Some(after) = self.max_seen_after {
                clauses.push(format!("max seen becomes {after}"));
            }
        }
        clauses
    }

    /// The static verdict: `35 (next) → 35 > 34, accepted, max seen becomes 35`.
    pub fn verdict(&self) -> String {
        format!(
            "{} → {}",
            self.writer.label(self.max_seen_before),
            self.clauses().join(", ")
        )
    }

    /// A line of the commit log: `token 35: 35 > 34, accepted, max seen becomes 35`.
    pub fn log_line(&self) -> String {
        format!("token {}: {}", self.token, self.clauses().join(", "))
    }

    /// The reply as redis-cli prints it.
    pub fn reply_text(&self) -> String {
        cli_text(&self.reply)
    }

    /// The live readout's sentence: `Writer 33 (paused): 33 < 34, rejected.`
    pub fn readout(&self) -> String {
        format!(
            "Writer {}: {}.",
            self.writer.label(self.max_seen_before),
            self.clauses().join(", ")
        )
    }

    /// The readout's evidence: the write and its reply, and what the resource holds afterwards.
    pub fn evidence(&self) -> Vec<String> {
        let data = self
            .data_after
            .as_deref()
            .map_or_else(|| "(nil)".to_string(), |d| format!("\"{d}\""));
        let max = self
            .max_seen_after
            .map_or_else(|| "(nil)".to_string(), |m| format!("\"{m}\""));
        vec![
            format!(
                "{}> {} → {}",
                self.token,
                self.command,
                cli_text(&self.reply)
            ),
            format!("{FENCE_KEY} now: {max} · {DATA_KEY} now: {data}"),
        ]
    }
}

/// The readout with nothing selected: the state every what-if starts from.
pub fn idle_readout(max_seen: Option<i64>) -> String {
    match max_seen {
        Some(max) => format!(
            "The resource has accepted token {max}. Hover a writer to read whether its token clears the fence."
        ),
        None => "The resource has accepted no token yet. Hover a writer to read whether its token clears the fence."
            .to_string(),
    }
}

/// The figure's caption, with the token the resource has seen read from the store.
pub fn caption(max_seen: Option<i64>) -> String {
    let seen = max_seen.map_or_else(|| "no token".to_string(), |m| format!("token {m}"));
    format!(
        "Run a fenced write — the resource has seen {seen}. Hover a writer to light its path and read \
         whether the write is accepted."
    )
}

/// The most committed writes the fence's log holds (on the page and in a link); a reset empties it.
pub const MAX_FENCE_COMMITS: usize = 32;

// The first wasm keeps every press for the lab that the log could take, and the latest after them.
const _: () = assert!(lockdive_contract::hooks::MAX_ASKED_COMMITS > MAX_FENCE_COMMITS);

/// A commit refused because the log already holds [`MAX_FENCE_COMMITS`] writes: nothing was sent
/// to the store. The limit is the figure's, not the fence's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogFull;

impl LogFull {
    /// Whether a log of `len` writes is full.
    pub fn at(len: usize) -> bool {
        len >= MAX_FENCE_COMMITS
    }

    /// The line under a full log: `This figure keeps at most 32 committed writes: reset to start
    /// again.`
    pub fn note() -> String {
        format!(
            "This figure keeps at most {MAX_FENCE_COMMITS} committed writes: reset to start again."
        )
    }

    /// The readout of a press refused: `This figure keeps at most 32 committed writes, so the
    /// write of writer 34 (stale) was not sent to the store. Reset to commit more.`, with the
    /// writer's label.
    pub fn refusal(writer_label: &str) -> String {
        format!(
            "This figure keeps at most {MAX_FENCE_COMMITS} committed writes, so the write of \
             writer {writer_label} was not sent to the store. Reset to commit more."
        )
    }
}

/// The fence as a learner has pushed it: "seen 34", then every committed write in order, each
/// run by the fenced-write script against the store the previous ones left; at most
/// [`MAX_FENCE_COMMITS`] of them.
#[derive(Clone)]
pub struct FenceLedger {
    store: Store,
    log: Vec<FenceOutcome>,
    /// What the committed store says now: the max seen and each writer's what-if, run when the
    /// store's state last changed.
    now: FenceNow,
    /// Every key of database 0 (the script's) when `now` was run, with its value and TTL: a
    /// commit that leaves them all as they were (a write the fence refused) leaves every what-if
    /// as it was.
    keys: Vec<KeySnapshot>,
}

/// The max seen and each writer's what-if against one state of the committed store.
#[derive(Clone)]
struct FenceNow {
    max_seen: Option<i64>,
    what_ifs: Vec<FenceOutcome>,
}

impl FenceNow {
    fn of(store: &Store) -> FenceNow {
        FenceNow {
            max_seen: max_seen(&mut store.clone()),
            what_ifs: Writer::ALL
                .into_iter()
                .map(|writer| FenceOutcome::run_against(&mut store.clone(), writer))
                .collect(),
        }
    }
}

impl Default for FenceLedger {
    fn default() -> Self {
        FenceLedger::new()
    }
}

impl FenceLedger {
    /// Nothing committed yet: the resource has seen 34.
    pub fn new() -> FenceLedger {
        let store = seen_state();
        FenceLedger {
            now: FenceNow::of(&store),
            keys: store.snapshot(),
            store,
            log: Vec::new(),
        }
    }

    /// Commits the writes of `tokens` in order; a token no writer holds is skipped, and so is
    /// every write past a full log.
    pub fn replay(tokens: &[i64]) -> FenceLedger {
        let mut ledger = FenceLedger::new();
        for writer in tokens.iter().filter_map(|t| Writer::with_token(*t)) {
            if ledger.commit(writer).is_err() {
                break;
            }
        }
        ledger
    }

    /// Whether the log holds [`MAX_FENCE_COMMITS`] writes, so that a commit is refused.
    pub fn is_full(&self) -> bool {
        LogFull::at(self.log.len())
    }

    /// Runs `writer`'s write against the committed store and keeps what it did; refused, with
    /// nothing run, once the log is full.
    pub fn commit(&mut self, writer: Writer) -> Result<&FenceOutcome, LogFull> {
        if self.is_full() {
            return Err(LogFull);
        }
        let outcome = FenceOutcome::run_against(&mut self.store, writer);
        self.log.push(outcome);
        let keys = self.store.snapshot();
        if keys != self.keys {
            self.now = FenceNow::of(&self.store);
            self.keys = keys;
        }
        Ok(&self.log[self.log.len() - 1])
    }

    /// `writer`'s write as a what-if against the committed store, which stays as it is.
    pub fn what_if(&self, writer: Writer) -> FenceOutcome {
        FenceOutcome::run_against(&mut self.store.clone(), writer)
    }

    /// The highest token accepted so far, as `GET resource:fence` replies it.
    pub fn max_seen(&self) -> Option<i64> {
        self.now.max_seen
    }

    /// Every committed write, oldest first.
    pub fn log(&self) -> &[FenceOutcome] {
        &self.log
    }

    /// What the figure renders from the ledger: the max seen, the log and each writer's what-if.
    pub fn board(&self) -> FenceBoard {
        FenceBoard {
            max_seen: self.now.max_seen,
            log: self.log.clone(),
            what_ifs: self.now.what_ifs.clone(),
        }
    }
}

/// A ledger's state as plain data the page can compare and render.
#[derive(Clone, Debug, PartialEq)]
pub struct FenceBoard {
    /// The highest token accepted so far.
    pub max_seen: Option<i64>,
    /// Every committed write, oldest first.
    pub log: Vec<FenceOutcome>,
    /// Each writer's what-if against the committed state, in token order.
    pub what_ifs: Vec<FenceOutcome>,
}

impl FenceBoard {
    /// The what-if of the writer holding `token`.
    pub fn what_if(&self, token: i64) -> Option<&FenceOutcome> {
        self.what_ifs.iter().find(|o| o.token == token)
    }
}
