//! The conformance suite: every `tests/conformance/*.redis` file is piped through
//! `redis-cli --no-raw` against a real redis-server (Debian's 7.0, started here on a free
//! 127.0.0.1 port) and through the `ministore` binary, and the outputs must match line for line.
//!
//! File format: one redis-cli command per line; blank lines and lines starting with `#` are
//! comments and are not sent. Each file starts from an empty keyspace and script cache.
//! Between MULTI and EXEC the per-line marker is queued with the commands, so those lines'
//! replies are compared together in EXEC's block.
//! `CONFORMANCE_FILE=lock` runs only the files whose name contains `lock`.

// The `ministore` binary and `serve` are part of the `full` feature.
#![cfg(feature = "full")]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use redis_oracle::{required, run_with_input, RedisServer};
use support::{command_lines, diff_file, marked_input, split_by_marker, MARKER};

/// The suite must exercise at least this many command lines across all files.
const MIN_COMMAND_LINES: usize = 150;

fn conformance_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let filter = std::env::var("CONFORMANCE_FILE").unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "redis"))
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(&filter))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn ministore_prints_what_redis_cli_prints_against_real_redis() {
    let files = conformance_files();
    assert!(
        !files.is_empty(),
        "no tests/conformance/*.redis files found"
    );
    let Some(server) = required(RedisServer::start()) else {
        return;
    };
    let mut total_commands = 0;
    let mut problems = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
        let commands = command_lines(&source);
        total_commands += commands.len();
        let input = marked_input(&commands);

        server.reset();
        let redis_cli = server.cli(["--no-raw"]);
        let expected = run_with_input(redis_cli, input.clone(), Duration::from_secs(180));
        assert!(
            expected.status.success(),
            "redis-cli failed on {}: {expected:?}",
            file.display()
        );

        let ministore = Command::new(env!("CARGO_BIN_EXE_ministore"));
        let got = run_with_input(ministore, input, Duration::from_secs(60));
        let file_problems = diff_file(file, &commands, &expected, &got);
        eprintln!(
            "conformance: {} — {} commands, {} mismatches",
            file.display(),
            commands.len(),
            file_problems.len()
        );
        problems.extend(file_problems);
    }
    drop(server);
    assert!(
        problems.is_empty(),
        "{} conformance mismatches (expected = redis-cli --no-raw against redis-server):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
    if std::env::var("CONFORMANCE_FILE").is_err() {
        assert!(
            total_commands >= MIN_COMMAND_LINES,
            "the conformance files hold {total_commands} command lines; the suite needs at least {MIN_COMMAND_LINES}"
        );
    }
}

/// `ministore::left_out` holds exactly the commands of Redis's `COMMAND LIST` that the store
/// answers with `ERR unknown command`, each in the group Redis's `COMMAND DOCS` gives it: the
/// page's consoles say so after that error.
#[test]
fn the_left_out_commands_are_the_redis_commands_the_store_does_not_run() {
    let Some(server) = required(RedisServer::start()) else {
        return;
    };
    let raw = |args: &[&str]| {
        let out = server
            .cli(std::iter::once("--raw").chain(args.iter().copied()))
            .output()
            .expect("run redis-cli");
        assert!(out.status.success(), "redis-cli {args:?} failed: {out:?}");
        String::from_utf8(out.stdout).expect("redis-cli printed UTF-8")
    };
    let listed: Vec<String> = raw(&["COMMAND", "LIST"])
        .lines()
        .filter(|name| !name.is_empty() && !name.contains('|'))
        .map(str::to_ascii_uppercase)
        .collect();
    assert!(
        listed.len() > 200,
        "COMMAND LIST gave {} names",
        listed.len()
    );
    let mut store = ministore::Store::new();
    for name in &listed {
        let reply = store.exec(&[name.as_str()]);
        let unknown =
            matches!(&reply, ministore::Reply::Error(e) if e.starts_with("ERR unknown command"));
        assert_eq!(
            unknown,
            ministore::left_out::left_out(name.as_bytes()).is_some(),
            "{name}: the store replied {reply:?}"
        );
    }
    for (name, group) in ministore::left_out::all_left_out() {
        assert!(
            listed.iter().any(|l| l == name),
            "{name} is not in COMMAND LIST"
        );
        let docs = raw(&["COMMAND", "DOCS", name]);
        let mut lines = docs.lines();
        lines.find(|line| *line == "group");
        assert_eq!(lines.next(), Some(group.docs_name()), "{name}'s group");
    }
}

#[test]
fn marker_blocks_cut_output_per_command() {
    let output = format!("OK\n\"{MARKER}3\"\n1) \"a\"\n2) \"b\"\n\"{MARKER}4\"\n");
    let blocks = split_by_marker(&output);
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0], (3, vec!["OK".to_string()]));
    assert_eq!(
        blocks[1],
        (4, vec!["1) \"a\"".to_string(), "2) \"b\"".to_string()])
    );
}

#[test]
fn comments_and_blank_lines_are_not_commands() {
    let commands = command_lines("# lock scenario\n\nSET k v\n  # indented comment\nGET k\n");
    let lines: Vec<(usize, &str)> = commands
        .iter()
        .map(|c| (c.line_no, c.text.as_str()))
        .collect();
    assert_eq!(lines, [(3, "SET k v"), (5, "GET k")]);
}

#[test]
fn a_differing_reply_is_reported_with_file_line_command_expected_and_got() {
    use std::os::unix::process::ExitStatusExt;
    let commands = command_lines("# header\nSET k v\nTIME\n");
    let output = |stdout: String| Output {
        status: std::process::ExitStatus::from_raw(0),
        stdout: stdout.into_bytes(),
        stderr: Vec::new(),
    };
    let expected = output(format!(
        "OK\n\"{MARKER}2\"\n1) \"17\"\n2) \"5\"\n\"{MARKER}3\"\n"
    ));
    let got = output(format!(
        "OK\n\"{MARKER}2\"\n(error) ERR unknown command 'TIME'\n\"{MARKER}3\"\n"
    ));
    let problems = diff_file(Path::new("x/demo.redis"), &commands, &expected, &got);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("demo.redis:3: TIME\n"),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].contains("expected: 1) \"17\""),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].contains("got:      (error) ERR unknown command 'TIME'"),
        "{}",
        problems[0]
    );
    assert!(diff_file(Path::new("x/demo.redis"), &commands, &expected, &expected).is_empty());
}
