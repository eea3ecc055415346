//! One client connection: reads requests (pipelined or not) off its socket, runs each — the
//! connection-level commands here and in its sibling modules, everything else in the shared
//! store under its lock — and puts the replies of a batch in its output in one piece, for its
//! writer thread to send.

use std::io::{ErrorKind, Read};
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::busy::RunningFunction;
use super::client::ClientInfo;
use super::client_cmd::served_refusal;
use super::lock::lock;
use super::pubsub::Namespace;
use super::resp::{parse_resuming, Partial};
use super::shared::{ClockMode, Shared};
use super::subscribe::Subscriptions;
use crate::args::is;
use crate::cmd::blocking::timeout_position;
use crate::frame::Frame;
use crate::reply::Reply;
use crate::shape::{shape, shape_exec};
use crate::Session;

/// How much is read from the socket at a time.
const READ_CHUNK: usize = 16 * 1024;

/// A connection's own state.
pub struct Conn {
    pub(super) shared: Arc<Shared>,
    pub(super) info: Arc<ClientInfo>,
    pub(super) reader: TcpStream,
    /// The client asked for RESP3 with HELLO 3.
    pub(super) resp3: bool,
    /// Subscribed channels, patterns and shard channels.
    pub(super) subscriptions: Subscriptions,
    /// The commands queued since MULTI (to shape EXEC's reply); `None` outside MULTI.
    queued: Option<Vec<Vec<Vec<u8>>>>,
    /// The store's state for this client: selected database, MULTI queue, WATCHed keys.
    pub(super) session: Session,
    /// What was read off the socket and not run yet (a blocked client's sent-ahead commands
    /// land here too).
    pub(super) pending: Vec<u8>,
    /// CLIENT REPLY's setting.
    pub(super) replies: ReplyMode,
    /// The request at the front of `pending` as far as it has been read, when incomplete.
    partial: Option<Partial>,
    /// WATCH lists a RESET took out of the session while a script held the store, forgotten
    /// in the store the next time this connection takes it.
    stale_watchers: Vec<crate::keyspace::WatcherId>,
}

/// CLIENT REPLY: OFF sends no reply until ON; SKIP holds back the next command's reply.
#[derive(Debug, Default)]
pub struct ReplyMode {
    pub off: bool,
    /// SKIP was the last command: the next one's reply is held back.
    pub skip_next: bool,
    /// The command being run is the one after SKIP.
    pub skip_this: bool,
}

impl ReplyMode {
    /// Whether the command being run gets no reply.
    fn silent(&self) -> bool {
        self.off || self.skip_this
    }
}

/// What the connection does after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// Read the next command.
    Continue,
    /// Send what is pending, then close (QUIT, a protocol error, CLIENT KILL of itself).
    Close,
    /// Read and run nothing more but keep the connection open: a QUIT, a CLIENT KILL of itself
    /// or a protocol error whose reply CLIENT REPLY holds back, with nothing else to send.
    /// Redis closes such a client once it next writes to it (`CLIENT_CLOSE_AFTER_REPLY`), and a
    /// pub/sub message is the only thing that can still come; until then it waits, flagged `c`.
    Linger,
}

/// How much stack a client's writer thread gets: it only copies bytes to its socket.
const WRITER_STACK: usize = 64 * 1024;

/// Serves one accepted connection, the `id`th, until it closes.
pub fn serve_connection(shared: Arc<Shared>, stream: TcpStream, id: u64) {
    let _ = stream.set_nodelay(true);
    let Ok(info) = ClientInfo::new(id, &stream) else {
        return;
    };
    let info = Arc::new(info);
    let output = info.clone();
    let writer = std::thread::Builder::new()
        .name("ministore-writer".into())
        .stack_size(WRITER_STACK)
        .spawn(move || output.outbox.write_out());
    if writer.is_err() {
        return;
    }
    lock(&shared.clients).insert(id, info.clone());
    let mut conn = Conn {
        shared: shared.clone(),
        info: info.clone(),
        reader: stream,
        resp3: false,
        subscriptions: Subscriptions::default(),
        queued: None,
        session: Session::new(),
        pending: Vec::new(),
        replies: ReplyMode::default(),
        partial: None,
        stale_watchers: Vec::new(),
    };
    conn.run();
    conn.forget_subscriptions();
    let mut store = lock(&shared.store);
    forget_watchers(&mut conn.stale_watchers, &mut store);
    store.end_session(&mut conn.session);
    drop(store);
    lock(&shared.clients).remove(&id);
    // What is still queued goes out (a QUIT's OK, a protocol error), then the socket closes.
    info.outbox.close_when_sent();
}

impl Conn {
    fn run(&mut self) {
        let mut chunk = vec![0u8; READ_CHUNK];
        loop {
            let n = match self.reader.read(&mut chunk) {
                Ok(n @ 1..) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                // The client is gone, or sends nothing more: Redis frees it, writing only what
                // the socket takes at once. A writer blocked on a peer that no longer reads
                // would otherwise hold its thread and socket for good.
                _ => {
                    let _ = self.reader.set_nonblocking(true);
                    return;
                }
            };
            self.pending.extend_from_slice(&chunk[..n]);
            let writes_before = self.info.writes.load(Ordering::Acquire);
            let mut out = Vec::new();
            let mut start = 0;
            let mut after = After::Continue;
            while after == After::Continue {
                match parse_resuming(&self.pending[start..], &mut self.partial) {
                    Ok(None) => break,
                    Ok(Some(request)) => {
                        start += request.consumed;
                        if request.args.is_empty() {
                            // An empty request still ends a CLIENT REPLY SKIP (`resetClient`).
                            self.replies.skip_this = std::mem::take(&mut self.replies.skip_next);
                        } else if looks_like_http(&request.args[0]) {
                            // Redis drops the client at once, unanswered, replies to what came
                            // before in the same read included: a web page's cross-protocol
                            // request reaching the server. The replies of earlier reads, which
                            // Redis has written by now, still go out.
                            self.info.outbox.close_when_sent();
                            return;
                        } else {
                            after = self.handle(request.args, &mut out);
                        }
                    }
                    Err(error) => {
                        after = if self.replies.silent() {
                            After::Linger
                        } else {
                            Frame::Error(error.message()).encode(self.resp3, &mut out);
                            After::Close
                        };
                    }
                }
                if self.info.killed.load(Ordering::Acquire) {
                    return;
                }
            }
            self.pending.drain(..start);
            // Output closes a client that would linger, as the write closes it in Redis: what is
            // left to send, or what went out meanwhile (a SUBSCRIBE's confirmation, a message).
            // Flagged first, a message published from now on closes it rather than be written.
            if after == After::Linger {
                if out.is_empty() {
                    lock(&self.info.state).closing = true;
                }
                if !out.is_empty() || self.info.writes.load(Ordering::Acquire) != writes_before {
                    after = After::Close;
                }
            }
            // On a close the last reply goes out first, and nothing put in after it (a message).
            if after == After::Close {
                self.info.send_last(&out);
                return;
            }
            if !self.info.send(&out) {
                return;
            }
            if after == After::Linger {
                // Until the client hangs up, a message is published to it, or CLIENT KILL.
                loop {
                    match self.reader.read(&mut chunk) {
                        Ok(1..) => {}
                        Err(e) if e.kind() == ErrorKind::Interrupted => {}
                        _ => return,
                    }
                }
            }
        }
    }

    /// Runs one command, appending its reply to `out` unless CLIENT REPLY holds it back.
    fn handle(&mut self, words: Vec<Vec<u8>>, out: &mut Vec<u8>) -> After {
        let name = words[0].to_ascii_lowercase();
        // CLIENT LIST's `cmd=`: NULL for a command (or subcommand) Redis does not find.
        let known = if answered_here(&name) {
            !served_refusal(&name, &words).is_some_and(|(_, unknown)| unknown)
        } else {
            crate::cmd::with_words(&words, crate::cmd::command_known)
        };
        self.info.touch(if known {
            command_label(&name, words.get(1))
        } else {
            "NULL".into()
        });
        // The SUBSCRIBE family's confirmations, written to `out` as they go, are sent whatever
        // CLIENT REPLY says, as Redis sends them.
        let (frame, after) = self.dispatch(&name, words, out);
        // Read after the command: CLIENT REPLY ON clears OFF and SKIP, and its OK goes out.
        let silent = self.replies.silent();
        if !silent {
            if let Some(frame) = frame {
                frame.encode(self.resp3, out);
            }
        }
        let after = match after {
            After::Close if silent => After::Linger,
            other => other,
        };
        // CLIENT REPLY SKIP holds back the reply of the command after it.
        self.replies.skip_this = std::mem::take(&mut self.replies.skip_next);
        after
    }

    /// Runs one command; its reply is returned, or (for commands with several replies)
    /// already appended to `out`.
    fn dispatch(
        &mut self,
        name: &[u8],
        words: Vec<Vec<u8>>,
        out: &mut Vec<u8>,
    ) -> (Option<Frame>, After) {
        let subscribed = self.subscriptions.any();
        if subscribed && !self.resp3 && !allowed_while_subscribed(name) {
            // Redis looks the command up and checks its arguments' count first; the context
            // names it with its subcommand (`client|id`).
            let refusal = self.refusal(name, &words).unwrap_or_else(|| {
                Frame::Error(format!(
                    "ERR Can't execute '{}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
                    command_label(name, words.get(1))
                ))
            });
            // A refused EXEC ends the transaction it would have run (`execCommandAbort`).
            let refusal = match refusal {
                Frame::Error(text) if name == b"exec" => {
                    self.exec_aborted(text.strip_prefix("ERR ").unwrap_or(&text))
                }
                other => other,
            };
            return (Some(refusal), After::Continue);
        }
        match name {
            b"quit" => return (Some(Frame::Simple("OK".into())), After::Close),
            b"reset" if words.len() > 1 => {
                let error = "ERR wrong number of arguments for 'reset' command";
                return (Some(Frame::Error(error.into())), After::Continue);
            }
            b"reset" => return (Some(self.reset()), After::Continue),
            _ => {}
        }
        if self.queued.is_some() && name == b"shutdown" {
            // Flagged `no-multi`: refused where it would be queued, and the block is doomed.
            if let Some(multi) = &mut self.session.multi {
                multi.refused = true;
            }
            let refusal = Frame::Error("ERR Command not allowed inside a transaction".into());
            return (Some(refusal), After::Continue);
        }
        if self.queued.is_some() && !matches!(name, b"exec" | b"discard" | b"multi" | b"watch") {
            return (Some(self.in_store(name, words)), After::Continue);
        }
        if answered_here(name) && !allowed_while_busy(name) {
            if let Err(busy) = self.shared.wait_for_script() {
                return (
                    Some(self.refusal(name, &words).unwrap_or(busy)),
                    After::Continue,
                );
            }
        }
        if let Some((namespace, subscribing)) = Namespace::of_command(name) {
            if subscribing {
                self.subscribe(&words, namespace, out);
            } else {
                self.unsubscribe(&words, namespace, out);
            }
            return (None, After::Continue);
        }
        let frame = match name {
            b"hello" => self.hello(&words),
            b"auth" => self.auth(&words),
            b"client" => return self.client(&words),
            b"ping" if subscribed && !self.resp3 => subscribed_pong(&words),
            b"pubsub" => self.pubsub_command(&words),
            b"info" => self.info(&words),
            b"shutdown" => {
                // While a script is busy Redis refuses a SHUTDOWN that would save.
                let saves = !words[1..].iter().any(|w| w.eq_ignore_ascii_case(b"nosave"));
                if saves {
                    if let Err(busy) = self.shared.wait_for_script() {
                        return (Some(busy), After::Continue);
                    }
                }
                match shutdown_options(&words[1..]) {
                    Ok(()) => {
                        self.shared.shut_down();
                        return (None, After::Close);
                    }
                    Err(refusal) => refusal,
                }
            }
            b"script" | b"function"
                if words.len() == 2 && words[1].eq_ignore_ascii_case(b"kill") =>
            {
                self.shared.script.kill(name == b"script")
            }
            b"debug"
                if self.shared.clock == ClockMode::Real
                    && words.len() == 3
                    && words[1].eq_ignore_ascii_case(b"sleep") =>
            {
                self.real_sleep(&words[2])
            }
            _ if timeout_position(name, &words).is_some() => {
                // The replies before a command that may wait go out now, as Redis writes
                // them while the client waits.
                if !self.flush(out) {
                    return (None, After::Close);
                }
                match self.blocking(name, words) {
                    Some(frame) => frame,
                    None => return (None, After::Close),
                }
            }
            // A RESP3 subscriber may be sent a message by its own command (PUBLISH, a
            // script's): the replies before it go out first, so the push comes after them.
            _ if subscribed && self.resp3 => {
                if !self.flush(out) {
                    return (None, After::Close);
                }
                self.in_store(name, words)
            }
            _ => self.in_store(name, words),
        };
        (Some(frame), After::Continue)
    }

    /// Redis's checks before any other refusal: an unknown command or subcommand, or a wrong
    /// number of words, for the server's own commands and the store's alike.
    fn refusal(&self, name: &[u8], words: &[Vec<u8>]) -> Option<Frame> {
        if answered_here(name) {
            return served_refusal(name, words).map(|(refusal, _)| refusal);
        }
        crate::cmd::with_words(words, crate::cmd::refusal).map(Frame::from_reply)
    }

    /// Sends the replies gathered so far; false when the socket is gone.
    fn flush(&self, out: &mut Vec<u8>) -> bool {
        let sent = self.info.send(out);
        out.clear();
        sent
    }

    /// Runs a command in the store and shapes its reply for the wire.
    fn in_store(&mut self, name: &[u8], words: Vec<Vec<u8>>) -> Frame {
        // Its own handle on the shared state, so the store's guard does not hold `self`.
        let shared = self.shared.clone();
        let reply = match shared.lock_store() {
            Ok(mut store) => {
                forget_watchers(&mut self.stale_watchers, &mut store);
                self.shared.tick(&mut store);
                let script = script_kind(name);
                if let Some(eval) = script {
                    let function = (!eval).then(|| {
                        let libraries = store.function_libraries();
                        let asked = words.get(1).cloned().unwrap_or_default();
                        RunningFunction {
                            name: libraries.registered_name(&asked).unwrap_or(asked),
                            command: words.clone(),
                            counts: libraries.counts(),
                        }
                    });
                    self.shared.script.begin(eval, function);
                }
                let reply = store.exec_in(&mut self.session, &words);
                if script.is_some() {
                    self.shared.script.end();
                }
                self.shared.serve_waiters(&mut store);
                drop(store);
                self.note_db();
                Ok(reply)
            }
            // FUNCTION STATS describes a running function instead of waiting for it; if the
            // script ended since the store said busy, it runs in the store after all.
            Err(busy) if self.session.multi.is_none() && is_function_stats(&words) => {
                match self.shared.script.function_stats() {
                    Some(stats) => Ok(stats),
                    None if !self.shared.script.running() => return self.in_store(name, words),
                    None => Err(busy),
                }
            }
            Err(busy) => Err(busy),
        };
        match reply {
            Ok(reply) => self.track_multi(name, words, reply),
            Err(busy) => self.refused_as_busy(name, &words, busy),
        }
    }

    /// A command refused because a script is busy, after Redis's own checks (an unknown
    /// command, a wrong number of arguments): inside MULTI the refusal dooms the block, and
    /// EXEC, in MULTI or not, is answered `EXECABORT` (`execCommandAbort`), the block and its
    /// WATCH list discarded (the list in the store once the store is free).
    fn refused_as_busy(&mut self, name: &[u8], words: &[Vec<u8>], busy: Frame) -> Frame {
        // Redis looks the command up and counts its arguments before it refuses it as busy.
        let refusal = self.refusal(name, words);
        if name != b"exec" || refusal.is_some() {
            if let Some(multi) = &mut self.session.multi {
                multi.refused = true;
            }
            return refusal.unwrap_or(busy);
        }
        match busy {
            Frame::Error(text) => self.exec_aborted(&text),
            other => other,
        }
    }

    /// Redis's `execCommandAbort`: the transaction and the watched keys are dropped (the
    /// store's WATCH list forgotten the next time this connection takes the store), and EXEC
    /// answers why.
    fn exec_aborted(&mut self, reason: &str) -> Frame {
        self.session.multi = None;
        if let Some(id) = self.session.watcher.take() {
            self.stale_watchers.push(id);
        }
        self.clear_multi();
        Frame::Error(format!(
            "EXECABORT Transaction discarded because of: {reason}"
        ))
    }

    /// Follows MULTI … EXEC so EXEC's elements are shaped by the commands that produced them.
    fn track_multi(&mut self, name: &[u8], words: Vec<Vec<u8>>, reply: Reply) -> Frame {
        match name {
            b"multi" if reply == Reply::ok() => {
                self.queued = Some(Vec::new());
                self.set_multi_count(0);
                Frame::from_reply(reply)
            }
            b"exec" => {
                let queued = self.queued.take().unwrap_or_default();
                self.set_multi_count(-1);
                shape_exec(&queued, reply)
            }
            b"discard" => {
                if !reply.is_error() {
                    self.queued = None;
                    self.set_multi_count(-1);
                }
                Frame::from_reply(reply)
            }
            _ => {
                if let (Some(queue), Reply::Status(status)) = (&mut self.queued, &reply) {
                    if status == "QUEUED" {
                        queue.push(words);
                        let count = i64::try_from(queue.len()).unwrap_or(i64::MAX);
                        self.set_multi_count(count);
                        return Frame::Simple("QUEUED".into());
                    }
                }
                shape(&words, reply)
            }
        }
    }

    fn set_multi_count(&self, count: i64) {
        lock(&self.info.state).multi = count;
    }

    /// DEBUG SLEEP on the real clock: the server really stops for that long, as Redis does.
    /// (The store's reading of the seconds; a test server stops for at most a million of them.)
    fn real_sleep(&self, seconds: &[u8]) -> Frame {
        let micros = crate::cmd::server::sleep_micros(seconds).min(1_000_000 * 1_000_000);
        let sleep = Duration::from_micros(micros);
        match self.shared.lock_store() {
            Ok(mut store) => {
                std::thread::sleep(sleep);
                self.shared.tick(&mut store);
                Frame::Simple("OK".into())
            }
            Err(busy) => busy,
        }
    }

    /// Forgets the connection's state in the store (RESET): database 0, no MULTI, no WATCH.
    /// Redis runs RESET while a script is busy: the session is reset at once, and its WATCH
    /// list, the one part kept in the store, is forgotten there once the store is free.
    pub(super) fn reset_session(&mut self) {
        if let Some(id) = self.session.watcher.take() {
            self.stale_watchers.push(id);
        }
        self.session = Session::new();
        if let Ok(mut store) = self.shared.store.try_lock() {
            forget_watchers(&mut self.stale_watchers, &mut store);
        }
        self.note_db();
    }

    /// Shows the selected database in CLIENT LIST.
    fn note_db(&self) {
        let db = i64::try_from(self.session.db()).unwrap_or(0);
        lock(&self.info.state).db = db;
    }

    /// Forgets the MULTI bookkeeping (RESET); the store's own session is reset by the caller.
    pub(super) fn clear_multi(&mut self) {
        self.queued = None;
        self.set_multi_count(-1);
    }
}

/// Forgets the WATCH lists a RESET left for later (see [`Conn::reset_session`]).
fn forget_watchers(ids: &mut Vec<crate::keyspace::WatcherId>, store: &mut crate::Store) {
    for id in ids.drain(..) {
        store.forget_watcher(id);
    }
}

/// SHUTDOWN's options as Redis 7.0 reads them (NOSAVE or SAVE, NOW, FORCE, or ABORT alone):
/// a refusal when they do not parse, or when they ask to abort a shutdown, which is never in
/// progress here.
fn shutdown_options(options: &[Vec<u8>]) -> Result<(), Frame> {
    let syntax = || Frame::Error("ERR syntax error".into());
    let (mut nosave, mut save, mut abort, mut other) = (false, false, false, false);
    for option in options {
        match () {
            _ if is(option, "nosave") => nosave = true,
            _ if is(option, "save") => save = true,
            _ if is(option, "now") || is(option, "force") => other = true,
            _ if is(option, "abort") => abort = true,
            _ => return Err(syntax()),
        }
    }
    if (nosave && save) || (abort && (nosave || save || other)) {
        return Err(syntax());
    }
    if abort {
        return Err(Frame::Error("ERR No shutdown in progress.".into()));
    }
    Ok(())
}

/// EVAL-family (true) or FCALL-family (false) commands run a script that may become busy.
fn script_kind(name: &[u8]) -> Option<bool> {
    match name {
        b"eval" | b"evalsha" | b"eval_ro" | b"evalsha_ro" => Some(true),
        b"fcall" | b"fcall_ro" => Some(false),
        _ => None,
    }
}

/// `FUNCTION STATS` (a word more is the store's arity error).
fn is_function_stats(words: &[Vec<u8>]) -> bool {
    matches!(words, [name, sub] if is(name, "function") && is(sub, "stats"))
}

/// The commands the connection answers itself, before (or without) the store.
fn answered_here(name: &[u8]) -> bool {
    matches!(
        name,
        b"hello"
            | b"auth"
            | b"client"
            | b"info"
            | b"pubsub"
            | b"shutdown"
            | b"subscribe"
            | b"psubscribe"
            | b"ssubscribe"
            | b"unsubscribe"
            | b"punsubscribe"
            | b"sunsubscribe"
            | b"quit"
            | b"reset"
    )
}

/// Of the connection's own commands, those Redis flags `allow-busy`: it runs them while a
/// script is busy (SHUTDOWN only with NOSAVE, which the command checks itself).
fn allowed_while_busy(name: &[u8]) -> bool {
    matches!(name, b"hello" | b"auth" | b"quit" | b"reset" | b"shutdown")
}

/// The commands a RESP2 client may send while subscribed.
fn allowed_while_subscribed(name: &[u8]) -> bool {
    matches!(
        name,
        b"subscribe"
            | b"unsubscribe"
            | b"psubscribe"
            | b"punsubscribe"
            | b"ssubscribe"
            | b"sunsubscribe"
            | b"ping"
            | b"quit"
            | b"reset"
    )
}

/// PING while subscribed (RESP2): `pong` and the message (or an empty string) as an array.
fn subscribed_pong(words: &[Vec<u8>]) -> Frame {
    match words {
        [_] => Frame::Array(vec![Frame::Bulk(b"pong".to_vec()), Frame::Bulk(Vec::new())]),
        [_, message] => Frame::Array(vec![
            Frame::Bulk(b"pong".to_vec()),
            Frame::Bulk(message.clone()),
        ]),
        _ => Frame::Error("ERR wrong number of arguments for 'ping' command".into()),
    }
}

/// CLIENT LIST's `cmd=`: the lowercase name, `container|sub` for commands with subcommands.
fn command_label(name: &[u8], sub: Option<&Vec<u8>>) -> String {
    let name = String::from_utf8_lossy(name).into_owned();
    const CONTAINERS: &[&str] = &[
        "client", "config", "script", "function", "pubsub", "object", "command", "memory",
    ];
    match sub {
        Some(sub) if CONTAINERS.contains(&name.as_str()) => {
            format!(
                "{name}|{}",
                String::from_utf8_lossy(&sub.to_ascii_lowercase())
            )
        }
        _ => name,
    }
}

/// A first word `POST` or `Host:` (any case, read up to a zero byte): an HTTP request, which
/// Redis takes for an attack and answers by closing the connection.
fn looks_like_http(word: &[u8]) -> bool {
    let word = crate::args::c_string(word);
    word.eq_ignore_ascii_case(b"post") || word.eq_ignore_ascii_case(b"host:")
}
