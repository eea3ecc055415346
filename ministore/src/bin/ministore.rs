//! The `ministore` command: reads redis-cli style command lines from stdin and prints each
//! reply exactly as `redis-cli --no-raw` prints it against a fresh Redis 7.0.
//! Every run starts with an empty store and the virtual clock at 0.
//! `ministore serve` instead serves the store over TCP with the Redis protocol (native only).

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use ministore::cli::{prompt_action, PromptAction};
use ministore::Store;

const USAGE: &str = "usage: ministore < commands.txt\n\
       ministore serve [--port P] [--bind ADDR] [--clock real|virtual] [--busy-reply-threshold MS]\n\
Reads one command per line in redis-cli syntax and prints every reply as\n\
`redis-cli --no-raw` does, against a store that starts empty at virtual time 0.\n\
`serve` listens on ADDR:P (default 127.0.0.1:6379) and speaks RESP2/RESP3 to any Redis client.\n";

fn main() -> ExitCode {
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::args_os().nth(1).is_some_and(|a| a == "serve") {
        return serve(std::env::args().skip(2).collect());
    }
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
            // redis-cli's command docs are not carried: nothing printed (see the README).
            PromptAction::HelpOn(_) => {}
            PromptAction::Print(text) => out.write_all(&text)?,
            PromptAction::Help => out.write_all(ministore::cli::GENERAL_HELP.as_bytes())?,
            PromptAction::Clear => out.write_all(ministore::cli::CLEAR_SCREEN)?,
            PromptAction::Send { times, command } => {
                for _ in 0..times {
                    let reply = store.exec(&command);
                    out.write_all(&ministore::cli::printed(&command, &reply))?;
                }
            }
        }
    }
    out.flush()
}

/// `ministore serve …`: parses the options and serves until SHUTDOWN.
#[cfg(not(target_arch = "wasm32"))]
fn serve(args: Vec<String>) -> ExitCode {
    use ministore::serve::{ClockMode, Config, Server};
    let mut config = Config::default();
    let mut args = args.into_iter();
    while let Some(option) = args.next() {
        let value = args.next();
        let ok = match (option.as_str(), value.as_deref()) {
            ("--port", Some(v)) => v.parse().map(|p| config.port = p).is_ok(),
            ("--bind", Some(v)) => {
                config.bind = v.to_string();
                true
            }
            ("--clock", Some("real")) => {
                config.clock = ClockMode::Real;
                true
            }
            ("--clock", Some("virtual")) => {
                config.clock = ClockMode::Virtual;
                true
            }
            ("--busy-reply-threshold", Some(v)) => v
                .parse()
                .map(|ms| config.busy_threshold = std::time::Duration::from_millis(ms))
                .is_ok(),
            _ => false,
        };
        if !ok {
            eprint!("ministore: bad option {option}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let server = match Server::bind(&config) {
        Ok(server) => server,
        Err(err) => {
            eprintln!(
                "ministore: cannot listen on {}:{}: {err}",
                config.bind, config.port
            );
            return ExitCode::FAILURE;
        }
    };
    if let Ok(addr) = server.local_addr() {
        eprintln!("ministore: ready to accept connections on {addr}");
    }
    match server.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("ministore: {err}");
            ExitCode::FAILURE
        }
    }
}
