//! `lockcheck`: checks a lock from the command line — your own scripts or a catalogue entry —
//! through every schedule of two or three clients and stalls, and prints each property's verdict
//! and the shortest counterexample as replayable redis-cli lines.
//!
//! Exit status: 0 when the lock keeps its own promises; 1 when a release, or the clean-up after a
//! refused acquire step, deletes or changes another's lock, an extend lengthens, resets, changes
//! or deletes another's lock, or two clients hold while both leases hold; 2 on a usage error, a
//! bad script, or output that could not be written (`--list` and `--help` exit 0 otherwise). The
//! stall and fence properties are reported, never fatal: every lease-based lock breaks the first,
//! and only a fencing token keeps the second.

use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::path::Path;
use std::process::ExitCode;

use lockdive::scenarios::lockcheck::{
    catalogue, check, Bound, CheckReport, LockSpec, OpKind, PropertyReport, Verdict,
};

const USAGE: &str = "\
usage: lockcheck --release release.lua [--acquire acquire.lua] [--extend extend.lua]
                 [--ttl-ms N] [--clients 2|3] [--stalls N] [--attempts N]
       lockcheck --lock <catalogue id> [--ttl-ms N] [--clients 2|3] [--stalls N] [--attempts N]
       lockcheck --list
       lockcheck --help

A file holding Lua (it mentions redis.call, redis.pcall or return) runs as
EVAL <file> 1 <key> <token> <ttl_ms>: KEYS[1] is the lock, ARGV[1] the client's token,
ARGV[2] the lease in ms. Any other file is command templates, one redis-cli line per step,
with {key}, {token}, {ttl_ms}, {ttl_s} and {client}. A step succeeds on any reply but an
error, nil, 0, \"0\", a RESP3 false, or an array that is empty or holds one of these.
Without --acquire: SET {key} {token} NX PX {ttl_ms}.

exit 0: the lock holds its own properties (or --list, --help); 1: it deletes or extends another's
lock, or two clients hold at once; 2: usage error, bad script, or the output could not be written.";

/// What the command line asks for.
#[derive(Default)]
struct Args {
    release: Option<String>,
    acquire: Option<String>,
    extend: Option<String>,
    ttl_ms: Option<u64>,
    lock: Option<String>,
    list: bool,
    help: bool,
    bound: Bound,
}

/// The options that take a value.
const VALUED: [&str; 8] = [
    "--release",
    "--acquire",
    "--extend",
    "--lock",
    "--ttl-ms",
    "--clients",
    "--stalls",
    "--attempts",
];

fn parse_args(raw: &[String]) -> Result<Args, String> {
    let mut args = Args::default();
    // A reader asking for help gets it wherever the flag stands, even where another flag
    // expects a value (`--clients --help`).
    if raw.iter().any(|a| a == "--help" || a == "-h") {
        args.help = true;
        return Ok(args);
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut rest = raw.iter();
    while let Some(flag) = rest.next() {
        let flag = flag.as_str();
        if flag != "--list" && !VALUED.contains(&flag) {
            return Err(format!("unknown option {flag}"));
        }
        // A second value would silently replace the first: the reader may not be checking
        // what they think they are.
        if seen.contains(&flag) {
            return Err(format!("{flag} is given twice"));
        }
        seen.push(flag);
        if flag == "--list" {
            args.list = true;
            continue;
        }
        let value = rest
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?
            .clone();
        let number = |what: &str| {
            value.parse::<u64>().map_err(|_| {
                format!("{what} must be a whole number of milliseconds, not {value:?}")
            })
        };
        let small = |what: &str| {
            value
                .parse::<u8>()
                .map_err(|_| format!("{what} must be a small whole number, not {value:?}"))
        };
        match flag {
            "--release" => args.release = Some(value.clone()),
            "--acquire" => args.acquire = Some(value.clone()),
            "--extend" => args.extend = Some(value.clone()),
            "--lock" => args.lock = Some(value.clone()),
            "--ttl-ms" => args.ttl_ms = Some(number("--ttl-ms")?),
            "--clients" => args.bound.clients = small("--clients")?,
            "--stalls" => args.bound.stalls = small("--stalls")?,
            _ => args.bound.acquire_attempts = small("--attempts")?,
        }
    }
    if args.list {
        if seen.len() > 1 {
            return Err("--list prints the catalogue: leave out every other option".into());
        }
        return Ok(args);
    }
    if args.lock.is_none() && args.release.is_none() {
        return Err("give --release <file>, --lock <id> or --list".into());
    }
    if args.lock.is_some()
        && (args.release.is_some() || args.acquire.is_some() || args.extend.is_some())
    {
        return Err(
            "--lock checks a catalogue entry: leave out --release, --acquire and --extend".into(),
        );
    }
    Ok(args)
}

fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
}

fn spec_from(args: &Args) -> Result<LockSpec, String> {
    if let Some(id) = &args.lock {
        let mut spec = catalogue::by_id(id).map_err(|e| e.to_string())?;
        if let Some(ttl) = args.ttl_ms {
            spec.ttl_ms = ttl;
        }
        return Ok(spec);
    }
    let release = read(args.release.as_deref().unwrap_or_default())?;
    let acquire = args.acquire.as_deref().map(read).transpose()?;
    let extend = args.extend.as_deref().map(read).transpose()?;
    let mut spec = LockSpec::custom(
        acquire.as_deref(),
        &release,
        extend.as_deref(),
        args.ttl_ms.unwrap_or(10_000),
    )
    .map_err(|e| e.to_string())?;
    // A script's steps are shown by the name of the file it came from.
    for (op, path) in [
        (OpKind::Acquire, &args.acquire),
        (OpKind::Release, &args.release),
        (OpKind::Extend, &args.extend),
    ] {
        if let Some(file) = path.as_deref().map(Path::new).and_then(Path::file_name) {
            spec.name_script(op, &file.to_string_lossy());
        }
    }
    Ok(spec)
}

/// The catalogue, one entry a line.
fn list_text() -> String {
    let mut out = String::new();
    let specs = catalogue::all();
    let width = specs.iter().map(|s| s.id.len()).max().unwrap_or(0);
    for spec in specs {
        let from = spec
            .provenance
            .as_ref()
            .map(|p| format!(" — {} ({}, {})", p.library, p.repository, p.licence))
            .unwrap_or_default();
        let _ = writeln!(out, "{:<width$} {}{from}", spec.id, spec.name);
    }
    out
}

fn write_property(out: &mut String, report: &CheckReport, property: &PropertyReport) {
    let mark = match property.verdict {
        Verdict::Holds => "holds ",
        Verdict::Broken => "BROKEN",
    };
    let _ = writeln!(
        out,
        "[{mark}] {} — {} ({} of {} schedules break it)",
        property.property.hook(),
        property.property.label(),
        property.broken_schedules,
        report.schedules,
    );
    if let Some(note) = &property.note {
        let _ = writeln!(out, "         {note}");
    }
    if let Some(counterexample) = &property.counterexample {
        // The script's own first lines say when it does not replay on one connection.
        let _ = writeln!(
            out,
            "         shortest counterexample, {} steps, as a redis-cli script:",
            counterexample.steps.len()
        );
        for line in counterexample.to_cli_script().lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
}

/// The report as the command prints it: the lock, the bound, what was explored, then each
/// property's verdict.
fn report_text(spec: &LockSpec, report: &CheckReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "lock: {} ({})", report.lock_name, report.lock_id);
    if let Some(note) = &spec.note {
        let _ = writeln!(out, "note: {note}");
    }
    let _ = writeln!(
        out,
        "bound: {} clients, {} stall(s) of a full lease ({} ms), {} acquire attempt(s)",
        report.bound.clients, report.bound.stalls, spec.ttl_ms, report.bound.acquire_attempts
    );
    let _ = writeln!(
        out,
        "explored: {} states, {} schedules{}",
        report.states,
        report.schedules,
        if report.cap_reached {
            " (state cap reached: verdicts cover only what was explored)"
        } else {
            ""
        }
    );
    out.push('\n');
    for property in &report.properties {
        write_property(&mut out, report, property);
    }
    out
}

/// Writes `text` to standard output. A reader that closed it (`lockcheck … | head`) has read
/// enough: the verdict's exit status still stands. Any other failure to write is exit 2.
fn emit(text: &str) -> Result<(), ExitCode> {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(err) => {
            complain(&format!(
                "lockcheck: cannot write to standard output: {err}"
            ));
            Err(ExitCode::from(2))
        }
    }
}

/// Writes `text` and a newline to standard error; a closed one is not worth a panic.
fn complain(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&raw) {
        Ok(args) => args,
        Err(message) => {
            complain(&format!("lockcheck: {message}"));
            complain(USAGE);
            return ExitCode::from(2);
        }
    };
    if args.help {
        return match emit(&format!("{USAGE}\n")) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        };
    }
    if args.list {
        return match emit(&list_text()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        };
    }
    let spec = match spec_from(&args) {
        Ok(spec) => spec,
        Err(message) => {
            complain(&format!("lockcheck: {message}"));
            return ExitCode::from(2);
        }
    };
    let report = match check(&spec, args.bound) {
        Ok(report) => report,
        Err(error) => {
            complain(&format!("lockcheck: {error}"));
            return ExitCode::from(2);
        }
    };
    if let Err(code) = emit(&report_text(&spec, &report)) {
        return code;
    }
    if let Some(fault) = &report.script_error {
        let mut text = format!(
            "lockcheck: a step of the lock answered an error: {}",
            fault.error
        );
        for line in fault.schedule.to_cli_script().lines() {
            let _ = write!(text, "\n    {line}");
        }
        complain(&text);
        return ExitCode::from(2);
    }
    if report.fatal() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
