//! The commands about the connection itself: HELLO (protocol version and name), AUTH (there is
//! only the password-less default user), CLIENT ID/SETNAME/GETNAME/LIST/INFO/KILL/NO-EVICT/REPLY/
//! UNBLOCK/HELP, and RESET.

use std::sync::atomic::Ordering;

use super::client::ClientInfo;
use super::conn::{After, Conn, ReplyMode};
use super::lock::lock;
use crate::args::{c_string, is, parse_int};
use crate::error::{printable, ECHO_LIMIT};
use crate::frame::Frame;
use crate::reply::Reply;

const NAME_ERROR: &str = "ERR Client names cannot contain spaces, newlines or special characters.";
const UNBLOCKED: &str = "UNBLOCKED client unblocked via CLIENT UNBLOCK";
const WRONGPASS: &str = "WRONGPASS invalid username-password pair or user is disabled.";

fn bulk(text: &str) -> Frame {
    Frame::Bulk(text.as_bytes().to_vec())
}

fn syntax_error() -> Frame {
    Frame::Error("ERR syntax error".into())
}

fn arity(command: &str) -> Frame {
    Frame::Error(format!(
        "ERR wrong number of arguments for '{command}' command"
    ))
}

/// The word counts a command or subcommand takes, as Redis's command table gives them.
#[derive(Debug, Clone, Copy)]
enum Words {
    Exactly(usize),
    AtLeast(usize),
}

impl Words {
    fn accepts(self, n: usize) -> bool {
        match self {
            Words::Exactly(m) => n == m,
            Words::AtLeast(m) => n >= m,
        }
    }
}

/// The CLIENT subcommands the server answers.
const CLIENT_SUBCOMMANDS: &[(&str, Words)] = &[
    ("id", Words::Exactly(2)),
    ("getname", Words::Exactly(2)),
    ("setname", Words::Exactly(3)),
    ("info", Words::Exactly(2)),
    ("list", Words::AtLeast(2)),
    ("help", Words::Exactly(2)),
    ("kill", Words::AtLeast(3)),
    ("no-evict", Words::Exactly(3)),
    ("reply", Words::Exactly(3)),
    ("unblock", Words::AtLeast(3)),
];

/// The PUBSUB subcommands the server answers (CHANNELS with more than one pattern is refused
/// by the command itself).
const PUBSUB_SUBCOMMANDS: &[(&str, Words)] = &[
    ("help", Words::Exactly(2)),
    ("channels", Words::AtLeast(2)),
    ("numsub", Words::AtLeast(2)),
    ("numpat", Words::Exactly(2)),
    ("shardchannels", Words::AtLeast(2)),
    ("shardnumsub", Words::AtLeast(2)),
];

/// Redis's checks before it runs a command the server answers itself, as it makes them before
/// any other refusal (a subscribed connection's, a busy script's): a wrong word count for the
/// command or its subcommand, or an unknown subcommand (then `true`: CLIENT LIST shows the
/// command as `cmd=NULL`).
pub(super) fn served_refusal(name: &[u8], words: &[Vec<u8>]) -> Option<(Frame, bool)> {
    let (container, table) = match name {
        b"client" => ("client", CLIENT_SUBCOMMANDS),
        b"pubsub" => ("pubsub", PUBSUB_SUBCOMMANDS),
        b"subscribe" => return (words.len() < 2).then(|| (arity("subscribe"), false)),
        b"psubscribe" => return (words.len() < 2).then(|| (arity("psubscribe"), false)),
        b"ssubscribe" => return (words.len() < 2).then(|| (arity("ssubscribe"), false)),
        b"auth" => return (words.len() < 2).then(|| (arity("auth"), false)),
        _ => return None,
    };
    let Some(sub) = words.get(1) else {
        return Some((arity(container), false));
    };
    let lower = sub.to_ascii_lowercase();
    match table.iter().find(|(known, _)| known.as_bytes() == lower) {
        Some((_, count)) if count.accepts(words.len()) => None,
        Some((known, _)) => Some((arity(&format!("{container}|{known}")), false)),
        None => Some((
            Frame::Error(format!(
                "ERR unknown subcommand '{}'. Try {} HELP.",
                printable(c_string(sub), ECHO_LIMIT),
                container.to_ascii_uppercase()
            )),
            true,
        )),
    }
}

/// Redis accepts names of printable ASCII without spaces.
fn valid_name(name: &[u8]) -> bool {
    name.iter().all(|&b| (b'!'..=b'~').contains(&b))
}

impl Conn {
    /// `HELLO [protover [AUTH user pass] [SETNAME name]]`: switches the protocol and replies
    /// the server's description (a map in RESP3).
    pub(super) fn hello(&mut self, words: &[Vec<u8>]) -> Frame {
        let mut version = if self.resp3 { 3 } else { 2 };
        if let Some(requested) = words.get(1) {
            // Redis's `string2ll`: no sign but `-`, no leading zero, no `-0`.
            let parsed = parse_int(requested);
            match parsed {
                None => {
                    return Frame::Error(
                        "ERR Protocol version is not an integer or out of range".into(),
                    )
                }
                Some(v @ (2 | 3)) => version = v,
                Some(_) => return Frame::Error("NOPROTO unsupported protocol version".into()),
            }
        }
        // Redis applies each option as it reads it: a name set before a failing option stays.
        let mut i = 2;
        while i < words.len() {
            let more = words.len() - i - 1;
            if is(&words[i], "auth") && more >= 2 {
                if let Some(error) = check_credentials(&words[i + 1], &words[i + 2]) {
                    return error;
                }
                i += 3;
            } else if is(&words[i], "setname") && more >= 1 {
                if !valid_name(&words[i + 1]) {
                    return Frame::Error(NAME_ERROR.into());
                }
                lock(&self.info.state).name = words[i + 1].clone();
                i += 2;
            } else {
                return Frame::Error(format!(
                    "ERR Syntax error in HELLO option '{}'",
                    printable(c_string(&words[i]), usize::MAX)
                ));
            }
        }
        self.resp3 = version == 3;
        lock(&self.info.state).resp = if self.resp3 { 3 } else { 2 };
        Frame::Map(vec![
            (bulk("server"), bulk("redis")),
            (bulk("version"), bulk("7.0.15")),
            (bulk("proto"), Frame::Integer(version)),
            (bulk("id"), Frame::Integer(self.client_id())),
            (bulk("mode"), bulk("standalone")),
            (bulk("role"), bulk("master")),
            (bulk("modules"), Frame::Array(Vec::new())),
        ])
    }

    /// `AUTH [user] password`: only the default user exists and it needs no password.
    pub(super) fn auth(&mut self, words: &[Vec<u8>]) -> Frame {
        match words {
            [_] => arity("auth"),
            [_, _] => Frame::Error("ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?".into()),
            [_, user, password] => check_credentials(user, password).unwrap_or(Frame::Simple("OK".into())),
            _ => syntax_error(),
        }
    }

    fn client_id(&self) -> i64 {
        i64::try_from(self.info.id).unwrap_or(i64::MAX)
    }

    /// `CLIENT <subcommand>`.
    pub(super) fn client(&mut self, words: &[Vec<u8>]) -> (Option<Frame>, After) {
        if let Some((refusal, _)) = served_refusal(b"client", words) {
            return (Some(refusal), After::Continue);
        }
        let sub_lower = words[1].to_ascii_lowercase();
        let frame = match (sub_lower.as_slice(), words.len()) {
            (b"id", 2) => Frame::Integer(self.client_id()),
            (b"getname", 2) => {
                let name = lock(&self.info.state).name.clone();
                if name.is_empty() {
                    Frame::NullBulk
                } else {
                    Frame::Bulk(name)
                }
            }
            (b"setname", 3) => {
                if valid_name(&words[2]) {
                    lock(&self.info.state).name = words[2].clone();
                    Frame::Simple("OK".into())
                } else {
                    Frame::Error(NAME_ERROR.into())
                }
            }
            (b"info", 2) => {
                Frame::verbatim_text(format!("{}\n", self.info.describe()).into_bytes())
            }
            (b"list", _) => self.client_list(&words[2..]),
            (b"help", 2) => {
                let lines = std::iter::once(
                    "CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                )
                .chain(CLIENT_HELP.iter().copied())
                .chain(["HELP", "    Prints this help."]);
                Frame::Array(lines.map(|line| Frame::Simple(line.into())).collect())
            }
            (b"kill", n) if n >= 3 => return self.client_kill(&words[2..]),
            (b"no-evict", 3) => match words[2].to_ascii_lowercase().as_slice() {
                on @ (b"on" | b"off") => {
                    lock(&self.info.state).no_evict = on == b"on";
                    Frame::Simple("OK".into())
                }
                _ => syntax_error(),
            },
            (b"reply", 3) => match words[2].to_ascii_lowercase().as_slice() {
                b"on" => {
                    self.replies = ReplyMode::default();
                    Frame::Simple("OK".into())
                }
                b"off" => {
                    self.replies.off = true;
                    return (None, After::Continue);
                }
                b"skip" => {
                    self.replies.skip_next = !self.replies.off;
                    return (None, After::Continue);
                }
                _ => syntax_error(),
            },
            (b"unblock", 3 | 4) => self.client_unblock(&words[2], words.get(3)),
            // Every other subcommand and word count was refused above but UNBLOCK's five or
            // more, which the command itself refuses.
            _ => Frame::Error(format!(
                "ERR unknown subcommand or wrong number of arguments for '{}'. Try CLIENT HELP.",
                printable(c_string(&words[1]), usize::MAX)
            )),
        };
        (Some(frame), After::Continue)
    }

    /// `CLIENT UNBLOCK id [TIMEOUT|ERROR]`: a client waiting in a blocking command gets what
    /// its timeout would have given it (TIMEOUT, the default) or Redis's UNBLOCKED error; 1 if
    /// one was waiting, else 0. The reason is read before the id, as Redis reads them.
    fn client_unblock(&self, id: &[u8], reason: Option<&Vec<u8>>) -> Frame {
        let reply = match reason {
            None => Reply::Nil,
            Some(r) if is(r, "timeout") => Reply::Nil,
            Some(r) if is(r, "error") => Reply::Error(UNBLOCKED.into()),
            Some(_) => {
                return Frame::Error("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR".into())
            }
        };
        let Some(id) = parse_int(id) else {
            return Frame::Error("ERR value is not an integer or out of range".into());
        };
        let Ok(id) = u64::try_from(id) else {
            return Frame::Integer(0);
        };
        let store = match self.shared.lock_store() {
            Ok(store) => store,
            Err(busy) => return busy,
        };
        let unblocked = self.shared.waiters.unblock(id, reply);
        drop(store);
        if unblocked {
            self.shared.wake_blocked_now();
        }
        Frame::Integer(i64::from(unblocked))
    }

    /// `CLIENT LIST`, `CLIENT LIST TYPE <type>` or `CLIENT LIST ID <id> …`, read as Redis 7.0
    /// reads them: the ids as integers, each listed where it is given (a gone one skipped).
    fn client_list(&self, options: &[Vec<u8>]) -> Frame {
        let clients = lock(&self.shared.clients);
        let mut text = String::new();
        let mut line = |client: &ClientInfo| {
            text.push_str(&client.describe());
            text.push('\n');
        };
        match options {
            [] => clients.values().for_each(|client| line(client)),
            [option, kind] if is(option, "type") => {
                let pubsub = match () {
                    _ if is(kind, "normal") => false,
                    _ if is(kind, "pubsub") => true,
                    _ if is(kind, "master") || is(kind, "replica") || is(kind, "slave") => {
                        return Frame::verbatim_text(Vec::new())
                    }
                    _ => {
                        return Frame::Error(format!(
                            "ERR Unknown client type '{}'",
                            printable(c_string(kind), usize::MAX)
                        ))
                    }
                };
                clients
                    .values()
                    .filter(|client| client.is_subscriber() == pubsub)
                    .for_each(|client| line(client));
            }
            [option, ids @ ..] if is(option, "id") && !ids.is_empty() => {
                for id in ids {
                    let Some(id) = parse_int(id) else {
                        return Frame::Error("ERR Invalid client ID".into());
                    };
                    if let Some(client) = u64::try_from(id).ok().and_then(|id| clients.get(&id)) {
                        line(client);
                    }
                }
            }
            _ => return syntax_error(),
        }
        Frame::verbatim_text(text.into_bytes())
    }

    /// `CLIENT KILL ip:port` (OK or an error) or `CLIENT KILL <filter value> …` (a count).
    fn client_kill(&mut self, args: &[Vec<u8>]) -> (Option<Frame>, After) {
        let clients: Vec<_> = lock(&self.shared.clients).values().cloned().collect();
        if let [addr] = args {
            let Some(target) = clients
                .iter()
                .find(|c| c.addr.as_bytes() == addr.as_slice())
            else {
                return (
                    Some(Frame::Error("ERR No such client".into())),
                    After::Continue,
                );
            };
            return self.kill_clients(vec![target.clone()], true);
        }
        if !args.len().is_multiple_of(2) {
            return (Some(syntax_error()), After::Continue);
        }
        // Each filter is one setting, a later one replacing an earlier one, as in Redis.
        let mut skip_me = true;
        let (mut id, mut addr, mut laddr) = (None, None, None);
        // Whether the client must be a subscriber; `Some(None)` for a type no client here has.
        let mut kind: Option<Option<bool>> = None;
        for pair in args.chunks_exact(2) {
            let (filter, value) = (&pair[0], &pair[1]);
            let text = String::from_utf8_lossy(value).into_owned();
            let shown = printable(c_string(value), usize::MAX);
            match () {
                _ if is(filter, "id") => match parse_int(value) {
                    Some(n) if n > 0 => id = Some(n as u64),
                    _ => {
                        let error = Frame::Error("ERR client-id should be greater than 0".into());
                        return (Some(error), After::Continue);
                    }
                },
                _ if is(filter, "addr") => addr = Some(text),
                _ if is(filter, "laddr") => laddr = Some(text),
                _ if is(filter, "user") => {
                    if text != "default" {
                        let error = format!("ERR No such user '{shown}'");
                        return (Some(Frame::Error(error)), After::Continue);
                    }
                }
                _ if is(filter, "type") => {
                    kind = Some(match () {
                        _ if is(value, "normal") => Some(false),
                        _ if is(value, "pubsub") => Some(true),
                        _ if is(value, "master") || is(value, "replica") || is(value, "slave") => {
                            None
                        }
                        _ => {
                            let error = format!("ERR Unknown client type '{shown}'");
                            return (Some(Frame::Error(error)), After::Continue);
                        }
                    })
                }
                _ if is(filter, "skipme") => match () {
                    _ if is(value, "yes") => skip_me = true,
                    _ if is(value, "no") => skip_me = false,
                    _ => return (Some(syntax_error()), After::Continue),
                },
                _ => return (Some(syntax_error()), After::Continue),
            }
        }
        let mut targets = clients;
        targets.retain(|c| {
            id.is_none_or(|id| c.id == id)
                && addr.as_ref().is_none_or(|addr| &c.addr == addr)
                && laddr.as_ref().is_none_or(|laddr| &c.laddr == laddr)
                && kind.is_none_or(|kind| kind == Some(c.is_subscriber()))
                && !(skip_me && c.id == self.info.id)
        });
        self.kill_clients(targets, false)
    }

    /// Closes `targets`; this connection itself closes after its reply.
    fn kill_clients(
        &mut self,
        targets: Vec<std::sync::Arc<super::client::ClientInfo>>,
        old_form: bool,
    ) -> (Option<Frame>, After) {
        let count = i64::try_from(targets.len()).unwrap_or(i64::MAX);
        let mut after = After::Continue;
        for target in targets {
            if target.id == self.info.id {
                after = After::Close;
            } else {
                // Gone at once for the commands after this one, as Redis frees the client
                // in CLIENT KILL: from the client table and from every channel it listened to.
                target.kill();
                lock(&self.shared.clients).remove(&target.id);
                lock(&self.shared.pubsub).forget_client(target.id);
                self.shared.wake_blocked_now();
            }
        }
        let frame = if old_form {
            Frame::Simple("OK".into())
        } else {
            Frame::Integer(count)
        };
        (Some(frame), after)
    }

    /// `RESET`: back to a fresh connection — RESP2, no name, no subscriptions, no MULTI.
    pub(super) fn reset(&mut self) -> Frame {
        self.clear_multi();
        // RESET turns replies back on; NO-EVICT stays as it was. A SKIP already holding back
        // this command's reply holds back RESET's too (Redis clears OFF and SKIP's next, not
        // the skip in force).
        self.replies = ReplyMode {
            skip_this: self.replies.skip_this,
            ..ReplyMode::default()
        };
        self.drop_all_subscriptions();
        self.resp3 = false;
        {
            let mut state = lock(&self.info.state);
            state.resp = 2;
            state.name.clear();
            state.db = 0;
        }
        self.reset_session();
        self.info.killed.store(false, Ordering::Release);
        Frame::Simple("RESET".into())
    }
}

/// The only user is `default`, with no password: any password is accepted for it.
fn check_credentials(user: &[u8], _password: &[u8]) -> Option<Frame> {
    if user == b"default" {
        None
    } else {
        Some(Frame::Error(WRONGPASS.into()))
    }
}

/// CLIENT HELP's lines between its header and footer, as Redis 7.0 prints them.
const CLIENT_HELP: &[&str] = &[
    "CACHING (YES|NO)",
    "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
    "GETREDIR",
    "    Return the client ID we are redirecting to when tracking is enabled.",
    "GETNAME",
    "    Return the name of the current connection.",
    "ID",
    "    Return the ID of the current connection.",
    "INFO",
    "    Return information about the current client connection.",
    "KILL <ip:port>",
    "    Kill connection made from <ip:port>.",
    "KILL <option> <value> [<option> <value> [...]]",
    "    Kill connections. Options are:",
    "    * ADDR (<ip:port>|<unixsocket>:0)",
    "      Kill connections made from the specified address",
    "    * LADDR (<ip:port>|<unixsocket>:0)",
    "      Kill connections made to specified local address",
    "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
    "      Kill connections by type.",
    "    * USER <username>",
    "      Kill connections authenticated by <username>.",
    "    * SKIPME (YES|NO)",
    "      Skip killing current connection (default: yes).",
    "LIST [options ...]",
    "    Return information about client connections. Options:",
    "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
    "      Return clients of specified type.",
    "UNPAUSE",
    "    Stop the current client pause, resuming traffic.",
    "PAUSE <timeout> [WRITE|ALL]",
    "    Suspend all, or just write, clients for <timeout> milliseconds.",
    "REPLY (ON|OFF|SKIP)",
    "    Control the replies sent to the current connection.",
    "SETNAME <name>",
    "    Assign the name <name> to the current connection.",
    "UNBLOCK <clientid> [TIMEOUT|ERROR]",
    "    Unblock the specified blocked client.",
    "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
    "         [OPTIN] [OPTOUT] [NOLOOP]",
    "    Control server assisted client side caching.",
    "TRACKINGINFO",
    "    Report tracking status for the current connection.",
    "NO-EVICT (ON|OFF)",
    "    Protect current client connection from eviction.",
];
