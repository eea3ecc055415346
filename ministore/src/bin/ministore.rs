//! The `ministore` command: reads redis-cli style command lines from stdin and prints each
//! reply exactly as `redis-cli --no-raw` prints it against a fresh Redis 7.0.
//! Every run starts with an empty store and the virtual clock at 0.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use ministore::cli::{prompt_action, PromptAction};
use ministore::Store;

const USAGE: &str = "usage: ministore < commands.txt\n\
Reads one command per line in redis-cli syntax and prints every reply as\n\
`redis-cli --no-raw` does, against a store that starts empty at virtual time 0.\n";

fn main() -> ExitCode {
    if std::env::args_os().len() > 1 {
        // Any argument (including --help) gets the usage; only stdin drives the store.
        eprint!("{USAGE}");
        return ExitCode::from(2);
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    match run(stdin.lock(), stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (`ministore < f | head`) is how the reader says it has enough.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("ministore: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Feeds every line of `input` to one store, the way redis-cli's prompt feeds a server.
fn run(mut input: impl BufRead, output: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(output);
    let mut store = Store::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        // Lines are bytes, not UTF-8: redis-cli passes any byte through to the server.
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        match prompt_action(&line) {
            PromptAction::Skip => {}
            PromptAction::Quit => break,
            PromptAction::Print(text) => out.write_all(&text)?,
            PromptAction::Send { times, command } => {
                for _ in 0..times {
                    out.write_all(store.exec(&command).to_cli_text().as_bytes())?;
                }
            }
        }
    }
    out.flush()
}
