//! The console under each figure: a redis-cli-like prompt over a copy of that figure's store.
//! Owns line handling (redis-cli's prompt rules via `ministore::cli`), history, multi-line
//! pastes and the output log; pure Rust, so every rule is tested natively.

use ministore::cli::{prompt_action, PromptAction};
use ministore::{Reply, Store};

use super::attempts::{self, AttemptsRun};
use super::lost_lock::{LostLockOutcome, ReleaseChoice, A_TOKEN, B_TOKEN, LOCK_KEY};
use super::{fence, FENCED_WRITE_SCRIPT, RELEASE_SCRIPT};

/// What real Redis does with a script that never ends, printed after the step budget's error.
pub const RUNAWAY_NOTE: &str = "note — not a reply: ministore stops a runaway script at its step budget. Real Redis keeps running it: after 5 s (busy-reply-threshold) every other client gets a BUSY error, until SCRIPT KILL stops the script (or, if it has written, only SHUTDOWN NOSAVE does).";

/// What `help` (or `?`) prints here in place of redis-cli's general help, which describes
/// redis-cli's own prompt (tab completion, hints, `~/.redisclirc`) and not this one.
pub const CONSOLE_HELP: [&str; 4] = [
    "note — this console is not redis-cli: a line is read as redis-cli reads it (quotes, escapes, \"N command\" to repeat it) and sent to ministore, in a store of this console's own that starts from its figure's keys (what you do in the figure does not reach it).",
    "The store's clock is virtual: it stands still between lines (PTTL reads the same until it moves), and only DEBUG SLEEP <seconds> or a blocking command that times out (BLPOP k 2) moves it, at once.",
    "↑/↓ walk the history; \"clear\" empties the log; Reset returns this console's store to its starting keys.",
    "\"help <command>\" would print redis-cli's command documentation, which this console does not carry.",
];

/// Interpreter steps one console script may take. The store's default (10M) suits a reaper over
/// thousands of jobs; a learner's `while true do end` should stop at once, so the console asks
/// for a fifth of it (about 20–60 ms in a browser tab).
pub const CONSOLE_STEP_BUDGET: u64 = 2_000_000;
/// A repeat count (`5 PING`) above this is cut down to it, so `1000000 EVAL …` cannot hang the tab.
pub const MAX_REPEAT: u64 = 100;
/// Lines of one reply shown before the rest is summarised.
pub const MAX_REPLY_LINES: usize = 200;
/// Entries kept in the log; older ones scroll away.
pub const MAX_LOG_ENTRIES: usize = 100;
/// What the prompt shows before each command.
pub const PROMPT: &str = "ministore>";

/// Which figure's store a console starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConsoleSeed {
    /// Figure 1 after the token-checked release: B's lock `xyz` stands under `resource:lock`.
    LostLock,
    /// Figure 2's "seen 34" state.
    Fence,
    /// The attempts figure after W1's refused complete and W2's accepted one.
    Attempts,
}

impl ConsoleSeed {
    /// Every console, in page order.
    pub const ALL: [ConsoleSeed; 3] = [
        ConsoleSeed::LostLock,
        ConsoleSeed::Fence,
        ConsoleSeed::Attempts,
    ];

    /// The value of the console's `data-console` hook.
    pub fn hook(self) -> &'static str {
        match self {
            ConsoleSeed::LostLock => "lost-lock",
            ConsoleSeed::Fence => "fence",
            ConsoleSeed::Attempts => "attempts",
        }
    }

    /// The console's label: whose store it runs against, in words read from that store's run.
    pub fn label(self) -> String {
        match self {
            ConsoleSeed::LostLock => {
                let run = LostLockOutcome::run(ReleaseChoice::TokenChecked);
                let holds = run.key_at_end().and_then(|k| k.owner).map_or_else(
                    || "nobody holds the lock".to_string(),
                    |c| format!("{} holds the lock", c.name()),
                );
                format!("Console — the lost-lock figure's store after the token-checked release ({holds})")
            }
            ConsoleSeed::Fence => {
                let seen = fence::max_seen_in_setup()
                    .map_or_else(|| "no token".to_string(), |t| format!("token {t}"));
                format!("Console — the fenced resource that has seen {seen}")
            }
            ConsoleSeed::Attempts => {
                let (_, ending) = AttemptsRun::run().stale_complete_then_fresh();
                let calls: Vec<String> = ending
                    .iter()
                    .map(|o| {
                        format!(
                            "{}'s {} ({})",
                            o.transition.worker().name(),
                            o.transition.verb(),
                            o.word()
                        )
                    })
                    .collect();
                format!("Console — EchoMQ's queue after {}", calls.join(" and "))
            }
        }
    }

    /// The store the console starts from, with the figure's scripts in the script cache.
    pub fn store(self) -> Store {
        let mut store = match self {
            ConsoleSeed::LostLock => {
                LostLockOutcome::run(ReleaseChoice::TokenChecked).store_after()
            }
            ConsoleSeed::Fence => fence::seen_state(),
            ConsoleSeed::Attempts => AttemptsRun::run().stale_complete_then_fresh().0,
        };
        for (_, script) in self.scripts() {
            let _sha = store.script_load(script);
        }
        store.set_step_budget(CONSOLE_STEP_BUDGET);
        store
    }

    /// The figure's scripts, by file name.
    pub fn scripts(self) -> Vec<(&'static str, &'static str)> {
        match self {
            ConsoleSeed::LostLock => vec![("release.lua", RELEASE_SCRIPT)],
            ConsoleSeed::Fence => vec![("fenced_write.lua", FENCED_WRITE_SCRIPT)],
            ConsoleSeed::Attempts => attempts::SCRIPTS.to_vec(),
        }
    }

    /// Commands worth trying here, each a complete line the console accepts.
    pub fn examples(self) -> Vec<String> {
        let sha = |name: &str| {
            self.scripts()
                .into_iter()
                .find(|(n, _)| *n == name)
                .map(|(_, script)| sha1_of(script))
                .unwrap_or_default()
        };
        match self {
            ConsoleSeed::LostLock => vec![
                format!("GET {LOCK_KEY}"),
                format!("PTTL {LOCK_KEY}"),
                format!("EVAL {} 1 {LOCK_KEY} {A_TOKEN}", quote_word(RELEASE_SCRIPT)),
                format!("EVALSHA {} 1 {LOCK_KEY} {B_TOKEN}", sha("release.lua")),
                "EVAL \"while true do end\" 0".to_string(),
            ],
            ConsoleSeed::Fence => {
                let write = sha("fenced_write.lua");
                let (max, data) = (fence::FENCE_KEY, fence::DATA_KEY);
                vec![
                    format!("GET {max}"),
                    format!("EVALSHA {write} 2 {max} {data} 33 late-write"),
                    format!("EVALSHA {write} 2 {max} {data} 35 next-write"),
                    format!("GET {data}"),
                ]
            }
            ConsoleSeed::Attempts => {
                let job = attempts::job_key();
                vec![
                    format!("HGETALL {job}"),
                    format!(
                        "EVALSHA {} 2 {} {job} {} 1",
                        sha("emq_complete.lua"),
                        attempts::active_key(),
                        attempts::JOB_ID
                    ),
                    format!(
                        "EVALSHA {} 3 {} {job} {} {} 1 0",
                        sha("emq_retry.lua"),
                        attempts::active_key(),
                        attempts::wait_key(),
                        attempts::JOB_ID
                    ),
                    format!("ZRANGE {} 0 -1 WITHSCORES", attempts::wait_key()),
                ]
            }
        }
    }
}

/// The SHA1 `SCRIPT LOAD` gives a script, computed in a scratch store.
fn sha1_of(script: &str) -> String {
    match Store::new().script_load(script) {
        Reply::Bulk(sha) => String::from_utf8_lossy(&sha).into_owned(),
        _ => String::new(),
    }
}

/// `text` as one redis-cli double-quoted word that redis-cli reads back byte for byte: quotes and
/// backslashes escaped, line breaks as `\n`. A script quoted so runs as exactly the file's text,
/// so its SHA1 is the file's.
pub fn quote_word(text: &str) -> String {
    format!("\"{}\"", escape_in_quotes(text))
}

fn escape_in_quotes(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// Whether the end of `line` is inside an open double-quoted word.
fn inside_double_quote(line: &str) -> bool {
    let mut quote = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some('\''), '\\') => {}
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            _ => {}
        }
    }
    quote == Some('"')
}

/// What a paste does to the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Paste {
    /// Insert this text at the caret (line breaks already encoded).
    Insert(String),
    /// Run each of these lines as its own command, as redis-cli does with pasted lines.
    RunLines(Vec<String>),
}

/// Whether pasted text reads as a Lua script rather than command lines.
fn looks_like_lua(text: &str) -> bool {
    text.contains("redis.call") || text.contains("redis.pcall") || {
        text.lines().map(str::trim_start).any(|line| {
            ["--", "local ", "if ", "return ", "for ", "while "]
                .iter()
                .any(|start| line.starts_with(start))
        })
    }
}

/// Decides what pasting `pasted` after `before_caret` does. A single line is inserted as it is.
/// A multi-line paste inside an open `"` is escaped into it (`\n`, `\"`), so a script pasted
/// between `EVAL "` and `"` runs as written; after a command word it becomes one quoted word
/// (`EVAL ` + paste + ` 1 resource:lock abc`). At an empty prompt a script is wrapped as
/// `EVAL "<script>" ` for the learner to add its keys and arguments; other lines each run as a
/// command, as redis-cli runs pasted lines.
pub fn paste(before_caret: &str, pasted: &str) -> Paste {
    // Line ends as an editor copies them (`\r\n`, a stray `\r`) and the last line's break are
    // the clipboard's, not the script's.
    let pasted = pasted.replace("\r\n", "\n").replace('\r', "");
    let pasted = pasted.trim_end_matches('\n');
    if !pasted.contains('\n') {
        return Paste::Insert(pasted.to_string());
    }
    if inside_double_quote(before_caret) {
        Paste::Insert(escape_in_quotes(pasted))
    } else if before_caret.trim().is_empty() && looks_like_lua(pasted) {
        Paste::Insert(format!("EVAL {} ", quote_word(pasted)))
    } else if before_caret.trim().is_empty() {
        Paste::RunLines(
            pasted
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect(),
        )
    } else {
        let gap = if before_caret.ends_with(char::is_whitespace) {
            ""
        } else {
            " "
        };
        Paste::Insert(format!("{gap}{} ", quote_word(pasted)))
    }
}

/// How one output line is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// A reply as redis-cli prints it.
    Reply,
    /// An error reply (its text starts with `(error)`); shown in red as well.
    Error,
    /// The console's own remark (a cut-down repeat count, a long reply cut short).
    Note,
}

/// One line of output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputLine {
    /// The text, exactly as printed.
    pub text: String,
    /// How it is styled and announced.
    pub tone: Tone,
}

/// One command and what it printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// A number unique within the console, for keyed rendering.
    pub id: u64,
    /// The line as typed.
    pub input: String,
    /// What it printed, in order.
    pub output: Vec<OutputLine>,
}

/// A console's whole state: its store, history and log.
#[derive(Clone)]
pub struct Console {
    seed: ConsoleSeed,
    store: Store,
    history: Vec<String>,
    /// Where ↑/↓ are in the history; `None` while editing a fresh line.
    browsing: Option<usize>,
    /// The line being typed before ↑ was first pressed, given back by ↓ at the end.
    draft: String,
    log: Vec<LogEntry>,
    next_id: u64,
}

impl Console {
    /// A console over a fresh copy of `seed`'s store.
    pub fn new(seed: ConsoleSeed) -> Console {
        Console {
            seed,
            store: seed.store(),
            history: Vec::new(),
            browsing: None,
            draft: String::new(),
            log: Vec::new(),
            next_id: 0,
        }
    }

    /// Which figure's store this console started from.
    pub fn seed(&self) -> ConsoleSeed {
        self.seed
    }

    /// The log, oldest first.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The commands entered, oldest first.
    pub fn history(&self) -> &[String] {
        &self.history
    }

    /// The store as it stands (for tests and the figure's "what the store holds").
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Back to the seed's store with an empty log; history is kept, as a shell keeps it.
    pub fn reset(&mut self) {
        self.store = self.seed.store();
        self.log.clear();
        self.browsing = None;
    }

    /// Runs one line typed at the prompt and logs it. Returns the new entry, if one was logged
    /// (`clear` empties the log instead).
    pub fn submit(&mut self, line: &str) -> Option<&LogEntry> {
        self.browsing = None;
        self.draft.clear();
        let line = line.trim_end_matches(['\n', '\r']);
        if !line.trim().is_empty() && self.history.last().map(String::as_str) != Some(line) {
            self.history.push(line.to_string());
        }
        let output = match prompt_action(line) {
            PromptAction::Skip => Vec::new(),
            PromptAction::Quit => vec![note(
                "This console stays open; Reset returns it to the figure's store.",
            )],
            PromptAction::Clear => {
                self.log.clear();
                return None;
            }
            // redis-cli's general help is about redis-cli; this console says what it is.
            PromptAction::Help => CONSOLE_HELP.iter().map(|line| note(line)).collect(),
            PromptAction::Print(bytes) => String::from_utf8_lossy(&bytes)
                .lines()
                .map(|l| OutputLine {
                    text: l.to_string(),
                    tone: Tone::Note,
                })
                .collect(),
            PromptAction::HelpOn(topic) => vec![note(&format!(
                "note — not a reply: redis-cli looks up {} in the command docs compiled into it \
                 and prints what it finds; this console does not carry them.",
                String::from_utf8_lossy(&topic.join(&b' '))
            ))],
            PromptAction::Send { times, command } => self.send(times, &command),
        };
        self.push(line.to_string(), output);
        self.log.last()
    }

    /// Runs one line as [`Console::submit`] does and returns what it printed, in order: empty for
    /// a blank line, and for `clear`, which empties the log instead of printing.
    pub fn run(&mut self, line: &str) -> Vec<OutputLine> {
        self.submit(line)
            .map(|entry| entry.output.clone())
            .unwrap_or_default()
    }

    /// Runs several lines in turn (a multi-line paste at an empty prompt).
    pub fn submit_lines(&mut self, lines: &[String]) {
        for line in lines {
            let _entry = self.submit(line);
        }
    }

    fn send(&mut self, times: u64, command: &[Vec<u8>]) -> Vec<OutputLine> {
        let mut output = Vec::new();
        let runs = times.min(MAX_REPEAT);
        if runs < times {
            output.push(note(&format!(
                "(repeat count {times} cut to {MAX_REPEAT} in this console)"
            )));
        }
        let mut left_out = None;
        for _ in 0..runs {
            let reply = self.store.exec(command);
            output.extend(printed_lines(command, &reply));
            if reply.is_step_budget_stop() {
                output.push(note(RUNAWAY_NOTE));
                break;
            }
            left_out = left_out.or_else(|| left_out_note(command, &reply));
        }
        output.extend(left_out.map(|text| note(&text)));
        output
    }

    fn push(&mut self, input: String, output: Vec<OutputLine>) {
        self.log.push(LogEntry {
            id: self.next_id,
            input,
            output,
        });
        self.next_id += 1;
        if self.log.len() > MAX_LOG_ENTRIES {
            let excess = self.log.len() - MAX_LOG_ENTRIES;
            self.log.drain(..excess);
        }
    }

    /// ↑: the previous command, remembering `current` as the draft when browsing starts.
    /// `None` when there is nothing older.
    pub fn history_up(&mut self, current: &str) -> Option<String> {
        let at = match self.browsing {
            None if self.history.is_empty() => return None,
            None => {
                self.draft = current.to_string();
                self.history.len() - 1
            }
            Some(0) => return None,
            Some(at) => at - 1,
        };
        self.browsing = Some(at);
        self.history.get(at).cloned()
    }

    /// ↓: the next command, or the draft once past the newest. `None` when not browsing.
    pub fn history_down(&mut self) -> Option<String> {
        let at = self.browsing?;
        if at + 1 < self.history.len() {
            self.browsing = Some(at + 1);
            self.history.get(at + 1).cloned()
        } else {
            self.browsing = None;
            Some(std::mem::take(&mut self.draft))
        }
    }
}

/// After the store's `ERR unknown command` for a command Redis 7.0 has, what the console adds so
/// that the reply does not read as Redis's: which group of Redis's commands it is in.
fn left_out_note(command: &[Vec<u8>], reply: &Reply) -> Option<String> {
    if !reply.is_unknown_command() {
        return None;
    }
    let name = command.first()?;
    let group = ministore::left_out::left_out(name)?;
    Some(format!(
        "note — not a reply: Redis 7.0 has {}, one of its {} commands; ministore, this console's store, does not run it.",
        String::from_utf8_lossy(name).to_ascii_uppercase(),
        group.words()
    ))
}

fn note(text: &str) -> OutputLine {
    OutputLine {
        text: text.to_string(),
        tone: Tone::Note,
    }
}

/// A reply as redis-cli prints it, one output line per printed line; a long one is cut short.
pub fn reply_lines(reply: &Reply) -> Vec<OutputLine> {
    lines_of(&reply.to_cli_text(), reply)
}

/// `command`'s reply as redis-cli `--no-raw` prints it: raw for the few commands it always
/// prints raw (INFO, CLIENT LIST, …), as [`reply_lines`] otherwise.
fn printed_lines(command: &[Vec<u8>], reply: &Reply) -> Vec<OutputLine> {
    lines_of(
        &String::from_utf8_lossy(&ministore::cli::printed(command, reply)),
        reply,
    )
}

/// `text`, printed for `reply`, as output lines in the reply's tone.
fn lines_of(text: &str, reply: &Reply) -> Vec<OutputLine> {
    let tone = if reply.is_error() {
        Tone::Error
    } else {
        Tone::Reply
    };
    let total = text.lines().count();
    let mut lines: Vec<OutputLine> = text
        .lines()
        .take(MAX_REPLY_LINES)
        .map(|l| OutputLine {
            text: l.to_string(),
            tone,
        })
        .collect();
    if total > MAX_REPLY_LINES {
        lines.push(note(&format!(
            "… {} more lines not shown",
            total - MAX_REPLY_LINES
        )));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::{Console, ConsoleSeed, OutputLine, Tone, CONSOLE_HELP};

    fn line(text: &str, tone: Tone) -> OutputLine {
        OutputLine {
            text: text.to_string(),
            tone,
        }
    }

    #[test]
    fn run_returns_what_the_line_printed_and_logs_it_like_submit() {
        let mut console = Console::new(ConsoleSeed::LostLock);
        let printed = console.run("GET resource:lock");
        assert_eq!(printed, [line("\"xyz\"", Tone::Reply)]);
        assert_eq!(console.log().len(), 1);
        assert_eq!(console.log()[0].input, "GET resource:lock");
        assert_eq!(console.log()[0].output, printed);
        assert_eq!(
            console.run("FOO"),
            [line(
                "(error) ERR unknown command 'FOO', with args beginning with: ",
                Tone::Error
            )]
        );
    }

    #[test]
    fn a_redis_command_the_store_does_not_run_is_named_as_redis_s_in_a_note() {
        let mut console = Console::new(ConsoleSeed::LostLock);
        assert_eq!(
            console.run("info server"),
            [
                // redis-cli prints INFO's reply raw, an error too.
                line(
                    "ERR unknown command 'info', with args beginning with: 'server' ",
                    Tone::Error
                ),
                line(
                    "note — not a reply: Redis 7.0 has INFO, one of its server commands; \
                     ministore, this console's store, does not run it.",
                    Tone::Note
                ),
            ]
        );
        let printed = console.run("2 subscribe news");
        assert_eq!(printed.len(), 3, "both errors, one note: {printed:?}");
        assert_eq!(
            printed[2].text,
            "note — not a reply: Redis 7.0 has SUBSCRIBE, one of its pub/sub commands; \
             ministore, this console's store, does not run it."
        );
        // Inside MULTI the same error is Redis's reply to queuing it; the note says the same.
        console.run("MULTI");
        assert_eq!(console.run("PFADD h a").len(), 2);
        assert_eq!(
            console.run("EXEC")[0].text,
            "(error) EXECABORT Transaction discarded because of previous errors."
        );
        // A name Redis does not know either gets Redis's error alone.
        assert_eq!(console.run("FOO").len(), 1);
    }

    #[test]
    fn help_says_what_this_console_is_not_what_redis_cli_is() {
        let mut console = Console::new(ConsoleSeed::Fence);
        for line in ["help", "?", "3 HELP"] {
            let printed = console.run(line);
            let texts: Vec<&str> = printed.iter().map(|l| l.text.as_str()).collect();
            assert_eq!(texts, CONSOLE_HELP, "{line}");
            assert!(printed.iter().all(|l| l.tone == Tone::Note));
        }
        // What the help promises: a repeat count, clear, and Reset back to the starting keys.
        assert_eq!(console.run("2 PING").len(), 2);
        assert!(console.run("clear").is_empty());
        assert!(console.log().is_empty());
        console.run("SET resource:fence 99");
        console.reset();
        assert_eq!(console.run("GET resource:fence")[0].text, "\"34\"");
        // The clock: still between lines, moved by DEBUG SLEEP and a blocking timeout alone.
        console.run("SET k v PX 10000");
        let pttl = |console: &mut Console| console.run("PTTL k")[0].text.clone();
        assert_eq!(pttl(&mut console), "(integer) 10000");
        assert_eq!(pttl(&mut console), "(integer) 10000");
        console.run("DEBUG SLEEP 1");
        assert_eq!(pttl(&mut console), "(integer) 9000");
        console.run("BLPOP nothing 2");
        assert_eq!(pttl(&mut console), "(integer) 7000");
    }

    #[test]
    fn help_on_a_command_says_what_redis_cli_would_print() {
        let mut console = Console::new(ConsoleSeed::Fence);
        assert_eq!(
            console.run("help SET"),
            [line(
                "note — not a reply: redis-cli looks up SET in the command docs compiled into it \
                 and prints what it finds; this console does not carry them.",
                Tone::Note
            )]
        );
    }

    #[test]
    fn run_prints_nothing_for_a_blank_line_or_clear() {
        let mut console = Console::new(ConsoleSeed::Fence);
        assert!(console.run("   ").is_empty());
        assert_eq!(
            console.log().len(),
            1,
            "a blank line still gets its entry, with no output"
        );
        assert!(console.run("clear").is_empty());
        assert!(console.log().is_empty(), "clear emptied the log");
    }
}
