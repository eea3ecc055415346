//! Real lock libraries' Lua scripts, unmodified, run through real Redis and through ministore.
//!
//! `tests/locklibs/<library>/*.lua` hold the scripts byte for byte as each library sends them
//! (provenance in `tests/locklibs/README.md`); a library that sends no script (RQ's scheduler
//! lock) has a case file of its commands and no folder. `tests/locklibs/<library>.cases` is a
//! conformance file in redis-cli syntax with two additions:
//! - `{{name}}` becomes `<library>/name.lua` as one double-quoted redis-cli word, and
//!   `{{sha:name}}` its SHA1, so a case can `EVAL`, `SCRIPT LOAD` or `EVALSHA` the real text;
//! - a line starting with `~` replies with a remaining time in milliseconds. Real Redis's clock
//!   runs between two commands (and past a `DEBUG SLEEP`), ministore's virtual one does not, so
//!   there each integer Redis prints may be up to [`CLOCK_SLACK_MS`] below ministore's; every
//!   other byte of the reply must still match.
//!
//! Every other line must print exactly what `redis-cli --no-raw` prints against redis-server.
//! `<library>.<more>.cases` runs the same library's scripts. A case file named (without
//! `.cases`) in `tests/locklibs/pending.txt` is run and reported but does not fail the test:
//! its scripts need a command or Lua builtin ministore does not have yet.
//! `LOCKLIBS_FILE=redisson` runs only the case files whose name contains `redisson`.

// The `ministore` binary and `serve` are part of the `full` feature.
#![cfg(feature = "full")]

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use redis_oracle::{required, run_with_input, RedisServer};
use support::{marked_input, split_by_marker, CommandLine};

/// How far real Redis's clock may run ahead of ministore's on a `~` line.
const CLOCK_SLACK_MS: i64 = 250;

fn locklibs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/locklibs")
}

/// The library a case file exercises: its name up to the first dot (`redis-py.errors.cases`
/// runs `redis-py/`'s scripts).
fn library_of(file: &Path) -> String {
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    name.split('.').next().unwrap_or_default().to_string()
}

/// One line of a case file after its placeholders are filled in.
struct CaseLine {
    command: CommandLine,
    /// A `~` line: its integers are remaining milliseconds.
    clock_dependent: bool,
    /// MULTI or a line sent after it, before EXEC or DISCARD: its marker is queued with it, so
    /// it prints no block of its own and its reply is compared in EXEC's block.
    queued: bool,
}

/// A script as one redis-cli double-quoted word.
fn quoted(script: &[u8]) -> String {
    let mut word = String::from("\"");
    for &b in script {
        match b {
            b'"' => word.push_str("\\\""),
            b'\\' => word.push_str("\\\\"),
            b'\n' => word.push_str("\\n"),
            b'\r' => word.push_str("\\r"),
            b'\t' => word.push_str("\\t"),
            0x20..=0x7e => word.push(char::from(b)),
            _ => word.push_str(&format!("\\x{b:02x}")),
        }
    }
    word.push('"');
    word
}

fn sha1_hex(script: &[u8]) -> String {
    sha1_smol::Sha1::from(script).digest().to_string()
}

/// Replaces `{{name}}` and `{{sha:name}}` with the library's script `name.lua`.
fn expand(text: &str, scripts: &Path, at: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("}}")
            .unwrap_or_else(|| panic!("{at}: `{{{{` without `}}}}`"))
            + start;
        let inner = &rest[start + 2..end];
        let (sha, name) = match inner.strip_prefix("sha:") {
            Some(name) => (true, name),
            None => (false, inner),
        };
        let path = scripts.join(format!("{name}.lua"));
        let script =
            std::fs::read(&path).unwrap_or_else(|e| panic!("{at}: read {}: {e}", path.display()));
        out.push_str(&if sha {
            sha1_hex(&script)
        } else {
            quoted(&script)
        });
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

fn case_lines(file: &Path) -> Vec<CaseLine> {
    let source =
        std::fs::read_to_string(file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
    let scripts = locklibs_dir().join(library_of(file));
    let mut lines = Vec::new();
    let mut in_multi = false;
    for (i, line) in source.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (clock_dependent, text) = match trimmed.strip_prefix('~') {
            Some(text) => (true, text.trim_start()),
            None => (false, line),
        };
        let at = format!("{}:{}", file.display(), i + 1);
        let command = text.split_whitespace().next().unwrap_or("");
        let starts = command.eq_ignore_ascii_case("MULTI");
        let ends = ["EXEC", "DISCARD"]
            .iter()
            .any(|c| command.eq_ignore_ascii_case(c));
        // MULTI's own marker is queued too: MULTI's OK is printed in EXEC's block.
        let queued = starts || (in_multi && !ends);
        if starts {
            in_multi = true;
        } else if ends {
            in_multi = false;
        }
        lines.push(CaseLine {
            command: CommandLine {
                line_no: i + 1,
                text: expand(text, &scripts, &at),
            },
            clock_dependent,
            queued,
        });
    }
    lines
}

/// The integer a redis-cli `--no-raw` line shows (`(integer) 5`, `3) (integer) 5`), with the
/// text before it.
fn integer_in(line: &str) -> Option<(&str, i64)> {
    let at = line.find("(integer) ")? + "(integer) ".len();
    Some((&line[..at], line[at..].parse().ok()?))
}

/// Whether ministore's block matches Redis's, allowing Redis's clock to have run on a `~` line.
fn block_matches(want: &[String], have: &[String], clock_dependent: bool) -> bool {
    if !clock_dependent || want.len() != have.len() {
        return want == have;
    }
    want.iter().zip(have).all(|(w, h)| {
        w == h
            || matches!(
                (integer_in(w), integer_in(h)),
                (Some((wp, wn)), Some((hp, hn)))
                    if wp == hp && wn >= 0 && hn >= 0 && wn <= hn && hn - wn <= CLOCK_SLACK_MS
            )
    })
}

/// Runs one case file both ways; returns its command count and every differing reply.
fn run_case_file(server: &RedisServer, file: &Path) -> (usize, Vec<String>) {
    let lines = case_lines(file);
    let commands: Vec<CommandLine> = lines
        .iter()
        .map(|l| CommandLine {
            line_no: l.command.line_no,
            text: l.command.text.clone(),
        })
        .collect();
    let input = marked_input(&commands);
    server.reset();
    let redis_cli = server.cli(["--no-raw"]);
    let expected = run_with_input(redis_cli, input.clone(), Duration::from_secs(180));
    assert!(
        expected.status.success(),
        "redis-cli failed on {}: {expected:?}",
        file.display()
    );
    let got = run_with_input(
        Command::new(env!("CARGO_BIN_EXE_ministore")),
        input,
        Duration::from_secs(60),
    );
    let want: HashMap<usize, Vec<String>> =
        split_by_marker(&String::from_utf8_lossy(&expected.stdout))
            .into_iter()
            .collect();
    let have: HashMap<usize, Vec<String>> = split_by_marker(&String::from_utf8_lossy(&got.stdout))
        .into_iter()
        .collect();
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let mut problems = Vec::new();
    for line in lines.iter().filter(|line| !line.queued) {
        let no = line.command.line_no;
        let Some(w) = want.get(&no) else {
            problems.push(format!("{name}:{no}: redis-cli printed no reply block"));
            continue;
        };
        let h = have.get(&no);
        if !h.is_some_and(|h| block_matches(w, h, line.clock_dependent)) {
            let shown: String = line.command.text.chars().take(160).collect();
            problems.push(format!(
                "{name}:{no}: {shown}\n  expected: {}\n  got:      {}",
                w.join("\n            "),
                h.map_or("<no reply block>".to_string(), |h| h.join("\n            "))
            ));
        }
    }
    if !got.status.success() || !got.stderr.is_empty() {
        problems.push(format!(
            "{name}: ministore exited with {} and stderr:\n{}",
            got.status,
            String::from_utf8_lossy(&got.stderr)
        ));
    }
    (lines.len(), problems)
}

/// Case files that may still differ, each with why: `name: reason` lines of `pending.txt`.
fn pending() -> HashMap<String, String> {
    let text = std::fs::read_to_string(locklibs_dir().join("pending.txt")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(':'))
        .map(|(lib, why)| (lib.trim().to_string(), why.trim().to_string()))
        .collect()
}

fn case_files() -> Vec<PathBuf> {
    let filter = std::env::var("LOCKLIBS_FILE").unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(locklibs_dir())
        .expect("read tests/locklibs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cases"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(&filter))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn lock_library_scripts_answer_as_real_redis_does() {
    let files = case_files();
    assert!(!files.is_empty(), "no tests/locklibs/*.cases files");
    let pending = pending();
    let Some(server) = required(RedisServer::start()) else {
        return;
    };
    let mut failures = Vec::new();
    for file in &files {
        let case = file
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let (count, problems) = run_case_file(&server, file);
        eprintln!(
            "locklibs: {case} — {count} commands, {} mismatches",
            problems.len()
        );
        match pending.get(&case) {
            Some(why) if problems.is_empty() => {
                eprintln!("locklibs: {case} matches now; take it off pending.txt ({why})");
            }
            Some(why) => eprintln!(
                "locklibs: {case} is pending ({why}):\n{}",
                problems.join("\n")
            ),
            None => failures.extend(problems),
        }
    }
    drop(server);
    assert!(
        failures.is_empty(),
        "{} lock-library mismatches (expected = redis-cli --no-raw against redis-server):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The README records every script's SHA1; a script whose bytes changed no longer matches it.
#[test]
fn every_script_is_the_recorded_unmodified_text() {
    let readme = std::fs::read_to_string(locklibs_dir().join("README.md")).expect("read README");
    let mut checked = 0;
    for entry in std::fs::read_dir(locklibs_dir()).expect("read tests/locklibs") {
        let dir = entry.expect("a directory entry").path();
        if !dir.is_dir() {
            continue;
        }
        for script in std::fs::read_dir(&dir).expect("read a library's folder") {
            let path = script.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "lua") {
                let sha = sha1_hex(&std::fs::read(&path).expect("read a script"));
                assert!(
                    readme.contains(&sha),
                    "{} has SHA1 {sha}, which tests/locklibs/README.md does not record",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no scripts under tests/locklibs/*/");
}

#[test]
fn placeholders_become_one_quoted_word() {
    assert_eq!(quoted(b"a \"b\"\n\tc\\\x91"), r#""a \"b\"\n\tc\\\x91""#);
    let words = ministore::cli::split_line(quoted(b"x\n\ty\"\\\x91")).expect("split");
    assert_eq!(words, vec![b"x\n\ty\"\\\x91".to_vec()]);
    assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
}

#[test]
fn a_clock_dependent_line_allows_only_redis_running_behind() {
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let redis = lines(&["(integer) 29998"]);
    assert!(block_matches(&redis, &lines(&["(integer) 30000"]), true));
    assert!(!block_matches(&redis, &lines(&["(integer) 30000"]), false));
    assert!(!block_matches(&redis, &lines(&["(integer) 29000"]), true));
    assert!(!block_matches(&redis, &lines(&["(integer) 40000"]), true));
    assert!(!block_matches(&redis, &lines(&["(nil)"]), true));
    let array = lines(&["1) (integer) 199", "2) \"x\""]);
    assert!(block_matches(
        &array,
        &lines(&["1) (integer) 200", "2) \"x\""]),
        true
    ));
    assert!(!block_matches(
        &array,
        &lines(&["1) (integer) 200", "2) \"y\""]),
        true
    ));
}
