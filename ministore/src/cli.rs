//! redis-cli's command-line syntax: whitespace-separated words, `"double quoted"` with
//! `\" \\ \n \r \t \b \a \xHH` escapes, and `'single quoted'` words (only `\'` escapes), plus
//! the few lines redis-cli's prompt handles itself (`quit`, a repeat count, `:set`, `help`).

use crate::reply::Reply;
use crate::strtod::{after_space_and_sign, is_c_space};

/// Why a line could not be split into words (redis-cli prints `Invalid argument(s)`).
#[derive(Debug, Clone, PartialEq)]
pub struct SplitError;

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Invalid argument(s)")
    }
}

impl std::error::Error for SplitError {}

/// Splits one input line into command words exactly as redis-cli's `sdssplitargs` does.
///
/// The line is a C string to redis-cli, so everything from the first NUL byte on is ignored.
/// A quoted section may start inside a word (`ab"cd"` is `abcd`) but a closing quote must be
/// followed by whitespace or the end of the line. A blank line gives no words.
pub fn split_line(line: impl AsRef<[u8]>) -> Result<Vec<Vec<u8>>, SplitError> {
    Ok(split_words(line)?.into_iter().map(|w| w.bytes).collect())
}

/// One word of a line as [`split_words`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct CliWord {
    /// The word's bytes, quotes and escapes resolved.
    pub bytes: Vec<u8>,
    /// Whether any of it was written inside quotes.
    pub quoted: bool,
}

/// [`split_line`]'s words, each saying whether it was written with quotes: a caller that gives
/// some bare words a meaning of its own (as the lock checker's `==` and `else`) lets a quoted
/// one stand for itself.
pub fn split_words(line: impl AsRef<[u8]>) -> Result<Vec<CliWord>, SplitError> {
    let bytes = line.as_ref();
    let line = match bytes.iter().position(|&b| b == 0) {
        Some(nul) => &bytes[..nul],
        None => bytes,
    };
    // `at(i)` reads like C's `p[i]`: past the end is the terminating NUL.
    let at = |i: usize| line.get(i).copied().unwrap_or(0);
    let mut words = Vec::new();
    let mut p = 0;
    loop {
        while p < line.len() && is_c_space(line[p]) {
            p += 1;
        }
        if p >= line.len() {
            return Ok(words);
        }
        let mut word = Vec::new();
        let mut quoted = false;
        let mut quote = Quote::None;
        let mut done = false;
        while !done {
            let c = at(p);
            match quote {
                Quote::Double => {
                    if c == b'\\' && at(p + 1) == b'x' && is_hex(at(p + 2)) && is_hex(at(p + 3)) {
                        word.push(hex_value(at(p + 2)) * 16 + hex_value(at(p + 3)));
                        p += 3;
                    } else if c == b'\\' && at(p + 1) != 0 {
                        p += 1;
                        word.push(match at(p) {
                            b'n' => b'\n',
                            b'r' => b'\r',
                            b't' => b'\t',
                            b'b' => 0x08,
                            b'a' => 0x07,
                            other => other,
                        });
                    } else if c == b'"' {
                        if at(p + 1) != 0 && !is_c_space(at(p + 1)) {
                            return Err(SplitError);
                        }
                        done = true;
                    } else if c == 0 {
                        return Err(SplitError);
                    } else {
                        word.push(c);
                    }
                }
                Quote::Single => {
                    if c == b'\\' && at(p + 1) == b'\'' {
                        p += 1;
                        word.push(b'\'');
                    } else if c == b'\'' {
                        if at(p + 1) != 0 && !is_c_space(at(p + 1)) {
                            return Err(SplitError);
                        }
                        done = true;
                    } else if c == 0 {
                        return Err(SplitError);
                    } else {
                        word.push(c);
                    }
                }
                // Unquoted words end only at these four (not at \v or \f, which
                // `is_c_space` skips between words).
                Quote::None => match c {
                    b' ' | b'\n' | b'\r' | b'\t' | 0 => done = true,
                    b'"' => {
                        quote = Quote::Double;
                        quoted = true;
                    }
                    b'\'' => {
                        quote = Quote::Single;
                        quoted = true;
                    }
                    other => word.push(other),
                },
            }
            if p < line.len() {
                p += 1;
            }
        }
        words.push(CliWord {
            bytes: word,
            quoted,
        });
    }
}

/// Which quotes the splitter is inside.
#[derive(Clone, Copy)]
enum Quote {
    None,
    Double,
    Single,
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

/// What redis-cli's prompt does with one input line before (or instead of) sending it.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptAction {
    /// Nothing to do: a blank line.
    Skip,
    /// Send this command `times` times, printing every reply.
    Send {
        /// How often (redis-cli's `N command` prefix; 1 without it).
        times: u64,
        /// The command words, repeat count removed.
        command: Vec<Vec<u8>>,
    },
    /// Print this text; nothing is sent (`Invalid argument(s)`, `:set` complaints, help).
    Print(Vec<u8>),
    /// `quit` or `exit`: stop reading input.
    Quit,
    /// A bare `help` (or `?`): redis-cli prints its general help, [`GENERAL_HELP`].
    Help,
    /// `clear`: redis-cli clears the screen, printing [`CLEAR_SCREEN`].
    Clear,
    /// `help <command>` or `help @<group>` (the words after `help`): redis-cli prints that
    /// documentation from tables compiled into it, which ministore does not carry, so nothing
    /// is printed and nothing is sent.
    HelpOn(Vec<Vec<u8>>),
}

/// The text redis-cli 7.0 prints for a bare `help` (or `?`).
pub const GENERAL_HELP: &str = "redis-cli 7.0.15\n\
To get help about Redis commands type:\n      \
\"help @<group>\" to get a list of commands in <group>\n      \
\"help <command>\" for help on <command>\n      \
\"help <tab>\" to get a list of possible help topics\n      \
\"quit\" to exit\n\
\n\
To set redis-cli preferences:\n      \
\":set hints\" enable online hints\n      \
\":set nohints\" disable online hints\n\
Set your preferences in ~/.redisclirc\n";

/// What redis-cli prints for `clear` (`linenoiseClearScreen`: cursor home, erase the screen,
/// no newline).
pub const CLEAR_SCREEN: &[u8] = b"\x1b[H\x1b[2J";

/// Decides what redis-cli's non-interactive prompt (`redis-cli < file`) does with a line,
/// following `repl()` in redis-cli 7.0: blank lines are skipped, `quit`/`exit` stop,
/// `:set …` and `restart` are answered locally, a leading count repeats the command, and
/// `help` prints help instead of being sent.
pub fn prompt_action(line: impl AsRef<[u8]>) -> PromptAction {
    let words = match split_line(line) {
        Ok(words) => words,
        Err(SplitError) => return PromptAction::Print(b"Invalid argument(s)\n".to_vec()),
    };
    let Some(first) = words.first() else {
        return PromptAction::Skip;
    };
    if first.eq_ignore_ascii_case(b"quit") || first.eq_ignore_ascii_case(b"exit") {
        return PromptAction::Quit;
    }
    if first.first() == Some(&b':') {
        return PromptAction::Print(set_preference(&words));
    }
    if first.eq_ignore_ascii_case(b"restart") {
        return PromptAction::Print(b"Use 'restart' only in Lua debugging mode.\n".to_vec());
    }
    if words.len() == 1 && first.eq_ignore_ascii_case(b"clear") {
        return PromptAction::Clear;
    }
    let (times, command) = match repeat_count(first) {
        Some(count) if words.len() > 1 => match count {
            Some(times) => (times, words[1..].to_vec()),
            None => {
                return PromptAction::Print(
                    b"Invalid redis-cli repeat command option value.\n".to_vec(),
                )
            }
        },
        _ => (1, words),
    };
    let name = &command[0];
    if name.eq_ignore_ascii_case(b"help") || name.as_slice() == b"?" {
        // The prompt answers help itself, once, whatever the repeat count.
        return if command.len() == 1 {
            PromptAction::Help
        } else {
            PromptAction::HelpOn(command[1..].to_vec())
        };
    }
    PromptAction::Send { times, command }
}

/// Whether redis-cli 7.0 prints `command`'s reply raw even under `--no-raw` (`cliSendCommand`):
/// INFO, LOLWUT, DEBUG HTSTATS / HTSTATS-KEY / CLIENT-EVICTION, MEMORY MALLOC-STATS / DOCTOR,
/// CLUSTER NODES / INFO, CLIENT LIST / INFO, LATENCY GRAPH / DOCTOR and PROXY INFO, with the
/// argument counts it checks. Names compare as `strcasecmp` compares them, up to a NUL.
pub fn prints_raw(command: &[Vec<u8>]) -> bool {
    use crate::args::is;
    let Some(name) = command.first() else {
        return false;
    };
    let sub = |options: &[&str]| {
        command
            .get(1)
            .is_some_and(|word| options.iter().any(|option| is(word, option)))
    };
    let argc = command.len();
    is(name, "info")
        || is(name, "lolwut")
        || (is(name, "debug") && sub(&["htstats", "htstats-key", "client-eviction"]))
        || (is(name, "memory") && sub(&["malloc-stats", "doctor"]))
        || (argc == 2 && is(name, "cluster") && sub(&["nodes", "info"]))
        || (is(name, "client") && sub(&["list", "info"]))
        || (argc == 3 && is(name, "latency") && sub(&["graph"]))
        || (argc == 2 && is(name, "latency") && sub(&["doctor"]))
        || (is(name, "proxy") && sub(&["info"]))
}

/// What redis-cli 7.0 `--no-raw` prints for `command`'s `reply`: raw for the commands
/// [`prints_raw`] names, otherwise [`Reply::to_cli_text`].
pub fn printed(command: &[Vec<u8>], reply: &Reply) -> Vec<u8> {
    if prints_raw(command) {
        reply.to_cli_raw_bytes()
    } else {
        reply.to_cli_text().into_bytes()
    }
}

/// redis-cli's `cliSetPreferences` for a line starting with `:`.
fn set_preference(words: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    if words[0].eq_ignore_ascii_case(b":set") && words.len() >= 2 {
        let pref = &words[1];
        if pref.eq_ignore_ascii_case(b"hints") || pref.eq_ignore_ascii_case(b"nohints") {
            return out;
        }
        out.extend_from_slice(b"unknown redis-cli preference '");
        out.extend_from_slice(pref);
    } else {
        out.extend_from_slice(b"unknown redis-cli internal command '");
        out.extend_from_slice(&words[0]);
    }
    out.extend_from_slice(b"'\n");
    out
}

/// Reads a first word the way redis-cli's `strtol(argv[0], &end, 10)` + `*end == '\0'`
/// check does. `None`: not a count (the word is sent as the command). `Some(None)`: a count
/// redis-cli rejects (zero, negative, out of range, or the empty word). `Some(Some(n))`: repeat n times.
fn repeat_count(word: &[u8]) -> Option<Option<u64>> {
    let (i, negative) = after_space_and_sign(word);
    let digits = &word[i..];
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        // strtol consumed nothing (end points at the word's start), so the word counts as
        // a number only if it is empty.
        return if word.is_empty() { Some(None) } else { None };
    }
    let value = std::str::from_utf8(digits)
        .ok()
        .and_then(|d| d.parse::<i64>().ok());
    match value {
        Some(n) if !negative && n > 0 => Some(Some(n as u64)),
        _ => Some(None),
    }
}

#[cfg(test)]
mod tests {
    use super::{
        printed, prints_raw, prompt_action, split_line, split_words, PromptAction, SplitError,
    };
    use crate::reply::Reply;

    fn split(line: &str) -> Vec<Vec<u8>> {
        split_line(line).expect("a line that splits")
    }

    #[test]
    fn the_commands_redis_cli_prints_raw_with_the_argument_counts_it_checks() {
        for raw in [
            "INFO",
            "info server",
            "LOLWUT VERSION 5",
            "DEBUG HTSTATS 0",
            "debug htstats-key k",
            "DEBUG CLIENT-EVICTION",
            "MEMORY DOCTOR",
            "memory malloc-stats",
            "CLUSTER INFO",
            "cluster nodes",
            "CLIENT LIST",
            "client info",
            "CLIENT LIST TYPE normal",
            "LATENCY GRAPH command",
            "LATENCY DOCTOR",
            "PROXY INFO",
            "proxy info x",
        ] {
            assert!(prints_raw(&split(raw)), "{raw}");
        }
        for tty in [
            "GET k",
            "DEBUG SLEEP 0",
            "DEBUG",
            "MEMORY USAGE k",
            "CLUSTER INFO x",
            "CLUSTER",
            "CLIENT ID",
            "LATENCY GRAPH",
            "LATENCY DOCTOR x",
            "LATENCY LATEST",
            "PROXY",
        ] {
            assert!(!prints_raw(&split(tty)), "{tty}");
        }
        // strcasecmp stops at a NUL.
        assert!(prints_raw(&[b"INFO\0x".to_vec()]));
        assert_eq!(
            printed(&split("INFO"), &Reply::Error("ERR no".into())),
            b"ERR no\n"
        );
        assert_eq!(
            printed(&split("GET k"), &Reply::Error("ERR no".into())),
            b"(error) ERR no\n"
        );
    }

    fn words(line: &str) -> Vec<String> {
        split_line(line)
            .expect("line splits")
            .into_iter()
            .map(|w| String::from_utf8_lossy(&w).into_owned())
            .collect()
    }

    // Expectations checked against redis-cli 7.0.15 (`ECHO` of each form).

    #[test]
    fn plain_words_split_on_whitespace() {
        assert_eq!(words("  SET  k\tv  "), ["SET", "k", "v"]);
        assert_eq!(words("PING\r"), ["PING"]);
        assert!(words("   ").is_empty());
        assert!(words("").is_empty());
    }

    #[test]
    fn each_word_says_whether_any_of_it_was_quoted() {
        let quoted: Vec<bool> = split_words(r#"SET == "==" x'y z' "" else"#)
            .expect("splits")
            .iter()
            .map(|w| w.quoted)
            .collect();
        assert_eq!(quoted, [false, false, true, true, true, false]);
        assert_eq!(split_words(r#"a "b"c"#), Err(SplitError));
    }

    #[test]
    fn double_quotes_take_escapes() {
        let got = split_line(r#"ECHO "x\"y\\z\n\r\t\b\a\x41\x4a\x4g\q""#).expect("splits");
        assert_eq!(got[1], b"x\"y\\z\n\r\t\x08\x07AJx4gq".to_vec());
        assert_eq!(words(r#"ECHO """#), ["ECHO", ""]);
    }

    #[test]
    fn single_quotes_only_unescape_the_quote() {
        assert_eq!(words(r"ECHO 'it\'s' 'a\nb'"), ["ECHO", "it's", r"a\nb"]);
    }

    #[test]
    fn quotes_may_open_inside_a_word() {
        assert_eq!(words(r#"SET d ab"cd""#), ["SET", "d", "abcd"]);
    }

    #[test]
    fn unbalanced_or_glued_quotes_are_invalid() {
        assert_eq!(split_line(r#"SET b "unbal"#), Err(SplitError));
        assert_eq!(split_line(r#"SET d "ab"cd"#), Err(SplitError));
        assert_eq!(split_line(r#"ECHO "\""#), Err(SplitError));
        assert_eq!(split_line("ECHO 'x"), Err(SplitError));
    }

    #[test]
    fn vertical_tab_separates_only_after_a_quote() {
        assert_eq!(words("ECHO a\x0bb"), ["ECHO", "a\x0bb"]);
        assert_eq!(words("ECHO \"a\"\x0bb"), ["ECHO", "a", "b"]);
    }

    #[test]
    fn a_nul_byte_ends_the_line() {
        assert_eq!(
            split_line(b"ECHO a\0b c").expect("splits"),
            vec![b"ECHO".to_vec(), b"a".to_vec()]
        );
    }

    #[test]
    fn prompt_handles_repeat_counts_like_redis_cli() {
        let send = |times, cmd: &[&str]| PromptAction::Send {
            times,
            command: cmd.iter().map(|w| w.as_bytes().to_vec()).collect(),
        };
        assert_eq!(prompt_action("3 PING"), send(3, &["PING"]));
        assert_eq!(prompt_action("+2 PING"), send(2, &["PING"]));
        assert_eq!(prompt_action("\" 3\" PING"), send(3, &["PING"]));
        assert_eq!(prompt_action("3"), send(1, &["3"]));
        assert_eq!(prompt_action("0x10 PING"), send(1, &["0x10", "PING"]));
        let invalid =
            PromptAction::Print(b"Invalid redis-cli repeat command option value.\n".to_vec());
        assert_eq!(prompt_action("0 PING"), invalid);
        assert_eq!(prompt_action("-1 PING"), invalid);
        assert_eq!(prompt_action("\"\" PING"), invalid);
        assert_eq!(prompt_action("99999999999999999999 PING"), invalid);
        assert_eq!(prompt_action("0 help"), invalid);
        assert_eq!(
            prompt_action("2 help"),
            prompt_action("help"),
            "help is printed once"
        );
        assert_eq!(
            prompt_action("3 help GET"),
            PromptAction::HelpOn(vec![b"GET".to_vec()])
        );
    }

    #[test]
    fn prompt_handles_its_own_commands() {
        assert_eq!(prompt_action(""), PromptAction::Skip);
        assert_eq!(prompt_action("  \t "), PromptAction::Skip);
        assert_eq!(prompt_action("QUIT"), PromptAction::Quit);
        assert_eq!(prompt_action("exit now"), PromptAction::Quit);
        assert_eq!(prompt_action(":set hints"), PromptAction::Print(Vec::new()));
        assert_eq!(
            prompt_action(":set foo"),
            PromptAction::Print(b"unknown redis-cli preference 'foo'\n".to_vec())
        );
        assert_eq!(
            prompt_action(":"),
            PromptAction::Print(b"unknown redis-cli internal command ':'\n".to_vec())
        );
        assert_eq!(
            prompt_action("SET b \"x"),
            PromptAction::Print(b"Invalid argument(s)\n".to_vec())
        );
    }
}
