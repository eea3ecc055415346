//! A differential test of the CLI layer against the real thing: seeded random lines full of
//! quotes, escapes, odd whitespace and non-ASCII bytes are fed to `redis-cli --no-raw` (against a
//! redis-server started here) and to the `ministore` binary. Each line's words come back through
//! `EVAL "return ARGV"`, so any difference in splitting (`sdssplitargs`), the prompt (repeat
//! counts) or rendering (`sdscatrepr`, array numbering) shows up as a differing block.
//! `CLI_DIFF_SEED=n` reruns one seed.

// The `ministore` binary and `serve` are part of the `full` feature.
#![cfg(feature = "full")]

mod support;

use std::process::Command;
use std::time::Duration;

use redis_oracle::{required, run_with_input, RedisServer};
use support::{diff_file, marked_input, CommandLine};

/// Lines per seed; one redis-cli process runs them all.
const LINES_PER_SEED: usize = 300;

/// Pieces lines are built from: the splitter's special characters, escapes valid and not,
/// bytes redis-cli prints as `\xHH`, and plain words.
const PIECES: &[&str] = &[
    " ", " ", "  ", "\t", "\r", "\u{0b}", "\u{0c}", "\"", "\"", "'", "'", "\\", "\\\"", "\\'",
    "\\\\", "\\n", "\\r", "\\t", "\\b", "\\a", "\\x41", "\\x7f", "\\xff", "\\x00", "\\xA", "\\xg0",
    "\\q", "abc", "x", "0", "12", "-1", "é", "\u{1}", "\u{7f}", "\u{80}", "#", "{q}", ":", "$",
    "%", "*",
];

/// A small deterministic PRNG (xorshift64*), so every run feeds the same lines per seed.
struct Lines {
    state: u64,
}

impl Lines {
    fn next(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn tail(&mut self) -> String {
        let pieces = self.below(12);
        (0..pieces)
            .map(|_| PIECES[self.below(PIECES.len())])
            .collect()
    }

    fn line(&mut self) -> String {
        let tail = self.tail();
        match self.below(6) {
            0 => format!("EVAL \"return {{ARGV, {{#ARGV, ARGV}}}}\" 0 {tail}"),
            1 => format!("{} EVAL \"return #ARGV\" 0 {tail}", self.below(4)),
            2 => format!(
                "EVAL \"local t = {{}} for i = 1, 11 do t[i] = ARGV end return t\" 0 {tail}"
            ),
            3 => format!("EVAL {tail}"),
            _ => format!("EVAL \"return ARGV\" 0 {tail}"),
        }
    }
}

fn seeds() -> Vec<u64> {
    match std::env::var("CLI_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        Some(seed) => vec![seed],
        None => vec![1, 2, 3],
    }
}

#[test]
fn random_quoted_lines_print_the_same_as_redis_cli() {
    let Some(server) = required(RedisServer::start()) else {
        return;
    };
    let mut problems = Vec::new();
    for seed in seeds() {
        let mut lines = Lines {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        };
        let commands: Vec<CommandLine> = (1..=LINES_PER_SEED)
            .map(|line_no| CommandLine {
                line_no,
                text: lines.line(),
            })
            .collect();
        let input = marked_input(&commands);

        server.reset();
        let redis_cli = server.cli(["--no-raw"]);
        let expected = run_with_input(redis_cli, input.clone(), Duration::from_secs(120));
        assert!(expected.status.success(), "redis-cli failed: {expected:?}");

        let got = run_with_input(
            Command::new(env!("CARGO_BIN_EXE_ministore")),
            input,
            Duration::from_secs(60),
        );
        let name = format!("seed-{seed}");
        problems.extend(diff_file(
            std::path::Path::new(&name),
            &commands,
            &expected,
            &got,
        ));
    }
    drop(server);
    assert!(
        problems.is_empty(),
        "{} lines print differently from redis-cli --no-raw (rerun one with CLI_DIFF_SEED):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}
