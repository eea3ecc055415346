//! What a lock is to the checker: a [`LockSpec`] names the key every client locks, the lease it
//! asks for, each client's token, and the three operations — acquire, extend (optional) and
//! release — as [`Op`]s: a sequence of command lines or script calls, each one step the explorer
//! may interleave with the other clients' steps. Also the five [`Property`]s the explorer checks,
//! the [`Bound`] of how far it looks, and the [`SpecError`]s a lock built from input can give.

use std::fmt;
use std::sync::Arc;

use ministore::Reply;

/// A client of the store in a checked schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClientId {
    /// The first client.
    A,
    /// The second client.
    B,
    /// The third client: blind `DEL` breaks exclusion only when someone can take the key it
    /// wrongly freed.
    C,
}

impl ClientId {
    /// All clients, in order; a bound with two clients uses the first two.
    pub const ALL: [ClientId; 3] = [ClientId::A, ClientId::B, ClientId::C];

    /// How the page and the CLI name the client ("A").
    pub fn name(self) -> &'static str {
        match self {
            ClientId::A => "A",
            ClientId::B => "B",
            ClientId::C => "C",
        }
    }

    /// The client's lowercase letter, the `{client}` placeholder's value.
    pub fn letter(self) -> &'static str {
        match self {
            ClientId::A => "a",
            ClientId::B => "b",
            ClientId::C => "c",
        }
    }

    /// 0, 1 or 2.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One of the five properties the explorer checks after every step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// Neither a release by one client nor a clean-up after its refused acquire step removes
    /// or changes a lock key holding another's token.
    NeverDeletesAnothers,
    /// Neither an extend by one client nor its clean-up lengthens, resets, changes or deletes a
    /// lock key another client owns. A reset leaves value and TTL as they were on the explorer's
    /// clock, where no time passes between steps, but run a millisecond later it ends the
    /// owner's lease later, as it would on a real clock.
    NeverExtendsAnothers,
    /// Two clients never both believe they hold the lock while both leases hold by their own
    /// reckoning.
    ExclusionWhileLeasesHold,
    /// A client never acts as holder after its lease lapsed while another holds the key. Every
    /// lease-based lock breaks it; only a fence at the resource (§3) makes it harmless.
    ExclusionAcrossStall,
    /// The resource never accepts a write from an older holder after a newer holder wrote.
    FencedWrites,
}

impl Property {
    /// Every property, in report order.
    pub const ALL: [Property; 5] = [
        Property::NeverDeletesAnothers,
        Property::NeverExtendsAnothers,
        Property::ExclusionWhileLeasesHold,
        Property::ExclusionAcrossStall,
        Property::FencedWrites,
    ];

    /// The property's stable hook (`data-property`, CLI output).
    pub fn hook(self) -> &'static str {
        match self {
            Property::NeverDeletesAnothers => "never-deletes-anothers",
            Property::NeverExtendsAnothers => "never-extends-anothers",
            Property::ExclusionWhileLeasesHold => "exclusion-while-leases-hold",
            Property::ExclusionAcrossStall => "exclusion-across-stall",
            Property::FencedWrites => "fenced-writes",
        }
    }

    /// One line saying what the property asks.
    pub fn label(self) -> &'static str {
        match self {
            Property::NeverDeletesAnothers => {
                "no release or acquire clean-up deletes or changes another client's lock"
            }
            Property::NeverExtendsAnothers => {
                "an extend never lengthens, resets, changes or deletes another client's lock"
            }
            Property::ExclusionWhileLeasesHold => {
                "no two clients hold the lock while both leases hold"
            }
            Property::ExclusionAcrossStall => {
                "no client acts as holder after a stall let another take the lock"
            }
            Property::FencedWrites => "the resource refuses a write from an older holder",
        }
    }

    /// Whether breaking it is the lock's own fault (the CLI exits 1). The stall and fence
    /// properties are about leases as such and are reported, never fatal.
    pub fn fatal(self) -> bool {
        matches!(
            self,
            Property::NeverDeletesAnothers
                | Property::NeverExtendsAnothers
                | Property::ExclusionWhileLeasesHold
        )
    }

    /// 0 to 4, the position in [`Property::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Which operation of a lock something belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// Taking the lock.
    Acquire,
    /// Lengthening the lease while holding.
    Extend,
    /// Giving the lock back.
    Release,
}

impl OpKind {
    /// The operation's name ("acquire").
    pub fn name(self) -> &'static str {
        match self {
            OpKind::Acquire => "acquire",
            OpKind::Extend => "extend",
            OpKind::Release => "release",
        }
    }
}

/// One piece of a [`Template`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text sent as it is.
    Literal(String),
    /// `{key}`: the lock's key.
    Key,
    /// `{token}`: the client's token.
    Token,
    /// `{ttl_ms}`: the lease in milliseconds.
    TtlMs,
    /// `{ttl_s}`: the lease in whole seconds, rounded up.
    TtlS,
    /// `{client}`: the client's lowercase letter (`a`, `b`, `c`), for per-client names.
    Client,
}

/// One command word with placeholders, resolved per client. `{{` and `}}` stand for literal
/// braces (Redisson's channel is `redisson_lock__channel:{{{key}}}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// The pieces, in order.
    pub pieces: Vec<Piece>,
}

/// The placeholders a template may use, as the error message lists them.
pub const PLACEHOLDERS: &str = "{key}, {token}, {ttl_ms}, {ttl_s}, {client}";

impl Template {
    /// Parses one word; an unknown or unclosed placeholder is an error naming it.
    pub fn parse(word: &str) -> Result<Template, TemplateError> {
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut rest = word;
        while let Some(c) = rest.chars().next() {
            if let Some(after) = rest.strip_prefix("{{") {
                literal.push('{');
                rest = after;
            } else if let Some(after) = rest.strip_prefix("}}") {
                literal.push('}');
                rest = after;
            } else if c == '{' {
                let close = rest.find('}').ok_or(TemplateError::Unclosed)?;
                let piece = match &rest[1..close] {
                    "key" => Piece::Key,
                    "token" => Piece::Token,
                    "ttl_ms" => Piece::TtlMs,
                    "ttl_s" => Piece::TtlS,
                    "client" => Piece::Client,
                    other => return Err(TemplateError::Unknown(format!("{{{other}}}"))),
                };
                if !literal.is_empty() {
                    pieces.push(Piece::Literal(std::mem::take(&mut literal)));
                }
                pieces.push(piece);
                rest = &rest[close + 1..];
            } else {
                literal.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        if !literal.is_empty() || pieces.is_empty() {
            pieces.push(Piece::Literal(literal));
        }
        Ok(Template { pieces })
    }

    /// A template with no placeholders.
    pub fn literal(text: &str) -> Template {
        Template {
            pieces: vec![Piece::Literal(text.to_string())],
        }
    }

    /// The word for one client of `spec`.
    pub fn resolve(&self, spec: &LockSpec, client: ClientId) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Literal(text) => out.push_str(text),
                Piece::Key => out.push_str(&spec.key),
                Piece::Token => out.push_str(spec.token(client)),
                Piece::TtlMs => out.push_str(&spec.ttl_ms.to_string()),
                Piece::TtlS => out.push_str(&spec.ttl_ms.div_ceil(1000).to_string()),
                Piece::Client => out.push_str(client.letter()),
            }
        }
        out
    }
}

/// Why a template word did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateError {
    /// A `{` with no `}` after it.
    Unclosed,
    /// A placeholder the checker does not know, as written (`{owner}`).
    Unknown(String),
}

/// How a step's reply is read: does the operation go on (and, at its last step, succeed)?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Success {
    /// The status reply `OK` (`SET … NX` took the key).
    Ok,
    /// A nil reply (Redisson's lock script answers nil when it took the lock).
    Nil,
    /// The integer 0 (python-redis-lock's extend answers 0 when it extended, 1 or 2 when not).
    Zero,
    /// Any reply that is not an error, nil, integer 0, or the string `0`; an array counts when
    /// it is non-empty and every element counts. The rule for the learner's own scripts.
    Truthy,
    /// A string equal to the client's token: a client-side compare after `GET`.
    EqualsToken,
    /// `EXEC` ran the transaction: an array, not the nil a spoiled `WATCH` gives.
    Committed,
    /// Any reply at all (a release goes on whatever it hears).
    Always,
}

impl Success {
    /// Whether `reply` passes the rule for a client whose token is `token`.
    pub fn passes(self, reply: &Reply, token: &[u8]) -> bool {
        match self {
            Success::Ok => matches!(reply, Reply::Status(s) if s == "OK"),
            Success::Nil => matches!(reply, Reply::Nil),
            Success::Zero => matches!(reply, Reply::Integer(0)),
            Success::Truthy => truthy(reply),
            Success::EqualsToken => matches!(reply, Reply::Bulk(b) if b == token),
            Success::Committed => matches!(reply, Reply::Array(_)),
            Success::Always => true,
        }
    }
}

fn truthy(reply: &Reply) -> bool {
    match reply {
        Reply::Error(_) | Reply::Nil => false,
        Reply::Integer(n) => *n != 0,
        Reply::Bulk(bytes) => bytes.as_slice() != b"0",
        Reply::Status(_) => true,
        Reply::Bool(b) => *b,
        Reply::Array(items) => !items.is_empty() && items.iter().all(truthy),
        _ => true,
    }
}

/// What one step of an operation sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// A command line, one template per word.
    Command(Vec<Template>),
    /// `EVAL` of a script with the given keys and arguments.
    Script {
        /// The short name the figure shows (`release.lua`).
        name: String,
        /// The script's exact text.
        text: Arc<str>,
        /// KEYS.
        keys: Vec<Template>,
        /// ARGV.
        args: Vec<Template>,
    },
}

/// One step of an operation: what it sends and when the operation goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpStep {
    /// What the step sends.
    pub call: Call,
    /// The operation goes on past this step only if the reply passes; at the last step, passing
    /// means the operation succeeded.
    pub success: Success,
    /// What the client sends next when the reply does not pass, before the operation ends or
    /// tries again: StackExchange.Redis's `UNWATCH` after a compare that failed. It is a step of
    /// its own, so another client may act first. Never on an operation's last step, whose
    /// refusal is the operation's outcome.
    pub on_refusal: Option<Call>,
}

/// An operation: its steps, sent one at a time (another client may act between two of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    /// The steps, in order; never empty.
    pub steps: Vec<OpStep>,
}

/// A lock's extend: the operation, and what the client does once it is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extend {
    /// Lengthening the lease.
    pub op: Op,
    /// What the client does after the extend was refused.
    pub after_refusal: AfterRefusedExtend,
}

impl Extend {
    /// `op` as an extend after whose refusal the client runs its release.
    pub fn then_releases(op: Op) -> Extend {
        Extend {
            op,
            after_refusal: AfterRefusedExtend::Releases,
        }
    }

    /// `op` as an extend after whose refusal the client sends nothing more.
    pub fn then_sends_nothing(op: Op) -> Extend {
        Extend {
            op,
            after_refusal: AfterRefusedExtend::SendsNothing,
        }
    }
}

/// What a client does after its extend was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterRefusedExtend {
    /// It runs its release, as a library's `finally` block or context manager does.
    Releases,
    /// It sends nothing more: ShedLock marks a lock whose extend failed as used up, and its
    /// unlock then throws before any command reaches Redis.
    SendsNothing,
}

impl Op {
    /// One command line (words separated by spaces, each a template).
    pub fn command(line: &str, success: Success) -> Op {
        Op {
            steps: vec![OpStep {
                call: Call::Command(words(line)),
                success,
                on_refusal: None,
            }],
        }
    }

    /// One `EVAL` of a script with keys and arguments given as templates.
    pub fn script(name: &str, text: &str, keys: &[&str], args: &[&str], success: Success) -> Op {
        Op {
            steps: vec![OpStep {
                call: Call::Script {
                    name: name.to_string(),
                    text: Arc::from(text),
                    keys: keys.iter().map(|k| parse_known(k)).collect(),
                    args: args.iter().map(|a| parse_known(a)).collect(),
                },
                success,
                on_refusal: None,
            }],
        }
    }

    /// This operation with `line` (words separated by spaces, each a template) sent when its last
    /// step so far is refused (see [`OpStep::on_refusal`]).
    pub fn on_refusal(mut self, line: &str) -> Op {
        if let Some(step) = self.steps.last_mut() {
            step.on_refusal = Some(Call::Command(words(line)));
        }
        self
    }

    /// This operation followed by `next`'s steps.
    pub fn then(mut self, next: Op) -> Op {
        self.steps.extend(next.steps);
        self
    }
}

/// Templates the page itself writes: a typo there is a bug, shown as the literal text.
fn parse_known(word: &str) -> Template {
    Template::parse(word).unwrap_or_else(|_| Template::literal(word))
}

fn words(line: &str) -> Vec<Template> {
    line.split_whitespace().map(parse_known).collect()
}

/// Where a lock's fencing token comes from, if it hands one out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FencingSource {
    /// No fencing token: the resource cannot tell one writer from another.
    None,
    /// The acquire's reply is the token (an integer that grows with every acquire).
    AcquireReply,
}

/// Where a catalogue lock's scripts come from, as the figure credits them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The library and version ("go-redsync v4").
    pub library: &'static str,
    /// The repository ("github.com/go-redsync/redsync").
    pub repository: &'static str,
    /// The source file(s) the scripts or commands were read from.
    pub source_file: &'static str,
    /// The commit the text was read at.
    pub snapshot_commit: &'static str,
    /// The licence (SPDX identifier).
    pub licence: &'static str,
    /// The repository's licence file, and its notice file where it has one, as paths in the
    /// repository at [`Provenance::snapshot_commit`].
    pub licence_files: &'static [&'static str],
    /// Where this repository keeps the scripts, or the case file of the commands.
    pub local_copy: &'static str,
}

/// A lock as the checker runs it.
#[derive(Clone, Debug, PartialEq)]
pub struct LockSpec {
    /// The catalogue id (`token-checked`), or `custom` for a lock built from input.
    pub id: String,
    /// A name for people ("token-checked release").
    pub name: String,
    /// The key every client locks.
    pub key: String,
    /// The lease each client asks for, in ms; a stall moves the clock just past it.
    pub ttl_ms: u64,
    /// Each client's token (or Redisson's hash field), A's first; distinct, none inside another.
    pub tokens: [String; 3],
    /// Taking the lock.
    pub acquire: Op,
    /// Lengthening the lease, if the lock has it.
    pub extend: Option<Extend>,
    /// Giving the lock back.
    pub release: Op,
    /// Whether acquiring hands out a fencing token.
    pub fencing: FencingSource,
    /// Where the scripts or commands come from (catalogue entries taken from a library).
    pub provenance: Option<Provenance>,
    /// One line on any modelling choice ("BullMQ takes the lock inside moveToActive…").
    pub note: Option<String>,
}

/// The interpreter steps one script may take: ten times what every catalogue script fits in
/// (1,000), low enough that a runaway script costs well under a millisecond a call (the explorer
/// may call it once per state).
pub const CHECKED_SCRIPT_STEP_BUDGET: u64 = 10_000;

/// The most steps one operation may have (one command line or script call each).
pub const MAX_OP_STEPS: usize = 16;

/// The longest lease a lock may ask for: a day, in ms.
pub const MAX_TTL_MS: u64 = 86_400_000;

/// What is said of a lease outside 1 ms to [`MAX_TTL_MS`], given as `given` (a number that may
/// not fit a `u64`, or be negative, as typed).
pub fn lease_out_of_range(given: &str) -> String {
    format!("the lease must be 1 to {MAX_TTL_MS} ms, not {given}")
}

impl LockSpec {
    /// Checks what the explorer relies on: the lease, each operation's length, the tokens.
    pub fn validate(&self) -> Result<(), SpecError> {
        if self.ttl_ms == 0 || self.ttl_ms > MAX_TTL_MS {
            return Err(SpecError::BadTtl(self.ttl_ms));
        }
        for kind in [OpKind::Acquire, OpKind::Extend, OpKind::Release] {
            if let Some(op) = self.op(kind) {
                let steps = op.steps.len();
                if steps == 0 || steps > MAX_OP_STEPS {
                    return Err(SpecError::BadOpLength { op: kind, steps });
                }
                let wordless =
                    |step: &OpStep| matches!(&step.call, Call::Command(w) if w.is_empty());
                if op.steps.iter().any(wordless) {
                    return Err(SpecError::Empty { op: kind });
                }
                if op
                    .steps
                    .last()
                    .is_some_and(|step| step.on_refusal.is_some())
                {
                    return Err(SpecError::RefusalStepLast { op: kind });
                }
            }
        }
        let tokens = &self.tokens;
        for (i, a) in tokens.iter().enumerate() {
            for (j, b) in tokens.iter().enumerate() {
                if a.is_empty() || (i != j && b.contains(a.as_str())) {
                    return Err(SpecError::BadTokens);
                }
            }
        }
        Ok(())
    }

    /// The token `client` locks with.
    pub fn token(&self, client: ClientId) -> &str {
        &self.tokens[client.index()]
    }

    /// The operation of kind `kind`, if the lock has one.
    pub fn op(&self, kind: OpKind) -> Option<&Op> {
        match kind {
            OpKind::Acquire => Some(&self.acquire),
            OpKind::Extend => self.extend.as_ref().map(|extend| &extend.op),
            OpKind::Release => Some(&self.release),
        }
    }
}

/// Why a lock could not be checked as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// An operation's text is empty.
    Empty {
        /// Which operation.
        op: OpKind,
    },
    /// A command line has an unknown placeholder.
    UnknownPlaceholder {
        /// Which operation.
        op: OpKind,
        /// 1-based line.
        line: usize,
        /// The placeholder as written.
        placeholder: String,
    },
    /// A `{` without its `}`.
    UnclosedPlaceholder {
        /// Which operation.
        op: OpKind,
        /// 1-based line.
        line: usize,
    },
    /// A command line's quotes do not balance (redis-cli would say "Invalid argument(s)").
    UnbalancedQuotes {
        /// Which operation.
        op: OpKind,
        /// 1-based line.
        line: usize,
    },
    /// A command the checker does not send for a lock: SELECT (the checks read database 0),
    /// HELLO (it switches the connection's protocol), RESET and QUIT (the connection is the client's),
    /// the subscribe commands and MONITOR (the connection would answer no lock commands), and
    /// DEBUG, whose SLEEP moves the clock only the checker's stalls move.
    UnsupportedCommand {
        /// Which operation.
        op: OpKind,
        /// 1-based line.
        line: usize,
        /// The command as written.
        command: String,
    },
    /// A command line's `==` is not followed by `{token}` alone: the client can compare a reply
    /// with its own token, nothing else.
    BadCompare {
        /// Which operation.
        op: OpKind,
        /// 1-based line.
        line: usize,
    },
    /// A command line's `else` has no command after it, or no command before it.
    BadElse {
        /// Which operation.
        op: OpKind,
        /// 1-based line.
        line: usize,
    },
    /// A script that does not compile: ministore's `SCRIPT LOAD` error reply.
    ScriptCompile {
        /// Which operation.
        op: OpKind,
        /// The error reply's text.
        error: String,
    },
    /// A step answered an error when one client ran the lock alone (or a script ran past its
    /// step budget).
    ScriptFailed {
        /// Which operation.
        op: OpKind,
        /// The command line, as sent.
        command: String,
        /// The error reply's text.
        error: String,
    },
    /// The lease must be between 1 ms and a day.
    BadTtl(u64),
    /// An operation with no steps, or more than [`MAX_OP_STEPS`].
    BadOpLength {
        /// Which operation.
        op: OpKind,
        /// How many steps it has.
        steps: usize,
    },
    /// An operation's last step has something to send when it is refused: that refusal is the
    /// operation's outcome, and anything sent after it belongs to no step.
    RefusalStepLast {
        /// Which operation.
        op: OpKind,
    },
    /// An operation ends with its connection inside MULTI (no EXEC or DISCARD after it, or a
    /// refused step before them) when one client runs the lock alone: what the client sends
    /// next would be queued, not run.
    EndsInMulti {
        /// Which operation.
        op: OpKind,
    },
    /// The clients' tokens must be non-empty, distinct, and none inside another (the checker
    /// tells owners apart by the token a lock key's value holds).
    BadTokens,
    /// The bound asks for something the explorer does not do.
    BadBound(String),
    /// No catalogue entry has this id.
    UnknownLock(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Empty { op } => write!(f, "the {} text is empty", op.name()),
            SpecError::UnknownPlaceholder {
                op,
                line,
                placeholder,
            } => write!(
                f,
                "{} line {line}: unknown placeholder {placeholder} (known: {PLACEHOLDERS})",
                op.name()
            ),
            SpecError::UnclosedPlaceholder { op, line } => {
                write!(f, "{} line {line}: a '{{' has no closing '}}'", op.name())
            }
            SpecError::UnbalancedQuotes { op, line } => write!(
                f,
                "{} line {line}: unbalanced quotes (redis-cli says \"Invalid argument(s)\")",
                op.name()
            ),
            SpecError::UnsupportedCommand { op, line, command } if command == "DEBUG" => write!(
                f,
                "{} line {line}: DEBUG is the checker's own: its stalls move the clock",
                op.name()
            ),
            SpecError::UnsupportedCommand { op, line, command } => {
                let why = match command.as_str() {
                    "SELECT" => "the checker reads the lock's key in database 0",
                    "HELLO" => "it switches the connection's protocol",
                    "RESET" | "QUIT" => "it resets or closes the client's connection",
                    _ => {
                        "it turns the connection into a subscriber's or a monitor's, which \
                          answers no lock commands"
                    }
                };
                write!(
                    f,
                    "{} line {line}: {command} is not checked: {why}",
                    op.name()
                )
            }
            SpecError::BadCompare { op, line } => write!(
                f,
                "{} line {line}: `==` takes {{token}} alone: the client compares a reply with \
                 its own token (quote \"==\" to send it as a word)",
                op.name()
            ),
            SpecError::BadElse { op, line } => write!(
                f,
                "{} line {line}: `else` needs a command before it and the command to send after \
                 it (quote \"else\" to send it as a word)",
                op.name()
            ),
            SpecError::ScriptCompile { op, error } => {
                write!(f, "the {} script does not compile: {error}", op.name())
            }
            SpecError::ScriptFailed { op, command, error } => write!(
                f,
                "the {} step `{command}` answered an error when one client ran alone: {error}",
                op.name()
            ),
            SpecError::BadTtl(ms) => f.write_str(&lease_out_of_range(&ms.to_string())),
            SpecError::BadOpLength { op, steps } => write!(
                f,
                "the {} has {steps} steps; it must have 1 to {MAX_OP_STEPS}",
                op.name()
            ),
            SpecError::RefusalStepLast { op } => write!(
                f,
                "the {} ends at its last step: nothing can be sent when that step is refused",
                op.name()
            ),
            SpecError::EndsInMulti { op } => write!(
                f,
                "the {} ends inside MULTI when one client runs alone: what the client sends next \
                 would be queued, not run",
                op.name()
            ),
            SpecError::BadTokens => f.write_str(
                "the clients' tokens must be non-empty, distinct, and none inside another",
            ),
            SpecError::BadBound(why) => write!(f, "bad bound: {why}"),
            SpecError::UnknownLock(id) => write!(f, "no lock in the catalogue is called {id:?}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// How far the explorer looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bound {
    /// How many clients run a round each: 2 or 3.
    pub clients: u8,
    /// How many times the clock may jump past every lease.
    pub stalls: u8,
    /// How many times a client tries to acquire before it gives up (1 to 4).
    pub acquire_attempts: u8,
}

impl Default for Bound {
    /// Three clients (blind `DEL` breaks exclusion only when a third can take the key it
    /// wrongly freed), two stalls, two acquire attempts each.
    fn default() -> Self {
        Bound {
            clients: 3,
            stalls: 2,
            acquire_attempts: 2,
        }
    }
}

impl Bound {
    pub(super) fn validate(self) -> Result<(), SpecError> {
        if !(2..=3).contains(&self.clients) {
            return Err(SpecError::BadBound(format!(
                "clients must be 2 or 3, not {}",
                self.clients
            )));
        }
        if !(1..=4).contains(&self.acquire_attempts) {
            return Err(SpecError::BadBound(format!(
                "acquire attempts must be 1 to 4, not {}",
                self.acquire_attempts
            )));
        }
        if self.stalls > 4 {
            return Err(SpecError::BadBound(format!(
                "stalls must be 0 to 4, not {}",
                self.stalls
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_take_placeholders_and_escaped_braces() {
        let t = Template::parse("redisson_lock__channel:{{{key}}}").unwrap();
        assert_eq!(
            t.pieces,
            vec![
                Piece::Literal("redisson_lock__channel:{".into()),
                Piece::Key,
                Piece::Literal("}".into()),
            ]
        );
        assert_eq!(
            Template::parse("{owner}"),
            Err(TemplateError::Unknown("{owner}".into()))
        );
        assert_eq!(Template::parse("x{key"), Err(TemplateError::Unclosed));
    }

    #[test]
    fn truthy_reads_replies_like_a_client() {
        let t = |r: Reply| Success::Truthy.passes(&r, b"abc");
        assert!(t(Reply::ok()));
        assert!(t(Reply::Integer(1)));
        assert!(!t(Reply::Integer(0)));
        assert!(!t(Reply::Nil));
        assert!(!t(Reply::Array(vec![Reply::Integer(0)])));
        assert!(t(Reply::Array(vec![Reply::Integer(1)])));
        assert!(!t(Reply::Error("ERR x".into())));
    }

    #[test]
    fn zero_is_only_the_integer_zero() {
        let z = |r: Reply| Success::Zero.passes(&r, b"abc");
        assert!(z(Reply::Integer(0)));
        assert!(!z(Reply::Integer(1)));
        assert!(!z(Reply::Integer(2)));
        assert!(!z(Reply::Bulk(b"0".to_vec())));
        assert!(!z(Reply::Nil));
        assert!(!z(Reply::Error("ERR x".into())));
    }
}
