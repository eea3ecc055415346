//! Redis 7.0 functions: FUNCTION LOAD [REPLACE], LIST [LIBRARYNAME pattern] [WITHCODE], DELETE,
//! FLUSH, STATS, KILL and HELP, and FCALL / FCALL_RO. A library is `#!lua name=<lib>` code whose
//! top level registers functions (see [`crate::lua::Library`]). FUNCTION DUMP and RESTORE
//! (Redis's binary payloads) are not implemented: they are in the subcommand table, so MULTI
//! queues them and a script is refused them as in Redis, and when run they answer as unknown
//! subcommands.

use super::libraries::{FunctionCounts, Libraries, Loaded};
use super::scripting::ScriptCache;
use super::{CommandResult, Subcommand};
use crate::args::{is, parse_int};
use crate::error::CommandError;
use crate::glob;
use crate::keyspace::Keyspace;
use crate::lua::Library;
use crate::reply::Reply;

/// FUNCTION's subcommands with their arities; a script may call only HELP.
pub(super) const SUBCOMMANDS: &[Subcommand] = &[
    Subcommand {
        name: "dump",
        full: "function|dump",
        arity: 2,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "restore",
        full: "function|restore",
        arity: -3,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "load",
        full: "function|load",
        arity: -3,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "delete",
        full: "function|delete",
        arity: 3,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "flush",
        full: "function|flush",
        arity: -2,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "list",
        full: "function|list",
        arity: -2,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "stats",
        full: "function|stats",
        arity: 2,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "kill",
        full: "function|kill",
        arity: 2,
        allowed_in_scripts: false,
    },
    Subcommand {
        name: "help",
        full: "function|help",
        arity: 2,
        allowed_in_scripts: true,
    },
];

/// `FUNCTION LOAD|LIST|DELETE|FLUSH|STATS|KILL|HELP …`
pub(crate) fn function(
    _: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> CommandResult {
    let sub = words[1];
    match super::subcommand("FUNCTION", SUBCOMMANDS, words)?.name {
        "load" => load(scripts, words),
        "delete" => {
            let libraries = &mut scripts.functions.loaded;
            let at = libraries
                .iter()
                .position(|l| l.name == words[2])
                .ok_or(CommandError::LibraryNotFound)?;
            libraries.remove(at);
            Ok(Reply::ok())
        }
        "flush" => match words {
            [_, _] => flush(scripts),
            [_, _, mode] if is(mode, "sync") || is(mode, "async") => flush(scripts),
            [_, _, _] => Err(CommandError::FunctionFlushOption),
            _ => Err(CommandError::SubcommandSyntax {
                container: "FUNCTION",
                sub: sub.to_vec(),
            }),
        },
        "list" => list(scripts, words),
        "stats" => Ok(stats(&scripts.functions)),
        "kill" => Err(CommandError::NotBusy),
        "dump" | "restore" => Err(CommandError::UnknownSubcommand {
            container: "FUNCTION",
            sub: sub.to_vec(),
        }),
        _ => Ok(help()),
    }
}

/// `FUNCTION HELP`'s reply.
pub(super) fn help() -> Reply {
    super::help_reply(HELP)
}

fn flush(scripts: &mut ScriptCache) -> CommandResult {
    scripts.functions.loaded.clear();
    Ok(Reply::ok())
}

/// `FUNCTION LOAD [REPLACE] code`, checked in Redis's order: options, the `#!` metadata, the
/// library name, the engine, an existing library, the code itself, then clashes of its
/// function names with other libraries'.
fn load(scripts: &mut ScriptCache, words: &[&[u8]]) -> CommandResult {
    let mut replace = false;
    let mut at = 2;
    while at < words.len() - 1 {
        if !is(words[at], "replace") {
            return Err(CommandError::UnknownFunctionLoadOption {
                option: words[at].to_vec(),
            });
        }
        replace = true;
        at += 1;
    }
    let code = words[at];
    let Metadata { name, engine, body } = metadata(code)?;
    if !valid_name(&name) {
        return Err(CommandError::BadLibraryName);
    }
    if !engine.eq_ignore_ascii_case(b"lua") {
        return Err(CommandError::EngineNotFound { engine });
    }
    let existing = scripts.functions.loaded.iter().position(|l| l.name == name);
    if existing.is_some() && !replace {
        return Err(CommandError::LibraryExists { name });
    }
    let library = Library::load(body, scripts.step_budget())
        .map_err(|message| CommandError::LibraryLoad { message })?;
    for function in library.functions() {
        let clash = scripts.functions.loaded.iter().any(|other| {
            other.name != name
                && other
                    .library
                    .functions()
                    .iter()
                    .any(|f| f.name.eq_ignore_ascii_case(&function.name))
        });
        if clash {
            return Err(CommandError::FunctionExists {
                name: function.name.clone(),
            });
        }
    }
    let loaded = Loaded {
        name: name.clone(),
        code: code.to_vec(),
        library,
    };
    match existing {
        Some(at) => scripts.functions.loaded[at] = loaded,
        None => scripts.functions.loaded.push(loaded),
    }
    Ok(Reply::Bulk(name))
}

/// What a library's `#!<engine> name=<lib>` line says.
struct Metadata<'a> {
    name: Vec<u8>,
    engine: Vec<u8>,
    /// The code from the line's newline on (so line numbers count the shebang).
    body: &'a [u8],
}

/// Reads the `#!` line as Redis's `functionExtractLibMetaData` does.
fn metadata(code: &[u8]) -> Result<Metadata<'_>, CommandError> {
    if !code.starts_with(b"#!") {
        return Err(CommandError::MissingLibraryMetadata);
    }
    // `strchr(payload, '\n')`: a zero byte before the line's end ends the search.
    let end = crate::args::c_string(code)
        .iter()
        .position(|&b| b == b'\n')
        .ok_or(CommandError::InvalidLibraryMetadata)?;
    let parts = match crate::cli::split_line(&code[..end]) {
        Ok(parts) if !parts.is_empty() => parts,
        _ => return Err(CommandError::InvalidLibraryMetadata),
    };
    let engine = parts[0].get(2..).unwrap_or_default().to_vec();
    let mut name = None;
    for part in &parts[1..] {
        if part.len() >= 5 && part[..5].eq_ignore_ascii_case(b"name=") {
            if name.is_some() {
                return Err(CommandError::LibraryNameRepeated);
            }
            name = Some(part[5..].to_vec());
            continue;
        }
        return Err(CommandError::InvalidMetadataValue { part: part.clone() });
    }
    let name = name.ok_or(CommandError::LibraryNameMissing)?;
    Ok(Metadata {
        name,
        engine,
        body: &code[end..],
    })
}

/// Letters, digits and `_`, at least one.
fn valid_name(name: &[u8]) -> bool {
    !name.is_empty() && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// `FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE]`
fn list(scripts: &ScriptCache, words: &[&[u8]]) -> CommandResult {
    let mut with_code = false;
    let mut pattern: Option<&[u8]> = None;
    let mut at = 2;
    while at < words.len() {
        let word = words[at];
        if !with_code && is(word, "withcode") {
            with_code = true;
        } else if pattern.is_none() && is(word, "libraryname") {
            at += 1;
            pattern = Some(words.get(at).ok_or(CommandError::LibraryNameArgMissing)?);
        } else {
            return Err(CommandError::UnknownArgument { arg: word.to_vec() });
        }
        at += 1;
    }
    let libraries = scripts
        .functions
        .loaded
        .iter()
        .filter(|l| pattern.is_none_or(|p| glob::matches_nocase(p, &l.name)))
        .map(|l| library_reply(l, with_code))
        .collect();
    Ok(Reply::Array(libraries))
}

fn library_reply(loaded: &Loaded, with_code: bool) -> Reply {
    let functions = loaded
        .library
        .functions()
        .iter()
        .map(|f| {
            Reply::Array(vec![
                Reply::bulk("name"),
                Reply::Bulk(f.name.clone()),
                Reply::bulk("description"),
                f.description.clone().map_or(Reply::Nil, Reply::Bulk),
                Reply::bulk("flags"),
                Reply::Array(
                    f.flags
                        .iter()
                        .map(|flag| Reply::Status(flag.to_string()))
                        .collect(),
                ),
            ])
        })
        .collect();
    let mut fields = vec![
        Reply::bulk("library_name"),
        Reply::Bulk(loaded.name.clone()),
        Reply::bulk("engine"),
        Reply::bulk("LUA"),
        Reply::bulk("functions"),
        Reply::Array(functions),
    ];
    if with_code {
        fields.push(Reply::bulk("library_code"));
        fields.push(Reply::Bulk(loaded.code.clone()));
    }
    Reply::Array(fields)
}

/// `FUNCTION STATS` from a client of the store: no function is ever running when a command
/// arrives here (a server answers it while one runs with [`stats_reply`] itself).
fn stats(libraries: &Libraries) -> Reply {
    stats_reply(None, libraries.counts())
}

/// FUNCTION STATS's reply: `running_script` (nil, or [`running_function`]'s description) and
/// the Lua engine's counts.
pub(crate) fn stats_reply(running: Option<Reply>, counts: FunctionCounts) -> Reply {
    let count = |n: usize| Reply::Integer(i64::try_from(n).unwrap_or(i64::MAX));
    Reply::Array(vec![
        Reply::bulk("running_script"),
        running.unwrap_or(Reply::Nil),
        Reply::bulk("engines"),
        Reply::Array(vec![
            Reply::bulk("LUA"),
            Reply::Array(vec![
                Reply::bulk("libraries_count"),
                count(counts.libraries),
                Reply::bulk("functions_count"),
                count(counts.functions),
            ]),
        ]),
    ])
}

/// FUNCTION STATS's `running_script` for a function that runs: its registered name, the FCALL
/// that called it and how long it has run (a server's, which can answer while one runs).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn running_function(name: &[u8], command: &[Vec<u8>], ms: i64) -> Reply {
    Reply::Array(vec![
        Reply::bulk("name"),
        Reply::bulk(name),
        Reply::bulk("command"),
        Reply::Array(command.iter().map(|w| Reply::bulk(w.as_slice())).collect()),
        Reply::bulk("duration_ms"),
        Reply::Integer(ms),
    ])
}

/// `FCALL function numkeys [key ...] [arg ...]`
pub(crate) fn fcall(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> CommandResult {
    call(keyspace, scripts, words, false)
}

/// `FCALL_RO function numkeys [key ...] [arg ...]` — only `no-writes` functions.
pub(crate) fn fcall_ro(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
) -> CommandResult {
    call(keyspace, scripts, words, true)
}

fn call(
    keyspace: &mut Keyspace,
    scripts: &mut ScriptCache,
    words: &[&[u8]],
    ro_command: bool,
) -> CommandResult {
    let (library, function) = scripts
        .functions
        .function(words[1])
        .ok_or(CommandError::FunctionNotFound)?;
    let numkeys = parse_int(words[2]).ok_or(CommandError::BadNumberOfKeys)?;
    let available = words.len() - 3;
    if numkeys < 0 {
        return Err(CommandError::NegativeKeyCount);
    }
    let numkeys = usize::try_from(numkeys).map_err(|_| CommandError::TooManyKeys)?;
    if numkeys > available {
        return Err(CommandError::TooManyKeys);
    }
    // Redis checks the key count first, then the flags (`scriptPrepareForRun`).
    if ro_command && !function.is_read_only() {
        return Err(CommandError::WriteFlagWithRoCommand);
    }
    let (keys, argv) = words[3..].split_at(numkeys);
    let read_only = function.is_read_only() || ro_command;
    // FCALL finds a function in any case; it runs, and errors name it, as registered.
    let name = function.name.clone();
    Ok(scripts.run_function(keyspace, library, &name, keys, argv, read_only))
}

/// The lines of `FUNCTION HELP`, as Redis 7.0 prints them.
const HELP: &[&str] = &[
    "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "LOAD [REPLACE] <FUNCTION CODE>",
    "    Create a new library with the given library name and code.",
    "DELETE <LIBRARY NAME>",
    "    Delete the given library.",
    "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
    "    Return general information on all the libraries:",
    "    * Library name",
    "    * The engine used to run the Library",
    "    * Library description",
    "    * Functions list",
    "    * Library code (if WITHCODE is given)",
    "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
    "STATS",
    "    Return information about the current function running:",
    "    * Function name",
    "    * Command used to run the function",
    "    * Duration in MS that the function is running",
    "    If no function is running, return nil",
    "    In addition, returns a list of available engines.",
    "KILL",
    "    Kill the current running function.",
    "FLUSH [ASYNC|SYNC]",
    "    Delete all the libraries.",
    "    When called without the optional mode argument, the behavior is determined by the",
    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
    "    * ASYNC: Asynchronously flush the libraries.",
    "    * SYNC: Synchronously flush the libraries.",
    "DUMP",
    "    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command",
    "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
    "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
    "    control how to handle existing libraries (default APPEND):",
    "    * FLUSH: delete all existing libraries.",
    "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
    "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
    "      libraries with the new libraries (notice that even on this option there is a chance of failure",
    "      in case of functions name collision with another library).",
    "HELP",
    "    Prints this help.",
];
